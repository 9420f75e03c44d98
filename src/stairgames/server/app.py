"""The web app: HTTP API, WebSocket, static files (FastAPI on uvicorn).

:func:`create_app` builds it from :class:`Settings`; ``stairgames serve`` runs it. The
contract with the front end (JSON shapes, messages, errors) is ``docs/web.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import json
import logging
import re
import typing
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from stairgames.core.errors import StairgamesError
from stairgames.core.options import option_fields
from stairgames.core.registry import get_spec, listing_order, load
from stairgames.i18n import LANGUAGES, N_, catalog_path
from stairgames.server.analysis.analysis import (
    ANALYSES,
    POSITION_BODY_BYTES,
    POSITION_ROUTE,
    add_analysis_routes,
    analyses_of,
    is_analysis_route,
    start_analysis,
)
from stairgames.server.base.limits import (
    DOMAIN_RATES,
    PROCESSES,
    RATES,
    ClientRates,
    RequestLimits,
    Route,
    shared_allowances,
    start_shared_limits,
    too_large,
)
from stairgames.server.base.settings import DATA_DIR, Settings
from stairgames.server.base.store import (
    ClockStore,
    Store,
    guard_event_loop,
    make_engine,
    off_loop,
)
from stairgames.server.chat.chat import CHAT, add_chat_routes, start_chat
from stairgames.server.lobby.lobby import LOBBY, Lobby, LobbyStore, add_lobby_routes
from stairgames.server.mail.routes import MAIL, UNSUBSCRIBE_ROUTE, mail_router, start_mail
from stairgames.server.migrations import upgrade
from stairgames.server.ops.health import add_health_routes, start_health
from stairgames.server.people.players import (
    LOGIN_ROUTE,
    ME_ROUTE,
    PLAYERS,
    PlayerStore,
    add_player_routes,
    current_player_async,
    session_secret,
)
from stairgames.server.people.rating_store import RATINGS, RatingStore
from stairgames.server.play.card_files import (
    CARD_ROUTE,
    MAX_CARD_FILE_BYTES,
    add_card_routes,
    resolve_cards_option,
    start_card_sweep,
)
from stairgames.server.play.clocks import requested_time_control
from stairgames.server.play.computer import ComputerPool
from stairgames.server.play.fanout import FANOUT, FanOut, start_fanout
from stairgames.server.play.hub import HUB, Connection, Hub, Limits
from stairgames.server.play.matches import LEVELS, Match, MatchService, ServerError, error_json
from stairgames.server.play.referee import REFEREE, Referee
from stairgames.server.play.seats import TOKEN_IN_ADDRESS

log = logging.getLogger(__name__)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The web app; its database is migrated to the newest schema when it starts."""
    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(settings.url())
        upgrade(engine)
        computers = ComputerPool(
            settings.computer_workers,
            move_seconds=settings.computer_move_seconds,
            prepare_seconds=settings.computer_prepare_seconds,
            lanes={
                "analysis": settings.analysis_workers,
                "position": settings.analysis_position_workers,
            },
        )
        service = MatchService(Store(engine), settings.computer_players, clock=settings.wall_clock)
        players = PLAYERS.keep(
            app, PlayerStore(engine, clock=settings.clock, guard_loop=settings.loop_guard)
        )
        players.login_rates.shared = shared_allowances(engine, settings.shared())
        ratings = RATINGS.keep(app, RatingStore(engine))
        hub = HUB.keep(app, Hub(service, computers, _limits(settings)))
        lobby = LOBBY.keep(app, Lobby(LobbyStore(engine), players, ratings, hub))
        referee = REFEREE.keep(
            app, Referee(hub, ClockStore(engine), beat_seconds=settings.heartbeat_seconds)
        )
        hub.after_change += [lobby.follow_rematch, lobby.rate_if_over, referee.note]
        hub.seat_names = lobby.seat_names
        await referee.start()
        loop = asyncio.get_running_loop()
        background = [
            loop.create_task(referee.run()),
            loop.create_task(hub.sweep_every(settings.sweep_seconds, settings.idle_seconds)),
            loop.create_task(lobby.sweep_every(settings.lobby_sweep_seconds)),
        ]
        background += start_fanout(app, engine, hub, settings)  # other processes' events
        background += _share_across_processes(app, engine, hub, referee, settings)
        start_health(app, engine, hub)  # /readyz's checks, /metrics' counts (server/ops/health.py)
        background += start_chat(app, engine, hub, settings)  # the chat (server/chat/chat.py)
        background += start_mail(app, engine, hub, lobby, settings)  # server/mail/routes.py
        start_analysis(app, engine, hub, settings)  # server/analysis/analysis.py
        background += start_card_sweep(app, engine, settings)  # unused card files expire
        domain_rates = {  # the limits routes keep themselves, counted in /metrics
            "player": players.login_rates,
            "chat": CHAT.of(app).rates,
            "analysis": ANALYSES.of(app).rates,
            "mail": MAIL.of(app).rates,
        }
        DOMAIN_RATES.keep(app, domain_rates)
        if settings.loop_guard:
            guard_event_loop(engine)
        try:
            yield
        finally:
            for task in background:
                task.cancel()
            # their last words (the referee's heartbeat, off the loop) written first
            await asyncio.gather(*background, return_exceptions=True)
            await FANOUT.of(app).close()
            await ANALYSES.of(app).close()
            await hub.close()
            computers.shutdown()
            engine.dispose()

    app = FastAPI(title="stairgames", lifespan=lifespan, docs_url=None, redoc_url=None)
    _add_error_handlers(app)
    _add_request_limits(app, settings)
    DATA_DIR.keep(app, settings.data_dir)
    add_card_routes(app, settings.data_dir)
    add_player_routes(app, _json_body)
    add_lobby_routes(app, _json_body)
    add_chat_routes(app, _json_body)
    app.include_router(mail_router(_json_body))
    add_analysis_routes(app, _json_body)
    _add_api(app)
    _add_websocket(app, settings)
    _add_static(app, settings.static_dir)
    _require_content_types(app)
    _refuse_cross_site_websockets(app)
    add_health_routes(app)  # /healthz, /readyz, /metrics; counts every request below
    _add_security_headers(app)  # last: the outermost, so every other answer has them too
    return app


def _share_across_processes(
    app: FastAPI, engine: Any, hub: Hub, referee: Referee, settings: Settings
) -> list[asyncio.Task[None]]:
    """What must hold over every server process of the database (issue 33): the lobby's
    list, who is connected (``server/play/hub.py``), the per-client limits
    (``server/base/limits.py``); the tasks that keep them."""
    fanout = FANOUT.of(app)
    LOBBY.of(app).share_through(fanout)
    tasks = start_shared_limits(app, engine, settings)
    processes = PROCESSES.of(app)
    if processes is not None:
        hub.live_processes = processes
        processes.after_read.append(hub.forget_processes_gone)
        hub.share_presence(fanout, referee.process)
    return tasks


def _limits(settings: Settings) -> Limits:
    return Limits(
        messages_per_second=settings.messages_per_second,
        message_burst=settings.message_burst,
        connections_per_client=settings.max_connections_per_client,
        spectators_per_match=settings.max_spectators_per_match,
        presence_seconds=settings.presence_seconds,
        computer_only_matches=settings.computer_only_matches,
        computer_only_per_owner=settings.computer_only_per_player,
        computer_only_unwatched_seconds=settings.computer_only_unwatched_seconds,
    )


async def _viewer(
    request: HTTPConnection, match: Match, token: str | None, seat: int | None
) -> int | None:
    """The seat a request plays: its token's (the ``X-Seat-Token`` header, or a WebSocket's
    first message), else one its player holds (``seat`` if given, which they must hold),
    else none (a spectator). A token in the address (``?token=``) is refused: addresses
    end up in logs, histories and the ``Referer`` of other sites.

    :raises ServerError: 400, a token in the address; 403, a token of no seat here.
    """
    if token is not None:
        raise ServerError(400, TOKEN_IN_ADDRESS)
    token = request.headers.get("x-seat-token")
    if token:
        return match.seat_of(token)
    player = await current_player_async(request)
    return await off_loop(LOBBY.of(request).player_seat, player, match.id, seat)


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


# ----- errors --------------------------------------------------------------------


def _error_response(status: int, error: BaseException) -> JSONResponse:
    return JSONResponse({"error": error_json(error)}, status_code=status)


def _add_error_handlers(app: FastAPI) -> None:
    async def server_error(_request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ServerError)
        return _error_response(exc.status, exc)

    async def engine_error(_request: Request, exc: Exception) -> Response:
        return _error_response(400, exc)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        return _error_response(exc.status_code, _http_refusal(request, exc.status_code))

    async def invalid_request(_request: Request, _exc: Exception) -> Response:
        return _error_response(400, _malformed("a parameter has the wrong form"))

    app.add_exception_handler(ServerError, server_error)
    app.add_exception_handler(StairgamesError, engine_error)
    # the framework's own refusals (no such route, wrong method) in the usual error body
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(RequestValidationError, invalid_request)


def _http_refusal(request: Request, status: int) -> ServerError:
    if status == 404:
        return ServerError(404, N_("there is nothing at {path}"), path=request.url.path[:80])
    if status == 405:
        return ServerError(405, N_("{method} is not allowed here"), method=request.method[:10])
    return ServerError(status, N_("the request was refused ({code})"), code=status)


def _add_request_limits(app: FastAPI, settings: Settings) -> None:
    """Bodies read only up to their route's limit, and each client's allowance of match
    creations, joins and card uploads (:mod:`stairgames.server.base.limits`)."""
    limit = settings.max_message_bytes

    def route_of(method: str, path: str) -> Route:
        if method == "GET" and _is_match_part(path, ("replay", "record")):
            return Route(limit, "replays")  # a whole game replayed: many milliseconds
        if method != "POST":
            return Route(limit)
        if path == CHALLENGES_ROUTE:
            return Route(limit, "challenges")
        if path == CARD_ROUTE:
            return Route(MAX_CARD_FILE_BYTES, "cards")
        if path == "/api/matches":
            return Route(limit, "matches")
        if path.startswith("/api/matches/") and path.endswith("/join"):
            return Route(limit, "joins")
        if path == ME_ROUTE:
            return Route(limit, "players")
        if path == LOGIN_ROUTE:
            return Route(limit, "logins")
        if is_analysis_route(path):
            return Route(limit, "analyses")
        if path == POSITION_ROUTE:
            return Route(max(limit, POSITION_BODY_BYTES), "positions")
        return Route(limit)

    rates = ClientRates(
        {
            "matches": settings.matches_per_minute,
            "joins": settings.joins_per_minute,
            "cards": settings.card_uploads_per_minute,
            "players": settings.players_per_minute,
            "logins": settings.logins_per_minute,
            "analyses": settings.analyses_per_minute,
            "positions": settings.positions_per_minute,
            "challenges": settings.challenges_per_minute,
            "replays": settings.replays_per_minute,
        },
        clock=settings.clock,
    )
    RATES.keep(app, rates)  # shared with the other processes once started (limits.py)
    app.add_middleware(RequestLimits, route_of=route_of, rates=rates, player_of=_player_key)


CHALLENGES_ROUTE = "/api/challenges"


def _is_match_part(path: str, parts: tuple[str, ...]) -> bool:
    """Whether ``path`` is ``/api/matches/{id}/PART`` for one of ``parts``."""
    pieces = path.split("/")
    return len(pieces) == 5 and pieces[1:3] == ["api", "matches"] and pieces[4] in parts


def _player_key(scope: Scope) -> str | None:
    """The request's player as a key of the rate limits: a digest of its session's
    cookie (read without the database; a made-up cookie only adds a bucket of its own,
    the address's allowance still holds)."""
    secret, _made_before = session_secret(HTTPConnection(scope))
    return None if not secret else hashlib.sha256(secret.encode()).hexdigest()[:24]


async def _json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object (its size was bounded by :class:`RequestLimits`)."""
    body = await request.body()
    if not body:
        return {}
    return _parse_object(body)


MAX_NESTING = 16
"""The deepest nesting of arrays and objects a request may have (the API's own requests
nest three deep): deeper ones are refused before anything reads them."""


def _parse_object(text: str | bytes) -> dict[str, Any]:
    """A request's JSON object, refused (400) when malformed, nested deeper than
    :data:`MAX_NESTING`, or holding text that is not Unicode (a lone surrogate such as
    ``"\\ud800"``, which no answer could echo)."""
    if _nesting(text) > MAX_NESTING:
        raise _malformed(f"nested deeper than {MAX_NESTING}")
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise _malformed(str(exc)) from exc
    if not isinstance(data, dict):
        raise _malformed("not a JSON object")
    if _has_lone_surrogate(data):
        raise _malformed("text with a lone surrogate (not Unicode)")
    return data


def _malformed(reason: str) -> ServerError:
    return ServerError(400, N_("malformed message: {reason}"), reason=reason)


def _nesting(text: str | bytes) -> int:
    """The deepest nesting of ``[`` and ``{`` in JSON text, brackets inside strings not
    counted (a cheap scan, so that a hostile depth never reaches the parser)."""
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if b"[" not in raw and b"{" not in raw:
        return 0
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


def _has_lone_surrogate(value: object) -> bool:
    """Whether any text in ``value`` (keys included), however deep, is not Unicode."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if any("\ud800" <= char <= "\udfff" for char in item):
                return True
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


# ----- security: headers, content types, WebSocket origins ---------------------------

SECURITY_HEADERS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
"""Sent with every HTTP response, with :func:`content_security_policy`: no other site may
frame the pages, no answer is read as another type than it says, and no address of a
match (its id is in the path) is sent to another site."""
JSON_TYPE = "application/json"
CARD_FILE_TYPE = "application/toml"
"""The content types of state-changing requests: a card file (``POST /api/cards``) is
sent as TOML, every other request as JSON (even with an empty body). Neither is one a
cross-site form may send (``text/plain``, form data), and a script of another site must
ask first (a CORS preflight, which this server never grants)."""
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_HOST = re.compile(r"(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?")


def content_security_policy(host: str | None) -> str:
    """The pages' Content-Security-Policy: scripts, styles, images and connections of this
    site only (``data:`` images for the favicon), no inline script or style, no plugins,
    no framing, no ``<base>``, forms sent here only. ``'self'`` covers WebSockets to the
    same host in CSP 3; ``ws:``/``wss:`` of the request's ``Host`` are named too, for
    browsers before it."""
    connect = "'self'"
    if host is not None and _HOST.fullmatch(host):
        connect += f" ws://{host} wss://{host}"
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self'",
            f"connect-src {connect}",
            "img-src 'self' data:",
            "style-src 'self'",
            "frame-ancestors 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "object-src 'none'",
        ]
    )


def _add_security_headers(app: FastAPI) -> None:
    """ASGI middleware: the security headers on every HTTP response (the app's, its
    errors', the static files', the other middleware's refusals)."""

    def middleware(inner: ASGIApp) -> ASGIApp:
        async def with_headers(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] != "http":
                await inner(scope, receive, send)
                return
            policy = content_security_policy(Headers(scope=scope).get("host"))

            async def send_with_headers(message: Message) -> None:
                if message["type"] == "http.response.start":
                    headers = MutableHeaders(scope=message)
                    headers["Content-Security-Policy"] = policy
                    for name, value in SECURITY_HEADERS.items():
                        headers[name] = value
                await send(message)

            await inner(scope, receive, send_with_headers)

        return with_headers

    app.add_middleware(middleware)


def _require_content_types(app: FastAPI) -> None:
    """ASGI middleware: a state-changing request (any method but GET, HEAD and OPTIONS)
    that is not of its :data:`JSON_TYPE` or :data:`CARD_FILE_TYPE` is refused with 415
    before anything reads it, so that no page of another site can create a match or
    take a free seat from a visitor's browser."""

    def middleware(inner: ASGIApp) -> ASGIApp:
        async def checked(scope: Scope, receive: Receive, send: Send) -> None:
            # (RFC 8058's one-click unsubscribe comes as a form from a mail program; it
            # needs the secret of its link and only turns turn mails off)
            if (
                scope["type"] == "http"
                and scope["method"] not in _SAFE_METHODS
                and scope["path"] != UNSUBSCRIBE_ROUTE
            ):
                expected = CARD_FILE_TYPE if scope["path"] == CARD_ROUTE else JSON_TYPE
                given = Headers(scope=scope).get("content-type", "")
                if given.split(";", 1)[0].strip().lower() != expected:
                    message = N_("the message must be sent as {type}")
                    error = ServerError(415, message, type=expected)
                    await _error_response(415, error)(scope, receive, send)
                    return
            await inner(scope, receive, send)

        return checked

    app.add_middleware(middleware)


def same_origin(headers: Headers) -> bool:
    """Whether a WebSocket handshake may be from a page of this site: it has no
    ``Origin`` (not a browser) or one whose host and port are the request's ``Host``."""
    origin = headers.get("origin")
    if origin is None:
        return True
    host = headers.get("host")
    try:
        parts = urlsplit(origin.strip())
    except ValueError:
        return False
    if host is None or parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    default_port = ":443" if parts.scheme == "https" else ":80"
    origin_host = parts.netloc.lower().removesuffix(default_port)
    return origin_host == host.strip().lower().removesuffix(default_port)


def _refuse_cross_site_websockets(app: FastAPI) -> None:
    """ASGI middleware: a WebSocket opened by a page of another site (its ``Origin`` is
    not this host) is refused before it is accepted (HTTP 403; code 4403 in the ASGI
    close), so that no other site can play with a visitor's tokens (cross-site WebSocket
    hijacking)."""

    def middleware(inner: ASGIApp) -> ASGIApp:
        async def checked(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] == "websocket" and not same_origin(Headers(scope=scope)):
                await send({"type": "websocket.close", "code": 4403, "reason": "cross-site"})
                return
            await inner(scope, receive, send)

        return checked

    app.add_middleware(middleware)


# ----- HTTP API ------------------------------------------------------------------


def _describe_options(options_class: type[Any]) -> list[dict[str, Any]]:
    hints = typing.get_type_hints(options_class)
    described = []
    for field in option_fields(options_class):
        hint = hints.get(field.name)
        choices = list(typing.get_args(hint)) if typing.get_origin(hint) is typing.Literal else None
        kind = "choice" if choices else getattr(hint, "__name__", str(hint))
        default = field.default if field.default is not dataclasses.MISSING else None
        described.append({"name": field.name, "type": kind, "default": default, "choices": choices})
    return described


def games_listing() -> list[dict[str, Any]]:
    """``GET /api/games``: every game, its options, seat names and levels, in the order
    the games' registrations ask (``listing_order``: the home page chooses the first)."""
    listing = []
    for name in listing_order():
        spec = get_spec(name)
        info = load(name).info()
        listing.append(
            {
                "name": spec.name,
                "title": spec.title,
                "options": _describe_options(spec.options_class),
                "seat_names": list(info.seat_names),
                "min_players": info.min_players,
                "max_players": info.max_players,
                "levels": list(LEVELS),
                "web": spec.web_view is not None,
                "seats_by_players": _seats_by_players(spec.name, spec.option_sets),
                "summary": spec.summary,
                "rules_summary": list(spec.rules_summary),
                "play_minutes": list(spec.play_minutes) if spec.play_minutes else None,
                "realtime_default": list(spec.realtime_default),
                "preview": _preview_board(spec.name),
            }
        )
    return listing


def _preview_board(name: str) -> dict[str, Any] | None:
    """The board at the first decision of a game with the default options, the first
    chance outcome taken at each chance node, as a spectator sees it: the picture on the
    game's card on the home page (``None`` for a game without a browser board)."""
    web_view = get_spec(name).web_view
    if web_view is None:
        return None
    state = load(name).new_initial_state()
    while state.is_chance_node() and not state.is_terminal():
        state.apply_action(state.chance_outcomes()[0][0])
    return web_view(state, None)


def _seats_by_players(name: str, option_sets: tuple[dict[str, Any], ...]) -> dict[str, Any]:
    """The seat names for each player count a game offers (its ``players`` option sets):
    ``{"2": ["red", "blue"], "3": [...]}``; empty for games of a fixed count."""
    counts = sorted({int(o["players"]) for o in option_sets if "players" in o})
    return {str(n): list(load(name, players=n).info().seat_names) for n in counts}


def catalog_messages(language: str) -> dict[str, Any]:
    """The gettext catalog of ``language`` as ``{msgid: msgstr}`` (a plural's msgid is its
    singular, its value the list of forms); English is empty (ids are English)."""
    if language == "en":
        return {}
    from babel.messages.pofile import read_po

    with catalog_path(language).open("rb") as po:
        catalog = read_po(po, locale=language)
    messages: dict[str, Any] = {}
    for message in catalog:
        if not message.id or not message.string:
            continue
        if isinstance(message.id, tuple | list):
            messages[str(message.id[0])] = list(message.string)
        else:
            messages[str(message.id)] = message.string
    return messages


def _add_api(app: FastAPI) -> None:
    catalogs: dict[str, dict[str, Any]] = {}

    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        return games_listing()

    @app.get("/api/i18n/{lang}")
    async def i18n(lang: str) -> dict[str, Any]:
        if lang not in LANGUAGES:
            raise ServerError(404, N_("unknown language {language!r}"), language=lang[:20])
        if lang not in catalogs:
            catalogs[lang] = catalog_messages(lang)
        return {"lang": lang, "messages": catalogs[lang]}

    @app.post("/api/matches")
    async def create(request: Request) -> dict[str, Any]:
        body = await _json_body(request)
        game, options, seats = body.get("game"), body.get("options", {}), body.get("seats")
        if not isinstance(game, str) or not isinstance(options, dict):
            raise ServerError(400, N_("a match needs a game name and an object of options"))
        if not isinstance(seats, list):
            raise ServerError(400, N_("a match needs a list of seats"))
        hub = HUB.of(request)
        time_control = requested_time_control(body, game)
        options = await off_loop(resolve_cards_option, options, DATA_DIR.of(request))
        position = body.get("position")  # a start position (games without hidden cards)
        player = await current_player_async(request)
        player_id = None if player is None else player.id
        address = request.client.host if request.client else ""
        # a match of computers only is let in within limits (server/play/hub.py)
        with hub.computer_only_admission(seats, player_id, address) as admission:
            service = hub.service
            created = await service.in_thread(
                service.create, game, options, seats, time_control, position
            )
            admission.admit(created.match.id)
        if player is not None:  # the seats made for this browser are the player's
            for seat in created.tokens:
                await off_loop(LOBBY.of(request).hold, created.match.id, seat, player)
        async with hub.lock(created.match.id):
            await hub.changed(created.match)
        return {
            "match": created.match.id,
            "seats": [{"seat": s, "token": t} for s, t in sorted(created.tokens.items())],
            "invite": f"/m/{created.match.id}",
        }

    @app.post("/api/matches/{match_id}/join")
    async def join(match_id: str, request: Request) -> dict[str, Any]:
        hub = HUB.of(request)
        player = await current_player_async(request)
        async with hub.lock(match_id):
            match = await _fresh_match(hub, match_id)
            seat, token = await hub.service.in_thread(hub.service.join, match)
            if player is not None:
                await off_loop(LOBBY.of(request).hold, match_id, seat, player)
            await hub.changed(match)
        return {"seat": seat, "token": token}

    @app.get("/api/matches/{match_id}")
    async def view(
        match_id: str, request: Request, token: str | None = None, seat: int | None = None
    ) -> dict[str, Any]:
        hub = HUB.of(request)
        match = await _fresh_match(hub, match_id)
        return await hub.view_async(match, await _viewer(request, match, token, seat))

    @app.get("/api/matches/{match_id}/record")
    async def record(
        match_id: str, request: Request, token: str | None = None, seat: int | None = None
    ) -> Response:
        hub = HUB.of(request)
        match = await _fresh_match(hub, match_id)
        data = await off_loop(match.record, await _viewer(request, match, token, seat))
        names = await hub.names_of(match.id)
        data["players"] = [names.get(i, kind) for i, kind in enumerate(data["players"])]
        stored = analyses_of(request).stored
        analysis = await off_loop(stored, match.id) if match.over else None
        if analysis is not None:  # the computer's analysis, once made (server/analysis/analysis.py)
            data["analysis"] = analysis
        filename = f"{match.game_name}-{match.id}.json"
        return JSONResponse(
            data, headers={"Content-Disposition": f'attachment; filename="{filename}"'}
        )

    @app.get("/api/matches/{match_id}/replay")
    async def replay(
        match_id: str, request: Request, token: str | None = None, seat: int | None = None
    ) -> dict[str, Any]:
        hub = HUB.of(request)
        match = await _fresh_match(hub, match_id)
        viewer = await _viewer(request, match, token, seat)
        frames = await off_loop(match.replay_frames, viewer)  # a long game's: many ms
        return {"match": match.id, "event": match.event, "over": match.over, "frames": frames}


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
    service = hub.service
    if kind == "move":  # every move: its commit off the event loop
        await service.move_async(match, seat, message.get("move"), received=received)
    elif kind == "undo":  # the others too: their reads and commits in a database thread
        await service.in_thread(service.undo, match, seat)
    elif kind == "takeback":
        await service.in_thread(service.ask_takeback, match, seat)
    elif kind == "takeback_answer":
        await service.in_thread(service.answer_takeback, match, seat, message.get("accept"))
    elif kind == "resign":
        await service.in_thread(service.resign, match, seat)
    elif kind == "rematch":
        new_match = await service.in_thread(service.rematch, match, seat)
        if new_match is not None:
            hub.start_computer(new_match)
    elif kind == "rematch_decline":
        await service.in_thread(service.decline_rematch, match, seat)
    else:
        raise ServerError(400, N_("unknown request type {type!r}"), type=str(kind)[:40])
    return match


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


def _add_websocket(app: FastAPI, settings: Settings) -> None:
    @app.websocket("/ws/matches/{match_id}")
    async def play(
        websocket: WebSocket,
        match_id: str,
        token: str | None = None,
        seat: int | None = None,
        auth: str | None = None,
    ) -> None:
        hub = HUB.of(websocket)
        client = websocket.client.host if websocket.client else ""
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
                    else await _viewer(websocket, match, token, seat)
                )
                connection = Connection(websocket, viewer, client)
                hub.add(match_id, connection)  # over a limit: refused
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
        raw = message.get("text")
        if raw is None:
            raw = message.get("bytes") or b""
        async with hub.lock(match_id):
            fanout = FANOUT.of(websocket)
            match = await _current_match(hub, fanout, match_id, shared=settings.shared())
            before = match.event
            try:
                if not connection.may_send():
                    raise ServerError(429, N_("too many messages; wait a moment"))
                if len(raw) > settings.max_message_bytes:
                    raise too_large(len(raw), settings.max_message_bytes)
                request = _parse_object(raw)
                if request.get("type") == "sync":
                    await hub.send_view(connection, match)
                    continue
                match = await _handle(hub, match, connection.seat, request, received)
            except StairgamesError as exc:
                if match.event != before:  # refused, after committing (a late move's flag)
                    await hub.changed(match)
                await websocket.send_json(
                    {"type": "error", "error": error_json(exc), "event": match.event}
                )
                if connection.refused > settings.refusals_before_close:
                    await websocket.close(code=1008)
                    return
                continue
            except Exception:  # a bug of ours: say so and keep the connection
                log.exception("request %r on match %s failed", raw[:200], match_id)
                failed = ServerError(500, N_("the server could not carry out this request"))
                await websocket.send_json(
                    {"type": "error", "error": error_json(failed), "event": match.event}
                )
                continue
            await hub.changed(match)


# ----- static files --------------------------------------------------------------


BOARD_FILES = {"board.js": "text/javascript", "board.css": "text/css"}
"""A game's browser files and their types: its ``board.js`` draws, its optional
``board.css`` (which its ``board.js`` links) styles the drawing, since the pages'
Content-Security-Policy allows no inline styles."""


def _board_script(game: str, name: str = "board.js") -> Path | None:
    """The game's ``board.js`` (or another of :data:`BOARD_FILES`), in the folder its
    registration names (``web_assets``); ``None`` for a game without one."""
    try:
        assets = get_spec(game).web_assets
    except StairgamesError:
        return None
    if assets is None:
        return None
    path = Path(str(assets.joinpath(name)))
    return path if path.is_file() else None


def _add_static(app: FastAPI, static_dir: Path) -> None:
    index = static_dir / "index.html"

    @app.get("/games/{game}/{name}")
    async def board_file(game: str, name: str) -> Response:
        path = _board_script(game, name) if name in BOARD_FILES else None
        if path is None:
            raise ServerError(404, N_("no board drawing for {game!r}"), game=game[:40])
        return FileResponse(path, media_type=BOARD_FILES[name])

    async def page() -> Response:
        if not index.is_file():
            return JSONResponse(
                {"error": error_json(ServerError(404, N_("the web pages are not installed")))},
                status_code=404,
            )
        return FileResponse(index, media_type="text/html")

    app.add_api_route("/", page, methods=["GET", "HEAD"])
    app.add_api_route("/m/{match_id}", page, methods=["GET", "HEAD"])
    app.add_api_route("/lobby", page, methods=["GET", "HEAD"])
    app.add_api_route("/my", page, methods=["GET", "HEAD"])
    app.add_api_route("/p/{name:path}", page, methods=["GET", "HEAD"])
    app.add_api_route("/analysis", page, methods=["GET", "HEAD"])
    if static_dir.is_dir():
        app.mount("/static", StaticFiles(directory=static_dir), name="static")
