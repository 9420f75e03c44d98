"""Progress stays on one line at 80 columns (issue 49, point 4): every redraw on a
terminal starts with a carriage return and fits the width, in English and Japanese,
with a rate and the time left where the total is known; results printed beside it
never break a number from its unit."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from stairgames.cli import main
from stairgames.core.progress import (
    CLEAR_TO_END,
    Meter,
    duration_text,
    wrap_keeping_numbers,
)
from stairgames.i18n import display_width, set_language

COLUMNS = 80


class Terminal(io.StringIO):
    """A stream that says it is a terminal (of :data:`COLUMNS` columns, through
    ``$COLUMNS``, where it is asked)."""

    def isatty(self) -> bool:
        return True


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[], Terminal]]:
    """Makes standard error and output terminals of 80 columns (call it in the test:
    pytest puts its own streams back between a fixture and the test) and gives
    standard error."""
    monkeypatch.setenv("COLUMNS", str(COLUMNS))

    def make() -> Terminal:
        stream = Terminal()
        monkeypatch.setattr("sys.stderr", stream)
        monkeypatch.setattr("sys.stdout", Terminal())
        return stream

    yield make
    set_language("en")


def _redraws(written: str) -> list[str]:
    """What each redraw of a progress line showed (the text after each carriage return,
    without the code that clears the rest of the line)."""
    return [
        piece.split("\n")[0].replace(CLEAR_TO_END, "")
        for piece in written.split("\r")[1:]
        if piece.split("\n")[0].replace(CLEAR_TO_END, "")
    ]


def _assert_one_row_each(written: str) -> None:
    """No redraw is wider than the terminal (so none wraps onto a new row), nor is any
    row of the results printed beside it (but a word too long for any row: a path)."""
    for shown in _redraws(written):
        assert display_width(shown) < COLUMNS, shown
    for row in written.split("\n"):
        for piece in row.split("\r"):
            piece = piece.replace(CLEAR_TO_END, "")
            assert display_width(piece) <= COLUMNS or " " not in piece, piece


def test_a_meter_draws_bar_counts_rate_elapsed_and_time_left() -> None:
    stream, clock = Terminal(), Clock()
    meter = Meter(stream, "games", total=100, width=COLUMNS, clock=clock)
    meter.update(0)
    clock.now += 2
    meter.update(10)
    shown = _redraws(stream.getvalue())
    assert shown[0] == "[" + "." * 20 + "] 0/100 games  0:00"
    assert shown[1] == "[##" + "." * 18 + "] 10/100 games  5/s  0:02  ~0:18 left"
    assert stream.getvalue() == "".join(f"\r{line}{CLEAR_TO_END}" for line in shown)


def test_without_a_total_it_shows_the_count_rate_and_time_only() -> None:
    stream, clock = Terminal(), Clock()
    meter = Meter(stream, "positions", width=COLUMNS, clock=clock)
    meter.update(1_000)
    clock.now += 4
    meter.update(2_501_000, detail="table 1.1 GB")
    assert _redraws(stream.getvalue())[-1] == "2.50M positions  625k/s  0:04  table 1.1 GB"


def test_the_rate_is_that_of_this_run_not_of_work_done_before() -> None:
    clock = Clock()
    meter = Meter(Terminal(), "parts", total=10, width=COLUMNS, clock=clock)
    meter.update(7)  # seven parts kept by an earlier run
    clock.now += 60
    meter.update(8)
    assert meter.rate() == pytest.approx(1 / 60)
    assert "1.0/min" in meter.text(8, 60) and "~2:00 left" in meter.text(8, 60)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_no_update_of_a_long_run_ever_leaves_a_new_row(language: str) -> None:
    set_language(language)
    try:
        stream, clock = Terminal(), Clock()
        unit = "局面" if language == "ja" else "positions"
        meter = Meter(stream, unit, total=76_396_280_000, width=COLUMNS, clock=clock)
        for step in range(1, 200):
            clock.now += 37.5
            detail = "部分 3: b1-b2 の後の局面" if language == "ja" else "part 3: b1-b2 a2-b2"
            meter.update(step * 123_456_789, detail=detail * (step % 3))
        meter.note(
            "[3/10 parts, 4069 s] b1-b2 a2-b2 d3-c3 c4-c3 b4-c4: dark wins "
            "(491,514,359 positions, 468 s)"
        )
        meter.update(76_396_280_000, last=True)
    finally:
        set_language("en")
    written = stream.getvalue()
    _assert_one_row_each(written)
    assert written.count("\n") == 3  # the note's two rows and the end


def test_a_log_gets_a_line_a_tenth_of_the_work_not_every_update() -> None:
    stream, clock = io.StringIO(), Clock()
    meter = Meter(stream, "games", total=1000, clock=clock)
    for done in range(1001):
        clock.now += 0.001
        meter.update(done, last=done == 1000)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 11 and "\r" not in stream.getvalue()
    assert all(display_width(line) <= COLUMNS for line in lines)


def test_a_number_keeps_its_unit_on_its_row() -> None:
    text = (
        "Saved to /home/someone/.local/share/stairgames/solved/ishigaki_race/x.npz; "
        "took 52.87 s after 491,514,359 positions"
    )
    for width in range(30, 90):
        rows = wrap_keeping_numbers(text, width)
        assert " ".join(rows) == text
        for row in rows:
            assert not re.search(r"\d$", row) or row.endswith(".npz;"), (width, rows)
            assert not row.startswith(("s ", "positions")), (width, rows)


def test_durations_read_as_a_clock() -> None:
    assert [duration_text(s) for s in (0, 7.4, 65, 3 * 3600 + 2 * 60 + 9)] == [
        "0:00",
        "0:07",
        "1:05",
        "3:02:09",
    ]


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.slow
def test_every_command_with_progress_stays_within_80_columns(
    terminal: Callable[[], Terminal], tmp_path: Path, language: str
) -> None:
    stream = terminal()
    lang = ["--lang", language]
    assert main([*lang, "arena", "stairs", "--players", "random,random", "--games", "4"]) == 0
    out = ["--out", str(tmp_path / "stairs")]
    assert main([*lang, "solve", "stairs", "--size", "4", "--parts", *out]) == 0
    out = ["--out", str(tmp_path / "27")]
    assert main([*lang, "solve", "twenty_seven", "--fields", "9", "--discs", "3", *out]) == 0
    out = ["--out", str(tmp_path / "ishigaki")]
    assert main([*lang, "solve", "ishigaki_race", "--players", "3", *out]) == 0
    assert main([*lang, "prepare", "stairs"]) == 0
    written = stream.getvalue()
    assert len(_redraws(written)) >= 10
    _assert_one_row_each(written)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_review_and_a_run_of_games_count_within_80_columns(language: str) -> None:
    from stairgames.cli import _move_progress, _progress_bar

    set_language(language)
    try:
        stream = Terminal()
        for show in (_move_progress(stream), _progress_bar(stream)):
            for done in range(0, 1235, 13):
                show(done, 1234)
            show(1234, 1234)
    finally:
        set_language("en")
    written = stream.getvalue()
    assert len(_redraws(written)) > 100 and written.count("\n") == 2
    _assert_one_row_each(written)
