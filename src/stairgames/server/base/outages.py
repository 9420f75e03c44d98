"""When the database cannot be reached (issue 55): a request is answered 503 with
``Retry-After`` and a socket is closed with :data:`SOCKET_CLOSE_CODE`, both with the
code ``database_unavailable``, and the log says so once an outage, not once a request:
a line when the first request fails, and a summary (how long, how many refused) when the
database answers again. A traceback a request, thousands a second, once filled the disk.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import time
import typing
from collections.abc import Callable
from typing import Final

from sqlalchemy import exc as sql
from starlette.applications import Starlette
from starlette.requests import HTTPConnection
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from stairgames.i18n import N_
from stairgames.server.base.errors import ServerError, error_json
from stairgames.server.base.state import Holder, Kept

log = logging.getLogger(__name__)

DATABASE_DOWN: Final = (sql.OperationalError, sql.InterfaceError, sql.TimeoutError)
"""What SQLAlchemy raises when the database cannot be reached or its pool is spent (not
a mistake in a query: that is a bug, and keeps its traceback)."""

RETRY_SECONDS: Final = 5
"""What ``Retry-After`` asks a client to wait."""

SOCKET_CLOSE_CODE: Final = 4503
"""The close code of a socket refused for an outage (4000 + 503: the page tries again,
later each time; 4400-4499 are refusals it does not retry)."""

UNAVAILABLE: Final = N_("the database cannot be reached now; try again in a few seconds")


QUIET_SECONDS: Final = 60.0
"""How often a background task's failure for an outage is told, at most (per message)."""
_told_at: dict[str, float] = {}


def log_failure(logger: logging.Logger, message: str, *args: object) -> None:
    """Tell ``logger`` of the exception being handled: with its traceback, unless the
    database is away (:data:`DATABASE_DOWN`), when one line without a traceback once a
    minute a message is enough (the sweeps, the polls and the heartbeat that fail every
    second of an outage once wrote a traceback each, and filled the disk). Call it in an
    ``except`` block, as ``logger.exception``."""
    error = sys.exc_info()[1]
    if not isinstance(error, DATABASE_DOWN):
        logger.exception(message, *args)
        return
    now = time.monotonic()
    if now - _told_at.get(message, -QUIET_SECONDS) >= QUIET_SECONDS:
        _told_at[message] = now
        logger.warning(
            f"{message}: the database cannot be reached (%s)", *args, type(error).__name__
        )


def unavailable() -> ServerError:
    """The refusal a request or socket gets during an outage."""
    return ServerError(503, UNAVAILABLE)


class OutageLog:
    """Tells the log of an outage once: :meth:`failed` for each refusal (the first writes
    a line), :meth:`answered` when the database answers again (a summary, if there was
    an outage). ``clock``: monotonic seconds (tests give their own)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.since: float | None = None
        """When the outage began (``None``: none)."""
        self.refused = 0
        """Requests and sockets refused in this outage."""

    def failed(self, error: BaseException) -> None:
        if self.since is None:
            self.since = self.clock()
            log.warning(
                "the database cannot be reached (%s); requests are answered 503 and "
                "sockets closed with %d until it answers",
                type(error).__name__,
                SOCKET_CLOSE_CODE,
            )
        self.refused += 1

    def answered(self) -> None:
        if self.since is None:
            return
        log.warning(
            "the database answers again after %.1f s; %d requests and sockets were refused",
            self.clock() - self.since,
            self.refused,
        )
        self.since, self.refused = None, 0


_OUTAGES: Kept[OutageLog] = Kept("outages")


def outages_of(holder: Holder) -> OutageLog:
    """The app's outage log (made on first use: no other part depends on it)."""
    found = _OUTAGES.find(holder)
    return found if found is not None else _OUTAGES.keep(_app_of(holder), OutageLog())


def _app_of(holder: Holder) -> Starlette:
    return typing.cast(Starlette, holder.app) if isinstance(holder, HTTPConnection) else holder


async def close_for_outage(websocket: WebSocket) -> None:
    """Tell a socket the database cannot be reached, and close it with
    :data:`SOCKET_CLOSE_CODE` (accepting it first if it was not yet: a refused handshake
    tells the page nothing)."""
    with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnect):
        if websocket.application_state == WebSocketState.CONNECTING:
            await websocket.accept()
        if websocket.application_state == WebSocketState.CONNECTED:
            refusal = {"type": "error", "error": error_json(unavailable()), "event": None}
            await websocket.send_json(refusal)
            await websocket.close(code=SOCKET_CLOSE_CODE)
