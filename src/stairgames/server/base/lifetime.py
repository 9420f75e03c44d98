"""Processes that end with the process that started them, even when it is killed with
``kill -9``: the computer players' processes (``play/computer.py``) and the workers of
``stairgames serve --workers N`` (``serve.worker_app``). Without it, a supervisor killed
outright left its workers serving the port, and the next start failed: address in use.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1
"""Linux's ``prctl`` option: the signal this process gets when its parent dies."""
WATCH_SECONDS = 1.0
"""How often the watchdog thread looks whether the parent is still the same."""


def die_with_parent(parent: int, how: signal.Signals = signal.SIGKILL, grace: float = 0.0) -> None:
    """Make this process end when ``parent`` dies, even by ``kill -9``: Linux sends it
    ``how`` (``PR_SET_PDEATHSIG``); everywhere, a watchdog thread sees the parent change
    (the orphan adopted) and ends the process ``grace`` seconds later, whatever ``how``
    started (a graceful stop that hangs). A process whose parent is already gone ends
    at once."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, int(how), 0, 0, 0)
    if os.getppid() != parent:  # it died before the signal was asked for
        os._exit(1)
    threading.Thread(
        target=_watch_parent, args=(parent, grace), name="stairgames-watchdog", daemon=True
    ).start()


def _watch_parent(parent: int, grace: float) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    if grace > 0:
        time.sleep(grace)
    os._exit(1)


__all__ = ["die_with_parent"]
