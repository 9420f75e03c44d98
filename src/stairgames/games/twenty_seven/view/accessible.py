"""What the browser's screen-reader mode reads of a 27 game (``docs/accessibility.md``).

27 hides nothing, so every viewer hears the same line: field by field from white's end
(field 0), each stack's discs from its base to its top; as a list, the stacks each colour
tops, both players' stack counts and scores; whose move it is and which way it goes; the
last move with where its discs landed.

>>> import stairgames
>>> from stairgames.i18n import localize
>>> state = stairgames.load("twenty_seven").new_initial_state()
>>> localize(rows(state, None)[0])
'Field 0: red, white, white, white, white, white, white, white, white, white'
>>> _ = state.apply_move("0:1")
>>> localize(last(state, None))
'White moved 1 disc from field 0 to field 1'
>>> pieces("3:2")
('3',)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from stairgames.core.registry import Accessible
from stairgames.games.twenty_seven.rules import COLOUR_NAMES, PLAYER_COLOURS, WHITE, opponent
from stairgames.games.twenty_seven.view.board import last_move
from stairgames.i18n import N_, Count, Names, Text

if TYPE_CHECKING:
    from stairgames.core.game import State
    from stairgames.games.twenty_seven.game import TwentySevenState

_CAPITAL: Final = {"W": N_("White"), "B": N_("Black")}


def _line(state: State) -> TwentySevenState:
    from stairgames.games.twenty_seven.game import TwentySevenState

    if not isinstance(state, TwentySevenState):
        raise TypeError(f"a 27 state is needed, not {type(state).__name__}")
    return state


def rows(state: State, viewer: int | None) -> list[Any]:
    """Each field from field 0, its discs from the base up."""
    del viewer
    return [
        Text(
            N_("Field {field}: {discs}"),
            {
                "field": index,
                "discs": Names(tuple(COLOUR_NAMES[d] for d in stack), conjunction=False),
            },
        )
        for index, stack in enumerate(_line(state).line.fields)
    ]


def items(state: State, viewer: int | None) -> list[Any]:
    """The fields each colour tops (with their heights), then the stack counts and scores."""
    del viewer
    game = _line(state)
    fields = game.line.fields
    said: list[Any] = []
    for colour in (*PLAYER_COLOURS, "G", "R"):
        topped = tuple(
            Text(N_("field {field}, height {count}"), {"field": index, "count": len(stack)})
            for index, stack in enumerate(fields)
            if stack[-1] == colour
        )
        if topped:
            said.append(
                Text(
                    N_("{colour} on top: {fields}"),
                    {
                        "colour": Text(COLOUR_NAMES[colour]),
                        "fields": Names(topped, conjunction=False),
                    },
                )
            )
    said.append(
        Text(
            N_("Stacks (how far a move goes): white {white}, black {black}"),
            {"white": game.stacks_of("W"), "black": game.stacks_of("B")},
        )
    )
    said.append(
        Text(
            N_("Score so far: white {white}, black {black}"),
            {"white": game.score("W"), "black": game.score("B")},
        )
    )
    return said


def turn(state: State, viewer: int | None) -> Any:
    """The colour to move and the way its discs go, or that it must pass."""
    del viewer
    game = _line(state)
    colour = game.line.to_move
    name = Text(_CAPITAL[colour])
    if not game.moves():
        other = Text(COLOUR_NAMES[opponent(colour)])
        return Text(
            N_("{name} to move has no move and must pass; {other} plays on."),
            {"name": name, "other": other},
        )
    if colour == WHITE:
        return Text(N_("{name} to move, up the line."), {"name": name})
    return Text(N_("{name} to move, down the line."), {"name": name})


def last(state: State, viewer: int | None) -> Any:
    """Who moved how many discs from which field to which (``None`` before a move, or a
    state set up from a position)."""
    del viewer
    game = _line(state)
    history = game.history()
    if not history:
        return None
    mover = Text(_CAPITAL[opponent(game.line.to_move)])
    moved = last_move(game)
    if moved is None:
        if game.action_to_string(history[-1]) == "pass":
            return Text(N_("{name} cannot move and passes."), {"name": mover})
        return None
    return Text(
        N_("{name} moved {discs} from field {source} to field {target}"),
        {
            "name": mover,
            "discs": Count("{count} disc", "{count} discs", moved["count"]),
            "source": moved["from"],
            "target": moved["to"],
        },
    )


def pieces(move: str) -> tuple[str, ...]:
    """The field a move takes discs from (``3:2``: field ``3``); a pass has none."""
    field, colon, _count = move.partition(":")
    return (field,) if colon else ()


ACCESSIBLE: Final = Accessible(
    rows=rows,
    items=items,
    turn=turn,
    last=last,
    pieces=pieces,
)
"""The registration's ``accessible``."""
