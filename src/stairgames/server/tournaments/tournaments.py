"""Tournaments on the site (issue 53; docs/tournaments.md, "On the site"; the rules:
:mod:`stairgames.tournaments`).

Any account creates one (``POST /api/tournaments``): an **arena** (a 2-player game, for
``minutes``), a **Swiss** (a 2-player game, for ``rounds``) or **round tables** (a game
of 3–4 seats, for ``rounds``), of a game with its options and clock, starting at
``starts_at``, rated or not, bots allowed or not. ``GET /api/tournaments`` lists them,
``GET /api/tournaments/{id}`` shows one with its standings and its rounds' games;
players join (``.../join``) before it starts, or while it runs for an arena, and leave
(``.../leave``): before the start they are struck off, after it they are paired no more.

Everything lives in the database (``tournaments``, ``tournament_entrants``,
``tournament_pairings``; migration 0014), so a tournament survives a restart, and the
server processes of one database share it. Writing routes spend the player's allowance
(:data:`RATE`, kind ``tournaments``); an account has at most
:data:`OPEN_PER_CREATOR` tournaments not yet finished.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import uuid
from collections.abc import Callable
from typing import Any, Final

from fastapi import FastAPI, Request
from sqlalchemy import (
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    func,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Mapped, mapped_column

from stairgames.core.registry import get_spec, load
from stairgames.i18n import N_
from stairgames.server.base.contract import NoFields, Ok, answers
from stairgames.server.base.errors import ServerError
from stairgames.server.base.limits import ClientRates, Rate, shared_allowances
from stairgames.server.base.settings import Settings
from stairgames.server.base.state import Kept
from stairgames.server.base.store import Base, PlayerRow, Repository, allowances_off_loop, off_loop
from stairgames.server.lobby.lobby import rating_pool
from stairgames.server.people.players import Player, RetryLaterError, required_player_async
from stairgames.server.people.rating_store import RatingStore
from stairgames.server.people.tokens import BOT_PLAY, token_or_cookie_player, tokens_on
from stairgames.server.play.clocks import requested_time_control
from stairgames.server.tournaments.contract import (
    A_KIND,
    A_START,
    NewTournament,
    TournamentCreated,
    TournamentDetail,
    TournamentList,
)
from stairgames.tournaments import Outcome
from stairgames.tournaments.arena import DRAW_POINTS, LOSS_POINTS, STREAK, WIN_POINTS

ARENA, SWISS, TABLES = "arena", "swiss", "tables"
KINDS: Final = (ARENA, SWISS, TABLES)
CREATED, STARTED, FINISHED = "created", "started", "finished"
MINUTES: Final = (10, 24 * 60)
"""The shortest and longest arena, in minutes."""
ROUNDS: Final = (1, 20)
"""The fewest and most rounds of a Swiss or round tables."""
AHEAD_DAYS: Final = 30
"""How far ahead a tournament may start."""
OPEN_PER_CREATOR: Final = 3
"""How many tournaments not yet finished one account may have made."""
FINISHED_LISTED: Final = 20
"""How many finished tournaments the list shows (the latest)."""
RATE_KIND: Final = "tournaments"
RATE: Final = Rate(per_minute=20, burst=10)
"""Each player's allowance of creations, joins and leaves."""
START_RATING: Final = 1500
"""The seed rating of a player not rated in the tournament's pool yet."""
NO_TOURNAMENT: Final = N_("there is no such tournament")
OVER: Final = N_("this tournament is over")
Now = Callable[[], datetime.datetime]
_OUTCOMES: Final = {1.0: Outcome.WIN, 0.0: Outcome.LOSS}
"""A 2-player game's outcome from the points a player scored (else a draw)."""
_ARENA_POINTS: Final = {
    Outcome.WIN: WIN_POINTS,
    Outcome.DRAW: DRAW_POINTS,
    Outcome.LOSS: LOSS_POINTS,
}


class TournamentRow(Base):
    """A tournament: what it plays, when, how, and how far it is."""

    __tablename__ = "tournaments"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    game: Mapped[str] = mapped_column(String(64))
    options: Mapped[str] = mapped_column(Text)
    time_control: Mapped[str] = mapped_column(Text)
    starts_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), index=True)
    minutes: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean)
    bots: Mapped[bool] = mapped_column(Boolean)
    creator_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), index=True
    )
    status: Mapped[str] = mapped_column(String(16), index=True)
    round: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))


class EntrantRow(Base):
    """A player in a tournament: when they joined, their rating then, whether they
    left, their points and (an arena's) streak."""

    __tablename__ = "tournament_entrants"
    tournament_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    rating: Mapped[int] = mapped_column(Integer)
    joined_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))
    left_at: Mapped[datetime.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )
    points: Mapped[float] = mapped_column(Float)
    streak: Mapped[int] = mapped_column(Integer)


class PairingRow(Base):
    """A game of a round (``match_id`` ``None``: a bye): its players in seat order (a
    JSON list of ids) and its result once over (a JSON list of points by seat)."""

    __tablename__ = "tournament_pairings"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    round: Mapped[int] = mapped_column(Integer)
    match_id: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    seats: Mapped[str] = mapped_column(Text)
    result: Mapped[str | None] = mapped_column(Text, nullable=True)


@dataclasses.dataclass(frozen=True)
class Plan:
    """A tournament as its creator asked for it, checked."""

    kind: str
    game: str
    options: dict[str, Any]
    time_control: dict[str, Any]
    starts_at: datetime.datetime
    minutes: int | None
    rounds: int | None
    rated: bool
    bots: bool


def _iso(moment: datetime.datetime) -> str:
    if moment.tzinfo is None:  # SQLite gives moments back without their zone
        moment = moment.replace(tzinfo=datetime.UTC)
    return moment.astimezone(datetime.UTC).isoformat()


def aware(moment: datetime.datetime) -> datetime.datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=datetime.UTC)


def _listed(row: TournamentRow, creator: str, players: int) -> dict[str, Any]:
    return {
        "id": row.id,
        "kind": row.kind,
        "game": row.game,
        "options": json.loads(row.options),
        "time_control": json.loads(row.time_control),
        "starts_at": _iso(row.starts_at),
        "minutes": row.minutes,
        "rounds": row.rounds,
        "rated": row.rated,
        "bots": row.bots,
        "creator": creator,
        "status": row.status,
        "round": row.round,
        "players": players,
    }


CLAIMED: Final = "claimed:"
"""How a pairing's ``match_id`` begins while a process makes its match (then the time
it claimed it, in seconds since the epoch)."""

CLAIM_SECONDS: Final = 60.0
"""How long a claim on making a pairing's match holds; older, its process is taken to
have stopped in between (making a match takes milliseconds)."""


def _stale_claim(match_id: str, before: float) -> bool:
    """Whether ``match_id`` is a claim made before ``before`` (not a match's id)."""
    if not match_id.startswith(CLAIMED):
        return False
    moment = match_id.removeprefix(CLAIMED).split(":", 1)[0]
    try:
        return float(moment) < before
    except ValueError:
        return True


def made_match(match_id: str | None) -> str | None:
    """A pairing's match as the API shows it: ``None`` until it is made."""
    return None if match_id is None or match_id.startswith(CLAIMED) else match_id


def _not_over(session: Any, tournament_id: str) -> TournamentRow:
    """The tournament's row, locked for this transaction.

    :raises ServerError: 404 none; 409 it is over.
    """
    row: TournamentRow | None = session.get(TournamentRow, tournament_id, with_for_update=True)
    if row is None:
        raise ServerError(404, NO_TOURNAMENT)
    if row.status == FINISHED:
        raise ServerError(409, OVER)
    return row


class TournamentStore(Repository):
    """The ``tournaments``, ``tournament_entrants`` and ``tournament_pairings`` tables;
    each call one transaction."""

    def create(self, creator: str, plan: Plan, now: datetime.datetime) -> str:
        """A new tournament of ``creator``'s; its id.

        :raises ServerError: 409 ``tournament_too_many``, the creator has
            :data:`OPEN_PER_CREATOR` not finished.
        """
        with self._session() as session:
            open_count = session.scalar(
                select(func.count())
                .select_from(TournamentRow)
                .where(TournamentRow.creator_id == creator, TournamentRow.status != FINISHED)
            )
            if (open_count or 0) >= OPEN_PER_CREATOR:
                raise ServerError(
                    409,
                    N_("you have {count} tournaments not finished; that is the most"),
                    count=OPEN_PER_CREATOR,
                )
            made = uuid.uuid4().hex
            session.add(
                TournamentRow(
                    id=made,
                    kind=plan.kind,
                    game=plan.game,
                    options=json.dumps(plan.options, sort_keys=True),
                    time_control=json.dumps(plan.time_control, sort_keys=True),
                    starts_at=plan.starts_at,
                    minutes=plan.minutes,
                    rounds=plan.rounds,
                    rated=plan.rated,
                    bots=plan.bots,
                    creator_id=creator,
                    status=CREATED,
                    round=0,
                    created_at=now,
                )
            )
            return made

    def listing(self) -> list[dict[str, Any]]:
        """Those not finished, soonest first, then the latest finished."""
        with self._session() as session:
            counts = (
                select(EntrantRow.tournament_id, func.count().label("players"))
                .where(EntrantRow.left_at.is_(None))
                .group_by(EntrantRow.tournament_id)
                .subquery()
            )
            query = (
                select(TournamentRow, PlayerRow.name, counts.c.players)
                .join(PlayerRow, PlayerRow.id == TournamentRow.creator_id)
                .outerjoin(counts, counts.c.tournament_id == TournamentRow.id)
            )
            going = session.execute(
                query.where(TournamentRow.status != FINISHED).order_by(
                    TournamentRow.starts_at, TournamentRow.id
                )
            ).all()
            done = session.execute(
                query.where(TournamentRow.status == FINISHED)
                .order_by(TournamentRow.starts_at.desc(), TournamentRow.id)
                .limit(FINISHED_LISTED)
            ).all()
            return [_listed(row, name, players or 0) for row, name, players in [*going, *done]]

    def tournament(self, tournament_id: str) -> TournamentRow | None:
        with self._session() as session:
            return session.get(TournamentRow, tournament_id)

    def detail(self, tournament_id: str) -> dict[str, Any] | None:
        """The tournament with its standings (best first) and pairings; ``None``: none."""
        with self._session() as session:
            found = session.execute(
                select(TournamentRow, PlayerRow.name)
                .join(PlayerRow, PlayerRow.id == TournamentRow.creator_id)
                .where(TournamentRow.id == tournament_id)
            ).first()
            if found is None:
                return None
            row, creator = found
            entrants = session.execute(
                select(EntrantRow, PlayerRow.name)
                .join(PlayerRow, PlayerRow.id == EntrantRow.player_id)
                .where(EntrantRow.tournament_id == tournament_id)
            ).all()
            names = {entrant.player_id: name for entrant, name in entrants}
            bots = tokens_on(self.engine).bots_among(names)
            standings: list[dict[str, Any]] = [
                {
                    "id": entrant.player_id,
                    "name": name,
                    "points": entrant.points,
                    "streak": entrant.streak,
                    "rating": entrant.rating,
                    "left": entrant.left_at is not None,
                    "bot": entrant.player_id in bots,
                }
                for entrant, name in entrants
            ]
            standings.sort(key=lambda s: (-s["points"], -s["rating"], s["id"]))
            pairings = session.scalars(
                select(PairingRow)
                .where(PairingRow.tournament_id == tournament_id)
                .order_by(PairingRow.round, PairingRow.id)
            ).all()
            playing = sum(1 for s in standings if not s["left"])
            return {
                **_listed(row, creator, playing),
                "standings": standings,
                "pairings": [
                    {
                        "round": pairing.round,
                        "match": made_match(pairing.match_id),
                        "players": [names.get(p, "?") for p in json.loads(pairing.seats)],
                        "result": None if pairing.result is None else json.loads(pairing.result),
                    }
                    for pairing in pairings
                ],
            }

    def join(self, tournament_id: str, player: str, rating: int, now: datetime.datetime) -> None:
        """``player`` enters (again, if they left).

        :raises ServerError: 404 none; 409 over, or a Swiss or tables begun.
        """
        with self._session() as session:
            row = _not_over(session, tournament_id)
            if row.status == STARTED and row.kind != ARENA:
                raise ServerError(
                    409, N_("this tournament has begun; only an arena may be joined then")
                )
            entrant = session.get(EntrantRow, (tournament_id, player))
            if entrant is None:
                session.add(
                    EntrantRow(
                        tournament_id=tournament_id,
                        player_id=player,
                        rating=rating,
                        joined_at=now,
                        left_at=None,
                        points=0.0,
                        streak=0,
                    )
                )
            else:
                entrant.left_at = None

    def leave(self, tournament_id: str, player: str, now: datetime.datetime) -> None:
        """``player`` leaves: struck off before the start, paired no more after it.

        :raises ServerError: 404 none; 409 over, or the player is not in it.
        """
        with self._session() as session:
            row = _not_over(session, tournament_id)
            entrant = session.get(EntrantRow, (tournament_id, player))
            if entrant is None or entrant.left_at is not None:
                raise ServerError(409, N_("you are not in this tournament"))
            if row.status == CREATED:
                session.delete(entrant)
            else:
                entrant.left_at = now

    def claim_start(self, tournament_id: str, now: datetime.datetime) -> bool:
        """Marks the tournament started if it was waiting and its time came; whether this
        call did (of several processes, the database lets one)."""
        with self._session() as session:
            changed = session.execute(
                update(TournamentRow)
                .where(
                    TournamentRow.id == tournament_id,
                    TournamentRow.status == CREATED,
                    TournamentRow.starts_at <= now,
                )
                .values(status=STARTED)
            )
            return bool(getattr(changed, "rowcount", 0))

    def session(self) -> Any:
        """One transaction (for a neighbour's row written with this store's)."""
        return self._session()

    def live_ids(self) -> list[str]:
        """The tournaments not finished."""
        with self._session() as session:
            return list(
                session.scalars(
                    select(TournamentRow.id)
                    .where(TournamentRow.status != FINISHED)
                    .order_by(TournamentRow.starts_at, TournamentRow.id)
                )
            )

    def pairings(self, tournament_id: str) -> list[PairingRow]:
        with self._session() as session:
            return list(
                session.scalars(
                    select(PairingRow)
                    .where(PairingRow.tournament_id == tournament_id)
                    .order_by(PairingRow.id)
                )
            )

    def entrants(self, tournament_id: str) -> list[EntrantRow]:
        with self._session() as session:
            return list(
                session.scalars(
                    select(EntrantRow)
                    .where(EntrantRow.tournament_id == tournament_id)
                    .order_by(EntrantRow.player_id)
                )
            )

    def finish(self, tournament_id: str) -> None:
        with self._session() as session:
            session.execute(
                update(TournamentRow)
                .where(TournamentRow.id == tournament_id, TournamentRow.status == STARTED)
                .values(status=FINISHED)
            )

    def claim_round(
        self,
        tournament_id: str,
        round_now: int,
        games: list[list[str]],
        outs: dict[str, float],
    ) -> list[int] | None:
        """Moves the tournament to the next round and writes its pairings (``outs``:
        the players given a bye or sitting the round out, and their points, given at
        once), if its round is still ``round_now``; the new games' pairing ids, or
        ``None``: another process paired it first."""
        with self._session() as session:
            changed = session.execute(
                update(TournamentRow)
                .where(
                    TournamentRow.id == tournament_id,
                    TournamentRow.round == round_now,
                    TournamentRow.status == STARTED,
                )
                .values(round=round_now + 1)
            )
            if not getattr(changed, "rowcount", 0):
                return None
            rows = [
                PairingRow(
                    tournament_id=tournament_id,
                    round=round_now + 1,
                    match_id=None,
                    seats=json.dumps(players),
                    result=None,
                )
                for players in games
            ]
            session.add_all(rows)
            for out, points in sorted(outs.items()):
                session.add(
                    PairingRow(
                        tournament_id=tournament_id,
                        round=round_now + 1,
                        match_id=None,
                        seats=json.dumps([out]),
                        result=json.dumps([points]),
                    )
                )
                entrant = session.get(EntrantRow, (tournament_id, out))
                if entrant is not None:
                    entrant.points += points
            session.flush()
            return [row.id for row in rows]

    def claim_pairing(self, pairing_id: int, now: datetime.datetime) -> str | None:
        """Claims the making of a pairing's match for this process: its claim (to give to
        :meth:`set_match`), or ``None``: the match is made, or another process claimed it
        less than :data:`CLAIM_SECONDS` ago. A claim older than that was left by a process
        that stopped in between, and is taken over."""
        claim = f"{CLAIMED}{now.timestamp():.3f}:{uuid.uuid4().hex[:12]}"
        stale = now.timestamp() - CLAIM_SECONDS
        with self._session() as session:
            row = session.get(PairingRow, pairing_id, with_for_update=True)
            if row is None or row.result is not None:
                return None
            if row.match_id is not None and not _stale_claim(row.match_id, stale):
                return None
            row.match_id = claim
        return claim

    def set_match(self, pairing_id: int, claim: str, match_id: str) -> bool:
        """Puts the match made in the pairing, if this process's ``claim`` still holds."""
        with self._session() as session:
            changed = session.execute(
                update(PairingRow)
                .where(PairingRow.id == pairing_id, PairingRow.match_id == claim)
                .values(match_id=match_id)
            )
            return bool(getattr(changed, "rowcount", 0))

    def record(self, match_id: str, points: list[float]) -> str | None:
        """The result of a tournament's game (once): the players' points and streaks
        follow; the tournament's id, or ``None`` (not a tournament's game, or recorded
        already)."""
        with self._session() as session:
            pairing = session.scalars(
                select(PairingRow).where(PairingRow.match_id == match_id).with_for_update()
            ).first()
            if pairing is None or pairing.result is not None:
                return None
            tournament = session.get(TournamentRow, pairing.tournament_id)
            pairing.result = json.dumps(points)
            for player, scored in zip(json.loads(pairing.seats), points, strict=True):
                entrant = session.get(EntrantRow, (pairing.tournament_id, player))
                if entrant is None:
                    continue
                if len(points) != 2:  # a round table: points by place, firsts counted
                    entrant.points += scored
                    entrant.streak += 1 if scored == max(points) else 0
                    continue
                outcome = _OUTCOMES.get(scored, Outcome.DRAW)
                if tournament is not None and tournament.kind == ARENA:
                    fire = entrant.streak >= STREAK  # on fire: this game counts double
                    entrant.points += _ARENA_POINTS[outcome] * (2 if fire else 1)
                else:
                    entrant.points += scored
                entrant.streak = entrant.streak + 1 if outcome is Outcome.WIN else 0
            return pairing.tournament_id


class Tournaments:
    """The app's tournaments: the store, the clock, the players' ratings and
    allowances."""

    def __init__(
        self,
        store: TournamentStore,
        ratings: RatingStore,
        *,
        now: Now,
        rates: ClientRates | None = None,
    ) -> None:
        self.store = store
        self.ratings = ratings
        self.now = now
        self.rates = rates or ClientRates({RATE_KIND: RATE})

    def check_plan(self, body: NewTournament, options: dict[str, Any]) -> Plan:
        """The tournament ``body`` asks for (a database-free check, but it loads the
        game: call it off the loop).

        :raises ServerError: 400 a wrong kind, seat count, start, length.
        :raises InvalidOptionError: an unknown game or wrong options.
        """
        if body.kind not in KINDS:
            raise ServerError(400, A_KIND)
        seats = load(body.game, **options).num_players()
        if (seats == 2) == (body.kind == TABLES):
            raise ServerError(
                400, N_("an arena or a Swiss is for 2-player games; round tables for 3 or 4")
            )
        try:
            starts = datetime.datetime.fromisoformat(body.starts_at[:40])
        except ValueError:
            raise ServerError(400, A_START) from None
        now = self.now()
        if starts.tzinfo is None or starts < now - datetime.timedelta(minutes=1):
            raise ServerError(400, A_START)
        if starts > now + datetime.timedelta(days=AHEAD_DAYS):
            raise ServerError(400, N_("a tournament starts within {days} days"), days=AHEAD_DAYS)
        minutes, rounds = body.minutes, body.rounds
        if body.kind == ARENA:
            rounds = None
            if minutes is None or not MINUTES[0] <= minutes <= MINUTES[1]:
                raise ServerError(
                    400,
                    N_("an arena lasts {low} to {high} minutes"),
                    low=MINUTES[0],
                    high=MINUTES[1],
                )
        else:
            minutes = None
            if rounds is None or not ROUNDS[0] <= rounds <= ROUNDS[1]:
                raise ServerError(
                    400,
                    N_("a Swiss or round tables have {low} to {high} rounds"),
                    low=ROUNDS[0],
                    high=ROUNDS[1],
                )
        control = requested_time_control(body.time_control, body.game)
        return Plan(
            kind=body.kind,
            game=get_spec(body.game).name,
            options=options,
            time_control=control.to_json(),
            starts_at=starts.astimezone(datetime.UTC),
            minutes=minutes,
            rounds=rounds,
            rated=body.rated,
            bots=body.bots,
        )

    def rating_of(self, player: str, game: str, options: dict[str, Any]) -> int:
        """``player``'s rating points in the pool of ``game`` (a database read)."""
        rating = self.ratings.ratings_of(player).get(rating_pool(game, options))
        return START_RATING if rating is None else int(rating.points)

    def enter(self, tournament_id: str, player: str) -> None:
        """``player`` joins (database reads and writes: off the loop).

        :raises ServerError: as :meth:`TournamentStore.join`; 403 a bot where bots may
            not play.
        """
        row = self.store.tournament(tournament_id)
        if row is None:
            raise ServerError(404, NO_TOURNAMENT)
        if not row.bots and tokens_on(self.store.engine).is_bot(player):
            raise ServerError(403, N_("bots may not play in this tournament"))
        rating = self.rating_of(player, row.game, json.loads(row.options))
        self.store.join(tournament_id, player, rating, self.now())

    async def spend(self, player: Player) -> None:
        """:raises RetryLaterError: 429, the player's allowance is spent."""
        if self.rates.shared is None:
            wait = self.rates.take(RATE_KIND, f"player:{player.id}")
        else:
            wait = await allowances_off_loop(self.rates.take, RATE_KIND, f"player:{player.id}")
        if wait > 0:
            raise RetryLaterError(wait)


TOURNAMENTS: Kept[Tournaments] = Kept("tournaments")


def start_tournaments(
    app: FastAPI, engine: Engine, ratings: RatingStore, settings: Settings
) -> Tournaments:
    """The app's tournaments on its clocks, their allowances shared by the server
    processes of one PostgreSQL database."""
    wall = settings.wall_clock
    rates = ClientRates({RATE_KIND: RATE}, clock=settings.clock)
    rates.shared = shared_allowances(engine, settings.shared())
    return TOURNAMENTS.keep(
        app,
        Tournaments(
            TournamentStore(engine),
            ratings,
            now=lambda: datetime.datetime.fromtimestamp(wall(), datetime.UTC),
            rates=rates,
        ),
    )


def add_tournament_routes(app: FastAPI) -> None:
    """``GET``/``POST /api/tournaments``, ``GET /api/tournaments/{id}``, ``POST
    .../join`` and ``.../leave`` (docs/web.md, "Tournaments"; their models
    ``tournaments/contract.py``)."""

    @app.get("/api/tournaments", **answers(TournamentList))
    async def listing(request: Request) -> dict[str, Any]:
        tournaments = TOURNAMENTS.of(request)
        return {"tournaments": await off_loop(tournaments.store.listing)}

    @app.post("/api/tournaments", **answers(TournamentCreated))
    async def create(body: NewTournament, request: Request) -> dict[str, Any]:
        player = await required_player_async(request)
        if not player.account:
            raise ServerError(
                403, N_("only an account (a player with a password) may create a tournament")
            )
        tournaments = TOURNAMENTS.of(request)
        await tournaments.spend(player)
        plan = await off_loop(tournaments.check_plan, body, dict(body.options))
        made = await off_loop(tournaments.store.create, player.id, plan, tournaments.now())
        return {"id": made}

    @app.get("/api/tournaments/{tournament_id}", **answers(TournamentDetail))
    async def one(tournament_id: str, request: Request) -> dict[str, Any]:
        detail = await off_loop(TOURNAMENTS.of(request).store.detail, tournament_id[:64])
        if detail is None:
            raise ServerError(404, NO_TOURNAMENT)
        return detail

    @app.post("/api/tournaments/{tournament_id}/join", **answers(Ok))
    async def join(tournament_id: str, _body: NoFields, request: Request) -> dict[str, Any]:
        player = await token_or_cookie_player(request, BOT_PLAY)  # a bot joins by its token
        tournaments = TOURNAMENTS.of(request)
        await tournaments.spend(player)
        await off_loop(tournaments.enter, tournament_id[:64], player.id)
        return {"ok": True}

    @app.post("/api/tournaments/{tournament_id}/leave", **answers(Ok))
    async def leave(tournament_id: str, _body: NoFields, request: Request) -> dict[str, Any]:
        player = await token_or_cookie_player(request, BOT_PLAY)
        tournaments = TOURNAMENTS.of(request)
        await tournaments.spend(player)
        now = tournaments.now()
        await off_loop(tournaments.store.leave, tournament_id[:64], player.id, now)
        return {"ok": True}


__all__ = [
    "ARENA",
    "KINDS",
    "SWISS",
    "TABLES",
    "TOURNAMENTS",
    "EntrantRow",
    "PairingRow",
    "TournamentRow",
    "TournamentStore",
    "Tournaments",
    "add_tournament_routes",
    "start_tournaments",
]
