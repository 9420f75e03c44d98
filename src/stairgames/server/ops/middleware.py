"""What wraps every route: the errors in the API's error body, the request limits (bodies
and per-client rates, ``base/limits.py``) by route, the security headers, the content
types of state-changing requests and the origins of WebSockets (docs/web.md)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from stairgames.core.errors import StairgamesError
from stairgames.i18n import N_
from stairgames.server.analysis.analysis import (
    POSITION_BODY_BYTES,
    POSITION_ROUTE,
    is_analysis_route,
)
from stairgames.server.base.bodies import malformed
from stairgames.server.base.contract import body_model
from stairgames.server.base.errors import ServerError, error_json
from stairgames.server.base.limits import (
    RATES,
    ClientRates,
    RequestLimits,
    Route,
)
from stairgames.server.base.outages import DATABASE_DOWN, RETRY_SECONDS, outages_of, unavailable
from stairgames.server.base.settings import Settings
from stairgames.server.mail.routes import UNSUBSCRIBE_ROUTE
from stairgames.server.people.blocks import BLOCKS_ROUTE, REPORTS_ROUTE
from stairgames.server.people.players import (
    LOGIN_ROUTE,
    ME_ROUTE,
    current_player_async,
    session_secret,
)
from stairgames.server.people.tokens import has_bearer, token_owner
from stairgames.server.play.card_files import MAX_CARD_FILE_BYTES, is_upload_route

# ----- errors --------------------------------------------------------------------


def error_response(status: int, error: BaseException) -> JSONResponse:
    return JSONResponse({"error": error_json(error)}, status_code=status)


def add_error_handlers(app: FastAPI) -> None:
    async def server_error(_request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ServerError)
        return error_response(exc.status, exc)

    async def engine_error(_request: Request, exc: Exception) -> Response:
        return error_response(400, exc)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        return error_response(exc.status_code, _http_refusal(request, exc.status_code))

    async def invalid_request(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        refusal = _invalid_refusal(request, exc)
        return error_response(refusal.status, refusal)

    async def database_down(request: Request, exc: Exception) -> Response:
        outages_of(request).failed(exc)  # one log line an outage, not a traceback each
        response = error_response(503, unavailable())
        response.headers["Retry-After"] = str(RETRY_SECONDS)
        return response

    app.add_exception_handler(ServerError, server_error)
    app.add_exception_handler(StairgamesError, engine_error)
    for kind in DATABASE_DOWN:
        app.add_exception_handler(kind, database_down)
    # the framework's own refusals (no such route, wrong method) in the usual error body
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(RequestValidationError, invalid_request)


def _invalid_refusal(request: Request, exc: RequestValidationError) -> ServerError:
    """The refusal of a request FastAPI could not read: a body that does not fit its
    route's model (:meth:`Body.refusal`), else a parameter of the wrong form (400)."""
    errors = list(exc.errors())
    model = body_model(request.scope.get("route"))
    if model is not None and errors and all(e["loc"][:1] == ("body",) for e in errors):
        return model.refusal([{**e, "loc": tuple(e["loc"][1:])} for e in errors])
    return malformed("a parameter has the wrong form")


def _http_refusal(request: Request, status: int) -> ServerError:
    if status == 404:
        return ServerError(404, N_("there is nothing at {path}"), path=request.url.path[:80])
    if status == 405:
        return ServerError(405, N_("{method} is not allowed here"), method=request.method[:10])
    return ServerError(status, N_("the request was refused ({code})"), code=status)


def add_request_limits(app: FastAPI, settings: Settings) -> None:
    """Bodies read only up to their route's limit, and each client's allowance of the
    requests that write or cost (match creations, joins, card uploads...): a player's
    where the request's session names one, else its address's; making a player and
    logging in always the address's (:mod:`stairgames.server.base.limits`)."""
    limit = settings.max_message_bytes

    def route_of(method: str, path: str) -> Route:
        if method == "GET" and _is_match_part(path, ("replay", "record")):
            return Route(limit, "replays")  # a whole game replayed: many milliseconds
        if method != "POST":
            return Route(limit)
        if path == CHALLENGES_ROUTE:
            return Route(limit, "challenges")
        if is_upload_route(path):  # an option's uploaded file (play/card_files.py)
            return Route(MAX_CARD_FILE_BYTES, "uploads")
        if path == "/api/matches":
            return Route(limit, "matches")
        if path.startswith("/api/matches/") and path.endswith("/join"):
            return Route(limit, "joins")
        if path == ME_ROUTE:  # a new player: the address's; a new name: the player's
            return Route(limit, "players")
        if path == LOGIN_ROUTE:  # whatever the cookie: what anonymous visitors do
            return Route(limit, "logins", per_address=True)
        if is_analysis_route(path):
            return Route(limit, "analyses")
        if path == POSITION_ROUTE:
            return Route(max(limit, POSITION_BODY_BYTES), "positions")
        if path in (BLOCKS_ROUTE, REPORTS_ROUTE):
            return Route(limit, "blocks_and_reports")
        return Route(limit)

    rates = ClientRates(
        {
            "matches": settings.matches_per_minute,
            "joins": settings.joins_per_minute,
            "uploads": settings.card_uploads_per_minute,
            "players": settings.players_per_minute,
            "logins": settings.logins_per_minute,
            "analyses": settings.analyses_per_minute,
            "positions": settings.positions_per_minute,
            "challenges": settings.challenges_per_minute,
            "replays": settings.replays_per_minute,
            "blocks_and_reports": settings.blocks_and_reports_per_minute,
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


async def _player_key(scope: Scope) -> str | None:
    """The id of the request's player, where its session cookie names one (a made-up
    or forgotten cookie: ``None``, anonymous, so that nobody gets fresh allowances by
    inventing cookies). A request with no cookie costs nothing; one with a cookie is read
    in a database thread (:func:`current_player_async`), once: the route finds it kept."""
    connection = HTTPConnection(scope)
    if has_bearer(connection):  # a program's token: its player's (people/tokens.py)
        return await token_owner(connection)
    if not session_secret(connection)[0]:
        return None
    player = await current_player_async(connection)
    return None if player is None else player.id


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


def add_security_headers(app: FastAPI) -> None:
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


def require_content_types(app: FastAPI) -> None:
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
                expected = CARD_FILE_TYPE if is_upload_route(scope["path"]) else JSON_TYPE
                given = Headers(scope=scope).get("content-type", "")
                if given.split(";", 1)[0].strip().lower() != expected:
                    message = N_("the message must be sent as {type}")
                    error = ServerError(415, message, type=expected)
                    await error_response(415, error)(scope, receive, send)
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


def refuse_cross_site_websockets(app: FastAPI) -> None:
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
