"""Keeping people away (issue 51, item 7): a block stops challenges taken and rematches
offered across it and hides the blocked player's challenges and chat from the blocker; a
mute hides their chat only; a report is filed for a moderator."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stairgames.server.base.limits import Rate
from stairgames.server.people.blocks import Moderation
from stairgames.server.people.players import COOKIE
from tests.server_helpers import JSON, connect, receive_until, running, state_at_rest


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with running(tmp_path) as made:
        yield made


def player(client: TestClient, name: str) -> dict[str, str]:
    """Headers of a request made by a new player called ``name`` (its cookie)."""
    made, secret = client.app.state.players.create(name)  # type: ignore[attr-defined]
    return {**JSON, "cookie": f"{COOKIE}={secret}", "x-player": made.id}


def set_block(client: TestClient, who: dict[str, str], name: str, kind: str) -> Any:
    return client.post("/api/blocks", json={"name": name, "kind": kind}, headers=who)


def challenge(client: TestClient, who: dict[str, str]) -> dict[str, Any]:
    body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"]}
    reply = client.post("/api/challenges", json=body, headers=who)
    assert reply.status_code == 200, reply.text
    made: dict[str, Any] = reply.json()
    return made


def creators(listing: dict[str, Any]) -> list[str]:
    return [entry["creator"]["name"] for entry in listing["challenges"]]


def say(client: TestClient, who: dict[str, str], match: str, text: str) -> None:
    reply = client.post(f"/api/matches/{match}/chat", json={"text": text}, headers=who)
    assert reply.status_code == 200, reply.text


def said(client: TestClient, who: dict[str, str], match: str) -> list[str]:
    listing = client.get(f"/api/matches/{match}/chat", headers=who).json()
    return [message["text"] for message in listing["messages"]]


def test_blocks_are_set_listed_and_lifted(client: TestClient) -> None:
    ann, _bob, _cy = player(client, "Ann"), player(client, "Bob"), player(client, "Cy")
    assert client.get("/api/blocks", headers=ann).json() == {"blocks": []}
    set_block(client, ann, "Bob", "block")
    listed = set_block(client, ann, "cy", "mute").json()["blocks"]
    assert [(entry["name"], entry["kind"]) for entry in listed] == [
        ("Bob", "block"),
        ("Cy", "mute"),
    ]
    assert set_block(client, ann, "Bob", "none").json()["blocks"][0]["name"] == "Cy"
    assert client.get("/api/blocks").json() == {"blocks": []}  # no player: nobody blocked


def test_a_block_is_refused_where_it_cannot_be(client: TestClient) -> None:
    ann = player(client, "Ann")
    player(client, "Bob")
    itself = set_block(client, ann, "Ann", "block")
    assert (itself.status_code, itself.json()["error"]["code"]) == (400, "block_yourself")
    nobody = set_block(client, ann, "Nobody", "block")
    assert (nobody.status_code, nobody.json()["error"]["code"]) == (404, "player_not_found")
    odd = set_block(client, ann, "Bob", "ban")
    assert (odd.status_code, odd.json()["error"]["code"]) == (400, "bad_block_kind")
    anonymous = client.post("/api/blocks", json={"name": "Bob", "kind": "block"}, headers=JSON)
    assert anonymous.json()["error"]["code"] == "name_needed"


def test_a_block_either_way_stops_a_challenge_being_taken(client: TestClient) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    set_block(client, ann, "Bob", "block")
    for creator, taker in ((ann, bob), (bob, ann)):
        made = challenge(client, creator)
        refused = client.post(f"/api/challenges/{made['challenge']}/accept", headers=taker)
        assert (refused.status_code, refused.json()["error"]["code"]) == (403, "blocked")
    set_block(client, ann, "Bob", "mute")  # a mute keeps the chat away, not the games
    made = challenge(client, bob)
    taken = client.post(f"/api/challenges/{made['challenge']}/accept", headers=ann)
    assert taken.status_code == 200


def test_the_blocked_players_challenges_leave_the_blockers_lobby(client: TestClient) -> None:
    ann, bob, cy = player(client, "Ann"), player(client, "Bob"), player(client, "Cy")
    challenge(client, bob)
    challenge(client, cy)
    set_block(client, ann, "Bob", "block")
    assert creators(client.get("/api/challenges", headers=ann).json()) == ["Cy"]
    assert creators(client.get("/api/challenges", headers=cy).json()) == ["Bob", "Cy"]
    with (
        connect(client, "/ws/lobby", headers=ann) as ann_ws,
        connect(client, "/ws/lobby", headers=cy) as cy_ws,
    ):
        assert creators(ann_ws.receive_json()) == ["Cy"]
        assert creators(cy_ws.receive_json()) == ["Bob", "Cy"]
        challenge(client, bob)  # told to every watcher, each without those they blocked
        assert creators(ann_ws.receive_json()) == ["Cy"]
        assert creators(cy_ws.receive_json()) == ["Bob", "Cy", "Bob"]


def test_blocked_and_muted_players_chat_is_not_listed_to_the_blocker(client: TestClient) -> None:
    ann, bob, cy = player(client, "Ann"), player(client, "Bob"), player(client, "Cy")
    match = challenge(client, ann)["match"]
    client.post(f"/api/challenges/{match}/accept", headers=bob)
    say(client, ann, match, "hello")
    say(client, bob, match, "rude words")
    set_block(client, ann, "Bob", "mute")
    assert said(client, ann, match) == ["hello"]
    assert said(client, cy, match) == ["hello", "rude words"]  # the others read it
    assert said(client, bob, match) == ["hello", "rude words"]  # and Bob Ann's
    set_block(client, ann, "Bob", "none")
    assert said(client, ann, match) == ["hello", "rude words"]


@pytest.mark.slow
def test_no_rematch_is_offered_across_a_block(client: TestClient) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    match = challenge(client, ann)["match"]
    client.post(f"/api/challenges/{match}/accept", headers=bob)
    set_block(client, ann, "Bob", "block")
    with connect(client, f"/ws/matches/{match}?seat=1", headers=bob) as bob_ws:
        view = state_at_rest(bob_ws)
        bob_ws.send_json({"type": "resign", "event": view["event"]})
        receive_until(bob_ws, lambda m: m["type"] == "state" and m["result"])
        bob_ws.send_json({"type": "rematch"})
        refused = receive_until(bob_ws, lambda m: m["type"] == "error")
    assert refused["error"]["code"] == "blocked"
    assert client.get(f"/api/matches/{match}").json()["rematch_asked"] == []


def test_a_report_is_filed_and_read_by_a_moderator(client: TestClient) -> None:
    ann, _bob = player(client, "Ann"), player(client, "Bob")
    match = challenge(client, ann)["match"]
    body = {"name": "Bob", "text": "  insults in the chat ", "match": match, "message": 3}
    assert client.post("/api/reports", json=body, headers=ann).json() == {"ok": True}
    empty = client.post("/api/reports", json={"name": "Bob", "text": " "}, headers=ann)
    assert (empty.status_code, empty.json()["error"]["code"]) == (400, "report_length")
    engine = client.app.state.players.engine  # type: ignore[attr-defined]
    (report,) = Moderation(engine).reports()
    assert (report.reporter, report.reported, report.text) == ("Ann", "Bob", "insults in the chat")
    assert (report.match_id, report.message_id) == (match, 3)


def test_blocks_and_reports_are_limited_per_player(tmp_path: Path) -> None:
    few = Rate(per_minute=1, burst=3)
    with running(tmp_path, clock=lambda: 0.0, blocks_and_reports_per_minute=few) as client:
        ann, _bob, cat = player(client, "Ann"), player(client, "Bob"), player(client, "Cat")
        report = {"name": "Bob", "text": "spam"}
        answers = [
            set_block(client, ann, "Bob", "block").status_code,
            set_block(client, ann, "Bob", "none").status_code,
            client.post("/api/reports", json=report, headers=ann).status_code,
            client.post("/api/reports", json=report, headers=ann).status_code,
            set_block(client, ann, "Bob", "mute").status_code,
        ]
        assert answers == [200, 200, 200, 429, 429]
        # another player at the same address has an allowance of their own
        assert client.post("/api/reports", json=report, headers=cat).status_code == 200
