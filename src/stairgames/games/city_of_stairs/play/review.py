"""What City of Stairs offers the review of a game: strolls exact, building by search.

A review of City of Stairs is made only of a finished game, whose record holds every
card (the review engine refuses any other record of a game with hidden information),
so it reads the true state. Once the city is complete every stroll is a puzzle for its
walker alone (C4-C6): the walkers do not meet, and more points never hurt. So from
then on each seat's best reachable points (:func:`..evaluate.expected_points`, with every
departure card known) decide the game exactly, and :func:`settled` gives each seat's
share of the win from them. While the city is built, the review's search estimates the
shares, its playouts building the rest of the city at random and ending where
:func:`settled` takes over.

A share is the seat's expected share of the win: 1 for a win alone, 1/k for a win
shared by k seats (C7), 0 for a loss.
"""

from __future__ import annotations

from typing import Final

from stairgames.core.assess import Assessor, Thresholds
from stairgames.core.game import State
from stairgames.games.city_of_stairs.game import CityOfStairsState
from stairgames.games.city_of_stairs.play.evaluate import expected_points
from stairgames.games.city_of_stairs.rules import winners
from stairgames.i18n import N_

THRESHOLDS: Final = Thresholds(inaccuracy=0.04, mistake=0.08, blunder=0.15)
"""Shares are spread over 2-4 seats: 4 points of share are an inaccuracy, 8 a mistake,
15 a blunder."""


def settled(state: State) -> list[float] | None:
    """Each seat's share of the win at the end, or once the city is complete (every seat
    strolling at its best); ``None`` while it is built. Reads every departure card."""
    assert isinstance(state, CityOfStairsState)
    if state.is_terminal():
        return _split(winners(state.scores()), state.table.players)
    table = state.table
    if not table.city_complete() or any(card is None for card in table.departures):
        return None
    points = expected_points(state.cards, table.city, table, frozenset(), ())
    best = max(points)
    return _split(tuple(s for s, p in enumerate(points) if p == best), table.players)


def _split(best: tuple[int, ...], players: int) -> list[float]:
    return [1.0 / len(best) if seat in best else 0.0 for seat in range(players)]


ASSESSOR: Final = Assessor(
    thresholds=THRESHOLDS,
    settled=settled,
    measure=N_("expected share of the win"),
    exploration=0.5,
)
"""What City of Stairs offers the review (its registration names it)."""

__all__ = ["ASSESSOR", "THRESHOLDS", "settled"]
