"""Ishigaki Race: the chance model itself.

The exact distribution of one turn's outcome is computed by walking the chance
tree with ``chance_outcomes()`` under a fixed policy, and compared with
probabilities worked out by hand below.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction

import stairgames
from stairgames.games.ishigaki_race import ROLL, STOP, IshigakiRaceState

Policy = Callable[[IshigakiRaceState], int]


def always_stop(state: IshigakiRaceState) -> int:
    return STOP


def always_roll(state: IshigakiRaceState) -> int:
    return ROLL


def turn_distribution(
    position: str, policy: Policy, **options: object
) -> dict[tuple[int, ...], Fraction]:
    """The exact distribution of the change of every ninja's step over one turn (or one
    roll-off roll), by enumerating the chance tree."""
    start = stairgames.load("ishigaki_race", **options).state_from_position(position)
    assert isinstance(start, IshigakiRaceState)
    roller = start.race.turn
    result: dict[tuple[int, ...], Fraction] = defaultdict(Fraction)

    def walk(state: IshigakiRaceState, probability: Fraction) -> None:
        if state.race.turn != roller or state.is_terminal():
            change = tuple(b - a for a, b in zip(start.heights(), state.heights(), strict=True))
            result[change] += probability
            return
        if state.is_chance_node():
            for action, p in state.chance_outcomes():
                child = state.clone()
                child.apply_action(action)
                walk(child, probability * Fraction(p).limit_denominator(100))
            return
        child = state.clone()
        child.apply_action(policy(state))
        walk(child, probability)

    walk(start, Fraction(1))
    assert sum(result.values()) == 1
    return dict(result)


def test_the_die_probabilities_are_exactly_one_sixth():
    state = stairgames.load("ishigaki_race", first_player=0).new_initial_state()
    assert [Fraction(p).limit_denominator(100) for _, p in state.chance_outcomes()] == [
        Fraction(1, 6)
    ] * 6


def test_always_stop_climbs_1_or_2_steps_with_even_odds():
    # One die: faces 1-3 climb 1 step, faces 4-6 climb 2 (I1): 3/6 each.
    distribution = turn_distribution("race ninjas=5,0 turn=red dice=-", always_stop)
    assert distribution == {(1, 0): Fraction(1, 2), (2, 0): Fraction(1, 2)}


def test_always_roll_distribution_for_the_leader():
    # 36 equally likely ordered pairs (a, b).
    # Rising, b > a (15 pairs), climb by the table on the sum (I1):
    #   sum 3: (1,2)                                   -> 1 step,  1 pair
    #   sums 4-6: (1,3) (1,4) (1,5) (2,3) (2,4)        -> 2 steps, 5 pairs
    #   sums 7-8: (1,6) (2,5) (3,4) (2,6) (3,5)        -> 3 steps, 5 pairs
    #   sum 9: (3,6) (4,5)                             -> 4 steps, 2 pairs
    #   sum 10: (4,6)                                  -> 5 steps, 1 pair
    #   sum 11: (5,6)                                  -> 6 steps, 1 pair
    # Falling, b < a (15 pairs): slip 1 step (I2).
    # Doubles (6 pairs): red at 5 is the highest, so red falls 3 (I3); blue stays.
    distribution = turn_distribution("race ninjas=5,0 turn=red dice=-", always_roll)
    assert distribution == {
        (1, 0): Fraction(1, 36),
        (2, 0): Fraction(5, 36),
        (3, 0): Fraction(5, 36),
        (4, 0): Fraction(2, 36),
        (5, 0): Fraction(1, 36),
        (6, 0): Fraction(1, 36),
        (-1, 0): Fraction(15, 36),
        (-3, 0): Fraction(6, 36),
    }
    mean = sum(change[0] * p for change, p in distribution.items())
    assert mean == Fraction(45 - 15 - 18, 36)  # climbs 45/36, slips 15/36, doubles 18/36


def test_always_roll_distribution_when_another_ninja_leads():
    # The same pairs; now blue at 9 is the highest, so doubles knock blue down 3 (I3).
    distribution = turn_distribution("race ninjas=5,9 turn=red dice=-", always_roll)
    assert distribution == {
        (1, 0): Fraction(1, 36),
        (2, 0): Fraction(5, 36),
        (3, 0): Fraction(5, 36),
        (4, 0): Fraction(2, 36),
        (5, 0): Fraction(1, 36),
        (6, 0): Fraction(1, 36),
        (-1, 0): Fraction(15, 36),
        (0, -3): Fraction(6, 36),
    }


def test_always_roll_on_the_crumbling_wall():
    # Red at 3, squares 5, 9, 13, 17. Rising pairs: +1 -> 4 (1 pair), +2 -> 5 drops to 3
    # (5 pairs, net 0), +3 -> 6 (5), +4 -> 7 (2), +5 -> 8 (1), +6 -> 9 drops to 7 (1 pair,
    # net +4). Slips: 3 -> 2 (15 pairs). Doubles: red is highest, 3 -> 0 (6 pairs).
    distribution = turn_distribution(
        "race ninjas=3,0 turn=red dice=-", always_roll, crumbling_wall=True
    )
    assert distribution == {
        (1, 0): Fraction(1, 36),
        (0, 0): Fraction(5, 36),
        (3, 0): Fraction(5, 36),
        (4, 0): Fraction(3, 36),
        (5, 0): Fraction(1, 36),
        (-1, 0): Fraction(15, 36),
        (-3, 0): Fraction(6, 36),
    }


def test_rolloff_score_expectation_for_always_stop():
    # One die scores its value: (1 + ... + 6) / 6 = 7/2.
    assert _rolloff_mean(always_stop) == Fraction(7, 2)


def test_rolloff_score_expectation_for_always_roll():
    # Rising pairs score their sum: sum over a < b of (a + b) = 5 * 21 = 105 (each face
    # appears in 5 pairs). Doubles score 2a: 2 * 21 = 42. Falling pairs score 0.
    # Mean (105 + 42) / 36 = 147/36 = 49/12.
    assert _rolloff_mean(always_roll) == Fraction(49, 12)


def _rolloff_mean(policy: Policy) -> Fraction:
    """The exact mean score of blue's roll-off roll, from the tree below it."""
    start = stairgames.load("ishigaki_race").state_from_position(
        "rolloff ninjas=20,20 turn=blue dice=- rollers=blue,red"
    )
    assert isinstance(start, IshigakiRaceState)
    total = Fraction(0)
    stack = [(start, Fraction(1))]
    while stack:
        state, probability = stack.pop()
        if state.race.scores:
            total += probability * state.race.scores[0]
        elif state.is_chance_node():
            for action, p in state.chance_outcomes():
                child = state.clone()
                child.apply_action(action)
                stack.append((child, probability * Fraction(p).limit_denominator(100)))
        else:
            child = state.clone()
            child.apply_action(policy(state))
            stack.append((child, probability))
    return total


def _rolloff_tie_chance(policy: Policy) -> Fraction:
    """The exact chance that a two-roller roll-off round ties and is played again (I6)."""
    start = stairgames.load("ishigaki_race").state_from_position(
        "rolloff ninjas=20,20 turn=blue dice=- rollers=blue,red"
    )
    assert isinstance(start, IshigakiRaceState)
    tie = Fraction(0)
    stack = [(start, Fraction(1))]
    while stack:
        state, probability = stack.pop()
        if state.is_terminal():
            continue
        fresh_round = state.race.scores == () and state.race.first_die == 0
        if fresh_round and state.move_number() > 0:
            tie += probability
        elif state.is_chance_node():
            for action, p in state.chance_outcomes():
                child = state.clone()
                child.apply_action(action)
                stack.append((child, probability * Fraction(p).limit_denominator(100)))
        else:
            child = state.clone()
            child.apply_action(policy(state))
            stack.append((child, probability))
    return tie


def test_a_rolloff_of_two_always_stopping_ties_one_time_in_six():
    # Both keep one die: equal faces, 6 of 36 pairs.
    assert _rolloff_tie_chance(always_stop) == Fraction(1, 6)


def test_a_rolloff_of_two_always_rolling_ties_17_times_in_81():
    # Scores out of 36 ordered pairs: 0 (falling pairs) 15; doubles 2, 4, ..., 12 one each;
    # rising sums 3:1 4:1 5:2 6:2 7:3 8:2 9:2 10:1 11:1. Together, per score:
    # 0:15 2:1 3:1 4:2 5:2 6:3 7:3 8:3 9:2 10:2 11:1 12:1. A tie is both rolling the same
    # score: (225 + 1 + 1 + 4 + 4 + 9 + 9 + 9 + 4 + 4 + 1 + 1) / 36² = 272 / 1296 = 17/81.
    assert _rolloff_tie_chance(always_roll) == Fraction(17, 81)
