"""Driving ``stairgames`` through a pseudo-terminal of 80×24, as a person would see it.

:class:`PtyPlay` starts the command in a child process on a pty with a fixed window
size, answers its prompts, and keeps what it wrote; :func:`rows` turns that output into
the rows a terminal of 80 columns shows (wide characters take two, long lines wrap,
``\\x1b[2J`` clears). No sleeps: reading waits on ``select`` for the next prompt, with a
generous limit that only fails a test that hangs.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
from collections.abc import Sequence
from pathlib import Path

from stairgames.i18n import display_width

COLUMNS = 80
LINES = 24
HANG_LIMIT = 120.0
"""Seconds without the expected prompt before a test gives up (a hang, not a timing)."""
ROOT = Path(__file__).resolve().parents[1]
CLEAR = "\x1b[2J"
_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|\x1b[=>]")


def rows(text: str, columns: int = COLUMNS) -> list[str]:
    """The rows ``text`` fills on a terminal ``columns`` wide, from its last clear on:
    ``\\r`` returns to the start of the row, long lines wrap, other escapes are dropped."""
    if CLEAR in text:
        text = text[text.rindex(CLEAR) + len(CLEAR) :]
    text = _ESCAPE.sub("", text)
    result: list[str] = []
    for line in text.replace("\r\n", "\n").split("\n"):
        line = line.rsplit("\r", 1)[-1]
        row = ""
        for char in line:
            if display_width(row + char) > columns:
                result.append(row)
                row = ""
            row += char
        result.append(row)
    return result


class PtyPlay:
    """``stairgames ARGS`` on a pty of 80×24 (stdin, stdout and stderr a terminal)."""

    def __init__(
        self,
        args: Sequence[str],
        *,
        cwd: Path,
        env: dict[str, str] | None = None,
        code: str | None = None,
    ):
        """``code``: Python to run instead of ``stairgames ARGS`` (a session set up from
        a position)."""
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", LINES, COLUMNS, 0, 0))
        environment = {
            k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "COLUMNS"))
        }
        environment.update({"LANG": "C.UTF-8", "TERM": "xterm", "NO_COLOR": "1"})
        environment.update(env or {})
        environment["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + str(ROOT)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "stairgames", *args]
            if code is None
            else [sys.executable, "-c", code, *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=cwd,
            env=environment,
            start_new_session=True,
            close_fds=True,
        )
        os.close(slave)
        self.output = ""
        self._raw = b""
        self.prompts: list[int] = []
        """Where each answered prompt ended in :attr:`output`."""

    def read_until(self, pattern: str) -> str:
        """Read until ``pattern`` (a regular expression) matches the output since the last
        answer; returns that output. Raises ``EOFError`` when the program ends first."""
        start = self.prompts[-1] if self.prompts else 0
        regex = re.compile(pattern)
        while not regex.search(self.output, start):
            ready, _, _ = select.select([self.master], [], [], HANG_LIMIT)
            if not ready:
                raise TimeoutError(f"no {pattern!r} in:\n{self.output[start:]}")
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                raise EOFError(self.output[start:])
            self._raw += chunk
            self.output = self._raw.decode("utf-8", errors="replace")
        return self.output[start:]

    def answer(self, text: str) -> None:
        """Type ``text`` and Enter at the prompt just read."""
        self.prompts.append(len(self.output))
        os.write(self.master, text.encode() + b"\r")

    def screen(self) -> list[str]:
        """The rows on screen now: the last 24 of everything written."""
        return rows(self.output)[-LINES:]

    def since_last_answer(self) -> list[str]:
        """The rows written from the row of the last answer (its prompt and echo) on, or
        from the last clear of the screen when that came later."""
        start = self.prompts[-1] if self.prompts else 0
        before = self.output[:start]
        line_start = before.rfind("\n") + 1
        text = self.output[line_start:]
        return rows(text)

    def finish(self) -> int:
        """Read to the end and wait for the program; returns its exit status."""
        with contextlib.suppress(EOFError):
            self.read_until(r"(?!)")
        os.close(self.master)
        return self.process.wait(timeout=HANG_LIMIT)

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
