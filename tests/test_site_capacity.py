"""Issue 55: what ``python -m benchmarks.site_load --rates ...`` reports of capacity:
the CPU each process spent per move (read from ``/proc``) and the knee (the most moves
a second whose p99 stayed under 50 ms). The runs themselves are a benchmark, not a test:
here, the parts that decide the figures."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

from stairgames.bench.site_load import (
    KNEE_P99_MS,
    Result,
    Step,
    bucket_quantile,
    cpu_seconds,
    family,
    knee,
)

linux = pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="needs Linux's /proc")


def result(moves: int, seconds: float, p99: float, lost: int = 0) -> Result:
    return Result(
        games=10,
        moves=moves,
        seconds=seconds,
        median_ms=p99 / 3,
        p99_ms=p99,
        steady=(0.0, moves, p99 / 3, p99),
        lost=lost,
        duplicated=0,
        unfinished=0,
        reconnections=0,
        refused=0,
        resumed=[],
        still_cut=0,
        fault={},
    )


def test_the_knee_is_the_fastest_step_under_the_latency_that_lost_nothing() -> None:
    steps = [
        Step(25, result(1000, 40.0, 12.0), {}),
        Step(50, result(2000, 40.0, 30.0), {}),
        Step(75, result(2900, 40.0, KNEE_P99_MS + 1), {}),  # too slow
        Step(100, result(3500, 40.0, 20.0, lost=1), {}),  # lost a move
    ]
    best = knee(steps)
    assert best is steps[1] and best.moves_per_second == 50
    assert knee([dataclasses.replace(steps[2])]) is None


@linux
def test_a_process_and_its_children_are_counted_with_their_cpu() -> None:
    burner = subprocess.Popen(
        [sys.executable, "-c", "import sys\nwhile sys.stdin.read(1): pass"],
        stdin=subprocess.PIPE,
    )
    try:
        assert burner.pid in family(os.getpid()) and os.getpid() in family(os.getpid())
        assert family(burner.pid) == [burner.pid]
        assert cpu_seconds(family(os.getpid())) >= cpu_seconds([os.getpid()]) > 0
    finally:
        burner.kill()
        burner.wait()
    assert cpu_seconds([burner.pid]) == 0  # gone: counts nothing


@linux
def test_a_child_that_ended_still_counts_in_its_parents_cpu() -> None:
    """PostgreSQL's backends end while a step runs: their CPU passes to the postmaster
    (the figures once went below zero)."""
    before = cpu_seconds([os.getpid()])
    burner = subprocess.run(
        [
            sys.executable,
            "-c",
            "import time\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass",
        ],
        check=True,
    )
    assert burner.returncode == 0
    assert cpu_seconds([os.getpid()]) >= before + 0.25


def test_the_servers_p99_is_the_bucket_that_holds_it_between_two_readings() -> None:
    inf = float("inf")
    before = {0.01: 50.0, 0.025: 90.0, 0.05: 100.0, inf: 100.0}
    # 200 moves since: 150 within 10 ms, 48 within 25 ms, 1 within 50 ms, 1 above
    after = {0.01: 200.0, 0.025: 288.0, 0.05: 299.0, inf: 300.0}
    assert bucket_quantile(before, after, 0.5) == 0.01
    assert bucket_quantile(before, after, 0.99) == 0.025
    assert bucket_quantile(before, after, 0.995) == 0.05
    assert bucket_quantile(before, after, 0.999) == inf
    assert bucket_quantile(after, after, 0.99) is None  # nothing observed between
    assert bucket_quantile({}, after, 0.99) == 0.05  # from the start: 297 of 300 in 50 ms
