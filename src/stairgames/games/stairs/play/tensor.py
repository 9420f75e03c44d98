"""The Stairs observation tensor: planes of the board from one seat's point of view.

Stairs hides nothing, so a seat's tensor is the whole position, described relative to
that seat ("mine" is the colour the seat plays now, which changes after a ``swap``).
On the rulebook's 6×6 board the shape is ``(82, 6, 6)``, ``float32``, indexed
``[plane, rank, file]`` (rank 1 and file ``a`` at index 0, as in :mod:`.rules`):

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

On a board of n squares a side (option ``size``, S8) there are n² levels (a stack
holds at most every piece), so the shape is ``(2n² + 10, n, n)``, the height plane is
the height / n², and the layout is the same in that order: fixed per option set.

>>> import stairgames
>>> state = stairgames.load("stairs").new_initial_state()
>>> tensor = observation_tensor(state, 0)
>>> tensor.shape, int(tensor[0].sum()), int(tensor[36].sum()), float(tensor[75, 0, 0])
((82, 6, 6), 18, 18, 1.0)
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from stairgames.core.game import Game, State
from stairgames.core.tensors import ObservationTensor
from stairgames.games.stairs.game import StairsGame, StairsState
from stairgames.games.stairs.rules import LIGHT, NUM_SQUARES, SIZE

Layout = tuple[tuple[str, int], ...]

_FLAGS: Final = (
    "to_act",
    "plays_light",
    "swap_pending",
    "offer_pending",
    "last_arrival_mine",
    "last_arrival_theirs",
    "agreement_declined",
)


def layout_of(size: int) -> Layout:
    """The planes of the tensor of a board of ``size`` squares a side, in order."""
    levels = size * size
    planes = [("mine_at_level", levels), ("theirs_at_level", levels), ("height", 1)]
    planes += [("top_mine", 1), ("top_theirs", 1)]
    return (*planes, *((flag, 1) for flag in _FLAGS))


def shape_of(size: int) -> tuple[int, int, int]:
    """The tensor's shape on a board of ``size`` squares a side: ``(2n² + 10, n, n)``."""
    return (sum(count for _, count in layout_of(size)), size, size)


LEVELS: Final = NUM_SQUARES
"""A stack on the 6×6 board holds at most all 36 pieces."""

LAYOUT: Final = layout_of(SIZE)
"""The 6×6 board's layout."""
PLANES: Final = shape_of(SIZE)[0]
SHAPE: Final = shape_of(SIZE)


def observation_tensor(state: State, seat: int) -> np.ndarray[Any, np.dtype[np.float32]]:
    """``seat``'s tensor of ``state`` (see the module).

    :raises ValueError: ``seat`` is not 0 or 1.
    """
    assert isinstance(state, StairsState)
    mine = state.colour_of(seat)
    board = state.board
    size = board.size
    levels = size * size
    height_plane, top_mine, top_theirs = 2 * levels, 2 * levels + 1, 2 * levels + 2
    tensor = np.zeros(shape_of(size), dtype=np.float32)
    for square, stack in enumerate(board.stacks):
        rank, file = divmod(square, size)
        for level, colour in enumerate(stack):
            tensor[level if colour == mine else levels + level, rank, file] = 1.0
        tensor[height_plane, rank, file] = len(stack) / levels
        if stack:
            tensor[top_mine if stack[-1] == mine else top_theirs, rank, file] = 1.0
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
            tensor[2 * levels + 3 + offset] = 1.0
    return tensor


_LIGHT_RGB: Final = np.array([235, 225, 200], dtype=np.float32)
_DARK_RGB: Final = np.array([60, 40, 30], dtype=np.float32)
_EMPTY_RGB: Final = np.array([128, 160, 128], dtype=np.uint8)
_PIXELS: Final = 12


def image(state: State) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """The board as an RGB picture of 12 pixels a square (72×72 on the 6×6 board), the
    last rank at the top: each square in its top piece's colour, a frame whose
    brightness grows with the stack's height."""
    assert isinstance(state, StairsState)
    size = state.board.size
    picture = np.zeros((size * _PIXELS, size * _PIXELS, 3), dtype=np.uint8)
    for square, stack in enumerate(state.board.stacks):
        rank, file = divmod(square, size)
        top, left = (size - 1 - rank) * _PIXELS, file * _PIXELS
        cell = picture[top : top + _PIXELS, left : left + _PIXELS]
        if not stack:
            cell[:] = _EMPTY_RGB
            continue
        shade = min(1.0, 0.25 + len(stack) / 8)
        cell[:] = np.uint8(255 * shade)
        colour = _LIGHT_RGB if stack[-1] == LIGHT else _DARK_RGB
        cell[2:-2, 2:-2] = colour.astype(np.uint8)
    return picture


def _size(game: Game) -> int:
    assert isinstance(game, StairsGame)
    return game.size


TENSOR: Final = ObservationTensor(
    shape=lambda game: shape_of(_size(game)),
    encode=observation_tensor,
    layout=lambda game: layout_of(_size(game)),
    image=image,
)
"""What Stairs offers learning code (:mod:`stairgames.core.tensors`)."""
