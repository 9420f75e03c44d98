"""API tokens and bot accounts (issue 53; docs/bots.md, "Tokens").

An account (a player with a password) makes **API tokens** for programs that act as it:
``POST /api/account/tokens`` answers the token once (``sgp_`` and 32 random bytes,
URL-safe), and only its SHA-256 is kept (``api_tokens``), with its **scopes**
(:data:`SCOPES`: ``bot:play``, ``challenge:write``, ``read``), a description, when it was
made and last used; ``GET`` lists them (never a secret), ``DELETE .../{id}`` revokes one
for good. A program sends it as ``Authorization: Bearer <token>``; a route a token may
call reads its player with :func:`token_player` (the scope it needs checked), or
:func:`token_or_cookie_player` where a browser's cookie does as well. A token never
makes a browser a player: pages and the cookie's routes never read it.

A player whose token has ``bot:play`` and who has held no seat of any game may become a
**bot account** (``POST /api/bot/account/upgrade``; ``bot_players``), for good: the site
marks it BOT wherever it names it (:meth:`TokenStore.bots_among`).

Each token's requests spend an allowance of their own (:data:`TOKEN_REQUESTS`, kind
``token``, client ``token:<id>``), beside the limits of the routes they reach (those
count as its player's).
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import secrets
import uuid
import weakref
from collections.abc import Callable, Iterable
from typing import Any, Final, Protocol, TypeVar

from fastapi import FastAPI, Request
from sqlalchemy import DateTime, ForeignKey, String, func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Mapped, mapped_column
from starlette.requests import HTTPConnection

from stairgames.i18n import N_
from stairgames.server.base.contract import Ok, answers
from stairgames.server.base.errors import ServerError
from stairgames.server.base.limits import ClientRates, Rate, shared_allowances
from stairgames.server.base.settings import Settings
from stairgames.server.base.store import Base, Repository, SeatPlayerRow, off_loop
from stairgames.server.people.players import (
    ME_READER,
    Player,
    current_player_async,
    players_of,
    required_player_async,
)
from stairgames.server.people.tokens_contract import (
    BotAnswer,
    TokenBody,
    TokenList,
    TokenMade,
)

TOKENS_ROUTE: Final = "/api/account/tokens"
UPGRADE_ROUTE: Final = "/api/bot/account/upgrade"
PREFIX: Final = "sgp_"
"""How every token begins (so that a leaked one is recognised as ours)."""
SCOPES: Final = ("bot:play", "challenge:write", "read")
"""What a token may be allowed: play as a bot, open and answer challenges, read."""
BOT_PLAY: Final = "bot:play"
READ: Final = "read"
DESCRIPTION_LENGTH: Final = 100
"""The most characters a token's description may have."""
TOKENS_KEPT: Final = 20
"""The most tokens (not revoked) one player may hold."""
TOKEN_REQUESTS: Final = Rate(per_minute=300, burst=100)
"""The requests one token may make: a hundred at once, then five a second."""
USE_NOTED_SECONDS: Final = 60.0
"""``last_used_at`` is written at most this often a token."""
RATE_KIND: Final = "token"


class TokenRow(Base):
    """An API token of ``player_id``: the SHA-256 of its secret, never the secret."""

    __tablename__ = "api_tokens"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), index=True
    )
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True)
    scopes: Mapped[str] = mapped_column(String(200))
    description: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))
    last_used_at: Mapped[datetime.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )
    revoked_at: Mapped[datetime.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )


class BotPlayerRow(Base):
    """A player who became a bot account, and since when (for good)."""

    __tablename__ = "bot_players"
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    since: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))


@dataclasses.dataclass(frozen=True)
class Token:
    """A token as its owner's list shows it (no secret)."""

    id: str
    player_id: str
    scopes: tuple[str, ...]
    description: str
    created_at: datetime.datetime
    last_used_at: datetime.datetime | None

    def json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "scopes": list(self.scopes),
            "description": self.description,
            "created": self.created_at.isoformat(),
            "last_used": None if self.last_used_at is None else self.last_used_at.isoformat(),
        }


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def _aware(moment: datetime.datetime) -> datetime.datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=datetime.UTC)


def secret_hash(secret: str) -> str:
    """What is kept of a token's secret: its SHA-256, in hex."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def _token(row: TokenRow) -> Token:
    return Token(
        row.id,
        row.player_id,
        tuple(scope for scope in row.scopes.split(",") if scope),
        row.description,
        _aware(row.created_at),
        None if row.last_used_at is None else _aware(row.last_used_at),
    )


def token_missing() -> ServerError:
    return ServerError(401, N_("an API token is needed (Authorization: Bearer <token>)"))


def token_invalid() -> ServerError:
    return ServerError(401, N_("this API token is unknown or revoked"))


def token_scope(scope: str) -> ServerError:
    return ServerError(
        403, N_("this API token does not allow this (it needs {scope})"), scope=scope
    )


def _bad_scopes() -> ServerError:
    return ServerError(400, N_("a token's scopes are a list of {scopes}"), scopes=", ".join(SCOPES))


def _bad_description() -> ServerError:
    return ServerError(
        400, N_("a token's description is 1 to {max} characters"), max=DESCRIPTION_LENGTH
    )


def clean_scopes(scopes: object) -> tuple[str, ...]:
    """``scopes`` without repeats, in :data:`SCOPES`' order, if they are some of them.

    :raises ServerError: 400, not a list of known scopes, or empty.
    """
    if not isinstance(scopes, list) or not scopes:
        raise _bad_scopes()
    if any(not isinstance(scope, str) or scope not in SCOPES for scope in scopes):
        raise _bad_scopes()
    return tuple(scope for scope in SCOPES if scope in scopes)


def clean_description(text: object) -> str:
    """``text`` trimmed, if it may describe a token.

    :raises ServerError: 400.
    """
    said = text.strip() if isinstance(text, str) else ""
    if not said or len(said) > DESCRIPTION_LENGTH:
        raise _bad_description()
    return said


class TokenStore(Repository):
    """The ``api_tokens`` and ``bot_players`` tables; its methods block (a database
    thread's work). ``now`` says the moment (tests give a clock); :attr:`rates` are the
    tokens' allowances (:data:`TOKEN_REQUESTS`)."""

    def __init__(
        self,
        engine: Engine,
        now: Callable[[], datetime.datetime] = _now,
        rates: ClientRates | None = None,
    ) -> None:
        super().__init__(engine)
        self.now = now
        self.rates = rates or ClientRates({RATE_KIND: TOKEN_REQUESTS})
        self._bots: set[str] = set()
        """Bot accounts seen (a player stays one for good, so they are never read again)."""

    def create(self, player_id: str, description: str, scopes: Iterable[str]) -> tuple[Token, str]:
        """A new token of ``player_id`` and its secret (kept nowhere: only its hash).

        :raises ServerError: 409, the player holds :data:`TOKENS_KEPT` already.
        """
        secret = PREFIX + secrets.token_urlsafe(32)
        with self._session() as session:
            held = session.scalar(
                select(func.count())
                .select_from(TokenRow)
                .where(TokenRow.player_id == player_id, TokenRow.revoked_at.is_(None))
            )
            if (held or 0) >= TOKENS_KEPT:
                raise ServerError(
                    409,
                    N_("at most {max} tokens are kept at once; revoke one first"),
                    max=TOKENS_KEPT,
                )
            row = TokenRow(
                id=uuid.uuid4().hex,
                player_id=player_id,
                secret_hash=secret_hash(secret),
                scopes=",".join(scopes),
                description=description,
                created_at=self.now(),
                last_used_at=None,
                revoked_at=None,
            )
            session.add(row)
            session.flush()
            return _token(row), secret

    def tokens_of(self, player_id: str) -> list[Token]:
        """The tokens of ``player_id`` not revoked, the newest first."""
        with self._session() as session:
            rows = session.scalars(
                select(TokenRow)
                .where(TokenRow.player_id == player_id, TokenRow.revoked_at.is_(None))
                .order_by(TokenRow.created_at.desc(), TokenRow.id)
            )
            return [_token(row) for row in rows]

    def revoke(self, player_id: str, token_id: str) -> None:
        """Revokes the token ``token_id`` of ``player_id`` for good.

        :raises ServerError: 404, they hold no such token (or it is revoked).
        """
        with self._session() as session:
            row = session.get(TokenRow, token_id[:32])
            if row is None or row.player_id != player_id or row.revoked_at is not None:
                raise ServerError(404, N_("no such token"))
            row.revoked_at = self.now()

    def check(self, secret: str, scope: str) -> Token:
        """The token whose secret is ``secret``, if it is not revoked and has ``scope``;
        its use is noted (at most once a :data:`USE_NOTED_SECONDS`) and its allowance
        spent.

        :raises ServerError: 401 ``token_invalid``; 403 ``token_scope``; 429, its
            allowance is spent.
        """
        if not secret.startswith(PREFIX) or len(secret) > 200:
            raise token_invalid()
        with self._session() as session:
            row = session.scalars(
                select(TokenRow).where(TokenRow.secret_hash == secret_hash(secret))
            ).first()
            if row is None or row.revoked_at is not None:
                raise token_invalid()
            token = _token(row)
            if scope not in token.scopes:
                raise token_scope(scope)
            if self.rates.take(RATE_KIND, f"token:{token.id}") > 0:
                raise ServerError(429, N_("too many requests; wait a moment"))
            now = self.now()
            last = token.last_used_at
            if last is None or (now - last).total_seconds() >= USE_NOTED_SECONDS:
                row.last_used_at = now
            return dataclasses.replace(token, last_used_at=row.last_used_at)

    def owner(self, secret: str) -> str | None:
        """The player of the token whose secret is ``secret``, if it is not revoked (no
        scope checked, nothing spent: whose allowances a request spends)."""
        if not secret.startswith(PREFIX) or len(secret) > 200:
            return None
        with self._session() as session:
            return session.scalar(
                select(TokenRow.player_id).where(
                    TokenRow.secret_hash == secret_hash(secret), TokenRow.revoked_at.is_(None)
                )
            )

    def has_played(self, player_id: str) -> bool:
        """Whether ``player_id`` holds (or held) a seat of any match."""
        with self._session() as session:
            found = session.scalar(
                select(SeatPlayerRow.match_id).where(SeatPlayerRow.player_id == player_id).limit(1)
            )
            return found is not None

    def make_bot(self, player_id: str) -> None:
        """``player_id`` becomes a bot account, for good (again: nothing changes).

        :raises ServerError: 409 ``bot_has_played``, they have held a seat as a person.
        """
        with self._session() as session:
            if session.get(BotPlayerRow, player_id) is not None:
                return
            played = session.scalar(
                select(SeatPlayerRow.match_id).where(SeatPlayerRow.player_id == player_id).limit(1)
            )
            if played is not None:
                raise ServerError(
                    409, N_("a player who has played a game as a person cannot become a bot")
                )
            session.add(BotPlayerRow(player_id=player_id, since=self.now()))
        self._bots.add(player_id)

    def bot_seats(self, match_id: str) -> frozenset[int]:
        """The seats of the match a bot account holds (one read)."""
        with self._session() as session:
            found = session.scalars(
                select(SeatPlayerRow.seat)
                .join(BotPlayerRow, BotPlayerRow.player_id == SeatPlayerRow.player_id)
                .where(SeatPlayerRow.match_id == match_id)
            )
            return frozenset(found)

    def is_bot(self, player_id: str) -> bool:
        """Whether ``player_id`` is a bot account."""
        return player_id in self.bots_among([player_id])

    def bots_among(self, player_ids: Iterable[str | None]) -> frozenset[str]:
        """Those of ``player_ids`` that are bot accounts (one read, for those not yet
        known to be)."""
        wanted = {pid for pid in player_ids if pid}
        unknown = wanted - self._bots
        if unknown:
            with self._session() as session:
                found = session.scalars(
                    select(BotPlayerRow.player_id).where(
                        BotPlayerRow.player_id.in_(sorted(unknown))
                    )
                )
                self._bots.update(found)
        return frozenset(wanted & self._bots)


def bot_mark(store: TokenStore, player_id: str | None) -> dict[str, bool]:
    """What a player's JSON adds for a bot account (``{"bot": true}``), else nothing (a
    database read for a player not yet known to be one)."""
    return {"bot": True} if player_id and store.is_bot(player_id) else {}


class _Match(Protocol):
    @property
    def id(self) -> str: ...


_M = TypeVar("_M", bound=_Match)


def marking_bots(
    fields: Callable[[_M], dict[int, dict[str, Any]]],
    bot_seats: Callable[[_M], frozenset[int]],
) -> Callable[[_M], dict[int, dict[str, Any]]]:
    """``fields`` (what each seat of a match adds to its views: the lobby's ratings),
    with ``"bot": true`` added to the seats a bot account holds (``bot_seats``).
    Database reads: the hub calls it in a database thread."""

    def marked(match: _M) -> dict[int, dict[str, Any]]:
        found = dict(fields(match))
        for seat in bot_seats(match):
            found[seat] = {**found.get(seat, {}), "bot": True}
        return found

    return marked


_STORES: weakref.WeakKeyDictionary[Engine, TokenStore] = weakref.WeakKeyDictionary()


def tokens_on(engine: Engine) -> TokenStore:
    """The tokens of the database of ``engine`` (one store a database)."""
    store = _STORES.get(engine)
    if store is None:
        store = _STORES[engine] = TokenStore(engine)
    return store


def start_tokens(engine: Engine, settings: Settings) -> TokenStore:
    """The app's tokens, on its clocks, their allowances shared by the server processes
    of one PostgreSQL database (``base/limits.py``)."""
    store = tokens_on(engine)
    wall = settings.wall_clock
    store.now = lambda: datetime.datetime.fromtimestamp(wall(), datetime.UTC)
    store.rates = ClientRates({RATE_KIND: TOKEN_REQUESTS}, clock=settings.clock)
    store.rates.shared = shared_allowances(engine, settings.shared())
    return store


def tokens_of(request: HTTPConnection) -> TokenStore:
    """The tokens of the request's app (those of its players' database)."""
    return tokens_on(players_of(request).engine)


def has_bearer(request: HTTPConnection) -> bool:
    """Whether the request sends ``Authorization: Bearer`` (another kind, such as the
    Basic of a proxy in front of a private server, leaves it to its cookie)."""
    header = request.headers.get("authorization", "")
    return header.strip()[:7].lower() == "bearer "


def bearer(request: HTTPConnection) -> str | None:
    """The token of the request's ``Authorization: Bearer`` header, if it has one.

    :raises ServerError: 401 ``token_missing``, an ``Authorization`` header of
        another kind.
    """
    header = request.headers.get("authorization")
    if header is None:
        return None
    kind, _, value = header.strip().partition(" ")
    if kind.lower() != "bearer" or not value.strip():
        raise token_missing()
    return value.strip()


async def token_player(request: HTTPConnection, scope: str) -> Player:
    """The player of the request's token (``Authorization: Bearer``), which must allow
    ``scope`` and not be revoked; checked in a database thread.

    :raises ServerError: 401 ``token_missing`` / ``token_invalid``, 403
        ``token_scope``, 429 its allowance spent.
    """
    secret = bearer(request)
    if secret is None:
        raise token_missing()
    token = await off_loop(tokens_of(request).check, secret, scope)
    player = await off_loop(players_of(request).by_id, token.player_id)
    if player is None:  # its player is gone (the token went with it)
        raise token_invalid()
    return player


async def token_owner(request: HTTPConnection) -> str | None:
    """The id of the player of the request's bearer token, if it names one (the routes'
    limits count a token's requests as its player's; ``None`` without a bearer token);
    read in a database thread."""
    secret = bearer(request) if has_bearer(request) else None
    if secret is None:
        return None
    return await off_loop(tokens_of(request).owner, secret)


async def token_or_cookie_player(request: HTTPConnection, scope: str) -> Player:
    """The request's player: its token's (:func:`token_player`) when it sends one, else
    its cookie's.

    :raises ServerError: as :func:`token_player`; 401, neither names a player.
    """
    if has_bearer(request):
        return await token_player(request, scope)
    return await required_player_async(request)


async def reading_player(request: HTTPConnection) -> Player | None:
    """The player of a request that reads their own data (``GET /api/me``, My games, a
    profile, a match's view): its token's when it sends one, which must allow ``read``
    or ``bot:play``; else its cookie's (``None``: none).

    :raises ServerError: as :func:`token_player` (403 ``token_scope`` names ``read``).
    """
    if not has_bearer(request):
        return await current_player_async(request)
    try:
        return await token_player(request, BOT_PLAY)
    except ServerError as exc:
        if exc.status != 403:
            raise
    return await token_player(request, READ)


async def required_reading_player(request: HTTPConnection) -> Player:
    """:func:`reading_player`, who must be one.

    :raises ServerError: as :func:`reading_player`; 401, neither names a player.
    """
    player = await reading_player(request)
    if player is None:
        raise ServerError(401, N_("choose a name first"))
    return player


def _needs_account() -> ServerError:
    return ServerError(403, N_("only an account (a player with a password) may make API tokens"))


TokenBody.refusals = {"description": _bad_description, "scopes": _bad_scopes}
# (the checks live here, and people/tokens_contract.py may not import this module back)


def add_token_routes(app: FastAPI) -> None:
    """``GET`` and ``POST /api/account/tokens``, ``DELETE /api/account/tokens/{id}``
    (with the cookie: a browser's account) and ``POST /api/bot/account/upgrade`` (with
    a ``bot:play`` token); docs/bots.md, their models ``people/tokens_contract.py``.
    ``GET /api/me`` reads a token's player from now on (:func:`reading_player`)."""
    ME_READER.keep(app, reading_player)

    async def _account(request: Request) -> Player:
        if has_bearer(request):
            raise ServerError(403, N_("tokens are made and revoked on the site, not with a token"))
        player = await required_player_async(request)
        if not player.account:
            raise _needs_account()
        return player

    @app.get(TOKENS_ROUTE, **answers(TokenList))
    async def my_tokens(request: Request) -> dict[str, Any]:
        me = await _account(request)
        tokens = await off_loop(tokens_of(request).tokens_of, me.id)
        return {"tokens": [token.json() for token in tokens]}

    @app.post(TOKENS_ROUTE, **answers(TokenMade))
    async def make_token(body: TokenBody, request: Request) -> dict[str, Any]:
        description = clean_description(body.description)
        scopes = clean_scopes(body.scopes)
        me = await _account(request)
        token, secret = await off_loop(tokens_of(request).create, me.id, description, scopes)
        shown = token.json()
        del shown["last_used"]
        return {**shown, "token": secret}

    @app.delete(TOKENS_ROUTE + "/{token_id}", **answers(Ok))
    async def revoke_token(token_id: str, request: Request) -> dict[str, Any]:
        me = await _account(request)
        await off_loop(tokens_of(request).revoke, me.id, token_id)
        return {"ok": True}

    @app.post(UPGRADE_ROUTE, **answers(BotAnswer))
    async def upgrade(request: Request) -> dict[str, Any]:
        me = await token_player(request, BOT_PLAY)
        await off_loop(tokens_of(request).make_bot, me.id)
        return {"id": me.id, "name": me.name, "bot": True}


__all__ = [
    "BOT_PLAY",
    "PREFIX",
    "READ",
    "SCOPES",
    "TOKENS_ROUTE",
    "TOKEN_REQUESTS",
    "UPGRADE_ROUTE",
    "BotPlayerRow",
    "Token",
    "TokenStore",
    "add_token_routes",
    "bearer",
    "bot_mark",
    "has_bearer",
    "marking_bots",
    "reading_player",
    "required_reading_player",
    "start_tokens",
    "token_or_cookie_player",
    "token_owner",
    "token_player",
    "tokens_of",
    "tokens_on",
]
