"""The web app: HTTP API, WebSocket, static files (FastAPI on uvicorn).

:func:`create_app` builds it from :class:`Settings`; ``stairgames serve`` runs it. The
contract with the front end (JSON shapes, messages, errors) is ``docs/web.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import importlib
import importlib.resources
import json
import logging
import typing
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from stairgames.core.errors import StairgamesError
from stairgames.core.options import option_fields
from stairgames.core.registry import game_names, get_spec, load
from stairgames.i18n import LANGUAGES, N_, catalog_path
from stairgames.server.card_files import (
    CARD_ROUTE,
    MAX_CARD_FILE_BYTES,
    add_card_routes,
    resolve_cards_option,
)
from stairgames.server.computer import ComputerPool
from stairgames.server.hub import Connection, Hub
from stairgames.server.matches import LEVELS, Match, MatchService, ServerError, error_json
from stairgames.server.migrations import upgrade
from stairgames.server.store import Store, default_database_url, make_engine

log = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).resolve().parent.parent / "web" / "static"


@dataclasses.dataclass(frozen=True)
class Settings:
    """How the server runs; every field has a default fit for one machine."""

    data_dir: Path = Path("data")
    database_url: str | None = None
    """``None``: SQLite in ``data_dir`` (``data/stairgames.db``)."""
    computer_workers: int = 1
    """Processes computer players think in (0: one thread, for tests)."""
    static_dir: Path = STATIC_DIR
    max_message_bytes: int = 4096
    """The largest WebSocket message or request body accepted."""
    messages_per_second: float = 20.0
    message_burst: float = 40.0
    """What one connection may send: ``messages_per_second`` on average, up to
    ``message_burst`` at once; beyond, messages are refused with 429."""
    refusals_before_close: int = 200
    shared_database: bool | None = None
    """Whether other server processes write to the same database (``None``: yes for
    PostgreSQL, no for SQLite). When shared, each request first reads the match's newest
    events, and watched matches are checked every ``follow_seconds`` for events written
    elsewhere. (Either way, two writes of the same event collide and one is refused.)"""
    follow_seconds: float = 1.0
    idle_seconds: float = 600.0
    """A match nobody watches or uses for this long is dropped from memory (it stays in
    the database and is loaded again when asked for); checked every ``sweep_seconds``."""
    sweep_seconds: float = 60.0

    def shared(self) -> bool:
        if self.shared_database is not None:
            return self.shared_database
        return bool(self.database_url) and not str(self.database_url).startswith("sqlite")

    def url(self) -> str:
        if self.database_url:
            return self.database_url
        self.data_dir.mkdir(parents=True, exist_ok=True)
        return default_database_url(self.data_dir)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The web app; its database is migrated to the newest schema when it starts."""
    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(settings.url())
        upgrade(engine)
        computers = ComputerPool(settings.computer_workers)
        hub = app.state.hub = Hub(MatchService(Store(engine)), computers)
        loop = asyncio.get_running_loop()
        background = [
            loop.create_task(hub.sweep_every(settings.sweep_seconds, settings.idle_seconds))
        ]
        if settings.shared() and settings.follow_seconds > 0:
            background.append(loop.create_task(hub.follow_other_processes(settings.follow_seconds)))
        try:
            yield
        finally:
            for task in background:
                task.cancel()
            await hub.close()
            computers.shutdown()
            engine.dispose()

    app = FastAPI(title="stairgames", lifespan=lifespan, docs_url=None, redoc_url=None)
    _add_error_handlers(app)
    _add_body_limit(app, settings.max_message_bytes)
    app.state.data_dir = settings.data_dir
    add_card_routes(app, settings.data_dir)
    _add_api(app)
    _add_websocket(app, settings)
    _add_static(app, settings.static_dir)
    return app


def _hub(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


# ----- errors --------------------------------------------------------------------


def _error_response(status: int, error: BaseException) -> JSONResponse:
    return JSONResponse({"error": error_json(error)}, status_code=status)


def _add_error_handlers(app: FastAPI) -> None:
    async def server_error(_request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ServerError)
        return _error_response(exc.status, exc)

    async def engine_error(_request: Request, exc: Exception) -> Response:
        return _error_response(400, exc)

    app.add_exception_handler(ServerError, server_error)
    app.add_exception_handler(StairgamesError, engine_error)


def _add_body_limit(app: FastAPI, limit: int) -> None:
    @app.middleware("http")
    async def limit_body(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        length = request.headers.get("content-length")
        allowed = MAX_CARD_FILE_BYTES if request.url.path == CARD_ROUTE else limit
        if length is not None and (not length.isdigit() or int(length) > allowed):
            return _error_response(413, _too_large(length, allowed))
        return await call_next(request)


def _too_large(size: object, limit: int) -> ServerError:
    return ServerError(
        413, N_("the message is too large ({size} bytes; at most {limit})"), size=size, limit=limit
    )


async def _json_body(request: Request, limit: int = 4096) -> dict[str, Any]:
    body = await request.body()
    if len(body) > limit:
        raise _too_large(len(body), limit)
    if not body:
        return {}
    return _parse_object(body)


def _parse_object(text: str | bytes) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ServerError(400, N_("malformed message: {reason}"), reason=str(exc)) from exc
    if not isinstance(data, dict):
        raise ServerError(400, N_("malformed message: {reason}"), reason="not a JSON object")
    return data


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
    """``GET /api/games``: every game, its options, seat names and levels."""
    listing = []
    for name in game_names():
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
                "web": getattr(spec, "web_view", None) is not None,
                "seats_by_players": _seats_by_players(spec.name, spec.option_sets),
            }
        )
    return listing


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
        hub = _hub(request)
        options = resolve_cards_option(options, request.app.state.data_dir)
        created = hub.service.create(game, options, seats)
        async with hub.lock(created.match.id):
            await hub.changed(created.match)
        return {
            "match": created.match.id,
            "seats": [{"seat": s, "token": t} for s, t in sorted(created.tokens.items())],
            "invite": f"/m/{created.match.id}",
        }

    @app.post("/api/matches/{match_id}/join")
    async def join(match_id: str, request: Request) -> dict[str, Any]:
        hub = _hub(request)
        async with hub.lock(match_id):
            match = hub.service.refresh(hub.load(match_id))
            seat, token = hub.service.join(match)
            await hub.changed(match)
        return {"seat": seat, "token": token}

    @app.get("/api/matches/{match_id}")
    async def view(match_id: str, request: Request, token: str | None = None) -> dict[str, Any]:
        hub = _hub(request)
        match = hub.service.refresh(hub.load(match_id))
        return hub.view(match, match.seat_of(token))

    @app.get("/api/matches/{match_id}/record")
    async def record(match_id: str, request: Request, token: str | None = None) -> Response:
        hub = _hub(request)
        match = hub.service.refresh(hub.load(match_id))
        data = match.record(match.seat_of(token))
        filename = f"{match.game_name}-{match.id}.json"
        return JSONResponse(
            data, headers={"Content-Disposition": f'attachment; filename="{filename}"'}
        )

    @app.get("/api/matches/{match_id}/replay")
    async def replay(match_id: str, request: Request, token: str | None = None) -> dict[str, Any]:
        hub = _hub(request)
        match = hub.service.refresh(hub.load(match_id))
        return {"match": match.id, "frames": match.replay_frames(match.seat_of(token))}


# ----- WebSocket -----------------------------------------------------------------


async def _handle(hub: Hub, match: Match, seat: int | None, message: dict[str, Any]) -> Match:
    """Carry out one client request on ``match`` (under its lock); the match to announce."""
    kind = message.get("type")
    if kind == "sync":
        return match
    seen = message.get("event")
    if kind == "move" and not isinstance(seen, int):
        raise ServerError(400, N_("a move must say the last event seen ('event')"))
    if seen is not None and (not isinstance(seen, int) or isinstance(seen, bool)):
        raise ServerError(400, N_("'event' must be a number"))
    if seen is not None and seen != match.event and kind != "rematch":
        raise ServerError(
            409,
            N_("stale request: it was made at event {seen}, the match is at {event}"),
            seen=seen,
            event=match.event,
        )
    service = hub.service
    if kind == "move":
        service.move(match, seat, message.get("move"))
    elif kind == "undo":
        service.undo(match, seat)
    elif kind == "takeback":
        service.ask_takeback(match, seat)
    elif kind == "takeback_answer":
        service.answer_takeback(match, seat, message.get("accept"))
    elif kind == "resign":
        service.resign(match, seat)
    elif kind == "rematch":
        new_match = service.rematch(match, seat)
        hub.start_computer(new_match)
    else:
        raise ServerError(400, N_("unknown request type {type!r}"), type=str(kind)[:40])
    return match


def _add_websocket(app: FastAPI, settings: Settings) -> None:
    @app.websocket("/ws/matches/{match_id}")
    async def play(websocket: WebSocket, match_id: str, token: str | None = None) -> None:
        hub = _hub(websocket)
        await websocket.accept()
        try:
            async with hub.lock(match_id):
                match = hub.service.refresh(hub.load(match_id))
                seat = match.seat_of(token)
        except StairgamesError as exc:
            status = exc.status if isinstance(exc, ServerError) else 400
            await websocket.send_json({"type": "error", "error": error_json(exc), "event": None})
            await websocket.close(code=4000 + status)
            return
        connection = Connection(
            websocket, seat, settings.messages_per_second, settings.message_burst
        )
        async with hub.lock(match_id):
            hub.add(match_id, connection)
            await hub.announce(hub.service.get(match_id))
        try:
            await _serve_messages(hub, websocket, connection, match_id, settings)
        except WebSocketDisconnect:
            pass
        finally:
            hub.remove(match_id, connection)
            async with hub.lock(match_id):
                await hub.announce(hub.service.get(match_id))


async def _serve_messages(
    hub: Hub, websocket: WebSocket, connection: Connection, match_id: str, settings: Settings
) -> None:
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        raw = message.get("text")
        if raw is None:
            raw = message.get("bytes") or b""
        async with hub.lock(match_id):
            known = hub.service.get(match_id)
            match = hub.service.refresh(known) if settings.shared() else known
            if match is not known:  # another server process changed it
                hub.start_computer(match)
                await hub.announce(match)
            try:
                if not connection.may_send():
                    raise ServerError(429, N_("too many messages; wait a moment"))
                if len(raw) > settings.max_message_bytes:
                    raise _too_large(len(raw), settings.max_message_bytes)
                request = _parse_object(raw)
                if request.get("type") == "sync":
                    await websocket.send_json(hub.view(match, connection.seat))
                    continue
                match = await _handle(hub, match, connection.seat, request)
            except StairgamesError as exc:
                await websocket.send_json(
                    {"type": "error", "error": error_json(exc), "event": match.event}
                )
                if connection.refused > settings.refusals_before_close:
                    await websocket.close(code=1008)
                    return
                continue
            await hub.changed(match)


# ----- static files --------------------------------------------------------------


def _board_script(game: str) -> Path | None:
    """The game's ``board.js``: in its ``web_assets`` (a folder, or a package name),
    else in the ``web`` folder of its package."""
    try:
        spec = get_spec(game)
    except StairgamesError:
        return None
    assets = getattr(spec, "web_assets", None)
    candidates: list[Path] = []
    if isinstance(assets, Path):
        candidates.append(assets / "board.js")
    elif isinstance(assets, str) and assets:
        try:
            candidates.append(Path(str(importlib.resources.files(assets))) / "board.js")
        except (ModuleNotFoundError, TypeError):
            candidates.append(Path(assets) / "board.js")
    module = importlib.import_module(spec.game_class.__module__)
    if module.__file__:
        candidates.append(Path(module.__file__).parent / "web" / "board.js")
    return next((path for path in candidates if path.is_file()), None)


def _add_static(app: FastAPI, static_dir: Path) -> None:
    index = static_dir / "index.html"

    @app.get("/games/{game}/board.js")
    async def board_script(game: str) -> Response:
        path = _board_script(game)
        if path is None:
            raise ServerError(404, N_("no board drawing for {game!r}"), game=game[:40])
        return FileResponse(path, media_type="text/javascript")

    async def page() -> Response:
        if not index.is_file():
            return JSONResponse(
                {"error": error_json(ServerError(404, N_("the web pages are not installed")))},
                status_code=404,
            )
        return FileResponse(index, media_type="text/html")

    app.add_api_route("/", page, methods=["GET"])
    app.add_api_route("/m/{match_id}", page, methods=["GET"])
    if static_dir.is_dir():
        app.mount("/static", StaticFiles(directory=static_dir), name="static")
