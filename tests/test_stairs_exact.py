"""The exact Stairs search for small boards (S8) against a plain search through the protocol."""

from __future__ import annotations

import random

import pytest

import stairgames
from stairgames.games.stairs import StairsState, rules
from stairgames.games.stairs.research.exact import BudgetSpentError, ExactSolver, solve_start


def plain_winner(state: StairsState) -> int:
    """The seat that wins ``state`` under perfect play: every line searched through the
    protocol, no table, no shortcut but stopping at the mover's first winning action."""
    if state.is_terminal():
        return 0 if state.returns()[0] > 0 else 1
    mover = state.current_player()
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        if plain_winner(child) == mover:
            return mover
    return 1 - mover


def load(size: int) -> stairgames.Game:
    return stairgames.load("stairs", size=size, agreement=False)


def test_3x3_light_wins_by_every_first_move_to_the_centre_or_a_corner():
    result = solve_start(3)
    assert result.winner == "L"
    game = load(3)
    expected = []
    for action in game.new_initial_state().legal_actions():
        state = game.new_initial_state()
        assert isinstance(state, StairsState)
        text = state.action_to_string(action)
        state.apply_action(action)
        if plain_winner(state) == 0:
            expected.append(text)
    assert list(result.winning_first_moves) == expected
    # every edge piece moving onto b2 or a corner wins; onto another edge loses
    corners_and_centre = {"a1", "c1", "a3", "c3", "b2"}
    assert {move.split("-")[1] in corners_and_centre for move in expected} == {True}
    assert len(expected) == 12


def test_3x3_search_is_pinned_at_1861_positions():
    assert solve_start(3).nodes == 1861


@pytest.mark.parametrize("size", [4, 5])
@pytest.mark.parametrize("seed", range(6))
def test_exact_search_agrees_with_the_plain_search_near_the_end(size, seed):
    game = load(size)
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    history = state.history()
    replay = game.new_initial_state()
    for action in history[: max(len(history) // 2, len(history) - 8)]:
        replay.apply_action(action)
    assert isinstance(replay, StairsState)
    if replay.is_terminal():
        return
    mover = replay.current_player()
    colour_wins = ExactSolver().wins(replay.board)
    assert (plain_winner(replay) == mover) == colour_wins


def test_a_spent_budget_raises_and_the_search_goes_on_from_its_table():
    solver = ExactSolver()
    board = rules.initial_board(3)
    with pytest.raises(BudgetSpentError):
        solver.wins(board, nodes=10)
    assert solver.nodes == 10
    assert solver.wins(board) is ExactSolver().wins(board)
