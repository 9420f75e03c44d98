"""Names people can trust (issue 51, item 2): unique by their confusable skeleton, no
invisible characters or stray combining marks, a short list of refused words, a rated
player's name kept for them after a rename, and a profile address for every name."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient

from stairgames.server.base.limits import Rate
from stairgames.server.base.name_skeleton import skeleton
from stairgames.server.base.settings import STATIC_DIR
from stairgames.server.base.store import Store, make_engine
from stairgames.server.migrations import HEAD, MIGRATIONS_DIR, current_revision, upgrade
from stairgames.server.people.names import refused_words
from stairgames.server.people.ratings import RatedResult
from tests.postgresql_helpers import postgresql_server
from tests.server_helpers import JSON, running

MANY = Rate(per_minute=1000, burst=1000)
"""Every browser of a test comes from one address: enough names for all of them."""


@contextlib.contextmanager
def site(tmp_path: Path, **settings: Any) -> Iterator[TestClient]:
    with running(tmp_path, players_per_minute=MANY, **settings) as client:
        yield client


def take(client: TestClient, name: str) -> Any:
    return client.post("/api/me", json={"name": name}, headers=JSON)


def player(client: TestClient, name: str) -> dict[str, Any]:
    reply = take(client, name)
    assert reply.status_code == 200, reply.text
    body: dict[str, Any] = reply.json()
    return body


def refusal(reply: Any) -> tuple[int, str]:
    return reply.status_code, reply.json()["error"]["code"]


def rate(
    client: TestClient, tmp_path: Path, match: str, *players: dict[str, Any], url: str = ""
) -> None:
    """Records a rated game between ``players`` (the first wins), in the database of
    ``url`` (by default ``tmp_path``'s SQLite)."""
    engine = make_engine(url or f"sqlite:///{tmp_path / 'stairgames.db'}")
    Store(engine).create_match(match, "stairs", {}, 1, [])
    engine.dispose()
    ids = tuple(p["id"] for p in players)
    returns = (1.0, *(-1.0 for _ in players[1:]))
    client.app.state.ratings.record(match, RatedResult("stairs size=6", ids, returns))  # type: ignore[attr-defined]


LOOK_ALIKES = [
    "\u0410lice",  # Cyrillic А
    "B\u03bfb",  # Greek ο
    "B0b",  # the digit zero
    "Bo\u0301b",  # o and a combining acute: Bób
    "Bób",
    "ＢＯＢ",
    "AIice",  # a capital I for the l
]


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_a_look_alike_of_a_name_held_is_taken(tmp_path: Path, name: str) -> None:
    with site(tmp_path) as alice, TestClient(alice.app) as bob, TestClient(alice.app) as faker:
        player(alice, "Alice"), player(bob, "Bob")
        assert refusal(take(faker, name)) == (409, "name_taken")
        player(faker, "Carol")
        assert refusal(take(faker, name)) == (409, "name_taken")  # nor by renaming
        assert faker.get("/api/me").json()["name"] == "Carol"


def test_the_skeleton_ignores_script_case_width_accents_and_digit_look_alikes() -> None:
    assert {skeleton(name) for name in ["Alice", "\u0410lice", "AIice", "ALICE", "A1ice"]} == {
        "allce"
    }
    assert {skeleton(name) for name in ["Bob", "B\u03bfb", "B0b", "Bo\u0301b", "ＢＯＢ"]} == {"bob"}
    assert len({skeleton(name) for name in ["Bob", "Rob", "Bobby", "Ann", "Anna", "Alan"]}) == 6


@pytest.mark.parametrize("blank", ["\u3164", "\u2800", "\ufe0f", "\u115f", "\u034f", "\U000e0041"])
def test_invisible_and_blank_characters_are_refused(tmp_path: Path, blank: str) -> None:
    with site(tmp_path) as bob, TestClient(bob.app) as faker:
        player(bob, "Bob")
        assert refusal(take(faker, f"Bob{blank}")) == (400, "name_characters")
        assert refusal(take(faker, f"Ro{blank}b")) == (400, "name_characters")


@pytest.mark.parametrize("name", ["B\u0301ob", "Bo\u0301\u0301b", "\u0301Bob", "x\u20ddy"])
def test_combining_marks_that_join_no_letter_are_refused(tmp_path: Path, name: str) -> None:
    with site(tmp_path) as client:
        assert refusal(take(client, name)) == (400, "name_marks")


def test_marks_of_scripts_that_need_them_are_kept(tmp_path: Path) -> None:
    with site(tmp_path) as client:
        assert player(client, "สมชาย")["name"] == "สมชาย"  # Thai, its vowels marks
        assert player(client, "नमस्ते")["name"] == "नमस्ते"  # Devanagari
        assert player(client, "がくせい")["name"] == "がくせい"


REFUSED = [
    "fuck",
    "Hitler",
    "f\u057dck",  # an Armenian ս for the u
    "FUCKER99",
    "H1tler",
    "f.u.c.k",
    "Ｈｉｔｌｅｒ",
    "BigDick",
    "big shit",
    "死ね",
    "ヒトラー",
    "Admin",
]


@pytest.mark.parametrize("name", REFUSED)
def test_refused_words_are_refused(tmp_path: Path, name: str) -> None:
    with site(tmp_path) as client:
        assert refusal(take(client, name)) == (400, "name_refused")
        player(client, "Kato")
        assert refusal(take(client, name)) == (400, "name_refused")


@pytest.mark.parametrize("name", ["Cassandra", "Scunthorpe", "Therapist", "Nazir", "Dickens"])
def test_words_refused_alone_stay_free_inside_other_words(tmp_path: Path, name: str) -> None:
    with site(tmp_path) as client:
        assert player(client, name)["name"] == name


def test_the_refused_list_is_short_and_has_english_and_japanese() -> None:
    anywhere, words = refused_words()
    assert 10 <= len(anywhere) + len(words) <= 60
    assert any(word.isascii() for word in anywhere) and not all(w.isascii() for w in anywhere)


@pytest.mark.parametrize("name", ["..", ".", "--", "..."])
def test_a_name_needs_a_letter_or_a_digit(tmp_path: Path, name: str) -> None:
    with site(tmp_path) as client:
        assert refusal(take(client, name)) in {(400, "name_needs_letter"), (400, "name_length")}


@pytest.mark.parametrize("name", ["a/b", "../x", "a\\b"])
def test_slashes_are_refused(tmp_path: Path, name: str) -> None:
    with site(tmp_path) as client:
        assert refusal(take(client, name)) == (400, "name_slash")


ODD_NAMES = [
    "..a",
    "a?b",
    "a#b",
    "%2F",
    "%2e%2e",
    "100%",
    "a b",
    "名前",
    "Ｋａｔｏ",
    "x+y",
    "a&b=c",
]


def fetch(app: Any, path: str) -> httpx.Response:
    """``GET path`` of ``app``, its path percent-decoded once, as a server does
    (Starlette's TestClient decodes it twice: ``%252F`` would reach the route as ``/``)."""

    async def get() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            return await client.get(path)

    return asyncio.run(get())


def test_every_allowed_name_reaches_its_profile(tmp_path: Path) -> None:
    with site(tmp_path, static_dir=STATIC_DIR) as visitor:
        for name in ODD_NAMES:
            with TestClient(visitor.app) as client:
                held = player(client, name)
            path = urllib.parse.quote(name, safe="")  # as encodeURIComponent
            profile = fetch(visitor.app, f"/api/players/{path}")
            assert profile.status_code == 200, name
            assert profile.json()["id"] == held["id"], name
            page = fetch(visitor.app, f"/p/{path}")
            assert page.status_code == 200 and "<html" in page.text.lower(), name


def test_a_rated_player_renames_once_and_keeps_the_old_name(tmp_path: Path) -> None:
    with (
        site(tmp_path) as beto,
        TestClient(beto.app) as rival,
        TestClient(beto.app) as stranger,
    ):
        held, other = player(beto, "Beto"), player(rival, "Rival")
        for number in range(4):
            rate(beto, tmp_path, f"m{number}", held, other)
        assert player(beto, "Roberto")["id"] == held["id"]
        for old in ("Beto", "BETO", "Bet0"):
            assert refusal(take(stranger, old)) == (409, "name_taken")
        profile = stranger.get("/api/players/Beto").json()
        assert profile["id"] == held["id"] and profile["name"] == "Roberto"
        history = stranger.get("/api/names/Beto").json()
        assert history["name"] == "Roberto" and [n["name"] for n in history["former"]] == ["Beto"]
        assert stranger.get("/api/names/Roberto").json() == history
        assert refusal(take(beto, "Bertie")) == (409, "rename_spent")
        assert player(beto, "roberto")["name"] == "roberto"  # the same name, written otherwise
        assert stranger.get("/api/names/nobody").status_code == 404


def test_a_player_without_rated_games_renames_freely_and_frees_the_name(tmp_path: Path) -> None:
    with site(tmp_path) as first, TestClient(first.app) as second:
        held = player(first, "Beto")
        player(first, "Roberto")
        player(first, "Bertie")
        assert first.get("/api/names/Bertie").json() == {
            "id": held["id"],
            "name": "Bertie",
            "former": [],
        }
        assert player(second, "Beto")["id"] != held["id"]
        assert player(second, "Roberto")["name"] == "Roberto"


def test_the_migration_enters_every_name_keeping_look_alikes_held_before(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'stairgames.db'}"
    engine = make_engine(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0007")
    with sqlite3.connect(tmp_path / "stairgames.db") as db:
        for number, name in enumerate(["Alice", "\u0410lice", "Bob"]):
            db.execute(
                "INSERT INTO players (id, name, name_key, password_hash, created_at)"
                " VALUES (?, ?, ?, NULL, ?)",
                (f"p{number}", name, name.casefold(), f"2026-05-0{number + 1} 10:00:00"),
            )
    upgrade(engine)
    assert current_revision(engine) == HEAD
    engine.dispose()
    with sqlite3.connect(tmp_path / "stairgames.db") as db:
        rows = sorted(db.execute("SELECT player_id, skeleton FROM player_names").fetchall())
    assert rows == [("p0", "allce"), ("p1", "allce\np1"), ("p2", "bob")]
    with site(tmp_path) as client:
        assert refusal(take(client, "ALICE")) == (409, "name_taken")
        assert refusal(take(client, "B0b")) == (409, "name_taken")
        assert client.get("/api/players/%D0%90lice").json()["id"] == "p1"


@pytest.mark.services
def test_names_hold_on_postgresql(tmp_path: Path) -> None:
    with (
        postgresql_server() as database,
        site(tmp_path, database_url=database.url) as beto,
        TestClient(beto.app) as rival,
        TestClient(beto.app) as stranger,
    ):
        held, other = player(beto, "Beto"), player(rival, "Bob")
        assert refusal(take(stranger, "B\u03bfb")) == (409, "name_taken")
        rate(beto, tmp_path, "m1", held, other, url=database.url)
        player(beto, "Roberto")
        assert refusal(take(stranger, "Bet0")) == (409, "name_taken")
        assert stranger.get("/api/players/Beto").json()["id"] == held["id"]
        assert refusal(take(beto, "Bertie")) == (409, "rename_spent")
