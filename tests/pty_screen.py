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
            pass_fds=self._popen_fds(),
        )
        os.close(slave)
        self.output = ""
        self._raw = b""
        self.terminal = Terminal()
        """The emulator the output is fed to, as it comes."""
        self.prompts: list[int] = []
        """Where each answered prompt ended in :attr:`output`."""

    def _popen_fds(self) -> tuple[int, ...]:
        """File descriptors the child keeps (besides its terminal)."""
        return ()

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


LOGGING_DRIVER = """
import json, os, sys
from stairgames import terminal
from stairgames.cli import main

Session = terminal.TerminalSession
log = os.fdopen(int(os.environ["STAIRGAMES_TEST_LOG"]), "w", buffering=1)
if os.environ.get("STAIRGAMES_TEST_KEEP_HISTORY"):
    terminal.CLEAR_HISTORY = ""  # the defect of issue 49: the scrollback kept

def note(**entry):
    log.write(json.dumps(entry) + "\\n")

def wrap(name, before):
    original = getattr(Session, name)
    def wrapper(self, *args, **kwargs):
        before(self, *args, **kwargs)
        return original(self, *args, **kwargs)
    setattr(Session, name, wrapper)

def told(self, text, minor=False):
    note(told=text, minor=minor)

def applied(self, action, narrate=True):
    mover = None if self.state.is_chance_node() else self.state.current_player()
    note(apply=self.state.action_to_string(action), mover=mover)

def prompted(self, seat):
    if self._viewing is None:
        picture = self.spec.render(self.state, colour=False, viewer=self._viewer())
        names = [terminal._(self.state.seat_name(s)) for s in range(len(self.players))]
        label = self.seat_label(seat)
        note(prompt=seat, moves=self.move_texts(), picture=picture, label=label, names=names)

def asked(self, question):
    note(ask=question)

wrap("tell", told)
wrap("_apply", applied)
wrap("_prompt", prompted)
wrap("_ask", asked)
sys.exit(main(sys.argv[1:]))
"""
"""Python that runs ``stairgames ARGS`` and writes what the session does to the pipe
:class:`LoggedPlay` reads: each line told, each action applied (and who moved), each
prompt (its seat, legal moves and the board as drawn for it) and each question asked."""


class LoggedPlay(PtyPlay):
    """:class:`PtyPlay` of ``stairgames ARGS`` that also says, through a pipe, what the
    session did (:data:`LOGGING_DRIVER`): a test knows whose prompt it is, the moves it
    may type and what was told, whatever the language."""

    def __init__(
        self,
        args: Sequence[str],
        *,
        cwd: Path,
        env: dict[str, str] | None = None,
        colour: bool = False,
    ):
        self._log_read, log_write = os.pipe()
        os.set_inheritable(log_write, True)
        self._log_buffer = b""
        self.events: list[dict[str, Any]] = []
        """Every entry of the log read so far, in order."""
        environment = {**(env or {}), "STAIRGAMES_TEST_LOG": str(log_write)}
        self._pass_fd = log_write
        super().__init__(args, cwd=cwd, env=environment, code=LOGGING_DRIVER, colour=colour)
        os.close(log_write)

    def _popen_fds(self) -> tuple[int, ...]:
        return (self._pass_fd,)

    def next_question(self) -> dict[str, Any]:
        """Read the log (and the terminal meanwhile) to the next prompt or question, then
        the terminal until it shows it; returns its entry. ``EOFError`` at the end."""
        while True:
            entry = self._next_entry()
            if "prompt" in entry or "ask" in entry:
                break
        question = entry["ask"] if "ask" in entry else entry["label"] + "> "
        self.read_until(re.escape(question.rstrip()) + r"\s*$")
        return entry

    def _next_entry(self) -> dict[str, Any]:
        import json

        while b"\n" not in self._log_buffer:
            ready, _, _ = select.select([self._log_read, self.master], [], [], HANG_LIMIT)
            if not ready:
                raise TimeoutError(f"no log entry; the terminal shows:\n{self.output[-2000:]}")
            if self.master in ready:
                self._drain()
            if self._log_read in ready:
                chunk = os.read(self._log_read, 65536)
                if not chunk:
                    raise EOFError(self.output[-2000:])
                self._log_buffer += chunk
        line, self._log_buffer = self._log_buffer.split(b"\n", 1)
        entry: dict[str, Any] = json.loads(line)
        self.events.append(entry)
        return entry

    def _drain(self) -> None:
        try:
            chunk = os.read(self.master, 65536)
        except OSError:
            chunk = b""
        if chunk:
            self._raw += chunk
            self.terminal.feed(chunk)
            self.output = self._raw.decode("utf-8", errors="replace")

    def kill(self) -> None:
        super().kill()
        with contextlib.suppress(OSError):
            os.close(self._log_read)
