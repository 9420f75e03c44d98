"""``benchmarks/loop_latency.py`` in a tiny configuration: it starts PostgreSQL, its proxy
and both servers, plays, attacks, and prints every row of its report (no figure is
checked: they are the benchmark's to measure, not a test's). Skipped, saying why, where
PostgreSQL or psycopg is missing."""

from __future__ import annotations

import contextlib
import io

import pytest

from stairgames.bench import loop_latency
from stairgames.bench.postgresql import PostgreSQLMissingError

pytestmark = pytest.mark.services  # the benchmark starts its own PostgreSQL

TINY = [
    "--clients",
    "2",
    "--operations",
    "4",
    "--repeats",
    "1",
    "--idle-seconds",
    "0.2",
    "--delay-ms",
    "2",
    "--attack",
    "none",
    "--attack",
    "password",
    "--attack",
    "replay",
]
SERVERS = ("direct", "proxy 2 ms")
LOADS = (
    "idle (probe alone)",
    "2 clients",
    "2 clients + password attack",
    "2 clients + replay attack",
)
PROBES = ("/healthz", "sync")
CONDITIONS = ("machine", "code", "database", "server", "proxy", "clients", "probe", "repeats")


@pytest.fixture(scope="module")
def report() -> list[str]:
    """The report's lines (the benchmark run once for the module's tests)."""
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install psycopg[binary])")
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            loop_latency.run(TINY)
    except PostgreSQLMissingError as exc:
        pytest.skip(f"{exc}: skipped")
    return printed.getvalue().splitlines()


def table(report: list[str], head: str) -> list[list[str]]:
    """The rows of the table under ``head`` (its header lines), each a list of cells."""
    first = report.index(head.splitlines()[0]) + 2
    rows = []
    for line in report[first:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def keys(rows: list[list[str]], width: int) -> list[tuple[str, ...]]:
    return [tuple(row[:width]) for row in rows]


@pytest.mark.slow
def test_the_conditions_come_first(report: list[str]) -> None:
    names = [line.split(":", 1)[0] for line in report[: report.index("")]]
    assert names == list(CONDITIONS)
    assert "load average before" in report[0] and ", after " in report[0]
    assert report[1].startswith("code: commit ")


def test_every_server_load_and_probe_has_its_row(report: list[str]) -> None:
    rows = table(report, loop_latency.TABLE_HEAD)
    expected = {(server, load, probe) for server in SERVERS for load in LOADS for probe in PROBES}
    assert sorted(keys(rows, 3)) == sorted(expected)
    assert all(len(row) == 10 for row in rows)


def test_every_load_and_probe_has_its_ratio(report: list[str]) -> None:
    rows = table(report, loop_latency.RATIO_HEAD)
    assert sorted(keys(rows, 2)) == sorted((load, probe) for load in LOADS for probe in PROBES)


def test_every_loaded_row_says_what_the_load_added(report: list[str]) -> None:
    rows = table(report, loop_latency.OVER_IDLE_HEAD)
    loaded = [(s, load, probe) for s in SERVERS for load in LOADS[1:] for probe in PROBES]
    assert sorted(keys(rows, 3)) == sorted(loaded)


def test_each_attack_says_what_it_was_answered(report: list[str]) -> None:
    for attack in ("password", "replay"):
        for server in SERVERS:
            told = [line for line in report if line.startswith(f"{attack} attack on {server}:")]
            assert len(told) == 1 and "answered" in told[0]


def test_the_command_is_the_last_line(report: list[str]) -> None:
    assert report[-1] == "command: python -m benchmarks.loop_latency " + " ".join(TINY)
