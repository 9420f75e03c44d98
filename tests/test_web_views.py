"""The browser's drawing data (games/<g>/web.py board_view) and its registration."""

from __future__ import annotations

import json
from typing import Any

import pytest

import stairgames
from stairgames.core.game import State
from stairgames.core.registry import game_names, get_spec
from stairgames.games.stairs.rules import initial_colour
from stairgames.games.twenty_seven import TwentySevenState
from stairgames.games.twenty_seven.rules import initial_line

WEB_GAMES = ("stairs", "twenty_seven", "ishigaki_race", "city_of_stairs")


def view(state: State, viewer: int | None = None) -> dict[str, Any]:
    spec = get_spec(_name_of(state))
    assert spec.web_view is not None
    data = spec.web_view(state, viewer)
    assert json.loads(json.dumps(data)) == data, "the view must be JSON-ready"
    return data


def legal(state: State) -> list[str]:
    return [state.action_to_string(action) for action in state.legal_actions()]


def _name_of(state: State) -> str:
    return "stairs" if type(state).__name__ == "StairsState" else "twenty_seven"


@pytest.mark.parametrize("name", WEB_GAMES)
def test_each_web_game_registers_its_view_and_a_board_js_folder(name):
    spec = get_spec(name)
    assert spec.web_view is not None and spec.web_assets is not None
    script = (spec.web_assets / "board.js").read_text(encoding="utf-8")
    assert "export function draw(svg, board, ui)" in script


def test_every_game_has_a_browser_board():
    assert set(WEB_GAMES) == set(game_names())


# ----- Stairs ---------------------------------------------------------------------


def test_stairs_view_has_every_square_a1_first_row_major_by_rank():
    data = view(stairgames.load("stairs").new_initial_state())
    assert (data["size"], data["files"], data["ranks"]) == (6, "abcdef", "123456")
    names = [square["name"] for square in data["squares"]]
    assert names == [f + r for r in "123456" for f in "abcdef"]
    for index, square in enumerate(data["squares"]):
        colour = initial_colour(index)
        assert square == {"name": names[index], "stack": colour, "height": 1, "top": colour}
    assert (data["to_move"], data["light_seat"], data["peak"]) == ("L", 0, 1)


def test_stairs_view_after_a_move_shows_the_climb_and_the_empty_source():
    state = stairgames.load("stairs").new_initial_state()
    state.apply_move("d3-c4")
    squares = {square["name"]: square for square in view(state, 0)["squares"]}
    assert squares["d3"] == {"name": "d3", "stack": "", "height": 0, "top": None}
    assert squares["c4"] == {"name": "c4", "stack": "LL", "height": 2, "top": "L"}
    data = view(state, 1)
    assert (data["to_move"], data["peak"]) == ("D", 2)


def test_stairs_view_after_a_swap_names_seat_1_as_light():
    state = stairgames.load("stairs", pie_rule=True).new_initial_state()
    state.apply_move("d3-c4")
    before = view(state)["squares"]
    state.apply_move("swap")
    data = view(state)
    assert data["light_seat"] == 1
    assert data["squares"] == before, "a swap changes seats, not squares"
    assert data["to_move"] == "D"


def test_stairs_view_during_a_pending_offer_keeps_the_board():
    state = stairgames.load("stairs").new_initial_state()
    state.apply_move("d3-c4")
    before = view(state)
    assert "offer" in legal(state)
    state.apply_move("offer")
    assert legal(state) == ["accept", "decline"]
    assert view(state) == before


def test_stairs_view_is_the_same_for_every_viewer():
    state = stairgames.load("stairs").new_initial_state()
    state.apply_move("d3-c4")
    assert view(state, 0) == view(state, 1) == view(state, None)


def test_stairs_view_refuses_another_games_state():
    with pytest.raises(TypeError):
        get_spec("stairs").web_view(stairgames.load("27").new_initial_state(), None)  # type: ignore[misc]


# ----- 27 -------------------------------------------------------------------------


def test_twenty_seven_view_has_every_field_with_base_stack_and_top():
    data = view(stairgames.load("twenty_seven").new_initial_state())
    assert [field["index"] for field in data["fields"]] == list(range(9))
    for field, stack in zip(data["fields"], initial_line().fields, strict=True):
        assert field["stack"] == stack
        assert (field["base"], field["top"]) == (stack[0], stack[-1])
    assert [field["base"] for field in data["fields"]] == list("RGGGGGGGR")
    assert (data["to_move"], data["stacks"], data["variant"]) == ("W", {"W": 1, "B": 1}, "basic")
    assert set(data["scores"]) == {"W", "B"}


def test_twenty_seven_view_after_moves_counts_stacks_and_scores():
    state = stairgames.load("twenty_seven").new_initial_state()
    state.apply_move("0:3")
    assert isinstance(state, TwentySevenState)
    data = view(state, 1)
    assert data["fields"][0]["stack"] == "RWWWWWW"
    assert data["fields"][1] == {"index": 1, "base": "G", "stack": "GWWW", "top": "W"}
    assert (data["to_move"], data["stacks"]) == ("B", {"W": 2, "B": 1})
    assert data["scores"] == {"W": state.score("W"), "B": state.score("B")}


def test_twenty_seven_view_numbers_the_fields_as_they_are_after_a_base_leaves():
    state = stairgames.load("twenty_seven", variant="advanced").new_initial_state()
    state.apply_move("0:3")
    state.apply_move("8:2")
    state.apply_move("1:4")  # the three white discs with their grey base: field 1 leaves
    assert isinstance(state, TwentySevenState)
    data = view(state)
    assert len(data["fields"]) == len(state.line.fields) == 8
    assert [field["index"] for field in data["fields"]] == list(range(8))
    data = view(stairgames.load("twenty_seven", variant="expert").new_initial_state())
    assert data["variant"] == "expert"


def test_twenty_seven_view_says_where_the_last_move_went_without_the_board_before():
    """The browser marks the last move from the view alone (after a reload it has no
    earlier board): its source, count and landing field, numbered as the line is now."""
    state = stairgames.load("twenty_seven", variant="advanced").new_initial_state()
    assert view(state)["last"] is None
    state.apply_move("0:3")
    assert view(state)["last"] == {"from": 0, "count": 3, "to": 1}
    state.apply_move("8:2")
    assert view(state)["last"] == {"from": 8, "count": 2, "to": 7}
    state.apply_move("1:4")  # white has 2 stacks: from field 1 to 3, which is 2 once 1 leaves
    assert view(state)["last"] == {"from": 1, "count": 4, "to": 2}
    assert view(state)["fields"][2]["stack"] == "GGWWW"


def test_twenty_seven_view_marks_nothing_after_a_pass_or_from_a_set_up_position():
    game = stairgames.load("twenty_seven")
    state = game.new_initial_state()
    for move in ("0:8", "8:9", "1:5", "7:9", "3:4", "pass"):
        state.apply_move(move)
    assert view(state)["last"] is None
    set_up = game.state_from_position(state.position())
    set_up.apply_move(legal(set_up)[0])
    assert view(set_up)["last"] is None


@pytest.mark.parametrize(
    ("name", "options"),
    [("stairs", {}), ("twenty_seven", {}), ("ishigaki_race", {"players": 4})],
)
def test_a_game_without_hidden_information_draws_one_board_for_every_viewer(name, options):
    """The server makes such a board once per event and sends it to every viewer."""
    import random

    from stairgames.core.chance import sample_chance_outcome

    game = stairgames.load(name, **options)
    assert not game.info().hidden_information
    web_view = get_spec(name).web_view
    assert web_view is not None
    rng = random.Random(7)
    state = game.new_initial_state()
    for _ in range(60):
        if state.is_terminal():
            break
        expected = web_view(state, None)
        for seat in range(game.num_players()):
            assert web_view(state, seat) == expected
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
