"""A bot's event stream hears what happens on another server process (issue 53): two
apps on one PostgreSQL database (``tests/postgresql_helpers.py``); the bot's stream is
open on the first, the challenge to it is made, accepted and its game resigned through
the second, and the first's stream is told of each, through the fan-out's ``bots``
topic. Every wait has a deadline; nothing asserts on a duration."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stairgames.server.people.players import COOKIE
from tests.postgresql_helpers import DEADLINE, PostgreSQL, postgresql_server, two_servers, wait_for
from tests.server_helpers import JSON


@pytest.fixture(scope="module")
def postgresql() -> Iterator[PostgreSQL]:
    with postgresql_server() as server:
        yield server


def player(client: TestClient, name: str) -> tuple[Any, dict[str, str]]:
    made, secret = client.app.state.players.create(name)  # type: ignore[attr-defined]
    return made, {**JSON, "cookie": f"{COOKIE}={secret}"}


def next_line(client: TestClient, lines: asyncio.Queue[dict[str, Any]]) -> dict[str, Any]:
    wait_for(lambda: not lines.empty(), DEADLINE, "a line of the event stream")
    line: dict[str, Any] = lines.get_nowait()
    return line


def test_the_event_stream_hears_another_process(postgresql: PostgreSQL, tmp_path: Path) -> None:
    with two_servers(tmp_path, postgresql.url) as (first, second):
        robo, robo_cookie = player(second, "Robo")
        _ann, ann = player(second, "Ann")
        bots = first.app.state.bots  # type: ignore[attr-defined]
        stream = first.portal.call(_open, bots, robo)  # type: ignore[union-attr]
        try:
            body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"]}
            made = second.post("/api/challenges", json={**body, "to": "Robo"}, headers=ann)
            assert made.status_code == 200, made.text
            match = made.json()["match"]
            told = next_line(first, stream.lines)
            assert told["type"] == "challenge" and told["challenge"]["challenge"] == match
            accept = f"/api/bot/challenge/{match}/accept"
            assert second.post(accept, json={}, headers=robo_cookie).status_code == 200
            started = next_line(first, stream.lines)
            assert started["type"] == "gameStart" and started["game"]["id"] == match
            resign = f"/api/bot/game/{match}/resign"
            assert second.post(resign, json={}, headers=ann).status_code == 200
            assert next_line(first, stream.lines) == {"type": "gameFinish", "game": {"id": match}}
        finally:
            first.portal.call(_close, bots, stream)  # type: ignore[union-attr]


async def _open(bots: Any, player: Any) -> Any:
    return bots.open_events(player)


async def _close(bots: Any, stream: Any) -> None:
    bots.close_events(stream)
