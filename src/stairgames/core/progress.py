"""Progress lines and interrupts of long runs (arena games, studies, solvers).

A long run shows how far it has got on one line of a stream (:class:`ProgressLine`,
drawing a :func:`bar`): redrawn in place on a terminal, printed now and then as a new
line into a log. Ctrl-C and SIGTERM (``kill``) reach it in one of two ways: as a
request to stop at the next checkpoint (:func:`stop_requests`, for a solver that saves
its table first), or as a :exc:`KeyboardInterrupt` (:func:`terminate_as_interrupt`, so
that SIGTERM stops worker processes just as Ctrl-C does). Signal handlers can be set
only in the main thread; elsewhere both leave the signals as they are.

>>> bar(3, 10)
'#########.....................'
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final, TextIO

BAR_WIDTH: Final = 30
"""The characters of a progress bar."""


def bar(done: float, total: float) -> str:
    """A progress bar of :data:`BAR_WIDTH` characters, ``#`` for the share ``done`` of
    ``total`` (at most all of them), ``.`` for the rest."""
    filled = min(BAR_WIDTH, int(BAR_WIDTH * done / total))
    return "#" * filled + "." * (BAR_WIDTH - filled)


class ProgressLine:
    """One line of progress on ``stream``: on a terminal each :meth:`show` redraws it in
    place (``\\r``); elsewhere (a log, a pipe) a line is written only when the caller
    says it is due, so that the log stays short."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.live = stream.isatty()
        """Whether ``stream`` is a terminal (the line is redrawn in place)."""

    def show(self, line: str, *, due: bool, last: bool = False) -> None:
        """Shows ``line``: redrawn on a terminal (ending the line when ``last``), else
        written as a new line where ``due`` or ``last``."""
        if self.live:
            self.stream.write("\r" + line + ("\n" if last else ""))
        elif due or last:
            self.stream.write(line + "\n")
        self.stream.flush()


Handler = Callable[[int, Any], None]
"""A signal handler: ``handler(signum, frame)``."""


@contextlib.contextmanager
def signals_handled(handler: Handler, signums: Sequence[signal.Signals]) -> Iterator[None]:
    """Within it, ``handler`` answers the signals ``signums`` (where this is the main
    thread: elsewhere they stay as they are); the handlers before come back after."""
    previous: dict[signal.Signals, Any] = {}
    try:
        for signum in signums:
            previous[signum] = signal.signal(signum, handler)
    except ValueError:  # not the main thread: signals stay as they are
        pass
    try:
        yield
    finally:
        for handled, earlier in previous.items():
            signal.signal(handled, earlier)


@contextlib.contextmanager
def stop_requests() -> Iterator[Callable[[], bool]]:
    """Within it, Ctrl-C and SIGTERM ask the run to stop, instead of stopping the process
    at once: the function it gives says whether they have (the run looks at its next
    checkpoint, and stops there with its work saved)."""
    requested = [False]

    def request(signum: int, frame: object) -> None:
        del signum, frame
        requested[0] = True

    with signals_handled(request, (signal.SIGINT, signal.SIGTERM)):
        yield lambda: requested[0]


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """Within it, SIGTERM (``kill``) stops the run as Ctrl-C does (a
    :exc:`KeyboardInterrupt`): worker processes or remote tasks are stopped with it
    rather than left running, and the caller keeps what it was told of."""

    def interrupt(signum: int, frame: object) -> None:
        del signum, frame
        raise KeyboardInterrupt

    with signals_handled(interrupt, (signal.SIGTERM,)):
        yield


__all__ = [
    "BAR_WIDTH",
    "ProgressLine",
    "bar",
    "signals_handled",
    "stop_requests",
    "terminate_as_interrupt",
]
