"""27 drawing data for the browser (``web/board.js`` draws it).

27 hides nothing, so every viewer gets the same line:

>>> import stairgames
>>> view = board_view(stairgames.load("twenty_seven").new_initial_state(), None)
>>> view["fields"][1], view["stacks"], view["variant"]
({'index': 1, 'base': 'G', 'stack': 'G', 'top': 'G'}, {'W': 1, 'B': 1}, 'basic')
"""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

from stairgames.core.game import State
from stairgames.games.twenty_seven.rules import PLAYER_COLOURS

WEB_ASSETS: Traversable = files("stairgames.games.twenty_seven") / "web"
"""The folder holding ``board.js``."""


def board_view(state: State, viewer: int | None) -> dict[str, Any]:
    """The line as JSON-ready data: every field as it is now (numbered from 0 at white's
    end, the numbers the move notation uses) with its base disc, its stack from bottom
    (the base) to top and its top disc; the colour to move; each player's stack count
    (the distance its moves go) and score so far; the variant. ``viewer`` is unused:
    nothing in 27 is hidden."""
    del viewer
    from stairgames.games.twenty_seven.game import TwentySevenState

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
    }
