"""Players (issue 29): names, the identity cookie, accounts, logging in and out."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from sqlalchemy import text

from stairgames.server.base.limits import Rate
from stairgames.server.base.store import SeatRecord, Store, make_engine
from stairgames.server.migrations import HEAD, MIGRATIONS_DIR, current_revision, upgrade
from stairgames.server.people.players import COOKIE, PLAIN_COOKIE, clean_name, name_key
from tests.server_helpers import JSON, running

HOSTILE_NAMES = [
    "a",  # too short
    " b ",  # too short once trimmed
    "x" * 25,  # too long
    "bell\x07",  # a control character
    "evil\u202etxt",  # a right-to-left override
    "zero\u200bwidth",  # a zero-width space
    "line\u2028break",  # a line separator
    "Anonymous 7",  # the server's own names
    "anonymous",
]


def me(client: TestClient) -> dict[str, Any]:
    reply = client.get("/api/me")
    assert reply.status_code == 200
    body: dict[str, Any] = reply.json()
    return body


def become(client: TestClient, name: str | None = None) -> dict[str, Any]:
    reply = client.post("/api/me", json={} if name is None else {"name": name}, headers=JSON)
    assert reply.status_code == 200, reply.text
    body: dict[str, Any] = reply.json()
    return body


def error_code(reply: Any) -> str:
    message: str = reply.json()["error"]["code"]
    return message


def test_a_browser_is_no_player_until_it_asks(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        assert me(client) == {"id": None, "name": None, "account": False}
        assert COOKIE not in client.cookies and PLAIN_COOKIE not in client.cookies


def test_a_visitor_without_a_name_plays_as_anonymous_n(tmp_path: Path) -> None:
    with running(tmp_path) as first, TestClient(first.app) as second:
        one, two = become(first), become(second)
        assert (one["name"], two["name"]) == ("Anonymous 1", "Anonymous 2")
        assert one["account"] is False and one["id"] != two["id"]
        assert me(first) == one and me(second) == two


def test_the_identity_cookie_is_httponly_samesite_lax_and_secure_over_https(
    tmp_path: Path,
) -> None:
    with running(tmp_path) as client:
        plain = client.post("/api/me", json={"name": "Kato"}, headers=JSON)
        cookie = plain.headers["set-cookie"]
        assert cookie.startswith(f"{PLAIN_COOKIE}=")  # plain http to another host
        assert "HttpOnly" in cookie and "samesite=lax" in cookie.lower()
        assert "Secure" not in cookie
        with TestClient(client.app, base_url="https://testserver") as secure:
            reply = secure.post("/api/me", json={"name": "Suga"}, headers=JSON)
            assert reply.headers["set-cookie"].startswith(f"{COOKIE}=")
            assert "Secure" in reply.headers["set-cookie"]


def test_the_database_keeps_only_a_hash_of_the_cookie_secret(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        become(client, "Kato")
        secret = client.cookies[PLAIN_COOKIE]
    with sqlite3.connect(tmp_path / "stairgames.db") as db:
        rows = db.execute("SELECT secret_hash FROM player_sessions").fetchall()
        dump = "\n".join(db.iterdump())
    assert len(rows) == 1 and len(rows[0][0]) == 64
    assert secret not in dump


def test_names_are_trimmed_and_renaming_keeps_the_player(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        first = become(client, "  Kato  ")
        assert first["name"] == "Kato"
        renamed = become(client, "かとう")
        assert renamed["id"] == first["id"] and renamed["name"] == "かとう"
        assert me(client)["name"] == "かとう"
        assert become(client, "x" * 24)["name"] == "x" * 24


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_bad_name_is_refused_and_changes_nothing(tmp_path: Path, name: str) -> None:
    with running(tmp_path) as client:
        reply = client.post("/api/me", json={"name": name}, headers=JSON)
        assert reply.status_code == 400, name
        assert me(client)["id"] is None
        become(client, "Kato")
        assert client.post("/api/me", json={"name": name}, headers=JSON).status_code == 400
        assert me(client)["name"] == "Kato"


@pytest.mark.parametrize("body", [{"name": 5}, {"name": ["Kato"]}, {"name": {"a": 1}}])
def test_a_name_must_be_text(tmp_path: Path, body: dict[str, Any]) -> None:
    with running(tmp_path) as client:
        reply = client.post("/api/me", json=body, headers=JSON)
        assert reply.status_code == 400 and error_code(reply) == "name_not_text"


def test_names_are_unique_ignoring_case_and_width(tmp_path: Path) -> None:
    with running(tmp_path) as first, TestClient(first.app) as second:
        become(first, "Kato")
        for taken in ("kato", "KATO", "Ｋａｔｏ"):
            reply = second.post("/api/me", json={"name": taken}, headers=JSON)
            assert reply.status_code == 409 and error_code(reply) == "name_taken"
        other = become(second, "Suga")
        assert second.post("/api/me", json={"name": "kato"}, headers=JSON).status_code == 409
        assert me(second) == other
    assert name_key("Ｋａｔｏ") == name_key("kato")
    assert clean_name("  かとう ") == "かとう"


def test_a_name_change_needs_a_json_request(tmp_path: Path) -> None:
    # a form of another site cannot send JSON without the browser asking first
    with running(tmp_path) as client:
        reply = client.post("/api/me", content=b"name=Evil", headers={"content-type": "text/plain"})
        assert reply.status_code == 415
        assert me(client)["id"] is None


def test_an_account_logs_in_from_another_browser_as_the_same_player(tmp_path: Path) -> None:
    with running(tmp_path) as home, TestClient(home.app) as phone:
        player = become(home, "Kato")
        reply = home.post("/api/account", json={"password": "correct horse"}, headers=JSON)
        assert reply.status_code == 200 and reply.json()["account"] is True
        again = home.post("/api/account", json={"password": "another one"}, headers=JSON)
        assert again.status_code == 409
        login = phone.post(
            "/api/login", json={"name": "kato", "password": "correct horse"}, headers=JSON
        )
        assert login.status_code == 200
        assert me(phone) == {"id": player["id"], "name": "Kato", "account": True}
        assert me(home)["id"] == player["id"]  # the first browser stays logged in


def test_a_password_needs_8_to_128_characters_and_a_player(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        nobody = client.post("/api/account", json={"password": "long enough"}, headers=JSON)
        assert nobody.status_code == 401
        become(client, "Kato")
        for password in ("short", "x" * 129, 12345678, None):
            reply = client.post("/api/account", json={"password": password}, headers=JSON)
            assert reply.status_code == 400, password
        assert me(client)["account"] is False


@pytest.mark.slow
def test_a_failed_login_does_not_say_whether_the_name_exists(tmp_path: Path) -> None:
    with running(tmp_path) as client, TestClient(client.app) as stranger:
        become(client, "Kato")
        client.post("/api/account", json={"password": "correct horse"}, headers=JSON)
        wrong = stranger.post(
            "/api/login", json={"name": "Kato", "password": "x" * 8}, headers=JSON
        )
        unknown = stranger.post(
            "/api/login", json={"name": "Nobody", "password": "x" * 8}, headers=JSON
        )
        no_account = stranger.post(
            "/api/login", json={"name": "Anonymous 1", "password": "x" * 8}, headers=JSON
        )
        assert wrong.status_code == unknown.status_code == no_account.status_code == 401
        assert wrong.json() == unknown.json() == no_account.json()
        assert me(stranger)["id"] is None


@pytest.mark.slow
def test_changing_the_password(tmp_path: Path) -> None:
    with running(tmp_path) as client, TestClient(client.app) as other:
        become(client, "Kato")
        client.post("/api/account", json={"password": "first password"}, headers=JSON)
        bad = client.post(
            "/api/account/password",
            json={"old": "not it!!", "new": "second password"},
            headers=JSON,
        )
        assert bad.status_code == 401
        good = client.post(
            "/api/account/password",
            json={"old": "first password", "new": "second password"},
            headers=JSON,
        )
        assert good.status_code == 200
        old = other.post(
            "/api/login", json={"name": "Kato", "password": "first password"}, headers=JSON
        )
        assert old.status_code == 401
        new = other.post(
            "/api/login", json={"name": "Kato", "password": "second password"}, headers=JSON
        )
        assert new.status_code == 200


def test_logging_out_forgets_the_browser_and_its_secret(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        player = become(client, "Kato")
        secret = client.cookies[PLAIN_COOKIE]
        reply = client.post("/api/logout", headers=JSON)
        assert reply.status_code == 200 and PLAIN_COOKIE in reply.headers["set-cookie"]
        assert me(client)["id"] is None
        client.cookies.set(PLAIN_COOKIE, secret)
        assert me(client)["id"] is None  # a copied cookie is worth nothing now
        assert player["id"]


@pytest.mark.slow
def test_logins_for_one_name_are_limited_from_every_address(tmp_path: Path) -> None:
    now = [0.0]
    many = Rate(per_minute=10_000, burst=10_000)
    with running(tmp_path, clock=lambda: now[0], logins_per_minute=many) as client:
        become(client, "Kato")
        client.post("/api/account", json={"password": "correct horse"}, headers=JSON)
        attempt = {"name": "Kato", "password": "wrong password"}
        codes = [
            client.post("/api/login", json=attempt, headers=JSON).status_code for _ in range(11)
        ]
        assert codes == [401] * 10 + [429]
        right = {"name": "Kato", "password": "correct horse"}
        assert client.post("/api/login", json=right, headers=JSON).status_code == 429
        now[0] += 61.0
        assert client.post("/api/login", json=right, headers=JSON).status_code == 200


@pytest.mark.slow
def test_logins_from_one_address_are_limited(tmp_path: Path) -> None:
    # the limits' clock stands still: on a loaded machine eleven Argon2 checks may take
    # longer than the six seconds that give back one login of the ten a minute
    with running(tmp_path, clock=lambda: 0.0) as client:
        codes = [
            client.post(
                "/api/login", json={"name": f"name{i}", "password": "whatever1"}, headers=JSON
            ).status_code
            for i in range(11)
        ]
        assert codes == [401] * 10 + [429]


def write_first_schema_match(engine: Any) -> None:
    """A match as the first schema's server wrote it: its own SQL, none of today's models
    (which know columns the first schema lacks)."""
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO matches (id, game, options, seed, created_at, rematch_of) "
                "VALUES ('m1', 'stairs', '{\"size\": 4}', 7, '2026-05-01 10:00:00', NULL)"
            )
        )
        connection.execute(
            text(
                "INSERT INTO seats (match_id, seat, kind, player, token_hash) VALUES "
                f"('m1', 0, 'human', NULL, '{'a' * 64}'), ('m1', 1, 'computer', 'easy', NULL)"
            )
        )
        connection.execute(
            text(
                "INSERT INTO events (match_id, number, kind, seat, data, created_at) VALUES "
                "('m1', 1, 'move', 0, '{\"action\": \"a1-b2\"}', '2026-05-01 10:00:05')"
            )
        )


@pytest.mark.parametrize("revision", ["0001", "0002"])
def test_a_database_of_an_older_schema_upgrades_with_its_matches(
    tmp_path: Path, revision: str
) -> None:
    url = f"sqlite:///{tmp_path / 'stairgames.db'}"
    engine = make_engine(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
    assert current_revision(engine) == revision
    write_first_schema_match(engine)
    upgrade(engine)
    assert current_revision(engine) == HEAD
    match = Store(engine).load_match("m1")
    assert match is not None
    assert (match.game, match.options, match.seed, match.rematch_of) == (
        "stairs",
        {"size": 4},
        7,
        None,
    )
    assert match.seats == (
        SeatRecord(0, "human", None, "a" * 64),
        SeatRecord(1, "computer", "easy", None),
    )
    assert [(e.number, e.kind, e.seat, e.data) for e in match.events] == [
        (1, "move", 0, {"action": "a1-b2"})
    ]
    assert match.created_at is not None  # the moments read back as written
    assert match.events[0].at == match.created_at + 5
    assert match.time_control is None  # an older match has no clock
    engine.dispose()
    with running(tmp_path) as client:
        assert become(client, "Kato")["name"] == "Kato"


def test_a_profile_shows_name_created_date_and_ratings(tmp_path: Path) -> None:
    from stairgames.server.people.ratings import RatedResult

    with running(tmp_path) as client, TestClient(client.app) as other:
        ann, bob = become(client, "Ann"), become(other, "Bob")
        engine = make_engine(f"sqlite:///{tmp_path / 'stairgames.db'}")
        Store(engine).create_match("m1", "stairs", {}, 1, [])
        client.app.state.ratings.record(  # type: ignore[attr-defined]
            "m1", RatedResult("stairs size=6", (ann["id"], bob["id"]), (1.0, -1.0))
        )
        engine.dispose()
        profile = client.get("/api/players/ann").json()
        assert profile["id"] == ann["id"] and profile["name"] == "Ann"
        assert profile["account"] is False and len(profile["created"]) == 10
        rating = profile["ratings"]["stairs size=6"]
        assert rating["games"] == 1 and rating["provisional"] and rating["shown"].endswith("?")
        assert (
            rating["rating"]
            > 1500  # a new player's, in points
            > client.get("/api/players/BOB").json()["ratings"]["stairs size=6"]["rating"]
        )
        missing = client.get("/api/players/nobody")
        assert missing.status_code == 404 and error_code(missing) == "player_not_found"
