"""The message ids tic-tac-toe's ``board.js`` translates (a test game: they are in no
catalog, so the browser shows them in English)."""

from __future__ import annotations

from typing import Final

BROWSER_MESSAGES: Final = ("Tic-tac-toe board",)
"""The message ids of tic-tac-toe's ``board.js``."""
