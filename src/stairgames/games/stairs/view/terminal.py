"""Drawing a Stairs board for the terminal: each square shows its top colour and height."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stairgames.games.stairs.rules import DARK, LIGHT, is_over, square_index
from stairgames.i18n import _, wrap

if TYPE_CHECKING:
    from stairgames.core.game import State
    from stairgames.games.stairs.game import StairsState

_RESET = "\x1b[0m"
_STYLE = {LIGHT: "\x1b[1;30;47m", DARK: "\x1b[1;37;44m"}


def _cell(stack: str, colour: bool, highlight: bool) -> str:
    if not stack:
        return " .. "
    text = f"{stack[-1]}{len(stack)}"
    if highlight:
        text = f"{text}*"
    text = f" {text:<3}"
    if colour:
        return f"{_STYLE[stack[-1]]}{text}{_RESET}"
    return text


def render_board(state: StairsState, *, colour: bool = False) -> str:
    """The board with files and ranks; each square shows ``<top colour><height>``.

    Stacks at the greatest height are marked with ``*``. Below the board: who is
    to move, and the greatest height with each colour's stacks there.
    """
    board = state.board
    shape = board.geometry
    size = shape.size
    peak = board.max_height()
    header = "     " + "".join(f" {f}  " for f in shape.files)
    lines = [header]
    for rank in reversed(range(size)):
        cells = []
        for file in range(size):
            stack = board.stacks[square_index(file, rank, size)]
            cells.append(_cell(stack, colour, peak > 1 and len(stack) == peak))
        lines.append(f"  {rank + 1}  " + "".join(cells) + f"  {rank + 1}")
    lines.append(header)
    light = sum(1 for s in board.stacks if len(s) == peak and s[-1] == LIGHT)
    dark = sum(1 for s in board.stacks if len(s) == peak and s[-1] == DARK)
    lines.append(
        _("Greatest height {height}: light tops {light}, dark tops {dark}").format(
            height=peak, light=light, dark=dark
        )
    )
    if state.is_terminal():
        outcome = state.outcome()
        assert outcome is not None
        if is_over(board):  # not ended by agreement
            lines.append(_("Neither player can move, so the game is over."))
        lines += wrap(_("Game over. {result}").format(result=outcome.localized()), 80)
    else:
        # After a swap the first player (seat 0) plays dark and the second light: the
        # player is named only then, where the colour alone would mislead.
        swapped = state.swapped()
        if state.offer_pending():
            if board.to_move == DARK:
                to_move = (
                    _("Dark offers to end the game here; light answers: the second player")
                    if swapped
                    else _("Dark offers to end the game here; light answers")
                )
            else:
                to_move = (
                    _("Light offers to end the game here; dark answers: the first player")
                    if swapped
                    else _("Light offers to end the game here; dark answers")
                )
        elif board.to_move == LIGHT:
            to_move = _("Light to move: the second player") if swapped else _("Light to move")
        else:
            to_move = _("Dark to move: the first player") if swapped else _("Dark to move")
        lines.append(to_move + (_(" (colours swapped)") if swapped else ""))
        if state.swap_pending() and not state.offer_pending():
            lines.append(_("Pie rule: instead of moving, you may type swap to exchange colours."))
    return "\n".join(lines)


def render_terminal(state: State, *, colour: bool, viewer: int | None) -> str:
    """The registry's renderer: :func:`render_board` (Stairs hides nothing from any viewer)."""
    del viewer
    from stairgames.games.stairs.game import StairsState

    assert isinstance(state, StairsState)
    return render_board(state, colour=colour)
