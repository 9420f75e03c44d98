"""``stairgames serve`` leaves no defunct child (issue 48, finding 8): the warm-up process
it starts is waited for once it ends, so the system forgets it.

The warm-up here is a real process that ends at once (``python -c pass``, put in place of
the compiling by monkeypatch); once the thread waiting for it has ended, the test reads
its state in ``/proc`` (a zombie would still be there, in state ``Z``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

import pytest

from stairgames.agents import warming
from stairgames.server import serve
from stairgames.server.base.settings import Settings

WAIT_AT_MOST = 30.0
"""Seconds the test waits for the process to end and be waited for (milliseconds)."""

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


def _trivial(arguments: Sequence[str]) -> subprocess.Popen[bytes]:
    """A warm-up that ends at once (in place of :func:`warming.launch_arguments`)."""
    return subprocess.Popen([sys.executable, "-c", "pass"], stdin=subprocess.DEVNULL)


def _still_our_child(pid: int) -> str | None:
    """The state of process ``pid`` (``Z``: ended, not waited for) while it is a child
    of this process; ``None`` once the system has forgotten it."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    state, parent = stat.rsplit(")", 1)[1].split()[:2]
    return state if int(parent) == os.getpid() else None


def test_the_warm_up_process_is_waited_for_once_it_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    reapers: list[threading.Thread] = []

    def kept(process: subprocess.Popen[bytes]) -> threading.Thread:
        reapers.append(reaped(process))
        return reapers[-1]

    reaped = serve.reaped
    monkeypatch.setattr(serve, "reaped", kept)
    monkeypatch.setattr(warming, "launch_arguments", _trivial)
    process = serve.start_warming(Settings(warm_computers=True))
    assert process is not None and len(reapers) == 1
    reapers[0].join(timeout=WAIT_AT_MOST)  # the process ends at once, then is waited for
    assert _still_our_child(process.pid) is None
    with pytest.raises(ChildProcessError):  # no child of that number left to wait for
        os.waitpid(process.pid, os.WNOHANG)
    assert process.returncode == 0
