"""Refused requests of the match server, and errors as the client reads them.

A :class:`ServerError` carries the HTTP status it answers with; :func:`error_json`
turns any error (a refusal, or a rules engine error such as an illegal move) into the
``{"id", "message", "args"}`` the browser translates.
"""

from __future__ import annotations

from typing import Any

from stairgames.core.errors import StairgamesError
from stairgames.i18n import arguments_json, unicode_only


class ServerError(StairgamesError):
    """A refused request: ``status`` is the HTTP status it answers with; the message id
    and arguments go to the client, which shows them in its language."""

    def __init__(self, status: int, message_id: str, **arguments: Any) -> None:
        super().__init__(message_id=message_id, arguments=arguments)
        self.status = status


def error_json(error: BaseException) -> dict[str, Any]:
    """``{"id", "message", "args"}`` of an error: ``message`` is the English for
    programmers, ``args`` the arguments as :func:`stairgames.i18n.text_json` gives them, so
    that the client translates nested texts (a colour, a list of names) too."""
    message_id = getattr(error, "message_id", None) or str(error)
    arguments = getattr(error, "arguments", {}) or {}
    return {
        "id": unicode_only(message_id),
        "message": unicode_only(str(error)),
        "args": arguments_json(arguments),
    }


__all__ = ["ServerError", "error_json"]
