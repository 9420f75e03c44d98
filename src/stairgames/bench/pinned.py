"""Games played on pinned worker processes, one per core, for the strength harnesses
(:mod:`stairgames.bench.players_openspiel`, :mod:`stairgames.bench.ladder`).

Each worker is a spawned process pinned to its core: it warms up (untimed), says it
is ready, then plays each task it is sent and sends back the game's line (or the
error). :func:`run_games` hands the tasks out until none is left or the deadline has
passed, keeps each game line in the checkpoint and prints a line of progress for it.
The play and warm-up functions go to the workers pickled: module-level functions (or
:func:`functools.partial` of them).
"""

from __future__ import annotations

import dataclasses
import os
import sys
import time
import traceback
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from multiprocessing import connection, get_context
from typing import Any, TypeVar

from stairgames.bench.strength import (
    LoadCheck,
    append_line,
    busy_between,
    cpu_times,
    format_run,
    pin,
    read_lines,
)

TaskT = TypeVar("TaskT")

WarmUp = Callable[[], float]
"""A worker's untimed warm-up before its first game; its seconds."""

Describe = Callable[[Mapping[str, Any], int, int], str]
"""A line of progress for a finished game: its line, the games done, the games to play."""

LOAD_SAMPLE_EVERY = 10
"""How often (at most) the 1-minute load average is sampled during the games."""

THREAD_VARIABLES = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "NUMBA_NUM_THREADS",
)
"""Thread pools kept to one thread in the workers (each has one core)."""


def one_thread_pools() -> None:
    """Keep the :data:`THREAD_VARIABLES` pools to one thread (where not set), in this
    process and the workers it starts."""
    for variable in THREAD_VARIABLES:
        os.environ.setdefault(variable, "1")


def load_refused(check: LoadCheck, allow_load: bool) -> bool:
    """Print the load check; whether the run is refused for a loaded machine (said on
    standard error)."""
    print(check.describe(), flush=True)
    if check.loaded and not allow_load:
        print(
            "The machine is loaded: not started (--allow-load runs anyway, marked as loaded).",
            file=sys.stderr,
        )
        return True
    return False


def open_run(
    command: str, loaded: bool, conditions: dict[str, Any], checkpoint: str | None, done: int
) -> dict[str, Any]:
    """The run line of a run starting under ``conditions``, kept in the checkpoint and
    printed, with the ``done`` games already in the checkpoint said."""
    run_line = {
        "kind": "run",
        "run": f"{conditions['started']}-{os.getpid()}",
        "command": command,
        "argv": sys.argv,
        "loaded": loaded,
        "conditions": conditions,
    }
    if checkpoint is not None:
        append_line(checkpoint, run_line)
    print(format_run(run_line), flush=True)
    if done:
        print(f"{done} games already in {checkpoint}: not played again", flush=True)
    return run_line


def worker(
    core: int,
    link: connection.Connection,
    warm: WarmUp,
    play: Callable[[Any], dict[str, Any]],
) -> None:
    """A worker pinned to ``core``: warms up, says so, then plays each task it is sent
    (``None``: stop) and sends back its game line (or the error)."""
    try:
        pin({core})
        link.send({"kind": "ready", "core": core, "warm_up": warm()})
    except Exception:
        link.send({"kind": "error", "core": core, "fatal": True, "error": traceback.format_exc()})
        link.close()
        return
    while (task := link.recv()) is not None:
        try:
            link.send({"kind": "game", "record": played_on(core, play(task))})
        except Exception:
            link.send(
                {"kind": "error", "core": core, "fatal": False, "error": traceback.format_exc()}
            )
    link.close()


def played_on(core: int, record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with the core it was played on and whether its worker was pinned."""
    record["core"] = core
    record["pinned"] = sorted(os.sched_getaffinity(0)) == [core]
    return record


@dataclasses.dataclass
class Progress:
    """What the games of a run came to, as they end."""

    records: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    errors: list[str] = dataclasses.field(default_factory=list)
    not_started: int = 0
    max_load1: float = 0.0
    warm_up: list[float] = dataclasses.field(default_factory=list)


def start_workers(
    cores: Sequence[int], warm: WarmUp, play: Callable[[Any], dict[str, Any]]
) -> dict[connection.Connection, Any]:
    """One spawned worker process per core; the links to them."""
    context = get_context("spawn")
    links: dict[connection.Connection, Any] = {}
    for core in cores:
        ours, theirs = context.Pipe()
        process = context.Process(target=worker, args=(core, theirs, warm, play), daemon=True)
        process.start()
        theirs.close()
        links[ours] = process
    return links


def receive(
    message: dict[str, Any],
    progress: Progress,
    total: int,
    checkpoint: str | None,
    describe: Describe,
) -> bool:
    """Take in one message of a worker; whether the worker goes on."""
    if message["kind"] == "error":
        progress.errors.append(message["error"])
        print(f"core {message['core']}: {message['error']}", file=sys.stderr, flush=True)
        return not message["fatal"]
    if message["kind"] == "ready":
        progress.warm_up.append(message["warm_up"])
        return True
    record = message["record"]
    progress.records.append(record)
    if checkpoint is not None:
        append_line(checkpoint, record)
    print(describe(record, len(progress.records), total), flush=True)
    return True


RESULTS = {1.0: "won", 0.5: "drew", 0.0: "lost"}
"""A game's score as a progress line says it."""


def progress_line(
    record: Mapping[str, Any], done: int, total: int, middle: str, sides: Sequence[str]
) -> str:
    """``[DONE/TOTAL] GAME seed SEED{middle} in PLIES plies, WALL s, core CORE``: a line
    of progress for a finished game, its plies the moves of ``sides``."""
    plies = sum(len(record[f"{side}_seconds"]) for side in sides)
    return (
        f"[{done}/{total}] {record['game']} seed {record['seed']}{middle} in {plies} plies, "
        f"{record['wall']:.1f} s, core {record['core']}"
    )


def may_start(pending: deque[Any], progress: Progress, deadline: float | None) -> bool:
    """Whether another game may start: one is left, none failed, the deadline (a
    :func:`time.monotonic`) has not passed."""
    return (
        bool(pending) and not progress.errors and (deadline is None or time.monotonic() < deadline)
    )


def run_games(
    tasks: Sequence[TaskT],
    cores: Sequence[int],
    warm: WarmUp,
    play: Callable[[TaskT], dict[str, Any]],
    deadline: float | None,
    checkpoint: str | None,
    describe: Describe,
) -> Progress:
    """Play ``tasks`` on one pinned worker per core, handing each idle worker the next
    task until none is left or ``deadline`` (a :func:`time.monotonic`) has passed."""
    progress = Progress()
    if not tasks:
        return progress
    pending = deque(tasks)
    links = start_workers(cores, warm, play)
    spare = set(os.sched_getaffinity(0)) - set(cores)
    if spare:  # this process waits on the cores the games leave free
        pin(spare)
    running: dict[connection.Connection, TaskT] = {}
    sampled = 0.0
    while links:
        if time.monotonic() - sampled >= LOAD_SAMPLE_EVERY:
            sampled = time.monotonic()
            progress.max_load1 = max(progress.max_load1, os.getloadavg()[0])
        for link in connection.wait(list(links), timeout=LOAD_SAMPLE_EVERY):
            assert isinstance(link, connection.Connection)
            try:
                message = link.recv()
            except EOFError:
                lost = running.pop(link, None)
                if lost is not None:
                    progress.errors.append(f"a worker ended during {lost}")
                links.pop(link).join()
                continue
            running.pop(link, None)
            if not receive(message, progress, len(tasks), checkpoint, describe):
                links.pop(link).join()
                continue
            if may_start(pending, progress, deadline):
                running[link] = pending.popleft()
                link.send(running[link])
            else:
                link.send(None)
                links.pop(link).join()
    progress.not_started = len(pending)
    return progress


def conditions_after(
    progress: Progress,
    times_before: Mapping[int, tuple[int, int]],
    cores: Sequence[int],
    allowed: Iterable[int],
    started: float,
) -> dict[str, Any]:
    """The conditions a run ended under (its ``run_end`` line)."""
    shares = busy_between(times_before, cpu_times(), allowed)
    others = [share for cpu, share in shares.items() if cpu not in cores]
    return {
        "load_average": [round(value, 2) for value in os.getloadavg()],
        "max_load1_during": round(progress.max_load1, 2),
        "ours_busy": (
            round(sum(shares[core] for core in cores) / len(cores), 3)
            if all(core in shares for core in cores)
            else None
        ),
        "others_busy": round(sum(others), 2) if others else None,
        "warm_up_seconds_max": round(max(progress.warm_up, default=0.0), 2),
        "games_played": len(progress.records),
        "games_not_started": progress.not_started,
        "errors": len(progress.errors),
        "wall_seconds": round(time.monotonic() - started, 1),
    }


def close_run(
    run_line: dict[str, Any],
    progress: Progress,
    after: dict[str, Any],
    checkpoint: str | None,
    key: Callable[[Mapping[str, Any]], Hashable],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Keep the conditions the run ended under (``after``) in its run line and as the
    checkpoint's ``run_end`` line; the runs and the games to summarize (the
    checkpoint's, games told apart by ``key``, or this run's)."""
    run_line["conditions"]["load_after"] = after
    if checkpoint is None:
        return [run_line], progress.records
    append_line(checkpoint, {"kind": "run_end", "run": run_line["run"], **after})
    runs, games, _ = read_lines([checkpoint], key)
    return runs, games


def print_results(run_line: Mapping[str, Any], table: str, progress: Progress) -> None:
    """Print the run's conditions, its table and the games the deadline left out."""
    print(format_run(run_line))
    print(table, flush=True)
    if progress.not_started:
        print(f"{progress.not_started} games not started: the deadline had passed", flush=True)
