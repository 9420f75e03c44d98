"""The Bot API (docs/bots.md): a bot's event stream and its games' streams, as
newline-delimited JSON, and the plain POSTs of its actions (a move, resigning, offers
and their answers, accepting or declining a challenge).

The streams are driven by the listeners of the domains below: the lobby's
:attr:`Lobby.challenged` (a direct challenge to the bot), the service's
:attr:`MatchService.committed` and the hub's :attr:`HubNeighbours.after_change` (a game
of the bot's starts or ends) for the event stream, each event sent to every server
process through the fan-out (:data:`BOTS_TOPIC`), whose streams of that player it is
for; an event stream that asked (``?lobby=true``) is also told of the open lobby
challenges its player may take (:func:`bot_may_take`), read again whenever the lobby
changes (its fan-out topic); a game's stream is one more watcher of the match in the hub (a
:class:`Connection` whose sender is a queue), so it is sent the bot's seat's view after
every change, as the match socket is (other processes' changes come by the fan-out).
A stream ends when its client goes (the response's task is cancelled) or, a game's,
when the game ends. A player keeps at most :data:`STREAMS_PER_PLAYER` open.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.responses import StreamingResponse
from sqlalchemy import select
from starlette.requests import HTTPConnection
from starlette.types import Receive, Scope, Send

from stairgames.core.errors import StairgamesError
from stairgames.i18n import N_
from stairgames.server.base.contract import NoFields, Ok, answers
from stairgames.server.base.errors import ServerError
from stairgames.server.base.limits import ClientRates, Rate
from stairgames.server.base.state import Kept
from stairgames.server.base.store import (
    ChallengeRow,
    EventRecord,
    Repository,
    SeatPlayerRow,
    allowances_off_loop,
    off_loop,
)
from stairgames.server.bots.contract import AnswerBody, EventStreamLine, GameLine, OfferBody
from stairgames.server.lobby.contract import ChallengeAccepted
from stairgames.server.lobby.lobby import (
    LOBBY,
    LOBBY_TOPIC,
    DirectChallengeRow,
    GameRow,
    Lobby,
    bot_may_take,
    challenge_message,
)
from stairgames.server.people.players import Player, RetryLaterError
from stairgames.server.people.tokens import BotPlayerRow, token_or_cookie_player, tokens_on
from stairgames.server.play.fanout import FANOUT, RESYNC, FanOut
from stairgames.server.play.hub import Connection, Hub
from stairgames.server.play.match import public_options
from stairgames.server.play.matches import Match
from stairgames.server.play.seats import COMPUTER

log = logging.getLogger(__name__)

BOT_PLAY: Final = "bot:play"
CHALLENGE_WRITE: Final = "challenge:write"

KEEP_ALIVE_SECONDS: Final = 7.0
"""An empty line this often keeps a quiet stream open (and finds a client gone)."""
STREAMS_PER_PLAYER: Final = 16
"""The streams one player (all their tokens together) may hold open at once."""
CHALLENGES_TOLD_ON_OPENING: Final = 50
"""The open direct challenges to the bot that a new event stream names first (the oldest)."""
OPEN_CHALLENGES_TOLD: Final = 50
"""The open lobby challenges a stream that asked for them (``?lobby=true``) is told of
at each change of the lobby (the oldest)."""
GAMES_TOLD_ON_OPENING: Final = 50
"""The bot's games going on that a new event stream names first (the newest)."""
ACTIONS: Final = "bot_actions"
STREAMS: Final = "bot_streams"
BOT_RATES: Final = {
    ACTIONS: Rate(per_minute=300, burst=100),
    STREAMS: Rate(per_minute=60, burst=30),
}
"""Each player's allowance of actions (moves, offers...) and of streams opened."""

BOTS_TOPIC: Final = "bots"
"""The fan-out's topic of the event streams: ``{"lines": {player id: line}}``."""
STARTING_OR_ENDING: Final = frozenset({"join", "move", "resign", "flag", "abort"})
"""The kinds of event after which a match may have started (every seat taken) or ended."""

TOO_MANY_STREAMS = N_("too many streams open (at most {limit})")
NOT_YOUR_GAME = N_("you hold no seat in this game")

Line = dict[str, Any]


async def bot_player(request: HTTPConnection, scope: str) -> Player:
    """The player a request comes from: its API token's (``Authorization: Bearer``,
    which must carry ``scope``), else its cookie's.

    :raises ServerError: 401 no player; 401/403 a token missing, invalid or without
        ``scope`` (``server/people/tokens.py``).
    """
    return await token_or_cookie_player(request, scope)


class BotStore(Repository):
    """What the event stream reads of the lobby's tables when it opens."""

    def challenges_to(self, player_id: str) -> list[tuple[str, str, bool]]:
        """The open direct challenges to ``player_id``, oldest first (the first
        :data:`CHALLENGES_TOLD_ON_OPENING`): each one's match, creator and ``rated``."""
        with self._session() as session:
            rows = session.execute(
                select(ChallengeRow.match_id, ChallengeRow.creator_id, ChallengeRow.rated)
                .join(DirectChallengeRow, DirectChallengeRow.match_id == ChallengeRow.match_id)
                .where(DirectChallengeRow.to_id == player_id, ChallengeRow.closed.is_(None))
                .order_by(ChallengeRow.created_at, ChallengeRow.match_id)
                .limit(CHALLENGES_TOLD_ON_OPENING)
            )
            return [(match_id, creator, rated) for match_id, creator, rated in rows]

    def open_to_all(self, player_id: str) -> list[tuple[str, str, bool, bool]]:
        """The open lobby challenges (to anyone: not direct) of others in which
        ``player_id`` holds no seat, oldest first (the first :data:`OPEN_CHALLENGES_TOLD`):
        each one's match, creator, ``rated`` and whether its creator is a bot."""
        with self._session() as session:
            seated = select(SeatPlayerRow.match_id).where(SeatPlayerRow.player_id == player_id)
            rows = session.execute(
                select(
                    ChallengeRow.match_id,
                    ChallengeRow.creator_id,
                    ChallengeRow.rated,
                    BotPlayerRow.player_id,
                )
                .outerjoin(DirectChallengeRow, DirectChallengeRow.match_id == ChallengeRow.match_id)
                .outerjoin(BotPlayerRow, BotPlayerRow.player_id == ChallengeRow.creator_id)
                .where(
                    ChallengeRow.closed.is_(None),
                    DirectChallengeRow.match_id.is_(None),
                    ChallengeRow.creator_id != player_id,
                    ChallengeRow.match_id.not_in(seated),
                )
                .order_by(ChallengeRow.created_at, ChallengeRow.match_id)
                .limit(OPEN_CHALLENGES_TOLD)
            )
            return [(match, creator, rated, bot is not None) for match, creator, rated, bot in rows]


@dataclasses.dataclass(eq=False)
class _EventStream:
    """One open event stream of a player: the lines to send, the games it named."""

    player_id: str
    lines: asyncio.Queue[Line] = dataclasses.field(default_factory=asyncio.Queue)
    started: set[str] = dataclasses.field(default_factory=set)
    finished: set[str] = dataclasses.field(default_factory=set)
    challenges: set[str] = dataclasses.field(default_factory=set)
    lobby: bool = False
    """Whether it is told of the open lobby challenges its player may take."""


class _QueueSender:
    """A game stream's side of the hub's :class:`Connection`: what the hub sends it
    (views, presence, chat) is queued; the stream keeps the views."""

    def __init__(self) -> None:
        self.texts: asyncio.Queue[str] = asyncio.Queue()

    async def send_text(self, data: str) -> None:
        self.texts.put_nowait(data)


@dataclasses.dataclass(eq=False)
class _GameStream:
    """One open stream of a game: the hub's connection it holds while open."""

    player_id: str
    match_id: str
    sender: _QueueSender
    connection: Connection | None = None


class Bots:
    """The open streams of this process, told by the lobby and the hub."""

    def __init__(
        self,
        lobby: Lobby,
        hub: Hub,
        fanout: FanOut,
        *,
        keep_alive_seconds: float = KEEP_ALIVE_SECONDS,
        streams_per_player: int = STREAMS_PER_PLAYER,
        rates: dict[str, Rate] | None = None,
    ) -> None:
        self.lobby = lobby
        self.hub = hub
        self.store = BotStore(lobby.store.engine)
        self.keep_alive_seconds = keep_alive_seconds
        self.streams_per_player = streams_per_player
        self.rates = ClientRates(BOT_RATES if rates is None else rates)
        self.fanout = fanout
        self._events: dict[str, set[_EventStream]] = collections.defaultdict(set)
        self._open: collections.Counter[str] = collections.Counter()
        self._pending: set[str] = set()
        """The matches this process just committed a join or an ending to."""
        lobby.challenged.append(self._challenged)
        hub.service.committed.append(self._committed)
        hub.neighbours.after_change.append(self._changed)
        fanout.subscribe(BOTS_TOPIC, self._heard)
        fanout.subscribe(LOBBY_TOPIC, self._lobby_changed)
        fanout.subscribe(RESYNC, self._lobby_changed)

    # ----- allowances -----------------------------------------------------------------

    async def spend(self, kind: str, player: Player) -> None:
        """Spend one ``kind`` request of ``player``'s allowance.

        :raises RetryLaterError: 429, it is spent.
        """
        client = f"player:{player.id}"
        if self.rates.shared is None:
            wait = self.rates.take(kind, client)
        else:
            wait = await allowances_off_loop(self.rates.take, kind, client)
        if wait:
            raise RetryLaterError(wait)

    def check_room(self, player: Player) -> None:
        """:raises ServerError: 429, ``player`` holds :attr:`streams_per_player` streams
        open already (checked before a stream's answer starts)."""
        if self._open[player.id] >= self.streams_per_player:
            raise ServerError(429, TOO_MANY_STREAMS, limit=self.streams_per_player)

    def _opened(self, player: Player) -> None:
        """Count one more stream of ``player`` open.

        :raises ServerError: 429, they hold :attr:`streams_per_player` already.
        """
        self.check_room(player)
        self._open[player.id] += 1

    def _closed(self, player_id: str) -> None:
        self._open[player_id] -= 1
        if self._open[player_id] <= 0:
            del self._open[player_id]

    # ----- the event stream -------------------------------------------------------------

    def _challenged(self, player_id: str, message: dict[str, Any]) -> None:
        if message.get("type") != "challenge":
            return  # (a decline of the bot's challenge is not an event of the API)
        self._tell({player_id: {"type": "challenge", "challenge": message}})

    def _committed(self, match: Match, records: Sequence[EventRecord]) -> None:
        """A :attr:`MatchService.committed` listener: a seat taken or the game ended
        here is told once its change is done (:meth:`_changed`)."""
        if any(record.kind in STARTING_OR_ENDING for record in records):
            self._pending.add(match.id)

    async def _changed(self, match: Match) -> None:
        """A match this process committed a join or an ending to changed: tell the
        event streams (on every server process) of the players holding its seats that
        it started (every seat taken) or finished."""
        if match.id not in self._pending:
            return
        self._pending.discard(match.id)
        if not match.over and match.free_seats():
            return
        holders = await self.lobby.holders_async(match)
        seats: dict[str, int] = {}
        for seat, player_id in sorted(holders.items(), reverse=True):
            seats[player_id] = seat  # (the first seat of a player holding more)
        lines: dict[str, Line] = {}
        for player_id, seat in seats.items():
            if match.over:
                lines[player_id] = {"type": "gameFinish", "game": {"id": match.id}}
            else:
                game = {
                    "id": match.id,
                    "game": match.game_name,
                    "options": public_options(match.options),
                    "seat": seat,
                }
                lines[player_id] = {"type": "gameStart", "game": game}
        self._tell(lines)

    def _tell(self, lines: dict[str, Line]) -> None:
        """Send each player's line to their event streams on every server process."""
        if lines:
            self.fanout.broadcast(BOTS_TOPIC, {"lines": lines})

    async def _heard(self, data: dict[str, Any]) -> None:
        """A :data:`BOTS_TOPIC` message, from any process: for the streams held here."""
        lines = data.get("lines")
        if not isinstance(lines, dict):
            return
        for player_id, line in lines.items():
            for stream in list(self._events.get(player_id, ())):
                self._put(stream, line)

    def _put(self, stream: _EventStream, line: Line) -> None:
        """Queue ``line`` for ``stream``: a game's start and finish once each."""
        kind = line.get("type")
        game = line.get("game")
        if kind == "challenge":
            self._challenge(stream, line["challenge"])
        elif kind == "gameStart" and isinstance(game, dict):
            self._start(stream, str(game["id"]), str(game["game"]), game["options"], game["seat"])
        elif kind == "gameFinish" and isinstance(game, dict):
            self._finish(stream, str(game["id"]))

    def _challenge(self, stream: _EventStream, challenge: dict[str, Any]) -> None:
        """Queue a challenge for ``stream`` (once: also when it opened)."""
        if challenge.get("challenge") in stream.challenges:
            return
        stream.challenges.add(str(challenge.get("challenge")))
        stream.lines.put_nowait({"type": "challenge", "challenge": challenge})

    def _start(
        self, stream: _EventStream, match_id: str, game: str, options: Any, seat: int
    ) -> None:
        if match_id in stream.started:
            return
        stream.started.add(match_id)
        started = {"id": match_id, "game": game, "options": public_options(options), "seat": seat}
        stream.lines.put_nowait({"type": "gameStart", "game": started})

    def _finish(self, stream: _EventStream, match_id: str) -> None:
        if match_id in stream.finished or match_id not in stream.started:
            return
        stream.finished.add(match_id)
        stream.lines.put_nowait({"type": "gameFinish", "game": {"id": match_id}})

    async def _lobby_changed(self, _data: dict[str, Any]) -> None:
        """The lobby changed (on any server process): the streams here that asked are
        told of the open challenges they were not told of yet."""
        for streams in list(self._events.values()):
            for stream in list(streams):
                if stream.lobby:
                    await self._tell_open(stream)

    async def _tell_open(self, stream: _EventStream) -> None:
        """Queue for ``stream`` a ``challenge`` (with ``"lobby": true``) for each open
        lobby challenge its player may take (:func:`bot_may_take`, no block between them)
        that it was not told of yet (database reads in database threads)."""
        player_id = stream.player_id
        found = await off_loop(self.store.open_to_all, player_id)
        fresh = [row for row in found if row[0] not in stream.challenges]
        if not fresh:
            return
        is_bot = await off_loop(tokens_on(self.lobby.store.engine).is_bot, player_id)
        blocks = self.lobby.blocks
        for match_id, creator_id, rated, creator_bot in fresh:
            if not bot_may_take(rated, is_bot, creator_bot):
                continue
            if await off_loop(blocks.blocked_among, player_id, {creator_id}):
                continue
            creator = await off_loop(self.lobby.players.by_id, creator_id)
            try:
                match = await self.hub.load_async(match_id)
            except ServerError:
                continue
            name = "" if creator is None else creator.name
            self._challenge(stream, {**challenge_message(match, name, rated), "lobby": True})

    def open_events(self, player: Player, *, lobby: bool = False) -> _EventStream:
        """A new event stream of ``player``, told of events from now on (closed by
        :meth:`close_events`); ``lobby``: of the open lobby challenges they may take too.

        :raises ServerError: 429, too many streams open.
        """
        self._opened(player)
        stream = _EventStream(player.id, lobby=lobby)
        self._events[player.id].add(stream)
        self.lobby.arrived(player.id)  # their open challenges live while it is open
        return stream

    def close_events(self, stream: _EventStream) -> None:
        """The client of ``stream`` went (again: nothing)."""
        streams = self._events.get(stream.player_id)
        if streams is None or stream not in streams:
            return
        streams.discard(stream)
        if not streams:
            del self._events[stream.player_id]
        self._closed(stream.player_id)
        self.lobby.left(stream.player_id)

    async def event_lines(self, stream: _EventStream) -> AsyncIterator[str]:
        """The lines of an event stream: first a ``challenge`` for each open direct
        challenge to its player, a ``gameStart`` for each game of theirs going on and,
        if it asked, a ``challenge`` for each open lobby challenge they may take; then
        each event as it comes, an empty line when quiet."""
        for match_id, creator_id, rated in await off_loop(
            self.store.challenges_to, stream.player_id
        ):
            creator = await off_loop(self.lobby.players.by_id, creator_id)
            match = await self.hub.load_async(match_id)
            name = "" if creator is None else creator.name
            self._challenge(stream, challenge_message(match, name, rated))
        rows = await off_loop(self.lobby.store.matches_of, stream.player_id)
        for row in rows[:GAMES_TOLD_ON_OPENING]:
            seat = _going_on_seat(row, stream.player_id)
            if seat is not None:
                self._start(stream, row.id, row.game, row.options, seat)
        if stream.lobby:
            await self._tell_open(stream)
        while True:
            line = await self._next_line(stream.lines)
            if line == "\n" and stream.lobby and not self.fanout.hears_topics:
                await self._tell_open(stream)  # (other processes' changes are not heard)
            yield line

    async def _next_line(self, lines: asyncio.Queue[Line]) -> str:
        try:
            line = await asyncio.wait_for(lines.get(), self.keep_alive_seconds)
        except TimeoutError:
            return "\n"
        return json.dumps(line) + "\n"

    # ----- a game's stream --------------------------------------------------------------

    async def seat_of(self, player: Player, match_id: str) -> int:
        """The seat ``player`` holds in the match.

        :raises ServerError: 404 no such match; 403 they hold none.
        """
        await self.hub.load_async(match_id)  # 404 if there is none
        seat = await off_loop(self.lobby.player_seat, player, match_id, None)
        if seat is None:
            raise ServerError(403, NOT_YOUR_GAME)
        return seat

    async def open_game(self, player: Player, match_id: str) -> _GameStream:
        """A new stream of ``player``'s seat in the match, its view queued first (closed
        by :meth:`close_game`).

        :raises ServerError: 404 no such match; 403 they hold no seat in it; 429 too
            many streams or connections open.
        """
        seat = await self.seat_of(player, match_id)
        self.check_room(player)
        hub = self.hub
        stream = _GameStream(player.id, match_id, _QueueSender())
        stream.connection = Connection(stream.sender, seat, f"player:{player.id}")
        async with hub.lock(match_id):
            match = await _fresh(hub, match_id)
            self._opened(player)
            try:
                hub.add(match_id, stream.connection)  # over the client's cap: refused
            except ServerError:
                self._closed(player.id)
                raise
            await hub.send_view(stream.connection, match)
        return stream

    def close_game(self, stream: _GameStream) -> None:
        """The client of ``stream`` went, or its game ended (again: nothing)."""
        if stream.connection is None:
            return
        self.hub.remove(stream.match_id, stream.connection)
        stream.connection = None
        self._closed(stream.player_id)

    async def game_lines(self, stream: _GameStream) -> AsyncIterator[str]:
        """The lines of a game's stream: ``gameFull``, then a ``gameState`` after every
        change, until the game is over."""
        kind = "gameFull"
        while True:
            try:
                text = await asyncio.wait_for(stream.sender.texts.get(), self.keep_alive_seconds)
            except TimeoutError:
                yield "\n"
                continue
            view = json.loads(text)
            if view.get("type") != "state":
                continue  # presence, chat: not the API's
            yield json.dumps({"type": kind, "view": view}) + "\n"
            kind = "gameState"
            if view.get("result") is not None:
                self.close_game(stream)
                return

    # ----- actions ----------------------------------------------------------------------

    async def act(
        self,
        player: Player,
        match_id: str,
        action: Callable[[Hub, Match, int, float], Awaitable[None]],
    ) -> None:
        """Carry out ``action`` for ``player``'s seat in the match, under its lock, and
        announce the change (also when a refusal committed something: a late move's
        flag)."""
        await self.spend(ACTIONS, player)
        seat = await self.seat_of(player, match_id)
        hub = self.hub
        received = hub.service.clock()
        async with hub.lock(match_id):
            match = await _fresh(hub, match_id)
            before = match.event
            try:
                await action(hub, match, seat, received)
            except StairgamesError:
                if match.event != before:
                    await hub.changed(match)
                raise
            await hub.changed(match)


async def _fresh(hub: Hub, match_id: str) -> Match:
    """The match, with what other server processes committed since (off the loop)."""
    match = await hub.load_async(match_id)
    return await hub.service.in_thread(hub.service.refresh, match)


def _going_on_seat(row: GameRow, player_id: str) -> int | None:
    """The seat ``player_id`` holds in the game of ``row`` if it goes on with every seat
    taken (each held by a player, or a computer's), else ``None``."""
    summary = row.summary
    if summary is None or summary["over"]:
        return None
    seats = summary["seats"]
    if any(i not in row.holders and s["kind"] != COMPUTER for i, s in enumerate(seats)):
        return None
    mine = [seat for seat, (holder, _name) in row.holders.items() if holder == player_id]
    return min(mine) if mine else None


class _Stream(StreamingResponse):
    """NDJSON lines; ``closed()`` is called when the answer ends, however it ends (the
    client gone, a failure, or its last line), even if no line was sent."""

    def __init__(self, lines: AsyncIterator[str], closed: Callable[[], None]) -> None:
        super().__init__(
            lines,
            media_type="application/x-ndjson",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )
        self.closed = closed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.closed()


# ----- the actions, one each ------------------------------------------------------------


def _move(move: str) -> Callable[[Hub, Match, int, float], Awaitable[None]]:
    async def play(hub: Hub, match: Match, seat: int, received: float) -> None:
        await hub.service.move_async(match, seat, move, received=received)

    return play


async def _resign(hub: Hub, match: Match, seat: int, _received: float) -> None:
    await hub.service.in_thread(hub.service.resign, match, seat)


def _offer(kind: str) -> Callable[[Hub, Match, int, float], Awaitable[None]]:
    async def offer(hub: Hub, match: Match, seat: int, _received: float) -> None:
        service = hub.service
        if kind == "takeback":
            await service.in_thread(service.ask_takeback, match, seat)
            return
        new_match = await service.in_thread(service.rematch, match, seat)
        if new_match is not None:
            hub.start_computer(new_match)

    return offer


def _answer(kind: str, accept: bool) -> Callable[[Hub, Match, int, float], Awaitable[None]]:
    async def answer(hub: Hub, match: Match, seat: int, received: float) -> None:
        service = hub.service
        if kind == "takeback":
            await service.in_thread(service.answer_takeback, match, seat, accept)
        elif accept:
            await _offer("rematch")(hub, match, seat, received)
        else:
            await service.in_thread(service.decline_rematch, match, seat)

    return answer


def add_bot_routes(app: FastAPI) -> None:
    """``/api/stream/event``, ``/api/bot/game/stream/{match}`` and the bot's actions
    (docs/bots.md)."""

    @app.get("/api/stream/event", **answers(EventStreamLine))
    async def event_stream(request: Request, lobby: bool = False) -> StreamingResponse:
        bots = BOTS.of(request)
        player = await _either_scope(request)
        await bots.spend(STREAMS, player)
        stream = bots.open_events(player, lobby=lobby)
        return _Stream(bots.event_lines(stream), lambda: bots.close_events(stream))

    @app.get("/api/bot/game/stream/{match_id}", **answers(GameLine))
    async def game_stream(match_id: str, request: Request) -> StreamingResponse:
        bots = BOTS.of(request)
        player = await bot_player(request, BOT_PLAY)
        await bots.spend(STREAMS, player)
        stream = await bots.open_game(player, match_id[:64])
        return _Stream(bots.game_lines(stream), lambda: bots.close_game(stream))

    @app.post("/api/bot/game/{match_id}/move/{move:path}", **answers(Ok))
    async def move(match_id: str, move: str, _body: NoFields, request: Request) -> Any:
        player = await bot_player(request, BOT_PLAY)
        await BOTS.of(request).act(player, match_id[:64], _move(move[:200]))
        return {"ok": True}

    @app.post("/api/bot/game/{match_id}/resign", **answers(Ok))
    async def resign(match_id: str, _body: NoFields, request: Request) -> Any:
        player = await bot_player(request, BOT_PLAY)
        await BOTS.of(request).act(player, match_id[:64], _resign)
        return {"ok": True}

    @app.post("/api/bot/game/{match_id}/offer", **answers(Ok))
    async def offer(match_id: str, body: OfferBody, request: Request) -> Any:
        player = await bot_player(request, BOT_PLAY)
        await BOTS.of(request).act(player, match_id[:64], _offer(body.kind))
        return {"ok": True}

    @app.post("/api/bot/game/{match_id}/answer", **answers(Ok))
    async def answer(match_id: str, body: AnswerBody, request: Request) -> Any:
        player = await bot_player(request, BOT_PLAY)
        await BOTS.of(request).act(player, match_id[:64], _answer(body.kind, body.accept))
        return {"ok": True}

    @app.post("/api/bot/challenge/{match_id}/accept", **answers(ChallengeAccepted))
    async def accept(match_id: str, _body: NoFields, request: Request) -> Any:
        player = await _either_scope(request)
        await BOTS.of(request).spend(ACTIONS, player)
        return await LOBBY.of(request).accept(player, match_id[:64])

    @app.post("/api/bot/challenge/{match_id}/decline", **answers(Ok))
    async def decline(match_id: str, _body: NoFields, request: Request) -> Any:
        player = await _either_scope(request)
        await BOTS.of(request).spend(ACTIONS, player)
        await LOBBY.of(request).decline(player, match_id[:64])
        return {"ok": True}


async def _either_scope(request: HTTPConnection) -> Player:
    """The player of a request that ``bot:play`` or ``challenge:write`` allows.

    :raises ServerError: as :func:`bot_player`.
    """
    try:
        return await bot_player(request, BOT_PLAY)
    except ServerError as exc:
        if exc.status != 403:
            raise
        return await bot_player(request, CHALLENGE_WRITE)


def start_bots(app: FastAPI, lobby: Lobby, hub: Hub) -> Bots:
    """The app's bots' streams, told by ``lobby``, ``hub`` and the other server
    processes (the fan-out's :data:`BOTS_TOPIC`) from now on: after the fan-out."""
    return BOTS.keep(app, Bots(lobby, hub, FANOUT.of(app)))


BOTS: Kept[Bots] = Kept("bots")
"""The app's bots' streams (``app.state.bots``)."""
