"""How good an Ishigaki Race position is, for computer players, and the levels.

The value of a position for a seat is ``2·P(win) − 1``, with P each seat's chance of
winning when every seat maximises its own from there (:func:`chance_of_winning`):

- **Two players:** exact, perfect play, from the game solved by value iteration
  (:mod:`stairgames.games.ishigaki_race.research.value_iteration`, about a second once per board and
  process).
- **Three players:** exact, from the max^n solution
  (:mod:`stairgames.games.ishigaki_race.research.maxn`), solved on demand in this process on the
  first need (about a second on the 20-step wall; walls of more than 21 steps are too
  big for that and are read from the solved-tables folder if built there).
- **Four players:** exact from the max^n solution where it is at hand: solved on
  demand on walls of up to 10 steps, else the table built in the solved-tables folder
  (``stairgames solve ishigaki_race --players 4 [--crumbling-wall]``; looked for once
  per process, never built from a move: that takes seconds to a minute). Without it
  (the 20-step wall until built), estimated: exact from the goal round on (a search of
  every die), and before that from two-player races pair by pair.

So the ``greedy`` player, which tries ``stop`` and ``roll`` and averages the dice,
plays the solved policy wherever P is exact.

The levels (:data:`LEVELS`) are that player with a share of its decisions taken at
random: the exact winning chances of each against the one below are in
``docs/rules/ishigaki_race.md`` ("Perfect play").

Solving the max^n solution on demand runs compiled code (numba, :mod:`.maxn_kernel`),
compiled the first time on a machine (8 to 35 s, by its load): :data:`HOOKS` offers its
warm-up (:func:`stairgames.games.ishigaki_race.research.maxn.warm_up`, run by
``stairgames prepare`` and by players prepared for three or four ninjas), and, for the
options that need it, :func:`estimate`: the evaluation without the max^n solution (the
estimate four players get without their table), which players play with while that code
is compiled in the background.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from typing import TYPE_CHECKING, Final

from stairgames.core.game import Game, State
from stairgames.core.hooks import Evaluator, PerfectPlay, PlayerHooks, compiled_warm_up
from stairgames.games.ishigaki_race import rules
from stairgames.games.ishigaki_race.research.value_iteration import MAX_SOLVED_PLAYERS, solve
from stairgames.games.ishigaki_race.rules import Board, Phase, Race

if TYPE_CHECKING:
    from stairgames.games.ishigaki_race.research.maxn import Solved

LEVELS: Final = {
    "easy": "greedy:noise=0.6",
    "medium": "greedy:noise=0.3",
    "hard": "greedy:noise=0.1",
    "expert": "greedy",
}
"""Share of decisions (stop or roll) taken at random at each level; ``expert`` none.
Random playouts are a poor guide in this race (``mcts`` lost to ``greedy``), so no
level searches."""


def evaluate(state: State, seat: int) -> float:
    """In [-1, 1] from ``seat``'s side: ``2·P(win) − 1``, with P exact wherever a solution
    is at hand and estimated for four players before the goal round when their table is
    not built (:func:`chance_of_winning`)."""
    from stairgames.games.ishigaki_race.game import IshigakiRaceState

    assert isinstance(state, IshigakiRaceState)
    return 2.0 * chance_of_winning(state.board, state.race)[seat] - 1.0


@functools.lru_cache(maxsize=200_000)
def chance_of_winning(board: Board, race: Race) -> tuple[float, ...]:
    """Each seat's chance of winning from ``race``, every seat maximising its own.

    - Over: 1 for the winner.
    - Two players: perfect play, from the solved game (:mod:`.solve`).
    - Three or four players where the max^n solution is at hand
      (:func:`exact_solution`: solved on demand when small, as three players on the
      20-step wall are, else once its table is built): exact, from it.
    - Otherwise (no solution at hand, as for four players on the 20-step wall until
      their table is built), once a ninja is on the goal (the goal round, a roll-off):
      exact, searching every die to the end with each seat maximising its own chance
      (a tied roll-off repeated more than :data:`ROLLOFF_REPEATS` times is shared);
      the search forgets what no longer matters in a roll-off (:func:`_canonical`), so
      it takes well under a second.
    - Otherwise, before that: each pair of ninjas is treated as a two-player race from
      the same heights, in the same turn order, valued by perfect play; a seat's
      strength is the product of its chances against each other seat, and the chances
      are the strengths' shares.
    - A race that no game reaches (built by hand): the height lead.
    """
    players = race.players
    if race.phase == Phase.OVER or players <= MAX_SOLVED_PLAYERS:
        return estimated_chance_of_winning(board, race)
    try:
        exact = exact_solution(board, players)
        if exact is not None:
            return exact.value(race)
    except (KeyError, ValueError):
        return _height_shares(board, race)
    return estimated_chance_of_winning(board, race)


@functools.lru_cache(maxsize=200_000)
def estimated_chance_of_winning(board: Board, race: Race) -> tuple[float, ...]:
    """:func:`chance_of_winning` without the max^n solution of three or four players
    (so without compiled code): exact for two players and from the goal round on, the
    pairwise estimate before it, the height lead for a race that no game reaches."""
    players = race.players
    if race.phase == Phase.OVER:
        return tuple(1.0 if seat == race.winner else 0.0 for seat in range(players))
    try:
        if players <= MAX_SOLVED_PLAYERS:
            return solve(board, players).value(race)
        if race.phase in (Phase.GOAL, Phase.ROLLOFF):
            return _to_the_end(board, _canonical(race), ROLLOFF_REPEATS)
        if race.phase == Phase.RACE:
            return _pairwise(board, race)
    except (KeyError, ValueError):
        pass
    return _height_shares(board, race)


@functools.cache
def exact_solution(board: Board, players: int) -> Solved | None:
    """The max^n solution of ``board`` for ``players`` (3 or 4) if it is at hand without
    a long wait (:func:`stairgames.games.ishigaki_race.research.solutions.available`): solved
    now when small (up to 10,000 race positions: three players on walls of up to 21 steps, about
    a second; four up to 10; not written to disk), else read from the solved-tables
    folder if built there; ``None`` otherwise.
    Looked for once per board and process, so a table built later is used from the next
    process on. (:mod:`.maxn` compiles with numba, so it is imported only here.)"""
    from stairgames.games.ishigaki_race.research import solutions

    return solutions.available(board, players, keep=False)


ROLLOFF_REPEATS: Final = 2
"""Tied roll-offs searched before the rest is counted as an equal share (two ties in a
row have a chance of a few per cent, and sharing them evenly changes few decisions)."""


@functools.lru_cache(maxsize=200_000)
def _to_the_end(board: Board, race: Race, repeats: int) -> tuple[float, ...]:
    """Exact chances from the goal round or a roll-off on, every seat maximising its own."""
    if race.phase == Phase.OVER:
        return tuple(1.0 if seat == race.winner else 0.0 for seat in range(race.players))
    if race.phase == Phase.ROLLOFF and not race.scores and repeats < 0:
        share = 1.0 / len(race.rollers)
        return tuple(share if seat in race.rollers else 0.0 for seat in range(race.players))
    if race.first_die and not race.rolling:
        stop = _next(board, race, rules.decide(board, race, False), repeats)
        roll = _next(board, race, rules.decide(board, race, True), repeats)
        return roll if roll[race.turn] > stop[race.turn] else stop
    outcomes = [
        _next(board, race, rules.roll_die(board, race, face), repeats) for face in rules.DIE_FACES
    ]
    return tuple(sum(column) / len(outcomes) for column in zip(*outcomes, strict=True))


def _next(board: Board, before: Race, after: Race, repeats: int) -> tuple[float, ...]:
    restarted = before.phase == Phase.ROLLOFF and after.phase == Phase.ROLLOFF
    restarted = restarted and bool(before.scores or before.first_die) and not after.scores
    return _to_the_end(board, _canonical(after), repeats - 1 if restarted else repeats)


def _canonical(race: Race) -> Race:
    """A roll-off with everything that no longer matters forgotten, so searches are
    shared: the heights, and every score below the best so far (marked -1)."""
    if race.phase != Phase.ROLLOFF:
        return race
    best = max(race.scores, default=0)
    scores = tuple(score if score == best else -1 for score in race.scores)
    return dataclasses.replace(race, heights=(0,) * race.players, scores=scores)


def _pairwise(board: Board, race: Race) -> tuple[float, ...]:
    """Before anyone reaches the goal: shares of the products of pairwise chances."""
    solution = solve(board, 2)
    players = race.players
    order = [(race.turn + k) % players for k in range(players)]
    strength = [1.0] * players
    for first, second in itertools.combinations(order, 2):
        mover = race.turn == first
        pair = Race(
            (race.heights[first], race.heights[second]),
            turn=0,
            first_die=race.first_die if mover else 0,
            rolling=race.rolling if mover else False,
        )
        chances = solution.value(pair)
        strength[first] *= chances[0]
        strength[second] *= chances[1]
    total = sum(strength)
    return tuple(s / total for s in strength)


def _height_shares(board: Board, race: Race) -> tuple[float, ...]:
    """The fallback: each seat's height lead over the best other, mapped into chances."""
    leads = []
    for seat, height in enumerate(race.heights):
        others = max(h for s, h in enumerate(race.heights) if s != seat)
        leads.append(max(-1.0, min(1.0, (height - others) / board.goal)))
    return tuple((1.0 + lead) / 2.0 for lead in leads)


def height_lead(state: State, seat: int) -> float:
    """How far ``seat`` stands above (or below) the best of the others, over the goal's
    height: the evaluation before perfect play was used, kept for comparisons."""
    from stairgames.games.ishigaki_race.game import IshigakiRaceState

    assert isinstance(state, IshigakiRaceState)
    heights = state.heights()
    others = max(h for s, h in enumerate(heights) if s != seat)
    return (heights[seat] - others) / state.board.goal


def perfect_play(game: Game) -> PerfectPlay:
    """The ``perfect_play`` hook: the game solved for its players by max^n
    (:func:`stairgames.games.ishigaki_race.research.maxn_play.perfect_play`, which compiles with
    numba, so it is imported only here)."""
    from stairgames.games.ishigaki_race.research.maxn_play import perfect_play as solved_play

    return solved_play(game)


def estimated(state: State, seat: int) -> float:
    """:func:`evaluate` without the max^n solution (:func:`estimated_chance_of_winning`):
    what players of three or four ninjas play with while its compiled code is compiled."""
    from stairgames.games.ishigaki_race.game import IshigakiRaceState

    assert isinstance(state, IshigakiRaceState)
    return 2.0 * estimated_chance_of_winning(state.board, state.race)[seat] - 1.0


def estimate(game: Game) -> Evaluator | None:
    """The ``estimate`` hook: :func:`estimated` where :func:`evaluate` solves the max^n
    solution on demand, in compiled code (three players, and four on small walls, without
    a table built); ``None`` elsewhere (two players; a table read from disk; the estimate
    already)."""
    board: Board = game.board  # type: ignore[attr-defined]
    return estimated if _solved_on_demand(board, game.num_players()) else None


@functools.cache
def _solved_on_demand(board: Board, players: int) -> bool:
    """Whether :func:`exact_solution` would solve ``board`` for ``players`` now (compiled)."""
    if players <= MAX_SOLVED_PLAYERS:
        return False
    from stairgames.games.ishigaki_race.research import solutions

    small = board.goal**players <= solutions.ON_DEMAND_STATES
    return small and solutions.cached(board, players) is None


HOOKS: Final = PlayerHooks(
    evaluate=evaluate,
    levels=LEVELS,
    perfect_play=perfect_play,
    warm_up=compiled_warm_up(
        "stairgames.games.ishigaki_race.research.maxn:warm_up",
        kernel="stairgames.games.ishigaki_race.research.maxn_kernel:KERNEL",
    ),
    estimate=estimate,
)
"""What Ishigaki Race offers computer players (its registration loads it on a
player's first need): the evaluation, the levels, the solved game, and the warm-up of
the max^n solver's compiled code with the estimate that players use while it compiles
(:func:`estimate`)."""
