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
(``hub.catch_up()`` every ``follow_seconds``). A message is a hint: the events are
read from the database, so a duplicated, reordered or late message does no harm, and a
lost one is made good by the next event or the catch-up. Except that a notification may
carry the moves it tells of (a second line, JSON: :func:`event_payload`), where they are
moves of a game without hidden information (:func:`carried`; anyone watching sees them,
and so may anyone who can ``LISTEN``); a process whose last event is the one before them
folds them in without reading (the CPU of a move on the other processes: issue 55), and
any other case reads as before. Only a database user can send a notification, and such a
user may write the events table anyway.
A message for a match nobody watches here is passed over; so a socket opening on a
match reads it again once it watches it (``app``'s ``/ws/matches``), or a move
notified between its first read and its watching would never reach it.

**Topics**: besides the events, a process tells the others of things no event records
(the lobby's list changed, who is connected to a match, an analysis's progress, a chat
message taken): ``broadcast(topic, data)``, ``data`` a small JSON object, reaches every
handler ``subscribe(topic, handler)`` registered for ``topic``, in every process, this
one included (here at once, without a round trip), each process's deliveries one at a
time in the order received (:class:`Topics`). It never blocks or raises. Delivery is
at most once and best effort: a message lost in a gap is not sent again, so after a
gap (``run()`` listening again, and when it first listens) each process delivers a
:data:`RESYNC` message to its own handlers, which read again what they keep (the
lobby's list, the chat) or ask the others to tell it again (presence).
``hears_topics`` says whether the others' messages reach this process now; while it is
false, a subscriber that must not miss them polls (the chat reads new messages every
``follow_seconds``). The data is visible to every process of the database (and to
anyone who may ``LISTEN`` on it): never a secret nor anything hidden from a seat, and
small: at most :data:`MAX_TOPIC_BYTES` once encoded (PostgreSQL's ``NOTIFY`` takes
8000 bytes), a larger one reaching this process only. A handler gets the data as sent
(it reads the rest from the database, where it is always the truth) and validates it.

- :class:`LocalFanOut` delivers to this process's handlers (there is nobody else);
- :class:`PollingFanOut` the same: topics do not cross processes there
  (``hears_topics`` is false: the lobby's list is read again at its sweep, the chat
  polls, presence and analysis progress stay per process);
- :class:`PostgresFanOut` sends ``pg_notify('stairgames_topics', '{"from", "topic",
  "data"}')`` from its publishing connection and listens on that channel too, with the
  same listening connection; it skips its own messages (delivered here already).

- :class:`~stairgames.server.play.fanout_redis.RedisFanOut` the same through Redis
  pub/sub (``--fanout-url``); :mod:`stairgames.server.play.fanouts` chooses one for the
  settings.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Final, Protocol

from stairgames.server.base.outages import log_failure
from stairgames.server.base.state import Kept
from stairgames.server.base.store import EventRecord
from stairgames.server.play.match import Match
from stairgames.server.play.matches import MatchService

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine


log = logging.getLogger(__name__)

CHANNEL = "stairgames_events"
"""The PostgreSQL channel every server process of one database listens on."""
TOPICS_CHANNEL = "stairgames_topics"
"""The channel of the topics' messages (:meth:`FanOut.broadcast`)."""
MAX_TOPIC_BYTES = 7900
"""The most bytes a topic's message may take once encoded (``NOTIFY``: under 8000)."""
RESYNC = "fanout.resync"
"""The topic each process delivers to its own handlers after a gap in delivery."""
QUEUED_AT_MOST = 10_000
"""Topic messages waiting to be delivered (or sent) beyond which the oldest are dropped."""


class Hub(Protocol):
    """What the fan-out needs of the hub of live matches (:class:`stairgames.server.play.hub.Hub`,
    which imports this module): which matches it watches, and how it reads and announces
    what other processes committed."""

    @property
    def service(self) -> MatchService: ...

    def watches(self, match_id: str) -> bool: ...

    async def follow(self, match_id: str, carried: Sequence[EventRecord] | None = None) -> None: ...

    async def catch_up(self) -> None: ...

    async def follow_other_processes(self, seconds: float) -> None: ...


TopicHandler = Callable[[dict[str, Any]], Awaitable[None]]
"""Told each message of a topic it subscribed to: ``await handler(data)``."""


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

    @property
    def hears_topics(self) -> bool:
        """Whether the other processes' topic messages reach this one now."""
        ...

    def broadcast(self, topic: str, data: dict[str, Any]) -> None:
        """Deliver ``data`` to ``topic``'s handlers in every process (never blocks or
        raises; see the module's text for what may be sent)."""
        ...

    def subscribe(self, topic: str, handler: TopicHandler) -> None:
        """Have ``handler`` told each message of ``topic`` (from any process)."""
        ...


class Topics:
    """The handlers of each topic in one process, and the delivery to them: one message
    at a time, in the order given, from one task started when there is something to
    deliver. A message given again while the same one still waits is delivered once
    (a burst of "the lobby changed" reads the lobby once)."""

    def __init__(self) -> None:
        self.handlers: dict[str, list[TopicHandler]] = defaultdict(list)
        self._waiting: deque[tuple[str, dict[str, Any]]] = deque()
        self._task: asyncio.Task[None] | None = None

    def subscribe(self, topic: str, handler: TopicHandler) -> None:
        self.handlers[topic].append(handler)

    def deliver(self, topic: str, data: dict[str, Any]) -> None:
        """Hand ``data`` to ``topic``'s handlers soon (in a task of the running loop)."""
        if not self.handlers.get(topic) or (topic, data) in self._waiting:
            return
        if len(self._waiting) >= QUEUED_AT_MOST:
            log.warning("too many topic messages waiting; the oldest is dropped")
            self._waiting.popleft()
        self._waiting.append((topic, data))
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._deliver_waiting())

    async def _deliver_waiting(self) -> None:
        while self._waiting:
            topic, data = self._waiting.popleft()
            for handler in list(self.handlers.get(topic, ())):
                try:
                    await handler(data)
                except Exception:
                    log.exception("a handler of topic %s failed", topic)

    async def close(self) -> None:
        """Stop delivering (what waits is dropped)."""
        self._waiting.clear()
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)


def encode_topic(origin: str, topic: str, data: dict[str, Any], number: int = 0) -> str | None:
    """The ``NOTIFY`` payload of a topic's message; ``None`` (logged) when it is larger
    than :data:`MAX_TOPIC_BYTES` or not JSON. ``number`` makes each of a process's
    payloads unique: PostgreSQL delivers only one of identical payloads sent in one
    transaction, which would lose the last of "connected", "left", "connected"."""
    try:
        payload = json.dumps(
            {"from": origin, "n": number, "topic": topic, "data": data},
            separators=(",", ":"),
            ensure_ascii=False,
        )
    except (TypeError, ValueError):
        log.error("topic %s: a message that is not JSON, not sent", topic)
        return None
    if len(payload.encode("utf-8")) > MAX_TOPIC_BYTES:
        log.error("topic %s: a message of %d characters, too large to send", topic, len(payload))
        return None
    return payload


def decode_topic(payload: str) -> tuple[str, str, dict[str, Any]] | None:
    """(origin, topic, data) of a ``NOTIFY`` payload; ``None`` for one not of this server."""
    try:
        message = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(message, dict):
        return None
    origin, topic, data = message.get("from"), message.get("topic"), message.get("data")
    if not isinstance(origin, str) or not isinstance(topic, str) or not isinstance(data, dict):
        return None
    return origin, topic, data


CARRIED_KINDS: Final = frozenset({"move"})
"""The events a notification may carry: moves (a join's carries a token's digest)."""


def carried(match: Match, records: Sequence[EventRecord]) -> bool:
    """Whether a notification of ``records`` may carry them, so that the other processes
    need not read them: moves of a game without hidden information, which anyone
    watching the match sees (the payload is visible to anyone who may ``LISTEN``)."""
    if match.game.info().hidden_information:
        return False
    return all(record.kind in CARRIED_KINDS for record in records)


def event_payload(match_id: str, event: int, moves: list[EventRecord] | None) -> str:
    """The notification of ``match_id``'s commit up to ``event``: ``MATCH:EVENT``, and
    where ``moves`` end at that event and fit in :data:`MAX_TOPIC_BYTES`, a line of them
    as JSON (``[[number, kind, seat, data, at], ...]``)."""
    head = f"{match_id}:{event}"
    if not moves or moves[-1].number != event:
        return head
    body = json.dumps(
        [[m.number, m.kind, m.seat, m.data, m.at] for m in moves],
        separators=(",", ":"),
        ensure_ascii=False,
    )
    payload = f"{head}\n{body}"
    return payload if len(payload.encode("utf-8")) <= MAX_TOPIC_BYTES else head


def read_event_payload(payload: str) -> tuple[str, int, list[EventRecord] | None] | None:
    """(match, event, the moves carried or ``None``) of a notification; ``None`` for one
    not of this server. Carried moves that are not well formed, or not numbered one after
    another up to the event, are left out (the events are read instead)."""
    head, _, body = payload.partition("\n")
    match_id, _, number = head.rpartition(":")
    try:
        event = int(number)
    except ValueError:
        return None
    if not match_id:
        return None
    moves = _carried_moves(body, event) if body else None
    return match_id, event, moves


def _carried_moves(body: str, event: int) -> list[EventRecord] | None:
    try:
        rows = json.loads(body)
        moves = [
            EventRecord(int(n), str(kind), None if seat is None else int(seat), dict(data), at)
            for n, kind, seat, data, at in rows
        ]
    except (TypeError, ValueError):
        return None
    numbers = [move.number for move in moves]
    if not moves or numbers != list(range(numbers[0], event + 1)):
        return None
    if any(move.kind not in CARRIED_KINDS for move in moves):
        return None
    if any(m.at is not None and not isinstance(m.at, int | float) for m in moves):
        return None
    return moves


class LocalFanOut:
    """One server process on its database (SQLite): there is nobody to tell; topics
    reach this process's handlers."""

    connected = True
    hears_topics = True
    """(There are no others to hear.)"""

    def __init__(self) -> None:
        self.topics = Topics()

    def publish(self, match_id: str, event: int) -> None:
        pass

    def broadcast(self, topic: str, data: dict[str, Any]) -> None:
        self.topics.deliver(topic, data)

    def subscribe(self, topic: str, handler: TopicHandler) -> None:
        self.topics.subscribe(topic, handler)

    async def run(self) -> None:
        return

    async def close(self) -> None:
        await self.topics.close()


class PollingFanOut(LocalFanOut):
    """Several processes on a database without notifications: each reads the newest
    event numbers of the matches it watches every ``seconds``. Topics reach this
    process's handlers only (``hears_topics`` is false)."""

    hears_topics = False

    def __init__(self, hub: Hub, seconds: float) -> None:
        super().__init__()
        self.hub = hub
        self.seconds = seconds

    async def run(self) -> None:
        await self.hub.follow_other_processes(self.seconds)


class NotifyingFanOut:
    """A fan-out over a message channel (see the module's text): what every transport
    shares, the publishing queue, the topics, the fallback to polling and the catch-up.
    A transport fills in :meth:`_notify_on` (send payloads on a channel, in order),
    :meth:`_close_publisher` and :meth:`_listen` (listen on both channels, call
    :meth:`_listening` once it does, and hand each message to :meth:`_received`; return
    or raise when the connection is lost).

    ``poll_seconds``: how often to poll while the listening connection is lost (``0``:
    not at all, only the catch-up once listening again). ``backoff``: the first and the
    longest wait between two attempts to connect (at most a second by default: an
    attempt a second against a server that is away costs little, and a longer wait kept
    the process not ready, and its watchers unserved, seconds after it was back).
    ``check_seconds``: with no message for this long, the listening connection is checked
    (a connection cut silently is found).
    """

    def __init__(
        self,
        hub: Hub,
        *,
        channel: str = CHANNEL,
        topics_channel: str = TOPICS_CHANNEL,
        poll_seconds: float = 1.0,
        backoff: tuple[float, float] = (0.1, 1.0),
        check_seconds: float = 10.0,
        connect_seconds: float = 5.0,
    ) -> None:
        self.hub = hub
        self.channel = channel
        self.topics_channel = topics_channel
        self.poll_seconds = poll_seconds
        self.backoff = backoff
        self.check_seconds = check_seconds
        self.connect_seconds = connect_seconds
        self.name = f"stairgames-fanout-{secrets.token_hex(4)}"
        """The connections' client name (``application_name`` in ``pg_stat_activity``,
        ``CLIENT LIST`` in Redis), with ``-listen`` or ``-publish``."""
        self.connections = 0
        """How many times the listening connection was opened (reconnections + 1)."""
        self.received = 0
        """Messages received (this process's own included)."""
        self.origin = secrets.token_hex(8)
        """This process in its topic messages (it skips its own)."""
        self._said = 0
        """Topic messages sent (numbers them)."""
        self.topics = Topics()
        self._connected = False
        self._pending: dict[str, int] = {}
        """Matches committed here and not yet published: their newest event."""
        self._carried: dict[str, list[EventRecord]] = {}
        """The moves of :attr:`_pending` a notification may carry (:func:`carried`)."""
        self._outbox: deque[str] = deque()
        """Topic messages not yet sent (their payloads), oldest first."""
        self._wake = asyncio.Event()
        self._following: dict[str, int] = {}
        """Matches being read after a notification, and the newest event announced."""
        self._tasks: set[asyncio.Task[None]] = set()
        self.notified: list[Callable[[str, int], None]] = []
        """Told each match watched here that another process changed, with the event it
        reached (the metrics)."""

    # ----- what a transport fills in ---------------------------------------------

    async def _notify_on(self, channel: str, payloads: list[str]) -> None:
        """Send each payload on ``channel``, in order (raises when it cannot)."""
        raise NotImplementedError

    async def _close_publisher(self) -> None:
        """Give back the publishing connection (it is opened again when next needed)."""
        raise NotImplementedError

    async def _listen(self) -> None:
        """Listen on both channels until the connection is lost."""
        raise NotImplementedError

    async def _listening(self) -> None:
        """The transport listens now: catch up with what was missed meanwhile."""
        self._connected = True
        self.connections += 1
        if self.connections > 1:
            log.info("the fan-out listens again; catching up")
        await self.catch_up()  # what was committed while nobody listened here
        self.topics.deliver(RESYNC, {})  # and what was said meanwhile

    def _received(self, channel: str, payload: str) -> None:
        """A message heard on ``channel``."""
        self.received += 1
        if channel == self.topics_channel:
            self._topic_notified(payload)
        else:
            self._notified(payload)

    @property
    def connected(self) -> bool:
        return self._connected

    @property
    def hears_topics(self) -> bool:
        return self._connected

    # ----- topics ----------------------------------------------------------------

    def broadcast(self, topic: str, data: dict[str, Any]) -> None:
        self.topics.deliver(topic, data)
        self._said += 1
        payload = encode_topic(self.origin, topic, data, self._said)
        if payload is None:
            return
        if len(self._outbox) >= QUEUED_AT_MOST:
            log.warning("too many topic messages not sent; the oldest is dropped")
            self._outbox.popleft()
        self._outbox.append(payload)
        self._wake.set()

    def subscribe(self, topic: str, handler: TopicHandler) -> None:
        self.topics.subscribe(topic, handler)

    def _topic_notified(self, payload: str) -> None:
        message = decode_topic(payload)
        if message is None:
            log.warning("a topic message not of this server: %r", payload[:100])
            return
        origin, topic, data = message
        if origin != self.origin:  # this process's own were delivered when sent
            self.topics.deliver(topic, data)

    # ----- publishing ------------------------------------------------------------

    def publish(self, match_id: str, event: int) -> None:
        self._carried.pop(match_id, None)  # not the events themselves: read them
        self._queue(match_id, event)

    def _queue(self, match_id: str, event: int) -> None:
        if self._pending.get(match_id, -1) < event:
            self._pending[match_id] = event
        self._wake.set()

    def published(self, match: Match, records: Sequence[EventRecord]) -> None:
        """A :attr:`MatchService.committed` listener: :meth:`publish` the newest event,
        with the moves themselves where they may be carried (:func:`carried`)."""
        if not records:
            return
        kept = self._carried.get(match.id)
        if carried(match, records) and (kept is None or kept[-1].number + 1 == records[0].number):
            self._carried[match.id] = [*(kept or []), *records]
        else:
            self._carried.pop(match.id, None)
        self._queue(match.id, records[-1].number)

    async def _publish_forever(self) -> None:
        """Send what :meth:`publish` queued, every match's newest event in one
        statement; what could not be sent is sent again once connected."""
        low, high = self.backoff
        delay = low
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._pending or self._outbox:
                batch, self._pending = self._pending, {}
                moves, self._carried = self._carried, {}
                said = list(self._outbox)
                self._outbox.clear()
                try:
                    await self._notify(batch, moves)
                    await self._notify_topics(said)
                    delay = low
                except Exception as exc:
                    log.warning("publishing %d events failed (%s); again soon", len(batch), exc)
                    await self._close_publisher()
                    for match_id, event in batch.items():  # newer ones queued meanwhile win
                        self.publish(match_id, event)
                    self._outbox.extendleft(reversed(said))  # (sent again: at most twice)
                    await asyncio.sleep(delay)
                    delay = min(high, delay * 2)

    async def _notify(
        self, batch: dict[str, int], moves: dict[str, list[EventRecord]] | None = None
    ) -> None:
        payloads = [
            event_payload(match_id, event, (moves or {}).get(match_id))
            for match_id, event in batch.items()
        ]
        await self._notify_on(self.channel, payloads)

    async def _notify_topics(self, payloads: list[str]) -> None:
        await self._notify_on(self.topics_channel, payloads)

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
        await self.topics.close()

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
            log_failure(log, "reading other processes' events failed")

    def _notified(self, payload: str) -> None:
        read = read_event_payload(payload)
        if read is None:
            log.warning("a notification not of this server: %r", payload[:100])
            return
        match_id, event, moves = read
        hub = self.hub
        if not hub.watches(match_id) or hub.service.cached_event(match_id) >= event:
            return  # nobody watches it here, or it is ours (or known already)
        for listener in self.notified:
            listener(match_id, event)
        following = self._following.get(match_id)
        self._following[match_id] = max(event, following or 0)
        if following is None:  # (the hub takes the moves only where they follow its last)
            task = asyncio.get_running_loop().create_task(self._follow(match_id, moves))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _follow(self, match_id: str, moves: list[EventRecord] | None = None) -> None:
        """Read (or take from the notification: ``moves``) and announce ``match_id``'s new
        events; again, read, if newer ones were notified meanwhile."""
        try:
            while True:
                wanted = self._following[match_id]
                await self.hub.follow(match_id, moves)
                moves = None
                if self._following[match_id] == wanted:
                    return
        except Exception:
            log_failure(log, "announcing match %s from another process failed", match_id)
        finally:
            self._following.pop(match_id, None)


class PostgresFanOut(NotifyingFanOut):
    """``LISTEN``/``NOTIFY`` on two channels, the events' and the topics' (see the
    module's text). ``dsn``: a libpq connection string or URI (psycopg 3); the rest as
    :class:`NotifyingFanOut`."""

    def __init__(self, dsn: str, hub: Hub, **options: Any) -> None:
        super().__init__(hub, **options)
        self.dsn = dsn
        self._publisher: Any = None

    async def _notify_on(self, channel: str, payloads: list[str]) -> None:
        """``pg_notify`` each payload on ``channel``, in order, in one statement."""
        if not payloads:
            return
        if self._publisher is None or self._publisher.closed:
            self._publisher = await self._connect("publish")
        await self._publisher.execute(
            "SELECT pg_notify(%s, payload) FROM unnest(%s::text[]) WITH ORDINALITY "
            "AS sent(payload, n) ORDER BY n",
            (channel, payloads),
        )

    async def _close_publisher(self) -> None:
        publisher, self._publisher = self._publisher, None
        if publisher is not None:
            with contextlib.suppress(Exception):
                await publisher.close()

    async def _connect(self, role: str = "listen") -> Any:
        import psycopg

        return await psycopg.AsyncConnection.connect(
            self.dsn,
            autocommit=True,
            connect_timeout=max(1, round(self.connect_seconds)),
            application_name=f"{self.name}-{role}",
        )

    async def _listen(self) -> None:
        from psycopg import sql

        async with await self._connect() as connection:
            for channel in (self.channel, self.topics_channel):
                await connection.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
            await self._listening()
            while True:
                async for notification in connection.notifies(timeout=self.check_seconds):
                    self._received(notification.channel, notification.payload)
                await connection.execute("SELECT 1")  # still there?


def postgres_dsn(engine: Engine) -> str:
    """The libpq URI of a SQLAlchemy engine's database (psycopg's, without the driver)."""
    url = engine.url.set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


FANOUT: Kept[FanOut] = Kept("fanout")
"""The app's fan-out (``app.state.fanout``), made as it starts
(:func:`stairgames.server.play.fanouts.start_fanout`)."""


__all__ = [
    "CHANNEL",
    "FANOUT",
    "MAX_TOPIC_BYTES",
    "RESYNC",
    "TOPICS_CHANNEL",
    "FanOut",
    "LocalFanOut",
    "NotifyingFanOut",
    "PollingFanOut",
    "PostgresFanOut",
    "TopicHandler",
    "Topics",
    "postgres_dsn",
]
