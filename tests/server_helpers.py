"""Shared helpers of the server tests: an app on a temporary database, WebSocket reading."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from stairgames.agents.levels import LEVEL_NAMES
from stairgames.server.app import create_app
from stairgames.server.base.settings import Settings

JSON = {"content-type": "application/json"}
"""The content type every request that changes something is sent with (the join too,
though it has no body); a card file is sent as :data:`TOML`."""
TOML = {"content-type": "application/toml"}
TEST_PLAYERS = (*LEVEL_NAMES, "random")
"""The computer players the tests' servers offer: the levels, as a server offers by
default, and ``random``."""


class FakeClock:
    """A clock the test moves by hand (seconds: a wall clock's since the epoch, or a
    monotonic clock's), for the server's ``clock`` and ``wall_clock`` settings."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@contextlib.contextmanager
def running(data_dir: Path, **settings: Any) -> Iterator[TestClient]:
    """The app on ``data_dir``'s SQLite (computer players in a thread unless told; a
    computer seat may be a level or, unless told, ``random``, quick and sure to move)."""
    settings.setdefault("computer_workers", 0)
    settings.setdefault("computer_players", TEST_PLAYERS)
    settings.setdefault("static_dir", data_dir / "no-static")
    # Every TestClient WebSocket comes from one address ("testclient"), and the message
    # allowance is per address: a test playing several browsers gets that of many people.
    settings.setdefault("messages_per_second", 1000.0)
    settings.setdefault("message_burst", 1000.0)
    # A database call on the event loop's thread raises: no route may stall every visitor.
    settings.setdefault("loop_guard", True)
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


def migrate_together(engines: list[Any]) -> list[BaseException]:
    """Run the server's migrations on every engine at once (one thread each, released
    together, as server processes started together): the errors they raised."""
    import threading

    from stairgames.server.migrations import upgrade

    start = threading.Barrier(len(engines))
    failures: list[BaseException] = []

    def migrate(engine: Any) -> None:
        start.wait()
        try:
            upgrade(engine)
        except BaseException as exc:  # collected: the caller asserts there are none
            failures.append(exc)

    threads = [threading.Thread(target=migrate, args=(engine,)) for engine in engines]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return failures


def split_token(url: str) -> tuple[str, str | None]:
    """``url`` without its ``token`` query parameter, and that token (``None``: none). A
    seat's token never travels in an address: the tests' requests written with one send
    it as the server wants (the ``X-Seat-Token`` header, a WebSocket's first message)."""
    from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    tokens = [value for key, value in query if key == "token"]
    if not tokens:
        return url, None
    rest = urlencode([(key, value) for key, value in query if key != "token"])
    return urlunsplit(parts._replace(query=rest)), tokens[0]


@contextlib.contextmanager
def connect(client: TestClient, url: str, **options: Any) -> Iterator[Any]:
    """``client.websocket_connect(url)``; a ``token`` in ``url`` is sent as the socket's
    first message (``?auth=message``, then ``{"type": "hello", "token"}``)."""
    path, token = split_token(url)
    if token is None:
        with client.websocket_connect(url, **options) as socket:
            yield socket
        return
    joiner = "&" if "?" in path else "?"
    with client.websocket_connect(f"{path}{joiner}auth=message", **options) as socket:
        socket.send_json({"type": "hello", "token": token})
        yield socket


def seat_get(client: TestClient, url: str, **options: Any) -> Any:
    """``client.get(url)``; a ``token`` in ``url`` goes in the ``X-Seat-Token`` header."""
    path, token = split_token(url)
    headers = dict(options.pop("headers", {}) or {})
    if token is not None:
        headers["x-seat-token"] = token
    return client.get(path, headers=headers, **options)
