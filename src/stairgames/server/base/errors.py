"""Refused requests of the match server, and errors as the client reads them.

A :class:`ServerError` carries the HTTP status it answers with; :func:`error_json`
turns any error (a refusal, or a rules engine error such as an illegal move) into the
``{"code", "id", "message", "args"}`` the browser reads: it matches the stable ``code``
(:mod:`stairgames.server.base.error_codes`) and translates the message ``id``.
"""

from __future__ import annotations

from typing import Any

from stairgames.core.errors import StairgamesError
from stairgames.i18n import arguments_json, unicode_only
from stairgames.server.base.error_codes import code_of


class ServerError(StairgamesError):
    """A refused request: ``status`` is the HTTP status it answers with; the message id
    and arguments go to the client, which shows them in its language."""

    def __init__(self, status: int, message_id: str, **arguments: Any) -> None:
        super().__init__(message_id=message_id, arguments=arguments)
        self.status = status

    @property
    def code(self) -> str:
        """The stable machine code clients match (see :mod:`.error_codes`)."""
        return code_of(self)


def error_json(error: BaseException) -> dict[str, Any]:
    """``{"code", "id", "message", "args"}`` of an error: ``code`` is the machine code
    clients match, ``id`` the message id they translate, ``message`` the English for
    programmers, ``args`` the arguments as :func:`stairgames.i18n.text_json` gives them, so
    that the client translates nested texts (a colour, a list of names) too."""
    message_id = getattr(error, "message_id", None) or str(error)
    arguments = getattr(error, "arguments", {}) or {}
    return {
        "code": code_of(error),
        "id": unicode_only(message_id),
        "message": unicode_only(str(error)),
        "args": arguments_json(arguments),
    }


__all__ = ["ServerError", "error_json"]
