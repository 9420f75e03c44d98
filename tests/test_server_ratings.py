"""Ratings (issue 29): OpenSkill per game and pool, rebuilt from the stored results."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import pytest

from stairgames.server.base.store import Store, make_engine
from stairgames.server.migrations import upgrade
from stairgames.server.people.rating_store import RatingStore
from stairgames.server.people.ratings import (
    PROVISIONAL_GAMES,
    START_POINTS,
    RatedResult,
    Rating,
    RatingBook,
    is_rateable,
    pool_of,
    rebuild,
)


def test_a_win_raises_the_winner_and_lowers_the_loser() -> None:
    book = RatingBook()
    changes = book.add(RatedResult("stairs", ("ann", "bob"), (1.0, -1.0)))
    (ann_before, ann_after), (bob_before, bob_after) = changes["ann"], changes["bob"]
    assert ann_before == bob_before == Rating()
    assert ann_after.points > START_POINTS > bob_after.points
    assert ann_after.games == bob_after.games == 1
    assert ann_after.sigma < Rating().sigma and bob_after.sigma < Rating().sigma


def test_a_rating_is_provisional_until_ten_rated_games() -> None:
    book = RatingBook()
    for game in range(PROVISIONAL_GAMES):
        assert book.rating("stairs", "ann").provisional
        winner_first = game % 3 != 0
        returns = (1.0, -1.0) if winner_first else (-1.0, 1.0)
        book.add(RatedResult("stairs", ("ann", "bob"), returns))
    ann = book.rating("stairs", "ann")
    assert ann.games == PROVISIONAL_GAMES and not ann.provisional
    assert not ann.shown().endswith("?") and book.rating("stairs", "cy").shown() == "1500?"


def test_equal_scores_share_a_place_among_four() -> None:
    book = RatingBook()
    changes = book.add(RatedResult("city_of_stairs", ("a", "b", "c", "d"), (9, 5, 5, 1)))
    after = {player: new for player, (_old, new) in changes.items()}
    assert after["b"].mu == pytest.approx(after["c"].mu)
    assert after["a"].mu > after["b"].mu > after["d"].mu


def test_pools_keep_apart_what_the_options_make_another_game() -> None:
    six = pool_of("stairs", {"size": 6, "pie_rule": False}, ("size",))
    five = pool_of("stairs", {"size": 5, "pie_rule": True}, ("size",))
    assert six != five and six == pool_of("stairs", {"size": 6, "pie_rule": True}, ("size",))
    book = RatingBook()
    book.add(RatedResult(six, ("ann", "bob"), (1, 0)))
    assert book.rating(five, "ann") == Rating()
    assert set(book.ratings_of("ann")) == {six}


def test_ratings_are_a_fold_over_the_results_in_order() -> None:
    results = [
        RatedResult("twenty_seven variant=basic", ("ann", "bob"), (1, 0)),
        RatedResult("twenty_seven variant=basic", ("bob", "cy"), (1, 0)),
        RatedResult("twenty_seven variant=basic", ("cy", "ann"), (0.5, 0.5)),
    ]
    one, two = rebuild(results), rebuild(results)
    assert dict(one.items()) == dict(two.items())
    assert dict(rebuild(reversed(results)).items()) != dict(one.items())


@pytest.mark.parametrize(
    ("kinds", "players", "rated"),
    [
        (["human", "online"], ["ann", "bob"], True),
        (["human", "online", "online", "online"], ["a", "b", "c", "d"], True),
        (["human", "computer"], ["ann", None], False),  # never with a computer seat
        (["human", "human"], ["ann", "ann"], False),  # never at one screen
        (["human", "online"], ["ann", None], False),  # a seat nobody took
        (["human"], ["ann"], False),
        (["online"] * 5, ["a", "b", "c", "d", "e"], False),
    ],
)
def test_only_games_between_different_people_are_rated(
    kinds: list[str], players: list[str | None], rated: bool
) -> None:
    assert is_rateable(kinds, players) is rated


@pytest.mark.parametrize(
    ("players", "returns"),
    [(("ann",), (1.0,)), (("ann", "ann"), (1.0, 0.0)), (("a", "b"), (1.0,))],
)
def test_a_result_that_cannot_be_rated_is_refused(
    players: tuple[str, ...], returns: tuple[float, ...]
) -> None:
    with pytest.raises(ValueError, match="rated"):
        RatedResult("stairs", players, returns)


def _players(engine: Any, *names: str) -> list[str]:
    from stairgames.server.people.players import PlayerStore

    store = PlayerStore(engine)
    return [store.create(name)[0].id for name in names]


def _match(engine: Any, match_id: str) -> None:
    Store(engine).create_match(match_id, "stairs", {}, 1, [])


def test_stored_results_rate_once_and_rebuild_to_the_same_ratings(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'db.sqlite'}")
    upgrade(engine)
    ann, bob, cy = _players(engine, "Ann", "Bob", "Cy")
    store = RatingStore(engine)
    start = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    games = [(ann, bob, (1.0, -1.0)), (bob, cy, (1.0, -1.0)), (cy, ann, (0.0, 0.0))]
    for number, (first, second, returns) in enumerate(games):
        _match(engine, f"m{number}")
        when = start + datetime.timedelta(minutes=number)
        changes = store.record(f"m{number}", RatedResult("stairs", (first, second), returns), when)
        assert set(changes) == {first, second}
    assert store.record("m0", RatedResult("stairs", (ann, bob), (1.0, -1.0))) == {}
    live = {player: store.ratings_of(player) for player in (ann, bob, cy)}
    assert live[ann]["stairs"].games == 2 and live[bob]["stairs"].games == 2
    assert store.rebuild() == 3
    assert {player: store.ratings_of(player) for player in (ann, bob, cy)} == live
    expected = rebuild(RatedResult("stairs", (a, b), r) for a, b, r in games)
    assert store.ratings_of(ann)["stairs"] == expected.rating("stairs", ann)


def test_the_ratings_rebuild_command_recomputes_from_the_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from stairgames.cli import main

    engine = make_engine(f"sqlite:///{tmp_path / 'stairgames.db'}")
    upgrade(engine)
    ann, bob = _players(engine, "Ann", "Bob")
    _match(engine, "m1")
    store = RatingStore(engine)
    store.record("m1", RatedResult("stairs", (ann, bob), (1.0, -1.0)))
    rated = store.ratings_of(ann)
    with engine.begin() as connection:  # a change of formula, imitated: the table lost
        connection.exec_driver_sql("DELETE FROM ratings")
    assert store.ratings_of(ann) == {}
    assert main(["ratings", "rebuild", "--data-dir", str(tmp_path)]) == 0
    assert "from 1 rated games" in capsys.readouterr().out
    assert store.ratings_of(ann) == rated
    engine.dispose()
