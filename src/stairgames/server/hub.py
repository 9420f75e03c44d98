"""WebSocket fan-out: who watches each match, one lock per match, the computer's turns.

Every change to a match goes through :meth:`Hub.changed` once committed: each connection
gets its own viewer's state (a seat's view, or the public view for spectators), then a
computer seat to act starts thinking in the process pool. A computer's move is applied
only if the match is still at the event it started thinking from (an undo or a
resignation meanwhile makes it think again, or not at all).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import time
from collections import defaultdict
from typing import Any, Protocol

from stairgames.server.computer import ComputerPool
from stairgames.server.matches import Match, MatchService

log = logging.getLogger(__name__)


class Sender(Protocol):
    async def send_text(self, data: str) -> None: ...


@dataclasses.dataclass(eq=False)
class Connection:
    """One WebSocket of one viewer; ``seat`` is ``None`` for a spectator."""

    sender: Sender
    seat: int | None
    rate: float
    burst: float
    allowance: float = 0.0
    last: float = dataclasses.field(default_factory=time.monotonic)
    refused: int = 0

    def __post_init__(self) -> None:
        self.allowance = self.burst

    def may_send(self) -> bool:
        """Token bucket: ``rate`` messages a second, up to ``burst`` at once."""
        now = time.monotonic()
        self.allowance = min(self.burst, self.allowance + (now - self.last) * self.rate)
        self.last = now
        if self.allowance < 1.0:
            self.refused += 1
            return False
        self.allowance -= 1.0
        return True


@dataclasses.dataclass(frozen=True)
class _Job:
    """What a computer thinks about: the match as it was at event ``started``."""

    started: int
    player: str
    seat: int
    moves: list[str]
    seed: int


class Hub:
    def __init__(self, service: MatchService, computers: ComputerPool) -> None:
        self.service = service
        self.computers = computers
        self._watchers: dict[str, set[Connection]] = defaultdict(set)
        self._locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._used: dict[str, float] = {}
        """When each match was last locked or loaded (``time.monotonic``)."""
        self._thinking: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    def lock(self, match_id: str) -> asyncio.Lock:
        self._used[match_id] = time.monotonic()
        return self._locks[match_id]

    def load(self, match_id: str) -> Match:
        """The match (see :meth:`MatchService.get`); a computer to act starts thinking
        (after a restart, on the match's first use)."""
        self._used[match_id] = time.monotonic()
        match = self.service.get(match_id)
        self.start_computer(match)
        return match

    # ----- views ---------------------------------------------------------------

    def connected_seats(self, match_id: str) -> set[int]:
        return {c.seat for c in self._watchers.get(match_id, ()) if c.seat is not None}

    def thinking(self, match: Match) -> bool:
        return match.id in self._thinking and match.computer_to_act() is not None

    def view(self, match: Match, seat: int | None) -> dict[str, Any]:
        return match.view(
            seat, connected=self.connected_seats(match.id), thinking=self.thinking(match)
        )

    def add(self, match_id: str, connection: Connection) -> None:
        self._watchers[match_id].add(connection)

    def remove(self, match_id: str, connection: Connection) -> None:
        watchers = self._watchers.get(match_id)
        if watchers is not None:
            watchers.discard(connection)
            if not watchers:
                del self._watchers[match_id]

    async def announce(self, match: Match) -> None:
        """Send every watcher its own view of ``match`` (one view made per seat)."""
        texts: dict[int | None, str] = {}
        watchers = list(self._watchers.get(match.id, ()))
        for connection in watchers:
            if connection.seat not in texts:
                texts[connection.seat] = json.dumps(self.view(match, connection.seat))
        await asyncio.gather(
            *(self._send(c, texts[c.seat]) for c in watchers), return_exceptions=True
        )

    async def _send(self, connection: Connection, text: str) -> None:
        try:
            await connection.sender.send_text(text)
        except Exception:  # a closed socket: its own handler removes it
            log.debug("send failed", exc_info=True)

    async def changed(self, match: Match) -> None:
        """After a commit: start the computer if it is to act, then announce."""
        self.start_computer(match)
        await self.announce(match)

    # ----- the computer ---------------------------------------------------------

    def start_computer(self, match: Match) -> None:
        seat = match.computer_to_act()
        if seat is None or match.id in self._thinking:
            return
        self._thinking.add(match.id)
        job = _Job(
            started=match.event,
            player=seat.player or "medium",
            seat=seat.seat,
            moves=match.state.history_strings(),
            seed=(match.seed + 7919 * match.state.move_number()) % (1 << 62),
        )
        task = asyncio.get_running_loop().create_task(self._think(match, job))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _think(self, match: Match, job: _Job) -> None:
        try:
            move = await self.computers.choose(
                match.game_name, match.options, job.player, job.seat, job.moves, job.seed
            )
        except Exception:
            log.exception("computer player %s failed in match %s", job.player, match.id)
            async with self.lock(match.id):
                self._thinking.discard(match.id)
                await self.announce(match)
            return
        async with self.lock(match.id):
            self._thinking.discard(match.id)
            current = self.service.get(match.id)
            if current is match and match.event == job.started:
                try:
                    self.service.computer_move(match, job.seat, move)
                except Exception:
                    log.exception("computer move %r refused in match %s", move, match.id)
                    await self.announce(match)
                    return
            await self.changed(current)

    async def follow_other_processes(self, seconds: float) -> None:
        """Every ``seconds``, announce the matches someone watches here that another
        server process changed (several processes on one database); runs until cancelled."""
        while True:
            await asyncio.sleep(seconds)
            try:
                await self._announce_changed_elsewhere()
            except Exception:
                log.exception("reading other processes' events failed")

    async def _announce_changed_elsewhere(self) -> None:
        watched = list(self._watchers)
        known = {i: self.service.cached_event(i) for i in watched}
        latest = self.service.store.last_events(watched)
        for match_id in watched:
            if latest.get(match_id, 0) == known[match_id]:
                continue
            async with self.lock(match_id):
                match = self.service.get(match_id)
                fresh = self.service.refresh(match)
                if fresh is not match:
                    await self.changed(fresh)

    # ----- memory ----------------------------------------------------------------

    def sweep(self, idle_seconds: float, now: float | None = None) -> int:
        """Forget the matches (and their locks) that nobody watches, no computer thinks
        about and nobody used for ``idle_seconds``; the number forgotten. They stay in
        the database: the next request loads them again."""
        now = time.monotonic() if now is None else now
        forgotten = 0
        for match_id in self.service.cached_ids() | set(self._locks) | set(self._used):
            if match_id in self._watchers or match_id in self._thinking:
                continue
            lock = self._locks.get(match_id)
            if lock is not None and lock.locked():
                continue
            last = self._used.setdefault(match_id, now)
            if now - last < idle_seconds:
                continue
            self.service.forget(match_id)
            self._locks.pop(match_id, None)
            del self._used[match_id]
            forgotten += 1
        return forgotten

    async def sweep_every(self, seconds: float, idle_seconds: float) -> None:
        """:meth:`sweep` every ``seconds``; runs until cancelled."""
        while True:
            await asyncio.sleep(seconds)
            forgotten = self.sweep(idle_seconds)
            if forgotten:
                log.debug("forgot %d idle matches", forgotten)

    def cached(self) -> tuple[int, int]:
        """(matches in memory, locks): what :meth:`sweep` keeps bounded."""
        return len(self.service.cached_ids()), len(self._locks)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
