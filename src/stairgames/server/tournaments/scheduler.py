"""The tournaments' scheduler: the server's clock starts them, pairs them and ends
them (docs/tournaments.md, "On the site").

Each server process sweeps every ``Settings.tournament_sweep_seconds``
(:meth:`Scheduler.sweep`). A tournament whose start time came is started; then

- a **Swiss** pairs its next round through :func:`pair_swiss_round` once every game
  of the round is over (the bye scores at once), and ends after its last round, or
  when nobody new can meet;
- **round tables** seat their next round through :func:`seat_round` the same way
  (those sitting it out score at once), points by place;
- an **arena** pairs its free players (those in no game being played) through
  :func:`pair_arena`, and ends at its end time (games going on then still count).

The database decides who pairs: the round counter moves on in the same transaction
that writes the new pairings, on the condition that it still holds the value read
(:meth:`TournamentStore.claim_round`), so of several processes one pairs and the
others find the round taken. Each pairing's match is then made with its seats held
by its players (seat order as paired), on the tournament's clock, rated as the
tournament says; when a match ends, the hub's listener (:meth:`Scheduler.note`)
records its result and the players' points. A round whose matches were not all made
(a process stopped in between) waits.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import logging
import random
from typing import Any

from stairgames.core.registry import load
from stairgames.server.base.outages import log_failure
from stairgames.server.base.state import Kept
from stairgames.server.base.store import off_loop
from stairgames.server.lobby.lobby import Lobby, started_challenge
from stairgames.server.play.clocks import time_control_from_json
from stairgames.server.play.match import Match
from stairgames.server.play.seats import ONLINE
from stairgames.server.tournaments.tournaments import (
    ARENA,
    CREATED,
    STARTED,
    SWISS,
    TABLES,
    EntrantRow,
    PairingRow,
    TournamentRow,
    Tournaments,
    aware,
    made_match,
)
from stairgames.tournaments import (
    Entrant,
    NoPairingError,
    Outcome,
    SwissGame,
    SwissRound,
    Waiting,
    arena_standings,
    pair_arena,
    pair_swiss_round,
)
from stairgames.tournaments.arena import ArenaEntry
from stairgames.tournaments.swiss import BYE as BYE_POINTS
from stairgames.tournaments.tables import (
    SIT_OUT_POINTS,
    Table,
    TableRound,
    place_points,
    seat_round,
)

log = logging.getLogger(__name__)


def outcome_of(result: list[float]) -> Outcome:
    """A 2-player game's outcome for its first seat, from the points by seat."""
    first, second = result
    if first > second:
        return Outcome.WIN
    return Outcome.LOSS if first < second else Outcome.DRAW


def swiss_rounds(pairings: list[PairingRow]) -> list[SwissRound]:
    """The rounds played so far as :mod:`stairgames.tournaments.swiss` reads them."""
    rounds: dict[int, tuple[list[SwissGame], list[str]]] = {}
    for pairing in pairings:
        games, byes = rounds.setdefault(pairing.round, ([], []))
        seats = json.loads(pairing.seats)
        result = None if pairing.result is None else json.loads(pairing.result)
        if len(seats) == 1:
            byes.append(seats[0])
        else:
            outcome = None if result is None else outcome_of(result)
            games.append(SwissGame(seats[0], seats[1], outcome))
    return [
        SwissRound(tuple(games), byes[0] if byes else None)
        for _, (games, byes) in sorted(rounds.items())
    ]


def arena_outcomes(pairings: list[PairingRow]) -> dict[str, list[Outcome]]:
    """Each arena player's outcomes, in the order their games were paired."""
    outcomes: dict[str, list[Outcome]] = {}
    for pairing in sorted(pairings, key=lambda p: p.id):
        if pairing.result is None:
            continue
        first, second = json.loads(pairing.seats)
        outcome = outcome_of(json.loads(pairing.result))
        outcomes.setdefault(first, []).append(outcome)
        outcomes.setdefault(second, []).append(outcome.flipped())
    return outcomes


def seat_count(game: str, options: dict[str, Any]) -> int:
    """How many seats a game with these options has (it loads the game: off the loop)."""
    return load(game, **options).num_players()


def places_of(points: list[float]) -> list[int]:
    """Each seat's place from its points (1 the best; equal points share a place)."""
    return [1 + sum(other > mine for other in points) for mine in points]


def table_rounds(pairings: list[PairingRow]) -> list[TableRound]:
    """The rounds played so far as :mod:`stairgames.tournaments.tables` reads them."""
    rounds: dict[int, tuple[list[Table], list[str]]] = {}
    for pairing in pairings:
        tables, outs = rounds.setdefault(pairing.round, ([], []))
        seats = json.loads(pairing.seats)
        if len(seats) == 1:
            outs.append(seats[0])
            continue
        result = None if pairing.result is None else json.loads(pairing.result)
        places = None if result is None else tuple(places_of(result))
        tables.append(Table(tuple(seats), places))
    return [TableRound(tuple(tables), tuple(outs)) for _, (tables, outs) in sorted(rounds.items())]


class Scheduler:
    """Starts, pairs and ends the tournaments; records their games' results."""

    def __init__(self, tournaments: Tournaments, lobby: Lobby) -> None:
        self.tournaments = tournaments
        self.lobby = lobby

    async def sweep_every(self, seconds: float) -> None:
        while True:
            await asyncio.sleep(seconds)
            try:
                await self.sweep()
            except Exception:  # a failing sweep must not end the loop
                log_failure(log, "the tournaments' sweep failed")

    async def sweep(self) -> None:
        """One look at every tournament not finished."""
        store = self.tournaments.store
        for tournament_id in await off_loop(store.live_ids):
            await self.advance(tournament_id)

    async def advance(self, tournament_id: str) -> None:
        store = self.tournaments.store
        now = self.tournaments.now()
        row = await off_loop(store.tournament, tournament_id)
        if row is None:
            return
        if row.status == CREATED:
            if aware(row.starts_at) > now:
                return
            await off_loop(store.claim_start, tournament_id, now)
            row = await off_loop(store.tournament, tournament_id)
            if row is None or row.status != STARTED:
                return
        if row.status != STARTED:
            return
        if row.kind == SWISS:
            await self._swiss(row)
        elif row.kind == ARENA:
            await self._arena(row, now)
        elif row.kind == TABLES:
            await self._tables(row)

    async def _round_due(
        self, row: TournamentRow
    ) -> tuple[list[PairingRow], list[EntrantRow]] | None:
        """A Swiss's or round tables' pairings and entrants when their next round is due;
        ``None`` while the round is played (its missing matches made first), or once the
        last round was played (the tournament finished)."""
        store = self.tournaments.store
        pairings = await off_loop(store.pairings, row.id)
        if await self._make_missing(row, pairings):
            return None  # the round goes on
        if any(p.round == row.round and p.result is None for p in pairings):
            return None  # the round is being played
        if row.rounds is not None and row.round >= row.rounds:
            await off_loop(store.finish, row.id)
            return None
        return pairings, await off_loop(store.entrants, row.id)

    async def _tables(self, row: TournamentRow) -> None:
        store = self.tournaments.store
        due = await self._round_due(row)
        if due is None:
            return
        pairings, entrants = due
        seats = await off_loop(seat_count, row.game, json.loads(row.options))
        try:
            seated = seat_round(
                [Entrant(e.player_id, e.rating) for e in entrants],
                table_rounds(pairings),
                rng=random.Random(f"{row.id}:{row.round + 1}"),
                sizes=(seats,),
                withdrawn=[e.player_id for e in entrants if e.left_at is not None],
            )
        except NoPairingError:
            await off_loop(store.finish, row.id)
            return
        games = [list(table.seats) for table in seated.tables]
        await self._pair(row, games, dict.fromkeys(seated.out, SIT_OUT_POINTS))

    async def _swiss(self, row: TournamentRow) -> None:
        store = self.tournaments.store
        due = await self._round_due(row)
        if due is None:
            return
        pairings, entrants = due
        withdrawn = [e.player_id for e in entrants if e.left_at is not None]
        try:
            paired = pair_swiss_round(
                [Entrant(e.player_id, e.rating) for e in entrants],
                swiss_rounds(pairings),
                rng=random.Random(f"{row.id}:{row.round + 1}"),
                withdrawn=withdrawn,
            )
        except NoPairingError:
            await off_loop(store.finish, row.id)
            return
        if not paired.games:
            await off_loop(store.finish, row.id)
            return
        games = [[game.first, game.second] for game in paired.games]
        await self._pair(row, games, {} if paired.bye is None else {paired.bye: BYE_POINTS})

    async def _arena(self, row: TournamentRow, now: datetime.datetime) -> None:
        store = self.tournaments.store
        end = aware(row.starts_at) + datetime.timedelta(minutes=row.minutes or 0)
        if now >= end:
            await off_loop(store.finish, row.id)
            return
        pairings = await off_loop(store.pairings, row.id)
        await self._make_missing(row, pairings, every_round=True)
        entrants = await off_loop(store.entrants, row.id)
        busy = {player for p in pairings if p.result is None for player in json.loads(p.seats)}
        active = [e for e in entrants if e.left_at is None]
        outcomes = arena_outcomes(pairings)
        ranks = {
            standing.player: standing.rank
            for standing in arena_standings(
                ArenaEntry(e.player_id, e.rating, tuple(outcomes.get(e.player_id, ())))
                for e in entrants
            )
        }
        last: dict[str, str] = {}
        balance: dict[str, int] = {}
        for pairing in sorted(pairings, key=lambda p: p.id):
            first, second = json.loads(pairing.seats)
            last[first], last[second] = second, first
            balance[first] = balance.get(first, 0) + 1
            balance[second] = balance.get(second, 0) - 1
        waiting = [
            Waiting(
                e.player_id,
                ranks[e.player_id],
                aware(e.joined_at).timestamp(),
                last.get(e.player_id),
                balance.get(e.player_id, 0),
            )
            for e in active
            if e.player_id not in busy
        ]
        if len(waiting) < 2:
            return
        pairs = pair_arena(
            waiting,
            rng=random.Random(f"{row.id}:{row.round + 1}"),
            rematch_ok=len(active) == 2,
        )
        if pairs:
            await self._pair(row, [list(pair) for pair in pairs], {})

    async def _pair(
        self, row: TournamentRow, games: list[list[str]], outs: dict[str, float]
    ) -> None:
        """Writes the pairings (if this process still may: the round not taken), then
        makes their matches."""
        store = self.tournaments.store
        made = await off_loop(store.claim_round, row.id, row.round, games, outs)
        if made is None:
            return  # another process paired this round
        for pairing_id, players in zip(made, games, strict=True):
            await self._make_pairing(row, pairing_id, players)

    async def _make_pairing(self, row: TournamentRow, pairing_id: int, players: list[str]) -> None:
        """Makes a pairing's match, if this process may (it claims it first, so that of
        several processes one makes it)."""
        store = self.tournaments.store
        claim = await off_loop(store.claim_pairing, pairing_id, self.tournaments.now())
        if claim is None:
            return
        match_id = await self._make_match(row, players)
        if not await off_loop(store.set_match, pairing_id, claim, match_id):
            log.warning("tournament %s: pairing %s was taken over", row.id, pairing_id)

    async def _make_missing(
        self, row: TournamentRow, pairings: list[PairingRow], *, every_round: bool = False
    ) -> bool:
        """Makes the matches of the round's pairings (``every_round``: of any round, an
        arena's) that have none: a process stopped between writing the pairings and
        making their matches. Whether any was missing."""
        missing = [
            p
            for p in pairings
            if (every_round or p.round == row.round)
            and p.result is None  # (a bye has its result from the start)
            and made_match(p.match_id) is None
        ]
        for pairing in missing:
            await self._make_pairing(row, pairing.id, json.loads(pairing.seats))
        return bool(missing)

    async def _make_match(self, row: TournamentRow, players: list[str]) -> str:
        """A match of the tournament's game and clock whose seats, in order, are held by
        ``players``; listed among the games being played, rated as the tournament is."""
        hub = self.lobby.hub
        service = hub.service
        control = time_control_from_json(json.loads(row.time_control))
        options: dict[str, Any] = json.loads(row.options)
        specs = [ONLINE] * len(players)
        created = await service.in_thread(service.create, row.game, options, specs, control)
        match = created.match
        # rated (or not) before any seat has its holder: whoever reads the seats once they
        # are all held reads the challenge too, for good (``lobby.lasting``)
        await off_loop(self._as_started_challenge, match.id, row)
        for player in players:
            await service.in_thread(service.join, match, player)  # the holder with the join
        async with hub.lock(match.id):
            await hub.changed(match)
        return match.id

    def _as_started_challenge(self, match_id: str, row: TournamentRow) -> None:
        """The lobby rates a started challenge's match when it ends, and lists it among
        the games being played: a tournament's match is recorded as one."""
        now = self.tournaments.now()
        with self.tournaments.store.session() as session:
            session.add(started_challenge(match_id, row.creator_id, row.rated, now))

    async def note(self, match: Match) -> None:
        """Records a tournament game's result once its match is over (a hub listener;
        the database in database threads)."""
        result = match.result() if match.over else None
        if result is None:
            return
        returns = [float(value) for value in result.get("returns", [])]
        if len(returns) < 2:
            return
        if result.get("aborted"):
            returns = [0.0] * len(returns)  # an aborted game: all tied
        loss = min(returns) - 1.0
        for seat in match.left:  # resigned and left: last
            returns[seat] = loss
        if len(returns) == 2:
            points = {Outcome.WIN: [1.0, 0.0], Outcome.LOSS: [0.0, 1.0]}.get(
                outcome_of(returns), [0.5, 0.5]
            )
        else:
            points = place_points(places_of(returns))
        recorded = await off_loop(self.tournaments.store.record, match.id, points)
        if recorded is not None:
            await self.advance(recorded)


SCHEDULER: Kept[Scheduler] = Kept("tournament_scheduler")
