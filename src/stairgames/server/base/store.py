"""The database: SQLAlchemy 2 tables and the repository the match service uses.

The match tables (their schema is made by the Alembic migrations in ``migrations/``, run at
start-up; the models here only describe it):

- ``matches``: one row per match (game, options, the seed of its dice and draws, the
  rematch that followed it);
- ``seats``: one row per seat (who plays it, and the SHA-256 of its secret token: the
  token itself is never stored);
- ``events``: every event of a match, numbered from 1 with no gap, ``(match, number)``
  unique, with the moment the server accepted it (the clocks are made from these). A
  match's state is its events replayed, so an event is the unit of commit: two server
  processes that try to write the same number collide and one of them is told so
  (:class:`EventConflictError`) instead of both succeeding.

A match's ``start_position`` is the position text it was started from (``NULL``: the
game's start; only games without hidden information, ``POST /api/matches`` with
``"position"``); its ``time_control`` (JSON, ``NULL`` for none) and ``ended_at`` (set once its game
is over) let the server find the running clocks after a restart; its ``summary`` (JSON:
whose turn, the result, who plays each seat) as of event ``summary_event`` lets a
player's list of games be read without replaying them; ``server_heartbeats``
says when each server process was last alive, so that the time all of them were down is
given back to the clocks (:mod:`stairgames.server.play.clocks`).

And the players' (:mod:`stairgames.server.people.players` reads and writes them):

- ``players``: a display name (unique ignoring case and width, ``name_key``) and, for an
  account, the Argon2id hash of its password;
- ``player_sessions``: the browsers a player plays from, each by the SHA-256 of the
  secret in its cookie (the secret itself is never stored);
- ``seat_players``: which player holds which seat of a match (the creator's, and those
  taken from the lobby or through an invitation by a player);
- ``challenges``: the lobby's open games: a match waiting for people, its creator, rated
  or not, when its creator was last there, and why it closed (``started``,
  ``withdrawn``, ``expired``);
- ``rated_results``: the result of each rated match, in the order they ended, and
  ``ratings``: what :mod:`stairgames.server.people.ratings` makes of them (rebuilt from
  ``rated_results`` on demand).

and the chat's (:mod:`stairgames.server.chat.chat` reads and writes it):

- ``chat_messages``: what was said in a match, numbered in the order it was said, in
  its players' room or its spectators' (who said it, the text as written or the id of a
  preset phrase, and how many moves the game had then).

and the e-mail's (:mod:`stairgames.server.mail.notify` reads and writes them):

- ``mail_addresses``: an account's e-mail address, its language, when it was confirmed,
  whether turn notifications are on, and when the last turn mail and digest went out;
- ``mail_tokens``: the links mailed (confirm an address, reset a password, unsubscribe),
  each by the SHA-256 of its secret, with its purpose, expiry and when it was used;
- ``mail_waiting``: the correspondence games waiting for a player with notifications
  on, since when, and when a mail told them.

and the computer's analysis (:mod:`stairgames.server.analysis.analysis` reads and writes it):

- ``analyses``: the analysis of a finished match, one a match, made once and shared by
  everyone who opens it: ``running`` (since ``started_at``, by some server process) or
  ``done`` (its JSON in ``data``, with the budget it was made with in ``budget``, and
  ``finished_at``); a failed one is deleted, so that it may be asked for again.

SQLite (the default, in a data folder) and PostgreSQL (``--database-url``) share it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import functools
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DisconnectionError, IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from stairgames.server.base.state import Kept


class Base(DeclarativeBase):
    pass


class MatchRow(Base):
    __tablename__ = "matches"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    options: Mapped[str] = mapped_column(Text)
    seed: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))
    rematch_of: Mapped[str | None] = mapped_column(String(64), nullable=True)
    time_control: Mapped[str | None] = mapped_column(Text, nullable=True)
    ended_at: Mapped[datetime.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )
    summary: Mapped[str | None] = mapped_column(Text, nullable=True)
    summary_event: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    start_position: Mapped[str | None] = mapped_column(Text, nullable=True)


class HeartbeatRow(Base):
    __tablename__ = "server_heartbeats"
    process: Mapped[str] = mapped_column(String(64), primary_key=True)
    beat_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))


class SeatRow(Base):
    __tablename__ = "seats"
    match_id: Mapped[str] = mapped_column(
        String(64), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    player: Mapped[str | None] = mapped_column(String(200), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class EventRow(Base):
    __tablename__ = "events"
    match_id: Mapped[str] = mapped_column(
        String(64), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    data: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))


class PlayerRow(Base):
    __tablename__ = "players"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    name_key: Mapped[str] = mapped_column(String(256), unique=True)
    password_hash: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))


class PlayerSessionRow(Base):
    __tablename__ = "player_sessions"
    secret_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))


class RatedResultRow(Base):
    __tablename__ = "rated_results"
    match_id: Mapped[str] = mapped_column(
        String(64), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    pool: Mapped[str] = mapped_column(String(200))
    players: Mapped[str] = mapped_column(Text)
    returns: Mapped[str] = mapped_column(Text)
    finished_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), index=True)


class RatingRow(Base):
    __tablename__ = "ratings"
    pool: Mapped[str] = mapped_column(String(200), primary_key=True)
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)


class SeatPlayerRow(Base):
    __tablename__ = "seat_players"
    match_id: Mapped[str] = mapped_column(
        String(64), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), index=True
    )


class ChallengeRow(Base):
    __tablename__ = "challenges"
    match_id: Mapped[str] = mapped_column(
        String(64), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    creator_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE")
    )
    rated: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))
    creator_seen_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))
    closed: Mapped[str | None] = mapped_column(String(16), nullable=True, index=True)


class ChatMessageRow(Base):
    __tablename__ = "chat_messages"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(
        String(64), ForeignKey("matches.id", ondelete="CASCADE"), index=True
    )
    room: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    player_id: Mapped[str | None] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="SET NULL"), nullable=True
    )
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    text: Mapped[str | None] = mapped_column(Text, nullable=True)
    phrase: Mapped[str | None] = mapped_column(String(32), nullable=True)
    move: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))


class MailAddressRow(Base):
    __tablename__ = "mail_addresses"
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    address: Mapped[str] = mapped_column(String(254))
    language: Mapped[str] = mapped_column(String(8))
    confirmed_at: Mapped[datetime.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )
    notifications: Mapped[bool] = mapped_column(Boolean)
    changed_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))
    last_notice_at: Mapped[datetime.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )
    last_digest_at: Mapped[datetime.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )


class MailTokenRow(Base):
    __tablename__ = "mail_tokens"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), index=True
    )
    purpose: Mapped[str] = mapped_column(String(16))
    address: Mapped[str | None] = mapped_column(String(254), nullable=True)
    created_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), index=True)
    used_at: Mapped[datetime.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )


class MailWaitingRow(Base):
    __tablename__ = "mail_waiting"
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    match_id: Mapped[str] = mapped_column(
        String(64), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    seat: Mapped[int] = mapped_column(Integer)
    since: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))
    told_at: Mapped[datetime.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )


class AnalysisRow(Base):
    __tablename__ = "analyses"
    match_id: Mapped[str] = mapped_column(
        String(64), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    status: Mapped[str] = mapped_column(String(16))
    budget: Mapped[str] = mapped_column(Text)
    data: Mapped[str | None] = mapped_column(Text, nullable=True)
    started_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )


@dataclasses.dataclass(frozen=True)
class SeatRecord:
    seat: int
    kind: str
    """``human`` (a person at the creating browser), ``online`` (a friend through the
    link) or ``computer``."""
    player: str | None
    """The computer player spec (``medium``, ``mcts:time=0.5``), for computer seats."""
    token_hash: str | None
    """SHA-256 of the seat's token; ``None`` for a computer or a free online seat."""


@dataclasses.dataclass(frozen=True)
class EventRecord:
    number: int
    kind: str
    seat: int | None
    data: dict[str, Any]
    at: float | None = None
    """When the server accepted it, in seconds since the epoch (``None``: now, when it is
    written)."""


@dataclasses.dataclass(frozen=True)
class MatchRecord:
    id: str
    game: str
    options: dict[str, Any]
    seed: int
    rematch_of: str | None
    seats: tuple[SeatRecord, ...]
    events: tuple[EventRecord, ...]
    time_control: dict[str, Any] | None = None
    created_at: float | None = None
    start_position: str | None = None
    """The position text the match started from (``None``: the game's start)."""


@dataclasses.dataclass(frozen=True)
class SummaryRecord:
    """A match's stored summary (``matches.summary``) as of ``event``; ``ended``: when its
    game ended (``None``: it goes on)."""

    event: int
    summary: dict[str, Any]
    ended: float | None = None


class EventConflictError(Exception):
    """Another writer committed an event with the same number first (several server
    processes on one database); the caller reloads the match and tries again."""


DATABASE_THREADS = 8
"""Threads the event loop hands its blocking database calls to (:func:`off_loop`); the
engine's pool (5 connections, 10 more when busy) holds one connection for each."""

_Params = ParamSpec("_Params")
_Result = TypeVar("_Result")


@functools.cache
def _database_threads() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(DATABASE_THREADS, thread_name_prefix="stairgames-database")


async def off_loop(
    call: Callable[_Params, _Result], *args: _Params.args, **kwargs: _Params.kwargs
) -> _Result:
    """``call(*args, **kwargs)`` in one of the database threads, awaited: a query or a
    commit (its round trips, PostgreSQL's flush to disk) no longer stops every other
    connection of the process meanwhile. The caller keeps the order it needs (the web
    layer holds the match's lock while it waits)."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_database_threads(), functools.partial(call, *args, **kwargs))


class BlockingOnLoopError(RuntimeError):
    """A database call (or another blocking call a guard watches) was made on the thread
    that runs the event loop: every other connection would have waited for it."""


def on_event_loop_thread() -> bool:
    """Whether the calling thread is running an asyncio event loop (the server's)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def forbid_on_loop(what: str) -> None:
    """Raise :class:`BlockingOnLoopError` when called on an event loop's thread."""
    if on_event_loop_thread():
        raise BlockingOnLoopError(f"{what} on the event loop's thread: use off_loop")


def guard_event_loop(engine: Engine) -> None:
    """Make every connection ``engine`` hands out on an event loop's thread raise
    :class:`BlockingOnLoopError` (``Settings.loop_guard``: on in the tests, so that any
    route that forgets :func:`off_loop` fails there instead of stalling every visitor)."""

    @event.listens_for(engine, "checkout")
    def _checked_out(*_args: Any) -> None:
        forbid_on_loop("a database call")


ALLOWANCE_THREADS = 4
"""Threads of their own for the shared rate limits' round trips (:func:`allowances_off_loop`):
a flood of refused requests, each spending an allowance in the database, waits for these
and never for the threads that read and commit matches."""


@functools.cache
def _allowance_threads() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(ALLOWANCE_THREADS, thread_name_prefix="stairgames-allowances")


async def allowances_off_loop(
    call: Callable[_Params, _Result], *args: _Params.args, **kwargs: _Params.kwargs
) -> _Result:
    """:func:`off_loop` for the rate limits' allowances, in threads of their own."""
    loop = asyncio.get_running_loop()
    partial = functools.partial(call, *args, **kwargs)
    return await loop.run_in_executor(_allowance_threads(), partial)


def default_database_url(data_dir: str | Path) -> str:
    return f"sqlite:///{Path(data_dir) / 'stairgames.db'}"


DATABASE_FILE = "stairgames.db"


def private_data_dir(data_dir: Path) -> str:
    """The SQLite URL of ``data_dir``'s database, the folder made ``0700`` when this
    makes it and the file ``0600`` (made so before SQLite opens it; its ``-wal`` and
    ``-shm`` files take the file's mode): it holds password hashes and e-mail addresses,
    which no other user of the machine may read. An existing file is made ``0600`` too."""
    if not data_dir.is_dir():
        data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        data_dir.chmod(0o700)  # whatever the umask
    path = data_dir / DATABASE_FILE
    os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    for file in (path, data_dir / f"{DATABASE_FILE}-wal", data_dir / f"{DATABASE_FILE}-shm"):
        if file.exists():
            file.chmod(0o600)
    return default_database_url(data_dir)


PING_AFTER_IDLE_SECONDS = 1.0
"""A pooled connection to a database server that lay unused longer than this is tried
(a round trip) before it is used again, and replaced if it is dead (the server restarted,
a proxy dropped it). One used more recently is not: on a busy server each connection is
used many times a second, and pinging each use cost a round trip a statement. A
connection that died within the second fails its statement once, as any statement can
while the database is down; SQLAlchemy then drops every connection of the pool opened
before it."""


def make_engine(database_url: str, *, ping_after_idle: float = PING_AFTER_IDLE_SECONDS) -> Engine:
    """An engine for ``database_url``; SQLite gets WAL, foreign keys and a busy timeout,
    so that readers do not block the writer and several processes may share a file; a
    database server's idle connections are tried before use (``ping_after_idle``)."""
    if database_url.startswith("sqlite"):
        engine = create_engine(
            database_url, connect_args={"check_same_thread": False, "timeout": 30}
        )

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(connection: Any, _record: Any) -> None:
            cursor = connection.cursor()
            _use_wal(cursor)
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    engine = create_engine(database_url)
    _ping_when_idle(engine, ping_after_idle)
    return engine


def _ping_when_idle(engine: Engine, seconds: float) -> None:
    """Try a pooled connection before its use when it lay unused over ``seconds``
    (:data:`PING_AFTER_IDLE_SECONDS`): ``pool_pre_ping`` for idle connections only."""

    @event.listens_for(engine, "checkin")
    def _idle_from(_dbapi_connection: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _tried(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.pop("idle_since", None)
        if since is None or time.monotonic() - since <= seconds:
            return  # just opened, or used a moment ago
        try:
            engine.dialect.do_ping(dbapi_connection)
        except engine.dialect.loaded_dbapi.Error as exc:  # dead: the pool opens another
            raise DisconnectionError(str(exc)) from exc


WAL_ATTEMPTS = 50


def _use_wal(cursor: Any) -> None:
    """Put the SQLite file in WAL mode (once for good: the mode is kept in the file).

    Switching needs the file to itself and, unlike other statements, does not wait for
    the busy timeout: a server starting while another one creates the schema of a new
    file would be told "database is locked". So the mode is read first (a file in WAL
    mode already needs no switch), and a refused switch is tried again a little later.
    """
    for attempt in range(1, WAL_ATTEMPTS + 1):
        try:
            cursor.execute("PRAGMA journal_mode")
            if str(cursor.fetchone()[0]).lower() == "wal":
                return
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == WAL_ATTEMPTS:
                raise
            time.sleep(0.01 * attempt)  # another connection holds the file: let it finish


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def _moment(at: float | None) -> datetime.datetime:
    return _now() if at is None else datetime.datetime.fromtimestamp(at, datetime.UTC)


def _epoch(moment: datetime.datetime) -> float:
    """Seconds since the epoch of a stored moment (SQLite gives it back without its zone:
    it was written in UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.UTC)
    return moment.timestamp()


class Repository:
    """Reads and writes some tables of the database, each call in one transaction."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with self._sessions() as session, session.begin():
            yield session


class Store(Repository):
    """The repository: every read and write of matches goes through here."""

    def create_match(
        self,
        match_id: str,
        game: str,
        options: dict[str, Any],
        seed: int,
        seats: Sequence[SeatRecord],
        *,
        rematch_of: str | None = None,
        time_control: dict[str, Any] | None = None,
        created_at: float | None = None,
        start_position: str | None = None,
        holders: dict[int, str] | None = None,
    ) -> None:
        """Record a new match and its seats; ``holders``: the player holding each of
        these seats (written with them: nobody finds the match without its holders)."""
        with self._session() as session:
            session.add(
                MatchRow(
                    id=match_id,
                    game=game,
                    options=json.dumps(options, sort_keys=True),
                    seed=seed,
                    created_at=_moment(created_at),
                    rematch_of=rematch_of,
                    time_control=None if time_control is None else json.dumps(time_control),
                    start_position=start_position,
                )
            )
            session.flush()
            for seat in seats:
                session.add(
                    SeatRow(
                        match_id=match_id,
                        seat=seat.seat,
                        kind=seat.kind,
                        player=seat.player,
                        token_hash=seat.token_hash,
                    )
                )
            for seat_number, player in (holders or {}).items():
                session.add(SeatPlayerRow(match_id=match_id, seat=seat_number, player_id=player))

    def load_match(self, match_id: str) -> MatchRecord | None:
        with self._session() as session:
            row = session.get(MatchRow, match_id)
            if row is None:
                return None
            seats = session.scalars(
                select(SeatRow).where(SeatRow.match_id == match_id).order_by(SeatRow.seat)
            ).all()
            events = session.scalars(
                select(EventRow).where(EventRow.match_id == match_id).order_by(EventRow.number)
            ).all()
            return MatchRecord(
                id=row.id,
                game=row.game,
                options=json.loads(row.options),
                seed=row.seed,
                rematch_of=row.rematch_of,
                seats=tuple(SeatRecord(s.seat, s.kind, s.player, s.token_hash) for s in seats),
                events=tuple(
                    EventRecord(e.number, e.kind, e.seat, json.loads(e.data), _epoch(e.created_at))
                    for e in events
                ),
                time_control=None if row.time_control is None else json.loads(row.time_control),
                created_at=_epoch(row.created_at),
                start_position=row.start_position,
            )

    def summarize(
        self, match_id: str, event: int, summary: dict[str, Any], ended: float | None
    ) -> None:
        """Keep the match's ``summary`` as of ``event`` (an older one never overwrites a
        newer); ``ended``: when its game ended, if it has."""
        with self.engine.begin() as connection:
            _write_summary(connection, match_id, SummaryRecord(event, summary, ended))

    def last_event(self, match_id: str) -> int:
        """The number of the last event of a match committed by anyone (0: none)."""
        with self._session() as session:
            number = session.scalar(
                select(func.max(EventRow.number)).where(EventRow.match_id == match_id)
            )
            return int(number or 0)

    def events_after(self, match_id: str, number: int) -> list[EventRecord]:
        """The match's events numbered after ``number``, in order (one query: what another
        server process committed since; :meth:`MatchService.follow`)."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(
                    EventRow.number,
                    EventRow.kind,
                    EventRow.seat,
                    EventRow.data,
                    EventRow.created_at,
                )
                .where(EventRow.match_id == match_id, EventRow.number > number)
                .order_by(EventRow.number)
            ).all()
        return [EventRecord(n, k, s, json.loads(d), _epoch(at)) for n, k, s, d, at in rows]

    def last_events(self, match_ids: Sequence[str]) -> dict[str, int]:
        """:meth:`last_event` of several matches in one query (matches without events
        are left out)."""
        if not match_ids:
            return {}
        with self._session() as session:
            rows = session.execute(
                select(EventRow.match_id, func.max(EventRow.number))
                .where(EventRow.match_id.in_(list(match_ids)))
                .group_by(EventRow.match_id)
            ).all()
            return {match_id: int(number) for match_id, number in rows}

    def append_events(
        self,
        match_id: str,
        events: Sequence[EventRecord],
        *,
        claim_seat: tuple[int, str] | None = None,
        holder: str | None = None,
        summary: SummaryRecord | None = None,
    ) -> None:
        """Commit ``events`` (numbered after the last one) in one transaction; with
        ``claim_seat`` = (seat, token hash) also give a free online seat its token (and
        with ``holder``, a player id, record that they hold it: the seat and its holder
        are written together, so no reader of the join's event finds the seat taken and
        its holder missing), with ``summary`` also keep the match's summary (as
        :meth:`summarize`; one commit, so one flush to disk, a move).

        :raises EventConflictError: an event number is taken already, or the seat is no
            longer free: nothing was written.
        """
        rows = [
            {
                "match_id": match_id,
                "number": record.number,
                "kind": record.kind,
                "seat": record.seat,
                "data": json.dumps(record.data, sort_keys=True),
                "created_at": _moment(record.at),
            }
            for record in events
        ]
        try:
            # Core statements on one connection, not the ORM's unit of work: this runs
            # on every move, and the flush machinery cost more than the insert itself.
            with self.engine.begin() as connection:
                if claim_seat is not None:
                    seat, token_hash = claim_seat
                    claimed = connection.execute(
                        update(SeatRow)
                        .where(
                            SeatRow.match_id == match_id,
                            SeatRow.seat == seat,
                            SeatRow.token_hash.is_(None),
                        )
                        .values(token_hash=token_hash)
                    )
                    if claimed.rowcount != 1:
                        raise EventConflictError(f"seat {seat} of {match_id} is taken")
                    if holder is not None:
                        connection.execute(
                            insert(SeatPlayerRow),
                            [{"match_id": match_id, "seat": seat, "player_id": holder}],
                        )
                if rows:
                    connection.execute(insert(EventRow), rows)
                if summary is not None:
                    _write_summary(connection, match_id, summary)
        except IntegrityError as exc:
            raise EventConflictError(
                f"event numbers of {match_id} taken by another writer"
            ) from exc


def _write_summary(connection: Connection, match_id: str, summary: SummaryRecord) -> None:
    """Keep ``summary`` unless a newer one is kept already; mark the match ended."""
    values = {"summary": json.dumps(summary.summary), "summary_event": summary.event}
    connection.execute(
        update(MatchRow)
        .where(MatchRow.id == match_id, MatchRow.summary_event < summary.event)
        .values(**values)
    )
    if summary.ended is not None:
        connection.execute(
            update(MatchRow)
            .where(MatchRow.id == match_id, MatchRow.ended_at.is_(None))
            .values(ended_at=_moment(summary.ended))
        )


class ClockStore(Repository):
    """The running clocks' side of the database: which timed matches go on, and when the
    server processes were last alive."""

    def open_timed_matches(self) -> list[str]:
        """The matches with a time control whose game is not over (as far as stored)."""
        with self._session() as session:
            return list(
                session.scalars(
                    select(MatchRow.id).where(
                        MatchRow.time_control.is_not(None), MatchRow.ended_at.is_(None)
                    )
                )
            )

    def mark_ended(self, match_id: str, at: float | None = None) -> None:
        with self._session() as session:
            session.execute(
                update(MatchRow)
                .where(MatchRow.id == match_id, MatchRow.ended_at.is_(None))
                .values(ended_at=_moment(at))
            )

    def last_alive(self) -> float | None:
        """When any server process last said it was alive (``None``: none ever did)."""
        with self._session() as session:
            moment = session.scalar(select(func.max(HeartbeatRow.beat_at)))
            return None if moment is None else _epoch(moment)

    def beat(self, process: str, at: float | None = None) -> None:
        """Say that ``process`` is alive at ``at`` (now)."""
        with self._session() as session:
            row = session.get(HeartbeatRow, process)
            if row is None:
                session.add(HeartbeatRow(process=process, beat_at=_moment(at)))
            else:
                row.beat_at = _moment(at)

    def forget_process(self, process: str) -> None:
        with self._session() as session:
            row = session.get(HeartbeatRow, process)
            if row is not None:
                session.delete(row)


ENGINE: Kept[Engine] = Kept("engine")
"""The app's database (``app.state.engine``), once it started."""
