"""The models of API tokens and bot accounts (``/api/account/tokens``,
``/api/bot/account/upgrade``; docs/bots.md, "Tokens"; the pieces: ``base/contract.py``)."""

from __future__ import annotations

from typing import ClassVar

from stairgames.server.base.contract import Answer, Body, Refusals


class TokenBody(Body):
    """``POST /api/account/tokens``: what the token is for (``description``) and what
    it may do (``scopes``: ``bot:play``, ``challenge:write``, ``read``)."""

    refusals: ClassVar[Refusals] = {}  # set by people/tokens.py, which checks them
    description: str
    scopes: list[str]


class TokenListed(Answer):
    """A token as its owner's list shows it (never its secret): its ``id``, ``scopes``,
    ``description``, when ``created`` and ``last_used`` (ISO 8601 moments, UTC)."""

    id: str
    scopes: list[str]
    description: str
    created: str
    last_used: str | None


class TokenMade(Answer):
    """``POST /api/account/tokens``: the new token's ``id`` and its secret ``token``,
    shown this once (only its hash is kept), its ``scopes``, ``description`` and when
    ``created``."""

    id: str
    token: str
    scopes: list[str]
    description: str
    created: str


class TokenList(Answer):
    """``GET /api/account/tokens``: the asker's tokens not revoked, the newest first."""

    tokens: list[TokenListed]


class BotAnswer(Answer):
    """``POST /api/bot/account/upgrade``: the player, now a bot account."""

    id: str
    name: str
    bot: bool
