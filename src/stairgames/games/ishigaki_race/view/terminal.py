"""Drawing the Ishigaki Race wall for the terminal: goal on top, start below, every ninja on its
step, the "−2" squares marked, then the dice of the roll in progress and whose decision it is."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stairgames.games.ishigaki_race.position import SEAT_NAMES
from stairgames.games.ishigaki_race.rules import Phase, climb_steps, rolloff_score
from stairgames.i18n import _, display_width, pad, wrap

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


_CELL = 3
_STEPS_PER_LINE = 21
"""Steps drawn side by side: the whole default wall (0 to 20) on one 80-column screen."""


def _mark(state: IshigakiRaceState, step: int) -> str:
    return "-2" if step in state.board.crumbling else ""


def draw_wall(state: IshigakiRaceState, *, colour: bool = False) -> list[str]:
    """The wall lying on its side, start (step 0) at the left and goal at the right, so it
    fits beside the account of the turns: a line of step numbers, the "-2" marks, then a
    line per ninja with its name, its step and its letter in that step's column. A wall
    longer than 21 steps is drawn in bands of 21."""
    heights = state.heights()
    goal = state.board.goal
    names = [_(SEAT_NAMES[s]) for s in range(len(heights))]
    width = max(display_width(name) for name in [*names, _("step")]) + 4
    rows = []
    for first in range(0, goal + 1, _STEPS_PER_LINE):
        steps = range(first, min(goal, first + _STEPS_PER_LINE - 1) + 1)
        numbers = "".join(f"{step:>{_CELL}}" for step in steps)
        rows.append(f"{pad(_('step'), width)}{numbers}")
        if state.board.crumbling:
            rows.append(
                (" " * width + "".join(f"{_mark(state, s):>{_CELL}}" for s in steps)).rstrip()
            )
        for seat, height in enumerate(heights):
            cells = [
                " " * (_CELL - 1) + (_ninja(seat, colour) if height == step else ".")
                for step in steps
            ]
            rows.append(f"{pad(names[seat], width - 3)}{height:>2} " + "".join(cells))
    return rows


def _dice(first: int) -> str:
    return f"{first} {_DIE_FACES[first - 1]}"


def describe_turn(state: IshigakiRaceState) -> list[str]:
    """The goal round or roll-off in progress, the dice, and who acts."""
    race = state.race
    if race.phase == Phase.SETUP:
        return [_("The start player is drawn next.")]
    outcome = state.outcome()
    if outcome is not None:
        return [_("Game over. {result}").format(result=outcome.localized())]
    lines = []
    if race.phase == Phase.GOAL:
        arrived = _(", ").join(_(SEAT_NAMES[s]) for s in race.arrived)
        left = _(", ").join(_(SEAT_NAMES[s]) for s in race.goal_round_left())
        lines.append(
            _("Goal round: on the goal {arrived}; still to play {left}.").format(
                arrived=arrived, left=left
            )
        )
    if race.phase == Phase.ROLLOFF:
        scores = [
            f"{_(SEAT_NAMES[seat])} {race.scores[i] if i < len(race.scores) else '-'}"
            for i, seat in enumerate(race.rollers)
        ]
        lines.append(_("Roll-off (highest wins): {scores}.").format(scores=_(", ").join(scores)))
    name = _(SEAT_NAMES[race.turn]).capitalize()
    if race.first_die == 0:
        lines.append(_("{name} rolls the first die next.").format(name=name))
    elif race.rolling:
        lines.append(
            _("{name}: first die {dice}, second die rolling.").format(
                name=name, dice=_dice(race.first_die)
            )
        )
    else:
        lines.append(
            _("{name} to decide: first die {dice}.").format(name=name, dice=_dice(race.first_die))
        )
        lines.append(_choice(state))
    return lines


def _choice(state: IshigakiRaceState) -> str:
    race = state.race
    if race.phase == Phase.ROLLOFF:
        keep = rolloff_score(race.first_die, None)
        return _("stop (score {score}) or roll (higher: the sum, lower: 0)?").format(score=keep)
    climb = climb_steps(race.first_die)
    return _("stop (climb {steps}) or roll (higher: climb on the sum, lower: slip 1)?").format(
        steps=climb
    )


def render_race(state: IshigakiRaceState, *, colour: bool = False) -> str:
    options = state.get_game().options
    if state.board.crumbling:
        title = _("Ishigaki Race, {players} players, crumbling wall: start 0, goal {goal}")
    else:
        title = _("Ishigaki Race, {players} players, plain wall: start 0, goal {goal}")
    lines = [
        title.format(players=options.players, goal=state.board.goal),
        *draw_wall(state, colour=colour),
    ]
    for sentence in describe_turn(state):
        lines += wrap(sentence, 80)
    return "\n".join(lines)


def render_terminal(state: State, *, colour: bool, viewer: int | None) -> str:
    """The registry's renderer: :func:`render_race` (nothing is hidden from any viewer)."""
    del viewer
    from stairgames.games.ishigaki_race.game import IshigakiRaceState

    assert isinstance(state, IshigakiRaceState)
    return render_race(state, colour=colour)
