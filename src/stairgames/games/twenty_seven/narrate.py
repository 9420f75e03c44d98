"""An account of each 27 action for people to read."""

from __future__ import annotations

from stairgames.core.game import State
from stairgames.games.twenty_seven.notation import decode_move
from stairgames.games.twenty_seven.rules import COLOUR_NAMES, destination, stack_count


def narrate(before: State, action: int, after: State) -> list[str]:
    """What an action did: which discs went where and why that far; fields that left."""
    from stairgames.games.twenty_seven.game import TwentySevenState

    assert isinstance(before, TwentySevenState) and isinstance(after, TwentySevenState)
    line = before.line
    name = COLOUR_NAMES[line.to_move].capitalize()
    move = decode_move(action)
    if move is None:
        return [f"{name} cannot move and passes."]
    stack = line.fields[move.field]
    moved = stack[len(stack) - move.count :]
    distance = stack_count(line, line.to_move)
    target = destination(line, move)
    plural = "s" if move.count != 1 else ""
    sentences = [
        f"{name} moves {move.count} disc{plural} ({moved}, bottom to top) from field "
        f"{move.field} to field {target}: {distance} stack{'s' if distance != 1 else ''}, "
        f"{distance} field{'s' if distance != 1 else ''}."
    ]
    if len(after.line.fields) < len(line.fields):
        renumbered = ""
        if target > move.field:
            renumbered = f", and field {target} is now field {target - 1}"
        sentences.append(
            f"Field {move.field} leaves the line with its {COLOUR_NAMES[stack[0]]} base; the "
            f"line now has {len(after.line.fields)} fields{renumbered}."
        )
    return sentences
