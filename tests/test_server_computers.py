"""Computer players against hostile visitors: only the offered players, and only those
that can play the game, are accepted; every move has a deadline the pool enforces by
killing its worker; a failure is told in the view and not retried at the same event;
the workers die with the server, even by ``kill -9``."""

from __future__ import annotations

import asyncio
import logging
import os
import select
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import pytest

from stairgames.agents.levels import LEVEL_NAMES
from stairgames.core.registry import game_names, load
from stairgames.server.base.settings import Settings
from stairgames.server.play import computer
from stairgames.server.play.computer import ComputerError, ComputerPool, ComputerTimeoutError
from stairgames.server.play.seats import parse_seat
from tests.server_helpers import connect, new_match, receive_until, running, seat_get, token_of

ROOT = Path(__file__).resolve().parent.parent
ENDLESS = "mcts:iterations=1000000000000"
"""A player that thinks for ever (a trillion iterations)."""
NOT_OFFERED = "unknown_level"
CANNOT_PLAY = "computer_cannot_play"
FAILED = "computer_failed"
OVERRAN = "computer_overran"
GUARD = 120.0
"""How long a test waits for a process's end before it gives up (a guard against
hanging, never a measured time)."""


def ended(pid: int, guard: float = GUARD) -> bool:
    """Whether process ``pid`` ends (or has ended) within ``guard`` seconds, waited for
    on its pidfd (an event, not a poll)."""
    try:
        pidfd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        readable, _, _ = select.select([pidfd], [], [], guard)
        return bool(readable)
    finally:
        os.close(pidfd)


def matches_stored(data_dir: Path) -> int:
    with sqlite3.connect(data_dir / "stairgames.db") as db:
        count: int = db.execute("SELECT count(*) FROM matches").fetchone()[0]
    return count


# ----- which players a match may have --------------------------------------------------


@pytest.mark.parametrize(
    ("game", "player"),
    [
        ("stairs", "computer:mcts:time=3600"),
        ("stairs", f"computer:{ENDLESS}"),
        ("stairs", ENDLESS),
        ("city_of_stairs", "computer:perfect"),
        ("city_of_stairs", "computer:alphabeta"),
        ("ishigaki_race", "alphabeta"),
    ],
)
def test_a_browser_may_choose_only_a_level(tmp_path: Path, game: str, player: str) -> None:
    seats = ["human"] * (load(game).num_players() - 1) + [player]
    with running(tmp_path, computer_players=Settings().computer_players) as client:
        response = client.post("/api/matches", json={"game": game, "seats": seats})
        assert client.app.state.hub.service.cached_ids() == set()  # type: ignore[attr-defined]
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == NOT_OFFERED
    assert error["args"]["seat"] == len(seats) - 1
    assert error["args"]["levels"]["names"] == [{"id": level} for level in LEVEL_NAMES]
    assert "easy, medium, hard, expert" in error["message"]
    assert matches_stored(tmp_path) == 0


@pytest.mark.parametrize(
    ("game", "player", "reason"),
    [
        ("city_of_stairs", "computer:perfect", "the perfect player needs a solved game"),
        ("city_of_stairs", "computer:alphabeta", "alphabeta plays two-player games"),
        ("ishigaki_race", "alphabeta", "alphabeta plays two-player games"),
    ],
)
def test_a_player_that_cannot_play_the_game_is_refused_when_the_match_is_made(
    tmp_path: Path, game: str, player: str, reason: str
) -> None:
    """Even where the server offers more players than the levels."""
    offered = (*LEVEL_NAMES, "random", "perfect", "alphabeta")
    seats = [player] + ["human"] * (load(game).num_players() - 1)
    with running(tmp_path, computer_players=offered) as client:
        response = client.post("/api/matches", json={"game": game, "seats": seats})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == CANNOT_PLAY
    assert error["args"]["seat"] == 0 and error["args"]["game"] == {"id": load(game).info().title}
    assert error["args"]["reason"]["id"].startswith(reason)
    assert reason in error["message"]
    assert matches_stored(tmp_path) == 0


@pytest.mark.parametrize("game", game_names())
def test_every_level_can_play_every_game(game: str) -> None:
    for level in LEVEL_NAMES:
        assert parse_seat(f"computer:{level}", 1, load(game), LEVEL_NAMES) == ("computer", level)


# ----- the deadline ----------------------------------------------------------------------


class Clock:
    """The pool's deadlines, each expiring only when the test says so."""

    def __init__(self) -> None:
        self.deadlines: asyncio.Queue[tuple[float, asyncio.Event]] = asyncio.Queue()

    async def expire(self, seconds: float) -> None:
        due = asyncio.Event()
        self.deadlines.put_nowait((seconds, due))
        await due.wait()

    async def next(self, thinking: Awaitable[Any]) -> tuple[float, asyncio.Event]:
        """The next deadline the pool waits for (failing if ``thinking`` ends first)."""
        waiting = asyncio.ensure_future(self.deadlines.get())
        ended_first = asyncio.ensure_future(thinking)
        done, _ = await asyncio.wait({waiting, ended_first}, return_when=asyncio.FIRST_COMPLETED)
        if waiting not in done:
            waiting.cancel()
            raise AssertionError(f"the move ended before its deadline: {ended_first.result()}")
        return waiting.result()


def test_a_computer_over_its_deadline_is_killed_and_the_next_move_is_thought() -> None:
    """A real worker thinks for ever; once prepared it has the move's deadline, and when
    that expires (on the test's clock) the worker is killed, and the next job on the same
    pool gets a new one that answers."""

    async def scenario() -> None:
        clock = Clock()
        pool = ComputerPool(1, move_seconds=7.0, prepare_seconds=300.0, expire=clock.expire)
        try:
            thinking = asyncio.ensure_future(pool.choose("stairs", {}, ENDLESS, 0, [], 1))
            seconds, _ = await clock.next(thinking)
            assert seconds == 300.0  # starting and preparing
            seconds, due = await clock.next(thinking)  # prepared: it searches now
            assert seconds == 7.0
            [stuck] = pool.pids()
            due.set()
            with pytest.raises(ComputerTimeoutError) as overran:
                await thinking
            assert overran.value.seconds == 7.0
            assert pool.pids() == []
            assert ended(stuck)
            move = await pool.choose("stairs", {}, "random", 0, [], 1)
            state = load("stairs").new_initial_state()
            assert move in {state.action_to_string(a) for a in state.legal_actions()}
            assert len(pool.pids()) == 1 and pool.pids() != [stuck]
        finally:
            pool.shutdown()

    asyncio.run(scenario())


def test_a_failing_player_does_not_cost_its_worker() -> None:
    async def scenario() -> None:
        pool = ComputerPool(1)
        try:
            with pytest.raises(ComputerError, match="alphabeta plays two-player games") as failed:
                await pool.choose("ishigaki_race", {}, "alphabeta", 0, [], 1)
            assert "Traceback" in failed.value.details
            [worker] = pool.pids()
            assert await pool.choose("stairs", {}, "random", 0, [], 1)
            assert pool.pids() == [worker]
        finally:
            pool.shutdown()

    asyncio.run(scenario())


def test_stopping_the_server_kills_a_thinking_computer(tmp_path: Path) -> None:
    """Shutting down does not wait for a move being thought: its worker is killed."""
    with running(tmp_path, computer_workers=1, computer_players=(ENDLESS,)) as client:
        created = new_match(client, "stairs", [ENDLESS, "human"])
        pool = client.app.state.hub.computers  # type: ignore[attr-defined]
        for _ in range(100):  # each request lets the event loop start the computer
            if pool.pids():
                break
            assert client.get(f"/api/matches/{created['match']}").json()["thinking"]
        [worker] = pool.pids()
    assert ended(worker)


# ----- a failure in the match's view ----------------------------------------------------


def test_a_failing_computer_is_told_in_the_view_and_not_asked_again_at_that_event(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    calls: list[tuple[Any, ...]] = []
    real = computer.choose_move

    def flaky(*job: Any) -> str:
        calls.append(job)
        if len(calls) == 1:
            raise RuntimeError("the player broke")
        return real(*job)

    monkeypatch.setattr(computer, "choose_move", flaky)
    caplog.set_level(logging.ERROR, logger="stairgames.server.play.hub")
    with running(tmp_path) as client:
        created = new_match(client, "stairs", ["human", "computer:easy"])
        match, token = created["match"], token_of(created, 0)
        with connect(client, f"/ws/matches/{match}?token={token}") as ws:
            view = receive_until(ws, lambda m: m["type"] == "state")
            ws.send_json({"type": "move", "move": view["legal"][0], "event": view["event"]})
            failed = receive_until(ws, lambda m: m["type"] == "state" and m["computer_error"])
        assert failed["event"] == 1 and failed["to_act"] == 1 and not failed["thinking"]
        error = failed["computer_error"]
        assert error["code"] == FAILED and error["args"] == {"player": {"id": "easy"}}
        for _ in range(5):  # every request loads the match; none asks the computer again
            again = seat_get(client, f"/api/matches/{match}?token={token}").json()
            assert again["computer_error"] == error and not again["thinking"]
        assert len(calls) == 1
        with connect(client, f"/ws/matches/{match}?token={token}") as ws:
            ws.send_json({"type": "undo", "event": 1})  # a later event: it may try again
            undone = receive_until(ws, lambda m: m["type"] == "state" and m["event"] == 2)
            assert undone["computer_error"] is None and undone["to_act"] == 0
            ws.send_json({"type": "move", "move": undone["legal"][0], "event": 2})
            replied = receive_until(ws, lambda m: m["type"] == "state" and m["event"] == 4)
    assert replied["computer_error"] is None and replied["to_act"] == 0
    assert len(calls) == 2
    failures = [r for r in caplog.records if "failed in match" in r.getMessage()]
    assert len(failures) == 1


class OverrunningPool(ComputerPool):
    """A pool whose every move overruns its deadline (counted)."""

    def __init__(self) -> None:
        super().__init__(0)
        self.asked = 0

    async def choose(
        self,
        game_name: str,
        options: dict[str, Any],
        player: str,
        seat: int,
        moves: list[str],
        seed: int,
        start_position: str | None = None,
        **turn: Any,
    ) -> str:
        self.asked += 1
        raise ComputerTimeoutError(30.0)


def test_a_computer_that_overran_is_told_in_the_view(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        hub.computers = pool = OverrunningPool()
        created = new_match(client, "stairs", ["computer:hard", "human"])
        url = f"/ws/matches/{created['match']}?token={token_of(created, 1)}"
        with connect(client, url) as ws:
            told = receive_until(ws, lambda m: m["type"] == "state" and m["computer_error"])
        for _ in range(3):
            assert client.get(f"/api/matches/{created['match']}").json()["computer_error"]
    assert told["computer_error"]["code"] == OVERRAN
    assert told["computer_error"]["args"] == {"player": {"id": "hard"}, "seconds": 30}
    assert told["to_act"] == 0 and told["history"] == [] and not told["thinking"]
    assert pool.asked == 1


# ----- the workers die with the server ---------------------------------------------------

SERVER = """
import asyncio
from stairgames.server.play.computer import ComputerPool

async def main():
    async def expire(seconds):
        if seconds == 999.0:  # the move's deadline: the worker is prepared and searches
            print(pool.pids()[0], flush=True)
        await asyncio.Event().wait()

    pool = ComputerPool(1, move_seconds=999.0, prepare_seconds=1000.0, expire=expire)
    await pool.choose("stairs", {}, "mcts:iterations=1000000000000", 0, [], 1)

asyncio.run(main())
"""


def test_computer_workers_die_when_the_server_is_killed() -> None:
    """A process with a pool thinks for ever; ``kill -9`` of it ends its worker too."""
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    worker = None
    try:
        assert server.stdout is not None
        line = server.stdout.readline()  # once its worker is thinking
        assert line.strip().isdigit(), f"the server said {line!r}"
        worker = int(line)
        pidfd = os.pidfd_open(worker)
        try:
            server.send_signal(signal.SIGKILL)
            server.wait()
            readable, _, _ = select.select([pidfd], [], [], GUARD)
        finally:
            os.close(pidfd)
        assert readable, "the worker went on thinking after its server was killed"
    finally:
        server.kill()
        server.wait()
        if worker is not None and not ended(worker, 0):
            os.kill(worker, signal.SIGKILL)
