"""27 by retrograde analysis: tables of exact results, solved bottom-up, on disk.

Every move of 27 goes forward and lands exactly, so no position repeats
(``rules.progress``) and the game graph has no cycles: each position's result follows
from its children's. :func:`solve` gives every position reachable from a root (the
start, or any basic position) its result for the colour to move, win, draw or loss
(T5), children first, with the compiled search of :mod:`.retrograde_kernel` (2 bits a
position, positions ranked by a perfect hash; a black-to-move position is stored as
its mirror), and keeps the table in a folder:

- ``meta.json``: what was solved (size, root, counts, time, the root's result once
  known);
- ``codes.bin``: the 2-bit codes, memory-mapped;
- ``keys.bin`` (hashed tables only): the rank held by each slot of ``codes.bin``.

A table indexed directly by rank holds every arrangement of the discs (unreachable
ones too) and needs no keys; it is used while it fits the memory allowed. Otherwise
the table is hashed: a slot per position reached (8 bytes of key besides the 2 bits),
grown as the search goes. Only exact results are ever written, so the table on disk
is a checkpoint at any moment: :func:`solve` stops after a budget of positions (or
when interrupted) and goes on from the table when called again.

Reduced games (:class:`.reduced.Size`: fewer fields and fewer discs of each colour, the same
rules) measure how the state space grows; ``docs/analysis.md`` has the figures.

This module is the solve loop: it runs the compiled search a chunk of positions at a
time, grows a hashed table before it fills, saves the table every :data:`SAVE_EVERY`
seconds, and stops with the table saved once the root is solved, after a budget of
positions, when the table would pass the memory allowed, or at Ctrl-C or SIGTERM.
Beside it, one job each: :mod:`.reduced` (sizes, lines, ranks and texts),
:mod:`.storage` (a table in its folder), :mod:`.table_play` (the perfect player from
the tables) and :mod:`.command` (``stairgames solve twenty_seven``).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import numpy as np

from stairgames.core.errors import InvalidOptionError, StairgamesError
from stairgames.core.progress import stop_requests
from stairgames.games.twenty_seven import rules
from stairgames.games.twenty_seven.research import endgame_kernel as kernel
from stairgames.games.twenty_seven.research.reduced import (
    Size,
    check_line,
    compiled_kernel,
    initial_line,
)
from stairgames.games.twenty_seven.research.storage import (
    Table,
    create_table,
    grow_table,
    open_table,
    table_folder,
)
from stairgames.i18n import N_

MOST_FILLED: Final = 0.6
"""A hashed table grows before more than this share of its slots is in use."""
SLACK: Final = 1024
"""Slots a hashed table keeps free beyond a search's budget."""
DEFAULT_MEMORY: Final = 8 << 30
"""The most bytes a table may take by default (``--memory``)."""
SAVE_EVERY: Final = 30.0
"""Seconds between writes of the table to disk (its pages are written at the end and
on interruption too)."""


class TableExistsError(InvalidOptionError):
    """A table is already in the folder, and resuming was not asked for."""


@dataclasses.dataclass
class Progress:
    """How far a solve has got (what the progress bar shows)."""

    share: float
    """The share of the root's tree searched (an estimate: every move of a position
    counts as an equal share of it)."""
    stored: int
    """Positions in the table."""
    seconds: float
    """Seconds spent on this table, over every run."""
    table_bytes: int = 0
    """The bytes the table takes now (memory, and disk)."""


ProgressCallback = Callable[[Progress], None]


def solve(
    out: Path,
    size: Size = Size(),  # noqa: B008 (a frozen dataclass)
    root: rules.Line | None = None,
    *,
    complete: bool = True,
    resume: bool = False,
    memory: int = DEFAULT_MEMORY,
    hashed: bool | None = None,
    chunk: int = 1 << 18,
    stop_after: int | None = None,
    progress: ProgressCallback | None = None,
) -> Table:
    """Solves ``root`` (the start of ``size`` by default) into its table in ``out``
    (:func:`.storage.table_folder`) and returns the table; ``meta["result"]`` is the
    root's result for its colour to move once solved, ``meta["stopped"]`` says why it
    stopped before (``"interrupted"``, ``"budget"``, ``"memory"``). ``memory``: the most
    bytes the table may take; ``hashed``: a hashed table (or not) whatever the memory.

    ``complete``: every position reachable from the root gets its result (else the
    search skips a position's other moves once one wins: a proof, over fewer
    positions). ``stop_after``: stop once this many positions are stored in this run
    (checked every ``chunk`` positions). Ctrl-C and SIGTERM stop it between two chunks,
    with the table saved; ``resume=True`` goes on from a table already there.

    :raises TableExistsError: a table is there and ``resume`` is false.
    """
    start = initial_line(size) if root is None else root
    check_line(start, size)
    folder = table_folder(out, size, start)
    if (folder / "meta.json").exists():
        if not resume:
            raise TableExistsError(
                message_id=N_(
                    "{folder} already holds a table: add --resume to go on with it, or remove "
                    "the folder to start again"
                ),
                arguments={"folder": str(folder)},
            )
        table = open_table(folder, writable=True)
    else:
        table = create_table(folder, size, start, complete=complete, memory=memory, hashed=hashed)
    if table.finished:
        return table
    with stop_requests() as stop_requested:
        return _run(table, start, memory, chunk, stop_after, progress, stop_requested)


def _run(
    table: Table,
    start: rules.Line,
    memory: int,
    chunk: int,
    stop_after: int | None,
    progress: ProgressCallback | None,
    stop_requested: Callable[[], bool],
) -> Table:
    """Solves chunk after chunk until the root is solved or a reason to stop comes."""
    root = kernel.line_array(start)
    stored_here = 0
    saved = time.perf_counter()
    table.meta["stopped"] = None
    while True:
        budget = chunk if stop_after is None else min(chunk, stop_after - stored_here)
        if table.hashed:
            table, fits = _with_room(table, budget, memory)
            if not fits:
                return _stopped(table, "memory")
            budget = min(budget, _room(table.meta))
        stored_here += _solve_chunk(table, root, budget)
        meta = table.meta
        if progress is not None:
            progress(Progress(meta["share"], meta["stored"], meta["seconds"], table.bytes))
        if meta["result"] is not None:
            table.save()
            return table
        if stop_requested() or (stop_after is not None and stored_here >= stop_after):
            return _stopped(table, "interrupted" if stop_requested() else "budget")
        if time.perf_counter() - saved > SAVE_EVERY:
            table.save()
            saved = time.perf_counter()


def _solve_chunk(table: Table, root: kernel.Array, budget: int) -> int:
    """Searches on for up to ``budget`` new positions, adding what it did to
    ``table.meta`` (positions, finished games, seconds, share, the root's result once
    known); returns the positions it stored."""
    compiled = compiled_kernel()
    meta = table.meta
    counts = np.zeros(2, dtype=np.int64)
    share = np.zeros(1, dtype=np.float64)
    began = time.perf_counter()
    result = compiled.solve(
        root, table.size.discs, table.codes, table.keys, budget, meta["complete"], counts, share
    )
    meta["stored"] += int(counts[0])
    meta["finished_games"] += int(counts[1])
    meta["seconds"] += time.perf_counter() - began
    meta["share"] = float(share[0])
    if result == compiled.TOO_DEEP:
        raise StairgamesError(f"a game went deeper than {compiled.MAX_DEPTH} actions")
    if result != compiled.STOPPED:
        meta["result"] = int(result)
    return int(counts[0])


def _with_room(table: Table, budget: int, memory: int) -> tuple[Table, bool]:
    """The hashed ``table``, grown until it has room for ``budget`` more positions (or
    for an eighth of its slots, at least :data:`SLACK`), and whether it got that room
    (false where growing it once more would take more than ``memory`` bytes)."""
    while _room(table.meta) < min(budget, max(SLACK, table.meta["slots"] // 8)):
        if 2 * table.bytes > memory:
            return table, False
        table = grow_table(table)
    return table, True


def _room(meta: dict[str, Any]) -> int:
    """How many more positions a hashed table takes before it must grow (less a margin:
    the search may store the finished games among a position's moves past its budget)."""
    return int(MOST_FILLED * meta["slots"]) - int(meta["stored"]) - SLACK


def _stopped(table: Table, why: str) -> Table:
    """``table`` saved, with why the solve stopped before the root was solved."""
    table.meta["stopped"] = why
    table.save()
    return table


__all__ = [
    "DEFAULT_MEMORY",
    "Progress",
    "ProgressCallback",
    "TableExistsError",
    "solve",
]
