"""The Bot API's models (docs/bots.md): the lines of its two streams and the bodies of
its actions (the pieces: ``base/contract.py``)."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, RootModel

from stairgames.i18n import N_
from stairgames.server.base.contract import Answer, Body, JsonObject, Refusals

AN_OFFER_KIND = N_("say what is offered: 'takeback' or 'rematch'")
AN_ACCEPT = N_("say whether the offer is accepted ('accept': true or false)")


class OfferBody(Body):
    """``POST /api/bot/game/{match}/offer``: ask the others for a ``takeback`` of the
    last move, or, the game over, a ``rematch``."""

    refusals: ClassVar[Refusals] = {"kind": AN_OFFER_KIND}

    kind: Literal["takeback", "rematch"]


class AnswerBody(Body):
    """``POST /api/bot/game/{match}/answer``: accept or refuse the others' offer of
    ``kind`` (a takeback unless told)."""

    refusals: ClassVar[Refusals] = {"kind": AN_OFFER_KIND, "accept": AN_ACCEPT}

    kind: Literal["takeback", "rematch"] = "takeback"
    accept: bool


class StartedGame(Answer):
    """A game the bot plays, as the event stream names it."""

    id: str
    game: str
    options: JsonObject
    seat: int


class FinishedGame(Answer):
    id: str


class ChallengeEvent(Answer):
    """A direct challenge to the bot: the message its channel (``/ws/me``) gets."""

    type: Literal["challenge"]
    challenge: JsonObject


class GameStartEvent(Answer):
    type: Literal["gameStart"]
    game: StartedGame


class GameFinishEvent(Answer):
    type: Literal["gameFinish"]
    game: FinishedGame


EventLine = Annotated[
    ChallengeEvent | GameStartEvent | GameFinishEvent, Field(discriminator="type")
]
"""A line of ``GET /api/stream/event`` (an empty line, now and then, keeps it open)."""


class EventStreamLine(RootModel[EventLine]):
    """:data:`EventLine` as a model (the route's declared answer)."""


class GameLine(Answer):
    """A line of ``GET /api/bot/game/stream/{match}``: ``gameFull`` first, then a
    ``gameState`` after every change; ``view`` is the bot's seat's view, as the match
    socket sends it (its ``state`` message)."""

    type: Literal["gameFull", "gameState"]
    view: JsonObject
