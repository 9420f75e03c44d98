"""The chat's models: what a seat or a spectator writes and reads, and the socket's
``chat`` message (docs/web.md, "Chat"; the pieces: ``base/contract.py``)."""

from __future__ import annotations

from typing import Literal

from pydantic import JsonValue

from stairgames.server.base.contract import Answer, Body


class ChatBody(Body):
    """``POST /api/matches/{id}/chat``: either a ``text`` or a ``phrase`` (one of the
    listing's ``phrases``), checked by the chat (``read_message``): its refusals."""

    text: JsonValue = None
    phrase: JsonValue = None


class ChatMessageJson(Answer):
    """One message, as readers get it: its ``room`` (``players`` or ``spectators``),
    the writer's ``seat`` and ``name``, its ``text`` or ``phrase``, the ``move`` it was
    written at and when (``at``, ISO 8601)."""

    id: int
    room: str
    seat: int | None
    name: str | None
    text: str | None
    phrase: str | None
    move: int
    at: str


class ChatListing(Answer):
    """``GET /api/matches/{id}/chat``: the caller's ``room`` and ``seat``, the ``rooms``
    they read, the ``phrases`` they may send, the longest text and the messages."""

    match: str
    room: str
    seat: int | None
    rooms: list[str]
    phrases: dict[str, str]
    max_length: int
    messages: list[ChatMessageJson]


class ChatSent(Answer):
    """The match socket's ``chat`` message: a new message of a room the seat reads."""

    type: Literal["chat"]
    match: str
    message: ChatMessageJson
