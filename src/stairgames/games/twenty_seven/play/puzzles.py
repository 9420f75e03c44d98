"""What 27 offers puzzles: its themes.

Puzzles come from the endgames the exact endgame solver proves (and the solved tables
where they are on disk); where the other moves draw, the goal is a win, not just a
draw (T5: equal scores draw). The themes are read from the position and the solution's
main line, exactly:

- ``scoring``: the first move lands on the solver's target field (T5: it scores);
- ``carry``: the first move carries discs of the opponent along (T2);
- ``counting_race``: the first move changes how many stacks the opponent tops, so how
  far it must move next (T2: the distance is the count of one's stacks);
- ``blockade``: the defender must pass somewhere in the main line (T4).
"""

from __future__ import annotations

from typing import Final

from stairgames.core.game import State
from stairgames.core.puzzles import PuzzleKit
from stairgames.games.twenty_seven.game import TwentySevenState
from stairgames.games.twenty_seven.rules import opponent, score, stack_count
from stairgames.i18n import N_

PASS_MOVE: Final = "pass"

NAMES: Final = {
    "scoring": N_("Scoring move"),
    "carry": N_("Carry"),
    "counting_race": N_("Counting race"),
    "blockade": N_("Blockade"),
}


def themes(state: State, solution: tuple[int, ...]) -> tuple[str, ...]:
    """The 27 themes of a puzzle starting at ``state`` with main line ``solution``."""
    assert isinstance(state, TwentySevenState)
    found: list[str] = []
    line = state.line
    colour = line.to_move
    after = state.clone()
    after.apply_action(solution[0])
    moved = after.line
    if score(moved, colour) > score(line, colour):
        found.append("scoring")
    field, count = divmod(solution[0], 27)
    if field < len(line.fields) and opponent(colour) in line.fields[field][-(count + 1) :]:
        found.append("carry")
    if stack_count(moved, opponent(colour)) != stack_count(line, opponent(colour)):
        found.append("counting_race")
    current = state.clone()
    for index, action in enumerate(solution):
        if index % 2 and current.action_to_string(action) == PASS_MOVE:
            found.append("blockade")
            break
        current.apply_action(action)
    return tuple(found)


KIT: Final = PuzzleKit(
    names=NAMES,
    themes=themes,
    option_sets=({"variant": "basic"}, {"variant": "advanced"}, {"variant": "expert"}),
    about=N_("White or black to move and win (where a draw is easy: win, not just draw)."),
)
"""What 27 offers puzzles (its registration names it)."""

__all__ = ["KIT", "NAMES", "themes"]
