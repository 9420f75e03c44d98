"""Issue 49: ``arena`` and ``analyze`` stopped by Ctrl-C or SIGTERM keep the games that
ended: their tables count those games, ``--out`` saves them, and the exit status is
130 (:class:`stairgames.analysis.parallel.TasksInterrupted`)."""

from __future__ import annotations

import json
import signal
from collections.abc import Callable
from pathlib import Path

import pytest

from stairgames.analysis.command import analyze
from stairgames.analysis.parallel import TasksInterrupted, run_tasks
from stairgames.arena import format_report, run_arena
from stairgames.arena.report import ArenaRun
from tests.pty_screen import PtyPlay


def _square_unless_three(number: int) -> int:
    if number == 3:
        raise KeyboardInterrupt
    return number * number


def test_an_interrupt_keeps_the_results_that_ended_before_it() -> None:
    with pytest.raises(TasksInterrupted) as stopped:
        run_tasks(_square_unless_three, [0, 1, 2, 3, 4])
    assert stopped.value.finished == {0: 0, 1: 1, 2: 4}
    assert stopped.value.total == 5
    assert isinstance(stopped.value, KeyboardInterrupt)  # callers that do not look stop too


def _stop_after(games: int) -> Callable[[int, int], None]:
    def progress(done: int, total: int) -> None:
        del total
        if done == games:
            raise KeyboardInterrupt

    return progress


def test_a_stopped_arena_reports_and_saves_the_games_that_ended(tmp_path: Path) -> None:
    run = run_arena("stairs", ["random", "greedy"], games=10, seed=3, progress=_stop_after(3))
    assert run.stopped
    assert len(run.results) == 3
    report = format_report(run)
    assert "Stopped early: the tables count the 3 games that ended." in report
    run.save(tmp_path / "run.json")
    again = ArenaRun.load(tmp_path / "run.json")
    assert again.stopped and again.results == run.results
    assert format_report(again) == report


def test_an_arena_stopped_before_any_game_ended_still_reports() -> None:
    run = run_arena("stairs", ["random", "greedy"], games=4, seed=3, progress=_stop_after(0))
    assert run.stopped and run.results == []
    assert "the 0 games that ended" in format_report(run)


def test_a_finished_arena_is_not_marked_stopped(tmp_path: Path) -> None:
    run = run_arena("stairs", ["random", "greedy"], games=2, seed=3)
    assert not run.stopped
    run.save(tmp_path / "run.json")
    assert "stopped" not in json.loads((tmp_path / "run.json").read_text())
    assert "Stopped early" not in format_report(run)


def test_a_stopped_study_reports_and_saves_the_games_that_ended(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "study.json"
    status = analyze(
        "city_of_stairs",
        seats="2",
        games=6,
        player="random",
        seed=1,
        out=out,
        progress=_stop_after(2),
    )
    assert status == 130
    saved = json.loads(out.read_text())
    assert saved["stopped"] is True
    assert len(saved["records"]) == 2
    assert saved["summary"]["2"]["games"] == 2
    assert "Stopped early: the tables count the 2 games that ended." in capsys.readouterr().out


def test_sigterm_stops_the_arena_command_with_the_games_played(tmp_path: Path) -> None:
    """``kill`` while the arena plays: it prints the tables of the games that ended,
    saves them and exits 130."""
    out = tmp_path / "run.json"
    play = PtyPlay(
        ["arena", "stairs", "--players", "random,greedy", "--games", "20000", "--out", str(out)],
        cwd=tmp_path,
    )
    try:
        play.read_until(r"\] [1-9][0-9.,k]*/\S+ games")  # a game has ended
        play.process.send_signal(signal.SIGTERM)
        status = play.finish()
    finally:
        play.kill()
    assert status == 130, play.output
    assert "Stopped early: the tables count the" in play.output
    saved = ArenaRun.load(out)
    assert saved.stopped and 1 <= len(saved.results) < 20000
