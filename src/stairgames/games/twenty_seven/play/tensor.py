"""The 27 observation tensor: the stacks along the line from one seat's point of view.

27 hides nothing, so a seat's tensor is the whole position, with the player colours
described relative to that seat ("mine", "theirs"). Shape ``(7, 27, 9)``,
``float32``, indexed ``[plane, level, field]``: fields as the move notation numbers
them (from 0 at white's end of the line as it is now, so action ``F:K`` acts on
column ``F``), levels from the base disc (0) up; a line never has more than 9 fields
and no stack more than the 27 discs.

- planes 0-3, ``red``, ``grey``, ``mine``, ``theirs``: 1 where the disc at that level
  of that field has that colour;
- plane 4, ``field``: 1 down the whole column of every field still on the line;
- constant planes (all 1 or all 0): 5 ``plays_white`` (this seat moves towards the
  high field numbers), 6 ``to_act`` (this seat acts now).

>>> import stairgames
>>> state = stairgames.load("twenty_seven").new_initial_state()
>>> tensor = observation_tensor(state, 1)
>>> tensor.shape, int(tensor[2].sum()), int(tensor[2, 1:10, 8].sum()), float(tensor[5, 0, 0])
((7, 27, 9), 9, 9, 0.0)
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from stairgames.core.game import State
from stairgames.core.tensors import ObservationTensor, same_for_every_option_set
from stairgames.games.twenty_seven.game import TwentySevenState
from stairgames.games.twenty_seven.notation import MAX_FIELDS
from stairgames.games.twenty_seven.rules import BLACK, GREY, NUM_DISCS, RED, WHITE

LAYOUT: Final = (
    ("red", 1),
    ("grey", 1),
    ("mine", 1),
    ("theirs", 1),
    ("field", 1),
    ("plays_white", 1),
    ("to_act", 1),
)
SHAPE: Final = (len(LAYOUT), NUM_DISCS, MAX_FIELDS)
_RED, _GREY, _MINE, _THEIRS, _FIELD, _PLAYS_WHITE, _TO_ACT = range(len(LAYOUT))


def observation_tensor(state: State, seat: int) -> np.ndarray[Any, np.dtype[np.float32]]:
    """``seat``'s tensor of ``state`` (see the module).

    :raises ValueError: ``seat`` is not 0 or 1.
    """
    assert isinstance(state, TwentySevenState)
    state.seat_name(seat)  # refuses a seat the game does not have
    mine = state.colour_of(seat)
    plane_of = {RED: _RED, GREY: _GREY, mine: _MINE, (BLACK if mine == WHITE else WHITE): _THEIRS}
    tensor = np.zeros(SHAPE, dtype=np.float32)
    for field, stack in enumerate(state.line.fields):
        tensor[_FIELD, :, field] = 1.0
        for level, disc in enumerate(stack):
            tensor[plane_of[disc], level, field] = 1.0
    if mine == WHITE:
        tensor[_PLAYS_WHITE] = 1.0
    if state.current_player() == seat:
        tensor[_TO_ACT] = 1.0
    return tensor


_RGB: Final = {
    RED: (200, 40, 40),
    GREY: (150, 150, 150),
    WHITE: (245, 245, 245),
    BLACK: (20, 20, 20),
}
_PIXELS: Final = 4


def image(state: State) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """The line as a 108×36 RGB picture: one column per field (field 0 at the left),
    each stack drawn upwards from its base disc at the bottom, on blue."""
    assert isinstance(state, TwentySevenState)
    picture = np.zeros((NUM_DISCS * _PIXELS, MAX_FIELDS * _PIXELS, 3), dtype=np.uint8)
    picture[:] = (40, 60, 110)
    for field, stack in enumerate(state.line.fields):
        left = field * _PIXELS
        for level, disc in enumerate(stack):
            top = (NUM_DISCS - 1 - level) * _PIXELS
            picture[top : top + _PIXELS - 1, left : left + _PIXELS - 1] = _RGB[disc]
    return picture


TENSOR: Final = ObservationTensor(
    shape=same_for_every_option_set(SHAPE),
    encode=observation_tensor,
    layout=same_for_every_option_set(LAYOUT),
    image=image,
)
"""What 27 offers learning code (:mod:`stairgames.core.tensors`)."""
