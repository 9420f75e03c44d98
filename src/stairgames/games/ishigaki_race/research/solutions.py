"""Solutions of Ishigaki Race kept on disk, and the one a player may use.

A solution (:class:`.maxn.Solved`) that takes more than :data:`CACHE_SECONDS` to compute
is kept in :func:`cache_dir`, keyed by the board, the number of players and the
solver's sources (the game's evaluation, :mod:`.evaluate`, reads them but never writes
one). Players take a solution through :func:`available` (what is at hand without a
long build) or :func:`for_game` (that, or a refusal that names the command to build
it, :func:`solve_command`).
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path
from typing import Final

import numpy as np

from stairgames.core.errors import InvalidOptionError
from stairgames.core.solvers import solved_dir
from stairgames.games.ishigaki_race.research import maxn, rolloff
from stairgames.games.ishigaki_race.research import maxn_kernel as kernel
from stairgames.games.ishigaki_race.research.maxn import Solved
from stairgames.games.ishigaki_race.rules import Board
from stairgames.i18n import N_, Text

CACHE_SECONDS: Final = 2.0
"""Solutions slower than this to compute are saved in the cache directory."""
DEFAULT_SQUARES: Final = (5, 9, 13, 17)
"""The crumbling wall's "−2" squares by default (I8; the game's ``crumbling_squares``)."""


def cache_dir() -> Path:
    """Where solved tables are kept: with the other games' solved tables
    (:func:`stairgames.core.solvers.solved_dir`, e.g.
    ``~/.local/share/stairgames/solved/ishigaki_race``), where ``stairgames solve
    ishigaki_race`` puts them by default."""
    return solved_dir() / "ishigaki_race"


def cache_path(board: Board, players: int, folder: Path | None = None) -> Path:
    """The file that keeps this solution in ``folder`` (default :func:`cache_dir`); its
    name holds the solver's digest."""
    squares = "-".join(str(s) for s in sorted(board.crumbling)) or "none"
    name = f"{players}p-goal{board.goal}-crumbling{squares}-{_sources_digest()}.npz"
    return (folder or cache_dir()) / name


@functools.cache
def _sources_digest() -> str:
    """A digest of the compiled kernel's sources (with the rules) and of the solver's
    modules (:mod:`.maxn`, :mod:`.rolloff`)."""
    hasher = hashlib.sha256(kernel.KERNEL.digest().encode())
    for module in (maxn, rolloff):
        hasher.update(Path(module.__file__ or "").read_bytes())
    return hasher.hexdigest()[:12]


def cached(board: Board, players: int, folder: Path | None = None) -> Solved | None:
    """The solution kept on disk in ``folder`` (default :func:`cache_dir`), if any (a
    damaged file counts as none)."""
    path = cache_path(board, players, folder)
    try:
        with np.load(path) as stored:
            return Solved(
                board,
                players,
                stored["race"],
                stored["margins"],
                stored["rolls"],
                float(stored["hysteresis"]),
                stored["goal_round"],
                stored["rolloff"],
                int(stored["sweeps"]),
                float(stored["seconds"]),
            )
    except (OSError, KeyError, ValueError):
        return None


def save(solved: Solved, folder: Path | None = None) -> Path:
    """Keep ``solved`` on disk in ``folder`` (default :func:`cache_dir`), written whole
    or not at all."""
    path = cache_path(solved.board, solved.players, folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.partial.npz")
    np.savez_compressed(
        partial,
        race=solved.race,
        margins=solved.margins,
        rolls=solved.rolls,
        hysteresis=solved.hysteresis,
        goal_round=solved.goal_round,
        rolloff=solved.rolloff,
        sweeps=solved.sweeps,
        seconds=solved.seconds,
    )
    os.replace(partial, path)
    return path


_SOLVED: dict[tuple[Board, int], Solved] = {}


def solve(
    board: Board, players: int, *, compute_missing: bool = True, keep: bool = True
) -> Solved | None:
    """The solution of ``board`` for ``players``: from this process, from the cache, or
    computed (and, where ``keep``, cached when slower than :data:`CACHE_SECONDS`);
    ``None`` where it is neither kept nor ``compute_missing``."""
    key = (board, players)
    if key not in _SOLVED:
        found = cached(board, players)
        if found is None:
            if not compute_missing:
                return None
            found = maxn.compute(board, players)
            if keep and found.seconds > CACHE_SECONDS:
                save(found)
        _SOLVED[key] = found
    return _SOLVED[key]


ON_DEMAND_STATES: Final = 10_000
"""Race turn starts (``goal ** players``) solved on demand, in about a second: two and
three players on the default wall; more needs the table built first."""
MAX_STATES: Final = 2_000_000
"""Race turn starts this solver takes on at all (memory: about 400 bytes each)."""


def available(board: Board, players: int, *, keep: bool = True) -> Solved | None:
    """The solution if it is at hand without a long wait: from this process or the cache,
    or solved now when small (:data:`ON_DEMAND_STATES`, kept on disk where ``keep`` and it
    was slow); ``None`` where it would have to be built first (or is too big,
    :data:`MAX_STATES`)."""
    states = board.goal**players
    if states > MAX_STATES:
        return None
    return solve(board, players, compute_missing=states <= ON_DEMAND_STATES, keep=keep)


def for_game(board: Board, players: int) -> Solved:
    """The solution a player uses: :func:`available`, or a refusal.

    :raises InvalidOptionError: too big to solve here, or not built yet (the message says
        how to build it).
    """
    states = board.goal**players
    if states > MAX_STATES:
        raise InvalidOptionError(
            message_id=N_(
                "Ishigaki Race with {players} players on a wall of {goal} steps has {states} "
                "race positions, more than this solver takes ({most})"
            ),
            arguments={
                "players": players,
                "goal": board.goal,
                "states": f"{states:,}",
                "most": f"{MAX_STATES:,}",
            },
        )
    found = available(board, players)
    if found is None:
        raise InvalidOptionError(
            message_id=N_(
                "Ishigaki Race for {players} players ({wall}, goal {goal}) is not solved in "
                "{folder}; build it once (under a minute) with `{command}`"
            ),
            arguments={
                "players": players,
                "wall": Text(N_("crumbling wall") if board.crumbling else N_("plain wall")),
                "goal": board.goal,
                "folder": str(cache_dir()),
                "command": solve_command(board, players),
            },
        )
    return found


def solve_command(board: Board, players: int) -> str:
    """The ``stairgames solve`` command that builds the table of ``board`` for
    ``players``: the game options that differ from their defaults, as flags."""
    words = ["stairgames", "solve", "ishigaki_race", "--players", str(players)]
    if board.crumbling:
        words.append("--crumbling-wall")
    if board.goal != Board().goal:
        words += ["--goal", str(board.goal)]
    if board.crumbling and board.crumbling != frozenset(DEFAULT_SQUARES):
        words += ["--crumbling-squares", ",".join(str(s) for s in sorted(board.crumbling))]
    return " ".join(words)


__all__ = [
    "CACHE_SECONDS",
    "DEFAULT_SQUARES",
    "MAX_STATES",
    "ON_DEMAND_STATES",
    "available",
    "cache_dir",
    "cache_path",
    "cached",
    "for_game",
    "save",
    "solve",
    "solve_command",
]
