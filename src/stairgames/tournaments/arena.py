"""The arena's rules: points with a streak bonus, pairing whoever is free, standings.

Lichess's Arena is the model (``modules/tournament`` in lila): for a fixed time, each
player is paired again as soon as their game ends, with someone near them in the
standings, never the opponent they have just played (unless only two players are
left), and scores points for wins, double while on a streak.

>>> arena_points([Outcome.WIN, Outcome.WIN, Outcome.WIN, Outcome.DRAW, Outcome.WIN])
[2, 2, 4, 2, 2]
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from stairgames.tournaments.common import Outcome, check_unique

WIN_POINTS = 2
"""Points for a win."""
DRAW_POINTS = 1
"""Points for a draw."""
LOSS_POINTS = 0
"""Points for a loss."""
STREAK = 2
"""Wins in a row after which a player is on fire: each result counts double until a
result that is not a win (that result still counts double)."""
WINDOW = 4
"""How far down the waiting list (sorted by standing) a partner is looked for."""

_BASE = {Outcome.WIN: WIN_POINTS, Outcome.DRAW: DRAW_POINTS, Outcome.LOSS: LOSS_POINTS}


def on_fire(outcomes: Sequence[Outcome]) -> bool:
    """Whether the next game counts double: the last :data:`STREAK` results are wins.

    >>> on_fire([Outcome.WIN, Outcome.WIN]), on_fire([Outcome.WIN, Outcome.DRAW])
    (True, False)
    """
    return len(outcomes) >= STREAK and all(o is Outcome.WIN for o in outcomes[-STREAK:])


def arena_points(outcomes: Sequence[Outcome]) -> list[int]:
    """Each game's points, in the order played."""
    return [_BASE[o] * (2 if on_fire(outcomes[:i]) else 1) for i, o in enumerate(outcomes)]


@dataclass(frozen=True)
class ArenaEntry:
    """A player's arena so far: their rating when they joined and their results."""

    player: str
    rating: int
    outcomes: tuple[Outcome, ...] = ()


@dataclass(frozen=True)
class ArenaRow:
    """One line of the standings."""

    rank: int
    player: str
    score: int
    games: int
    fire: bool
    """On fire: the next game counts double."""
    points: tuple[int, ...]


def arena_standings(entries: Iterable[ArenaEntry]) -> list[ArenaRow]:
    """The standings: score first, then the rating at joining, then the player's id.

    :raises TournamentError: a player listed twice.
    """
    listed = list(entries)
    check_unique([e.player for e in listed])
    rows = [
        (sum(points := arena_points(e.outcomes)), e.rating, e.player, tuple(points), e)
        for e in listed
    ]
    rows.sort(key=lambda r: (-r[0], -r[1], r[2]))
    return [
        ArenaRow(rank, e.player, score, len(e.outcomes), on_fire(e.outcomes), points)
        for rank, (score, _, _, points, e) in enumerate(rows, 1)
    ]


@dataclass(frozen=True)
class Waiting:
    """A player free to be paired now."""

    player: str
    rank: int
    """Their place in the standings now (1 is the top)."""
    since: float
    """When their last game ended or they joined (the server's clock)."""
    last_opponent: str | None = None
    first_balance: int = 0
    """Games played as first player less those played as second."""


def pair_arena(
    waiting: Sequence[Waiting], *, rng: random.Random, rematch_ok: bool = False
) -> list[tuple[str, str]]:
    """Pair the free players, each ``(first player, second player)``.

    As many as possible are paired; among pairings of that size, the one leaving out
    whoever became free last (an odd player waits for the next game to end), then the
    one with the smallest sum of rank gaps. Two players who have just played each
    other are not paired again unless ``rematch_ok`` (the server passes it when only
    they are left in the arena). The first player is the one who has been first less
    often; the lot decides between equals.

    :raises TournamentError: a player listed twice.
    """
    check_unique([w.player for w in waiting])
    order = sorted(waiting, key=lambda w: (w.rank, w.player))
    pairs = [(order[i], order[j]) for i, j in _match(order, rematch_ok)]
    return [_seats(a, b, rng) for a, b in pairs]


_Cost = tuple[int, float, int]


def _match(order: Sequence[Waiting], rematch_ok: bool) -> list[tuple[int, int]]:
    """The best matching of ``order`` (by rank) within :data:`WINDOW`, by dynamic
    programming over each position and which of the next ones are already taken."""
    n = len(order)
    full = 1 << WINDOW
    best: list[list[tuple[_Cost, int]]] = [[((0, 0.0, 0), -1)] * full for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for mask in range(full):
            if mask & 1:
                best[i][mask] = (best[i + 1][mask >> 1][0], 0)
                continue
            rest = best[i + 1][mask >> 1][0]
            choice = ((rest[0] + 1, rest[1] - order[i].since, rest[2]), -1)
            for k in range(1, WINDOW):
                j = i + k
                if j >= n or mask >> k & 1 or not _may_meet(order[i], order[j], rematch_ok):
                    continue
                after = best[i + 1][(mask | 1 << k) >> 1][0]
                gap = order[j].rank - order[i].rank
                cost = (after[0], after[1], after[2] + gap)
                if cost < choice[0]:
                    choice = (cost, k)
            best[i][mask] = choice
    pairs: list[tuple[int, int]] = []
    mask = 0
    for i in range(n):
        k = best[i][mask][1]
        if k > 0:
            pairs.append((i, i + k))
            mask |= 1 << k
        mask >>= 1
    return pairs


def _may_meet(a: Waiting, b: Waiting, rematch_ok: bool) -> bool:
    just_played = a.last_opponent == b.player or b.last_opponent == a.player
    return rematch_ok or not just_played


def _seats(a: Waiting, b: Waiting, rng: random.Random) -> tuple[str, str]:
    if a.first_balance != b.first_balance:
        return (a.player, b.player) if a.first_balance < b.first_balance else (b.player, a.player)
    return (a.player, b.player) if rng.random() < 0.5 else (b.player, a.player)
