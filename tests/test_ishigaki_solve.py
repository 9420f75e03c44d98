"""Perfect play in two-player Ishigaki Race, the evaluation built on it, and the levels.

The values come from value iteration (``solve.py``); these tests check them against
the turn equation itself, against play, and pin the facts the docs quote.
"""

from __future__ import annotations

import itertools
import random

import pytest

import stairgames
from stairgames.agents import make_agent
from stairgames.core.chance import sample_chance_outcome
from stairgames.core.solvers import SOLVED_DIR_VARIABLE
from stairgames.games.ishigaki_race import rules
from stairgames.games.ishigaki_race.game import IshigakiRaceState
from stairgames.games.ishigaki_race.play.evaluate import (
    LEVELS,
    chance_of_winning,
    evaluate,
    exact_solution,
    height_lead,
)
from stairgames.games.ishigaki_race.research import solutions
from stairgames.games.ishigaki_race.research.value_iteration import (
    policy_values,
    solve,
    turn_starts,
)
from stairgames.games.ishigaki_race.rules import Board, Race, initial_race

PLAIN = Board()
CRUMBLING = Board(crumbling=frozenset({5, 9, 13, 17}))
NOISE = {
    "random": 1.0,
    **{level: float(spec.partition("=")[2] or 0) for level, spec in LEVELS.items()},
}


def first_move(players: int = 2, seat: int = 0) -> Race:
    return rules.choose_start(initial_race(players, None), seat)


@pytest.mark.parametrize("board", [PLAIN, CRUMBLING], ids=["plain", "crumbling"])
def test_values_satisfy_the_turn_equation_at_every_turn_start(board):
    solution = solve(board, 2)
    for race in turn_starts(board, 2)[::7]:
        decisions = []
        for die in rules.DIE_FACES:
            stop, roll = solution.decision_values(rules.roll_die(board, race, die))
            decisions.append(max(stop, roll, key=lambda v: v[race.turn]))
        expected = [sum(v[seat] for v in decisions) / 6 for seat in range(2)]
        assert solution.value(race) == pytest.approx(expected, abs=1e-8)


def test_values_are_chances_that_add_up_to_one():
    solution = solve(PLAIN, 2)
    assert solution.values.min() >= 0.0 and solution.values.max() <= 1.0
    assert solution.values.sum(axis=1) == pytest.approx(1.0)


def test_perfect_play_the_first_player_wins_52_percent():
    assert solve(PLAIN, 2).value(first_move())[0] == pytest.approx(0.5210114, abs=1e-6)
    assert solve(PLAIN, 2).value(initial_race(2, None)) == pytest.approx((0.5, 0.5))


def test_a_ninja_on_the_goal_in_the_goal_round_wins_unless_the_other_arrives():
    race = Race((20, 14), phase=rules.Phase.GOAL, turn=1, arrived=(0,))
    chances = solve(PLAIN, 2).value(race)
    assert 0.9 < chances[0] < 1.0  # blue needs 6 steps in one turn: only a roll of 5-6 then 6 or so


@pytest.mark.parametrize(
    ("board", "ceiling"), [(PLAIN, 0.8818669), (CRUMBLING, 0.9145993)], ids=["plain", "crumbling"]
)
def test_no_player_beats_random_in_95_percent_of_two_player_games(board, ceiling):
    """The best reply to ``random`` (knowing it plays at random) wins this often, no more."""
    best_reply = policy_values(board, 2, noise=(0.0, 1.0))
    assert best_reply.value(initial_race(2, None))[0] == pytest.approx(ceiling, abs=1e-6)


@pytest.mark.parametrize("board", [PLAIN, CRUMBLING], ids=["plain", "crumbling"])
@pytest.mark.slow
def test_each_level_wins_more_than_half_against_the_one_below_exactly(board):
    reference = solve(board, 2)
    ladder = ["random", "easy", "medium", "hard", "expert"]
    for lower, higher in itertools.pairwise(ladder):
        chances = policy_values(board, 2, (NOISE[higher], NOISE[lower]), reference)
        assert chances.value(initial_race(2, None))[0] > 0.54, (higher, lower)


def test_noise_is_checked():
    with pytest.raises(ValueError, match="noise needs 2 chances"):
        policy_values(PLAIN, 2, (0.5,))
    with pytest.raises(ValueError, match="up to 2 players"):
        solve(PLAIN, 3)


def test_evaluation_is_the_exact_chance_with_two_players():
    state = stairgames.load("ishigaki_race", first_player=0).new_initial_state()
    assert evaluate(state, 0) == pytest.approx(2 * 0.5210114 - 1, abs=1e-6)


@pytest.fixture
def no_four_player_table(tmp_path, monkeypatch):
    """An empty solved-tables folder, and the evaluation's caches emptied around the test
    (the solutions this process solved before too: a puzzle test may have solved four
    players' table): four players are then valued by the estimate."""
    monkeypatch.setenv(SOLVED_DIR_VARIABLE, str(tmp_path))
    monkeypatch.setattr(solutions, "_SOLVED", {})
    exact_solution.cache_clear()
    chance_of_winning.cache_clear()
    yield
    exact_solution.cache_clear()
    chance_of_winning.cache_clear()


def test_four_players_without_a_table_estimate_the_race_from_the_pairs(no_four_player_table):
    four = Race((2, 0, 0, 1), turn=1)  # blue, yellow, green, then red to play
    solved = solve(PLAIN, 2)
    order = [1, 2, 3, 0]
    strength = dict.fromkeys(order, 1.0)
    for first, second in itertools.combinations(order, 2):
        heights = (four.heights[first], four.heights[second])
        chances = solved.value(Race(heights, turn=0))
        strength[first] *= chances[0]
        strength[second] *= chances[1]
    expected = [strength[seat] / sum(strength.values()) for seat in range(4)]
    assert exact_solution(PLAIN, 4) is None
    assert chance_of_winning(PLAIN, four) == pytest.approx(expected)
    assert expected[0] > expected[3] > expected[1] > expected[2]


@pytest.mark.parametrize("heights", [(20, 18, 0), (20, 18, 0, 0)], ids=["3p-solved", "4p-searched"])
def test_with_more_players_the_goal_round_is_exact(heights, no_four_player_table):
    """Red is on the goal; blue (18) plays its last turn, then the others (0) cannot reach
    it. Three players: from the max^n solution; four without a table: searched."""
    race = Race(heights, phase=rules.Phase.GOAL, turn=1, arrived=(0,))
    chances = chance_of_winning(PLAIN, race)
    assert chances[2:] == (0.0,) * (len(heights) - 2)
    assert sum(chances) == pytest.approx(1.0)
    # the turn equation by hand: each first die, blue takes the better of stop and roll
    expected_blue = 0.0
    for die in rules.DIE_FACES:
        seen = rules.roll_die(PLAIN, race, die)
        stop = chance_of_winning(PLAIN, rules.decide(PLAIN, seen, False))[1]
        rolling = rules.decide(PLAIN, seen, True)
        roll = sum(
            chance_of_winning(PLAIN, rules.roll_die(PLAIN, rolling, e))[1] for e in rules.DIE_FACES
        )
        expected_blue += max(stop, roll / 6) / 6
    assert chances[1] == pytest.approx(expected_blue)
    assert (
        0.3 < chances[1] < 0.6
    )  # blue reaches the goal with 4-6 (or a rising pair), then rolls off


def test_with_more_players_the_evaluation_prefers_the_ninja_ahead():
    three = stairgames.load("ishigaki_race", players=3, first_player=0).new_initial_state()
    three.apply_action(4)
    three.apply_action(0)  # stop: red climbs 2
    assert height_lead(three, 0) == pytest.approx(2 / 20)
    assert evaluate(three, 0) > evaluate(three, 1) > evaluate(three, 2)  # blue moves before yellow


def test_a_race_the_solved_game_does_not_hold_falls_back_on_the_height_lead():
    by_hand = Race((25, 3), turn=0)  # above the goal: no game reaches it
    assert chance_of_winning(PLAIN, by_hand) == pytest.approx((1.0, 0.0))


def test_greedy_plays_the_perfect_decision():
    """With the exact evaluation, one decision ahead is perfect play."""
    game = stairgames.load("ishigaki_race", first_player=0)
    rng = random.Random(3)
    solution = solve(PLAIN, 2)
    checked = 0
    state = game.new_initial_state()
    while checked < 40:
        if state.is_terminal():
            state = game.new_initial_state()
        elif state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            assert isinstance(state, IshigakiRaceState)
            race = state.race
            stop, roll = solution.decision_values(race)
            if abs(stop[race.turn] - roll[race.turn]) > 1e-6:
                best = "roll" if roll[race.turn] > stop[race.turn] else "stop"
                chosen = make_agent("greedy", race.turn, seed=checked).step(state)
                assert state.action_to_string(chosen) == best
                checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
