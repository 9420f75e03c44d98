"""A heuristic value of a City of Stairs state for one seat, for players that look ahead.

Each stroll is a puzzle for its walker alone: the city is fixed, and more
points never hurt. So :func:`best_stroll` searches a walker's choices for the
most points it can still reach (a fast walker of its own, tested against
:func:`stairgames.games.city_of_stairs.rules.walk`).

- **Strolling** (the city is complete): every walker's best reachable score;
  the value grows strictly with this seat's own score, so a player that
  maximises it strolls exactly at its best.
- **Building**: the city is completed at random a few times (the cards left,
  within the row caps), and the value compares this seat's best stroll from its
  own departure card with the others' best strolls.

The value never reads what ``seat`` may not know: another seat's departure
card counts only while it is public (its stroll has begun); before that the
others' strolls are averaged over the departure cards ``seat`` has not seen.
The random completions are drawn from public information alone (seeded by the
number of empty cells), so the value of a state depends only on what ``seat``
can observe; and every placement of one decision is valued on the same random
numbers (common random numbers), so the comparison measures the placements
rather than sampling noise.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
from collections.abc import Mapping
from typing import Final

from stairgames.core.game import State
from stairgames.core.hooks import PlayerHooks
from stairgames.games.city_of_stairs import rules
from stairgames.games.city_of_stairs.cards import TURN, UP_LEFT, UP_RIGHT, CardSet

SEARCH_BUDGET: Final = 256
"""Most stroll replays :func:`best_stroll_by_replay` may try."""
COMPLETIONS: Final = 16
"""Random completions of the city averaged while it is being built (with common random
numbers, 16 beat ``random`` in 96.0% of 300 games, 8 in 94.2%; ``docs/agents.md``)."""
OTHERS_WEIGHT: Final = 0.5
"""Weight of the best other seat's points against this seat's own: hurting the others
counts half as much as one's own stroll (measured better against ``random`` than 1 or 0.25)."""
SCALE: Final = 4.0
"""Points of lead worth a log-odds of 1 (the value is ``tanh(lead / SCALE)``)."""

LEVELS: Mapping[str, str] = {
    "easy": "greedy:noise=0.5",
    "medium": "greedy:noise=0.15",
    "hard": "greedy",
    "expert": "mcts:time=1.8,cutoff=1,c=0.1",
}
"""City of Stairs levels (``docs/agents.md`` has the arena figures)."""

_LEFT: Final = 1
_RIGHT: Final = 0
_MOVES: Final = {UP_LEFT: 0, UP_RIGHT: 1, TURN: 2, rules.ON: 3}


@dataclasses.dataclass(frozen=True)
class _Tables:
    """A card set flattened for fast walking: per card and colour, what entering does."""

    icons: tuple[int, ...]
    """Each city card's experience icon as a bit (0 for none)."""
    points: dict[str, dict[int, int]]
    """Per colour, the points of each icon bit."""
    options: dict[str, tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]]
    """Per colour and card, the movement options entering from the right (0) and left (1)."""
    lighthouse: int


_TABLES: dict[int, tuple[CardSet, _Tables]] = {}


def _tables(cards: CardSet) -> _Tables:
    """The flattened tables of a card set (built once per set)."""
    found = _TABLES.get(id(cards))
    if found is not None and found[0] is cards:
        return found[1]
    bits = {icon: 1 << i for i, icon in enumerate(cards.icons)}
    icons = tuple(bits[c.experience] if c.experience is not None else 0 for c in cards.cards)
    colours = cards.colours()
    points = {
        colour: {bit: rules.diary_points(cards, colour, icon) for icon, bit in bits.items()}
        for colour in colours
    }
    options = {
        colour: tuple(
            (
                rules.movement_options(card, rules.RIGHT, colour),
                rules.movement_options(card, rules.LEFT, colour),
            )
            for card in cards.cards
        )
        for colour in colours
    }
    tables = _Tables(icons, points, options, cards.lighthouse_points)
    _TABLES[id(cards)] = (cards, tables)
    return tables


def best_stroll(
    cards: CardSet,
    city: tuple[int | None, ...],
    departure: int,
    colour: str,
    choices: tuple[str, ...] = (),
) -> int:
    """The most points a walker can reach, following ``choices`` first, then at its best.

    Empty cells (a city still being built) have no icons. The same walk as
    :func:`rules.walk` (C4-C6), searched depth first from each choice point
    instead of replayed from the start.
    """
    tables = _tables(cards)
    walker = _Walker(tables, city, tables.points[colour], tables.options[colour], choices)
    return walker.seaside(departure)


class _Walker:
    """Depth-first search over one walker's choices."""

    __slots__ = ("choices", "city", "icons", "lighthouse", "options", "points")

    def __init__(
        self,
        tables: _Tables,
        city: tuple[int | None, ...],
        points: dict[int, int],
        options: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...],
        choices: tuple[str, ...],
    ) -> None:
        self.city = city
        self.icons = tables.icons
        self.points = points
        self.options = options
        self.lighthouse = tables.lighthouse
        self.choices = choices

    def seaside(self, departure: int) -> int:
        first: tuple[str, ...] = (self.choices[0],) if self.choices else (UP_LEFT, UP_RIGHT)
        best = 0
        for choice in first:
            direction = -1 if choice == UP_LEFT else 1
            column = (departure - 1 + direction) % rules.COLUMNS
            best = max(best, self.go(0, column, direction, 0, 0, 0, 0, 1))
        return best

    def go(
        self,
        row: int,
        column: int,
        direction: int,
        entered: int,
        diary: int,
        count: int,
        points: int,
        used: int,
    ) -> int:
        """Walk on from entering (row, column) moving ``direction``; the best points."""
        city = self.city
        while True:
            if row == rules.ROWS:
                return points + self.lighthouse
            side = _RIGHT if direction < 0 else _LEFT
            bit = 1 << (2 * column + side)
            if entered & bit:
                return points
            entered |= bit
            card = city[row * rules.COLUMNS + column]
            if card is None:
                column = (column + direction) % rules.COLUMNS
                continue
            icon = self.icons[card]
            if icon and not diary & icon:
                diary |= icon
                count += 1
                points += self.points[icon]
                if count >= rules.DIARY_LIMIT:
                    return points
            options = self.options[card][side]
            if not options:
                column = (column + direction) % rules.COLUMNS
                continue
            if len(options) > 1:
                if used < len(self.choices):
                    options = (self.choices[used],)
                    used += 1
                else:
                    return max(
                        self.resolve(o, row, column, direction, entered, diary, count, points, used)
                        for o in options
                    )
            return self.resolve(
                options[0], row, column, direction, entered, diary, count, points, used
            )

    def resolve(
        self,
        effect: str,
        row: int,
        column: int,
        direction: int,
        entered: int,
        diary: int,
        count: int,
        points: int,
        used: int,
    ) -> int:
        """Apply a movement effect on the card at (row, column), then walk on."""
        if effect in (UP_LEFT, UP_RIGHT):
            direction = -1 if effect == UP_LEFT else 1
            row += 1
            entered = 0
        elif effect == TURN:
            direction = -direction
        return self.go(
            row,
            (column + direction) % rules.COLUMNS,
            direction,
            entered,
            diary,
            count,
            points,
            used,
        )


def best_stroll_by_replay(
    cards: CardSet,
    city: tuple[int | None, ...],
    departure: int,
    colour: str,
    choices: tuple[str, ...] = (),
    *,
    budget: int = SEARCH_BUDGET,
) -> int:
    """:func:`best_stroll` by replaying :func:`rules.walk` (slow; the reference in tests)."""
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


# ----- what a seat expects of each walker ------------------------------------------------


def _hidden_from(state: State, seat: int) -> frozenset[int]:
    """Seats whose departure card ``seat`` may not see (C8)."""
    from stairgames.games.city_of_stairs.game import CityOfStairsState

    assert isinstance(state, CityOfStairsState)
    visible = state.visible_departures(seat)
    return frozenset(s for s in range(state.table.players) if s not in visible)


def _unseen_departures(state: State, seat: int, hidden: frozenset[int]) -> tuple[int, ...]:
    """The departure cards ``seat`` has not seen (where each hidden card may be)."""
    from stairgames.games.city_of_stairs.game import CityOfStairsState

    assert isinstance(state, CityOfStairsState)
    table = state.table
    seen = {table.departures[s] for s in range(table.players) if s not in hidden}
    return tuple(d for d in state.cards.departures if d not in seen)


def expected_points(
    cards: CardSet,
    city: tuple[int | None, ...],
    table: rules.Table,
    hidden: frozenset[int],
    unseen: tuple[int, ...],
) -> tuple[float, ...]:
    """Each seat's best reachable points in ``city``: averaged over ``unseen`` for hidden seats."""
    result = []
    for walker in range(table.players):
        colour = table.colours[walker]
        strolled = table.strolls[walker]
        if walker in hidden:
            total = sum(best_stroll(cards, city, d, colour, strolled) for d in unseen)
            result.append(total / len(unseen))
        else:
            departure = table.departures[walker]
            assert departure is not None
            result.append(float(best_stroll(cards, city, departure, colour, strolled)))
    return tuple(result)


def random_completions(
    cards: CardSet,
    city: tuple[int | None, ...],
    count: int = COMPLETIONS,
    seed: int | None = None,
) -> list[tuple[int | None, ...]]:
    """``count`` complete cities: the cards not in ``city`` on its empty cells at random.

    Each row gets exactly its missing stairs (the row caps add up to the cards
    left), the rest on its other empty cells. Common random numbers: each
    completion draws one random key per card and per cell, in a fixed order
    whatever the city, from a generator seeded by ``seed`` (default: the number
    of empty cells, public and the same for every placement of one decision).
    The empty cells of a row take stairs in the order of their keys, and the
    cards left go to the cells in key order; so cities that differ in one
    placement get completions that differ little, and comparing them measures
    the placement rather than sampling noise.
    """
    if all(card is not None for card in city):
        return [city]
    empty_cells = sum(1 for card in city if card is None)
    rng = random.Random(empty_cells if seed is None else seed)
    used = {c for c in city if c is not None}
    left = [card.index for card in cards.cards if card.index not in used]
    stairs_left = [c for c in left if cards.cards[c].stairs]
    plain_left = [c for c in left if not cards.cards[c].stairs]
    rows_empty = []
    for row in range(rules.ROWS):
        cells = [rules.cell_index(col, row) for col in range(rules.COLUMNS)]
        empty = [cell for cell in cells if city[cell] is None]
        stairs_here = sum(
            1 for cell in cells if city[cell] is not None and cards.cards[city[cell] or 0].stairs
        )
        rows_empty.append((empty, rules.STAIRS_PER_ROW - stairs_here))
    result = []
    for _ in range(count):
        card_key = [rng.random() for _ in cards.cards]
        cell_key = [rng.random() for _ in city]
        stairs_cells: list[int] = []
        plain_cells: list[int] = []
        for empty, missing in rows_empty:
            order = sorted(empty, key=cell_key.__getitem__)
            stairs_cells += order[:missing]
            plain_cells += order[missing:]
        filled = list(city)
        for cells, kind in ((stairs_cells, stairs_left), (plain_cells, plain_left)):
            cells.sort(key=cell_key.__getitem__)
            for cell, card in zip(cells, sorted(kind, key=card_key.__getitem__), strict=True):
                filled[cell] = card
        result.append(tuple(filled))
    return result


@functools.lru_cache(maxsize=4096)
def _building_points(
    cards_id: int,
    city: tuple[int | None, ...],
    table: rules.Table,
    hidden: frozenset[int],
    unseen: tuple[int, ...],
) -> tuple[float, ...]:
    """Each seat's expected best points over random completions of ``city`` (cached)."""
    cards = _TABLES[cards_id][0]
    completions = random_completions(cards, city, COMPLETIONS)
    sums = [0.0] * table.players
    for complete in completions:
        for walker, points in enumerate(expected_points(cards, complete, table, hidden, unseen)):
            sums[walker] += points
    return tuple(total / len(completions) for total in sums)


def reachable_points(state: State, seat: int) -> tuple[float, ...]:
    """What ``seat`` expects each seat to score at best, from what ``seat`` may know.

    Once the city is complete: each walker's best from its stroll so far (hidden
    departure cards averaged over the unseen ones). While building: the same
    over random completions of the city.
    """
    from stairgames.games.city_of_stairs.game import CityOfStairsState

    assert isinstance(state, CityOfStairsState)
    table = state.table
    hidden = _hidden_from(state, seat)
    unseen = _unseen_departures(state, seat, hidden)
    # the table as the seat knows it: hidden departures blanked (they are never read)
    known = dataclasses.replace(
        table,
        departures=tuple(None if s in hidden else d for s, d in enumerate(table.departures)),
        stock=(None, None),
        city=(),
    )
    _tables(state.cards)
    if table.city_complete():
        return expected_points(state.cards, table.city, known, hidden, unseen)
    return _building_points(id(state.cards), table.city, known, hidden, unseen)


def evaluate(state: State, seat: int) -> float:
    """In [-1, 1]: ``tanh`` of this seat's expected best points minus half the best other's.

    At the end, the result (1 for a win or a shared win, -1 for a loss).
    """
    if state.is_terminal():
        return 2.0 * state.returns()[seat] - 1.0
    from stairgames.games.city_of_stairs.game import CityOfStairsState

    assert isinstance(state, CityOfStairsState)
    if state.table.departures[seat] is None:
        return 0.0
    points = reachable_points(state, seat)
    others = max(p for s, p in enumerate(points) if s != seat)
    return math.tanh((points[seat] - OTHERS_WEIGHT * others) / SCALE)


HOOKS: Final = PlayerHooks(evaluate=evaluate, levels=LEVELS)
"""What City of Stairs offers computer players (its registration loads it on a
player's first need)."""

__all__ = [
    "HOOKS",
    "LEVELS",
    "best_stroll",
    "best_stroll_by_replay",
    "evaluate",
    "random_completions",
    "reachable_points",
]
