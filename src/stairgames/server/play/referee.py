"""The referee: keeps the clocks of timed matches whether or not anyone is connected.

It knows when each timed match next needs it (:meth:`MatchService.due`: a running
clock's deadline, an offer about to lapse) and acts at that moment: a seat whose time
is up is flagged, an unanswered offer withdrawn (:meth:`MatchService.keep_time`), and
the match announced like any change.

Every server process says it is alive in the database every ``beat_seconds``. When one
starts and finds that none was alive lately, the whole service was down: it gives back
that time to every running clock (a ``resume`` event) before it flags anyone, so a
player never loses on time while the server was away. With several processes (one
database), each keeps the clocks of the matches it has seen, and reads the list of open
timed matches again every ``rescan_seconds``; two processes flagging the same seat
collide on the event's number and only one succeeds.

A correspondence deadline less than an hour away also needs it: the server may start
the vacation of that seat's player (:attr:`Referee.vacations`, ``play/vacation.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable

from stairgames.server.base.errors import ServerError
from stairgames.server.base.outages import log_failure
from stairgames.server.base.state import Kept
from stairgames.server.base.store import ClockStore, off_loop
from stairgames.server.play.hub import Hub
from stairgames.server.play.match import Match
from stairgames.server.play.vacation import Vacations

log = logging.getLogger(__name__)


class Referee:
    def __init__(
        self,
        hub: Hub,
        store: ClockStore,
        *,
        beat_seconds: float = 1.0,
        rescan_seconds: float = 30.0,
    ) -> None:
        self.hub = hub
        self.store = store
        self.beat_seconds = beat_seconds
        self.rescan_seconds = rescan_seconds
        self.process = secrets.token_hex(8)
        self._due: dict[str, float] = {}
        """The timed matches this process keeps, and when each next needs it."""
        self._wake = asyncio.Event()
        self.vacations: Vacations | None = None
        """The players' vacations: asked when a correspondence deadline is near whether
        to start one by itself (``None``: never)."""

    @property
    def now(self) -> Callable[[], float]:
        return self.hub.service.clock

    # ----- what each change means for the clocks --------------------------------

    async def note(self, match: Match) -> None:
        """After a commit (a :attr:`HubNeighbours.after_change` listener): when the match next needs
        the referee; a finished game is marked ended (in a database thread) and
        forgotten."""
        if match.clock is None:
            return
        if match.over:
            self._due.pop(match.id, None)
            await off_loop(self.store.mark_ended, match.id, self.now())
            return
        due = self.hub.service.due(match)
        auto = None if self.vacations is None else self.vacations.auto_due(match)
        if auto is not None:
            due = auto if due is None else min(due, auto)
        if due is None:
            self._due.pop(match.id, None)
        else:
            self._due[match.id] = due
        self._wake.set()

    def next_due(self) -> float | None:
        return min(self._due.values(), default=None)

    # ----- start-up ----------------------------------------------------------------

    async def start(self) -> None:
        """Take up the open timed matches; if no server process was alive lately, give
        their running clocks back the time since the last one was (the database read
        and written in a database thread)."""
        now = self.now()
        last = await off_loop(self.store.last_alive)
        down = last is not None and now - last > 3 * self.beat_seconds
        await off_loop(self.store.beat, self.process, now)
        for match_id in await off_loop(self.store.open_timed_matches):
            await self._take_up(match_id, last if down else None)

    async def _take_up(self, match_id: str, down_since: float | None) -> None:
        async with self.hub.lock(match_id):
            try:
                match = await self.hub.load_async(match_id)
            except ServerError:
                return
            service = self.hub.service
            if down_since is not None and await service.in_thread(
                service.resume, match, down_since
            ):
                log.info("gave match %s back the time since %.3f", match_id, down_since)
                await self.hub.changed(match)
            else:
                await self.note(match)

    # ----- keeping time ------------------------------------------------------------

    async def check(self) -> int:
        """Act on every match whose moment has come; how many changed."""
        now = self.now()
        changed = 0
        for match_id, due in sorted(self._due.items(), key=lambda item: item[1]):
            if due > now:
                break
            changed += await self._keep(match_id)
        return changed

    async def _keep(self, match_id: str) -> int:
        service = self.hub.service
        if self.vacations is not None and await self.vacations.auto_start(match_id):
            return 1  # (each match held was announced, and noted again)
        async with self.hub.lock(match_id):
            try:
                match = await service.in_thread(
                    service.refresh, await self.hub.load_async(match_id)
                )
                acted = await service.in_thread(service.keep_time, match)
            except ServerError as error:  # another process changed it first: read again
                log.debug("keeping time of %s: %s", match_id, error)
                self._due.pop(match_id, None)
                await self._take_up(match_id, None)
                return 0
            if acted:
                await self.hub.changed(match)
                return 1
            await self.note(match)
            return 0

    async def run(self) -> None:
        """Beat, rescan and keep time until cancelled."""
        last_beat = last_scan = self.now()
        try:
            while True:
                now = self.now()
                due = self.next_due()
                wait = self.beat_seconds if due is None else min(self.beat_seconds, due - now)
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), timeout=max(0.0, wait))
                try:
                    await self.check()
                    now = self.now()
                    if now - last_beat >= self.beat_seconds:  # its commit off the loop
                        await off_loop(self.store.beat, self.process, now)
                        last_beat = now
                    if now - last_scan >= self.rescan_seconds:
                        last_scan = now
                        timed = await off_loop(self.store.open_timed_matches)
                        for match_id in set(timed) - set(self._due):
                            await self._take_up(match_id, None)
                except Exception:
                    log_failure(log, "keeping the clocks failed")
        finally:
            try:  # (cancelled: the last beat still written, off the loop)
                await off_loop(self.store.beat, self.process, self.now())
            except Exception:
                log.debug("last heartbeat not written", exc_info=True)


REFEREE: Kept[Referee] = Kept("referee")
"""The app's referee (``app.state.referee``)."""


__all__ = ["REFEREE", "Referee"]
