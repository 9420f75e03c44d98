"""Drawing City of Stairs for the terminal.

The renderer draws the city with each card's icons, the stock, every seat's
character and diary, each stroll traced step by step, and the departure card
of the viewer only (C8). The account of each action is :mod:`.narrate`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stairgames.games.city_of_stairs import rules
from stairgames.games.city_of_stairs.cards import CityCard
from stairgames.games.city_of_stairs.rules import COLUMNS, ROWS, NodeKind
from stairgames.games.city_of_stairs.view.narrate import (
    MOVE_SYMBOLS,
    circled,
    describe,
    interests_text,
    narrate,
    points_text,
)
from stairgames.i18n import N_, _, display_width, pad, wrap

if TYPE_CHECKING:
    from stairgames.core.game import State
    from stairgames.games.city_of_stairs.game import CityOfStairsState

WIDTH = 10
_RESET = "\x1b[0m"
_ANSI = {"red": "\x1b[31m", "blue": "\x1b[34m", "green": "\x1b[32m", "yellow": "\x1b[33m"}
SCREEN_LINES = 23
"""The lines a drawing may fill where the cards allow: with the prompt, a 24-line screen.
The traces of the strolls fill what is left, and the legend comes in where the account
above the drawing keeps rows enough (:data:`LEGEND_ROOM`)."""
LEGEND_ROOM = 8
"""The lines a drawing leaves free before it adds the legend: the prompt, the move hint
and the terminal's account of what happened since the last turn come first."""
LEGEND = N_("Icons: ↖ ↗ everyone; R↖ red only; R≈ red may ignore ↖/↗; R↺ red turns around")


def _paint(text: str, colour_name: str, colour: bool) -> str:
    code = _ANSI.get(colour_name)
    return f"{code}{text}{_RESET}" if colour and code else text


ICON_NAMES = (
    N_("cat"), N_("flowers"), N_("bakery"), N_("shrine"), N_("cafe"),
    N_("bell"), N_("garden"), N_("fishing"), N_("laundry"), N_("kite"), N_("lighthouse"),
)  # fmt: skip
"""The icons of the default cards, marked for translation (a card file's own icons are
shown as they are written)."""


def _fit(text: str, width: int) -> str:
    """``text`` padded to ``width`` columns, or cut with ``…`` when wider."""
    if display_width(text) <= width:
        return pad(text, width)
    while display_width(text) > width - 1:
        text = text[:-1]
    return pad(text + "…", width)


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
    stairs = _("stairs")
    if card.stairs and len(card.id) + 1 + display_width(stairs) > WIDTH:
        top, middle = _fit(card.id, WIDTH), stairs
    else:
        top = _fit(card.id + (" " + stairs if card.stairs else ""), WIDTH)
        middle = _(card.experience) if card.experience else ""
    middle = f"{_fit(middle, WIDTH - 2)}{mark:>2}"
    return [top, middle, *_icon_lines(card)]


def _empty_lines(cell: int, fits: dict[int, str]) -> list[str]:
    """An empty cell: its name and the stock slots that fit there (``  a1 P E``) on one
    line, and a blank bottom line (the cell's edge: see :func:`_edge`); a row of empty
    cells takes two lines with its edge."""
    return [pad(f"  {rules.cell_name(cell)} {fits.get(cell, '')}".rstrip(), WIDTH), " " * WIDTH]


def _edge(bottom: str) -> str:
    """A cell's bottom line drawn on the edge below it: the corner icons sit on the
    edge, ``R↺G↺--B↺Y↺``, so that a row of the city takes three lines with its edge."""
    return bottom.replace(" ", "-")


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


def _new_marks(state: CityOfStairsState) -> dict[int, str]:
    """While the city is built: the cards placed since the seat to place last placed one,
    each marked ``•`` and its placer's initial (``•B``: blue placed it)."""
    node = state.node()
    if node.kind != NodeKind.PLACE:
        return {}
    placed = [text.partition("@")[2] for text in state.public_history_strings() if "@" in text]
    order = state.table.turn_order()
    recent = placed[len(placed) - min(len(placed), len(order) - 1) :]
    first = len(placed) - len(recent)
    marks: dict[int, str] = {}
    for number, cell_name in enumerate(recent, start=first):
        colour = state.table.colours[order[number % len(order)]]
        cell = rules.parse_cell(cell_name)
        if cell is not None:
            marks[cell] = "•" + colour[:1].upper()  # the letter the icons use (R↖)
    return marks


def _overlay(line: str, text: str) -> str:
    """``line`` with ``text`` written over its middle (``text`` may hold wide characters)."""
    width = display_width(text)
    start = max(0, (len(line) - width) // 2)
    return line[:start] + text + line[start + width :]


def render_city(state: CityOfStairsState) -> list[str]:
    """The 7×4 city, row 4 at the top, the lighthouse on the top edge and the seaside
    departures with the file letters on the bottom edge."""
    table = state.table
    separator = "  +" + "+".join("-" * WIDTH for _ in range(COLUMNS)) + "+"
    points = state.cards.lighthouse_points
    lighthouse = " ★ " + _("lighthouse ({points})").format(points=points_text(points)) + " ★ "
    lines = [_overlay(separator, lighthouse)]
    fits = _legal_cells(state)
    marks = _walk_marks(state) or _new_marks(state)
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
        # a shorter block is filled out above its last icon lines (or its edge)
        blocks = [
            b[: min(2, len(b) - 1)] + [" " * WIDTH] * (height - len(b)) + b[min(2, len(b) - 1) :]
            for b in blocks
        ]
        for line in range(height - 1):
            label = str(row + 1) if line == 0 else " "
            lines.append(f"{label} |" + "|".join(b[line] for b in blocks) + "|")
        lines.append("  +" + "+".join(_edge(b[-1]) for b in blocks) + "+")
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
            parts[-1] += f"({_(event.detail)})"
        elif event.kind == "move":
            if event.detail == "next":
                parts.append("‹" if moving_left else "›")
            else:
                mark = "?" if event.chosen else ""
                parts.append(MOVE_SYMBOLS[event.detail] + mark)
        elif event.kind == "trapped" and event.cell is not None:
            parts.append(_("{cell} again: trapped").format(cell=rules.cell_name(event.cell)))
        elif event.kind == "lighthouse":
            parts.append("★ " + _("lighthouse"))
        elif event.kind == "five":
            parts.append(_("[five diary cards]"))
    return " ".join(parts).replace("?", "")


_SHORT_END = {
    rules.End.FIVE: N_("five cards"),
    rules.End.LIGHTHOUSE: N_("lighthouse"),
    rules.End.TRAPPED: N_("trapped"),
}
LINE_WIDTH = 80


def _seat_line(state: CityOfStairsState, seat: int, viewers: frozenset[int], colour: bool) -> str:
    """A seat's colour, interests, departure card (when it may be seen) and, once its stroll
    has begun, its diary and points; the diary is left out when the line would not fit."""
    table = state.table
    name = table.colours[seat]
    character = state.cards.character(name)
    departure = table.departures[seat]
    if departure is None:
        shown = _("not dealt")
    elif seat in viewers or state.stroll_started(seat):
        shown = _("departure {card}").format(card=circled(departure))
    elif not table.city_complete():
        shown = ""  # every departure is hidden while the city is built: nothing to say
    else:
        shown = _("departure hidden")
    if shown:
        head = _("likes {interests}; {departure}").format(
            interests=interests_text(character.interests), departure=shown
        )
    else:
        head = _("likes {interests}").format(interests=interests_text(character.interests))
    walk = state.walk(seat)
    if walk is not None and state.stroll_started(seat):
        points = points_text(rules.score(state.cards, name, walk.diary))
        status = _("strolling") if walk.end is None else _(_SHORT_END[walk.end])
        diary = _("; diary: {diary} = {points} ({status})").format(
            diary=interests_text(walk.diary) or _("none"), points=points, status=status
        )
        if display_width(f"{_(name)} {head}{diary}") > LINE_WIDTH:
            diary = _("; {points} ({status})").format(points=points, status=status)
        head += diary
    return f"{_paint(_(name), name, colour)} {head}"


def _trace_lines(state: CityOfStairsState, seat: int) -> list[str]:
    """``seat``'s stroll traced, wrapped to the screen width (none before it begins)."""
    walk = state.walk(seat)
    if walk is None or not state.stroll_started(seat):
        return []
    return wrap(
        trace(walk),
        LINE_WIDTH,
        indent="    " + _("stroll: "),
        subsequent_indent="      ",
    )


def _latest_steps(lines: list[str], count: int) -> list[str]:
    """The last ``count`` lines of a stroll's trace, after "…" where some are left out."""
    if len(lines) <= count:
        return lines
    return ["    …" + lines[len(lines) - count][5:], *lines[len(lines) - count + 1 :]]


def _seat_lines(
    state: CityOfStairsState, viewers: frozenset[int], colour: bool, room: int
) -> list[str]:
    """A line per seat in turn order, each stroll traced below its seat while ``room``
    lines allow: every stroll begun gets a line first (its latest steps), the stroll in
    progress first, then the latest ones before it; the lines left over show more of
    them, in the same order."""
    order = state.table.turn_order()
    traces = {seat: _trace_lines(state, seat) for seat in order}
    node = state.node()
    current = node.seat if node.kind == NodeKind.STROLL else None
    ranked = sorted([s for s in reversed(order) if traces[s]], key=lambda seat: seat != current)
    rows = dict.fromkeys(ranked, 0)
    for seat in ranked[: max(0, room)]:
        rows[seat] = 1
    room -= sum(rows.values())
    for seat in ranked:
        extra = min(room, len(traces[seat]) - rows[seat]) if rows[seat] else 0
        rows[seat] += extra
        room -= extra
    shown = {seat: _latest_steps(traces[seat], rows[seat]) for seat in ranked if rows[seat]}
    lines: list[str] = []
    if not state.table.city_complete():
        # While the city is built the seat lines are short: two to a line where they fit.
        widths: list[int] = []
        for seat in order:
            plain = display_width(_seat_line(state, seat, viewers, False))
            line = _seat_line(state, seat, viewers, colour)
            if lines and widths[-1] + 3 + plain <= LINE_WIDTH and len(widths) % 2:
                lines[-1] += "   " + line
                widths[-1] += 3 + plain
                widths.append(0)
            else:
                lines.append(line)
                widths.append(plain)
        return lines
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
        if index is None:
            card = _("passage empty") if kind == "passage" else _("experience empty")
        else:
            card = describe(state.cards.cards[index])
        parts.append(_("{card} ({count} in deck)").format(card=card, count=left))
    return [_("Stock: {cards}").format(cards=_("; ").join(parts))]


def _status_line(state: CityOfStairsState) -> str:
    node = state.node()
    colours = state.table.colours
    outcome = state.outcome()
    if outcome is not None:
        return _("Game over. {result}").format(result=outcome.localized())
    if node.seat is not None and node.kind == NodeKind.PLACE:
        name = _(colours[node.seat])
        if rules.adjacency_waived(state.table, state.cards):
            return _(
                "{name} to place a stock card as CARD@CELL (adjacency waived: no stock card "
                "fits next to the city)"
            ).format(name=name)
        return _("{name} to place a stock card as CARD@CELL").format(name=name)
    if node.seat is not None and node.kind == NodeKind.STROLL:
        walk = state.walk(node.seat)
        assert walk is not None
        name = _(colours[node.seat])
        choices = _(" or ").join(walk.options)
        if walk.location is None:
            return _("{name} strolls, at the seaside: choose {choices}").format(
                name=name, choices=choices
            )
        return _("{name} strolls, on {cell}: choose {choices}").format(
            name=name, cell=rules.cell_name(walk.location), choices=choices
        )
    return _("Chance: {outcome}").format(outcome=_(node.kind.value))


def render_state(state: CityOfStairsState, *, colour: bool, viewers: frozenset[int]) -> str:
    """The whole table in at most :data:`SCREEN_LINES` lines where the cards allow;
    departure cards of ``viewers`` shown, others hidden until they stroll. The traces of
    the strolls and the legend come in as far as there is room (the legend is in ``help``)."""
    lines = render_city(state)
    if not state.table.city_complete():
        lines += _stock_lines(state)
    status = wrap(_status_line(state), LINE_WIDTH)
    room = SCREEN_LINES - len(lines) - state.table.players - len(status)
    lines += _seat_lines(state, viewers, colour, room)
    if len(lines) + len(status) + LEGEND_ROOM < SCREEN_LINES:
        lines.append(_(LEGEND))
    return "\n".join(lines + status)


def render_terminal(state: State, *, colour: bool, viewer: int | None) -> str:
    """The registry's renderer: only ``viewer``'s departure card is shown (C8)."""
    from stairgames.games.city_of_stairs.game import CityOfStairsState

    assert isinstance(state, CityOfStairsState)
    viewers = frozenset() if viewer is None else frozenset({viewer})
    return render_state(state, colour=colour, viewers=viewers)


def plain_drawing(state: State) -> str:
    """What ``str(state)`` prints (``GameSpec.drawing``): the drawing without colour,
    everything the state holds."""
    from stairgames.games.city_of_stairs.game import CityOfStairsState

    assert isinstance(state, CityOfStairsState)
    return render_state(
        state, colour=False, viewers=frozenset(range(state.get_game().num_players()))
    )


__all__ = ["LEGEND", "narrate", "plain_drawing", "render_state", "render_terminal", "trace"]
