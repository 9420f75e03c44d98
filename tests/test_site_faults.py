"""Issue 33: a server process killed (SIGKILL) while games are played through nginx; a
move committed by a process that died before its notification went out.

The whole site as ``docs/deploy.md`` deploys it (:mod:`stairgames.bench.site`): PostgreSQL,
two ``stairgames serve`` processes, nginx with ``docs/deploy/nginx-stairgames.conf`` in
front; ten Stairs games played over ``wss`` by clients that connect again when their
socket closes, as the page does (:mod:`stairgames.bench.site_load`). Every game moves twice
and waits; one server is killed; the games go on. Skipped, saying why, without nginx,
openssl, PostgreSQL or psycopg.

A process may die between a commit and its ``NOTIFY``: the move is stored, but the
other processes never hear of it. The player's socket, opening again elsewhere, makes
it known (``_opened_match`` in ``server/play/routes.py``): two or three apps on one
PostgreSQL database, the commit made with the fan-out's publishing left out. And a move
notified to a process while a socket opens there, between its reading the match and its
watching it (the notification then finds nobody watching and is passed over), reaches
that socket.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from stairgames.bench.postgresql import PostgreSQL, PostgreSQLMissingError
from stairgames.bench.site import Site, SiteMissingError, running_site
from stairgames.bench.site_load import FIRST_MOVES, OFFER, Game, Plan, move_of_play, run, summarize
from stairgames.server.base.store import off_loop
from stairgames.server.play.match import Match
from tests.postgresql_helpers import (
    AN_HOUR,
    DEADLINE,
    fanout_of,
    postgresql_server,
    receive_until_within,
    two_servers,
)
from tests.server_helpers import connect, running
from tests.test_server_fanout_postgresql import moved, online_game

GAMES = 10
MOVES = 8


@contextlib.contextmanager
def site_or_skip(folder: Path) -> Iterator[Site]:
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install psycopg[binary])")
    with contextlib.ExitStack() as stack:
        try:
            site = stack.enter_context(running_site(folder, servers=2, workers=1, fsync=False))
        except (PostgreSQLMissingError, SiteMissingError) as exc:
            pytest.skip(f"{exc}: skipped")
        yield site


@pytest.mark.services
@pytest.mark.slow
def test_every_game_goes_on_through_the_survivor_when_a_server_is_killed(
    tmp_path: Path,
) -> None:
    with site_or_skip(tmp_path) as site:
        # think 0: each player moves as soon as it may, but no game moves past its
        # second move before the kill (the run holds them), so every game is under way
        games, _ = run(site, GAMES, MOVES, Plan(think=0.0, fault="kill-worker"), hold=True)
        # (the run gives up on a game that never makes its first moves, and then kills
        # nothing: say so, with how far each game came, rather than fail on the poll)
        assert games[0].fault.at is not None, (
            f"no worker was killed: moves per game {[len(game.history) for game in games]}"
        )
        killed = site.servers[0]
        assert killed.process.poll() is not None  # it is gone (no supervisor starts it)
    result = summarize(games, 1.0)
    assert result.unfinished == 0, unaccounted(games)
    # (this failed once under load with 79 moves: say which move of which game its
    # sender never saw accepted, rather than a bare count)
    assert result.moves == GAMES * MOVES, unaccounted(games)
    assert result.lost == 0 and result.duplicated == 0, unaccounted(games)
    # the seats whose socket was on the killed server connected again, through nginx,
    # to the survivor, were sent the game as it was and went on
    assert result.reconnections > 0
    assert len(result.resumed) == result.reconnections
    assert result.still_cut == 0
    assert all(len(game.history) == MOVES for game in games)
    assert all(len(game.history) > FIRST_MOVES for game in games)


def unaccounted(games: list[Game]) -> str:
    """Each game whose moves are not all accepted, received by both seats and in its
    history: what its clients saw of each move (who sent it, who received it)."""
    lines = []
    for game in games:
        moves = range(max(len(game.history), MOVES))
        seen = [
            f"{index}:{game.history[index] if index < len(game.history) else '-'}"
            f" sent by {game.sent[index][1] if index in game.sent else '-'}"
            f"{' accepted' if index in game.accepted else ''}"
            f" received by {[seat for seat in (0, 1) if (index, seat) in game.received]}"
            for index in moves
        ]
        if len(game.accepted) != MOVES or game.lost() or game.duplicated():
            lines.append(
                f"game {game.number} ({game.match}): finished {sorted(game.finished)}, "
                f"connections {game.connections}, refused {game.refused}; " + "; ".join(seen)
            )
    return "\n".join(lines) or "every game accounted for"


@pytest.fixture(scope="module")
def postgresql() -> Iterator[PostgreSQL]:
    with postgresql_server() as server:
        yield server


def commit_untold(client: TestClient, match_id: str, seat: int) -> int:
    """A move of ``seat`` committed by ``client``'s process with no notification sent
    (as if it died right after the commit): the new event."""
    service = client.app.state.hub.service  # type: ignore[attr-defined]
    publish = fanout_of(client).published
    service.committed.remove(publish)
    try:
        match = service.follow(service.get(match_id))  # the join made on the other
        state = match.state
        service.move(match, seat, state.action_to_string(state.legal_actions()[0]))
    finally:
        service.committed.append(publish)
    return int(match.event)


@pytest.mark.parametrize("back_on", ["the survivor", "a new process"])
def test_a_move_whose_notification_was_lost_reaches_the_opponent_once_its_player_is_back(
    tmp_path: Path, postgresql: PostgreSQL, back_on: str
) -> None:
    with two_servers(tmp_path, postgresql.url) as (first, second):
        match, light_token, dark_token = online_game(first, second)
        with connect(second, f"/ws/matches/{match}?token={dark_token}") as dark:
            before = receive_until_within(dark, lambda m: m["type"] == "state", DEADLINE)
            event = commit_untold(first, match, 0)  # light's move; then "first" dies
            with contextlib.ExitStack() as stack:
                where = second
                if back_on == "a new process":
                    where = stack.enter_context(
                        running(tmp_path / "c", database_url=postgresql.url, follow_seconds=AN_HOUR)
                    )
                with connect(where, f"/ws/matches/{match}?token={light_token}") as light:
                    mine = receive_until_within(light, lambda m: m["type"] == "state", DEADLINE)
                    assert mine["event"] == event and mine["to_act"] == 1
                    theirs = receive_until_within(dark, moved(before["event"]), DEADLINE)
                    assert theirs["event"] == event and theirs["history"] == mine["history"]


def test_a_move_notified_while_a_socket_opens_reaches_that_socket(
    tmp_path: Path, postgresql: PostgreSQL, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A socket opening on one server reads its match, then starts watching it. A move
    committed on the other server in between is notified to a process where nobody
    watches the match yet, so the notification is passed over (``_notified``); the
    socket must still get the move, or its player waits for ever (a game of
    ``test_every_game_goes_on_through_the_survivor_when_a_server_is_killed`` stalled so,
    under load, after its first move). The move is committed, and its notification
    delivered, right after the opening's read."""
    with two_servers(tmp_path, postgresql.url) as (first, second):
        match, _light_token, dark_token = online_game(first, second)
        service = second.app.state.hub.service  # type: ignore[attr-defined]
        read = service.follow_async
        committed: list[int] = []

        async def read_then_a_move_elsewhere(known: Match) -> Match:
            fresh: Match = await read(known)
            if not committed and known.id == match:
                # light's, on the first (its commit in a thread: this runs on second's loop)
                committed.append(await off_loop(commit_untold, first, match, 0))
                fanout_of(second)._notified(f"{match}:{committed[0]}")  # nobody watches
            return fresh

        monkeypatch.setattr(service, "follow_async", read_then_a_move_elsewhere)
        with connect(second, f"/ws/matches/{match}?token={dark_token}") as dark:
            seen = receive_until_within(dark, lambda m: m["type"] == "state", DEADLINE)
            if seen["event"] < committed[0]:  # its first view was read before the move
                seen = receive_until_within(dark, moved(seen["event"]), DEADLINE)
            assert seen["event"] == committed[0] and seen["to_act"] == 1
            assert len(seen["history"]) == 1


@pytest.mark.slow
def test_the_load_clients_never_offer_to_end_a_game_by_agreement() -> None:
    """An accepted offer (S7) would end a game short of the moves the fault test counts
    on; the clients draw their moves among the others."""
    rng = random.Random(5)
    legal = ["a1-b2", "c3-d4", OFFER]
    drawn = {move_of_play(legal, rng) for _ in range(200)}
    assert drawn == {"a1-b2", "c3-d4"}
