"""Progress lines and interrupts of long runs (arena games, studies, solvers).

A long run shows how far it has got on one line of a stream: a :class:`Meter` draws
``[bar] done/total unit  rate  elapsed  ~remaining`` (what can be known of it: a run
whose total is unknown shows its count, rate and time) on a :class:`ProgressLine`,
which fits it to the terminal's width (:func:`fit`, at most :data:`LOG_WIDTH` columns
where the width is unknown; Japanese characters count two) and redraws it in place
(``\\r``, then clear to the end of the line), so that no update ever leaves a row
behind; into a log (a file, a pipe) it writes a line now and then instead. Results
printed while it runs go above it (:meth:`ProgressLine.note`).

Our own code rather than a progress library (rich, tqdm): the line is short, its words
are the project's translated messages (gettext), a log gets a few whole lines rather
than a stream of carriage returns, its width counts Japanese characters as two
(:func:`stairgames.i18n.display_width`), and the command line starts without loading
another package.

Ctrl-C and SIGTERM (``kill``) reach a run in one of two ways: as a request to stop at
the next checkpoint (:func:`stop_requests`, for a solver that saves its table first),
or as a :exc:`KeyboardInterrupt` (:func:`terminate_as_interrupt`, so that SIGTERM
stops worker processes just as Ctrl-C does). Signal handlers can be set only in the
main thread; elsewhere both leave the signals as they are.

>>> bar(3, 10)
'######..............'
>>> fit("[####......] 4/10 games  2.5/s  0:02  ~0:02 left", 24)
'[####......] 4/10 games '
"""

from __future__ import annotations

import collections
import contextlib
import math
import os
import re
import shutil
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final, TextIO

from stairgames.i18n import _, display_width, wrap

BAR_WIDTH: Final = 20
"""The characters of a progress bar at its widest."""
NARROWEST_BAR: Final = 10
"""A bar narrower than this is left out (the counts say it)."""
LOG_WIDTH: Final = 80
"""The columns a progress line takes where the stream's width is unknown (a log)."""
RATE_AFTER: Final = 1.0
"""Seconds of updates before a rate (and the time left from it) is shown."""
RATE_WINDOW: Final = 30.0
"""The rate is that of the updates of the last this many seconds."""
TICK_AFTER: Final = 1.0
"""Seconds without an update before :meth:`Meter.tick` draws the line again."""
LOG_EVERY: Final = 10.0
"""Seconds between two lines of progress in a log (besides every tenth of the work)."""
CLEAR_TO_END: Final = "\x1b[K"
"""The terminal's code that clears from the cursor to the end of the line."""


def bar(done: float, total: float, width: int = BAR_WIDTH) -> str:
    """A progress bar of ``width`` characters, ``#`` for the share ``done`` of ``total``
    (at most all of them), ``.`` for the rest."""
    filled = max(0, min(width, int(width * done / total))) if total > 0 else width
    return "#" * filled + "." * (width - filled)


def fit(text: str, width: int) -> str:
    """``text`` cut to at most ``width`` columns (a wide character counts two)."""
    if display_width(text) <= width:
        return text
    kept = ""
    for char in text:
        if display_width(kept + char) > width:
            break
        kept += char
    return kept


_NUMBER: Final = re.compile(r"[~(\[]*[-+]?\d[\d,.:/%]*[A-Za-z]?")
"""A word that is a number (``491,514,359``, ``2.87``, ``(3/10``, ``1.2M``): it keeps
the word after it (its unit) on its row."""


def wrap_keeping_numbers(text: str, width: int) -> list[str]:
    """``text`` broken into rows of at most ``width`` columns at spaces, never between a
    number and the word after it (``2.87 s`` and ``491,514,359 positions`` stay on one
    row); a word wider than a row (Japanese, without spaces) is broken as
    :func:`stairgames.i18n.wrap` breaks it."""
    words: list[str] = []
    for word in text.split(" "):
        if words and _NUMBER.fullmatch(words[-1].rsplit(" ", 1)[-1]) and word:
            words[-1] += " " + word
        else:
            words.append(word)
    rows: list[str] = []
    row = ""
    for word in words:
        joined = f"{row} {word}" if row else word
        if display_width(joined) <= width:
            row = joined
            continue
        if row:
            rows.append(row)
        pieces = wrap(word, width) if display_width(word) > width else [word]
        rows.extend(pieces[:-1])
        row = pieces[-1] if pieces else ""
    rows.append(row)
    return rows


def stream_width(stream: TextIO) -> int:
    """The columns of the terminal ``stream`` is (:data:`LOG_WIDTH` where that cannot be
    told)."""
    try:
        return os.get_terminal_size(stream.fileno()).columns or LOG_WIDTH
    except (AttributeError, OSError, ValueError):
        return shutil.get_terminal_size((LOG_WIDTH, 24)).columns or LOG_WIDTH


class ProgressLine:
    """One line of progress on ``stream``: on a terminal each :meth:`show` redraws it in
    place (``\\r``, the line, clear to the end of the line), cut to one column less than
    the terminal's width (``width``: the terminal's, or :data:`LOG_WIDTH` where it is
    unknown) so that it never wraps onto a new row; elsewhere (a log, a pipe) a line is
    written only when the caller says it is due, so that the log stays short."""

    def __init__(self, stream: TextIO, *, width: int | None = None) -> None:
        self.stream = stream
        self.live = stream.isatty()
        """Whether ``stream`` is a terminal (the line is redrawn in place)."""
        if width is None:
            width = stream_width(stream) if self.live else LOG_WIDTH
        self.width = max(1, width - 1 if self.live else width)
        """The columns a line may take."""
        self._drawn = ""
        """The line on the terminal now (empty when none is)."""

    def show(self, line: str, *, due: bool, last: bool = False) -> None:
        """Shows ``line``: redrawn on a terminal (ending the line when ``last``), else
        written as a new line where ``due`` or ``last``."""
        line = fit(line, self.width)
        if self.live:
            self.stream.write("\r" + line + CLEAR_TO_END + ("\n" if last else ""))
            self._drawn = "" if last else line
        elif due or last:
            self.stream.write(line + "\n")
        self.stream.flush()

    def note(self, text: str, out: TextIO | None = None) -> None:
        """Writes ``text`` as lines of their own above the progress line, on the line's
        stream or on ``out`` (standard output beside a line on standard error: the
        progress line is cleared first, and drawn again below them on a terminal)."""
        target = self.stream if out is None else out
        if self.live and self._drawn:
            self.stream.write("\r" + CLEAR_TO_END)
            self.stream.flush()
        rows = [row for line in text.split("\n") for row in wrap_keeping_numbers(line, self.width)]
        target.write("\n".join(rows) + "\n")
        target.flush()
        if self.live and self._drawn:
            self.stream.write(self._drawn + CLEAR_TO_END)
            self.stream.flush()

    def end(self) -> None:
        """Ends the line on a terminal (what is written next goes below it)."""
        if self.live and self._drawn:
            self.stream.write("\n")
            self.stream.flush()
        self._drawn = ""


def duration_text(seconds: float) -> str:
    """``0:07``, ``12:05``, ``3:02:09``: minutes and seconds, with hours where there are
    any."""
    whole = max(0, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, seconds_left = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds_left:02d}"
    return f"{minutes}:{seconds_left:02d}"


def count_text(count: float) -> str:
    """A count as players read it: ``987``, ``12,345``, ``830k``, ``1.23M``, ``4.56G``,
    ``7.8`` (a count with a fraction keeps one decimal below 100)."""
    if count >= 1e9:
        return f"{count / 1e9:.2f}G"
    if count >= 1e6:
        return f"{count / 1e6:.2f}M"
    if count >= 1e5:
        return f"{count / 1e3:.0f}k"
    if count != int(count) and count < 100:
        return f"{count:.1f}"
    return f"{round(count):,}"


def byte_text(count: int) -> str:
    """A size in bytes: ``512 B``, ``12.3 kB``, ``1.1 GB``."""
    for limit, unit in ((1e9, "GB"), (1e6, "MB"), (1e3, "kB")):
        if count >= limit:
            return f"{count / limit:.1f} {unit}"
    return f"{count} B"


def rate_text(per_second: float) -> str:
    """A rate: ``1,234/s``, ``2.5/s``, or per minute or hour when below one a second."""
    if per_second >= 1:
        return _("{count}/s").format(count=count_text(per_second))
    if per_second * 60 >= 1:
        return _("{count}/min").format(count=f"{per_second * 60:.1f}")
    return _("{count}/h").format(count=f"{per_second * 3600:.1f}")


class Meter:
    """A run's progress on a :class:`ProgressLine`: ``[bar] done/total unit  rate
    elapsed  ~remaining  detail``, the bar as wide as the line leaves room for (left
    out where narrower than :data:`NARROWEST_BAR`), the rate and the time left from the
    work done in this run (a run that goes on from earlier work counts from where it
    began). Without a total: ``done unit  rate  elapsed  detail``. In a log a line is
    written at the first update, at each tenth of the total, every :data:`LOG_EVERY`
    seconds and at the end."""

    def __init__(
        self,
        stream: TextIO,
        unit: str,
        *,
        total: float | None = None,
        approximate: bool = False,
        width: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.line = ProgressLine(stream, width=width)
        self.unit = unit
        """What is counted, as players read it (``games``, ``positions``)."""
        self.total = total
        self.approximate = approximate
        """Whether the total is an estimate (shown as ``~total``)."""
        self.clock = clock
        self.started = clock()
        self._samples: collections.deque[tuple[float, float]] = collections.deque()
        """``(elapsed, done)`` of the updates of the last :data:`RATE_WINDOW` seconds
        (and the one before them), whose slope is the rate."""
        self._logged_at = -math.inf
        self._logged_tenth = -1
        self._shown: tuple[float, str] | None = None
        """The last update (count and detail), for :meth:`tick`."""
        self._lock = threading.Lock()
        """Held while a line is drawn (:meth:`ticking` draws from a thread of its own)."""

    def elapsed(self) -> float:
        """Seconds since the meter was made."""
        return self.clock() - self.started

    def update(
        self, done: float, *, total: float | None = None, detail: str = "", last: bool = False
    ) -> None:
        """Shows that ``done`` units are done (of ``total``, where given: it replaces the
        total known so far); ``detail`` goes at the end of the line, ``last`` ends it."""
        with self._lock:
            if total is not None:
                self.total = total
            elapsed = self.elapsed()
            self._sample(elapsed, done)
            line = self.text(done, elapsed, detail)
            self.line.show(line, due=self._due(done, elapsed), last=last)
            self._shown = None if last else (done, detail)

    def tick(self) -> None:
        """Draws the last update again on a terminal, with the time now (a step that
        takes long shows that it runs)."""
        with self._lock:
            if self.line.live and self._shown is not None and self._samples:
                elapsed = self.elapsed()
                if elapsed - self._samples[-1][0] >= TICK_AFTER:
                    done, detail = self._shown
                    self.line.show(self.text(done, elapsed, detail), due=False)

    @contextlib.contextmanager
    def ticking(self, every: float = 1.0) -> Iterator[None]:
        """Within it, :meth:`tick` every ``every`` seconds, from a thread of its own (on
        a terminal only: a log gets its lines from the updates)."""
        if not self.line.live:
            yield
            return
        stop = threading.Event()

        def run() -> None:
            while not stop.wait(every):
                self.tick()

        ticker = threading.Thread(target=run, name="progress-ticker", daemon=True)
        ticker.start()
        try:
            yield
        finally:
            stop.set()
            ticker.join()

    def note(self, text: str, out: TextIO | None = None) -> None:
        """A line of its own above the progress line (a result as it comes), on the
        meter's stream or on ``out`` (:meth:`ProgressLine.note`)."""
        with self._lock:
            self.line.note(text, out)

    def end(self) -> None:
        """Ends the progress line (what is printed next goes below it)."""
        with self._lock:
            self.line.end()
            self._shown = None

    def rate(self) -> float:
        """Units a second over the last :data:`RATE_WINDOW` seconds of updates (0 until
        they span :data:`RATE_AFTER` seconds): the start of a run (loading, compiling)
        and work done before it do not count."""
        if len(self._samples) < 2:
            return 0.0
        (began, first), (ended, last) = self._samples[0], self._samples[-1]
        if ended - began < RATE_AFTER or last <= first:
            return 0.0
        return (last - first) / (ended - began)

    def _sample(self, elapsed: float, done: float) -> None:
        """Keeps the update ``(elapsed, done)`` for :meth:`rate`."""
        samples = self._samples
        if samples and done < samples[-1][1]:
            samples.clear()  # counted again from less: the rate starts afresh
        samples.append((elapsed, done))
        while len(samples) > 2 and elapsed - samples[1][0] >= RATE_WINDOW:
            samples.popleft()

    def text(self, done: float, elapsed: float, detail: str = "") -> str:
        """The line for ``done`` units after ``elapsed`` seconds, fitted to the width:
        the bar narrows to make room for ``detail``, then goes where the counts and
        times leave it no room; ``detail`` is cut first."""
        total = self.total
        rate = self.rate()
        parts = []
        if total is not None:
            about = "~" if self.approximate else ""
            parts.append(f"{count_text(done)}/{about}{count_text(total)} {self.unit}")
        else:
            parts.append(f"{count_text(done)} {self.unit}")
        if rate > 0:
            parts.append(rate_text(rate))
        parts.append(duration_text(elapsed))
        if total is not None and rate > 0 and done < total:
            parts.append(_("~{time} left").format(time=duration_text((total - done) / rate)))
        text = "  ".join(parts)
        tail = "  " + detail if detail else ""
        if total is not None:
            room = self.line.width - display_width(text) - 3  # "[", "] "
            if room >= NARROWEST_BAR:
                fits = room - display_width(tail)
                width = min(BAR_WIDTH, max(NARROWEST_BAR, fits))
                text = f"[{bar(done, total, width)}] {text}"
        return fit(text + tail, self.line.width)

    def _due(self, done: float, elapsed: float) -> bool:
        """Whether a log gets this update: the first, one that reaches a new tenth of
        the total, or the first after :data:`LOG_EVERY` seconds without a line."""
        tenth = -1 if not self.total else int(10 * done / self.total)
        due = elapsed - self._logged_at >= LOG_EVERY or tenth > self._logged_tenth
        if due:
            self._logged_at, self._logged_tenth = elapsed, max(tenth, self._logged_tenth)
        return due


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
    "LOG_WIDTH",
    "Meter",
    "ProgressLine",
    "bar",
    "byte_text",
    "count_text",
    "duration_text",
    "fit",
    "rate_text",
    "signals_handled",
    "stop_requests",
    "stream_width",
    "terminate_as_interrupt",
    "wrap_keeping_numbers",
]
