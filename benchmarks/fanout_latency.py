"""Cross-process delivery (not a test): two ``stairgames serve`` processes on one
PostgreSQL database, every game's two seats connected one to each process, so that every
move is committed by one process and reaches the opponent through the other (the
fan-out: PostgreSQL's LISTEN/NOTIFY, ``stairgames.server.play.fanout``).

Rows: **across** (seat 0 on the first process, seat 1 on the second) and, for
comparison on the same database, **one process** (both seats on the first). Each is
paced (each player thinks a random 0 to 2 x ``--think`` seconds) and, with ``--flat-out``,
also flat out. Latency: from a move sent by one seat to the other seat receiving the
new state; lost and duplicated moves are counted (must be 0).

    python benchmarks/fanout_latency.py [--games 100] [--moves 12] [--think 1.0]
    python benchmarks/fanout_latency.py --database-url postgresql://user@host/db

Without ``--database-url`` it starts a PostgreSQL server of its own in a temporary
folder (Debian's ``postgresql``: initdb and pg_ctl under /usr/lib/postgresql/*/bin).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator

from benchmarks.web_load import HEADER, Game, Run, free_port, play_seat, post
from stairgames.bench.postgresql import PostgreSQLMissingError, postgresql_server


@contextlib.contextmanager
def temporary_postgresql(settings: list[str]) -> Iterator[str]:
    """A PostgreSQL server in a temporary folder on loopback, with ``settings``
    (``name=value``, its ``-c`` options): its URL."""
    try:
        with postgresql_server(settings) as server:
            yield server.libpq
    except PostgreSQLMissingError as exc:
        raise SystemExit(f"{exc}: give --database-url") from None


def start_server(port: int, database_url: str, data_dir: str) -> subprocess.Popen[bytes]:
    entry = "import sys; from stairgames.cli import main; sys.exit(main())"
    command = [sys.executable, "-c", entry, "serve", "--port", str(port), "--no-client-limits"]
    command += ["--database-url", database_url, "--data-dir", data_dir, "--computer-workers", "0"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=1) as answer:
                if answer.status == 200:
                    return process
        except OSError:
            if process.poll() is not None:
                raise SystemExit("the server did not start") from None
        time.sleep(0.05)
    raise SystemExit("the server was not ready in 180 s")


def new_games(ports: tuple[int, int], count: int, moves: int) -> list[Game]:
    """``count`` Stairs games made on the first port, the second seat joined on the second."""
    games = []
    for _ in range(count):
        created = post(ports[0], "/api/matches", {"game": "stairs", "seats": ["human", "online"]})
        joined = post(ports[1], f"/api/matches/{created['match']}/join")
        games.append(Game(created["match"], [created["seats"][0]["token"], joined["token"]], moves))
    return games


async def run_games(ports: tuple[int, int], games: list[Game], seed: int, think: float) -> float:
    rng = random.Random(seed)
    started = time.perf_counter()
    await asyncio.gather(
        *(
            play_seat(ports[seat], game, seat, random.Random(rng.random()), think)
            for game in games
            for seat in (0, 1)
        )
    )
    return time.perf_counter() - started


def measure(name: str, ports: tuple[int, int], args: argparse.Namespace, think: float) -> Run:
    games = new_games(ports, args.games, args.moves)
    seconds = asyncio.run(run_games(ports, games, args.seed, think))
    return Run.of(name, games, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--moves", type=int, default=12, help="moves per game")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a player thinks")
    parser.add_argument("--flat-out", action="store_true", help="also every move at once")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=None)
    parser.add_argument(
        "--pg-setting",
        action="append",
        default=[],
        help="a setting of the temporary PostgreSQL server, e.g. synchronous_commit=off",
    )
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        url = args.database_url or stack.enter_context(temporary_postgresql(args.pg_setting))
        data_dir = stack.enter_context(tempfile.TemporaryDirectory())
        ports = (free_port(), free_port())
        processes = [start_server(port, url, data_dir) for port in ports]
        try:
            across, alone = ports, (ports[0], ports[0])
            thinks = [args.think, 0.0] if args.flat_out else [args.think]
            runs = []
            for think in thinks:
                pace = f"think {think:g} s" if think else "flat out"
                runs.append(measure(f"across 2 processes, {pace}", across, args, think))
                runs.append(measure(f"one process, {pace}", alone, args, think))
            inside = [server_means(port) for port in ports]
        finally:
            for process in processes:
                process.terminate()
                process.wait()
    print(f"{args.games} simultaneous Stairs games per run, one client per seat, loopback,")
    print("2 stairgames serve processes on one PostgreSQL (fan-out: LISTEN/NOTIFY)")
    print("latency: a move sent -> the other seat received it; lost: never received")
    print(HEADER)
    for run in runs:
        print(run.row())
    for number, means in enumerate(inside, start=1):
        told = ", ".join(f"{origin} {ms:.1f} ms" for origin, ms in sorted(means.items()))
        print(f"server {number}, mean from accepted (or notified) to announced: {told}")


def server_means(port: int) -> dict[str, float]:
    """A server's mean ``stairgames_move_announce_seconds`` by origin, in ms (``here``:
    from its commit; ``elsewhere``: from the fan-out's notification), over all runs."""
    from prometheus_client.parser import text_string_to_metric_families

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as answer:
        text = answer.read().decode()
    sums: dict[str, float] = {}
    counts: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            origin = sample.labels.get("origin")
            if sample.name == "stairgames_move_announce_seconds_sum" and origin:
                sums[origin] = sums.get(origin, 0.0) + sample.value
            if sample.name == "stairgames_move_announce_seconds_count" and origin:
                counts[origin] = counts.get(origin, 0.0) + sample.value
    return {o: 1000 * sums[o] / counts[o] for o in sums if counts.get(o)}


if __name__ == "__main__":
    main()
