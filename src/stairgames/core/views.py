"""Per-seat views: what a seat may be given of a game in progress.

A computer player (and, later, a client of the server) never receives the
true state of a game with hidden information. It receives a *view*: a state it
may search and read as it likes, made from public information and its own seat's
secrets only.

- A game without hidden information: a copy of the state (everything is public).
- A game with hidden information: a determinisation made by the game itself, the
  registration's ``resample_hidden(state, seat, rng) -> State``
  (:class:`stairgames.core.registry.GameSpec`): every piece hidden from ``seat``
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

from stairgames.core.errors import StairgamesError
from stairgames.core.game import State
from stairgames.core.registry import get_spec


class NoViewError(StairgamesError):
    """A game hides information but offers no way to make a seat's view of it."""


def seat_view(state: State, seat: int, rng: random.Random) -> State:
    """A fresh state holding only what ``seat`` may know of ``state`` (see the module).

    Hidden pieces are drawn from ``rng``; ``state`` itself is never changed.

    :raises ValueError: ``seat`` is not a seat of the game.
    :raises NoViewError: the game hides information but its registration offers no
        ``resample_hidden``.
    """
    state.seat_name(seat)  # refuses a seat the game does not have
    game = state.get_game()
    if not game.info().hidden_information:
        return state.clone()
    resample = get_spec(game.name).resample_hidden
    if resample is None:
        raise NoViewError(
            f"{game.name} hides information but its registration offers no "
            "resample_hidden(state, seat, rng), so no seat's view can be made"
        )
    return resample(state, seat, rng)
