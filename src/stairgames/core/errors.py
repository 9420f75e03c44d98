"""Errors raised by stairgames, all rooted in :class:`ValueError`.

Callers may catch ``ValueError`` broadly or one cause precisely. Every error
is raised before a state is touched, so a state is unchanged after one.

``str(error)`` is English, for programmers. An error players may see also carries a
``message_id`` (an English text with named ``{placeholders}``, the key of its
translations) and the ``arguments`` that fill it, so an interface can show it in the
player's language: :func:`stairgames.i18n.translate`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class StairgamesError(ValueError):
    """Base class of every error raised for bad input.

    ``StairgamesError(message)``, or ``StairgamesError(message_id=N_("... {text} ..."),
    arguments={"text": text})`` whose message is the id filled in; a message may also be
    given with an id where programmers are told more (the position, say) than players.
    """

    def __init__(
        self,
        message: str = "",
        *,
        message_id: str | None = None,
        arguments: Mapping[str, Any] | None = None,
    ) -> None:
        self.message_id = message_id
        self.arguments: dict[str, Any] = dict(arguments or {})
        if not message and message_id is not None:
            message = message_id.format(**self.arguments)
        super().__init__(message)


class IllegalMoveError(StairgamesError):
    """A move text is malformed, or the move is not legal in this state."""


class InvalidPositionError(StairgamesError):
    """A position text is malformed, or describes an impossible position."""


class InvalidOptionError(StairgamesError):
    """An unknown game, an unknown option, or a bad option value."""


class InvalidRecordError(StairgamesError):
    """A game record is malformed or does not replay."""
