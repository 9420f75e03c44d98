"""Driving ``stairgames`` through a pseudo-terminal of 80×24, as a person would see it.

:class:`PtyPlay` starts the command in a child process on a pty with a fixed window
size, answers its prompts, and keeps what it wrote; :func:`rows` turns that output into
the rows a terminal of 80 columns shows (wide characters take two, long lines wrap,
``\\x1b[2J`` clears). :class:`Terminal` is a real terminal emulator (pyte) fed with the
same output, that keeps its history as tmux does. No sleeps: reading waits on ``select``
for the next prompt, with a generous limit that only fails a test that hangs.
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
from typing import Any

import pyte
from wcwidth import wcwidth

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


HISTORY_LIMIT = 1_000_000
"""Rows a :class:`Terminal` keeps in its history: all of a whole game's."""


class KeepingScreen(pyte.HistoryScreen):
    """pyte's screen with a history, which keeps what a clear erases, as tmux (by default)
    and many other terminals do: ``ESC[2J`` moves the screen's rows, down to its last
    written one, into the history before erasing them; ``ESC[3J`` erases the history.
    (pyte itself only keeps the rows that scroll off the top.)"""

    def erase_in_display(self, how: int = 0, *args: Any, **kwargs: Any) -> None:
        if how == 2:
            written = [y for y in range(self.lines) if row_text(self.buffer[y], self.columns)]
            for y in range(max(written, default=-1) + 1):
                kept: pyte.screens.StaticDefaultDict[int, pyte.screens.Char]
                kept = pyte.screens.StaticDefaultDict(self.buffer[y].default)
                kept.update(self.buffer[y])
                self.history.top.append(kept)
        super().erase_in_display(how, *args, **kwargs)


def row_text(line: dict[int, Any], columns: int) -> str:
    """A row of a pyte screen as text, its trailing blanks left out (a wide character
    takes two cells, the second of them empty)."""
    chars: list[str] = []
    wide = False
    for x in range(columns):
        if wide:
            wide = False
            continue
        data: str = line[x].data
        chars.append(data)
        wide = bool(data) and wcwidth(data[0]) == 2
    return "".join(chars).rstrip()


class Terminal:
    """A terminal emulator of ``columns``×``lines`` keeping a long history
    (:class:`KeepingScreen`): what a person sees, and what they could scroll back to."""

    def __init__(self, columns: int = COLUMNS, lines: int = LINES) -> None:
        self.screen = KeepingScreen(columns, lines, history=HISTORY_LIMIT)
        self.stream = pyte.ByteStream(self.screen)

    def feed(self, data: bytes) -> None:
        self.stream.feed(data)

    def display(self) -> list[str]:
        """The rows on screen, top to bottom (trailing blanks left out)."""
        return [
            row_text(self.screen.buffer[y], self.screen.columns) for y in range(self.screen.lines)
        ]

    def history(self) -> list[str]:
        """The rows above the screen that scrolling back shows, oldest first."""
        return [row_text(line, self.screen.columns) for line in self.screen.history.top]

    def everything(self) -> list[str]:
        """The history and the screen: every row a person at the terminal can read."""
        return self.history() + self.display()


class PtyPlay:
    """``stairgames ARGS`` on a pty of 80×24 (stdin, stdout and stderr a terminal)."""

    def __init__(
        self,
        args: Sequence[str],
        *,
        cwd: Path,
        env: dict[str, str] | None = None,
        code: str | None = None,
        colour: bool = False,
    ):
        """``code``: Python to run instead of ``stairgames ARGS`` (a session set up from
        a position); ``colour``: leave ``NO_COLOR`` unset, so that the game paints."""
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", LINES, COLUMNS, 0, 0))
        environment = {
            k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "COLUMNS"))
        }
        environment.pop("NO_COLOR", None)
        environment.update({"LANG": "C.UTF-8", "TERM": "xterm"})
        if not colour:
            environment["NO_COLOR"] = "1"
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
        self.terminal = Terminal()
        """The emulator the output is fed to, as it comes."""
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
            self.terminal.feed(chunk)
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
