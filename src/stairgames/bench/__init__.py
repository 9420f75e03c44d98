"""What the benchmarks measure with, shared with the tests that check it.

The scripts in ``benchmarks/`` (run from a source checkout: ``python -m
benchmarks.ladder``, ``make bench``...) import these modules, and so do the tests, which
never import ``benchmarks/`` (``tests/test_no_benchmark_imports.py``): the local
PostgreSQL and the whole site (nginx, server processes) the server benchmarks start
(:mod:`.postgresql`, :mod:`.site`), their load (:mod:`.site_load`) and the event loop's
latency (:mod:`.loop_latency`); the strength runs against OpenSpiel's players and the
level ladder with their statistics (:mod:`.strength`, :mod:`.pinned`,
:mod:`.players_openspiel`, :mod:`.ladder`); the first move after an install
(:mod:`.first_move`); the naive readings of the rules the engine benchmarks compare
with (:mod:`.naive`); the puzzles made an hour and the share of positions proven
(:mod:`.puzzles`); and how results are written (:mod:`.output`).
"""

from __future__ import annotations

from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[3]
"""The source checkout these tools run in (they start its server, read its deployment
files, clone it): ``src/stairgames/bench`` is three folders below it."""
