"""The package surface: loading games, options, errors and records."""

from __future__ import annotations

import pytest

import stairgames
from stairgames import IllegalMoveError, InvalidOptionError, InvalidPositionError
from stairgames.core.errors import InvalidRecordError, StairgamesError
from stairgames.core.record import GameRecord, final_state, make_record, replay
from stairgames.games.stairs import StairsState


def new_stairs() -> StairsState:
    state = stairgames.load("stairs").new_initial_state()
    assert isinstance(state, StairsState)
    return state


def test_errors_are_value_errors():
    for error in (IllegalMoveError, InvalidPositionError, InvalidOptionError, InvalidRecordError):
        assert issubclass(error, StairgamesError)
        assert issubclass(error, ValueError)


def test_load_returns_a_game_with_its_options():
    game = stairgames.load("stairs", pie_rule=True)
    assert game.name == "stairs"
    assert game.options.pie_rule is True
    assert stairgames.load("Stairs").name == "stairs"


def test_unknown_game_names_it_and_lists_the_games():
    with pytest.raises(InvalidOptionError, match=r"unknown game 'chess'.*stairs"):
        stairgames.load("chess")


def test_unknown_option_names_it_and_lists_the_allowed():
    with pytest.raises(InvalidOptionError, match=r"unknown option 'pie'.*pie_rule=False"):
        stairgames.load("stairs", pie=True)


def test_bad_option_value_names_it():
    with pytest.raises(InvalidOptionError, match=r"'pie_rule' expects true or false, got 'yes'"):
        stairgames.load("stairs", pie_rule="yes")


def test_text_options_are_converted():
    game = stairgames.core.load_with_text_options("stairs", {"pie_rule": "true"})
    assert game.options.pie_rule is True
    with pytest.raises(InvalidOptionError, match="expects true or false"):
        stairgames.core.load_with_text_options("stairs", {"pie_rule": "maybe"})


def test_list_games_includes_options():
    listing = {g["name"]: g for g in stairgames.list_games()}
    assert "stairs" in listing
    assert listing["stairs"]["options"] == "pie_rule=False, agreement=True, size=6"


def test_game_info_for_stairs():
    info = stairgames.load("stairs").info()
    assert (info.num_players, info.chance, info.hidden_information) == (2, False, False)
    assert info.seat_names == ("light", "dark")


def test_record_hides_the_seed_until_the_game_is_over():
    state = new_stairs()
    state.apply_move("d3-c4")
    assert make_record(state, seed=42).seed is None
    state.apply_move("c3-b3")
    state.apply_move("offer")
    assert make_record(state, seed=42).seed is None  # an offer is not the end
    state.apply_move("accept")
    record = make_record(state, seed=42)
    assert record.seed == 42
    assert record.moves[-2:] == ("offer", "accept")
    assert record.returns == (1.0, -1.0)


def test_record_with_agreement_replays():
    state = new_stairs()
    state.apply_move("d3-c4")
    state.apply_move("c3-b3")
    state.apply_move("offer")
    state.apply_move("accept")
    steps = list(replay(GameRecord.from_json(make_record(state).to_json())))
    assert steps[-1][0] == "accept"
    assert steps[-1][1].is_terminal() and "agreement" in str(steps[-1][1].outcome())
    assert steps[-1][1].returns() == state.returns()


def test_agreement_ends_the_history_and_the_position_text_too():
    """Defect: an agreed end happened outside apply_action, so the history did not show
    it and state_from_position(position()) of an agreed end was not over."""
    state = new_stairs()
    for move in ("d3-c4", "c3-b3", "offer", "accept"):
        state.apply_move(move)
    assert state.history_strings()[-2:] == ["offer", "accept"]
    again = state.get_game().state_from_position(state.position())
    assert again.is_terminal() and again.returns() == state.returns()


def test_a_record_written_with_the_old_agreement_flag_still_replays():
    old = (
        '{"game": "stairs", "options": {"pie_rule": false}, "moves": ["d3-c4", "c3-b3"], '
        '"ended_by_agreement": true}'
    )
    record = GameRecord.from_json(old)
    assert record.moves == ("d3-c4", "c3-b3", "offer", "accept")
    assert final_state(record).returns() == [1.0, -1.0]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "not valid JSON"),
        ("[]", "JSON object"),
        ('{"game": "stairs"}', "'moves'"),
        ('{"game": "stairs", "moves": [1]}', "list of strings"),
        ('{"game": "nope", "moves": []}', "unknown game"),
        ('{"game": "stairs", "moves": ["d3-c4", "d3-c4"]}', "move 2"),
    ],
)
def test_bad_records_are_refused_with_the_reason(text, message):
    with pytest.raises(InvalidRecordError, match=message):
        list(replay(GameRecord.from_json(text)))
