"""The tournaments' models (``/api/tournaments``; docs/web.md, "Tournaments"; the
pieces: ``base/contract.py``)."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field, JsonValue

from stairgames.i18n import N_
from stairgames.server.base.contract import Answer, Body, JsonObject, Refusals
from stairgames.server.play.contract import A_GAME_AND_OPTIONS

A_KIND = N_("'kind' is arena, swiss or tables")
A_START = N_("'starts_at' is a moment in ISO 8601 with its time zone, not in the past")
WHOLE_NUMBER = N_("'minutes' and 'rounds' are whole numbers")


class NewTournament(Body):
    """``POST /api/tournaments``: a tournament of ``kind`` (``arena``, ``swiss`` or
    ``tables``) of ``game`` with its ``options`` and ``time_control``, starting at
    ``starts_at`` (ISO 8601), lasting ``minutes`` (an arena) or ``rounds`` (a Swiss,
    round tables); ``rated`` or not; ``bots`` allowed or not."""

    refusals: ClassVar[Refusals] = {
        "kind": A_KIND,
        "game": A_GAME_AND_OPTIONS,
        "options": A_GAME_AND_OPTIONS,
        "starts_at": A_START,
        "minutes": WHOLE_NUMBER,
        "rounds": WHOLE_NUMBER,
        "rated": N_("'rated' is true or false"),
        "bots": N_("'bots' is true or false"),
    }

    kind: str
    game: str
    options: JsonObject = Field(default_factory=dict)
    time_control: JsonValue = None
    starts_at: str
    minutes: int | None = None
    rounds: int | None = None
    rated: bool = False
    bots: bool = False


class TournamentCreated(Answer):
    """``POST /api/tournaments``: the new tournament's ``id``."""

    id: str


class TournamentListed(Answer):
    """A tournament as ``GET /api/tournaments`` lists it: its ``kind``, ``game``,
    ``options``, ``time_control``, ``starts_at`` (ISO 8601, UTC), ``minutes`` or
    ``rounds``, ``rated``, ``bots``, its ``creator``'s name, ``status`` (``created``,
    ``started``, ``finished``), the ``round`` being played (0 before the first) and how
    many ``players`` are in it."""

    id: str
    kind: str
    game: str
    options: JsonObject
    time_control: JsonObject
    starts_at: str
    minutes: int | None
    rounds: int | None
    rated: bool
    bots: bool
    creator: str
    status: str
    round: int
    players: int


class TournamentList(Answer):
    """``GET /api/tournaments``: those not finished (soonest first), then the latest
    finished."""

    tournaments: list[TournamentListed]


class Standing(Answer):
    """A row of the standings: the player's ``id`` and ``name``, ``points``, ``streak``
    (an arena's wins in a row), ``rating`` at entry, whether they ``left``, and whether
    they are a ``bot`` account."""

    id: str
    name: str
    points: float
    streak: int
    rating: int
    left: bool
    bot: bool


class PairingJson(Answer):
    """A game of a round: its ``round``, ``match`` (``None``: a bye), the players'
    names in seat order, and its ``result`` once over (points by seat)."""

    round: int
    match: str | None
    players: list[str]
    result: list[float] | None


class TournamentDetail(TournamentListed):
    """``GET /api/tournaments/{id}``: the tournament, its ``standings`` (best first)
    and every round's ``pairings``."""

    standings: list[Standing]
    pairings: list[PairingJson]
