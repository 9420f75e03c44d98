"""Half-sent bodies on real uvicorn (issue 48, finding 4): a request whose headers came
but whose body does not is answered 408 and closed once ``body_timeout_seconds`` have
passed, so that such requests cannot hold the server's connections, while requests
that do send their bodies are answered as ever.

The server runs as ``stairgames serve`` runs it (:func:`tests.browser_helpers.serving`,
the project's ``uvicorn_config``) with a deadline of a second; the test waits for the
server to close the connections (a generous overall deadline, no fixed sleep).
"""

from __future__ import annotations

import selectors
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from stairgames.server.app import create_app
from stairgames.server.base.settings import Settings
from tests.browser_helpers import serving

HELD = 200
WAIT_AT_MOST = 60.0
"""Seconds the test waits for the server to close them all (it takes about a second)."""
HALF_SENT = (
    b"POST /api/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    b"Content-Length: 10\r\n\r\n"
)


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[str]:
    settings = Settings(
        data_dir=tmp_path, computer_workers=0, static_dir=tmp_path, body_timeout_seconds=1.0
    )
    with serving(create_app(settings), settings) as base:
        yield base


def _address(base: str) -> tuple[str, int]:
    host, port = base.removeprefix("http://").split(":")
    return host, int(port)


def _connected(base: str, head: bytes) -> socket.socket:
    connection = socket.create_connection(_address(base), timeout=WAIT_AT_MOST)
    connection.sendall(head)
    return connection


def _answers_until_closed(connections: list[socket.socket]) -> dict[socket.socket, bytes]:
    """What each of ``connections`` received by the time the server closed it (an end
    of file or a reset), or within :data:`WAIT_AT_MOST` seconds for all of them."""
    answers = {connection: b"" for connection in connections}
    with selectors.DefaultSelector() as selector:
        for connection in connections:
            connection.setblocking(False)
            selector.register(connection, selectors.EVENT_READ, connection)
        deadline = time.monotonic() + WAIT_AT_MOST
        while selector.get_map() and (left := deadline - time.monotonic()) > 0:
            for key, _ in selector.select(timeout=left):
                connection = key.data
                try:
                    chunk = connection.recv(65536)
                except ConnectionResetError:
                    chunk = b""
                answers[connection] += chunk
                if not chunk:
                    selector.unregister(connection)
        still_open = len(selector.get_map())
    assert still_open == 0, f"{still_open} of {len(connections)} connections still open"
    return answers


def _complete_request(base: str, head: bytes, body: bytes = b"") -> bytes:
    """The server's whole answer to a request sent in full (``Connection: close``)."""
    with _connected(base, head + body) as connection:
        return b"".join(iter(lambda: connection.recv(65536), b""))


@pytest.mark.slow
def test_bodies_that_never_come_are_answered_408_and_closed_while_others_are_served(
    served: str,
) -> None:
    held = [_connected(served, HALF_SENT) for _ in range(HELD)]
    try:
        # while they hang, a visitor is answered, with a body or without
        health = _complete_request(
            served, b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        assert health.startswith(b"HTTP/1.1 200"), health[:200]
        body = b'{"game": "stairs", "options": {}, "seats": ["human", "human"]}'
        created = _complete_request(
            served,
            b"POST /api/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(body),
            body,
        )
        assert created.startswith(b"HTTP/1.1 200"), created[:200]
        answers = _answers_until_closed(held)
    finally:
        for connection in held:
            connection.close()
    assert all(answer.startswith(b"HTTP/1.1 408") for answer in answers.values()), {
        answer[:40] for answer in answers.values()
    }
