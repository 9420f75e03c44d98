"""The server on PostgreSQL: a real server started in a temporary folder (Debian's
``postgresql`` package: initdb and pg_ctl under /usr/lib/postgresql/*/bin); skipped, saying
why, where those are missing."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.postgresql_helpers import postgresql_server
from tests.server_helpers import (
    JSON,
    connect,
    migrate_together,
    new_match,
    receive_until,
    running,
    seat_get,
    state_at_rest,
    token_of,
)
from tests.test_server import STALE


@pytest.fixture(scope="module")
def postgresql_url() -> Iterator[str]:
    with postgresql_server() as database:
        yield database.url


@contextlib.contextmanager
def server(tmp_path: Path, url: str) -> Iterator[object]:
    with running(tmp_path, database_url=url) as client:
        yield client


@pytest.mark.slow
def test_postgresql_keeps_a_game_across_a_restart(tmp_path: Path, postgresql_url: str) -> None:
    with running(tmp_path, database_url=postgresql_url) as client:
        created = new_match(client, "stairs", ["human", "computer:random"])
        match = created["match"]
        with connect(client, f"/ws/matches/{match}?token={token_of(created, 0)}") as ws:
            view = state_at_rest(ws)
            ws.send_json({"type": "move", "move": view["legal"][0], "event": 0})
            before = receive_until(ws, lambda m: m["type"] == "state" and m["event"] == 2)
    assert not (tmp_path / "stairgames.db").exists(), "nothing went to SQLite"
    with running(tmp_path, database_url=postgresql_url) as client:
        after = seat_get(client, f"/api/matches/{match}?token={token_of(created, 0)}").json()
    assert after["history"] == before["history"] and after["to_act"] == 0


def test_two_server_processes_share_one_postgresql_database(
    tmp_path: Path, postgresql_url: str
) -> None:
    with (
        running(tmp_path / "a", database_url=postgresql_url) as first,
        running(tmp_path / "b", database_url=postgresql_url) as second,
    ):
        created = new_match(first, "stairs", ["human", "online"])
        match = created["match"]
        joined = second.post(f"/api/matches/{match}/join", headers=JSON).json()
        assert second.post(f"/api/matches/{match}/join", headers=JSON).status_code == 409
        light = f"/ws/matches/{match}?token={token_of(created, 0)}"
        with connect(second, light) as on_second:
            stale = state_at_rest(on_second)
            with connect(first, light) as on_first:
                view = state_at_rest(on_first)
                on_first.send_json(
                    {"type": "move", "move": view["legal"][0], "event": view["event"]}
                )
                moved = receive_until(on_first, lambda m: m["type"] == "state" and m["history"])
            # the second process had the match before that move: it is told the new
            # state and refuses the request made on the old one
            on_second.send_json(
                {"type": "move", "move": stale["legal"][-1], "event": stale["event"]}
            )
            told = receive_until(on_second, lambda m: m["type"] == "state" and m["history"])
            refused = receive_until(on_second, lambda m: m["type"] == "error")
            # and a watcher on one process sees moves made through the other
            dark = f"/ws/matches/{match}?token={joined['token']}"
            with (
                connect(second, dark) as watching,
                connect(first, light) as on_first,
            ):
                ready = receive_until(watching, lambda m: m["type"] == "state" and m["legal"])
                on_first.send_json({"type": "resign", "event": ready["event"]})
                ended = receive_until(watching, lambda m: m["type"] == "state" and m["result"])
        assert refused["error"]["code"] == STALE and told["history"] == moved["history"]
        assert ended["result"]["winners"] == [1]
        seen = seat_get(second, f"/api/matches/{match}?token={joined['token']}").json()
    assert seen["history"] == moved["history"] and seen["result"] == ended["result"]


def test_finding_8_servers_starting_together_on_an_empty_database_all_migrate_it(
    postgresql_url: str,
) -> None:
    """Hardening finding 8: processes started together on an empty database each take
    the migration lock, so none dies on a schema another is making (before it, one of
    them failed with a UniqueViolation about one time in three)."""

    import psycopg
    from sqlalchemy import inspect

    from stairgames.server.base.store import make_engine
    from stairgames.server.migrations import HEAD, current_revision

    admin = postgresql_url.replace("postgresql+psycopg://", "postgresql://")
    for attempt in range(4):
        name = f"migrate_race_{attempt}"
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f"DROP DATABASE IF EXISTS {name}")
            connection.execute(f"CREATE DATABASE {name}")
        url = postgresql_url.rsplit("/", 1)[0] + f"/{name}"
        engines = [make_engine(url) for _ in range(4)]
        failures = migrate_together(engines)
        assert failures == [], failures
        assert current_revision(engines[0]) == HEAD
        assert {"matches", "seats", "events"} <= set(inspect(engines[0]).get_table_names())
        for engine in engines:
            engine.dispose()


def test_players_names_and_logins_on_postgresql(tmp_path: Path, postgresql_url: str) -> None:
    """Issue 29's players on PostgreSQL: a unique name ignoring case and width, an
    account that logs in from another browser as the same player."""
    name = f"Pg{uuid.uuid4().hex[:8]}"
    with running(tmp_path, database_url=postgresql_url) as home:
        made = home.post("/api/me", json={"name": name}, headers=JSON).json()
        taken = home.post("/api/me", json={"name": name.upper()}, headers=JSON)
        assert taken.status_code == 200 and taken.json()["id"] == made["id"]  # a rename to itself
        reply = home.post("/api/account", json={"password": "correct horse"}, headers=JSON)
        assert reply.status_code == 200
    with running(tmp_path, database_url=postgresql_url) as phone:
        other = phone.post("/api/me", json={"name": name.lower()}, headers=JSON)
        assert other.status_code == 409
        login = phone.post(
            "/api/login", json={"name": name, "password": "correct horse"}, headers=JSON
        )
        assert login.status_code == 200 and login.json()["id"] == made["id"]


def test_a_lobby_game_and_its_rating_on_postgresql(tmp_path: Path, postgresql_url: str) -> None:
    """Issue 29's lobby on PostgreSQL: a challenge taken, the seats held, the result rated."""
    with running(tmp_path, database_url=postgresql_url) as client:
        people = []
        for _ in range(2):
            made, secret = client.app.state.players.create(f"Pg{uuid.uuid4().hex[:8]}")  # type: ignore[attr-defined]
            people.append((made, {**JSON, "cookie": f"sg_player={secret}"}))
        (_ann, ann_headers), (bob, bob_headers) = people
        body = {
            "game": "stairs",
            "options": {"size": 5},
            "seats": ["human", "online"],
            "rated": True,
        }
        created = client.post("/api/challenges", json=body, headers=ann_headers).json()
        taken = client.post(f"/api/challenges/{created['challenge']}/accept", headers=bob_headers)
        assert taken.status_code == 200
        url = f"/ws/matches/{created['match']}?token={token_of(created, 0)}"
        with connect(client, url) as ws:
            view = state_at_rest(ws)
            ws.send_json({"type": "resign", "event": view["event"]})
            receive_until(ws, lambda m: m["type"] == "state" and m.get("result"))
        ratings = client.app.state.ratings  # type: ignore[attr-defined]
        assert ratings.ratings_of(bob.id)["stairs size=5"].games == 1
        games = client.get("/api/my/games", headers=ann_headers).json()["games"]
        assert [g["match"] for g in games] == [created["match"]] and games[0]["over"]
