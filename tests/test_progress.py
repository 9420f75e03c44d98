"""The one progress line and interrupt helper of long runs (``stairgames.core.progress``):
the bar, the line on a terminal and in a log, and Ctrl-C / SIGTERM as a stop request or
as an interrupt, with the handlers before put back."""

from __future__ import annotations

import io
import signal
import threading

import pytest

from stairgames.cli import main
from stairgames.core.progress import (
    BAR_WIDTH,
    ProgressLine,
    bar,
    stop_requests,
    terminate_as_interrupt,
)


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_the_bar_fills_with_the_share_done_and_never_overflows() -> None:
    assert bar(0, 7) == "." * BAR_WIDTH
    assert bar(1, 3, 30) == "#" * 10 + "." * 20
    assert bar(0.5, 1, 30) == "#" * 15 + "." * 15
    assert bar(7, 7) == bar(2.5, 1) == "#" * BAR_WIDTH


def test_a_terminal_redraws_the_line_in_place_and_ends_it_at_the_last() -> None:
    stream = Terminal()
    line = ProgressLine(stream)
    line.show("one", due=False)
    line.show("two", due=True)
    line.show("three", due=False, last=True)
    clear = "\x1b[K"  # to the end of the line: nothing of a longer line before is left
    assert stream.getvalue() == f"\rone{clear}\rtwo{clear}\rthree{clear}\n"


def test_a_log_gets_only_the_lines_that_are_due_and_the_last() -> None:
    stream = io.StringIO()
    line = ProgressLine(stream)
    line.show("one", due=False)
    line.show("two", due=True)
    line.show("three", due=False)
    line.show("four", due=False, last=True)
    assert stream.getvalue() == "two\nfour\n"


def test_ctrl_c_and_sigterm_become_a_stop_request_within_and_stop_after() -> None:
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    with stop_requests() as stop_requested:
        assert not stop_requested()
        signal.raise_signal(signal.SIGINT)  # no KeyboardInterrupt: a request
        assert stop_requested()
    with stop_requests() as stop_requested:
        signal.raise_signal(signal.SIGTERM)
        assert stop_requested()
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before


def test_sigterm_interrupts_as_ctrl_c_does_within_only() -> None:
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt), terminate_as_interrupt():
        signal.raise_signal(signal.SIGTERM)
    assert signal.getsignal(signal.SIGTERM) == before


def test_outside_the_main_thread_the_signals_stay_as_they_are() -> None:
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    seen: list[object] = []

    def run() -> None:
        with stop_requests() as stop_requested, terminate_as_interrupt():
            seen.append(signal.getsignal(signal.SIGINT))
            seen.append(signal.getsignal(signal.SIGTERM))
            seen.append(stop_requested())

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert seen == [*before, False]


def test_a_run_of_games_shows_its_bar_in_a_log(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "stairs", "--players", "random,random", "--games", "2"]) == 0
    err = capsys.readouterr().err
    half = BAR_WIDTH // 2
    assert "[" + "." * BAR_WIDTH + "] 0/2 games" in err
    assert "[" + "#" * half + "." * (BAR_WIDTH - half) + "] 1/2 games" in err
    assert "[" + "#" * BAR_WIDTH + "] 2/2 games" in err
