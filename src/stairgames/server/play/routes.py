"""The match API (``/api/matches``: create, join, view, record, replay) and the WebSocket
a match is played over (``/ws/matches/{id}``), docs/web.md."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, cast

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, Response
from starlette.requests import HTTPConnection

from stairgames.core.errors import StairgamesError
from stairgames.i18n import N_
from stairgames.server.base.bodies import parse_object
from stairgames.server.base.contract import answers
from stairgames.server.base.errors import ServerError, error_json
from stairgames.server.base.limits import (
    too_large,
)
from stairgames.server.base.outages import DATABASE_DOWN, close_for_outage, outages_of
from stairgames.server.base.settings import DATA_DIR, Settings
from stairgames.server.base.store import (
    off_loop,
)
from stairgames.server.people.players import Player, current_player_async
from stairgames.server.people.tokens import reading_player
from stairgames.server.play.card_files import (
    resolve_cards_option,
)
from stairgames.server.play.clocks import requested_time_control
from stairgames.server.play.contract import (
    JoinedSeat,
    MatchCreated,
    MatchRecord,
    MatchView,
    MoveRequest,
    NewMatch,
    RematchDeclineRequest,
    RematchRequest,
    Replay,
    ResignRequest,
    SocketRequest,
    SyncRequest,
    TakebackAnswerRequest,
    TakebackRequest,
    UndoRequest,
    read_request,
)
from stairgames.server.play.fanout import FANOUT, FanOut
from stairgames.server.play.hub import HUB, Connection, Hub
from stairgames.server.play.matches import Match
from stairgames.server.play.seats import TOKEN_IN_ADDRESS

log = logging.getLogger(__name__)


class SeatHolders(Protocol):
    """Which player holds which seat: the lobby's (``lobby/``, above ``play``, so the app
    hands it to the routes: :class:`Neighbours`)."""

    def held(self, match_id: str) -> None:
        """Forget what is kept of the match's holders' names: a seat was just taken."""

    def player_seat(self, player: Player | None, match_id: str, wanted: int | None) -> int | None:
        """The seat ``player`` plays (``wanted`` if they hold it), else ``None``."""


@dataclasses.dataclass(frozen=True)
class Neighbours:
    """What the match routes ask of the domains above ``play``, which the app gives
    (``play`` imports none of them: docs/architecture.md, "The server's layers")."""

    seat_holders: Callable[[HTTPConnection], SeatHolders]
    """The request's app's seat holders (its lobby)."""
    stored_analysis: Callable[[HTTPConnection], Callable[[str], dict[str, Any] | None]]
    """The request's app's finished analyses, by match: a database read (its analyses')."""


def add_match_routes(app: FastAPI, settings: Settings, neighbours: Neighbours) -> None:
    """The match API (create, join, view, record, replay) and the WebSocket of a match."""
    _add_match_api(app, neighbours)
    _add_websocket(app, settings, neighbours.seat_holders)


def _add_match_api(app: FastAPI, neighbours: Neighbours) -> None:
    holders = neighbours.seat_holders

    @app.post("/api/matches", **answers(MatchCreated))
    async def create(body: NewMatch, request: Request) -> dict[str, Any]:
        game = body.game
        seats = cast("list[str]", body.seats)  # each checked by the service (parse_seat)
        hub = HUB.of(request)
        time_control = requested_time_control(body.time_control, game)
        options = await off_loop(resolve_cards_option, dict(body.options), DATA_DIR.of(request))
        # a start position (games without hidden cards), checked by the service
        position = cast("str | None", body.position)
        player = await current_player_async(request)
        player_id = None if player is None else player.id
        address = request.client.host if request.client else ""
        # a match of computers only is let in within limits (server/play/hub.py)
        with hub.computer_only_admission(seats, player_id, address) as admission:
            service = hub.service
            # the seats made for this browser are the player's, recorded with the match
            created = await service.in_thread(
                service.create, game, options, seats, time_control, position, player_id
            )
            admission.admit(created.match.id)
        async with hub.lock(created.match.id):
            await hub.changed(created.match)
        return {
            "match": created.match.id,
            "seats": [{"seat": s, "token": t} for s, t in sorted(created.tokens.items())],
            "invite": f"/m/{created.match.id}",
        }

    @app.post("/api/matches/{match_id}/join", **answers(JoinedSeat))
    async def join(match_id: str, request: Request) -> dict[str, Any]:
        hub = HUB.of(request)
        player = await current_player_async(request)
        async with hub.lock(match_id):
            match = await _fresh_match(hub, match_id)
            taker = player.id if player is not None else None
            seat, token = await hub.service.in_thread(hub.service.join, match, taker)
            holders(request).held(match_id)
            await hub.changed(match)
        return {"seat": seat, "token": token}

    @app.get("/api/matches/{match_id}", **answers(MatchView))
    async def view(
        match_id: str,
        request: Request,
        token: str | None = None,
        seat: int | None = None,
        texts: bool = False,
    ) -> dict[str, Any]:
        hub = HUB.of(request)
        match = await _fresh_match(hub, match_id)
        viewer = await _viewer(request, holders(request), match, token, seat)
        return await hub.view_async(match, viewer, texts=texts)

    @app.get("/api/matches/{match_id}/record", **answers(MatchRecord))
    async def record(
        match_id: str, request: Request, token: str | None = None, seat: int | None = None
    ) -> Response:
        hub = HUB.of(request)
        match = await _fresh_match(hub, match_id)
        data = await off_loop(
            match.record, await _viewer(request, holders(request), match, token, seat)
        )
        names = await hub.names_of(match.id)
        data["players"] = [names.get(i, kind) for i, kind in enumerate(data["players"])]
        stored = neighbours.stored_analysis(request)
        analysis = await off_loop(stored, match.id) if match.over else None
        if analysis is not None:  # the computer's analysis, once made (server/analysis/analysis.py)
            data["analysis"] = analysis
        filename = f"{match.game_name}-{match.id}.json"
        return JSONResponse(
            data, headers={"Content-Disposition": f'attachment; filename="{filename}"'}
        )

    @app.get("/api/matches/{match_id}/replay", **answers(Replay))
    async def replay(
        match_id: str, request: Request, token: str | None = None, seat: int | None = None
    ) -> dict[str, Any]:
        hub = HUB.of(request)
        match = await _fresh_match(hub, match_id)
        viewer = await _viewer(request, holders(request), match, token, seat)
        event, over, make = match.event, match.over, match.replay_frames(viewer)
        frames = await off_loop(make)  # a long game's: many ms (moves may come meanwhile)
        return {"match": match.id, "event": event, "over": over, "frames": frames}


async def _viewer(
    request: HTTPConnection,
    holders: SeatHolders,
    match: Match,
    token: str | None,
    seat: int | None,
) -> int | None:
    """The seat a request plays: its token's (the ``X-Seat-Token`` header, or a WebSocket's
    first message), else one its player holds (``seat`` if given, which they must hold;
    the player: the cookie's, or for a GET an API token's, ``people/tokens.py``), else
    none (a spectator). A token in the address (``?token=``) is refused: addresses end
    up in logs, histories and the ``Referer`` of other sites.

    :raises ServerError: 400, a token in the address; 403, a token of no seat here.
    """
    if token is not None:
        raise ServerError(400, TOKEN_IN_ADDRESS)
    token = request.headers.get("x-seat-token")
    if token:
        return match.seat_of(token)
    if isinstance(request, WebSocket):  # the match socket plays: the cookie's player
        player = await current_player_async(request)
    else:  # a GET that reads: an API token's (scope read or bot:play), else the cookie's
        player = await reading_player(request)
    return await off_loop(holders.player_seat, player, match.id, seat)


viewer_of = _viewer
"""The seat a request plays (:func:`_viewer`), for the routes of ``play/plans.py``."""


HELLO_SECONDS = 10.0
"""How long a WebSocket opened with ``?auth=message`` has to send its token."""


async def _first_message_token(websocket: WebSocket) -> str:
    """The seat token a WebSocket opened with ``?auth=message`` sends first:
    ``{"type": "hello", "token": "..."}``.

    :raises ServerError: 400, anything else or nothing within :data:`HELLO_SECONDS`.
    """
    try:
        raw = await asyncio.wait_for(websocket.receive_text(), HELLO_SECONDS)
        hello = json.loads(raw[:1000])
    except (TimeoutError, ValueError, KeyError, RuntimeError) as exc:
        raise ServerError(400, HELLO_EXPECTED) from exc
    token = hello.get("token") if isinstance(hello, dict) else None
    if not isinstance(hello, dict) or hello.get("type") != "hello" or not isinstance(token, str):
        raise ServerError(400, HELLO_EXPECTED)
    return token


HELLO_EXPECTED = N_("the first message must be a hello with the seat's token")


async def _fresh_match(hub: Hub, match_id: str) -> Match:
    """The match, with what other server processes committed since, read off the loop."""
    match = await hub.load_async(match_id)
    return await hub.service.in_thread(hub.service.refresh, match)


# ----- WebSocket -----------------------------------------------------------------


async def _handle(
    hub: Hub, match: Match, seat: int | None, message: dict[str, Any], received: float
) -> Match:
    """Carry out one client request on ``match`` (under its lock), received at
    ``received`` (the server's clock, before it waited for the lock: a move that arrived
    after its seat's time was up is refused and the seat flagged); the match to announce."""
    kind = message.get("type")
    if kind == "sync":
        return match
    seen = message.get("event")
    if kind == "move" and not isinstance(seen, int):
        raise ServerError(400, N_("a move must say the last event seen ('event')"))
    if seen is not None and (not isinstance(seen, int) or isinstance(seen, bool)):
        raise ServerError(400, N_("'event' must be a number"))
    if seen is not None and seen != match.event and kind not in ("rematch", "rematch_decline"):
        raise ServerError(
            409,
            N_("stale request: it was made at event {seen}, the match is at {event}"),
            seen=seen,
            event=match.event,
        )
    request = read_request(message)
    if request is None:
        raise ServerError(400, N_("unknown request type {type!r}"), type=str(kind)[:40])
    await _CARRY_OUT[type(request)](hub, match, seat, request, received)
    return match


async def _move(
    hub: Hub, match: Match, seat: int | None, request: MoveRequest, received: float
) -> None:
    # every move: its commit off the event loop
    await hub.service.move_async(match, seat, request.move, received=received)


async def _undo(hub: Hub, match: Match, seat: int | None, _r: UndoRequest, _at: float) -> None:
    # the others too: their reads and commits in a database thread
    await hub.service.in_thread(hub.service.undo, match, seat)


async def _takeback(
    hub: Hub, match: Match, seat: int | None, _r: TakebackRequest, _at: float
) -> None:
    await hub.service.in_thread(hub.service.ask_takeback, match, seat)


async def _takeback_answer(
    hub: Hub, match: Match, seat: int | None, request: TakebackAnswerRequest, _at: float
) -> None:
    await hub.service.in_thread(hub.service.answer_takeback, match, seat, request.accept)


async def _resign(hub: Hub, match: Match, seat: int | None, _r: ResignRequest, _at: float) -> None:
    await hub.service.in_thread(hub.service.resign, match, seat)


async def _rematch(
    hub: Hub, match: Match, seat: int | None, _r: RematchRequest, _at: float
) -> None:
    new_match = await hub.service.in_thread(hub.service.rematch, match, seat)
    if new_match is not None:
        hub.start_computer(new_match)


async def _rematch_decline(
    hub: Hub, match: Match, seat: int | None, _r: RematchDeclineRequest, _at: float
) -> None:
    await hub.service.in_thread(hub.service.decline_rematch, match, seat)


async def _sync(_hub: Hub, _match: Match, _seat: int | None, _r: SyncRequest, _at: float) -> None:
    pass  # (the view is sent again: _serve_messages)


_CARRY_OUT: dict[
    type[SocketRequest], Callable[[Hub, Match, int | None, Any, float], Awaitable[None]]
] = {
    SyncRequest: _sync,
    MoveRequest: _move,
    UndoRequest: _undo,
    TakebackRequest: _takeback,
    TakebackAnswerRequest: _takeback_answer,
    ResignRequest: _resign,
    RematchRequest: _rematch,
    RematchDeclineRequest: _rematch_decline,
}
"""How each request of :data:`SeatRequest` (``play/contract.py``) is carried out."""


async def _opened_match(hub: Hub, fanout: FanOut, match_id: str) -> Match:
    """The match a socket opens on (under its lock), up to date, its database reads off
    the event loop (:func:`_told_unheard` tells what this process had not announced)."""
    heard = hub.service.cached_event(match_id)
    await hub.service.get_async(match_id)
    match = await hub.service.follow_async(hub.load(match_id))
    await _told_unheard(hub, fanout, match, heard)
    return match


async def _current_match(hub: Hub, fanout: FanOut, match_id: str, *, shared: bool) -> Match:
    """The match a request is carried out on (under its lock): with other processes on
    the database (``shared``), with their new events, read off the event loop."""
    heard = hub.service.cached_event(match_id)
    known = await hub.service.get_async(match_id)
    match = await hub.service.follow_async(known) if shared else known
    await _told_unheard(hub, fanout, match, heard)
    return match


def _made_at_known(hub: Hub, match_id: str, raw: str | bytes, settings: Settings) -> bool:
    """Whether the request ``raw`` says it was made at the event this process knows as
    the match's last: then it is carried out without reading the database for newer
    events first (one statement a move fewer). Had another process committed one
    meanwhile (its notification still on its way), the request's commit conflicts, or
    the request is refused, and the match is followed then (:func:`_serve_messages`):
    what is accepted is the same either way. Any other request (none said, another
    event, a malformed or too large text) is carried out on the match followed first."""
    if len(raw) > settings.max_message_bytes:
        return False
    try:
        message = json.loads(raw)
    except (ValueError, RecursionError):  # refused as malformed below
        return False
    seen = message.get("event") if isinstance(message, dict) else None
    return type(seen) is int and seen == hub.service.cached_event(match_id)


async def _told_unheard(hub: Hub, fanout: FanOut, match: Match, heard: int) -> None:
    """Announce ``match`` to this process's watchers, and publish it again, when it is
    past ``heard``, the event this process had (-1: not in memory): another process
    committed events this one was not told of (it may have died between its commit and
    its notification: the socket opening here is likely its player's, come back), or
    a commit here failed without knowing whether it went through. (Publishing again is
    only a hint: a process that knows the event already ignores it.)"""
    if match.event > heard:
        hub.start_computer(match)
        await hub.announce(match)
        fanout.publish(match.id, match.event)


def _add_websocket(
    app: FastAPI, settings: Settings, seat_holders: Callable[[HTTPConnection], SeatHolders]
) -> None:
    @app.websocket("/ws/matches/{match_id}")
    async def play(
        websocket: WebSocket,
        match_id: str,
        token: str | None = None,
        seat: int | None = None,
        auth: str | None = None,
    ) -> None:
        try:
            await _play(websocket, match_id, token, seat, auth, settings, seat_holders)
        except DATABASE_DOWN as exc:  # an outage: the page tries again, later each time
            outages_of(websocket).failed(exc)
            await close_for_outage(websocket)


async def _play(
    websocket: WebSocket,
    match_id: str,
    token: str | None,
    seat: int | None,
    auth: str | None,
    settings: Settings,
    seat_holders: Callable[[HTTPConnection], SeatHolders],
) -> None:
    """A match's WebSocket: accepted, its viewer found, its view sent, then its
    messages served until it closes."""
    hub = HUB.of(websocket)
    client = await _socket_client(websocket)
    said = None
    greeting = contextlib.ExitStack()  # a socket waiting for its hello counts as open
    refusal = _hold_greeting(hub, greeting, client) if auth == "message" else None
    with greeting:
        await websocket.accept()
        try:
            if refusal is not None:
                raise refusal
            if auth == "message":
                said = await _first_message_token(websocket)
        except StairgamesError as exc:
            await _refuse_socket(websocket, exc)
            return
        except WebSocketDisconnect:  # gone before its hello
            return
    try:
        async with hub.lock(match_id):
            match = await _opened_match(hub, FANOUT.of(websocket), match_id)
            viewer = (
                match.seat_of(said)
                if said is not None and token is None
                else await _viewer(websocket, seat_holders(websocket), match, token, seat)
            )
            connection = Connection(websocket, viewer, client)
            # ?texts=1: its views with the screen-reader mode's texts (or later: sync)
            connection.texts = websocket.query_params.get("texts") in ("1", "true")
            hub.add(match_id, connection)  # over a limit: refused
        outages_of(websocket).answered()  # (a summary, if an outage just ended)
    except StairgamesError as exc:
        await _refuse_socket(websocket, exc)
        return
    try:
        async with hub.lock(match_id):  # its view to it alone (the others: presence)
            # read again now that the socket watches: another process's notification
            # that came after the read above found nobody watching here and was
            # passed over (the fan-out follows watched matches only)
            fanout = FANOUT.of(websocket)
            match = await _current_match(hub, fanout, match_id, shared=settings.shared())
            await hub.send_view(connection, match)
        await _serve_messages(hub, websocket, connection, match_id, settings)
    except WebSocketDisconnect:
        pass
    finally:
        hub.remove(match_id, connection)


async def _socket_client(websocket: WebSocket) -> str:
    """Whose allowance a match socket counts against (its open sockets, its messages a
    second): its player's, where the cookie names one, so that people behind one router
    have their own; the address's for a browser that is no player (docs/web.md, "Limits")."""
    player = await current_player_async(websocket)
    if player is not None:
        return f"player:{player.id}"
    address = websocket.client.host if websocket.client else ""
    return f"address:{address}"


def _hold_greeting(hub: Hub, greeting: contextlib.ExitStack, client: str) -> ServerError | None:
    """Count a socket about to wait for its hello against its client's cap (until
    ``greeting`` closes); the refusal to send it once accepted, if over the cap."""
    try:
        greeting.enter_context(hub.greeting(client))
    except ServerError as exc:
        return exc
    return None


async def _refuse_socket(websocket: WebSocket, exc: StairgamesError) -> None:
    """Tell an accepted socket why it is refused, and close it (code 4000 + status)."""
    status = exc.status if isinstance(exc, ServerError) else 400
    await websocket.send_json({"type": "error", "error": error_json(exc), "event": None})
    await websocket.close(code=4000 + status)


async def _serve_messages(
    hub: Hub, websocket: WebSocket, connection: Connection, match_id: str, settings: Settings
) -> None:
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        received = hub.service.clock()  # the server's time at receipt decides the clocks
        started = time.perf_counter()
        raw = message.get("text")
        if raw is None:
            raw = message.get("bytes") or b""
        async with hub.lock(match_id):
            fanout = FANOUT.of(websocket)
            behind = settings.shared() and not _made_at_known(hub, match_id, raw, settings)
            match = await _current_match(hub, fanout, match_id, shared=behind)
            before = match.event
            try:
                if not connection.may_send():
                    raise ServerError(429, N_("too many messages; wait a moment"))
                if len(raw) > settings.max_message_bytes:
                    raise too_large(len(raw), settings.max_message_bytes)
                request = parse_object(raw)
                if request.get("type") == "sync":
                    texts = request.get("texts")
                    if isinstance(texts, bool):  # the screen-reader mode on or off
                        connection.texts = texts
                    await hub.send_view(connection, match)
                    continue
                match = await _handle(hub, match, connection.seat, request, received)
            except StairgamesError as exc:
                if match.event != before:  # refused, after committing (a late move's flag)
                    await hub.changed(match)
                elif settings.shared() and not behind:  # refused, maybe for being behind
                    match = await _current_match(hub, fanout, match_id, shared=True)
                await websocket.send_json(
                    {"type": "error", "error": error_json(exc), "event": match.event}
                )
                if connection.refused > settings.refusals_before_close:
                    await websocket.close(code=1008)
                    return
                continue
            except DATABASE_DOWN:  # an outage, not a refusal: the socket is closed for it
                raise
            except Exception:  # a bug of ours: say so and keep the connection
                log.exception("request %r on match %s failed", raw[:200], match_id)
                failed = ServerError(500, N_("the server could not carry out this request"))
                await websocket.send_json(
                    {"type": "error", "error": error_json(failed), "event": match.event}
                )
                continue
            await hub.changed(match)
            hub.answered(str(request.get("type")), time.perf_counter() - started)
