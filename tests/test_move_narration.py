"""The browser's move list and game cards from the server (issue 27): each game's
``narrate_moves`` (a move told in a few words, made from a history as one seat may know
it), its ``rules_summary`` and ``play_minutes``, and what ``GET /api/games`` and a match's
view send of them."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import stairgames
from stairgames.core.game import State
from stairgames.core.registry import game_names, get_spec
from stairgames.games.city_of_stairs.notation import deal_colour
from tests.server_helpers import JSON, new_match, running, seat_get, token_of


def played(name: str, seed: int, stop: Any = None, **options: Any) -> State:
    """A game of random moves (chance too) from ``seed``, until ``stop(state)`` or its end."""
    state = stairgames.load(name, **options).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal() and not (stop and stop(state)):
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _p in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def ids(node: Any) -> set[str]:
    """Every message id in a JSON text."""
    if isinstance(node, dict):
        found = {node["id"]} if isinstance(node.get("id"), str) else set()
        for value in node.values():
            found |= ids(value)
        return found
    if isinstance(node, list):
        return set().union(*(ids(item) for item in node)) if node else set()
    return set()


@pytest.mark.parametrize("name", ["ishigaki_race", "city_of_stairs"])
def test_a_game_that_tells_its_moves_tells_each_one_in_words(name: str) -> None:
    game = stairgames.load(name, players=2)
    state = played(name, 5, players=2)
    history = list(state.history_strings(0))
    told = get_spec(name).narrate_moves(game, history)  # type: ignore[misc]
    assert len(told) == len(history) and all(told)
    text = json.dumps(told)
    for notation in ("die:", "start:", '"draw ', '"deal ', '"roll"', '"stop"'):
        assert notation not in text
    assert ids(told[0]) >= {"{name} starts."}
    if name == "ishigaki_race":
        assert ids(told[1]) >= {"{name} rolls {value}."}
    else:
        assert "Drawn into the stock: {card}." in ids(told[1])
        assert "{name} places {card} on {cell}." in ids(told)


def test_city_of_stairs_tells_a_seat_nothing_it_may_not_know() -> None:
    """Two games alike but for a departure card still hidden from the first stroller:
    that seat's move list is the same in both, and says no departure card."""
    game = stairgames.load("city_of_stairs", players=2)

    def a_stroll_began(state: Any) -> bool:
        return any(state.stroll_started(seat) for seat in (0, 1))

    state: Any = played("city_of_stairs", 11, a_stroll_began, players=2)
    viewer = next(seat for seat in (0, 1) if state.stroll_started(seat))
    other = 1 - viewer
    colour, viewer_colour = state.table.colours[other], state.table.colours[viewer]
    history = list(state.history_strings(viewer))
    hidden = next(i for i, t in enumerate(history) if deal_colour(t) == colour)
    assert history[hidden] == f"deal ? to {colour}"
    true_history = list(state.history_strings(other))
    cards = {int(t.split()[1]) for t in true_history if deal_colour(t)}
    stand_in = next(card for card in range(1, 8) if card not in cards)
    alike = game.new_initial_state()
    for index, text in enumerate(true_history):
        alike.apply_move(f"deal {stand_in} to {colour}" if index == hidden else text)
    assert list(alike.history_strings(viewer)) == history
    narrate = get_spec("city_of_stairs").narrate_moves
    assert narrate is not None
    told = narrate(game, history)
    assert told == narrate(game, list(alike.history_strings(viewer)))
    face_down = "{name} is dealt a departure card, face down."
    for index, text in enumerate(history):
        if deal_colour(text):
            assert ids(told[index]) == {face_down, deal_colour(text)}
    assert viewer_colour in ids(told)
    assert "?" not in json.dumps(told)


def test_every_game_with_a_board_has_rules_a_length_a_summary_and_a_picture(
    tmp_path: Path,
) -> None:
    with running(tmp_path) as client:
        listing = client.get("/api/games").json()
    assert {game["name"] for game in listing} == set(game_names())
    for game in listing:
        assert len(game["rules_summary"]) >= 3, game["name"]
        low, high = game["play_minutes"]
        assert 0 < low <= high
        assert game["summary"] and game["preview"], game["name"]
    ishigaki = next(game for game in listing if game["name"] == "ishigaki_race")
    assert any("die" in line for line in ishigaki["rules_summary"])


def test_a_view_holds_the_narration_made_for_its_viewer(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        created = new_match(client, "city_of_stairs", ["human", "human"], players=2)
        token = token_of(created, 0)
        view = seat_get(client, f"/api/matches/{created['match']}?token={token}").json()
        stairs = new_match(client, "stairs", ["human", "human"])
        plain = client.get(f"/api/matches/{stairs['match']}", headers=JSON).json()
    assert len(view["narration"]) == len(view["history"]) > 0
    assert "{name} is dealt a departure card, face down." in ids(view["narration"])
    assert plain["narration"] is None


def test_ishigaki_moves_are_told_from_the_position_a_game_began_from() -> None:
    """A match started from a position text (the analysis board's "play on") tells its
    moves from that position, not from the game's start."""
    game = stairgames.load("ishigaki_race", players=2)
    middle = played("ishigaki_race", 7, stop=lambda state: len(state.history()) >= 12, players=2)
    start = middle.position()
    state = game.state_from_position(start)
    rng = random.Random(3)
    history = []
    for _ in range(6):
        if state.is_terminal():
            break
        if state.is_chance_node():
            action = rng.choice([a for a, _p in state.chance_outcomes()])
        else:
            action = rng.choice(state.legal_actions())
        history.append(state.action_to_string(action))
        state.apply_action(action)
    narrate = get_spec("ishigaki_race").narrate_moves
    assert narrate is not None
    told = narrate(game, history, start)
    assert len(told) == len(history) and all(told)
