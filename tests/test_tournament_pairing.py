"""The tournaments' rules (src/stairgames/tournaments): arena, Swiss and round tables,
each over a simulated event with a seeded generator, and their pairing properties."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stairgames.tournaments import (
    ArenaEntry,
    Entrant,
    NoPairingError,
    Outcome,
    SwissGame,
    SwissRound,
    Table,
    TableRound,
    TournamentError,
    Waiting,
    arena_points,
    arena_standings,
    pair_arena,
    pair_swiss_round,
    place_points,
    seat_round,
    swiss_standings,
    table_sizes,
    table_standings,
)

W, D, L = Outcome.WIN, Outcome.DRAW, Outcome.LOSS


def entrants(count: int, rng: random.Random) -> list[Entrant]:
    return [Entrant(f"p{i:02}", rng.randint(1200, 2000)) for i in range(count)]


# The arena


def test_streak_doubles_from_the_third_win_until_a_result_that_is_not_a_win() -> None:
    assert arena_points([W, W, W, W, L, W]) == [2, 2, 4, 4, 0, 2]
    assert arena_points([W, W, D, W, W, W]) == [2, 2, 2, 2, 2, 4]
    assert arena_points([D, W, L, W, W, D]) == [1, 2, 0, 2, 2, 2]


def test_standings_order_score_then_rating_then_id() -> None:
    rows = arena_standings(
        [
            ArenaEntry("a", 1500, (W, L)),
            ArenaEntry("b", 1600, (D, D)),
            ArenaEntry("c", 1400, (W, W, W)),
            ArenaEntry("d", 1500, (L, W)),
        ]
    )
    assert [(r.rank, r.player, r.score) for r in rows] == [
        (1, "c", 8),
        (2, "b", 2),
        (3, "a", 2),
        (4, "d", 2),
    ]
    assert rows[0].fire and not rows[1].fire
    with pytest.raises(TournamentError, match="'a'"):
        arena_standings([ArenaEntry("a", 1500), ArenaEntry("a", 1400)])


def test_arena_pairs_neighbours_and_avoids_the_last_opponent() -> None:
    waiting = [Waiting(p, rank, 0.0) for rank, p in enumerate("abcd", 1)]
    pairs = pair_arena(waiting, rng=random.Random(1))
    assert sorted(map(frozenset, pairs)) == sorted(map(frozenset, [("a", "b"), ("c", "d")]))
    waiting[0] = Waiting("a", 1, 0.0, last_opponent="b")
    pairs = pair_arena(waiting, rng=random.Random(1))
    assert {frozenset(p) for p in pairs} == {frozenset("ac"), frozenset("bd")}


def test_arena_leaves_out_whoever_became_free_last() -> None:
    waiting = [Waiting("a", 1, 5.0), Waiting("b", 2, 9.0), Waiting("c", 3, 1.0)]
    pairs = pair_arena(waiting, rng=random.Random(0))
    assert {frozenset(p) for p in pairs} == {frozenset("ac")}


def test_two_who_just_met_wait_unless_they_are_all_that_is_left() -> None:
    waiting = [Waiting("a", 1, 0.0, "b"), Waiting("b", 2, 0.0, "a")]
    assert pair_arena(waiting, rng=random.Random(0)) == []
    assert len(pair_arena(waiting, rng=random.Random(0), rematch_ok=True)) == 1


def test_arena_first_player_is_whoever_was_first_less() -> None:
    waiting = [Waiting("a", 1, 0.0, first_balance=2), Waiting("b", 2, 0.0, first_balance=-1)]
    for seed in range(5):
        assert pair_arena(waiting, rng=random.Random(seed)) == [("b", "a")]


def simulate_arena(seed: int) -> tuple[dict[str, list[Outcome]], list[tuple[int, str, str]]]:
    """An hour's arena of 12 players on a fake clock (seconds): ten join at the start,
    two at minute 10; one leaves at minute 20 and comes back at minute 40, another
    leaves for good at minute 30. Each pairing is checked as it is made."""
    rng = random.Random(seed)
    ratings = {f"p{i:02}": rng.randint(1200, 2000) for i in range(12)}
    joins = {p: 0 for p in list(ratings)[:10]} | {"p10": 600, "p11": 600}
    leaves = {"p03": (1200, 2400), "p07": (1800, 10**9)}
    outcomes: dict[str, list[Outcome]] = {}
    free_since: dict[str, float] = {}
    last: dict[str, str] = {}
    balance: Counter[str] = Counter()
    playing: dict[tuple[str, str], float] = {}  # pairing: its end
    made: list[tuple[int, str, str]] = []  # when, first, second
    for now in range(0, 3600, 5):
        for (first, second), end in list(playing.items()):
            if end <= now:
                del playing[first, second]
                outcome = rng.choice([W, W, D, L, L])
                outcomes[first].append(outcome)
                outcomes[second].append(outcome.flipped())
                free_since[first] = free_since[second] = end
        present = {
            p
            for p, t in joins.items()
            if t <= now and not leaves.get(p, (10**9, 0))[0] <= now < leaves[p][1]
        }
        for p in present:
            outcomes.setdefault(p, [])
            free_since.setdefault(p, now)
        busy = {p for pair in playing for p in pair}
        rows = arena_standings(ArenaEntry(p, ratings[p], tuple(outcomes[p])) for p in outcomes)
        rank = {r.player: r.rank for r in rows}
        waiting = [
            Waiting(p, rank[p], free_since[p], last.get(p), balance[p])
            for p in sorted(present - busy)
        ]
        pairs = pair_arena(waiting, rng=rng, rematch_ok=len(present) == 2)
        seen = [p for pair in pairs for p in pair]
        assert len(seen) == len(set(seen)), pairs
        assert not set(seen) & busy and set(seen) <= present
        for first, second in pairs:
            assert first != second
            assert last.get(first) != second or len(present) == 2
            last[first], last[second] = second, first
            balance[first] += 1
            balance[second] -= 1
            playing[first, second] = now + rng.randint(60, 420)
            made.append((now, first, second))
    return outcomes, made


def test_an_hour_of_arena_with_players_coming_and_going() -> None:
    outcomes, made = simulate_arena(7)
    assert set(outcomes) == {f"p{i:02}" for i in range(12)}
    assert all(outcomes[p] for p in outcomes)
    assert sum(len(o) for o in outcomes.values()) <= 2 * len(made)
    assert min(t for t, *pair in made if "p10" in pair) >= 600  # late joiners play
    assert not [t for t, *pair in made if "p03" in pair and 1200 <= t < 2400]
    assert not [t for t, *pair in made if "p07" in pair and t >= 1800]
    assert [t for t, *pair in made if "p03" in pair and t >= 2400]  # back again
    assert simulate_arena(7) == (outcomes, made)  # the seed decides everything


@given(
    ranks=st.lists(st.integers(1, 40), min_size=0, max_size=25, unique=True),
    last=st.lists(st.integers(0, 24), max_size=25),
    seed=st.integers(0, 2**32),
)
def test_arena_pairs_each_free_player_at_most_once(
    ranks: list[int], last: list[int], seed: int
) -> None:
    names = [f"p{r}" for r in ranks]
    waiting = [
        Waiting(n, r, float(i % 3), names[last[i] % len(names)] if i < len(last) else None)
        for i, (n, r) in enumerate(zip(names, ranks, strict=True))
    ]
    pairs = pair_arena(waiting, rng=random.Random(seed))
    seen = [p for pair in pairs for p in pair]
    assert len(seen) == len(set(seen)) and set(seen) <= set(names)
    for a, b in pairs:
        wa = next(w for w in waiting if w.player == a)
        wb = next(w for w in waiting if w.player == b)
        assert a != b and wa.last_opponent != b and wb.last_opponent != a
    if not any(w.last_opponent for w in waiting):
        assert len(pairs) == len(waiting) // 2


# The Swiss system


def play_swiss(players: Sequence[Entrant], rounds: int, rng: random.Random) -> list[SwissRound]:
    played: list[SwissRound] = []
    for _ in range(rounds):
        pairing = pair_swiss_round(players, played, rng=rng)
        games = tuple(SwissGame(g.first, g.second, rng.choice([W, D, L])) for g in pairing.games)
        played.append(SwissRound(games, pairing.bye))
    return played


def check_swiss(players: Sequence[Entrant], played: Sequence[SwissRound]) -> None:
    met: set[frozenset[str]] = set()
    byes: list[str] = []
    everyone = {e.player for e in players}
    for rnd in played:
        seated = [p for g in rnd.games for p in (g.first, g.second)]
        seated += [rnd.bye] if rnd.bye else []
        assert sorted(seated) == sorted(everyone)
        for game in rnd.games:
            pair = frozenset((game.first, game.second))
            assert len(pair) == 2 and pair not in met
            met.add(pair)
        if rnd.bye:
            byes.append(rnd.bye)
    assert len(byes) == len(set(byes))


def test_a_swiss_of_nine_over_four_rounds() -> None:
    rng = random.Random(3)
    players = entrants(9, rng)
    played = play_swiss(players, 4, rng)
    check_swiss(players, played)
    assert all(r.bye is not None for r in played)
    rows = swiss_standings(players, played)
    assert [r.rank for r in rows] == list(range(1, 10))
    assert sum(r.score for r in rows) == 4 * 4 + 4  # four games a round, a bye a round
    keys = [(-r.score, -r.buchholz, -r.sonneborn_berger, -r.wins) for r in rows]
    assert keys == sorted(keys)
    # the first round: the top half of the seeds meets the bottom half, the last sits out
    seeds = sorted(players, key=lambda e: (-e.rating, e.player))
    first = played[0]
    assert first.bye == seeds[-1].player
    assert {frozenset((g.first, g.second)) for g in first.games} == {
        frozenset((seeds[i].player, seeds[i + 4].player)) for i in range(4)
    }
    # the bye's point: a bye and nothing else gives one point and no Buchholz
    bye_row = next(r for r in swiss_standings(players, played[:1]) if r.player == first.bye)
    assert (bye_row.score, bye_row.buchholz, bye_row.byes) == (1.0, 0.0, 1)


def test_swiss_tie_breaks_by_hand() -> None:
    players = [Entrant(p, 1500) for p in "abcd"]
    rounds = [
        SwissRound((SwissGame("a", "b", W), SwissGame("c", "d", D))),
        SwissRound((SwissGame("a", "c", L), SwissGame("b", "d", W))),
    ]
    rows = {r.player: r for r in swiss_standings(players, rounds)}
    # scores: a 1, b 1, c 1.5, d 0.5
    assert rows["a"].buchholz == 1 + 1.5 and rows["b"].buchholz == 1 + 0.5
    assert rows["a"].sonneborn_berger == 1 and rows["c"].sonneborn_berger == 1 + 0.5 * 0.5
    assert [r.player for r in swiss_standings(players, rounds)] == ["c", "a", "b", "d"]


def test_swiss_ends_when_no_pairing_without_repeat_is_left() -> None:
    players = [Entrant(p, 1500) for p in "abcd"]
    rng = random.Random(0)
    played = play_swiss(players, 3, rng)
    check_swiss(players, played)
    with pytest.raises(NoPairingError):
        pair_swiss_round(players, played, rng=rng)


def test_swiss_rejects_an_unplayed_round_and_a_stranger() -> None:
    players = [Entrant(p, 1500) for p in "abcd"]
    unplayed = [SwissRound((SwissGame("a", "b"), SwissGame("c", "d", W)))]
    with pytest.raises(TournamentError, match="no result"):
        pair_swiss_round(players, unplayed, rng=random.Random(0))
    stranger = [SwissRound((SwissGame("a", "z", W), SwissGame("c", "d", W)))]
    with pytest.raises(TournamentError, match="'z'"):
        swiss_standings(players, stranger)
    with pytest.raises(TournamentError, match="'z'"):
        pair_swiss_round(players, [], rng=random.Random(0), withdrawn={"z"})
    with pytest.raises(TournamentError, match="'z'"):
        seat_round(players, [], rng=random.Random(0), withdrawn={"z"})


def test_swiss_colours_alternate_and_balance() -> None:
    rng = random.Random(5)
    players = entrants(8, rng)
    played = play_swiss(players, 5, rng)
    balance: Counter[str] = Counter()
    for rnd in played:
        for g in rnd.games:
            balance[g.first] += 1
            balance[g.second] -= 1
    assert all(abs(b) <= 1 for b in balance.values()), balance


@given(
    count=st.integers(2, 16),
    rounds=st.integers(1, 6),
    withdrawn=st.sets(st.integers(0, 15), max_size=3),
    seed=st.integers(0, 2**32),
)
def test_swiss_nobody_meets_twice_and_everyone_plays_or_has_the_bye(
    count: int, rounds: int, withdrawn: set[int], seed: int
) -> None:
    rng = random.Random(seed)
    players = entrants(count, rng)
    gone = {players[i].player for i in withdrawn if i < count}
    played: list[SwissRound] = []
    met: set[frozenset[str]] = set()
    for number in range(rounds):
        out = gone if number else set()
        try:
            pairing = pair_swiss_round(players, played, rng=rng, withdrawn=out)
        except NoPairingError:
            break
        seated = [p for g in pairing.games for p in (g.first, g.second)]
        seated += [pairing.bye] if pairing.bye else []
        assert sorted(seated) == sorted(e.player for e in players if e.player not in out)
        for g in pairing.games:
            assert frozenset((g.first, g.second)) not in met
            met.add(frozenset((g.first, g.second)))
        played.append(
            SwissRound(tuple(SwissGame(g.first, g.second, W) for g in pairing.games), pairing.bye)
        )


# Round tables


def test_place_points_and_table_sizes() -> None:
    assert place_points([1, 2, 3, 4]) == [6, 4, 2, 0]
    assert place_points([3, 1, 2]) == [0, 6, 3]
    assert place_points([1, 1, 3, 3]) == [5, 5, 1, 1]
    with pytest.raises(TournamentError):
        place_points([0, 1, 2])
    assert table_sizes(12) == ([4, 4, 4], 0)
    assert table_sizes(9) == ([3, 3, 3], 0)
    assert table_sizes(7) == ([4, 3], 0)
    assert table_sizes(11, (4,)) == ([4, 4], 3)
    assert table_sizes(2) == ([], 2)
    with pytest.raises(TournamentError):
        table_sizes(8, (2,))


def play_tables(
    players: Sequence[Entrant], rounds: int, sizes: Sequence[int], rng: random.Random
) -> list[TableRound]:
    played: list[TableRound] = []
    for _ in range(rounds):
        seating = seat_round(players, played, rng=rng, sizes=sizes)
        tables = []
        for t in seating.tables:
            places = list(range(1, len(t.seats) + 1))
            rng.shuffle(places)
            tables.append(Table(t.seats, tuple(places)))
        played.append(TableRound(tuple(tables), seating.out))
    return played


def test_three_seat_round_tables_over_three_rounds() -> None:
    rng = random.Random(11)
    players = entrants(10, rng)
    played = play_tables(players, 3, (3,), rng)
    groups = [frozenset(t.seats) for r in played for t in r.tables]
    assert len(groups) == 9 and len(set(groups)) == 9  # no group sits together twice
    outs = [p for r in played for p in r.out]
    assert len(outs) == 3 and len(set(outs)) == 3  # one sits out each round, never twice
    rows = table_standings(players, played)
    assert sum(r.points for r in rows) == 3 * (3 * 9 + 3)
    keys = [(-r.points, -r.firsts) for r in rows]
    assert keys == sorted(keys)


def test_tables_seat_by_standing() -> None:
    players = [Entrant(p, 2000 - i) for i, p in enumerate("abcdefgh")]
    first = seat_round(players, [], rng=random.Random(0))
    assert [set(t.seats) for t in first.tables] == [set("abcd"), set("efgh")]
    played = TableRound(
        (Table(("a", "b", "c", "d"), (4, 3, 2, 1)), Table(("e", "f", "g", "h"), (1, 2, 3, 4)))
    )
    second = seat_round(players, [played], rng=random.Random(0))
    # standings: d e (6), c f (4), b g (2), a h (0); seats by it, no group repeats
    assert [set(t.seats) for t in second.tables] == [set("decf"), set("bgah")]
    # who sat latest sits first: d (4th of 4), c (3rd), f (2nd), e (1st)
    assert second.tables[0].seats == ("d", "c", "f", "e")


def test_a_repeated_group_is_broken_up() -> None:
    players = [Entrant(p, 2000 - i) for i, p in enumerate("abcdef")]
    tied = TableRound((Table(("a", "b", "c"), (1, 1, 1)), Table(("d", "e", "f"), (1, 1, 1))))
    # all tied: the standings are the seeds, which would seat a b c and d e f again
    seating = seat_round(players, [tied], rng=random.Random(0), sizes=(3,))
    groups = {frozenset(t.seats) for t in seating.tables}
    assert groups == {frozenset("abd"), frozenset("cef")}  # c and d, nearest, swap


@given(
    count=st.integers(3, 30),
    sizes=st.sampled_from([(3,), (4,), (3, 4)]),
    rounds=st.integers(1, 4),
    seed=st.integers(0, 2**32),
)
def test_tables_seat_everyone_once_at_three_or_four(
    count: int, sizes: tuple[int, ...], rounds: int, seed: int
) -> None:
    rng = random.Random(seed)
    players = entrants(count, rng)
    if count < min(sizes):
        return
    for rnd in play_tables(players, rounds, sizes, rng):
        seated = [p for t in rnd.tables for p in t.seats] + list(rnd.out)
        assert sorted(seated) == sorted(e.player for e in players)
        assert all(len(t.seats) in sizes for t in rnd.tables)
        assert len(rnd.out) == table_sizes(count, sizes)[1]
