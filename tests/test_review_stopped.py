"""Issue 49: a review stopped by Ctrl-C or SIGTERM keeps the moves it reviewed: the
table of those moves (the last of the game: the review works from the end), a line
saying it stopped, and exit status 130."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from stairgames.analysis.review import Budget, ReviewInterrupted, format_table, review
from tests.pty_screen import PtyPlay
from tests.record_helpers import random_record


def test_a_stopped_review_keeps_the_last_moves_it_reviewed_in_game_order() -> None:
    record = random_record("stairs", 1)
    whole = review(record, budget=Budget(seconds=None, iterations=50), seed=0)

    def stop_after_three(done: int, total: int) -> None:
        del total
        if done == 3:
            raise KeyboardInterrupt

    with pytest.raises(ReviewInterrupted) as stopped:
        review(
            record,
            budget=Budget(seconds=None, iterations=50),
            seed=0,
            progress=stop_after_three,
        )
    kept = stopped.value.reviews
    assert [move.ply for move in kept] == [move.ply for move in whole[-3:]]
    assert stopped.value.total == len(whole)
    assert format_table(kept, "stairs")  # the partial table is drawn like a whole one


def test_sigterm_stops_the_review_command_with_the_moves_reviewed(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    random_record("stairs", 2).save(path)
    play = PtyPlay(["review", str(path), "--iterations", "200000"], cwd=tmp_path)
    try:
        play.read_until(r"\] [1-9]\d*/\d+ moves")  # a move has been reviewed
        play.process.send_signal(signal.SIGTERM)
        status = play.finish()
    finally:
        play.kill()
    assert status == 130, play.output
    assert "Stopped early: " in play.output
    assert "moves reviewed, the last ones" in play.output
