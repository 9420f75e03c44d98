"""The texts the browser's screen-reader mode reads (``GameSpec.accessible``,
``registry.accessible_view``): each of the four games says its position row by row and
as a list, whose turn it is, the last move, and groups the legal moves by piece; only
what the viewing seat may see; every message id in Japanese in the catalog the page
reads; a game without the slot (the fifth, tic-tac-toe) still works."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

import stairgames
from stairgames.core import registry
from stairgames.core.game import State
from stairgames.i18n import Text, catalog_path, localize, set_language
from tests.test_i18n import catalog_ids

FOUR = ("stairs", "twenty_seven", "ishigaki_race", "city_of_stairs")
OPTIONS: dict[str, dict[str, Any]] = {
    "stairs": {"size": 4},
    "twenty_seven": {},
    "ishigaki_race": {"players": 3},
    "city_of_stairs": {"players": 3},
}


def legal_of(state: State, viewer: int | None) -> list[str]:
    if state.is_terminal() or state.is_chance_node() or state.current_player() != viewer:
        return []
    return [state.action_to_string(a, viewer) for a in state.legal_actions()]


def positions(name: str, seed: int = 5, limit: int = 400) -> Iterator[State]:
    """Every position of one random game (chance drawn from a seeded generator)."""
    rng = random.Random(seed)
    state = stairgames.load(name, **OPTIONS[name]).new_initial_state()
    yield state.clone()
    for _ in range(limit):
        if state.is_terminal():
            return
        if state.is_chance_node():
            outcomes = [o for o, _p in state.chance_outcomes()]
            state.apply_action(rng.choice(outcomes))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        yield state.clone()


def ids_in(value: Any) -> Iterator[str]:
    """Every message id in a JSON text (``text_json``'s shapes), plurals' both forms."""
    if isinstance(value, dict):
        if isinstance(value.get("id"), str):
            yield value["id"]
        if isinstance(value.get("plural"), str):
            yield value["plural"]
        for inner in value.values():
            yield from ids_in(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from ids_in(inner)


@pytest.mark.parametrize("name", FOUR)
def test_each_game_says_every_position_to_the_seat_to_act(name):
    seen_turns = 0
    for state in positions(name):
        viewer = None if state.is_chance_node() or state.is_terminal() else state.current_player()
        legal = legal_of(state, viewer)
        said = registry.accessible_view(name, state, viewer, legal)
        assert said is not None
        json.dumps(said)  # JSON-ready
        assert said["rows"] and said["items"], "the position is said both ways"
        if state.is_terminal():
            assert said["turn"] is None  # the page says the result
        else:
            assert said["turn"] is not None
            seen_turns += 1
        # every move listed under a piece is a legal move of the viewer's
        grouped = [move for moves in said["pieces"].values() for move in moves]
        assert set(grouped) <= set(legal)
    assert seen_turns > 3


@pytest.mark.parametrize("name", FOUR)
def test_every_id_said_is_in_the_served_catalog_in_japanese(name):
    """The page translates the texts with the catalog the server serves (the .po): every
    id said, plurals' forms too, has its Japanese there."""
    japanese = catalog_ids(catalog_path("ja"))
    translated = {key for key, value in japanese.items() if value and isinstance(key, str)} | {
        form for key, value in japanese.items() if isinstance(key, tuple) and value for form in key
    }
    said_ids: set[str] = set()
    for state in positions(name, seed=11):
        viewer = None if state.is_chance_node() or state.is_terminal() else state.current_player()
        said = registry.accessible_view(name, state, viewer, legal_of(state, viewer))
        said_ids.update(ids_in(said))
    assert len(said_ids) > 5
    untranslated = sorted(said_ids - translated)
    assert not untranslated, f"ids without Japanese: {untranslated}"


def english(value: Any) -> str:
    """A JSON text said in English, as the page's ``say`` does (nested ids filled)."""
    return localize(_text_of(value))


def _text_of(value: Any) -> Any:
    if isinstance(value, dict) and "names" in value:
        return ", ".join(english(item) for item in value["names"])
    if isinstance(value, dict) and "id" in value:
        if "plural" in value:
            form = value["id"] if value["n"] == 1 else value["plural"]
            return Text(form, {"count": value["n"]})
        args = {key: _text_of(arg) for key, arg in value.get("args", {}).items()}
        return Text(value["id"], args)
    return value


def test_stairs_says_its_ranks_from_the_far_one_and_groups_moves_by_square():
    state = stairgames.load("stairs", size=3).new_initial_state()
    legal = legal_of(state, 0)
    said = registry.accessible_view("stairs", state, 0, legal)
    assert said is not None
    assert [english(row) for row in said["rows"]] == [
        "Rank 3: a3 dark 1, b3 light 1, c3 dark 1",
        "Rank 2: a2 light 1, b2 dark 1, c2 light 1",
        "Rank 1: a1 dark 1, b1 light 1, c1 dark 1",
    ]
    assert english(said["turn"]) == "Light to move"
    assert said["last"] is None
    assert said["pieces"]["b1"] == [m for m in legal if m.startswith("b1-")]
    assert set(said["pieces"]) == {"b1", "a2", "c2", "b3"}
    state.apply_move("b1-b2")
    after = registry.accessible_view("stairs", state, 1, legal_of(state, 1))
    assert after is not None
    assert english(after["last"]) == "Light b1-b2, to height 2"
    assert english(after["items"][0]) == "Greatest height 2: light tops 1, dark tops 0"
    assert english(after["items"][-1]) == "Empty: b1"


def test_twenty_seven_says_each_field_and_the_way_its_discs_go():
    state = stairgames.load("twenty_seven").new_initial_state()
    said = registry.accessible_view("twenty_seven", state, 0, legal_of(state, 0))
    assert said is not None
    assert len(said["rows"]) == 9
    assert english(said["rows"][1]) == "Field 1: grey"
    assert english(said["turn"]) == "White to move, up the line."
    assert sorted(said["pieces"]) == ["0"]
    state.apply_move("0:3")
    after = registry.accessible_view("twenty_seven", state, 1, legal_of(state, 1))
    assert after is not None
    assert english(after["last"]) == "White moved 3 discs from field 0 to field 1"
    assert english(after["turn"]) == "Black to move, down the line."


def test_ishigaki_says_the_die_to_decide_on_and_each_ninja():
    state = stairgames.load("ishigaki_race", players=2, first_player=1).new_initial_state()
    state.apply_move("die:3")
    said = registry.accessible_view("ishigaki_race", state, 1, legal_of(state, 1))
    assert said is not None
    assert english(said["turn"]).startswith("Blue to decide: first die 3.")
    assert [english(item) for item in said["items"][:2]] == [
        "Red ninja: step 0",
        "Blue ninja: step 0",
    ]
    assert said["pieces"] == {}  # stop and roll belong to no piece
    assert english(said["rows"][-1]) == "Start, step 0: Red, Blue"


def _city_after_deals(red_card: int) -> State:
    state = stairgames.load("city_of_stairs", players=2, first_player=0).new_initial_state()
    for move in ("draw P01", "draw E01", f"deal {red_card} to red", "deal 5 to blue"):
        state.apply_move(move)
    return state


@pytest.mark.parametrize("viewer", [1, None])
def test_city_of_stairs_tells_no_seat_another_seats_departure_card(viewer):
    """Two deals that differ only in red's hidden card say the same to blue and to a
    spectator, and red hears its own."""
    one = _city_after_deals(3)
    other = _city_after_deals(6)
    said_one = registry.accessible_view("city_of_stairs", one, viewer, [])
    said_other = registry.accessible_view("city_of_stairs", other, viewer, [])
    assert said_one == said_other
    red = registry.accessible_view("city_of_stairs", one, 0, legal_of(one, 0))
    assert red is not None and said_one is not None
    assert red != said_one
    assert "your departure card, seaside 3" in english(red["items"][1])
    assert "departure card face down" in english(said_one["items"][1])


def test_city_of_stairs_groups_a_placement_under_its_card_and_its_cell():
    state = _city_after_deals(3)
    legal = legal_of(state, 0)
    said = registry.accessible_view("city_of_stairs", state, 0, legal)
    assert said is not None
    placements = [m for m in legal if m.startswith("P01@")]
    assert said["pieces"]["P01"] == placements
    cell = placements[0].split("@")[1]
    assert said["pieces"][cell] == [m for m in legal if m.endswith(f"@{cell}")]
    assert english(said["turn"]).startswith("Red places a card of the stock in the city")
    assert len(said["rows"]) == 4 and english(said["rows"][0]).startswith("Row 4: a4: empty")


def test_the_texts_are_said_in_japanese():
    state = stairgames.load("stairs", size=3).new_initial_state()
    said = registry.accessible_view("stairs", state, 0, legal_of(state, 0))
    assert said is not None
    set_language("ja")  # (the autouse fixture sets English back)
    row = english(said["rows"][0])
    turn = english(said["turn"])
    assert row != "Rank 3: a3 dark 1, b3 light 1, c3 dark 1"
    assert "a3" in row and any("\u3040" <= c <= "\u9fff" for c in row)
    assert turn != "Light to move"


def test_a_game_without_the_slot_has_no_texts_and_keeps_its_messages(tictactoe):
    state = stairgames.load("tictactoe").new_initial_state()
    assert registry.accessible("tictactoe") is None
    assert registry.accessible_view("tictactoe", state, 0, ["a1"]) is None
    assert "Tic-tac-toe board" in registry.browser_messages("tictactoe")


def test_a_slot_naming_something_else_is_refused():
    with pytest.raises(TypeError, match="not a Accessible"):
        registry._resolve_as("stairgames.games.stairs.view.board:board_view", registry.Accessible)


def test_the_drawing_the_texts_read_is_made_once_per_state_history_and_viewer():
    drawings: list[tuple[int, int | None]] = []

    def draw(state: State, viewer: int | None) -> dict[str, Any]:
        drawings.append((len(state.history()), viewer))
        return {"moves": len(state.history())}

    drawn = registry.drawn_once(draw)
    state = stairgames.load("stairs", size=3).new_initial_state()
    assert drawn(state, 0) is drawn(state, 0)
    assert drawings == [(0, 0)]
    drawn(state, 1)  # another viewer (a seat's hidden cards): drawn again
    state.apply_move("b1-b2")  # the same state object, moved on
    assert drawn(state, 1) == {"moves": 1}
    drawn(state.clone(), 1)  # another state at the same history
    assert drawings == [(0, 0), (0, 1), (1, 1), (1, 1)]
