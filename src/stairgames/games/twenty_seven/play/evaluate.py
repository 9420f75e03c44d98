"""A heuristic value of a 27 position for computer players, and :data:`HOOKS`: what
27 offers them (its registration loads it on a player's first need). The endgame
solver is compiled with numba, imported only when a player first uses it."""

from __future__ import annotations

import functools
import random
from typing import TYPE_CHECKING, Final

from stairgames.core.game import Game, State
from stairgames.core.hooks import EndgameSolver, PerfectPlay, PlayerHooks, WarmUp
from stairgames.games.twenty_seven.rules import (
    BLACK,
    INITIAL_FIELDS,
    NUM_DISCS,
    WHITE,
    score,
    stack_count,
)

if TYPE_CHECKING:
    from stairgames.core.uct import TreeSearch

LEVELS: Final = {
    "hard": "mcts:time=0.25,endgame=0.8",
    "expert": "alphabeta:time=1.8,endgame=0.8",
}
"""``hard`` and ``expert`` give 80% of their time first to the exact endgame solver
(:mod:`.solve`), as in Stairs; ``hard`` searches with the compiled tree search
(``docs/agents.md`` has the ladder measured with them)."""


def evaluate(state: State, seat: int) -> float:
    """In [-1, 1] from ``seat``'s side: the result once the game is over; before, the mean
    of the score difference so far (discs on each target, T5, over the 27 discs) and the
    difference in stacks (over 9).

    More stacks mean longer moves and more choice; in one-move-ahead play this term
    roughly doubles the edge over random play (greedy wins about 60 % of its games
    against random with the score alone, about 80 % with both).
    """
    from stairgames.games.twenty_seven.game import TwentySevenState

    assert isinstance(state, TwentySevenState)
    if state.is_terminal():
        return state.returns()[seat]
    line = state.line
    mine, theirs = (WHITE, BLACK) if seat == 0 else (BLACK, WHITE)
    scores = (score(line, mine) - score(line, theirs)) / NUM_DISCS
    stacks = (stack_count(line, mine) - stack_count(line, theirs)) / INITIAL_FIELDS
    return (scores + stacks) / 2


def endgame_solver() -> EndgameSolver:
    """A fresh exact endgame solver for one player's games (:mod:`.solve`)."""
    from stairgames.games.twenty_seven.research.endgame import EndgameSolver as CompiledSolver

    return CompiledSolver()


@functools.cache
def _warm_up() -> None:
    """Once a process (players prepare for every game of an arena): the compiled
    playout first, then the solver, whose warm-up records the kernel warm."""
    from stairgames.games.twenty_seven.play import playout as compiled
    from stairgames.games.twenty_seven.research.endgame import warm_up

    compiled.warm_up()
    warm_up()


def _cold() -> bool:
    from stairgames.games.twenty_seven.research.endgame_kernel import KERNEL

    return KERNEL.cold()


def playout(state: State, rng: random.Random) -> list[float]:
    """Uniformly random play to the end, compiled (:mod:`.playout`, imported on first
    use); the same games as random play through the protocol in distribution, not move
    for move (one draw from ``rng`` seeds the compiled generator)."""
    from stairgames.games.twenty_seven.play.playout import playout as compiled

    return compiled(state, rng)


def tree_search(state: State) -> TreeSearch:
    """The compiled tree search of ``state`` (:mod:`.playout`, imported on first use)."""
    from stairgames.games.twenty_seven.play.playout import tree_search as compiled

    return compiled(state)


def perfect_play(game: Game) -> PerfectPlay:
    """The solved tables of 27's basic game (:func:`.retrograde.perfect_play`, imported on
    first use): refuses other variants, and a machine without a table, saying how to
    solve; a state outside the tables is refused when its values are asked for."""
    from stairgames.games.twenty_seven.research.retrograde import perfect_play as from_tables

    return from_tables(game)


HOOKS: Final = PlayerHooks(
    evaluate=evaluate,
    playout=playout,
    tree_search=tree_search,
    levels=LEVELS,
    endgame_solver=endgame_solver,
    perfect_play=perfect_play,
    warm_up=WarmUp(run=_warm_up, cold=_cold),
)
"""What 27 offers computer players (:class:`stairgames.core.hooks.PlayerHooks`)."""
