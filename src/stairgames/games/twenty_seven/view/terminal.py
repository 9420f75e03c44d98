"""Drawing a 27 line for the terminal: each field a column, its stack rising from its base."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stairgames.games.twenty_seven.rules import (
    BLACK,
    COLOUR_NAMES,
    GREY,
    RED,
    WHITE,
    Line,
    opponent,
    target_field,
)
from stairgames.i18n import _, display_width, ngettext, wrap

if TYPE_CHECKING:
    from stairgames.core.game import State
    from stairgames.games.twenty_seven.game import TwentySevenState

_RESET = "\x1b[0m"
_STYLE = {
    WHITE: "\x1b[1;30;47m",
    BLACK: "\x1b[1;37;40m",
    RED: "\x1b[1;37;41m",
    GREY: "\x1b[30;100m",
}
_CELL = 3
TALLEST_UPRIGHT = 14
"""The tallest stack drawn upright; a taller one lays the line on its side, so that the
drawing with its prompt still fits a 24-line screen."""
WIDTH = 80


def _disc(disc: str, colour: bool) -> str:
    text = f" {disc} "
    return f"{_STYLE[disc]}{text}{_RESET}" if colour else text


def draw_stacks(line: Line, *, colour: bool = False) -> list[str]:
    """The stacks as columns, highest level first, with levels on the left and field numbers
    below. Level 1 is each field's base disc."""
    peak = max(len(stack) for stack in line.fields)
    rows = []
    for level in range(peak, 0, -1):
        cells = []
        for stack in line.fields:
            cells.append(_disc(stack[level - 1], colour) if len(stack) >= level else " " * _CELL)
        rows.append(f"{level:>3} " + "".join(cells).rstrip())
    numbers = "".join(f"{field:^{_CELL}}" for field in range(len(line.fields)))
    rows.append(f"    {numbers}".rstrip())
    return rows


def draw_sideways(line: Line, *, colour: bool = False) -> list[str]:
    """The stacks lying down, a row per field, base at the left, top at the right: for
    stacks too tall to stand on one screen."""
    label = _("field")
    width = display_width(label)
    rows = [label + "  " + _("base → top")]
    for field, stack in enumerate(line.fields):
        discs = "".join(_disc(disc, colour) if colour else f"{disc} " for disc in stack)
        rows.append(f"{field:>{width}}  {discs}".rstrip())
    return rows


def _fields_topped_by(line: Line, colour: str) -> str:
    fields = [str(n) for n, stack in enumerate(line.fields) if stack[-1] == colour]
    if not fields:
        return _("on no field")
    return ngettext("on field {fields}", "on fields {fields}", len(fields)).format(
        fields=", ".join(fields)
    )


def describe_players(line: Line) -> list[str]:
    """A sentence per colour: its stacks (the distance it must move) and its score so far."""
    lines = []
    for colour in (WHITE, BLACK):
        stacks = sum(1 for stack in line.fields if stack[-1] == colour)
        target = target_field(line, colour)
        score = len(line.fields[target]) - 1
        name = _(COLOUR_NAMES[colour]).capitalize()
        if stacks == 0:
            reach = _("no stack, so no move")
        else:
            reach = ngettext(
                "{count} stack ({where}), so moves go {count} field",
                "{count} stacks ({where}), so moves go {count} fields",
                stacks,
            ).format(count=stacks, where=_fields_topped_by(line, colour))
        lines.append(
            _("{name}: {reach}; target field {target} holds {score}.").format(
                name=name, reach=reach, target=target, score=score
            )
        )
    return lines


def render_line(state: TwentySevenState, *, colour: bool = False) -> str:
    """The line with its stacks, the field numbers, both players' stacks and scores, and
    whose move it is (or the result)."""
    line = state.line
    upright = max(len(stack) for stack in line.fields) <= TALLEST_UPRIGHT
    drawing = draw_stacks(line, colour=colour) if upright else draw_sideways(line, colour=colour)
    title = _("{title} ({variant})").format(title=_("27"), variant=_(state.variant))
    lines = [title, *drawing]
    for sentence in describe_players(line):
        lines += wrap(sentence, WIDTH, subsequent_indent="  ")
    outcome = state.outcome()
    if outcome is not None:
        lines.append(_("Neither player can move, so the game is over."))
        lines += wrap(_("Game over. {result}").format(result=outcome.localized()), WIDTH)
    else:
        to_move = _(COLOUR_NAMES[line.to_move]).capitalize()
        if state.moves():
            if line.to_move == WHITE:
                sentence = _("{name} to move, up the line.")
            else:
                sentence = _("{name} to move, down the line.")
            lines.append(sentence.format(name=to_move))
        else:
            other = _(COLOUR_NAMES[opponent(line.to_move)])
            lines += wrap(
                _("{name} to move has no move and must pass; {other} plays on.").format(
                    name=to_move, other=other
                ),
                WIDTH,
            )
    return "\n".join(lines)


def render_terminal(state: State, *, colour: bool, viewer: int | None) -> str:
    """The registry's renderer: :func:`render_line` (27 hides nothing from any viewer)."""
    del viewer
    from stairgames.games.twenty_seven.game import TwentySevenState

    assert isinstance(state, TwentySevenState)
    return render_line(state, colour=colour)
