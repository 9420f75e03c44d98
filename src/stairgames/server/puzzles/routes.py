"""The puzzles' routes (docs/web.md, "Puzzles"; their models: ``puzzles/contract.py``;
what they do: ``puzzles/service.py``).

Every route spends an allowance of its client (:attr:`Puzzles.rates`): a move or a
give-up of :data:`~.service.MOVES`, any other request of :data:`~.service.REQUESTS`; the client is
the request's player where its cookie names one, else its address (so an anonymous
visitor cannot get a fresh allowance by inventing cookies). Beyond it: 429 with
``Retry-After``. Answers are made into JSON in a database thread (a puzzle's page
carries its whole tree).
"""

from __future__ import annotations

import random
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy.engine import Engine

from stairgames.server.base.contract import answers
from stairgames.server.base.limits import shared_allowances
from stairgames.server.base.settings import Settings
from stairgames.server.base.state import Kept
from stairgames.server.base.store import allowances_off_loop, off_loop
from stairgames.server.people.players import Player, RetryLaterError, current_player_async
from stairgames.server.play.hub import Hub
from stairgames.server.puzzles.contract import (
    DailyPuzzle,
    GiveUpBody,
    MoveAnswer,
    MoveBody,
    PuzzleOut,
    PuzzlePage,
    PuzzlesOfPlayer,
    StreakEndBody,
    StreakEnded,
)
from stairgames.server.puzzles.service import (
    ANY,
    MOVES,
    REQUESTS,
    Catalogue,
    Puzzles,
    ShippedCatalogue,
)
from stairgames.server.puzzles.site import (
    RECORDS_FOLDER,
    SETS_FOLDER,
    SiteCatalogue,
    SiteRecords,
)
from stairgames.server.puzzles.store import PuzzleStore

ROUTE: str = "/api/puzzles"

PUZZLES: Kept[Puzzles] = Kept("puzzles")
"""The app's puzzles (``app.state.puzzles``), made as it starts (:func:`start_puzzles`)."""


def start_puzzles(
    app: FastAPI,
    engine: Engine,
    settings: Settings,
    hub: Hub | None = None,
    catalogue: Catalogue | None = None,
) -> Puzzles:
    """Give ``app`` its puzzles (:data:`PUZZLES`), when it starts: the shipped sets and
    those in ``data_dir/puzzles`` (``puzzles/site.py``) unless ``catalogue`` is given;
    with ``Settings.puzzles_from_games``, the records of ``hub``'s finished matches
    kept for them."""
    data_dir = settings.data_dir
    if catalogue is None:
        catalogue = SiteCatalogue(
            ShippedCatalogue(),
            data_dir / SETS_FOLDER,
            data_dir / RECORDS_FOLDER,
            clock=settings.clock,
        )
    if settings.puzzles_from_games and hub is not None:
        for folder in (RECORDS_FOLDER, SETS_FOLDER):  # (for stairgames puzzles generate)
            (data_dir / folder).mkdir(mode=0o700, parents=True, exist_ok=True)
        hub.neighbours.after_change.append(SiteRecords(data_dir / RECORDS_FOLDER).after_change)
    puzzles = Puzzles(
        PuzzleStore(engine, settings.wall_clock),
        catalogue,
        rng=random.Random(settings.puzzle_seed),
        wall_clock=settings.wall_clock,
        rates={MOVES: settings.puzzle_moves_per_minute, REQUESTS: settings.puzzles_per_minute},
        rates_clock=settings.clock,
    )
    puzzles.rates.shared = shared_allowances(engine, settings.shared())
    return PUZZLES.keep(app, puzzles)


async def _asker(request: Request, kind: str) -> tuple[Player | None, Response | None]:
    """The request's player (``None``: anonymous) and, when the client's ``kind``
    allowance is spent, the 429 to answer."""
    puzzles = PUZZLES.of(request)
    player = await current_player_async(request)
    if player is not None:
        client = f"player:{player.id}"
    else:
        client = request.client.host if request.client else "unknown"
    rates = puzzles.rates
    if rates.shared is None:
        wait = rates.take(kind, client)
    else:  # a round trip to the database, in threads of their own
        wait = await allowances_off_loop(rates.take, kind, client)
    return player, None if wait == 0.0 else RetryLaterError(wait).response()


async def _answer(body: dict[str, Any]) -> Response:
    """``body`` as the JSON answer, made in a database thread (a board, a tree)."""
    return await off_loop(JSONResponse, body)


def add_puzzle_routes(app: FastAPI) -> None:
    """``/api/puzzles/...``: the next puzzle, the daily one, a streak's, a puzzle's page,
    a move, giving up, a streak's end, a player's puzzle ratings (docs/web.md,
    "Puzzles")."""

    @app.get(f"{ROUTE}/next", **answers(PuzzleOut))
    async def next_puzzle(request: Request, game: str = ANY) -> Response:
        player, refused = await _asker(request, REQUESTS)
        if refused is not None:
            return refused
        return await _answer(await PUZZLES.of(request).next(player, game))

    @app.get(f"{ROUTE}/daily", **answers(DailyPuzzle))
    async def daily_puzzle(request: Request) -> Response:
        player, refused = await _asker(request, REQUESTS)
        if refused is not None:
            return refused
        return await _answer(await PUZZLES.of(request).daily(player))

    @app.get(f"{ROUTE}/streak", **answers(PuzzleOut))
    async def streak_puzzle(request: Request, game: str = ANY, after: str = "") -> Response:
        player, refused = await _asker(request, REQUESTS)
        if refused is not None:
            return refused
        found = await PUZZLES.of(request).streak(player, game, after or None)
        return await _answer(found)

    @app.post(f"{ROUTE}/streak/end", **answers(StreakEnded))
    async def streak_end(body: StreakEndBody, request: Request) -> Response:
        player, refused = await _asker(request, REQUESTS)
        if refused is not None:
            return refused
        ended = await PUZZLES.of(request).end_streak(player, body.game, body.count)
        return JSONResponse(ended)

    @app.get(f"{ROUTE}/me", **answers(PuzzlesOfPlayer))
    async def my_puzzles(request: Request) -> Response:
        player, refused = await _asker(request, REQUESTS)
        if refused is not None:
            return refused
        return JSONResponse(await PUZZLES.of(request).me(player))

    @app.get(f"{ROUTE}/{{puzzle_id}}", **answers(PuzzlePage))
    async def puzzle_page(puzzle_id: str, request: Request) -> Response:
        player, refused = await _asker(request, REQUESTS)
        if refused is not None:
            return refused
        return await _answer(await PUZZLES.of(request).page(player, puzzle_id))

    @app.post(f"{ROUTE}/{{puzzle_id}}/moves", **answers(MoveAnswer))
    async def puzzle_move(puzzle_id: str, body: MoveBody, request: Request) -> Response:
        player, refused = await _asker(request, MOVES)
        if refused is not None:
            return refused
        found = await PUZZLES.of(request).move(player, puzzle_id, body.played, body.move)
        return await _answer(found)

    @app.post(f"{ROUTE}/{{puzzle_id}}/give-up", **answers(MoveAnswer))
    async def puzzle_give_up(puzzle_id: str, body: GiveUpBody, request: Request) -> Response:
        player, refused = await _asker(request, MOVES)
        if refused is not None:
            return refused
        found = await PUZZLES.of(request).give_up(player, puzzle_id, body.played)
        return await _answer(found)


__all__ = ["PUZZLES", "ROUTE", "add_puzzle_routes", "start_puzzles"]
