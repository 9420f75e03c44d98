"""Puzzles made an hour, and the share of candidate positions the exact means prove,
for every game with puzzles (issue 52).

Run from the repository root::

    .venv/bin/python -m benchmarks.puzzles [--games N] [--repeats R] [--seed S] \\
        [--game NAME ...] [--out FIGURES.json]

Each repeat of a game does what ``stairgames puzzles generate GAME --self-play N --seed
S`` does (:func:`stairgames.puzzles.generate.self_play` and
:func:`~stairgames.puzzles.generate.generate`, nothing written), in a fresh process of
its own, so that nothing the exact means proved or read in one repeat (their caches,
their tables) helps the next. The repeats go round the games (every game's first
repeat, then every game's second...), so that a change in the machine's load falls on
every game alike; one repeat runs at a time. The games are those with a puzzle kit in
the registry (:func:`stairgames.core.registry.puzzle_games`), or ``--game``.

The table, one row a game:

- *tried*: candidate positions tried, over all repeats;
- *proven*: those of them the exact means valued (every legal move), puzzles or not
  (:attr:`~stairgames.puzzles.generate.Tally.proven`);
- *share proven*: proven / tried;
- *puzzles*: puzzles made, over all repeats;
- *puzzles an hour*: each repeat's puzzles over its seconds (playing the games
  included, as the command spends them), the median over the repeats with the lowest
  and highest;
- *seconds*: the median seconds a repeat.

The weak levels that play the games may think for a time rather than a number of
iterations (``medium`` is ``mcts:time=0.05`` unless a game replaces it), so on a
loaded machine the repeats' games, and so their counts, can differ; the counts are
totals, the rate is the median of the repeats'. The load average and the cores are
given before and after the run.
"""

from __future__ import annotations

import dataclasses
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any

from stairgames.bench.strength import busy_between, cpu_times
from stairgames.puzzles.generate import generate, self_play

BUSY_SAMPLE_SECONDS = 1.0
"""How long ``/proc/stat`` is watched for the busy cores before and after a run."""


@dataclasses.dataclass(frozen=True)
class Repeat:
    """One repeat of one game: what its generator's tally counted."""

    game: str
    repeat: int
    games: int
    tried: int
    proven: int
    made: int
    seconds: float

    def per_hour(self) -> float:
        return 3600.0 * self.made / self.seconds if self.seconds > 0 else 0.0


@dataclasses.dataclass(frozen=True)
class Row:
    """A game's line of the table (:func:`summarize`)."""

    game: str
    repeats: int
    tried: int
    proven: int
    made: int
    per_hour_median: float
    per_hour_min: float
    per_hour_max: float
    seconds_median: float

    @property
    def share_proven(self) -> float:
        return self.proven / self.tried if self.tried else 0.0


def measure(game: str, games: int, seed: int, repeat: int) -> Repeat:
    """One repeat: ``games`` seeded self-play games of ``game`` searched for puzzles, as
    ``stairgames puzzles generate GAME --self-play games --seed seed`` does."""
    tally = generate(game, self_play(game, games, seed=seed), rng=random.Random(seed))
    return Repeat(
        game=game,
        repeat=repeat,
        games=tally.games,
        tried=tally.tried,
        proven=tally.proven,
        made=tally.made,
        seconds=tally.seconds,
    )


Measure = Callable[[str, int, int, int], Repeat]
"""How one repeat is measured: ``(game, games, seed, repeat)`` to its :class:`Repeat`."""


def run(
    names: Sequence[str],
    *,
    games: int,
    repeats: int,
    seed: int,
    measure_one: Measure | None = None,
    progress: Callable[[Repeat], None] | None = None,
) -> list[Repeat]:
    """Every repeat of every game in ``names``, the repeats going round the games;
    each in a fresh process unless ``measure_one`` is given (tests)."""
    if games < 1 or repeats < 1:
        raise ValueError("games and repeats must be at least 1")
    done: list[Repeat] = []
    if measure_one is not None:
        for repeat in range(repeats):
            for name in names:
                done.append(measure_one(name, games, seed, repeat))
                if progress is not None:
                    progress(done[-1])
        return done
    context = get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context, max_tasks_per_child=1) as pool:
        for repeat in range(repeats):
            for name in names:
                done.append(pool.submit(measure, name, games, seed, repeat).result())
                if progress is not None:
                    progress(done[-1])
    return done


def summarize(repeats: Sequence[Repeat]) -> list[Row]:
    """One :class:`Row` a game, in the order the games first appear."""
    by_game: dict[str, list[Repeat]] = {}
    for one in repeats:
        by_game.setdefault(one.game, []).append(one)
    rows = []
    for game, ones in by_game.items():
        rates = [one.per_hour() for one in ones]
        rows.append(
            Row(
                game=game,
                repeats=len(ones),
                tried=sum(one.tried for one in ones),
                proven=sum(one.proven for one in ones),
                made=sum(one.made for one in ones),
                per_hour_median=statistics.median(rates),
                per_hour_min=min(rates),
                per_hour_max=max(rates),
                seconds_median=statistics.median(one.seconds for one in ones),
            )
        )
    return rows


def table(rows: Sequence[Row]) -> list[str]:
    """The table's lines (Markdown)."""
    lines = [
        "| game | repeats | tried | proven | share proven | puzzles "
        "| puzzles an hour, median [min, max] | seconds a repeat (median) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row.game} | {row.repeats} | {row.tried:,} | {row.proven:,} "
            f"| {row.share_proven:.1%} | {row.made:,} | {row.per_hour_median:,.0f} "
            f"[{row.per_hour_min:,.0f}, {row.per_hour_max:,.0f}] | {row.seconds_median:.1f} |"
        )
    return lines


def conditions(sample_seconds: float = BUSY_SAMPLE_SECONDS) -> dict[str, Any]:
    """The machine now: the load average, the cores (all, and those this process may
    use) and how many of those were busy over ``sample_seconds`` (``None`` where
    ``/proc/stat`` says nothing)."""
    usable = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    before = cpu_times()
    time.sleep(sample_seconds if before else 0)
    shares = busy_between(before, cpu_times(), usable)
    return {
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "load_average": [round(value, 2) for value in os.getloadavg()],
        "cpus": os.cpu_count(),
        "usable_cpus": len(usable) or os.cpu_count(),
        "busy_cores": round(sum(shares.values()), 2) if shares else None,
    }


def describe(machine: dict[str, Any]) -> str:
    """:func:`conditions` in a line."""
    load = " ".join(f"{value:.2f}" for value in machine["load_average"])
    busy = machine["busy_cores"]
    sampled = "" if busy is None else f", {busy:.2f} of them busy just now"
    return (
        f"{machine['time']}: load average {load} (1, 5, 15 min), "
        f"{machine['cpus']} cores ({machine['usable_cpus']} usable){sampled}"
    )


def figures(
    repeats: Sequence[Repeat], arguments: dict[str, Any], start: dict[str, Any], end: dict[str, Any]
) -> dict[str, Any]:
    """What ``--out`` keeps: the arguments, the conditions, every repeat and the rows."""
    return {
        "arguments": arguments,
        "start": start,
        "end": end,
        "repeats": [dataclasses.asdict(one) for one in repeats],
        "rows": [
            dataclasses.asdict(row) | {"share_proven": row.share_proven}
            for row in summarize(repeats)
        ],
    }


__all__ = [
    "Repeat",
    "Row",
    "conditions",
    "describe",
    "figures",
    "measure",
    "run",
    "summarize",
    "table",
]
