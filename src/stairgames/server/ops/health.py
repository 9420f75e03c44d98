"""Health and metrics: ``GET /healthz``, ``GET /readyz``, ``GET /metrics``.

- ``/healthz``: the process is up and its event loop answers: ``200 {"ok": true}``.
- ``/readyz``: it can serve: the database answers, its schema is at the newest migration,
  and (on PostgreSQL) the fan-out's listening connection is open. ``200 {"ok": true,
  "checks": {...}}``, or ``503`` with ``"failed"``: the checks that did not pass. A load
  balancer sends requests only to a ready process.
- ``/metrics``: Prometheus's text format (``prometheus-client``), one registry per app
  (tests make many apps in one process). What it counts carries no secret, no player and
  no match id: labels are games, levels, routes (their templates, ``/api/matches/{match_id}``),
  methods, status codes and error classes.

======================================== ===================================================
metric                                   what
======================================== ===================================================
``stairgames_http_requests_total``       HTTP requests answered, by method, route, status
``stairgames_limited_requests_total``    requests of a kind with a per-client rate (match
                                         creations, logins...), by ``kind`` and
                                         ``outcome``: ``accepted`` or ``refused`` (429;
                                         a refused request spends no allowance)
``stairgames_moves_total``               moves committed by this process, by game
``stairgames_move_announce_seconds``     from a move accepted to its views sent to this
                                         process's watchers, by game and ``origin``:
                                         ``here`` (committed by this process: from the
                                         commit) or ``elsewhere`` (from the fan-out's
                                         notification to this process)
``stairgames_websocket_connections``     open WebSockets, by ``viewer`` (seat, spectator)
``stairgames_matches_in_memory``         matches held in memory
``stairgames_computer_jobs``             computer moves being thought of or waiting for a
                                         worker (the queue)
``stairgames_computer_workers``          the pool's worker processes
``stairgames_computer_thinking_seconds`` a computer move's time (waiting for a worker
                                         included), by game and player
``stairgames_database_errors_total``     errors raised by the database, by class
``stairgames_fanout_connected``          1 while the fan-out listens (PostgreSQL or Redis)
``stairgames_fanout_connections_total``  times its listening connection was opened
``stairgames_fanout_notifications_total`` notifications it received
``stairgames_http_request_seconds``      an HTTP request's time, by method and route
``stairgames_websocket_refusals_total``  WebSockets refused (closed before accepted, or
                                         closed with a 4xxx code: too many, an outage...),
                                         by route and code
``stairgames_event_loop_lag_seconds``    how late the event loop woke a task asleep for
                                         :data:`LAG_EVERY` seconds (what every visitor
                                         waited beyond their own work)
``stairgames_database_pool_connections`` the database pool's connections, by ``state``:
                                         ``in_use``, ``idle``, ``overflow``
``process_*``                            the process's CPU seconds, resident memory, open
                                         files and their limit (prometheus-client)
======================================== ===================================================

With ``stairgames serve --workers N`` every sample carries ``worker`` (the worker's
process id): the port's scrape is answered by whichever worker takes it, so each worker's
series stay apart (no counter seems to go back) and a sum over ``worker`` adds them up;
docs/deploy.md, "Health and metrics", says how to scrape them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector
from sqlalchemy import event, text

from stairgames.server.base.contract import Ok, answers
from stairgames.server.base.limits import DOMAIN_RATES, RATES, AnswerStatus
from stairgames.server.base.outages import outages_of
from stairgames.server.base.state import Kept
from stairgames.server.base.store import ENGINE, EventRecord
from stairgames.server.ops.contract import Readiness
from stairgames.server.play.fanout import FANOUT, NotifyingFanOut
from stairgames.server.play.match import Match

if TYPE_CHECKING:
    from prometheus_client.metrics_core import Metric
    from sqlalchemy.engine import Engine
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

    from stairgames.server.play.hub import Hub

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
THINKING_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0)
LAG_EVERY = 0.25
"""How often the event loop's lag is measured (seconds asleep)."""
LAG_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
READY_SECONDS = 5.0
"""How long ``/readyz`` waits for the database before it says it is not ready."""
MAX_TIMED = 100_000
"""Moves whose announcement is waited for, at most (then the oldest are forgotten)."""


class Metrics:
    """The app's metrics, in a registry of its own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.worker: str | None = None
        """The worker's label on every sample (``--workers N``), or ``None``."""
        ProcessCollector(registry=self.registry)
        self.requests = Counter(
            "stairgames_http_requests",
            "HTTP requests answered",
            ["method", "route", "status"],
            registry=self.registry,
        )
        self.request_seconds = Histogram(
            "stairgames_http_request_seconds",
            "An HTTP request's time, from its start to its answer's end",
            ["method", "route"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.socket_refusals = Counter(
            "stairgames_websocket_refusals",
            "WebSockets refused: closed before accepted, or with a 4xxx code",
            ["route", "code"],
            registry=self.registry,
        )
        self.loop_lag = Histogram(
            "stairgames_event_loop_lag_seconds",
            "How late the event loop woke a task asleep for a set time",
            buckets=LAG_BUCKETS,
            registry=self.registry,
        )
        self.moves = Counter(
            "stairgames_moves", "Moves committed by this process", ["game"], registry=self.registry
        )
        self.latency = Histogram(
            "stairgames_move_announce_seconds",
            "From a move accepted to its views sent to this process's watchers",
            ["game", "origin"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.requests_carried = Histogram(
            "stairgames_socket_request_seconds",
            "A match socket's request, from its receipt to its views sent here",
            ["type"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.thinking = Histogram(
            "stairgames_computer_thinking_seconds",
            "A computer move's time, waiting for a worker included",
            ["game", "player"],
            buckets=THINKING_BUCKETS,
            registry=self.registry,
        )
        self.database_errors = Counter(
            "stairgames_database_errors",
            "Errors raised by the database",
            ["error"],
            registry=self.registry,
        )
        self._gauges: _Gauges | None = None
        self._accepted: dict[str, dict[int, tuple[float, str]]] = {}
        """Per match, its events not announced yet: when each was accepted, and where."""

    # ----- moves: accepted, then announced -------------------------------------------

    def committed(self, match: Match, records: Sequence[EventRecord]) -> None:
        """A :attr:`MatchService.committed` listener."""
        moves = [r for r in records if r.kind == "move" and r.seat is not None]
        if moves:
            self.moves.labels(match.game_name).inc(len(moves))
            self._accept(match.id, max(r.number for r in records), "here")

    def notified(self, match_id: str, event: int) -> None:
        """The fan-out heard of another process's ``event`` to a match watched here."""
        self._accept(match_id, event, "elsewhere")

    def _accept(self, match_id: str, event: int, origin: str) -> None:
        """Time ``event`` of ``match_id`` from now until an announcement covers it. Each
        event is timed apart: one accepted while another of the match waits for its
        announcement keeps its own start and origin (a move made elsewhere, heard while
        this process still announced its own, was once lost to the count)."""
        self._accepted.setdefault(match_id, {}).setdefault(event, (time.perf_counter(), origin))
        if len(self._accepted) > MAX_TIMED:
            del self._accepted[next(iter(self._accepted))]

    def announced(self, match: Match) -> None:
        """A :attr:`Hub.after_announce` listener: every event of the match up to the one
        announced is observed, each with its own origin."""
        waiting = self._accepted.get(match.id)
        if not waiting:
            return
        now = time.perf_counter()
        for number in [n for n in waiting if n <= match.event]:
            since, origin = waiting.pop(number)
            self.latency.labels(match.game_name, origin).observe(now - since)
        if not waiting:
            del self._accepted[match.id]

    def carried(self, kind: str, seconds: float) -> None:
        """A :attr:`Hub.after_request` listener."""
        self.requests_carried.labels(kind).observe(seconds)

    # ----- the rest ----------------------------------------------------------------

    def watch_database(self, engine: Engine) -> None:
        """Count the errors ``engine`` raises (a conflict of two writers included)."""

        def handle_error(context: Any) -> None:
            error = context.original_exception
            self.database_errors.labels(type(error).__name__).inc()

        event.listen(engine, "handle_error", handle_error)

    def time_computers(self, hub: Hub) -> None:
        """Time every computer move ``hub``'s pool is asked for."""
        computers = hub.computers
        choose = computers.choose
        histogram = self.thinking

        async def timed(
            game: str,
            options: dict[str, Any],
            player: str,
            seat: int,
            moves: list[str],
            seed: int,
            **more: Any,  # start_position, for a match started from a position
        ) -> str:
            started = time.perf_counter()
            try:
                return await choose(game, options, player, seat, moves, seed, **more)
            finally:
                histogram.labels(game, player).observe(time.perf_counter() - started)

        computers.choose = timed  # type: ignore[assignment]

    def follow(self, hub: Hub, fanout: Any, engine: Engine | None = None) -> None:
        """Gauges read from ``hub`` (the fan-out, the database's pool) when scraped (those
        of the app's last start: a test may start one app twice)."""
        if self._gauges is not None:
            self.registry.unregister(self._gauges)
        self._gauges = _Gauges(hub, fanout, engine)
        self.registry.register(self._gauges)

    async def watch_loop_lag(self, every: float = LAG_EVERY) -> None:
        """Until cancelled: sleep ``every`` seconds and count how late the loop woke."""
        loop = asyncio.get_running_loop()
        while True:
            asleep = loop.time()
            await asyncio.sleep(every)
            self.loop_lag.observe(max(0.0, loop.time() - asleep - every))

    def exposition(self) -> bytes:
        """The text ``/metrics`` answers: every sample, with ``worker`` where set."""
        if self.worker is None:
            return generate_latest(self.registry)
        labelled = CollectorRegistry(auto_describe=False)
        labelled.register(_WithLabel(self.registry, "worker", self.worker))
        return generate_latest(labelled)


class _WithLabel(Collector):
    """Every metric of ``registry`` with one more label on each sample."""

    def __init__(self, registry: CollectorRegistry, name: str, value: str) -> None:
        self.registry = registry
        self.name = name
        self.value = value

    def collect(self) -> Iterator[Metric]:
        for family in self.registry.collect():
            family.samples = [
                sample._replace(labels={**sample.labels, self.name: self.value})
                for sample in family.samples
            ]
            yield family


class _Gauges(Collector):
    """What the process holds now, read at each scrape."""

    def __init__(self, hub: Hub, fanout: Any, engine: Engine | None) -> None:
        self.hub = hub
        self.fanout = fanout
        self.engine = engine

    def collect(self) -> Iterator[Metric]:
        yield from self._pool()
        counts = self.hub.counts()
        sockets = GaugeMetricFamily(
            "stairgames_websocket_connections", "Open WebSockets", labels=["viewer"]
        )
        sockets.add_metric(["seat"], counts["seats"])
        sockets.add_metric(["spectator"], counts["spectators"])
        yield sockets
        yield GaugeMetricFamily(
            "stairgames_matches_in_memory", "Matches held in memory", value=counts["matches"]
        )
        yield GaugeMetricFamily(
            "stairgames_computer_jobs",
            "Computer moves being thought of or waiting for a worker",
            value=counts["computers"],
        )
        yield GaugeMetricFamily(
            "stairgames_computer_workers",
            "The computer players' worker processes",
            value=self.hub.computers.workers,
        )
        fanout = self.fanout
        if isinstance(fanout, NotifyingFanOut):
            yield GaugeMetricFamily(
                "stairgames_fanout_connected",
                "1 while the fan-out listens",
                value=1 if fanout.connected else 0,
            )
            yield CounterMetricFamily(
                "stairgames_fanout_connections",
                "Times the fan-out's listening connection was opened",
                value=fanout.connections,
            )
            yield CounterMetricFamily(
                "stairgames_fanout_notifications",
                "Notifications the fan-out received",
                value=fanout.received,
            )

    def _pool(self) -> Iterator[Metric]:
        """The database pool's connections (SQLAlchemy's ``QueuePool``; none for a pool
        that does not count them)."""
        pool = self.engine.pool if self.engine is not None else None
        counts = [getattr(pool, name, None) for name in ("checkedout", "checkedin", "overflow")]
        if pool is None or not all(callable(count) for count in counts):
            return
        family = GaugeMetricFamily(
            "stairgames_database_pool_connections",
            "The database pool's connections, by state",
            labels=["state"],
        )
        for state, count in zip(("in_use", "idle", "overflow"), counts, strict=True):
            family.add_metric([state], max(0, int(count())))  # type: ignore[misc]
        yield family


class _LimitedRequests(Collector):
    """The requests of each limited kind the app's request limits accepted and
    refused (:data:`RATES`), and those of the limits the routes keep themselves
    (:data:`DOMAIN_RATES`: the logins of a name, password changes, chat, analyses
    per player, mail; their kinds named ``domain:kind``), read at each scrape."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app

    def collect(self) -> Iterator[Metric]:
        family = CounterMetricFamily(
            "stairgames_limited_requests",
            "Requests of a kind with a per-client rate, accepted or refused",
            labels=["kind", "outcome"],
        )
        rates = RATES.find(self.app)
        for kind, counts in sorted(rates.counts.items() if rates is not None else ()):
            family.add_metric([kind, "accepted"], counts.accepted)
            family.add_metric([kind, "refused"], counts.refused)
        others = DOMAIN_RATES.find(self.app) or {}
        for domain, domain_rates in sorted(others.items()):  # limits the routes keep
            for kind, counts in sorted(domain_rates.counts.items()):
                family.add_metric([f"{domain}:{kind}", "accepted"], counts.accepted)
                family.add_metric([f"{domain}:{kind}", "refused"], counts.refused)
        yield family


class CountRequests:
    """ASGI middleware: every HTTP request answered, by method, route template, status."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self._socket(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        answer = AnswerStatus(send)
        started = time.perf_counter()
        try:
            await self.app(scope, receive, answer)
        finally:
            template = _template(scope)
            method = str(scope.get("method", ""))[:10]
            self.metrics.requests.labels(method, template, str(answer.status)).inc()
            elapsed = time.perf_counter() - started
            self.metrics.request_seconds.labels(method, template).observe(elapsed)

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A WebSocket, its refusal counted: closed before it was accepted (or answered
        with an HTTP status), or closed with a code of 4000-4999."""
        accepted = False

        async def watched(message: Message) -> None:
            nonlocal accepted
            kind = message.get("type")
            if kind == "websocket.accept":
                accepted = True
            elif kind == "websocket.http.response.start":
                self._refused(scope, str(message.get("status", 403)))
            elif kind == "websocket.close":
                code = int(message.get("code", 1000))
                if not accepted or 4000 <= code < 5000:
                    self._refused(scope, str(code))
            await send(message)

        await self.app(scope, receive, watched)

    def _refused(self, scope: Scope, code: str) -> None:
        self.metrics.socket_refusals.labels(_template(scope), code).inc()


def _template(scope: Scope) -> str:
    """The route's template (``/ws/matches/{match_id}``), never the address itself."""
    return getattr(scope.get("route"), "path", None) or "other"


# ----- the routes ------------------------------------------------------------------


def add_health_routes(app: FastAPI) -> None:
    """``/healthz``, ``/readyz``, ``/metrics``, and the count of requests (call it just
    before the outermost middleware is added, so refused requests are counted too)."""
    metrics = METRICS.keep(app, Metrics())
    metrics.registry.register(_LimitedRequests(app))
    app.add_middleware(CountRequests, metrics=metrics)

    @app.get("/healthz", **answers(Ok))
    async def healthz() -> dict[str, Any]:
        return {"ok": True}

    @app.get("/readyz", **answers(Readiness))
    async def readyz(request: Request) -> Response:
        checks = await readiness(request.app)
        failed = [name for name, ok in checks.items() if not ok]
        body = {"ok": not failed, "checks": checks}
        if failed:
            body["failed"] = failed
        else:
            outages_of(request).answered()  # (a summary, if an outage just ended)
        return JSONResponse(body, status_code=503 if failed else 200)

    @app.get("/metrics")
    async def metrics_text() -> Response:
        return Response(metrics.exposition(), media_type=CONTENT_TYPE_LATEST)


async def readiness(app: FastAPI) -> dict[str, bool]:
    """Each check of ``/readyz``: ``database``, ``migrations``, and ``fanout`` where it
    listens on a channel (PostgreSQL's or Redis's)."""
    engine = ENGINE.find(app)
    checks = {"database": False, "migrations": False}
    if engine is not None:
        try:
            revision = await asyncio.wait_for(asyncio.to_thread(_revision, engine), READY_SECONDS)
        except Exception:
            revision = None
        else:
            checks["database"] = True
        from stairgames.server.migrations import HEAD

        checks["migrations"] = revision == HEAD
    fanout = FANOUT.find(app)
    if isinstance(fanout, NotifyingFanOut):
        checks["fanout"] = fanout.connected
    return checks


def _revision(engine: Engine) -> str | None:
    """The database's migration revision (it answers: the database check)."""
    with engine.connect() as connection:
        connection.execute(text("SELECT 1"))
    from stairgames.server.migrations import current_revision

    return current_revision(engine)


def start_health(
    app: FastAPI, engine: Engine, hub: Hub, worker: str | None = None
) -> list[asyncio.Task[None]]:
    """When the app starts: what ``/readyz`` checks and ``/metrics`` counts (after the
    fan-out is made: :func:`stairgames.server.play.fanouts.start_fanout`), ``worker`` the
    label of every sample (``--workers N``); the task that measures the event loop's lag."""
    ENGINE.keep(app, engine)
    metrics = METRICS.of(app)
    metrics.worker = worker
    metrics.watch_database(engine)
    metrics.time_computers(hub)
    hub.service.committed.append(metrics.committed)
    hub.after_announce.append(metrics.announced)
    hub.after_request.append(metrics.carried)
    fanout = FANOUT.find(app)
    if isinstance(fanout, NotifyingFanOut):
        fanout.notified.append(metrics.notified)
    metrics.follow(hub, fanout, engine)
    return [asyncio.get_running_loop().create_task(metrics.watch_loop_lag())]


METRICS: Kept[Metrics] = Kept("metrics")
"""The app's metrics (``app.state.metrics``), made with its routes (:func:`add_health_routes`)."""


__all__ = ["METRICS", "Metrics", "add_health_routes", "readiness", "start_health"]
