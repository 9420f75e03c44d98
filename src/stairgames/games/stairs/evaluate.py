"""A heuristic value of a Stairs position for one seat, for computer players.

Stairs is won at the greatest height (S5). The value is a logistic model of
the chance that a colour wins, fitted (``docs/agents.md``) on 66,000 positions
from 6,000 random games: the difference in stacks topped at the greatest
height H counts most, stacks topped at H-1 and H-2 count slightly against
(they are pieces the other colour may climb onto), then who S5 names as the
winner as the position stands, mobility, and being the one to move. The
log-odds ``x`` becomes a value ``tanh(x / 2) = 2 P(win) - 1`` in (-1, 1).

``LEVELS`` replaces level configurations for Stairs where the arena measured
another player stronger (see ``docs/agents.md``).
"""

from __future__ import annotations

import math

from stairgames.core.game import State
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

LEVELS: dict[str, str] = {}


def evaluate(state: State, seat: int) -> float:
    """A value in [-1, 1] of ``state`` for ``seat``; the true result when the game is over."""
    assert isinstance(state, StairsState)
    if state.is_terminal():
        return state.returns()[seat]
    return math.tanh(log_odds(state.board, state.colour_of(seat)) / 2.0)


def log_odds(board: rules.Board, colour: str) -> float:
    """The model's log-odds that ``colour`` wins ``board``."""
    other = rules.opponent(colour)
    peak = board.max_height()
    x = 0.0
    for stack in board.stacks:
        offset = peak - len(stack)
        if stack and offset < len(HEIGHT_WEIGHTS):
            x += HEIGHT_WEIGHTS[offset] if stack[-1] == colour else -HEIGHT_WEIGHTS[offset]
    verdict = rules.verdict(board)
    if verdict is not None:
        x += LEADER_WEIGHT if verdict.winner == colour else -LEADER_WEIGHT
    mobility = len(rules.movable_moves(board, colour)) - len(rules.movable_moves(board, other))
    x += MOBILITY_WEIGHT * mobility
    x += TO_MOVE_WEIGHT if board.to_move == colour else -TO_MOVE_WEIGHT
    return x
