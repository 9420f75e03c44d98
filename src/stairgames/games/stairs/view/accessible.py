"""What the browser's screen-reader mode reads of a Stairs game (``docs/accessibility.md``).

Stairs hides nothing, so every viewer hears the same board: row by row from the far
rank, each square's top colour and height; as a list, each colour's stacks from the
highest; whose move it is; the last move with the height it reached.

>>> import stairgames
>>> from stairgames.i18n import localize
>>> state = stairgames.load("stairs", size=3).new_initial_state()
>>> localize(rows(state, None)[0])
'Rank 3: a3 dark 1, b3 light 1, c3 dark 1'
>>> state.apply_move("b1-b2") and localize(last(state, None))
'Light b1-b2, to height 2'
>>> pieces("a1-b2"), pieces("pass")
(('a1',), ())
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from stairgames.core.registry import Accessible
from stairgames.games.stairs.rules import DARK, LIGHT, square_index, square_name
from stairgames.i18n import N_, Names, Text

if TYPE_CHECKING:
    from stairgames.core.game import State
    from stairgames.games.stairs.game import StairsState

_COLOUR: Final = {LIGHT: N_("light"), DARK: N_("dark")}
_CAPITAL: Final = {LIGHT: N_("Light"), DARK: N_("Dark")}


def _stairs(state: State) -> StairsState:
    from stairgames.games.stairs.game import StairsState

    if not isinstance(state, StairsState):
        raise TypeError(f"a Stairs state is needed, not {type(state).__name__}")
    return state


def _square(name: str, stack: str) -> Text:
    if not stack:
        return Text(N_("{square} empty"), {"square": name})
    return Text(
        N_("{square} {colour} {height}"),
        {"square": name, "colour": Text(_COLOUR[stack[-1]]), "height": len(stack)},
    )


def rows(state: State, viewer: int | None) -> list[Any]:
    """Each rank from the far one (the highest number) down, its squares from file a."""
    del viewer
    board = _stairs(state).board
    size = board.size
    said: list[Any] = []
    for rank in reversed(range(size)):
        squares = tuple(
            _square(square_name(square_index(file, rank, size), size), board.stacks[index])
            for file in range(size)
            for index in (square_index(file, rank, size),)
        )
        said.append(
            Text(
                N_("Rank {rank}: {squares}"),
                {"rank": rank + 1, "squares": Names(squares, conjunction=False)},
            )
        )
    return said


def items(state: State, viewer: int | None) -> list[Any]:
    """The greatest height and each colour's count there, then each colour's stacks from
    the highest (then by square), then the empty squares."""
    del viewer
    board = _stairs(state).board
    peak = board.max_height()
    stacks = [(square_name(i, board.size), s) for i, s in enumerate(board.stacks)]
    said: list[Any] = [
        Text(
            N_("Greatest height {height}: light tops {light}, dark tops {dark}"),
            {
                "height": peak,
                "light": sum(1 for _n, s in stacks if len(s) == peak and s[-1] == LIGHT),
                "dark": sum(1 for _n, s in stacks if len(s) == peak and s[-1] == DARK),
            },
        )
    ]
    for colour in (LIGHT, DARK):
        mine = sorted(
            ((name, s) for name, s in stacks if s and s[-1] == colour),
            key=lambda pair: -len(pair[1]),
        )
        listed = tuple(
            Text(N_("{square} height {height}"), {"square": name, "height": len(s)})
            for name, s in mine
        )
        said.append(
            Text(
                N_("{colour} on top: {squares}"),
                {
                    "colour": Text(_CAPITAL[colour]),
                    "squares": Names(listed or (N_("none"),), conjunction=False),
                },
            )
        )
    empty = tuple(Text(N_("{square}"), {"square": name}) for name, s in stacks if not s)
    if empty:
        said.append(Text(N_("Empty: {squares}"), {"squares": Names(empty, conjunction=False)}))
    return said


def turn(state: State, viewer: int | None) -> Any:
    """The colour to move (and who plays it after a swap), or an offer to answer."""
    del viewer
    stairs = _stairs(state)
    swapped = stairs.swapped()
    light = stairs.board.to_move == LIGHT
    if stairs.offer_pending():
        if light:
            return Text(
                N_("Dark offers to end the game here; light answers: the second player")
                if swapped
                else N_("Dark offers to end the game here; light answers")
            )
        return Text(
            N_("Light offers to end the game here; dark answers: the first player")
            if swapped
            else N_("Light offers to end the game here; dark answers")
        )
    if light:
        return Text(N_("Light to move: the second player") if swapped else N_("Light to move"))
    return Text(N_("Dark to move: the first player") if swapped else N_("Dark to move"))


def last(state: State, viewer: int | None) -> Any:
    """The last move, if it moved a piece: its colour, notation and the height reached
    (``None`` for a word, which the page says as the game declares it, or no move)."""
    del viewer
    stairs = _stairs(state)
    history = stairs.history()
    if not history:
        return None
    move = stairs.action_to_string(history[-1])
    if "-" not in move:
        return None
    target = move.split("-")[1]
    board = stairs.board
    stack = next(s for i, s in enumerate(board.stacks) if square_name(i, board.size) == target)
    return Text(
        N_("{colour} {move}, to height {height}"),
        {"colour": Text(_CAPITAL[stack[-1]]), "move": move, "height": len(stack)},
    )


def pieces(move: str) -> tuple[str, ...]:
    """The square a move leaves (``c3-d4``: ``c3``); a word has none."""
    source, dash, _target = move.partition("-")
    return (source,) if dash else ()


ACCESSIBLE: Final = Accessible(
    rows=rows,
    items=items,
    turn=turn,
    last=last,
    pieces=pieces,
)
"""The registration's ``accessible``."""
