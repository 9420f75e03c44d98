"""Puzzles with proven answers: positions from real games, every move judged exactly.

Shared code (it names no game): the puzzle as data (:mod:`.model`), its judging
(:mod:`.judge`), its making and re-proving with the games' exact means (:mod:`.prove`),
and the generator behind ``stairgames puzzles`` (:mod:`.generate`). The shipped sets
live in ``data/<game>.jsonl.gz`` (one puzzle's JSON a line); ``docs/puzzles.md``
describes them for players, operators and integrators.

>>> from stairgames import puzzles
>>> all(puzzles.shipped(game) for game in puzzles.shipped_games())
True
"""

from __future__ import annotations

import functools
import gzip
from importlib.resources import files
from importlib.resources.abc import Traversable

from stairgames.core.registry import get_spec, listing_order
from stairgames.puzzles.judge import (
    PuzzleMoveError,
    Verdict,
    judge,
    solution,
    start_state,
)
from stairgames.puzzles.model import (
    Answer,
    InvalidPuzzleError,
    Node,
    Puzzle,
    parse_puzzles,
    read_puzzles,
    write_puzzles,
)


def data_folder() -> Traversable:
    """The package folder of the shipped sets."""
    return files(__name__) / "data"


def _set_file(game: str) -> Traversable:
    return data_folder() / f"{game}.jsonl.gz"


@functools.cache
def shipped(game: str) -> tuple[Puzzle, ...]:
    """The shipped puzzles of ``game`` (a name or alias), read once; none where it has
    no set.

    :raises InvalidOptionError: no such game.
    :raises InvalidPuzzleError: the shipped file is damaged.
    """
    name = get_spec(game).name
    found = _set_file(name)
    if not found.is_file():
        return ()
    with found.open("rb") as raw, gzip.open(raw, "rt", encoding="utf-8") as lines:
        return tuple(parse_puzzles(lines, f"{name}.jsonl.gz"))


def shipped_games() -> list[str]:
    """The games with a shipped set, in the registry's listing order."""
    return [name for name in listing_order() if _set_file(name).is_file()]


@functools.cache
def _by_id() -> dict[str, Puzzle]:
    return {puzzle.id: puzzle for game in shipped_games() for puzzle in shipped(game)}


def by_id(puzzle_id: str) -> Puzzle | None:
    """The shipped puzzle with this id, or ``None``."""
    return _by_id().get(puzzle_id)


__all__ = [
    "Answer",
    "InvalidPuzzleError",
    "Node",
    "Puzzle",
    "PuzzleMoveError",
    "Verdict",
    "by_id",
    "data_folder",
    "judge",
    "read_puzzles",
    "shipped",
    "shipped_games",
    "solution",
    "start_state",
    "write_puzzles",
]
