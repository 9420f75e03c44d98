"""27: move notation, action encoding and position text, with their errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import stairgames
from stairgames import IllegalMoveError
from stairgames.core.errors import InvalidOptionError, InvalidPositionError
from stairgames.games.twenty_seven import INITIAL_POSITION, PASS, TwentySevenState
from stairgames.games.twenty_seven.notation import (
    MAX_COUNT,
    NUM_ACTIONS,
    decode_move,
    encode_move,
    format_action,
    parse_move_text,
)
from stairgames.games.twenty_seven.position import format_position, parse_position
from stairgames.games.twenty_seven.rules import VARIANTS, Move


def load(variant: str = "basic") -> stairgames.core.game.Game:
    return stairgames.load("twenty_seven", variant=variant)


def new_state(variant: str = "basic") -> TwentySevenState:
    state = load(variant).new_initial_state()
    assert isinstance(state, TwentySevenState)
    return state


# ----- loading and options ------------------------------------------------------


def test_load_by_name_and_aliases_default_basic():
    for name in ("twenty_seven", "27", "twenty-seven", "TwentySeven"):
        game = stairgames.load(name)
        assert game.name == "twenty_seven"
        assert game.options.variant == "basic"


@pytest.mark.parametrize("variant", VARIANTS)
def test_load_each_variant(variant):
    assert load(variant).options.variant == variant


def test_unknown_variant_is_refused_with_the_choices():
    with pytest.raises(InvalidOptionError, match="'basic', 'advanced', 'expert'"):
        stairgames.load("27", variant="hard")


def test_options_dataclass_checks_its_value_itself():
    from stairgames.games.twenty_seven import TwentySevenOptions

    with pytest.raises(InvalidOptionError):
        TwentySevenOptions(variant="easy")  # type: ignore[arg-type]


def test_spec_lists_all_three_variants_as_option_sets():
    from stairgames.core.registry import get_spec

    spec = get_spec("27")
    assert [o["variant"] for o in spec.option_sets] == ["basic", "advanced", "expert"]


# ----- action encoding ----------------------------------------------------------------


def test_action_encoding_field_times_27_plus_count_minus_1_then_pass():
    assert encode_move(Move(0, 1)) == 0
    assert encode_move(Move(2, 3)) == 2 * MAX_COUNT + 2
    assert PASS == 9 * 27 == 243 and NUM_ACTIONS == 244
    assert decode_move(PASS) is None
    assert format_action(PASS) == "pass"


@given(st.integers(0, 8), st.integers(1, 27))
def test_action_encoding_round_trips(field, count):
    move = Move(field, count)
    action = encode_move(move)
    assert 0 <= action < PASS
    assert decode_move(action) == move
    assert format_action(action) == f"{field}:{count}"
    assert parse_move_text(format_action(action)) == move


def test_format_action_refuses_an_unknown_action():
    with pytest.raises(IllegalMoveError):
        format_action(NUM_ACTIONS)


# ----- move notation ------------------------------------------------------------------


def test_notation_field_colon_count():
    state = new_state()
    assert state.action_to_string(2) == "0:3"
    assert state.string_to_action("0:3") == 2


def test_notation_accepts_spaces_case_and_leading_zeros():
    state = new_state()
    assert state.string_to_action(" 0 : 3 ") == 2
    assert state.string_to_action("00:03") == 2
    blocked = load().state_from_position("RWWWWWWWWWB/G/G/G/GB/G/G/G/RBBBBBBB W")
    assert blocked.string_to_action("PASS") == PASS


@pytest.mark.parametrize("text", ["", "0", "0-3", "a:1", "0:3:1", "1:-1", "pass pass", "??"])
def test_malformed_moves_are_refused_with_the_notation(text):
    state = new_state()
    with pytest.raises(IllegalMoveError, match="malformed move"):
        state.apply_move(text)
    assert state.position() == INITIAL_POSITION and state.history() == []


@pytest.mark.parametrize("text", ["\u0663:1", "0:\uff13", "\u00b2:1"])
def test_notation_digits_are_ascii(text):
    with pytest.raises(IllegalMoveError, match="malformed move"):
        new_state().apply_move(text)


def test_a_move_on_a_missing_field_says_so():
    with pytest.raises(IllegalMoveError, match="no field 12"):
        new_state().apply_move("12:1")


def test_too_many_discs_says_how_many_may_move():
    with pytest.raises(IllegalMoveError, match="only 9 movable discs"):
        new_state().apply_move("0:10")


def test_illegal_move_message_lists_the_legal_moves_for_unknown_reasons():
    state = new_state()
    with pytest.raises(IllegalMoveError) as error:
        state.apply_action(PASS)
    assert "illegal action 243" in str(error.value)
    assert "legal: [0, 1, 2, 3, 4, 5, 6, 7, 8]" in str(error.value)
    assert state.history() == [] and state.position() == INITIAL_POSITION


# ----- position text ------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_initial_position_text(variant):
    assert (
        new_state(variant).position()
        == INITIAL_POSITION
        == ("RWWWWWWWWW/G/G/G/G/G/G/G/RBBBBBBBBB W")
    )


@pytest.mark.parametrize(
    ("text", "variant"),
    [
        (INITIAL_POSITION, "basic"),
        ("RWWWW/GWG/G/GBG/G/GWWWWB/RBBBBBBB W", "advanced"),
        ("GRWWWWWWWWW/G/G/G/G/G/G/RBBBBBBBBB B", "expert"),
        ("RWWWWWWWWWGGGGGGBBBBBBBBBGR W", "expert"),
    ],
)
def test_position_text_round_trips(text, variant):
    line = parse_position(text, variant)
    assert format_position(line) == text
    assert load(variant).state_from_position(text).position() == text


def test_repr_pastes_back_with_the_variant():
    state = new_state("advanced")
    state.apply_move("0:3")
    copy = eval(repr(state), {"stairgames": stairgames})
    assert copy.position() == state.position() and copy.variant == "advanced"


@pytest.mark.parametrize(
    ("text", "variant", "reason"),
    [
        ("RWWWWWWWWW/G/G/G/G/G/G/G/RBBBBBBBBB", "basic", "2 space-separated parts"),
        (INITIAL_POSITION + " x", "basic", "2 space-separated parts"),
        ("RWWWWWWWWW/G/G/G/G/G/G/G/RBBBBBBBBB X", "basic", "colour to move must be W or B"),
        ("RWWWWWWWWW/G/G//G/G/G/G/RBBBBBBBBB W", "basic", "field 3 is empty"),
        ("RWWWWWWWWW/G/G/G/G/G/G/G/RBBBBBBBBX W", "basic", "holds 'X'"),
        ("RWWWWWWWWW/G/G/G/G/G/G/G/RBBBBBBBB W", "basic", "8 black discs"),
        ("RWWWWWWWWWW/G/G/G/G/G/G/G/RBBBBBBBBB W", "basic", "10 white discs"),
        ("RWWWWWWWWW/G/G/G/G/G/G/G/G/RBBBBBBBBB W", "expert", "10 fields"),
        ("RWWWWWWWWW/G/G/G/G/G/G/G/RBBBBBBBBB/G W", "expert", "10 fields"),
        ("RWWWWWWWW/WG/G/G/G/G/G/G/RBBBBBBBBB W", "basic", "white disc at the bottom"),
        ("GWWWWWWWWW/G/G/R/G/G/G/G/RBBBBBBBBB W", "expert", "not at an end"),
        ("RWWWWWWWWW/G/G/G/G/G/G/RBBBBBBBBBG W", "basic", "carries a grey disc"),
        ("RWWWWWWWWW/G/G/G/G/G/G/GRBBBBBBBBB W", "advanced", "both ends"),
        ("RWWWWWWWWWG/G/G/G/G/G/G/RBBBBBBBBB W", "basic", "field 0 carries a grey disc"),
        ("GRWWWWWWWWW/G/G/G/G/G/G/RBBBBBBBBB W", "advanced", "both ends"),
        ("RWWWWWWWWWR/G/G/G/G/G/G/GBBBBBBBBB W", "basic", "both ends"),
        ("RWWWWWWWWWRGGGGGGGBBBBBBBBB W", "advanced", "both ends"),
    ],
)
def test_impossible_or_malformed_positions_are_refused_saying_why(text, variant, reason):
    with pytest.raises(InvalidPositionError, match=reason):
        load(variant).state_from_position(text)


def test_grey_discs_may_be_carried_in_the_advanced_game():
    line = parse_position("RWWWWWWWWW/G/G/G/G/G/RBBBBBBBBBGG W", "advanced")
    assert len(line) == 7 and line.fields[-1].endswith("GG")


def test_a_position_must_be_text():
    with pytest.raises(InvalidPositionError, match="is text"):
        load().state_from_position(42)  # type: ignore[arg-type]


@given(st.text(alphabet="RGWB/ WBx", max_size=40))
def test_any_text_is_either_refused_cleanly_or_reprinted_exactly(text):
    for variant in VARIANTS:
        try:
            line = parse_position(text, variant)
        except InvalidPositionError:
            continue
        assert format_position(parse_position(format_position(line), variant)) == format_position(
            line
        )


def test_observation_shows_the_position_and_the_colour():
    state = new_state()
    assert state.observation_string(0) == INITIAL_POSITION + " you:W"
    assert state.observation_string(1) == INITIAL_POSITION + " you:B"
