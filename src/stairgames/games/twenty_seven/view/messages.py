"""The message ids 27's ``board.js`` translates, for the browser's catalog.

``make messages`` extracts Python sources only, so the ids the game's ``board.js`` looks
up (``t("...")``) are listed here, marked with ``N_``, and the plurals it says
(``ui.ngettext(...)``) with ``deferred.ngettext``; the registration names this tuple
(``GameSpec.browser_messages``) and :mod:`stairgames.web.messages` gathers every game's.
"""

from __future__ import annotations

from typing import Final

from stairgames.i18n import N_, deferred

BROWSER_MESSAGES: Final = (
    N_("27 line"),
    N_("Move {count} of field {field}: choose where"),
    N_("black"),
    N_("grey"),
    N_("red"),
    N_("white"),
    deferred.ngettext("{count} disc, {colour} on top", "{count} discs, {colour} on top"),
    N_("Score so far: white {white}, black {black}"),
    N_("Field {field} cannot move: {reason}"),
    N_("Final score: white {white}, black {black}"),
    N_("Stacks (how far a move goes): white {white}, black {black}"),
)
"""The message ids of 27's ``board.js``, and its plurals (said with ``ui.ngettext``)."""
