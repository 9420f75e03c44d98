"""Load benchmark of the web server (not a test): many simultaneous online games of Stairs
on loopback, two WebSocket clients each, against a real `stairgames serve` process.

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
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any

import websockets


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(port: int, data_dir: str) -> tuple[subprocess.Popen[bytes], float]:
    """The server process and the seconds until it answered its first request."""
    started = time.perf_counter()
    entry = "import sys; from stairgames.cli import main; sys.exit(main())"
    command = [sys.executable, "-c", entry, "serve", "--port", str(port)]
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
    """Event number a move will make -> when it was sent, and by which seat."""
    received: dict[int, int] = field(default_factory=dict)
    """Event number -> how many times the opponent received it."""
    latencies: list[float] = field(default_factory=list)
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    done: asyncio.Event = field(default_factory=asyncio.Event)
    sent: int = 0


async def play_seat(port: int, game: Game, seat: int, rng: random.Random, think: float) -> None:
    url = f"ws://127.0.0.1:{port}/ws/matches/{game.match}?token={game.tokens[seat]}"
    async with websockets.connect(url, max_size=2**22) as ws:
        acted = -1
        while not game.done.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
            except TimeoutError:
                continue
            message = json.loads(raw)
            if message["type"] != "state":
                continue
            event = message["event"]
            if all(s["connected"] for s in message["seats"]):
                game.ready.set()
            if event in game.sent_at and game.sent_at[event][1] != seat:
                game.received[event] = game.received.get(event, 0) + 1
                if game.received[event] == 1:
                    game.latencies.append(time.perf_counter() - game.sent_at[event][0])
            over = message["result"] is not None or game.sent >= game.moves
            if over and game.sent == len(game.received):
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
        *(play_seat(port, g, s, random.Random(rng.random()), think) for g in games for s in (0, 1))
    )
    return time.perf_counter() - started


def new_games(port: int, count: int, moves: int) -> list[Game]:
    games = []
    for _ in range(count):
        created = post(port, "/api/matches", {"game": "stairs", "seats": ["human", "online"]})
        joined = post(port, f"/api/matches/{created['match']}/join")
        tokens = [created["seats"][0]["token"], joined["token"]]
        games.append(Game(created["match"], tokens, moves))
    return games


@dataclass(frozen=True)
class Run:
    name: str
    moves: int
    seconds: float
    median_ms: float
    p99_ms: float
    lost: int
    duplicated: int

    def row(self) -> str:
        return (
            f"| {self.name:<22} | {self.moves:>6} | {self.moves / self.seconds:>8.0f} "
            f"| {self.median_ms:>9.1f} | {self.p99_ms:>8.1f} | {self.lost:>4} "
            f"| {self.duplicated:>10} |"
        )


HEADER = (
    "| run                    |  moves |  moves/s | median ms |   p99 ms | lost | duplicated |\n"
    "|------------------------|-------:|---------:|----------:|---------:|-----:|-----------:|"
)


def measure(name: str, port: int, args: argparse.Namespace, think: float) -> Run:
    games = new_games(port, args.games, args.moves)
    seconds = asyncio.run(run_games(port, games, args.seed, think))
    latencies = sorted(x for g in games for x in g.latencies)
    p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))]
    return Run(
        name=name,
        moves=sum(g.sent for g in games),
        seconds=seconds,
        median_ms=statistics.median(latencies) * 1000,
        p99_ms=p99 * 1000,
        lost=sum(1 for g in games for e in g.sent_at if e not in g.received),
        duplicated=sum(n - 1 for g in games for n in g.received.values() if n > 1),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=20, help="moves per game")
    parser.add_argument(
        "--think", type=float, default=1.0, help="mean seconds a paced player thinks"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data_dir:
        port = free_port()
        process, cold = start_server(port, data_dir)
        process.terminate()
        process.wait()
        process, warm = start_server(port, data_dir)
        try:
            runs = [
                measure(f"paced (think {args.think:g} s)", port, args, args.think),
                measure("flat out (think 0 s)", port, args, 0.0),
            ]
        finally:
            process.terminate()
            process.wait()
    print(f"{args.games} simultaneous online games of Stairs, 2 clients each, loopback")
    print("latency: a move sent -> the opponent received it")
    print(HEADER)
    for run in runs:
        print(run.row())
    print(f"stairgames serve -> first answered request: {cold:.2f} s cold, {warm:.2f} s warm")


if __name__ == "__main__":
    main()
