"""The chat of a match: a room for its players and one for its spectators.

Each match has two rooms. A seat's player writes in the **players' room**, which
everyone reads; anyone else with a player identity (the ``sg_player`` cookie,
:mod:`.players`) writes in the **spectators' room**, which only spectators read: the
players never see it, so nobody watching can help them. A player who resigned and left
(a computer plays on for them) watches, and chats, as a spectator.

Who writes is found as for every seat action: a seat's token (the ``X-Seat-Token``
header; never in the address) or the cookie of the player holding a seat (``?seat=N``
chooses among several); nobody writes for a seat they do not hold.

A reader who blocked or muted a player (:mod:`stairgames.server.people.blocks`) is not
listed that player's messages; the live ones go to every connection of a seat, and the
page hides them.

A message is a text, trimmed, of 1 to :data:`MAX_LENGTH` characters with no control
characters (nor line breaks, nor the invisible characters that reorder text), stored as
written and sent as JSON data (the page shows it as text, never as markup), or one of the
preset :data:`PHRASES`, sent as its id so that each reader reads it in their own
language. Each player may write :data:`CHAT_RATE` (five at once, then one every two
seconds); beyond, 429. The server adds nothing to the chat: a message carries who wrote
it (their name, or their seat for a seat without a player), what they wrote, and how
many moves the game had then (so that a replay shows what was said by then), nothing
a seat may not know.

``GET /api/matches/{id}/chat`` lists what the asker may read (the newest
:data:`MAX_LISTED`), ``POST /api/matches/{id}/chat`` writes (JSON: ``{"text": ...}`` or
``{"phrase": ...}``), and the match's WebSockets get each new message as ``{"type":
"chat", "match", "message"}``: the players' room's on every connection, the spectators'
on the spectators' only. With several server processes on one database, each delivers
the messages the others took to its own watchers: told of each on the fan-out's ``chat``
topic (``{"match", "message": id}``; the process reads the message from the database,
:meth:`Chat.share_through`), and, while the fan-out does not carry topics (polling, or
PostgreSQL's listening connection lost), by reading the new messages every
``follow_seconds`` (:meth:`Chat.follow_other_processes`). A player's allowance is shared
by the processes on PostgreSQL (:class:`stairgames.server.base.limits.SharedAllowances`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import json
import logging
import time
import unicodedata
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from fastapi import FastAPI, Request
from sqlalchemy import func, select
from sqlalchemy.engine import Engine

from stairgames.i18n import N_
from stairgames.server.base.contract import answers
from stairgames.server.base.errors import ServerError
from stairgames.server.base.limits import ClientRates, Clock, Rate, shared_allowances
from stairgames.server.base.outages import log_failure
from stairgames.server.base.state import Kept
from stairgames.server.base.store import ChatMessageRow, Repository, allowances_off_loop, off_loop
from stairgames.server.chat.contract import ChatBody, ChatListing, ChatMessageJson
from stairgames.server.lobby.lobby import lobby_of
from stairgames.server.people.blocks import blocks_on
from stairgames.server.people.players import Player, current_player_async
from stairgames.server.play.fanout import FANOUT, RESYNC, FanOut
from stairgames.server.play.hub import Hub
from stairgames.server.play.match import Match
from stairgames.server.play.seats import TOKEN_IN_ADDRESS

if TYPE_CHECKING:
    from stairgames.server.base.settings import Settings

log = logging.getLogger(__name__)

PLAYERS: Final = "players"
"""The players' room: written by the seats' players, read by everyone."""
SPECTATORS: Final = "spectators"
"""The spectators' room: written and read by spectators only."""
MAX_LENGTH: Final = 500
"""The most characters a message may have (once trimmed)."""
MAX_LISTED: Final = 200
"""The newest messages ``GET .../chat`` lists."""
CHAT_RATE: Final = Rate(per_minute=30, burst=5)
"""What one player may write, over every match: five messages at once, then one every
two seconds (at most ten in any ten seconds)."""
PHRASES: Final = {
    "hello": N_("Hello"),
    "good_luck": N_("Good luck"),
    "thank_you": N_("Thank you"),
    "good_game": N_("Good game"),
}
"""The preset phrases by id, with their message id (the English): a phrase travels as
its id and each reader reads it in their own language."""
_REFUSED_CATEGORIES: Final = frozenset({"Cc", "Cs", "Zl", "Zp"})
"""Control characters (line breaks and tabs among them), lone surrogates, and line and
paragraph separators."""
_REORDERING: Final = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""The bidirectional embeddings, overrides and isolates, which would make a message
read other than it is written (joiners and variation selectors, which emoji and some
scripts need, are let through)."""
_REMEMBERED: Final = 10_000
"""Messages (by id) remembered as delivered, so that none is delivered twice."""
_LOOK_BACK: Final = 100
CHAT_TOPIC: Final = "chat"
"""The fan-out's topic of the chat: ``{"match", "message": id}``, a message taken."""
"""How far before the newest message seen the following of other processes reads again
(a message numbered earlier may be committed later)."""


@dataclasses.dataclass(frozen=True)
class ChatMessage:
    """One message as stored: ``text`` as written, or ``phrase`` (an id of
    :data:`PHRASES`); ``name`` the writer's name (``None`` for a seat without a player:
    the page names the seat); ``move`` how many moves the game had when it was said."""

    id: int
    match_id: str
    room: str
    seat: int | None
    player_id: str | None
    name: str | None
    text: str | None
    phrase: str | None
    move: int
    created_at: datetime.datetime

    def json(self) -> dict[str, Any]:
        """The message as readers get it (the writer's player id stays on the server)."""
        at = self.created_at
        if at.tzinfo is None:  # SQLite gives back naive datetimes: they were UTC
            at = at.replace(tzinfo=datetime.UTC)
        return {
            "id": self.id,
            "room": self.room,
            "seat": self.seat,
            "name": self.name,
            "text": self.text,
            "phrase": self.phrase,
            "move": self.move,
            "at": at.isoformat(timespec="seconds"),
        }


def _message(row: ChatMessageRow) -> ChatMessage:
    return ChatMessage(
        id=row.id,
        match_id=row.match_id,
        room=row.room,
        seat=row.seat,
        player_id=row.player_id,
        name=row.name,
        text=row.text,
        phrase=row.phrase,
        move=row.move,
        created_at=row.created_at,
    )


class ChatStore(Repository):
    """The ``chat_messages`` table (:mod:`.store`)."""

    def post(
        self,
        match_id: str,
        *,
        room: str,
        seat: int | None,
        player_id: str | None,
        name: str | None,
        text: str | None = None,
        phrase: str | None = None,
        move: int = 0,
    ) -> ChatMessage:
        """Store a message (checked already: :func:`clean_text`, :func:`read_message`)."""
        with self._session() as session:
            row = ChatMessageRow(
                match_id=match_id,
                room=room,
                seat=seat,
                player_id=player_id,
                name=name,
                text=text,
                phrase=phrase,
                move=move,
                created_at=datetime.datetime.now(datetime.UTC),
            )
            session.add(row)
            session.flush()
            return _message(row)

    def list(
        self, match_id: str, rooms: Sequence[str], limit: int = MAX_LISTED
    ) -> tuple[ChatMessage, ...]:
        """The newest ``limit`` messages of the match in ``rooms``, oldest first."""
        with self._session() as session:
            rows = session.scalars(
                select(ChatMessageRow)
                .where(ChatMessageRow.match_id == match_id, ChatMessageRow.room.in_(list(rooms)))
                .order_by(ChatMessageRow.id.desc())
                .limit(limit)
            ).all()
            return tuple(_message(row) for row in reversed(rows))

    def newest_id(self) -> int:
        """The number of the newest message of any match (0: none)."""
        with self._session() as session:
            return int(session.scalar(select(func.max(ChatMessageRow.id))) or 0)

    def get(self, message_id: int) -> ChatMessage | None:
        with self._session() as session:
            row = session.get(ChatMessageRow, message_id)
            return None if row is None else _message(row)

    def since(self, after: int, match_ids: Sequence[str]) -> tuple[ChatMessage, ...]:
        """The messages numbered after ``after`` of the matches ``match_ids``, in order."""
        if not match_ids:
            return ()
        with self._session() as session:
            rows = session.scalars(
                select(ChatMessageRow)
                .where(ChatMessageRow.id > after, ChatMessageRow.match_id.in_(list(match_ids)))
                .order_by(ChatMessageRow.id)
            ).all()
            return tuple(_message(row) for row in rows)


# ----- what may be said -------------------------------------------------------------------


def clean_text(text: object) -> str:
    """``text`` trimmed, if it may be said in a chat.

    >>> clean_text("  good luck! <b>  ")
    'good luck! <b>'

    :raises ServerError: 400, saying what is wrong with it.
    """
    if not isinstance(text, str):
        raise ServerError(400, N_("a chat message must be text"))
    said = text.strip()
    if not said:
        raise ServerError(400, N_("a chat message cannot be empty"))
    if len(said) > MAX_LENGTH:
        raise ServerError(400, N_("a chat message has at most {max} characters"), max=MAX_LENGTH)
    if any(c in _REORDERING or unicodedata.category(c) in _REFUSED_CATEGORIES for c in said):
        raise ServerError(400, N_("a chat message may not hold control characters"))
    return said


def read_message(body: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """(text, phrase) of a request's body, ``{"text": ...}`` or ``{"phrase": id}``, one
    of them ``None``.

    >>> read_message({"phrase": "good_game"})
    (None, 'good_game')

    :raises ServerError: 400, neither or both, a bad text, an unknown phrase.
    """
    if ("text" in body) == ("phrase" in body):
        raise ServerError(400, N_("a chat message has either a 'text' or a 'phrase'"))
    if "text" in body:
        return clean_text(body["text"]), None
    phrase = body["phrase"]
    if not isinstance(phrase, str) or phrase not in PHRASES:
        raise ServerError(400, N_("unknown phrase {phrase!r}"), phrase=str(phrase)[:40])
    return None, phrase


def reads(match: Match, seat: int | None) -> tuple[str, ...]:
    """The rooms a viewer of ``match`` reads: a seat's player the players' only, a
    spectator (or a player who resigned and left) both."""
    if seat is not None and seat not in match.left:
        return (PLAYERS,)
    return (PLAYERS, SPECTATORS)


@dataclasses.dataclass(frozen=True)
class Speaker:
    """Who asks, as the chat sees them: the room they write in, the seat they write for
    (the players' room), and their player (``None``: a browser that is no player yet)."""

    room: str
    seat: int | None
    player: Player | None


# ----- the chat of every match --------------------------------------------------------------


class Chat:
    """Messages written, listed and delivered to each match's watchers; each player's
    allowance (:data:`CHAT_RATE`)."""

    def __init__(self, store: ChatStore, hub: Hub, clock: Clock = time.monotonic) -> None:
        self.store = store
        self.hub = hub
        self.clock = clock
        self.blocks = blocks_on(store.engine)
        """Whom each reader blocked or muted (their messages are not listed to them)."""
        self.rates = ClientRates({"chat": CHAT_RATE}, clock)
        """Each writer's allowance (shared with the other processes where they can)."""
        self._fanout: FanOut | None = None
        self._delivered: dict[int, None] = {}
        """The messages delivered here lately (oldest first), by id."""
        self._seen = 0
        """The newest message any process had taken when others' were last read."""

    async def match(self, match_id: str) -> Match:
        """The match (its newest events, for who left it), read in a database thread.

        :raises ServerError: 404, no such match.
        """
        service = self.hub.service
        return await service.in_thread(service.refresh, await self.hub.load_async(match_id))

    async def speaker(
        self, request: Request, match: Match, token: str | None, wanted: int | None
    ) -> Speaker:
        """Who ``request`` is in the match's chat: the player of a seat (its token, or a
        player holding it; ``wanted`` chooses among several), else a spectator.

        :raises ServerError: 400, a token in the address (as every request, see
            :func:`stairgames.server.play.routes._viewer`); 403, a token of no seat of the match.
        """
        if token is not None:
            raise ServerError(400, TOKEN_IN_ADDRESS)
        token = request.headers.get("x-seat-token")
        player = await current_player_async(request)
        if token:
            seat = match.seat_of(token)
            seats = [] if seat is None else [seat]
        elif player is not None:
            seats = await off_loop(lobby_of(request).store.seats_of, match.id, player.id)
        else:
            seats = []
        playing = [seat for seat in seats if seat not in match.left]
        if playing:
            return Speaker(PLAYERS, wanted if wanted in playing else playing[0], player)
        return Speaker(SPECTATORS, None, player)

    async def listing(self, match: Match, speaker: Speaker) -> dict[str, Any]:
        """``GET .../chat``: what ``speaker`` may read (read in a database thread), and
        how they may write."""
        rooms = reads(match, speaker.seat)
        messages = await off_loop(self.store.list, match.id, rooms)
        if speaker.player is not None:  # the messages of those they blocked or muted: hidden
            hidden = await off_loop(self.blocks.hidden_from, speaker.player.id)
            messages = tuple(m for m in messages if m.player_id not in hidden)
        return {
            "match": match.id,
            "room": speaker.room,
            "seat": speaker.seat,
            "rooms": list(rooms),
            "phrases": dict(PHRASES),
            "max_length": MAX_LENGTH,
            "messages": [m.json() for m in messages],
        }

    async def post(self, match: Match, speaker: Speaker, body: Mapping[str, Any]) -> ChatMessage:
        """Write what ``body`` says in ``speaker``'s room, and deliver it.

        :raises ServerError: 401, a spectator that is no player; 400, a bad message;
            429, the writer's allowance is spent.
        """
        if speaker.room == SPECTATORS and speaker.player is None:
            raise ServerError(401, N_("choose a name first"))
        text, phrase = read_message(body)
        if speaker.seat is not None:  # the name of the player holding the seat, if any
            name = (await self.hub.names_of(match.id)).get(speaker.seat)
            key = speaker.player.id if speaker.player else f"{match.id}/{speaker.seat}"
        else:
            assert speaker.player is not None  # (a spectator without one was refused)
            name, key = speaker.player.name, speaker.player.id

        await self._spend(key)
        async with self.hub.lock(match.id):
            message = await off_loop(
                self.store.post,
                match.id,
                room=speaker.room,
                seat=speaker.seat,
                player_id=speaker.player.id if speaker.player else None,
                name=name,
                text=text,
                phrase=phrase,
                move=match.state.move_number(),
            )
            await self.deliver(match, message)
        if self._fanout is not None:  # (here it is delivered already)
            self._fanout.broadcast(CHAT_TOPIC, {"match": match.id, "message": message.id})
        return message

    async def _spend(self, key: str) -> None:
        """:raises ServerError: 429, the writer's allowance is spent (the allowance read
        and written in a database thread where it is shared with other processes)."""
        if self.rates.shared is None:
            wait = self.rates.spend("chat", key)
        else:
            wait = await allowances_off_loop(self.rates.spend, "chat", key)
        self.rates.count("chat", accepted=wait == 0.0)
        if wait > 0:
            raise ServerError(429, N_("you are sending messages too quickly; wait a few seconds"))

    async def deliver(self, match: Match, message: ChatMessage) -> None:
        """Send ``message`` to the match's connections that may read it (once)."""
        if message.id in self._delivered:
            return
        self._delivered[message.id] = None
        while len(self._delivered) > _REMEMBERED:
            del self._delivered[next(iter(self._delivered))]
        text = json.dumps({"type": "chat", "match": match.id, "message": message.json()})
        await self.hub.tell(match.id, text, lambda seat: message.room in reads(match, seat))

    # ----- several server processes on one database ---------------------------------

    def share_through(self, fanout: FanOut) -> None:
        """Tell the other server processes of each message taken here, through
        ``fanout``, and deliver theirs here; after a gap in it, read what was missed."""
        self._fanout = fanout
        self._seen = self._seen or self.store.newest_id()  # (what was said before: not news)
        fanout.subscribe(CHAT_TOPIC, self._said_somewhere)
        fanout.subscribe(RESYNC, self._missed_somewhere)

    async def _said_somewhere(self, data: dict[str, Any]) -> None:
        """A message taken by some process: deliver it here (once)."""
        match_id, message_id = data.get("match"), data.get("message")
        if not isinstance(match_id, str) or type(message_id) is not int:
            return
        if message_id in self._delivered or not self.hub.watches(match_id):
            return
        message = await off_loop(self.store.get, message_id)
        if message is None or message.match_id != match_id:
            return
        async with self.hub.lock(match_id):
            await self.deliver(await self.hub.service.get_async(match_id), message)

    async def _missed_somewhere(self, _data: dict[str, Any]) -> None:
        try:
            await self.deliver_said_elsewhere()
        except Exception:
            log_failure(log, "reading other processes' chat messages failed")

    def _hears_others(self) -> bool:
        """Whether the fan-out tells this process of the others' messages now."""
        return self._fanout is not None and self._fanout.hears_topics

    async def follow_other_processes(self, seconds: float) -> None:
        """Every ``seconds`` while the fan-out does not tell of them, deliver to the
        watchers here the messages other server processes took; runs until cancelled."""
        self._seen = await off_loop(self.store.newest_id)
        while True:
            await asyncio.sleep(seconds)
            if self._hears_others():
                continue
            try:
                await self.deliver_said_elsewhere()
            except Exception:
                log_failure(log, "reading other processes' chat messages failed")

    async def deliver_said_elsewhere(self) -> None:
        """Deliver to the watchers here the messages other server processes took since
        those last read (read in a database thread)."""
        newest, said = await off_loop(self._said_since, self._seen - _LOOK_BACK, self.hub.watched())
        for message in said:
            if message.id in self._delivered:
                continue
            async with self.hub.lock(message.match_id):
                match = await self.hub.service.get_async(message.match_id)
                await self.deliver(match, message)
        self._seen = max(self._seen, newest)

    def _said_since(
        self, after: int, match_ids: Sequence[str]
    ) -> tuple[int, tuple[ChatMessage, ...]]:
        """The newest message's number, then the messages of ``match_ids`` numbered
        after ``after`` (a database thread's work)."""
        return self.store.newest_id(), self.store.since(after, match_ids)


# ----- set-up and routes -----------------------------------------------------------------


def chat_of(request: Request) -> Chat:
    return CHAT.of(request)


def start_chat(
    app: FastAPI, engine: Engine, hub: Hub, settings: Settings
) -> list[asyncio.Task[None]]:
    """Give ``app`` its chat (:data:`CHAT`), when it starts; the tasks it runs in
    the background (reading other server processes' messages, on a shared database)."""
    chat = CHAT.keep(app, Chat(ChatStore(engine), hub, settings.clock))
    chat.rates.shared = shared_allowances(engine, settings.shared())
    fanout = FANOUT.find(app)
    if fanout is not None:
        chat.share_through(fanout)
    if not settings.shared() or settings.follow_seconds <= 0:
        return []
    loop = asyncio.get_running_loop()
    return [loop.create_task(chat.follow_other_processes(settings.follow_seconds))]


def add_chat_routes(app: FastAPI) -> None:
    """``GET`` and ``POST /api/matches/{id}/chat`` (see ``docs/web.md``, "Chat"; their
    models: ``chat/contract.py``)."""

    @app.get("/api/matches/{match_id}/chat", **answers(ChatListing))
    async def chat_listing(
        match_id: str, request: Request, token: str | None = None, seat: int | None = None
    ) -> dict[str, Any]:
        chat = chat_of(request)
        match = await chat.match(match_id)
        return await chat.listing(match, await chat.speaker(request, match, token, seat))

    @app.post("/api/matches/{match_id}/chat", **answers(ChatMessageJson))
    async def chat_post(
        match_id: str,
        body: ChatBody,
        request: Request,
        token: str | None = None,
        seat: int | None = None,
    ) -> dict[str, Any]:
        chat = chat_of(request)
        match = await chat.match(match_id)
        speaker = await chat.speaker(request, match, token, seat)
        # (the fields it holds: a text or a phrase, checked by read_message)
        message = await chat.post(match, speaker, body.model_dump(exclude_unset=True))
        return message.json()


CHAT: Kept[Chat] = Kept("chat")
"""The app's chat (``app.state.chat``), made as it starts (:func:`start_chat`)."""


__all__ = [
    "CHAT",
    "CHAT_RATE",
    "MAX_LENGTH",
    "PHRASES",
    "PLAYERS",
    "SPECTATORS",
    "Chat",
    "ChatMessage",
    "ChatStore",
    "add_chat_routes",
    "clean_text",
    "read_message",
    "start_chat",
]
