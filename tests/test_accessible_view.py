"""The match view (``GET /api/matches/{id}``, the socket's ``state``) carries the texts the
screen-reader mode reads for its seat (``accessible``), hidden information kept hidden."""

from __future__ import annotations

import json

from tests.server_helpers import new_match, running, seat_get, token_of


def test_the_view_carries_the_seats_texts_and_its_moves_by_piece(tmp_path):
    with running(tmp_path) as client:
        created = new_match(client, "stairs", ["human", "human"], size=4)
        match = created["match"]
        view = seat_get(client, f"/api/matches/{match}?token={token_of(created, 0)}").json()
        said = view["accessible"]
        assert len(said["rows"]) == 4
        assert said["turn"] == {"id": "Light to move"}
        grouped = sorted(m for moves in said["pieces"].values() for m in moves)
        assert grouped == sorted(view["legal"])
        # the seat not to act, and a spectator, hear the position but have no moves
        other = seat_get(client, f"/api/matches/{match}?token={token_of(created, 1)}").json()
        assert other["accessible"]["pieces"] == {} and other["accessible"]["rows"] == said["rows"]
        watched = client.get(f"/api/matches/{match}").json()
        assert watched["accessible"]["pieces"] == {}


def test_a_spectator_hears_no_hidden_departure_card(tmp_path):
    with running(tmp_path) as client:
        created = new_match(client, "city_of_stairs", ["human", "human"], players=2, first_player=0)
        match = created["match"]
        mine = seat_get(client, f"/api/matches/{match}?token={token_of(created, 0)}").json()
        watched = client.get(f"/api/matches/{match}").json()
        own = next(s for s in mine["board"]["seats"] if s["seat"] == 0)["departure"]
        assert own is not None
        assert "your departure card, seaside {number}" in json.dumps(mine["accessible"])
        assert "seaside {number}" not in json.dumps(watched["accessible"])
