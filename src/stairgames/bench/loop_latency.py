"""Whether a slow database slows the server's event loop (not a test): ``stairgames serve``
on PostgreSQL, once connected directly and once through a proxy that holds every chunk
``--delay-ms`` (default 20 ms) each way, while ``--clients`` (default 8) clients read and
write and a probe measures what waits on no database of its own.

Each client (an address of its own, 127.0.0.10 and on) plays its own online Stairs match
through its two seats' WebSockets, drawing random legal moves, and reads the match with
``GET /api/matches/{id}`` in turn: ``--operations`` requests each, with a random pause of
0 to 2 x ``--think`` seconds before each, or fewer if ``--run-seconds`` pass first; a
finished match is followed by a new one. The probe (127.0.0.2) meanwhile measures, one
after another every ``--interval`` seconds, ``GET /healthz`` (which reads nothing) and
the round trip of a ``{"type": "sync"}`` on a match of its own. On a shared database
that sync reads the match's new events: one read, which through the proxy is 4 round
trips (the pool's ping, BEGIN, the query, ROLLBACK: about 165 ms at 20 ms each way).
Each server is therefore also probed alone (**idle**), which gives each probe's floor:
the loop is not held up while the loaded figures stay near the idle ones.

``--attack`` runs one of issue 48's attacks from one more address (127.0.0.3) while the
clients play, its own row: ``password``, 4 loops of ``POST /api/account/password`` with a
wrong ``old`` (a player with a password, Argon2 checked at every one that is not
refused); ``replay``, 8 loops of ``GET /api/matches/{id}/replay`` of a finished City of
Stairs match of 4 seats (about 70 events); ``none`` (the default). Give it more than once
for several rows.

The server keeps its per-address limits (no ``--no-client-limits``: every client has an
address of its own, which is why), runs no computer player (``--computer-workers 0``) and
compiles nothing in the background (``--no-warm-up``). Both servers run at once, each on
a database of its own on one PostgreSQL server in a temporary folder (fsync on), and the
repeats take turns: each repeat measures every row of both, so that the ratios (with the
proxy over without) are made of figures measured in the same run.

    python -m benchmarks.loop_latency [--clients 8] [--operations 30] [--repeats 3]
    python -m benchmarks.loop_latency --attack none --attack password --attack replay
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import multiprocessing
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

from stairgames.bench import REPOSITORY
from stairgames.bench.postgresql import (
    PostgreSQL,
    PostgreSQLMissingError,
    free_port,
    postgresql_server,
)
from stairgames.bench.site_load import move_of_play

ROOT = REPOSITORY
ENTRY = "import sys; from stairgames.cli import main; sys.exit(main())"
READY_SECONDS = 180.0
DEADLINE = 120.0
"""Seconds any one answer may take before the run fails (a hung run otherwise)."""
PROBE_ADDRESS = "127.0.0.2"
ATTACKER_ADDRESS = "127.0.0.3"
FIRST_CLIENT = 10
"""The first client's address is 127.0.0.10, the next .11, and so on."""
ATTACKS = ("none", "password", "replay")
PASSWORD_LOOPS = 4
REPLAY_LOOPS = 8
ATTACKER_PASSWORD = "the right password"
WRONG_PASSWORD = "a wrong password"
IDLE = "idle"


def client_address(number: int) -> str:
    return f"127.0.0.{FIRST_CLIENT + number}"


# ----- the proxy -------------------------------------------------------------------


async def _delayed_copy(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, delay: float
) -> None:
    """Copy ``reader`` to ``writer``, each chunk written ``delay`` seconds after it was
    read, in the order read (a slow chunk never lets a later one pass it)."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

    async def read() -> None:
        with contextlib.suppress(OSError):
            while chunk := await reader.read(65536):
                queue.put_nowait((loop.time() + delay, chunk))
        queue.put_nowait((loop.time() + delay, b""))  # the end, as late as the rest

    reading = asyncio.ensure_future(read())
    try:
        while True:
            due, chunk = await queue.get()
            await asyncio.sleep(max(0.0, due - loop.time()))
            if not chunk:
                break
            writer.write(chunk)
            await writer.drain()
    except OSError:
        pass
    finally:
        reading.cancel()
        writer.close()


async def _forward(
    target: int, delay: float, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
) -> None:
    """One connection to the proxy: carried to ``target`` and back, delayed both ways."""
    try:
        upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", target)
    except OSError:
        writer.close()
        return
    await asyncio.gather(
        _delayed_copy(reader, upstream_writer, delay),
        _delayed_copy(upstream_reader, writer, delay),
    )


def _serve_proxy(target: int, delay: float, ready: Connection) -> None:
    """The proxy's process: listen on a free loopback port (sent on ``ready``), forward
    to ``target`` for ever."""

    async def serve() -> None:
        handler = functools.partial(_forward, target, delay)
        server = await asyncio.start_server(handler, "127.0.0.1", 0)
        ready.send(server.sockets[0].getsockname()[1])
        await server.serve_forever()

    asyncio.run(serve())


@contextlib.contextmanager
def delaying_proxy(target: int, delay: float) -> Iterator[int]:
    """A TCP proxy to loopback port ``target`` that delays every chunk ``delay`` seconds
    each way, in a process of its own (the clients' load does not move its timing): its
    port."""
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    process = context.Process(target=_serve_proxy, args=(target, delay, theirs), daemon=True)
    process.start()
    try:
        if not ours.poll(60):
            raise SystemExit("the proxy did not start within 60 s")
        port: int = ours.recv()
        yield port
    finally:
        process.terminate()
        process.join()


# ----- the servers -----------------------------------------------------------------


@dataclass
class Server:
    """A ``stairgames serve`` process and what the run set up on it."""

    name: str
    port: int
    process: subprocess.Popen[bytes]
    log: Path
    probe: Probe | None = None
    clients: list[Client] = field(default_factory=list)
    attacker: Attacker | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, match: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/matches/{match}?auth=message"


def start_server(name: str, database_url: str, folder: Path) -> Server:
    """``stairgames serve`` on ``database_url``, once ``/readyz`` answers 200 (its log in
    ``folder``)."""
    port, log = free_port(), folder / f"{name.replace(' ', '-')}.log"
    command = [sys.executable, "-c", ENTRY, "serve", "--port", str(port)]
    command += ["--database-url", database_url, "--data-dir", str(folder / name)]
    command += ["--computer-workers", "0", "--no-warm-up"]
    with log.open("wb") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
    server = Server(name, port, process, log)
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{server.url}/readyz", timeout=2).status_code == 200:
                return server
        except httpx.HTTPError:
            pass
        if process.poll() is not None:
            raise SystemExit(f"the server {name!r} did not start:\n{log.read_text()[-2000:]}")
        time.sleep(0.1)
    process.terminate()
    raise SystemExit(f"the server {name!r} was not ready in {READY_SECONDS:g} s")


def stop_server(server: Server) -> None:
    server.process.terminate()
    try:
        server.process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait()


# ----- talking to a server ---------------------------------------------------------


def http_client(server: Server, address: str) -> httpx.AsyncClient:
    """An HTTP client of ``server`` coming from ``address`` (its limits are per address)."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(base_url=server.url, transport=transport, timeout=DEADLINE)


async def post_json(
    http: httpx.AsyncClient, path: str, body: dict[str, Any], headers: dict[str, str] | None = None
) -> httpx.Response:
    """``body`` posted to ``path``; SystemExit unless the server answers 200."""
    answer = await http.post(path, json=body, headers=headers)
    if answer.status_code != 200:
        raise SystemExit(f"POST {path}: {answer.status_code} {answer.text[:300]}")
    return answer


async def new_match(
    http: httpx.AsyncClient, game: str, seats: int, options: dict[str, Any] | None = None
) -> tuple[str, list[str]]:
    """A new online match of ``game`` with every seat taken: its id and seat tokens."""
    body = {"game": game, "options": options or {}, "seats": ["human"] + ["online"] * (seats - 1)}
    created = (await post_json(http, "/api/matches", body)).json()
    match: str = created["match"]
    tokens = [created["seats"][0]["token"]]
    for _ in range(seats - 1):
        tokens.append((await post_json(http, f"/api/matches/{match}/join", {})).json()["token"])
    return match, tokens


async def open_seat(server: Server, match: str, token: str, address: str) -> ClientConnection:
    """A seat's WebSocket from ``address``, its token sent as the first message."""
    ws = await websockets.connect(
        server.ws(match),
        local_addr=(address, 0),
        open_timeout=DEADLINE,
        ping_interval=None,
        max_size=2**23,
    )
    await ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


async def next_state(ws: ClientConnection, at_least: int) -> dict[str, Any]:
    """The first state at ``at_least`` or later that ``ws`` receives, or the first error."""
    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), DEADLINE))
        if message["type"] == "error":
            return message
        if message["type"] == "state" and message["event"] >= at_least:
            return message


async def play_move(
    ws: ClientConnection, state: dict[str, Any], rng: random.Random
) -> dict[str, Any]:
    """A random legal move of ``state`` (a view of ``ws``'s seat, which is to act) sent:
    the state it made, or the server's refusal. A refused move is followed by a sync
    (and its state returned), so the next move is made on the match as it is."""
    move = move_of_play(state["legal"], rng)
    await ws.send(json.dumps({"type": "move", "move": move, "event": state["event"]}))
    answer = await next_state(ws, state["event"] + 1)
    if answer["type"] == "state":
        return answer
    await ws.send(json.dumps({"type": "sync"}))
    synced = await next_state(ws, state["event"])
    while synced["type"] != "state":
        synced = await next_state(ws, state["event"])
    return {**synced, "refused": answer}


async def play_on(
    sockets: list[ClientConnection], source: int, state: dict[str, Any], rng: random.Random
) -> tuple[int, dict[str, Any]]:
    """The seat to act in ``state`` (seat ``source``'s latest view) plays a random legal
    move: that seat and the state it made (``"refused"`` in it if the move was)."""
    seat = state["to_act"]
    if seat != source:  # that seat's own view, with its legal moves
        state = await next_state(sockets[seat], state["event"])
    return seat, await play_move(sockets[seat], state, rng)


# ----- the clients -----------------------------------------------------------------


@dataclass
class Table:
    """A client's Stairs match: both seats' sockets and the last state seen."""

    match: str
    tokens: list[str]
    sockets: list[ClientConnection]
    state: dict[str, Any]

    @classmethod
    async def start(cls, http: httpx.AsyncClient, server: Server, address: str) -> Table:
        match, tokens = await new_match(http, "stairs", 2)
        sockets = [await open_seat(server, match, token, address) for token in tokens]
        states = [await next_state(ws, 0) for ws in sockets]
        return cls(match, tokens, sockets, states[0])

    @property
    def over(self) -> bool:
        return self.state["result"] is not None

    source: int = 0
    """The seat whose socket :attr:`state` came from."""

    async def move(self, rng: random.Random) -> bool:
        """The seat to act plays: ``False`` if the server refused the move."""
        self.source, self.state = await play_on(self.sockets, self.source, self.state, rng)
        return "refused" not in self.state

    async def close(self) -> None:
        for ws in self.sockets:
            await ws.close()


@dataclass
class Client:
    """One client: an address of its own, and its match (kept from run to run)."""

    number: int
    http: httpx.AsyncClient
    table: Table
    rng: random.Random

    async def run(
        self, server: Server, operations: int, think: float, until: float, tally: Tally
    ) -> None:
        """``operations`` requests, reads and moves in turn, or fewer if the clock
        (``time.perf_counter``) reaches ``until`` first."""
        for operation in range(operations):
            if time.perf_counter() >= until:
                return
            await asyncio.sleep(self.rng.uniform(0.0, 2.0 * think))
            if operation % 2 == 0:
                headers = {"X-Seat-Token": self.table.tokens[0]}
                answer = await self.http.get(f"/api/matches/{self.table.match}", headers=headers)
                tally.answered(answer.status_code)
            elif self.table.over:  # a new match is the write
                await self.table.close()
                self.table = await Table.start(self.http, server, client_address(self.number))
                tally.answered(200)
            else:
                tally.answered(200 if await self.table.move(self.rng) else 409)


@dataclass
class Tally:
    """The clients' requests of a run and their answers."""

    statuses: Counter[int] = field(default_factory=Counter)

    def answered(self, status: int) -> None:
        self.statuses[status] += 1

    @property
    def operations(self) -> int:
        return sum(self.statuses.values())

    @property
    def refused(self) -> int:
        return sum(count for status, count in self.statuses.items() if status != 200)


# ----- the probe -------------------------------------------------------------------


@dataclass
class Samples:
    """Seconds each probe took, by probe."""

    healthz: list[float] = field(default_factory=list)
    sync: list[float] = field(default_factory=list)


@dataclass
class Probe:
    """The probe's HTTP client and the socket of its own match (seat 0 of 2)."""

    http: httpx.AsyncClient
    ws: ClientConnection
    event: int

    @classmethod
    async def start(cls, server: Server) -> Probe:
        http = http_client(server, PROBE_ADDRESS)
        match, tokens = await new_match(http, "stairs", 2)
        ws = await open_seat(server, match, tokens[0], PROBE_ADDRESS)
        return cls(http, ws, (await next_state(ws, 0))["event"])

    async def run(self, stop: asyncio.Event, interval: float, samples: Samples) -> None:
        """Probe until ``stop`` is set: ``/healthz``, a pause, a sync, a pause..."""
        while not stop.is_set():
            started = time.perf_counter()
            answer = await self.http.get("/healthz")
            samples.healthz.append(time.perf_counter() - started)
            if answer.status_code != 200:
                raise SystemExit(f"/healthz answered {answer.status_code}")
            await asyncio.sleep(interval)
            started = time.perf_counter()
            await self.ws.send(json.dumps({"type": "sync"}))
            state = await next_state(self.ws, self.event)
            samples.sync.append(time.perf_counter() - started)
            if state["type"] != "state":
                raise SystemExit(f"the probe's sync was refused: {state}")
            await asyncio.sleep(interval)


# ----- the attacks -----------------------------------------------------------------


@dataclass
class Attacker:
    """What the attacks need on a server: a player with a password (its cookie) and a
    finished City of Stairs match (its id and a seat's token)."""

    http: httpx.AsyncClient
    cookie: str = ""
    finished: tuple[str, str] = ("", "")

    async def run(self, attack: str, stop: asyncio.Event, answers: Counter[int]) -> None:
        if attack == "password":
            loops = [self._password(stop, answers) for _ in range(PASSWORD_LOOPS)]
        else:
            loops = [self._replay(stop, answers) for _ in range(REPLAY_LOOPS)]
        await asyncio.gather(*loops)

    async def _password(self, stop: asyncio.Event, answers: Counter[int]) -> None:
        body = {"old": WRONG_PASSWORD, "new": "another password"}
        while not stop.is_set():
            answer = await self.http.post(
                "/api/account/password", json=body, headers={"Cookie": self.cookie}
            )
            answers[answer.status_code] += 1

    async def _replay(self, stop: asyncio.Event, answers: Counter[int]) -> None:
        match, token = self.finished
        while not stop.is_set():
            answer = await self.http.get(
                f"/api/matches/{match}/replay", headers={"X-Seat-Token": token}
            )
            answers[answer.status_code] += 1


async def player_cookie(http: httpx.AsyncClient) -> str:
    """A new player named Mallory with a password: the ``Cookie`` header it is known by."""
    answer = await post_json(http, "/api/me", {"name": "Mallory"})
    cookie = "; ".join(header.split(";", 1)[0] for header in answer.headers.get_list("set-cookie"))
    await post_json(http, "/api/account", {"password": ATTACKER_PASSWORD}, {"Cookie": cookie})
    return cookie


async def finished_city_match(http: httpx.AsyncClient, server: Server) -> tuple[str, str]:
    """A City of Stairs match of 4 seats played to its end with random legal moves: its
    id and seat 0's token."""
    match, tokens = await new_match(http, "city_of_stairs", 4, {"players": 4})
    sockets = [await open_seat(server, match, t, ATTACKER_ADDRESS) for t in tokens]
    rng, source, state = random.Random(48), 0, await next_state(sockets[0], 0)
    try:
        for _ in range(1000):
            if state["result"] is not None:
                return match, tokens[0]
            source, state = await play_on(sockets, source, state, rng)
    finally:
        for ws in sockets:
            await ws.close()
    raise SystemExit("the City of Stairs match did not end in 1000 moves")


# ----- a run -----------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    clients: int
    operations: int
    think: float
    interval: float
    idle_seconds: float
    run_seconds: float
    repeats: int
    attacks: tuple[str, ...]
    seed: int


@dataclass
class Measured:
    """One row's figures of one repeat."""

    samples: Samples
    seconds: float
    tally: Tally = field(default_factory=Tally)
    attack: Counter[int] = field(default_factory=Counter)


async def set_up(server: Server, plan: Plan) -> None:
    """The probe's match, the clients' matches and what the attacks need."""
    rng = random.Random(plan.seed)
    server.probe = await Probe.start(server)
    for number in range(plan.clients):
        http = http_client(server, client_address(number))
        table = await Table.start(http, server, client_address(number))
        server.clients.append(Client(number, http, table, random.Random(rng.random())))
    if set(plan.attacks) - {"none"}:
        attacker = server.attacker = Attacker(http_client(server, ATTACKER_ADDRESS))
        if "password" in plan.attacks:
            attacker.cookie = await player_cookie(attacker.http)
        if "replay" in plan.attacks:
            attacker.finished = await finished_city_match(attacker.http, server)


async def tear_down(server: Server) -> None:
    if server.probe is not None:
        await server.probe.ws.close()
        await server.probe.http.aclose()
    for client in server.clients:
        await client.table.close()
        await client.http.aclose()
    if server.attacker is not None:
        await server.attacker.http.aclose()


@contextlib.asynccontextmanager
async def probing(server: Server, interval: float) -> AsyncIterator[Samples]:
    """The probe running for the block's duration: its samples."""
    assert server.probe is not None
    samples, stop = Samples(), asyncio.Event()
    running = asyncio.ensure_future(server.probe.run(stop, interval, samples))
    try:
        yield samples
    finally:
        stop.set()
        await running


async def measure_idle(server: Server, plan: Plan) -> Measured:
    async with probing(server, plan.interval) as samples:
        await asyncio.sleep(plan.idle_seconds)
    return Measured(samples, plan.idle_seconds)


async def measure_loaded(server: Server, plan: Plan, attack: str) -> Measured:
    """The probe while every client makes its operations (and the attack runs)."""
    tally, answers, stop = Tally(), Counter[int](), asyncio.Event()
    attacking = None
    if attack != "none":
        assert server.attacker is not None
        attacking = asyncio.ensure_future(server.attacker.run(attack, stop, answers))
    async with probing(server, plan.interval) as samples:
        started = time.perf_counter()
        until = started + plan.run_seconds
        await asyncio.gather(
            *(c.run(server, plan.operations, plan.think, until, tally) for c in server.clients)
        )
        seconds = time.perf_counter() - started
    stop.set()
    if attacking is not None:
        await attacking
    return Measured(samples, seconds, tally, answers)


Rows = dict[tuple[str, str], list[Measured]]
"""(server's name, load: ``idle`` or an attack) -> the figures of each repeat."""


async def measure_all(servers: list[Server], plan: Plan) -> Rows:
    """Every row of every server, repeat after repeat, the servers in turn."""
    rows: Rows = {}
    for server in servers:
        await set_up(server, plan)
    try:
        for _ in range(plan.repeats):
            for server in servers:
                rows.setdefault((server.name, IDLE), []).append(await measure_idle(server, plan))
            for attack in plan.attacks:
                for server in servers:
                    measured = await measure_loaded(server, plan, attack)
                    rows.setdefault((server.name, attack), []).append(measured)
    finally:
        for server in servers:
            await tear_down(server)
    return rows


# ----- the report ------------------------------------------------------------------


def percentile(values: list[float], fraction: float) -> float:
    """The value ``fraction`` of the way up ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


@dataclass(frozen=True)
class Figures:
    """A probe's figures over a row's repeats: the median over the repeats of each
    repeat's median, 95th percentile and maximum (ms), the repeats' medians, and the
    samples in all."""

    median: float
    p95: float
    most: float
    medians: list[float]
    samples: int

    @classmethod
    def of(cls, repeats: list[list[float]]) -> Figures:
        kept = [values for values in repeats if values]
        if not kept:
            return cls(float("nan"), float("nan"), float("nan"), [], 0)
        medians = [1000 * statistics.median(values) for values in kept]
        return cls(
            median=statistics.median(medians),
            p95=statistics.median(1000 * percentile(values, 0.95) for values in kept),
            most=statistics.median(1000 * max(values) for values in kept),
            medians=medians,
            samples=sum(len(values) for values in kept),
        )


PROBES = {"/healthz": "healthz", "sync": "sync"}


def figures(measured: list[Measured], probe: str) -> Figures:
    return Figures.of([getattr(m.samples, PROBES[probe]) for m in measured])


def load_name(load: str, plan: Plan) -> str:
    if load == IDLE:
        return "idle (probe alone)"
    clients = f"{plan.clients} clients"
    return clients if load == "none" else f"{clients} + {load} attack"


TABLE_HEAD = (
    "| server | load | probe | samples | median ms | p95 ms | max ms "
    "| repeats' medians ms | client requests/s | refused |\n"
    "|---|---|---|---:|---:|---:|---:|---|---:|---:|"
)
OVER_IDLE_HEAD = (
    "| server | load | probe | median - idle median ms | p95 - idle p95 ms |\n"
    "|---|---|---|---:|---:|"
)
RATIO_HEAD = (
    "| load | probe | median with / without | p95 with / without | median with - without ms |\n"
    "|---|---|---:|---:|---:|"
)


def table_rows(rows: Rows, plan: Plan) -> list[str]:
    lines = []
    for (server, load), measured in rows.items():
        seconds = sum(m.seconds for m in measured)
        operations = sum(m.tally.operations for m in measured)
        rate = f"{operations / seconds:.0f}" if load != IDLE else "-"
        refused = str(sum(m.tally.refused for m in measured)) if load != IDLE else "-"
        for probe in PROBES:
            f = figures(measured, probe)
            medians = ", ".join(f"{value:.1f}" for value in f.medians)
            lines.append(
                f"| {server} | {load_name(load, plan)} | {probe} | {f.samples} "
                f"| {f.median:.1f} | {f.p95:.1f} | {f.most:.1f} | {medians} | {rate} "
                f"| {refused} |"
            )
    return lines


def ratio_rows(rows: Rows, plan: Plan, names: tuple[str, str]) -> list[str]:
    """Each load and probe with the proxy (``names[1]``) against without (``names[0]``)."""
    lines = []
    loads = [load for server, load in rows if server == names[0]]
    for load in loads:
        for probe in PROBES:
            without = figures(rows[(names[0], load)], probe)
            with_ = figures(rows[(names[1], load)], probe)
            lines.append(
                f"| {load_name(load, plan)} | {probe} | {with_.median / without.median:.2f} "
                f"| {with_.p95 / without.p95:.2f} | {with_.median - without.median:+.1f} |"
            )
    return lines


def over_idle_rows(rows: Rows, plan: Plan) -> list[str]:
    """What each load added to each server's idle figures: the delay that waiting
    behind other work (the event loop, the CPUs, the database's connections) added."""
    lines = []
    for (server, load), measured in rows.items():
        if load == IDLE:
            continue
        for probe in PROBES:
            idle, loaded = figures(rows[(server, IDLE)], probe), figures(measured, probe)
            lines.append(
                f"| {server} | {load_name(load, plan)} | {probe} "
                f"| {loaded.median - idle.median:+.1f} | {loaded.p95 - idle.p95:+.1f} |"
            )
    return lines


def attack_lines(rows: Rows) -> list[str]:
    lines = []
    for (server, load), measured in rows.items():
        if load in (IDLE, "none"):
            continue
        answers: Counter[int] = Counter()
        for m in measured:
            answers.update(m.attack)
        seconds = sum(m.seconds for m in measured)
        told = ", ".join(f"{status}: {count}" for status, count in sorted(answers.items()))
        total = sum(answers.values())
        lines.append(
            f"{load} attack on {server}: {total} requests ({total / seconds:.0f}/s), "
            f"answered {told}"
        )
    return lines


def git_commit() -> str:
    """The commit measured, and whether the working tree differed from it."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        changed = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (no git)"
    return f"{commit} + {len(changed)} changed files" if changed else commit


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def report(
    rows: Rows, plan: Plan, names: tuple[str, str], conditions: dict[str, str], argv: list[str]
) -> None:
    for name, value in conditions.items():
        print(f"{name}: {value}")
    print()
    print(TABLE_HEAD)
    for line in table_rows(rows, plan):
        print(line)
    print()
    print(f"ratios, {names[1]} over {names[0]} (the same run; medians of the repeats):")
    print(RATIO_HEAD)
    for line in ratio_rows(rows, plan, names):
        print(line)
    print()
    print("added by the load, each server against its own idle runs:")
    print(OVER_IDLE_HEAD)
    for line in over_idle_rows(rows, plan):
        print(line)
    print()
    for line in attack_lines(rows):
        print(line)
    print()
    print("command: python -m benchmarks.loop_latency " + " ".join(argv))


# ----- the command -----------------------------------------------------------------


def parse(argv: list[str]) -> tuple[argparse.Namespace, Plan]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--delay-ms", type=float, default=20.0, help="the proxy's delay each way")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--operations", type=int, default=30, help="requests per client and run")
    parser.add_argument("--think", type=float, default=0.05, help="mean pause before a request")
    parser.add_argument("--interval", type=float, default=0.05, help="pause between probes")
    parser.add_argument("--idle-seconds", type=float, default=3.0, help="length of idle runs")
    parser.add_argument(
        "--run-seconds",
        type=float,
        default=30.0,
        help="the most a loaded run lasts (its clients stop there, fewer requests made)",
    )
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--attack", action="append", choices=ATTACKS, help="an attack while the clients play"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not 1 <= args.clients <= 200:
        parser.error("--clients takes 1 to 200 (each has an address of 127.0.0.0/24)")
    if args.operations < 1 or args.repeats < 1 or args.delay_ms < 0:
        parser.error("--operations and --repeats take 1 or more, --delay-ms 0 or more")
    attacks = tuple(dict.fromkeys(args.attack or ["none"]))
    plan = Plan(
        args.clients,
        args.operations,
        args.think,
        args.interval,
        args.idle_seconds,
        args.run_seconds,
        args.repeats,
        attacks,
        args.seed,
    )
    return args, plan


def _conditions(postgresql: PostgreSQL, args: argparse.Namespace, plan: Plan) -> dict[str, str]:
    version = postgresql.execute("SHOW server_version")[0][0]
    return {
        "machine": f"{os.cpu_count()} cores, load average before {load_average()}",
        "code": f"commit {git_commit()}, Python {platform.python_version()}",
        "database": f"PostgreSQL {version} in a temporary folder on loopback, fsync on",
        "server": "stairgames serve --computer-workers 0 --no-warm-up, per-address limits on",
        "proxy": f"{args.delay_ms:g} ms each way, every chunk (its own process)",
        "clients": (
            f"{plan.clients} (127.0.0.{FIRST_CLIENT} and on), {plan.operations} requests each "
            f"a run (GET the match and a WebSocket move in turn), a pause of 0 to "
            f"{2 * plan.think:g} s before each; a loaded run stops after "
            f"{plan.run_seconds:g} s"
        ),
        "probe": (
            f"127.0.0.2, /healthz then a sync on its own match, {plan.interval:g} s apart; "
            f"idle runs {plan.idle_seconds:g} s"
        ),
        "repeats": str(plan.repeats),
    }


def run(argv: list[str]) -> None:
    """Measure as ``argv`` says and print the report.

    :raises PostgreSQLMissingError: PostgreSQL cannot be started here.
    """
    args, plan = parse(argv)
    names = ("direct", f"proxy {args.delay_ms:g} ms")
    with contextlib.ExitStack() as stack:
        postgresql = stack.enter_context(postgresql_server())
        for database in ("direct", "proxied"):
            postgresql.execute(f"CREATE DATABASE {database}")
        port = int(postgresql.url.rsplit(":", 1)[1].split("/")[0])
        proxy = stack.enter_context(delaying_proxy(port, args.delay_ms / 1000))
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="stairgames-loop-")))
        conditions = _conditions(postgresql, args, plan)
        base = postgresql.url.rsplit("@", 1)[0]
        servers = []
        for name, address in ((names[0], f"{port}/direct"), (names[1], f"{proxy}/proxied")):
            server = start_server(name, f"{base}@127.0.0.1:{address}", folder)
            stack.callback(stop_server, server)
            servers.append(server)
        rows = asyncio.run(measure_all(servers, plan))
        conditions["machine"] += f", after {load_average()}"
    report(rows, plan, names, conditions, argv)


def main(argv: list[str] | None = None) -> None:
    try:
        run(sys.argv[1:] if argv is None else argv)
    except PostgreSQLMissingError as exc:
        raise SystemExit(str(exc)) from None


if __name__ == "__main__":
    main()
