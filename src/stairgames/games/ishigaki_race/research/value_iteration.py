"""Exact values of Ishigaki Race positions by value iteration over whole turns.

A turn is: a die (chance), the decision ``stop`` or ``roll``, and after ``roll`` a
second die (chance). So the value of a position at the start of a turn (or of a
roll-off roll) is fixed by the values of the turn starts one turn later:

    V(s) = 1/6 · Σ_d  choice of the mover between  V(stop after d)  and  1/6 · Σ_e V(after d, e)

Doubles send ninjas down, so positions form cycles; the values are found by
iterating the equation from an even start until no value changes by more than
:data:`TOLERANCE`. With every seat choosing what gives it the greater chance of
winning (max^n) and two players, this is the minimax solution: perfect play.

Every turn start reachable from the initial position is enumerated once, with the
turn starts its 6 stops and 36 rolls lead to stored as index arrays, so a sweep is
a few array operations. The cost grows with 21^players: two players take about a
second; three (about 29,000 turn starts) about a minute. :mod:`.maxn` solves two to
four players far faster (positions seen from the mover, compiled sweeps) and is what
the ``perfect`` player uses; this one stays as its independent check and for
:func:`policy_values` (noisy seats, fixed references).

A seat may also play with ``noise``: with that chance, at each decision, it stops
or rolls at random instead of choosing. Against a fixed ``reference`` (the perfect
play of :func:`solve`), this gives the exact winning chances of the ``greedy``
player with the game's evaluation, at any noise, against another: how the
project measures its levels and the ceiling of any player against ``random``
(``docs/rules/ishigaki_race.md``, "Perfect play").
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from stairgames.games.ishigaki_race import rules
from stairgames.games.ishigaki_race.rules import Board, Phase, Race

TOLERANCE: Final = 1e-10
"""Largest change of any value in the last sweep."""
MAX_SWEEPS: Final = 20_000
MAX_SOLVED_PLAYERS: Final = 2
"""Solved on demand here for two players; three take about a minute (:func:`policy_values`
still does it, as the check of :mod:`.maxn`, which solves three and four)."""

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]


@dataclasses.dataclass(frozen=True, eq=False)
class Solution:
    """Every seat's chance of winning from every turn start of one board."""

    board: Board
    players: int
    index: dict[Race, int]
    """Turn starts (``first_die == 0``, not rolling, not over) by their row in ``values``."""
    values: FloatArray
    """A row per turn start, then a row per winner (its unit vector); a column per seat."""
    sweeps: int
    """Sweeps the iteration took."""

    def value(self, race: Race) -> tuple[float, ...]:
        """Each seat's chance of winning from ``race``, at any point of a turn, when every
        seat plays its best from here.

        :raises KeyError: ``race`` is not reachable from the start of a game.
        """
        if race.phase == Phase.OVER:
            return tuple(1.0 if seat == race.winner else 0.0 for seat in range(self.players))
        if race.phase == Phase.SETUP:
            return _mean(self.value(rules.choose_start(race, s)) for s in range(self.players))
        if race.rolling:
            return _mean(self.value(rules.roll_die(self.board, race, e)) for e in rules.DIE_FACES)
        if race.first_die:
            stop, roll = self.decision_values(race)
            return roll if roll[race.turn] > stop[race.turn] else stop
        return tuple(float(v) for v in self.values[self.index[race]])

    def decision_values(self, race: Race) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """The values of ``stop`` and of ``roll`` for a roller who has seen its first die."""
        stop = self.value(rules.decide(self.board, race, False))
        roll = self.value(rules.decide(self.board, race, True))
        return stop, roll


def _mean(rows: Iterable[tuple[float, ...]]) -> tuple[float, ...]:
    return tuple(float(v) for v in np.mean(list(rows), axis=0))


def turn_starts(board: Board, players: int) -> list[Race]:
    """Every turn start (and roll-off roll start) reachable from the start of a game."""
    first = [rules.choose_start(rules.initial_race(players, None), s) for s in range(players)]
    seen: dict[Race, None] = dict.fromkeys(first)
    frontier = list(first)
    while frontier:
        race = frontier.pop()
        for following in _after_each_turn(board, race):
            if following.phase != Phase.OVER and following not in seen:
                seen[following] = None
                frontier.append(following)
    return list(seen)


def _after_each_turn(board: Board, race: Race) -> list[Race]:
    """Where each turn from ``race`` ends: the 6 stops, then the 36 rolls, in die order."""
    stops: list[Race] = []
    rolls: list[Race] = []
    for first in rules.DIE_FACES:
        seen_first = rules.roll_die(board, race, first)
        stops.append(rules.decide(board, seen_first, False))
        rolling = rules.decide(board, seen_first, True)
        rolls.extend(rules.roll_die(board, rolling, second) for second in rules.DIE_FACES)
    return stops + rolls


@dataclasses.dataclass(frozen=True)
class _Turns:
    """The turn starts of a board as arrays: where each stop and roll leads, who decides."""

    starts: list[Race]
    index: dict[Race, int]
    stops: IntArray
    """(turn start, first die) -> row after stopping."""
    rolls: IntArray
    """(turn start, first die, second die) -> row after rolling."""
    movers: IntArray


@functools.cache
def _turns(board: Board, players: int) -> _Turns:
    starts = turn_starts(board, players)
    index = {race: row for row, race in enumerate(starts)}
    size = len(starts)

    def row_of(race: Race) -> int:
        return size + race.winner if race.phase == Phase.OVER else index[race]

    table = np.array([[row_of(r) for r in _after_each_turn(board, s)] for s in starts], np.intp)
    movers = np.array([s.turn for s in starts], np.intp)
    return _Turns(starts, index, table[:, :6], table[:, 6:].reshape(size, 6, 6), movers)


def policy_values(
    board: Board,
    players: int,
    noise: Sequence[float] | None = None,
    reference: Solution | None = None,
) -> Solution:
    """Value iteration with each seat deciding at random with its ``noise`` (0: never,
    1: always) and otherwise choosing: as ``reference`` plays where given, else what
    gives it the greater chance of winning in this very game (a best response)."""
    chances = tuple(noise) if noise is not None else (0.0,) * players
    if len(chances) != players or not all(0.0 <= c <= 1.0 for c in chances):
        raise ValueError(f"noise needs {players} chances from 0 to 1, got {chances}")
    turns = _turns(board, players)
    size = len(turns.starts)
    values = np.full((size + players, players), 1.0 / players)
    values[size:] = np.eye(players)
    fixed = None if reference is None else _reference_choices(turns, reference)
    random_share = np.array(chances)[turns.movers][:, None, None]
    sweeps = _iterate(values, turns, random_share, fixed)
    return Solution(board, players, turns.index, values, sweeps)


def _reference_choices(turns: _Turns, reference: Solution) -> BoolArray:
    """(turn start, first die) -> whether the reference rolls the second die."""
    rows = reference.values
    size = len(turns.starts)
    picks = np.arange(size)[:, None], np.arange(6)[None, :], turns.movers[:, None]
    stop = rows[turns.stops][picks]
    roll = rows[turns.rolls].mean(axis=2)[picks]
    return np.asarray(roll > stop)


def _iterate(
    values: FloatArray, turns: _Turns, random_share: FloatArray, fixed: BoolArray | None
) -> int:
    """Sweep the turn equation over every turn start until it holds (in place)."""
    size = len(turns.starts)
    picks = np.arange(size)[:, None], np.arange(6)[None, :], turns.movers[:, None]
    for sweep in range(1, MAX_SWEEPS + 1):
        stop = values[turns.stops]
        roll = values[turns.rolls].mean(axis=2)
        rolls = fixed if fixed is not None else roll[picks] > stop[picks]
        chosen = np.where(rolls[..., None], roll, stop)
        decided = random_share * (roll + stop) / 2 + (1 - random_share) * chosen
        updated = decided.mean(axis=1)
        change = float(np.abs(updated - values[:size]).max())
        values[:size] = updated
        if change < TOLERANCE:
            return sweep
    raise RuntimeError(f"value iteration did not settle in {MAX_SWEEPS} sweeps")


@functools.cache
def solve(board: Board, players: int) -> Solution:
    """Perfect play, every seat maximising its chance of winning; cached per board.

    >>> from stairgames.games.ishigaki_race.rules import Board, initial_race
    >>> first_mover = rules.choose_start(initial_race(2, None), 0)
    >>> [round(p, 4) for p in solve(Board(), 2).value(first_mover)]
    [0.521, 0.479]

    :raises ValueError: more than :data:`MAX_SOLVED_PLAYERS` players.
    """
    if players > MAX_SOLVED_PLAYERS:
        raise ValueError(
            f"Ishigaki Race is solved on demand for up to {MAX_SOLVED_PLAYERS} players, "
            f"not {players}"
        )
    return policy_values(board, players)
