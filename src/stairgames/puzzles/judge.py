"""Judging a puzzle's moves: a pure walk of its precomputed tree.

``played`` is what was played so far, alternating the solver's moves and the
defender's replies (solver, reply, solver, ...); :func:`judge` takes the solver's next
move and says whether it is right (the defender's reply follows), solves the puzzle, or
is wrong (with the proof: who wins after it, and how). Nothing is searched: every
legal move of the solver was judged when the puzzle was made (:mod:`.prove`).

Move texts are read the way the game reads them (``C3-D4`` is ``c3-d4``), so the game
is loaded to replay the moves; the verdicts come from the tree alone.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Final

from stairgames.core.errors import StairgamesError
from stairgames.core.game import State
from stairgames.core.registry import get_spec, load
from stairgames.i18n import N_, Count, Text, ngettext
from stairgames.puzzles.model import (
    ALSO,
    BEST_CHANCE,
    WIN_NOT_DRAW,
    WRONG,
    Answer,
    Node,
    Puzzle,
)

RIGHT: Final = "right"
"""The move keeps the proven result; the defender replies."""
SOLVED: Final = "solved"
"""The move keeps the proven result and ends the puzzle."""
OUTCOMES: Final = (RIGHT, SOLVED, WRONG)


class PuzzleMoveError(StairgamesError):
    """A move that is not legal where the puzzle stands, or moves played that leave the
    puzzle's tree."""


@dataclasses.dataclass(frozen=True)
class Verdict:
    """What a solver's move earned."""

    outcome: str
    """``"right"``, ``"solved"`` or ``"wrong"``."""
    answer: Answer
    """The move's answer in the tree (its shares, proof line, reply)."""
    reply: str | None
    """The defender's reply where the puzzle goes on (``"right"``), else ``None``."""
    message: Text
    """What to tell the solver, e.g. "after c3-d4 dark wins in 5 plies"."""


def start_state(puzzle: Puzzle) -> State:
    """The puzzle's position, its game loaded with its options.

    :raises StairgamesError: the game, its options or the position are bad.
    """
    return load(puzzle.game, **puzzle.options).state_from_position(puzzle.position)


def solution(puzzle: Puzzle) -> list[str]:
    """The main line: the best moves and the defender's replies, to the end.

    >>> from stairgames.puzzles.model import Answer, Node, Puzzle
    >>> leaf = Answer("b2-a3", "best", (1.0, 0.0), 1, 0, (), None, None)
    >>> first = Answer("a1-b2", "best", (1.0, 0.0), 3, 0, ("c3-b2",), "c3-b2", Node((leaf,)))
    >>> puzzle = Puzzle("abcd1234", "stairs", {}, "-", 0, "win", Node((first,)), (), 1500.0,
    ...                 {"kind": "record"})
    >>> solution(puzzle)
    ['a1-b2', 'c3-b2', 'b2-a3']
    """
    line: list[str] = []
    node: Node | None = puzzle.root
    while node is not None:
        best = node.best
        line.append(best.move)
        if best.reply is None:
            break
        line.append(best.reply)
        node = best.next
    return line


def node_after(puzzle: Puzzle, played: Sequence[str]) -> tuple[Node, State]:
    """The node where the solver moves after ``played`` (solver, reply, ...), with the
    state there.

    :raises PuzzleMoveError: a move is not legal, the moves leave the tree, or ``played``
        ends with a solver's move.
    """
    if len(played) % 2:
        raise PuzzleMoveError(
            message_id=N_("the moves played must end with the reply: {played}"),
            arguments={"played": " ".join(played)},
        )
    state = start_state(puzzle)
    node = puzzle.root
    for index in range(0, len(played), 2):
        move = _read(state, played[index])
        answer = node.answer(move)
        if answer is None or not answer.right or answer.next is None:
            raise _off_tree(played[: index + 1])
        state.apply_action(state.string_to_action(move))
        reply = _read(state, played[index + 1])
        if reply != answer.reply:
            raise _off_tree(played[: index + 2])
        state.apply_action(state.string_to_action(reply))
        node = answer.next
    return node, state


def judge(puzzle: Puzzle, played: Sequence[str], move: str) -> Verdict:
    """The verdict on the solver's ``move`` after ``played``.

    :raises PuzzleMoveError: ``move`` is not legal there, or ``played`` leaves the tree.
    """
    node, state = node_after(puzzle, played)
    canonical = _read(state, move)
    answer = node.answer(canonical)
    if answer is None:
        raise PuzzleMoveError(
            message_id=N_("{move} is not a move of this puzzle here"),
            arguments={"move": move},
        )
    if answer.verdict == WRONG:
        return Verdict(WRONG, answer, None, wrong_message(puzzle, state, node, answer))
    if answer.reply is None:
        return Verdict(SOLVED, answer, None, solved_message(puzzle, state, answer))
    message_id = (
        N_("{move} also keeps the win.") if answer.verdict == ALSO else N_("{move}: right.")
    )
    return Verdict(
        RIGHT, answer, answer.reply, Text(message_id, {"move": said(puzzle, state, answer.move)})
    )


def wrong_message(puzzle: Puzzle, state: State, node: Node, answer: Answer) -> Text:
    """Why ``answer`` is wrong: who wins after it and in how many plies, a draw, a
    slower win, or (chance) the share it gives against the best."""
    move = said(puzzle, state, answer.move)
    if puzzle.goal == BEST_CHANCE:
        best = node.best
        return Text(
            N_("after {move} your chance of winning is {share}; {best} gives {best_share}"),
            {
                "move": move,
                "share": percent(answer.shares[puzzle.solver]),
                "best": said(puzzle, state, best.move),
                "best_share": percent(best.shares[puzzle.solver]),
            },
        )
    if answer.winner is None:
        return Text(N_("after {move} the game is a draw with best play"), {"move": move})
    seat = Text(state.seat_name(answer.winner))
    if answer.winner == puzzle.solver and answer.plies is not None:
        return Text(
            N_("{move} wins too, but in {plies}: there is a win in {best}"),
            {"move": move, "plies": plies(answer.plies), "best": plies(node.best.plies or 0)},
        )
    if not answer.plies:  # unknown, or the move ends the game
        return Text(N_("after {move} {seat} wins"), {"move": move, "seat": seat})
    return Text(
        N_("after {move} {seat} wins in {plies}"),
        {"move": move, "seat": seat, "plies": plies(answer.plies)},
    )


def solved_message(puzzle: Puzzle, state: State, answer: Answer) -> Text:
    """What solving says: the win and its length, or the best chance."""
    move = said(puzzle, state, answer.move)
    if puzzle.goal == BEST_CHANCE:
        return Text(
            N_("Solved: {move} gives the best chance of winning, {share}."),
            {"move": move, "share": percent(answer.shares[puzzle.solver])},
        )
    if answer.plies is None or answer.plies == 0:
        return Text(N_("Solved: {move} wins."), {"move": move})
    return Text(
        N_("Solved: after {move} {seat} wins in {plies}."),
        {
            "move": move,
            "seat": Text(state.seat_name(puzzle.solver)),
            "plies": plies(answer.plies),
        },
    )


def goal_text(puzzle: Puzzle, state: State) -> Text:
    """What the puzzle asks, in words: "light to move and win" (``state``: its start)."""
    seat = Text(state.seat_name(puzzle.solver))
    if puzzle.goal == WIN_NOT_DRAW:
        return Text(N_("{seat} to move: win, not just draw"), {"seat": seat})
    if puzzle.goal == BEST_CHANCE:
        return Text(N_("{seat} to choose: the best chance of winning"), {"seat": seat})
    return Text(N_("{seat} to move and win"), {"seat": seat})


def said(puzzle: Puzzle, state: State, move: str) -> str | Text:
    """``move`` as players read it: in the words its game declares for it
    (``GameSpec.move_words``: Ishigaki Race's "stop" is "Stop"), else its notation."""
    for word in get_spec(puzzle.game).move_words:
        pattern = re.sub(r"\\\{(number|seat)\\\}", r"(?P<\1>\\d+)", re.escape(word.move))
        found = re.fullmatch(pattern, move)
        if found is None:
            continue
        arguments: dict[str, str | Text] = {}
        if found.groupdict().get("number") is not None:
            arguments["number"] = found["number"]
        if found.groupdict().get("seat") is not None:
            arguments["seat"] = Text(state.seat_name(int(found["seat"])))
        return Text(word.label, arguments)
    return move


def plies(count: int) -> Count:
    """``count`` plies, in the language's plural."""
    return Count("{count} ply", "{count} plies", count)


def percent(share: float) -> str:
    """A share as a percentage with one decimal: ``'62.5%'``."""
    return f"{100 * share:.1f}%"


def _plurals() -> tuple[str, ...]:
    """The plural forms of this module as ``ngettext`` calls, so that ``make messages``
    extracts them (:class:`~stairgames.i18n.Count` takes them as data)."""
    return (ngettext("{count} ply", "{count} plies", 2),)


def _read(state: State, move: str) -> str:
    """``move`` as the game writes it where it is legal in ``state``.

    :raises PuzzleMoveError: it is not a legal move there.
    """
    try:
        return state.action_to_string(state.string_to_action(move))
    except StairgamesError as exc:
        raise PuzzleMoveError(
            message_id=N_("{move} is not a legal move here"), arguments={"move": move}
        ) from exc


def _off_tree(played: Sequence[str]) -> PuzzleMoveError:
    return PuzzleMoveError(
        message_id=N_("the moves played leave the puzzle: {played}"),
        arguments={"played": " ".join(played)},
    )


__all__ = [
    "OUTCOMES",
    "RIGHT",
    "SOLVED",
    "PuzzleMoveError",
    "Verdict",
    "judge",
    "node_after",
    "percent",
    "plies",
    "solution",
    "solved_message",
    "start_state",
    "wrong_message",
]
