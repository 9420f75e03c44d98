"""Long solves stop cleanly on Ctrl-C (SIGINT) and on ``kill`` (SIGTERM) with one job,
keeping what is done, and ``--resume`` goes on from it (issue 49, point 5: a 5×5 Stairs
solve in one process searched on in its compiled loop, deaf to both signals).

Each test starts the command in a process of its own, reads its standard error (with
``select``, never sleeping) until it shows that it is searching, sends the signal, and
reads how it ended from its exit status and its words."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from stairgames.games.stairs.research import anysize

STARTING = 180.0
"""Seconds a solve may take to load and show that it searches (a busy machine)."""
STOPPING = 120.0
"""Seconds a stopped solve may take to end; a 5×5 part takes many minutes, so a solve
that did not stop would run far past it (and be killed, failing the test)."""


def _ctrl_c_as_at_a_terminal() -> None:
    """Run in the child before it starts: Ctrl-C's signal as a terminal's shell leaves
    it. A command started in the background by a shell without job control (``make
    test &`` in a script) inherits SIGINT ignored, and Python then never installs its
    handler: the solve would not hear the signal the test sends."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start(arguments: list[str]) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "stairgames", *arguments]
    environment = {**os.environ, "LANG": "C.UTF-8", "LANGUAGE": "en"}
    return subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environment,
        preexec_fn=_ctrl_c_as_at_a_terminal,
    )


def _read_until(process: subprocess.Popen[bytes], wanted: bytes, timeout: float) -> bytes:
    """Standard error of ``process`` up to where it shows ``wanted`` (failing after
    ``timeout`` seconds without it, or when the process ends first)."""
    assert process.stderr is not None
    stream = process.stderr.fileno()
    seen = b""
    deadline = time.monotonic() + timeout
    while wanted not in seen:
        ready, _, _ = select.select([stream], [], [], max(0.0, deadline - time.monotonic()))
        assert ready, f"no {wanted!r} within {timeout} s: {seen[-2000:]!r}"
        chunk = os.read(stream, 65536)
        assert chunk, f"the process ended before {wanted!r}: {seen[-2000:]!r}"
        seen += chunk
    return seen


def _stop(process: subprocess.Popen[bytes], signum: signal.Signals) -> tuple[int, str]:
    """Sends ``signum`` and waits for the end: the exit status and all it wrote."""
    process.send_signal(signum)
    try:
        out, err = process.communicate(timeout=STOPPING)
    finally:
        process.kill()
    return process.returncode, (out + err).decode("utf-8", "replace")


def _fake_parts(count: int) -> list[dict[str, object]]:
    """A record of the first ``count`` parts of 5×5 as a run stopped after them would
    have kept them (their values are not looked at before every part is solved)."""
    groups = anysize.first_move_classes(5)
    return [
        {"moves": list(moves), "winner": "D", "nodes": 1000, "seconds": 1.0}
        for moves in groups[:count]
    ]


@pytest.mark.parametrize("first, second", [(signal.SIGINT, signal.SIGTERM)])
@pytest.mark.slow
def test_a_one_job_5x5_solve_stops_on_ctrl_c_and_kill_and_resume_goes_on(
    tmp_path: Path, first: signal.Signals, second: signal.Signals
) -> None:
    record = tmp_path / "stairs-5.parts.json"
    record.write_text(json.dumps(_fake_parts(2)), encoding="utf-8")
    groups = anysize.first_move_classes(5)
    arguments = ["solve", "stairs", "--size", "5", "--try-larger", "--resume"]
    arguments += ["--out", str(tmp_path)]
    for signum in (first, second):
        solving = _start(arguments)
        shown = _read_until(solving, b"part 3: " + groups[2][0].encode(), STARTING)
        assert b"2 solved before" in shown  # it went on from the two parts kept
        status, said = _stop(solving, signum)
        assert status == 130, said
        assert "Interrupted: the parts solved are kept; --resume goes on" in said
        assert json.loads(record.read_text(encoding="utf-8")) == _fake_parts(2)


@pytest.mark.slow
def test_a_solve_that_ends_keeps_every_part_and_reports_without_a_broken_line(
    tmp_path: Path,
) -> None:
    solving = _start(["solve", "stairs", "--size", "4", "--parts", "--out", str(tmp_path)])
    out, err = solving.communicate(timeout=STARTING)
    assert solving.returncode == 0, err
    printed = out.decode()
    assert f"Saved to {tmp_path / 'stairs-4.json'}\n" in printed
    assert any(line.startswith("Took ") and line.endswith(" s.") for line in printed.split("\n"))
    assert len(json.loads((tmp_path / "stairs-4.parts.json").read_text("utf-8"))) == 12
