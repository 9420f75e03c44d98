"""The analyses' models: a finished game's analysis and its progress, the analysis
board's position, and the match socket's ``analysis`` message (docs/web.md, "The
computer's analysis"; the pieces: ``base/contract.py``)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import JsonValue

from stairgames.i18n import N_
from stairgames.server.base.contract import Answer, Body, ErrorDetail, JsonObject, Refusals
from stairgames.server.play.contract import Result

A_GAME_AND_OPTIONS = N_("a position needs a game name and an object of options")


class PositionBody(Body):
    """``POST /api/analysis/position``: a ``game`` with its ``options``, a start
    ``position`` (text; none: the game's start) and the ``moves`` played from it
    (the analysis checks both: its refusals)."""

    refusals: ClassVar[Refusals] = {"game": A_GAME_AND_OPTIONS, "options": A_GAME_AND_OPTIONS}

    game: str
    options: JsonObject | None = None
    position: JsonValue = None
    moves: JsonValue = None


class AnalysisStatus(Answer):
    """``GET``/``POST /api/matches/{id}/analysis``: ``status`` ``none`` (never asked),
    ``running`` (``done`` of ``total`` decisions), ``done`` (with the ``analysis``:
    ``stairgames.analysis``'s JSON of the game) or ``failed`` (with the ``error``)."""

    match: str
    status: str
    done: int | None = None
    total: int | None = None
    analysis: JsonObject | None = None
    error: ErrorDetail | None = None


class AnalysisSent(AnalysisStatus):
    """The match socket's ``analysis`` message: the analysis's progress or its end."""

    type: Literal["analysis"]


class ChanceOutcome(Answer):
    """One outcome of a chance node, and its probability."""

    move: str
    probability: float


class PositionAnswer(Answer):
    """``POST /api/analysis/position``: the position reached, drawn (``board``: the
    game's own ``web_view``), what may be played there and the computer's
    ``evaluation`` (``None``: over, or none in time)."""

    game: str
    title: str
    options: JsonObject
    position: str | None
    moves: list[str]
    current: str | None
    seats: list[str]
    to_act: int | None
    chance: bool
    over: bool
    result: Result | None
    legal: list[str]
    outcomes: list[ChanceOutcome]
    board: JsonObject | None
    hidden_information: bool
    evaluation: JsonObject | None
