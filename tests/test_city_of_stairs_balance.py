"""City of Stairs balance studies: the records of finished games, their summary with
intervals, and ``stairgames analyze city_of_stairs`` on tiny runs."""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import Any

import pytest

import stairgames
from stairgames.agents import make_agent
from stairgames.analysis import statistics
from stairgames.analysis.parallel import run_tasks
from stairgames.cli import main
from stairgames.core.errors import InvalidOptionError
from stairgames.core.registry import study
from stairgames.games.city_of_stairs.research.balance import (
    STUDY,
    BalanceTask,
    balance_tasks,
    finished_game_record,
    play_balance_game,
    summarise,
)
from tests.record_helpers import play_random
from tests.test_city_of_stairs_helpers import card_file, passage


def seat(position: int, departure: int, score: int, share: float, colour: str = "red"):
    return {
        "position": position,
        "character": colour,
        "departure": departure,
        "score": score,
        "share": share,
    }


def test_summary_splits_tied_wins_and_averages_scores_by_departure_card():
    records: list[dict[str, Any]] = [
        {"players": 2, "seats": [seat(0, 1, 9, 1.0), seat(1, 2, 7, 0.0, "blue")]},
        {"players": 2, "seats": [seat(1, 1, 8, 0.5), seat(0, 3, 8, 0.5, "blue")]},
        {"players": 2, "seats": [seat(0, 1, 10, 1.0), seat(1, 2, 6, 0.0, "blue")]},
    ]
    figures = summarise(records, statistics)["2"]
    assert figures["games"] == 3
    first, second = figures["positions"]
    assert (first["position"], first["share"]) == (1, pytest.approx(2.5 / 3))
    assert (second["position"], second["share"]) == (2, pytest.approx(0.5 / 3))
    assert first["low"] < first["share"] < first["high"]
    assert first["score"]["mean"] == 9.0 and second["score"]["mean"] == pytest.approx(7.0)
    by_card = {row["departure"]: row for row in figures["departures"]}
    assert by_card[1]["mean"] == 9.0 and by_card[1]["seats"] == 3
    assert by_card[1]["low"] == pytest.approx(9 - 4.303 * 1.0 / 3**0.5, abs=1e-3)
    assert by_card[3]["seats"] == 1 and by_card[3]["low"] is None  # one seat: no interval
    assert by_card[2]["mean"] == 6.5
    assert figures["scores"] == {"6": 1, "7": 1, "8": 2, "9": 1, "10": 1}
    assert figures["ties"] == pytest.approx(1 / 3)
    assert {row["character"]: row["seats"] for row in figures["characters"]} == {
        "red": 3,
        "blue": 3,
    }


def test_a_record_reads_departure_cards_only_from_a_finished_game():
    task = BalanceTask(0, 3, "random", None, 5)
    state = stairgames.load("city_of_stairs", players=3).new_initial_state()
    with pytest.raises(ValueError, match="the game must be over"):
        finished_game_record(state, task)  # type: ignore[arg-type]
    record = finished_game_record(play_random(state, 5), task)  # type: ignore[arg-type]
    assert sorted(s["position"] for s in record["seats"]) == [0, 1, 2]
    assert len({s["departure"] for s in record["seats"]}) == 3
    assert sum(s["share"] for s in record["seats"]) == pytest.approx(1.0)


def test_games_of_a_study_repeat_exactly_over_processes():
    tasks = balance_tasks([2, 3], 2, players=make_agent, player="random", seed=8)
    assert [t.index for t in tasks] == [0, 1, 2, 3] and [t.players for t in tasks] == [2, 2, 3, 3]
    play = functools.partial(play_balance_game, players=make_agent)
    alone = run_tasks(play, tasks, jobs=1)
    spread = run_tasks(play, tasks, jobs=2)
    assert alone == spread
    characters = {s["character"] for record in alone for s in record["seats"]}
    assert len(characters) > 2  # characters are drawn per game, not seat 0 always red


@pytest.mark.slow
def test_analyze_a_custom_card_file_in_a_tiny_run(tmp_path: Path, capsys):
    def generous_lighthouse(data: dict[str, Any]) -> None:
        data["lighthouse"]["points"] = 20

    cards = card_file(tmp_path, generous_lighthouse)
    out = tmp_path / "study.json"
    figures = tmp_path / "figures"
    argv = ["analyze", "city_of_stairs", "--cards", cards, "--games", "3", "--seats", "2,3"]
    argv += ["--player", "random", "--seed", "4", "--out", str(out)]
    assert main([*argv, "--plots", str(figures)]) == 0
    printed = capsys.readouterr().out
    assert "2 players, 3 games" in printed and "3 players, 3 games" in printed
    assert "Took" in printed
    study = json.loads(out.read_text())
    assert set(study["summary"]) == {"2", "3"} and len(study["records"]) == 6
    scores = [s["score"] for record in study["records"] for s in record["seats"]]
    assert max(scores) >= 20  # the lighthouse of this file, not the default set's 3 points
    for name in ("city_seats.png", "city_departures.png", "city_scores.png"):
        assert (figures / name).stat().st_size > 1000
    assert main(["analyze", "--show", str(out)]) == 0  # the saved study, summarised again
    tables = printed.split("Figure saved")[0]
    assert capsys.readouterr().out == tables


def test_show_refuses_a_file_that_is_no_saved_study(tmp_path: Path, capsys):
    other = tmp_path / "arena.json"
    other.write_text('{"game": "stairs", "results": []}')
    assert main(["analyze", "--show", str(other)]) == 2
    assert "is not a saved study" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["analyze"])
    assert "give a game (or --show FILE)" in capsys.readouterr().err


def test_analyze_refuses_a_bad_card_file_before_playing(tmp_path: Path, capsys):
    cards = card_file(tmp_path, lambda d: passage(d, "P03").update(left=["up"]))
    assert main(["analyze", "city_of_stairs", "--cards", cards, "--games", "1000"]) == 2
    error = capsys.readouterr().err
    assert "passage card 3 (P03) field 'left'" in error and "unknown icon 'up'" in error
    assert "games" not in error  # refused before the progress bar started


def test_analyze_refuses_bad_arguments_with_the_reason(capsys):
    assert main(["analyze", "stairs"]) == 2
    assert "no balance study for stairs" in capsys.readouterr().err
    assert main(["analyze", "city_of_stairs", "--seats", "2,x"]) == 2
    assert "--seats expects player counts such as 2,3,4, got '2,x'" in capsys.readouterr().err
    assert main(["analyze", "city_of_stairs", "--seats", "5"]) == 2
    assert "City of Stairs is for 2 to 4 players, got 5" in capsys.readouterr().err
    assert main(["analyze", "city_of_stairs", "--games", "0"]) == 2
    assert "--games must be at least 1" in capsys.readouterr().err
    with pytest.raises(InvalidOptionError, match="unknown player"):
        balance_tasks([2], 1, players=make_agent, player="nobody")


def test_the_study_is_the_registration_s_and_imports_no_players_statistics_or_plots():
    assert study("city_of_stairs") is STUDY and study("stairs") is None
    assert STUDY.default_player == "hard" and STUDY.play is play_balance_game
    source = Path(sys.modules[STUDY.__module__].__file__ or "").read_text(encoding="utf-8")
    for shared in ("stairgames.agents", "stairgames.analysis"):
        assert f"from {shared}" not in source and f"import {shared}" not in source


def test_plots_without_matplotlib_say_how_to_get_it(monkeypatch, capsys, tmp_path: Path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    argv = ["analyze", "city_of_stairs", "--games", "1", "--plots", str(tmp_path)]
    assert main(argv) == 2
    assert "pip install 'stairgames[analysis]'" in capsys.readouterr().err
