"""Each player's vacation days: the bank, whether they are away, and until when
(issue 54; docs/web.md, "Vacation").

The bank works as OGS's does, by the calendar: a new player starts with
:data:`START_DAYS`, and it grows by :data:`DAYS_A_YEAR` a year (a little each second, by
the server's clock) up to :data:`MOST_DAYS`. A vacation spends it to the second, whole
days or not: an afternoon away costs about a quarter of a day. It grows by time rather
than by games played so that nobody plays for days off, and a long-time player who took
none has a month in hand, no more (a month of correspondence games left waiting is
already long for the opponents).

While a player is away their bank does not grow: the vacation was given its end when it
began (:attr:`Vacation.until`, when the bank would be empty), and coming back sooner
(:meth:`VacationStore.stop`) gives back what was not spent. What the vacation does to the
games (every correspondence clock of theirs held) is ``server/play/vacation.py``'s: the
people domain keeps only the days.

A player may also let the server start a vacation by itself when a correspondence
deadline is near and they have days left (:attr:`Vacation.automatic`, on unless they
turned it off): as on OGS, where it is on for everyone, since a game lost on time for a
weekend away is what players complain of most; the switch is there because it can keep
a whole tournament waiting (OGS #3446).
"""

from __future__ import annotations

import dataclasses
import datetime
from typing import Final

from sqlalchemy import Boolean, DateTime, Float, ForeignKey, String
from sqlalchemy.orm import Mapped, Session, mapped_column

from stairgames.i18n import N_
from stairgames.server.base.errors import ServerError
from stairgames.server.base.store import Base, PlayerRow, Repository

DAY: Final = 86_400.0
START_DAYS: Final = 14.0
"""The days a new player has: two weeks away, from the start."""
DAYS_A_YEAR: Final = 30.0
"""How many days the bank grows in a year (one every twelve days or so)."""
MOST_DAYS: Final = 30.0
"""The most the bank holds."""
YEAR: Final = 365.0 * DAY
LEAST_SECONDS: Final = 3600.0
"""A vacation needs at least an hour in the bank to start."""

NO_DAYS_LEFT: Final = N_("you have no vacation days left")
ALREADY_AWAY: Final = N_("you are on vacation already")
NOT_AWAY: Final = N_("you are not on vacation")


class VacationRow(Base):
    """A player's bank (``bank`` seconds as of ``as_of``) and the vacation they are on
    (``away_since``..``away_until``; ``automatic``: the server started it), and whether
    the server may start one by itself (``auto``)."""

    __tablename__ = "player_vacations"
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    bank: Mapped[float] = mapped_column(Float)
    as_of: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))
    away_since: Mapped[datetime.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )
    away_until: Mapped[datetime.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )
    automatic: Mapped[bool] = mapped_column(Boolean, default=False)
    auto: Mapped[bool] = mapped_column(Boolean, default=True)


@dataclasses.dataclass(frozen=True)
class Vacation:
    """A player's vacation days at one moment: the ``bank`` left (seconds), whether they
    are away (``since``..``until``; ``started_by_server``), and whether the server may
    start one by itself (``automatic``)."""

    bank: float
    since: float | None = None
    until: float | None = None
    started_by_server: bool = False
    automatic: bool = True

    @property
    def away(self) -> bool:
        return self.until is not None

    def json(self) -> dict[str, object]:
        """What ``GET /api/me/vacation`` answers (moments in ms since the epoch)."""
        return {
            "away": self.away,
            "since_ms": None if self.since is None else round(self.since * 1000),
            "until_ms": None if self.until is None else round(self.until * 1000),
            "started_by_server": self.started_by_server,
            "days_left": round(self.bank / DAY, 2),
            "automatic": self.automatic,
            "days_a_year": DAYS_A_YEAR,
            "most_days": MOST_DAYS,
        }


def grown(bank: float, seconds: float) -> float:
    """``bank`` after ``seconds`` of growing (never past :data:`MOST_DAYS`)."""
    return min(MOST_DAYS * DAY, bank + max(0.0, seconds) * DAYS_A_YEAR * DAY / YEAR)


def _moment(at: float) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(at, datetime.UTC)


def _epoch(moment: datetime.datetime) -> float:
    if moment.tzinfo is None:  # SQLite gives them back naive, in UTC
        moment = moment.replace(tzinfo=datetime.UTC)
    return moment.timestamp()


class VacationStore(Repository):
    """The vacation days of every player (database calls: off the event loop)."""

    def of(self, player_id: str, now: float) -> Vacation:
        """``player_id``'s days at ``now``."""
        with self._session() as session:
            row = session.get(VacationRow, player_id)
            if row is None:
                player = session.get(PlayerRow, player_id)
                made = now if player is None else _epoch(player.created_at)
                return Vacation(grown(START_DAYS * DAY, now - made))
            return _read(row, now)

    def start(self, player_id: str, now: float, *, automatic: bool = False) -> Vacation:
        """Start ``player_id``'s vacation at ``now``, until their bank is empty.

        :raises ServerError: 409, they are away already, or have less than
            :data:`LEAST_SECONDS` left (nothing changes).
        """
        with self._session() as session:
            row = self._row(session, player_id, now)
            current = _read(row, now)
            if current.away:
                raise ServerError(409, ALREADY_AWAY)
            if current.bank < LEAST_SECONDS:
                raise ServerError(409, NO_DAYS_LEFT)
            row.bank, row.as_of = current.bank, _moment(now)
            row.away_since, row.away_until = _moment(now), _moment(now + current.bank)
            row.automatic = automatic
            return _read(row, now)

    def stop(self, player_id: str, now: float) -> Vacation:
        """End ``player_id``'s vacation at ``now``: the days not spent stay in the bank.

        :raises ServerError: 409, they are not away.
        """
        with self._session() as session:
            row = self._row(session, player_id, now)
            current = _read(row, now)
            if not current.away:
                raise ServerError(409, NOT_AWAY)
            row.bank, row.as_of = current.bank, _moment(now)
            row.away_since = row.away_until = None
            row.automatic = False
            return _read(row, now)

    def set_automatic(self, player_id: str, now: float, automatic: bool) -> Vacation:
        """Let the server start a vacation by itself, or not."""
        with self._session() as session:
            row = self._row(session, player_id, now)
            row.auto = automatic
            return _read(row, now)

    @staticmethod
    def _row(session: Session, player_id: str, now: float) -> VacationRow:
        row = session.get(VacationRow, player_id)
        if row is not None:
            return row
        player = session.get(PlayerRow, player_id)
        made = now if player is None else _epoch(player.created_at)
        row = VacationRow(
            player_id=player_id,
            bank=grown(START_DAYS * DAY, now - made),
            as_of=_moment(now),
            automatic=False,
            auto=True,
        )
        session.add(row)
        return row


def _read(row: VacationRow, now: float) -> Vacation:
    """The days ``row`` gives at ``now``: a vacation past its end is over (its bank
    spent) and the bank grows again from then."""
    as_of = _epoch(row.as_of)
    if row.away_since is not None and row.away_until is not None:
        since, until = _epoch(row.away_since), _epoch(row.away_until)
        if now < until:
            return Vacation(
                max(0.0, row.bank - (now - since)),
                since,
                until,
                started_by_server=row.automatic,
                automatic=row.auto,
            )
        bank, as_of = max(0.0, row.bank - (until - since)), until
        return Vacation(grown(bank, now - as_of), automatic=row.auto)
    return Vacation(grown(row.bank, now - as_of), automatic=row.auto)


__all__ = [
    "DAYS_A_YEAR",
    "MOST_DAYS",
    "START_DAYS",
    "Vacation",
    "VacationRow",
    "VacationStore",
]
