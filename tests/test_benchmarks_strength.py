"""The pure parts of the strength benchmark (``benchmarks/strength.py``): the load check,
the cores, the order of games, and the table made from checkpoint lines."""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest

import stairgames
from stairgames.bench.strength import (
    LoadCheck,
    bot_budget,
    busy_between,
    choose_cores,
    cpu_model,
    format_cores,
    format_table,
    game_key,
    interleave,
    load_limit,
    load_reported,
    match_key,
    one_thread_per_core,
    ours_budget,
    over_budget,
    parse_cores,
    parse_game_counts,
    parse_per_game,
    parse_proc_stat,
    read_lines,
    shared_physical_cores,
    summarize,
)


def game_line(
    seed: int,
    *,
    first: bool,
    score: float,
    ours: tuple[float, ...] = (0.05, 0.12),
    bot: tuple[float, ...] = (1.0, 1.2),
    loaded: bool = False,
) -> dict[str, Any]:
    """A checkpoint line of one game of Stairs, ours at 0.1 s, the bot at 1.0 s."""
    return {
        "kind": "game",
        "game": "stairs",
        "seed": seed,
        "ours": "mcts",
        "time": 0.1,
        "bot_time": 1.0,
        "bot_engine": "direct",
        "ours_first": first,
        "score": score,
        "ours_seconds": list(ours),
        "ours_simulations": [1000] * len(ours),
        "ours_choices": [5] * len(ours),
        "bot_seconds": list(bot),
        "bot_simulations": [400] * len(bot),
        "bot_choices": [5] * len(bot),
        "loaded": loaded,
        "wall": 2.5,
        "cpu": 2.45,
    }


def test_the_load_limit_leaves_the_free_cores_and_half_a_core():
    assert load_limit(16, 15) == 1.5
    assert load_limit(2, 2) == 0.5


def test_a_load_above_the_limit_is_loaded_only_when_the_cores_are_busy_too():
    # the load average of a run just ended, the cores idle now: not loaded
    assert not LoadCheck(load1=14.0, busy=0.2, cpus=16, allowed=16, jobs=15).loaded
    assert LoadCheck(load1=3.0, busy=2.5, cpus=16, allowed=16, jobs=15).loaded
    assert LoadCheck(load1=3.0, busy=None, cpus=16, allowed=16, jobs=15).loaded
    assert not LoadCheck(load1=1.4, busy=9.0, cpus=16, allowed=16, jobs=15).loaded
    assert not LoadCheck(load1=1.4, busy=None, cpus=2, allowed=2, jobs=1).loaded


def test_a_kernel_that_reports_no_load_leaves_it_to_the_sample():
    # gVisor: /proc/loadavg always reads "0.00 0.00 0.00 0/0 0"
    assert not load_reported("0.00 0.00 0.00 0/0 0")
    assert load_reported("0.08 0.10 0.09 1/170 42")
    blind = LoadCheck(load1=0.0, busy=None, cpus=16, allowed=16, jobs=15, reported=False)
    assert not blind.known
    assert not blind.loaded
    assert "cannot be checked" in blind.describe()
    sampled = LoadCheck(load1=0.0, busy=3.0, cpus=16, allowed=16, jobs=15, reported=False)
    assert sampled.known
    assert sampled.loaded


def test_busy_shares_from_proc_stat():
    before = parse_proc_stat(
        "cpu  10 0 10 80 0 0 0 0 0 0\ncpu0 10 0 0 40 0 0 0 0 0 0\ncpu1 0 0 10 40 0 0 0 0 0 0\n"
    )
    after = parse_proc_stat("cpu0 60 0 0 90 0 0 0 0 0 0\ncpu1 0 0 10 130 10 0 0 0 0 0\n")
    assert before == {0: (10, 50), 1: (10, 50)}
    shares = busy_between(before, after, [0, 1, 2])
    assert shares == {0: 0.5, 1: 0.0}
    # ticks that do not move (gVisor reports zeros) tell nothing
    assert busy_between(before, before, [0, 1]) == {}


def test_cores_are_read_and_written_as_ranges():
    assert parse_cores("0-3,8,10-11") == [0, 1, 2, 3, 8, 10, 11]
    assert format_cores([0, 1, 2, 3, 8, 10, 11]) == "0-3,8,10-11"
    assert format_cores([5]) == "5"
    with pytest.raises(ValueError, match="twice"):
        parse_cores("0-2,1")
    with pytest.raises(ValueError):
        parse_cores("3-1")


def test_jobs_take_the_first_usable_cores_and_cores_must_be_usable():
    assert choose_cores(3, None, range(16)) == [0, 1, 2]
    assert choose_cores(2, None, {40, 41, 42}) == [40, 41]
    assert choose_cores(1, "4,6", range(8)) == [4, 6]
    with pytest.raises(ValueError, match="not among"):
        choose_cores(1, "9", range(8))
    with pytest.raises(ValueError):
        choose_cores(9, None, range(8))


def test_hardware_threads_of_one_core_are_found():
    siblings = {0: [0, 8], 8: [0, 8], 1: [1, 9], 9: [1, 9]}
    assert shared_physical_cores(siblings, [0, 1, 8]) == [[0, 8]]
    assert shared_physical_cores(siblings, [0, 1]) == []
    assert one_thread_per_core([0, 1, 8, 9, 2], siblings) == [0, 1, 2]


def test_cpu_model_is_read_from_cpuinfo():
    assert cpu_model("processor\t: 0\nmodel name\t: AMD EPYC 9654\n") == "AMD EPYC 9654"


def test_game_counts_and_their_mixed_order():
    assert parse_game_counts("10", ["stairs", "twenty_seven"]) == {"stairs": 10, "twenty_seven": 10}
    assert parse_game_counts("4,2", ["stairs", "twenty_seven"]) == {"stairs": 4, "twenty_seven": 2}
    with pytest.raises(ValueError):
        parse_game_counts("1,2,3", ["stairs"])
    order = interleave({"stairs": 4, "twenty_seven": 2})
    assert sorted(order) == [("stairs", i) for i in range(4)] + [
        ("twenty_seven", i) for i in (0, 1)
    ]
    # stopped after half the games, each game has played half of its own
    assert sorted(order[:3]) == [("stairs", 0), ("stairs", 1), ("twenty_seven", 0)]


def test_checkpoints_kept_compressed_read_as_the_plain_ones(tmp_path):
    lines = [game_line(1000, first=True, score=1.0), game_line(1001, first=False, score=0.0)]
    text = "".join(json.dumps(line) + "\n" for line in lines)
    plain = tmp_path / "games.jsonl"
    plain.write_text(text)
    packed = tmp_path / "games.jsonl.gz"
    packed.write_bytes(gzip.compress(text.encode()))
    assert read_lines([str(packed)]) == read_lines([str(plain)])
    assert [game["seed"] for game in read_lines([str(packed)])[1]] == [1000, 1001]


def test_moves_over_budget_are_those_above_one_tenth_more():
    assert over_budget([0.1, 0.11, 0.1101, 0.3], 0.1) == 2


def test_summary_by_seat_from_checkpoint_lines(tmp_path):
    path = tmp_path / "games.jsonl"
    lines = [
        {"kind": "run", "run": "r1", "command": "python -m x", "conditions": {"cores": [0]}},
        game_line(1000, first=True, score=1.0),
        game_line(1001, first=False, score=0.0, loaded=True),
        game_line(1002, first=True, score=0.5, ours=(0.05, 0.05, 0.05)),
        game_line(1000, first=True, score=0.0),  # the same game again: kept once
        {"kind": "run_end", "run": "r1", "load_average": [0.5, 0.4, 0.3]},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines) + '{"kind": "ga')
    runs, games, broken = read_lines([str(path)])
    assert broken == 1
    assert runs[0]["conditions"]["load_after"]["load_average"] == [0.5, 0.4, 0.3]
    assert [game["seed"] for game in games] == [1000, 1001, 1002]
    (row,) = summarize(games)
    assert row["loaded"]
    first, second, every = row["first"], row["second"], row["all"]
    assert (first["games"], first["score"], first["draws"]) == (2, 0.75, 1)
    assert (second["games"], second["score"], second["losses"]) == (1, 0.0, 1)
    assert every["games"] == 3
    assert every["score"] == pytest.approx(0.5)
    low, high = every["ci95"]
    assert low < 0.5 < high
    assert every["plies_per_game"] == pytest.approx((4 + 4 + 5) / 3)
    assert every["ours"]["over_budget"] == 2  # one 0.12 s move in each of two games
    assert every["bot"]["over_budget"] == 3  # one 1.2 s move in each game
    assert every["ours"]["seconds_per_move"] == pytest.approx((2 * 0.17 + 0.15) / 7)
    assert every["bot"]["simulations_per_searched_move"] == 400
    assert every["loaded_games"] == 1
    assert every["cpu_share"] == pytest.approx(0.98)
    assert every["games_short_of_cpu"] == 0
    table = format_table([row])
    assert "| stairs | `mcts` 0.1 s | MCTSBot 1 s | first | 2 | 75.0% |" in table
    assert "LOADED (1 games)" in table
    unknown = game_line(1003, first=True, score=1.0) | {"load_known": False, "cpu": 1.0}
    table = format_table(summarize([unknown]))
    assert "load unknown (1 games); CPU 40.0% of wall, 1 games under 90% |" in table


def test_a_number_per_game_for_the_bot_simulations():
    names = ["stairs", "twenty_seven"]
    assert parse_per_game("1669,3457", names, "--bot-simulations", 1) == {
        "stairs": 1669,
        "twenty_seven": 3457,
    }
    assert parse_per_game("500", names, "--bot-simulations", 1) == {
        "stairs": 500,
        "twenty_seven": 500,
    }
    with pytest.raises(ValueError, match="at least 1"):
        parse_per_game("0,5", names, "--bot-simulations", 1)
    with pytest.raises(ValueError, match="--bot-simulations x"):
        parse_per_game("x", names, "--bot-simulations", 1)


def test_fixed_budgets_make_matches_of_their_own_and_read_in_the_table():
    timed = game_line(1000, first=True, score=1.0)
    fixed = game_line(1000, first=True, score=0.0) | {
        "time": None,
        "ours_iterations": 12000,
        "bot_time": None,
        "bot_fixed_simulations": 3457,
        "moves": ["d3-c4"],
    }
    # a line written before the fixed budgets existed is the timed match
    assert match_key(timed) == ("stairs", "mcts", 0.1, None, 1.0, None, "direct")
    assert match_key(fixed) == ("stairs", "mcts", None, 12000, None, 3457, "direct")
    # one written before issue 56 had the bot reach our engine through pyspiel: a match
    # of its own, and the table says so beside the bot's budget
    bridged = {key: value for key, value in timed.items() if key != "bot_engine"}
    assert match_key(bridged)[-1] == "pyspiel" and game_key(bridged) != game_key(timed)
    assert bot_budget(bridged) == "1 s (through pyspiel)"
    assert game_key(timed) != game_key(fixed)
    assert ours_budget(timed) == "0.1 s"
    assert ours_budget(fixed) == "12,000 iterations"
    assert bot_budget(timed) == "1 s"
    assert bot_budget(fixed) == "3,457 simulations"
    rows = summarize([timed, fixed])
    assert [row["all"]["games"] for row in rows] == [1, 1]
    assert rows[1]["all"]["ours"]["over_budget"] == 0  # no time budget on either side
    table = format_table(rows)
    assert "| stairs | `mcts` 0.1 s | MCTSBot 1 s | first | 1 | 100.0% |" in table
    assert (
        "| stairs | `mcts` 12,000 iterations | MCTSBot 3,457 simulations | first | 1 | 0.0% |"
    ) in table
    assert "| — of 2 / — of 2 |" in table


def test_our_player_text_takes_seconds_or_iterations():
    pytest.importorskip("open_spiel")
    from stairgames.bench.players_openspiel import our_player, rescaled

    game = stairgames.load("twenty_seven")
    assert our_player("mcts:c=0.7,endgame=0.3", game, 0.1) == "mcts:c=0.7,endgame=0.3,time=0.1"
    assert (
        our_player("mcts:c=0.7,time=5,endgame=0.3", game, None, 12000)
        == "mcts:c=0.7,endgame=0.3,iterations=12000"
    )
    assert our_player("expert", game, 0.5).startswith("alphabeta:")
    # the bot's simulations follow its time: scaled, at most doubled, at least 10
    assert rescaled(1000, 1.0, 2.0) == 500
    assert rescaled(1000, 1.0, 0.1) == 2000
    assert rescaled(15, 1.0, 10.0) == 10


def test_a_player_that_takes_no_budget_is_measured_as_it_is():
    """City of Stairs' ``hard`` is ``greedy``, which takes no ``time``: the benchmarks
    leave its settings as they are instead of refusing it."""
    from stairgames.bench.players_openspiel import our_player

    city = stairgames.load("city_of_stairs")
    assert our_player("hard", city, 0.25) == "greedy"
    assert our_player("greedy:noise=0.5", city, 0.25) == "greedy:noise=0.5"
    assert our_player("mcts:c=0.7", city, 0.25).startswith("mcts:")
    assert "time=0.25" in our_player("mcts:c=0.7", city, 0.25)
