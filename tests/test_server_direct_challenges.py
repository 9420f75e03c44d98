"""Issue 51, item 4: a challenge to one player. ``POST /api/challenges`` with ``"to"``
makes a challenge only its creator and the named player see in the lobby, only the named
player may accept or decline; the named player's channel (``/ws/me``) is told of it, its
creator's of a decline. No test sleeps: each waits for the message it expects."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stairgames.server.chat.told_contract import ME_MESSAGES
from stairgames.server.lobby.contract import Challenges, LobbyMessage
from stairgames.server.people.players import COOKIE
from tests.server_helpers import JSON, connect, receive_until, running


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with running(tmp_path) as made:
        yield made


def player(client: TestClient, name: str) -> dict[str, str]:
    """Headers of a new player's requests (its cookie)."""
    made, secret = client.app.state.players.create(name)  # type: ignore[attr-defined]
    return {**JSON, "cookie": f"{COOKIE}={secret}", "x-player": made.id}


STAIRS: dict[str, Any] = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"]}


def challenge_reply(
    client: TestClient, who: dict[str, str], to: str | None, seats: list[str] | None = None
) -> Any:
    body: dict[str, Any] = {
        "game": "stairs",
        "options": {"size": 4},
        "seats": seats or ["human", "online"],
    }
    if to is not None:
        body["to"] = to
    return client.post("/api/challenges", json=body, headers=who)


def challenge(client: TestClient, who: dict[str, str], to: str | None = None) -> str:
    """A new challenge of ``who`` (to the player ``to``, if named): its id."""
    reply = challenge_reply(client, who, to)
    assert reply.status_code == 200, reply.text
    made: str = reply.json()["challenge"]
    return made


def listed(client: TestClient, who: dict[str, str] | None) -> list[tuple[str, str | None]]:
    """The challenges ``who`` sees in the lobby: each creator's name and whom it names."""
    reply = client.get("/api/challenges", headers=who or {})
    Challenges.model_validate(reply.json())
    return [(c["creator"]["name"], c.get("to")) for c in reply.json()["challenges"]]


def refusal(reply: Any) -> tuple[int, str]:
    return reply.status_code, reply.json()["error"]["code"]


def told(ws: Any, kind: str) -> dict[str, Any]:
    """The next ``kind`` message of a ``/ws/me`` socket, checked against its model."""

    def fits(message: dict[str, Any]) -> bool:
        ME_MESSAGES.validate_python(message)
        return bool(message["type"] == kind)

    return receive_until(ws, fits)


def test_a_direct_challenge_is_listed_to_its_two_players_alone(client: TestClient) -> None:
    ann, bob, cy = player(client, "Ann"), player(client, "Bob"), player(client, "Cy")
    challenge(client, cy)  # open to all
    challenge(client, ann, to="bob")  # a name is found whatever its case
    assert listed(client, ann) == [("Cy", None), ("Ann", "Bob")]
    assert listed(client, bob) == [("Cy", None), ("Ann", "Bob")]
    assert listed(client, cy) == [("Cy", None)]
    assert listed(client, None) == [("Cy", None)]  # nor to a browser that is no player


def test_the_lobby_socket_shows_a_direct_challenge_to_its_two_players_alone(
    client: TestClient,
) -> None:
    ann, bob, cy = player(client, "Ann"), player(client, "Bob"), player(client, "Cy")

    def creators(message: dict[str, Any]) -> list[str]:
        LobbyMessage.model_validate(message)
        return [c["creator"]["name"] for c in message["challenges"]]

    with (
        connect(client, "/ws/lobby", headers=bob) as bob_ws,
        connect(client, "/ws/lobby", headers=cy) as cy_ws,
    ):
        assert creators(bob_ws.receive_json()) == creators(cy_ws.receive_json()) == []
        challenge(client, ann, to="Bob")
        to_bob = bob_ws.receive_json()
        assert creators(to_bob) == ["Ann"] and to_bob["challenges"][0]["to"] == "Bob"
        assert creators(cy_ws.receive_json()) == []
        assert "_between" not in to_bob["challenges"][0]  # the ids never leave
    with connect(client, "/ws/lobby") as nobody:
        assert creators(nobody.receive_json()) == []


def test_only_the_named_player_may_accept_it(client: TestClient) -> None:
    ann, bob, cy = player(client, "Ann"), player(client, "Bob"), player(client, "Cy")
    made = challenge(client, ann, to="Bob")
    taken_by_cy = client.post(f"/api/challenges/{made}/accept", headers=cy)
    assert refusal(taken_by_cy) == (403, "challenge_for_another")
    taken = client.post(f"/api/challenges/{made}/accept", headers=bob)
    assert taken.status_code == 200, taken.text
    assert taken.json()["seat"] == 1
    assert listed(client, bob) == []  # started: no longer in the lobby


def test_the_named_player_may_decline_it_and_nobody_else(client: TestClient) -> None:
    ann, bob, cy = player(client, "Ann"), player(client, "Bob"), player(client, "Cy")
    made = challenge(client, ann, to="Bob")
    for other in (ann, cy):
        refused = client.post(f"/api/challenges/{made}/decline", headers=other)
        assert refusal(refused) == (403, "challenge_for_another")
    with connect(client, "/ws/me", headers=ann) as anns:
        told(anns, "me")
        declined = client.post(f"/api/challenges/{made}/decline", headers=bob)
        assert declined.json() == {"ok": True}
        message = told(anns, "declined")
    assert (message["challenge"], message["by"], message["game"]) == (made, "Bob", "stairs")
    assert message["text"]["id"] == "{name} declined your challenge to {game}"
    assert listed(client, ann) == listed(client, bob) == []
    late = client.post(f"/api/challenges/{made}/accept", headers=bob)
    assert refusal(late) == (409, "challenge_closed")
    again = client.post(f"/api/challenges/{made}/decline", headers=bob)
    assert refusal(again) == (409, "challenge_closed")
    open_to_all = challenge(client, ann)
    assert refusal(client.post(f"/api/challenges/{open_to_all}/decline", headers=bob)) == (
        403,
        "challenge_for_another",
    )


def test_a_challenge_to_nobody_yourself_or_across_a_block_is_refused(
    client: TestClient,
) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    assert refusal(challenge_reply(client, ann, "Nobody")) == (404, "player_not_found")
    assert refusal(challenge_reply(client, ann, "ann")) == (400, "challenge_yourself")
    two_seats = ["human", "online", "online"]
    assert refusal(client.post("/api/challenges", json={**STAIRS, "to": 3}, headers=ann)) == (
        400,
        "bad_challenge_to",
    )
    three = {"game": "27", "seats": two_seats, "to": "Bob"}
    assert refusal(client.post("/api/challenges", json=three, headers=ann)) == (
        400,
        "direct_challenge_seats",
    )
    client.post("/api/blocks", json={"name": "Ann", "kind": "block"}, headers=bob)
    assert refusal(challenge_reply(client, ann, "Bob")) == (403, "blocked")
    assert listed(client, ann) == []  # nothing was made


def test_the_named_player_is_told_on_their_channel_and_accepts(client: TestClient) -> None:
    ann, bob, cy = player(client, "Ann"), player(client, "Bob"), player(client, "Cy")
    with (
        connect(client, "/ws/me", headers=bob) as bobs,
        connect(client, "/ws/me", headers=cy) as cys,
    ):
        told(bobs, "me")
        told(cys, "me")
        made = challenge(client, ann, to="Bob")
        message = told(bobs, "challenge")
        assert (message["challenge"], message["from"], message["game"]) == (made, "Ann", "stairs")
        assert message["title"] == "Stairs" and message["rated"] is False
        assert message["text"]["id"] == "{name} challenges you to {game}"
        challenge(client, ann)  # one open to all tells nobody
        accepted = client.post(f"/api/challenges/{made}/accept", headers=bob)
        assert accepted.status_code == 200
        # Cy was told nothing: the next message his channel sends is this one
        marker = {"type": "me", "waiting": 0, "games": ["marker"], "title": None}
        tell = client.app.state.told.tell  # type: ignore[attr-defined]
        client.portal.call(tell, [cy["x-player"]], marker)  # type: ignore[union-attr]
        assert cys.receive_json() == marker


def test_a_direct_challenge_dies_with_its_creator(client: TestClient) -> None:
    """The grace rule holds for it as for any: its creator gone, it is withdrawn."""
    ann, bob = player(client, "Ann"), player(client, "Bob")
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    start = datetime.datetime.now(datetime.UTC)
    now = [start]
    lobby.now = lambda: now[0]
    made = challenge(client, ann, to="Bob")  # its creator never opens it
    now[0] = start + datetime.timedelta(seconds=lobby.grace_seconds + 1)
    assert client.portal.call(lobby.sweep) is True  # type: ignore[union-attr]
    assert listed(client, bob) == []
    late = client.post(f"/api/challenges/{made}/accept", headers=bob)
    assert refusal(late) == (409, "challenge_closed")
