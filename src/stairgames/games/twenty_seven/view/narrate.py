"""An account of each 27 action for people to read."""

from __future__ import annotations

from stairgames.core.game import State
from stairgames.games.twenty_seven.notation import decode_move
from stairgames.games.twenty_seven.rules import COLOUR_NAMES, destination, stack_count
from stairgames.i18n import _, ngettext


def narrate(before: State, action: int, after: State) -> list[str]:
    """What an action did: which discs went where and why that far; fields that left."""
    from stairgames.games.twenty_seven.game import TwentySevenState

    assert isinstance(before, TwentySevenState) and isinstance(after, TwentySevenState)
    line = before.line
    name = _(COLOUR_NAMES[line.to_move]).capitalize()
    move = decode_move(action)
    if move is None:
        return [_("{name} cannot move and passes.").format(name=name)]
    stack = line.fields[move.field]
    moved = stack[len(stack) - move.count :]
    distance = stack_count(line, line.to_move)
    target = destination(line, move)
    discs = ngettext("{count} disc", "{count} discs", move.count).format(count=move.count)
    stacks = ngettext("{count} stack", "{count} stacks", distance).format(count=distance)
    fields = ngettext("{count} field", "{count} fields", distance).format(count=distance)
    sentences = [
        _(
            "{name} moves {discs} ({moved}, bottom to top) from field {source} to field "
            "{target}: {stacks}, {fields}."
        ).format(
            name=name,
            discs=discs,
            moved=moved,
            source=move.field,
            target=target,
            stacks=stacks,
            fields=fields,
        )
    ]
    if len(after.line.fields) < len(line.fields):
        count = len(after.line.fields)
        base = _(COLOUR_NAMES[stack[0]])
        if target > move.field:
            sentence = _(
                "Field {field} leaves the line with its {base} base; the line now has {count} "
                "fields, and field {target} is now field {renumbered}."
            ).format(field=move.field, base=base, count=count, target=target, renumbered=target - 1)
        else:
            sentence = _(
                "Field {field} leaves the line with its {base} base; the line now has {count} "
                "fields."
            ).format(field=move.field, base=base, count=count)
        sentences.append(sentence)
    return sentences
