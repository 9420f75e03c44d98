"""Which fan-out a server process uses (:mod:`stairgames.server.play.fanout`), chosen from
its settings: none when it alone uses its database; Redis pub/sub where
``Settings.fanout_url`` names a Redis; else PostgreSQL's ``LISTEN``/``NOTIFY`` on
PostgreSQL, and polling on another shared database."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from stairgames.server.play.fanout import (
    FANOUT,
    Hub,
    LocalFanOut,
    PollingFanOut,
    PostgresFanOut,
    postgres_dsn,
)
from stairgames.server.play.fanout_redis import RedisFanOut, redis_channels

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from stairgames.server.base.settings import Settings


def make_fanout(
    engine: Engine,
    hub: Hub,
    *,
    shared: bool,
    follow_seconds: float,
    fanout_url: str | None = None,
) -> LocalFanOut | PollingFanOut | PostgresFanOut | RedisFanOut:
    """The fan-out for a server process: none when it alone uses its database, Redis
    pub/sub where ``fanout_url`` names one, ``LISTEN``/``NOTIFY`` on PostgreSQL, polling
    on another shared database."""
    if not shared:
        return LocalFanOut()
    fanout: PostgresFanOut | RedisFanOut
    if fanout_url:
        channel, topics_channel = redis_channels(engine.url.render_as_string(hide_password=True))
        fanout = RedisFanOut(
            fanout_url,
            hub,
            channel=channel,
            topics_channel=topics_channel,
            poll_seconds=follow_seconds,
        )
    elif engine.dialect.name == "postgresql":
        fanout = PostgresFanOut(postgres_dsn(engine), hub, poll_seconds=follow_seconds)
    else:
        return PollingFanOut(hub, follow_seconds)
    hub.service.committed.append(fanout.published)
    return fanout


def start_fanout(
    app: Any, engine: Engine, hub: Hub, settings: Settings
) -> list[asyncio.Task[None]]:
    """The app's fan-out (:data:`FANOUT`) for its settings, and the task it runs in (none when
    the process is alone on its database; cancelling the task closes its connections)."""
    fanout = FANOUT.keep(
        app,
        make_fanout(
            engine,
            hub,
            shared=settings.shared(),
            follow_seconds=settings.follow_seconds,
            fanout_url=settings.fanout_url,
        ),
    )
    if isinstance(fanout, PollingFanOut):
        return [] if settings.follow_seconds <= 0 else [_create_task(fanout.run())]
    if isinstance(fanout, LocalFanOut):
        return []
    return [_create_task(fanout.run())]


def _create_task(run: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
    return asyncio.get_running_loop().create_task(run)


__all__ = ["make_fanout", "start_fanout"]
