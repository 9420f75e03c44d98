"""27 drawing data for the browser (``web/board.js`` draws it).

27 hides nothing, so every viewer gets the same line:

>>> import stairgames
>>> view = board_view(stairgames.load("twenty_seven").new_initial_state(), None)
>>> view["fields"][1], view["stacks"], view["variant"], view["last"]
({'index': 1, 'base': 'G', 'stack': 'G', 'top': 'G'}, {'W': 1, 'B': 1}, 'basic', None)
"""

from __future__ import annotations

import functools
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

from stairgames.core.game import State
from stairgames.games.twenty_seven import rules
from stairgames.games.twenty_seven.game import TwentySevenState
from stairgames.games.twenty_seven.notation import decode_move
from stairgames.games.twenty_seven.rules import PLAYER_COLOURS, Line, Variant
from stairgames.i18n import text_json

WEB_ASSETS: Traversable = files("stairgames.games.twenty_seven.view")
"""The folder holding ``board.js``."""


def board_view(state: State, viewer: int | None) -> dict[str, Any]:
    """The line as JSON-ready data: every field as it is now (numbered from 0 at white's
    end, the numbers the move notation uses) with its base disc, its stack from bottom
    (the base) to top and its top disc; the colour to move; each player's stack count
    (the distance its moves go) and score so far; the variant; where the last move went
    (:func:`last_move`); ``stuck``: for each field topped by the colour to move that it
    cannot move, why (the engine's refusal of moving its top disc, as
    :func:`stairgames.i18n.text_json` gives it). ``viewer`` is unused: nothing in 27 is
    hidden."""
    del viewer
    if not isinstance(state, TwentySevenState):
        raise TypeError(f"a 27 state is needed, not {type(state).__name__}")
    line = state.line
    fields = [
        {"index": index, "base": stack[0], "stack": stack, "top": stack[-1]}
        for index, stack in enumerate(line.fields)
    ]
    return {
        "fields": fields,
        "to_move": line.to_move,
        "stacks": {colour: state.stacks_of(colour) for colour in PLAYER_COLOURS},
        "scores": {colour: state.score(colour) for colour in PLAYER_COLOURS},
        "variant": state.variant,
        "last": last_move(state),
        "stuck": {} if state.is_terminal() else stuck_reasons(line, state.variant),
    }


def stuck_reasons(line: Line, variant: Variant) -> dict[str, Any]:
    """Why each field topped by the colour to move cannot move (by field number)."""
    colour = line.to_move
    movable = {move.field for move in rules.legal_moves(line, colour, variant)}
    return {
        str(index): text_json(rules.why_illegal(line, colour, rules.Move(index, 1), variant))
        for index, stack in enumerate(line.fields)
        if stack[-1] == colour and index not in movable
    }


def last_move(state: TwentySevenState) -> dict[str, int] | None:
    """Where the discs of the last move went, for marking it: ``{"from": F, "count": K,
    "to": T}``, ``F`` numbered as the line was before the move and ``T`` as it is now (a
    field whose base moved away is gone); ``None`` before any move, after a pass, or for
    a state set up from a position (its line before the move is not known).

    The move's text ``F:K`` does not say where the discs landed (that depends on the
    mover's stack count before the move), so the line before it is rebuilt from the
    history.
    """
    history = state.history()
    move = decode_move(history[-1]) if history else None
    if move is None:
        return None
    before = _line_after(tuple(history[:-1]))
    if rules.apply_move(before, move) != state.line:
        return None
    to = rules.destination(before, move)
    if move.count == len(before.fields[move.field]) and to > move.field:
        to -= 1  # the emptied source field left the line, the fields after it moved down
    return {"from": move.field, "count": move.count, "to": to}


@functools.lru_cache(maxsize=4096)
def _line_after(actions: tuple[int, ...]) -> Line:
    """The line after ``actions`` from the start (passes included). Cached: a position is
    drawn for every viewer after every move, and the line before it was the one drawn
    before, so a game costs one step a move."""
    if not actions:
        return rules.initial_line()
    line = _line_after(actions[:-1])
    move = decode_move(actions[-1])
    return rules.pass_turn(line) if move is None else rules.apply_move(line, move)
