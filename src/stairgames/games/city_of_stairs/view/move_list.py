"""City of Stairs moves told in a few words for the browser's move list.

:func:`narrate_moves` reads a history as one seat may know it (``history_strings(seat)``:
a departure card that seat may not know yet is ``deal ? to blue``) and tells each move
as the terminal does ("red places P10 on e1.", "blue chooses ↗ up a row, moving right on
c2."), as JSON texts that the browser translates. Every deal is told face down; to
replay the moves after it, any card not otherwise known stands in for it, which changes
nothing told: a departure card matters only once its stroll begins, and then the history
shows it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from stairgames.core.game import Game
from stairgames.games.city_of_stairs import rules
from stairgames.games.city_of_stairs.notation import HIDDEN_CARD, deal_colour, encode_deal
from stairgames.games.city_of_stairs.rules import NodeKind
from stairgames.games.city_of_stairs.view.narrate import CHOSEN_MOVES, END_REASONS, MOVE_SYMBOLS
from stairgames.i18n import N_, Count, Names, Text, text_json


def narrate_moves(game: Game, history: Sequence[str], start: str | None = None) -> list[list[Any]]:
    """Each move of ``history`` told in a sentence or two (:func:`stairgames.i18n.text_json`
    shapes), from that history alone (and ``start``, the position text the game began
    from, if it did not begin at the start)."""
    from stairgames.games.city_of_stairs.game import CityOfStairsState

    state = game.new_initial_state() if start is None else game.state_from_position(start)
    assert isinstance(state, CityOfStairsState)
    known_cards = {
        int(words[1])
        for text in history
        if deal_colour(text) is not None and (words := text.split())[1] != HIDDEN_CARD
    }
    told: list[list[Any]] = []
    for text in history:
        node = state.node()
        colours = state.table.colours
        name = Text(colours[node.seat]) if node.seat is not None else Text("")
        hidden = deal_colour(text) is not None and text.split()[1] == HIDDEN_CARD
        before_ends = [_walk_end(state, seat) for seat in range(len(colours))]
        before_events = _events(state, node.seat)
        if hidden:
            stand_in = next(
                action
                for action, _chance in state.chance_outcomes()
                if action - encode_deal(0) not in known_cards
            )
            state.apply_action(stand_in)
        else:
            state.apply_move(text)
        lines: list[Text] = []
        if node.kind == NodeKind.START:
            seat = state.table.start
            assert seat is not None
            lines.append(Text(N_("{name} starts."), {"name": Text(colours[seat])}))
        elif node.kind == NodeKind.DRAW:
            lines.append(Text(N_("Drawn into the stock: {card}."), {"card": text.split()[-1]}))
        elif node.kind == NodeKind.DEAL:
            # as the table sees it, whether or not this seat may know the card
            lines.append(Text(N_("{name} is dealt a departure card, face down."), {"name": name}))
        elif node.kind == NodeKind.PLACE:
            card, _at, cell = text.partition("@")
            lines.append(
                Text(
                    N_("{name} places {card} on {cell}."),
                    {"name": name, "card": card, "cell": cell},
                )
            )
        elif node.kind == NodeKind.STROLL and node.seat is not None:
            lines += _choice(state, node.seat, before_events, name)
        for seat, ended in enumerate(before_ends):
            if not ended and _walk_end(state, seat):
                lines.append(_stroll_end(state, seat))
        told.append([text_json(line) for line in lines] or [text])
    return told


def _events(state: Any, seat: int | None) -> int:
    walk = state.walk(seat) if seat is not None else None
    return 0 if walk is None else len(walk.events)


def _walk_end(state: Any, seat: int) -> bool:
    walk = state.walk(seat)
    return walk is not None and walk.end is not None


def _choice(state: Any, seat: int, before: int, name: Text) -> list[Text]:
    """The choice a stroller made: the first event it chose after the ``before`` events."""
    walk = state.walk(seat)
    for event in [] if walk is None else walk.events[before:]:
        if event.kind != "move" or not event.chosen or event.detail not in MOVE_SYMBOLS:
            continue
        if event.cell is None:
            return [
                Text(
                    N_("{name} chooses {arrow} from the seaside."),
                    {"name": name, "arrow": MOVE_SYMBOLS[event.detail]},
                )
            ]
        cell = rules.cell_name(event.cell)
        return [Text(CHOSEN_MOVES[event.detail], {"name": name, "cell": cell})]
    return []


def _stroll_end(state: Any, seat: int) -> Text:
    walk = state.walk(seat)
    colour = state.table.colours[seat]
    points = rules.score(state.cards, colour, walk.diary)
    diary: Names | Text = (
        Names(tuple(walk.diary), conjunction=False) if walk.diary else Text(N_("no diary cards"))
    )
    return Text(
        N_("{name}'s stroll ends ({why}): {diary}, {points}."),
        {
            "name": Text(colour),
            "why": Text(END_REASONS[walk.end]),
            "diary": diary,
            "points": Count("{count} point", "{count} points", points),
        },
    )


__all__ = ["narrate_moves"]
