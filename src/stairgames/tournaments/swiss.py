"""The Swiss system's rules: pairing by score without repeats, the bye, tie-breaks.

Lichess's Swiss (``modules/swiss`` in lila, which calls bbpPairings' Dutch system) is
the model; this is a smaller Dutch-like method:

1. Players are ranked by score, then by seed (rating at entry, then id).
2. With an odd count, the lowest-ranked player who has had no bye gets it (one
   point), provided the others can still be paired; else the next one up.
3. The top unpaired player is paired first. Their score group (the unpaired players
   with their score) is split in halves, and the top of the top half meets the top of
   the bottom half (in a group of 6, the 1st meets the 4th, the 2nd the 5th); the
   last of an odd group floats down to the next group. A player already met is
   skipped for the next one in that order (the rest of the bottom half, then the top
   half upwards, then lower groups in rank order), backtracking when a later player
   is left without anyone new.
4. If nobody can be paired without a repeat, the tournament ends early
   (:class:`NoPairingError`).
5. The first player is whoever has been first less often, else whoever was second
   last round, else the lot.

Scores: a win 1, a draw ½, a loss 0, a bye 1. Tie-breaks, in order: Buchholz (the sum
of the scores of the opponents met; a bye adds nothing), Sonneborn-Berger (the scores
of the opponents beaten, plus half those of the opponents drawn), the number of wins,
and the seed.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from stairgames.tournaments.common import (
    Entrant,
    NoPairingError,
    Outcome,
    TournamentError,
    check_known,
    seed_order,
)

WIN = 1.0
DRAW = 0.5
LOSS = 0.0
BYE = 1.0
"""A bye's points (as a win)."""
SEARCH_LIMIT = 200_000
"""How many partial pairings the backtracking tries before giving up."""

_POINTS = {Outcome.WIN: WIN, Outcome.DRAW: DRAW, Outcome.LOSS: LOSS}


@dataclass(frozen=True)
class SwissGame:
    """A pairing and, once played, its outcome for the first player."""

    first: str
    second: str
    outcome: Outcome | None = None


@dataclass(frozen=True)
class SwissRound:
    """A round: its games and the player given the bye, if any."""

    games: tuple[SwissGame, ...]
    bye: str | None = None


@dataclass
class _Record:
    score: float = 0.0
    opponents: list[str] = field(default_factory=list)
    results: list[tuple[str, Outcome]] = field(default_factory=list)
    byes: int = 0
    balance: int = 0
    last_first: bool | None = None


def _records(seeds: Sequence[str], rounds: Sequence[SwissRound]) -> dict[str, _Record]:
    records = {p: _Record() for p in seeds}
    for number, rnd in enumerate(rounds, 1):
        named = [p for g in rnd.games for p in (g.first, g.second)]
        named += [rnd.bye] if rnd.bye is not None else []
        unknown = [p for p in named if p not in records]
        if unknown or len(set(named)) != len(named):
            raise TournamentError(f"round {number} names {named!r}: unknown or twice")
        if rnd.bye is not None:
            records[rnd.bye].score += BYE
            records[rnd.bye].byes += 1
        for game in rnd.games:
            if game.outcome is None:
                raise TournamentError(
                    f"round {number}: {game.first!r} against {game.second!r} has no result"
                )
            for player, other, outcome, first in (
                (game.first, game.second, game.outcome, True),
                (game.second, game.first, game.outcome.flipped(), False),
            ):
                record = records[player]
                record.score += _POINTS[outcome]
                record.opponents.append(other)
                record.results.append((other, outcome))
                record.balance += 1 if first else -1
                record.last_first = first
    return records


def pair_swiss_round(
    entrants: Sequence[Entrant],
    rounds: Sequence[SwissRound],
    *,
    rng: random.Random,
    withdrawn: Collection[str] = (),
) -> SwissRound:
    """The next round's pairings (games without outcomes) for the players still in.

    :raises TournamentError: bad input (a player twice, a game without a result, an
        unknown player withdrawn).
    :raises NoPairingError: no pairing without a repeat is left.
    """
    seeds = seed_order(entrants)
    records = _records(seeds, rounds)
    check_known(withdrawn, seeds)
    active = [p for p in seeds if p not in withdrawn]
    ranked = sorted(active, key=lambda p: -records[p].score)  # stable: seed breaks ties
    if len(ranked) < 2:
        raise NoPairingError(f"fewer than two players left: {ranked!r}")
    search = _Search(records)
    if len(ranked) % 2 == 0:
        pairs = search.pair(ranked)
        bye = None
    else:
        pairs, bye = None, None
        candidates = sorted(reversed(ranked), key=lambda p: records[p].byes)
        for bye in candidates:
            pairs = search.pair([p for p in ranked if p != bye])
            if pairs is not None:
                break
    if pairs is None:
        raise NoPairingError(f"no pairing without a repeat for {ranked!r}")
    games = tuple(_seats(a, b, records, rng) for a, b in pairs)
    return SwissRound(games, bye)


class _Search:
    """Backtracking over the Dutch-like order, remembering the sets that failed."""

    def __init__(self, records: dict[str, _Record]) -> None:
        self.records = records
        self.failed: set[frozenset[str]] = set()
        self.steps = 0

    def pair(self, ranked: list[str]) -> list[tuple[str, str]] | None:
        if not ranked:
            return []
        key = frozenset(ranked)
        if key in self.failed:
            return None
        self.steps += 1
        if self.steps > SEARCH_LIMIT:
            return None
        top = ranked[0]
        met = set(self.records[top].opponents)
        for partner in self._preference(ranked):
            if partner in met:
                continue
            rest = self.pair([p for p in ranked if p not in (top, partner)])
            if rest is not None:
                return [(top, partner), *rest]
        self.failed.add(key)
        return None

    def _preference(self, ranked: list[str]) -> list[str]:
        score = self.records[ranked[0]].score
        size = next(
            (i for i, p in enumerate(ranked) if self.records[p].score != score), len(ranked)
        )
        half = max(1, size // 2)
        group = list(range(half, size)) + list(range(half - 1, 0, -1))
        return [ranked[i] for i in group] + ranked[size:]


def _seats(a: str, b: str, records: dict[str, _Record], rng: random.Random) -> SwissGame:
    ra, rb = records[a], records[b]
    if ra.balance != rb.balance:
        return SwissGame(a, b) if ra.balance < rb.balance else SwissGame(b, a)
    if ra.last_first is not None and rb.last_first is not None and ra.last_first != rb.last_first:
        return SwissGame(b, a) if ra.last_first else SwissGame(a, b)
    return SwissGame(a, b) if rng.random() < 0.5 else SwissGame(b, a)


@dataclass(frozen=True)
class SwissRow:
    """One line of the standings."""

    rank: int
    player: str
    score: float
    buchholz: float
    sonneborn_berger: float
    wins: int
    byes: int


def swiss_standings(entrants: Sequence[Entrant], rounds: Sequence[SwissRound]) -> list[SwissRow]:
    """The standings: score, Buchholz, Sonneborn-Berger, wins, seed.

    :raises TournamentError: bad input (a player twice, a game without a result).
    """
    seeds = seed_order(entrants)
    records = _records(seeds, rounds)
    rows = []
    for player in seeds:
        record = records[player]
        buchholz = sum(records[o].score for o in record.opponents)
        berger = sum(records[o].score * _POINTS[result] for o, result in record.results)
        wins = sum(result is Outcome.WIN for _, result in record.results)
        rows.append((record.score, buchholz, berger, wins, player, record.byes))
    rows.sort(key=lambda r: (-r[0], -r[1], -r[2], -r[3]))  # stable: seed breaks ties
    return [
        SwissRow(rank, player, score, buchholz, berger, wins, byes)
        for rank, (score, buchholz, berger, wins, player, byes) in enumerate(rows, 1)
    ]
