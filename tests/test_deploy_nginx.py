"""Issue 33: the nginx configuration of ``docs/deploy.md`` in front of two servers.

Debian's nginx runs ``docs/deploy/nginx-stairgames.conf`` itself from a temporary folder
on loopback (its ports, a self-signed certificate and its log's path replaced, as
:func:`stairgames.bench.site.nginx` does), with one worker process, in front of two
``stairgames serve`` processes sharing one PostgreSQL database. Skipped, saying why,
without nginx, openssl or PostgreSQL.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import resource
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from stairgames.bench.site import SiteMissingError, nginx, require_nginx
from tests.postgresql_helpers import PostgreSQL, free_port, postgresql_server
from tests.serve_helpers import (
    UNVERIFIED,
    Served,
    get,
    play_online_game,
    post,
    request,
    serving,
)

SECRET = "mailLinkS3cretValue"


@pytest.fixture(scope="module")
def postgresql() -> Iterator[PostgreSQL]:
    try:
        require_nginx()
    except SiteMissingError as exc:
        pytest.skip(f"{exc}: skipped")
    with postgresql_server() as server:
        yield server


@contextlib.contextmanager
def two_backends(folder: Path, url: str) -> Iterator[list[Served]]:
    arguments = ["--database-url", url, "--computer-workers", "0", "--forwarded-allow-ips"]
    arguments += ["127.0.0.1", "--log-format", "json", "--access-log"]
    with contextlib.ExitStack() as stack:
        yield [
            stack.enter_context(serving(folder / name, free_port(), arguments))
            for name in ("first", "second")
        ]


def moves_of(backend: Served) -> float:
    _, text = get(f"{backend.url}/metrics")
    for line in text.decode().splitlines():
        if line.startswith('stairgames_moves_total{game="stairs"}'):
            return float(line.split()[-1])
    return 0.0


def access_lines(backend: Served) -> list[dict[str, object]]:
    lines = [json.loads(line) for line in backend.stdout.read_text().splitlines() if line]
    return [line for line in lines if line.get("logger") == "uvicorn.access"]


@pytest.mark.slow
def test_two_servers_behind_nginx_play_over_tls_and_log_no_secret(
    tmp_path: Path, postgresql: PostgreSQL
) -> None:
    tokens: list[str] = []
    with (
        two_backends(tmp_path, postgresql.libpq) as backends,
        nginx(tmp_path / "nginx", [b.port for b in backends], processes=1) as proxy,
    ):
        wss = f"wss://127.0.0.1:{proxy.https}"
        final = play_online_game(proxy.url, wss, 6, tokens)
        assert len(final["history"]) == 6
        # least_conn gave the two seats' sockets one backend each: each backend committed
        # its own player's moves, and the fan-out told the other
        assert sorted(moves_of(b) for b in backends) == [3.0, 3.0]

        # X-Forwarded-Proto from nginx: the player's cookie is __Host-, Secure behind TLS
        status, _, headers = request("POST", f"{proxy.url}/api/me", {})
        assert status == 200 and headers["set-cookie"].startswith("__Host-sg_player=")
        assert "secure" in headers["set-cookie"].lower()
        # plain http to a host other than this machine's: the plain cookie, not Secure
        public = {"Host": "games.example.org"}
        status, _, headers = request("POST", f"{backends[0].url}/api/me", {}, public)
        assert status == 200 and headers["set-cookie"].startswith("sg_player=")
        assert "secure" not in headers["set-cookie"].lower()

        # X-Forwarded-For: nginx sets it (a client's own is dropped); the backends
        # believe it from 127.0.0.1, the configured proxy
        spoofed = {"X-Forwarded-For": "203.0.113.9"}
        assert get(f"{proxy.url}/healthz?through=proxy", spoofed)[0] == 200
        told = {"X-Forwarded-For": "198.51.100.7"}
        assert get(f"{backends[1].url}/healthz?through=direct", told)[0] == 200

        # secrets sent the wrong way still reach no log
        cookie = {"Cookie": f"sg_player={SECRET}", "Referer": f"{proxy.url}/x?token={SECRET}"}
        match = final["match"]
        assert get(f"{proxy.url}/api/matches/{match}?token={tokens[0]}", cookie)[0] == 400
        assert get(f"{proxy.url}/reset-password?token={SECRET}", cookie)[0] == 200

        # the public site does not show the metrics; the backends do, to whoever
        # reaches their port
        assert get(f"{proxy.url}/metrics")[0] == 403
        assert get(f"http://127.0.0.1:{proxy.http}/healthz")[0] == 301

    logged = proxy.access_log.read_text()
    assert "GET /healthz " in logged and "GET /ws/matches/" in logged
    every_log = logged + "".join(b.output() for b in backends)
    for secret in [*tokens, SECRET]:
        assert secret not in every_log
    clients = {
        str(line["path"]).split("?through=")[1]: str(line["client"])
        for backend in backends
        for line in access_lines(backend)
        if "?through=" in str(line["path"])
    }
    assert clients["proxy"].startswith("127.0.0.1:")
    assert clients["direct"].startswith("198.51.100.7:")


@pytest.mark.slow
def test_nginx_sends_new_games_to_the_survivor_when_a_backend_dies(
    tmp_path: Path, postgresql: PostgreSQL
) -> None:
    with (
        two_backends(tmp_path, postgresql.libpq) as backends,
        nginx(tmp_path / "nginx", [b.port for b in backends], processes=1) as proxy,
    ):
        wss = f"wss://127.0.0.1:{proxy.https}"
        play_online_game(proxy.url, wss, 2)
        backends[0].process.send_signal(signal.SIGKILL)
        backends[0].process.wait()
        for _ in range(4):  # each request reaches the survivor, after one try at most
            assert get(f"{proxy.url}/healthz")[0] == 200
        final = play_online_game(proxy.url, wss, 4)
        assert len(final["history"]) == 4


SOCKETS = 2000
"""WebSockets held at once through the documented files (issue 55: Debian's own limits
dropped every one past about 700)."""

PER_ADDRESS = 8
"""Sockets from each loopback address (127.0.0.2 and on): under nginx's 20 per address
(`limit_conn`) and each backend's share of the server's 20 per client."""

MATCHES = 10
"""Matches the sockets watch, 200 spectators each (a match takes at most 500)."""


def raised_file_limit(wanted: int) -> None:
    """Raise this process's soft limit on open files to ``wanted`` (its children, the
    servers and nginx, inherit it), or skip where the hard limit does not allow it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= wanted:
        return
    if hard != resource.RLIM_INFINITY and hard < wanted:
        pytest.skip(f"this machine allows {hard} open files, {wanted} are needed")
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


async def hold_sockets(
    urls: list[str], count: int, while_held: Callable[[], list[float]]
) -> tuple[int, int, list[float]]:
    """Open ``count`` spectators' sockets on ``urls`` (in turn) and hold them all at
    once: how many opened and were sent their match's state, how many the proxy or a
    backend refused, and what ``while_held()`` (run in a thread meanwhile) found."""
    import websockets

    opened: list[Any] = []
    refused = 0
    gate = asyncio.Semaphore(64)  # handshakes in flight at once

    async def one(number: int) -> None:
        nonlocal refused
        address = f"127.0.0.{2 + number // PER_ADDRESS}"
        async with gate:
            try:
                ws = await websockets.connect(
                    urls[number % len(urls)],
                    ssl=UNVERIFIED,
                    local_addr=(address, 0),
                    open_timeout=60,
                    ping_interval=None,
                    max_size=2**22,
                )
                first = await asyncio.wait_for(first_view(ws), 60)
            except (OSError, TimeoutError, websockets.WebSocketException):
                refused += 1
                return
        if first.get("type") == "state":
            opened.append(ws)
        else:  # an error: refused
            refused += 1
            await ws.close()

    await asyncio.gather(*(one(number) for number in range(count)))
    found = await asyncio.to_thread(while_held)
    held = sum(1 for ws in opened if ws.state is websockets.State.OPEN)
    await asyncio.gather(*(ws.close() for ws in opened), return_exceptions=True)
    return held, refused, found


async def first_view(ws: Any) -> dict[str, Any]:
    """The first message of a spectator's socket that is not a presence: its match's
    state, or an error."""
    while True:
        message: dict[str, Any] = json.loads(await ws.recv())
        if message.get("type") != "presence":
            return message


def spectators_of(backend: Served) -> float:
    """The spectators' WebSockets ``backend`` holds now (its ``/metrics``)."""
    _, text = get(f"{backend.url}/metrics")
    for line in text.decode().splitlines():
        if line.startswith('stairgames_websocket_connections{viewer="spectator"}'):
            return float(line.split()[-1])
    return 0.0


@pytest.mark.slow
def test_the_documented_limits_hold_two_thousand_sockets(
    tmp_path: Path, postgresql: PostgreSQL
) -> None:
    raised_file_limit(2 * SOCKETS + 1000)
    with (
        two_backends(tmp_path, postgresql.libpq) as backends,
        nginx(tmp_path / "nginx", [b.port for b in backends], processes=1) as proxy,
    ):
        body = {"game": "stairs", "seats": ["online", "online"]}
        matches = [post(f"{proxy.url}/api/matches", body)["match"] for _ in range(MATCHES)]
        urls = [f"wss://127.0.0.1:{proxy.https}/ws/matches/{match}" for match in matches]
        held, refused, spectators = asyncio.run(
            hold_sockets(urls, SOCKETS, lambda: [spectators_of(b) for b in backends])
        )
    assert (held, refused) == (SOCKETS, 0)
    assert sum(spectators) == SOCKETS and min(spectators) > 0  # least_conn shares them
