"""Drawing City of Stairs for the terminal, and the account of each action.

The renderer draws the city with each card's icons, the stock, every seat's
character and diary, each stroll traced step by step, and the departure card
of the viewer only (C8). :func:`narrate` tells the table what an action did:
draws, placements, and every step of a stroll, never a hidden departure card.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from stairgames.games.city_of_stairs import rules
from stairgames.games.city_of_stairs.cards import CityCard
from stairgames.games.city_of_stairs.rules import COLUMNS, ROWS, Event, NodeKind

if TYPE_CHECKING:
    from stairgames.core.game import State
    from stairgames.games.city_of_stairs.game import CityOfStairsState

WIDTH = 10
CIRCLED = "①②③④⑤⑥⑦"
_RESET = "\x1b[0m"
_ANSI = {"red": "\x1b[31m", "blue": "\x1b[34m", "green": "\x1b[32m", "yellow": "\x1b[33m"}
_MOVE_SYMBOL = {"nw": "↖", "ne": "↗", "turn": "↺", "on": "≈"}
SCREEN_LINES = 23
"""The lines a drawing may fill where the cards allow: with the prompt, a 24-line screen.
The traces of the strolls fill what is left, and the legend comes in when a line is left
over for the terminal's move hint too."""
LEGEND = "Icons: ↖ ↗ everyone; R↖ red only; R≈ red may ignore ↖/↗; R↺ red turns around"


def circled(number: int) -> str:
    return CIRCLED[number - 1] if 1 <= number <= len(CIRCLED) else str(number)


def _paint(text: str, colour_name: str, colour: bool) -> str:
    code = _ANSI.get(colour_name)
    return f"{code}{text}{_RESET}" if colour and code else text


def _fit(text: str, width: int) -> str:
    """``text`` padded to ``width``, or cut with ``…`` when longer."""
    return f"{text:<{width}}" if len(text) <= width else text[: width - 1] + "…"


def _take(symbols: list[str], budget: int) -> str:
    """Remove from ``symbols`` as many as fit in ``budget`` characters (at least one)."""
    taken = symbols.pop(0)
    while symbols and len(taken) + len(symbols[0]) <= budget:
        taken += symbols.pop(0)
    return taken


def _icon_lines(card: CityCard) -> list[str]:
    """The bottom-left icons at the left, the bottom-right icons at the right, on as many
    lines as they need (a card file may crowd a corner): no icon is ever cut off."""
    left = [icon.symbol() for icon in card.left]
    right = [icon.symbol() for icon in card.right]
    if len("".join(left)) + len("".join(right)) + bool(left and right) <= WIDTH:
        return [f"{''.join(left)}{''.join(right):>{WIDTH - len(''.join(left))}}"]
    lines: list[str] = []
    while left or right or not lines:
        both = bool(left and right)
        left_part = _take(left, WIDTH // 2 if both else WIDTH) if left else ""
        right_part = _take(right, WIDTH - 1 - len(left_part) if both else WIDTH) if right else ""
        lines.append(f"{left_part}{right_part:>{WIDTH - len(left_part)}}")
    return lines


def _card_lines(card: CityCard, mark: str) -> list[str]:
    """A card's box: id (and "stairs"), experience icon (or "stairs" when the id is long)
    with the walker's mark, then the corner icons."""
    if card.stairs and len(card.id) + len(" stairs") > WIDTH:
        top, middle = _fit(card.id, WIDTH), "stairs"
    else:
        top = _fit(card.id + (" stairs" if card.stairs else ""), WIDTH)
        middle = card.experience or ""
    middle = f"{_fit(middle, WIDTH - 2)}{mark:>2}"
    return [top, middle, *_icon_lines(card)]


def _empty_lines(cell: int, fits: dict[int, str]) -> list[str]:
    return [
        " " * WIDTH,
        f"{'  ' + rules.cell_name(cell):<{WIDTH}}",
        f"{fits.get(cell, ''):^{WIDTH}}",
    ]


def _legal_cells(state: CityOfStairsState) -> dict[int, str]:
    """For each empty cell, which stock slots (P, E) may be placed there now."""
    if state.node().kind != NodeKind.PLACE:
        return {}
    marks: dict[int, str] = {}
    for placement in rules.placements(state.table, state.cards):
        letter = "P" if placement.slot == rules.PASSAGE_SLOT else "E"
        marks[placement.cell] = (marks.get(placement.cell, "") + " " + letter).strip()
    return marks


def _walk_marks(state: CityOfStairsState) -> dict[int, str]:
    """The current walker's trail: ``+`` visited, ``*`` where the walker stands."""
    node = state.node()
    if node.kind != NodeKind.STROLL or node.seat is None:
        return {}
    walk = state.walk(node.seat)
    if walk is None:
        return {}
    marks = {e.cell: "+" for e in walk.events if e.kind == "enter" and e.cell is not None}
    if walk.location is not None:
        marks[walk.location] = "*"
    return marks


def _overlay(line: str, text: str) -> str:
    """``line`` with ``text`` written over its middle."""
    start = max(0, (len(line) - len(text)) // 2)
    return line[:start] + text + line[start + len(text) :]


def render_city(state: CityOfStairsState) -> list[str]:
    """The 7×4 city, row 4 at the top, the lighthouse on the top edge and the seaside
    departures with the file letters on the bottom edge."""
    table = state.table
    separator = "  +" + "+".join("-" * WIDTH for _ in range(COLUMNS)) + "+"
    points = state.cards.lighthouse_points
    lighthouse = f" ★ lighthouse ({points} point{'s' if points != 1 else ''}) ★ "
    lines = [_overlay(separator, lighthouse)]
    fits = _legal_cells(state)
    marks = _walk_marks(state)
    for row in reversed(range(ROWS)):
        blocks = []
        for column in range(COLUMNS):
            cell = rules.cell_index(column, row)
            index = table.city[cell]
            if index is None:
                blocks.append(_empty_lines(cell, fits))
            else:
                blocks.append(_card_lines(state.cards.cards[index], marks.get(cell, "")))
        height = max(len(block) for block in blocks)
        blocks = [b[:2] + [" " * WIDTH] * (height - len(b)) + b[2:] for b in blocks]
        for line in range(height):
            label = str(row + 1) if line == 1 else " "
            lines.append(f"{label} |" + "|".join(b[line] for b in blocks) + "|")
        if row:
            lines.append(separator)
    lines.append(_seaside_edge(state))
    return lines


def _seaside_edge(state: CityOfStairsState) -> str:
    """The bottom edge: each column's file letter and its seaside departure, ``a---~①~---``."""
    numbers = dict(enumerate(state.cards.seaside))
    parts = []
    for column, file in enumerate(rules.FILES):
        departure = f"~{circled(numbers[column])}~" if column in numbers else ""
        parts.append(file + f"{departure:-^{WIDTH - 1}}")
    return "  +" + "+".join(parts) + "+"


def trace(walk: rules.Walk) -> str:
    """A stroll in one line: ``③ ↗ b1 › c1(cat) ↖ b2 ‹ a2 … ★ lighthouse``."""
    parts: list[str] = []
    moving_left = False
    for event in walk.events:
        if event.kind == "depart":
            parts.append(circled(int(event.detail)))
        elif event.kind == "enter" and event.cell is not None:
            moving_left = event.side == rules.RIGHT
            parts.append(rules.cell_name(event.cell))
        elif event.kind == "diary":
            parts[-1] += f"({event.detail})"
        elif event.kind == "move":
            if event.detail == "next":
                parts.append("‹" if moving_left else "›")
            else:
                mark = "?" if event.chosen else ""
                parts.append(_MOVE_SYMBOL[event.detail] + mark)
        elif event.kind == "trapped" and event.cell is not None:
            parts.append(f"{rules.cell_name(event.cell)} again: trapped")
        elif event.kind == "lighthouse":
            parts.append("★ lighthouse")
        elif event.kind == "five":
            parts.append("[five diary cards]")
    return " ".join(parts).replace("?", "")


_SHORT_END = {
    rules.End.FIVE: "five cards",
    rules.End.LIGHTHOUSE: "lighthouse",
    rules.End.TRAPPED: "trapped",
}
LINE_WIDTH = 80


def _points(points: int) -> str:
    return f"{points} point{'s' if points != 1 else ''}"


def _seat_line(state: CityOfStairsState, seat: int, viewers: frozenset[int], colour: bool) -> str:
    """A seat's colour, interests, departure card (when it may be seen) and, once its stroll
    has begun, its diary and points; the diary is left out when the line would not fit."""
    table = state.table
    name = table.colours[seat]
    character = state.cards.character(name)
    departure = table.departures[seat]
    if departure is None:
        shown = "not dealt"
    elif seat in viewers or state.stroll_started(seat):
        shown = f"departure {circled(departure)}"
    else:
        shown = "departure hidden"
    head = f"(seat {seat}) likes {', '.join(character.interests)}; {shown}"
    walk = state.walk(seat)
    if walk is not None and state.stroll_started(seat):
        points = _points(rules.score(state.cards, name, walk.diary))
        status = "strolling" if walk.end is None else _SHORT_END[walk.end]
        diary = f"; diary: {', '.join(walk.diary) or 'none'} = {points} ({status})"
        if len(name) + 1 + len(head) + len(diary) > LINE_WIDTH:
            diary = f"; {points} ({status})"
        head += diary
    return f"{_paint(name, name, colour)} {head}"


def _trace_lines(state: CityOfStairsState, seat: int) -> list[str]:
    """``seat``'s stroll traced, wrapped to the screen width (none before it begins)."""
    walk = state.walk(seat)
    if walk is None or not state.stroll_started(seat):
        return []
    return textwrap.wrap(
        trace(walk), LINE_WIDTH, initial_indent="    stroll: ", subsequent_indent="      "
    )


def _seat_lines(
    state: CityOfStairsState, viewers: frozenset[int], colour: bool, room: int
) -> list[str]:
    """A line per seat in turn order, each stroll traced below its seat while ``room``
    lines allow: the stroll in progress first (its latest steps, where the whole trace
    does not fit), then the latest ones before it."""
    order = state.table.turn_order()
    traces = {seat: _trace_lines(state, seat) for seat in order}
    node = state.node()
    current = node.seat if node.kind == NodeKind.STROLL else None
    started = [seat for seat in reversed(order) if traces[seat]]
    shown: dict[int, list[str]] = {}
    for seat in sorted(started, key=lambda seat: seat != current):
        lines = traces[seat]
        if seat == current and len(lines) > room > 0:
            lines = ["    …" + lines[len(lines) - room][5:], *lines[len(lines) - room + 1 :]]
        if len(lines) <= room:
            shown[seat] = lines
            room -= len(lines)
    lines = []
    for seat in order:
        lines.append(_seat_line(state, seat, viewers, colour))
        lines += shown.get(seat, [])
    return lines


def _stock_lines(state: CityOfStairsState) -> list[str]:
    table = state.table
    parts = []
    for slot, kind in enumerate(rules.SLOT_KINDS):
        index = table.stock[slot]
        left = len(rules.deck(table, state.cards, slot))
        card = f"{kind} empty" if index is None else state.cards.cards[index].describe()
        parts.append(f"{card} ({left} in deck)")
    return ["Stock: " + "; ".join(parts)]


def _status_line(state: CityOfStairsState) -> str:
    node = state.node()
    colours = state.table.colours
    if node.kind == NodeKind.OVER:
        return f"Game over. {state.outcome()}"
    if node.seat is not None and node.kind == NodeKind.PLACE:
        waived = " (adjacency waived: no stock card fits next to the city)"
        note = waived if rules.adjacency_waived(state.table, state.cards) else ""
        return f"{colours[node.seat]} to place a stock card as CARD@CELL{note}"
    if node.seat is not None and node.kind == NodeKind.STROLL:
        walk = state.walk(node.seat)
        assert walk is not None
        where = (
            "at the seaside" if walk.location is None else f"on {rules.cell_name(walk.location)}"
        )
        return f"{colours[node.seat]} strolls, {where}: choose {' or '.join(walk.options)}"
    return f"Chance: {node.kind.value}"


def render_state(state: CityOfStairsState, *, colour: bool, viewers: frozenset[int]) -> str:
    """The whole table in at most :data:`SCREEN_LINES` lines where the cards allow;
    departure cards of ``viewers`` shown, others hidden until they stroll. The traces of
    the strolls and the legend come in as far as there is room (the legend is in ``help``)."""
    lines = render_city(state)
    if not state.table.city_complete():
        lines += _stock_lines(state)
    status = textwrap.wrap(_status_line(state), LINE_WIDTH)
    room = SCREEN_LINES - len(lines) - state.table.players - len(status)
    lines += _seat_lines(state, viewers, colour, room)
    if len(lines) + len(status) + 2 < SCREEN_LINES:
        lines.append(LEGEND)
    return "\n".join(lines + status)


def render_terminal(state: State, *, colour: bool, viewer: int | None) -> str:
    """The registry's renderer: only ``viewer``'s departure card is shown (C8)."""
    from stairgames.games.city_of_stairs.game import CityOfStairsState

    assert isinstance(state, CityOfStairsState)
    viewers = frozenset() if viewer is None else frozenset({viewer})
    return render_state(state, colour=colour, viewers=viewers)


# ----- narration ------------------------------------------------------------------


def describe_event(state: CityOfStairsState, event: Event, seat: int) -> str | None:
    """One step of a stroll in words."""
    name = state.table.colours[seat]
    cell = "" if event.cell is None else rules.cell_name(event.cell)
    if event.kind == "enter":
        card = state.cards.cards[state.table.city[event.cell or 0] or 0]
        return f"{name} enters {cell} ({card.describe()}) from the {event.side}."
    if event.kind == "diary":
        return f"{name} turns up the {event.detail} diary card."
    if event.kind == "move":
        how = "chooses" if event.chosen else "takes"
        if event.detail == "next":
            return f"No icon applies on {cell}: {name} moves on."
        if event.cell is None:
            return f"{name} {how} {_MOVE_SYMBOL[event.detail]} from the seaside."
        words = {
            "nw": "↖ up a row, moving left",
            "ne": "↗ up a row, moving right",
            "turn": "↺ and turns around",
            "on": "to ignore the ↖/↗ and keeps going",
        }
        return f"{name} {how} {words[event.detail]} on {cell}."
    if event.kind == "trapped":
        return f"{name} enters {cell} from the {event.side} a second time in this row: trapped."
    if event.kind == "lighthouse":
        return f"{name} climbs from row 4 to the lighthouse and turns up its diary card."
    if event.kind == "five":
        return f"{name} has five diary cards face up."
    return None


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
        f"{state.table.colours[node.seat]} reveals departure card {circled(departure)} "
        "and stands at the seaside."
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
        lines.append(f"Start player: {colours[seat]} (seat {seat}).")
    elif node.kind == NodeKind.DRAW:
        card = before.cards.cards[action]
        lines.append(f"Drawn into the stock: {card.describe()}.")
    elif node.kind == NodeKind.DEAL and node.seat is not None:
        lines.append(f"{colours[node.seat]} is dealt a departure card, face down.")
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
    card_id, _, cell = text.partition("@")
    card = before.cards.by_id[card_id]
    lines = [f"{before.table.colours[seat]} places {card.describe()} on {cell}."]
    if rules.adjacency_waived(before.table, before.cards):
        lines.append("(No stock card had a space next to the city, so adjacency was waived.)")
    if after.table.city_complete():
        lines.append("The city is complete: the lighthouse goes above row 4, and strolls begin.")
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
        points = _points(rules.score(after.cards, name, new.diary))
        lines.append(
            f"{name}'s stroll ends ({new.end.value}): {', '.join(new.diary) or 'no diary cards'}"
            f", {points}."
        )
    return lines


__all__ = ["LEGEND", "narrate", "render_state", "render_terminal", "trace"]
