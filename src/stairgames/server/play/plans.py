"""Conditional moves: replies a correspondence player plans ahead (issue 54; docs/web.md,
"Planned replies").

After their move, the person at a seat of a correspondence match of two seats may store
lines of planned replies: "if my opponent plays X, I play Y; then if X2, Y2...". Each
line is a list of moves in the game's notation, the opponent's first; lines that begin
alike make a tree (they must agree: one reply to one move). When the opponent's move is
the first of some lines, the server plays their reply at once, as the seat, through the
path every move takes (``MatchService.move_async``: the referee, the clock, the events,
the views), and keeps what follows; any other move cancels every line. Plans belong to
the game as it was when they were made (its every move, :func:`game_so_far`): a
takeback or the game's end drops them, even should as many moves be made again since.

They are private: they are in no view, record, replay, event or log but the seat's own
``GET``; a move refused in a line is said by its place (line 2, move 3), not by its text.

Limits (:data:`MOST_LINES`, lichess's 30; :data:`MOST_MOVES` a line): a line counts once
however much it shares with others (30 lines: 30 lists). Every move is checked for
legality when the lines are stored (a wrong one refuses them all, nothing stored). A line
may not go past the game's end, a roll of dice or a draw (plan up to it), and the games
with hidden cards have none (whether a move of the opponent would be legal could tell
what they hold). Only a game of two seats (the registry's game says how many) has them.
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import json
import logging
from typing import Any, Final

from fastapi import FastAPI, Request
from sqlalchemy import DateTime, ForeignKey, Integer, String, Text, delete
from sqlalchemy.orm import Mapped, mapped_column

from stairgames.core.errors import StairgamesError
from stairgames.i18n import N_
from stairgames.server.base.contract import answers
from stairgames.server.base.errors import ServerError
from stairgames.server.base.limits import ClientRates, Rate
from stairgames.server.base.state import Kept
from stairgames.server.base.store import Base, Repository, allowances_off_loop, off_loop
from stairgames.server.people.players import RetryLaterError, current_player_async
from stairgames.server.play.clocks import CORRESPONDENCE
from stairgames.server.play.contract import PlansBody, PlansView
from stairgames.server.play.hub import HUB, Hub
from stairgames.server.play.match import Match
from stairgames.server.play.routes import Neighbours, viewer_of

log = logging.getLogger(__name__)

MOST_LINES: Final = 30
"""The most lines a seat may plan (lichess's cap)."""
MOST_MOVES: Final = 40
"""The most moves in one line (20 of the opponent's, 20 replies)."""
MOST_CHOICES: Final = 200
"""The most moves of the opponent :func:`replies_to` lists."""
PLANS_RATE: Final = Rate(per_minute=30, burst=20)
"""How often one client may read, store or drop plans."""
REQUESTS: Final = "plans"

ONLY_CORRESPONDENCE: Final = N_("replies are planned in correspondence games only")
ONLY_TWO: Final = N_("replies are planned in games of two players only")
NOT_HIDDEN: Final = N_("replies cannot be planned in games with hidden cards")
GAME_OVER: Final = N_("the game is over")
NOT_YET: Final = N_("replies are planned while your opponent is to move")
SPECTATOR: Final = N_("spectators cannot play; join a free seat to play")
TOO_MANY: Final = N_("at most {most} lines of planned replies")
BAD_LINE: Final = N_(
    "line {line} must be moves in the game's notation, your opponent's first and your "
    "reply last, at most {most}"
)
ILLEGAL: Final = N_("line {line}: move {move} is not legal there")
PAST_CHANCE: Final = N_("line {line} goes past the game's end, dice or a draw: plan up to it")
TWO_REPLIES: Final = N_("line {line} answers a move that another line answers differently")


class PlanRow(Base):
    """A seat's planned replies: its ``lines`` (JSON), from the position after ``ply``
    moves of the match, those moves' digest ``game``."""

    __tablename__ = "match_plans"
    match_id: Mapped[str] = mapped_column(
        String(64), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    ply: Mapped[int] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(String(64))
    lines: Mapped[str] = mapped_column(Text)
    stored_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))


Lines = list[list[str]]


@dataclasses.dataclass(frozen=True)
class Stored:
    """A seat's plans as stored: from ``ply`` moves, whose digest is ``game``."""

    ply: int
    game: str
    lines: Lines


def game_so_far(moves: list[str]) -> str:
    """The digest of a game's moves (full notation), which plans are bound to."""
    return hashlib.sha256("\n".join(moves).encode()).hexdigest()


class PlanStore(Repository):
    """Every seat's planned replies (database calls: off the event loop)."""

    def get(self, match_id: str, seat: int) -> Stored | None:
        with self._session() as session:
            row = session.get(PlanRow, (match_id, seat))
            return None if row is None else Stored(row.ply, row.game, json.loads(row.lines))

    def put(self, match_id: str, seat: int, kept: Stored | None) -> None:
        """Keep ``kept`` (``None``, or no lines: drop the seat's plans)."""
        with self._session() as session:
            row = session.get(PlanRow, (match_id, seat))
            if kept is None or not kept.lines:
                if row is not None:
                    session.delete(row)
                return
            if row is None:
                row = PlanRow(match_id=match_id, seat=seat)
                session.add(row)
            row.ply, row.game, row.lines = kept.ply, kept.game, json.dumps(kept.lines)
            row.stored_at = datetime.datetime.now(datetime.UTC)

    def drop(self, match_id: str) -> None:
        with self._session() as session:
            session.execute(delete(PlanRow).where(PlanRow.match_id == match_id))


def _opponent(match: Match, seat: int) -> int:
    return 1 - seat


def plans_refusal(match: Match, seat: int | None) -> ServerError | None:
    """Why ``seat`` may not plan replies in ``match`` at all (``None``: it may)."""
    if seat is None or seat in match.left:
        return ServerError(403, SPECTATOR)
    if match.time_control.kind != CORRESPONDENCE:
        return ServerError(409, ONLY_CORRESPONDENCE)
    if match.game.num_players() != 2:
        return ServerError(409, ONLY_TWO)
    if match.game.info().hidden_information:
        return ServerError(409, NOT_HIDDEN)
    if match.over:
        return ServerError(409, GAME_OVER)
    return None


def checked_lines(match: Match, seat: int, raw: list[Any]) -> Lines:
    """``raw`` as lines in full notation, each move checked from the match's position,
    where the opponent of ``seat`` is to move.

    :raises ServerError: 400, too many lines, a line that is no list of moves, a move not
        legal there, a line past the game's end or chance, two replies to one move;
        409, it is not the opponent's turn.
    """
    opponent = _opponent(match, seat)
    if match.to_act() != opponent:
        raise ServerError(409, NOT_YET)
    if len(raw) > MOST_LINES:
        raise ServerError(400, TOO_MANY, most=MOST_LINES)
    lines: Lines = []
    replies: dict[tuple[str, ...], str] = {}
    for number, line in enumerate(raw, start=1):
        if (
            not isinstance(line, list)
            or not 2 <= len(line) <= MOST_MOVES
            or len(line) % 2
            or not all(isinstance(move, str) and 0 < len(move) <= 200 for move in line)
        ):
            raise ServerError(400, BAD_LINE, line=number, most=MOST_MOVES)
        state = match.state.clone()
        full: list[str] = []
        for place, move in enumerate(line, start=1):
            mover = opponent if place % 2 else seat
            if state.is_terminal() or state.is_chance_node():
                raise ServerError(400, PAST_CHANCE, line=number)
            if state.current_player() != mover:
                raise ServerError(400, ILLEGAL, line=number, move=place)
            try:
                action = state.string_to_action(move)
            except StairgamesError as exc:
                raise ServerError(400, ILLEGAL, line=number, move=place) from exc
            full.append(state.action_to_string(action))
            state.apply_action(action)
            if place % 2 == 0:
                asked = tuple(full[:-1])
                if replies.setdefault(asked, full[-1]) != full[-1]:
                    raise ServerError(400, TWO_REPLIES, line=number)
        if full not in lines:
            lines.append(full)
    return lines


def replies_to(match: Match, seat: int) -> dict[str, list[str]]:
    """For the page to pick a line of one reply from: each move the opponent of ``seat``
    may make now, and the replies ``seat`` may make to it (none after the game's end or
    chance); empty where the opponent has more than :data:`MOST_CHOICES` moves."""
    state = match.state
    actions = state.legal_actions()
    if len(actions) > MOST_CHOICES:
        return {}
    choices: dict[str, list[str]] = {}
    for action in actions:
        after = state.clone()
        after.apply_action(action)
        mine = [] if after.current_player() != seat else after.legal_actions()
        choices[state.action_to_string(action)] = [after.action_to_string(a) for a in mine]
    return choices


class Plans:
    """Stores each seat's planned replies, and answers an opponent's move with them
    (:meth:`after_move`, asked by ``MatchService.move_async``)."""

    def __init__(self, store: PlanStore, *, rates_clock: Any = None) -> None:
        self.store = store
        self.rates = ClientRates(
            {REQUESTS: PLANS_RATE}, **({} if rates_clock is None else {"clock": rates_clock})
        )

    def of(self, match: Match, seat: int) -> Stored | None:
        """``seat``'s plans, if they were made in the game as it is (older ones are
        dropped)."""
        kept = self.store.get(match.id, seat)
        if kept is None:
            return None
        if match.over or kept.game != game_so_far(match.state.history_strings()):
            self.store.put(match.id, seat, None)
            return None
        return kept

    def store_lines(self, match: Match, seat: int, raw: list[Any]) -> Stored:
        """Check and keep ``raw`` as ``seat``'s plans (an empty list drops them)."""
        refusal = plans_refusal(match, seat)
        if refusal is not None:
            raise refusal
        lines = checked_lines(match, seat, raw) if raw else []
        moves = match.state.history_strings()
        kept = Stored(len(moves), game_so_far(moves), lines)
        self.store.put(match.id, seat, kept)
        return kept

    def may_answer(self, match: Match, seat: int) -> bool:
        """Whether the opponent of ``seat`` may plan replies in ``match`` at all."""
        return len(match.seats) == 2 and plans_refusal(match, _opponent(match, seat)) is None

    def after_move(self, match: Match, seat: int, move: str) -> tuple[int, str] | None:
        """``seat`` just played ``move`` (full notation): the reply its opponent planned,
        as (their seat, the move), with what follows kept; none, and their plans
        dropped, when no line begins with that move."""
        if not self.may_answer(match, seat):  # none kept: no database read
            return None
        planner = _opponent(match, seat)
        kept = self.store.get(match.id, planner)
        if kept is None:
            return None
        moves = match.state.history_strings()
        matching = [line for line in kept.lines if line[0] == move]
        if (
            not matching
            or moves[-1:] != [move]
            or kept.game != game_so_far(moves[:-1])
            or match.to_act() != planner
            or match.clock_seat() != planner
        ):
            self.store.put(match.id, planner, None)
            return None
        reply = matching[0][1]
        after = [*moves, reply]
        rest = [line[2:] for line in matching if len(line) > 2]
        self.store.put(match.id, planner, Stored(len(after), game_so_far(after), rest))
        return planner, reply


PLANS: Kept[Plans] = Kept("plans")
"""The app's planned replies (``app.state.plans``)."""


async def _spend(request: Request) -> None:
    """Spend one of the client's plan requests (its player's, else its address's).

    :raises RetryLaterError: 429, none left for now.
    """
    player = await current_player_async(request)
    if player is not None:
        client = f"player:{player.id}"
    else:
        client = f"address:{request.client.host if request.client else ''}"
    rates = PLANS.of(request).rates
    if rates.shared is None:
        wait = rates.take(REQUESTS, client)
    else:
        wait = await allowances_off_loop(rates.take, REQUESTS, client)
    if wait > 0.0:
        raise RetryLaterError(wait)


def _view(match: Match, seat: int, kept: Stored | None) -> dict[str, Any]:
    """The answer: the lines kept, and the replies to pick from while the opponent is
    to move (:func:`replies_to`)."""
    choices = replies_to(match, seat) if match.to_act() == _opponent(match, seat) else {}
    if kept is None or not kept.lines:
        return {"lines": [], "ply": None, "choices": choices}
    return {"lines": kept.lines, "ply": kept.ply, "choices": choices}


def add_plan_routes(app: FastAPI, neighbours: Neighbours) -> None:
    """``GET``, ``PUT`` and ``DELETE /api/matches/{id}/plans``: the seat's planned replies
    (its token in ``X-Seat-Token``, or its player's cookie), for it alone."""
    holders = neighbours.seat_holders

    async def _seat(request: Request, hub: Hub, match_id: str) -> tuple[Match, int]:
        await _spend(request)
        match = await hub.load_async(match_id)
        match = await hub.service.in_thread(hub.service.refresh, match)
        seat = await viewer_of(request, holders(request), match, None, None)
        refusal = plans_refusal(match, seat)
        if refusal is not None:
            raise refusal
        assert seat is not None
        return match, seat

    @app.get("/api/matches/{match_id}/plans", **answers(PlansView))
    async def my_plans(match_id: str, request: Request) -> dict[str, Any]:
        hub = HUB.of(request)
        async with hub.lock(match_id):
            match, seat = await _seat(request, hub, match_id)
            kept = await off_loop(PLANS.of(request).of, match, seat)
            return await off_loop(_view, match, seat, kept)

    @app.put("/api/matches/{match_id}/plans", **answers(PlansView))
    async def plan(match_id: str, body: PlansBody, request: Request) -> dict[str, Any]:
        hub = HUB.of(request)
        async with hub.lock(match_id):
            match, seat = await _seat(request, hub, match_id)
            plans = PLANS.of(request)
            kept = await off_loop(plans.store_lines, match, seat, list(body.lines))
            return await off_loop(_view, match, seat, kept)

    @app.delete("/api/matches/{match_id}/plans", **answers(PlansView))
    async def drop_plans(match_id: str, request: Request) -> dict[str, Any]:
        hub = HUB.of(request)
        async with hub.lock(match_id):
            match, seat = await _seat(request, hub, match_id)
            await off_loop(PLANS.of(request).store.put, match.id, seat, None)
            return await off_loop(_view, match, seat, None)


__all__ = [
    "MOST_LINES",
    "MOST_MOVES",
    "PLANS",
    "PlanRow",
    "PlanStore",
    "Plans",
    "add_plan_routes",
    "checked_lines",
    "plans_refusal",
]
