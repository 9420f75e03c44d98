"""A heuristic value of a 27 position for computer players, and :data:`HOOKS`: what
27 offers them (its registration loads it on a player's first need). The endgame
solver is compiled with numba, imported only when a player first uses it."""

from __future__ import annotations

from typing import Final

from stairgames.core.game import State
from stairgames.core.hooks import PlayerHooks, compiled_warm_up, on_first_use
from stairgames.games.twenty_seven.rules import (
    BLACK,
    INITIAL_FIELDS,
    NUM_DISCS,
    WHITE,
    score,
    stack_count,
)

LEVELS: Final = {
    "hard": "mcts:time=0.25,endgame=0.8,book=1",
    "expert": "alphabeta:time=1.8,endgame=0.8,book=1",
}
"""``hard`` and ``expert`` give 80% of their time first to the exact endgame solver
(:mod:`.solve`), as in Stairs, and play the opening book's move where it has one (the
first player's first moves, solved offline); ``hard`` searches with the compiled tree
search. Against OpenSpiel's MCTS at equal time (0.25 s) ``hard`` won 82.5% of 100 games
without the book (69% as first player) and 100% with it (``docs/agents.md``)."""

STAND_INS: Final = {"expert": "expert"}
"""The level each level's stand-in is about as strong as (``PlayerHooks.stand_ins``: what
the terminal and the page say while it plays). ``expert``'s, ``alphabeta:time=1.8,book=1``
(without the endgame solver), scored 50.0% [28.0, 72.0] of 16 games against ``expert``
and 78.1% [53.7, 91.7] of 16 against ``hard``, in the arena with two random opening
moves, each opening played with the seats exchanged, on the basic game (seeds 11900 and
11800, ``docs/research/2026-12-05-stairs-levels-priors.md``)."""

STAND_IN_BANDS: Final = {"medium": ("easy", "medium"), "hard": ("easy", "medium")}
"""The two levels a level's stand-in was measured between (``PlayerHooks.stand_in_bands``),
the same way. ``hard``'s, ``mcts:time=0.25,fast=0,book=1``, scored 26.6% [14.4, 43.8] of 32
games against ``medium`` and 8 of 8 against ``easy`` (seeds 11200, 11250 and 11300);
``medium``'s, ``mcts:time=0.05,fast=0``, 18.8% [6.6, 43.0] of 16 against ``medium`` and
81.2% [57.0, 93.4] of 16 against ``easy`` (seeds 11700 and 11100)."""


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


_PLAYOUT: Final = "stairgames.games.twenty_seven.play.playout"
_ENDGAME: Final = "stairgames.games.twenty_seven.research.endgame"

playout: Final = on_first_use(f"{_PLAYOUT}:playout")
"""Uniformly random play to the end, compiled (:func:`.playout.playout`, imported on
first use); the same games as random play through the protocol in distribution, not
move for move."""

endgame_solver: Final = on_first_use(f"{_ENDGAME}:EndgameSolver")
"""A fresh exact endgame solver for one player's games (:mod:`.endgame`)."""

HOOKS: Final = PlayerHooks(
    evaluate=evaluate,
    playout=playout,
    tree_search=on_first_use(f"{_PLAYOUT}:tree_search"),
    levels=LEVELS,
    stand_ins=STAND_INS,
    stand_in_bands=STAND_IN_BANDS,
    endgame_solver=endgame_solver,
    perfect_play=on_first_use("stairgames.games.twenty_seven.research.table_play:perfect_play"),
    opening=on_first_use("stairgames.games.twenty_seven.research.opening:book_move"),
    warm_up=compiled_warm_up(
        f"{_PLAYOUT}:warm_up",
        f"{_ENDGAME}:warm_up",
        kernel="stairgames.games.twenty_seven.research.endgame_kernel:KERNEL",
    ),
)
"""What 27 offers computer players (:class:`stairgames.core.hooks.PlayerHooks`): its
compiled parts imported on first use (numba with them): the playout above, the compiled
tree search of a state (:func:`.playout.tree_search`), the endgame solver, and the
solved tables of 27's basic game (:func:`.table_play.perfect_play`: refuses other
variants, and a machine without a table, saying how to solve; a state outside the
tables is refused when its values are asked for), and the opening book of the first
player's first moves (:func:`.opening.book_move`, for ``mcts:book=1``). The warm-up
compiles or loads the playout first, then the solver, whose warm-up records the kernel
warm."""
