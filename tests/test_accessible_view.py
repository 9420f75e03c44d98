"""The match view (``GET /api/matches/{id}?texts=true``, the socket's ``state`` once it
asked with ``sync``'s ``texts``) carries the texts the screen-reader mode reads for its
seat (``accessible``), hidden information kept hidden; a view nobody asked them for
carries none (they cost a Stairs view about three times its size)."""

from __future__ import annotations

import json

from tests.server_helpers import connect, new_match, running, seat_get, state_at_rest, token_of


def test_the_view_carries_the_seats_texts_and_its_moves_by_piece(tmp_path):
    with running(tmp_path) as client:
        created = new_match(client, "stairs", ["human", "human"], size=4)
        match = created["match"]
        view = seat_get(
            client, f"/api/matches/{match}?token={token_of(created, 0)}&texts=true"
        ).json()
        said = view["accessible"]
        assert len(said["rows"]) == 4
        assert said["turn"] == {"id": "Light to move"}
        grouped = sorted(m for moves in said["pieces"].values() for m in moves)
        assert grouped == sorted(view["legal"])
        # the seat not to act, and a spectator, hear the position but have no moves
        other = seat_get(
            client, f"/api/matches/{match}?token={token_of(created, 1)}&texts=true"
        ).json()
        assert other["accessible"]["pieces"] == {} and other["accessible"]["rows"] == said["rows"]
        watched = client.get(f"/api/matches/{match}?texts=true").json()
        assert watched["accessible"]["pieces"] == {}
        assert client.get(f"/api/matches/{match}").json()["accessible"] is None


def test_a_spectator_hears_no_hidden_departure_card(tmp_path):
    with running(tmp_path) as client:
        created = new_match(client, "city_of_stairs", ["human", "human"], players=2, first_player=0)
        match = created["match"]
        mine = seat_get(
            client, f"/api/matches/{match}?token={token_of(created, 0)}&texts=true"
        ).json()
        watched = client.get(f"/api/matches/{match}?texts=true").json()
        own = next(s for s in mine["board"]["seats"] if s["seat"] == 0)["departure"]
        assert own is not None
        assert "your departure card, seaside {number}" in json.dumps(mine["accessible"])
        assert "seaside {number}" not in json.dumps(watched["accessible"])


def test_a_socket_gets_the_texts_once_it_asks_and_the_others_never(tmp_path):
    with running(tmp_path) as client:
        created = new_match(client, "stairs", ["human", "human"], size=4)
        match = created["match"]
        url = f"/ws/matches/{match}?token={token_of(created, 0)}"
        with connect(client, url) as reader, connect(client, url) as sighted:
            assert state_at_rest(reader)["accessible"] is None
            state_at_rest(sighted)
            reader.send_json({"type": "sync", "texts": True})
            asked = state_at_rest(reader)
            assert asked["accessible"]["turn"] == {"id": "Light to move"}
            sighted.send_json({"type": "move", "move": asked["legal"][0], "event": asked["event"]})
            moved = state_at_rest(sighted)
            assert moved["accessible"] is None  # each move: the texts for the reader only
            heard = state_at_rest(reader)
            assert heard["event"] == moved["event"] and heard["accessible"]["last"] is not None
            reader.send_json({"type": "sync", "texts": False})
            assert state_at_rest(reader)["accessible"] is None
        # a page already in the mode asks in the socket's address: its first view has them
        with connect(client, f"/ws/matches/{match}?texts=1&token={token_of(created, 1)}") as ws:
            assert state_at_rest(ws)["accessible"]["rows"]
