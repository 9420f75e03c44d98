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

import functools
import math
import random
from typing import Final

from stairgames.core.game import State
from stairgames.core.hooks import EndgameSolver, PlayerHooks, WarmUp
from stairgames.games.stairs import rules
from stairgames.games.stairs.game import StairsState
from stairgames.games.stairs.notation import PASS

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
    "hard": "mcts:time=0.25,endgame=0.8",
    "expert": "alphabeta:time=1.8,endgame=0.8",
}
"""``hard`` and ``expert`` give 80% of their time first to the exact endgame solver
(:mod:`.solve`): against OpenSpiel's MCTS at 0.1 s a move ``mcts`` with it scored
80.5% of 200 games, without it 68.0% (``docs/agents.md``)."""


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
        for target in _NEIGHBOURS[square]:
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


_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(n for n in rules.NEIGHBOURS[square] if n >= 0) for square in range(rules.NUM_SQUARES)
)
"""On-board neighbours of each square, in the direction order of :data:`rules.NEIGHBOURS`."""

_PASS = (None,)

_STEP_CODE: tuple[int, ...] = tuple(
    source * rules.NUM_DIRECTIONS + rules.NEIGHBOURS[source].index(target)
    if target in rules.NEIGHBOURS[source]
    else -1
    for source in range(rules.NUM_SQUARES)
    for target in range(rules.NUM_SQUARES)
)
"""``_STEP_CODE[source * NUM_SQUARES + target]``: the action of that step (-1: not adjacent)."""


def endgame_solver() -> EndgameSolver:
    """A fresh exact endgame solver for one player's games (:mod:`.solve`)."""
    from stairgames.games.stairs.solve import EndgameSolver as CompiledSolver

    return CompiledSolver()


@functools.cache
def _warm_up() -> None:
    """Once a process (players prepare for every game of an arena): the compiled
    playout first, then the solver, whose warm-up records the kernel warm."""
    from stairgames.games.stairs import playout as compiled
    from stairgames.games.stairs.solve import warm_up

    compiled.warm_up()
    warm_up()


def _cold() -> bool:
    from stairgames.games.stairs.kernel import KERNEL

    return KERNEL.cold()


def playout(
    state: State, rng: random.Random, record: list[tuple[int, int]] | None = None
) -> list[float]:
    """Uniformly random play from ``state`` to the end; the returns by seat.

    The same game as choosing ``rng.choice(state.legal_actions())`` through the
    protocol (same moves in the same order, the same draws from ``rng``, a pass
    drawn from a one-element list too), played on plain lists instead of
    immutable boards, for computer players' playouts. A ``swap`` (pie rule) is
    never chosen here, nor an offer to end by agreement (S7): players search the
    game without agreement (:meth:`State.without_agreement`), where it is the same.
    ``tests/test_agents.py`` checks the equivalence.

    With ``record``, every (seat, action) played is appended to it, passes
    included (for ``mcts``'s all-moves-as-first statistics).
    """
    assert isinstance(state, StairsState)
    board = state.board
    stacks = [list(stack) for stack in board.stacks]
    heights = [len(stack) for stack in stacks]
    tops = [stack[-1] if stack else "" for stack in stacks]
    colour = board.to_move
    arrival = board.last_arrival
    peak = board.max_height()
    seat = state.current_player()
    while True:
        moves = _lowest_moves(heights, tops, colour)
        other = rules.DARK if colour == rules.LIGHT else rules.LIGHT
        if not moves:
            if not _lowest_moves(heights, tops, other):
                break
            rng.choice(_PASS)
            if record is not None:
                record.append((seat, PASS))
            colour = other
            seat = 1 - seat
            continue
        source, target = rng.choice(moves)
        if record is not None:
            record.append((seat, _STEP_CODE[source * rules.NUM_SQUARES + target]))
        below = stacks[source]
        piece = below.pop()
        heights[source] -= 1
        tops[source] = below[-1] if below else ""
        stacks[target].append(piece)
        tops[target] = piece
        height = heights[target] = heights[target] + 1
        if height >= peak:
            arrival = piece
            peak = height
        colour = other
        seat = 1 - seat
    final = rules.Board(tuple("".join(stack) for stack in stacks), colour, arrival)
    verdict = rules.verdict(final)
    assert verdict is not None
    winner = state.seat_of(verdict.winner)
    return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]


def _lowest_moves(heights: list[int], tops: list[str], colour: str) -> list[tuple[int, int]]:
    """S2 + S3 as (source, target) pairs, in the order of :func:`rules.lowest_steps`."""
    best = rules.NUM_SQUARES + 1
    moves: list[tuple[int, int]] = []
    for source in range(rules.NUM_SQUARES):
        if tops[source] != colour:
            continue
        height = heights[source]
        if height > best:
            continue
        for target in _NEIGHBOURS[source]:
            if heights[target] == height:
                if height < best:
                    best = height
                    moves = []
                moves.append((source, target))
    return moves


def compiled_playout(state: State, rng: random.Random) -> list[float]:
    """:func:`playout` compiled (:mod:`.playout`, imported on first use): uniformly
    random play to the end, the same games in distribution, not move for move (one
    draw from ``rng`` seeds the compiled generator)."""
    from stairgames.games.stairs.playout import playout as compiled

    return compiled(state, rng)


HOOKS: Final = PlayerHooks(
    evaluate=evaluate,
    playout=compiled_playout,
    recording_playout=playout,
    endgame_solver=endgame_solver,
    levels=LEVELS,
    warm_up=WarmUp(run=_warm_up, cold=_cold),
)
"""What Stairs offers computer players (:class:`stairgames.core.hooks.PlayerHooks`)."""
