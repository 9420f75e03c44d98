"""Load benchmark of the web server (not a test): many simultaneous online games on
loopback, one WebSocket client per seat, against a real `stairgames serve` process.

Two runs of the same games, one table: "paced", where each player thinks before moving
(a random time, ``--think`` seconds on average; people take longer), and "flat out", where
every player answers at once. Paced, the server has spare time and the latency is its cost
per move; flat out, every game has a move waiting all the time, so the latency is the queue
(by Little's law about games / moves per second) and the moves per second are the
capacity. For each: moves per second, the median and 99th percentile of the time from a
move sent to the opponent receiving it, and the count of lost or duplicated moves (must be
0). Then the time from `stairgames serve` to its first answered request.

    python benchmarks/web_load.py [--games 200] [--moves 20] [--think 1.0]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any

import websockets

from stairgames.bench.output import median_p99_ms


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(port: int, data_dir: str) -> tuple[subprocess.Popen[bytes], float]:
    """The server process and the seconds until it answered its first request."""
    started = time.perf_counter()
    entry = "import sys; from stairgames.cli import main; sys.exit(main())"
    # every client of the benchmark is this machine: one address playing hundreds of
    # games would meet the per-address limits meant for hostile visitors
    command = [sys.executable, "-c", entry, "serve", "--port", str(port), "--no-client-limits"]
    process = subprocess.Popen(
        [*command, "--data-dir", data_dir], stdout=subprocess.DEVNULL, env=os.environ.copy()
    )
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=1) as r:
                r.read()
                return process, time.perf_counter() - started
        except OSError:
            if process.poll() is not None:
                raise SystemExit("the server did not start") from None
            time.sleep(0.02)


def post(port: int, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body or {}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


@dataclass
class Game:
    match: str
    tokens: list[str]
    moves: int
    sent_at: dict[int, tuple[float, int]] = field(default_factory=dict)
    """The event number a move made -> when it was sent, and by which seat (dice and
    draws that follow a move are later events of the same commit)."""
    received: dict[tuple[int, int], int] = field(default_factory=dict)
    """(move's event, seat) -> how many times that seat received it."""
    latencies: list[float] = field(default_factory=list)
    duplicated: int = 0
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    done: asyncio.Event = field(default_factory=asyncio.Event)
    sent: int = 0
    opened: int = 0
    """Seats whose socket received its first state (all of them: the game may start)."""

    def missing(self) -> int:
        """Moves some other seat has not received (yet: lost, once the game is done)."""
        seats = range(len(self.tokens))
        return sum(
            1
            for event, (_, sender) in self.sent_at.items()
            for seat in seats
            if seat != sender and (event, seat) not in self.received
        )

    def note_received(self, seat: int, event: int, previous: int) -> None:
        """A state at ``event`` reached ``seat``, whose last one was at ``previous``."""
        now = time.perf_counter()
        for move, (sent, sender) in self.sent_at.items():
            if sender == seat or move > event:
                continue
            key = (move, seat)
            if key not in self.received:
                self.received[key] = 1
                self.latencies.append(now - sent)
            elif event == previous == move:
                self.received[key] += 1
                self.duplicated += 1


async def play_seat(port: int, game: Game, seat: int, rng: random.Random, think: float) -> None:
    url = f"ws://127.0.0.1:{port}/ws/matches/{game.match}?auth=message"
    async with websockets.connect(url, max_size=2**22) as ws:
        # the seat's token as the first message, as the page sends it (never in the address)
        await ws.send(json.dumps({"type": "hello", "token": game.tokens[seat]}))
        acted = -1
        previous = (-1, ())
        while not game.done.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
            except TimeoutError:
                continue
            message = json.loads(raw)
            if message["type"] != "state" or game.done.is_set():
                continue
            event = message["event"]
            connected = tuple(s["connected"] for s in message["seats"])
            if previous[0] == -1:  # this seat's first state (other processes' seats are
                game.opened += 1  # not marked connected here: count the sockets instead)
            if all(connected) or game.opened == len(game.tokens):
                game.ready.set()
            if (event, connected) == previous:
                game.note_received(seat, event, event)  # the same state again
            elif event != previous[0]:
                game.note_received(seat, event, -1)
            previous = (event, connected)
            over = message["result"] is not None or game.sent >= game.moves
            if over and game.missing() == 0:
                game.done.set()
                break
            if message["to_act"] == seat and event > acted and not over:
                await game.ready.wait()
                if think > 0:
                    await asyncio.sleep(rng.uniform(0.0, 2.0 * think))
                acted = event
                game.sent_at[event + 1] = (time.perf_counter(), seat)
                game.sent += 1
                move = rng.choice(message["legal"])
                await ws.send(json.dumps({"type": "move", "move": move, "event": event}))


async def run_games(port: int, games: list[Game], seed: int, think: float) -> float:
    rng = random.Random(seed)
    started = time.perf_counter()
    await asyncio.gather(
        *(
            play_seat(port, g, s, random.Random(rng.random()), think)
            for g in games
            for s in range(len(g.tokens))
        )
    )
    return time.perf_counter() - started


def new_games(port: int, kind: Kind, count: int, moves: int) -> list[Game]:
    """``count`` online games of ``kind``, every seat taken by its own client."""
    options = {"players": kind.seats} if kind.seats != 2 else {}
    seats = ["human"] + ["online"] * (kind.seats - 1)
    games = []
    for _ in range(count):
        created = post(
            port, "/api/matches", {"game": kind.game, "options": options, "seats": seats}
        )
        tokens = [created["seats"][0]["token"]]
        for _ in range(kind.seats - 1):
            tokens.append(post(port, f"/api/matches/{created['match']}/join")["token"])
        games.append(Game(created["match"], tokens, moves))
    return games


@dataclass(frozen=True)
class Kind:
    """A game and its number of seats, written ``stairs:2``."""

    game: str
    seats: int

    @classmethod
    def parse(cls, text: str) -> Kind:
        game, _, seats = text.partition(":")
        return cls(game, int(seats or 2))

    def __str__(self) -> str:
        return f"{self.game}:{self.seats}"


@dataclass(frozen=True)
class Run:
    name: str
    moves: int
    seconds: float
    median_ms: float
    p99_ms: float
    lost: int
    duplicated: int

    @classmethod
    def of(cls, name: str, games: list[Game], seconds: float) -> Run:
        """The figures of ``games`` played in ``seconds``."""
        median_ms, p99_ms = median_p99_ms([x for g in games for x in g.latencies])
        return cls(
            name=name,
            moves=sum(g.sent for g in games),
            seconds=seconds,
            median_ms=median_ms,
            p99_ms=p99_ms,
            lost=sum(g.missing() for g in games),
            duplicated=sum(g.duplicated for g in games),
        )

    def row(self) -> str:
        return (
            f"| {self.name:<38} | {self.moves:>6} | {self.moves / self.seconds:>8.0f} "
            f"| {self.median_ms:>9.1f} | {self.p99_ms:>8.1f} | {self.lost:>4} "
            f"| {self.duplicated:>10} |"
        )


HEADER = (
    "| run                                    |  moves |  moves/s | median ms |   p99 ms | lost "
    "| duplicated |\n"
    "|----------------------------------------|-------:|---------:|----------:|---------:|-----:"
    "|-----------:|"
)


def measure(name: str, port: int, args: argparse.Namespace, kind: Kind, think: float) -> Run:
    games = new_games(port, kind, args.games, args.moves)
    seconds = asyncio.run(run_games(port, games, args.seed, think))
    return Run.of(name, games, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=20, help="moves per game")
    parser.add_argument(
        "--think", type=float, default=1.0, help="mean seconds a paced player thinks"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--kinds",
        default="stairs:2,ishigaki_race:4,city_of_stairs:4",
        help="games and seat counts to run, e.g. stairs:2,city_of_stairs:4",
    )
    args = parser.parse_args()
    kinds = [Kind.parse(text) for text in args.kinds.split(",")]
    with tempfile.TemporaryDirectory() as data_dir:
        port = free_port()
        process, cold = start_server(port, data_dir)
        process.terminate()
        process.wait()
        process, warm = start_server(port, data_dir)
        try:
            runs = []
            for kind in kinds:
                paced = f"{kind} paced (think {args.think:g} s)"
                runs.append(measure(paced, port, args, kind, args.think))
                runs.append(measure(f"{kind} flat out (think 0 s)", port, args, kind, 0.0))
        finally:
            process.terminate()
            process.wait()
    print(f"{args.games} simultaneous online games per run, one client per seat, loopback")
    print("latency: a move sent -> each other seat received it; lost: never received")
    print(HEADER)
    for run in runs:
        print(run.row())
    print(f"stairgames serve -> first answered request: {cold:.2f} s cold, {warm:.2f} s warm")


if __name__ == "__main__":
    main()
