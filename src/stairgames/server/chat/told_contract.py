"""The models of a player's channel, ``/ws/me`` (:mod:`.told`; docs/web.md, "Told
wherever you are"; the pieces: ``base/contract.py``): each message it sends, told apart by
its ``type``."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, JsonValue, TypeAdapter

from stairgames.server.base.contract import Answer
from stairgames.server.lobby.contract import SummaryResult
from stairgames.server.play.contract import SocketError, TimeControlJson


class WaitingCount(Answer):
    """``me``: how many of the player's games wait for their move (``games``: which),
    sent on connecting and whenever it changes; ``title``: the tab title's words for it
    (a text as ``stairgames.i18n.text_json`` gives it; ``None`` when none waits)."""

    type: Literal["me"]
    waiting: int
    games: list[str]
    title: JsonValue = None


class Opponent(Answer):
    """Who plays another seat: a player's ``name``, else the computer at ``level``
    (both ``None``: a seat nobody holds)."""

    name: str | None
    level: str | None


class YourTurn(Answer):
    """``your_turn``: a game now waits for the player's move; ``title`` the game's title
    (a message id), ``text`` the notification's words (a text, as ``title`` of
    :class:`WaitingCount`)."""

    type: Literal["your_turn"]
    match: str
    game: str
    title: str
    against: list[Opponent]
    text: JsonValue


class Mentioned(Answer):
    """``mention``: a chat message of ``match`` names the player (``from``: its writer's
    name, ``None`` for a seat without a player); its text stays in the chat."""

    type: Literal["mention"]
    match: str
    from_: str | None = Field(alias="from")
    text: JsonValue


class Ended(Answer):
    """``ended``: one of the player's games ended (its result as My games lists it)."""

    type: Literal["ended"]
    match: str
    game: str
    result: SummaryResult | None


class Challenged(Answer):
    """``challenge``: a player (``from``) challenged this one directly to ``game`` (its
    ``title``, a message id); ``challenge`` the id to accept or decline, ``text`` the
    notice's words (a text, as ``title`` of :class:`WaitingCount`)."""

    type: Literal["challenge"]
    challenge: str
    from_: str = Field(alias="from")
    game: str
    title: str
    rated: bool
    time_control: TimeControlJson
    text: JsonValue


class Declined(Answer):
    """``declined``: the player (``by``) a challenge of this one named declined it."""

    type: Literal["declined"]
    challenge: str
    by: str
    game: str
    text: JsonValue


MeMessage = Annotated[
    WaitingCount | YourTurn | Mentioned | Ended | Challenged | Declined | SocketError,
    Field(discriminator="type"),
]
"""Every message ``/ws/me`` sends (``error``: the socket refused, a browser that is no
player, before it closes)."""

ME_MESSAGES: TypeAdapter[MeMessage] = TypeAdapter(MeMessage)
