"""Who gets which e-mail when: turn mails and digests of correspondence games, and the
tables of addresses, mailed links and waiting games (:mod:`.store`).

A player gets turn mails when they have an account with a confirmed address and
notifications on (:class:`Address.usable`). After each commit, :meth:`Notifier.
after_change` looks at the match: a correspondence game (``time_control.kind ==
"correspondence"``) whose clock runs for a seat held by such a player makes that game
*wait* for them (``mail_waiting``, kept across restarts); a move, the end of the game or
a computer taking the seat ends the wait.

The rules (``docs/web.md``, "E-mail"):

- **At most one mail about turns an hour per player** (turn mail or digest), so at most
  one per match an hour. A wait that begins while the hour is closed is told when it
  opens (the sweep, every ``MailSettings.sweep_seconds`` and once at start-up).
- When the hour is open and one game waits untold, a **turn mail** tells of it ("Your
  turn in Stairs against Kato", its link).
- When two or more wait untold, one **digest** lists every game waiting for the player,
  each with its link; at most one digest a day. Within a day of the last digest, a turn
  mail tells of the game waiting longest and how many others wait (My games).
- No mail for a game whose seat has a page open on it here: the player is looking.
- A mail that could not be sent is logged; its games are told when the hour opens again.

The hour and the day are claimed in the database (a conditional update of the player's
``mail_addresses`` row) before a mail is sent, so several server processes on one
database never send the same mail twice.

The :class:`Notifier` reads and writes the database only in
:func:`~stairgames.server.base.store.off_loop`'s threads (its callbacks that read it too), so
the event loop never waits for it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import hashlib
import logging
import secrets
from collections.abc import Callable, Coroutine
from typing import Any, Final

from sqlalchemy import delete, or_, select, update
from sqlalchemy.exc import IntegrityError

from stairgames.server.base.outages import log_failure
from stairgames.server.base.settings import MailSettings
from stairgames.server.base.store import (
    MailAddressRow,
    MailTokenRow,
    MailWaitingRow,
    PlayerRow,
    PlayerSessionRow,
    Repository,
    off_loop,
)
from stairgames.server.mail.sending import (
    Game,
    Letter,
    Mailer,
    digest_letter,
    message_of,
    turn_letter,
)

log = logging.getLogger(__name__)

CORRESPONDENCE: Final = "correspondence"
HOUR: Final = 3600.0
DAY: Final = 86_400.0
CONFIRM, RESET, UNSUBSCRIBE = "confirm", "reset", "unsubscribe"
CONFIRM_SECONDS: Final = 48 * HOUR
"""How long the link confirming an address works."""
RESET_SECONDS: Final = HOUR
"""How long a password reset link works."""
UNSUBSCRIBE_SECONDS: Final = 90 * DAY
"""How long a notification's unsubscribe link works."""
Now = Callable[[], float]
"""Seconds since the epoch (a fake clock in tests)."""


def token_hash(secret: str) -> str:
    """What the database keeps of a mailed link's secret."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def _moment(seconds: float) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(seconds, datetime.UTC)


def _seconds(moment: datetime.datetime | None) -> float | None:
    """A stored moment in seconds since the epoch (SQLite gives it back without its
    zone: it was written in UTC)."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.UTC)
    return moment.timestamp()


def _rows(result: object) -> int:
    """How many rows an UPDATE or DELETE changed."""
    return int(getattr(result, "rowcount", 0) or 0)


@dataclasses.dataclass(frozen=True)
class Address:
    """A player's e-mail address and what may be sent to it."""

    player_id: str
    address: str
    language: str
    confirmed: bool
    notifications: bool
    last_notice: float | None = None
    last_digest: float | None = None

    @property
    def usable(self) -> bool:
        """Whether turn mails go to it: confirmed, notifications on."""
        return self.confirmed and self.notifications

    def json(self) -> dict[str, Any]:
        """What ``GET /api/account`` shows of it (to its player only)."""
        return {
            "address": self.address,
            "confirmed": self.confirmed,
            "notifications": self.notifications,
            "language": self.language,
        }


def _address(row: MailAddressRow) -> Address:
    return Address(
        row.player_id,
        row.address,
        row.language,
        row.confirmed_at is not None,
        row.notifications,
        _seconds(row.last_notice_at),
        _seconds(row.last_digest_at),
    )


@dataclasses.dataclass(frozen=True)
class Token:
    """A mailed link's record (never its secret)."""

    player_id: str
    purpose: str
    address: str | None
    used: bool


@dataclasses.dataclass(frozen=True)
class Wait:
    """A correspondence game waiting for a player's move."""

    match_id: str
    seat: int
    since: float
    told: float | None


class MailStore(Repository):
    """The ``mail_addresses``, ``mail_tokens`` and ``mail_waiting`` tables."""

    # ----- addresses -------------------------------------------------------------------

    def address_of(self, player_id: str) -> Address | None:
        with self._session() as session:
            row = session.get(MailAddressRow, player_id)
            return None if row is None else _address(row)

    def set_address(self, player_id: str, address: str, language: str, now: float) -> Address:
        """``player_id``'s address is ``address`` (in ``language``): unconfirmed unless it
        is the confirmed address already; the links confirming another address stop
        working."""
        with self._session() as session:
            row = session.get(MailAddressRow, player_id)
            if row is not None and row.address == address:
                row.language = language
                return _address(row)
            if row is None:
                row = MailAddressRow(player_id=player_id, last_notice_at=None, last_digest_at=None)
                session.add(row)
            row.address, row.language, row.confirmed_at = address, language, None
            row.notifications, row.changed_at = True, _moment(now)
            self._spend_tokens(session, player_id, CONFIRM, now)
            session.flush()
            return _address(row)

    def remove_address(self, player_id: str, now: float) -> None:
        """Forgets the address; its links stop working, its waits are dropped."""
        with self._session() as session:
            session.execute(delete(MailAddressRow).where(MailAddressRow.player_id == player_id))
            session.execute(delete(MailWaitingRow).where(MailWaitingRow.player_id == player_id))
            for purpose in (CONFIRM, UNSUBSCRIBE):
                self._spend_tokens(session, player_id, purpose, now)

    def set_notifications(
        self, player_id: str, on: bool, language: str | None = None
    ) -> Address | None:
        """Turn mails on or off (``None``: the player has no address)."""
        with self._session() as session:
            row = session.get(MailAddressRow, player_id)
            if row is None:
                return None
            row.notifications = on
            if language is not None:
                row.language = language
            if not on:
                session.execute(delete(MailWaitingRow).where(MailWaitingRow.player_id == player_id))
            return _address(row)

    def confirm(self, token: Token, now: float) -> bool:
        """Confirms the address ``token`` was mailed to, if it is still the player's."""
        with self._session() as session:
            done = session.execute(
                update(MailAddressRow)
                .where(
                    MailAddressRow.player_id == token.player_id,
                    MailAddressRow.address == token.address,
                )
                .values(confirmed_at=_moment(now))
            )
            return _rows(done) > 0

    # ----- mailed links ----------------------------------------------------------------

    def new_token(
        self, player_id: str, purpose: str, now: float, seconds: float, address: str | None = None
    ) -> str:
        """A new link's secret (the database keeps its SHA-256), working ``seconds``."""
        secret = secrets.token_urlsafe(32)
        with self._session() as session:
            session.add(
                MailTokenRow(
                    token_hash=token_hash(secret),
                    player_id=player_id,
                    purpose=purpose,
                    address=address,
                    created_at=_moment(now),
                    expires_at=_moment(now + seconds),
                    used_at=None,
                )
            )
        return secret

    def use_token(
        self, secret: object, purpose: str, now: float, *, once: bool = True
    ) -> Token | None:
        """The link of ``secret`` for ``purpose``, marked used, if it works: not expired
        and, when ``once``, not used before (two requests with one secret at once: one
        gets it). ``None`` otherwise, whatever the reason."""
        if not isinstance(secret, str) or not 20 <= len(secret) <= 100:
            return None
        key, moment = token_hash(secret), _moment(now)
        with self._session() as session:
            usable = [
                MailTokenRow.token_hash == key,
                MailTokenRow.purpose == purpose,
                MailTokenRow.expires_at > moment,
            ]
            if once:
                usable.append(MailTokenRow.used_at.is_(None))
            taken = session.execute(
                update(MailTokenRow)
                .where(*usable)
                .values(used_at=moment)
                .execution_options(synchronize_session=False)
            )
            if _rows(taken) != 1:
                return None
            row = session.get(MailTokenRow, key)
            assert row is not None
            return Token(row.player_id, row.purpose, row.address, True)

    def token_owner(self, secret: object, purpose: str, now: float) -> str | None:
        """The player of a working link (not used, not expired), without using it."""
        if not isinstance(secret, str) or not 20 <= len(secret) <= 100:
            return None
        with self._session() as session:
            row = session.get(MailTokenRow, token_hash(secret))
            if row is None or row.purpose != purpose or row.used_at is not None:
                return None
            expires = _seconds(row.expires_at)
            return row.player_id if expires is not None and expires > now else None

    @staticmethod
    def _spend_tokens(session: Any, player_id: str, purpose: str, now: float) -> None:
        session.execute(
            update(MailTokenRow)
            .where(
                MailTokenRow.player_id == player_id,
                MailTokenRow.purpose == purpose,
                MailTokenRow.used_at.is_(None),
            )
            .values(used_at=_moment(now))
            .execution_options(synchronize_session=False)
        )

    def sweep_tokens(self, now: float) -> int:
        """Forgets the links that expired: how many."""
        with self._session() as session:
            gone = session.execute(
                delete(MailTokenRow).where(MailTokenRow.expires_at <= _moment(now))
            )
            return _rows(gone)

    def set_password(
        self, player_id: str, password_hash: str, now: float, keep: str | None = None
    ) -> None:
        """A new password (already hashed) for ``player_id``: every session of theirs but
        the one of hash ``keep`` is forgotten (logged out), and their other reset links
        stop working."""
        with self._session() as session:
            row = session.get(PlayerRow, player_id)
            if row is None:
                return
            row.password_hash = password_hash
            session.execute(
                delete(PlayerSessionRow).where(
                    PlayerSessionRow.player_id == player_id,
                    PlayerSessionRow.secret_hash != (keep or ""),
                )
            )
            self._spend_tokens(session, player_id, RESET, now)

    # ----- waiting games ---------------------------------------------------------------

    def note_wait(self, match_id: str, waiting: tuple[int, str] | None, now: float) -> bool:
        """The match waits for ``waiting`` (seat, player), or for nobody with an address
        that gets turn mails: the waits of others end. Whether a wait began."""
        try:
            return self._note_wait(match_id, waiting, now)
        except IntegrityError:  # another process noted the same wait at the same moment
            return False

    def _note_wait(self, match_id: str, waiting: tuple[int, str] | None, now: float) -> bool:
        with self._session() as session:
            stale = delete(MailWaitingRow).where(MailWaitingRow.match_id == match_id)
            if waiting is None:
                session.execute(stale)
                return False
            seat, player_id = waiting
            address = session.get(MailAddressRow, player_id)
            if address is None or address.confirmed_at is None or not address.notifications:
                session.execute(stale)
                return False
            session.execute(stale.where(MailWaitingRow.player_id != player_id))
            row = session.get(MailWaitingRow, (player_id, match_id))
            if row is not None and row.seat == seat:
                return False
            if row is not None:
                session.delete(row)
                session.flush()
            session.add(
                MailWaitingRow(
                    player_id=player_id,
                    match_id=match_id,
                    seat=seat,
                    since=_moment(now),
                    told_at=None,
                )
            )
        return True

    def waits_of(self, player_id: str) -> list[Wait]:
        """The games waiting for ``player_id``, longest waiting first."""
        with self._session() as session:
            rows = session.scalars(
                select(MailWaitingRow)
                .where(MailWaitingRow.player_id == player_id)
                .order_by(MailWaitingRow.since, MailWaitingRow.match_id)
            )
            return [
                Wait(row.match_id, row.seat, _seconds(row.since) or 0.0, _seconds(row.told_at))
                for row in rows
            ]

    def due_players(self, now: float) -> list[str]:
        """Players with a game waiting untold whose hour is open."""
        opened = _moment(now - HOUR)
        with self._session() as session:
            rows = session.scalars(
                select(MailWaitingRow.player_id)
                .join(MailAddressRow, MailAddressRow.player_id == MailWaitingRow.player_id)
                .where(
                    MailWaitingRow.told_at.is_(None),
                    MailAddressRow.confirmed_at.is_not(None),
                    MailAddressRow.notifications.is_(True),
                    or_(
                        MailAddressRow.last_notice_at.is_(None),
                        MailAddressRow.last_notice_at <= opened,
                    ),
                )
                .distinct()
            )
            return sorted(rows)

    def claim(self, player_id: str, now: float, digest: bool) -> bool:
        """Takes the player's hour (and, for a digest, their day) for one mail, if open:
        whether this process may send it."""
        moment = _moment(now)
        conditions = [
            MailAddressRow.player_id == player_id,
            MailAddressRow.confirmed_at.is_not(None),
            MailAddressRow.notifications.is_(True),
            or_(
                MailAddressRow.last_notice_at.is_(None),
                MailAddressRow.last_notice_at <= _moment(now - HOUR),
            ),
        ]
        values: dict[str, Any] = {"last_notice_at": moment}
        if digest:
            conditions.append(
                or_(
                    MailAddressRow.last_digest_at.is_(None),
                    MailAddressRow.last_digest_at <= _moment(now - DAY),
                )
            )
            values["last_digest_at"] = moment
        with self._session() as session:
            claimed = session.execute(
                update(MailAddressRow)
                .where(*conditions)
                .values(**values)
                .execution_options(synchronize_session=False)
            )
            return _rows(claimed) == 1

    def mark_told(self, player_id: str, match_ids: list[str], now: float) -> None:
        if not match_ids:
            return
        with self._session() as session:
            session.execute(
                update(MailWaitingRow)
                .where(
                    MailWaitingRow.player_id == player_id,
                    MailWaitingRow.match_id.in_(match_ids),
                )
                .values(told_at=_moment(now))
                .execution_options(synchronize_session=False)
            )


# ----- sending, in the background ------------------------------------------------------


class Outbox:
    """Sends mails as background tasks (a request never waits for SMTP), and waits for
    those under way when the server stops."""

    def __init__(self, mailer: Mailer, settings: MailSettings, now: Now) -> None:
        self.mailer = mailer
        self.settings = settings
        self.now = now
        self._tasks: set[asyncio.Task[Any]] = set()

    async def send(self, letter: Letter, to: str) -> bool:
        """Send ``letter`` to ``to`` now: whether it went out (failures are logged)."""
        message = message_of(letter, to, self.settings, self.now())
        return await self.mailer.send(message, letter.kind)

    def start(self, work: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run ``work`` (which sends) in the background."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("sending mail failed", exc_info=task.exception())

    async def settle(self, timeout: float | None = None) -> None:
        """Wait for every mail under way (at most ``timeout`` seconds)."""
        while self._tasks:
            done, _ = await asyncio.wait(set(self._tasks), timeout=timeout)
            if not done:
                return


# ----- turn mails and digests ----------------------------------------------------------


class Notifier:
    """Turn mails and digests (the rules are in the module's docstring).

    ``seat_players(match_id)``: who holds each seat; ``describe(match_id, player_id)``:
    the game as a letter shows it to that player (``None``: no such match);
    ``connected(match_id)``: the seats with a page open on it here; ``name_of(player)``.
    ``seat_players``, ``describe`` and ``name_of`` read the database: they are called in
    a database thread (:func:`~stairgames.server.base.store.off_loop`), ``connected`` on the
    event loop.
    """

    def __init__(
        self,
        store: MailStore,
        outbox: Outbox,
        *,
        seat_players: Callable[[str], dict[int, str]],
        describe: Callable[[str, str], Game | None],
        connected: Callable[[str], set[int]] = lambda _match_id: set(),
        name_of: Callable[[str], str | None] = lambda _player_id: None,
    ) -> None:
        self.store = store
        self.outbox = outbox
        self.settings = outbox.settings
        self.now = outbox.now
        self.seat_players = seat_players
        self.describe = describe
        self.connected = connected
        self.name_of = name_of
        self._soon: set[str] = set()

    async def after_change(self, match: Any) -> None:
        """A listener of ``HubNeighbours.after_change``: notes whether a correspondence match waits
        for a player who gets turn mails, and tells them soon if a wait began."""
        control = getattr(match, "time_control", None)
        if getattr(control, "kind", None) != CORRESPONDENCE:
            return
        seat = None if match.over else match.clock_seat()
        began, player = await off_loop(self._note_wait, match.id, seat, self.now())
        if began and player is not None:
            self.tell_soon(player)

    def _note_wait(self, match_id: str, seat: int | None, now: float) -> tuple[bool, str | None]:
        """Note who the match waits for (its ``seat`` to move, ``None``: nobody): whether
        a wait began, and the player of that seat."""
        player = self.seat_players(match_id).get(seat) if seat is not None else None
        waiting = None if seat is None or player is None else (seat, player)
        return self.store.note_wait(match_id, waiting, now), player

    def tell_soon(self, player_id: str) -> None:
        """Look at ``player_id``'s waiting games in the background (once at a time)."""
        if player_id in self._soon:
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # no event loop here: the sweep tells them
            return
        self._soon.add(player_id)

        async def tell() -> None:
            try:
                await self.tell(player_id)
            finally:
                self._soon.discard(player_id)

        self.outbox.start(tell())

    async def tell(self, player_id: str) -> str | None:
        """Send ``player_id`` the mail due now, if any: ``turn``, ``digest`` or ``None``."""
        now = self.now()
        address = await off_loop(self.store.address_of, player_id)
        if address is None or not address.usable:
            return None
        if address.last_notice is not None and now - address.last_notice < HOUR:
            return None  # the hour is closed: the sweep comes back
        waits = [
            w
            for w in await off_loop(self.store.waits_of, player_id)
            if w.seat not in self.connected(w.match_id)
        ]
        untold = [w for w in waits if w.told is None]
        if not untold:
            return None
        digest = len(untold) >= 2 and (
            address.last_digest is None or now - address.last_digest >= DAY
        )
        games = await off_loop(self._describe, waits, player_id, now)
        shown = [w for w in waits if games[w.match_id] is not None]
        if not any(w.told is None for w in shown):
            return None
        claimed = await off_loop(self._claim, player_id, now, digest)
        if claimed is None:
            return None  # another process (or task) took the hour
        name, unsubscribe = claimed
        links = (
            self.settings.link("/my"),
            self.settings.link(f"/unsubscribe?token={unsubscribe}"),
            self.settings.link("/account"),
        )
        if digest:
            letter = digest_letter(
                address.language, name, [g for w in shown if (g := games[w.match_id])], links
            )
            told = [w.match_id for w in shown]
        else:
            first = next(w for w in shown if w.told is None)
            game = games[first.match_id]
            assert game is not None
            letter = turn_letter(address.language, name, game, len(shown) - 1, links)
            told = [w.match_id for w in shown if w.told is None]
        if not await self.outbox.send(letter, address.address):
            return None
        await off_loop(self.store.mark_told, player_id, told, self.now())
        return letter.kind

    def _describe(self, waits: list[Wait], player_id: str, now: float) -> dict[str, Game | None]:
        """Each waiting game as a letter shows it to ``player_id`` (``None``: no such
        match any more, its wait forgotten)."""
        games = {w.match_id: self.describe(w.match_id, player_id) for w in waits}
        for gone in (w for w in waits if games[w.match_id] is None):
            self.store.note_wait(gone.match_id, None, now)
        return games

    def _claim(self, player_id: str, now: float, digest: bool) -> tuple[str, str] | None:
        """Take the player's hour (and day, for a ``digest``) for one mail: their name
        and the secret of the mail's unsubscribe link; ``None``, the hour is taken."""
        if not self.store.claim(player_id, now, digest):
            return None
        name = self.name_of(player_id) or ""
        return name, self.store.new_token(player_id, UNSUBSCRIBE, now, UNSUBSCRIBE_SECONDS)

    async def sweep(self) -> list[str]:
        """Send every mail due now (a wait that began while its player's hour was
        closed); forget expired links. The kinds sent."""
        sent = []
        for player_id in await off_loop(self.store.due_players, self.now()):
            if player_id in self._soon:
                continue
            kind = await self.tell(player_id)
            if kind is not None:
                sent.append(kind)
        await off_loop(self.store.sweep_tokens, self.now())
        return sent

    async def run(self) -> None:
        """:meth:`sweep` at once (after a restart, what became due meanwhile), then every
        ``sweep_seconds``, until cancelled."""
        while True:
            try:
                await self.sweep()
            except Exception:  # a failing sweep must not end the loop
                log_failure(log, "the mail sweep failed")
            await asyncio.sleep(self.settings.sweep_seconds)


__all__ = [
    "Address",
    "MailStore",
    "Notifier",
    "Outbox",
    "Token",
    "Wait",
    "token_hash",
]
