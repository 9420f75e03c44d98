"""The fake background compiling of the first-move tests (issue 34): a process whose end
each test decides, and a launcher that records what it was asked to start."""

from __future__ import annotations

import subprocess
from typing import Any


class FakeProcess:
    """Stands for the compiling process: running until :meth:`end`."""

    def __init__(self) -> None:
        self.returncode: int | None = None

    def poll(self) -> int | None:
        return self.returncode

    def wait(self) -> int | None:
        """What ``stairgames serve``'s reaper waits for: here, no wait (the test decides
        the end; nobody is a zombie)."""
        return self.returncode

    def end(self, code: int = 0) -> None:
        self.returncode = code


class Launches:
    """A launcher (:data:`stairgames.agents.warming.Launcher`, or
    ``warming.launch_arguments``) that records what it was asked to start (a game's name,
    or the arguments) and the fake processes it started."""

    def __init__(self) -> None:
        self.started: list[Any] = []
        self.processes: list[FakeProcess] = []

    def __call__(self, what: Any) -> subprocess.Popen[bytes]:
        self.started.append(what)
        process = FakeProcess()
        self.processes.append(process)
        return process  # type: ignore[return-value]
