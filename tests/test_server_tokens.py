"""API tokens and bot accounts (issue 53; docs/bots.md, "Tokens"): a token is shown once
and kept hashed; wrong, revoked or out-of-scope tokens are refused with their codes and
change nothing; a person who played cannot become a bot; each token has its allowance."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from stairgames.server.base.limits import ClientRates, Rate
from stairgames.server.people.players import COOKIE
from stairgames.server.people.tokens import (
    PREFIX,
    RATE_KIND,
    TOKENS_KEPT,
    BotPlayerRow,
    TokenRow,
    tokens_on,
)
from tests.server_helpers import JSON, running

TOKENS = "/api/account/tokens"
UPGRADE = "/api/bot/account/upgrade"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with running(tmp_path) as made:
        yield made


def account(client: TestClient, name: str, *, password: bool = True) -> dict[str, str]:
    """Headers of a request made by a new player called ``name`` (its cookie), an
    account unless told."""
    players = client.app.state.players  # type: ignore[attr-defined]
    made, secret = players.create(name)
    if password:
        players.add_password(made, "a long password")
    return {**JSON, "cookie": f"{COOKIE}={secret}", "x-player": made.id}


def bearer(token: str) -> dict[str, str]:
    return {**JSON, "authorization": f"Bearer {token}"}


def make_token(
    client: TestClient, who: dict[str, str], scopes: list[str], description: str = "my bot"
) -> dict[str, Any]:
    reply = client.post(TOKENS, json={"description": description, "scopes": scopes}, headers=who)
    assert reply.status_code == 200, reply.text
    made: dict[str, Any] = reply.json()
    return made


def rows(client: TestClient) -> list[TokenRow]:
    engine = client.app.state.players.engine  # type: ignore[attr-defined]
    with Session(engine) as session:
        return list(session.scalars(select(TokenRow)))


def bots(client: TestClient) -> list[str]:
    engine = client.app.state.players.engine  # type: ignore[attr-defined]
    with engine.connect() as connection:
        return sorted(connection.scalars(select(BotPlayerRow.player_id)))


def code(reply: Any) -> tuple[int, str]:
    return reply.status_code, reply.json()["error"]["code"]


def test_a_token_is_shown_once_and_kept_hashed(client: TestClient) -> None:
    ann = account(client, "Ann")
    made = make_token(client, ann, ["read", "bot:play", "read"], "  Ann's bot  ")
    secret = made["token"]
    assert secret.startswith(PREFIX) and len(secret) > len(PREFIX) + 40
    assert made["scopes"] == ["bot:play", "read"]  # known order, no repeats
    assert made["description"] == "Ann's bot"
    (row,) = rows(client)
    assert row.secret_hash == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in repr(vars(row))
    listed = client.get(TOKENS, headers=ann).json()["tokens"]
    assert [(t["id"], t["description"], t["last_used"]) for t in listed] == [
        (made["id"], "Ann's bot", None)
    ]
    assert secret not in str(listed)
    another = make_token(client, ann, ["read"])
    assert another["token"] != secret
    # the token works for its scope, and its use is noted
    upgraded = client.post(UPGRADE, headers=bearer(secret))
    assert upgraded.status_code == 200, upgraded.text
    assert upgraded.json() == {"id": ann["x-player"], "name": "Ann", "bot": True}
    used = {t["id"]: t["last_used"] for t in client.get(TOKENS, headers=ann).json()["tokens"]}
    assert used[made["id"]] is not None and used[another["id"]] is None


def test_only_an_account_makes_tokens_and_with_good_scopes(client: TestClient) -> None:
    visitor = account(client, "Guest", password=False)
    body = {"description": "bot", "scopes": ["read"]}
    assert code(client.post(TOKENS, json=body, headers=visitor)) == (403, "token_needs_account")
    assert code(client.post(TOKENS, json=body, headers=JSON)) == (401, "name_needed")
    ann = account(client, "Ann")
    for scopes in ([], ["admin"], ["read", 3], "read"):
        reply = client.post(TOKENS, json={"description": "x", "scopes": scopes}, headers=ann)
        assert code(reply) == (400, "token_bad_scopes"), scopes
    for description in ("", "   ", "x" * 101):
        reply = client.post(
            TOKENS, json={"description": description, "scopes": ["read"]}, headers=ann
        )
        assert code(reply) == (400, "token_description_length")
    assert rows(client) == []
    # a token cannot make another
    secret = make_token(client, ann, ["bot:play", "challenge:write", "read"])["token"]
    assert code(client.post(TOKENS, json=body, headers=bearer(secret))) == (403, "token_not_here")
    assert len(rows(client)) == 1


def test_wrong_revoked_and_out_of_scope_tokens_are_refused(client: TestClient) -> None:
    ann, bob = account(client, "Ann"), account(client, "Bob")
    read = make_token(client, ann, ["read"])
    play = make_token(client, ann, ["bot:play"])
    refusals = [
        code(client.post(UPGRADE, headers=JSON)),
        code(client.post(UPGRADE, headers={**JSON, "authorization": "Basic abc"})),
        code(client.post(UPGRADE, headers=bearer(PREFIX + "made-up"))),
        code(client.post(UPGRADE, headers=bearer(play["token"][:-1]))),
        code(client.post(UPGRADE, headers=bearer(read["token"]))),
    ]
    assert refusals == [
        (401, "token_missing"),
        (401, "token_missing"),
        (401, "token_invalid"),
        (401, "token_invalid"),
        (403, "token_scope"),
    ]
    # Bob cannot revoke Ann's token; Ann can, once
    assert code(client.delete(f"{TOKENS}/{play['id']}", headers=bob)) == (404, "token_not_found")
    assert client.delete(f"{TOKENS}/{play['id']}", headers=ann).json() == {"ok": True}
    assert code(client.delete(f"{TOKENS}/{play['id']}", headers=ann)) == (404, "token_not_found")
    assert code(client.post(UPGRADE, headers=bearer(play["token"]))) == (401, "token_invalid")
    listed = client.get(TOKENS, headers=ann).json()["tokens"]
    assert [t["id"] for t in listed] == [read["id"]]
    assert bots(client) == []  # nothing refused changed anything
    assert all(row.last_used_at is None for row in rows(client))


def test_a_person_who_played_cannot_become_a_bot(client: TestClient) -> None:
    ann, bob = account(client, "Ann"), account(client, "Bob")
    body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"]}
    made = client.post("/api/challenges", json=body, headers=ann)
    assert made.status_code == 200, made.text
    secret = make_token(client, ann, ["bot:play"])["token"]
    assert code(client.post(UPGRADE, headers=bearer(secret))) == (409, "bot_has_played")
    assert bots(client) == []
    # a player who never held a seat may, for good (asking again changes nothing)
    clean = make_token(client, bob, ["bot:play"])["token"]
    assert client.post(UPGRADE, headers=bearer(clean)).status_code == 200
    assert client.post(UPGRADE, headers=bearer(clean)).status_code == 200
    assert bots(client) == [bob["x-player"]]
    store = tokens_on(client.app.state.players.engine)  # type: ignore[attr-defined]
    assert store.is_bot(bob["x-player"]) and not store.is_bot(ann["x-player"])


def test_a_player_keeps_a_bounded_number_of_tokens(client: TestClient) -> None:
    ann = account(client, "Ann")
    made = [make_token(client, ann, ["read"]) for _ in range(TOKENS_KEPT)]
    body = {"description": "one more", "scopes": ["read"]}
    assert code(client.post(TOKENS, json=body, headers=ann)) == (409, "too_many_tokens")
    client.delete(f"{TOKENS}/{made[0]['id']}", headers=ann)
    assert client.post(TOKENS, json=body, headers=ann).status_code == 200


def test_each_token_has_its_own_allowance(client: TestClient) -> None:
    store = tokens_on(client.app.state.players.engine)  # type: ignore[attr-defined]
    store.rates = ClientRates({RATE_KIND: Rate(per_minute=1, burst=2)}, clock=lambda: 0.0)
    ann = account(client, "Ann")
    first = make_token(client, ann, ["bot:play"])["token"]
    second = make_token(client, ann, ["bot:play"])["token"]
    answers = [client.post(UPGRADE, headers=bearer(first)).status_code for _ in range(3)]
    assert answers == [200, 200, 429]
    assert client.post(UPGRADE, headers=bearer(second)).status_code == 200


def test_a_bot_is_marked_in_lobby_rows_seats_and_profiles(client: TestClient) -> None:
    ann, bob = account(client, "Ann"), account(client, "Bob")
    secret = make_token(client, bob, ["bot:play"])["token"]
    assert client.post(UPGRADE, headers=bearer(secret)).status_code == 200
    body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"]}
    made: dict[str, str] = {}
    for who in (ann, bob):
        reply = client.post("/api/challenges", json=body, headers=who)
        assert reply.status_code == 200, reply.text
        made[who["x-player"]] = reply.json()["challenge"]
    rows = client.get("/api/challenges", headers=ann).json()["challenges"]
    marks = {row["creator"]["name"]: row["creator"].get("bot") for row in rows}
    assert marks == {"Ann": None, "Bob": True}
    seats = client.get(f"/api/matches/{made[bob['x-player']]}", headers=bob).json()["seats"]
    assert [(seat["player"], seat.get("bot")) for seat in seats] == [("Bob", True), (None, None)]
    seats = client.get(f"/api/matches/{made[ann['x-player']]}", headers=ann).json()["seats"]
    assert [(seat["player"], seat.get("bot")) for seat in seats] == [("Ann", None), (None, None)]
    assert client.get("/api/players/Bob").json()["bot"] is True
    assert client.get("/api/players/Ann").json()["bot"] is False
    # a person takes the bot's challenge: the live game marks the bot's seat
    taken = client.post(f"/api/challenges/{made[bob['x-player']]}/accept", headers=ann)
    assert taken.status_code == 200, taken.text
    live = client.get("/api/challenges").json()["live"]
    assert [(game["players"], game.get("bots")) for game in live] == [
        (["Bob", "Ann"], [True, False])
    ]


def test_a_tokens_requests_spend_its_players_allowances(tmp_path: Path) -> None:
    few = Rate(per_minute=1, burst=2)
    with running(tmp_path, clock=lambda: 0.0, challenges_per_minute=few) as client:
        ann = account(client, "Ann")
        secret = make_token(client, ann, ["read"])["token"]  # no scope for challenges
        body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"]}
        spent = [
            client.post("/api/challenges", json=body, headers=bearer(secret)).status_code
            for _ in range(3)
        ]
        assert spent == [403, 403, 429]
        # Ann's own browser pays from the same allowance; the address does not
        assert client.post("/api/challenges", json=body, headers=ann).status_code == 429
        anonymous = client.post("/api/challenges", json=body, headers=JSON)
        assert anonymous.status_code == 401


def test_a_browser_behind_basic_authentication_keeps_its_cookie(client: TestClient) -> None:
    ann = account(client, "Ann")
    basic = {**ann, "authorization": "Basic YWRtaW46c2VjcmV0"}  # a proxy's, say
    assert client.get(TOKENS, headers=basic).json() == {"tokens": []}
    body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"]}
    assert client.post("/api/challenges", json=body, headers=basic).status_code == 200
    # where a token is needed, Basic is none
    assert code(client.post(UPGRADE, headers=basic)) == (401, "token_missing")


def test_a_game_of_bots_alone_is_not_rated_one_with_a_person_is(client: TestClient) -> None:
    from tests.server_helpers import connect, receive_until, state_at_rest

    store = tokens_on(client.app.state.players.engine)  # type: ignore[attr-defined]
    ratings = client.app.state.ratings  # type: ignore[attr-defined]
    bob, cy, ann = account(client, "Bob"), account(client, "Cy"), account(client, "Ann")
    store.make_bot(bob["x-player"])
    store.make_bot(cy["x-player"])
    body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"], "rated": True}
    for opponent in (cy, ann):
        made = client.post("/api/challenges", json=body, headers=bob).json()
        taken = client.post(f"/api/challenges/{made['challenge']}/accept", headers=opponent)
        assert taken.status_code == 200, taken.text
        with connect(client, f"/ws/matches/{made['match']}?seat=0", headers=bob) as ws:
            view = state_at_rest(ws)
            ws.send_json({"type": "resign", "event": view["event"]})
            receive_until(ws, lambda m: m["type"] == "state" and m["result"])
    assert ratings.ratings_of(cy["x-player"]) == {}
    assert ratings.ratings_of(bob["x-player"])["stairs size=4"].games == 1
    assert ratings.ratings_of(ann["x-player"])["stairs size=4"].games == 1


def test_a_read_token_reads_its_players_own_data_and_others_are_refused(
    client: TestClient,
) -> None:
    ann, bob = account(client, "Ann"), account(client, "Bob")
    body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"]}
    match = client.post("/api/challenges", json=body, headers=bob).json()["challenge"]
    taken = client.post(f"/api/challenges/{match}/accept", headers=ann)
    assert taken.status_code == 200, taken.text
    seat = taken.json()["seat"]
    reads: dict[str, Callable[[dict[str, Any]], bool]] = {
        "/api/me": lambda answer: answer["name"] == "Ann",
        "/api/my/games": lambda answer: [g["match"] for g in answer["games"]] == [match],
        f"/api/my/seats/{match}": lambda answer: answer["seats"] == [seat],
        "/api/players/Bob": lambda answer: answer["name"] == "Bob",
        f"/api/matches/{match}": lambda answer: answer["you"] == seat,
    }
    for scopes in (["read"], ["bot:play"]):
        token = bearer(make_token(client, ann, scopes)["token"])
        for path, right in reads.items():
            reply = client.get(path, headers=token)
            assert reply.status_code == 200 and right(reply.json()), (scopes, path, reply.text)
    # a token without the scope, a revoked one: refused, whatever the route
    writer = make_token(client, ann, ["challenge:write"])
    revoked = make_token(client, ann, ["read"])
    client.delete(f"{TOKENS}/{revoked['id']}", headers=ann)
    for path in reads:
        refused = client.get(path, headers=bearer(writer["token"]))
        assert code(refused) == (403, "token_scope") and refused.json()["error"]["args"] == {
            "scope": "read"
        }, path
        assert code(client.get(path, headers=bearer(revoked["token"]))) == (401, "token_invalid")
    # without a token, as before: a stranger sees no seat, the cookie its own
    assert client.get(f"/api/matches/{match}", headers=JSON).json()["you"] is None
    assert client.get("/api/me", headers=ann).json()["name"] == "Ann"
