"""The lobby: open challenges, taken by players who never met; the seats players hold.

A challenge is a match waiting for people: its creator (a player, :mod:`.players`) holds
one seat, others are for players from the lobby (``online``), and in games of 3–4 seats
some may be the computer's. ``POST /api/challenges`` makes one (the match is made at
once, with its computer seats filled); ``POST /api/challenges/{id}/accept`` gives the
first free seat to the asking player; the match starts when every seat is taken. A
challenge leaves the lobby when it starts, when its creator withdraws it
(``DELETE /api/challenges/{id}``), or when its creator left the site: a challenge lives
while its creator has a page open on it, the lobby's (``/ws/lobby``) or their seat's in
its match (``/ws/matches/...``), on any server process, and is withdrawn once the last
closed ``grace_seconds`` ago (:data:`GRACE_SECONDS`: a reload keeps it). Each process's
sweep notes the creators present there: their lobby sockets here, their seats connected
anywhere (the hub's presence, shared across processes); a present creator's
``creator_seen_at`` is written every quarter of the grace, so that a process where the
creator has no page withdraws the challenge only once every process lost sight of them.

A rated challenge is between players only (no computer seat; a player holds one seat; a
bot account takes a person's only when challenged directly: :func:`bot_may_take`);
when its match ends, its result is rated (:mod:`.rating_store`), a resignation counting
as a loss.

A player's lobby leaves out the challenges of those they blocked, and nobody takes a
challenge across a block (:mod:`stairgames.server.people.blocks`).

A challenge may name one player (``"to"``: their current name; a **direct challenge**,
``direct_challenges``): it has one seat for someone from the lobby, kept for them; only
they and its creator see it listed (:func:`for_reader`), only they may accept it or
decline it (``POST /api/challenges/{id}/decline``); it dies with its creator like any
other. The named player's channel is told of it (``/ws/me``'s ``challenge``), the
creator's of a decline (``declined``): :attr:`Lobby.challenged`.

**My games** (``GET /api/my/games``) lists a player's matches, those waiting for their
move first; :func:`waits_for` is the rule of the waiting count, which the player's
channel (``/ws/me``) counts too. A game going on against the computer (every other seat
a computer's) may be resigned from there (``POST /api/my/games/{id}/resign``: the seat's
resignation, as from its page) or hidden (``.../hide``: it leaves the list and the
waiting count for that player alone, ``hidden_games``, until ``.../show``; ``GET
/api/my/games?hidden=true`` lists the hidden ones). A game against the computer with one
person that nobody moved in for ``stale_seconds`` (30 days; ``Settings.stale_game_days``)
ends by itself: the sweep looks for them every :data:`STALE_SWEEP_SECONDS`
(:meth:`Lobby.end_stale_games`; the end: :meth:`MatchService.end_stale`).

The list is live: ``/ws/lobby`` sends ``{"type": "lobby", "challenges": [...]}`` on
connecting and after every change, made on any server process of the database: a change
is told on the fan-out's ``lobby`` topic (:meth:`Lobby.share_through`; the message says
only that the list changed), and each process reads the list again for its watchers.
Where the fan-out carries no topics (polling), each process's sweep reads the list and
sends it if it changed.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import datetime
import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Final

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from sqlalchemy import DateTime, ForeignKey, String, delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from stairgames.core.registry import get_spec, uploaded_options
from stairgames.i18n import N_, Text, text_json
from stairgames.server.base.contract import NoFields, Ok, answers
from stairgames.server.base.errors import ServerError
from stairgames.server.base.outages import log_failure
from stairgames.server.base.settings import DATA_DIR
from stairgames.server.base.state import Kept
from stairgames.server.base.store import (
    Base,
    ChallengeRow,
    EventRow,
    MatchRow,
    PlayerRow,
    Repository,
    SeatPlayerRow,
    SeatRow,
    off_loop,
)
from stairgames.server.lobby.contract import (
    ChallengeAccepted,
    ChallengeCreated,
    Challenges,
    MyGames,
    MySeats,
    NewChallenge,
    Profile,
)
from stairgames.server.people.blocks import BLOCKED, blocks_on
from stairgames.server.people.players import (
    Player,
    PlayerStore,
    current_player_async,
    required_player_async,
)
from stairgames.server.people.rating_store import RatingStore
from stairgames.server.people.ratings import RatedResult, is_rateable, pool_of
from stairgames.server.people.tokens import (
    BotPlayerRow,
    bot_mark,
    has_bearer,
    reading_player,
    required_reading_player,
    token_or_cookie_player,
    tokens_on,
)
from stairgames.server.play.card_files import resolve_cards_option
from stairgames.server.play.clocks import UNTIMED, TimeControl, requested_time_control
from stairgames.server.play.fanout import RESYNC, FanOut
from stairgames.server.play.hub import Hub
from stairgames.server.play.match import Match, public_options
from stairgames.server.play.seats import COMPUTER, HUMAN, ONLINE

log = logging.getLogger(__name__)

GRACE_SECONDS: Final = 10.0
"""How long a challenge stays in the lobby once its creator's last page closed (a
reload keeps it; ``Settings.challenge_grace_seconds``)."""
GAMES_PER_PAGE: Final = 20
PROFILE_GAMES: Final = 10
"""A profile's recent games."""
LIVE_SHOWN, LIVE_LOOKED_AT = 10, 50
"""The lobby shows up to this many games being played, among the newest started."""
NAMES_KEPT_SECONDS: Final = 60.0
"""How long the names on a match's seats are kept before being read again."""
STARTED, WITHDRAWN, CREATOR_LEFT = "started", "withdrawn", "creator_left"
DECLINED: Final = "declined"
"""How a direct challenge closed that the player it names declined."""
FOR_ANOTHER: Final = N_("this challenge is for another player")
PEOPLES_RATED: Final = N_(
    "a person's rated challenge in the lobby is for people; a bot plays one when challenged"
)
STALE_SECONDS: Final = 30 * 86_400.0
"""How long a game against the computer may go without a move before it ends by itself
(``Settings.stale_game_days``)."""
STALE_SWEEP_SECONDS: Final = 3600.0
"""How often the lobby's sweep looks for stale games to end."""
NOT_YOUR_GAME: Final = N_("you hold no seat in this game")
ONLY_AGAINST_THE_COMPUTER: Final = N_(
    "only a game going on against the computer can be hidden or resigned here"
)
LOBBY_TOPIC: Final = "lobby"
"""The fan-out's topic of the lobby: ``{}``, the list changed (read it again)."""
Now = Callable[[], datetime.datetime]


def _utc_now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def wall_clock_now(clock: Callable[[], float]) -> Now:
    """Now as a moment, from ``clock`` in seconds since the epoch (the settings'
    ``wall_clock``: a fake one in tests)."""
    return lambda: datetime.datetime.fromtimestamp(clock(), datetime.UTC)


def _aware(moment: datetime.datetime) -> datetime.datetime:
    """SQLite gives back naive datetimes: they were written in UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=datetime.UTC)


def rating_pool(game: str, options: dict[str, Any]) -> str:
    """The rating pool of a match (see :func:`stairgames.server.people.ratings.pool_of`)."""
    return pool_of(game, options, get_spec(game).rating_options)


class HiddenGameRow(Base):
    """A match ``player_id`` hid from their My games (migration 0010)."""

    __tablename__ = "hidden_games"
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    match_id: Mapped[str] = mapped_column(
        String(64), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    hidden_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))


class DirectChallengeRow(Base):
    """The player a challenge names (migration 0011): a direct challenge."""

    __tablename__ = "direct_challenges"
    match_id: Mapped[str] = mapped_column(
        String(64), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    to_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), index=True
    )


@dataclasses.dataclass(frozen=True)
class SeatFacts:
    """Who holds which seat of a match (seats held by no player left out), whether it
    is a rated challenge's (``False`` too where no player holds a seat), and the seats a
    bot account holds (an account that has held a seat as a person never becomes one:
    ``people/tokens.py``)."""

    holders: dict[int, str]
    rated: bool
    bot_seats: frozenset[int]


def started_challenge(
    match_id: str, creator: str, rated: bool, now: datetime.datetime
) -> ChallengeRow:
    """The challenge of a match that started without waiting in the lobby (a rematch's,
    a tournament's): the lobby lists it among the games being played and rates it when it
    ends, as it does a challenge taken."""
    return ChallengeRow(
        match_id=match_id,
        creator_id=creator,
        rated=rated,
        created_at=now,
        creator_seen_at=now,
        closed=STARTED,
    )


def lasting(match: Match, facts: SeatFacts) -> bool:
    """Whether ``facts`` of ``match`` can no longer change. A match's holders are written
    with it (the seats made for its creator), with each join (which takes a free seat),
    and for a rematch all at once with its challenge (:meth:`LobbyStore.seat_rematch`);
    a challenge is recorded before its last seat is taken (a tournament's too). So once
    no seat is free nothing more is written, except to a rematch not seated yet."""
    if match.free_seats():
        return False
    if match.rematch_of is None:
        return True
    return all(seat.seat in facts.holders for seat in match.seats if seat.kind != COMPUTER)


FACTS_KEPT: Final = 10_000
"""The matches whose :class:`SeatFacts` a process keeps at most (then it reads again)."""


class LobbyStore(Repository):
    """The ``challenges``, ``seat_players`` and ``hidden_games`` tables."""

    def seat_players(self, match_id: str) -> dict[int, str]:
        """Who holds which seat of the match (seats held by no player are left out)."""
        with self._session() as session:
            rows = session.scalars(select(SeatPlayerRow).where(SeatPlayerRow.match_id == match_id))
            return {row.seat: row.player_id for row in rows}

    def seat_facts(self, match_id: str) -> SeatFacts:
        """Who holds which seat of the match, whether it is a rated challenge's and which
        holders are bot accounts: one query (what a move's listeners need,
        :meth:`Lobby.seat_facts`)."""
        with self._session() as session:
            rows = session.execute(
                select(
                    SeatPlayerRow.seat,
                    SeatPlayerRow.player_id,
                    ChallengeRow.rated,
                    BotPlayerRow.player_id,
                )
                .outerjoin(ChallengeRow, ChallengeRow.match_id == SeatPlayerRow.match_id)
                .outerjoin(BotPlayerRow, BotPlayerRow.player_id == SeatPlayerRow.player_id)
                .where(SeatPlayerRow.match_id == match_id)
            ).all()
        return SeatFacts(
            {seat: player for seat, player, _, _ in rows},
            any(rated for _, _, rated, _ in rows),
            frozenset(seat for seat, _, _, bot in rows if bot is not None),
        )

    def seats_of(self, match_id: str, player: str) -> list[int]:
        """The seats of the match ``player`` holds, in order."""
        return sorted(seat for seat, who in self.seat_players(match_id).items() if who == player)

    def seat_names(self, match_id: str) -> dict[int, str]:
        """The name of the player holding each seat of the match (where one does)."""
        with self._session() as session:
            rows = session.execute(
                select(SeatPlayerRow.seat, PlayerRow.name)
                .join(PlayerRow, PlayerRow.id == SeatPlayerRow.player_id)
                .where(SeatPlayerRow.match_id == match_id)
            )
            return {seat: name for seat, name in rows}

    def matches_of(self, player: str) -> list[GameRow]:
        """The matches in which ``player`` holds a seat, newest first: each with when it
        was made, its stored summary (``None``: none yet), and who holds each seat."""
        with self._session() as session:
            rows = session.execute(
                select(
                    MatchRow.id,
                    MatchRow.game,
                    MatchRow.options,
                    MatchRow.created_at,
                    MatchRow.summary,
                )
                .join(SeatPlayerRow, SeatPlayerRow.match_id == MatchRow.id)
                .where(SeatPlayerRow.player_id == player)
                .distinct()
                .order_by(MatchRow.created_at.desc(), MatchRow.id)
            ).all()
            holders: dict[str, dict[int, tuple[str, str]]] = {row.id: {} for row in rows}
            for start in range(0, len(rows), 500):
                chunk = [row.id for row in rows[start : start + 500]]
                held = session.execute(
                    select(SeatPlayerRow.match_id, SeatPlayerRow.seat, PlayerRow.id, PlayerRow.name)
                    .join(PlayerRow, PlayerRow.id == SeatPlayerRow.player_id)
                    .where(SeatPlayerRow.match_id.in_(chunk))
                )
                for match_id, seat, player_id, name in held:
                    holders[match_id][seat] = (player_id, name)
            hidden = set(
                session.scalars(
                    select(HiddenGameRow.match_id).where(HiddenGameRow.player_id == player)
                )
            )
            return [
                GameRow(
                    row.id,
                    row.game,
                    json.loads(row.options),
                    _aware(row.created_at),
                    None if row.summary is None else json.loads(row.summary),
                    holders[row.id],
                    row.id in hidden,
                )
                for row in rows
            ]

    def hide(self, player: str, match_id: str, now: datetime.datetime) -> None:
        """Leave the match out of ``player``'s My games (once: hiding again changes
        nothing)."""
        with contextlib.suppress(IntegrityError), self._session() as session:
            if session.get(HiddenGameRow, (player, match_id)) is None:
                session.add(HiddenGameRow(player_id=player, match_id=match_id, hidden_at=now))

    def show(self, player: str, match_id: str) -> None:
        """List the match in ``player``'s My games again (not hidden: nothing changes)."""
        with self._session() as session:
            session.execute(
                delete(HiddenGameRow).where(
                    HiddenGameRow.player_id == player, HiddenGameRow.match_id == match_id
                )
            )

    def quiet_matches_with_computers(self, before: datetime.datetime) -> list[str]:
        """The matches not marked ended with a computer seat whose last
        event, or their making where none, came before ``before``: those a stale end may
        concern (:meth:`Lobby.end_stale_games` checks each)."""
        last_event = (
            select(EventRow.match_id, func.max(EventRow.created_at).label("last_at"))
            .group_by(EventRow.match_id)
            .subquery()
        )
        with_computer = select(SeatRow.match_id).where(SeatRow.kind == COMPUTER)
        last_at = func.coalesce(last_event.c.last_at, MatchRow.created_at)
        with self._session() as session:
            rows = session.scalars(
                select(MatchRow.id)
                .outerjoin(last_event, last_event.c.match_id == MatchRow.id)
                .where(
                    MatchRow.ended_at.is_(None),
                    MatchRow.id.in_(with_computer),
                    last_at < before,
                )
                .order_by(MatchRow.id)
            )
            return list(rows)

    def open_challenge(
        self, match_id: str, creator: str, rated: bool, now: datetime.datetime
    ) -> None:
        with self._session() as session:
            session.add(
                ChallengeRow(
                    match_id=match_id,
                    creator_id=creator,
                    rated=rated,
                    created_at=now,
                    creator_seen_at=now,
                    closed=None,
                )
            )

    def challenge(self, match_id: str) -> ChallengeRow | None:
        with self._session() as session:
            return session.get(ChallengeRow, match_id)

    def seat_rematch(self, match_id: str, rematch: str, count: int, now: datetime.datetime) -> None:
        """Seat the players of ``match_id`` in its ``rematch`` (each one seat on, of
        ``count``) and, for a challenge's match, record the rematch as a started
        challenge rated as it was: one transaction, so that no reader sees the holders
        without the challenge (:func:`lasting`).

        :raises IntegrityError: another process seated the rematch first (nothing written).
        """
        with self._session() as session:
            holders = session.scalars(
                select(SeatPlayerRow).where(SeatPlayerRow.match_id == match_id)
            ).all()
            for row in holders:
                session.add(
                    SeatPlayerRow(
                        match_id=rematch, seat=(row.seat + 1) % count, player_id=row.player_id
                    )
                )
            challenge = session.get(ChallengeRow, match_id)
            if challenge is not None:
                session.add(started_challenge(rematch, challenge.creator_id, challenge.rated, now))

    def name_in_challenge(self, match_id: str, to: str) -> None:
        """Records that the challenge of ``match_id`` is for the player ``to`` alone."""
        with self._session() as session:
            session.add(DirectChallengeRow(match_id=match_id, to_id=to))

    def challenged(self, match_id: str) -> str | None:
        """The player the challenge of ``match_id`` names (``None``: open to all)."""
        with self._session() as session:
            row = session.get(DirectChallengeRow, match_id)
            return None if row is None else row.to_id

    def open_challenges(self) -> list[ChallengeRow]:
        with self._session() as session:
            rows = session.scalars(
                select(ChallengeRow)
                .where(ChallengeRow.closed.is_(None))
                .order_by(ChallengeRow.created_at, ChallengeRow.match_id)
            )
            return list(rows)

    def started_challenges(self, limit: int) -> list[ChallengeRow]:
        """The challenges that started, newest first."""
        with self._session() as session:
            rows = session.scalars(
                select(ChallengeRow)
                .where(ChallengeRow.closed == STARTED)
                .order_by(ChallengeRow.created_at.desc(), ChallengeRow.match_id)
                .limit(limit)
            )
            return list(rows)

    def close(self, match_id: str, reason: str) -> bool:
        """Closes the challenge (once): whether it was open."""
        with self._session() as session:
            row = session.get(ChallengeRow, match_id, with_for_update=True)
            if row is None or row.closed is not None:
                return False
            row.closed = reason
            return True

    def seen(self, match_id: str, now: datetime.datetime) -> None:
        with self._session() as session:
            row = session.get(ChallengeRow, match_id)
            if row is not None:
                row.creator_seen_at = now


class Lobby:
    """Challenges made, taken, withdrawn and expired; the lobby's watchers told of each
    change; rated results recorded when their matches end."""

    def __init__(
        self,
        store: LobbyStore,
        players: PlayerStore,
        ratings: RatingStore,
        hub: Hub,
        now: Now = _utc_now,
        grace_seconds: float = GRACE_SECONDS,
        stale_seconds: float = STALE_SECONDS,
    ) -> None:
        self.store = store
        self.players = players
        self.ratings = ratings
        self.hub = hub
        self.now = now
        self.grace_seconds = grace_seconds
        """How long a challenge outlives its creator's last page (:data:`GRACE_SECONDS`)."""
        self.stale_seconds = stale_seconds
        """How long a game against the computer may go without a move (:data:`STALE_SECONDS`)."""
        self._stale_swept: datetime.datetime | None = None
        """When the sweep last looked for stale games (``None``: not yet)."""
        self.challenged: list[Callable[[str, dict[str, Any]], None]] = []
        """Told a player id and what their channel says to them (``/ws/me``): a direct
        challenge to them, or a decline of theirs (:mod:`stairgames.server.chat.told`)."""
        self.games_changed: list[Callable[[str], None]] = []
        """Told the id of a player who hid or showed a game (their waiting count changed:
        the players' channels count again, :mod:`stairgames.server.chat.told`)."""
        self.watchers: set[WebSocket] = set()
        self.watcher_players: dict[WebSocket, str] = {}
        """The player of each lobby socket here that has one (whose blocks it hides)."""
        self.blocks = blocks_on(store.engine)
        self.watching_players: collections.Counter[str] = collections.Counter()
        """The players with a page of the site open here: their lobby and ``/ws/me``
        sockets, by player id (see :meth:`arrived`)."""
        self._present_at: dict[str, datetime.datetime] = {}
        """When this process's sweep last found each open challenge's creator present."""
        self._names: dict[str, tuple[float, dict[int, str]]] = {}
        self._facts: dict[str, tuple[int, SeatFacts, bool]] = {}
        """:meth:`seat_facts` of each match, the event they were read at, and whether
        they are :func:`lasting`."""
        self._facts_read = [threading.Lock() for _ in range(64)]
        """Held while a match's facts are read (by the match's hash): the listeners of a
        move, in several database threads at once, wait for one read."""
        self._fanout: FanOut | None = None
        self._sent: dict[str, Any] | None = None
        """The list last sent to the watchers here."""

    def seat_facts(self, match: Match) -> SeatFacts:
        """:meth:`LobbyStore.seat_facts` of ``match``, read once an event here at most: a
        move's listeners (the views' ratings and bot marks, the turn told, the push)
        share one read. A database read at most, for a database thread.

        A seat is only ever taken (as a match is made, by a join, or as a rematch is
        seated), never given up; a rated challenge stays one; an account that holds a
        seat never becomes a bot. So what was read at an event holds for it, and for
        every later event once it is :func:`lasting` (nothing is left to be written).
        Until then it is read again at the next event, and at a join's event every
        time."""
        kept = self._kept_facts(match)
        if kept is not None:
            return kept
        with self._facts_read[hash(match.id) % len(self._facts_read)]:  # one read, not one each
            kept = self._kept_facts(match)
            if kept is not None:
                return kept
            facts = self.store.seat_facts(match.id)
            last = lasting(match, facts)
            if last or not match.last_was_join:
                if len(self._facts) >= FACTS_KEPT:
                    self._facts.clear()
                self._facts[match.id] = (match.event, facts, last)
            return facts

    def _kept_facts(self, match: Match) -> SeatFacts | None:
        """The facts kept for ``match`` where they still hold (:meth:`seat_facts`)."""
        kept = self._facts.get(match.id)
        if kept is None:
            return None
        event, facts, last = kept
        if event == match.event or (last and event < match.event):
            return facts
        return None

    async def holders_async(self, match: Match) -> dict[int, str]:
        """:meth:`holders`, read in a database thread unless kept (most moves: no hop to
        a thread and back)."""
        kept = self._kept_facts(match)
        if kept is not None:
            return dict(kept.holders)
        return await off_loop(self.holders, match)

    def notes_kept(self, match: Match) -> bool:
        """Whether the views' notes of ``match`` (its holders' names, their ratings and
        bot marks: :attr:`HubNeighbours.seat_notes`) would read nothing now: its names
        and seat facts are kept, and it is not rated (a rating is read each time)."""
        if self._kept_names(match.id, margin=1.0) is None:  # still kept a moment later
            return False
        facts = self._kept_facts(match)
        return facts is not None and not facts.rated

    def holders(self, match: Match) -> dict[int, str]:
        """Who holds which seat of ``match`` (:meth:`seat_facts`: a database read at most,
        for a database thread)."""
        return dict(self.seat_facts(match).holders)

    def bot_seats(self, match: Match) -> frozenset[int]:
        """The seats of ``match`` a bot account holds (:meth:`seat_facts`: a database
        read at most, for a database thread)."""
        return self.seat_facts(match).bot_seats

    def seat_names(self, match_id: str) -> dict[int, str]:
        """Who holds each seat of the match, by name (read again after a minute, so that
        a renamed player shows under the new name): a database read, for a database
        thread (:meth:`seat_names_async` on the event loop)."""
        kept = self._kept_names(match_id)
        if kept is not None:
            return kept
        return self._keep_names(match_id, self.store.seat_names(match_id))

    async def seat_names_async(self, match_id: str) -> dict[int, str]:
        """:meth:`seat_names`, its database read in a database thread."""
        kept = self._kept_names(match_id)
        if kept is not None:
            return kept
        return self._keep_names(match_id, await off_loop(self.store.seat_names, match_id))

    def _kept_names(self, match_id: str, margin: float = 0.0) -> dict[int, str] | None:
        """The names read less than :data:`NAMES_KEPT_SECONDS` ago (less ``margin``), if
        any."""
        kept = self._names.get(match_id)
        if kept is not None and time.monotonic() - kept[0] < NAMES_KEPT_SECONDS - margin:
            return kept[1]
        return None

    def _keep_names(self, match_id: str, names: dict[int, str]) -> dict[int, str]:
        if len(self._names) > 10_000:
            self._names.clear()
        self._names[match_id] = (time.monotonic(), names)
        return names

    def held(self, match_id: str) -> None:
        """Forget the names kept of the match's holders: a seat was just taken (its
        holder written with the join's event, :meth:`MatchService.join`)."""
        self._names.pop(match_id, None)

    def player_seat(self, player: Player | None, match_id: str, wanted: int | None) -> int | None:
        """The seat of the match ``player`` plays here: ``wanted`` if they hold it, else
        the first they hold; ``None`` (a spectator) for anyone else. A database read, for
        a database thread (:meth:`player_seat_async` on the event loop)."""
        if player is None:
            return None
        return _chosen_seat(self.store.seats_of(match_id, player.id), wanted)

    async def player_seat_async(
        self, player: Player | None, match_id: str, wanted: int | None
    ) -> int | None:
        """:meth:`player_seat`, its database read in a database thread."""
        if player is None:
            return None
        return _chosen_seat(await off_loop(self.store.seats_of, match_id, player.id), wanted)

    async def _fresh(self, match_id: str) -> Match:
        """The match with every event committed (by any server process), read in a
        database thread.

        :raises ServerError: 404, no such match.
        """
        service = self.hub.service
        return await service.in_thread(service.refresh, await self.hub.load_async(match_id))

    # ----- making and taking challenges -------------------------------------------------

    async def create(
        self,
        player: Player,
        game: str,
        options: dict[str, Any],
        seats: list[Any],
        rated: bool,
        time_control: TimeControl = UNTIMED,
        to: str | None = None,
    ) -> dict[str, Any]:
        """A new challenge: the match is made, ``player`` holds its ``human`` seat; ``to``
        names the one player it is for (a direct challenge, told on their channel).

        :raises ServerError: 400 bad seats, or ``to`` is the player; 404 no player ``to``;
            403 a block between them.
        """
        _check_challenge_seats(seats, rated)
        named = None if to is None else await self._challengeable(player, to, seats)
        specs = [str(spec) for spec in seats]
        service = self.hub.service
        created = await service.in_thread(
            service.create, game, options, specs, time_control, holder=player.id
        )
        match = created.match
        ((own_seat, token),) = created.tokens.items()
        if named is not None:
            await off_loop(self.store.name_in_challenge, match.id, named.id)
        await off_loop(self.store.open_challenge, match.id, player.id, rated, self.now())
        async with self.hub.lock(match.id):
            await self.hub.changed(match)
        await self.broadcast()
        if named is not None:
            self._tell(named.id, challenge_message(match, player.name, rated))
        return {
            "challenge": match.id,
            "match": match.id,
            "seats": [{"seat": own_seat, "token": token}],
            "invite": f"/m/{match.id}",
        }

    async def _challengeable(self, player: Player, to: str, seats: list[Any]) -> Player:
        """The player called ``to``, whom ``player`` may challenge with these ``seats``.

        :raises ServerError: 404 no such player; 400 ``player`` themself, or not one
            seat for the lobby; 403 a block between them.
        """
        named = await off_loop(self.players.by_name, to[:200])
        if named is None:
            raise ServerError(404, N_("no such player"))
        if named.id == player.id:
            raise ServerError(400, N_("you cannot challenge yourself"))
        if sum(spec == ONLINE for spec in seats) != 1:
            raise ServerError(400, N_("a challenge to a player has one seat for them"))
        if await off_loop(self.blocks.blocked_among, player.id, {named.id}):
            raise ServerError(403, BLOCKED)
        return named

    def _tell(self, player_id: str, message: dict[str, Any]) -> None:
        for listener in self.challenged:
            listener(player_id, message)

    async def accept(self, player: Player, match_id: str) -> dict[str, Any]:
        """The first free seat of the challenge for ``player``.

        :raises ServerError: 404 no such challenge; 403 a direct challenge for another,
            or a bot taking a person's rated one (``bot_rated_challenge``); 409 closed,
            full, the player's own, or the player holds a seat already.
        """
        challenge = await off_loop(self.store.challenge, match_id)
        if challenge is None:
            raise ServerError(404, N_("there is no such challenge"))
        to = await off_loop(self.store.challenged, match_id)
        if to is not None and to != player.id:
            raise ServerError(403, FOR_ANOTHER)
        if to is None and challenge.rated:  # bots stay out of people's rated pools
            await off_loop(self._check_pool, player.id, challenge.creator_id)
        async with self.hub.lock(match_id):
            challenge = await off_loop(self.store.challenge, match_id)
            if challenge is None or challenge.closed is not None:
                raise ServerError(409, N_("this challenge is no longer open"))
            holders = await off_loop(self.store.seat_players, match_id)
            if player.id in holders.values():
                raise ServerError(409, N_("you have a seat in this game already"))
            if await off_loop(self.blocks.blocked_among, player.id, set(holders.values())):
                raise ServerError(403, BLOCKED)
            match = await self._fresh(match_id)
            seat, token = await self.hub.service.in_thread(self.hub.service.join, match, player.id)
            self.held(match_id)
            if not match.free_seats():
                await off_loop(self.store.close, match_id, STARTED)
            await self.hub.changed(match)
        await self.broadcast()
        return {"challenge": match_id, "match": match_id, "seat": seat, "token": token}

    def _check_pool(self, player_id: str, creator_id: str) -> None:
        """:raises ServerError: 403 ``bot_rated_challenge``, ``player_id`` is a bot and
        ``creator_id`` a person (:func:`bot_may_take`; a database read)."""
        bots = tokens_on(self.players.engine).bots_among([player_id, creator_id])
        if not bot_may_take(True, player_id in bots, creator_id in bots):
            raise ServerError(403, PEOPLES_RATED)

    async def withdraw(self, player: Player, match_id: str) -> None:
        challenge = await off_loop(self.store.challenge, match_id)
        if challenge is None:
            raise ServerError(404, N_("there is no such challenge"))
        if challenge.creator_id != player.id:
            raise ServerError(403, N_("only its creator can withdraw a challenge"))
        async with self.hub.lock(match_id):
            if not await off_loop(self.store.close, match_id, WITHDRAWN):
                raise ServerError(409, N_("this challenge is no longer open"))
        await self.broadcast()

    async def decline(self, player: Player, match_id: str) -> None:
        """The player a direct challenge names declines it: it closes, and its creator's
        channel is told.

        :raises ServerError: 404 no such challenge; 403 not a challenge to ``player``;
            409 no longer open.
        """
        challenge = await off_loop(self.store.challenge, match_id)
        if challenge is None:
            raise ServerError(404, N_("there is no such challenge"))
        if await off_loop(self.store.challenged, match_id) != player.id:
            raise ServerError(403, FOR_ANOTHER)
        async with self.hub.lock(match_id):
            if not await off_loop(self.store.close, match_id, DECLINED):
                raise ServerError(409, N_("this challenge is no longer open"))
            match = await self._fresh(match_id)
        await self.broadcast()
        self._tell(challenge.creator_id, declined_message(match, player.name))

    # ----- the list ----------------------------------------------------------------------

    async def listing(self) -> list[dict[str, Any]]:
        """The open challenges, oldest first, as the lobby shows them (read in database
        threads), each with its :data:`PRIVATE` key: sent only through
        :func:`for_reader`."""
        listed = []
        for challenge in await off_loop(self.store.open_challenges):
            try:
                match = await self._fresh(challenge.match_id)
            except ServerError:
                continue
            listed.append(await off_loop(self._json, challenge, match))
        return listed

    async def listing_for(self, player: Player | None) -> list[dict[str, Any]]:
        """:meth:`listing` as ``player`` sees it (:func:`for_reader`)."""
        hidden: frozenset[str] = frozenset()
        if player is not None:
            blocked = await off_loop(self.blocks.blocked_names, frozenset({player.id}))
            hidden = blocked.get(player.id, frozenset())
        message = {"challenges": await self.listing()}
        reader = None if player is None else player.id
        return list(for_reader(message, reader, hidden)["challenges"])

    async def live(self) -> list[dict[str, Any]]:
        """Games from the lobby being played now, newest first, for spectators: the game,
        its options and who plays (read in database threads)."""
        shown = []
        for challenge in await off_loop(self.store.started_challenges, LIVE_LOOKED_AT):
            try:
                match = await self._fresh(challenge.match_id)
            except ServerError:
                continue
            if match.over:
                continue
            names = await self.seat_names_async(match.id)
            bots = await off_loop(tokens_on(self.players.engine).bot_seats, match.id)
            marks = {"bots": [seat.seat in bots for seat in match.seats]} if bots else {}
            shown.append(
                {
                    "id": match.id,
                    "game": match.game_name,
                    "options": public_options(match.options),
                    "rated": challenge.rated,
                    "players": [names.get(seat.seat) for seat in match.seats],
                    **marks,
                }
            )
            if len(shown) == LIVE_SHOWN:
                break
        return shown

    def _json(self, challenge: ChallengeRow, match: Match) -> dict[str, Any]:
        """The challenge as the lobby shows it (its creator and rating read: a database
        thread's work)."""
        creator = self.players.by_id(challenge.creator_id)
        pool = rating_pool(match.game_name, match.options)
        rating = self.ratings.ratings_of(challenge.creator_id).get(pool)
        free = len(match.free_seats())
        to = self.store.challenged(challenge.match_id)
        named = None if to is None else self.players.by_id(to)
        direct = {} if to is None else {"to": None if named is None else named.name}
        return {
            "id": challenge.match_id,
            "game": match.game_name,
            "options": public_options(match.options),
            "seats": len(match.seats),
            "taken": len(match.seats) - free,
            "computers": sum(seat.kind == COMPUTER for seat in match.seats),
            "rated": challenge.rated,
            "time_control": match.time_control.to_json(),
            "creator": {
                "name": None if creator is None else creator.name,
                "rating": None if rating is None else rating.shown(),
                **bot_mark(tokens_on(self.players.engine), challenge.creator_id),
            },
            "created": _aware(challenge.created_at).isoformat(timespec="seconds"),
            **direct,
            PRIVATE: None if to is None else [challenge.creator_id, to],
        }

    async def sweep(self) -> bool:
        """Notes the creators present (a page of theirs open on the site: see the
        module's text), and withdraws the challenges whose creator has been gone
        :attr:`grace_seconds`: whether any closed (the database read and written in
        database threads)."""
        now, closed = self.now(), False
        open_now = await off_loop(self._open_with_creator_seats)
        for challenge, creator_seats in open_now:
            match_id = challenge.match_id
            seen = _aware(challenge.creator_seen_at)
            if self._creator_present(challenge, creator_seats):
                self._present_at[match_id] = now
                if (now - seen).total_seconds() >= self.grace_seconds / 4:
                    await off_loop(self.store.seen, match_id, now)
                continue
            last = max(seen, self._present_at.get(match_id, seen))
            if (now - last).total_seconds() >= self.grace_seconds:
                closed = await off_loop(self.store.close, match_id, CREATOR_LEFT) or closed
        still_open = {challenge.match_id for challenge, _seats in open_now}
        for match_id in set(self._present_at) - still_open:
            del self._present_at[match_id]
        return closed

    def arrived(self, player_id: str) -> None:
        """A socket of ``player_id``'s opened here (the lobby's, or the channel every
        page opens): their challenges live while one is open (see :meth:`sweep`)."""
        self.watching_players[player_id] += 1

    def left(self, player_id: str) -> None:
        """A socket counted by :meth:`arrived` closed."""
        self.watching_players[player_id] -= 1
        if self.watching_players[player_id] <= 0:
            del self.watching_players[player_id]

    def _creator_present(self, challenge: ChallengeRow, creator_seats: set[int]) -> bool:
        """Whether the challenge's creator has a page of the site open here (the lobby,
        or any page through its channel), or a seat of theirs in its match connected on
        any server process."""
        if self.watching_players[challenge.creator_id] > 0:
            return True
        return bool(creator_seats & self.hub.connected_seats(challenge.match_id))

    def _open_with_creator_seats(self) -> list[tuple[ChallengeRow, set[int]]]:
        """The open challenges, each with the seats its creator holds in its match."""
        return [
            (challenge, set(self.store.seats_of(challenge.match_id, challenge.creator_id)))
            for challenge in self.store.open_challenges()
        ]

    async def sweep_once(self) -> None:
        """One round of :meth:`sweep_every`: the challenges swept, and the watchers of
        every process told if any closed (where the fan-out carries no topics, those
        here are sent the list if another process changed it)."""
        if await self.sweep():
            await self.broadcast()
        elif self._fanout is not None and not self._fanout.hears_topics:
            await self.tell_watchers(only_if_changed=True)  # others' changes
        now = self.now()
        last = self._stale_swept
        if last is None or (now - last).total_seconds() >= STALE_SWEEP_SECONDS:
            self._stale_swept = now
            await self.end_stale_games()

    async def sweep_every(self, seconds: float) -> None:
        while True:
            await asyncio.sleep(seconds)
            try:
                await self.sweep_once()
            except Exception:  # a failing sweep must not end the loop
                log_failure(log, "the lobby's sweep failed")

    def share_through(self, fanout: FanOut) -> None:
        """Tell the lobby's changes to every server process through ``fanout`` (and
        hear theirs); after a gap in it, read the list again."""
        self._fanout = fanout
        fanout.subscribe(LOBBY_TOPIC, self._changed_somewhere)
        fanout.subscribe(RESYNC, self._changed_somewhere)

    async def broadcast(self) -> None:
        """The list changed: every server process's watchers are sent it."""
        if self._fanout is None:
            await self.tell_watchers()
        else:
            self._fanout.broadcast(LOBBY_TOPIC, {})

    async def _changed_somewhere(self, _data: dict[str, Any]) -> None:
        await self.tell_watchers()

    async def message(self) -> dict[str, Any]:
        """What ``/ws/lobby`` sends: the open challenges and the games being played."""
        return {"type": "lobby", "challenges": await self.listing(), "live": await self.live()}

    async def tell_watchers(self, *, only_if_changed: bool = False) -> None:
        """Send the list to this process's watchers (none: nothing is read)."""
        if not self.watchers:
            self._sent = None
            return
        message = await self.message()
        if only_if_changed and message == self._sent:
            return
        self._sent = message
        watchers = list(self.watchers)
        readers = frozenset(self.watcher_players.get(socket, "") for socket in watchers)
        blocked = await off_loop(self.blocks.blocked_names, readers - {""})
        for socket in watchers:
            reader = self.watcher_players.get(socket)
            hidden = blocked.get(reader or "", frozenset())
            with contextlib.suppress(Exception):
                await socket.send_json(for_reader(message, reader, hidden))

    # ----- my games -----------------------------------------------------------------------

    async def games_of(self, player: Player, page: int, *, hidden: bool = False) -> dict[str, Any]:
        """``player``'s matches: those where it is their turn first, then the others going
        on, then the finished ones (newest first in each), :data:`GAMES_PER_PAGE` a page;
        the games they hid are left out (``hidden``: only those are listed), and counted
        (``hidden``). Read from the matches' stored summaries (in a database thread); a
        match without one (made before them) is replayed once and summarized."""
        entries, waiting = [], 0
        rows = await off_loop(self.store.matches_of, player.id)
        hidden_count = sum(row.hidden for row in rows)
        for row in rows:
            if row.hidden != hidden:
                continue
            summary = await self._summary_of(row)
            if summary is None:
                continue
            entries.append(_game_json(player, row, summary))
            waiting += waits_for(player.id, row, summary)
        entries.sort(key=lambda e: (not e["your_turn"], e["over"]))  # stable: newest first
        pages = max(1, -(-len(entries) // GAMES_PER_PAGE))
        page = min(max(page, 1), pages)
        shown = entries[(page - 1) * GAMES_PER_PAGE : page * GAMES_PER_PAGE]
        return {
            "games": shown,
            "page": page,
            "pages": pages,
            "total": len(entries),
            "waiting": waiting,
            "hidden": hidden_count,
        }

    async def waiting_games(self, player_id: str) -> tuple[str, ...]:
        """The player's games waiting for their move (:func:`waits_for`), newest first,
        read in a database thread from the matches' summaries, as My games reads them."""
        waiting = []
        for row in await off_loop(self.store.matches_of, player_id):
            summary = await self._summary_of(row)
            if summary is not None and waits_for(player_id, row, summary):
                waiting.append(row.id)
        return tuple(waiting)

    async def _summary_of(self, row: GameRow) -> dict[str, Any] | None:
        """The match's stored summary; a match without one (made before them, or with no
        event yet) is replayed once and summarized (``None``: no such match)."""
        if row.summary is not None:
            return row.summary
        try:
            match = await self._fresh(row.id)
        except ServerError:
            return None
        summary = match.summary()
        store = self.hub.service.store
        await off_loop(store.summarize, match.id, match.event, summary, None)
        return summary

    async def _game_against_the_computer(self, player: Player, match_id: str) -> Match:
        """The match, up to date, if ``player`` holds a seat of it and it is a game going
        on against the computer (:func:`only_computers_besides`); the caller holds its
        lock.

        :raises ServerError: 404, no seat of theirs; 409, not such a game.
        """
        held = await off_loop(self.store.seats_of, match_id, player.id)
        if not held:
            raise ServerError(404, NOT_YOUR_GAME)
        match = await self._fresh(match_id)
        if match.over or not only_computers_besides(match, set(held)):
            raise ServerError(409, ONLY_AGAINST_THE_COMPUTER)
        return match

    async def hide(self, player: Player, match_id: str) -> None:
        """Hide a game going on against the computer from ``player``'s My games and
        waiting count.

        :raises ServerError: 404 no seat of theirs; 409 not such a game.
        """
        async with self.hub.lock(match_id):
            await self._game_against_the_computer(player, match_id)
            await off_loop(self.store.hide, player.id, match_id, self.now())
        self._games_changed(player.id)

    async def show(self, player: Player, match_id: str) -> None:
        """List a game ``player`` hid in their My games again.

        :raises ServerError: 404 no seat of theirs.
        """
        if not await off_loop(self.store.seats_of, match_id, player.id):
            raise ServerError(404, NOT_YOUR_GAME)
        await off_loop(self.store.show, player.id, match_id)
        self._games_changed(player.id)

    def _games_changed(self, player_id: str) -> None:
        for listener in self.games_changed:
            listener(player_id)

    async def resign(self, player: Player, match_id: str) -> None:
        """``player`` resigns a game going on against the computer from My games: each
        seat they hold resigns as from its page, until the game is over.

        :raises ServerError: 404 no seat of theirs; 409 not such a game.
        """
        service = self.hub.service
        async with self.hub.lock(match_id):
            match = await self._game_against_the_computer(player, match_id)
            for seat in await off_loop(self.store.seats_of, match_id, player.id):
                if not match.over and seat not in match.left:
                    await service.in_thread(service.resign, match, seat)
            await self.hub.changed(match)

    async def end_stale_games(self) -> int:
        """End the games against the computer with one person that nobody moved in for
        :attr:`stale_seconds` (:meth:`MatchService.end_stale`): how many ended. Each
        ends under its lock, read again first (another process may have ended it, or a
        move come); a game another process changed meanwhile is left to the next
        sweep."""
        before = self.now() - datetime.timedelta(seconds=self.stale_seconds)
        service, ended = self.hub.service, 0
        for match_id in await off_loop(self.store.quiet_matches_with_computers, before):
            async with self.hub.lock(match_id):
                try:
                    match = await self._fresh(match_id)
                    if not await service.in_thread(service.end_stale, match, self.stale_seconds):
                        continue
                except ServerError as error:  # gone, or changed by another process
                    log.debug("ending stale match %s: %s", match_id, error)
                    continue
                log.info("match %s ended after %s s without a move", match_id, self.stale_seconds)
                await self.hub.changed(match)
                ended += 1
        return ended

    # ----- rematches ----------------------------------------------------------------------

    async def follow_rematch(self, match: Match) -> None:
        """Once ``match`` has a rematch, its players hold their seats in it (each person
        one seat on, as the rematch seats them), and a rematch of a challenge is rated
        as it was (an :attr:`HubNeighbours.after_change` listener: its database work in a database
        thread)."""
        if match.rematch is None:
            return
        await off_loop(self._seat_rematch, match.id, match.rematch, len(match.seats), self.now())

    def _seat_rematch(
        self, match_id: str, rematch: str, count: int, now: datetime.datetime
    ) -> None:
        """:meth:`follow_rematch`'s database work (a database thread's)."""
        if self.store.seat_players(rematch):
            return
        try:
            self.store.seat_rematch(match_id, rematch, count, now)
        except IntegrityError:  # another process seated it first
            return
        self._names.pop(rematch, None)

    # ----- ratings -----------------------------------------------------------------------

    async def rate_if_over(self, match: Match) -> None:
        """Records the result of a rated challenge's match once it is over (an
        :attr:`HubNeighbours.after_change` listener: the database read and written in database
        threads)."""
        result = match.result() if match.over else None
        if result is None or result.get("aborted"):  # aborted: nobody's rating changes
            return
        facts = await off_loop(self.seat_facts, match)
        if not facts.rated:
            return
        seat_players = facts.holders
        seats = sorted(match.seats, key=lambda seat: seat.seat)
        # a person who resigned and left is still the person who sat there
        kinds = [HUMAN if seat.seat in match.left else seat.kind for seat in seats]
        players = [seat_players.get(seat.seat) for seat in seats]
        if not is_rateable(kinds, players):
            return
        bots = await off_loop(tokens_on(self.players.engine).bots_among, players)
        if len(bots) == len(players):  # bots alone: only a person's game rates a bot
            return
        returns = [float(value) for value in result["returns"]]
        loss = min(returns) - 1.0
        for seat in match.left:  # resigned and left: a computer played on for them
            returns[seat] = loss
        pool = rating_pool(match.game_name, match.options)
        rated = RatedResult(pool, tuple(p for p in players if p), tuple(returns))
        await off_loop(self.ratings.record, match.id, rated)

    def seat_ratings(self, match: Match) -> dict[int, dict[str, Any]]:
        """Each seat's ``rating`` in the match's pool, as shown, for the views of a rated
        challenge's match (none for another): the rating now while it is played, after it
        once it is rated, with the ``rating_change`` it made. A database read, for a
        database thread (:attr:`HubNeighbours.seat_ratings`)."""
        facts = self.seat_facts(match)
        seat_players = facts.holders if facts.rated else None
        if not seat_players:
            return {}
        changes = self.ratings.changes_of(match.id) if match.over else {}
        pool = rating_pool(match.game_name, match.options)
        ratings: dict[int, dict[str, Any]] = {}
        for seat, player in seat_players.items():
            if player in changes:
                before, after = changes[player]
                ratings[seat] = {
                    "rating": after.shown(),
                    "rating_change": after.change_from(before),
                }
            else:
                ratings[seat] = {"rating": self.ratings.rating(pool, player).shown()}
        return ratings


PRIVATE: Final = "_between"
"""The key of a listed challenge's creator and named player (ids; ``None``: open to all),
which :func:`for_reader` reads and removes: never sent."""


def for_reader(
    message: dict[str, Any], reader: str | None, hidden: frozenset[str]
) -> dict[str, Any]:
    """The lobby's ``message`` as the player ``reader`` (an id; ``None``: none yet) sees
    it: without the challenges of the players named ``hidden`` (those they blocked), nor
    the direct challenges between others."""
    shown = [
        {key: value for key, value in challenge.items() if key != PRIVATE}
        for challenge in without_blocked(message, hidden)["challenges"]
        if challenge.get(PRIVATE) is None or reader in challenge[PRIVATE]
    ]
    return {**message, "challenges": shown}


def challenge_message(match: Match, creator: str, rated: bool) -> dict[str, Any]:
    """What the channel of the player a challenge names tells them (``challenge``)."""
    title = get_spec(match.game_name).title
    text = Text(
        N_("{name} challenges you to {game}"),
        {"name": Text("{name}", {"name": creator}), "game": Text(title)},
    )
    return {
        "type": "challenge",
        "challenge": match.id,
        "from": creator,
        "game": match.game_name,
        "title": title,
        "rated": rated,
        "time_control": match.time_control.to_json(),
        "text": text_json(text),
    }


def declined_message(match: Match, by: str) -> dict[str, Any]:
    """What a challenge's creator's channel tells them when the player it names
    declined it (``declined``)."""
    title = get_spec(match.game_name).title
    text = Text(
        N_("{name} declined your challenge to {game}"),
        {"name": Text("{name}", {"name": by}), "game": Text(title)},
    )
    return {
        "type": "declined",
        "challenge": match.id,
        "by": by,
        "game": match.game_name,
        "text": text_json(text),
    }


def without_blocked(message: dict[str, Any], hidden: frozenset[str]) -> dict[str, Any]:
    """The lobby's ``message`` without the challenges of the players named ``hidden``
    (those its reader blocked)."""
    if not hidden:
        return message
    shown = [c for c in message["challenges"] if c["creator"]["name"] not in hidden]
    return {**message, "challenges": shown}


@dataclasses.dataclass(frozen=True)
class GameRow:
    """One of a player's matches as the database keeps it (:meth:`LobbyStore.matches_of`)."""

    id: str
    game: str
    options: dict[str, Any]
    created: datetime.datetime
    summary: dict[str, Any] | None
    """:meth:`Match.summary` as of the match's last event (``None``: not kept yet)."""
    holders: dict[int, tuple[str, str]]
    """The player (id, name) holding each seat that one holds."""
    hidden: bool = False
    """Whether the player whose games these are hid it from their My games."""


def bot_may_take(rated: bool, taker_is_bot: bool, creator_is_bot: bool) -> bool:
    """Whether a challenge open to all in the lobby may be taken: a bot keeps out of a
    person's rated one (only a direct challenge brings a bot into people's pools)."""
    return not (rated and taker_is_bot and not creator_is_bot)


def waits_for(player_id: str, row: GameRow, summary: dict[str, Any]) -> bool:
    """Whether the match of ``row`` (as of ``summary``) waits for ``player_id``'s move:
    it goes on, a seat they hold is to act, and they did not hide it. The rule of My
    games' ``waiting`` count and of the players' channels (``/ws/me``)."""
    mine = {seat for seat, (holder, _name) in row.holders.items() if holder == player_id}
    return not row.hidden and not summary["over"] and summary["to_act"] in mine


def only_computers_besides(match: Match, held: set[int]) -> bool:
    """Whether every seat of ``match`` but those ``held`` is a computer's."""
    return all(seat.kind == COMPUTER for seat in match.seats if seat.seat not in held)


def _game_json(player: Player, row: GameRow, summary: dict[str, Any]) -> dict[str, Any]:
    """A match as a player's list of games shows it (from its summary: no replay)."""
    mine = sorted(seat for seat, (holder, _name) in row.holders.items() if holder == player.id)
    return {
        "match": row.id,
        "game": row.game,
        "options": public_options(row.options),
        "seats": mine,
        "players": [
            {
                "seat": seat,
                "name": row.holders[seat][1] if seat in row.holders else None,
                "kind": entry["kind"],
                "level": entry["level"],
            }
            for seat, entry in enumerate(summary["seats"])
        ],
        "your_turn": not summary["over"] and summary["to_act"] in mine,
        "over": summary["over"],
        "result": summary["result"],
        "created": row.created.isoformat(timespec="seconds"),
    }


def _chosen_seat(held: list[int], wanted: int | None) -> int | None:
    """``wanted`` if it is among the seats ``held``, else the first held (``None``:
    none)."""
    if wanted is not None:
        return wanted if wanted in held else None
    return held[0] if held else None


def _check_challenge_seats(seats: list[Any], rated: bool) -> None:
    if not all(isinstance(spec, str) for spec in seats):
        raise ServerError(400, N_("a match needs a list of seats"))
    if sum(spec == HUMAN for spec in seats) != 1:
        raise ServerError(400, N_("a challenge has one seat for its creator ('human')"))
    if not any(spec == ONLINE for spec in seats):
        raise ServerError(400, N_("a challenge needs a seat for someone from the lobby"))
    if rated and any(spec != HUMAN and spec != ONLINE for spec in seats):
        raise ServerError(400, N_("a rated game is between people only"))


def _refuse_rated_upload(options: dict[str, Any], rated: bool) -> None:
    """A rated game is played with the game's own cards: a custom card set is another game
    for the ratings (an unrated challenge may name an uploaded file, as a match may).

    :raises ServerError: 400, a rated challenge naming an uploaded file.
    """
    uploaded = sorted(name for name in set(options) & set(uploaded_options()) if options[name])
    if rated and uploaded:
        raise ServerError(
            400, N_("a rated game cannot use an uploaded file: {option}"), option=uploaded[0]
        )


def lobby_of(request: Request | WebSocket) -> Lobby:
    return LOBBY.of(request)


async def _challenger(request: Request) -> Player:
    """Who makes a challenge: the cookie's player, or a bot's API token's (scope
    ``challenge:write`` or ``bot:play``; docs/bots.md).

    :raises ServerError: 401 no player, or a token missing or invalid; 403 a token
        of neither scope.
    """
    try:
        return await token_or_cookie_player(request, "bot:play")
    except ServerError as exc:
        if exc.status != 403:
            raise
        return await token_or_cookie_player(request, "challenge:write")


def add_lobby_routes(app: FastAPI) -> None:
    """The challenge routes and ``/ws/lobby`` (see ``docs/web.md``; their models:
    ``lobby/contract.py``)."""

    @app.get("/api/challenges", **answers(Challenges))
    async def challenges(request: Request) -> dict[str, Any]:
        lobby = lobby_of(request)
        player = await current_player_async(request)
        return {"challenges": await lobby.listing_for(player), "live": await lobby.live()}

    @app.get("/api/players/{name:path}", **answers(Profile))  # a name may hold "/"
    async def profile(name: str, request: Request) -> dict[str, Any]:
        if has_bearer(request):  # public; a token sent must allow reading
            await reading_player(request)
        lobby = lobby_of(request)
        player = await off_loop(lobby.players.by_name, name[:200])
        if player is None:
            raise ServerError(404, N_("no such player"))
        ratings = await off_loop(lobby.ratings.ratings_of, player.id)
        games = await lobby.games_of(player, 1)
        bot = await off_loop(tokens_on(lobby.players.engine).is_bot, player.id)
        return {
            **player.json(),
            "bot": bot,
            "created": player.created_at.date().isoformat(),
            "ratings": {pool: rating.json() for pool, rating in sorted(ratings.items())},
            "games": games["games"][:PROFILE_GAMES],
        }

    @app.post("/api/challenges", **answers(ChallengeCreated))
    async def create(body: NewChallenge, request: Request) -> dict[str, Any]:
        game, options, seats, rated = body.game, dict(body.options), list(body.seats), body.rated
        _refuse_rated_upload(options, rated)
        options = await off_loop(resolve_cards_option, options, DATA_DIR.of(request))
        time_control = requested_time_control(body.time_control, game)
        player = await _challenger(request)
        lobby = lobby_of(request)
        return await lobby.create(player, game, options, seats, rated, time_control, body.to)

    @app.post("/api/challenges/{match_id}/accept", **answers(ChallengeAccepted))
    async def accept(match_id: str, request: Request) -> dict[str, Any]:
        player = await required_player_async(request)
        return await lobby_of(request).accept(player, match_id[:64])

    @app.post("/api/challenges/{match_id}/decline", **answers(Ok))
    async def decline(match_id: str, request: Request) -> dict[str, Any]:
        player = await required_player_async(request)
        await lobby_of(request).decline(player, match_id[:64])
        return {"ok": True}

    @app.delete("/api/challenges/{match_id}", **answers(Ok))
    async def withdraw(match_id: str, request: Request) -> dict[str, Any]:
        player = await required_player_async(request)
        await lobby_of(request).withdraw(player, match_id[:64])
        return {"ok": True}

    @app.get("/api/my/seats/{match_id}", **answers(MySeats))
    async def my_seats(match_id: str, request: Request) -> dict[str, Any]:
        player = await reading_player(request)
        store = lobby_of(request).store
        seats = [] if player is None else await off_loop(store.seats_of, match_id[:64], player.id)
        return {"match": match_id[:64], "seats": seats}

    @app.get("/api/my/games", **answers(MyGames))
    async def my_games(request: Request, page: int = 1, hidden: bool = False) -> dict[str, Any]:
        player = await required_reading_player(request)
        return await lobby_of(request).games_of(player, page, hidden=hidden)

    @app.post("/api/my/games/{match_id}/hide", **answers(Ok))
    async def hide_game(match_id: str, _body: NoFields, request: Request) -> dict[str, Any]:
        player = await required_player_async(request)
        await lobby_of(request).hide(player, match_id[:64])
        return {"ok": True}

    @app.post("/api/my/games/{match_id}/show", **answers(Ok))
    async def show_game(match_id: str, _body: NoFields, request: Request) -> dict[str, Any]:
        player = await required_player_async(request)
        await lobby_of(request).show(player, match_id[:64])
        return {"ok": True}

    @app.post("/api/my/games/{match_id}/resign", **answers(Ok))
    async def resign_game(match_id: str, _body: NoFields, request: Request) -> dict[str, Any]:
        player = await required_player_async(request)
        await lobby_of(request).resign(player, match_id[:64])
        return {"ok": True}

    @app.websocket("/ws/lobby")
    async def watch(websocket: WebSocket) -> None:
        lobby = lobby_of(websocket)
        await websocket.accept()
        player = await current_player_async(websocket)
        lobby.watchers.add(websocket)
        if player is not None:  # their challenges live while it is open (see sweep)
            lobby.arrived(player.id)
            lobby.watcher_players[websocket] = player.id
        try:
            blocked = frozenset() if player is None else frozenset({player.id})
            hidden = (await off_loop(lobby.blocks.blocked_names, blocked)).get(
                player.id if player else "", frozenset()
            )
            reader = None if player is None else player.id
            await websocket.send_json(for_reader(await lobby.message(), reader, hidden))
            while True:
                await websocket.receive_text()  # nothing is asked here; keeps it open
        except WebSocketDisconnect:
            pass
        finally:
            lobby.watchers.discard(websocket)
            lobby.watcher_players.pop(websocket, None)
            if player is not None:
                lobby.left(player.id)


LOBBY: Kept[Lobby] = Kept("lobby")
"""The app's lobby (``app.state.lobby``)."""
