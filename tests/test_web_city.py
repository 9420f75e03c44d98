"""City of Stairs in the browser: its drawing data (games/city_of_stairs/view/board.py) keeps
every seat's departure card from whoever may not know it, and card files are uploaded
through their own bounded route, checked by the engine, with its problems translated."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import stairgames
from stairgames.core.chance import sample_chance_outcome
from stairgames.games.city_of_stairs import CityOfStairsState
from stairgames.games.city_of_stairs.cards import default_cards_text
from stairgames.games.city_of_stairs.view.board import board_view
from stairgames.server.play.card_files import MAX_CARD_FILE_BYTES
from tests.server_helpers import JSON, TOML, connect, new_match, running, state_at_rest, token_of


def view(state: CityOfStairsState, viewer: int | None) -> dict[str, Any]:
    data = board_view(state, viewer)
    assert json.loads(json.dumps(data)) == data, "the view must be JSON-ready"
    return data


def played_states(players: int, seed: int) -> list[CityOfStairsState]:
    """Every state of one game played with random moves and draws."""
    rng = random.Random(seed)
    state = stairgames.load("city_of_stairs", players=players).new_initial_state()
    assert isinstance(state, CityOfStairsState)
    states = [state.clone()]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        states.append(state.clone())
    return states


def test_city_view_has_28_cells_a1_first_the_stock_and_each_decks_count():
    state = played_states(3, seed=1)[6]  # after the start, two draws and three deals
    data = view(state, 0)
    assert [c["name"] for c in data["cells"]] == [f + r for r in "1234" for f in "abcdefg"]
    assert all(c["card"] is None for c in data["cells"])
    passage, experience = data["stock"]
    assert passage["kind"] == "passage" and experience["kind"] == "experience"
    assert data["decks"] == {"passage": 13, "experience": 13}
    assert data["phase"] == "building" and data["placing"] == state.current_player()
    assert [s["colour"] for s in data["seats"]] == ["red", "blue", "green"]
    assert data["seats"][0]["interests"] == ["cat", "bakery", "kite"]


def test_card_faces_carry_stairs_experience_and_each_corners_icons():
    state = played_states(2, seed=3)[-1]
    faces = {c["card"]["id"]: c["card"] for c in view(state, None)["cells"]}
    for card in state.cards.cards:
        face = faces[card.id]
        assert face["stairs"] == card.stairs and face["experience"] == card.experience
        assert face["left"] == [{"kind": i.kind, "colour": i.colour} for i in card.left]
        assert face["right"] == [{"kind": i.kind, "colour": i.colour} for i in card.right]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_seats_view_never_holds_another_seats_departure_card_before_its_stroll(players):
    for state in played_states(players, seed=players):
        for viewer in [None, *range(players)]:
            seats = view(state, viewer)["seats"]
            for seat in range(players):
                known = state.stroll_started(seat) or seat == viewer
                if not known:
                    assert seats[seat]["departure"] is None
                    assert seats[seat]["trace"] == []


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.slow
def test_changing_a_hidden_departure_card_changes_nothing_in_the_views_that_hide_it(players):
    """Redealing every card a seat cannot see leaves its view, and the spectator's,
    identical to the byte."""
    rng = random.Random(7)
    for state in played_states(players, seed=10 + players):
        for viewer in range(players):
            other = state.resample_hidden(viewer, rng)
            assert json.dumps(view(other, viewer)) == json.dumps(view(state, viewer))
            assert json.dumps(view(other, None)) == json.dumps(view(state, None))


def test_the_viewers_own_departure_card_is_private_until_its_stroll():
    states = played_states(3, seed=5)
    building = next(s for s in states if s.phase() == "building")
    mine = view(building, 1)
    assert mine["private"] and mine["seats"][1]["departure"] == building.table.departures[1]
    assert not view(building, None)["private"]
    assert not view(states[-1], 1)["private"]


def test_a_stroll_is_traced_with_its_diary_score_end_and_the_choices_open():
    states = played_states(3, seed=8)
    final = view(states[-1], None)
    for seat, data in enumerate(final["seats"]):
        walk = states[-1].walk(seat)
        assert walk is not None and walk.end is not None
        assert data["departure"] == states[-1].table.departures[seat]
        assert data["diary"] == list(walk.diary)
        assert data["score"] == states[-1].scores()[seat]
        assert data["end"] == walk.end.name.lower()
        assert [e["kind"] for e in data["trace"]] == [e.kind for e in walk.events]
        assert data["trace"][0] == {
            "kind": "depart",
            "cell": None,
            "side": None,
            "detail": str(data["departure"]),
            "chosen": False,
        }
    deciding = [s for s in states if s.phase() == "strolling" and not s.is_chance_node()]
    assert deciding
    for state in deciding:
        data = view(state, None)
        legal = [state.action_to_string(a) for a in state.legal_actions()]
        assert data["walker"] == state.current_player() and data["options"] == legal


def test_deck_order_is_not_in_any_view():
    state = played_states(2, seed=2)[5]
    text = json.dumps(view(state, 0))
    in_view = {c["id"] for c in view(state, 0)["stock"] if c}
    for card in state.cards.cards:
        if card.id not in in_view:
            assert f'"{card.id}"' not in text


# ----- card files over HTTP --------------------------------------------------------------


def test_an_uploaded_card_file_is_checked_kept_and_plays_by_its_id(tmp_path: Path):
    text = default_cards_text().replace('name = "stairgames reconstruction 1"', 'name = "mine"')
    with running(tmp_path) as client:
        response = client.post("/api/cards", content=text.encode(), headers=TOML)
        assert response.status_code == 200, response.text
        card_id = response.json()["cards"]
        assert response.json()["name"] == "mine" and len(card_id) == 64
        created = new_match(
            client, "city_of_stairs", ["human", "computer:easy", "human"], players=3, cards=card_id
        )
        token = token_of(created, 0)
        with connect(client, f"/ws/matches/{created['match']}?token={token}") as ws:
            state = state_at_rest(ws)
        assert state["board"]["card_set"] == "mine"
        assert len(state["board"]["seats"]) == 3


def test_a_bad_card_file_is_refused_with_the_engines_problems_in_the_asked_language(
    tmp_path: Path,
):
    bad = default_cards_text().replace("points = 3", "points = -3")
    with running(tmp_path) as client:
        english = client.post("/api/cards", content=bad.encode(), headers=TOML)
        japanese = client.post(
            "/api/cards?lang=ja&name=C:\\x\\mine.toml", content=bad.encode(), headers=TOML
        )
        not_toml = client.post("/api/cards?lang=ja", content=b"[[[", headers=TOML)
    assert english.status_code == 400 and japanese.status_code == 400
    assert "is not a valid City of Stairs card set" in english.json()["error"]["text"]
    assert "lighthouse" in english.json()["error"]["text"]
    ja_text = japanese.json()["error"]["text"]
    assert "City of Stairs card set" not in ja_text and "階段の街" in ja_text
    assert ja_text.startswith("mine.toml ") and english.json()["error"]["text"].startswith(
        "card file"
    )
    assert not_toml.status_code == 400 and "TOML" in not_toml.json()["error"]["text"]
    assert not (tmp_path / "cards").exists() or not list((tmp_path / "cards").iterdir())


def test_a_card_file_may_be_larger_than_a_message_but_not_unbounded(tmp_path: Path):
    padding = "# " + "x" * 80 + "\n"
    large = default_cards_text() + padding * 100  # about 12 KB: over 4096, under the bound
    with running(tmp_path) as client:
        assert client.post("/api/cards", content=large.encode(), headers=TOML).status_code == 200
        huge = padding.encode() * (MAX_CARD_FILE_BYTES // len(padding) + 1)
        refused = client.post("/api/cards", content=huge, headers=TOML)
        assert refused.status_code == 413
        other = client.post("/api/matches", content=b" " * 5000, headers=JSON)
        assert other.status_code == 413


def test_a_match_takes_only_an_uploaded_card_sets_id_never_a_path(tmp_path: Path):
    card_file = tmp_path / "cards.toml"
    card_file.write_text(default_cards_text())
    with running(tmp_path) as client:
        for value in (str(card_file), "../cards", "0" * 64):
            response = client.post(
                "/api/matches",
                json={
                    "game": "city_of_stairs",
                    "options": {"players": 2, "cards": value},
                    "seats": ["human", "human"],
                },
            )
            assert response.status_code == 400
            assert response.json()["error"]["code"] == "unknown_card_set"
        default = new_match(client, "city_of_stairs", ["human", "human"], players=2, cards="")
        assert default["match"]


def test_the_games_listing_names_the_seats_for_each_player_count(tmp_path: Path):
    with running(tmp_path) as client:
        games = {g["name"]: g for g in client.get("/api/games").json()}
    assert games["city_of_stairs"]["web"] is True
    assert games["city_of_stairs"]["seats_by_players"] == {
        "2": ["red", "blue"],
        "3": ["red", "blue", "green"],
        "4": ["red", "blue", "green", "yellow"],
    }
    assert games["stairs"]["seats_by_players"] == {}
