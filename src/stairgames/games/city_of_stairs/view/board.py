"""City of Stairs drawing data for the browser (``web/board.js`` draws it).

A viewer sees the city, the stock, every seat's character and each stroll that has begun,
and of the departure cards only its own and those of seats whose stroll has begun (C8):
a spectator (``None``) sees none before its stroll. Deck order never leaves the server;
only how many cards each deck holds.

>>> import stairgames
>>> state = stairgames.load("city_of_stairs", players=2, first_player=0).new_initial_state()
>>> for move in ("draw P01", "draw E01", "deal 3 to red", "deal 5 to blue"):
...     _ = state.apply_move(move)
>>> [seat["departure"] for seat in board_view(state, 0)["seats"]]
[3, None]
>>> [seat["departure"] for seat in board_view(state, None)["seats"]]
[None, None]
"""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING, Any

from stairgames.core.game import State
from stairgames.games.city_of_stairs import rules
from stairgames.games.city_of_stairs.cards import CityCard, Icon

if TYPE_CHECKING:
    from stairgames.games.city_of_stairs.game import CityOfStairsState

WEB_ASSETS: Traversable = files("stairgames.games.city_of_stairs.view")
"""The folder holding ``board.js``."""


def board_view(state: State, viewer: int | None) -> dict[str, Any]:
    """The table as JSON-ready data for ``viewer`` (a seat, or ``None``: a spectator).

    ``cells``: the 28 cells, ``a1`` first, row-major by row (row 1 next to the seaside),
    each ``{"name", "card"}`` with the card's face or ``None``. ``stock``: the passage and
    the experience card on offer (``None`` when that deck is spent). ``seats``: each
    seat's colour, character name and interests, its departure card where ``viewer`` may
    know it (else ``None``; ``dealt`` says whether it has one), whether its stroll has
    begun, and for a begun stroll its steps (``trace``), face-up diary cards, score, end
    and the card it stands on. ``walker``: the seat strolling now; ``options``: the
    choices open to it where it stands. ``private``: whether this drawing holds something
    other seats may not see (the viewer's own hidden departure card).
    """
    from stairgames.games.city_of_stairs.game import CityOfStairsState

    if not isinstance(state, CityOfStairsState):
        raise TypeError(f"a City of Stairs state is needed, not {type(state).__name__}")
    table = state.table
    cards = state.cards
    node = state.node()
    walker = node.seat if node.kind == rules.NodeKind.STROLL else None
    placing = node.seat if node.kind == rules.NodeKind.PLACE else None
    seats = [_seat_view(state, seat, viewer) for seat in range(table.players)]
    return {
        "columns": rules.COLUMNS,
        "rows": rules.ROWS,
        "files": rules.FILES,
        "phase": state.phase(),
        "cells": [
            {"name": rules.cell_name(cell), "card": _card_face(cards.cards[index])}
            if (index := table.city[cell]) is not None
            else {"name": rules.cell_name(cell), "card": None}
            for cell in range(rules.NUM_CELLS)
        ],
        "stock": [
            None if index is None else _card_face(cards.cards[index]) for index in table.stock
        ],
        "decks": {
            kind: len(rules.deck(table, cards, slot)) for slot, kind in enumerate(rules.SLOT_KINDS)
        },
        "seaside": list(cards.seaside),
        "lighthouse_points": cards.lighthouse_points,
        "diary_icons": list(cards.diary),
        "card_set": cards.name,
        "start": table.start,
        "placing": placing,
        "walker": walker,
        "options": _walker_options(state, walker),
        "seats": seats,
        "private": viewer is not None
        and any(s["departure"] is not None and not s["strolled"] for s in seats),
    }


def _card_face(card: CityCard) -> dict[str, Any]:
    return {
        "id": card.id,
        "kind": card.kind,
        "stairs": card.stairs,
        "experience": card.experience,
        "left": [_icon(icon) for icon in card.left],
        "right": [_icon(icon) for icon in card.right],
    }


def _icon(icon: Icon) -> dict[str, Any]:
    return {"kind": icon.kind, "colour": icon.colour}


def _seat_view(state: CityOfStairsState, seat: int, viewer: int | None) -> dict[str, Any]:
    table = state.table
    cards = state.cards
    colour = table.colours[seat]
    character = cards.character(colour)
    strolled = state.stroll_started(seat)
    known = strolled or (viewer is not None and seat == viewer)
    departure = table.departures[seat] if known else None
    data: dict[str, Any] = {
        "seat": seat,
        "colour": colour,
        "name": character.name,
        "interests": list(character.interests),
        "dealt": table.departures[seat] is not None,
        "departure": departure,
        "strolled": strolled,
        "trace": [],
        "diary": [],
        "score": 0,
        "end": None,
        "location": None,
    }
    if strolled:
        walk = state.walk(seat)
        assert walk is not None
        data.update(
            trace=[_event(event) for event in walk.events],
            diary=list(walk.diary),
            score=rules.score(cards, colour, walk.diary),
            end=None if walk.end is None else walk.end.name.lower(),
            location=None if walk.location is None else rules.cell_name(walk.location),
        )
    return data


def _event(event: rules.Event) -> dict[str, Any]:
    return {
        "kind": event.kind,
        "cell": None if event.cell is None else rules.cell_name(event.cell),
        "side": event.side,
        "detail": event.detail,
        "chosen": event.chosen,
    }


def _walker_options(state: CityOfStairsState, walker: int | None) -> list[str]:
    if walker is None:
        return []
    walk = state.walk(walker)
    return [] if walk is None else list(walk.options)
