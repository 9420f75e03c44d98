"""The measure of what random play keeps of a Stairs position's value
(:mod:`stairgames.games.stairs.research.playout_signal`): its scores, its estimators, and
that the exact estimator (``walk:0``) orders every proven pair rightly."""

from __future__ import annotations

import random

import pytest

import stairgames
from stairgames.core import uct
from stairgames.games.stairs.game import StairsState
from stairgames.games.stairs.notation import PASS
from stairgames.games.stairs.research import playout_signal, policy


def late_labelled_position() -> policy.LabelledPosition:
    """A position of a random game near its end with winning and losing moves, every
    move proven by the solver."""
    game = stairgames.load("stairs", agreement=False)
    for seed in range(200):
        rng = random.Random(seed)
        state = game.new_initial_state()
        assert isinstance(state, StairsState)
        moves: list[str] = []
        while not state.is_terminal() and len(moves) < 22:
            action = rng.choice(state.legal_actions())
            moves.append(state.action_to_string(action))
            state.apply_action(action)
        if state.is_terminal() or PASS in state.legal_actions():
            continue
        winning = policy.label(state, 200_000)
        if winning is not None and len(set(winning.values())) == 2:
            return policy.LabelledPosition(tuple(moves), winning)
    raise AssertionError("no late position with winning and losing moves in 200 games")


def test_ordered_pairs_counts_right_orders_and_ties_half() -> None:
    winning = {"a": True, "b": False, "c": False}
    assert playout_signal.ordered_pairs({"a": 0.9, "b": 0.1, "c": 0.5}, winning) == (2.0, 2)
    assert playout_signal.ordered_pairs({"a": 0.1, "b": 0.9, "c": 0.5}, winning) == (0.0, 2)
    assert playout_signal.ordered_pairs({"a": 0.5, "b": 0.5, "c": 0.1}, winning) == (1.5, 2)


def test_best_wins_says_whether_the_most_valued_move_wins() -> None:
    winning = {"a": True, "b": False}
    assert playout_signal.best_wins({"a": 0.7, "b": 0.2}, winning)
    assert not playout_signal.best_wins({"a": 0.2, "b": 0.7}, winning)


def test_the_exact_estimator_orders_every_proven_pair_rightly() -> None:
    position = late_labelled_position()
    walks = playout_signal.Walks(0, 2, 1_000_000, random.Random(1))
    result = playout_signal.score("walk:0", [position], walks.share)
    assert result.positions == 1
    assert result.pairs == pytest.approx(1.0) and result.best == pytest.approx(1.0)
    assert walks.unsolved == 0 and walks.searched > 0


@pytest.mark.parametrize("guided", [False, True])
@pytest.mark.slow
def test_playout_shares_are_shares_of_the_playouts(guided: bool) -> None:
    position = late_labelled_position()
    uct.seed(3)
    values = playout_signal.move_estimates(position, playout_signal.playout_share(4, guided=guided))
    assert set(values) == set(position.winning)
    assert all(value in (0.0, 0.25, 0.5, 0.75, 1.0) for value in values.values())


def test_random_steps_before_the_solver_are_drawn_from_the_generator_passed_in() -> None:
    position = late_labelled_position()
    first = playout_signal.Walks(3, 6, 1_000_000, random.Random(7))
    again = playout_signal.Walks(3, 6, 1_000_000, random.Random(7))
    assert playout_signal.move_estimates(position, first.share) == (
        playout_signal.move_estimates(position, again.share)
    )
