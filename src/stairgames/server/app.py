"""The web app: HTTP API, WebSocket, static files (FastAPI on uvicorn).

:func:`create_app` builds it from :class:`Settings`: it makes the services when the app
starts and adds each domain's routes (``add_..._routes``) and the middlewares of
``ops/``; ``stairgames serve`` runs it. The contract with the front end (JSON shapes,
messages, errors) is ``docs/web.md``; the domains and their layers,
docs/architecture.md ("The server's layers").
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import FastAPI
from starlette.requests import HTTPConnection

from stairgames.server.analysis.analysis import (
    ANALYSES,
    add_analysis_routes,
    start_analysis,
)
from stairgames.server.base.contract import ContractRoute
from stairgames.server.base.limits import (
    DOMAIN_RATES,
    PROCESSES,
    live_processes_for,
    shared_allowances,
    start_shared_limits,
)
from stairgames.server.base.settings import DATA_DIR, Settings
from stairgames.server.base.store import (
    ClockStore,
    Store,
    guard_event_loop,
    make_engine,
)
from stairgames.server.bots.streams import BOTS, add_bot_routes, start_bots
from stairgames.server.chat.chat import CHAT, add_chat_routes, start_chat
from stairgames.server.chat.told import add_told_routes, start_told
from stairgames.server.lobby.lobby import (
    LOBBY,
    Lobby,
    LobbyStore,
    add_lobby_routes,
    wall_clock_now,
)
from stairgames.server.mail.routes import (
    MAIL,
    add_mail_routes,
    start_mail,
)
from stairgames.server.migrations import upgrade
from stairgames.server.ops.health import add_health_routes, start_health
from stairgames.server.ops.middleware import (
    add_error_handlers,
    add_request_limits,
    add_security_headers,
    refuse_cross_site_websockets,
    require_content_types,
)
from stairgames.server.ops.pages import add_page_routes
from stairgames.server.people.blocks import add_block_routes
from stairgames.server.people.players import (
    PLAYERS,
    PlayerStore,
    add_player_routes,
)
from stairgames.server.people.rating_store import RATINGS, RatingStore
from stairgames.server.people.tokens import add_token_routes, marking_bots, start_tokens
from stairgames.server.people.vacation import VacationStore
from stairgames.server.play.card_files import (
    add_card_routes,
    start_card_sweep,
)
from stairgames.server.play.clocks import FirstMoveLimits
from stairgames.server.play.computer import ComputerPool
from stairgames.server.play.fanout import FANOUT
from stairgames.server.play.fanouts import start_fanout
from stairgames.server.play.hub import HUB, Hub, HubNeighbours, Limits
from stairgames.server.play.matches import MatchService
from stairgames.server.play.plans import PLANS, Plans, PlanStore, add_plan_routes
from stairgames.server.play.referee import REFEREE, Referee
from stairgames.server.play.routes import Neighbours, add_match_routes
from stairgames.server.play.vacation import (
    VACATIONS,
    HeldSeats,
    Vacations,
    add_vacation_routes,
)
from stairgames.server.push.routes import PUSH, add_push_routes, start_push
from stairgames.server.puzzles.routes import PUZZLES, add_puzzle_routes, start_puzzles
from stairgames.server.tournaments.scheduler import SCHEDULER, Scheduler
from stairgames.server.tournaments.tournaments import (
    TOURNAMENTS,
    add_tournament_routes,
    start_tournaments,
)


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
        first_moves = FirstMoveLimits(
            settings.first_move_seconds, settings.first_move_correspondence_seconds
        )
        service = MatchService(
            Store(engine),
            settings.computer_players,
            clock=settings.wall_clock,
            first_moves=first_moves,
        )
        players = PLAYERS.keep(
            app, PlayerStore(engine, clock=settings.clock, guard_loop=settings.loop_guard)
        )
        players.login_rates.shared = shared_allowances(engine, settings.shared())
        ratings = RATINGS.keep(app, RatingStore(engine))
        tokens = start_tokens(engine, settings)  # API tokens, bots (server/people/tokens.py)
        processes = PROCESSES.keep(app, live_processes_for(engine, settings))
        neighbours = HubNeighbours()  # the lobby and the referee join it once made
        hub = HUB.keep(
            app, Hub(service, computers, _limits(settings), neighbours, live_processes=processes)
        )
        lobby = LOBBY.keep(
            app,
            Lobby(
                LobbyStore(engine),
                players,
                ratings,
                hub,
                now=wall_clock_now(settings.wall_clock),
                grace_seconds=settings.challenge_grace_seconds,
            ),
        )
        referee = REFEREE.keep(
            app, Referee(hub, ClockStore(engine), beat_seconds=settings.heartbeat_seconds)
        )
        vacations = VACATIONS.keep(  # players away: their clocks held (play/vacation.py)
            app,
            Vacations(hub, VacationStore(engine), HeldSeats(engine), rates_clock=settings.clock),
        )
        vacations.rates.shared = shared_allowances(engine, settings.shared())
        referee.vacations = vacations
        service.moved.append(vacations.moved)  # a move ends an automatic vacation
        plans = PLANS.keep(app, Plans(PlanStore(engine), rates_clock=settings.clock))
        plans.rates.shared = shared_allowances(engine, settings.shared())
        service.replies = plans  # replies planned ahead (play/plans.py)
        neighbours.after_change += [lobby.follow_rematch, lobby.rate_if_over, vacations.note]
        neighbours.after_change.append(referee.note)
        neighbours.seat_names = lobby.seat_names
        neighbours.seat_ratings = marking_bots(lobby.seat_ratings, lobby.bot_seats)
        neighbours.notes_kept = lobby.notes_kept
        await referee.start()
        loop = asyncio.get_running_loop()
        background = [
            loop.create_task(referee.run()),
            loop.create_task(hub.sweep_every(settings.sweep_seconds, settings.idle_seconds)),
            loop.create_task(lobby.sweep_every(settings.lobby_sweep_seconds)),
        ]
        background += start_fanout(app, engine, hub, settings)  # other processes' events
        background += _share_across_processes(app, engine, hub, referee, settings)
        background += start_health(  # /readyz's checks, /metrics (server/ops/health.py)
            app, engine, hub, settings.metrics_worker
        )
        background += start_chat(app, engine, hub, settings)  # the chat (server/chat/chat.py)
        background += start_mail(app, engine, hub, lobby, settings)  # server/mail/routes.py
        start_told(app)  # each player's channel, /ws/me (server/chat/told.py)
        pusher = await start_push(app, engine, lobby, settings)  # web push (server/push/)
        start_analysis(app, engine, hub, settings)  # server/analysis/analysis.py
        background += start_card_sweep(app, engine, settings)  # unused card files expire
        start_puzzles(app, engine, settings, hub)  # server/puzzles/: the sets, rated; records
        start_bots(app, lobby, hub)  # the Bot API's streams (server/bots/streams.py)
        tournaments = start_tournaments(app, engine, ratings, settings)  # server/tournaments/
        scheduler = SCHEDULER.keep(app, Scheduler(tournaments, lobby))
        neighbours.after_change.append(scheduler.note)  # tournament games' results
        background.append(
            loop.create_task(scheduler.sweep_every(settings.tournament_sweep_seconds))
        )
        domain_rates = {  # the limits routes keep themselves, counted in /metrics
            "player": players.login_rates,
            "chat": CHAT.of(app).rates,
            "analysis": ANALYSES.of(app).rates,
            "mail": MAIL.of(app).rates,
            "puzzles": PUZZLES.of(app).rates,
            "bots": BOTS.of(app).rates,
            "tokens": tokens.rates,
            "tournaments": TOURNAMENTS.of(app).rates,
            "vacation": vacations.rates,
            "plans": plans.rates,
            "push": PUSH.of(app).rates,
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
            await pusher.close()
            await ANALYSES.of(app).close()
            await hub.close()
            computers.shutdown()
            engine.dispose()

    app = FastAPI(
        title="stairgames",
        lifespan=lifespan,
        openapi_url=OPENAPI_ROUTE,
        docs_url=None,
        redoc_url=None,
    )
    app.router.route_class = ContractRoute  # bodies checked before parsing (base/contract.py)
    add_error_handlers(app)
    add_request_limits(app, settings)
    DATA_DIR.keep(app, settings.data_dir)
    add_card_routes(app, settings.data_dir)
    add_player_routes(app)
    add_block_routes(app)
    add_token_routes(app)
    add_lobby_routes(app)
    add_chat_routes(app)
    add_told_routes(app)
    add_mail_routes(app)
    add_analysis_routes(app)
    add_puzzle_routes(app)
    add_bot_routes(app)
    add_tournament_routes(app)
    add_vacation_routes(app)
    add_plan_routes(app, _match_neighbours())
    add_push_routes(app)
    add_match_routes(app, settings, _match_neighbours())
    add_page_routes(app, settings.static_dir)
    require_content_types(app)
    refuse_cross_site_websockets(app)
    add_health_routes(app)  # /healthz, /readyz, /metrics; counts every request below
    add_security_headers(app)  # last: the outermost, so every other answer has them too
    return app


OPENAPI_ROUTE = "/api/openapi.json"
"""The OpenAPI document: every route's request and answer, typed (base/contract.py);
under ``/api/`` with the rest of the API (no ``/openapi.json`` besides)."""


def _share_across_processes(
    app: FastAPI, engine: Any, hub: Hub, referee: Referee, settings: Settings
) -> list[asyncio.Task[None]]:
    """What must hold over every server process of the database (issue 33): the lobby's
    list, who is connected (``server/play/hub.py``), the per-client limits
    (``server/base/limits.py``); the tasks that keep them."""
    fanout = FANOUT.of(app)
    LOBBY.of(app).share_through(fanout)
    tasks = start_shared_limits(app, engine, settings)
    if PROCESSES.of(app) is not None:
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


def _match_neighbours() -> Neighbours:
    """What the match routes (``play/``) ask of the lobby and the analyses above them."""

    def stored_analysis(request: HTTPConnection) -> Callable[[str], dict[str, Any] | None]:
        return ANALYSES.of(request).stored

    return Neighbours(seat_holders=LOBBY.of, stored_analysis=stored_analysis)
