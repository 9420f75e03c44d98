"""Ishigaki Race solved for 2 to 4 players: every seat maximising its own chance of winning.

The method (``docs/analysis.md``, "Ishigaki Race: best play for 2 to 4 ninjas"):

- **max^n.** At each decision (stop or roll the second die) the seat to move picks
  what gives *it* the greater chance of winning, assuming every other seat does the
  same from there on; an exact tie stops. With two players this is minimax (the
  chances add up to one), so perfect play. With three or four it is an equilibrium
  (no seat gains by changing its own play alone), not a guarantee: two seats that
  play to hurt a third can lower its chance below these values.
- **Seat rotation.** The rules treat every seat alike, so a position is stored as seen
  from the seat to move: the heights of the mover and of the seats after it in turn
  order. Four players on the 20-step wall have 20^4 = 160,000 race turn starts.
- **Three parts, each solved once.** The roll-off (I6) depends only on the number of
  rollers; the goal round (I5) lasts one turn per other seat, so it is worked
  backwards from its last turn; only the race before anyone arrives has cycles
  (slips, doubles, crumbling squares), solved by Gauss-Seidel sweeps of the turn
  equation until no chance changes by more than :data:`TOLERANCE` (compiled:
  :mod:`.maxn_kernel`; the roll-off: :mod:`.rolloff`).

:func:`compute` solves a board for a number of players now. Solutions are kept on disk
and found again by :mod:`.solutions` (players take them through its
:func:`~.solutions.available` and :func:`~.solutions.for_game`), and
:mod:`.maxn_play` is the ``perfect_play`` hook that reads them;
``stairgames solve ishigaki_race`` (:mod:`.command`) builds one.
"""

from __future__ import annotations

import dataclasses
import functools
import time
from collections.abc import Callable
from typing import Final

import numpy as np
import numpy.typing as npt

from stairgames.core.errors import InvalidOptionError
from stairgames.games.ishigaki_race import rules
from stairgames.games.ishigaki_race.research import maxn_kernel as kernel
from stairgames.games.ishigaki_race.research.rolloff import RolloffRound, rolloff_chances
from stairgames.games.ishigaki_race.rules import Board, Phase, Race
from stairgames.i18n import N_

TOLERANCE: Final = 1e-10
"""Largest change of any chance in the last sweep."""
MAX_SWEEPS: Final = 10_000
EXACT_SWEEPS: Final = 400
"""Sweeps with every mover choosing its strictly better decision; where they do not
settle (four players on the crumbling wall: near-indifferent decisions flip each other
back and forth), the sweeps go on with :data:`HYSTERESIS`."""
HYSTERESIS: Final = 1e-4
"""After :data:`EXACT_SWEEPS`: a mover keeps its last choice unless the other gives it a
chance of winning greater by more than this (an epsilon-equilibrium)."""

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclasses.dataclass(frozen=True, eq=False)
class Solved:
    """Every seat's chance of winning from every position of one board and player count,
    every seat maximising its own."""

    board: Board
    players: int
    race: FloatArray
    """(race turn start, seat) -> chance, seen from the mover (:mod:`.kernel`)."""
    margins: FloatArray
    """(race turn start, first die - 1) -> the mover's chance if it rolls minus if it stops."""
    rolls: npt.NDArray[np.bool_]
    """(race turn start, first die - 1) -> whether the mover rolls the second die."""
    hysteresis: float
    """0: every choice is the mover's better one (a tie stops); else a choice was kept
    unless the other was better by more than this (:data:`HYSTERESIS`)."""
    goal_round: FloatArray
    """(step, heights after the first to arrive, seat) -> chance, seen from the first to
    arrive (step 0 unused)."""
    rolloff: FloatArray
    """(rollers, place in the rolling order) -> chance of winning the roll-off."""
    sweeps: int
    seconds: float
    """Time the solve took (on the machine that solved it)."""
    _rounds: dict[int, RolloffRound] = dataclasses.field(default_factory=dict, repr=False)
    """Roll-off rounds searched so far, by the number of rollers."""

    # ----- positions -----------------------------------------------------------

    def value(self, race: Race) -> tuple[float, ...]:
        """Each seat's chance of winning from ``race``, at any point of a game.

        :raises ValueError: ``race`` is for another number of players, or stands
            off this board's wall.
        """
        self._check(race)
        if race.phase == Phase.OVER:
            return tuple(1.0 if seat == race.winner else 0.0 for seat in range(self.players))
        if race.phase == Phase.SETUP:
            return _mean(self.value(rules.choose_start(race, s)) for s in range(self.players))
        if race.rolling:
            return _mean(self.value(rules.roll_die(self.board, race, e)) for e in rules.DIE_FACES)
        if race.first_die:
            return self.value(rules.decide(self.board, race, self.chooses_roll(race)))
        if race.phase == Phase.ROLLOFF:
            return self._rolloff_value(race)
        if race.phase == Phase.GOAL:
            first = race.arrived[0]
            step = (race.turn - first) % self.players
            row = self.goal_round[step, self._code(race.heights, first, self.board.goal + 1)]
            return _from_seat(row, first)
        row = self.race[self._code(race.heights, race.turn, self.board.goal)]
        return _from_seat(row, race.turn)

    def decision_values(self, race: Race) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """The chances after ``stop`` and after ``roll``, for a roller that has seen its
        first die."""
        stop = self.value(rules.decide(self.board, race, False))
        roll = self.value(rules.decide(self.board, race, True))
        return stop, roll

    def chooses_roll(self, race: Race) -> bool:
        """Whether the solved policy rolls the second die in ``race`` (a first die seen)."""
        if race.phase == Phase.RACE:
            code = self._code(race.heights, race.turn, self.board.goal)
            return bool(self.rolls[code, race.first_die - 1])
        stop, roll = self.decision_values(race)
        return roll[race.turn] > stop[race.turn]

    def start_chances(self) -> tuple[float, ...]:
        """Each seat's chance of winning, by place in turn order (the start player first)."""
        return tuple(float(v) for v in self.race[0])

    def _check(self, race: Race) -> None:
        if race.players != self.players:
            raise ValueError(f"a race of {race.players} players, solved for {self.players}")
        top = self.board.goal - 1 if race.phase == Phase.RACE else self.board.goal
        if any(not 0 <= h <= top for h in race.heights):
            raise ValueError(
                f"heights {race.heights} are off a wall of {self.board.goal} steps "
                f"in the {race.phase.value} phase"
            )

    def _code(self, heights: tuple[int, ...], seat: int, base: int) -> int:
        """The number of a position seen from ``seat`` (the first to arrive in the goal
        round, who is left out)."""
        seen = [heights[(seat + k) % self.players] for k in range(self.players)]
        if base == self.board.goal + 1:
            seen = seen[1:]
        code = 0
        for height in seen:
            code = code * base + height
        return code

    # ----- the roll-off ----------------------------------------------------------

    def _rolloff_value(self, race: Race) -> tuple[float, ...]:
        """I6: a roll-off between rolls, from the rollers still to roll and the best
        score so far."""
        order = race.rollers
        best = max(race.scores, default=-1)
        leaders = tuple(p for p, score in enumerate(race.scores) if score == best)
        if len(order) not in self._rounds:
            self._rounds[len(order)] = RolloffRound(self.rolloff, len(order))
        place_chances = self._rounds[len(order)].chances(len(race.scores), best, leaders)
        chances = [0.0] * self.players
        for place, seat in enumerate(order):
            chances[seat] = place_chances[place]
        return tuple(chances)


def _from_seat(row: FloatArray, seat: int) -> tuple[float, ...]:
    """Chances stored as seen from ``seat``, by seat."""
    players = len(row)
    return tuple(float(row[(s - seat) % players]) for s in range(players))


def _mean(rows: object) -> tuple[float, ...]:
    return tuple(float(v) for v in np.mean(list(rows), axis=0))  # type: ignore[call-overload]


def settle_table(board: Board) -> IntArray:
    """Where a ninja that lands on each step 0..goal ends up (I7)."""
    return np.array([board.settle(step) for step in range(board.goal + 1)], dtype=np.int64)


SweepProgress = Callable[[int, float], None]
"""``progress(sweeps, change)``: told after every sweep of the race, with the largest
change of a chance in it (the sweeps end once it is below :data:`TOLERANCE`)."""


def compute(board: Board, players: int, progress: SweepProgress | None = None) -> Solved:
    """Solve ``board`` for ``players`` (2 to 4) now, without the cache; ``progress``
    hears of every sweep."""
    if not 2 <= players <= 4:
        raise InvalidOptionError(
            message_id=N_("Ishigaki Race is for {minimum} to {maximum} players, got {players}"),
            arguments={"minimum": 2, "maximum": 4, "players": players},
        )
    started = time.perf_counter()
    settle = settle_table(board)
    rolloff = rolloff_chances(players)
    goal_round = kernel.goal_round(players, board.goal, settle, rolloff)
    successors = race_successors(board, players)
    values = np.full((board.goal**players, players), 1.0 / players)
    rolls = np.zeros((len(values), 6), dtype=np.bool_)
    hysteresis = 0.0
    sweep = _Sweeps(values, successors, goal_round[1], rolls, progress)
    sweeps = sweep(hysteresis, EXACT_SWEEPS)
    if sweeps < 0:
        hysteresis = HYSTERESIS
        more = sweep(hysteresis, MAX_SWEEPS)
        if more < 0:
            raise RuntimeError(f"the sweeps did not settle in {MAX_SWEEPS}")
        sweeps = EXACT_SWEEPS + more
    margins = kernel.race_policy(values, successors, goal_round[1], rolls, hysteresis)
    seconds = time.perf_counter() - started
    return Solved(
        board, players, values, margins, rolls, hysteresis, goal_round, rolloff, sweeps, seconds
    )


class _Sweeps:
    """The sweeps of the race (:func:`.kernel.sweep_race`), one compiled sweep at a time,
    so that ``progress`` hears of each: the same sweeps in the same order, so the same
    values."""

    def __init__(
        self,
        values: FloatArray,
        successors: IntArray,
        arrivals: FloatArray,
        rolls: npt.NDArray[np.bool_],
        progress: SweepProgress | None,
    ) -> None:
        self.arguments = (values, successors, arrivals, rolls)
        self.margins = np.empty((values.shape[0], 6))
        self.progress = progress
        self.done = 0
        """Sweeps so far, over every call."""

    def __call__(self, hysteresis: float, most: int) -> int:
        """Sweeps until no chance changes by more than :data:`TOLERANCE`: how many this
        call made, or -1 when ``most`` did not settle it."""
        values, successors, arrivals, rolls = self.arguments
        for sweep in range(1, most + 1):
            change = float(
                kernel._sweep(values, successors, arrivals, rolls, hysteresis, self.margins, True)
            )
            self.done += 1
            if self.progress is not None:
                self.progress(self.done, change)
            if change < TOLERANCE:
                return sweep
        return -1


WARM_UP_BOARD: Final = Board(goal=4, crumbling=frozenset({2}))
"""A wall small enough to solve at once, whose solution calls every compiled function
that :func:`compute` calls on any wall (the same compiled code serves every board and
number of players)."""


def warm_up() -> None:
    """Compile (the first time on a machine) or load every compiled function that a
    player's evaluation calls (:func:`compute`), by solving :data:`WARM_UP_BOARD` for
    three players (a few milliseconds once compiled); recorded, so that
    ``kernel.KERNEL.cold()`` is false from then on."""
    compute(WARM_UP_BOARD, 3)
    kernel.KERNEL.warmed()


@functools.cache
def race_successors(board: Board, players: int) -> IntArray:
    """(race turn start, stop or roll) -> the next turn start (:mod:`.kernel`)."""
    result: IntArray = kernel.race_successors(players, board.goal, settle_table(board))
    return result


def roll_table(solved: Solved) -> tuple[IntArray, float, float]:
    """(own height, first die - 1) -> roll (1), stop (0) or never met (-1): the choice the
    solved policy makes most often there, weighted by how often each position comes up in
    its games; and the share of decisions it reproduces, weighted that way and over every
    reachable decision alike."""
    goal, players = solved.board.goal, solved.players
    successors = race_successors(solved.board, players)
    visits = kernel.visits(successors, solved.rolls, 1e-13, 100_000)
    own = np.arange(goal**players) // goal ** (players - 1)
    reached = visits > 0
    table: IntArray = np.full((goal, 6), -1, dtype=np.int64)
    agree_weighted = agree_count = 0.0
    for height in range(goal):
        here = reached & (own == height)
        if not here.any():
            continue
        rolls, weights = solved.rolls[here], visits[here][:, None]
        rolled = (rolls * weights).sum(axis=0) * 2 > weights.sum() * np.ones(6)
        table[height] = rolled
        agree_weighted += float(np.where(rolls == rolled, weights, 0.0).sum())
        agree_count += float((rolls == rolled).sum())
    return table, agree_weighted / visits.sum() / 6, agree_count / reached.sum() / 6


__all__ = [
    "EXACT_SWEEPS",
    "HYSTERESIS",
    "MAX_SWEEPS",
    "TOLERANCE",
    "Solved",
    "compute",
    "race_successors",
    "roll_table",
    "rolloff_chances",
    "settle_table",
    "warm_up",
]
