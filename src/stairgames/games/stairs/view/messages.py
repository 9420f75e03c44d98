"""The message ids Stairs' ``board.js`` translates, for the browser's catalog.

``make messages`` extracts Python sources only, so the ids the game's ``board.js`` looks
up (``t("...")``) are listed here, marked with ``N_``; the registration names this tuple
(``GameSpec.browser_messages``) and :mod:`stairgames.web.messages` gathers every game's.
"""

from __future__ import annotations

from typing import Final

from stairgames.i18n import N_

BROWSER_MESSAGES: Final = (
    N_("Stairs board"),
    N_("dark"),
    N_("empty"),
    N_("light"),
    N_("{colour} on top, height {height}"),
    N_("{square} cannot move: {reason}"),
)
"""The message ids of Stairs' ``board.js``."""
