"""The computer's analysis in the web app (issue 31, ``server/analysis/analysis.py``): a finished
game's analysis (refused before the end, progress then the result over the match's
WebSocket, made once and shared, stored and carried by the record, rate-limited), the
analysis board's positions (``POST /api/analysis/position``, bad input refused), and
matches started from a position (``"position"`` in ``POST /api/matches``)."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stairgames.core.record import GameRecord, make_record
from stairgames.core.registry import load
from stairgames.server.base.limits import Rate
from stairgames.server.play.computer import ComputerError, ComputerPool
from tests.server_helpers import JSON, connect, new_match, receive_until, running, token_of

TINY = {"analysis_iterations": 4, "analysis_position_iterations": 8}
"""Budgets that make an analysis take moments."""
STAIRS_3 = "D,L,D/L,D,L/D,L,D L -"
"""The start of Stairs 3×3 (light to move, and light wins it)."""


def finished(client: TestClient, game: str = "stairs", **options: Any) -> str:
    """A match of two random computer players played to its end: its id."""
    options = options or {"size": 3}
    created = new_match(client, game, ["computer:random", "computer:random"], **options)
    match = str(created["match"])
    deadline = time.monotonic() + 60
    while client.get(f"/api/matches/{match}").json()["result"] is None:
        assert time.monotonic() < deadline, "the game did not end"
        time.sleep(0.05)
    return match


def wait_done(client: TestClient, match: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while True:
        answer = client.get(f"/api/matches/{match}/analysis")
        if answer.status_code == 200 and answer.json()["status"] == "done":
            data: dict[str, Any] = answer.json()
            return data
        assert time.monotonic() < deadline, answer.text
        time.sleep(0.05)


def error_code(answer: Any) -> str:
    return str(answer.json()["error"]["code"])


# ----- a finished game -------------------------------------------------------------------


def test_an_unfinished_game_is_not_analysed(tmp_path: Path) -> None:
    with running(tmp_path, **TINY) as client:
        created = new_match(client, "stairs", ["human", "computer:random"], size=3)
        match = created["match"]
        refused = client.post(f"/api/matches/{match}/analysis", headers=JSON)
        assert refused.status_code == 409
        assert error_code(refused) == "analysis_too_early"
        none = client.get(f"/api/matches/{match}/analysis")
        assert none.status_code == 200
        assert none.json() == {"match": match, "status": "none"}
        assert "analysis" not in client.get(f"/api/matches/{match}/record").json()
        assert client.post("/api/matches/nothing-here/analysis", headers=JSON).status_code == 404
        assert client.get("/api/matches/nothing-here/analysis").status_code == 404


def test_city_of_stairs_ended_by_a_resignation_is_not_analysed(tmp_path: Path) -> None:
    """Its hidden cards would be needed: only a game its rules ended is analysed."""
    with running(tmp_path, **TINY) as client:
        created = new_match(client, "city_of_stairs", ["human", "computer:random"])
        url = f"/ws/matches/{created['match']}?token={token_of(created, 0)}"
        with connect(client, url) as ws:
            view = receive_until(ws, lambda m: m["type"] == "state")
            ws.send_json({"type": "resign", "event": view["event"]})
            receive_until(ws, lambda m: m["type"] == "state" and m["result"] is not None)
        refused = client.post(f"/api/matches/{created['match']}/analysis", headers=JSON)
        assert refused.status_code == 409
        assert error_code(refused) == "analysis_hidden"


@pytest.mark.slow
def test_the_progress_then_the_result_reach_the_watchers(tmp_path: Path) -> None:
    with running(tmp_path, **TINY) as client:
        match = finished(client)
        with connect(client, f"/ws/matches/{match}") as ws:  # a spectator
            receive_until(ws, lambda m: m["type"] == "state")
            started = client.post(f"/api/matches/{match}/analysis", headers=JSON)
            assert started.status_code == 200
            assert started.json()["status"] in ("running", "done")
            said = []
            while True:
                message = receive_until(ws, lambda m: m["type"] == "analysis")
                said.append(message)
                if message["status"] != "running":
                    break
        assert said[0]["status"] == "running" and said[0]["match"] == match
        last = said[-1]
        assert last["status"] == "done", last
        analysis = last["analysis"]
        assert last["done"] == last["total"] == analysis["decisions"] == len(analysis["moves"])
        done = [m["done"] for m in said]
        assert done == sorted(done)  # the progress only grows
        history = client.get(f"/api/matches/{match}").json()["history"]
        assert analysis["plies"] == len(history)
        assert [m["move"] for m in analysis["moves"]] == history  # no chance in Stairs
        assert analysis["budget"] == {"iterations": 4, "exact_positions": 800, "seed": 0}
        assert analysis["seats"] == ["light", "dark"]
        for move in analysis["moves"]:  # 3×3: every number exact
            assert move["proven"]
            assert move["shares_after"][move["mover"]] == move["after"]
            assert sum(move["shares_after"]) == pytest.approx(1.0)
            assert (move["mark"] is None) == (move["better"] is None)


def test_an_analysis_is_made_once_and_shared(tmp_path: Path) -> None:
    with running(tmp_path, **TINY) as client:
        pool = client.app.state.hub.computers  # type: ignore[attr-defined]
        asked: list[str] = []
        real = pool.run_task

        async def counted(task: str, arguments: dict[str, Any], **more: Any) -> Any:
            asked.append(task)
            await asyncio.sleep(0.3)  # long enough for the second request to join it
            return await real(task, arguments, **more)

        pool.run_task = counted
        match = finished(client)
        first = client.post(f"/api/matches/{match}/analysis", headers=JSON).json()
        second = client.post(f"/api/matches/{match}/analysis", headers=JSON).json()
        assert first["status"] == second["status"] == "running"
        stored = wait_done(client, match)
        again = client.post(f"/api/matches/{match}/analysis", headers=JSON).json()
        assert again == stored  # the stored one, not made again
        assert asked == ["analyse_record"]
        # a second server on the same database finds it stored
    with running(tmp_path, **TINY) as client:
        assert client.get(f"/api/matches/{match}/analysis").json() == stored
        record = client.get(f"/api/matches/{match}/record").json()
        assert record["analysis"] == stored["analysis"]
        assert GameRecord.from_json(json.dumps(record)).moves == tuple(
            client.get(f"/api/matches/{match}").json()["history"]
        )  # a record with its analysis still loads


def test_a_failed_analysis_is_told_and_may_be_asked_again(tmp_path: Path) -> None:
    with running(tmp_path, **TINY) as client:
        pool = client.app.state.hub.computers  # type: ignore[attr-defined]
        real = pool.run_task
        failures = [ComputerError("the worker died")]

        async def failing(task: str, arguments: dict[str, Any], **more: Any) -> Any:
            if failures:
                raise failures.pop()
            return await real(task, arguments, **more)

        pool.run_task = failing
        match = finished(client)
        with connect(client, f"/ws/matches/{match}") as ws:
            receive_until(ws, lambda m: m["type"] == "state")
            client.post(f"/api/matches/{match}/analysis", headers=JSON)
            told = receive_until(ws, lambda m: m["type"] == "analysis" and m["status"] != "running")
        assert told["status"] == "failed"
        assert told["error"]["code"] == "analysis_failed"
        assert client.get(f"/api/matches/{match}/analysis").json()["status"] == "none"
        client.post(f"/api/matches/{match}/analysis", headers=JSON)
        assert wait_done(client, match)["analysis"]["decisions"] > 0


def test_starting_analyses_is_limited_per_client(tmp_path: Path) -> None:
    with running(tmp_path, analyses_per_minute=Rate(per_minute=1, burst=2), **TINY) as client:
        match = finished(client)
        for _ in range(2):
            assert client.post(f"/api/matches/{match}/analysis", headers=JSON).status_code == 200
        refused = client.post(f"/api/matches/{match}/analysis", headers=JSON)
        assert refused.status_code == 429
        assert int(refused.headers["retry-after"]) > 0
        assert client.get(f"/api/matches/{match}/analysis").status_code == 200  # reading is free
        plain = client.post(f"/api/matches/{match}/analysis", content=b"{}")
        assert plain.status_code == 415  # JSON only, as every request that changes something


@pytest.mark.slow
def test_the_pools_workers_run_an_analysis_with_its_progress(tmp_path: Path) -> None:
    """A real worker process: the task's progress comes back message by message."""
    game = load("stairs", size=3)
    state = game.new_initial_state()
    for move in ("b1-b2", "a1-a2", "c2-c3", "a3-b3"):
        state.apply_move(move)
    record = make_record(state).to_json()
    seen: list[tuple[int, int]] = []

    async def analyse() -> Any:
        pool = ComputerPool(1, lanes={"analysis": 1})
        try:
            return await pool.run_task(
                "analyse_record",
                {"record": record, "iterations": 4, "seed": 0},
                lane="analysis",
                seconds=120,
                progress=lambda done, total: seen.append((done, total)),
            )
        finally:
            pool.shutdown()

    data = asyncio.run(analyse())
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert [move["move"] for move in data["moves"]] == ["b1-b2", "a1-a2", "c2-c3", "a3-b3"]


# ----- the analysis board ----------------------------------------------------------------


def position(client: TestClient, **body: Any) -> Any:
    return client.post("/api/analysis/position", headers=JSON, json=body)


def test_the_analysis_board_gives_a_positions_moves_board_and_value(tmp_path: Path) -> None:
    with running(tmp_path, **TINY) as client:
        answer = position(client, game="stairs", position=STAIRS_3)
        assert answer.status_code == 200, answer.text
        data = answer.json()
        assert data["options"]["size"] == 3  # the position text says its size
        assert data["to_act"] == 0 and not data["chance"] and not data["over"]
        assert "b1-b2" in data["legal"] and data["board"]["size"] == 3
        assert data["current"] == STAIRS_3
        found = data["evaluation"]
        assert found["proven"] and found["shares"] == [1.0, 0.0]
        assert found["perfect"]["winner"] == 0 and found["perfect"]["plies"] > 0
        # moves for both sides, then the end
        line = [found["best"]]
        while True:
            after = position(client, game="stairs", position=STAIRS_3, moves=line).json()
            if after["over"]:
                break
            line.append(after["evaluation"]["best"])
        assert after["result"]["winners"] == [0] and after["evaluation"] is None
        assert len(line) == found["perfect"]["plies"]  # the perfect line, as it said


def test_the_analysis_board_gives_ishigaki_races_stop_and_roll(tmp_path: Path) -> None:
    with running(tmp_path, **TINY) as client:
        data = position(client, game="ishigaki_race", moves=["start:0", "die:2"]).json()
        assert data["legal"] == ["stop", "roll"] or sorted(data["legal"]) == ["roll", "stop"]
        actions = {a["move"]: a["shares"] for a in data["evaluation"]["actions"]}
        assert set(actions) == {"stop", "roll"} and data["evaluation"]["proven"]
        best = data["evaluation"]["best"]
        assert actions[best][0] == max(shares[0] for shares in actions.values())
        rolled = position(client, game="ishigaki_race", moves=["start:0", "die:2", "roll"]).json()
        assert rolled["chance"] and len(rolled["outcomes"]) == 6 and rolled["legal"] == []
        assert rolled["evaluation"]["proven"] and len(rolled["evaluation"]["actions"]) == 6


def test_the_analysis_board_refuses_bad_input(tmp_path: Path) -> None:
    with running(tmp_path, **TINY) as client:
        cases: list[tuple[dict[str, Any], str]] = [
            ({"game": "chess"}, "invalid_option"),
            ({"game": "stairs", "options": []}, "bad_position_request"),
            ({"game": "stairs", "options": {"size": 99}}, "invalid_option"),
            ({"game": "stairs", "position": "not a position"}, "invalid_position"),
            ({"game": "stairs", "position": "x" * 3000}, "bad_position_text"),
            ({"game": "stairs", "moves": "b1-b2"}, "bad_moves"),
            ({"game": "stairs", "moves": [3]}, "bad_moves"),
            ({"game": "stairs", "moves": ["b1-b2", "z9-z8"]}, "move_not_playable"),
            ({"game": "stairs", "moves": ["b1-b2", "b2-b3"]}, "move_not_playable"),
        ]
        for body, expected in cases:
            answer = position(client, **body)
            assert answer.status_code == 400, (body, answer.text)
            assert error_code(answer) == expected, (body, answer.json())
        illegal = position(client, game="stairs", moves=["b1-b2", "b2-b3"]).json()["error"]
        assert illegal["args"]["number"] == 2 and illegal["args"]["move"] == "b2-b3"
        too_long = client.post(
            "/api/analysis/position",
            headers=JSON,
            content=b'{"game": "stairs", "x": "' + b"y" * 40_000 + b'"}',
        )
        assert too_long.status_code == 413
        assert client.post("/api/analysis/position", content=b"{}").status_code == 415


def test_the_analysis_board_is_limited_per_client(tmp_path: Path) -> None:
    with running(tmp_path, positions_per_minute=Rate(per_minute=1, burst=2), **TINY) as client:
        for _ in range(2):
            assert position(client, game="stairs", position=STAIRS_3).status_code == 200
        assert position(client, game="stairs", position=STAIRS_3).status_code == 429


def test_city_of_stairs_on_the_analysis_board_says_its_cards_are_hidden(tmp_path: Path) -> None:
    with running(tmp_path, **TINY) as client:
        data = position(client, game="city_of_stairs").json()
        assert data["hidden_information"] and data["chance"]  # the deal
        assert data["evaluation"] is not None


# ----- a match from a position ---------------------------------------------------------


def test_a_match_starts_from_a_position_and_the_computer_plays_on(tmp_path: Path) -> None:
    with running(tmp_path, **TINY) as client:
        after = position(client, game="stairs", position=STAIRS_3, moves=["b1-b2"]).json()
        created = client.post(
            "/api/matches",
            headers=JSON,
            json={
                "game": "stairs",
                "options": after["options"],
                "seats": ["computer:random", "human"],
                "position": after["current"],
            },
        )
        assert created.status_code == 200, created.text
        match = created.json()["match"]
        view = client.get(f"/api/matches/{match}").json()
        assert view["board"]["size"] == 3 and view["history"] == []
        assert view["to_act"] == 1  # dark: the position's seat to move, the human
        url = f"/ws/matches/{match}?token={created.json()['seats'][0]['token']}"
        with connect(client, url) as ws:
            state = receive_until(ws, lambda m: m["type"] == "state")
            ws.send_json({"type": "move", "move": state["legal"][0], "event": state["event"]})
            state = receive_until(ws, lambda m: m["type"] == "state" and len(m["history"]) == 2)
        assert state["to_act"] in (1, None)  # the computer answered from the position
        record = client.get(f"/api/matches/{match}/record").json()
        assert record["start_position"] == after["current"]


def test_a_match_from_a_position_is_refused_where_it_cannot_start(tmp_path: Path) -> None:
    with running(tmp_path, **TINY) as client:

        def create(game: str, position: Any, **options: Any) -> Any:
            return client.post(
                "/api/matches",
                headers=JSON,
                json={
                    "game": game,
                    "options": options,
                    "seats": ["human", "computer:random"],
                    "position": position,
                },
            )

        hidden = create("city_of_stairs", "anything")
        assert hidden.status_code == 400
        assert error_code(hidden) == "position_hidden"
        assert create("stairs", "not a position", size=3).status_code == 400
        assert create("stairs", 42, size=3).status_code == 400
        assert create("stairs", STAIRS_3, size=4).status_code == 400  # a 3×3 board on 4×4
        state = load("stairs", size=3).state_from_position(STAIRS_3)
        line = position(client, game="stairs", position=STAIRS_3).json()["evaluation"]["line"]
        for move in line:
            if state.is_terminal():
                break
            state.apply_move(move)
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
        over = create("stairs", state.position(), size=3)
        assert over.status_code == 400
        assert error_code(over) == "position_over"
