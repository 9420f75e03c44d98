"""Vacation in the games: every correspondence clock of a player away is held (issue 54;
docs/web.md, "Vacation").

The days are the people domain's (``people/vacation.py``: the bank, when it runs out);
here a vacation reaches the matches. When a player goes away, each correspondence match
going on where they hold a seat gets an ``away`` event of that seat, saying until when
at most (when their bank would be empty); when they come back sooner, a ``back`` event.
The clock folds them (``play/clocks.py``): nothing needs to happen when the bank runs
out, the clocks run again by themselves, and a restart replays the same. Real-time and
untimed matches never get them: their clocks are never held.

The server starts a vacation by itself (:meth:`Vacations.auto_start`, asked by the
referee) when a correspondence seat's deadline is less than :data:`AUTO_BEFORE` away,
its holder has an hour or more in the bank and did not turn the automatic vacation off.
A vacation the server started ends at the player's next move in any game (they are
back: :meth:`Vacations.moved`); one started by hand lasts until they end it or the bank
is empty (they may move meanwhile). A correspondence match that begins while its player
is away is held as soon as their turn comes (:meth:`Vacations.note`, after every
change).

Routes: ``GET /api/me/vacation`` (the days left, away or not, until when) and ``POST
/api/me/vacation`` (``{"action": "start"}`` or ``"end"``, and ``{"automatic": false}``
to turn the automatic vacation off), each spending the player's allowance
(:data:`VACATION_RATE`).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from collections.abc import Callable
from typing import Any, ClassVar, Final, Literal

from fastapi import FastAPI, Request
from sqlalchemy import select

from stairgames.i18n import N_
from stairgames.server.base.contract import Answer, Body, answers
from stairgames.server.base.errors import ServerError
from stairgames.server.base.limits import ClientRates, Rate
from stairgames.server.base.state import Kept
from stairgames.server.base.store import (
    MatchRow,
    Repository,
    SeatPlayerRow,
    allowances_off_loop,
    off_loop,
)
from stairgames.server.people.players import RetryLaterError, required_player_async
from stairgames.server.people.vacation import LEAST_SECONDS, Vacation, VacationStore
from stairgames.server.play.clocks import CORRESPONDENCE
from stairgames.server.play.hub import Hub
from stairgames.server.play.match import Match

log = logging.getLogger(__name__)

VACATION_ROUTE: Final = "/api/me/vacation"
VACATION_RATE: Final = Rate(per_minute=6, burst=6)
"""How often a player may start, stop or set their vacation: a few times a minute."""
AUTO_BEFORE: Final = 3600.0
"""How long before a correspondence deadline the server starts a vacation by itself."""
REQUESTS: Final = "vacation"
BAD_VACATION = N_("'action' must be start or end, and 'automatic' true or false")


class VacationBody(Body):
    """``POST /api/me/vacation``: ``action`` ``start`` or ``end`` the vacation, and
    ``automatic``, whether the server may start one by itself (either or both)."""

    refusals: ClassVar[dict[str, str]] = {"action": BAD_VACATION, "automatic": BAD_VACATION}

    action: Literal["start", "end"] | None = None
    automatic: bool | None = None


class VacationView(Answer):
    """A player's vacation: ``away`` (from ``since_ms`` until ``until_ms`` at most,
    ``started_by_server``), the ``days_left`` in the bank, whether the server may start
    one by itself (``automatic``), and how the bank grows (``days_a_year`` up to
    ``most_days``)."""

    away: bool
    since_ms: int | None
    until_ms: int | None
    started_by_server: bool
    days_left: float
    automatic: bool
    days_a_year: float
    most_days: float


class HeldSeats(Repository):
    """Which correspondence matches going on a player holds seats in, and who holds a
    seat (database reads)."""

    def open_seats(self, player_id: str) -> list[tuple[str, int]]:
        """(match, seat) of each seat ``player_id`` holds in a correspondence match
        not over."""
        with self._session() as session:
            rows = session.execute(
                select(SeatPlayerRow.match_id, SeatPlayerRow.seat, MatchRow.time_control)
                .join(MatchRow, MatchRow.id == SeatPlayerRow.match_id)
                .where(
                    SeatPlayerRow.player_id == player_id,
                    MatchRow.ended_at.is_(None),
                    MatchRow.time_control.is_not(None),
                )
                .order_by(SeatPlayerRow.match_id, SeatPlayerRow.seat)
            ).all()
        return [(match, seat) for match, seat, control in rows if _correspondence(control)]

    def holder(self, match_id: str, seat: int) -> str | None:
        with self._session() as session:
            row = session.get(SeatPlayerRow, (match_id, seat))
            return None if row is None else row.player_id


def _correspondence(control: str | None) -> bool:
    try:
        return bool(control) and json.loads(control or "{}").get("kind") == CORRESPONDENCE
    except ValueError:
        return False


class Vacations:
    """Players' vacations reaching their matches (see the module's text)."""

    def __init__(
        self,
        hub: Hub,
        store: VacationStore,
        seats: HeldSeats,
        *,
        rates_clock: Callable[[], float] | None = None,
    ) -> None:
        self.hub = hub
        self.store = store
        self.seats = seats
        self.rates = ClientRates({REQUESTS: VACATION_RATE}, **_clock(rates_clock))
        self._ending: set[asyncio.Task[None]] = set()
        """The automatic vacations being ended (:meth:`moved`)."""

    @property
    def now(self) -> float:
        """The server's clock: the one the match clocks keep."""
        return self.hub.service.clock()

    async def days(self, player_id: str) -> Vacation:
        return await off_loop(self.store.of, player_id, self.now)

    async def start(self, player_id: str, *, automatic: bool = False) -> Vacation:
        """``player_id`` goes away now, until their bank is empty: every correspondence
        match of theirs going on is held.

        :raises ServerError: 409, they are away already, or have no days left.
        """
        vacation = await off_loop(self.store.start, player_id, self.now, automatic=automatic)
        until = vacation.until
        assert until is not None
        for match_id, seat in await off_loop(self.seats.open_seats, player_id):
            await self._each(match_id, functools.partial(self._away, seat, until, automatic))
        return vacation

    async def stop(self, player_id: str) -> Vacation:
        """``player_id`` is back: their clocks run again, the days left stay theirs.

        :raises ServerError: 409, they are not away.
        """
        vacation = await off_loop(self.store.stop, player_id, self.now)
        for match_id, seat in await off_loop(self.seats.open_seats, player_id):
            await self._each(match_id, functools.partial(self._back, seat))
        return vacation

    async def _each(self, match_id: str, change: Callable[[Match], bool]) -> None:
        """``change`` one match under its lock (committed in a database thread), and
        announce it if it changed; one that fails is logged and the others go on."""
        hub = self.hub
        try:
            async with hub.lock(match_id):
                match = await hub.load_async(match_id)
                match = await hub.service.in_thread(hub.service.refresh, match)
                if await hub.service.in_thread(change, match):
                    await hub.changed(match)
        except ServerError as error:
            log.warning("vacation not told to match %s: %s", match_id, error)

    def _away(self, seat: int, until: float, automatic: bool, match: Match) -> bool:
        return self.hub.service.away(match, seat, until, automatic=automatic)

    def _back(self, seat: int, match: Match) -> bool:
        return self.hub.service.back(match, seat)

    def moved(self, match: Match, seat: int) -> None:
        """A person moved at ``seat`` (``MatchService.moved``, the match's lock held): if
        the server had started their vacation, it ends now, in a task of its own (it
        locks each of their matches in turn, this one too)."""
        clock = match.clock
        if clock is None or not match.away_automatic.get(seat):
            return
        if seat not in clock.away_until(self.now):
            return
        task = asyncio.get_running_loop().create_task(self._back_by_move(match.id, seat))
        self._ending.add(task)
        task.add_done_callback(self._ending.discard)

    async def _back_by_move(self, match_id: str, seat: int) -> None:
        player_id = await off_loop(self.seats.holder, match_id, seat)
        if player_id is None:
            return
        vacation = await self.days(player_id)
        if not vacation.away or not vacation.started_by_server:
            return
        try:
            await self.stop(player_id)
        except ServerError:  # ended meanwhile
            return
        log.info("vacation started by the server ended by a move of %s", player_id)

    async def settled(self) -> None:
        """Wait for the automatic vacations being ended (tests, and the app's close)."""
        while self._ending:
            await asyncio.gather(*list(self._ending), return_exceptions=True)

    # ----- what the referee and every change ask -----------------------------------

    def auto_due(self, match: Match) -> float | None:
        """When the server would start a vacation for the seat whose correspondence
        clock runs (``None``: not in the future, or no such clock)."""
        moment = _auto_moment(match)
        return moment if moment is not None and moment > self.now else None

    async def auto_start(self, match_id: str) -> bool:
        """If the correspondence deadline of the seat to act in ``match_id`` is less
        than :data:`AUTO_BEFORE` away, and its holder lets the server start a vacation
        and has days left, start it (every match of theirs held); a holder away already
        whose game here was not held (a process stopped while holding their games) has
        it held now. Whether either was done."""
        match = await self.hub.load_async(match_id)
        moment = _auto_moment(match)
        seat = match.clock_seat()
        clock = match.clock
        now = self.now
        if moment is None or seat is None or clock is None or now < moment:
            return False
        if seat in clock.away_until(now):
            return False
        player_id = await off_loop(self.seats.holder, match_id, seat)
        if player_id is None:
            return False
        vacation = await self.days(player_id)
        if vacation.until is not None:  # away, but this game is not held (missed): now
            hold = functools.partial(self._away, seat, vacation.until, vacation.started_by_server)
            await self._each(match_id, hold)
            return True
        if not vacation.automatic or vacation.bank < LEAST_SECONDS:
            return False
        try:
            await self.start(player_id, automatic=True)
        except ServerError:  # started meanwhile, or spent
            return False
        log.info("vacation started by itself for %s (match %s)", player_id, match_id)
        return True

    async def note(self, match: Match) -> None:
        """After a commit (a :attr:`HubNeighbours.after_change` listener): a
        correspondence seat whose turn runs, held by a player away, is held too (a match
        begun while they were away); the caller holds the match's lock."""
        seat = match.clock_seat()
        clock = match.clock
        if seat is None or clock is None or match.time_control.kind != CORRESPONDENCE:
            return
        if seat in clock.away_until(self.now):
            return
        player_id = await off_loop(self.seats.holder, match.id, seat)
        if player_id is None:
            return
        vacation = await self.days(player_id)
        if vacation.until is None:
            return
        service = self.hub.service
        await service.in_thread(
            service.away, match, seat, vacation.until, automatic=vacation.started_by_server
        )


def _auto_moment(match: Match) -> float | None:
    """The moment the running correspondence seat's deadline is :data:`AUTO_BEFORE`
    away (``None``: no correspondence clock runs)."""
    if match.time_control.kind != CORRESPONDENCE:
        return None
    deadline = match.deadline()
    return None if deadline is None else deadline - AUTO_BEFORE


def _clock(clock: Callable[[], float] | None) -> dict[str, Any]:
    return {} if clock is None else {"clock": clock}


VACATIONS: Kept[Vacations] = Kept("vacations")
"""The app's vacations (``app.state.vacations``)."""


async def _spend(request: Request, player_id: str) -> None:
    """Spend one of the player's vacation requests.

    :raises RetryLaterError: 429, none left for now.
    """
    rates = VACATIONS.of(request).rates
    client = f"player:{player_id}"
    if rates.shared is None:
        wait = rates.take(REQUESTS, client)
    else:  # a round trip to the database, in threads of their own
        wait = await allowances_off_loop(rates.take, REQUESTS, client)
    if wait > 0.0:
        raise RetryLaterError(wait)


def add_vacation_routes(app: FastAPI) -> None:
    """``GET`` and ``POST /api/me/vacation`` (see the module's text)."""

    @app.get(VACATION_ROUTE, **answers(VacationView))
    async def my_vacation(request: Request) -> dict[str, Any]:
        me = await required_player_async(request)
        return (await VACATIONS.of(request).days(me.id)).json()

    @app.post(VACATION_ROUTE, **answers(VacationView))
    async def set_vacation(body: VacationBody, request: Request) -> dict[str, Any]:
        me = await required_player_async(request)
        if body.action is None and body.automatic is None:
            raise ServerError(400, BAD_VACATION)
        await _spend(request, me.id)
        vacations = VACATIONS.of(request)
        if body.automatic is not None:
            await off_loop(vacations.store.set_automatic, me.id, vacations.now, body.automatic)
        if body.action == "start":
            await vacations.start(me.id)
        elif body.action == "end":
            await vacations.stop(me.id)
        return (await vacations.days(me.id)).json()


__all__ = [
    "AUTO_BEFORE",
    "VACATIONS",
    "VACATION_ROUTE",
    "HeldSeats",
    "VacationBody",
    "VacationView",
    "Vacations",
    "add_vacation_routes",
]
