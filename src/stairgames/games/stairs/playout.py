"""Compiled uniformly random playouts of Stairs (the ``playout`` hook of
:mod:`stairgames.games.stairs.evaluate`).

:func:`playout` writes a state's board into a position array
(:mod:`stairgames.games.stairs.kernel`) and plays it to the end with the compiled
:func:`kernel.playout`, which uses the move generation of the endgame solver. It
plays the same games as uniformly random play through the protocol *in
distribution*, not move for move: the moves are drawn by numba's generator, seeded
with one draw from the caller's ``rng``. ``tests/test_compiled_playouts.py`` checks
that it offers the moves the rules offer and ends scripted games with the rules'
results.
"""

from __future__ import annotations

import functools
import random
from typing import Final

import numpy as np

from stairgames.core.game import State
from stairgames.games.stairs import kernel, rules
from stairgames.games.stairs.game import StairsState
from stairgames.games.stairs.kernel import Array

_NO_SCRIPT: Final = np.zeros(0, dtype=np.int64)
_ARRIVALS: Final = {None: kernel.NOBODY, rules.LIGHT: 0, rules.DARK: 1}


@functools.lru_cache(maxsize=4096)
def _dark_bits(stack: str) -> int:
    """Bit ``i`` set when the piece at level ``i`` of ``stack`` is dark."""
    return sum(1 << level for level, piece in enumerate(stack) if piece == rules.DARK)


def position_array(board: rules.Board) -> Array:
    """``board`` as a position array for :func:`kernel.playout` (no Zobrist key)."""
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

    Like :func:`stairgames.games.stairs.evaluate.playout`, a ``swap`` and an offer to
    end by agreement are never chosen (players search the game without them)."""
    assert isinstance(state, StairsState)
    s = position_array(state.board)
    found = np.empty(kernel.MAX_MOVES, dtype=np.int64)
    won = kernel.playout(s, rng.getrandbits(62), _NO_SCRIPT, found)
    winner = state.seat_of(rules.LIGHT if won == 0 else rules.DARK)
    return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]


def warm_up() -> None:
    """Compile (the first time on a machine) or load the playout's kernel functions,
    by playing one game from the opening (before :func:`.solve.warm_up`, which records
    the kernel warm)."""
    s = position_array(rules.initial_board())
    kernel.playout(s, 0, _NO_SCRIPT, np.empty(kernel.MAX_MOVES, dtype=np.int64))
