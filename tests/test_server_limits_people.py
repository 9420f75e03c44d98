"""Issue 51, item 7: limits that fit people.

A request that writes or costs spends its player's allowance where its session cookie
names a player, and its address's only where it does not (an anonymous visitor, or a
made-up or forgotten cookie): three friends behind one router each have their own.
Making a player and logging in stay the address's, with an allowance that fits a shared
router. Fake clocks (frozen: an allowance spent stays spent), no sleeps.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stairgames.server.base.limits import NEW_PLAYERS_RATE, Rate
from stairgames.server.people.players import COOKIE, Player, PlayerStore
from tests.postgresql_helpers import PostgreSQL, postgresql_server
from tests.server_helpers import JSON, running
from tests.test_server_writes_limited import browser_at, open_challenge, player_headers

FROZEN = 1_800_000_000.0
TWO = Rate(per_minute=0.001, burst=2)
"""Two, then none for the test's (frozen) time."""
ROUTER = "192.0.2.1"
"""The one address of a household's, a club's or a café's browsers."""
STAIRS = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "human"]}


def frozen() -> float:
    return FROZEN


@contextlib.contextmanager
def limited(tmp_path: Path, **rates: Rate) -> Iterator[TestClient]:
    with running(tmp_path, clock=frozen, **rates) as client:
        yield client


def make_match(browser: TestClient, headers: dict[str, str] | None = None) -> int:
    """``POST /api/matches`` (a two-person Stairs): its status."""
    return int(browser.post("/api/matches", json=STAIRS, headers=headers or JSON).status_code)


def anonymous_at(client: TestClient, address: str) -> TestClient:
    """A new browser at ``address``, with no player."""
    browser = browser_at(client, address)
    browser.cookies.clear()
    return browser


def forged(secret: str) -> dict[str, str]:
    return {**JSON, "cookie": f"{COOKIE}={secret}"}


def refusals(client: TestClient, kind: str) -> str:
    """The line of ``/metrics`` that counts ``kind``'s refused requests."""
    text: str = client.get("/metrics").text
    return next(
        line
        for line in text.splitlines()
        if line.startswith(f'stairgames_limited_requests_total{{kind="{kind}",outcome="refused"}}')
    )


def test_three_players_behind_one_router_each_have_their_own_allowance(
    tmp_path: Path,
) -> None:
    with limited(tmp_path, challenges_per_minute=TWO) as client:
        router = browser_at(client, ROUTER)
        kato, suga, ito = (player_headers(client, name) for name in ("Kato", "Suga", "Ito"))
        assert [open_challenge(router, kato) for _ in range(3)] == [200, 200, 429]
        assert [open_challenge(router, suga) for _ in range(2)] == [200, 200]
        assert open_challenge(router, ito) == 200
        # the player's own allowance holds from any address
        assert open_challenge(browser_at(client, "198.51.100.9"), kato) == 429
        assert refusals(client, "challenges").endswith(" 2.0")


def test_anonymous_browsers_behind_one_router_share_its_allowance(tmp_path: Path) -> None:
    with limited(tmp_path, matches_per_minute=TWO) as client:
        first, second = anonymous_at(client, ROUTER), anonymous_at(client, ROUTER)
        assert [make_match(first), make_match(second), make_match(first)] == [200, 200, 429]
        assert make_match(anonymous_at(client, "198.51.100.9")) == 200  # another address
        assert make_match(first, player_headers(client, "Kato")) == 200  # a player there


def test_a_made_up_cookie_is_anonymous(tmp_path: Path) -> None:
    """Inventing cookies gets no fresh allowance: each made-up one spends the address's."""
    with limited(tmp_path, matches_per_minute=TWO) as client:
        router = anonymous_at(client, ROUTER)
        answers = [make_match(router, forged(f"made-up-{n}")) for n in range(3)]
        assert answers == [200, 200, 429]
        assert make_match(router) == 429  # the address's allowance is what they spent
        assert make_match(router, player_headers(client, "Kato")) == 200


def test_a_forgotten_session_is_anonymous(tmp_path: Path) -> None:
    with limited(tmp_path, matches_per_minute=TWO) as client:
        router = anonymous_at(client, ROUTER)
        kato = player_headers(client, "Kato")
        client.post("/api/logout", headers=kato)
        assert [make_match(router, kato) for _ in range(3)] == [200, 200, 429]
        assert make_match(router) == 429


def test_a_players_request_reads_the_player_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The limits read the player off the event loop (the app's loop guard would fail a
    read on it) and the route finds it kept: one read a request, as without limits."""
    with limited(tmp_path, challenges_per_minute=TWO) as client:
        kato = player_headers(client, "Kato")
        store: PlayerStore = client.app.state.players  # type: ignore[attr-defined]
        reads = counting(monkeypatch, store)
        assert open_challenge(client, kato) == 200
        assert len(reads) == 1
        assert client.get("/api/games", headers=kato).status_code == 200  # not limited
        assert len(reads) == 1


def counting(monkeypatch: pytest.MonkeyPatch, store: PlayerStore) -> list[str | None]:
    """The secrets ``store`` is asked for from now on (:meth:`PlayerStore.by_secret`)."""
    reads: list[str | None] = []
    read: Callable[..., Player | None] = store.by_secret

    def by_secret(secret: str | None, *args: Any) -> Player | None:
        reads.append(secret)
        return read(secret, *args)

    monkeypatch.setattr(store, "by_secret", by_secret)
    return reads


# ----- making players and logging in: the address's, fit for a shared router ----------


def test_making_players_is_the_addresses_and_naming_the_players(tmp_path: Path) -> None:
    with limited(tmp_path, players_per_minute=TWO) as client:
        made = [anonymous_at(client, ROUTER) for _ in range(3)]
        answers = [browser.post("/api/me", json={}, headers=JSON).status_code for browser in made]
        assert answers == [200, 200, 429]
        kato = made[0]  # a player now (its cookie): names are tried on its own allowance
        names = ["Kato", "Katou", "Kato Y"]
        tried = [kato.post("/api/me", json={"name": n}, headers=JSON) for n in names]
        assert [answer.status_code for answer in tried] == [200, 200, 429]
        assert made[1].post("/api/me", json={"name": "Suga"}, headers=JSON).status_code == 200


def test_a_router_makes_thirty_players_at_once_by_default(tmp_path: Path) -> None:
    """Issue 51: the tenth name attempt in a minute behind one router was refused."""
    assert NEW_PLAYERS_RATE.burst >= 30
    with limited(tmp_path) as client:
        answers = [
            anonymous_at(client, ROUTER).post("/api/me", json={}, headers=JSON).status_code
            for _ in range(int(NEW_PLAYERS_RATE.burst) + 1)
        ]
        assert answers == [200] * int(NEW_PLAYERS_RATE.burst) + [429]


def test_logins_are_the_addresses_whatever_the_cookie(tmp_path: Path) -> None:
    with limited(tmp_path, logins_per_minute=TWO) as client:
        router = browser_at(client, ROUTER)
        wrong = {"name": "Nobody", "password": "not the password"}
        answers = [
            router.post("/api/login", json=wrong, headers=player_headers(client, f"P{n}"))
            for n in range(3)
        ]
        assert [answer.status_code for answer in answers] == [401, 401, 429]
        assert anonymous_at(client, ROUTER).post("/api/login", json=wrong).status_code == 429


# ----- two server processes on one database -------------------------------------------


@pytest.fixture(scope="module")
def postgresql() -> Iterator[PostgreSQL]:
    with postgresql_server() as server:
        yield server


def test_a_players_allowance_holds_over_two_processes(
    tmp_path: Path, postgresql: PostgreSQL
) -> None:
    three = Rate(per_minute=0.01, burst=3)
    settings: dict[str, Any] = {
        "database_url": postgresql.url,
        "follow_seconds": 3600.0,
        "challenges_per_minute": three,
    }
    with (
        running(tmp_path / "a", **settings) as first,
        running(tmp_path / "b", **settings) as second,
    ):
        kato, suga = player_headers(first, "Kato"), player_headers(first, "Suga")
        answers = [open_challenge(server, kato) for server in (first, second) * 2]
        assert answers == [200, 200, 200, 429]  # three of three, not six
        assert [open_challenge(server, suga) for server in (second, first)] == [200, 200]
