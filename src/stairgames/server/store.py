"""The database: SQLAlchemy 2 tables and the repository the match service uses.

The match tables (their schema is made by the Alembic migrations in ``migrations/``, run at
start-up; the models here only describe it):

- ``matches``: one row per match (game, options, the seed of its dice and draws, the
  rematch that followed it);
- ``seats``: one row per seat (who plays it, and the SHA-256 of its secret token: the
  token itself is never stored);
- ``events``: every event of a match, numbered from 1 with no gap, ``(match, number)``
  unique. A match's state is its events replayed, so an event is the unit of commit:
  two server processes that try to write the same number collide and one of them is told
  so (:class:`EventConflictError`) instead of both succeeding.

and the players' (:mod:`stairgames.server.players` reads and writes them):

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
  ``ratings``: what :mod:`stairgames.server.ratings` makes of them (rebuilt from
  ``rated_results`` on demand).

SQLite (the default, in a data folder) and PostgreSQL (``--database-url``) share it.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

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
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker


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


@dataclasses.dataclass(frozen=True)
class MatchRecord:
    id: str
    game: str
    options: dict[str, Any]
    seed: int
    rematch_of: str | None
    seats: tuple[SeatRecord, ...]
    events: tuple[EventRecord, ...]


class EventConflictError(Exception):
    """Another writer committed an event with the same number first (several server
    processes on one database); the caller reloads the match and tries again."""


def default_database_url(data_dir: str | Path) -> str:
    return f"sqlite:///{Path(data_dir) / 'stairgames.db'}"


def make_engine(database_url: str) -> Engine:
    """An engine for ``database_url``; SQLite gets WAL, foreign keys and a busy timeout,
    so that readers do not block the writer and several processes may share a file."""
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
    return create_engine(database_url, pool_pre_ping=True)


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
    ) -> None:
        with self._session() as session:
            session.add(
                MatchRow(
                    id=match_id,
                    game=game,
                    options=json.dumps(options, sort_keys=True),
                    seed=seed,
                    created_at=_now(),
                    rematch_of=rematch_of,
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
                    EventRecord(e.number, e.kind, e.seat, json.loads(e.data)) for e in events
                ),
            )

    def last_event(self, match_id: str) -> int:
        """The number of the last event of a match committed by anyone (0: none)."""
        with self._session() as session:
            number = session.scalar(
                select(func.max(EventRow.number)).where(EventRow.match_id == match_id)
            )
            return int(number or 0)

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
    ) -> None:
        """Commit ``events`` (numbered after the last one) in one transaction; with
        ``claim_seat`` = (seat, token hash) also give a free online seat its token.

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
                "created_at": _now(),
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
                if rows:
                    connection.execute(insert(EventRow), rows)
        except IntegrityError as exc:
            raise EventConflictError(
                f"event numbers of {match_id} taken by another writer"
            ) from exc
