"""The message ids City of Stairs' ``board.js`` translates, for the browser's catalog.

``make messages`` extracts Python sources only, so the ids the game's ``board.js`` looks
up (``t("...")``) are listed here, marked with ``N_``; the registration names this tuple
(``GameSpec.browser_messages``) and :mod:`stairgames.web.messages` gathers every game's.
"""

from __future__ import annotations

from typing import Final

from stairgames.i18n import N_

BROWSER_MESSAGES: Final = (
    N_("Choose a stock card first, then a highlighted cell."),
    N_("Choose a stock card, then a highlighted cell."),
    N_("Choose where to go: the buttons on the city."),
    N_("City of Stairs board"),
    N_("Diary cards turned up: {names}"),
    N_("Interests: {names}"),
    N_("Now choose a highlighted cell."),
    N_("Seaside card {number}"),
    N_("Stock"),
    N_("Stock card {card}"),
    N_("The lighthouse, above row 4: {points} points"),
    N_("Your departure card: seaside {number}"),
    N_("bottom left: {icons}"),
    N_("bottom right: {icons}"),
    N_("empty"),
    N_("five diary cards"),
    N_("lighthouse"),
    N_("reached the lighthouse"),
    N_("stairs"),
    N_("trapped"),
    N_("{colour} may ignore ↖/↗"),
    N_("{colour} only {arrow}"),
    N_("{colour} turns around"),
    N_("{count} left"),
    N_("{name}'s departure card, face down"),
    N_("{name}'s departure card: seaside {number}"),
    N_("{points} point"),
    N_("{points} points"),
    N_("↖: up a row, then left"),
    N_("↗: up a row, then right"),
    N_("↺: turn around"),
    N_("≈: ignore the arrow and keep going"),
)
"""The message ids of City of Stairs' ``board.js``."""
