"""Per-seat views: what a seat may be given of a game in progress.

A computer player (and, later, a client of the server) never receives the
true state of a game with hidden information. It receives a *view*: a state it
may search and read as it likes, made from public information and its own seat's
secrets only.

- A game without hidden information: a copy of the state (everything is public).
- A game with hidden information: a determinisation made by the game itself,
  ``state.resample_hidden(seat, rng) -> State``: every piece hidden from ``seat``
  is redrawn from ``rng`` among what the seat has not seen, and the history is
  rewritten to match (City of Stairs redraws the hidden departure cards and their
  deals). Two states that differ only in what ``seat`` may not know give the same
  view for the same generator state.

>>> import random, stairgames
>>> state = stairgames.load("stairs").new_initial_state()
>>> view = seat_view(state, 0, random.Random(1))
>>> view is not state and view.position() == state.position()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import cast

from stairgames.core.errors import StairgamesError
from stairgames.core.game import State

RESAMPLE_HOOK = "resample_hidden"
"""The state method a game with hidden information offers:
``state.resample_hidden(seat, rng) -> State``."""


class NoViewError(StairgamesError):
    """A game hides information but offers no way to make a seat's view of it."""


def seat_view(state: State, seat: int, rng: random.Random) -> State:
    """A fresh state holding only what ``seat`` may know of ``state`` (see the module).

    Hidden pieces are drawn from ``rng``; ``state`` itself is never changed.

    :raises ValueError: ``seat`` is not a seat of the game.
    :raises NoViewError: the game hides information but offers no ``resample_hidden``.
    """
    state.seat_name(seat)  # refuses a seat the game does not have
    game = state.get_game()
    if not game.info().hidden_information:
        return state.clone()
    hook = getattr(state, RESAMPLE_HOOK, None)
    if not callable(hook):
        raise NoViewError(
            f"{game.name} hides information but its states offer no "
            f"{RESAMPLE_HOOK}(seat, rng), so no seat's view can be made"
        )
    resample = cast(Callable[[int, random.Random], State], hook)
    return resample(seat, rng)
