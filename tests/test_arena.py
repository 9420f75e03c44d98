"""The arena: fair seats, results, statistics, JSON round trip and the command line."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import stairgames
from stairgames.arena import ArenaRun, format_report, run_arena, schedule, summarise
from stairgames.arena.ratings import elo_ratings, pairwise_score, wilson_interval
from stairgames.arena.runner import play_opening, tables
from stairgames.cli import _split_players, main
from stairgames.core.errors import InvalidOptionError, StairgamesError


def test_two_seat_pairings_alternate_who_sits_first():
    tasks = schedule("stairs", {}, ["random", "greedy", "mcts:iterations=5"], 4, seed=1)
    assert len(tasks) == 3 * 4
    seats = Counter((task.seats[0], task.seats[1]) for task in tasks)
    for i, j in [(0, 1), (0, 2), (1, 2)]:
        assert seats[(i, j)] == seats[(j, i)] == 2


def test_every_game_has_its_own_seed_and_the_run_seed_fixes_them():
    first = schedule("stairs", {}, ["random", "greedy"], 6, seed=3)
    again = schedule("stairs", {}, ["random", "greedy"], 6, seed=3)
    other = schedule("stairs", {}, ["random", "greedy"], 6, seed=4)
    assert [t.seed for t in first] == [t.seed for t in again]
    assert len({t.seed for t in first}) == 6
    assert [t.seed for t in first] != [t.seed for t in other]


def test_tables_for_more_seats_rotate_every_player_through_every_seat():
    assert tables(4, 3) == [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)]
    assert tables(2, 4) == [(0, 1, 0, 1)]
    assert tables(3, 2) == [(0, 1), (0, 2), (1, 2)]


@pytest.mark.skipif(
    "city_of_stairs" not in stairgames.game_names(), reason="needs a game for 3 seats"
)
def test_three_seat_schedule_rotates_each_table():
    tasks = schedule("city_of_stairs", {"players": "3"}, ["random", "greedy", "easy"], 3, 1)
    sat = Counter((player, seat) for task in tasks for seat, player in enumerate(task.seats))
    assert all(sat[(p, s)] == 1 for p in range(3) for s in range(3))


def test_schedule_refuses_too_few_players_or_games():
    with pytest.raises(InvalidOptionError, match="at least two players"):
        schedule("stairs", {}, ["random"], 4, 0)
    with pytest.raises(InvalidOptionError, match="at least 1"):
        schedule("stairs", {}, ["random", "greedy"], 0, 0)


def test_random_openings_are_shared_by_the_rotations_of_a_lineup():
    tasks = schedule("stairs", {}, ["random", "greedy"], 6, seed=3, opening_plies=2)
    openings = [t.opening_seed for t in tasks]
    assert openings[0::2] == openings[1::2]  # each opening played with seats exchanged
    assert len(set(openings)) == 3
    assert [t.seats for t in tasks[:2]] == [(0, 1), (1, 0)]
    plain = schedule("stairs", {}, ["random", "greedy"], 6, seed=3)
    assert {t.opening_plies for t in plain} == {0}


def test_random_openings_are_played_and_recorded_before_the_players_move():
    run = run_arena("stairs", ["greedy", "mcts:iterations=20"], games=4, seed=2, opening_plies=3)
    first, second, third, _ = run.results
    assert len(first["opening"]) == 3
    assert first["opening"] == second["opening"] != third["opening"]
    assert sum(first["moves"]) == first["length"] - 3
    assert "3 random moves" in format_report(run)


def test_random_openings_stop_at_the_end_of_a_game():
    game = stairgames.load("stairs", size=3)
    state = game.new_initial_state()
    play_opening(state, 10_000, random.Random(1))
    assert state.is_terminal()


def test_saved_openings_show_again(tmp_path):
    run = run_arena("stairs", ["random", "greedy"], games=2, seed=3, opening_plies=1)
    path = tmp_path / "results.json"
    run.save(path)
    assert ArenaRun.load(path).opening_plies == 1
    assert format_report(ArenaRun.load(path)) == format_report(run)


def test_a_negative_opening_is_refused():
    with pytest.raises(InvalidOptionError, match="at least 0"):
        schedule("stairs", {}, ["random", "greedy"], 2, 0, opening_plies=-1)


def test_a_run_with_a_seed_and_iteration_budgets_repeats_exactly():
    players = ["random", "mcts:iterations=10"]
    first = run_arena("stairs", players, games=4, seed=7)
    again = run_arena("stairs", players, games=4, seed=7)
    strip = ("seconds", "thinking")
    assert [{k: v for k, v in r.items() if k not in strip} for r in first.results] == [
        {k: v for k, v in r.items() if k not in strip} for r in again.results
    ]


def test_games_spread_over_processes_give_the_same_results():
    players = ["random", "greedy"]
    alone = run_arena("stairs", players, games=4, seed=2, jobs=1)
    spread = run_arena("stairs", players, games=4, seed=2, jobs=2)
    assert [r["returns"] for r in alone.results] == [r["returns"] for r in spread.results]


def test_summary_counts_scores_and_ratings_consistently():
    run = run_arena("stairs", ["random", "mcts:iterations=60"], games=6, seed=5)
    summary = summarise(run)
    (pairing,) = summary["pairings"]
    assert pairing["games"] == 6
    random_player, mcts_player = summary["players"]
    assert random_player["score"] + mcts_player["score"] == 6
    assert (mcts_player["elo"] > random_player["elo"]) == (mcts_player["score"] > 3)
    assert sum(s["rate"] for s in summary["seats"]) == pytest.approx(1.0)
    low, high = pairing["ci95"]
    assert low <= pairing["rate"] <= high


def test_options_pass_through_to_the_game():
    run = run_arena("stairs", ["random", "random"], games=2, seed=1, options={"pie_rule": "true"})
    assert run.options == {"pie_rule": "true"}
    assert "pie_rule=true" in format_report(run)


def test_saved_results_show_again_identically(tmp_path):
    run = run_arena("stairs", ["random", "greedy"], games=2, seed=3)
    path = tmp_path / "results.json"
    run.save(path)
    loaded = ArenaRun.load(path)
    assert format_report(loaded) == format_report(run)
    data = json.loads(path.read_text())
    assert data["summary"]["games"] == 2 and len(data["results"]) == 2


def test_loading_something_else_is_refused(tmp_path):
    path = tmp_path / "x.json"
    path.write_text('{"hello": 1}')
    with pytest.raises(StairgamesError, match="not a saved arena run"):
        ArenaRun.load(path)
    with pytest.raises(StairgamesError, match="cannot read"):
        ArenaRun.load(tmp_path / "missing.json")


def test_cli_arena_runs_saves_and_shows(tmp_path, capsys):
    out = tmp_path / "r.json"
    argv = ["arena", "stairs", "--players", "random,greedy", "--games", "2", "--seed", "1"]
    assert main([*argv, "--out", str(out), "--option", "pie_rule=true"]) == 0
    captured = capsys.readouterr()
    assert "Head to head" in captured.out and "Elo" in captured.out
    assert "2/2 games" in captured.err
    assert main(["arena", "--show", str(out)]) == 0
    assert "Head to head" in capsys.readouterr().out


def test_cli_arena_refuses_an_unknown_player(capsys):
    assert main(["arena", "stairs", "--players", "random,wizard", "--games", "1"]) == 2
    assert "unknown player 'wizard'" in capsys.readouterr().err


def test_player_list_keeps_settings_with_their_player():
    assert _split_players("random,mcts:time=0.5,c=1,greedy") == [
        "random",
        "mcts:time=0.5,c=1",
        "greedy",
    ]


# ----- statistics ----------------------------------------------------------------


def test_wilson_interval_known_values():
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0)


def test_pairwise_score():
    assert pairwise_score(1, -1) == 1.0
    assert pairwise_score(0, 0) == 0.5
    assert pairwise_score(-1, 1) == 0.0


def test_elo_of_equal_players_is_equal_and_the_winner_rates_higher():
    even = elo_ratings(["a", "b"], {(0, 1): (5.0, 10)})
    assert even[0] == pytest.approx(even[1])
    assert sum(even) / 2 == pytest.approx(1500)
    lopsided = elo_ratings(["a", "b"], {(0, 1): (9.0, 10)})
    # 9.5 of 11 with the virtual draw: the expected-score formula gives the gap
    gap = lopsided[0] - lopsided[1]
    assert 1 / (1 + 10 ** (-gap / 400)) == pytest.approx(9.5 / 11, abs=1e-6)


def test_elo_stays_finite_when_a_player_wins_everything():
    ratings = elo_ratings(["a", "b", "c"], {(0, 1): (10.0, 10), (1, 2): (10.0, 10)})
    assert ratings[0] > ratings[1] > ratings[2]
    assert all(abs(r) < 5000 for r in ratings)
