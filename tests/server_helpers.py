"""Shared helpers of the server tests: an app on a temporary database, WebSocket reading."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from stairgames.server.app import Settings, create_app


@contextlib.contextmanager
def running(data_dir: Path, **settings: Any) -> Iterator[TestClient]:
    """The app on ``data_dir``'s SQLite (computer players in a thread unless told)."""
    settings.setdefault("computer_workers", 0)
    settings.setdefault("static_dir", data_dir / "no-static")
    app = create_app(Settings(data_dir=data_dir, **settings))
    with TestClient(app) as client:
        yield client


def new_match(client: TestClient, game: str, seats: list[str], **options: Any) -> dict[str, Any]:
    response = client.post("/api/matches", json={"game": game, "options": options, "seats": seats})
    assert response.status_code == 200, response.text
    created: dict[str, Any] = response.json()
    return created


def token_of(created: dict[str, Any], seat: int) -> str:
    return next(str(s["token"]) for s in created["seats"] if s["seat"] == seat)


def receive_until(ws: Any, predicate: Any, limit: int = 50) -> dict[str, Any]:
    """The first message ``predicate`` accepts (earlier ones are dropped)."""
    for _ in range(limit):
        message: dict[str, Any] = ws.receive_json()
        if predicate(message):
            return message
    raise AssertionError("no such message")


def state_at_rest(ws: Any) -> dict[str, Any]:
    """The next state in which nobody's computer is thinking."""
    return receive_until(ws, lambda m: m["type"] == "state" and not m["thinking"])


def error_reply(ws: Any) -> dict[str, Any]:
    return receive_until(ws, lambda m: m["type"] == "error")
