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
  :mod:`.kernel`).

Solutions that take more than :data:`CACHE_SECONDS` are kept on disk
(:func:`cache_dir`), keyed by the board, the number of players and the solver's
sources (the game's evaluation, :mod:`.evaluate`, reads them but never writes one).
Players take a solution through :func:`available` (what is at hand without a long
build) or :func:`for_game` (that, or a refusal that names the command to build it).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import os
import time
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from stairgames.core.errors import InvalidOptionError
from stairgames.core.game import Game, State
from stairgames.core.solvers import solved_dir
from stairgames.games.ishigaki_race import rules
from stairgames.games.ishigaki_race.notation import ROLL, STOP
from stairgames.games.ishigaki_race.research import maxn_kernel as kernel
from stairgames.games.ishigaki_race.rules import Board, Phase, Race
from stairgames.i18n import N_, Text

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
CACHE_SECONDS: Final = 2.0
"""Solutions slower than this to compute are saved in the cache directory."""

DEFAULT_SQUARES: Final = (5, 9, 13, 17)
"""The crumbling wall's "−2" squares by default (I8; the game's ``crumbling_squares``)."""

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


def cache_dir() -> Path:
    """Where solved tables are kept: with the other games' solved tables
    (:func:`stairgames.core.solvers.solved_dir`, e.g.
    ``~/.local/share/stairgames/solved/ishigaki_race``), where ``stairgames solve
    ishigaki_race`` puts them by default."""
    return solved_dir() / "ishigaki_race"


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
    _rounds: dict[int, _RolloffRound] = dataclasses.field(default_factory=dict, repr=False)
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
            self._rounds[len(order)] = _RolloffRound(self.rolloff, len(order))
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


# ----- the roll-off -------------------------------------------------------------


def _rolloff_round(
    rolloff: FloatArray, rollers: int, place: int, best: int, leaders: tuple[int, ...]
) -> tuple[float, ...]:
    """The chances, by place in the rolling order, of ``rollers`` rolling off when the
    roller at ``place`` is to roll, the best score so far is ``best`` (``-1``: none) and
    ``leaders`` are the places that scored it; ties roll off again in the same order,
    with chances ``rolloff`` (I6)."""
    return _RolloffRound(rolloff, rollers).chances(place, best, leaders)


class _RolloffRound:
    """One round of a roll-off, searched with the positions it shares remembered."""

    def __init__(self, rolloff: FloatArray, rollers: int) -> None:
        self.rolloff = rolloff
        self.rollers = rollers
        self.known: dict[tuple[int, int, tuple[int, ...]], FloatArray] = {}

    def chances(self, place: int, best: int, leaders: tuple[int, ...]) -> tuple[float, ...]:
        return tuple(float(v) for v in self._chances(place, best, leaders))

    def _chances(self, place: int, best: int, leaders: tuple[int, ...]) -> FloatArray:
        key = (place, best, leaders)
        if key not in self.known:
            self.known[key] = self._search(place, best, leaders)
        return self.known[key]

    def _search(self, place: int, best: int, leaders: tuple[int, ...]) -> FloatArray:
        chances = np.zeros(self.rollers)
        if place == self.rollers:
            if len(leaders) == 1:
                chances[leaders[0]] = 1.0
            for rank, p in enumerate(leaders if len(leaders) > 1 else ()):
                chances[p] = self.rolloff[len(leaders), rank]
            return chances
        for first in rules.DIE_FACES:
            stop = self._after_score(place, best, leaders, first)
            roll = np.mean(
                [
                    self._after_score(place, best, leaders, rules.rolloff_score(first, e))
                    for e in rules.DIE_FACES
                ],
                axis=0,
            )
            chances += roll if roll[place] > stop[place] else stop
        return chances / 6

    def _after_score(
        self, place: int, best: int, leaders: tuple[int, ...], score: int
    ) -> FloatArray:
        if score > best:
            best, leaders = score, (place,)
        elif score == best:
            leaders = (*leaders, place)
        return self._chances(place + 1, best, leaders)


def rolloff_chances(players: int) -> FloatArray:
    """(rollers, place) -> the chance that the roller at that place in the rolling order
    wins a roll-off of that many (rows 0 and 1 unused), every roller maximising its own
    chance; a tie among all of them repeats the roll-off, so each row is a fixed point."""
    chances = np.zeros((players + 1, players))
    for rollers in range(2, players + 1):
        chances[rollers, :rollers] = 1.0 / rollers
        for _ in range(200):
            updated = np.array(_rolloff_round(chances, rollers, 0, -1, ()))
            change = float(np.abs(updated - chances[rollers, :rollers]).max())
            chances[rollers, :rollers] = updated
            if change < 1e-15:
                break
    return chances


# ----- solving ----------------------------------------------------------------------


def settle_table(board: Board) -> IntArray:
    """Where a ninja that lands on each step 0..goal ends up (I7)."""
    return np.array([board.settle(step) for step in range(board.goal + 1)], dtype=np.int64)


def compute(board: Board, players: int) -> Solved:
    """Solve ``board`` for ``players`` (2 to 4) now, without the cache."""
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
    sweeps = kernel.sweep_race(
        values, successors, goal_round[1], rolls, hysteresis, TOLERANCE, EXACT_SWEEPS
    )
    if sweeps < 0:
        hysteresis = HYSTERESIS
        more = kernel.sweep_race(
            values, successors, goal_round[1], rolls, hysteresis, TOLERANCE, MAX_SWEEPS
        )
        if more < 0:
            raise RuntimeError(f"the sweeps did not settle in {MAX_SWEEPS}")
        sweeps = EXACT_SWEEPS + more
    margins = kernel.race_policy(values, successors, goal_round[1], rolls, hysteresis)
    seconds = time.perf_counter() - started
    return Solved(
        board, players, values, margins, rolls, hysteresis, goal_round, rolloff, sweeps, seconds
    )


@functools.cache
def race_successors(board: Board, players: int) -> IntArray:
    """(race turn start, stop or roll) -> the next turn start (:mod:`.kernel`)."""
    result: IntArray = kernel.race_successors(players, board.goal, settle_table(board))
    return result


def cache_path(board: Board, players: int, folder: Path | None = None) -> Path:
    """The file that keeps this solution in ``folder`` (default :func:`cache_dir`); its
    name holds the solver's digest."""
    squares = "-".join(str(s) for s in sorted(board.crumbling)) or "none"
    name = f"{players}p-goal{board.goal}-crumbling{squares}-{_sources_digest()}.npz"
    return (folder or cache_dir()) / name


@functools.cache
def _sources_digest() -> str:
    """A digest of the compiled kernel's sources (with the rules) and of this module."""
    hasher = hashlib.sha256(kernel.KERNEL.digest().encode())
    hasher.update(Path(__file__).read_bytes())
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
            found = compute(board, players)
            if keep and found.seconds > CACHE_SECONDS:
                save(found)
        _SOLVED[key] = found
    return _SOLVED[key]


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


# ----- the perfect player's view --------------------------------------------------------

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


class SolvedPlay:
    """:class:`stairgames.core.hooks.PerfectPlay` from a solution: each decision's
    chances of winning when every seat maximises its own from there (max^n)."""

    def __init__(self, solved: Solved) -> None:
        self.solved = solved

    def action_values(self, state: State) -> dict[int, list[float]]:
        race = _race_of(state)
        if race.phase in (Phase.SETUP, Phase.OVER) or not race.first_die or race.rolling:
            raise ValueError(f"no decision to value in {state.position()}")
        stop, roll = self.solved.decision_values(race)
        return {STOP: list(stop), ROLL: list(roll)}

    def principal_variation(self, state: State, *, limit: int = 200) -> list[int]:
        """The solved policy's actions from ``state``; every die and start seat is equally
        likely, so the chance outcomes are the lowest of the most likely (the first
        listed)."""
        line: list[int] = []
        current = state.clone()
        while len(line) < limit and not current.is_terminal():
            if current.is_chance_node():
                outcomes = current.chance_outcomes()
                best = max(p for _, p in outcomes)
                action = next(a for a, p in outcomes if p == best)
            else:
                action = ROLL if self.solved.chooses_roll(_race_of(current)) else STOP
            current.apply_action(action)
            line.append(action)
        return line


def _race_of(state: State) -> Race:
    race = getattr(state, "race", None)
    if not isinstance(race, Race):
        raise TypeError(f"not an Ishigaki Race state: {type(state).__name__}")
    return race


def perfect_play(game: Game) -> SolvedPlay:
    """The ``perfect_play`` hook: the solved policy of ``game``'s board and players.

    :raises InvalidOptionError: as :func:`for_game`.
    """
    board: Board = game.board  # type: ignore[attr-defined]
    return SolvedPlay(for_game(board, game.num_players()))


def main(argv: list[str] | None = None) -> None:
    """Build and keep a solution: ``python -m stairgames.games.ishigaki_race.research.maxn``."""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--goal", type=int, default=20)
    parser.add_argument("--crumbling", action="store_true", help="the crumbling wall (I7)")
    parser.add_argument(
        "--squares",
        default=",".join(str(s) for s in DEFAULT_SQUARES),
        help="its -2 squares (default: %(default)s)",
    )
    args = parser.parse_args(argv)
    squares = frozenset(int(s) for s in args.squares.split(",")) if args.crumbling else frozenset()
    board = Board(goal=args.goal, crumbling=squares)
    solved = compute(board, args.players)
    path = save(solved)
    chances = ", ".join(f"{c:.4f}" for c in solved.start_chances())
    print(f"solved in {solved.seconds:.1f} s ({solved.sweeps} sweeps): {path}")
    print(f"chances by place in turn order: {chances}")


if __name__ == "__main__":
    main()
