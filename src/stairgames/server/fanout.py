"""Event fan-out between server processes sharing one database.

Every process keeps the matches its WebSockets watch in memory. When a process commits
an event, the others must push the new views to *their* watchers of that match: that is
the fan-out. One small interface, :class:`FanOut`, so that the transport can change:

- :class:`LocalFanOut`: one process (SQLite, the embedded default): nothing to tell;
- :class:`PollingFanOut`: several processes on a database without notifications: every
  ``follow_seconds`` each process reads the newest event numbers of the matches it
  watches (:meth:`Hub.follow_other_processes`);
- :class:`PostgresFanOut`: PostgreSQL's ``LISTEN``/``NOTIFY``. After each commit the
  process sends ``pg_notify(channel, 'MATCH:EVENT')`` (from one connection of its own,
  in batches); every process listens on the channel with one dedicated autocommit
  connection and, for a match someone watches here whose event it does not have yet,
  reads the new events and announces them (:meth:`Hub.follow`). A lost listening
  connection is opened again with exponential backoff; meanwhile the process falls back
  to polling every ``follow_seconds``, and once listening again it catches up once by
  reading every watched match's newest event (what it missed while away).

**Writing another transport** (Redis pub/sub, say): a class with the four members of
:class:`FanOut`. ``publish(match_id, event)`` is called synchronously in the event loop
right after each commit of this process (:attr:`MatchService.committed`) and must not
block or raise: queue the message and send it from a task. ``run()`` runs until
cancelled: it delivers each message received by calling ``await hub.follow(match_id)``
for a watched match (``hub.watches(match_id)``) whose event this process lacks
(``hub.service.cached_event(match_id) < event``), and after any gap in delivery
(a reconnection) calls ``await hub.catch_up()`` once. ``connected`` says whether
messages are being received now (``GET /readyz``); while it is false, poll
(``hub.catch_up()`` every ``follow_seconds``). A message is only a hint: the events
themselves are always read from the database, so a duplicated, reordered or late
message does no harm, and a lost one is made good by the next event or the catch-up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from stairgames.server.match import Match
from stairgames.server.store import EventRecord

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from stairgames.server.app import Settings
    from stairgames.server.hub import Hub

log = logging.getLogger(__name__)

CHANNEL = "stairgames_events"
"""The PostgreSQL channel every server process of one database listens on."""


class FanOut(Protocol):
    """How one server process tells the others of its commits and hears of theirs."""

    @property
    def connected(self) -> bool:
        """Whether messages from the other processes are received now."""
        ...

    def publish(self, match_id: str, event: int) -> None:
        """This process committed ``match_id`` up to ``event`` (never blocks or raises)."""
        ...

    async def run(self) -> None:
        """Receive the others' messages and announce them here, until cancelled."""
        ...

    async def close(self) -> None:
        """Give back its connections."""
        ...


class LocalFanOut:
    """One server process on its database (SQLite): there is nobody to tell."""

    connected = True

    def publish(self, match_id: str, event: int) -> None:
        pass

    async def run(self) -> None:
        return

    async def close(self) -> None:
        pass


class PollingFanOut:
    """Several processes on a database without notifications: each reads the newest
    event numbers of the matches it watches every ``seconds``."""

    connected = True

    def __init__(self, hub: Hub, seconds: float) -> None:
        self.hub = hub
        self.seconds = seconds

    def publish(self, match_id: str, event: int) -> None:
        pass

    async def run(self) -> None:
        await self.hub.follow_other_processes(self.seconds)

    async def close(self) -> None:
        pass


class PostgresFanOut:
    """``LISTEN``/``NOTIFY`` on one channel (see the module's text).

    ``dsn``: a libpq connection string or URI (psycopg 3). ``poll_seconds``: how often to
    poll while the listening connection is lost (``0``: not at all, only the catch-up
    once listening again). ``backoff``: the first and the longest wait between two
    attempts to connect. ``check_seconds``: with no notification for this long, the
    listening connection is checked with a query (a connection cut silently is found).
    """

    def __init__(
        self,
        dsn: str,
        hub: Hub,
        *,
        channel: str = CHANNEL,
        poll_seconds: float = 1.0,
        backoff: tuple[float, float] = (0.1, 5.0),
        check_seconds: float = 10.0,
        connect_seconds: float = 5.0,
    ) -> None:
        self.dsn = dsn
        self.hub = hub
        self.channel = channel
        self.poll_seconds = poll_seconds
        self.backoff = backoff
        self.check_seconds = check_seconds
        self.connect_seconds = connect_seconds
        self.name = f"stairgames-fanout-{secrets.token_hex(4)}"
        """The connections' ``application_name`` (in ``pg_stat_activity``), with
        ``-listen`` or ``-publish``."""
        self.connections = 0
        """How many times the listening connection was opened (reconnections + 1)."""
        self.received = 0
        """Notifications received (this process's own included)."""
        self._connected = False
        self._pending: dict[str, int] = {}
        """Matches committed here and not yet published: their newest event."""
        self._wake = asyncio.Event()
        self._following: dict[str, int] = {}
        """Matches being read after a notification, and the newest event announced."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._publisher: Any = None
        self.notified: list[Callable[[str], None]] = []
        """Told each match watched here that another process changed (the metrics)."""

    @property
    def connected(self) -> bool:
        return self._connected

    # ----- publishing ------------------------------------------------------------

    def publish(self, match_id: str, event: int) -> None:
        if self._pending.get(match_id, -1) < event:
            self._pending[match_id] = event
        self._wake.set()

    def published(self, match: Match, records: Sequence[EventRecord]) -> None:
        """A :attr:`MatchService.committed` listener: :meth:`publish` the newest event."""
        if records:
            self.publish(match.id, records[-1].number)

    async def _publish_forever(self) -> None:
        """Send what :meth:`publish` queued, every match's newest event in one
        statement; what could not be sent is sent again once connected."""
        low, high = self.backoff
        delay = low
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._pending:
                batch, self._pending = self._pending, {}
                try:
                    await self._notify(batch)
                    delay = low
                except Exception as exc:
                    log.warning("publishing %d events failed (%s); again soon", len(batch), exc)
                    await self._close_publisher()
                    for match_id, event in batch.items():  # newer ones queued meanwhile win
                        self.publish(match_id, event)
                    await asyncio.sleep(delay)
                    delay = min(high, delay * 2)

    async def _notify(self, batch: dict[str, int]) -> None:
        if self._publisher is None or self._publisher.closed:
            self._publisher = await self._connect("publish")
        payloads = [f"{match_id}:{event}" for match_id, event in batch.items()]
        await self._publisher.execute(
            "SELECT pg_notify(%s, payload) FROM unnest(%s::text[]) AS payload",
            (self.channel, payloads),
        )

    async def _close_publisher(self) -> None:
        publisher, self._publisher = self._publisher, None
        if publisher is not None:
            with contextlib.suppress(Exception):
                await publisher.close()

    # ----- listening -------------------------------------------------------------

    async def _connect(self, role: str = "listen") -> Any:
        import psycopg

        return await psycopg.AsyncConnection.connect(
            self.dsn,
            autocommit=True,
            connect_timeout=max(1, round(self.connect_seconds)),
            application_name=f"{self.name}-{role}",
        )

    async def run(self) -> None:
        """Listen, and on a lost connection poll until listening again (until cancelled)."""
        publisher = asyncio.get_running_loop().create_task(self._publish_forever())
        delay = self.backoff[0]
        try:
            while True:
                try:
                    await self._listen()
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    if self._connected:  # it was listening: start again from the shortest wait
                        delay = self.backoff[0]
                    log.warning("the fan-out's listening connection failed: %s", exc)
                finally:
                    self._connected = False
                await self._poll_for(delay * random.uniform(0.8, 1.2))
                delay = min(self.backoff[1], delay * 2)
        finally:
            self._connected = False
            await self.close(publisher)

    async def close(self, *more: asyncio.Task[None]) -> None:
        tasks = [*self._tasks, *more]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self._close_publisher()

    async def _listen(self) -> None:
        from psycopg import sql

        async with await self._connect() as connection:
            await connection.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
            self._connected = True
            self.connections += 1
            if self.connections > 1:
                log.info("the fan-out listens again; catching up")
            await self.catch_up()  # what was committed while nobody listened here
            while True:
                async for notification in connection.notifies(timeout=self.check_seconds):
                    self.received += 1
                    self._notified(notification.payload)
                await connection.execute("SELECT 1")  # still there?

    async def _poll_for(self, seconds: float) -> None:
        """Poll (the fallback) for ``seconds``: once now, then every ``poll_seconds``."""
        loop = asyncio.get_running_loop()
        until = loop.time() + seconds
        while True:
            if self.poll_seconds > 0:
                await self.catch_up()
            left = until - loop.time()
            if left <= 0:
                return
            await asyncio.sleep(min(left, self.poll_seconds) if self.poll_seconds > 0 else left)

    async def catch_up(self) -> None:
        """Announce every watched match some other process changed (one query)."""
        try:
            await self.hub.catch_up()
        except Exception:
            log.exception("reading other processes' events failed")

    def _notified(self, payload: str) -> None:
        match_id, _, number = payload.rpartition(":")
        try:
            event = int(number)
        except ValueError:
            log.warning("a notification not of this server: %r", payload[:100])
            return
        hub = self.hub
        if not hub.watches(match_id) or hub.service.cached_event(match_id) >= event:
            return  # nobody watches it here, or it is ours (or known already)
        for listener in self.notified:
            listener(match_id)
        following = self._following.get(match_id)
        self._following[match_id] = max(event, following or 0)
        if following is None:
            task = asyncio.get_running_loop().create_task(self._follow(match_id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _follow(self, match_id: str) -> None:
        """Read and announce ``match_id``'s new events; again if newer ones were
        notified meanwhile."""
        try:
            while True:
                wanted = self._following[match_id]
                await self.hub.follow(match_id)
                if self._following[match_id] == wanted:
                    return
        except Exception:
            log.exception("announcing match %s from another process failed", match_id)
        finally:
            self._following.pop(match_id, None)


def postgres_dsn(engine: Engine) -> str:
    """The libpq URI of a SQLAlchemy engine's database (psycopg's, without the driver)."""
    url = engine.url.set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


def make_fanout(
    engine: Engine, hub: Hub, *, shared: bool, follow_seconds: float
) -> LocalFanOut | PollingFanOut | PostgresFanOut:
    """The fan-out for a server process: none when it alone uses its database,
    ``LISTEN``/``NOTIFY`` on PostgreSQL, polling on another shared database."""
    if not shared:
        return LocalFanOut()
    if engine.dialect.name == "postgresql":
        fanout = PostgresFanOut(postgres_dsn(engine), hub, poll_seconds=follow_seconds)
        hub.service.committed.append(fanout.published)
        return fanout
    return PollingFanOut(hub, follow_seconds)


def start_fanout(
    app: Any, engine: Engine, hub: Hub, settings: Settings
) -> list[asyncio.Task[None]]:
    """``app.state.fanout`` for the app's settings, and the task it runs in (none when
    the process is alone on its database; cancelling the task closes its connections)."""
    fanout = app.state.fanout = make_fanout(
        engine, hub, shared=settings.shared(), follow_seconds=settings.follow_seconds
    )
    if isinstance(fanout, LocalFanOut):
        return []
    if isinstance(fanout, PollingFanOut) and settings.follow_seconds <= 0:
        return []
    return [asyncio.get_running_loop().create_task(fanout.run())]


__all__ = [
    "CHANNEL",
    "FanOut",
    "LocalFanOut",
    "PollingFanOut",
    "PostgresFanOut",
    "make_fanout",
    "postgres_dsn",
    "start_fanout",
]
