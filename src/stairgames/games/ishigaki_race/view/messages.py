"""The message ids Ishigaki Race's ``board.js`` translates, for the browser's catalog.

``make messages`` extracts Python sources only, so the ids the game's ``board.js`` looks
up (``t("...")``) are listed here, marked with ``N_``; the registration names this tuple
(``GameSpec.browser_messages``) and :mod:`stairgames.web.messages` gathers every game's.
"""

from __future__ import annotations

from typing import Final

from stairgames.i18n import N_

BROWSER_MESSAGES: Final = (
    N_("Blue"),
    N_("Castle wall"),
    N_("GOAL"),
    N_("Goal round: {arrived} on the goal; {left} play one more turn."),
    N_("Green"),
    N_("Last roll: {name}"),
    N_("Red"),
    N_("Roll the second die"),
    N_(
        "Roll-off between {names}: the highest roll wins (one die: its value; a higher"
        " second die: the sum; a lower one: 0; doubles: the sum)."
    ),
    N_("START"),
    N_("Stop: climb {steps}"),
    N_("Stop: score {score}"),
    N_("The crumbling wall"),
    N_("The last turns"),
    N_("The winning chances are being worked out; they show from the next roll."),
    N_("Winning chances"),
    N_("Yellow"),
    N_("climbs"),
    N_("die {value}"),
    N_("doubles!"),
    N_("higher: climb on the sum · lower: slip 1 step · doubles: the highest fall 3"),
    N_("higher: score the sum · lower: score 0 · doubles: score the sum"),
    N_("keep the one die"),
    N_("lands on the crumbling step {step} and drops to step {to}"),
    N_("roll-off"),
    N_("second die not rolled"),
    N_("slips"),
    N_("to step {to}"),
    N_("wins {chance}"),
    N_("{name} on step {step}"),
    N_("{name} rolled {value} and decides: stop or roll the second die."),
    N_("{name} rolled {value}: stop or roll?"),
    N_("{name} rolls"),
    N_("{name} wins!"),
)
"""The message ids of Ishigaki Race's ``board.js``."""
