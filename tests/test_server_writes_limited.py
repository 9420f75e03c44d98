"""Issue 48: every route that writes or costs is limited (per player where the request
carries one, per address for the anonymous: issue 51);
the database file is private; a whole online game of every game, with the event loop
guarded (a database call on its thread raises), plays as before."""

from __future__ import annotations

import random
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stairgames.core.registry import listing_order, load
from stairgames.server.base.limits import Rate
from stairgames.server.base.settings import Settings
from stairgames.server.people.players import COOKIE
from tests.server_helpers import JSON, connect, new_match, receive_until, running, token_of

FROZEN = 1_800_000_000.0
TWO = Rate(per_minute=0.001, burst=2)  # two, then none for the test's (frozen) time


def frozen() -> float:
    return FROZEN


def browser_at(client: TestClient, address: str) -> TestClient:
    """Another browser on the same running app, at ``address`` (its requests run on the
    app's own event loop, as a real server's would)."""
    other = TestClient(client.app, base_url="http://testserver", client=(address, 50000))
    other.portal = client.portal
    return other


def player_headers(client: TestClient, name: str) -> dict[str, str]:
    _made, secret = client.app.state.players.create(name)  # type: ignore[attr-defined]
    return {**JSON, "cookie": f"{COOKIE}={secret}"}


def open_challenge(client: TestClient, headers: dict[str, str]) -> int:
    body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"]}
    return int(client.post("/api/challenges", json=body, headers=headers).status_code)


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[TestClient]:
    with running(
        tmp_path, clock=frozen, challenges_per_minute=TWO, replays_per_minute=TWO
    ) as client:
        yield client


def test_a_players_challenges_are_limited(limited: TestClient) -> None:
    """200 challenges in 20 s were accepted, each a match broadcast to the lobby."""
    kato = player_headers(limited, "Kato")
    assert [open_challenge(limited, kato) for _ in range(3)] == [200, 200, 429]


def test_challenges_are_limited_per_player_from_any_address(limited: TestClient) -> None:
    kato = player_headers(limited, "Kato")
    answers = [open_challenge(browser_at(limited, f"192.0.2.{i}"), kato) for i in range(3)]
    assert answers == [200, 200, 429]
    suga = player_headers(limited, "Suga")  # another player at a fresh address: served
    assert open_challenge(browser_at(limited, "198.51.100.9"), suga) == 200


def test_replays_and_records_are_limited_per_address(limited: TestClient) -> None:
    created = new_match(limited, "stairs", ["human", "human"], size=4)
    seat = {"x-seat-token": token_of(created, 0)}
    base = f"/api/matches/{created['match']}"
    answers = [limited.get(f"{base}/{part}", headers=seat) for part in ("replay", "record")]
    assert [a.status_code for a in answers] == [200, 200]
    refused = limited.get(f"{base}/replay", headers=seat)
    assert refused.status_code == 429 and "retry-after" in refused.headers
    assert limited.get(base, headers=seat).status_code == 200  # the view is not limited
    other = browser_at(limited, "203.0.113.4")
    assert other.get(f"{base}/replay", headers=seat).status_code == 200


def test_a_refused_challenge_creates_nothing(limited: TestClient) -> None:
    kato = player_headers(limited, "Kato")
    for _ in range(3):
        open_challenge(limited, kato)
    assert len(limited.get("/api/challenges").json()["challenges"]) == 2


# ----- the database file -----------------------------------------------------------------


def test_the_database_and_its_folder_are_private(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with running(data) as client:
        assert client.get("/healthz").status_code == 200
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    assert (data / "stairgames.db").is_file()
    for name in ("stairgames.db", "stairgames.db-wal", "stairgames.db-shm"):  # its data
        if (data / name).exists():
            assert stat.S_IMODE((data / name).stat().st_mode) == 0o600, name


def test_an_existing_world_readable_database_is_made_private(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)
    (tmp_path / "stairgames.db").touch(mode=0o644)
    (tmp_path / "stairgames.db").chmod(0o644)
    Settings(data_dir=tmp_path).url()
    assert stat.S_IMODE((tmp_path / "stairgames.db").stat().st_mode) == 0o600


# ----- whole games with the loop guarded -------------------------------------------------


def state_of(ws: Any) -> dict[str, Any]:
    """The next view a socket receives (presence messages and the like skipped)."""
    return receive_until(ws, lambda m: m["type"] == "state")


@pytest.mark.parametrize("game", list(listing_order()))
@pytest.mark.slow
def test_a_whole_online_game_of_each_game_never_blocks_the_loop(tmp_path: Path, game: str) -> None:
    """Every request of an online game (make, join, every move, the record and replay
    after) with the guard on: a database call on the loop's thread would fail it."""
    rng = random.Random(48)
    count = load(game).num_players()
    with running(tmp_path, loop_guard=True) as client:
        made = new_match(client, game, ["human", *["online"] * (count - 1)])
        tokens = {0: token_of(made, 0)}
        for _ in range(count - 1):
            joined = client.post(f"/api/matches/{made['match']}/join", headers=JSON).json()
            tokens[joined["seat"]] = joined["token"]
        url = f"/ws/matches/{made['match']}"
        sockets = {seat: connect(client, f"{url}?token={t}") for seat, t in tokens.items()}
        opened = {seat: cm.__enter__() for seat, cm in sockets.items()}
        try:
            latest = {seat: state_of(ws) for seat, ws in opened.items()}  # each one's view
            view = latest[0]
            for _ply in range(400):
                if view["result"] is not None:
                    break
                mover = view["to_act"]
                ws = opened[mover]
                while latest[mover]["event"] < view["event"]:  # its socket, caught up
                    latest[mover] = state_of(ws)
                mine = latest[mover]
                move = rng.choice(mine["legal"])
                ws.send_json({"type": "move", "move": move, "event": mine["event"]})
                while latest[mover]["event"] <= mine["event"]:
                    latest[mover] = state_of(ws)
                view = latest[mover]
            assert view["result"] is not None, "the game did not end in 400 moves"
        finally:
            for cm in sockets.values():
                cm.__exit__(None, None, None)
        seat = {"x-seat-token": tokens[0]}
        base = f"/api/matches/{made['match']}"
        assert client.get(f"{base}/record", headers=seat).status_code == 200
        assert client.get(f"{base}/replay", headers=seat).status_code == 200
