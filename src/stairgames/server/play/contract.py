"""The match API's and the match WebSocket's models (docs/web.md, "The contract";
the pieces they are built of: ``base/contract.py``)."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field, JsonValue

from stairgames.i18n import N_
from stairgames.server.base.contract import Answer, Body, JsonObject

A_GAME_AND_OPTIONS = N_("a match needs a game name and an object of options")
A_LIST_OF_SEATS = N_("a match needs a list of seats")


class NewMatch(Body):
    """``POST /api/matches``: a match of ``game`` with its ``options``, one seat kind
    for each of its ``seats`` (``human``, ``online``, a computer's level...; the game
    checks them), a ``time_control`` and a start ``position`` (both optional, checked
    by the server)."""

    refusals: ClassVar[dict[str, str]] = {
        "game": A_GAME_AND_OPTIONS,
        "options": A_GAME_AND_OPTIONS,
        "seats": A_LIST_OF_SEATS,
    }

    game: str
    options: JsonObject = Field(default_factory=dict)
    seats: list[JsonValue]
    time_control: JsonValue = None
    position: JsonValue = None


class SeatToken(Answer):
    """A seat made for the caller, and the token that plays it."""

    seat: int
    token: str


class MatchCreated(Answer):
    """``POST /api/matches``: the new match's id, the seats made for the caller and
    the page that invites others to it."""

    match: str
    seats: list[SeatToken]
    invite: str
