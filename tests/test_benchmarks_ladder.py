"""The level ladder benchmark (``benchmarks/ladder.py``): a tiny real run with its
checkpoint, the summary made from game lines, the refusals, and the helpers it shares
with ``benchmarks/players_openspiel.py`` (moved to ``benchmarks/strength.py``)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from stairgames.bench import ladder, strength
from stairgames.bench.ladder import format_table, main, parse_steps, summarize

FIRST_CORE = min(os.sched_getaffinity(0))
"""The core ``--jobs 1`` takes: the first this process may use (1 under ``taskset -c 1``)."""


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_tiny_run_keeps_every_move_and_resumes_from_its_checkpoint(tmp_path, monkeypatch):
    monkeypatch.setattr(strength, "LOAD_SAMPLE_SECONDS", 0.0)
    checkpoint, out = tmp_path / "games.jsonl", tmp_path / "figures.json"
    arguments = ["--game", "stairs", "--steps", "random:easy", "--games", "2", "--jobs", "1"]
    arguments += ["--allow-load", "--checkpoint", str(checkpoint), "--out", str(out)]
    assert main(arguments) == 0
    kinds = [record["kind"] for record in lines(checkpoint)]
    assert kinds == ["run", "game", "game", "run_end"]
    games = [record for record in lines(checkpoint) if record["kind"] == "game"]
    assert [game["seed"] for game in games] == [1000, 1001]
    assert [game["stronger_first"] for game in games] == [True, False]
    for game in games:
        assert (game["weaker"], game["stronger"]) == ("random", "easy")
        assert (game["weaker_player"], game["stronger_player"]) == ("random", "greedy")
        assert game["stronger_budget"] is None and game["weaker_budget"] is None
        assert game["pinned"] and game["core"] == FIRST_CORE
        for side in ("stronger", "weaker"):
            assert len(game[f"{side}_seconds"]) == len(game[f"{side}_simulations"])
            assert len(game[f"{side}_seconds"]) == len(game[f"{side}_choices"])
        # the seats alternate move by move: the first seat moved once more or as often
        first, second = ("stronger", "weaker") if game["stronger_first"] else ("weaker", "stronger")
        assert len(game[f"{first}_seconds"]) - len(game[f"{second}_seconds"]) in (0, 1)
        seat = 0 if game["stronger_first"] else 1
        mine, theirs = game["returns"][seat], game["returns"][1 - seat]
        assert game["score"] == (1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
    figures = json.loads(out.read_text(encoding="utf-8"))
    assert figures["command"].startswith("python -m benchmarks.ladder --game stairs")
    assert f"--cores {FIRST_CORE}" in figures["command"]
    assert [row["games"] for row in figures["rows"]] == [2]
    # again with the same checkpoint: nothing new is played, the table still has both
    assert main(arguments) == 0
    again = lines(checkpoint)
    assert [record["kind"] for record in again][4:] == ["run", "run_end"]
    assert again[4]["conditions"]["games_already_in_checkpoint"] == 2
    assert again[5]["games_played"] == 0
    assert [row["games"] for row in json.loads(out.read_text(encoding="utf-8"))["rows"]] == [2]


def game_line(
    seed: int,
    score: float,
    *,
    stronger: tuple[float, ...] = (0.2, 0.3),
    weaker: tuple[float, ...] = (0.05, 0.06),
    game: str = "stairs",
    step: tuple[str, str] = ("medium", "hard"),
    loaded: bool = False,
) -> dict[str, Any]:
    """A game line of a step whose stronger side has 0.25 s a move, the weaker 0.05 s."""
    return {
        "kind": "game",
        "game": game,
        "options": {},
        "seed": seed,
        "weaker": step[0],
        "stronger": step[1],
        "weaker_player": "mcts:time=0.05",
        "stronger_player": "mcts:time=0.25",
        "stronger_first": seed % 2 == 0,
        "score": score,
        "returns": [1.0, -1.0],
        "stronger_seconds": list(stronger),
        "stronger_simulations": [3000] * (len(stronger) - 1) + [0],
        "stronger_choices": [5] * (len(stronger) - 1) + [1],
        "weaker_seconds": list(weaker),
        "weaker_simulations": [600] * len(weaker),
        "weaker_choices": [4] * len(weaker),
        "stronger_budget": 0.25,
        "weaker_budget": 0.05,
        "loaded": loaded,
        "load_known": True,
        "wall": 2.0,
        "cpu": 1.0 if loaded else 1.98,
        "core": 1,
        "pinned": True,
    }


def test_the_summary_of_a_step_and_whether_it_is_ordered():
    # 18 won and 2 drawn of 20: 95%, the interval well above one half
    games = [game_line(seed, 1.0) for seed in range(18)] + [
        game_line(18, 0.5, stronger=(0.2, 0.4, 0.0)),
        game_line(19, 0.5, weaker=(0.056, 0.05), loaded=True),
    ]
    (row,) = summarize(games)
    assert (row["games"], row["wins"], row["draws"], row["losses"]) == (20, 18, 2, 0)
    assert row["score"] == pytest.approx(0.95)
    low, high = row["ci95"]
    assert 0.5 < low < 0.95 < high <= 1.0
    assert row["ordered"]
    stronger, weaker = row["sides"]["stronger"], row["sides"]["weaker"]
    # over 1.1 x 0.25 s: the 0.3 s moves (19 of them) and the 0.4 s one; 0.2 s is not
    assert stronger["over_budget"] == 20
    assert stronger["moves"] == 41
    # searched moves only (more than one legal move): 3000 each
    assert stronger["searched_moves"] == 21
    assert stronger["simulations_per_searched_move"] == 3000
    # over 1.1 x 0.05 s (0.055 s): the 0.06 s moves and the 0.056 s one
    assert weaker["over_budget"] == 20
    assert row["loaded_games"] == 1 and row["games_short_of_cpu"] == 1
    table = format_table([row])
    assert "| stairs | medium `mcts:time=0.05` | hard `mcts:time=0.25` | 20 | 95.0% |" in table
    assert "| yes |" in table
    assert "| 20 of 41 / 20 of 40 |" in table
    assert "LOADED (1 games)" in table
    assert "stairs: every step measured is ordered" in table


def test_a_step_whose_interval_reaches_one_half_is_not_ordered():
    ordered = [game_line(seed, 1.0) for seed in range(10)]
    even = [
        game_line(seed, 1.0 if seed % 2 else 0.0, step=("hard", "expert")) for seed in range(10)
    ]
    one_loss = [game_line(seed, 1.0, game="twenty_seven") for seed in range(3)]
    rows = summarize(ordered + even + one_loss)
    assert [(row["game"], row["stronger"], row["ordered"]) for row in rows] == [
        ("stairs", "hard", True),
        ("stairs", "expert", False),
        ("twenty_seven", "hard", False),  # 3 of 3: [43.9%, 100%] reaches one half
    ]
    assert rows[1]["score"] == 0.5
    table = format_table(rows)
    assert "stairs: not ordered: hard:expert" in table
    assert "twenty_seven: not ordered: medium:hard" in table


def test_a_player_without_a_time_budget_has_no_moves_over_it():
    line = game_line(0, 1.0, stronger=(5.0,))
    line["stronger_budget"] = None
    (row,) = summarize([line])
    assert row["sides"]["stronger"]["over_budget"] == 0
    assert "| — of 1 / 1 of 2 |" in format_table([row])


def test_the_budget_is_read_from_the_player_text():
    assert ladder.budget_of("mcts:time=0.25,endgame=0.8") == 0.25
    assert ladder.budget_of("greedy:noise=0.5") is None
    assert ladder.budget_of("random") is None


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--steps", "random:easy,hard:grandmaster"], "unknown level 'grandmaster'"),
        (["--steps", "easy-medium"], "'easy-medium' is not WEAKER:STRONGER"),
        (["--steps", "easy:easy"], "sets a level against itself"),
        (
            ["--game", "ishigaki_race", "--option", "players=3"],
            "ishigaki_race with players=3 has 3 seats: the ladder plays two-seat games only",
        ),
        (["--game", "stairs", "--option", "players=3"], "--option players: none of the games"),
        (["--option", "players"], "not KEY=VALUE"),
        (["--games", "0"], "--games 0: at least 1"),
    ],
)
def test_what_cannot_be_played_is_refused_before_anything_is_written(
    tmp_path, capsys, arguments, message
):
    checkpoint, out = tmp_path / "games.jsonl", tmp_path / "figures.json"
    with pytest.raises(SystemExit) as stopped:
        main([*arguments, "--checkpoint", str(checkpoint), "--out", str(out), "--allow-load"])
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err
    assert not checkpoint.exists() and not out.exists()


def test_steps_are_read_in_order():
    assert parse_steps(ladder.STEPS) == [
        ("random", "easy"),
        ("easy", "medium"),
        ("medium", "hard"),
        ("hard", "expert"),
    ]


def test_every_default_game_has_two_seats_with_its_default_options():
    options = ladder.check_games(ladder.GAMES, {})
    assert options == {name: () for name in ladder.GAMES}
    assert ladder.check_games(["ishigaki_race", "stairs"], {"players": "2"}) == {
        "ishigaki_race": (("players", "2"),),
        "stairs": (),
    }


def test_the_moved_helpers_are_shared_with_the_openspiel_harness(tmp_path):
    pytest.importorskip("open_spiel")
    from stairgames.bench import players_openspiel

    names = vars(players_openspiel)  # imported there from strength, not defined again
    assert names["pin"] is strength.pin
    assert names["append_line"] is strength.append_line
    assert names["check_load"] is strength.check_load
    path = tmp_path / "lines.jsonl"
    strength.append_line(str(path), {"kind": "game", "seed": 1})
    assert lines(path) == [{"kind": "game", "seed": 1}]
