"""Round tables for games of three or four seats: seating by standing, points by place.

Each round the players still in are ranked (points, then first places, then seed) and
seated in that order at tables, the tables of four first: the top players meet the top
players. The split (:func:`table_sizes`) seats as many players as possible, at as
few tables as possible; whoever cannot be seated sits the round out, the lowest-ranked
of those who have sat out least, and scores :data:`SIT_OUT_POINTS`. A table whose
very group has already played together is broken up by swapping players with a
neighbouring table, nearest in rank first, where a swap leaves fewer such tables.
At each table the player who has sat latest so far sits first; the lot decides
between equals.

Points by place (:func:`place_points`): 6 shared in proportion to the opponents a
player finished ahead of, a tie counting half: at four seats 6, 4, 2, 0; at three
6, 3, 0; players tied for a place share its points.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from stairgames.tournaments.common import (
    Entrant,
    NoPairingError,
    TournamentError,
    check_known,
    seed_order,
)

TOP_POINTS = 6.0
"""Points for beating every opponent at the table."""
SIT_OUT_POINTS = TOP_POINTS / 2
"""Points for a round sat out (half the top, as the middle of a table)."""
SIZES = (3, 4)
"""The table sizes these games allow."""


def place_points(places: Sequence[int]) -> list[float]:
    """Each seat's points from each seat's place (1 is first; tied seats share a place).

    >>> place_points([2, 1, 4, 3]), place_points([1, 1, 3])
    ([4.0, 6.0, 0.0, 2.0], [4.5, 4.5, 0.0])

    :raises TournamentError: fewer than two seats, or a place below 1.
    """
    if len(places) < 2 or min(places) < 1:
        raise TournamentError(f"bad places: {list(places)!r}")
    others = len(places) - 1
    return [
        TOP_POINTS * (sum(o > p for o in places) + 0.5 * (sum(o == p for o in places) - 1)) / others
        for p in places
    ]


def table_sizes(count: int, sizes: Sequence[int] = SIZES) -> tuple[list[int], int]:
    """The tables' sizes for ``count`` players (largest first) and how many sit out:
    the most players seated, then the fewest tables.

    >>> table_sizes(10), table_sizes(5), table_sizes(10, (3,))
    (([4, 3, 3], 0), ([4], 1), ([3, 3, 3], 1))

    :raises TournamentError: sizes other than 3 and 4, or none.
    """
    if not sizes or any(s not in SIZES for s in sizes):
        raise TournamentError(f"table sizes must be among {SIZES!r}: {list(sizes)!r}")
    big, small = max(sizes), min(sizes)
    best: tuple[int, int, list[int]] = (count + 1, count + 1, [])
    for bigs in range(count // big + 1):
        smalls = (count - bigs * big) // small if small != big else 0
        split = [big] * bigs + [small] * smalls
        key = (count - sum(split), len(split), split)
        if key[:2] < best[:2]:
            best = key
    return best[2], best[0]


@dataclass(frozen=True)
class Table:
    """A table: its players in seat order and, once played, each seat's place."""

    seats: tuple[str, ...]
    places: tuple[int, ...] | None = None


@dataclass(frozen=True)
class TableRound:
    """A round: its tables and the players sitting it out."""

    tables: tuple[Table, ...]
    out: tuple[str, ...] = ()


@dataclass
class _Record:
    points: float = 0.0
    firsts: int = 0
    outs: int = 0
    lateness: float = 0.0
    groups: list[frozenset[str]] = field(default_factory=list)


def _records(seeds: Sequence[str], rounds: Sequence[TableRound]) -> dict[str, _Record]:
    records = {p: _Record() for p in seeds}
    for number, rnd in enumerate(rounds, 1):
        named = [p for t in rnd.tables for p in t.seats] + list(rnd.out)
        if any(p not in records for p in named) or len(set(named)) != len(named):
            raise TournamentError(f"round {number} names {named!r}: unknown or twice")
        for player in rnd.out:
            records[player].points += SIT_OUT_POINTS
            records[player].outs += 1
        for table in rnd.tables:
            if table.places is None or len(table.places) != len(table.seats):
                raise TournamentError(f"round {number}: table {table.seats!r} has no result")
            group = frozenset(table.seats)
            for seat, (player, points) in enumerate(
                zip(table.seats, place_points(table.places), strict=True)
            ):
                record = records[player]
                record.points += points
                record.firsts += table.places[seat] == 1
                record.lateness += seat / (len(table.seats) - 1)
                record.groups.append(group)
    return records


def _ranked(seeds: Sequence[str], records: dict[str, _Record]) -> list[str]:
    return sorted(seeds, key=lambda p: (-records[p].points, -records[p].firsts))


def seat_round(
    entrants: Sequence[Entrant],
    rounds: Sequence[TableRound],
    *,
    rng: random.Random,
    sizes: Sequence[int] = SIZES,
    withdrawn: Collection[str] = (),
) -> TableRound:
    """The next round's tables (without places) for the players still in.

    :raises TournamentError: bad input (a player twice, a table without its places,
        an unknown player withdrawn).
    :raises NoPairingError: too few players left for one table.
    """
    seeds = seed_order(entrants)
    records = _records(seeds, rounds)
    check_known(withdrawn, seeds)
    ranked = _ranked([p for p in seeds if p not in withdrawn], records)
    split, sitting_out = table_sizes(len(ranked), sizes)
    if not split:
        raise NoPairingError(f"too few players for a table: {ranked!r}")
    by_outs = sorted(reversed(ranked), key=lambda p: records[p].outs)
    out = set(by_outs[:sitting_out])
    seated = [p for p in ranked if p not in out]
    groups: list[list[str]] = []
    start = 0
    for size in split:
        groups.append(seated[start : start + size])
        start += size
    _break_repeats(groups, seated, records)
    tables = tuple(Table(_seat_order(g, records, rng)) for g in groups)
    return TableRound(tables, tuple(p for p in ranked if p in out))


def _repeated(group: list[str], records: dict[str, _Record]) -> bool:
    return frozenset(group) in records[group[0]].groups


def _break_repeats(groups: list[list[str]], seated: list[str], records: dict[str, _Record]) -> None:
    """Swap players between tables while a swap leaves fewer repeated groups: for each
    repeated table in turn, the swap that removes the most, nearest in rank first."""
    rank = {p: i for i, p in enumerate(seated)}
    improved = True
    while improved:
        improved = False
        for t, group in enumerate(groups):
            if not _repeated(group, records):
                continue
            best: tuple[int, int, int, int, int] | None = None
            for u, other in enumerate(groups):
                if u == t:
                    continue
                before = 1 + _repeated(other, records)
                for i, x in enumerate(group):
                    for j, y in enumerate(other):
                        group[i], other[j] = y, x
                        after = _repeated(group, records) + _repeated(other, records)
                        group[i], other[j] = x, y
                        key = (after - before, abs(rank[x] - rank[y]), u, i, j)
                        if after < before and (best is None or key < best):
                            best = key
            if best is not None:
                _, _, u, i, j = best
                group[i], groups[u][j] = groups[u][j], group[i]
                improved = True


def _seat_order(
    group: list[str], records: dict[str, _Record], rng: random.Random
) -> tuple[str, ...]:
    lots = {p: rng.random() for p in group}
    return tuple(sorted(group, key=lambda p: (-records[p].lateness, lots[p])))


@dataclass(frozen=True)
class TableRow:
    """One line of the standings."""

    rank: int
    player: str
    points: float
    firsts: int
    outs: int


def table_standings(entrants: Sequence[Entrant], rounds: Sequence[TableRound]) -> list[TableRow]:
    """The standings: points, then first places, then seed.

    :raises TournamentError: bad input (a player twice, a table without its places).
    """
    seeds = seed_order(entrants)
    records = _records(seeds, rounds)
    return [
        TableRow(rank, p, records[p].points, records[p].firsts, records[p].outs)
        for rank, p in enumerate(_ranked(seeds, records), 1)
    ]
