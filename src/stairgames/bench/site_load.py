"""Load and faults of the whole site (not a test): Stairs games played by WebSocket
clients over ``wss`` through nginx (``docs/deploy/nginx-stairgames.conf``) to
``stairgames serve`` processes on one PostgreSQL (:mod:`stairgames.bench.site`).

Each game's two seats are two clients; each connects, and connects again when its socket
closes (as the page does: through nginx, so to a server alive), and goes on from the
state it is sent, drawing its moves at random (never an offer to end by agreement). The
clients come from many loopback addresses (127.0.0.2 and up, a game's two seats from
one), so nginx's per-client limits hold as configured. A move
counts as **accepted** once its sender sees it in a state (the server sends views only
after the commit); **lost**: accepted and not received by the other seat, or missing
from the final game; **duplicated**: a game's final history longer than the moves its
players saw accepted. Latency: from a move sent to the other seat receiving it.

    python -m benchmarks.site_load --games 1000 --think 10 --moves 12          # people
    python -m benchmarks.site_load --games 200 --think 0 --servers 1           # capacity
    python -m benchmarks.site_load --games 200 --fault kill-worker
    python -m benchmarks.site_load --games 200 --fault restart-postgresql
    python -m benchmarks.site_load --games 200 --moves 16 --rates 25,50,75,100,150 --servers 1

``--rates R1,R2,...``: the capacity: one run of new games a step, paced so that all of
them together send about R moves a second (each player thinks ``games / R`` seconds on
average); a table of each step's moves/s, median and p99 latency and CPU per move of each
server process and of PostgreSQL (from ``/proc``: user and system time of the process and
its children alive, so a server's computer players and uvicorn's workers are counted in
it), and the **knee**: the most moves a second with p99 under :data:`KNEE_P99_MS`.

``--servers S --workers W``: S ``stairgames serve`` processes (S ``server`` lines in
nginx's ``upstream``), each ``--workers W``. ``--fault kill-worker`` sends SIGKILL to
one worker process (the first server's; with ``--workers`` above 1, one of uvicorn's
children, which its supervisor may start again) once every game has moved a few
times; ``--fault restart-postgresql`` stops PostgreSQL as a crash would (``pg_ctl -m
immediate``) for ``--down`` seconds and starts it again, polling each server's
``/readyz`` meanwhile.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import http.client
import json
import os
import random
import signal
import statistics
import tempfile
import time
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets
from prometheus_client.parser import text_string_to_metric_families

from stairgames.bench.output import median_p99_ms
from stairgames.bench.site import UNVERIFIED, Site, answers, running_site
from stairgames.server.ops.health import LATENCY_BUCKETS

ADDRESSES = 250
"""Loopback addresses the clients come from (127.0.0.2 and on): nginx's 20 sockets per
address then hold 5,000 seats."""
KNEE_P99_MS = 50.0
"""The latency a step's p99 must stay under to count below the knee."""
FIRST_MOVES = 2
"""Moves every game has made before a fault is caused."""


NEW_GAME = b'{"game": "stairs", "seats": ["human", "online"]}'
OFFER = "offer"
"""The move that offers to end a game by agreement, which the clients never play."""


def address_of(game: int) -> str:
    return f"127.0.0.{2 + game % ADDRESSES}"


# ----- setting games up ------------------------------------------------------------


def post(site: Site, path: str, source: str) -> dict[str, Any]:
    """A POST through nginx from ``source`` (an address of its own)."""
    connection = http.client.HTTPSConnection(
        "127.0.0.1", site.https, timeout=30, context=UNVERIFIED, source_address=(source, 0)
    )
    try:
        body = NEW_GAME if path == "/api/matches" else b"{}"
        headers = {"Content-Type": "application/json"}
        connection.request("POST", path, body=body, headers=headers)
        answer = connection.getresponse()
        text = answer.read()
        if answer.status != 200:
            raise RuntimeError(f"POST {path}: {answer.status} {text[:200]!r}")
        loaded: dict[str, Any] = json.loads(text)
        return loaded
    finally:
        connection.close()


@dataclass
class Fault:
    """The fault of a run: when it was caused (``time.perf_counter``), what was seen of
    it, and (``hold``) a gate that keeps every game from moving past :data:`FIRST_MOVES`
    until it is caused (so that every game is under way then: the test's way)."""

    hold: bool = False
    at: float | None = None
    figures: dict[str, str] = field(default_factory=dict)
    gate: asyncio.Event = field(default_factory=asyncio.Event)

    async def wait(self, index: int) -> None:
        """Before move ``index``: wait for the fault if the run holds the games for it."""
        if self.hold and index >= FIRST_MOVES:
            await self.gate.wait()

    def caused(self) -> None:
        self.at = time.perf_counter()
        self.gate.set()


@dataclass
class Game:
    number: int
    match: str
    tokens: list[str]
    moves: int
    """Moves to play (fewer if the game ends first)."""
    sent: dict[int, tuple[float, int]] = field(default_factory=dict)
    """Move index (its place in the history) -> when its sender last sent it, and who."""
    accepted: set[int] = field(default_factory=set)
    """Moves their sender saw in a state (committed)."""
    received: dict[tuple[int, int], float] = field(default_factory=dict)
    """(move index, seat) -> when that seat first received it."""
    history: list[str] = field(default_factory=list)
    """The longest history any seat received."""
    finished: set[int] = field(default_factory=set)
    connections: list[int] = field(default_factory=lambda: [0, 0])
    """How many times each seat connected."""
    cut_at: dict[int, float] = field(default_factory=dict)
    """Seat -> when its socket closed under it (until it receives a state again)."""
    resumed: list[float] = field(default_factory=list)
    """Seconds from a fault to each cut seat's first state again."""
    refused: int = 0
    """Requests the server answered with an error (then the client asks for a state)."""
    fault: Fault = field(default_factory=Fault)
    """The run's fault (one for all its games)."""
    first_state: dict[int, float] = field(default_factory=dict)
    """Seat -> when it received its first state."""

    def note_state(self, seat: int, history: list[str], now: float) -> None:
        """``seat`` received a state with ``history``."""
        self.first_state.setdefault(seat, now)
        for index in range(len(history)):
            self.received.setdefault((index, seat), now)
            if index in self.sent and self.sent[index][1] == seat:
                self.accepted.add(index)
        if len(history) > len(self.history):
            self.history = list(history)

    def _opponent(self, index: int) -> tuple[int, int]:
        return index, 1 - self.sent[index][1]

    def latencies(self, since: float = 0.0) -> list[float]:
        """Seconds from each accepted move sent (at ``since`` or later) to the other seat
        receiving it."""
        return [
            self.received[self._opponent(index)] - self.sent[index][0]
            for index in self.accepted
            if self._opponent(index) in self.received and self.sent[index][0] >= since
        ]

    def lost(self) -> int:
        unseen = sum(1 for i in self.accepted if self._opponent(i) not in self.received)
        missing = sum(1 for i in self.accepted if i >= len(self.history))
        return unseen + missing

    def duplicated(self) -> int:
        return max(0, len(self.history) - len(self.accepted))


async def play_seat(site: Site, game: Game, seat: int, rng: random.Random, think: float) -> None:
    """One seat's client: connect, play, connect again when cut, until the game is done."""
    url = f"{site.wss}/ws/matches/{game.match}?auth=message"
    wait = 0.1
    while seat not in game.finished:
        try:
            async with websockets.connect(
                url,
                ssl=UNVERIFIED,
                origin=site.url,  # type: ignore[arg-type]
                local_addr=(address_of(game.number), 0),
                open_timeout=30,
                ping_interval=None,
                max_size=2**22,
            ) as ws:
                game.connections[seat] += 1
                await ws.send(json.dumps({"type": "hello", "token": game.tokens[seat]}))
                await _play(ws, game, seat, rng, think)
        except (OSError, TimeoutError, websockets.WebSocketException):
            pass
        if seat not in game.finished:  # cut: connect again, a little later each time
            game.cut_at.setdefault(seat, time.perf_counter())
            await asyncio.sleep(wait * rng.uniform(0.5, 1.5))
            wait = min(2.0, wait * 2)


async def _play(ws: Any, game: Game, seat: int, rng: random.Random, think: float) -> None:
    moving: asyncio.Task[None] | None = None
    moved_at: int | None = None
    """The event this seat last moved at (a state at it again asks for no second move)."""
    try:
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] == "error":  # refused: ask for the state, move again
                game.refused += 1
                moved_at = None
                await ws.send(json.dumps({"type": "sync"}))
                continue
            if message["type"] != "state":
                continue
            now = time.perf_counter()
            _resumed(game, seat, now)
            history = message["history"]
            game.note_state(seat, history, now)
            if message["result"] is not None or len(history) >= game.moves:
                game.finished.add(seat)
                return
            if message["to_act"] == seat and message["event"] != moved_at:
                moved_at = message["event"]
                if moving is not None:
                    moving.cancel()
                moving = asyncio.ensure_future(_move(ws, game, seat, message, rng, think))
    finally:
        if moving is not None:
            moving.cancel()


def _resumed(game: Game, seat: int, now: float) -> None:
    """The seat's first state since its socket was cut: how long since the fault."""
    cut, at = game.cut_at.pop(seat, None), game.fault.at
    if cut is not None and at is not None and cut >= at:
        game.resumed.append(now - at)


def move_of_play(legal: list[str], rng: random.Random) -> str:
    """A move drawn from ``legal``, never an offer to end the game by agreement (Stairs'
    S7): the other seat might accept it and end the game short of the moves the run
    counts on (a test failed so, 79 moves of 80, after a fault changed which moves two
    clients drew)."""
    return rng.choice([move for move in legal if move != OFFER] or legal)


async def _move(
    ws: Any, game: Game, seat: int, state: dict[str, Any], rng: random.Random, think: float
) -> None:
    if think > 0:
        await asyncio.sleep(rng.uniform(0.0, 2.0 * think))
    await game.fault.wait(len(state["history"]))
    game.sent[len(state["history"])] = (time.perf_counter(), seat)
    move = move_of_play(state["legal"], rng)
    await ws.send(json.dumps({"type": "move", "move": move, "event": state["event"]}))


# ----- faults ------------------------------------------------------------------------


async def kill_worker(site: Site, games: list[Game], fault: Fault) -> None:
    """SIGKILL one worker of the first server once every game has moved
    :data:`FIRST_MOVES` times; whether its supervisor started another."""
    await _until(lambda: all(len(g.history) >= FIRST_MOVES for g in games))
    server = site.servers[0]
    before = server.workers()
    victim = before[0]
    cut = sum(g.connections[0] + g.connections[1] for g in games)
    os.kill(victim, signal.SIGKILL)
    fault.caused()
    await _until(lambda: all(len(g.finished) == 2 for g in games), seconds=600)
    after = server.workers()
    fault.figures["killed"] = f"pid {victim} of {before} (server :{server.port})"
    replaced = victim not in after and len(after) == len(before)
    fault.figures["workers after"] = f"{after} ({'one new' if replaced else 'not replaced'})"
    fault.figures["connections before the kill"] = str(cut)


async def restart_postgresql(site: Site, games: list[Game], fault: Fault, down: float) -> None:
    """Stop PostgreSQL as a crash would, start it ``down`` s later; each server's
    ``/readyz`` polled meanwhile."""
    await _until(lambda: all(len(g.history) >= FIRST_MOVES for g in games))
    loop = asyncio.get_running_loop()
    polls = [asyncio.ensure_future(_poll_ready(loop, server.url, fault)) for server in site.servers]
    fault.caused()
    assert fault.at is not None
    await loop.run_in_executor(None, site.postgresql.stop)
    stopped = time.perf_counter() - fault.at
    await asyncio.sleep(down)
    started_at = time.perf_counter()
    await loop.run_in_executor(None, site.postgresql.start)
    back = time.perf_counter()
    moved_before = sum(len(g.history) for g in games)
    await _until(lambda: sum(len(g.history) for g in games) > moved_before, seconds=300)
    first_move = time.perf_counter() - back
    await _until(lambda: all(len(g.finished) == 2 for g in games), seconds=600)
    for poll in polls:
        poll.cancel()
    spans = [await _span(poll) for poll in polls]
    fault.figures["PostgreSQL down"] = (
        f"{back - fault.at:.1f} s (stop {stopped:.1f} s, down {down:g} s, start "
        f"{back - started_at:.1f} s)"
    )
    fault.figures["first move committed after the start"] = f"{first_move:.2f} s"
    for server, span in zip(site.servers, spans, strict=True):
        fault.figures[f"/readyz of :{server.port} not 200"] = span


async def _poll_ready(
    loop: asyncio.AbstractEventLoop, url: str, fault: Fault
) -> list[tuple[float, int]]:
    """(time since the fault, status) of ``/readyz`` every 0.1 s, until cancelled."""
    seen: list[tuple[float, int]] = []
    try:
        while True:
            status = await loop.run_in_executor(None, answers, f"{url}/readyz", 6.0)
            seen.append((time.perf_counter() - (fault.at or 0.0), status or 0))
            await asyncio.sleep(0.1)
    except asyncio.CancelledError:
        return seen


async def _span(poll: asyncio.Future[list[tuple[float, int]]]) -> str:
    seen = await poll
    bad = [at for at, status in seen if status != 200]
    if not bad:
        return "never (200 throughout)"
    return f"from {min(bad):.1f} s to {max(bad):.1f} s after the stop ({len(bad)} polls)"


async def _until(condition: Callable[[], bool], seconds: float = 300) -> None:
    deadline = time.perf_counter() + seconds
    while not condition():
        if time.perf_counter() > deadline:
            raise TimeoutError(f"not within {seconds} s")
        await asyncio.sleep(0.05)


# ----- a run -------------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    games: int
    moves: int
    seconds: float
    median_ms: float
    p99_ms: float
    steady: tuple[float, int, float, float]
    """From the moment every seat had its first state: (seconds after the first one,
    moves, median ms, p99 ms); the moves before it met thousands of sockets opening."""
    lost: int
    duplicated: int
    unfinished: int
    reconnections: int
    refused: int
    resumed: list[float]
    """Seconds from the fault to each seat cut by it receiving a state again."""
    still_cut: int
    """Seats cut that never received a state again."""
    fault: dict[str, str]


@dataclass(frozen=True)
class Plan:
    """How a run plays: each player's mean thinking time (0: flat out), the fault to
    cause (``None``, ``kill-worker``, ``restart-postgresql``) and how long PostgreSQL
    stays down, the seed of the players' choices, and the most the run may take."""

    think: float
    fault: str | None = None
    down: float = 3.0
    seed: int = 1
    timeout: float = 900.0


def new_games(site: Site, count: int, moves: int, fault: Fault) -> list[Game]:
    """``count`` Stairs games made through nginx, both seats taken (from one address)."""

    def make(number: int) -> Game:
        source = address_of(number)
        created = post(site, "/api/matches", source)
        joined = post(site, f"/api/matches/{created['match']}/join", source)
        tokens = [created["seats"][0]["token"], joined["token"]]
        return Game(number, created["match"], tokens, moves, fault=fault)

    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(make, range(count)))


async def play(site: Site, games: list[Game], plan: Plan) -> float:
    """Play ``games`` to their end (causing the plan's fault): the seconds taken."""
    rng = random.Random(plan.seed)
    started = time.perf_counter()
    jobs = [
        play_seat(site, game, seat, random.Random(rng.random()), plan.think)
        for game in games
        for seat in (0, 1)
    ]
    fault = games[0].fault
    if plan.fault == "kill-worker":
        jobs.append(kill_worker(site, games, fault))
    elif plan.fault == "restart-postgresql":
        jobs.append(restart_postgresql(site, games, fault, plan.down))
    await asyncio.wait_for(asyncio.gather(*jobs), timeout=plan.timeout)
    return time.perf_counter() - started


def run(
    site: Site, count: int, moves: int, plan: Plan, *, hold: bool = False
) -> tuple[list[Game], float]:
    """``count`` new games of ``moves`` moves played on ``site`` as ``plan`` says
    (``hold``: see :class:`Fault`): the games, and the seconds taken (the plan's
    timeout if they did not all finish)."""
    games = new_games(site, count, moves, Fault(hold=hold))
    gc.collect()
    gc.freeze()  # the clients' full collections, too, would stop all 2,000 sockets
    try:
        seconds = asyncio.run(play(site, games, plan))
    except TimeoutError:
        seconds = plan.timeout
    return games, seconds


def _median_p99_ms(latencies: list[float]) -> tuple[float, float]:
    return median_p99_ms(latencies) if latencies else (0.0, 0.0)


def summarize(games: list[Game], seconds: float) -> Result:
    """The run's figures."""
    median, p99 = _median_p99_ms([x for g in games for x in g.latencies()])
    opened = [t for g in games for t in g.first_state.values()] or [0.0]
    everyone_in, started = max(opened), min(opened)
    steady = [x for g in games for x in g.latencies(since=everyone_in)]
    return Result(
        games=len(games),
        moves=sum(len(g.accepted) for g in games),
        seconds=seconds,
        median_ms=median,
        p99_ms=p99,
        steady=(everyone_in - started, len(steady), *_median_p99_ms(steady)),
        lost=sum(g.lost() for g in games),
        duplicated=sum(g.duplicated() for g in games),
        unfinished=sum(1 for g in games if len(g.finished) < 2),
        reconnections=sum(sum(g.connections) - 2 for g in games),
        refused=sum(g.refused for g in games),
        resumed=sorted(x for g in games for x in g.resumed),
        still_cut=sum(len(g.cut_at) for g in games),
        fault=games[0].fault.figures if games else {},
    )


# ----- CPU per move --------------------------------------------------------------------


def family(pid: int) -> list[int]:
    """``pid`` and every process under it alive now (Linux's ``/proc``)."""
    found, waiting = [], [pid]
    while waiting:
        current = waiting.pop()
        found.append(current)
        for task in Path(f"/proc/{current}/task").glob("*/children"):
            with contextlib.suppress(OSError, ValueError):
                waiting += [int(child) for child in task.read_text().split()]
    return found


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU seconds of ``pids`` and of their children that ended and were
    waited for (so a family's total never drops when one of its processes ends, as
    PostgreSQL's backends do, whose CPU passes to the postmaster); those gone count
    nothing."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += sum(int(value) for value in fields[11:15])  # utime stime cutime cstime
    return total / ticks


def cpu_by_process(site: Site) -> dict[str, float]:
    """CPU seconds so far of each server process (with its workers and computer
    players), of PostgreSQL (every backend), of nginx (its workers) and of this process
    (the load generator: every client's socket): what bounds the site on a machine that
    runs them all."""
    used = {
        f"server {number}": cpu_seconds(family(server.process.pid))
        for number, server in enumerate(site.servers, 1)
    }
    postmaster = site.postgresql.postmaster()
    if postmaster is not None:
        used["postgresql"] = cpu_seconds(family(postmaster))
    with contextlib.suppress(OSError, ValueError):
        master = int((site.folder / "nginx" / "nginx.pid").read_text())
        used["nginx"] = cpu_seconds(family(master))
    used["load generator"] = cpu_seconds([os.getpid()])  # the clients: this process
    return used


SERVER_PART = "stairgames_socket_request_seconds"
"""The servers' histogram of a move's time from its receipt to its views sent."""
LOOP_LAG = "stairgames_event_loop_lag_seconds"
"""The servers' histogram of how late their event loops woke a sleeping task."""


def server_buckets(
    site: Site, histogram: str = SERVER_PART, labels: dict[str, str] | None = None
) -> dict[float, float]:
    """The observations of ``histogram`` (with these ``labels``; by default
    :data:`SERVER_PART` of moves) so far, by the upper bound of their bucket, read from
    each server's ``/metrics`` on loopback and summed over the servers:
    ``{seconds: observations at most that long}``."""
    wanted = {"type": "move"} if labels is None else labels
    counts: dict[float, float] = {}
    for server in site.servers:
        try:
            with urllib.request.urlopen(f"{server.url}/metrics", timeout=10) as answer:
                text = answer.read().decode()
        except OSError:  # a server gone (a fault): its moves are left out
            continue
        for family in text_string_to_metric_families(text):
            if family.name != histogram:
                continue
            for sample in family.samples:
                matches = all(sample.labels.get(k) == v for k, v in wanted.items())
                if sample.name.endswith("_bucket") and matches:
                    bound = float(sample.labels["le"])
                    counts[bound] = counts.get(bound, 0.0) + sample.value
    return counts


def bucket_quantile(
    before: dict[float, float], after: dict[float, float], share: float
) -> float | None:
    """The upper bound of the bucket that holds the ``share`` quantile of what was
    observed between two readings of :func:`server_buckets` (seconds; ``inf``: above
    the last bucket; ``None``: nothing observed)."""
    total = after.get(float("inf"), 0.0) - before.get(float("inf"), 0.0)
    if total <= 0:
        return None
    for bound in sorted(after):
        if after[bound] - before.get(bound, 0.0) >= share * total:
            return bound
    return float("inf")


@dataclass(frozen=True)
class Step:
    """One step of ``--rates``: the rate asked, the run's figures, the CPU
    milliseconds per move of each process (:func:`cpu_by_process`), and the servers'
    own part of a move's p99 (:func:`server_buckets`; seconds, a bucket's upper bound)."""

    rate: float
    result: Result
    cpu_ms_per_move: dict[str, float]
    server_p99: float | None = None
    loop_lag_p99: float | None = None

    @property
    def moves_per_second(self) -> float:
        return self.result.moves / self.result.seconds if self.result.seconds else 0.0


def capacity(site: Site, args: argparse.Namespace, rates: list[float]) -> list[Step]:
    """One run a rate, each of new games paced to send about that many moves a second."""
    steps = []
    for rate in rates:
        plan = Plan(args.games / rate, None, args.down, args.seed, args.timeout)
        buckets = server_buckets(site)
        lags = server_buckets(site, LOOP_LAG, {})
        before = cpu_by_process(site)
        result = summarize(*run(site, args.games, args.moves, plan))
        after = cpu_by_process(site)
        moves = max(1, result.moves)
        used = {name: (after[name] - before.get(name, 0.0)) * 1000 / moves for name in after}
        server_p99 = bucket_quantile(buckets, server_buckets(site), 0.99)
        lag_p99 = bucket_quantile(lags, server_buckets(site, LOOP_LAG, {}), 0.99)
        steps.append(Step(rate, result, used, server_p99, lag_p99))
    return steps


def knee(steps: list[Step]) -> Step | None:
    """The step with the most moves a second whose p99 stayed under :data:`KNEE_P99_MS`
    and which lost nothing."""
    under = [
        step
        for step in steps
        if step.result.p99_ms < KNEE_P99_MS and not step.result.lost and not step.result.duplicated
    ]
    return max(under, key=lambda step: step.moves_per_second, default=None)


def report_capacity(args: argparse.Namespace, steps: list[Step], before: str, after: str) -> None:
    layout = f"{args.servers} server(s) x --workers {args.workers}"
    print(f"capacity: {args.games} Stairs games a step over wss through nginx, {layout}")
    print(f"machine before: {before}; after: {after}")
    names = list(steps[0].cpu_ms_per_move) if steps else []
    print(
        "| asked moves/s | moves/s | median ms | p99 ms | servers' p99 ms | loop lag p99 ms "
        "| lost | duplicated | " + " | ".join(f"{name} CPU ms/move" for name in names) + " |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|" + "---:|" * len(names))
    for step in steps:
        result = step.result
        cpu = " | ".join(f"{step.cpu_ms_per_move.get(name, 0.0):.2f}" for name in names)
        print(
            f"| {step.rate:g} | {step.moves_per_second:.0f} | {result.median_ms:.1f} "
            f"| {result.p99_ms:.1f} | {_at_most_ms(step.server_p99)} "
            f"| {_at_most_ms(step.loop_lag_p99)} | {result.lost} "
            f"| {result.duplicated} | {cpu} |"
        )
    print(
        "servers' p99: the 99th percentile of a move's time inside the servers, from its "
        f"receipt to its views sent ({SERVER_PART}); loop lag p99: of how late their "
        f"event loops woke a sleeping task ({LOOP_LAG}); each as the upper bound of its "
        "bucket"
    )
    best = knee(steps)
    if best is None:
        print(f"knee: no step kept p99 under {KNEE_P99_MS:g} ms")
    else:
        print(
            f"knee (p99 under {KNEE_P99_MS:g} ms): {best.moves_per_second:.0f} moves/s "
            f"(asked {best.rate:g})"
        )
    print("command: python -m benchmarks.site_load " + " ".join(args.argv))


def _at_most_ms(seconds: float | None) -> str:
    """A bucket's upper bound as the table shows it: ``≤ 25``, ``> 5000``, ``-``."""
    if seconds is None:
        return "-"
    if seconds == float("inf"):
        return f"> {LATENCY_BUCKETS[-1] * 1000:g}"
    return f"≤ {seconds * 1000:g}"


def conditions() -> str:
    load = os.getloadavg()
    return f"{os.cpu_count()} cores, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"


def report(args: argparse.Namespace, result: Result, before: str, after: str) -> None:
    layout = f"{args.servers} server(s) x --workers {args.workers}"
    pace = f"think {args.think:g} s" if args.think else "flat out"
    print(f"{result.games} Stairs games over wss through nginx, {layout}, {pace}")
    print(f"machine before: {before}; after: {after}")
    print(
        "| moves | moves/s | median ms | p99 ms | lost | duplicated | unfinished "
        "| reconnections | refused |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(
        f"| {result.moves} | {result.moves / result.seconds:.0f} | {result.median_ms:.1f} "
        f"| {result.p99_ms:.1f} | {result.lost} | {result.duplicated} | {result.unfinished} "
        f"| {result.reconnections} | {result.refused} |"
    )
    into, moves, median, p99 = result.steady
    print(
        f"once every socket was open ({into:.1f} s after the first): {moves} moves, "
        f"median {median:.1f} ms, p99 {p99:.1f} ms"
    )
    if args.fault:
        resumed = result.resumed
        print(f"fault: {args.fault}")
        for name, value in result.fault.items():
            print(f"  {name}: {value}")
        if resumed:
            print(
                f"  cut seats back (state received again): {len(resumed)}, from the fault "
                f"median {statistics.median(resumed):.2f} s, max {resumed[-1]:.2f} s; "
                f"never back: {result.still_cut}"
            )
    print("command: python -m benchmarks.site_load " + " ".join(args.argv))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=12, help="moves per game")
    parser.add_argument("--think", type=float, default=10.0, help="mean seconds before a move")
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--fault", choices=["kill-worker", "restart-postgresql"])
    parser.add_argument("--down", type=float, default=3.0, help="seconds PostgreSQL is down")
    parser.add_argument("--timeout", type=float, default=900.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--no-fsync",
        action="store_true",
        help="PostgreSQL without flushing to disk (not as deployed: to see what fsync costs)",
    )
    parser.add_argument(
        "--rates",
        default=None,
        help="comma-separated moves a second, one run each: the capacity and its knee",
    )
    import sys

    args = parser.parse_args(argv)
    args.argv = sys.argv[1:] if argv is None else argv
    with contextlib.ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="stairgames-site-")))
        layout = {"servers": args.servers, "workers": args.workers}
        site = stack.enter_context(running_site(folder, **layout, fsync=not args.no_fsync))
        before = conditions()
        if args.rates:
            steps = capacity(site, args, [float(rate) for rate in args.rates.split(",")])
            report_capacity(args, steps, before, conditions())
            return
        plan = Plan(args.think, args.fault, args.down, args.seed, args.timeout)
        result = summarize(*run(site, args.games, args.moves, plan))
        after = conditions()
    report(args, result, before, after)


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
