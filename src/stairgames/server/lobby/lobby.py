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

A rated challenge is between people only (no computer seat; a player holds one seat);
when its match ends, its result is rated (:mod:`.rating_store`), a resignation counting
as a loss.

A player's lobby leaves out the challenges of those they blocked, and nobody takes a
challenge across a block (:mod:`stairgames.server.people.blocks`).

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
import time
from collections.abc import Callable
from typing import Any, Final

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from stairgames.core.registry import get_spec, uploaded_options
from stairgames.i18n import N_
from stairgames.server.base.contract import Ok, answers
from stairgames.server.base.errors import ServerError
from stairgames.server.base.settings import DATA_DIR
from stairgames.server.base.state import Kept
from stairgames.server.base.store import (
    ChallengeRow,
    MatchRow,
    PlayerRow,
    Repository,
    SeatPlayerRow,
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


class LobbyStore(Repository):
    """The ``challenges`` and ``seat_players`` tables."""

    def seat(self, match_id: str, seat: int, player: str) -> None:
        """Records that ``player`` holds ``seat`` of the match."""
        with self._session() as session:
            session.add(SeatPlayerRow(match_id=match_id, seat=seat, player_id=player))

    def seat_players(self, match_id: str) -> dict[int, str]:
        """Who holds which seat of the match (seats held by no player are left out)."""
        with self._session() as session:
            rows = session.scalars(select(SeatPlayerRow).where(SeatPlayerRow.match_id == match_id))
            return {row.seat: row.player_id for row in rows}

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
            return [
                GameRow(
                    row.id,
                    row.game,
                    json.loads(row.options),
                    _aware(row.created_at),
                    None if row.summary is None else json.loads(row.summary),
                    holders[row.id],
                )
                for row in rows
            ]

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
    ) -> None:
        self.store = store
        self.players = players
        self.ratings = ratings
        self.hub = hub
        self.now = now
        self.grace_seconds = grace_seconds
        """How long a challenge outlives its creator's last page (:data:`GRACE_SECONDS`)."""
        self.watchers: set[WebSocket] = set()
        self.watcher_players: dict[WebSocket, str] = {}
        """The player of each lobby socket here that has one (whose blocks it hides)."""
        self.blocks = blocks_on(store.engine)
        self.watching_players: collections.Counter[str] = collections.Counter()
        """The players with the lobby open here: their lobby sockets, by player id."""
        self._present_at: dict[str, datetime.datetime] = {}
        """When this process's sweep last found each open challenge's creator present."""
        self._names: dict[str, tuple[float, dict[int, str]]] = {}
        self._fanout: FanOut | None = None
        self._sent: dict[str, Any] | None = None
        """The list last sent to the watchers here."""

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

    def _kept_names(self, match_id: str) -> dict[int, str] | None:
        """The names read less than :data:`NAMES_KEPT_SECONDS` ago, if any."""
        kept = self._names.get(match_id)
        if kept is not None and time.monotonic() - kept[0] < NAMES_KEPT_SECONDS:
            return kept[1]
        return None

    def _keep_names(self, match_id: str, names: dict[int, str]) -> dict[int, str]:
        if len(self._names) > 10_000:
            self._names.clear()
        self._names[match_id] = (time.monotonic(), names)
        return names

    def hold(self, match_id: str, seat: int, player: Player) -> None:
        """Records that ``player`` holds ``seat`` (a seat made or joined by a player): a
        database write, for a database thread (:meth:`hold_async` on the event loop)."""
        self.store.seat(match_id, seat, player.id)
        self._names.pop(match_id, None)

    async def hold_async(self, match_id: str, seat: int, player: Player) -> None:
        """:meth:`hold`, its database write in a database thread."""
        await off_loop(self.store.seat, match_id, seat, player.id)
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
    ) -> dict[str, Any]:
        """A new challenge: the match is made, ``player`` holds its ``human`` seat."""
        _check_challenge_seats(seats, rated)
        specs = [str(spec) for spec in seats]
        service = self.hub.service
        created = await service.in_thread(service.create, game, options, specs, time_control)
        match = created.match
        ((own_seat, token),) = created.tokens.items()
        await self.hold_async(match.id, own_seat, player)
        await off_loop(self.store.open_challenge, match.id, player.id, rated, self.now())
        async with self.hub.lock(match.id):
            await self.hub.changed(match)
        await self.broadcast()
        return {
            "challenge": match.id,
            "match": match.id,
            "seats": [{"seat": own_seat, "token": token}],
            "invite": f"/m/{match.id}",
        }

    async def accept(self, player: Player, match_id: str) -> dict[str, Any]:
        """The first free seat of the challenge for ``player``.

        :raises ServerError: 404 no such challenge; 409 closed, full, the player's own,
            or the player holds a seat already.
        """
        challenge = await off_loop(self.store.challenge, match_id)
        if challenge is None:
            raise ServerError(404, N_("there is no such challenge"))
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
            seat, token = await self.hub.service.in_thread(self.hub.service.join, match)
            await self.hold_async(match_id, seat, player)
            if not match.free_seats():
                await off_loop(self.store.close, match_id, STARTED)
            await self.hub.changed(match)
        await self.broadcast()
        return {"challenge": match_id, "match": match_id, "seat": seat, "token": token}

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

    # ----- the list ----------------------------------------------------------------------

    async def listing(self) -> list[dict[str, Any]]:
        """The open challenges, oldest first, as the lobby shows them (read in database
        threads)."""
        listed = []
        for challenge in await off_loop(self.store.open_challenges):
            try:
                match = await self._fresh(challenge.match_id)
            except ServerError:
                continue
            listed.append(await off_loop(self._json, challenge, match))
        return listed

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
            shown.append(
                {
                    "id": match.id,
                    "game": match.game_name,
                    "options": public_options(match.options),
                    "rated": challenge.rated,
                    "players": [names.get(seat.seat) for seat in match.seats],
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
            },
            "created": _aware(challenge.created_at).isoformat(timespec="seconds"),
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

    def _creator_present(self, challenge: ChallengeRow, creator_seats: set[int]) -> bool:
        """Whether the challenge's creator has the lobby open here, or a seat of theirs
        in its match connected on any server process."""
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

    async def sweep_every(self, seconds: float) -> None:
        while True:
            await asyncio.sleep(seconds)
            try:
                await self.sweep_once()
            except Exception:  # a failing sweep must not end the loop
                log.exception("the lobby's sweep failed")

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
            hidden = blocked.get(self.watcher_players.get(socket, ""), frozenset())
            with contextlib.suppress(Exception):
                await socket.send_json(without_blocked(message, hidden))

    # ----- my games -----------------------------------------------------------------------

    async def games_of(self, player: Player, page: int) -> dict[str, Any]:
        """``player``'s matches: those where it is their turn first, then the others going
        on, then the finished ones (newest first in each), :data:`GAMES_PER_PAGE` a page.
        Read from the matches' stored summaries (in a database thread); a match without
        one (made before them) is replayed once and summarized."""
        entries = []
        for row in await off_loop(self.store.matches_of, player.id):
            summary = row.summary
            if summary is None:
                try:
                    match = await self._fresh(row.id)
                except ServerError:
                    continue
                summary = match.summary()
                store = self.hub.service.store
                await off_loop(store.summarize, match.id, match.event, summary, None)
            entries.append(_game_json(player, row, summary))
        entries.sort(key=lambda e: (not e["your_turn"], e["over"]))  # stable: newest first
        pages = max(1, -(-len(entries) // GAMES_PER_PAGE))
        page = min(max(page, 1), pages)
        shown = entries[(page - 1) * GAMES_PER_PAGE : page * GAMES_PER_PAGE]
        waiting = sum(entry["your_turn"] for entry in entries)
        return {
            "games": shown,
            "page": page,
            "pages": pages,
            "total": len(entries),
            "waiting": waiting,
        }

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
            for seat, player in self.store.seat_players(match_id).items():
                self.store.seat(rematch, (seat + 1) % count, player)
        except IntegrityError:  # another process copied them first
            return
        self._names.pop(rematch, None)
        challenge = self.store.challenge(match_id)
        if challenge is not None:
            self.store.open_challenge(rematch, challenge.creator_id, challenge.rated, now)
            self.store.close(rematch, STARTED)

    # ----- ratings -----------------------------------------------------------------------

    async def rate_if_over(self, match: Match) -> None:
        """Records the result of a rated challenge's match once it is over (an
        :attr:`HubNeighbours.after_change` listener: the database read and written in database
        threads)."""
        result = match.result() if match.over else None
        if result is None or result.get("aborted"):  # aborted: nobody's rating changes
            return
        seat_players = await off_loop(self._rated_seat_players, match.id)
        if seat_players is None:
            return
        seats = sorted(match.seats, key=lambda seat: seat.seat)
        # a person who resigned and left is still the person who sat there
        kinds = [HUMAN if seat.seat in match.left else seat.kind for seat in seats]
        players = [seat_players.get(seat.seat) for seat in seats]
        if not is_rateable(kinds, players):
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
        seat_players = self._rated_seat_players(match.id)
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

    def _rated_seat_players(self, match_id: str) -> dict[int, str] | None:
        """Who holds each seat of the match, if it is a rated challenge's (else
        ``None``)."""
        challenge = self.store.challenge(match_id)
        if challenge is None or not challenge.rated:
            return None
        return self.store.seat_players(match_id)


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


def add_lobby_routes(app: FastAPI) -> None:
    """The challenge routes and ``/ws/lobby`` (see ``docs/web.md``; their models:
    ``lobby/contract.py``)."""

    @app.get("/api/challenges", **answers(Challenges))
    async def challenges(request: Request) -> dict[str, Any]:
        lobby = lobby_of(request)
        player = await current_player_async(request)
        listed = {"challenges": await lobby.listing(), "live": await lobby.live()}
        if player is None:
            return listed
        blocked = await off_loop(lobby.blocks.blocked_names, frozenset({player.id}))
        return without_blocked(listed, blocked.get(player.id, frozenset()))

    @app.get("/api/players/{name:path}", **answers(Profile))  # a name may hold "/"
    async def profile(name: str, request: Request) -> dict[str, Any]:
        lobby = lobby_of(request)
        player = await off_loop(lobby.players.by_name, name[:200])
        if player is None:
            raise ServerError(404, N_("no such player"))
        ratings = await off_loop(lobby.ratings.ratings_of, player.id)
        games = await lobby.games_of(player, 1)
        return {
            **player.json(),
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
        player = await required_player_async(request)
        return await lobby_of(request).create(player, game, options, seats, rated, time_control)

    @app.post("/api/challenges/{match_id}/accept", **answers(ChallengeAccepted))
    async def accept(match_id: str, request: Request) -> dict[str, Any]:
        player = await required_player_async(request)
        return await lobby_of(request).accept(player, match_id[:64])

    @app.delete("/api/challenges/{match_id}", **answers(Ok))
    async def withdraw(match_id: str, request: Request) -> dict[str, Any]:
        player = await required_player_async(request)
        await lobby_of(request).withdraw(player, match_id[:64])
        return {"ok": True}

    @app.get("/api/my/seats/{match_id}", **answers(MySeats))
    async def my_seats(match_id: str, request: Request) -> dict[str, Any]:
        player = await current_player_async(request)
        store = lobby_of(request).store
        seats = [] if player is None else await off_loop(store.seats_of, match_id[:64], player.id)
        return {"match": match_id[:64], "seats": seats}

    @app.get("/api/my/games", **answers(MyGames))
    async def my_games(request: Request, page: int = 1) -> dict[str, Any]:
        return await lobby_of(request).games_of(await required_player_async(request), page)

    @app.websocket("/ws/lobby")
    async def watch(websocket: WebSocket) -> None:
        lobby = lobby_of(websocket)
        await websocket.accept()
        player = await current_player_async(websocket)
        lobby.watchers.add(websocket)
        if player is not None:  # their challenges live while it is open (see sweep)
            lobby.watching_players[player.id] += 1
            lobby.watcher_players[websocket] = player.id
        try:
            blocked = frozenset() if player is None else frozenset({player.id})
            hidden = (await off_loop(lobby.blocks.blocked_names, blocked)).get(
                player.id if player else "", frozenset()
            )
            await websocket.send_json(without_blocked(await lobby.message(), hidden))
            while True:
                await websocket.receive_text()  # nothing is asked here; keeps it open
        except WebSocketDisconnect:
            pass
        finally:
            lobby.watchers.discard(websocket)
            lobby.watcher_players.pop(websocket, None)
            if player is not None:
                lobby.watching_players[player.id] -= 1
                if lobby.watching_players[player.id] <= 0:
                    del lobby.watching_players[player.id]


LOBBY: Kept[Lobby] = Kept("lobby")
"""The app's lobby (``app.state.lobby``)."""
