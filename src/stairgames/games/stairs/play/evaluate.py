"""A heuristic value of a Stairs position for one seat, for computer players.

Stairs is won at the greatest height (S5). The value is a logistic model of
the chance that a colour wins, fitted (``docs/agents.md``) on 66,000 positions
from 6,000 random games: the difference in stacks topped at the greatest
height H counts most, stacks topped at H-1 and H-2 count slightly against
(they are pieces the other colour may climb onto), then who S5 names as the
winner as the position stands, mobility, and being the one to move. The
log-odds ``x`` becomes a value ``tanh(x / 2) = 2 P(win) - 1`` in (-1, 1).

``LEVELS`` replaces level configurations for Stairs where the arena measured
another player stronger (see ``docs/agents.md``). :data:`HOOKS` is what Stairs
offers computer players (its registration loads it on a player's first need); the
endgame solver is compiled with numba, imported only when a player first uses it.
"""

from __future__ import annotations

import math
from typing import Final

from stairgames.core.game import State
from stairgames.core.hooks import PlayerHooks, compiled_warm_up, on_first_use
from stairgames.games.stairs import rules
from stairgames.games.stairs.game import StairsState

HEIGHT_WEIGHTS = (0.434, -0.07, -0.17, 0.028)
"""Weight of (own - other) stacks topped at heights H, H-1, H-2, H-3."""

LEADER_WEIGHT = 0.052
"""Weight of being named the winner by S5 as the position stands."""

MOBILITY_WEIGHT = 0.017
"""Weight of (own - other) moves, without the lowest-first rule."""

TO_MOVE_WEIGHT = 0.203
"""Weight of being the colour to move."""

_DEPTH = len(HEIGHT_WEIGHTS)

LEVELS: dict[str, str] = {
    "hard": "mcts:time=0.25,endgame=0.8,net=1,policy=1,c=0.5",
    "expert": "mcts:time=1.8,endgame=0.8,net=1,policy=1,c=0.5",
}
"""``hard`` and ``expert`` give 80% of their time first to the exact endgame solver
(:mod:`.solve`): against OpenSpiel's MCTS at 0.1 s a move ``mcts`` with it scored
80.5% of 200 games, without it 68.0% (``docs/agents.md``). Both search with the learned
evaluation at the leaves and its move priors (``net=1,policy=1``, :mod:`.learned`), at
exploration 0.5. From paired random openings (each opening played twice, seats
exchanged): ``hard`` so scored 91.0% [83.8, 95.2] of 100 games against the same search
on the learned value alone at 0.25 s a move (seed 7600); ``expert`` so scored 65.6%
[48.3, 79.6] of 32 against the ``alphabeta:time=1.8,endgame=0.8`` it replaces, winning
both games of 5 openings and losing both of none (seed 10100), and against the new
``hard`` 68.8% [51.4, 82.0] of 32 (seeds 8800, 8900) (``docs/research/
2026-12-05-stairs-policy-priors.md``, ``docs/research/2026-12-05-stairs-levels-priors.md``)."""


STAND_INS: dict[str, str] = {"expert": "medium"}
"""The level each level's stand-in is about as strong as (``PlayerHooks.stand_ins``: what
the terminal and the page say while it plays). ``expert``'s, ``mcts:time=1.8,c=0.5,
fast=0`` (the same search through the protocol with random playouts, without the
endgame solver or the learned parts), scored 43.8% [28.2, 60.7] of 32 games against
``medium`` and 8 of 8 against ``easy`` in the arena with two random opening moves (seeds
10400, 10500 and 10700, ``docs/research/2026-12-05-stairs-levels-priors.md``)."""

STAND_IN_BANDS: dict[str, tuple[str, str]] = {
    "medium": ("easy", "medium"),
    "hard": ("easy", "medium"),
}
"""The two levels a level's stand-in was measured between (``PlayerHooks.stand_in_bands``).
``hard``'s, ``mcts:time=0.25,c=0.5,fast=0``, scored 21.9% [11.0, 38.8] of 32 games against
``medium`` and 8 of 8 against ``easy`` the same way (seeds 10200, 10600 and 10300);
``medium``'s, ``mcts:time=0.05,fast=0``, 0 of 16 against ``medium`` and 16 of 16 against
``easy`` (seeds 11600 and 11000)."""


def evaluate(state: State, seat: int) -> float:
    """A value in [-1, 1] of ``state`` for ``seat``; the true result when the game is over."""
    assert isinstance(state, StairsState)
    if state.is_terminal():
        return state.returns()[seat]
    board = state.board
    # the seat to act plays the colour to move (cheaper than ``colour_of``)
    colour = board.to_move if state.current_player() == seat else rules.opponent(board.to_move)
    return math.tanh(log_odds(board, colour) / 2.0)


def log_odds(board: rules.Board, colour: str) -> float:
    """The model's log-odds that ``colour`` wins ``board``.

    One pass over the squares: the stacks topped near the greatest height, the S5
    counts at it, and the moves of each colour without the lowest-first rule
    (the same values as :func:`rules.verdict` and :func:`rules.movable_moves`).
    """
    stacks = board.stacks
    neighbours = _NEIGHBOURS[len(stacks)]
    heights = [len(stack) for stack in stacks]
    peak = max(heights)
    x = 0.0
    mobility = 0
    own_at_peak = other_at_peak = 0
    for square, stack in enumerate(stacks):
        if not stack:
            continue
        height = heights[square]
        mine = stack[-1] == colour
        offset = peak - height
        if offset < _DEPTH:
            x += HEIGHT_WEIGHTS[offset] if mine else -HEIGHT_WEIGHTS[offset]
            if not offset:
                if mine:
                    own_at_peak += 1
                else:
                    other_at_peak += 1
        moves = 0
        for target in neighbours[square]:
            if heights[target] == height:
                moves += 1
        mobility += moves if mine else -moves
    leader = _leader(own_at_peak, other_at_peak, board.last_arrival, colour)
    if leader is not None:
        x += LEADER_WEIGHT if leader else -LEADER_WEIGHT
    x += MOBILITY_WEIGHT * mobility
    x += TO_MOVE_WEIGHT if board.to_move == colour else -TO_MOVE_WEIGHT
    return x


def _leader(own: int, other: int, last_arrival: str | None, colour: str) -> bool | None:
    """Whether S5 names ``colour`` the winner as the board stands (``None``: nobody yet)."""
    if own == 0 or other == 0:
        return other == 0
    if own != other:
        return own > other
    if last_arrival is None:
        return None
    return last_arrival != colour


def _on_board_neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    shape = rules.geometry(size)
    return tuple(
        tuple(n for n in shape.neighbours[square] if n >= 0) for square in range(shape.num_squares)
    )


_NEIGHBOURS: Final = {
    size * size: _on_board_neighbours(size) for size in range(rules.MIN_SIZE, rules.MAX_SIZE + 1)
}
"""By the board's number of squares (S8): the on-board neighbours of each square, in the
direction order of :attr:`rules.Geometry.neighbours`."""


_PLAYOUT: Final = "stairgames.games.stairs.play.playout"
_ENDGAME: Final = "stairgames.games.stairs.research.endgame"

playout: Final = on_first_use(f"{_PLAYOUT}:playout")
"""Uniformly random play from a state to the end, compiled (:func:`.playout.playout`,
imported on first use): the same games as random play through the protocol in
distribution, not move for move. A ``swap`` (pie rule) is never chosen, nor an offer
to end by agreement (S7): players search the game without agreement. The compiled
code plays the 6×6 board; on other sizes (S8) the game is played through the protocol."""

endgame_solver: Final = on_first_use(f"{_ENDGAME}:EndgameSolver")
"""A fresh exact endgame solver for one player's games (:mod:`.endgame`)."""

HOOKS: Final = PlayerHooks(
    evaluate=evaluate,
    playout=playout,
    tree_search=on_first_use(f"{_PLAYOUT}:tree_search"),
    guided_tree_search=on_first_use(f"{_PLAYOUT}:guided_tree_search"),
    valued_tree_search=on_first_use("stairgames.games.stairs.play.learned:valued_tree_search"),
    policy_tree_search=on_first_use("stairgames.games.stairs.play.learned:policy_tree_search"),
    valued_warm_up=compiled_warm_up(
        "stairgames.games.stairs.play.learned:warm_up",
        kernel="stairgames.games.stairs.research.learn.kernel:KERNEL",
    ),
    policy_warm_up=compiled_warm_up(
        "stairgames.games.stairs.play.learned:policy_warm_up",
        kernel="stairgames.games.stairs.research.learn.priors:KERNEL",
    ),
    endgame_solver=endgame_solver,
    perfect_play=on_first_use("stairgames.games.stairs.play.perfect:perfect_play"),
    levels=LEVELS,
    stand_ins=STAND_INS,
    stand_in_bands=STAND_IN_BANDS,
    warm_up=compiled_warm_up(
        f"{_PLAYOUT}:warm_up",
        f"{_ENDGAME}:warm_up",
        kernel="stairgames.games.stairs.research.endgame_kernel:KERNEL",
    ),
)
"""What Stairs offers computer players (:class:`stairgames.core.hooks.PlayerHooks`):
its compiled parts imported on first use (numba with them): the playout above, the
compiled tree search of a state (:func:`.playout.tree_search`; ``None`` on boards other
than 6×6, which ``mcts`` then searches itself), the same with playouts guided by a
move policy (:func:`.playout.guided_tree_search`, ``mcts:guided=1``) and with leaves
valued by the learned evaluation (:func:`.learned.valued_tree_search`, ``mcts:net=1``;
guided by its policy too: :func:`.learned.policy_tree_search`, ``mcts:net=1,policy=1``;
their own warm-ups, compiled on a ``net=1`` or ``policy=1`` player's first need), the endgame
solver, and perfect play on the solved boards, 3×3 and 4×4
(:func:`.perfect.perfect_play`; refuses other sizes, saying why). The warm-up compiles
or loads the playout first, then the solver, whose warm-up records the kernel warm."""
