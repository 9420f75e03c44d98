"""A heuristic value of a City of Stairs state for one seat, for players that look ahead.

Each stroll is a puzzle for its walker alone: the city is fixed, and more
points never hurt. So :func:`best_stroll` searches a walker's choices for the
most points it can still reach; in the strolling phase that decides the game
(every walker at its best), and while building it compares what each seat
could reach in the city as it stands (empty cells have no icons). It reads the
whole state, departure cards included: searching players pass it
determinisations (:meth:`CityOfStairsState.resample_hidden`), never the real
state with other seats' cards.
"""

from __future__ import annotations

from typing import Final

from stairgames.core.game import State
from stairgames.games.city_of_stairs import rules
from stairgames.games.city_of_stairs.cards import CardSet

SEARCH_BUDGET: Final = 256
"""Most stroll replays one :func:`best_stroll` may try (choice trees are tiny in practice)."""
SCALE: Final = 8.0
"""Points of lead worth a value of 1 while the city is being built."""


def best_stroll(
    cards: CardSet,
    city: tuple[int | None, ...],
    departure: int,
    colour: str,
    choices: tuple[str, ...] = (),
    *,
    budget: int = SEARCH_BUDGET,
) -> int:
    """The most points a walker can reach from ``choices`` on (a depth-first search)."""
    best = 0
    stack = [choices]
    tried = 0
    while stack and tried < budget:
        path = stack.pop()
        tried += 1
        walk = rules.walk(cards, city, departure, colour, path)
        if walk.end is not None:
            best = max(best, rules.score(cards, colour, walk.diary))
            continue
        stack.extend((*path, option) for option in walk.options)
    return best


def reachable_points(state: State) -> tuple[int, ...]:
    """Each seat's best reachable score: its own stroll so far, continued at its best."""
    from stairgames.games.city_of_stairs.game import CityOfStairsState

    assert isinstance(state, CityOfStairsState)
    table = state.table
    points = []
    for seat in range(table.players):
        departure = table.departures[seat]
        if departure is None:
            points.append(0)
            continue
        points.append(
            best_stroll(
                state.cards, table.city, departure, table.colours[seat], table.strolls[seat]
            )
        )
    return tuple(points)


def evaluate(state: State, seat: int) -> float:
    """In [-1, 1]: the result with every walker at its best once the city is built; before,
    this seat's best reachable score against the best of the others, scaled."""
    if state.is_terminal():
        return 2.0 * state.returns()[seat] - 1.0
    from stairgames.games.city_of_stairs.game import CityOfStairsState

    assert isinstance(state, CityOfStairsState)
    if any(d is None for d in state.table.departures):
        return 0.0
    points = reachable_points(state)
    if state.table.city_complete():
        return 1.0 if seat in rules.winners(points) else -1.0
    others = max(p for s, p in enumerate(points) if s != seat)
    return max(-1.0, min(1.0, (points[seat] - others) / SCALE))
