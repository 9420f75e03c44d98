"""Compiled uniformly random playouts and tree search of Stairs (the ``playout`` and
``tree_search`` hooks of :mod:`stairgames.games.stairs.play.evaluate`).

:func:`playout` writes a state's board into a position array
(:mod:`stairgames.games.stairs.research.endgame_kernel`) and plays it to the end with the compiled
:func:`kernel.playout`, which uses the move generation of the endgame solver. It
plays the same games as uniformly random play through the protocol *in
distribution*, not move for move: the moves are drawn by numba's generator, seeded
with one draw from the caller's ``rng``. ``tests/test_compiled_playouts.py`` checks
that it offers the moves the rules offer and ends scripted games with the rules'
results.

:func:`tree_search` sets up the compiled tree search of :mod:`stairgames.core.uct` on
a state's board (``kernel.tree_search``).
"""

from __future__ import annotations

import functools
import random
from typing import Final

import numpy as np

from stairgames.core import uct
from stairgames.core.game import State
from stairgames.games.stairs import rules
from stairgames.games.stairs.game import StairsGame, StairsOptions, StairsState
from stairgames.games.stairs.notation import PASS, SWAP
from stairgames.games.stairs.research import endgame_kernel as kernel
from stairgames.games.stairs.research.endgame_kernel import Array

_NO_SCRIPT: Final = np.zeros(0, dtype=np.int64)
_ARRIVALS: Final = {None: kernel.NOBODY, rules.LIGHT: 0, rules.DARK: 1}


@functools.lru_cache(maxsize=4096)
def _dark_bits(stack: str) -> int:
    """Bit ``i`` set when the piece at level ``i`` of ``stack`` is dark."""
    return sum(1 << level for level, piece in enumerate(stack) if piece == rules.DARK)


def position_array(board: rules.Board) -> Array:
    """``board`` (6×6) as a position array for :func:`kernel.playout` (no Zobrist key)."""
    assert len(board.stacks) == rules.NUM_SQUARES, "the kernel knows the 6×6 board only"
    s = np.zeros(kernel.SIZE, dtype=np.int64)
    stacks = board.stacks
    s[kernel.HEIGHTS : kernel.HEIGHTS + kernel.SQUARES] = [len(stack) for stack in stacks]
    s[kernel.PIECES : kernel.PIECES + kernel.SQUARES] = [_dark_bits(stack) for stack in stacks]
    s[kernel.TO_MOVE] = 0 if board.to_move == rules.LIGHT else 1
    s[kernel.ARRIVAL] = _ARRIVALS[board.last_arrival]
    kernel.complete(s)
    return s


def playout(state: State, rng: random.Random) -> list[float]:
    """Uniformly random play from ``state`` to the end, compiled; the returns by seat.

    Like :func:`stairgames.games.stairs.play.evaluate.playout`, a ``swap`` and an offer to
    end by agreement are never chosen (players search the game without them). The
    kernel knows the 6×6 board only: on other sizes (S8) the game is played through
    the protocol (:func:`protocol_playout`)."""
    assert isinstance(state, StairsState)
    if len(state.board.stacks) != rules.NUM_SQUARES:  # not 6×6
        return protocol_playout(state, rng)
    s = position_array(state.board)
    found = np.empty(kernel.MAX_MOVES, dtype=np.int64)
    won = kernel.playout(s, rng.getrandbits(62), _NO_SCRIPT, found)
    winner = state.seat_of(rules.LIGHT if won == 0 else rules.DARK)
    return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]


def protocol_playout(state: StairsState, rng: random.Random) -> list[float]:
    """Uniformly random play from a copy of ``state`` to the end through the protocol,
    on any board size: ``rng.choice`` of the legal actions at every step, as players
    without a playout of their own play."""
    state = state.clone()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state.returns()


def _kernel_move_actions() -> dict[int, int]:
    """The action of each kernel move (``source * 64 + target``), and of a pass."""
    actions = {uct.PASS: PASS}
    for source in range(rules.NUM_SQUARES):
        for direction, target in enumerate(rules.NEIGHBOURS[source]):
            if target >= 0:
                actions[source * 64 + target] = source * rules.NUM_DIRECTIONS + direction
    return actions


_ACTIONS: Final = _kernel_move_actions()
_NO_PARAMS: Final = np.zeros(1, dtype=np.int64)


def tree_search(state: State) -> uct.TreeSearch | None:
    """The compiled tree search of ``state`` (its moves of play: a state without offers
    to end by agreement), or ``None`` where the pie rule's swap may still come (the
    first two turns of such a game), which it does not know, and on boards other than
    6×6 (S8), which the kernel does not know."""
    assert isinstance(state, StairsState)
    if len(state.board.stacks) != rules.NUM_SQUARES:  # not 6×6
        return None
    if state.get_game().options.pie_rule and not state.board.climbed():
        return None
    if SWAP in state.legal_actions():
        return None
    seats = (state.seat_of(rules.LIGHT), state.seat_of(rules.DARK))
    return uct.TreeSearch(
        kernel.tree_search,
        position_array(state.board),
        _NO_PARAMS,
        _ACTIONS,
        seats,
        max_moves=kernel.MAX_MOVES,
    )


def warm_up() -> None:
    """Compile (the first time on a machine) or load the playout's kernel functions,
    by playing one game from the opening (before :func:`.solve.warm_up`, which records
    the kernel warm)."""
    s = position_array(rules.initial_board())
    kernel.playout(s, 0, _NO_SCRIPT, np.empty(kernel.MAX_MOVES, dtype=np.int64))
    search = tree_search(StairsGame(StairsOptions()).new_initial_state())
    assert search is not None
    search.run(64, 1.0, 0)
