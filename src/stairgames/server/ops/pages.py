"""What the browser's pages load that no domain owns: the pages themselves and their
static files, each game's board drawing, the list of games (``GET /api/games``) and the
message catalogs (``GET /api/i18n/{lang}``)."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from stairgames.core.errors import StairgamesError
from stairgames.core.options import option_listing
from stairgames.core.registry import get_spec, listing_order, load, move_words_json, puzzle_kit
from stairgames.i18n import LANGUAGES, N_, catalog_path
from stairgames.puzzles import shipped_games
from stairgames.server.base.contract import answers
from stairgames.server.base.errors import ServerError, error_json
from stairgames.server.ops.contract import Catalog, GameListing
from stairgames.server.play.matches import LEVELS


def games_listing() -> list[dict[str, Any]]:
    """``GET /api/games``: every game, its options, seat names, levels, the moves it
    says in words (``move_words``: the page names none of them), whether it has
    puzzles (a shipped set: ``stairgames.puzzles``) and their themes' names, in the order
    the games' registrations ask (``listing_order``: the home page chooses the first)."""
    listing = []
    with_puzzles = set(shipped_games())
    for name in listing_order():
        spec = get_spec(name)
        info = load(name).info()
        listing.append(
            {
                "name": spec.name,
                "title": spec.title,
                "options": option_listing(spec.options_class),
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
                "move_words": move_words_json(spec.name),
                "puzzles": spec.name in with_puzzles,
                "puzzle_themes": _puzzle_themes(spec.name),
            }
        )
    return listing


def _puzzle_themes(name: str) -> dict[str, str]:
    """The theme ids of the game's puzzles, each with its name (a message id the page
    translates); none for a game without puzzles."""
    kit = puzzle_kit(name)
    return {} if kit is None else kit.all_names()


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


def _add_games_and_catalogs(app: FastAPI) -> None:
    """``GET /api/games`` and ``GET /api/i18n/{lang}`` (each catalog read once, and the
    listing made once for the games registered: making it loads every game and draws
    its preview, over a millisecond that the event loop would wait)."""
    catalogs: dict[str, dict[str, Any]] = {}
    listings: dict[tuple[str, ...], list[dict[str, Any]]] = {}

    @app.get("/api/games", **answers(list[GameListing]))
    async def games() -> list[dict[str, Any]]:
        registered = tuple(listing_order())
        if registered not in listings:
            listings[registered] = await asyncio.to_thread(games_listing)
        return listings[registered]

    @app.get("/api/i18n/{lang}", **answers(Catalog))
    async def i18n(lang: str) -> dict[str, Any]:
        if lang not in LANGUAGES:
            raise ServerError(404, N_("unknown language {language!r}"), language=lang[:20])
        if lang not in catalogs:
            catalogs[lang] = catalog_messages(lang)
        return {"lang": lang, "messages": catalogs[lang]}


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


SERVICE_WORKER = "sw.js"
MANIFEST = "manifest.webmanifest"
WORKER_VERSION = 'const VERSION = "dev";'
"""The line of ``sw.js`` that names its cache's version, replaced as it is served."""


def static_digest(static_dir: Path) -> str:
    """A digest of every static file (names and contents): the service worker's cache
    version, so that a release that changes any of them installs a new worker."""
    digest = hashlib.sha256()
    for path in sorted(p for p in static_dir.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(static_dir)).encode("utf-8") + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _add_app_files(app: FastAPI, static_dir: Path) -> None:
    """``/sw.js`` (the service worker, from the root so that its scope is the whole
    site: ``Service-Worker-Allowed: /``, its version written in, never cached by HTTP)
    and ``/manifest.webmanifest`` (the installable app's manifest), from the static
    files (issue 54; docs/web.md, "An installable app")."""
    worker: list[bytes] = []

    def worker_script() -> bytes:
        if not worker:
            text = (static_dir / SERVICE_WORKER).read_text(encoding="utf-8")
            version = f'const VERSION = "{static_digest(static_dir)}";'
            worker.append(text.replace(WORKER_VERSION, version, 1).encode("utf-8"))
        return worker[0]

    def missing() -> Response:
        error = ServerError(404, N_("the web pages are not installed"))
        return JSONResponse({"error": error_json(error)}, status_code=404)

    async def service_worker() -> Response:
        if not (static_dir / SERVICE_WORKER).is_file():
            return missing()
        body = await asyncio.to_thread(worker_script)
        headers = {"Service-Worker-Allowed": "/", "Cache-Control": "no-cache"}
        return Response(body, media_type="text/javascript", headers=headers)

    async def manifest() -> Response:
        path = static_dir / MANIFEST
        if not path.is_file():
            return missing()
        return FileResponse(path, media_type="application/manifest+json")

    for route, serve in (("/sw.js", service_worker), ("/manifest.webmanifest", manifest)):
        app.add_api_route(route, serve, methods=["GET", "HEAD"], include_in_schema=False)


def add_page_routes(app: FastAPI, static_dir: Path) -> None:
    """The list of games and the catalogs, each game's board files, the pages (one
    ``index.html`` at each of their addresses) and the static files."""
    _add_games_and_catalogs(app)
    _add_app_files(app, static_dir)
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

    app.add_api_route("/", page, methods=["GET", "HEAD"], include_in_schema=False)
    app.add_api_route("/m/{match_id}", page, methods=["GET", "HEAD"], include_in_schema=False)
    app.add_api_route("/lobby", page, methods=["GET", "HEAD"], include_in_schema=False)
    app.add_api_route("/my", page, methods=["GET", "HEAD"], include_in_schema=False)
    app.add_api_route("/p/{name:path}", page, methods=["GET", "HEAD"], include_in_schema=False)
    app.add_api_route("/analysis", page, methods=["GET", "HEAD"], include_in_schema=False)
    app.add_api_route("/puzzles", page, methods=["GET", "HEAD"], include_in_schema=False)
    app.add_api_route(
        "/puzzles/{rest:path}", page, methods=["GET", "HEAD"], include_in_schema=False
    )
    app.add_api_route("/tournaments", page, methods=["GET", "HEAD"], include_in_schema=False)
    app.add_api_route(
        "/tournaments/{rest:path}", page, methods=["GET", "HEAD"], include_in_schema=False
    )
    if static_dir.is_dir():
        app.mount("/static", StaticFiles(directory=static_dir), name="static")
