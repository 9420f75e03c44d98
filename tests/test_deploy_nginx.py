"""Issue 33: the nginx configuration of ``docs/deploy.md`` in front of two servers.

Debian's nginx runs ``docs/deploy/nginx-stairgames.conf`` itself from a temporary folder
on loopback (its ports, a self-signed certificate and its log's path replaced, as
:func:`stairgames.bench.site.nginx` does), with one worker process, in front of two
``stairgames serve`` processes sharing one PostgreSQL database. Skipped, saying why,
without nginx, openssl or PostgreSQL.
"""

from __future__ import annotations

import contextlib
import json
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from stairgames.bench.site import SiteMissingError, nginx, require_nginx
from tests.postgresql_helpers import PostgreSQL, free_port, postgresql_server
from tests.serve_helpers import Served, get, play_online_game, request, serving

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
