"""Drawing the Ishigaki Race wall for the terminal: goal on top, start below, every ninja on its
step, the "−2" squares marked, then the dice of the roll in progress and whose decision it is."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stairgames.games.ishigaki_race.position import SEAT_NAMES
from stairgames.games.ishigaki_race.rules import Phase, climb_steps, rolloff_score

if TYPE_CHECKING:
    from stairgames.core.game import State
    from stairgames.games.ishigaki_race.game import IshigakiRaceState

_RESET = "\x1b[0m"
_STYLE = ("\x1b[1;37;41m", "\x1b[1;37;44m", "\x1b[1;30;43m", "\x1b[1;30;42m")
_LETTERS = ("R", "B", "Y", "G")
_DIE_FACES = "⚀⚁⚂⚃⚄⚅"


def _ninja(seat: int, colour: bool) -> str:
    letter = _LETTERS[seat]
    return f"{_STYLE[seat]}{letter}{_RESET}" if colour else letter


def _label(state: IshigakiRaceState, step: int) -> str:
    board = state.board
    if step == board.goal:
        return "goal"
    if step == 0:
        return "start"
    return "-2" if step in board.crumbling else ""


def draw_wall(state: IshigakiRaceState, *, colour: bool = False) -> list[str]:
    """One row per step from the goal down to the start: step number, its mark (goal, start
    or -2) and the ninjas standing there, each in its own column."""
    heights = state.heights()
    rows = []
    for step in range(state.board.goal, -1, -1):
        cells = [_ninja(seat, colour) if h == step else "." for seat, h in enumerate(heights)]
        rows.append(f"{step:>3} {_label(state, step):<5} | {' '.join(cells)}")
    return rows


def _dice(first: int, rolling: bool) -> str:
    shown = f"{first} {_DIE_FACES[first - 1]}"
    return f"{shown}, second die rolling" if rolling else shown


def describe_turn(state: IshigakiRaceState) -> list[str]:
    """The goal round or roll-off in progress, the dice, and who acts."""
    race = state.race
    if race.phase == Phase.SETUP:
        return ["The start player is drawn next."]
    if race.phase == Phase.OVER:
        return [f"Game over. {state.outcome()}"]
    lines = []
    if race.phase == Phase.GOAL:
        arrived = ", ".join(SEAT_NAMES[s] for s in race.arrived)
        left = ", ".join(SEAT_NAMES[s] for s in race.goal_round_left())
        lines.append(f"Goal round: on the goal {arrived}; still to play {left}.")
    if race.phase == Phase.ROLLOFF:
        scores = [
            f"{SEAT_NAMES[seat]} {race.scores[i] if i < len(race.scores) else '-'}"
            for i, seat in enumerate(race.rollers)
        ]
        lines.append(f"Roll-off (highest wins): {', '.join(scores)}.")
    name = SEAT_NAMES[race.turn].capitalize()
    if race.first_die == 0:
        lines.append(f"{name} rolls the first die next.")
    elif race.rolling:
        lines.append(f"{name}: first die {_dice(race.first_die, True)}.")
    else:
        dice = _dice(race.first_die, False)
        lines.append(f"{name} to decide: first die {dice}; {_choice(state)}")
    return lines


def _choice(state: IshigakiRaceState) -> str:
    race = state.race
    if race.phase == Phase.ROLLOFF:
        keep = rolloff_score(race.first_die, None)
        return f"stop (score {keep}) or roll (higher: the sum, lower: 0)?"
    climb = climb_steps(race.first_die)
    return f"stop (climb {climb}) or roll (higher: climb on the sum, lower: slip 1)?"


def render_race(state: IshigakiRaceState, *, colour: bool = False) -> str:
    options = state.get_game().options
    wall = "crumbling wall" if state.board.crumbling else "plain wall"
    players = ", ".join(
        f"{_LETTERS[s]}={SEAT_NAMES[s]} (step {h})" for s, h in enumerate(state.heights())
    )
    lines = [f"Ishigaki Race, {options.players} players, {wall}", *draw_wall(state, colour=colour)]
    lines.append(players)
    lines.extend(describe_turn(state))
    return "\n".join(lines)


def render_terminal(state: State, *, colour: bool, viewer: int | None) -> str:
    """The registry's renderer: :func:`render_race` (nothing is hidden from any viewer)."""
    del viewer
    from stairgames.games.ishigaki_race.game import IshigakiRaceState

    assert isinstance(state, IshigakiRaceState)
    return render_race(state, colour=colour)
