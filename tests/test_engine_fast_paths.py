"""The protocol's fast paths (Stairs and 27 apply moves from action ids, keep the greatest
height or the step, cache legal actions) give exactly what the rules' plain functions give
(``rules.legal_moves``, ``rules.apply_move``), from the start and from a position text."""

from __future__ import annotations

import random

import pytest

import stairgames
from stairgames.games.stairs import rules as stairs_rules
from stairgames.games.stairs.game import StairsState
from stairgames.games.stairs.notation import PASS as STAIRS_PASS
from stairgames.games.stairs.notation import encode_move as encode_stairs_move
from stairgames.games.twenty_seven import rules as tsr
from stairgames.games.twenty_seven.game import TwentySevenState
from stairgames.games.twenty_seven.notation import PASS as TS_PASS
from stairgames.games.twenty_seven.notation import decode_move, encode_move


def stairs_states(rng: random.Random, options: dict[str, bool]) -> list[StairsState]:
    """A random game's states, then the same game read back from a position halfway."""
    game = stairgames.load("stairs", **options)
    state = game.new_initial_state()
    assert isinstance(state, StairsState)
    states = []
    while not state.is_terminal():
        states.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    middle = game.state_from_position(states[len(states) // 2].position())
    assert isinstance(middle, StairsState)
    return [*states, middle]


@pytest.mark.parametrize("options", [{"agreement": False}, {"pie_rule": True}])
def test_stairs_moves_through_the_protocol_are_the_rules_moves(options):
    rng = random.Random(4)
    for _ in range(15):
        for state in stairs_states(rng, options):
            while not state.is_terminal():
                board = state.board
                moves = stairs_rules.legal_moves(board, board.to_move)
                expected = sorted(encode_stairs_move(m) for m in moves)
                actions = state.legal_actions()
                if not state.offer_pending():  # else only accept and decline
                    assert [a for a in actions if a < STAIRS_PASS] == expected
                action = rng.choice(actions)
                state.apply_action(action)
                if action < STAIRS_PASS:
                    after = stairs_rules.apply_move(board, stairs_rules.step_move(action))
                    assert state.board == after
                if rng.random() < 0.3:
                    break


@pytest.mark.parametrize("variant", ["basic", "advanced", "expert"])
def test_27_moves_through_the_protocol_are_the_rules_moves(variant):
    game = stairgames.load("twenty_seven", variant=variant)
    rng = random.Random(6)
    for _ in range(40):
        state = game.new_initial_state()
        assert isinstance(state, TwentySevenState)
        while not state.is_terminal():
            if rng.random() < 0.1:
                state = game.state_from_position(state.position())
                assert isinstance(state, TwentySevenState)
            line = state.line
            moves = tsr.legal_moves(line, line.to_move, variant)
            assert state.moves() == moves
            assert state.legal_actions() == ([encode_move(m) for m in moves] or [TS_PASS])
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            move = decode_move(action)
            expected = tsr.pass_turn(line) if move is None else tsr.apply_move(line, move)
            assert state.line == expected
