"""Players: a display name, an identity kept in a cookie, and an optional account.

A browser becomes a player on first use (``POST /api/me``): the server makes a random
secret, keeps only its SHA-256 (``player_sessions``) and gives the secret to the browser
in the :data:`COOKIE` cookie (HttpOnly, SameSite=Lax, Secure over HTTPS). Without a name
the player is "Anonymous N". An account adds a password (Argon2id), so that the same
player can log in from other browsers; nothing else needs one.

Every request that changes something must be sent as JSON (the server refuses other
content types with 415), which a page of another site cannot do without the browser
asking first: that, with SameSite=Lax, keeps other sites from acting with the cookie.

Names (:func:`clean_name`): 2 to 24 characters once trimmed, no control or format
characters, unique ignoring case and width (:func:`name_key`); renaming keeps the player,
and so their games.
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import re
import secrets
import time
import unicodedata
from collections.abc import Callable
from typing import Any, Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from starlette.requests import HTTPConnection

from stairgames.i18n import N_
from stairgames.server.limits import ClientRates, Clock, Rate
from stairgames.server.matches import ServerError
from stairgames.server.store import PlayerRow, PlayerSessionRow, Repository

COOKIE: Final = "sg_player"
"""The cookie holding a browser's player secret."""
COOKIE_DAYS: Final = 400
"""How long a browser keeps its player (the longest browsers allow)."""
NAME_LENGTH: Final = (2, 24)
PASSWORD_LENGTH: Final = (8, 128)
ANONYMOUS: Final = "Anonymous"
_ANONYMOUS_NAME = re.compile(r"anonymous\s*\d*", re.IGNORECASE)
_REFUSED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Control, format (bidirectional overrides, zero-width), surrogate, private-use and
unassigned characters, and line and paragraph separators: none may stand in a name."""
LOGINS_PER_NAME: Final = Rate(per_minute=1, burst=10)
"""Login attempts for one name, from anywhere (beside each address's own allowance,
:data:`stairgames.server.limits.LOGINS_RATE`): ten at once, then one a minute."""


@dataclasses.dataclass(frozen=True)
class Player:
    id: str
    name: str
    account: bool
    created_at: datetime.datetime

    def json(self) -> dict[str, Any]:
        """What ``GET /api/me`` answers."""
        return {"id": self.id, "name": self.name, "account": self.account}


NO_PLAYER: Final = {"id": None, "name": None, "account": False}
"""``GET /api/me`` of a browser that is no player yet."""


def name_key(name: str) -> str:
    """The form two names are compared in: NFKC, case-folded (``Ｋａｔｏ`` is ``kato``)."""
    return unicodedata.normalize("NFKC", name).casefold()


def clean_name(text: object) -> str:
    """``text`` trimmed, if it may be a player's name.

    :raises ServerError: 400, saying what is wrong with it.
    """
    if not isinstance(text, str):
        raise ServerError(400, N_("a name must be text"))
    name = unicodedata.normalize("NFC", text.strip())
    shortest, longest = NAME_LENGTH
    if not shortest <= len(name) <= longest:
        raise ServerError(
            400, N_("a name has {min} to {max} characters"), min=shortest, max=longest
        )
    if any(unicodedata.category(char) in _REFUSED_CATEGORIES for char in name):
        raise ServerError(400, N_("a name may not hold control or invisible characters"))
    if _ANONYMOUS_NAME.fullmatch(name_key(name)):
        raise ServerError(400, N_("the names “Anonymous N” are given by the server"))
    return name


def clean_password(text: object) -> str:
    """``text``, if it may be a password (8 to 128 characters, any of them).

    :raises ServerError: 400.
    """
    shortest, longest = PASSWORD_LENGTH
    if not isinstance(text, str) or not shortest <= len(text) <= longest:
        raise ServerError(
            400, N_("a password has {min} to {max} characters"), min=shortest, max=longest
        )
    return text


def _secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def _player(row: PlayerRow) -> Player:
    return Player(row.id, row.name, row.password_hash is not None, row.created_at)


def _name_taken() -> ServerError:
    return ServerError(409, N_("that name is taken"))


def _wrong_login() -> ServerError:
    # the same answer whether the name exists or not
    return ServerError(401, N_("wrong name or password"))


class PlayerStore(Repository):
    """Players and their sessions in the database (tables of :mod:`.store`)."""

    def __init__(
        self,
        engine: Engine,
        hasher: PasswordHasher | None = None,
        clock: Clock | None = None,
    ) -> None:
        super().__init__(engine)
        self.hasher = hasher or PasswordHasher()
        self._dummy_hash = self.hasher.hash(secrets.token_hex(8))
        self._clock = clock or time.monotonic
        self.login_rates = ClientRates({"login": LOGINS_PER_NAME}, clock=self._clock)
        """Logins per name; shared by the server processes of one PostgreSQL database
        once given its ``shared`` allowances (:func:`.limits.shared_allowances`)."""

    # ----- who is this browser ---------------------------------------------------------

    def by_secret(self, secret: str | None) -> Player | None:
        """The player whose browser holds ``secret``, if any."""
        if not secret:
            return None
        with self._session() as session:
            row = session.get(PlayerSessionRow, _secret_hash(secret))
            player = None if row is None else session.get(PlayerRow, row.player_id)
            return None if player is None else _player(player)

    def create(self, name: str | None) -> tuple[Player, str]:
        """A new player named ``name`` (already :func:`clean_name`'d), or "Anonymous N",
        and the secret of its first session.

        :raises ServerError: 409, the name is taken.
        """
        for attempt in range(20):
            chosen = name if name is not None else self._anonymous_name(attempt)
            try:
                return self._insert_player(chosen)
            except IntegrityError:
                if name is not None:
                    raise _name_taken() from None
        raise ServerError(503, N_("no name could be given; try again"))

    def by_id(self, player_id: str) -> Player | None:
        with self._session() as session:
            row = session.get(PlayerRow, player_id)
            return None if row is None else _player(row)

    def by_name(self, name: str) -> Player | None:
        """The player called ``name`` (ignoring case and width), if any."""
        with self._session() as session:
            found = session.scalars(select(PlayerRow).where(PlayerRow.name_key == name_key(name)))
            row = found.first()
            return None if row is None else _player(row)

    def _anonymous_name(self, attempt: int) -> str:
        """ "Anonymous N", N one more than the players so far (more on a later attempt,
        when another browser took that N at the same moment)."""
        with self._session() as session:
            count = session.scalar(select(func.count()).select_from(PlayerRow)) or 0
        return f"{ANONYMOUS} {count + 1 + attempt}"

    def _insert_player(self, name: str) -> tuple[Player, str]:
        row = PlayerRow(
            id=secrets.token_hex(8),
            name=name,
            name_key=name_key(name),
            password_hash=None,
            created_at=_now(),
        )
        secret = secrets.token_urlsafe(32)
        with self._session() as session:
            session.add(row)
            session.flush()
            session.add(self._session_row(row.id, secret))
        return _player(row), secret

    @staticmethod
    def _session_row(player_id: str, secret: str) -> PlayerSessionRow:
        return PlayerSessionRow(
            secret_hash=_secret_hash(secret), player_id=player_id, created_at=_now()
        )

    def rename(self, player: Player, name: str) -> Player:
        """``player`` named ``name`` (already :func:`clean_name`'d); their games stay theirs.

        :raises ServerError: 409, another player has that name.
        """
        try:
            with self._session() as session:
                row = session.get(PlayerRow, player.id)
                if row is None:
                    raise ServerError(404, N_("no such player"))
                row.name, row.name_key = name, name_key(name)
                return _player(row)
        except IntegrityError:
            raise _name_taken() from None

    # ----- accounts ----------------------------------------------------------------------

    def add_password(self, player: Player, password: str) -> Player:
        """Makes ``player`` an account with ``password``.

        :raises ServerError: 409, it has one already (change it instead).
        """
        with self._session() as session:
            row = session.get(PlayerRow, player.id)
            if row is None:
                raise ServerError(404, N_("no such player"))
            if row.password_hash is not None:
                raise ServerError(409, N_("this player has a password already"))
            row.password_hash = self.hasher.hash(password)
            return _player(row)

    def change_password(self, player: Player, old: str, new: str) -> None:
        """Replaces ``player``'s password ``old`` by ``new``.

        :raises ServerError: 401, ``old`` is not the password (or there is none).
        """
        with self._session() as session:
            row = session.get(PlayerRow, player.id)
            if row is None or not self._verifies(row.password_hash, old):
                raise ServerError(401, N_("the current password is wrong"))
            row.password_hash = self.hasher.hash(new)

    def log_in(self, name: str, password: str) -> tuple[Player, str]:
        """The player named ``name`` and a new session's secret, if ``password`` is theirs.

        :raises ServerError: 401 "wrong name or password" (whether the name exists or
            not), or 429 after too many attempts on one name.
        """
        self._spend_login_attempt(name_key(name))
        with self._session() as session:
            row = session.scalars(select(PlayerRow).where(PlayerRow.name_key == name_key(name)))
            found = row.first()
            if found is None:
                self._verifies(self._dummy_hash, password)  # as long as a real check
                raise _wrong_login()
            if not self._verifies(found.password_hash, password):
                raise _wrong_login()
            secret = secrets.token_urlsafe(32)
            session.add(self._session_row(found.id, secret))
            return _player(found), secret

    def log_out(self, secret: str) -> None:
        """Forgets the session of ``secret`` (its browser is no player any more)."""
        with self._session() as session:
            row = session.get(PlayerSessionRow, _secret_hash(secret))
            if row is not None:
                session.delete(row)

    def _verifies(self, password_hash: str | None, password: str) -> bool:
        if password_hash is None:
            self._verifies(self._dummy_hash, password)
            return False
        try:
            return self.hasher.verify(password_hash, password)
        except (VerificationError, InvalidHashError):
            return False

    def _spend_login_attempt(self, key: str) -> None:
        if self.login_rates.take("login", key) > 0:
            raise ServerError(429, N_("too many requests; wait a moment"))


# ----- the routes ----------------------------------------------------------------------

ME_ROUTE: Final = "/api/me"
LOGIN_ROUTE: Final = "/api/login"


def players_of(request: HTTPConnection) -> PlayerStore:
    store: PlayerStore = request.app.state.players
    return store


def current_player(request: HTTPConnection) -> Player | None:
    """The player of the request's cookie, if it names one."""
    return players_of(request).by_secret(request.cookies.get(COOKIE))


def required_player(request: Request) -> Player:
    """The request's player.

    :raises ServerError: 401, the browser is no player yet.
    """
    player = current_player(request)
    if player is None:
        raise ServerError(401, N_("choose a name first"))
    return player


def _with_cookie(request: Request, body: dict[str, Any], secret: str | None) -> Response:
    """``body`` as JSON, setting the player cookie to ``secret`` (``None``: clearing it)."""
    response = JSONResponse(body)
    secure = request.url.scheme == "https"
    if secret is None:
        response.delete_cookie(COOKIE, path="/", secure=secure, httponly=True, samesite="lax")
    else:
        response.set_cookie(
            COOKIE,
            secret,
            max_age=COOKIE_DAYS * 24 * 3600,
            path="/",
            secure=secure,
            httponly=True,
            samesite="lax",
        )
    return response


def add_player_routes(app: FastAPI, read_body: Callable[[Request], Any]) -> None:
    """``/api/me``, ``/api/account``, ``/api/account/password``, ``/api/login`` and
    ``/api/logout`` (see ``docs/web.md``); ``read_body`` reads a request's JSON object."""

    @app.get(ME_ROUTE)
    async def me(request: Request) -> dict[str, Any]:
        player = current_player(request)
        return dict(NO_PLAYER) if player is None else player.json()

    @app.post(ME_ROUTE)
    async def set_me(request: Request) -> Response:
        body = await read_body(request)
        name = clean_name(body["name"]) if body.get("name") is not None else None
        store, player = players_of(request), current_player(request)
        if player is None:
            created, secret = store.create(name)
            return _with_cookie(request, created.json(), secret)
        if name is not None and name != player.name:
            player = store.rename(player, name)
        return JSONResponse(player.json())

    @app.post("/api/account")
    async def add_account(request: Request) -> dict[str, Any]:
        body = await read_body(request)
        password = clean_password(body.get("password"))
        return players_of(request).add_password(required_player(request), password).json()

    @app.post("/api/account/password")
    async def change_password(request: Request) -> dict[str, Any]:
        body = await read_body(request)
        old, new = body.get("old"), clean_password(body.get("new"))
        if not isinstance(old, str):
            raise ServerError(401, N_("the current password is wrong"))
        players_of(request).change_password(required_player(request), old, new)
        return {"ok": True}

    @app.post(LOGIN_ROUTE)
    async def log_in(request: Request) -> Response:
        body = await read_body(request)
        name, password = body.get("name"), body.get("password")
        if not isinstance(name, str) or not isinstance(password, str):
            raise _wrong_login()
        player, secret = players_of(request).log_in(name.strip()[:200], password[:200])
        return _with_cookie(request, player.json(), secret)

    @app.post("/api/logout")
    async def log_out(request: Request) -> Response:
        secret = request.cookies.get(COOKIE)
        if secret:
            players_of(request).log_out(secret)
        return _with_cookie(request, dict(NO_PLAYER), None)
