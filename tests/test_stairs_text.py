"""Stairs notation and position text: printers and parsers that round-trip, clear errors."""

from __future__ import annotations

import pytest

import stairgames
from stairgames import IllegalMoveError, InvalidPositionError
from stairgames.games.stairs import INITIAL_POSITION, PASS, SWAP
from stairgames.games.stairs.notation import format_action, parse_move_text
from stairgames.games.stairs.rules import Move
from tests.stairs_helpers import build


def game() -> stairgames.Game:
    return stairgames.load("stairs")


def test_notation_from_to_squares():
    state = game().new_initial_state()
    action = state.string_to_action("d3-c4")
    assert state.action_to_string(action) == "d3-c4"
    assert format_action(PASS) == "pass" and format_action(SWAP) == "swap"


def test_notation_accepts_case_and_spaces():
    state = game().new_initial_state()
    assert state.string_to_action(" D3 - C4 ") == state.string_to_action("d3-c4")


@pytest.mark.parametrize("text", ["", "d3", "d3c4", "g1-g2", "d0-d1", "d3-c4-b5", "pas", "3d-4c"])
def test_malformed_move_is_refused_with_the_notation_explained(text):
    state = game().new_initial_state()
    with pytest.raises(IllegalMoveError, match="malformed move"):
        state.apply_move(text)
    assert state.position() == INITIAL_POSITION and state.history() == []


def test_well_formed_but_not_adjacent_move_says_so():
    state = game().new_initial_state()
    with pytest.raises(IllegalMoveError, match="not next to"):
        state.apply_move("d3-f5")


def test_illegal_action_number_is_refused_state_unchanged():
    state = game().new_initial_state()
    for action in (-1, 999, PASS, SWAP, 0):
        with pytest.raises(IllegalMoveError):
            state.apply_action(action)
    with pytest.raises(IllegalMoveError, match="an action is an int"):
        state.apply_action("d3-c4")  # type: ignore[arg-type]
    assert state.position() == INITIAL_POSITION


def test_parse_move_text_returns_squares():
    assert parse_move_text("a1-b2") == Move(0, 7)


def test_position_initial_round_trips():
    state = game().state_from_position(INITIAL_POSITION)
    assert state.position() == INITIAL_POSITION
    assert state.current_player() == 0


def test_position_with_stacks_and_empties_round_trips():
    state = build({"c2": "L", "e2": "LL", "e3": "DD", "c4": "LDL", "c5": "DLD"})
    again = game().state_from_position(state.position())
    assert again.position() == state.position()


def test_position_after_moves_names_the_last_arrival():
    state = game().new_initial_state()
    state.apply_move("d3-c4")
    assert state.position().endswith(" D L")


def test_repr_pastes_back():
    state = game().new_initial_state()
    state.apply_move("d3-c4")
    assert repr(state) == (f"stairgames.load('stairs').state_from_position({state.position()!r})")


BAD_POSITIONS = [
    ("", "3 to 5 space-separated fields"),
    (INITIAL_POSITION + " 0 - extra", "3 to 5 space-separated fields"),
    (INITIAL_POSITION + " 2", "seat playing light must be 0 or 1"),
    (INITIAL_POSITION + " 1", "light is seat 1 only after a swap"),
    (INITIAL_POSITION + " 0 maybe", "what is pending must be"),
    (INITIAL_POSITION + " 0 offer+declined", "at most one of offer, declined, agreed"),
    (INITIAL_POSITION + " 0 swap+swap", "what is pending must be"),
    (INITIAL_POSITION + " 0 swap", "swap can be pending only right after"),
    (INITIAL_POSITION + " 0 offer", "no offer to end by agreement before"),
    ("L,D,L,D,L,D L -", "6 ranks"),
    (INITIAL_POSITION.replace("L,D,L,D,L,D/", "L,D,L,D,L/", 1) + "", "6 squares"),
    (INITIAL_POSITION.replace(" L -", " X -"), "colour to move"),
    (INITIAL_POSITION.replace(" L -", " L Q"), "last arrival"),
    (INITIAL_POSITION.replace("L,D,L,D,L,D/", "L,D,L,x,L,D/", 1), "square d6"),
    (INITIAL_POSITION.replace("L,D,L,D,L,D/", "L,D,L,,L,D/", 1), "square d6"),
    (INITIAL_POSITION.replace("L,D,L,D,L,D/", "L,D,L,.,L,D/", 1), "17 dark pieces"),
    (INITIAL_POSITION.replace("L,D,L,D,L,D/", "L,D,L,L,L,D/", 1), "19 light"),
    (INITIAL_POSITION.replace(" L -", " L L"), "no piece has climbed"),
    (INITIAL_POSITION.replace(" L -", " D -"), "dark cannot be to move"),
]


@pytest.mark.parametrize(("text", "message"), BAD_POSITIONS)
def test_malformed_or_impossible_position_is_refused(text, message):
    with pytest.raises(InvalidPositionError, match=message):
        game().state_from_position(text)


def test_position_with_a_wrong_bottom_piece_is_impossible():
    # d6 starts dark; a stack there must have a dark bottom piece.
    text = INITIAL_POSITION.replace("L,D,L,D,L,D/D,L", "L,D,L,LD,.,D/D,L", 1)
    with pytest.raises(InvalidPositionError, match="bottom piece of d6"):
        game().state_from_position(text)


def test_position_needs_a_last_arrival_once_pieces_climbed():
    state = game().new_initial_state()
    state.apply_move("d3-c4")
    text = state.position()[:-1] + "-"
    with pytest.raises(InvalidPositionError, match="must be L or D"):
        game().state_from_position(text)


def test_position_last_arrival_must_top_a_stack_at_the_greatest_height():
    state = game().new_initial_state()
    state.apply_move("d3-c4")
    text = state.position()[:-1] + "D"
    with pytest.raises(InvalidPositionError, match="tops no stack"):
        game().state_from_position(text)


def test_observation_is_the_position_and_the_seats_colour():
    state = game().new_initial_state()
    assert state.observation_string(0) == f"{INITIAL_POSITION} you:L"
    assert state.observation_string(1) == f"{INITIAL_POSITION} you:D"


def test_str_draws_the_board():
    text = str(game().new_initial_state())
    assert "a   b   c   d   e   f" in text
    assert "Light to move" in text
