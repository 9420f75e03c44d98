"""Issue 33: a server process that hears of another's events folds them into a copy of
its match (:meth:`MatchService.follow`, one query) instead of replaying the whole match;
what it gets is the match as stored, for every game (dice, hidden cards, clocks)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import stairgames
from stairgames.server.base.store import Store, default_database_url, make_engine
from stairgames.server.migrations import upgrade
from stairgames.server.play.clocks import time_control_from_json
from stairgames.server.play.match import Match
from stairgames.server.play.matches import MatchService


def view_of(match: Match, seat: int) -> dict[str, object]:
    return match.view(seat, connected=set(), thinking=False, now=1e9)


@pytest.mark.parametrize("game", stairgames.game_names())
def test_following_another_process_gives_the_match_as_stored(tmp_path: Path, game: str) -> None:
    engine = make_engine(default_database_url(tmp_path))
    upgrade(engine)
    writer, reader = MatchService(Store(engine)), MatchService(Store(engine))
    seats = ["human"] * stairgames.load(game).num_players()
    timed = time_control_from_json({"kind": "realtime", "minutes": 5, "increment": 2})
    created = writer.create(game, {}, seats, timed)
    match_id = created.match.id
    followed = reader.get(match_id)
    rng = random.Random(game)
    for _ in range(12):
        match = writer.get(match_id)
        seat = match.to_act()
        if seat is None:
            break
        legal = view_of(match, seat)["legal"]
        assert isinstance(legal, list) and legal
        writer.move(match, seat, rng.choice(legal))
        fresh = reader.follow(followed)
        assert fresh is not followed and fresh.event == match.event  # a new object
        assert reader.follow(fresh) is fresh  # nothing new: the same one
        followed = fresh
    stored = Match(Store(engine).load_match(match_id))  # type: ignore[arg-type]
    for seat in range(len(seats)):
        assert view_of(followed, seat) == view_of(stored, seat)
    assert followed.deadline() == stored.deadline()
    engine.dispose()


def test_the_fanout_connects_where_the_engine_does() -> None:
    """The listening connection's address is the engine's, its password and socket
    folder included (psycopg's URI, without SQLAlchemy's driver name)."""
    from psycopg.conninfo import conninfo_to_dict
    from sqlalchemy import create_engine

    from stairgames.server.play.fanout import postgres_dsn

    local = create_engine("postgresql+psycopg://games@/games?host=/var/run/postgresql")
    assert conninfo_to_dict(postgres_dsn(local)) == {
        "user": "games",
        "dbname": "games",
        "host": "/var/run/postgresql",
    }
    remote = create_engine("postgresql+psycopg://u:p%40ss@db.example.org:5433/g?sslmode=require")
    assert conninfo_to_dict(postgres_dsn(remote)) == {
        "user": "u",
        "password": "p@ss",
        "host": "db.example.org",
        "port": "5433",
        "dbname": "g",
        "sslmode": "require",
    }
