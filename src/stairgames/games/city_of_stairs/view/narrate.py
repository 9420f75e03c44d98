"""The account of each action of City of Stairs, and the words for cards and strolls.

:func:`narrate` tells the table what an action did: draws, placements, and every step
of a stroll, never a hidden departure card. The words it uses for a card
(:func:`describe`), a departure number (:func:`circled`), an icon of movement
(:data:`MOVE_SYMBOLS`), a diary and its points are the drawing's too
(:mod:`.terminal`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from stairgames.games.city_of_stairs import rules
from stairgames.games.city_of_stairs.cards import CityCard
from stairgames.games.city_of_stairs.rules import Event, NodeKind
from stairgames.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from stairgames.core.game import State
    from stairgames.games.city_of_stairs.game import CityOfStairsState

CIRCLED = "①②③④⑤⑥⑦"
MOVE_SYMBOLS = {"nw": "↖", "ne": "↗", "turn": "↺", "on": "≈"}
"""The symbol of each icon of movement a walker may take (the notation's names)."""


def circled(number: int) -> str:
    return CIRCLED[number - 1] if 1 <= number <= len(CIRCLED) else str(number)


def describe(card: CityCard) -> str:
    """A card's face in one line, in the current language: ``P03 stairs ↖|↗``, ``E01 cat``."""
    parts = [card.id]
    if card.stairs:
        parts.append(_("stairs"))
    if card.experience is not None:
        parts.append(_(card.experience))
    if card.left or card.right:
        left = "".join(i.symbol() for i in card.left)
        right = "".join(i.symbol() for i in card.right)
        parts.append(f"{left or '-'}|{right or '-'}")
    return " ".join(parts)


def interests_text(names: Sequence[str]) -> str:
    return _(", ").join(_(name) for name in names)


def points_text(points: int) -> str:
    return ngettext("{count} point", "{count} points", points).format(count=points)


END_REASONS = {
    rules.End.FIVE: N_("five diary cards are face up"),
    rules.End.LIGHTHOUSE: N_("reached the lighthouse"),
    rules.End.TRAPPED: N_("trapped: entered a card from the same side a second time in this row"),
}
"""Why a stroll ended, for players (``rules.End``'s values, marked for translation)."""
CHOSEN_MOVES = {
    "nw": N_("{name} chooses ↖ up a row, moving left on {cell}."),
    "ne": N_("{name} chooses ↗ up a row, moving right on {cell}."),
    "turn": N_("{name} chooses ↺ and turns around on {cell}."),
    "on": N_("{name} chooses to ignore the ↖/↗ and keeps going on {cell}."),
}
"""A walker's step on a card where it chose the icon (marked for translation)."""
TAKEN_MOVES = {
    "nw": N_("{name} takes ↖ up a row, moving left on {cell}."),
    "ne": N_("{name} takes ↗ up a row, moving right on {cell}."),
    "turn": N_("{name} takes ↺ and turns around on {cell}."),
    "on": N_("{name} ignores the ↖/↗ and keeps going on {cell}."),
}
"""A walker's step on a card where one icon applied (marked for translation)."""

_CHANCE_NODES = (
    N_("choose the start player"),
    N_("draw a card to the stock"),
    N_("deal a departure card"),
)
"""The chance events' names (``NodeKind`` values), marked for translation."""


def describe_event(state: CityOfStairsState, event: Event, seat: int) -> str | None:
    """One step of a stroll in words."""
    name = _(state.table.colours[seat])
    cell = "" if event.cell is None else rules.cell_name(event.cell)
    if event.kind == "enter":
        card = state.cards.cards[state.table.city[event.cell or 0] or 0]
        if event.side == rules.RIGHT:
            sentence = _("{name} enters {cell} ({card}) from the right.")
        else:
            sentence = _("{name} enters {cell} ({card}) from the left.")
        return sentence.format(name=name, cell=cell, card=describe(card))
    if event.kind == "diary":
        return _("{name} turns up the {icon} diary card.").format(name=name, icon=_(event.detail))
    if event.kind == "move":
        if event.detail == "next":
            return _("No icon applies on {cell}: {name} moves on.").format(cell=cell, name=name)
        if event.cell is None:
            if event.chosen:
                sentence = _("{name} chooses {arrow} from the seaside.")
            else:
                sentence = _("{name} takes {arrow} from the seaside.")
            return sentence.format(name=name, arrow=MOVE_SYMBOLS[event.detail])
        return _move_sentence(event.detail, event.chosen).format(name=name, cell=cell)
    if event.kind == "trapped":
        if event.side == rules.RIGHT:
            sentence = _("{name} enters {cell} from the right a second time in this row: trapped.")
        else:
            sentence = _("{name} enters {cell} from the left a second time in this row: trapped.")
        return sentence.format(name=name, cell=cell)
    if event.kind == "lighthouse":
        return _("{name} climbs from row 4 to the lighthouse and turns up its diary card.").format(
            name=name
        )
    if event.kind == "five":
        return _("{name} has five diary cards face up.").format(name=name)
    return None


def _move_sentence(detail: str, chosen: bool) -> str:
    """A stroll's step on a card: which icon the walker chose or had to take."""
    return _((CHOSEN_MOVES if chosen else TAKEN_MOVES)[detail])


def _stroll_begins(state: CityOfStairsState) -> list[str]:
    node = state.node()
    if node.kind != NodeKind.STROLL or node.seat is None:
        return []
    walk = state.walk(node.seat)
    if walk is None or len(walk.events) > 1:
        return []
    departure = state.table.departures[node.seat]
    assert departure is not None
    return [
        _("{name} reveals departure card {card} and stands at the seaside.").format(
            name=_(state.table.colours[node.seat]), card=circled(departure)
        )
    ]


def narrate(before: State, action: int, after: State) -> list[str]:
    """The account of one action for everyone at the table (hides departure cards)."""
    from stairgames.games.city_of_stairs.game import CityOfStairsState

    assert isinstance(before, CityOfStairsState) and isinstance(after, CityOfStairsState)
    node = before.node()
    colours = before.table.colours
    lines: list[str] = []
    if node.kind == NodeKind.START:
        seat = after.table.start
        assert seat is not None
        lines.append(
            _("Start player: {name} (seat {seat}).").format(name=_(colours[seat]), seat=seat)
        )
    elif node.kind == NodeKind.DRAW:
        card = before.cards.cards[action]
        lines.append(_("Drawn into the stock: {card}.").format(card=describe(card)))
    elif node.kind == NodeKind.DEAL and node.seat is not None:
        lines.append(
            _("{name} is dealt a departure card, face down.").format(name=_(colours[node.seat]))
        )
    elif node.kind == NodeKind.PLACE and node.seat is not None:
        lines += _narrate_placement(before, action, after, node.seat)
    elif node.kind == NodeKind.STROLL and node.seat is not None:
        lines += _narrate_stroll(before, after, node.seat)
    lines += _stroll_begins(after) if before.node() != after.node() else []
    return lines


def _narrate_placement(
    before: CityOfStairsState, action: int, after: CityOfStairsState, seat: int
) -> list[str]:
    text = before.action_to_string(action)
    card_id, _at, cell = text.partition("@")
    card = before.cards.by_id[card_id]
    lines = [
        _("{name} places {card} on {cell}.").format(
            name=_(before.table.colours[seat]), card=describe(card), cell=cell
        )
    ]
    if rules.adjacency_waived(before.table, before.cards):
        lines.append(_("(No stock card had a space next to the city, so adjacency was waived.)"))
    if after.table.city_complete():
        lines.append(_("The city is complete: the lighthouse goes above row 4, and strolls begin."))
    return lines


def _narrate_stroll(before: CityOfStairsState, after: CityOfStairsState, seat: int) -> list[str]:
    old = before.walk(seat)
    new = after.walk(seat)
    assert old is not None and new is not None
    lines = []
    for event in new.events[len(old.events) :]:
        sentence = describe_event(after, event, seat)
        if sentence is not None:
            lines.append(sentence)
    if new.end is not None:
        name = after.table.colours[seat]
        points = points_text(rules.score(after.cards, name, new.diary))
        lines.append(
            _("{name}'s stroll ends ({why}): {diary}, {points}.").format(
                name=_(name),
                why=_(END_REASONS[new.end]),
                diary=interests_text(new.diary) or _("no diary cards"),
                points=points,
            )
        )
    return lines


__all__ = [
    "CHOSEN_MOVES",
    "END_REASONS",
    "MOVE_SYMBOLS",
    "TAKEN_MOVES",
    "circled",
    "describe",
    "describe_event",
    "interests_text",
    "narrate",
    "points_text",
]
