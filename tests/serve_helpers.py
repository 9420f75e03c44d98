"""``stairgames serve`` as a real process (its command line, uvicorn, its logs), for the
tests of deployment: logs, workers, nginx in front."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ENTRY = "import sys; from stairgames.cli import main; sys.exit(main())"
START_SECONDS = 120.0
"""How long a server may take to answer its first request (a cold machine compiles)."""


@dataclass
class Served:
    process: subprocess.Popen[bytes]
    port: int
    stdout: Path
    stderr: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def output(self) -> str:
        return self.stdout.read_text(errors="replace") + self.stderr.read_text(errors="replace")


UNVERIFIED = ssl.create_default_context()
UNVERIFIED.check_hostname = False
UNVERIFIED.verify_mode = ssl.CERT_NONE
"""For the tests' own self-signed certificate."""


def get(url: str, headers: dict[str, str] | None = None, timeout: float = 10) -> tuple[int, bytes]:
    """(status, body) of a GET, errors included (``https``: any certificate)."""
    return request("GET", url, headers=headers, timeout=timeout)[:2]


def request(
    method: str,
    url: str,
    body: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 10,
) -> tuple[int, bytes, Any]:
    """(status, body, headers) of a request, errors and redirections included."""
    data = None if body is None else json.dumps(body).encode()
    sent = dict(headers or {})
    if data is not None:
        sent.setdefault("Content-Type", "application/json")
    asked = urllib.request.Request(url, data=data, headers=sent, method=method)
    opener = urllib.request.build_opener(
        _NoRedirects, urllib.request.HTTPSHandler(context=UNVERIFIED)
    )
    try:
        with opener.open(asked, timeout=timeout) as response:
            return response.status, response.read(), response.headers
    except urllib.error.HTTPError as error:
        return error.code, error.read(), error.headers


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirection is an answer like any other (the tests look at it)."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def post(url: str, body: dict[str, Any] | None = None, timeout: float = 10) -> dict[str, Any]:
    status, answer, _ = request("POST", url, body or {}, timeout=timeout)
    assert status == 200, (status, answer)
    loaded: dict[str, Any] = json.loads(answer)
    return loaded


def wait_ready(url: str, process: subprocess.Popen[bytes] | None = None) -> None:
    """Return once ``url`` + ``/readyz`` answers 200."""
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            if get(f"{url}/readyz", timeout=2)[0] == 200:
                return
        if process is not None and process.poll() is not None:
            raise AssertionError(f"the server ended ({process.returncode})")
        time.sleep(0.05)
    raise AssertionError(f"{url} was not ready within {START_SECONDS} s")


@contextlib.contextmanager
def serving(folder: Path, port: int, arguments: Sequence[str]) -> Iterator[Served]:
    """``stairgames serve --port PORT ARGUMENTS`` (its data in ``folder`` unless told),
    ready; stopped with SIGTERM (then killed) afterwards."""
    folder.mkdir(parents=True, exist_ok=True)
    stdout, stderr = folder / "stdout", folder / "stderr"
    command = [sys.executable, "-c", ENTRY, "serve", "--port", str(port)]
    if "--database-url" not in arguments:
        command += ["--data-dir", str(folder / "data")]
    with stdout.open("wb") as out, stderr.open("wb") as err:
        process = subprocess.Popen(
            [*command, *arguments], stdout=out, stderr=err, env=os.environ.copy()
        )
    served = Served(process, port, stdout, stderr)
    try:
        wait_ready(served.url, process)
        yield served
    finally:
        stop(process)


def stop(process: subprocess.Popen[bytes], seconds: float = 20.0) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(seconds)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def receive_state(ws: Any, after: int, seconds: float = 20.0) -> dict[str, Any]:
    """The next state of a ``websockets`` client past event ``after`` (other messages
    dropped); AssertionError past ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no state past event {after} within {seconds} s")
        try:
            message: dict[str, Any] = json.loads(ws.recv(timeout=left))
        except TimeoutError as exc:
            raise AssertionError(f"no state past event {after} within {seconds} s") from exc
        if message["type"] == "state" and message["event"] > after:
            return message


def play_online_game(
    http: str, ws_base: str, moves: int, tokens_seen: list[str] | None = None
) -> dict[str, Any]:
    """A Stairs game between two online seats, each on its own WebSocket (the seat's
    token in the first message, as the page sends it), ``moves`` moves in turn; each
    move is received by the other seat. The last state the second seat saw (the seats'
    tokens are added to ``tokens_seen``)."""
    from websockets.sync.client import connect

    created = post(f"{http}/api/matches", {"game": "stairs", "seats": ["human", "online"]})
    match = created["match"]
    joined = post(f"{http}/api/matches/{match}/join")
    tokens = [created["seats"][0]["token"], joined["token"]]
    if tokens_seen is not None:
        tokens_seen += tokens
    origin = {"Origin": http}
    sockets = []
    with contextlib.ExitStack() as stack:
        for token in tokens:
            address = f"{ws_base}/ws/matches/{match}?auth=message"
            secure = UNVERIFIED if ws_base.startswith("wss") else None
            ws = stack.enter_context(connect(address, additional_headers=origin, ssl=secure))
            ws.send(json.dumps({"type": "hello", "token": token}))
            sockets.append(ws)
        views = [receive_state(ws, -1) for ws in sockets]
        for seat in (0, 1):  # until both have seen the join
            while views[seat]["event"] < joined_event(views):
                views[seat] = receive_state(sockets[seat], views[seat]["event"])
        for _ in range(moves):
            seat, event = views[0]["to_act"], views[0]["event"]
            assert seat in (0, 1) and views[1]["event"] == event, views
            move = views[seat]["legal"][0]
            sockets[seat].send(json.dumps({"type": "move", "move": move, "event": event}))
            views = [receive_state(ws, event) for ws in sockets]
            assert views[0]["history"] == views[1]["history"]
        return views[1]


def joined_event(views: list[dict[str, Any]]) -> int:
    return int(max(view["event"] for view in views))
