"""Drawing City of Stairs for the terminal, and the account of each action.

The renderer draws the city with each card's icons, the stock, every seat's
character and diary, each stroll traced step by step, and the departure card
of the viewer only (C8). :func:`narrate` tells the table what an action did:
draws, placements, and every step of a stroll, never a hidden departure card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from stairgames.games.city_of_stairs import rules
from stairgames.games.city_of_stairs.cards import CityCard
from stairgames.games.city_of_stairs.rules import COLUMNS, ROWS, Event, NodeKind
from stairgames.i18n import N_, _, display_width, ngettext, pad, wrap

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
LEGEND = N_("Icons: ↖ ↗ everyone; R↖ red only; R≈ red may ignore ↖/↗; R↺ red turns around")


def circled(number: int) -> str:
    return CIRCLED[number - 1] if 1 <= number <= len(CIRCLED) else str(number)


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


def _interests(names: Sequence[str]) -> str:
    return _(", ").join(_(name) for name in names)


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
    lighthouse = " ★ " + _("lighthouse ({points})").format(points=_points(points)) + " ★ "
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
            parts[-1] += f"({_(event.detail)})"
        elif event.kind == "move":
            if event.detail == "next":
                parts.append("‹" if moving_left else "›")
            else:
                mark = "?" if event.chosen else ""
                parts.append(_MOVE_SYMBOL[event.detail] + mark)
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
_END = {
    rules.End.FIVE: N_("five diary cards are face up"),
    rules.End.LIGHTHOUSE: N_("reached the lighthouse"),
    rules.End.TRAPPED: N_("trapped: entered a card from the same side a second time in this row"),
}
"""Why a stroll ended, for players (``rules.End``'s values, marked for translation)."""
LINE_WIDTH = 80


def _points(points: int) -> str:
    return ngettext("{count} point", "{count} points", points).format(count=points)


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
            interests=_interests(character.interests), departure=shown
        )
    else:
        head = _("likes {interests}").format(interests=_interests(character.interests))
    walk = state.walk(seat)
    if walk is not None and state.stroll_started(seat):
        points = _points(rules.score(state.cards, name, walk.diary))
        status = _("strolling") if walk.end is None else _(_SHORT_END[walk.end])
        diary = _("; diary: {diary} = {points} ({status})").format(
            diary=_interests(walk.diary) or _("none"), points=points, status=status
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
    if len(lines) + len(status) + 2 < SCREEN_LINES:
        lines.append(_(LEGEND))
    return "\n".join(lines + status)


def render_terminal(state: State, *, colour: bool, viewer: int | None) -> str:
    """The registry's renderer: only ``viewer``'s departure card is shown (C8)."""
    from stairgames.games.city_of_stairs.game import CityOfStairsState

    assert isinstance(state, CityOfStairsState)
    viewers = frozenset() if viewer is None else frozenset({viewer})
    return render_state(state, colour=colour, viewers=viewers)


# ----- narration ------------------------------------------------------------------


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
            return sentence.format(name=name, arrow=_MOVE_SYMBOL[event.detail])
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
    if chosen:
        sentences = {
            "nw": _("{name} chooses ↖ up a row, moving left on {cell}."),
            "ne": _("{name} chooses ↗ up a row, moving right on {cell}."),
            "turn": _("{name} chooses ↺ and turns around on {cell}."),
            "on": _("{name} chooses to ignore the ↖/↗ and keeps going on {cell}."),
        }
    else:
        sentences = {
            "nw": _("{name} takes ↖ up a row, moving left on {cell}."),
            "ne": _("{name} takes ↗ up a row, moving right on {cell}."),
            "turn": _("{name} takes ↺ and turns around on {cell}."),
            "on": _("{name} ignores the ↖/↗ and keeps going on {cell}."),
        }
    return sentences[detail]


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
        points = _points(rules.score(after.cards, name, new.diary))
        lines.append(
            _("{name}'s stroll ends ({why}): {diary}, {points}.").format(
                name=_(name),
                why=_(_END[new.end]),
                diary=_interests(new.diary) or _("no diary cards"),
                points=points,
            )
        )
    return lines


__all__ = ["LEGEND", "narrate", "render_state", "render_terminal", "trace"]
