"""The Stairs observation tensor: planes of the 6×6 board from one seat's point of view.

Stairs hides nothing, so a seat's tensor is the whole position, described relative to
that seat ("mine" is the colour the seat plays now, which changes after a ``swap``).
Shape ``(82, 6, 6)``, ``float32``, indexed ``[plane, rank, file]`` (rank 1 and file
``a`` at index 0, as in :mod:`.rules`):

- planes 0-35, ``mine_at_level``: 1 where the piece at that level (0 = bottom) of the
  square's stack is mine;
- planes 36-71, ``theirs_at_level``: the same for the other colour;
- plane 72, ``height``: the stack's height / 36;
- planes 73, 74, ``top_mine``, ``top_theirs``: whose piece is on top;
- constant planes (all 1 or all 0): 75 ``to_act`` (this seat acts now), 76
  ``plays_light``, 77 ``swap_pending`` (S6), 78 ``offer_pending`` (S7, an offer
  awaits an answer), 79 ``last_arrival_mine``, 80 ``last_arrival_theirs`` (who last
  arrived at the greatest height: S5's tie-break), 81 ``agreement_declined`` (an offer
  was declined this turn).

>>> import stairgames
>>> state = stairgames.load("stairs").new_initial_state()
>>> tensor = observation_tensor(state, 0)
>>> tensor.shape, int(tensor[0].sum()), int(tensor[36].sum()), float(tensor[75, 0, 0])
((82, 6, 6), 18, 18, 1.0)
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from stairgames.core.game import State
from stairgames.core.tensors import ObservationTensor, same_for_every_option_set
from stairgames.games.stairs.game import StairsState
from stairgames.games.stairs.rules import LIGHT, NUM_SQUARES, SIZE

LEVELS: Final = NUM_SQUARES
"""A stack holds at most all 36 pieces."""

LAYOUT: Final = (
    ("mine_at_level", LEVELS),
    ("theirs_at_level", LEVELS),
    ("height", 1),
    ("top_mine", 1),
    ("top_theirs", 1),
    ("to_act", 1),
    ("plays_light", 1),
    ("swap_pending", 1),
    ("offer_pending", 1),
    ("last_arrival_mine", 1),
    ("last_arrival_theirs", 1),
    ("agreement_declined", 1),
)
PLANES: Final = sum(size for _, size in LAYOUT)
SHAPE: Final = (PLANES, SIZE, SIZE)
_HEIGHT, _TOP_MINE, _TOP_THEIRS = 2 * LEVELS, 2 * LEVELS + 1, 2 * LEVELS + 2
_CONSTANTS: Final = 2 * LEVELS + 3


def observation_tensor(state: State, seat: int) -> np.ndarray[Any, np.dtype[np.float32]]:
    """``seat``'s tensor of ``state`` (see the module).

    :raises ValueError: ``seat`` is not 0 or 1.
    """
    assert isinstance(state, StairsState)
    mine = state.colour_of(seat)
    board = state.board
    tensor = np.zeros(SHAPE, dtype=np.float32)
    for square, stack in enumerate(board.stacks):
        rank, file = divmod(square, SIZE)
        for level, colour in enumerate(stack):
            tensor[level if colour == mine else LEVELS + level, rank, file] = 1.0
        tensor[_HEIGHT, rank, file] = len(stack) / LEVELS
        if stack:
            tensor[_TOP_MINE if stack[-1] == mine else _TOP_THEIRS, rank, file] = 1.0
    arrival = board.last_arrival
    flags = (
        state.current_player() == seat,
        mine == LIGHT,
        state.swap_pending(),
        state.offer_pending(),
        arrival == mine,
        arrival is not None and arrival != mine,
        state.agreement_declined(),
    )
    for offset, flag in enumerate(flags):
        if flag:
            tensor[_CONSTANTS + offset] = 1.0
    return tensor


_LIGHT_RGB: Final = np.array([235, 225, 200], dtype=np.float32)
_DARK_RGB: Final = np.array([60, 40, 30], dtype=np.float32)
_EMPTY_RGB: Final = np.array([128, 160, 128], dtype=np.uint8)
_PIXELS: Final = 12


def image(state: State) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """The board as a 72×72 RGB picture, rank 6 at the top: each square in its top
    piece's colour, a frame whose brightness grows with the stack's height."""
    assert isinstance(state, StairsState)
    picture = np.zeros((SIZE * _PIXELS, SIZE * _PIXELS, 3), dtype=np.uint8)
    for square, stack in enumerate(state.board.stacks):
        rank, file = divmod(square, SIZE)
        top, left = (SIZE - 1 - rank) * _PIXELS, file * _PIXELS
        cell = picture[top : top + _PIXELS, left : left + _PIXELS]
        if not stack:
            cell[:] = _EMPTY_RGB
            continue
        shade = min(1.0, 0.25 + len(stack) / 8)
        cell[:] = np.uint8(255 * shade)
        colour = _LIGHT_RGB if stack[-1] == LIGHT else _DARK_RGB
        cell[2:-2, 2:-2] = colour.astype(np.uint8)
    return picture


TENSOR: Final = ObservationTensor(
    shape=same_for_every_option_set(SHAPE),
    encode=observation_tensor,
    layout=same_for_every_option_set(LAYOUT),
    image=image,
)
"""What Stairs offers learning code (:mod:`stairgames.core.tensors`)."""
