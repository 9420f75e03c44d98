"""What one client may ask of the server over HTTP: bodies read only up to their limit,
match creations and card uploads per minute, and deadlines for a request's headers and
body.

- :class:`RequestLimits` (ASGI middleware) reads a request's body itself, chunk by chunk,
  and answers 413 as soon as it grows past the limit of its route, whatever the request
  says of its length (``Content-Length`` or chunked): nothing larger is ever held. It then
  charges the client's allowance for that kind of request (:class:`ClientRates`) and
  answers 429 with ``Retry-After`` when it is spent.
- :func:`header_timeout_protocol` is uvicorn's HTTP protocol with a deadline for each
  request's headers and another for its body: a connection that has not finished
  sending them in time is closed (a late body answered 408 first), so half-sent
  requests cannot hold the server's connections.

A client is the request's player where its session cookie names one, else (an
anonymous visitor, or a made-up or forgotten cookie) its address (``scope["client"]``):
people behind one router each have their own allowance once they are players, while a
visitor cannot get fresh ones by inventing cookies. Making a player and logging in are
what anonymous visitors do, so they are always the address's (:attr:`Route.per_address`).
Behind a proxy every address is the proxy's, unless the server believes its
``X-Forwarded-For``, so the proxy must apply its own limits.

**Several server processes on one PostgreSQL database** share these allowances two ways
(``docs/web.md``, *Limits*):

- the rates of requests of a kind (match creations, logins, chat messages...): each
  take is one atomic ``INSERT ... ON CONFLICT DO UPDATE`` on the token bucket of
  (kind, client) in the ``client_allowances`` table (:class:`SharedAllowances`; the
  database's clock, the client's address hashed), so a client has one allowance
  whichever process it reaches. Only the limited kinds pay that round trip, and they
  write to the database anyway; should it fail, the process's own bucket decides;
- the WebSockets' messages and connections, too frequent for a round trip each: each
  process enforces its share, the limit divided by the server processes alive
  (:class:`LiveProcesses`, from the ``server_heartbeats`` the referee writes), so a
  client cannot exceed the limit over all of them, but one whose sockets all land on
  one process gets only that process's share.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import hashlib
import json
import logging
import math
import threading
import time
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import select, text

from stairgames.i18n import N_
from stairgames.server.base.errors import ServerError, error_json
from stairgames.server.base.outages import log_failure
from stairgames.server.base.state import Kept
from stairgames.server.base.store import HeartbeatRow, Repository, allowances_off_loop, off_loop

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
Clock = Callable[[], float]
_Result = TypeVar("_Result")


@dataclasses.dataclass(frozen=True)
class Rate:
    """``per_minute`` requests a minute on average, up to ``burst`` at once."""

    per_minute: float
    burst: float

    def __post_init__(self) -> None:
        if self.per_minute <= 0 or self.burst < 1:
            raise ValueError(f"a rate needs per_minute > 0 and burst >= 1, not {self}")


MATCHES_RATE = Rate(per_minute=20, burst=20)
"""Matches one client may create (a person starts one every few minutes)."""
JOINS_RATE = Rate(per_minute=60, burst=30)
CARD_UPLOADS_RATE = Rate(per_minute=10, burst=10)
NEW_PLAYERS_RATE = Rate(per_minute=10, burst=30)
"""Players one address may make (``POST /api/me`` without a player: a name taken counts
too), and names one player may try (the same request with their session): thirty at
once, for a family, a club or a class behind one router each trying a name or two, then
one every six seconds, so that one address cannot make players by the thousand."""
ANALYSES_RATE = Rate(per_minute=6, burst=6)
"""Analyses of finished games one client may ask for (``POST .../analysis``; one that is
stored or running already costs nothing more than the request)."""
POSITIONS_RATE = Rate(per_minute=60, burst=30)
"""Positions one client may have the analysis board value (``POST
/api/analysis/position``: a person explores a move every second or two)."""
LOGINS_RATE = Rate(per_minute=10, burst=10)
"""Login attempts from one address, whatever the names and cookies (see also
:data:`stairgames.server.people.players.LOGINS_PER_NAME`): a browser logs in once and
keeps its player for 400 days, so ten at once serve a household or a group of friends
behind one router, each with a mistyped password; one address guessing passwords over
many names gets no more than one every six seconds."""
CHALLENGES_RATE = Rate(per_minute=10, burst=10)
"""Lobby challenges opened per client (issue 48: 200 in 20 s were accepted)."""
REPLAYS_RATE = Rate(per_minute=60, burst=30)
"""Replays and records per client: each replays a whole game off the loop."""
BLOCKS_AND_REPORTS_RATE = Rate(per_minute=10, burst=20)
"""Blocks, mutes and reports per client (``POST /api/blocks``, ``/api/reports``): a person
keeps a few people away at a time; each report is a row a moderator reads."""


@dataclasses.dataclass(eq=False)
class Bucket:
    """A token bucket: ``rate`` requests a second on average, up to ``burst`` at once."""

    rate: float
    burst: float
    clock: Clock = time.monotonic
    allowance: float = dataclasses.field(init=False)
    last: float = dataclasses.field(init=False)

    def __post_init__(self) -> None:
        self.allowance, self.last = self.burst, self.clock()

    def _at(self, now: float) -> float:
        return min(self.burst, self.allowance + max(0.0, now - self.last) * self.rate)

    def take(self) -> float:
        """Spend one request: 0.0 when allowed, else the seconds until one is allowed
        again (nothing is spent)."""
        now = self.clock()
        self.allowance, self.last = self._at(now), max(now, self.last)
        if self.allowance < 1.0:
            return (1.0 - self.allowance) / self.rate
        self.allowance -= 1.0
        return 0.0

    def give_back(self) -> None:
        """Return one request :meth:`take` spent (it was refused after all), up to the
        burst."""
        self.allowance = min(self.burst, self.allowance + 1.0)

    def full(self, now: float | None = None) -> bool:
        """Whether it holds ``burst`` again at ``now`` (by default its clock's now):
        forgetting it then loses nothing."""
        return self._at(self.clock() if now is None else now) >= self.burst


@dataclasses.dataclass
class LimitCounts:
    """What a limit made of the requests of one kind: ``accepted`` (served on the
    allowance) and ``refused`` (answered 429 by this limit, or by a later one, which
    gave the allowance back)."""

    accepted: int = 0
    refused: int = 0


class ClientRates:
    """Token buckets, one per client and kind of request.

    :meth:`take` spends one request of a client's allowance of a kind; a request refused
    spends nothing (and one refused after all, by a later limit, is given back:
    :meth:`give_back`), so a client that keeps asking while refused is served as soon
    as its allowance has refilled. :attr:`counts` says, per kind, how many requests were
    accepted and how many refused (``/metrics``). Buckets that have refilled are dropped
    when there are many, so memory stays bounded by the clients active within a minute
    or so.
    """

    def __init__(
        self, rates: Mapping[str, Rate], clock: Clock = time.monotonic, keep: int = 10_000
    ) -> None:
        self.rates = dict(rates)
        self.clock = clock
        self.keep = keep
        self._buckets: dict[tuple[str, str], Bucket] = {}
        self._lock = threading.Lock()  # spent off the event loop too (shared allowances)
        self.shared: SharedAllowances | None = None
        """The buckets every server process shares (PostgreSQL), once given: then
        :meth:`spend` and :meth:`give_back` are a database round trip each (call them
        off the event loop)."""
        self.counts: dict[str, LimitCounts] = {}
        """Per kind (those with a rate): the requests accepted and refused."""

    def take(self, kind: str, client: str) -> float:
        """Spend one ``kind`` request of ``client`` and count it: 0.0 when allowed,
        else the seconds until one is allowed again (nothing is spent)."""
        wait = self.spend(kind, client)
        self.count(kind, accepted=wait == 0.0)
        return wait

    def count(self, kind: str, *, accepted: bool) -> None:
        """Count a request of ``kind`` (if it has a rate) as accepted or refused."""
        if kind in self.rates:
            counts = self.counts.setdefault(kind, LimitCounts())
            if accepted:
                counts.accepted += 1
            else:
                counts.refused += 1

    def spend(self, kind: str, client: str) -> float:
        """:meth:`take`, uncounted (the caller counts the request once it knows whether
        a later limit refused it)."""
        rate = self.rates.get(kind)
        if rate is None:
            return 0.0
        if self.shared is not None:
            try:
                return self.shared.take(kind, client, rate)
            except Exception as exc:  # the database is away: this process's bucket decides
                log.warning("the shared allowance of %s could not be read: %s", kind, exc)
        return self._take_here(kind, client, rate)

    def give_back(self, kind: str, client: str) -> None:
        """Return the ``kind`` request of ``client`` that :meth:`spend` took: it was
        refused after all, before any work (by a later limit)."""
        rate = self.rates.get(kind)
        if rate is None:
            return
        if self.shared is not None:
            try:
                self.shared.give_back(kind, client, rate)
                return
            except Exception as exc:  # the database is away: this process's bucket
                log.warning("the shared allowance of %s could not be given back: %s", kind, exc)
        with self._lock:
            bucket = self._buckets.get((kind, client))
            if bucket is not None:
                bucket.give_back()

    def _take_here(self, kind: str, client: str, rate: Rate) -> float:
        with self._lock:
            bucket = self._buckets.get((kind, client))
            if bucket is None:
                self._forget_full_buckets()
                bucket = Bucket(rate.per_minute / 60.0, rate.burst, self.clock)
                self._buckets[(kind, client)] = bucket
            return bucket.take()

    def _forget_full_buckets(self) -> None:
        if len(self._buckets) >= self.keep:
            for key in [key for key, bucket in self._buckets.items() if bucket.full()]:
                del self._buckets[key]


_SPEND = text(
    """
    INSERT INTO client_allowances AS a (kind, client, allowance, at, granted)
    VALUES (:kind, :client, :burst - 1, extract(epoch FROM clock_timestamp()), true)
    ON CONFLICT (kind, client) DO UPDATE SET
        allowance = CASE
            WHEN least(:burst, a.allowance + greatest(0, excluded.at - a.at) * :rate) >= 1
            THEN least(:burst, a.allowance + greatest(0, excluded.at - a.at) * :rate) - 1
            ELSE least(:burst, a.allowance + greatest(0, excluded.at - a.at) * :rate)
        END,
        granted = least(:burst, a.allowance + greatest(0, excluded.at - a.at) * :rate) >= 1,
        at = greatest(a.at, excluded.at)
    RETURNING allowance, granted
    """
)
_GIVE_BACK = text(
    """
    UPDATE client_allowances SET allowance = least(:burst, allowance + 1)
    WHERE kind = :kind AND client = :client
    """
)
_FORGET_FULL = text(
    "DELETE FROM client_allowances WHERE at < extract(epoch FROM clock_timestamp()) - :seconds"
)


class SharedAllowances:
    """Token buckets in PostgreSQL's ``client_allowances`` table, one per kind and
    client, shared by every server process of the database (see the module's text).

    A take is one statement: the bucket refilled by the database's clock since its last
    take, spent if it holds a whole request. A client's address is kept only hashed, and
    a bucket untouched for ``forget_seconds`` (by then full again) is deleted, every
    ``sweep_seconds`` at most.
    """

    def __init__(
        self,
        engine: Engine,
        *,
        forget_seconds: float = 3600.0,
        sweep_seconds: float = 300.0,
        clock: Clock = time.monotonic,
    ) -> None:
        self.engine = engine
        self.forget_seconds = forget_seconds
        self.sweep_seconds = sweep_seconds
        self.clock = clock
        self._swept = clock()

    def take(self, kind: str, client: str, rate: Rate) -> float:
        """Spend one ``kind`` request of ``client``: 0.0 when allowed, else the seconds
        until one is allowed again (nothing is spent)."""
        per_second = rate.per_minute / 60.0
        values = {"kind": kind, "client": _hashed(client), "burst": rate.burst}
        with self.engine.begin() as connection:
            allowance, granted = connection.execute(_SPEND, {**values, "rate": per_second}).one()
            if self.clock() - self._swept >= self.sweep_seconds:
                self._swept = self.clock()
                connection.execute(_FORGET_FULL, {"seconds": self.forget_seconds})
        return 0.0 if granted else (1.0 - float(allowance)) / per_second

    def give_back(self, kind: str, client: str, rate: Rate) -> None:
        """Return one ``kind`` request of ``client`` that :meth:`take` spent (up to the
        burst)."""
        values = {"kind": kind, "client": _hashed(client), "burst": rate.burst}
        with self.engine.begin() as connection:
            connection.execute(_GIVE_BACK, values)


def _hashed(client: str) -> str:
    return hashlib.sha256(client.encode("utf-8", "surrogatepass")).hexdigest()


def shared_allowances(engine: Engine, shared: bool) -> SharedAllowances | None:
    """The allowances to share with the other server processes: on PostgreSQL when
    shared (another database: ``None``, each process keeps its own)."""
    if shared and engine.dialect.name == "postgresql":
        return SharedAllowances(engine)
    return None


GONE_LOOKED_AT_SECONDS = 3600.0
"""How far back :class:`LiveProcesses` looks for processes that stopped beating."""


class LiveProcesses(Repository):
    """The server processes alive on the database: those whose heartbeat
    (``server_heartbeats``, written by :class:`stairgames.server.play.referee.Referee` every
    second) is under ``stale_seconds`` old, and those gone (their last beat older, within
    the last hour), read again by :meth:`run`."""

    def __init__(self, engine: Engine, clock: Clock = time.time, stale_seconds: float = 5.0):
        super().__init__(engine)
        self.clock = clock
        self.stale_seconds = stale_seconds
        self.ids: frozenset[str] = frozenset()
        self.gone: frozenset[str] = frozenset()
        self.after_read: list[Callable[[], None]] = []
        """Told after each :meth:`read` (a process may have come or gone)."""

    def count(self) -> int:
        """How many are alive (at least this one)."""
        return max(1, len(self.ids))

    def read(self) -> frozenset[str]:
        """Read the processes alive now (:attr:`ids`) and those gone (:attr:`gone`)."""
        return self._note(self._heartbeats())

    def _heartbeats(self) -> list[tuple[str, bool]]:
        """Each process that beat within the last hour, and whether it is alive."""
        now = self.clock()
        stale = datetime.datetime.fromtimestamp(now - self.stale_seconds, datetime.UTC)
        looked = datetime.datetime.fromtimestamp(now - GONE_LOOKED_AT_SECONDS, datetime.UTC)
        with self._session() as session:
            rows = session.execute(
                select(HeartbeatRow.process, HeartbeatRow.beat_at >= stale).where(
                    HeartbeatRow.beat_at >= looked
                )
            ).all()
        return [(process, bool(alive)) for process, alive in rows]

    def _note(self, rows: list[tuple[str, bool]]) -> frozenset[str]:
        self.ids = frozenset(process for process, alive in rows if alive)
        self.gone = frozenset(process for process, alive in rows if not alive)
        for listener in self.after_read:
            listener()
        return self.ids

    async def run(self, seconds: float) -> None:
        """:meth:`read` every ``seconds``, until cancelled: the database's rows in a
        database thread (:func:`off_loop`), the listeners told on the event loop."""
        while True:
            await asyncio.sleep(seconds)
            try:
                self._note(await off_loop(self._heartbeats))
            except Exception:
                log_failure(log, "reading the server processes alive failed")


def live_processes_for(engine: Engine, settings: Any) -> LiveProcesses | None:
    """The server processes alive on a database shared with others, not read yet
    (:func:`start_shared_limits` reads them); ``None`` when this process is alone on its
    database. ``settings``: the app's :class:`stairgames.server.base.settings.Settings`."""
    if not settings.shared():
        return None
    return LiveProcesses(engine, settings.wall_clock, 3 * settings.heartbeat_seconds + 2.0)


def start_shared_limits(app: Any, engine: Engine, settings: Any) -> list[asyncio.Task[None]]:
    """On a database shared with other server processes (:data:`PROCESSES` kept, by
    :func:`live_processes_for`): the app's request rates (:data:`RATES`) shared where
    the database can (:func:`shared_allowances`), and the processes alive read now and
    every two heartbeats (the task returned). ``settings``: the app's
    :class:`stairgames.server.base.settings.Settings`."""
    live = PROCESSES.of(app)
    if live is None:
        return []
    RATES.of(app).shared = shared_allowances(engine, shared=True)
    live.read()
    return [asyncio.get_running_loop().create_task(live.run(2 * settings.heartbeat_seconds))]


@dataclasses.dataclass(frozen=True)
class Route:
    """The limits of one kind of request: the largest body, which allowance of
    :class:`ClientRates` it spends (``None``: none), and whether that is always its
    address's (``per_address``: what a visitor does before being a player, making one or
    logging in), else its player's where the request has one."""

    max_body: int
    rate: str | None = None
    per_address: bool = False


class AnswerStatus:
    """An ASGI ``send`` that passes every message on and keeps the status answered
    (500 until an answer starts: the app failed, or the client left)."""

    def __init__(self, send: Send) -> None:
        self.send = send
        self.status = 500

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.status = int(message["status"])
        await self.send(message)


PlayerOf = Callable[[Scope], Awaitable[str | None]]
"""How :class:`RequestLimits` knows a request's player: its id where the request's
session names one, else ``None`` (anonymous)."""


class RequestLimits:
    """ASGI middleware: bounded bodies and per-client rates (see the module's text).

    ``route_of(method, path)`` says the :class:`Route` of a request. The body is read
    here, up to the route's limit, and handed to the app whole; a request over its limit
    or its client's rate is answered here with the usual error body and never reaches
    the app. One the app refuses with 429 (a later limit: the logins of a name, say) has
    its allowance given back: a refused request spends none. Each is counted, accepted
    or refused (:attr:`ClientRates.counts`).
    """

    def __init__(
        self,
        app: ASGIApp,
        route_of: Callable[[str, str], Route],
        rates: ClientRates,
        player_of: PlayerOf | None = None,
    ) -> None:
        self.app = app
        self.route_of = route_of
        self.rates = rates
        self.player_of = player_of
        """The request's player (``None``: none, or not known here), asked only of the
        requests a rate limits: they spend their player's allowance, the others their
        address's (see the module's text)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        route = self.route_of(str(scope["method"]), str(scope["path"]))
        declared = _header(scope, b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > route.max_body):
            await _refuse(send, too_large(declared[:20], route.max_body))
            return
        body = await _read_body(receive, route.max_body)
        if body is None:  # the client went away
            return
        if isinstance(body, ServerError):
            await _refuse(send, body)
            return
        if route.rate is not None:
            client = await self._client_of(scope, route)
            await self._limited(route.rate, client, scope, _replaying(body, receive), send)
            return
        await self.app(scope, _replaying(body, receive), send)

    async def _limited(
        self, kind: str, client: str, scope: Scope, receive: Receive, send: Send
    ) -> None:
        """The app's answer to a request that spends ``client``'s ``kind`` allowance:
        refused here when it is spent; given back when the app refuses the request with
        429."""
        wait = await self._off_loop_if_shared(self.rates.spend, kind, client)
        if wait > 0:
            self.rates.count(kind, accepted=False)
            await _refuse(send, _too_many(), retry_after=math.ceil(wait))
            return
        answer = AnswerStatus(send)
        try:
            await self.app(scope, receive, answer)
        finally:
            refused = answer.status == 429
            self.rates.count(kind, accepted=not refused)
            if refused:
                await self._off_loop_if_shared(self.rates.give_back, kind, client)

    async def _client_of(self, scope: Scope, route: Route) -> str:
        """Whose allowance a request spends: its player's (``player:ID``) where its
        session names one and its route is not :attr:`Route.per_address`, else its
        address's."""
        if not route.per_address and self.player_of is not None:
            player = await self.player_of(scope)
            if player is not None:
                return f"player:{player}"
        return _client(scope)

    async def _off_loop_if_shared(
        self, call: Callable[[str, str], _Result], kind: str, client: str
    ) -> _Result:
        """``call(kind, client)``: in a database thread where the allowances are the
        database's (a round trip), at once where they are this process's."""
        if self.rates.shared is None:
            return call(kind, client)
        return await allowances_off_loop(call, kind, client)  # never the matches' threads


async def _read_body(receive: Receive, limit: int) -> bytes | ServerError | None:
    """The whole body, or the 413 to answer once it grows past ``limit`` (the rest is
    never read), or ``None`` when the client disconnects."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = bytes(message.get("body", b""))
        size += len(chunk)
        if size > limit:
            return too_large(size, limit)
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replaying(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the app the body read already, then the real messages
    (a disconnect)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1").strip()
    return None


def _client(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def too_large(size: object, limit: int) -> ServerError:
    return ServerError(
        413, N_("the message is too large ({size} bytes; at most {limit})"), size=size, limit=limit
    )


def _too_many() -> ServerError:
    return ServerError(429, N_("too many requests; wait a moment"))


async def _refuse(send: Send, error: ServerError, *, retry_after: int | None = None) -> None:
    body = json.dumps({"error": error_json(error)}).encode("utf-8")
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    if retry_after is not None:
        headers.append((b"retry-after", str(retry_after).encode()))
    await send({"type": "http.response.start", "status": error.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


BODY_TIMEOUT_SECONDS = 10.0
"""How long a request's body may take to arrive once its headers have (the default of
:attr:`stairgames.server.base.settings.Settings.body_timeout_seconds`)."""


def header_timeout_protocol(
    seconds: float, body_seconds: float = BODY_TIMEOUT_SECONDS
) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (httptools) with deadlines for each request: its headers
    must be complete ``seconds`` after the connection opened or the request began (a
    keep-alive connection waiting for its next request is uvicorn's own
    ``timeout_keep_alive``), and its body ``body_seconds`` after its headers. A request
    late with its headers is closed; one late with its body is answered 408 (unless its
    answer has begun) and closed, its app told the client went away. Time the server
    itself stops reading (a pipelined request waiting its turn) is not counted."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class HeaderTimeoutProtocol(HttpToolsProtocol):
        _header_timer: asyncio.TimerHandle | None = None
        _body_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._start_header_timer()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._start_header_timer()

        def on_headers_complete(self) -> None:
            self._stop_header_timer()
            super().on_headers_complete()
            if _declares_body(self.headers) and not self.parser.should_upgrade():
                self._start_body_timer()

        def on_message_complete(self) -> None:
            self._stop_body_timer()
            super().on_message_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_header_timer()
            self._stop_body_timer()
            super().connection_lost(exc)

        def _start_header_timer(self) -> None:
            if self._header_timer is None:
                self._header_timer = self.loop.call_later(seconds, self._headers_too_slow)

        def _stop_header_timer(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _headers_too_slow(self) -> None:
            self._header_timer = None
            if not self.transport.is_closing():
                self.transport.close()

        def _start_body_timer(self) -> None:
            self._stop_body_timer()
            self._body_timer = self.loop.call_later(body_seconds, self._body_too_slow)

        def _stop_body_timer(self) -> None:
            if self._body_timer is not None:
                self._body_timer.cancel()
                self._body_timer = None

        def _body_too_slow(self) -> None:
            self._body_timer = None
            if self.transport.is_closing():
                return
            if self.flow.read_paused:  # the server is not reading: not the client's fault
                self._start_body_timer()
                return
            cycle = self.cycle
            if cycle is not None:
                if not cycle.response_started:
                    self.transport.write(REQUEST_TIMEOUT_ANSWER)
                cycle.disconnected = True  # the app's receive says so; its sends are dropped
                cycle.message_event.set()
            self.transport.close()

    return HeaderTimeoutProtocol


_LATE_BODY = b"the request's body came too late"
REQUEST_TIMEOUT_ANSWER = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (len(_LATE_BODY), _LATE_BODY)
)
"""What a request whose body came too late is answered (uvicorn's own answers to bad
requests are plain text too)."""


def _declares_body(headers: list[tuple[bytes, bytes]]) -> bool:
    """Whether a request's headers (names in lower case) announce a body: a
    ``Content-Length`` other than 0, or a ``Transfer-Encoding``."""
    for name, value in headers:
        if name == b"transfer-encoding" or (name == b"content-length" and value.strip() != b"0"):
            return True
    return False


RATES: Kept[ClientRates] = Kept("rates")
"""The request limits' allowances (``app.state.rates``), shared with the other processes
once the app started (:func:`start_shared_limits`)."""
PROCESSES: Kept[LiveProcesses | None] = Kept("processes")
"""The server processes alive on a shared database (``app.state.processes``; ``None``:
this one alone), once the app started (:func:`start_shared_limits`)."""
DOMAIN_RATES: Kept[dict[str, ClientRates]] = Kept("domain_rates")
"""The limits the routes keep themselves, by domain (``app.state.domain_rates``), counted
in ``/metrics``."""
