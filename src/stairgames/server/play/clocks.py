"""Time controls and the clocks the server keeps.

A match has a :class:`TimeControl`: none (casual play, no clock), real time (minutes per
player plus an increment per move) or correspondence (days per move). The clock is
folded from the match's events like everything else (:class:`Clock`): each event carries
the moment the server accepted it, and the time between the event that gave a person
the move and the event of their move is what the move took. Only a person's turn runs a
clock: chance (dice, draws), a computer thinking, a seat nobody took yet and a finished
game run none.

A person who never makes a first move is not flagged: once their first turn has run for
:class:`FirstMoveLimits` (about 30 s in real time, a day in correspondence), or their
time is up before that, the match is aborted (no winner, rated or not: nobody's rating
changes), as lichess does (:meth:`Match.abort_due
<stairgames.server.play.match.Match.abort_due>`).

A server that stops and starts again gives back the time it was down: at start-up it
writes a ``resume`` event to every running clock saying since when nobody kept it
(:meth:`Clock.resume`), so no one is flagged for the server's absence.

A person on vacation (``server/play/vacation.py``) holds their correspondence clocks: an
``away`` event of their seat, at the moment they left, says until when at most
(:meth:`Clock.away`), and a ``back`` event ends it sooner (:meth:`Clock.back`). While it
lasts, that seat's turn takes none of its days: its deadline is pushed on by the time
away that falls in its turn. A real-time clock is never held.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from stairgames.core.errors import StairgamesError
from stairgames.core.registry import get_spec
from stairgames.i18n import N_
from stairgames.server.base.errors import ServerError

NONE = "none"
REALTIME = "realtime"
CORRESPONDENCE = "correspondence"

QUARTER_MINUTES = (0.25, 0.5, 0.75)
"""Real-time games shorter than a minute (lichess's ¼, ½ and ¾ minute)."""
MAX_MINUTES = 180
MAX_INCREMENT = 180
CORRESPONDENCE_DAYS = (1, 2, 3, 7, 14)


@dataclasses.dataclass(frozen=True)
class TimeControl:
    """How long the players may think: ``kind`` is ``none``, ``realtime`` (``minutes``
    each, plus ``increment`` seconds a move) or ``correspondence`` (``days`` a move)."""

    kind: str = NONE
    minutes: float = 0.0
    increment: int = 0
    days: int = 0

    @property
    def timed(self) -> bool:
        return self.kind != NONE

    @property
    def initial_ms(self) -> int:
        return round(self.minutes * 60_000)

    @property
    def increment_ms(self) -> int:
        return self.increment * 1000

    @property
    def move_seconds(self) -> float:
        """A correspondence move's time."""
        return self.days * 86_400.0

    def to_json(self) -> dict[str, Any]:
        if self.kind == REALTIME:
            return {"kind": REALTIME, "minutes": self.minutes, "increment": self.increment}
        if self.kind == CORRESPONDENCE:
            return {"kind": CORRESPONDENCE, "days": self.days}
        return {"kind": NONE}

    def label(self) -> str:
        """Short text: ``5+3``, ``2 days``, ``none``."""
        if self.kind == REALTIME:
            minutes = f"{self.minutes:g}" if self.minutes >= 1 else _fraction(self.minutes)
            return f"{minutes}+{self.increment}"
        if self.kind == CORRESPONDENCE:
            return f"{self.days} d"
        return NONE


def _fraction(minutes: float) -> str:
    return {0.25: "¼", 0.5: "½", 0.75: "¾"}.get(minutes, f"{minutes:g}")


UNTIMED = TimeControl()

FIRST_MOVE_SECONDS = 30.0
"""How long a person's first turn of a real-time match may run before it is aborted."""
FIRST_MOVE_CORRESPONDENCE_SECONDS = 86_400.0
"""The same in correspondence: a day."""


@dataclasses.dataclass(frozen=True)
class FirstMoveLimits:
    """How long a person's first turn may run before the match is aborted: ``realtime``
    seconds in real time, ``correspondence`` seconds in correspondence (an untimed match
    is never aborted)."""

    realtime: float = FIRST_MOVE_SECONDS
    correspondence: float = FIRST_MOVE_CORRESPONDENCE_SECONDS

    def of(self, control: TimeControl) -> float | None:
        """The limit for a match of ``control`` (``None``: never aborted)."""
        if control.kind == REALTIME:
            return self.realtime
        if control.kind == CORRESPONDENCE:
            return self.correspondence
        return None


def parse_time_control(value: Any, default: tuple[float, int] = (5, 3)) -> TimeControl:
    """The time control a request asks for (``None`` or absent: none).

    ``{"kind": "realtime", "minutes": 5, "increment": 3}`` (``minutes``: ¼, ½, ¾ or a
    whole number 1–180; ``increment``: whole seconds 0–180; a missing one takes the
    game's ``default``), ``{"kind": "correspondence", "days": 2}`` (1, 2, 3, 7 or 14)
    or ``{"kind": "none"}``.

    :raises ServerError: 400, anything else.
    """
    if value is None:
        return UNTIMED
    if not isinstance(value, dict):
        raise ServerError(400, N_("'time_control' must be an object with a 'kind'"))
    kind = value.get("kind")
    extra = set(value) - {"kind", "minutes", "increment", "days"}
    if extra:
        raise ServerError(400, N_("unknown time control field {field!r}"), field=sorted(extra)[0])
    if kind == NONE:
        return UNTIMED
    if kind == REALTIME:
        minutes = _number(value.get("minutes", default[0]))
        increment = _number(value.get("increment", default[1]))
        if not (
            minutes in QUARTER_MINUTES or (minutes == int(minutes) and 1 <= minutes <= MAX_MINUTES)
        ):
            raise ServerError(
                400,
                N_("minutes must be ¼, ½, ¾ or a whole number from 1 to {most}"),
                most=MAX_MINUTES,
            )
        if increment != int(increment) or not 0 <= increment <= MAX_INCREMENT:
            raise ServerError(
                400,
                N_("the increment must be whole seconds from 0 to {most}"),
                most=MAX_INCREMENT,
            )
        return TimeControl(REALTIME, minutes=float(minutes), increment=int(increment))
    if kind == CORRESPONDENCE:
        days = value.get("days")
        if isinstance(days, bool) or days not in CORRESPONDENCE_DAYS:
            raise ServerError(
                400,
                N_("days per move must be one of {days}"),
                days=", ".join(str(d) for d in CORRESPONDENCE_DAYS),
            )
        return TimeControl(CORRESPONDENCE, days=int(days))
    raise ServerError(400, N_("the time control's kind must be none, realtime or correspondence"))


def requested_time_control(value: object, game: str) -> TimeControl:
    """The ``time_control`` a request making a match of ``game`` gives (``None``: none;
    unknown games are refused later, with the game's own message)."""
    if value is None:
        return UNTIMED
    try:
        default = get_spec(game).realtime_default
    except StairgamesError:
        default = TimeControl(REALTIME, 5, 3).minutes, 3
    return parse_time_control(value, default)


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ServerError(400, N_("minutes and increment must be numbers"))
    return float(value)


def time_control_from_json(value: dict[str, Any] | None) -> TimeControl:
    """A stored time control (already checked when the match was made)."""
    if not value:
        return UNTIMED
    return TimeControl(
        str(value.get("kind", NONE)),
        minutes=float(value.get("minutes", 0.0)),
        increment=int(value.get("increment", 0)),
        days=int(value.get("days", 0)),
    )


class Clock:
    """Each seat's time, folded from the match's events (moments in seconds since the
    epoch, as the server accepted them)."""

    def __init__(self, control: TimeControl, seats: int) -> None:
        self.control = control
        self.remaining_ms = [control.initial_ms] * seats
        """Real time: each seat's time left when its clock last stopped (or started)."""
        self.running: int | None = None
        """The seat whose clock runs."""
        self.since: float | None = None
        """When the running clock started (or was last charged)."""
        self.away_spans: dict[int, tuple[float, float]] = {}
        """Correspondence: the seats on vacation, each with when it left and until when
        at most its clock is held (:meth:`away`)."""

    def charge(self, at: float) -> None:
        """In real time, take the time since the clock last started from the seat whose
        clock runs (a correspondence move's time is counted from its start)."""
        if self.running is None or self.since is None or self.control.kind != REALTIME:
            return
        self.remaining_ms[self.running] -= round(max(0.0, at - self.since) * 1000)
        self.since = max(self.since, at)

    def moved(self, seat: int) -> None:
        """``seat`` made its move with its clock running: the increment."""
        if self.control.kind == REALTIME:
            self.remaining_ms[seat] += self.control.increment_ms

    def run(self, seat: int | None, at: float) -> None:
        """After an event accepted at ``at`` (and :meth:`charge`): ``seat``'s clock runs
        (``None``: none); a seat whose turn begins starts counting now."""
        if seat != self.running:
            self.since = at if seat is not None else None
        self.running = seat

    def away(self, seat: int, at: float, until: float) -> None:
        """In correspondence, ``seat`` went on vacation at ``at``: its clock is held
        until ``until`` at most (an earlier vacation of the seat is settled first)."""
        if self.control.kind != CORRESPONDENCE:
            return
        self.back(seat, at)
        if until > at:
            self.away_spans[seat] = (at, until)

    def back(self, seat: int, at: float) -> None:
        """``seat`` came back at ``at`` (or its vacation ended before): the time it was
        away during its running turn is given to that turn for good."""
        if seat == self.running and self.since is not None:
            self.since += self.held(seat, at)
        self.away_spans.pop(seat, None)

    def held(self, seat: int, at: float | None = None) -> float:
        """The seconds of ``seat``'s running turn that its vacation holds: from when it
        left (or the turn began, if later) until it ends (or ``at``, if sooner); none
        when the turn's time was up before it left."""
        span = self.away_spans.get(seat)
        if span is None or seat != self.running or self.since is None:
            return 0.0
        start, until = span
        start = max(start, self.since)
        end = until if at is None else min(at, until)
        if start >= self.since + self.control.move_seconds:
            return 0.0
        return max(0.0, end - start)

    def away_until(self, now: float) -> dict[int, float]:
        """The seats on vacation at ``now``, and until when at most."""
        return {seat: until for seat, (start, until) in self.away_spans.items() if until > now}

    def resume(self, down_since: float, at: float) -> None:
        """The server was down from ``down_since`` until ``at``: charge what ran before,
        give back the rest."""
        if self.running is None or self.since is None:
            return
        if self.control.kind == REALTIME:
            self.charge(min(down_since, at))
            self.since = at
        else:
            self.since += max(0.0, at - max(down_since, self.since))

    def deadline(self) -> float | None:
        """When the running seat's time is up (``None``: no clock runs)."""
        if self.running is None or self.since is None:
            return None
        if self.control.kind == REALTIME:
            return self.since + self.remaining_ms[self.running] / 1000
        if self.control.kind == CORRESPONDENCE:
            return self.since + self.control.move_seconds + self.held(self.running)
        return None

    def left_ms(self, now: float) -> list[int]:
        """Each seat's time left at ``now`` (never below 0)."""
        left = list(self.remaining_ms)
        if self.running is not None and self.since is not None:
            left[self.running] -= round(max(0.0, now - self.since) * 1000)
        return [max(0, ms) for ms in left]

    def view(self, now: float) -> dict[str, Any]:
        """What the page shows: ``kind``, ``running``, ``now_ms`` and, in real time,
        ``remaining_ms`` and ``increment_ms``, or in correspondence the running seat's
        ``deadline_ms`` and ``days``."""
        view: dict[str, Any] = {
            **self.control.to_json(),
            "running": self.running,
            "now_ms": round(now * 1000),
        }
        if self.control.kind == REALTIME:
            view["remaining_ms"] = self.left_ms(now)
            view["increment_ms"] = self.control.increment_ms
        else:
            deadline = self.deadline()
            view["deadline_ms"] = None if deadline is None else round(deadline * 1000)
            away = self.away_until(now)
            if away:
                view["away"] = [
                    {"seat": seat, "until_ms": round(until * 1000)}
                    for seat, until in sorted(away.items())
                ]
        return view


__all__ = [
    "CORRESPONDENCE",
    "FIRST_MOVE_CORRESPONDENCE_SECONDS",
    "FIRST_MOVE_SECONDS",
    "NONE",
    "REALTIME",
    "UNTIMED",
    "Clock",
    "FirstMoveLimits",
    "TimeControl",
    "parse_time_control",
    "requested_time_control",
    "time_control_from_json",
]
