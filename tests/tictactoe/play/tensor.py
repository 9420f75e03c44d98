"""Tic-tac-toe's observation tensor: ``(3, 3, 3)`` ``float32`` planes, indexed
``[plane, rank, file]``: the seat's marks, the other seat's, and a plane of ones when
the seat is to act."""

from __future__ import annotations

import numpy as np

from stairgames.core.game import State
from stairgames.core.tensors import Array, ObservationTensor, same_for_every_option_set
from tests.tictactoe.game import TicTacToeState
from tests.tictactoe.rules import MARKS, SIZE

LAYOUT = (("mine", 1), ("theirs", 1), ("to_act", 1))


def encode(state: State, seat: int) -> Array:
    """What ``seat`` sees of ``state`` (everything), from its point of view."""
    if not isinstance(state, TicTacToeState):
        raise TypeError(f"not a tic-tac-toe state: {state!r}")
    planes = np.zeros((len(LAYOUT), SIZE, SIZE), dtype=np.float32)
    for cell, mark in enumerate(state.board):
        if mark:
            planes[0 if mark == MARKS[seat] else 1, cell // SIZE, cell % SIZE] = 1.0
    planes[2] = float(state.current_player() == seat)
    return planes


TENSOR = ObservationTensor(
    shape=same_for_every_option_set((len(LAYOUT), SIZE, SIZE)),
    encode=encode,
    layout=same_for_every_option_set(LAYOUT),
)
"""Tic-tac-toe's observation tensor."""
