"""A person's computer opponent while many matches of computers only run (not a test):
issue 48's finding 3, where 20 City of Stairs matches of four ``computer:expert`` seats
made a person's ``computer:medium`` reply take 19-28 s instead of 0.07 s.

One server (uvicorn on loopback, SQLite, one computer worker for the matches people
play, as ``stairgames serve`` has by default), made with :class:`Settings` raised for the
run: ``--load`` matches of computers only (40 by default) where a server lets in 8, and
all from one address where one lets in 2 (``computer_only_matches`` and
``computer_only_per_player``), and a match creation allowance to make them at once. A
person plays Stairs against ``computer:medium`` through a WebSocket: each reply is the
time from the person's move sent to the state in which the computer has answered (the
person's commit, the computer's turn in the pool, its thinking, its commit and the
view; the person thinks ``--think`` seconds before each move). ``--replies`` replies are
timed without load, then the load's matches are made (City of Stairs, four
``computer:expert`` seats each), and after ``--settle`` seconds as many replies are timed
again. (Run on code from before the limits, with ``PYTHONPATH`` naming its ``src``, the
server takes the Settings it knows.) The table gives the median, 95th percentile and maximum of
each, the moves the computers-only matches made meanwhile (they think in a lane of their
own, one process, in turn), the load average and the cores.

    python -m benchmarks.computer_fairness [--load 40] [--replies 30] [--settle 10]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

from stairgames.bench.postgresql import free_port

ROOT = Path(__file__).resolve().parent.parent
READY_SECONDS = 180.0
DEADLINE = 120.0
"""Seconds any one answer may take before the run fails (a hung run otherwise)."""
LOAD_SEATS = ["computer:expert"] * 4
PERSON_SEATS = ["human", "computer:medium"]
SERVER = """
import dataclasses
import sys
import uvicorn
from pathlib import Path
from stairgames.server.base.settings import Settings
from stairgames.server.app import create_app
from stairgames.server.base.limits import Rate

load = int(sys.argv[3])
raised = {
    "computer_only_matches": load,  # raised for the run: a server lets in 8
    "computer_only_per_player": load,  # and one address 2
    "matches_per_minute": Rate(per_minute=10_000, burst=10_000),
}
known = {field.name for field in dataclasses.fields(Settings)}  # older code: fewer
settings = Settings(data_dir=Path(sys.argv[2]), **{k: v for k, v in raised.items() if k in known})
uvicorn.run(create_app(settings), host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
"""


def start_server(port: int, data_dir: str, load: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(port), data_dir, str(load)], cwd=ROOT
    )
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            pass
        if process.poll() is not None:
            raise SystemExit("the server did not start")
        time.sleep(0.2)
    process.kill()
    raise SystemExit("the server did not answer in time")


def create(client: httpx.Client, game: str, seats: list[str], **options: Any) -> dict[str, Any]:
    body = {"game": game, "options": options, "seats": seats}
    answer = client.post("/api/matches", json=body, timeout=DEADLINE)
    if answer.status_code != 200:
        raise SystemExit(f"POST /api/matches: {answer.status_code} {answer.text[:200]}")
    created: dict[str, Any] = answer.json()
    return created


async def next_state(ws: Any) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), DEADLINE))
        if message["type"] == "state":
            return message


async def timed_replies(
    port: int, client: httpx.Client, count: int, think: float = 0.0
) -> list[float]:
    """``count`` replies of ``computer:medium`` to a person's moves (a new match whenever
    one ends), in seconds; the person thinks ``think`` seconds before each move."""
    replies: list[float] = []
    while len(replies) < count:
        created = create(client, "stairs", PERSON_SEATS)
        url = f"ws://127.0.0.1:{port}/ws/matches/{created['match']}?auth=message"
        token = next(s["token"] for s in created["seats"] if s["seat"] == 0)
        async with websockets.connect(url, max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            state = await next_state(ws)
            while state["result"] is None and len(replies) < count:
                if state["to_act"] != 0 or state["thinking"]:
                    state = await next_state(ws)
                    continue
                await asyncio.sleep(think)
                sent = time.perf_counter()
                move = state["legal"][0]
                await ws.send(json.dumps({"type": "move", "move": move, "event": state["event"]}))
                event = state["event"]
                while True:
                    state = await next_state(ws)
                    if state["result"] is not None:
                        break
                    if state["event"] > event + 1 and state["to_act"] == 0:
                        replies.append(time.perf_counter() - sent)
                        break
    return replies


def load_moves(client: httpx.Client, matches: list[str]) -> int:
    """The moves the load's matches have made so far."""
    return sum(len(client.get(f"/api/matches/{m}").json()["history"]) for m in matches)


def row(name: str, replies: list[float], moves: str) -> str:
    ordered = sorted(replies)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    figures = (statistics.median(ordered), p95, ordered[-1])
    cells = " | ".join(f"{value * 1000:.0f}" for value in figures)
    return f"| {name} | {len(ordered)} | {cells} | {moves} | {os.getloadavg()[0]:.2f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--load", type=int, default=40, help="matches of computers only")
    parser.add_argument("--replies", type=int, default=30, help="replies timed per row")
    parser.add_argument("--settle", type=float, default=10.0, help="seconds the load runs first")
    parser.add_argument("--think", type=float, default=0.5, help="the person's seconds a move")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as data_dir:
        server = start_server(port, data_dir, args.load)
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}") as client:
                asyncio.run(timed_replies(port, client, 3))  # the medium player prepared
                quiet = asyncio.run(timed_replies(port, client, args.replies, args.think))
                quiet_row = row("no load", quiet, "-")
                matches = [
                    create(client, "city_of_stairs", LOAD_SEATS, players=4)["match"]
                    for _ in range(args.load)
                ]
                time.sleep(args.settle)
                before = load_moves(client, matches)
                started = time.perf_counter()
                loaded = asyncio.run(timed_replies(port, client, args.replies, args.think))
                seconds = time.perf_counter() - started
                made = load_moves(client, matches) - before
                loaded_row = row(
                    f"{args.load} computer-only matches", loaded, f"{made} in {seconds:.0f} s"
                )
        finally:
            server.terminate()
            server.wait()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"cores: {cores} (os.cpu_count {os.cpu_count()}); python {sys.version.split()[0]}")
    print("| while | replies | median ms | p95 ms | max ms | computer-only moves | load 1 min |")
    print("|---|---:|---:|---:|---:|---|---:|")
    print(quiet_row)
    print(loaded_row)


if __name__ == "__main__":
    main()
