"""Puzzles from the games played on the site (issue 52: opt-in by the operator).

Two halves, joined by the operator's ``stairgames puzzles generate``
(docs/puzzles.md, "On the site"):

- **The records** (:class:`SiteRecords`, only with ``Settings.puzzles_from_games``): each
  finished match of a game that offers puzzles (a
  :class:`~stairgames.core.puzzles.PuzzleKit`) and hides nothing is saved as a record
  file (``core/record.py``'s format) in ``data_dir/puzzle-records/<game>/<match>.json``.
  Only a match that is over is written, and only in full (every move as it was, chance
  outcomes included): never a running game, never a seed (the moves replay without it),
  never a name (the seats say ``online`` or the computer's level). An aborted match,
  or one without a move, is not written. The hub tells of every commit
  (``HubNeighbours.after_change``); the file is written in a database thread, once.
- **The sets** (:class:`SiteCatalogue`): the puzzle files in ``data_dir/puzzles/``
  (``<name>.jsonl.gz`` or ``.jsonl``, one puzzle's JSON a line) are served on top of the
  shipped sets, read at the first request and again whenever a file changes (its
  modification time or size, looked at most every :data:`CHECK_SECONDS`, in the
  database threads that ask). A puzzle made from one of the site's records is served
  with the source ``{"kind": "site", "match": ID, "ply": N}``. A file that does not read
  (being written, damaged) keeps the puzzles last read from it; a puzzle of a game
  without puzzles, or whose id a shipped puzzle has, is left out.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
import math
import os
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from stairgames.core.errors import StairgamesError
from stairgames.core.record import GameRecord
from stairgames.core.registry import get_spec, listing_order, load, puzzle_games
from stairgames.puzzles.model import Puzzle, read_puzzles
from stairgames.server.base.outages import log_failure
from stairgames.server.base.store import off_loop

if TYPE_CHECKING:
    from stairgames.server.play.match import Match
    from stairgames.server.puzzles.service import Catalogue

log = logging.getLogger(__name__)

RECORDS_FOLDER: Final = "puzzle-records"
"""The folder in ``data_dir`` of the finished matches' records, one folder a game."""
SETS_FOLDER: Final = "puzzles"
"""The folder in ``data_dir`` of the puzzle sets served beside the shipped ones."""
SET_SUFFIXES: Final = (".jsonl.gz", ".jsonl")
CHECK_SECONDS: Final = 5.0
"""How often (at most) the sets' folder is looked at for changed files."""
MOST_REMEMBERED: Final = 10_000
"""How many matches :class:`SiteRecords` remembers having seen to an end (then it
forgets them all and asks the folder again)."""


# ----- the records -------------------------------------------------------------------------


def offers_puzzles(game: str) -> bool:
    """Whether ``game`` (a name or alias) may have puzzles from the site: it has a
    puzzle kit and no hidden information."""
    try:
        name = get_spec(game).name
    except StairgamesError:
        return False
    return _offers(name)


@functools.cache
def _offers(name: str) -> bool:
    return name in puzzle_games() and not load(name).info().hidden_information


def record_of(match: Match) -> GameRecord | None:
    """The record to keep of ``match``: ``None`` while it goes on, for a game that hides
    something or offers no puzzles, an aborted match or one without a move; else its full
    record without the seed (blocking: the game's history is read)."""
    if not match.over or not offers_puzzles(match.game_name):
        return None
    result = match.result()
    if result is None or result.get("aborted"):
        return None
    record = GameRecord.from_json(json.dumps(match.record(None)))
    if not record.is_full or not record.moves:
        return None
    return dataclasses.replace(record, seed=None)


class SiteRecords:
    """Writes the record of each finished match that may feed puzzles (see the module)
    into ``folder`` (``data_dir/puzzle-records``)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._done: set[str] = set()
        """The matches seen over (written, or not to be)."""

    async def after_change(self, match: Match) -> None:
        """A ``HubNeighbours.after_change`` listener: once ``match`` is over, its record
        written in a database thread (once)."""
        if not match.over or match.id in self._done:
            return
        if len(self._done) >= MOST_REMEMBERED:
            self._done.clear()
        self._done.add(match.id)
        await off_loop(self.save, match)

    def path_of(self, game: str, match_id: str) -> Path:
        """Where the record of the match ``match_id`` of ``game`` goes."""
        return self.folder / get_spec(game).name / f"{match_id}.json"

    def save(self, match: Match) -> Path | None:
        """Write ``match``'s record if it is to be kept and is not yet: its path, else
        ``None`` (blocking: files)."""
        path = self.path_of(match.game_name, match.id)
        if path.exists():
            return None
        try:
            record = record_of(match)
        except StairgamesError:
            log_failure(log, "the record of match %s could not be made", match.id)
            return None
        if record is None:
            return None
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        # written whole, then named: a reader never sees half a record
        partial = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
        partial.write_text(record.to_json(), encoding="utf-8")
        os.replace(partial, path)
        log.info("match %s kept for puzzles: %s", match.id, path)
        return path


# ----- the sets ----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Served:
    """The site's puzzles as read last: by game (in the order read) and by id."""

    by_game: dict[str, tuple[Puzzle, ...]]
    by_id: dict[str, Puzzle]


_NOTHING: Final = _Served({}, {})


class SiteCatalogue:
    """The puzzles of ``base`` (the shipped sets) and of the set files in ``folder``
    (``data_dir/puzzles``), those made from the records in ``records``
    (``data_dir/puzzle-records``) said to come from the site (see the module). ``clock``
    and ``every``: how often the folder is looked at, at most."""

    def __init__(
        self,
        base: Catalogue,
        folder: Path,
        records: Path,
        *,
        clock: Callable[[], float] = time.monotonic,
        every: float = CHECK_SECONDS,
    ) -> None:
        self.base = base
        self.folder = folder
        self.records = records
        self.clock = clock
        self.every = every
        self._lock = threading.Lock()
        self._checked = -math.inf
        self._stamps: dict[str, tuple[int, int]] = {}
        self._sets: dict[str, tuple[Puzzle, ...]] = {}
        self._served = _NOTHING

    # ----- the catalogue ------------------------------------------------------------------

    def games(self) -> list[str]:
        served = self._fresh()
        games = self.base.games()
        return [
            *games,
            *(game for game in listing_order() if game in served.by_game and game not in games),
        ]

    def puzzles(self, game: str) -> Sequence[Puzzle]:
        served = self._fresh()
        return (*self.base.puzzles(game), *served.by_game.get(game, ()))

    def by_id(self, puzzle_id: str) -> Puzzle | None:
        served = self._fresh()
        return self.base.by_id(puzzle_id) or served.by_id.get(puzzle_id)

    def steady(self) -> Catalogue:
        return self.base.steady()

    # ----- reading the folder -------------------------------------------------------------

    def _fresh(self) -> _Served:
        if self.clock() - self._checked >= self.every:
            self.refresh()
        return self._served

    def refresh(self) -> bool:
        """Read the set files again if any changed (blocking: files): whether they did."""
        with self._lock:
            self._checked = self.clock()
            stamps = self._look()
            if stamps == self._stamps:
                return False
            sets = {
                name: self._sets[name]
                if self._stamps.get(name) == stamp and name in self._sets
                else self._read(name)
                for name, stamp in stamps.items()
            }
            self._stamps, self._sets = stamps, sets
            self._served = self._gathered(sets)
            return True

    def _look(self) -> dict[str, tuple[int, int]]:
        """Each set file's modification time and size, by name."""
        try:
            entries = list(os.scandir(self.folder))
        except OSError:  # (no folder: no sets)
            return {}
        stamps = {}
        for entry in entries:
            if not entry.name.endswith(SET_SUFFIXES) or entry.name.startswith("."):
                continue
            try:
                if entry.is_file():
                    found = entry.stat()
                    stamps[entry.name] = (found.st_mtime_ns, found.st_size)
            except OSError:  # gone meanwhile
                continue
        return dict(sorted(stamps.items()))

    def _read(self, name: str) -> tuple[Puzzle, ...]:
        """The puzzles of the set file ``name`` as served; those last read from it if it
        does not read now."""
        try:
            read = read_puzzles(self.folder / name)
        except Exception as exc:  # being written (half a compressed stream), or damaged
            log.warning("the puzzles of %s are not read (%s): kept as they were", name, exc)
            return self._sets.get(name, ())
        kept = []
        for puzzle in read:
            if not offers_puzzles(puzzle.game):
                log.warning(
                    "puzzle %s of %s is of %s, a game without puzzles", puzzle.id, name, puzzle.game
                )
                continue
            kept.append(self._as_served(puzzle))
        return tuple(kept)

    def _as_served(self, puzzle: Puzzle) -> Puzzle:
        """``puzzle``, said to come from the site where it was made from one of the site's
        records."""
        source = puzzle.source
        file = source.get("file")
        if source.get("kind") != "record" or not isinstance(file, str):
            return puzzle
        if Path(file).name != file or not file.endswith(".json"):
            return puzzle
        game = get_spec(puzzle.game).name
        if not (self.records / game / file).is_file():
            return puzzle
        site: dict[str, Any] = {"kind": "site", "match": file.removesuffix(".json")}
        if "ply" in source:
            site["ply"] = source["ply"]
        return dataclasses.replace(puzzle, source=site)

    def _gathered(self, sets: dict[str, tuple[Puzzle, ...]]) -> _Served:
        by_game: dict[str, list[Puzzle]] = {}
        by_id: dict[str, Puzzle] = {}
        for puzzles in sets.values():
            for puzzle in puzzles:
                game = get_spec(puzzle.game).name
                if puzzle.id in by_id or self.base.by_id(puzzle.id) is not None:
                    continue
                by_id[puzzle.id] = puzzle
                by_game.setdefault(game, []).append(puzzle)
        return _Served({game: tuple(found) for game, found in by_game.items()}, by_id)


__all__ = [
    "CHECK_SECONDS",
    "RECORDS_FOLDER",
    "SETS_FOLDER",
    "SiteCatalogue",
    "SiteRecords",
    "offers_puzzles",
    "record_of",
]
