"""Issue 55: the documented nginx site never marks a backend down for a failed
connection, so the moment a backend answers again nginx sends it requests (the old
``max_fails=1 fail_timeout=5s`` answered "no live upstreams", 502 to everything, for up
to 5 s after an outage, while the backends were already ready).

Debian's nginx runs ``docs/deploy/nginx-stairgames.conf`` (:func:`stairgames.bench.site.nginx`)
in front of two small stand-in backends the test controls: each answers ``GET /healthz``,
or refuses connections (stopped), or accepts and closes them unanswered (as a server
whose database is away used to reset a handshake). Skipped without nginx or openssl.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from stairgames.bench.site import SiteMissingError, nginx, require_nginx
from tests.postgresql_helpers import free_port
from tests.serve_helpers import get


@pytest.fixture(autouse=True)
def _nginx_installed() -> None:
    try:
        require_nginx()
    except SiteMissingError as exc:
        pytest.skip(f"{exc}: skipped")


class Backend:
    """A stand-in backend on ``port``: ``answer()`` (200 to every GET, counted),
    ``stop()`` (connections refused) or ``reset()`` (accepted and closed unanswered)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.answered = 0
        self._server: ThreadingHTTPServer | None = None
        self._resetting: socket.socket | None = None
        self._threads: list[threading.Thread] = []

    def answer(self) -> None:
        self.stop()
        backend = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                backend.answered += 1
                body = b"ok"
                self.send_response(200)
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self._run(self._server.serve_forever)

    def reset(self) -> None:
        self.stop()
        listener = socket.create_server(("127.0.0.1", self.port), reuse_port=False)
        self._resetting = listener

        def close_each() -> None:
            while True:
                try:
                    connection, _ = listener.accept()
                except OSError:
                    return
                connection.setsockopt(
                    socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00"
                )
                connection.close()  # an RST, no answer

        self._run(close_each)

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._resetting is not None:
            with contextlib.suppress(OSError):
                self._resetting.shutdown(socket.SHUT_RDWR)
            self._resetting.close()
            self._resetting = None
        for thread in self._threads:
            thread.join(timeout=10)
        self._threads.clear()

    def _run(self, target: object) -> None:
        thread = threading.Thread(target=target, daemon=True)  # type: ignore[arg-type]
        thread.start()
        self._threads.append(thread)


@contextlib.contextmanager
def site(folder: Path) -> Iterator[tuple[str, list[Backend]]]:
    backends = [Backend(free_port()), Backend(free_port())]
    for backend in backends:
        backend.answer()
    try:
        with nginx(folder, [b.port for b in backends], processes=1) as proxy:
            yield proxy.url, backends
    finally:
        for backend in backends:
            backend.stop()


def test_a_backend_back_after_an_outage_is_served_at_once(tmp_path: Path) -> None:
    with site(tmp_path / "nginx") as (url, (first, second)):
        first.stop()
        second.stop()
        for _ in range(3):  # both refuse: nothing to serve
            assert get(f"{url}/healthz")[0] == 502
        first.answer()
        assert get(f"{url}/healthz")[0] == 200  # the first request after it is back
        assert first.answered >= 1


def test_a_backend_that_resets_connections_is_not_left_out_afterwards(tmp_path: Path) -> None:
    with site(tmp_path / "nginx") as (url, (first, _second)):
        first.reset()
        for _ in range(4):  # each tried on the other after the reset
            assert get(f"{url}/healthz")[0] == 200
        first.answer()
        before = first.answered
        for _ in range(6):
            assert get(f"{url}/healthz")[0] == 200
        assert first.answered > before, "the first backend was left out after its resets"
