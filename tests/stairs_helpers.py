"""Building Stairs test positions by hand."""

from __future__ import annotations

import stairgames
from stairgames.games.stairs import StairsState
from stairgames.games.stairs.position import format_position
from stairgames.games.stairs.rules import FILES, Board, initial_board


def sq(name: str) -> int:
    """Square index of a name such as ``"c3"``."""
    return (int(name[1]) - 1) * 6 + FILES.index(name[0])


def arrange(relocations: str, to_move: str = "L", arrival: str | None = None) -> StairsState:
    """A state built from the initial board by moving top pieces freely (ignoring the rules).

    ``relocations`` is a space-separated list like ``"a1>b2 c3>b2"``: the top piece of
    the first square is put on top of the second. The position is then read back
    through the position parser, so it must be possible (bottoms and counts hold).
    """
    stacks = list(initial_board().stacks)
    for item in relocations.split():
        source, target = (sq(part) for part in item.split(">"))
        piece = stacks[source][-1]
        stacks[source] = stacks[source][:-1]
        stacks[target] = stacks[target] + piece
    text = format_position(Board(tuple(stacks), to_move, arrival))
    state = stairgames.load("stairs").state_from_position(text)
    assert isinstance(state, StairsState)
    return state


AGREEMENT_WORDS = ("offer", "accept", "decline")


def moves_of(state: StairsState) -> list[str]:
    """The legal moves of play (moves, pass, swap): the agreement actions of S7 aside,
    which have tests of their own."""
    texts = [state.action_to_string(a) for a in state.legal_actions()]
    return [text for text in texts if text not in AGREEMENT_WORDS]


def build(squares: dict[str, str], to_move: str = "L") -> StairsState:
    """A state with the given stacks, every other square empty, and the spare pieces
    piled on two dump squares, ``a6`` (light) and ``f6`` (dark), out of the way.

    Keep test stacks away from the a6 and f6 corners; each given stack must start
    with its square's own colour (S1).
    """
    stacks = [""] * 36
    for name, stack in squares.items():
        stacks[sq(name)] = stack
    spare_light = 18 - sum(s.count("L") for s in stacks)
    spare_dark = 18 - sum(s.count("D") for s in stacks)
    assert spare_light >= 1 and spare_dark >= 1, "leave at least one piece of each for the dumps"
    stacks[sq("a6")] = "L" * spare_light
    stacks[sq("f6")] = "D" * spare_dark
    arrival = "L" if spare_light >= spare_dark else "D"
    text = format_position(Board(tuple(stacks), to_move, arrival))
    state = stairgames.load("stairs").state_from_position(text)
    assert isinstance(state, StairsState)
    return state


def board_of(squares: dict[str, str], arrival: str | None = None, to_move: str = "L") -> Board:
    """A bare board (not checked for possibility) for testing S5 on its own."""
    stacks = [""] * 36
    for name, stack in squares.items():
        stacks[sq(name)] = stack
    return Board(tuple(stacks), to_move, arrival)
