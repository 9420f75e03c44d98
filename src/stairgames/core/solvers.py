"""What a game offers ``stairgames solve GAME``: its own solver's flags and run.

A game that can be solved (in part) names a :class:`SolveCommand` in its registration
(:attr:`stairgames.core.registry.GameSpec.solver`, a ``"module:attribute"``
reference); the registry imports the solver only when the command runs,
so loading a game imports none of it. The command line gives every game the same
frame: the game's options as flags, ``--out DIR`` (default: :func:`solved_dir` /
the game's name) and ``--resume``; the game adds its own flags and does the rest.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, TextIO

from stairgames.core.game import Game
from stairgames.core.progress import stream_width, wrap_keeping_numbers
from stairgames.i18n import _

SOLVED_DIR_VARIABLE = "STAIRGAMES_SOLVED_DIR"
"""An environment variable naming the folder of solved tables (overrides the default)."""


def solved_dir() -> Path:
    """Where solved tables live by default: ``$STAIRGAMES_SOLVED_DIR`` when set, else
    ``$XDG_DATA_HOME/stairgames/solved`` (``~/.local/share/stairgames/solved`` when
    ``XDG_DATA_HOME`` is unset). Solvers write there and the ``perfect`` player reads
    there."""
    chosen = os.environ.get(SOLVED_DIR_VARIABLE)
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "stairgames" / "solved"


OnResult = Callable[[int, Any], None]
"""``on_result(index, result)``: told of each part's result as it ends (so that a
solver can keep it for ``--resume`` before the other parts are done)."""


def write_json(path: Path, data: Any) -> None:
    """Write ``data`` to ``path`` as indented JSON, whole or not at all (through a
    temporary file beside it that replaces ``path``), so that a solve stopped mid-write
    leaves the record it had."""
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    temporary.replace(path)


def report(text: str, stream: TextIO | None = None) -> None:
    """Prints a solve's report on ``stream`` (standard output by default): on a terminal
    wrapped at spaces to its width, never between a number and its unit
    (:func:`stairgames.core.progress.wrap_keeping_numbers`), so that the terminal never
    breaks a number across two rows; elsewhere as it is."""
    out = sys.stdout if stream is None else stream
    if out.isatty():
        width = stream_width(out)
        text = "\n".join(
            row for line in text.split("\n") for row in wrap_keeping_numbers(line, width)
        )
    print(text, file=out)


def report_saved(path: Path, seconds: float, stream: TextIO | None = None) -> None:
    """Says where a solve saved its table and how long it took, each on a row of its
    own (a long path never breaks the time across two rows)."""
    report(_("Saved to {path}").format(path=path), stream)
    report(_("Took {seconds} s.").format(seconds=f"{seconds:.2f}"), stream)


class TaskMap(Protocol):
    """``map_tasks(function, tasks, on_result=None)``: ``[function(task) for task in
    tasks]`` in task order, spread where the command line said (``--jobs N`` local
    processes or a Ray cluster, ``--ray-address``;
    :func:`stairgames.analysis.parallel.run_tasks`), telling ``on_result`` of each
    result as it ends. ``function`` must be defined at the top level of a module."""

    def __call__(
        self,
        function: Callable[[Any], Any],
        tasks: Sequence[Any],
        *,
        on_result: OnResult | None = None,
    ) -> list[Any]: ...


def in_process(
    function: Callable[[Any], Any], tasks: Sequence[Any], *, on_result: OnResult | None = None
) -> list[Any]:
    """The :class:`TaskMap` that solves every part here, one after another."""
    results = []
    for index, task in enumerate(tasks):
        results.append(function(task))
        if on_result is not None:
            on_result(index, results[-1])
    return results


@dataclasses.dataclass(frozen=True)
class SolveRequest:
    """What ``stairgames solve`` hands a game's solver."""

    game: Game
    """The game, with the options given on the command line."""
    arguments: argparse.Namespace
    """Every flag parsed (the game's own among them)."""
    out: Path
    """The folder the game's tables go to (``--out``, or the default)."""
    resume: bool
    """Go on from the tables already in :attr:`out` (``--resume``)."""
    stderr: TextIO
    """Where progress goes."""
    map_tasks: TaskMap = in_process
    """How a solver that splits into independent parts solves them (``--jobs``,
    ``--ray-address``)."""


@dataclasses.dataclass(frozen=True)
class SolveCommand:
    """A game's part of ``stairgames solve GAME``."""

    add_arguments: Callable[[argparse.ArgumentParser], None]
    """Adds the game's own flags (its game options are added already)."""
    run: Callable[[SolveRequest], int]
    """Solves, prints what it found, and returns the exit status; interrupted
    (Ctrl-C, ``kill``), it saves what it has so that ``--resume`` goes on."""
