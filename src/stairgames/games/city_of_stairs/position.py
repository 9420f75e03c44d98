"""City of Stairs position text: :func:`format_position` and :func:`parse_position` round-trip.

Five space-separated fields, each ``name=value``::

    start=1 departures=3,5 stock=P03,E07 city=ROW4/ROW3/ROW2/ROW1 strolls=ne,on/-

- ``start``: the start player's seat, or ``-`` before it is chosen.
- ``departures``: each seat's departure card (seaside 1-7), ``-`` until dealt.
- ``stock``: the passage slot then the experience slot, a card id or ``-``.
- ``city``: rows 4 down to 1, separated by ``/``; in each row the 7 cells
  ``a`` to ``g`` separated by ``,``: a card id, or ``.`` when empty.
- ``strolls``: each seat's stroll choices (``nw``, ``ne``, ``turn``, ``on``)
  separated by ``,``, seats separated by ``/``; ``-`` for none yet.

It is the full (debug) state, departure cards included; what a player may see
is :meth:`CityOfStairsState.observation_string`. The character colours and the
card set come from the game's options, not from the text.
"""

from __future__ import annotations

from stairgames.core.errors import InvalidPositionError
from stairgames.games.city_of_stairs.cards import CardSet
from stairgames.games.city_of_stairs.rules import (
    CHOICES,
    COLUMNS,
    EXPERIENCE_SLOT,
    NUM_CELLS,
    PASSAGE_SLOT,
    PLAIN_PER_ROW,
    ROWS,
    SLOT_KINDS,
    STAIRS_PER_ROW,
    BadChoiceError,
    Table,
    cell_index,
    cell_name,
    deck,
    row_counts,
    walk_of,
)
from stairgames.i18n import N_, Text

FIELDS = ("start", "departures", "stock", "city", "strolls")
HIDDEN = "?"


def format_position(
    table: Table, cards: CardSet, *, visible_departures: frozenset[int] | None = None
) -> str:
    """The position text; departures of seats outside ``visible_departures`` show as ``?``."""
    start = "-" if table.start is None else str(table.start)
    departures = ",".join(
        _departure_text(seat, d, visible_departures) for seat, d in enumerate(table.departures)
    )
    stock = ",".join("-" if c is None else cards.cards[c].id for c in table.stock)
    rows = []
    for row in reversed(range(ROWS)):
        cells = [table.city[cell_index(column, row)] for column in range(COLUMNS)]
        rows.append(",".join("." if c is None else cards.cards[c].id for c in cells))
    strolls = "/".join(",".join(choices) or "-" for choices in table.strolls)
    return (
        f"start={start} departures={departures} stock={stock} "
        f"city={'/'.join(rows)} strolls={strolls}"
    )


def _departure_text(seat: int, departure: int | None, visible: frozenset[int] | None) -> str:
    if departure is None:
        return "-"
    if visible is not None and seat not in visible:
        return HIDDEN
    return str(departure)


def parse_position(
    text: str, cards: CardSet, colours: tuple[str, ...], first_player: int | None
) -> Table:
    """Read a position text and check that it can arise in a game with these options.

    :raises InvalidPositionError: saying what is wrong and where.
    """
    if not isinstance(text, str):
        raise InvalidPositionError(
            message_id=N_("a position is text, got {text!r}"), arguments={"text": text}
        )
    values = _fields(text)
    players = len(colours)
    start = _parse_start(text, values["start"], players, first_player)
    departures = _parse_departures(text, values["departures"], players, cards)
    stock = _parse_stock(text, values["stock"], cards)
    city = _parse_city(text, values["city"], cards)
    strolls = _parse_strolls(text, values["strolls"], players)
    table = Table(colours, start, stock, departures, city, strolls)
    _check_unique(text, table, cards)
    _check_rows(text, table, cards)
    _check_phase(text, table, cards)
    _check_strolls(text, table, cards)
    return table


def _fail(text: str, why: Text) -> InvalidPositionError:
    return InvalidPositionError(
        message_id=N_("position {position!r}: {why}"), arguments={"position": text, "why": why}
    )


def _fields(text: str) -> dict[str, str]:
    parts = text.split()
    if len(parts) != len(FIELDS):
        raise _fail(
            text,
            Text(
                N_("needs {count} space-separated fields ({fields}), found {found}"),
                {
                    "count": len(FIELDS),
                    "fields": ", ".join(f + "=" for f in FIELDS),
                    "found": len(parts),
                },
            ),
        )
    values: dict[str, str] = {}
    for name, part in zip(FIELDS, parts, strict=True):
        key, sep, value = part.partition("=")
        if key != name or not sep:
            raise _fail(
                text,
                Text(
                    N_("field {number} must start with '{name}=', got {part!r}"),
                    {"number": len(values) + 1, "name": name, "part": part},
                ),
            )
        values[name] = value
    return values


def _parse_start(text: str, value: str, players: int, first_player: int | None) -> int | None:
    if value == "-":
        if first_player is not None:
            raise _fail(
                text,
                Text(
                    N_("the first_player option makes seat {first_player} start, not '-'"),
                    {"first_player": first_player},
                ),
            )
        return None
    if not value.isdigit() or not 0 <= int(value) < players:
        raise _fail(
            text,
            Text(
                N_("start must be a seat 0-{last} or '-', got {value!r}"),
                {"last": players - 1, "value": value},
            ),
        )
    if first_player is not None and int(value) != first_player:
        raise _fail(
            text,
            Text(
                N_("the first_player option makes seat {first_player} start, not {value}"),
                {"first_player": first_player, "value": value},
            ),
        )
    return int(value)


def _parse_departures(
    text: str, value: str, players: int, cards: CardSet
) -> tuple[int | None, ...]:
    parts = value.split(",")
    if len(parts) != players:
        raise _fail(
            text,
            Text(
                N_("departures needs one entry per seat ({players}), got {found}"),
                {"players": players, "found": len(parts)},
            ),
        )
    result: list[int | None] = []
    for seat, part in enumerate(parts):
        if part == "-":
            result.append(None)
            continue
        if not part.isdigit() or int(part) not in cards.departures:
            raise _fail(
                text,
                Text(
                    N_(
                        "departure of seat {seat} must be a seaside number 1-7 or '-', got {part!r}"
                    ),
                    {"seat": seat, "part": part},
                ),
            )
        if int(part) in result:
            raise _fail(text, Text(N_("departure card {part} is dealt twice"), {"part": part}))
        result.append(int(part))
    dealt = [d is not None for d in result]
    if dealt != sorted(dealt, reverse=True):
        raise _fail(
            text, Text(N_("departure cards are dealt in seat order: '-' only after dealt seats"))
        )
    return tuple(result)


def _card(text: str, card_id: str, cards: CardSet, where: str) -> int:
    card = cards.by_id.get(card_id)
    if card is None:
        raise _fail(
            text,
            Text(
                N_("{where}: unknown card {card_id!r} (not in {cards})"),
                {"where": where, "card_id": card_id, "cards": cards.name},
            ),
        )
    return card.index


def _parse_stock(text: str, value: str, cards: CardSet) -> tuple[int | None, int | None]:
    parts = value.split(",")
    if len(parts) != 2:
        raise _fail(
            text,
            Text(
                N_("stock needs 2 entries (passage, experience), got {found}"),
                {"found": len(parts)},
            ),
        )
    slots: list[int | None] = []
    for slot, part in enumerate(parts):
        if part == "-":
            slots.append(None)
            continue
        index = _card(text, part, cards, f"stock {SLOT_KINDS[slot]} slot")
        if cards.cards[index].kind != SLOT_KINDS[slot]:
            raise _fail(
                text,
                Text(
                    N_("stock {slot} slot holds {part}, not a {slot} card"),
                    {"slot": SLOT_KINDS[slot], "part": part},
                ),
            )
        slots.append(index)
    return slots[0], slots[1]


def _parse_city(text: str, value: str, cards: CardSet) -> tuple[int | None, ...]:
    rows = value.split("/")
    if len(rows) != ROWS:
        raise _fail(
            text,
            Text(
                N_("city needs {ROWS} rows separated by '/', got {found}"),
                {"ROWS": ROWS, "found": len(rows)},
            ),
        )
    city: list[int | None] = [None] * NUM_CELLS
    for position, row_text in enumerate(rows):
        row = ROWS - 1 - position
        cells = row_text.split(",")
        if len(cells) != COLUMNS:
            raise _fail(
                text,
                Text(
                    N_("city row {row} needs {COLUMNS} cells separated by ',', got {found}"),
                    {"row": row + 1, "COLUMNS": COLUMNS, "found": len(cells)},
                ),
            )
        for column, part in enumerate(cells):
            if part != ".":
                cell = cell_index(column, row)
                city[cell] = _card(text, part, cards, f"city {cell_name(cell)}")
    return tuple(city)


def _parse_strolls(text: str, value: str, players: int) -> tuple[tuple[str, ...], ...]:
    parts = value.split("/")
    if len(parts) != players:
        raise _fail(
            text,
            Text(
                N_("strolls needs one entry per seat ({players}), got {found}"),
                {"players": players, "found": len(parts)},
            ),
        )
    strolls: list[tuple[str, ...]] = []
    for seat, part in enumerate(parts):
        if part == "-":
            strolls.append(())
            continue
        choices = tuple(part.split(","))
        for choice in choices:
            if choice not in CHOICES:
                raise _fail(
                    text,
                    Text(
                        N_("stroll of seat {seat}: {choice!r} is not one of {choices}"),
                        {"seat": seat, "choice": choice, "choices": ", ".join(CHOICES)},
                    ),
                )
        strolls.append(choices)
    return tuple(strolls)


def _check_unique(text: str, table: Table, cards: CardSet) -> None:
    seen: set[int] = set()
    for index in (*table.city, *table.stock):
        if index is None:
            continue
        if index in seen:
            raise _fail(
                text, Text(N_("card {card} appears twice"), {"card": cards.cards[index].id})
            )
        seen.add(index)


def _check_rows(text: str, table: Table, cards: CardSet) -> None:
    for row in range(ROWS):
        stairs, plain = row_counts(table, cards, row)
        if stairs > STAIRS_PER_ROW:
            raise _fail(
                text,
                Text(
                    N_("row {row} has {stairs} stairs; at most {STAIRS_PER_ROW} (C3)"),
                    {"row": row + 1, "stairs": stairs, "STAIRS_PER_ROW": STAIRS_PER_ROW},
                ),
            )
        if plain > PLAIN_PER_ROW:
            raise _fail(
                text,
                Text(
                    N_("row {row} has {plain} cards without stairs; at most {PLAIN_PER_ROW} (C3)"),
                    {"row": row + 1, "plain": plain, "PLAIN_PER_ROW": PLAIN_PER_ROW},
                ),
            )


def _pending_slots(table: Table, cards: CardSet) -> list[int]:
    return [
        slot
        for slot in (PASSAGE_SLOT, EXPERIENCE_SLOT)
        if table.stock[slot] is None and deck(table, cards, slot)
    ]


def _check_phase(text: str, table: Table, cards: CardSet) -> None:
    """The setup order (start, stock, deals), then building with one refill at a time."""
    empty_city = table.placed() == 0
    any_dealt = any(d is not None for d in table.departures)
    all_dealt = all(d is not None for d in table.departures)
    pending = _pending_slots(table, cards)
    if table.start is None and (any_dealt or not empty_city or table.stock != (None, None)):
        raise _fail(
            text, Text(N_("nothing is drawn, dealt or placed before the start player is chosen"))
        )
    if not empty_city and not all_dealt:
        raise _fail(text, Text(N_("cards are placed only after every departure card is dealt")))
    if any_dealt and empty_city and pending:
        raise _fail(text, Text(N_("departure cards are dealt after the stock is filled")))
    if not any_dealt and empty_city and table.stock[EXPERIENCE_SLOT] is not None and pending:
        raise _fail(text, Text(N_("the stock's passage card is drawn before its experience card")))
    if len(pending) > 1 and not empty_city:
        raise _fail(text, Text(N_("only the slot just emptied can wait for a refill")))
    if not table.city_complete() and any(table.strolls):
        raise _fail(text, Text(N_("strolls begin only once all 28 city cards are placed")))


def _check_strolls(text: str, table: Table, cards: CardSet) -> None:
    if not table.city_complete():
        return
    current_found = False
    for seat in table.turn_order():
        if current_found:
            if table.strolls[seat]:
                raise _fail(
                    text,
                    Text(
                        N_("seat {seat} has stroll choices before its turn to stroll"),
                        {"seat": seat},
                    ),
                )
            continue
        try:
            walk = walk_of(table, cards, seat)
        except BadChoiceError as exc:
            raise _fail(
                text, Text(N_("stroll of seat {seat}: {exc}"), {"seat": seat, "exc": exc})
            ) from None
        if walk.end is None:
            current_found = True
