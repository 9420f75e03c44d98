"""The models of the games' listing, the catalogs and the health checks, and the union
of every message the match's WebSocket sends (it carries the messages of ``play``,
``chat`` and ``analysis``: ``ops`` is the domain that sees them all). docs/web.md,
"The contract"; the pieces: ``base/contract.py``."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import ConfigDict, Field, TypeAdapter

from stairgames.server.analysis.contract import AnalysisSent
from stairgames.server.base.contract import Answer, JsonObject
from stairgames.server.chat.contract import ChatSent
from stairgames.server.play.contract import MatchView, Presence, SocketError


class MoveWordListing(Answer):
    """A move a game says in words (``core/registry.py``'s ``MoveWord``): its notation
    or pattern, its label (a message id) and how the page shows it."""

    move: str
    label: str
    button: bool
    control: bool
    note: bool
    forced: str | None = None
    told: list[str] | None = None


class GameListing(Answer):
    """One game of ``GET /api/games``: what the home page and the lobby offer of it
    (its ``options``, each with its kind, labels and help, are the registry's)."""

    model_config = ConfigDict(extra="allow")  # (the registry may tell more of a game)

    name: str
    title: str
    options: list[JsonObject]
    seat_names: list[str]
    min_players: int
    max_players: int
    levels: list[str]
    web: bool
    summary: Any = None
    preview: JsonObject | None = None
    move_words: list[MoveWordListing] = Field(default_factory=list)
    puzzles: bool = False
    puzzle_themes: dict[str, str] = Field(default_factory=dict)


class Catalog(Answer):
    """``GET /api/i18n/{lang}``: the page's messages in ``lang``, by message id."""

    lang: str
    messages: JsonObject


class Readiness(Answer):
    """``GET /readyz``: each check (``database``, ``migrations``, ``fanout``) and the
    ``failed`` ones (answered 503)."""

    ok: bool
    checks: dict[str, bool]
    failed: list[str] | None = None


MatchSocketMessage = Annotated[
    MatchView | Presence | SocketError | ChatSent | AnalysisSent,
    Field(discriminator="type"),
]
"""Every message the match's WebSocket sends, told apart by its ``type``: ``state``
(the view), ``presence``, ``error``, ``chat`` and ``analysis``."""

MATCH_SOCKET_MESSAGES: TypeAdapter[MatchSocketMessage] = TypeAdapter(MatchSocketMessage)
