"""Players: a display name, an identity kept in a cookie, and an optional account.

A browser becomes a player on first use (``POST /api/me``): the server makes a random
secret, keeps only its SHA-256 (``player_sessions``) and gives the secret to the browser
in a cookie (HttpOnly, SameSite=Lax, :func:`_with_cookie`): :data:`COOKIE`,
``__Host-sg_player``, Secure, wherever the browser counts the page as a secure context
(served over HTTPS, or from ``localhost``, ``127.0.0.1`` or ``::1``), so that no page of
another port or subdomain of the host can set or replace it; on plain HTTP to any other
host (a server on a home network, reached by its address) a browser would drop a Secure
cookie, so there it is :data:`PLAIN_COOKIE`, ``sg_player``, without that protection.
Without a name the player is "Anonymous N". An account adds a password (Argon2id), so
that the same player can log in from other browsers; nothing else needs one.

Every request that changes something must be sent as JSON (the server refuses other
content types with 415), which a page of another site cannot do without the browser
asking first: that, with SameSite=Lax, keeps other sites from acting with the cookie.

Names (:func:`clean_name`): 2 to 24 characters once trimmed, no control or format
characters, unique ignoring case and width (:func:`name_key`); renaming keeps the player,
and so their games.

Nothing here waits on the event loop: the routes read and write the database in
:func:`stairgames.server.base.store.off_loop`'s threads and hash and check passwords in
threads of their own (:func:`hashing_off_loop`); :class:`LoopGuardedHasher` makes a hash
on the loop's thread raise in the tests.

**Logging in** is limited so that nobody can lock the owner of a name out (as lichess
limits per address and per name-and-address, and GitHub per name-and-address), three
ways beside each address's own allowance (``RequestLimits``' ``logins``):

- per name and address (:data:`LOGINS_PER_NAME_AND_ADDRESS`), every attempt: one
  address guessing one name gets ten at once, then one a minute;
- per name, from anywhere (:data:`LOGINS_PER_NAME`), spent only by the wrong passwords:
  an address that gave a wrong one for that name lately (:data:`FAILED_LOGIN_SECONDS`)
  is refused (429, its password not even checked) once the name's allowance is spent,
  but an address that has not is always heard, and its right password logs in while
  its wrong one is answered 429 (and marks the address);
- a right password forgets the address's wrong ones.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import datetime
import functools
import hashlib
import math
import re
import secrets
import threading
import time
import unicodedata
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final, ParamSpec, Protocol, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy import delete, func, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from starlette.requests import HTTPConnection

from stairgames.i18n import N_
from stairgames.server.base.contract import Ok, answers, refused_by
from stairgames.server.base.errors import ServerError, error_json
from stairgames.server.base.limits import ClientRates, Clock, Rate
from stairgames.server.base.name_skeleton import skeleton
from stairgames.server.base.state import Kept
from stairgames.server.base.store import (
    PlayerRow,
    PlayerSessionRow,
    RatingRow,
    Repository,
    allowances_off_loop,
    off_loop,
)
from stairgames.server.people.contract import (
    LoginBody,
    NameBody,
    NameHistory,
    NewPasswordBody,
    PasswordBody,
    PlayerAnswer,
)
from stairgames.server.people.names import (
    PlayerNameRow,
    refuse_unsafe,
    refuse_words,
    refused_words,
)

COOKIE: Final = "__Host-sg_player"
"""The cookie holding a browser's player secret where the page is a secure context."""
PLAIN_COOKIE: Final = "sg_player"
"""The cookie holding it on plain HTTP to a host other than this machine; the name every
browser had before :data:`COOKIE`, still read (see :func:`session_secret`)."""
LOCAL_HOSTS: Final = frozenset({"localhost", "127.0.0.1", "::1"})
"""Hosts whose plain-HTTP pages browsers count as secure contexts (they keep Secure
cookies from them)."""
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
"""Wrong passwords for one name, from anywhere: ten at once, then one a minute (beside
each address's own allowance, :data:`stairgames.server.base.limits.LOGINS_RATE`). Once spent,
only an address that gave no wrong password for the name lately is heard."""
LOGINS_PER_NAME_AND_ADDRESS: Final = Rate(per_minute=1, burst=10)
"""Login attempts for one name from one address, right or wrong: ten at once, then one
a minute."""
FAILED_LOGIN_SECONDS: Final = 900.0
"""How long an address that gave a wrong password for a name is remembered as such (it
then pays the name's allowance, :data:`LOGINS_PER_NAME`); a right one forgets it."""
FAILED_LOGINS_KEPT: Final = 10_000
"""The most (name, address) pairs remembered; the oldest go first."""
PASSWORD_CHANGES: Final = Rate(per_minute=5, burst=5)
"""Password changes (and first passwords) one player may ask for, and one address:
five at once, then five a minute."""
HASHING_THREADS: Final = 2
"""Threads that hash and check passwords (:func:`hashing_off_loop`)."""

_LOGIN_NAME = "login"
_LOGIN_HERE = "login-from"
_PASSWORD_PLAYER = "password"
_PASSWORD_ADDRESS = "password-from"
_CACHED_PLAYER = "stairgames_player"
"""The attribute of ``request.state`` :func:`current_player_async` keeps its answer in."""

_Params = ParamSpec("_Params")
_Result = TypeVar("_Result")


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
    refuse_unsafe(name)
    if _ANONYMOUS_NAME.fullmatch(name_key(name)) or _looks_anonymous(name):
        raise ServerError(400, N_("the names “Anonymous N” are given by the server"))
    refuse_words(name)
    return name


def _looks_anonymous(name: str) -> bool:
    """Whether ``name`` looks like an "Anonymous N" (``Anonymous l2``, ``Аnonymous 1``)."""
    return _anonymous_skeleton().fullmatch(skeleton(name)) is not None


@functools.cache
def _anonymous_skeleton() -> re.Pattern[str]:
    digits = "".join(re.escape(skeleton(digit)) for digit in "0123456789")
    return re.compile(rf"{re.escape(skeleton(ANONYMOUS))}\s*[{digits}]*")


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


def _aware(moment: datetime.datetime) -> datetime.datetime:
    """A stored moment with its zone (SQLite gives it back without: it was UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=datetime.UTC)


def _player(row: PlayerRow) -> Player:
    return Player(row.id, row.name, row.password_hash is not None, row.created_at)


def _name_row(player_id: str, name: str) -> PlayerNameRow:
    """``player_id``'s hold on ``name``, by its skeleton."""
    return PlayerNameRow(skeleton=skeleton(name), player_id=player_id, name=name, retired_at=None)


def _name_taken() -> ServerError:
    return ServerError(409, N_("that name is taken"))


def _wrong_login() -> ServerError:
    # the same answer whether the name exists or not
    return ServerError(401, N_("wrong name or password"))


def _wrong_password() -> ServerError:
    return ServerError(401, N_("the current password is wrong"))


class RetryLaterError(ServerError):
    """429: too many attempts; :attr:`retry_after` whole seconds until the next one may
    be heard (the routes answer it as ``Retry-After``)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(429, N_("too many requests; wait a moment"))
        self.retry_after = max(1, math.ceil(seconds))

    def response(self) -> JSONResponse:
        return JSONResponse(
            {"error": error_json(self)},
            status_code=self.status,
            headers={"Retry-After": str(self.retry_after)},
        )


# ----- hashing passwords ---------------------------------------------------------------


class Hasher(Protocol):
    """What :class:`PlayerStore` needs of a password hasher (argon2's
    :class:`~argon2.PasswordHasher`)."""

    def hash(self, password: str) -> str: ...

    def verify(self, hash: str, password: str) -> bool: ...


class LoopGuardedHasher:
    """``hasher``, refusing to hash or check a password on a thread that runs an event
    loop: there an Argon2id check (64 MiB, tenths of a second) would stop every other
    connection (``PlayerStore(..., guard_loop=True)``, the tests' servers)."""

    def __init__(self, hasher: Hasher) -> None:
        self.hasher = hasher

    def hash(self, password: str) -> str:
        _refuse_on_loop()
        return self.hasher.hash(password)

    def verify(self, hash: str, password: str) -> bool:
        _refuse_on_loop()
        return self.hasher.verify(hash, password)


def _refuse_on_loop() -> None:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return  # no loop runs in this thread
    raise RuntimeError("password hashing on the event loop")


@functools.cache
def _hashing_threads() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(HASHING_THREADS, thread_name_prefix="stairgames-hashing")


async def hashing_off_loop(
    call: Callable[_Params, _Result], *args: _Params.args, **kwargs: _Params.kwargs
) -> _Result:
    """``call(*args, **kwargs)`` (a password's hash or check) in one of the
    :data:`HASHING_THREADS` hashing threads, awaited.

    Not in :func:`~stairgames.server.base.store.off_loop`'s database threads: each check
    holds a thread for a tenth of a second or more and 64 MiB, so a few dozen at once
    (many addresses trying passwords) would hold every database thread, and every move's
    commit would wait behind them. Here they wait in a queue of their own, two at a time
    (the memory bounded too), while the database threads serve everyone else; the
    rates of :class:`PlayerStore` keep that queue short.
    """
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_hashing_threads(), functools.partial(call, *args, **kwargs))


class _FailedLogins:
    """The (name, address) pairs that gave a wrong password lately: for
    :data:`FAILED_LOGIN_SECONDS`, the newest :data:`FAILED_LOGINS_KEPT` of them (kept by
    this process only; the allowances themselves are shared)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._at: collections.OrderedDict[tuple[str, str], float] = collections.OrderedDict()

    def note(self, pair: tuple[str, str]) -> None:
        now = self.clock()
        self._at[pair] = now
        self._at.move_to_end(pair)
        while self._at:
            oldest, at = next(iter(self._at.items()))
            if len(self._at) <= FAILED_LOGINS_KEPT and now - at < FAILED_LOGIN_SECONDS:
                break
            del self._at[oldest]

    def has(self, pair: tuple[str, str]) -> bool:
        at = self._at.get(pair)
        return at is not None and self.clock() - at < FAILED_LOGIN_SECONDS

    def forget(self, pair: tuple[str, str]) -> None:
        self._at.pop(pair, None)


class PlayerStore(Repository):
    """Players and their sessions in the database (tables of :mod:`.store`).

    Its plain methods block (the database, Argon2id): threads and tests call them, the
    routes the ``async`` ones, which wait in :func:`~stairgames.server.base.store.off_loop`
    and :func:`hashing_off_loop`. ``guard_loop``: a password hashed or checked on an
    event loop's thread raises (:class:`LoopGuardedHasher`).
    """

    def __init__(
        self,
        engine: Engine,
        hasher: Hasher | None = None,
        clock: Clock | None = None,
        *,
        guard_loop: bool = False,
    ) -> None:
        super().__init__(engine)
        plain: Hasher = hasher or PasswordHasher()
        self.hasher: Hasher = LoopGuardedHasher(plain) if guard_loop else plain
        self._dummy_hash: str | None = None
        self._clock = clock or time.monotonic
        self.started_at = _now()
        """Sessions made before are still read from :data:`PLAIN_COOKIE` in secure
        contexts (see :func:`session_secret`)."""
        self.login_rates = ClientRates(
            {
                _LOGIN_NAME: LOGINS_PER_NAME,
                _LOGIN_HERE: LOGINS_PER_NAME_AND_ADDRESS,
                _PASSWORD_PLAYER: PASSWORD_CHANGES,
                _PASSWORD_ADDRESS: PASSWORD_CHANGES,
            },
            clock=self._clock,
        )
        """Logins per name and per name and address, password changes per player and
        per address; shared by the server processes of one PostgreSQL database once given
        its ``shared`` allowances (:func:`.limits.shared_allowances`)."""
        self._failed = _FailedLogins(self._clock)
        self._lock = threading.Lock()
        """Held by the database threads around the allowances and :attr:`_failed`."""

    # ----- who is this browser ---------------------------------------------------------

    def by_secret(
        self, secret: str | None, made_before: datetime.datetime | None = None
    ) -> Player | None:
        """The player whose browser holds ``secret``, if any (and if its session was
        made before ``made_before``, when given)."""
        if not secret:
            return None
        with self._session() as session:
            row = session.get(PlayerSessionRow, _secret_hash(secret))
            if row is None or (made_before is not None and _aware(row.created_at) >= made_before):
                return None
            player = session.get(PlayerRow, row.player_id)
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
        """The player called ``name`` (ignoring case and width), else the one whose name,
        or a former name kept for them (:meth:`rename`), has its skeleton, if any."""
        with self._session() as session:
            found = session.scalars(select(PlayerRow).where(PlayerRow.name_key == name_key(name)))
            row = found.first()
            if row is None:
                held = session.get(PlayerNameRow, skeleton(name))
                row = None if held is None else session.get(PlayerRow, held.player_id)
            return None if row is None else _player(row)

    def former_names(self, player_id: str) -> list[tuple[str, datetime.datetime]]:
        """The names ``player_id`` had (kept for them), each with when they left it,
        the oldest first."""
        with self._session() as session:
            rows = session.scalars(
                select(PlayerNameRow)
                .where(PlayerNameRow.player_id == player_id, PlayerNameRow.retired_at.is_not(None))
                .order_by(PlayerNameRow.retired_at)
            )
            return [(row.name, _aware(row.retired_at)) for row in rows if row.retired_at]

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
            session.add(_name_row(row.id, name))
            session.add(self._session_row(row.id, secret))
        return _player(row), secret

    @staticmethod
    def _session_row(player_id: str, secret: str) -> PlayerSessionRow:
        return PlayerSessionRow(
            secret_hash=_secret_hash(secret), player_id=player_id, created_at=_now()
        )

    def rename(self, player: Player, name: str) -> Player:
        """``player`` named ``name`` (already :func:`clean_name`'d); their games stay theirs.

        A name of the same skeleton as theirs (``bob`` for ``Bob``) is only written
        otherwise. A player without rated games leaves their name free for others; one
        with rated games may rename once, and their old name stays theirs: nobody else may
        take it (nor one of its skeleton), and :meth:`by_name` finds them by it.

        :raises ServerError: 409, another player has that name (or had it), or
            ``player`` has rated games and renamed before.
        """
        try:
            with self._session() as session:
                row = session.get(PlayerRow, player.id)
                if row is None:
                    raise ServerError(404, N_("no such player"))
                self._move_name(session, row, name)
                row.name, row.name_key = name, name_key(name)
                return _player(row)
        except IntegrityError:
            raise _name_taken() from None

    @staticmethod
    def _move_name(session: Session, row: PlayerRow, name: str) -> None:
        """Moves ``row``'s entry of ``player_names`` to ``name`` (:meth:`rename`)."""
        held = session.scalars(
            select(PlayerNameRow).where(
                PlayerNameRow.player_id == row.id, PlayerNameRow.retired_at.is_(None)
            )
        ).first()
        if held is not None and held.skeleton == skeleton(name):
            held.name = name
            return
        rated = session.scalar(
            select(func.coalesce(func.sum(RatingRow.games), 0)).where(RatingRow.player_id == row.id)
        )
        if held is not None and rated:
            renamed = session.scalars(
                select(PlayerNameRow.skeleton).where(
                    PlayerNameRow.player_id == row.id, PlayerNameRow.retired_at.is_not(None)
                )
            ).first()
            if renamed is not None:
                raise ServerError(409, N_("a player with rated games may change their name once"))
            held.retired_at = _now()
        elif held is not None:
            session.delete(held)
        session.flush()
        session.add(_name_row(row.id, name))
        session.flush()

    def log_out(self, secret: str) -> None:
        """Forgets the session of ``secret`` (its browser is no player any more)."""
        with self._session() as session:
            row = session.get(PlayerSessionRow, _secret_hash(secret))
            if row is not None:
                session.delete(row)

    # ----- passwords -------------------------------------------------------------------

    async def hash_password(self, password: str) -> str:
        """``password``'s Argon2id hash, made in a hashing thread."""
        return await hashing_off_loop(self.hasher.hash, password)

    async def password_matches(self, password_hash: str | None, password: str) -> bool:
        """Whether ``password`` is the one of ``password_hash`` (``None``: no password;
        checked against a dummy all the same, as long as a real check), in a hashing
        thread."""
        return await hashing_off_loop(self._verifies, password_hash, password)

    def _verifies(self, password_hash: str | None, password: str) -> bool:
        if password_hash is None:
            self._verifies(self._dummy(), password)
            return False
        try:
            return self.hasher.verify(password_hash, password)
        except (VerificationError, InvalidHashError):
            return False

    def _dummy(self) -> str:
        """A hash to check passwords against where there is none (made once, on first
        need: in a hashing thread, never while the app starts on the loop)."""
        if self._dummy_hash is None:
            self._dummy_hash = self.hasher.hash(secrets.token_hex(8))
        return self._dummy_hash

    def add_password(self, player: Player, password: str) -> Player:
        """Makes ``player`` an account with ``password``, hashed in the calling thread
        (the route: :meth:`add_password_async`).

        :raises ServerError: 409, it has one already (change it instead).
        """
        return self._set_first_password(player.id, self.hasher.hash(password))

    async def add_password_async(self, player: Player, password: str, address: str) -> Player:
        """:meth:`add_password`, off the loop, asked from ``address`` (counted against
        :data:`PASSWORD_CHANGES`).

        :raises ServerError: 409, it has one already; :class:`RetryLaterError`.
        """
        if player.account:
            raise _has_password()
        await allowances_off_loop(self._spend_password_change, player.id, address)
        password_hash = await self.hash_password(password)
        return await off_loop(self._set_first_password, player.id, password_hash)

    def _set_first_password(self, player_id: str, password_hash: str) -> Player:
        with self._session() as session:
            row = session.get(PlayerRow, player_id)
            if row is None:
                raise ServerError(404, N_("no such player"))
            if row.password_hash is not None:
                raise _has_password()
            row.password_hash = password_hash
            return _player(row)

    async def change_password(
        self, player: Player, old: str, new: str, address: str, keep: str | None
    ) -> None:
        """Replaces ``player``'s password ``old`` by ``new``, asked from ``address``
        (counted against :data:`PASSWORD_CHANGES` whether ``old`` is right or not), and
        logs out every session of theirs but the one of secret ``keep`` (the browser
        that asked).

        :raises ServerError: 401, ``old`` is not the password (or there is none);
            :class:`RetryLaterError`.
        """
        await allowances_off_loop(self._spend_password_change, player.id, address)
        current = await off_loop(self._password_hash_of, player.id)
        if current is None or not await self.password_matches(current, old):
            raise _wrong_password()
        new_hash = await self.hash_password(new)
        keep_hash = None if keep is None else _secret_hash(keep)
        if not await off_loop(self._replace_password, player.id, current, new_hash, keep_hash):
            raise _wrong_password()  # changed meanwhile, by another browser

    def _password_hash_of(self, player_id: str) -> str | None:
        with self._session() as session:
            row = session.get(PlayerRow, player_id)
            return None if row is None else row.password_hash

    def _replace_password(
        self, player_id: str, old_hash: str, new_hash: str, keep: str | None
    ) -> bool:
        """Sets ``new_hash`` if the password is still ``old_hash``, and logs out every
        session of the player but the one of hash ``keep``: whether it did."""
        with self._session() as session:
            row = session.get(PlayerRow, player_id)
            if row is None or row.password_hash != old_hash:
                return False
            row.password_hash = new_hash
            session.execute(
                delete(PlayerSessionRow).where(
                    PlayerSessionRow.player_id == player_id,
                    PlayerSessionRow.secret_hash != (keep or ""),
                )
            )
            return True

    def _spend_password_change(self, player_id: str, address: str) -> None:
        with self._lock:
            wait = max(
                self.login_rates.take(_PASSWORD_ADDRESS, address),
                self.login_rates.take(_PASSWORD_PLAYER, player_id),
            )
        if wait > 0:
            raise RetryLaterError(wait)

    # ----- logging in ------------------------------------------------------------------

    async def log_in(self, name: str, password: str, address: str) -> tuple[Player, str]:
        """The player named ``name`` and a new session's secret, if ``password`` is
        theirs, asked from ``address`` (the limits: the module's text).

        :raises ServerError: 401 "wrong name or password" (whether the name exists or
            not); :class:`RetryLaterError` after too many attempts.
        """
        pair = (name_key(name), address)
        charged = await off_loop(self._admit_login, pair)
        found = await off_loop(self._account_named, pair[0])
        right = await self.password_matches(None if found is None else found[1], password)
        if found is None or not right:
            raise await off_loop(self._failed_login, pair, charged)
        secret = await off_loop(self._new_session, found[0].id, pair)
        return found[0], secret

    def _admit_login(self, pair: tuple[str, str]) -> bool:
        """Spends an attempt of ``pair`` (name key, address), and of the name when the
        address gave a wrong password for it lately: whether it did that.

        :raises RetryLaterError: either is spent (nothing is checked).
        """
        key, address = pair
        with self._lock:
            wait = self.login_rates.take(_LOGIN_HERE, f"{key}\n{address}")
            charged = wait == 0 and self._failed.has(pair)
            if charged:
                wait = self.login_rates.take(_LOGIN_NAME, key)
        if wait > 0:
            raise RetryLaterError(wait)
        return charged

    def _failed_login(self, pair: tuple[str, str], charged: bool) -> ServerError:
        """What to answer a wrong password of ``pair``: the address is marked, and the
        name's allowance spent (unless ``charged`` already); 401, or :class:`RetryLaterError`
        when that allowance was spent before."""
        with self._lock:
            self._failed.note(pair)
            wait = 0.0 if charged else self.login_rates.take(_LOGIN_NAME, pair[0])
        return RetryLaterError(wait) if wait > 0 else _wrong_login()

    def _account_named(self, key: str) -> tuple[Player, str | None] | None:
        """The player of name key ``key`` and their password's hash, if any."""
        with self._session() as session:
            found = session.scalars(select(PlayerRow).where(PlayerRow.name_key == key))
            row = found.first()
            return None if row is None else (_player(row), row.password_hash)

    def _new_session(self, player_id: str, pair: tuple[str, str]) -> str:
        """A new session of ``player_id``'s, logged in from ``pair``: its secret."""
        with self._lock:
            self._failed.forget(pair)
        secret = secrets.token_urlsafe(32)
        with self._session() as session:
            session.add(self._session_row(player_id, secret))
        return secret


def _has_password() -> ServerError:
    return ServerError(409, N_("this player has a password already"))


# ----- the routes ----------------------------------------------------------------------

ME_ROUTE: Final = "/api/me"
LOGIN_ROUTE: Final = "/api/login"


def players_of(request: HTTPConnection) -> PlayerStore:
    return PLAYERS.of(request)


def secure_context(request: HTTPConnection) -> bool:
    """Whether the browser counts the request's page as a secure context (it keeps
    Secure cookies from it): HTTPS, or a host of this machine (:data:`LOCAL_HOSTS`)."""
    return request.url.scheme in ("https", "wss") or request.url.hostname in LOCAL_HOSTS


def session_secret(request: HTTPConnection) -> tuple[str | None, datetime.datetime | None]:
    """The secret of the request's player cookie, and the moment its session must have
    been made before (``None``: any).

    :data:`COOKIE` first, else :data:`PLAIN_COOKIE`. Where :data:`COOKIE` is the one
    set, the old name is read only for sessions made before the server started (browsers
    that had it from an older server: ``GET /api/me`` moves them to the new one), not for
    later ones: a page of another port of the host can set ``sg_player`` (though not
    ``__Host-sg_player``) to a session of its own, which a page of ours must not take.
    """
    secret = request.cookies.get(COOKIE)
    if secret:
        return secret, None
    old = request.cookies.get(PLAIN_COOKIE) or None
    started = players_of(request).started_at if secure_context(request) else None
    return old, started if old else None


def _cache(request: HTTPConnection, player: Player | None) -> None:
    setattr(request.state, _CACHED_PLAYER, (player,))


def _cached(request: HTTPConnection) -> tuple[Player | None] | None:
    """What :func:`_cache` kept of the request's player (in a tuple), if anything."""
    cached: tuple[Player | None] | None = getattr(request.state, _CACHED_PLAYER, None)
    return cached


async def current_player_async(request: HTTPConnection) -> Player | None:
    """The player of the request's cookie, if it names one, read off the event loop once
    a request (later calls, and :func:`current_player`, answer from ``request.state``)."""
    cached = _cached(request)
    if cached is not None:
        return cached[0]
    secret, made_before = session_secret(request)
    found = await off_loop(players_of(request).by_secret, secret, made_before)
    _cache(request, found)
    return found


def current_player(request: HTTPConnection) -> Player | None:
    """The player of the request's cookie, if it names one: the one
    :func:`current_player_async` read, else read here, on the calling thread (a database
    call: not on the event loop's)."""
    cached = _cached(request)
    if cached is not None:
        return cached[0]
    secret, made_before = session_secret(request)
    found = players_of(request).by_secret(secret, made_before)
    _cache(request, found)
    return found


def required_player(request: Request) -> Player:
    """The request's player (:func:`current_player`).

    :raises ServerError: 401, the browser is no player yet.
    """
    return _required(current_player(request))


async def required_player_async(request: HTTPConnection) -> Player:
    """The request's player (:func:`current_player_async`).

    :raises ServerError: 401, the browser is no player yet.
    """
    return _required(await current_player_async(request))


def _required(player: Player | None) -> Player:
    if player is None:
        raise ServerError(401, N_("choose a name first"))
    return player


def _address(request: HTTPConnection) -> str:
    """The client's address, as :class:`~stairgames.server.base.limits.RequestLimits` names
    it."""
    return request.client.host if request.client else "unknown"


def _with_cookie(request: Request, body: dict[str, Any], secret: str | None) -> Response:
    """``body`` as JSON, setting the player cookie to ``secret`` (``None``: clearing it):
    :data:`COOKIE` in a secure context (:data:`PLAIN_COOKIE`, which it replaces, cleared),
    else :data:`PLAIN_COOKIE`."""
    response = JSONResponse(body)
    secure = secure_context(request)
    name = COOKIE if secure else PLAIN_COOKIE
    if secret is None:
        response.delete_cookie(COOKIE, path="/", secure=True, httponly=True, samesite="lax")
    else:
        response.set_cookie(
            name,
            secret,
            max_age=COOKIE_DAYS * 24 * 3600,
            path="/",
            secure=secure,
            httponly=True,
            samesite="lax",
        )
    if secret is None or (secure and PLAIN_COOKIE in request.cookies):
        response.delete_cookie(PLAIN_COOKIE, path="/", httponly=True, samesite="lax")
    return response


def _moving_old_cookie(request: Request, player: Player | None) -> Response:
    """``GET /api/me``'s answer; in a secure context, a browser still holding
    :data:`PLAIN_COOKIE` gets its session in :data:`COOKIE` instead (or the old cookie
    cleared, if it names nobody)."""
    body = dict(NO_PLAYER) if player is None else player.json()
    if not (secure_context(request) and PLAIN_COOKIE in request.cookies):
        return JSONResponse(body)
    secret = None if player is None else session_secret(request)[0]
    return _with_cookie(request, body, secret)


NameBody.refusals = {"name": refused_by(clean_name)}
PasswordBody.refusals = {"password": refused_by(clean_password)}
NewPasswordBody.refusals = {"new": refused_by(clean_password)}
LoginBody.refusals = {"name": _wrong_login, "password": _wrong_login}
# (the checks live here, and people/contract.py may not import this module back)


def add_player_routes(app: FastAPI) -> None:
    """``/api/me``, ``/api/names/{name}``, ``/api/account``, ``/api/account/password``,
    ``/api/login`` and ``/api/logout`` (see ``docs/web.md``; their models:
    ``people/contract.py``)."""
    refused_words()  # the confusables table read now (a tenth of a second), not on the loop

    @app.get(ME_ROUTE, **answers(PlayerAnswer))
    async def me(request: Request) -> Response:
        reader = ME_READER.find(request) or current_player_async
        return _moving_old_cookie(request, await reader(request))

    @app.post(ME_ROUTE, **answers(PlayerAnswer))
    async def set_me(body: NameBody, request: Request) -> Response:
        name = clean_name(body.name) if body.name is not None else None
        store, player = players_of(request), await current_player_async(request)
        if player is None:
            created, secret = await off_loop(store.create, name)
            _cache(request, created)
            return _with_cookie(request, created.json(), secret)
        if name is not None and name != player.name:
            player = await off_loop(store.rename, player, name)
            _cache(request, player)
        return JSONResponse(player.json())

    @app.get("/api/names/{name:path}", **answers(NameHistory))
    async def names(name: str, request: Request) -> dict[str, Any]:
        store = players_of(request)
        player = await off_loop(store.by_name, name[:200])
        if player is None:
            raise ServerError(404, N_("no such player"))
        former = await off_loop(store.former_names, player.id)
        return {
            "id": player.id,
            "name": player.name,
            "former": [{"name": old, "until": day.date().isoformat()} for old, day in former],
        }

    @app.post("/api/account", **answers(PlayerAnswer))
    async def add_account(body: PasswordBody, request: Request) -> Response:
        password = clean_password(body.password)
        player = await required_player_async(request)
        try:
            made = await players_of(request).add_password_async(player, password, _address(request))
        except RetryLaterError as refused:
            return refused.response()
        _cache(request, made)
        return JSONResponse(made.json())

    @app.post("/api/account/password", **answers(Ok))
    async def change_password(body: NewPasswordBody, request: Request) -> Response:
        old, new = body.old, clean_password(body.new)
        player = await required_player_async(request)
        if not isinstance(old, str):
            raise _wrong_password()
        keep = session_secret(request)[0]
        try:
            await players_of(request).change_password(player, old, new, _address(request), keep)
        except RetryLaterError as refused:
            return refused.response()
        return JSONResponse({"ok": True})

    @app.post(LOGIN_ROUTE, **answers(PlayerAnswer))
    async def log_in(body: LoginBody, request: Request) -> Response:
        name, password = body.name, body.password
        try:
            player, secret = await players_of(request).log_in(
                name.strip()[:200], password[:200], _address(request)
            )
        except RetryLaterError as refused:
            return refused.response()
        _cache(request, player)
        return _with_cookie(request, player.json(), secret)

    @app.post("/api/logout", **answers(PlayerAnswer))
    async def log_out(request: Request) -> Response:
        store = players_of(request)
        for name in (COOKIE, PLAIN_COOKIE):
            secret = request.cookies.get(name)
            if secret:
                await off_loop(store.log_out, secret)
        _cache(request, None)
        return _with_cookie(request, dict(NO_PLAYER), None)


PLAYERS: Kept[PlayerStore] = Kept("players")
ME_READER: Kept[Callable[[HTTPConnection], Awaitable[Player | None]]] = Kept("me_reader")
"""Who ``GET /api/me`` answers for, where the app's tokens are read (an API token's
player with scope ``read``, ``people/tokens.py``, which keeps it); else the cookie's."""
"""The app's players (``app.state.players``)."""
