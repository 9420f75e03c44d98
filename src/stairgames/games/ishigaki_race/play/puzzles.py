"""What Ishigaki Race offers puzzles: its themes.

A puzzle is one decision, stop or roll the second die, where the max^n solution's
chance of winning after the best choice beats the other by at least 10 points
(``stairgames.puzzles.prove``). The themes are read from the position, exactly:

- ``stop`` or ``roll``: the right choice;
- ``goal_round`` or ``roll_off``: the decision falls in the goal round (I5) or the
  roll-off (I6);
- ``leading`` (the solver's ninja is alone highest on the wall) or ``chasing``
  (another ninja stands higher);
- ``three_players``, ``four_players``: more than two ninjas on the wall.
"""

from __future__ import annotations

from typing import Final

from stairgames.core.game import State
from stairgames.core.puzzles import PuzzleKit
from stairgames.games.ishigaki_race.game import IshigakiRaceState
from stairgames.games.ishigaki_race.notation import ROLL, STOP
from stairgames.games.ishigaki_race.rules import Phase
from stairgames.i18n import N_

NAMES: Final = {
    "stop": N_("Stop"),
    "roll": N_("Roll"),
    "goal_round": N_("Goal round"),
    "roll_off": N_("Roll-off"),
    "leading": N_("Leading"),
    "chasing": N_("Chasing"),
    "three_players": N_("Three players"),
    "four_players": N_("Four players"),
}


def themes(state: State, solution: tuple[int, ...]) -> tuple[str, ...]:
    """The Ishigaki Race themes of a decision at ``state`` whose right choice is
    ``solution[0]``."""
    assert isinstance(state, IshigakiRaceState)
    race = state.race
    found: list[str] = []
    if solution[0] == STOP:
        found.append("stop")
    elif solution[0] == ROLL:
        found.append("roll")
    if race.phase == Phase.GOAL:
        found.append("goal_round")
    elif race.phase == Phase.ROLLOFF:
        found.append("roll_off")
    else:
        mine = race.heights[race.turn]
        others = [h for seat, h in enumerate(race.heights) if seat != race.turn]
        if mine > max(others):
            found.append("leading")
        elif mine < max(others):
            found.append("chasing")
    if race.players == 3:
        found.append("three_players")
    elif race.players == 4:
        found.append("four_players")
    return tuple(found)


KIT: Final = PuzzleKit(
    names=NAMES,
    themes=themes,
    option_sets=({"players": 2}, {"players": 3}, {"players": 4}),
    about=N_("Stop or roll the second die: the choice with the best chance of winning."),
)
"""What Ishigaki Race offers puzzles (its registration names it)."""

__all__ = ["KIT", "NAMES", "themes"]
