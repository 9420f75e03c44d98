"""The lobby's models: challenges, the live games, a player's games and profile, and
``/ws/lobby``'s message (docs/web.md, "The contract"; the pieces: ``base/contract.py``)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, JsonValue

from stairgames.i18n import N_
from stairgames.server.base.contract import Answer, Body, JsonObject, Refusals
from stairgames.server.people.contract import Rating
from stairgames.server.play.contract import (
    A_GAME_AND_OPTIONS,
    A_LIST_OF_SEATS,
    MatchCreated,
    SeatToken,
    TimeControlJson,
)


class NewChallenge(Body):
    """``POST /api/challenges``: a match of ``game`` with its ``options``, the kind of
    each seat (one ``human``, the creator's; at least one ``online``), ``rated`` or not,
    its ``time_control``; ``to``: the name of the one player it is for (a direct
    challenge: then one ``online`` seat), ``None`` for anyone in the lobby."""

    refusals: ClassVar[Refusals] = {
        "game": A_GAME_AND_OPTIONS,
        "options": A_GAME_AND_OPTIONS,
        "seats": A_LIST_OF_SEATS,
        "rated": N_("'rated' is true or false"),
        "to": N_("'to' is a player's name"),
    }

    game: str
    options: JsonObject = Field(default_factory=dict)
    seats: list[JsonValue]
    rated: bool = False
    time_control: JsonValue = None
    to: str | None = None


class ChallengeCreated(MatchCreated):
    """``POST /api/challenges``: the match made (``challenge`` is its id too), the
    creator's seat and its token."""

    challenge: str


class ChallengeAccepted(SeatToken):
    """``POST /api/challenges/{id}/accept``: the seat taken, its token and the match."""

    challenge: str
    match: str


class Creator(Answer):
    """Who made a challenge, and their rating in its pool (``None``: not rated yet);
    ``bot``: true for a bot account (absent otherwise)."""

    name: str | None
    rating: str | None
    bot: bool | None = None


class Challenge(Answer):
    """An open challenge as the lobby shows it; ``to``, only in a direct challenge: the
    name of the player it is for (``None``: a player gone), shown to them and its
    creator alone."""

    id: str
    game: str
    options: JsonObject
    seats: int
    taken: int
    computers: int
    rated: bool
    time_control: TimeControlJson
    creator: Creator
    created: str
    to: str | None = None


class LiveGame(Answer):
    """A game from the lobby being played now: who plays each seat (``None``: nobody
    known) and, where a bot account plays, whether each seat's player is one (``bots``,
    absent otherwise)."""

    id: str
    game: str
    options: JsonObject
    rated: bool
    players: list[str | None]
    bots: list[bool] | None = None


class Challenges(Answer):
    """``GET /api/challenges``: the open challenges and the live games."""

    challenges: list[Challenge]
    live: list[LiveGame]


class LobbyMessage(Challenges):
    """What ``/ws/lobby`` sends on opening and at each change."""

    type: Literal["lobby"]


class SummaryResult(Answer):
    """How a listed game ended: its ``winners`` and the reason's message id; ``aborted``
    (present only then): aborted before a first move, or ended stale, no winner."""

    winners: list[int]
    reason_id: str | None
    aborted: bool = False


class GamePlayer(Answer):
    """One seat of a listed game: who holds it (``None``: nobody), its kind and
    computer level."""

    seat: int
    name: str | None
    kind: str
    level: str | None


class GameEntry(Answer):
    """One of a player's matches: ``seats``, the ones the player holds."""

    match: str
    game: str
    options: JsonObject
    seats: list[int]
    players: list[GamePlayer]
    your_turn: bool
    over: bool
    result: SummaryResult | None
    created: str


class MyGames(Answer):
    """``GET /api/my/games``: one page of a player's matches (their turn first; with
    ``?hidden=true``, of those they hid), how many wait for them, and how many they
    hid."""

    games: list[GameEntry]
    page: int
    pages: int
    total: int
    waiting: int
    hidden: int


class MySeats(Answer):
    """``GET /api/my/seats/{id}``: the seats of the match the caller's player holds."""

    match: str
    seats: list[int]


class Profile(Answer):
    """``GET /api/players/{name}``: a player (``bot``: a bot account), their ``ratings``
    by pool and last games."""

    id: str | None
    name: str | None
    account: bool
    bot: bool
    created: str
    ratings: dict[str, Rating]
    games: list[GameEntry]
