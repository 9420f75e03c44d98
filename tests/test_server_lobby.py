"""The lobby (issue 29): challenges made, taken, withdrawn and expired; rated results."""

from __future__ import annotations

import asyncio
import datetime
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from stairgames.games.city_of_stairs.cards import default_cards_text
from stairgames.server.lobby.lobby import rating_pool
from stairgames.server.people.players import COOKIE
from tests.server_helpers import (
    JSON,
    TOML,
    connect,
    receive_until,
    running,
    seat_get,
    state_at_rest,
)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with running(tmp_path) as made:
        yield made


def player(client: TestClient, name: str) -> dict[str, str]:
    """Headers of a request made by a new player called ``name`` (its cookie)."""
    made, secret = client.app.state.players.create(name)  # type: ignore[attr-defined]
    return {**JSON, "cookie": f"{COOKIE}={secret}", "x-player": made.id}


def challenge(client: TestClient, who: dict[str, str], **fields: Any) -> Any:
    body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"], **fields}
    return client.post("/api/challenges", json=body, headers=who)


def listed(client: TestClient) -> list[dict[str, Any]]:
    reply = client.get("/api/challenges")
    assert reply.status_code == 200
    challenges: list[dict[str, Any]] = reply.json()["challenges"]
    return challenges


def accept(client: TestClient, who: dict[str, str], challenge_id: str) -> Any:
    return client.post(f"/api/challenges/{challenge_id}/accept", headers=who)


def test_a_challenge_needs_a_player(client: TestClient) -> None:
    reply = client.post(
        "/api/challenges", json={"game": "stairs", "seats": ["human", "online"]}, headers=JSON
    )
    assert reply.status_code == 401 and listed(client) == []


@pytest.mark.parametrize(
    ("seats", "rated"),
    [
        (["online", "online"], False),  # no seat for its creator
        (["human", "human"], False),
        (["human", "computer:easy"], False),  # nobody to meet
        (["human", 3], False),
        (["human", "online", "computer:easy"], True),  # rated: people only
    ],
)
def test_a_challenge_with_bad_seats_is_refused_and_changes_nothing(
    client: TestClient, seats: list[Any], rated: bool
) -> None:
    ann = player(client, "Ann")
    game = "ishigaki_race" if len(seats) == 3 else "stairs"
    options = {"players": 3} if len(seats) == 3 else {}
    reply = client.post(
        "/api/challenges",
        json={"game": game, "options": options, "seats": seats, "rated": rated},
        headers=ann,
    )
    assert reply.status_code == 400 and listed(client) == []


def test_strangers_meet_through_the_lobby(client: TestClient) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    made = challenge(client, ann, rated=True)
    assert made.status_code == 200
    created = made.json()
    (entry,) = listed(client)
    assert entry["id"] == created["challenge"] and entry["game"] == "stairs"
    assert (entry["seats"], entry["taken"], entry["computers"]) == (2, 1, 0)
    assert entry["rated"] is True and entry["options"]["size"] == 4
    assert entry["creator"] == {"name": "Ann", "rating": None}
    assert accept(client, ann, created["challenge"]).status_code == 409  # her own
    taken = accept(client, bob, created["challenge"])
    assert taken.status_code == 200 and taken.json()["seat"] == 1
    assert listed(client) == []  # started: every seat taken
    view = seat_get(client, f"/api/matches/{created['match']}?token={taken.json()['token']}").json()
    assert view["you"] == 1
    cy = player(client, "Cy")
    late = accept(client, cy, created["challenge"])
    assert late.status_code == 409
    assert accept(client, cy, "no-such-challenge").status_code == 404


def test_seats_for_the_computer_are_filled_at_creation(client: TestClient) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    made = client.post(
        "/api/challenges",
        json={
            "game": "ishigaki_race",
            "options": {"players": 3},
            "seats": ["human", "online", "computer:random"],
        },
        headers=ann,
    ).json()
    (entry,) = listed(client)
    assert (entry["seats"], entry["taken"], entry["computers"]) == (3, 2, 1)
    assert accept(client, bob, made["challenge"]).status_code == 200
    assert listed(client) == []


def test_only_the_creator_withdraws_a_challenge(client: TestClient) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    made = challenge(client, ann).json()
    url = f"/api/challenges/{made['challenge']}"
    assert client.delete(url, headers=bob).status_code == 403
    assert len(listed(client)) == 1
    assert client.delete(url, headers=ann).status_code == 200
    assert listed(client) == []
    assert client.delete(url, headers=ann).status_code == 409
    assert accept(client, bob, made["challenge"]).status_code == 409


def test_two_players_accepting_the_last_seat_at_once_get_one_seat(client: TestClient) -> None:
    ann, bob, cy = player(client, "Ann"), player(client, "Bob"), player(client, "Cy")
    made = challenge(client, ann).json()
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    players = client.app.state.players  # type: ignore[attr-defined]
    takers = [players.by_id(who["x-player"]) for who in (bob, cy)]

    async def both() -> list[Any]:
        return await asyncio.gather(
            *(lobby.accept(taker, made["challenge"]) for taker in takers), return_exceptions=True
        )

    results = client.portal.call(both)  # type: ignore[union-attr]
    seats = [r for r in results if isinstance(r, dict)]
    refused = [r for r in results if not isinstance(r, dict)]
    assert len(seats) == 1 and len(refused) == 1
    assert getattr(refused[0], "status", None) == 409
    held = lobby.store.seat_players(made["match"])
    assert sorted(held) == [0, 1] and held[0] == ann["x-player"]


def test_a_challenge_is_withdrawn_when_its_creator_is_gone_the_grace(client: TestClient) -> None:
    """Issue 51: a challenge lives while its creator has a page open on it (the rest:
    tests/test_server_seeks.py)."""
    ann = player(client, "Ann")
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    grace = lobby.grace_seconds
    start = datetime.datetime.now(datetime.UTC)
    now = [start]
    lobby.now = lambda: now[0]
    challenge(client, ann)  # its creator never opens it
    present = challenge(client, ann).json()
    url = f"/ws/matches/{present['match']}?token={present['seats'][0]['token']}"
    with connect(client, url) as ws:
        state_at_rest(ws)
        now[0] = start + datetime.timedelta(seconds=grace - 1)
        assert client.portal.call(lobby.sweep) is False  # type: ignore[union-attr]
        assert len(listed(client)) == 2
        now[0] = start + datetime.timedelta(seconds=grace + 1)
        assert client.portal.call(lobby.sweep) is True  # type: ignore[union-attr]
        assert [entry["id"] for entry in listed(client)] == [present["challenge"]]
    now[0] = start + datetime.timedelta(seconds=2 * grace + 2)
    assert client.portal.call(lobby.sweep) is True  # type: ignore[union-attr]
    assert listed(client) == []


def test_the_lobby_is_live_over_a_websocket(client: TestClient) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    with connect(client, "/ws/lobby") as ws:
        assert ws.receive_json() == {"type": "lobby", "challenges": [], "live": []}
        made = challenge(client, ann).json()
        update = receive_until(ws, lambda m: m["type"] == "lobby" and m["challenges"])
        assert update["challenges"][0]["id"] == made["challenge"]
        accept(client, bob, made["challenge"])
        emptied = receive_until(ws, lambda m: m["type"] == "lobby" and not m["challenges"])
        assert emptied["challenges"] == []
        # the game started: spectators find it among the games being played
        (live,) = emptied["live"]
        assert live["id"] == made["match"] and live["players"] == ["Ann", "Bob"]


def _resign_as_creator(client: TestClient, made: dict[str, Any]) -> None:
    url = f"/ws/matches/{made['match']}?token={made['seats'][0]['token']}"
    with connect(client, url) as ws:
        view = state_at_rest(ws)
        ws.send_json({"type": "resign", "event": view["event"]})
        receive_until(ws, lambda m: m["type"] == "state" and m.get("result"))


def test_a_rated_game_rates_its_players_a_resignation_a_loss(client: TestClient) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    made = challenge(client, ann, rated=True).json()
    accept(client, bob, made["challenge"])
    _resign_as_creator(client, made)
    pool = rating_pool("stairs", {"size": 4, "pie_rule": False, "agreement": True})
    assert pool == "stairs size=4"
    ratings = client.app.state.ratings  # type: ignore[attr-defined]
    ann_rating = ratings.ratings_of(ann["x-player"])[pool]
    bob_rating = ratings.ratings_of(bob["x-player"])[pool]
    assert ann_rating.games == bob_rating.games == 1
    assert bob_rating.mu > ann_rating.mu
    profile = client.get("/api/players/Bob").json()
    assert profile["ratings"][pool]["games"] == 1


def test_a_casual_game_rates_nobody(client: TestClient) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    made = challenge(client, ann, rated=False).json()
    accept(client, bob, made["challenge"])
    _resign_as_creator(client, made)
    assert client.app.state.ratings.ratings_of(bob["x-player"]) == {}  # type: ignore[attr-defined]


def test_seats_show_their_players_names_in_views_and_records(client: TestClient) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    made = challenge(client, ann).json()
    accept(client, bob, made["challenge"])
    view = client.get(f"/api/matches/{made['match']}").json()
    assert [seat["player"] for seat in view["seats"]] == ["Ann", "Bob"]
    record = client.get(f"/api/matches/{made['match']}/record").json()
    assert record["players"] == ["Ann", "Bob"]


def test_a_player_plays_their_seat_by_cookie_on_another_browser(client: TestClient) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    made = challenge(client, ann).json()
    accept(client, bob, made["challenge"])
    # no token: the cookie's player holds seat 1, and nobody else is given it
    as_bob = client.get(f"/api/matches/{made['match']}", headers=bob).json()
    assert as_bob["you"] == 1
    asked = client.get(f"/api/matches/{made['match']}?seat=0", headers=bob).json()
    assert asked["you"] is None  # Ann's seat: Bob only watches it
    stranger = client.get(f"/api/matches/{made['match']}", headers=player(client, "Cy"))
    assert stranger.json()["you"] is None
    with connect(client, f"/ws/matches/{made['match']}?seat=0", headers=ann) as ws:
        view = state_at_rest(ws)
        assert view["you"] == 0
        ws.send_json({"type": "move", "move": view["legal"][0], "event": view["event"]})
        moved = receive_until(ws, lambda m: m["type"] == "state" and m["event"] > view["event"])
        assert moved["history"]


def test_my_games_lists_my_turn_first_then_the_others_then_the_finished(
    client: TestClient,
) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    finished = challenge(client, ann).json()
    accept(client, bob, finished["challenge"])
    _resign_as_creator(client, finished)
    waiting = challenge(client, ann).json()  # nobody took it yet: light (Ann) to move
    accepted = challenge(client, bob).json()
    accept(client, ann, accepted["challenge"])  # Bob (light) to move
    reply = client.get("/api/my/games", headers=ann)
    assert reply.status_code == 200
    games = reply.json()["games"]
    assert [g["match"] for g in games] == [
        waiting["match"],
        accepted["match"],
        finished["match"],
    ]
    assert [g["your_turn"] for g in games] == [True, False, False]
    assert reply.json()["waiting"] == 1
    assert games[2]["over"] and games[2]["result"]["winners"] == [1]
    assert games[1]["seats"] == [1] and [p["name"] for p in games[1]["players"]] == ["Bob", "Ann"]
    assert client.get("/api/my/games", headers=JSON).status_code == 401


def test_my_games_are_read_from_the_summaries_without_replaying_any_match(
    client: TestClient,
) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    made = challenge(client, ann).json()
    accept(client, bob, made["challenge"])
    _resign_as_creator(client, made)
    service = client.app.state.hub.service  # type: ignore[attr-defined]
    service.forget(made["match"])
    before = client.get("/api/my/games", headers=bob).json()["games"]
    assert made["match"] not in service.cached_ids()  # read, not loaded and replayed
    assert before[0]["over"] and before[0]["result"]["winners"] == [1]
    assert before[0]["result"]["reason_id"] == "{name} resigns"
    # a match made before the summaries were kept is replayed once, then shown the same
    engine = service.store.engine
    with engine.begin() as connection:
        connection.execute(
            text("UPDATE matches SET summary = NULL, summary_event = 0 WHERE id = :id"),
            {"id": made["match"]},
        )
    assert client.get("/api/my/games", headers=bob).json()["games"] == before
    service.forget(made["match"])
    assert client.get("/api/my/games", headers=bob).json()["games"] == before
    assert made["match"] not in service.cached_ids()  # summarized when replayed


def test_a_profile_shows_ratings_and_recent_games(client: TestClient) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    made = challenge(client, ann, rated=True).json()
    accept(client, bob, made["challenge"])
    _resign_as_creator(client, made)
    profile = client.get("/api/players/bob").json()
    assert profile["name"] == "Bob" and profile["ratings"]["stairs size=4"]["games"] == 1
    (game,) = profile["games"]
    assert game["match"] == made["match"] and game["over"]
    assert [p["name"] for p in game["players"]] == ["Ann", "Bob"]
    assert client.get("/api/challenges").json()["live"] == []  # over: no longer live


def test_a_profile_of_a_name_with_a_slash(client: TestClient) -> None:
    player(client, "a/b")
    reply = client.get("/api/players/a%2Fb")
    assert reply.status_code == 200 and reply.json()["name"] == "a/b"


@pytest.mark.slow
def test_a_rematch_keeps_the_players_one_seat_on_and_stays_rated(client: TestClient) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    made = challenge(client, ann, rated=True).json()
    taken = accept(client, bob, made["challenge"]).json()
    match = made["match"]
    with connect(client, f"/ws/matches/{match}?seat=1", headers=bob) as bob_ws:
        view = state_at_rest(bob_ws)
        bob_ws.send_json({"type": "resign", "event": view["event"]})
        receive_until(bob_ws, lambda m: m["type"] == "state" and m["result"])
        bob_ws.send_json({"type": "rematch"})
        with connect(client, f"/ws/matches/{match}?seat=0", headers=ann) as ann_ws:
            state_at_rest(ann_ws)
            ann_ws.send_json({"type": "rematch"})
            again = receive_until(ann_ws, lambda m: m["type"] == "state" and m["rematch"])
    rematch = again["rematch"]
    assert taken["seat"] == 1
    # Bob (seat 1) plays seat 0 of the rematch, by his cookie, and the names follow
    assert client.get(f"/api/matches/{rematch}", headers=bob).json()["you"] == 0
    assert client.get(f"/api/matches/{rematch}", headers=ann).json()["you"] == 1
    view = client.get(f"/api/matches/{rematch}").json()
    assert [seat["player"] for seat in view["seats"]] == ["Bob", "Ann"]
    with connect(client, f"/ws/matches/{rematch}", headers=ann) as ws:
        view = state_at_rest(ws)
        ws.send_json({"type": "resign", "event": view["event"]})
        receive_until(ws, lambda m: m["type"] == "state" and m["result"])
    ratings = client.app.state.ratings  # type: ignore[attr-defined]
    assert ratings.ratings_of(ann["x-player"])["stairs size=4"].games == 2


def test_a_rated_game_of_three_rates_those_who_left_as_last(client: TestClient) -> None:
    ann, bob, cy = player(client, "Ann"), player(client, "Bob"), player(client, "Cy")
    body = {"game": "ishigaki_race", "options": {"players": 3}, "rated": True}
    made = client.post(
        "/api/challenges", json={**body, "seats": ["human", "online", "online"]}, headers=ann
    ).json()
    accept(client, bob, made["challenge"])
    accept(client, cy, made["challenge"])
    for who, seat in ((ann, 0), (bob, 1), (cy, 2)):
        url = f"/ws/matches/{made['match']}?seat={seat}"
        with connect(client, url, headers=who) as ws:
            view = state_at_rest(ws)
            seen = view["event"]
            if view["result"] is None:
                ws.send_json({"type": "resign", "event": seen})
                receive_until(ws, lambda m, seen=seen: m["type"] == "state" and m["event"] > seen)
    ratings = client.app.state.ratings  # type: ignore[attr-defined]
    after = {who["x-player"]: ratings.ratings_of(who["x-player"]) for who in (ann, bob, cy)}
    assert all(pools["ishigaki_race"].games == 1 for pools in after.values())


def test_a_record_names_its_players_and_the_terminal_reads_them_back(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from stairgames.cli import main

    ann, bob = player(client, "Ann"), player(client, "Bob")
    made = challenge(client, ann).json()
    accept(client, bob, made["challenge"])
    with connect(client, f"/ws/matches/{made['match']}?seat=0", headers=ann) as ws:
        view = state_at_rest(ws)
        ws.send_json({"type": "move", "move": view["legal"][0], "event": view["event"]})
        receive_until(ws, lambda m: m["type"] == "state" and m["event"] > view["event"])
    record = client.get(f"/api/matches/{made['match']}/record", headers=ann)
    assert record.json()["players"] == ["Ann", "Bob"]
    saved = tmp_path / "game.json"
    saved.write_text(record.text)
    capsys.readouterr()
    assert main(["replay", str(saved), "--no-color"]) == 0
    assert "1. light (Ann):" in capsys.readouterr().out


def test_a_seat_token_may_come_in_a_header_and_never_reaches_the_access_log(
    client: TestClient,
) -> None:
    import logging

    from stairgames.server.base.logs import RedactSecrets
    from stairgames.server.base.settings import Settings
    from stairgames.server.serve import uvicorn_config

    created = client.post(
        "/api/matches", json={"game": "stairs", "seats": ["human", "human"]}, headers=JSON
    ).json()
    token = created["seats"][1]["token"]
    view = client.get(f"/api/matches/{created['match']}", headers={"x-seat-token": token})
    assert view.json()["you"] == 1
    uvicorn_config(client.app, "127.0.0.1", 0, Settings())
    access = logging.getLogger("uvicorn.access")
    assert any(isinstance(f, RedactSecrets) for f in access.filters)
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5", "GET", f"/api/matches/m?token={token}&x=1", "1.1", 200),
        None,
    )
    assert all(f.filter(record) for f in access.filters if isinstance(f, RedactSecrets))
    assert token not in record.getMessage() and "token=…&x=1" in record.getMessage()


def upload_cards(client: TestClient, red_name: str) -> str:
    """The id of a card file uploaded as the page sends it: the game's own cards, the
    Red family renamed ``red_name``."""
    text = default_cards_text().replace('name = "Red"', f'name = "{red_name}"', 1)
    reply = client.post("/api/cards", content=text.encode(), headers=TOML)
    assert reply.status_code == 200, reply.text
    card_id: str = reply.json()["cards"]
    return card_id


def city_challenge(client: TestClient, who: dict[str, str], cards: str, rated: bool) -> Any:
    return challenge(
        client,
        who,
        game="city_of_stairs",
        options={"players": 2, "cards": cards},
        seats=["human", "online"],
        rated=rated,
    )


def test_an_unrated_challenge_plays_an_uploaded_card_set_shown_by_its_id(
    client: TestClient, tmp_path: Path
) -> None:
    """The lobby reads an uploaded file's id as ``POST /api/matches`` does (issue 50); the
    list shows the id, never the file's path on the server."""
    ann, bob = player(client, "Ann"), player(client, "Bob")
    card_id = upload_cards(client, "Crimson Family")
    made = city_challenge(client, ann, card_id, rated=False)
    assert made.status_code == 200, made.text
    (shown,) = listed(client)
    assert shown["options"]["cards"] == card_id
    assert str(tmp_path) not in client.get("/api/challenges").text
    assert accept(client, bob, shown["id"]).status_code == 200
    view = client.get(f"/api/matches/{made.json()['match']}").text
    assert "Crimson Family" in view and ".toml" not in view


def test_a_rated_challenge_with_an_uploaded_file_is_refused_naming_it(
    client: TestClient,
) -> None:
    """The lobby asks the registry which options take uploaded files (City of Stairs'
    card sets today) rather than naming one: a rated game plays the game's own cards."""
    ann = player(client, "Ann")
    reply = city_challenge(client, ann, upload_cards(client, "Crimson Family"), rated=True)
    assert reply.status_code == 400, reply.text
    error = reply.json()["error"]
    assert error["code"] == "rated_uploaded_file"
    assert error["args"] == {"option": "cards"}
    assert listed(client) == []


def test_a_challenge_naming_no_uploaded_file_is_refused_as_a_match_is(
    client: TestClient,
) -> None:
    ann = player(client, "Ann")
    reply = city_challenge(client, ann, "0" * 64, rated=False)
    assert reply.status_code == 400, reply.text
    assert reply.json()["error"]["code"] == "unknown_card_set"
    assert listed(client) == []
