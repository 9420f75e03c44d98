"""Told wherever you are: each player's channel, ``WS /ws/me`` (issue 51).

Every page of the site opens it (``web/static/told.js``); it is the player's, known by the
session cookie (a browser that is no player is told why, ``{"type": "error"}``, and the
socket closed with code 4401). It sends (the models: :mod:`.told_contract`):

- ``{"type": "me", "waiting", "games", "title"}`` on connecting and whenever the count
  changes: how many of the player's games wait for their move (``waiting``, as
  ``GET /api/my/games`` counts them: a game they hid is not counted), which
  (``games``), and the tab title's words
  ("(2) Your turn"; ``None`` when none waits);
- ``{"type": "your_turn", "match", "game", "title", "against", "text"}`` when a game
  comes to the player's move: a move, a join or a computer's reply made by *another*
  seat left it at a seat the player holds (their own step that leaves them to act, a
  die rolled in their turn, tells nothing);
- ``{"type": "ended", "match", "game", "result"}`` when one of their games ends (a move
  that ends it, a resignation, a flag, an abort);
- ``{"type": "mention", "match", "from", "text"}`` when a chat message names them:
  ``@Name``, or their name as a word (not inside a longer word), whatever the case; not
  for their own messages, and not to a player holding a seat of the match for a message
  of the spectators' room, which they never read.

- ``{"type": "challenge", "challenge", "from", "game", "title", "rated",
  "time_control", "text"}`` when a player challenges them directly (a challenge that
  names them, ``POST /api/challenges`` with ``"to"``; the lobby's open ones name
  nobody); ``{"type": "declined", "challenge", "by", "game", "text"}`` to a challenge's
  creator when the player it names declined it (:attr:`Lobby.challenged`).

**Across server processes.** A game's change is told by the process that commits it
(:attr:`MatchService.committed`, once, whichever process watches the match; told after
the commit's work, :attr:`HubNeighbours.after_change`, when the seat a join gave is
recorded), which tells
its players on the fan-out's :data:`ME_TOPIC` (``{"to": [player ids], "message": ...}``,
``message`` ``None`` for "count again"); each process sends it to the sockets of those
players it holds, and counts their waiting games again (the ``me`` message goes only when
the count or the games changed). Mentions come from the chat's own topic (``chat``: a
message taken, on whatever process), which every process reads for the players it
holds. Where the fan-out carries no topics (polling, several processes without
PostgreSQL), a player is told of what their own process committed only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections import defaultdict
from collections.abc import Sequence
from typing import Any, Final

from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from stairgames.core.registry import get_spec
from stairgames.i18n import N_, Names, Text, text_json
from stairgames.server.base.errors import ServerError, error_json
from stairgames.server.base.outages import log_failure
from stairgames.server.base.state import Kept
from stairgames.server.base.store import EventRecord, off_loop
from stairgames.server.chat.chat import CHAT, CHAT_TOPIC, SPECTATORS, ChatMessage, ChatStore
from stairgames.server.lobby.lobby import LOBBY, Lobby
from stairgames.server.people.players import current_player_async
from stairgames.server.play.fanout import FANOUT, RESYNC, FanOut
from stairgames.server.play.match import Match
from stairgames.server.play.seats import COMPUTER
from stairgames.server.play.turns import came_to

log = logging.getLogger(__name__)

ME_TOPIC: Final = "me"
"""The fan-out's topic of the players' channels: ``{"to": [player ids], "message"}``."""
ENDING_KINDS: Final = frozenset({"move", "resign", "flag", "abort"})
"""The events that may end a game (others come after its end: rematch offers...)."""
NO_PLAYER_CODE: Final = 4401
"""The close code of ``/ws/me`` for a browser that is no player."""
PENDING_AT_MOST: Final = 1000
"""Matches whose commits wait to be told, beyond which the oldest are forgotten."""
SOCKETS_PER_PLAYER: Final = 32
"""The most ``/ws/me`` sockets one player keeps open on one process (more: the oldest is
closed, 4429): a tab each, with room to spare."""


def mentions(text: str, name: str) -> bool:
    """Whether ``text`` names the player called ``name``: ``@name``, or ``name`` as a
    word (neither letter, digit nor ``_`` just before or after it), case ignored."""
    if not name.strip():
        return False
    pattern = rf"(?:@|(?<!\w)){re.escape(name)}(?!\w)"
    return re.search(pattern, text, flags=re.IGNORECASE) is not None


def ended(match: Match, records: Sequence[EventRecord]) -> bool:
    """Whether these committed ``records`` ended ``match``."""
    return match.over and any(record.kind in ENDING_KINDS for record in records)


class Told:
    """The ``/ws/me`` sockets of this process, and what they are told (see the module's
    text)."""

    def __init__(self, lobby: Lobby, chat: ChatStore, fanout: FanOut) -> None:
        self.lobby = lobby
        self.chat = chat
        self.fanout = fanout
        self.sockets: dict[str, set[WebSocket]] = defaultdict(set)
        """Each player's open sockets here."""
        self.names: dict[str, str] = {}
        """Each player's name, as when their newest socket here opened."""
        self._counted: dict[str, tuple[str, ...]] = {}
        """The waiting games last sent to each player here."""
        self._pending: dict[str, list[EventRecord]] = {}
        """The events this process committed to each match, not yet told."""
        self._tasks: set[asyncio.Task[None]] = set()
        fanout.subscribe(ME_TOPIC, self._heard)
        fanout.subscribe(CHAT_TOPIC, self._said)
        fanout.subscribe(RESYNC, self._missed)

    # ----- sockets -------------------------------------------------------------------

    async def open(self, websocket: WebSocket, player_id: str, name: str) -> None:
        """Hold ``websocket`` for ``player_id`` and send it the waiting count."""
        held = self.sockets[player_id]
        if len(held) >= SOCKETS_PER_PLAYER:
            oldest = next(iter(held))
            held.discard(oldest)
            self.lobby.left(player_id)
            with contextlib.suppress(Exception):
                await oldest.close(code=4429)
        held.add(websocket)
        self.lobby.arrived(player_id)
        self.names[player_id] = name
        games = await self.waiting_games(player_id)
        self._counted[player_id] = games
        await self._send(websocket, _count_message(games))

    def close(self, websocket: WebSocket, player_id: str) -> None:
        held = self.sockets.get(player_id)
        if held is None or websocket not in held:
            return
        held.discard(websocket)
        self.lobby.left(player_id)
        if not held:
            del self.sockets[player_id]
            self.names.pop(player_id, None)
            self._counted.pop(player_id, None)

    async def _send(self, websocket: WebSocket, message: dict[str, Any]) -> None:
        with contextlib.suppress(Exception):  # a closed socket: its handler removes it
            await websocket.send_json(message)

    async def send(self, player_id: str, message: dict[str, Any]) -> None:
        """Send ``message`` to every socket of ``player_id`` here."""
        for websocket in list(self.sockets.get(player_id, ())):
            await self._send(websocket, message)

    # ----- the waiting count ---------------------------------------------------------

    async def waiting_games(self, player_id: str) -> tuple[str, ...]:
        """The player's games waiting for their move, newest first, by My games' rule
        (:meth:`Lobby.waiting_games`: a game they hid waits for nobody)."""
        return await self.lobby.waiting_games(player_id)

    async def recount(self, player_id: str) -> None:
        """Send ``player_id``'s sockets here the waiting count, if it changed."""
        if player_id not in self.sockets:
            return
        games = await self.waiting_games(player_id)
        if player_id not in self.sockets or self._counted.get(player_id) == games:
            return
        self._counted[player_id] = games
        await self.send(player_id, _count_message(games))

    # ----- telling -------------------------------------------------------------------

    def tell(self, players: Sequence[str], message: dict[str, Any] | None) -> None:
        """Tell ``players`` ``message`` (``None``: only count again) on every server
        process (here at once)."""
        if players:
            self.fanout.broadcast(ME_TOPIC, {"to": sorted(set(players)), "message": message})

    async def _heard(self, data: dict[str, Any]) -> None:
        """A :data:`ME_TOPIC` message, from any process: for the players held here."""
        to, message = data.get("to"), data.get("message")
        if not isinstance(to, list) or not (message is None or isinstance(message, dict)):
            return
        for player_id in to:
            if not isinstance(player_id, str) or player_id not in self.sockets:
                continue
            if message is not None:
                await self.send(player_id, message)
            await self.recount(player_id)

    async def _missed(self, _data: dict[str, Any]) -> None:
        """After a gap in the fan-out: count every player held here again."""
        for player_id in list(self.sockets):
            await self.recount(player_id)

    def committed(self, match: Match, records: Sequence[EventRecord]) -> None:
        """A :attr:`MatchService.committed` listener: this process committed ``records``
        to ``match``; its players are told once the commit's work is done (the seat a
        join gave recorded: :meth:`after_change`)."""
        if not any(record.seat is not None or record.kind in ENDING_KINDS for record in records):
            return  # (nothing a player did: no turn passes, nothing ends)
        self._pending.setdefault(match.id, []).extend(records)
        while len(self._pending) > PENDING_AT_MOST:  # (a commit no change followed)
            del self._pending[next(iter(self._pending))]

    def after_change(self, match: Match) -> None:
        """A :attr:`HubNeighbours.after_change` listener: tell the players of what this
        process committed to ``match`` (another's commit, followed here, was told there),
        in a task (their seats are read in a database thread)."""
        records = self._pending.pop(match.id, None)
        if not records:
            return
        task = asyncio.get_running_loop().create_task(self._tell_players(match, records))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _tell_players(self, match: Match, records: list[EventRecord]) -> None:
        try:
            holders = await self.lobby.holders_async(match)
            players = sorted(set(holders.values()))
            if not players:
                return
            if ended(match, records):
                self.tell(players, self._ended(match))
                return
            player = came_to(match, records, holders)
            if player is not None:
                self.tell([player], await self._your_turn(match, player, holders))
            self.tell([p for p in players if p != player], None)
        except Exception:  # telling must never stop a game
            log_failure(log, "telling the players of match %s failed", match.id)

    def _ended(self, match: Match) -> dict[str, Any]:
        return {
            "type": "ended",
            "match": match.id,
            "game": match.game_name,
            "result": match.summary()["result"],
        }

    async def _your_turn(
        self, match: Match, player: str, holders: dict[int, str]
    ) -> dict[str, Any]:
        names = await self.lobby.seat_names_async(match.id)
        against = [
            {
                "name": names.get(seat.seat) if seat.kind != COMPUTER else None,
                "level": (seat.player or "medium") if seat.kind == COMPUTER else None,
            }
            for seat in match.seats
            if holders.get(seat.seat) != player
        ]
        title = get_spec(match.game_name).title
        text = Text(
            N_("Your turn in {game} against {names}"),
            {"game": Text(title), "names": Names(tuple(_opponent(o) for o in against))},
        )
        return {
            "type": "your_turn",
            "match": match.id,
            "game": match.game_name,
            "title": title,
            "against": against,
            "text": text_json(text),
        }

    # ----- mentions --------------------------------------------------------------------

    async def _said(self, data: dict[str, Any]) -> None:
        """A chat message taken, on any process: tell the players held here it names."""
        match_id, message_id = data.get("match"), data.get("message")
        if not self.sockets or not isinstance(match_id, str) or type(message_id) is not int:
            return
        message = await off_loop(self.chat.get, message_id)
        if message is None or message.match_id != match_id or not message.text:
            return
        named = [
            player_id
            for player_id, name in list(self.names.items())
            if player_id != message.player_id and mentions(message.text, name)
        ]
        if not named:
            return
        if message.room == SPECTATORS:  # the players of the match never read it
            seated = set((await off_loop(self.lobby.store.seat_players, match_id)).values())
            named = [player_id for player_id in named if player_id not in seated]
        told = await self._mention(message)
        for player_id in named:
            await self.send(player_id, told)

    async def _mention(self, message: ChatMessage) -> dict[str, Any]:
        game = await off_loop(self._game_title, message.match_id)
        writer = Text("{name}", {"name": message.name}) if message.name else Text(N_("a guest"))
        text = Text(
            N_("{name} named you in the chat of {game}"), {"name": writer, "game": Text(game)}
        )
        return {
            "type": "mention",
            "match": message.match_id,
            "from": message.name,
            "text": text_json(text),
        }

    def _game_title(self, match_id: str) -> str:
        """The title (a message id) of the match's game (a database thread's work)."""
        return get_spec(self.lobby.hub.service.get(match_id).game_name).title

    async def close_all(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


def _opponent(opponent: dict[str, Any]) -> Text:
    """An opponent as the notification names them (a name as written, never translated)."""
    if opponent["name"] is not None:
        return Text("{name}", {"name": opponent["name"]})
    if opponent["level"] is not None:
        return Text(N_("the computer ({level})"), {"level": Text(opponent["level"])})
    return Text(N_("a guest"))


def _count_message(games: tuple[str, ...]) -> dict[str, Any]:
    title = Text(N_("({count}) Your turn"), {"count": len(games)}) if games else None
    return {
        "type": "me",
        "waiting": len(games),
        "games": list(games),
        "title": None if title is None else text_json(title),
    }


# ----- set-up and route --------------------------------------------------------------------


def start_told(app: FastAPI) -> Told:
    """Give ``app`` its players' channels (:data:`TOLD`), when it starts: after its
    lobby, chat and fan-out."""
    lobby, fanout = LOBBY.of(app), FANOUT.of(app)
    told = TOLD.keep(app, Told(lobby, CHAT.of(app).store, fanout))
    lobby.hub.service.committed.append(told.committed)
    lobby.hub.neighbours.after_change.append(told.after_change)
    lobby.games_changed.append(lambda player_id: told.tell([player_id], None))  # hid, showed
    lobby.challenged.append(lambda player_id, message: told.tell([player_id], message))
    return told


def add_told_routes(app: FastAPI) -> None:
    """``WS /ws/me`` (see the module's text)."""

    @app.websocket("/ws/me")
    async def me(websocket: WebSocket) -> None:
        told = TOLD.of(websocket)
        player = await current_player_async(websocket)
        await websocket.accept()
        if player is None:
            refused = ServerError(401, N_("choose a name first"))
            await websocket.send_json(
                {"type": "error", "error": error_json(refused), "event": None}
            )
            await websocket.close(code=NO_PLAYER_CODE)
            return
        try:
            await told.open(websocket, player.id, player.name)
            while True:
                await websocket.receive_text()  # nothing is asked here; keeps it open
        except WebSocketDisconnect:
            pass
        finally:
            told.close(websocket, player.id)


TOLD: Kept[Told] = Kept("told")
"""The app's players' channels (``app.state.told``)."""
