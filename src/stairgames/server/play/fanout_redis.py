"""The fan-out through Redis pub/sub (``stairgames serve --fanout-url redis://...``).

The same messages as :class:`~stairgames.server.play.fanout.PostgresFanOut`, on two
Redis channels instead of PostgreSQL's: ``PUBLISH`` from one connection of the process
(a pipeline of each batch, in order), ``SUBSCRIBE`` on another. Why a second transport:
every ``NOTIFY`` is written through PostgreSQL's single notification queue and each
listening process holds a database connection, so the database server that keeps the
games also carries every process's chatter; Redis takes that off it (as lichess's lila
and lila-ws talk through Redis), and one Redis serves more processes than one
database's connections allow. docs/deploy.md says when to choose which.

The channels are named after the database (a hash of its address without the
password), so that two sites sharing one Redis never hear each other, and the processes
of one site always do. Redis keeps no message for a subscriber that was away: a
reconnection catches up from the database, as with PostgreSQL (a message is only a
hint; the events are read from the database).
"""

from __future__ import annotations

import hashlib
from typing import Any

from stairgames.server.play.fanout import CHANNEL, TOPICS_CHANNEL, Hub, NotifyingFanOut


def redis_channels(database_url: str) -> tuple[str, str]:
    """The events' and the topics' channels of the site on ``database_url``."""
    from sqlalchemy.engine import make_url

    address = make_url(database_url).render_as_string(hide_password=True)
    site = hashlib.sha256(address.encode()).hexdigest()[:16]
    return f"{CHANNEL}:{site}", f"{TOPICS_CHANNEL}:{site}"


class RedisFanOut(NotifyingFanOut):
    """Redis pub/sub on two channels, the events' and the topics' (``url``: a
    ``redis://`` or ``rediss://`` address, ``?password`` or a user in it as Redis
    allows; the rest as :class:`NotifyingFanOut`)."""

    def __init__(self, url: str, hub: Hub, **options: Any) -> None:
        super().__init__(hub, **options)
        self.url = url
        self._publisher: Any = None

    def _client(self, role: str) -> Any:
        import redis.asyncio

        return redis.asyncio.Redis.from_url(
            self.url,
            decode_responses=True,
            socket_connect_timeout=self.connect_seconds,
            socket_timeout=max(self.check_seconds, self.connect_seconds) * 2,
            client_name=f"{self.name}-{role}",
            retry_on_timeout=False,
        )

    async def _notify_on(self, channel: str, payloads: list[str]) -> None:
        """``PUBLISH`` each payload on ``channel``, in order, in one round trip."""
        if not payloads:
            return
        if self._publisher is None:
            self._publisher = self._client("publish")
        async with self._publisher.pipeline(transaction=False) as pipe:
            for payload in payloads:
                pipe.publish(channel, payload)
            await pipe.execute()

    async def _close_publisher(self) -> None:
        publisher, self._publisher = self._publisher, None
        if publisher is not None:
            try:
                await publisher.aclose()
            except Exception:  # already broken: nothing to give back
                return

    async def _listen(self) -> None:
        client = self._client("listen")
        pubsub = client.pubsub()
        try:
            await pubsub.subscribe(self.channel, self.topics_channel)
            await self._confirmed(pubsub)
            await self._listening()
            while True:
                message = await pubsub.get_message(
                    ignore_subscribe_messages=True, timeout=self.check_seconds
                )
                if message is None:
                    await pubsub.ping()  # still there? (a dead connection raises)
                elif message.get("type") == "message":
                    self._received(str(message["channel"]), str(message["data"]))
        finally:
            await pubsub.aclose()
            await client.aclose()

    async def _confirmed(self, pubsub: Any) -> None:
        """Wait for Redis to confirm both subscriptions (messages published after
        this are heard)."""
        confirmed = 0
        while confirmed < 2:
            reply = await pubsub.get_message(timeout=self.connect_seconds)
            if reply is None:
                raise ConnectionError("Redis did not confirm the subscriptions")
            if reply.get("type") == "subscribe":
                confirmed += 1


__all__ = ["RedisFanOut", "redis_channels"]
