"""What the browser's screen-reader mode reads of a City of Stairs game
(``docs/accessibility.md``).

Everything here is read from the game's drawing data for the viewer (:func:`board_view`),
so a seat hears what its board shows and no more: its own departure card, the others'
only once their stroll has begun (C8); a spectator none before its stroll. Row by row
the city from row 4 (by the lighthouse) down to row 1 (by the seaside), each cell's card;
as a list, the stock and each seat's character, departure card, diary and score; whose
turn it is and what it asks. The last move is told by the game's move list
(``narrate_moves``), so this gives no ``last``.

>>> import stairgames
>>> from stairgames.i18n import localize
>>> state = stairgames.load("city_of_stairs", players=2, first_player=0).new_initial_state()
>>> for move in ("draw P01", "draw E01", "deal 3 to red", "deal 5 to blue"):
...     _ = state.apply_move(move)
>>> [localize(item) for item in items(state, 1)[1:]]  # doctest: +NORMALIZE_WHITESPACE
['Red (interests: cat, bakery, kite): departure card face down; 0 points',
 'Blue (interests: flowers, fishing, shrine): your departure card, seaside 5; 0 points']
>>> pieces("P01@c2"), pieces("nw")
(('P01', 'c2'), ())
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from stairgames.core.registry import Accessible, drawn_once
from stairgames.games.city_of_stairs.view.board import board_view as draw_board
from stairgames.i18n import N_, Names, Text

if TYPE_CHECKING:
    from stairgames.core.game import State

board_view = drawn_once(draw_board)
"""The game's drawing for a viewer, made once for the three texts that read it."""

_CAPITAL: Final = {
    "red": N_("Red"),
    "blue": N_("Blue"),
    "yellow": N_("Yellow"),
    "green": N_("Green"),
}
_GLYPH: Final = {"nw": "↖", "ne": "↗", "ignore": "≈", "turn": "↺", "on": "≈"}
_CHOICES: Final = {
    "nw": N_("↖: up a row, then left"),
    "ne": N_("↗: up a row, then right"),
    "turn": N_("↺: turn around"),
    "on": N_("≈: ignore the arrow and keep going"),
}
_ENDS: Final = {
    "five": N_("five diary cards"),
    "lighthouse": N_("reached the lighthouse"),
    "trapped": N_("trapped"),
}


def _icon(icon: dict[str, Any]) -> Any:
    if not icon["colour"]:
        return _GLYPH[icon["kind"]]
    colour = Text(icon["colour"])
    if icon["kind"] == "ignore":
        return Text(N_("{colour} may ignore ↖/↗"), {"colour": colour})
    if icon["kind"] == "turn":
        return Text(N_("{colour} turns around"), {"colour": colour})
    return Text(N_("{colour} only {arrow}"), {"colour": colour, "arrow": _GLYPH[icon["kind"]]})


def _card(card: dict[str, Any]) -> Text:
    """A card in words, as the board's labels say it: its id, then its stairs, experience
    and icons in brackets."""
    parts: list[Any] = []
    if card["stairs"]:
        parts.append(Text(N_("stairs")))
    if card["experience"]:
        parts.append(Text(card["experience"]))
    for side, label in (
        ("left", N_("bottom left: {icons}")),
        ("right", N_("bottom right: {icons}")),
    ):
        if card[side]:
            icons = tuple(Text(N_("{icon}"), {"icon": _icon(icon)}) for icon in card[side])
            parts.append(Text(label, {"icons": Names(icons, conjunction=False)}))
    if not parts:
        return Text(N_("{card}"), {"card": card["id"]})
    return Text(
        N_("{card} ({details})"),
        {"card": card["id"], "details": Names(tuple(parts), conjunction=False)},
    )


def rows(state: State, viewer: int | None) -> list[Any]:
    """The city's rows from row 4 (by the lighthouse) down to row 1 (by the seaside)."""
    view = board_view(state, viewer)
    columns = view["columns"]
    said: list[Any] = []
    for row in range(view["rows"], 0, -1):
        cells = view["cells"][(row - 1) * columns : row * columns]
        told = tuple(
            Text(N_("{cell}: {card}"), {"cell": cell["name"], "card": _card(cell["card"])})
            if cell["card"]
            else Text(N_("{cell}: empty"), {"cell": cell["name"]})
            for cell in cells
        )
        said.append(
            Text(N_("Row {row}: {cells}"), {"row": row, "cells": Names(told, conjunction=False)})
        )
    return said


def items(state: State, viewer: int | None) -> list[Any]:
    """The stock, then each seat: character, interests, departure card as far as
    ``viewer`` may know it, where its stroll stands, diary and score."""
    view = board_view(state, viewer)
    stock = [_card(card) for card in view["stock"] if card is not None]
    said: list[Any] = [
        Text(N_("Stock: {cards}"), {"cards": _semicolons(stock)})
        if stock
        else Text(N_("Stock: {cards}"), {"cards": Text(N_("none"))})
    ]
    for seat in view["seats"]:
        parts: list[Any] = []
        if seat["departure"] is not None:
            own = seat["seat"] == viewer and not seat["strolled"]
            parts.append(
                Text(
                    N_("your departure card, seaside {number}")
                    if own
                    else N_("departure card, seaside {number}"),
                    {"number": seat["departure"]},
                )
            )
        elif seat["dealt"]:
            parts.append(Text(N_("departure card face down")))
        if seat["location"]:
            parts.append(Text(N_("at {cell}"), {"cell": seat["location"]}))
        if seat["diary"]:
            diary = tuple(Text(icon) for icon in seat["diary"])
            parts.append(Text(N_("Diary cards turned up: {names}"), {"names": Names(diary)}))
        if seat["end"]:
            parts.append(Text(_ENDS[seat["end"]]))
        parts.append(
            Text(
                N_("{points} point") if seat["score"] == 1 else N_("{points} points"),
                {"points": seat["score"]},
            )
        )
        interests = tuple(Text(name) for name in seat["interests"])
        said.append(
            Text(
                N_("{name} (interests: {interests}): {facts}"),
                {
                    "name": Text(_CAPITAL[seat["colour"]]),
                    "interests": Names(interests, conjunction=False),
                    "facts": Text(N_("{parts}"), {"parts": _semicolons(parts)}),
                },
            )
        )
    return said


def _semicolons(parts: list[Any]) -> Any:
    """``parts`` said one after the other, with the language's "; " between them."""
    joined: Any = parts[0]
    for part in parts[1:]:
        joined = Text(N_("{before}; {after}"), {"before": joined, "after": part})
    return joined


def turn(state: State, viewer: int | None) -> Any:
    """Who places a card (with the stock's cards) or strolls (with the choices), or what
    is dealt next."""
    view = board_view(state, viewer)
    seats = view["seats"]
    if view["placing"] is not None:
        stock = tuple(Text(N_("{card}"), {"card": c["id"]}) for c in view["stock"] if c)
        return Text(
            N_("{name} places a card of the stock in the city: {cards}"),
            {"name": Text(_CAPITAL[seats[view["placing"]]["colour"]]), "cards": Names(stock)},
        )
    if view["walker"] is not None:
        seat = seats[view["walker"]]
        choices = tuple(Text(_CHOICES[option]) for option in view["options"] if option in _CHOICES)
        return Text(
            N_("{name} strolls, at {cell}: {choices}"),
            {
                "name": Text(_CAPITAL[seat["colour"]]),
                "cell": seat["location"] or "—",
                "choices": Names(choices, conjunction=False),
            },
        )
    return Text(N_("Cards are drawn and dealt next."))


def pieces(move: str) -> tuple[str, ...]:
    """A placement's card and cell (``P01@c2``: ``P01`` and ``c2``); a stroll's choice has
    none."""
    card, at, cell = move.partition("@")
    return (card, cell) if at else ()


ACCESSIBLE: Final = Accessible(
    rows=rows,
    items=items,
    turn=turn,
    pieces=pieces,
)
"""The registration's ``accessible``."""
