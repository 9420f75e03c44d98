"""City of Stairs rules as a small pure core: building the city, strolling, scoring.

Rulebook ``city_of_stairs.en.txt`` (Masaki Suga) with rulings C1-C9 of
``RULINGS.md``. A :class:`Table` is an immutable value holding everything
that is decided so far; functions here return new tables. Strolls are stored
as the choices each walker made: a walk is a deterministic function of the
city, the departure card, the walker's colour and those choices
(:func:`walk`), which also yields the step-by-step account of the stroll.

The city, drawn as players see it (row 4 at the top, the seaside below row 1)::

          lighthouse (above row 4)
    4   a4 b4 c4 d4 e4 f4 g4
    3   a3 b3 c3 d3 e3 f3 g3
    2   a2 b2 c2 d2 e2 f2 g2
    1   a1 b1 c1 d1 e1 f1 g1
        ①  ②  ③  ④  ⑤  ⑥  ⑦   seaside cards
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Final

from stairgames.games.city_of_stairs.cards import (
    IGNORE,
    LIGHTHOUSE,
    TURN,
    UP_LEFT,
    UP_RIGHT,
    CardSet,
    CityCard,
)
from stairgames.i18n import N_, Text

COLUMNS: Final = 7
ROWS: Final = 4
NUM_CELLS: Final = COLUMNS * ROWS
FILES: Final = "abcdefg"
STAIRS_PER_ROW: Final = 3
PLAIN_PER_ROW: Final = COLUMNS - STAIRS_PER_ROW
DIARY_LIMIT: Final = 5
"""C6: a stroll ends on the fifth face-up diary card."""

PASSAGE_SLOT: Final = 0
EXPERIENCE_SLOT: Final = 1
SLOT_KINDS: Final = ("passage", "experience")

LEFT: Final = "left"
RIGHT: Final = "right"
ON: Final = "on"
"""The choice to keep going in the same direction (a "may ignore" taken, C5)."""
CHOICES: Final = (UP_LEFT, UP_RIGHT, TURN, ON)
"""Every choice a walker can face, in action order."""


def cell_index(column: int, row: int) -> int:
    """The cell of a column (0-6, a-g) and a row (0-3, rows 1-4)."""
    return row * COLUMNS + column


def cell_name(cell: int) -> str:
    row, column = divmod(cell, COLUMNS)
    return f"{FILES[column]}{row + 1}"


def parse_cell(text: str) -> int | None:
    """The cell named ``a1``..``g4`` (case-insensitive), or ``None``."""
    text = text.strip().lower()
    if len(text) != 2 or text[0] not in FILES or text[1] not in "1234":
        return None
    return cell_index(FILES.index(text[0]), int(text[1]) - 1)


def row_of(cell: int) -> int:
    return cell // COLUMNS


@dataclasses.dataclass(frozen=True)
class Table:
    """Everything decided so far in a game of City of Stairs.

    ``colours``: the character colour of each seat (C9). ``start``: the start
    player, ``None`` until chosen. ``stock``: the card index in the passage and
    experience slot, ``None`` when empty. ``departures``: each seat's departure
    card (a seaside number 1-7), ``None`` until dealt. ``city``: the card index
    in each of the 28 cells, ``None`` when empty. ``strolls``: the choices each
    seat made on its stroll so far.
    """

    colours: tuple[str, ...]
    start: int | None
    stock: tuple[int | None, int | None]
    departures: tuple[int | None, ...]
    city: tuple[int | None, ...]
    strolls: tuple[tuple[str, ...], ...]

    @property
    def players(self) -> int:
        return len(self.colours)

    def placed(self) -> int:
        return sum(card is not None for card in self.city)

    def city_complete(self) -> bool:
        return all(card is not None for card in self.city)

    def turn_order(self) -> tuple[int, ...]:
        """C9: seat order from the start player, in both phases."""
        start = self.start or 0
        return tuple((start + i) % self.players for i in range(self.players))


def initial_table(colours: tuple[str, ...], first_player: int | None) -> Table:
    players = len(colours)
    return Table(
        colours=colours,
        start=first_player,
        stock=(None, None),
        departures=(None,) * players,
        city=(None,) * NUM_CELLS,
        strolls=((),) * players,
    )


# ----- whose turn -------------------------------------------------------------


class NodeKind(enum.Enum):
    START = "choose the start player"
    DRAW = "draw a card to the stock"
    DEAL = "deal a departure card"
    PLACE = "place a city card"
    STROLL = "stroll"
    OVER = "game over"


@dataclasses.dataclass(frozen=True)
class Node:
    """What happens next: a chance event, a seat's decision, or the end."""

    kind: NodeKind
    seat: int | None = None
    slot: int | None = None


def deck(table: Table, cards: CardSet, slot: int) -> tuple[int, ...]:
    """The cards left in the deck of a stock slot (not in the city nor in the stock)."""
    used = {c for c in table.city if c is not None} | {c for c in table.stock if c is not None}
    kind = SLOT_KINDS[slot]
    return tuple(card.index for card in cards.cards if card.kind == kind and card.index not in used)


def next_node(table: Table, cards: CardSet) -> Node:
    """Setup (start player, stock, deals), then placements with refills, then strolls."""
    if table.start is None:
        return Node(NodeKind.START)
    for slot in (PASSAGE_SLOT, EXPERIENCE_SLOT):
        if table.stock[slot] is None and deck(table, cards, slot):
            return Node(NodeKind.DRAW, slot=slot)
    for seat, departure in enumerate(table.departures):
        if departure is None:
            return Node(NodeKind.DEAL, seat=seat)
    if not table.city_complete():
        return Node(NodeKind.PLACE, seat=table.turn_order()[table.placed() % table.players])
    walker = current_walker(table, cards)
    if walker is None:
        return Node(NodeKind.OVER)
    return Node(NodeKind.STROLL, seat=walker)


def set_start(table: Table, seat: int) -> Table:
    return dataclasses.replace(table, start=seat)


def draw(table: Table, slot: int, card: int) -> Table:
    stock = list(table.stock)
    stock[slot] = card
    return dataclasses.replace(table, stock=(stock[0], stock[1]))


def deal(table: Table, seat: int, departure: int) -> Table:
    departures = list(table.departures)
    departures[seat] = departure
    return dataclasses.replace(table, departures=tuple(departures))


def undealt_departures(table: Table, cards: CardSet) -> tuple[int, ...]:
    return tuple(d for d in cards.departures if d not in table.departures)


# ----- building (C3) ------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Placement:
    """Place the card of a stock slot on a cell."""

    slot: int
    cell: int


def row_counts(table: Table, cards: CardSet, row: int) -> tuple[int, int]:
    """Cards with stairs and cards without stairs in a row."""
    stairs = plain = 0
    for column in range(COLUMNS):
        card = table.city[cell_index(column, row)]
        if card is None:
            continue
        if cards.cards[card].stairs:
            stairs += 1
        else:
            plain += 1
    return stairs, plain


def fits_row(table: Table, cards: CardSet, card: CityCard, cell: int) -> bool:
    """C3: no row ever holds more than 3 stairs or more than 4 cards without stairs."""
    stairs, plain = row_counts(table, cards, row_of(cell))
    return stairs < STAIRS_PER_ROW if card.stairs else plain < PLAIN_PER_ROW


def touches_city(table: Table, cell: int) -> bool:
    """C3: orthogonally next to a seaside card (row 1) or a city card; no wrap while building."""
    row, column = divmod(cell, COLUMNS)
    if row == 0:
        return True
    neighbours = [(column, row - 1), (column, row + 1), (column - 1, row), (column + 1, row)]
    return any(
        0 <= c < COLUMNS and 0 <= r < ROWS and table.city[cell_index(c, r)] is not None
        for c, r in neighbours
    )


def _candidate_placements(table: Table, cards: CardSet, *, adjacency: bool) -> list[Placement]:
    result = []
    for slot in (PASSAGE_SLOT, EXPERIENCE_SLOT):
        index = table.stock[slot]
        if index is None:
            continue
        card = cards.cards[index]
        for cell in range(NUM_CELLS):
            if table.city[cell] is not None or not fits_row(table, cards, card, cell):
                continue
            if adjacency and not touches_city(table, cell):
                continue
            result.append(Placement(slot, cell))
    return result


def placements(table: Table, cards: CardSet) -> list[Placement]:
    """The legal placements, by slot then cell; adjacency is waived when none touches (C3)."""
    normal = _candidate_placements(table, cards, adjacency=True)
    return normal if normal else _candidate_placements(table, cards, adjacency=False)


def adjacency_waived(table: Table, cards: CardSet) -> bool:
    """C3: neither stock card has a legal space next to the city, so adjacency is waived."""
    return not _candidate_placements(table, cards, adjacency=True)


def why_not_placeable(table: Table, cards: CardSet, placement: Placement) -> Text | None:
    """Why a placement is illegal, in words (``str()`` is the English); ``None`` when it
    is legal."""
    index = table.stock[placement.slot]
    if index is None:
        if SLOT_KINDS[placement.slot] == "passage":
            return Text(N_("the passage slot of the stock is empty"))
        return Text(N_("the experience slot of the stock is empty"))
    card = cards.cards[index]
    name = cell_name(placement.cell)
    occupant = table.city[placement.cell]
    if occupant is not None:
        return Text(
            N_("{cell} already holds {card}"), {"cell": name, "card": cards.cards[occupant].id}
        )
    stairs, plain = row_counts(table, cards, row_of(placement.cell))
    row = row_of(placement.cell) + 1
    if card.stairs and stairs >= STAIRS_PER_ROW:
        return Text(
            N_(
                "row {row} already has {count} stairs, and every row ends with exactly {count} (C3)"
            ),
            {"row": row, "count": STAIRS_PER_ROW},
        )
    if not card.stairs and plain >= PLAIN_PER_ROW:
        return Text(
            N_(
                "row {row} already has {plain} cards without stairs; the other {stairs} "
                "spaces are for stairs (C3)"
            ),
            {"row": row, "plain": PLAIN_PER_ROW, "stairs": STAIRS_PER_ROW},
        )
    if not adjacency_waived(table, cards) and not touches_city(table, placement.cell):
        return Text(N_("{cell} is not next to the seaside or a city card (C3)"), {"cell": name})
    return None


def place(table: Table, placement: Placement) -> Table:
    index = table.stock[placement.slot]
    assert index is not None
    city = list(table.city)
    city[placement.cell] = index
    stock = list(table.stock)
    stock[placement.slot] = None
    return dataclasses.replace(table, city=tuple(city), stock=(stock[0], stock[1]))


# ----- strolling (C4-C6) ----------------------------------------------------------


class End(enum.Enum):
    """Why a stroll ended (C6)."""

    FIVE = "five diary cards are face up"
    LIGHTHOUSE = "reached the lighthouse"
    TRAPPED = "trapped: entered a card from the same side a second time in this row"


@dataclasses.dataclass(frozen=True)
class Event:
    """One step of a stroll, for the account given to players.

    ``kind``: ``depart`` (``detail`` the seaside number), ``enter`` (``cell``,
    ``side`` entered from), ``diary`` (``detail`` the icon turned up),
    ``move`` (``detail`` ``nw``, ``ne``, ``turn``, ``on`` or ``next`` when no
    icon applied; ``chosen`` when the walker chose it among several),
    ``lighthouse``, ``trapped`` (``cell``, ``side``) or ``five``.
    """

    kind: str
    cell: int | None = None
    side: str | None = None
    detail: str = ""
    chosen: bool = False


@dataclasses.dataclass(frozen=True)
class Walk:
    """A stroll replayed from its choices."""

    events: tuple[Event, ...]
    diary: tuple[str, ...]
    """Face-up diary cards, in the order they were turned up."""
    end: End | None
    """Why it ended; ``None`` while the walker has a choice to make."""
    options: tuple[str, ...]
    """The choices open to the walker now (empty once ended)."""
    location: int | None
    """The card the walker stands on (``None`` at the seaside or at the lighthouse)."""


class BadChoiceError(ValueError):
    """A stored choice is not open to the walker where it stands."""


def movement_options(card: CityCard, side: str, colour: str) -> tuple[str, ...]:
    """C5: the effects open to ``colour`` entering ``card`` from ``side``, in action order.

    The applicable ↖, ↗ and "turn around" icons of that corner; and ``on``
    (keep going) when a "may ignore" of that colour sits in the corner with an
    arrow that applies.
    """
    corner = card.corner(side)
    effects: set[str] = {
        icon.kind for icon in corner if icon.kind != IGNORE and icon.applies_to(colour)
    }
    can_ignore = any(icon.kind == IGNORE and icon.applies_to(colour) for icon in corner)
    if can_ignore and effects & {UP_LEFT, UP_RIGHT}:
        effects.add(ON)
    return tuple(choice for choice in CHOICES if choice in effects)


class _Walker:
    """Walks one stroll step by step (C4-C6), consuming stored choices."""

    def __init__(
        self, cards: CardSet, city: tuple[int | None, ...], colour: str, choices: tuple[str, ...]
    ) -> None:
        self.cards = cards
        self.city = city
        self.colour = colour
        self.choices = choices
        self.used = 0
        self.events: list[Event] = []
        self.diary: list[str] = []

    def choose(self, options: tuple[str, ...]) -> tuple[str | None, bool]:
        """The effect to resolve: automatic with one option, else the next stored choice."""
        if len(options) == 1:
            return options[0], False
        if self.used == len(self.choices):
            return None, True
        choice = self.choices[self.used]
        if choice not in options:
            raise BadChoiceError(
                f"choice {self.used + 1} ({choice!r}) is not open here; options: "
                + ", ".join(options)
            )
        self.used += 1
        return choice, True

    def result(self, end: End | None, options: tuple[str, ...], location: int | None) -> Walk:
        if end is not None and self.used != len(self.choices):
            raise BadChoiceError(
                f"the stroll ended ({end.value}) with {len(self.choices) - self.used} "
                "choices left over"
            )
        return Walk(tuple(self.events), tuple(self.diary), end, options, location)

    def walk(self, departure: int) -> Walk:
        self.events.append(Event("depart", detail=str(departure)))
        seaside = (UP_LEFT, UP_RIGHT)
        choice, _ = self.choose(seaside)
        if choice is None:
            return self.result(None, seaside, None)
        self.events.append(Event("move", detail=choice, chosen=True))
        direction = -1 if choice == UP_LEFT else 1
        row, column = 0, (departure - 1 + direction) % COLUMNS
        entered: set[tuple[int, str]] = set()
        while True:
            if row == ROWS:
                return self.reach_lighthouse()
            side = RIGHT if direction < 0 else LEFT
            cell = cell_index(column, row)
            if (cell, side) in entered:
                self.events.append(Event("trapped", cell=cell, side=side))
                return self.result(End.TRAPPED, (), cell)
            entered.add((cell, side))
            self.events.append(Event("enter", cell=cell, side=side))
            index = self.city[cell]
            if index is None:  # only when looking ahead in an unfinished city: no icons
                self.events.append(Event("move", cell=cell, detail="next"))
                column = (column + direction) % COLUMNS
                continue
            card = self.cards.cards[index]
            if card.experience is not None and card.experience not in self.diary:
                self.diary.append(card.experience)
                self.events.append(Event("diary", cell=cell, detail=card.experience))
                if len(self.diary) >= DIARY_LIMIT:
                    self.events.append(Event("five", cell=cell))
                    return self.result(End.FIVE, (), cell)
            options = movement_options(card, side, self.colour)
            if not options:
                self.events.append(Event("move", cell=cell, detail="next"))
                column = (column + direction) % COLUMNS
                continue
            effect, chosen = self.choose(options)
            if effect is None:
                return self.result(None, options, cell)
            self.events.append(Event("move", cell=cell, detail=effect, chosen=chosen))
            if effect in (UP_LEFT, UP_RIGHT):
                direction = -1 if effect == UP_LEFT else 1
                row += 1
                entered = set()
            elif effect == TURN:
                direction = -direction
            column = (column + direction) % COLUMNS

    def reach_lighthouse(self) -> Walk:
        """C5, C6: moving up from row 4 reaches the lighthouse; its diary card turns up."""
        self.diary.append(LIGHTHOUSE)
        self.events.append(Event("lighthouse"))
        return self.result(End.LIGHTHOUSE, (), None)


def walk(
    cards: CardSet,
    city: tuple[int | None, ...],
    departure: int,
    colour: str,
    choices: tuple[str, ...],
) -> Walk:
    """Replay a stroll from its departure card and the walker's choices.

    :raises BadChoiceError: a choice is not open where it is used, or choices
        are left over after the stroll ended.
    """
    return _Walker(cards, city, colour, choices).walk(departure)


def walk_of(table: Table, cards: CardSet, seat: int) -> Walk:
    departure = table.departures[seat]
    assert departure is not None
    return walk(cards, table.city, departure, table.colours[seat], table.strolls[seat])


def stroll_started(table: Table, cards: CardSet, seat: int) -> bool:
    """Whether ``seat``'s stroll has begun (its departure card is then public, C8)."""
    if not table.city_complete() or table.departures[seat] is None:
        return False
    for other in table.turn_order():
        if other == seat:
            return True
        if walk_of(table, cards, other).end is None:
            return False
    raise AssertionError("every seat is in the turn order")


def current_walker(table: Table, cards: CardSet) -> int | None:
    """The seat strolling now: the first in turn order whose stroll has not ended."""
    for seat in table.turn_order():
        if walk_of(table, cards, seat).end is None:
            return seat
    return None


def choose(table: Table, seat: int, choice: str) -> Table:
    strolls = list(table.strolls)
    strolls[seat] = (*strolls[seat], choice)
    return dataclasses.replace(table, strolls=tuple(strolls))


# ----- scoring (C7) ---------------------------------------------------------------


def diary_points(cards: CardSet, colour: str, icon: str) -> int:
    """C7: the lighthouse scores its points; an interest 2; any other icon 1."""
    if icon == LIGHTHOUSE:
        return cards.lighthouse_points
    return 2 if icon in cards.character(colour).interests else 1


def score(cards: CardSet, colour: str, diary: tuple[str, ...]) -> int:
    return sum(diary_points(cards, colour, icon) for icon in diary)


def scores(table: Table, cards: CardSet) -> tuple[int, ...]:
    """Each seat's points from the diary cards its stroll turned up (0 before it)."""
    result = []
    for seat in range(table.players):
        if table.departures[seat] is None or not table.city_complete():
            result.append(0)
            continue
        result.append(score(cards, table.colours[seat], walk_of(table, cards, seat).diary))
    return tuple(result)


def winners(points: tuple[int, ...]) -> tuple[int, ...]:
    """C7: the seats with the most points; ties share the win."""
    best = max(points)
    return tuple(seat for seat, p in enumerate(points) if p == best)
