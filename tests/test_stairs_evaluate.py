"""The Stairs evaluation's one-pass log-odds against the model written out plainly."""

from __future__ import annotations

import math
import random

import stairgames
from stairgames.games.stairs import rules
from stairgames.games.stairs.game import StairsState
from stairgames.games.stairs.play.evaluate import (
    HEIGHT_WEIGHTS,
    LEADER_WEIGHT,
    MOBILITY_WEIGHT,
    TO_MOVE_WEIGHT,
    evaluate,
    log_odds,
)


def reference_log_odds(board: rules.Board, colour: str) -> float:
    """The model from the rules' own functions: heights, S5 verdict, mobility, turn."""
    other = rules.opponent(colour)
    peak = board.max_height()
    x = 0.0
    for stack in board.stacks:
        offset = peak - len(stack)
        if stack and offset < len(HEIGHT_WEIGHTS):
            x += HEIGHT_WEIGHTS[offset] if stack[-1] == colour else -HEIGHT_WEIGHTS[offset]
    verdict = rules.verdict(board)
    if verdict is not None:
        x += LEADER_WEIGHT if verdict.winner == colour else -LEADER_WEIGHT
    mobility = len(rules.movable_moves(board, colour)) - len(rules.movable_moves(board, other))
    x += MOBILITY_WEIGHT * mobility
    x += TO_MOVE_WEIGHT if board.to_move == colour else -TO_MOVE_WEIGHT
    return x


def test_log_odds_matches_the_model_along_random_games():
    game = stairgames.load("stairs")
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = game.new_initial_state()
        assert isinstance(state, StairsState)
        while True:
            for colour in rules.COLOURS:
                got = log_odds(state.board, colour)
                assert math.isclose(got, reference_log_odds(state.board, colour), abs_tol=1e-12)
                checked += 1
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 1000


def test_evaluate_scores_each_seat_by_the_colour_it_plays_also_after_a_swap():
    game = stairgames.load("stairs", pie_rule=True)
    state = game.new_initial_state()
    assert isinstance(state, StairsState)
    state.apply_action(state.legal_actions()[0])
    state.apply_move("swap")  # seat 0 now plays dark
    assert state.swapped()
    for seat in (0, 1):
        expected = math.tanh(log_odds(state.board, state.colour_of(seat)) / 2)
        assert evaluate(state, seat) == expected
    assert evaluate(state, 0) != evaluate(state, 1)
