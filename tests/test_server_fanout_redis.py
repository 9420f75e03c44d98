"""Issue 55: the fan-out through Redis pub/sub, behind the same ``FanOut`` interface as
PostgreSQL's LISTEN/NOTIFY (``server/play/fanout_redis.py``).

Two apps on one PostgreSQL database (``tests/postgresql_helpers.py``) with
``fanout_url`` naming a ``redis-server`` the tests start (``tests/redis_helpers.py``),
as two server processes. Polling is set to an hour, so what reaches the other app came
through Redis. Every wait has a deadline; no test asserts on a duration.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from stairgames.server.play.fanout_redis import RedisFanOut, redis_channels
from tests.postgresql_helpers import (
    DEADLINE,
    PostgreSQL,
    notifying_fanout_of,
    postgresql_server,
    receive_until_within,
    two_servers,
    wait_for,
)
from tests.redis_helpers import Redis, redis_server
from tests.server_helpers import JSON, connect
from tests.test_fanout_topics import challenge, listing, player
from tests.test_server_fanout_postgresql import moved, online_game, play, seated


@pytest.fixture(scope="module")
def postgresql() -> Iterator[PostgreSQL]:
    with postgresql_server() as server:
        yield server


@pytest.fixture(scope="module")
def redis() -> Iterator[Redis]:
    with redis_server() as server:
        yield server


def redis_fanout_of(client: object) -> RedisFanOut:
    fanout = notifying_fanout_of(client)  # type: ignore[arg-type]
    assert isinstance(fanout, RedisFanOut)
    return fanout


def test_two_sites_on_one_redis_have_channels_of_their_own() -> None:
    one = redis_channels("postgresql+psycopg://app:secret@db1/stairgames")
    again = redis_channels("postgresql+psycopg://app:other@db1/stairgames")
    other = redis_channels("postgresql+psycopg://app:secret@db2/stairgames")
    assert one == again and one != other and one[0] != one[1]
    assert "secret" not in "".join(one)


@pytest.mark.slow
def test_moves_and_every_topic_cross_through_redis(
    tmp_path: Path, postgresql: PostgreSQL, redis: Redis
) -> None:
    with two_servers(tmp_path, postgresql.url, fanout_url=redis.url) as (first, second):
        # moves, in order, both ways
        match, light_token, dark_token = online_game(first, second)
        with seated(first, second, match, light_token, dark_token) as (light, dark, view):
            for turn in range(4):
                mover, other = (light, dark) if turn % 2 == 0 else (dark, light)
                play(mover, view)
                mine = receive_until_within(mover, moved(view["event"]), DEADLINE)
                theirs = receive_until_within(other, moved(view["event"]), DEADLINE)
                assert theirs["history"] == mine["history"]
                view = theirs
            # presence: light (first) hears of a spectator on the second
            with connect(second, f"/ws/matches/{match}") as spectator:
                receive_until_within(light, lambda m: m.get("spectators") == 1, DEADLINE)
                receive_until_within(spectator, lambda m: m["type"] == "state", DEADLINE)
            # chat said on the first reaches dark on the second
            said = first.post(
                f"/api/matches/{match}/chat",
                json={"text": "through redis"},
                headers={**JSON, "x-seat-token": light_token},
            )
            assert said.status_code == 200, said.text
            heard = receive_until_within(dark, lambda m: m["type"] == "chat", DEADLINE)
            assert heard["message"]["text"] == "through redis"
        # the lobby: a challenge made on the first is listed on the second
        ann = player(first, "Ann")
        with connect(second, "/ws/lobby") as lobby:
            receive_until_within(lobby, lambda m: m["type"] == "lobby", DEADLINE)
            made = challenge(first, ann)
            receive_until_within(lobby, listing(made), DEADLINE)
        assert redis_fanout_of(second).received > 0
        assert second.get("/readyz").json()["checks"]["fanout"] is True
        assert "stairgames_fanout_connected 1.0" in second.get("/metrics").text


@pytest.mark.slow
def test_a_cut_redis_connection_is_opened_again_and_catches_up(
    tmp_path: Path, postgresql: PostgreSQL, redis: Redis
) -> None:
    with two_servers(tmp_path, postgresql.url, fanout_url=redis.url) as (first, second):
        match, light_token, dark_token = online_game(first, second)
        listener = redis_fanout_of(second)
        listener.backoff = (0.5, 0.5)
        with seated(first, second, match, light_token, dark_token) as (light, dark, view):
            assert redis.kill_client(f"{listener.name}-listen") == 1
            wait_for(lambda: listener.connections >= 2, DEADLINE, "listening again")
            play(light, view)
            theirs = receive_until_within(dark, moved(view["event"]), DEADLINE)
            play(dark, theirs)
            again = receive_until_within(light, moved(theirs["event"]), DEADLINE)
            assert len(again["history"]) == 2


@pytest.mark.slow
def test_a_move_made_while_redis_is_down_arrives_once_it_is_back(
    tmp_path: Path, postgresql: PostgreSQL, redis: Redis
) -> None:
    """Redis stopped: each process says it is not ready (``/readyz``'s fan-out check),
    a move made meanwhile is kept in the database and reaches the other process when
    Redis is back (the catch-up), and the game goes on through Redis."""
    with two_servers(tmp_path, postgresql.url, fanout_url=redis.url) as (first, second):
        match, light_token, dark_token = online_game(first, second)
        listener = redis_fanout_of(second)
        listener.backoff = (0.2, 0.5)
        with seated(first, second, match, light_token, dark_token) as (light, dark, view):
            redis.stop()
            try:
                wait_for(lambda: not listener.connected, DEADLINE, "the lost Redis noticed")
                assert second.get("/readyz").status_code == 503
                play(light, view)  # committed; its message cannot be sent now
                mine = receive_until_within(light, moved(view["event"]), DEADLINE)
            finally:
                redis.start()
            theirs = receive_until_within(dark, moved(view["event"]), DEADLINE)
            assert theirs["history"] == mine["history"]
            wait_for(lambda: second.get("/readyz").status_code == 200, DEADLINE, "ready again")
            play(dark, theirs)
            again = receive_until_within(light, moved(theirs["event"]), DEADLINE)
            assert len(again["history"]) == 2
