"""What Stairs offers puzzles: its themes, and the boards its puzzles are made on.

Puzzles come from the small boards, solved whole by the exact search (3×3 to 5×5),
and from the endgames of 6×6 games, the last 15-20 plies that the same search proves.
The themes are read from the position and the solution's main line, exactly:

- ``new_summit``: the first move makes the board's highest stack, higher than any
  before it (S5 counts the stacks at the greatest height);
- ``forced_pass``: the defender must pass somewhere in the main line (S4);
- ``only_replies``: every reply of the main line is the defender's only legal move;
- ``small_board`` (3×3 to 5×5) or ``endgame`` (6×6 and larger): the board.
"""

from __future__ import annotations

from typing import Final

from stairgames.core.game import State
from stairgames.core.puzzles import PuzzleKit
from stairgames.games.stairs.game import StairsState
from stairgames.i18n import N_

SMALL_BOARDS: Final = (3, 4, 5)
PASS_MOVE: Final = "pass"

NAMES: Final = {
    "new_summit": N_("New summit"),
    "forced_pass": N_("Forced pass"),
    "only_replies": N_("Only replies"),
    "small_board": N_("Small board"),
    "endgame": N_("6×6 endgame"),
}


def themes(state: State, solution: tuple[int, ...]) -> tuple[str, ...]:
    """The Stairs themes of a puzzle starting at ``state`` with main line ``solution``."""
    assert isinstance(state, StairsState)
    found: list[str] = []
    before = state.board.max_height()
    current = state.clone()
    replies_forced = True
    passes = False
    for index, action in enumerate(solution):
        if index % 2:
            replies_forced = replies_forced and len(current.legal_actions()) == 1
            passes = passes or current.action_to_string(action) == PASS_MOVE
        current.apply_action(action)
        if index == 0 and current.board.max_height() > before:
            found.append("new_summit")
    if passes:
        found.append("forced_pass")
    if len(solution) > 1 and replies_forced:
        found.append("only_replies")
    found.append("small_board" if state.board.size in SMALL_BOARDS else "endgame")
    return tuple(found)


KIT: Final = PuzzleKit(
    names=NAMES,
    themes=themes,
    option_sets=(
        {"size": 4, "agreement": False},
        {"size": 5, "agreement": False},
        {"size": 6, "agreement": False},
    ),
    about=N_("Light or dark to move and win: the quickest proven win."),
)
"""What Stairs offers puzzles (its registration names it)."""

__all__ = ["KIT", "NAMES", "themes"]
