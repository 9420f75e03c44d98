"""Puzzles on the site (issue 52, ``server/puzzles/``): each route, the ratings of first
attempts only, the streaks, the daily puzzle by the server's clock, hostile input, and
the solution kept hidden until the attempt ends.

The puzzles here are built by hand with the contract's dataclasses (on real positions of
Stairs and 27, so that the judge can replay their moves), and given to the running app
as its catalogue; their verdicts are the test's, not proven.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

import stairgames
from stairgames.core.record import GameRecord, replay
from stairgames.puzzles.model import Answer, Node, Puzzle, write_puzzles
from stairgames.server.base.limits import Rate
from stairgames.server.people.contract import Rating as RatingModel
from stairgames.server.puzzles.contract import (
    DailyPuzzle,
    MoveAnswer,
    PuzzleOut,
    PuzzlePage,
    PuzzlesOfPlayer,
    StreakEnded,
)
from stairgames.server.puzzles.routes import PUZZLES
from stairgames.server.puzzles.service import (
    STREAK_START,
    ListedCatalogue,
    Puzzles,
    daily_puzzle,
    nearest,
)
from stairgames.server.puzzles.site import (
    CHECK_SECONDS,
    SiteCatalogue,
    offers_puzzles,
)
from tests.server_helpers import (
    JSON,
    FakeClock,
    connect,
    new_match,
    receive_until,
    running,
    token_of,
)

START = 1_800_000_000.0
Where = tuple[str, dict[str, Any], str]
"""A game, its options and a position."""
STAIRS_3: Where = ("stairs", {"size": 3}, "D,L,D/L,D,L/D,L,D L -")
TWENTY_SEVEN: Where = ("twenty_seven", {}, "RWWWWWWWWW/G/G/G/G/G/G/G/RBBBBBBBBB W")


def built(
    puzzle_id: str,
    rating: float,
    where: Where = STAIRS_3,
    source: dict[str, Any] | None = None,
) -> Puzzle:
    """A puzzle on a real position whose tree says (by hand): the first legal move is
    best, the defender's first legal reply follows, then the first legal move solves it;
    the second legal move at the start solves it at once ("also"); every other move is
    wrong, punished by a line of one move."""
    game, options, position = where
    state = stairgames.load(game, **options).state_from_position(position)
    solver = state.current_player()
    moves = [state.action_to_string(a) for a in state.legal_actions()]
    after = state.clone()
    after.apply_action(after.string_to_action(moves[0]))
    reply = after.action_to_string(after.legal_actions()[0])
    after.apply_action(after.string_to_action(reply))
    second = [after.action_to_string(a) for a in after.legal_actions()]
    win = tuple(1.0 if seat == solver else 0.0 for seat in range(2))
    loss = tuple(1.0 - share for share in win)

    def wrong(move: str) -> Answer:
        return Answer(move, "wrong", loss, 3, 1 - solver, (reply,), None, None)

    last = Node(
        (
            Answer(second[0], "best", win, 1, solver, (), None, None),
            *(wrong(move) for move in second[1:]),
        )
    )
    root = Node(
        (
            Answer(moves[0], "best", win, 3, solver, (reply, second[0]), reply, last),
            Answer(moves[1], "also", win, 3, solver, (), None, None),
            *(wrong(move) for move in moves[2:]),
        )
    )
    return Puzzle(
        id=puzzle_id,
        game=game,
        options=dict(options),
        position=position,
        solver=solver,
        goal="win",
        root=root,
        themes=("last_step",),
        rating=rating,
        source=source or {"kind": "self-play", "seed": 1, "ply": 0},
    )


LADDER = [built(f"stair{n:03d}", 500.0 + 100 * n) for n in range(20)]
"""Twenty Stairs puzzles rated 500 to 2400."""
SEVENS = [built(f"seven{n:03d}", 1000.0 + 100 * n, TWENTY_SEVEN) for n in range(10)]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def client(tmp_path: Path, clock: FakeClock) -> Iterator[TestClient]:
    with running(tmp_path, wall_clock=clock, puzzle_seed=7) as client:
        puzzles_of(client).catalogue = ListedCatalogue([*LADDER, *SEVENS])
        yield client


def puzzles_of(client: TestClient) -> Puzzles:
    assert isinstance(client.app, FastAPI)
    return PUZZLES.of(client.app)


def player(client: TestClient, name: str = "Solver") -> None:
    response = client.post("/api/me", json={"name": name}, headers=JSON)
    assert response.status_code == 200, response.text


def move(client: TestClient, puzzle_id: str, played: list[str], text: str) -> Any:
    return client.post(
        f"/api/puzzles/{puzzle_id}/moves", json={"played": played, "move": text}, headers=JSON
    )


def main_line(puzzle: Puzzle) -> list[str]:
    best = puzzle.root.best
    assert best.next is not None and best.reply is not None
    return [best.move, best.reply, best.next.best.move]


def boards_along(puzzle: Puzzle, line: list[str]) -> list[Any]:
    """The game's drawing for the solver of the start and of each position along
    ``line``."""
    from stairgames.core.registry import get_spec

    draw = get_spec(puzzle.game).web_view
    assert draw is not None
    state = stairgames.load(puzzle.game, **puzzle.options).state_from_position(puzzle.position)
    boards = [draw(state, puzzle.solver)]
    for played in line:
        state.apply_action(state.string_to_action(played))
        boards.append(draw(state, puzzle.solver))
    return boards


def wrong_move(puzzle: Puzzle) -> str:
    return next(answer.move for answer in puzzle.root.answers if answer.verdict == "wrong")


def by_id(puzzle_id: str) -> Puzzle:
    return next(p for p in [*LADDER, *SEVENS] if p.id == puzzle_id)


# ----- a puzzle to solve -----------------------------------------------------------------


def test_next_gives_an_anonymous_visitor_a_puzzle_near_1500_without_its_answers(
    client: TestClient,
) -> None:
    for _ in range(6):
        response = client.get("/api/puzzles/next?game=stairs")
        assert response.status_code == 200, response.text
        out = PuzzleOut.model_validate(response.json())
        assert abs(out.rating - 1500) <= 400
        assert out.played == [] and out.plays == 0 and out.success_rate is None
        puzzle = by_id(out.id)
        assert out.legal == [answer.move for answer in puzzle.root.answers]
        assert out.board is not None and out.board["size"] == 3
        assert out.goal_text == {"id": "{seat} to move and win", "args": {"seat": {"id": "light"}}}
        assert out.title == "Stairs" and out.solver_name == "light"
        assert "solution" not in response.json() and "tree" not in response.json()
    assert client.get("/api/puzzles/next?game=twenty_seven").json()["game"] == "twenty_seven"
    games = {client.get("/api/puzzles/next").json()["game"] for _ in range(12)}
    assert games == {"stairs", "twenty_seven"}  # "any": either game


def test_a_players_first_attempt_is_rated_and_counted_once(client: TestClient) -> None:
    player(client)
    puzzle = LADDER[10]  # 1500
    first, reply, last = main_line(puzzle)
    right = move(client, puzzle.id, [], first)
    assert right.status_code == 200, right.text
    answer = MoveAnswer.model_validate(right.json())
    assert answer.outcome == "right" and answer.reply == reply
    assert answer.played == [first, reply] and last in answer.legal
    assert answer.solution is None and answer.rating_change is None and answer.proof is None
    assert answer.solution_boards is None
    resumed = PuzzlePage.model_validate(client.get(f"/api/puzzles/{puzzle.id}").json())
    assert resumed.played == [first, reply] and resumed.legal == answer.legal
    assert resumed.solution is None and resumed.tree is None
    assert resumed.attempt is not None and not resumed.attempt.ended
    solved = MoveAnswer.model_validate(move(client, puzzle.id, [first, reply], last).json())
    assert solved.outcome == "solved" and solved.solution == [first, reply, last]
    assert solved.played == [first, reply, last] and solved.legal == []
    boards = boards_along(puzzle, [first, reply, last])
    assert solved.solution_boards == boards and len(set(map(str, boards))) == 4
    assert boards[-1] == solved.board
    assert solved.rating_change is not None
    assert solved.rating_change.before == 1500 and solved.rating_change.after > 1500
    page = PuzzlePage.model_validate(client.get(f"/api/puzzles/{puzzle.id}").json())
    assert page.solution == [first, reply, last] and page.tree == puzzle.root.to_json()
    assert page.solution_boards == boards
    assert page.attempt is not None and page.attempt.solved is True
    assert page.attempt.rating_change == solved.rating_change
    assert page.plays == 1 and page.success_rate == 1.0 and page.rating < 1500
    mine = PuzzlesOfPlayer.model_validate(client.get("/api/puzzles/me").json())
    assert mine.player is not None and mine.player.name == "Solver"
    assert mine.ratings["stairs"].rating == solved.rating_change.after
    assert mine.ratings["stairs"].games == 1
    # played again: judged alike, rated and counted no more
    again = MoveAnswer.model_validate(move(client, puzzle.id, [], wrong_move(puzzle)).json())
    assert again.outcome == "wrong" and again.rating_change is None
    assert again.solution == [first, reply, last]
    after = PuzzlesOfPlayer.model_validate(client.get("/api/puzzles/me").json())
    assert after.ratings == mine.ratings
    assert client.get(f"/api/puzzles/{puzzle.id}").json()["plays"] == 1


def test_a_wrong_first_move_is_told_with_its_proof_and_costs_rating(client: TestClient) -> None:
    player(client)
    puzzle = LADDER[10]
    wrong = wrong_move(puzzle)
    response = move(client, puzzle.id, [], wrong)
    answer = MoveAnswer.model_validate(response.json())
    assert answer.outcome == "wrong" and answer.reply is None and answer.legal == []
    assert answer.message == {
        "id": "after {move} {seat} wins in {plies}",
        "args": {
            "move": wrong,
            "seat": {"id": "dark"},
            "plies": {"id": "{count} ply", "plural": "{count} plies", "n": 3, "args": {"count": 3}},
        },
    }
    judged = puzzle.root.answer(wrong)
    assert judged is not None and answer.proof is not None
    assert answer.proof.model_dump() == {
        "move": wrong,
        "winner": judged.winner,
        "plies": judged.plies,
        "line": list(judged.line),
        "shares": list(judged.shares),
    }
    assert answer.solution == main_line(puzzle)
    assert answer.solution_boards == boards_along(puzzle, main_line(puzzle))
    assert answer.rating_change is not None
    assert answer.rating_change.before == 1500 and answer.rating_change.after < 1500
    page = client.get(f"/api/puzzles/{puzzle.id}").json()
    assert page["plays"] == 1 and page["success_rate"] == 0.0 and page["rating"] > 1500
    assert page["attempt"]["solved"] is False


def test_an_other_right_answer_solves_it_too(client: TestClient) -> None:
    player(client)
    puzzle = LADDER[10]
    also = puzzle.root.answers[1]
    answer = MoveAnswer.model_validate(move(client, puzzle.id, [], also.move).json())
    assert answer.outcome == "solved" and answer.rating_change is not None
    assert answer.solution == main_line(puzzle)


def test_an_anonymous_visitor_solves_without_a_rating(client: TestClient) -> None:
    puzzle = LADDER[3]
    first, reply, last = main_line(puzzle)
    assert move(client, puzzle.id, [], first).json()["outcome"] == "right"
    solved = MoveAnswer.model_validate(move(client, puzzle.id, [first, reply], last).json())
    assert solved.outcome == "solved" and solved.rating_change is None
    assert solved.solution == [first, reply, last]
    assert client.get("/api/me").json()["id"] is None  # no player was made
    assert client.get("/api/puzzles/me").json() == {"player": None, "ratings": {}, "streaks": {}}
    page = client.get(f"/api/puzzles/{puzzle.id}").json()
    assert page["plays"] == 0 and page["attempt"] is None
    assert page["solution"] is None and page["tree"] is None
    assert page["solution_boards"] is None


def give_up(client: TestClient, puzzle_id: str, played: list[str]) -> Any:
    return client.post(f"/api/puzzles/{puzzle_id}/give-up", json={"played": played}, headers=JSON)


def test_giving_up_a_first_attempt_shows_the_solution_and_is_rated_a_loss(
    client: TestClient,
) -> None:
    player(client)
    puzzle = LADDER[10]
    first, reply, _last = main_line(puzzle)
    out = PuzzlePage.model_validate(client.get(f"/api/puzzles/{puzzle.id}").json())
    assert out.rated is True
    assert move(client, puzzle.id, [], first).json()["outcome"] == "right"
    _error(give_up(client, puzzle.id, []), 409, "puzzle_out_of_step")  # it stands further on
    response = give_up(client, puzzle.id, [first, reply])
    assert response.status_code == 200, response.text
    answer = MoveAnswer.model_validate(response.json())
    assert answer.outcome == "gave_up" and answer.proof is None and answer.reply is None
    assert answer.message == {"id": "Not solved: you asked for the solution."}
    assert answer.played == [first, reply] and answer.legal == []
    assert answer.solution == main_line(puzzle)
    assert answer.solution_boards == boards_along(puzzle, main_line(puzzle))
    assert answer.board == move(client, puzzle.id, [], first).json()["board"]  # where it stood
    assert answer.rating_change is not None
    assert answer.rating_change.before == 1500 and answer.rating_change.after < 1500
    assert '"tree"' not in response.text and '"answers"' not in response.text
    page = PuzzlePage.model_validate(client.get(f"/api/puzzles/{puzzle.id}").json())
    assert page.attempt is not None and page.attempt.ended and page.attempt.solved is False
    assert page.attempt.rating_change == answer.rating_change and page.rated is False
    assert page.plays == 1 and page.success_rate == 0.0
    assert page.solution == main_line(puzzle) and page.tree == puzzle.root.to_json()
    # given up again (the attempt ended): shown again, rated and counted no more
    again = MoveAnswer.model_validate(give_up(client, puzzle.id, []).json())
    assert again.outcome == "gave_up" and again.rating_change is None
    mine = client.get("/api/puzzles/me").json()["ratings"]["stairs"]
    assert mine["games"] == 1 and mine["rating"] == answer.rating_change.after
    assert client.get(f"/api/puzzles/{puzzle.id}").json()["plays"] == 1


def test_giving_up_at_once_is_a_rated_loss_and_ends_a_streaks_count(
    client: TestClient,
) -> None:
    player(client)
    puzzle = LADDER[12]
    answer = MoveAnswer.model_validate(give_up(client, puzzle.id, []).json())
    assert answer.outcome == "gave_up" and answer.played == []
    assert answer.rating_change is not None and answer.rating_change.after < 1500
    assert answer.board == client.get(f"/api/puzzles/{puzzle.id}").json()["board"]
    ended = client.post(
        "/api/puzzles/streak/end", json={"game": "stairs", "count": 3}, headers=JSON
    )
    assert ended.json()["counted"] == 0  # given up is not solved
    assert puzzle.id not in {
        client.get("/api/puzzles/next?game=stairs").json()["id"] for _ in range(8)
    }


def test_an_anonymous_visitor_gives_up_unrated_and_bad_lines_are_refused(
    client: TestClient,
) -> None:
    puzzle = LADDER[3]
    first, reply, _last = main_line(puzzle)
    assert client.get(f"/api/puzzles/{puzzle.id}").json()["rated"] is False
    _error(give_up(client, puzzle.id, [first]), 400, "puzzle_off_line")
    _error(give_up(client, puzzle.id, [wrong_move(puzzle), reply]), 400, "puzzle_off_line")
    _error(give_up(client, puzzle.id, ["x"] * 300), 400, "bad_played")
    refused = client.post(f"/api/puzzles/{puzzle.id}/give-up", json={}, headers=JSON)
    _error(refused, 400, "bad_played")
    _error(give_up(client, "zzzzzzzz", []), 404, "puzzle_not_found")
    answer = MoveAnswer.model_validate(give_up(client, puzzle.id, [first, reply]).json())
    assert answer.outcome == "gave_up" and answer.rating_change is None
    assert answer.solution == main_line(puzzle)
    assert client.get("/api/me").json()["id"] is None  # no player was made
    assert client.get(f"/api/puzzles/{puzzle.id}").json()["plays"] == 0


def test_next_avoids_the_puzzles_a_player_tried_and_follows_their_rating(
    client: TestClient,
) -> None:
    player(client)
    seen: set[str] = set()
    for _ in range(5):  # each wrong: the rating falls, the next puzzle is easier
        out = client.get("/api/puzzles/next?game=stairs").json()
        assert out["id"] not in seen
        seen.add(out["id"])
        assert move(client, out["id"], [], wrong_move(by_id(out["id"]))).status_code == 200
    rating = client.get("/api/puzzles/me").json()["ratings"]["stairs"]["rating"]
    assert rating < 1300
    near = [client.get("/api/puzzles/next?game=stairs").json() for _ in range(5)]
    assert all(out["id"] not in seen for out in near)
    assert all(abs(out["rating"] - rating) <= 500 for out in near)


def test_nearest_draws_among_the_nearest_untried_then_any() -> None:
    import random

    rng = random.Random(1)
    drawn = {nearest(LADDER, {}, 1000, rng, among=3).id for _ in range(40)}  # type: ignore[union-attr]
    assert drawn == {"stair004", "stair005", "stair006"}  # 900, 1000, 1100
    avoided = nearest(LADDER, {}, 1000, rng, among=1, avoid={"stair005"})
    assert avoided is not None and avoided.id in {"stair004", "stair006"}
    rerated = nearest(LADDER, {"stair019": 1000}, 1000, rng, among=1)
    assert rerated is not None and rerated.id in {"stair005", "stair019"}
    everything = {p.id for p in LADDER}
    assert nearest(LADDER, {}, 1000, rng, avoid=everything) is not None
    assert nearest([], {}, 1000, rng) is None


# ----- the daily puzzle, streaks ---------------------------------------------------------


def test_the_daily_puzzle_changes_with_the_servers_date(
    client: TestClient, clock: FakeClock
) -> None:
    catalogue = ListedCatalogue([*LADDER, *SEVENS])
    today = datetime.datetime.fromtimestamp(START, datetime.UTC).date()
    first = DailyPuzzle.model_validate(client.get("/api/puzzles/daily").json())
    assert first.date == today.isoformat()
    expected = daily_puzzle(catalogue, today)
    assert expected is not None and first.id == expected.id
    assert client.get("/api/puzzles/daily").json()["id"] == first.id  # all day
    clock.advance(24 * 3600)
    second = DailyPuzzle.model_validate(client.get("/api/puzzles/daily").json())
    assert second.date == (today + datetime.timedelta(days=1)).isoformat()
    assert second.id != first.id and second.game != first.game  # the games take turns
    tomorrow = daily_puzzle(catalogue, today + datetime.timedelta(days=1))
    assert tomorrow is not None and second.id == tomorrow.id
    assert all(1200 <= by_id(out.id).rating <= 1800 for out in (first, second))


def test_a_streak_rises_from_the_easy_end(client: TestClient) -> None:
    out = client.get("/api/puzzles/streak?game=stairs").json()
    assert abs(out["rating"] - STREAK_START) <= 100
    ratings = [out["rating"]]
    for _ in range(5):
        out = client.get(f"/api/puzzles/streak?game=stairs&after={out['id']}").json()
        assert out["rating"] > ratings[-1]
        ratings.append(out["rating"])
    assert client.get("/api/puzzles/streak?game=stairs&after=nothing1").status_code == 404


def test_a_streaks_best_is_capped_by_the_puzzles_solved_in_the_last_hour(
    client: TestClient, clock: FakeClock
) -> None:
    anonymous = client.post(
        "/api/puzzles/streak/end", json={"game": "stairs", "count": 4}, headers=JSON
    )
    assert anonymous.json() == {"game": "stairs", "counted": 0, "best": None}
    player(client)
    for puzzle in LADDER[4:6]:
        assert move(client, puzzle.id, [], puzzle.root.answers[1].move).json()["outcome"] == (
            "solved"
        )
    ended = client.post(
        "/api/puzzles/streak/end", json={"game": "stairs", "count": 9}, headers=JSON
    )
    assert StreakEnded.model_validate(ended.json()) == StreakEnded(game="stairs", counted=2, best=2)
    ended = client.post("/api/puzzles/streak/end", json={"game": "any", "count": 1}, headers=JSON)
    assert ended.json() == {"game": "any", "counted": 1, "best": 1}
    clock.advance(2 * 3600)
    ended = client.post(
        "/api/puzzles/streak/end", json={"game": "stairs", "count": 5}, headers=JSON
    )
    assert ended.json() == {"game": "stairs", "counted": 0, "best": 2}
    # a puzzle solved again counts once more, unrated
    again = LADDER[4]
    assert move(client, again.id, [], again.root.answers[1].move).json()["rating_change"] is None
    ended = client.post(
        "/api/puzzles/streak/end", json={"game": "stairs", "count": 3}, headers=JSON
    )
    assert ended.json() == {"game": "stairs", "counted": 1, "best": 2}
    assert client.get("/api/puzzles/me").json()["streaks"] == {"stairs": 2, "any": 1}


# ----- hostile input, hidden answers -----------------------------------------------------


def _error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    error: dict[str, Any] = response.json()["error"]
    assert error["code"] == code, error
    return error


def test_unknown_puzzles_and_games_are_refused(client: TestClient) -> None:
    _error(client.get("/api/puzzles/zzzzzzzz"), 404, "puzzle_not_found")
    _error(move(client, "zzzzzzzz", [], "b1-b2"), 404, "puzzle_not_found")
    _error(client.get("/api/puzzles/next?game=chess"), 404, "no_puzzles_for_game")
    _error(client.get("/api/puzzles/next?game=city_of_stairs"), 404, "no_puzzles_for_game")
    _error(client.get("/api/puzzles/streak?game=chess"), 404, "no_puzzles_for_game")
    refused = client.post(
        "/api/puzzles/streak/end", json={"game": "chess", "count": 1}, headers=JSON
    )
    _error(refused, 400, "bad_streak")
    refused = client.post(
        "/api/puzzles/streak/end", json={"game": "any", "count": -1}, headers=JSON
    )
    _error(refused, 400, "bad_streak")
    refused = client.post(
        "/api/puzzles/streak/end", json={"game": "any", "count": True}, headers=JSON
    )
    _error(refused, 400, "bad_streak")


def test_bad_moves_and_lines_are_refused_and_change_nothing(client: TestClient) -> None:
    puzzle = LADDER[10]
    first, reply, last = main_line(puzzle)
    _error(move(client, puzzle.id, [], "z9-z8"), 400, "illegal_move")
    _error(move(client, puzzle.id, [], ""), 400, "bad_move_text")
    _error(move(client, puzzle.id, [], "x" * 500), 400, "bad_move_text")
    refused = client.post(f"/api/puzzles/{puzzle.id}/moves", json={"move": first}, headers=JSON)
    _error(refused, 400, "bad_played")
    refused = client.post(
        f"/api/puzzles/{puzzle.id}/moves", json={"played": "b1-b2", "move": first}, headers=JSON
    )
    _error(refused, 400, "bad_played")
    _error(move(client, puzzle.id, [7], first), 400, "bad_played")  # type: ignore[list-item]
    _error(move(client, puzzle.id, ["x"] * 300, first), 400, "bad_played")
    wrong = wrong_move(puzzle)
    # off the line: a wrong move, a reply that is not the puzzle's, an odd list
    _error(move(client, puzzle.id, [wrong, reply], last), 400, "puzzle_off_line")
    _error(move(client, puzzle.id, [first], last), 400, "puzzle_off_line")
    _error(move(client, puzzle.id, ["z9-z8", reply], last), 400, "puzzle_off_line")
    huge = client.post(
        f"/api/puzzles/{puzzle.id}/moves",
        content=json.dumps({"played": ["b1-b2"] * 2000, "move": first}),
        headers=JSON,
    )
    _error(huge, 413, "body_too_large")
    not_json = client.post(
        f"/api/puzzles/{puzzle.id}/moves", content=b"played", headers={"content-type": "text/plain"}
    )
    _error(not_json, 415, "wrong_content_type")
    assert client.get(f"/api/puzzles/{puzzle.id}").json()["plays"] == 0


def test_a_players_first_attempt_cannot_be_probed_with_made_up_lines(client: TestClient) -> None:
    player(client)
    puzzle = LADDER[10]
    first, reply, last = main_line(puzzle)
    wrong = wrong_move(puzzle)
    # a line the player never played, right or wrong, is refused alike, unjudged
    right_line = _error(move(client, puzzle.id, [first, reply], last), 409, "puzzle_out_of_step")
    wrong_line = _error(move(client, puzzle.id, [wrong, reply], last), 409, "puzzle_out_of_step")
    assert right_line == wrong_line and right_line["args"] == {}
    assert move(client, puzzle.id, [], first).json()["outcome"] == "right"
    _error(move(client, puzzle.id, [], first), 409, "puzzle_out_of_step")  # a second tab
    assert client.get("/api/puzzles/me").json()["ratings"] == {}
    assert move(client, puzzle.id, [first, reply], last).json()["outcome"] == "solved"


def test_nothing_before_the_end_carries_the_tree_or_the_solution(client: TestClient) -> None:
    """Every answer and refusal before the attempt's end, whatever the asker sends, is
    searched for the tree's fields and for the moves only the tree knows."""
    puzzle = LADDER[10]
    first, reply, last = main_line(puzzle)
    hidden_words = (
        '"verdict"',
        '"answers"',
        '"shares"',
        '"tree":{',
        '"solution":[',
        '"solution_boards":[',
    )
    later_wrong = [a.move for a in puzzle.root.best.next.answers if a.verdict == "wrong"]  # type: ignore[union-attr]
    bodies = []
    player(client)
    bodies.append(client.get(f"/api/puzzles/{puzzle.id}").text)
    bodies.append(client.get("/api/puzzles/next?game=stairs").text)
    bodies.append(client.get("/api/puzzles/daily").text)
    bodies.append(client.get("/api/puzzles/streak?game=stairs").text)
    bodies.append(move(client, puzzle.id, [first, reply], last).text)  # out of step
    bodies.append(move(client, puzzle.id, [], "z9-z8").text)  # illegal
    answered = move(client, puzzle.id, [], first)
    bodies.append(answered.text)
    bodies.append(client.get(f"/api/puzzles/{puzzle.id}").text)
    bodies.append(move(client, puzzle.id, [first, reply], "z9-z8").text)
    for body in bodies:
        assert not any(word in body for word in hidden_words), body
        found = json.loads(body)
        if "error" in found:
            assert set(json.dumps(found["error"]["args"])).isdisjoint("[]"), body
        else:
            assert found.get("solution") is None and found.get("tree") is None, body
            assert found.get("solution_boards") is None, body
    # a right answer names the reply and the legal moves, never which of them wins
    assert set(answered.json()["legal"]) == {last, *later_wrong}
    ended = move(client, puzzle.id, [first, reply], last).json()
    assert ended["solution"] == [first, reply, last]


def test_moves_and_requests_are_limited_per_player_and_per_address(tmp_path: Path) -> None:
    slow = Rate(per_minute=1, burst=2)
    with running(tmp_path, puzzle_moves_per_minute=slow, puzzles_per_minute=slow) as client:
        puzzles_of(client).catalogue = ListedCatalogue(LADDER)
        puzzle = LADDER[10]
        wrong = wrong_move(puzzle)
        assert move(client, puzzle.id, [], wrong).status_code == 200
        assert move(client, puzzle.id, [], wrong).status_code == 200
        _error(give_up(client, puzzle.id, []), 429, "too_many_requests")  # a move's allowance
        refused = move(client, puzzle.id, [], wrong)
        _error(refused, 429, "too_many_requests")
        assert int(refused.headers["retry-after"]) >= 1
        assert client.get("/api/puzzles/next").status_code == 200  # another allowance
        assert client.get("/api/puzzles/daily").status_code == 200
        _error(client.get("/api/puzzles/me"), 429, "too_many_requests")
        player(client, "Own Allowance")  # a player: their own, whatever the address
        assert move(client, puzzle.id, [], wrong).status_code == 200
        assert client.get("/api/puzzles/me").status_code == 200
        counts = puzzles_of(client).rates.counts
        assert counts["moves"].refused == 2 and counts["requests"].refused == 1


def test_the_puzzle_routes_are_in_the_openapi_document(client: TestClient) -> None:
    paths = client.get("/api/openapi.json").json()["paths"]
    moves = paths["/api/puzzles/{puzzle_id}/moves"]["post"]
    body = moves["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/MoveBody"}
    answer = moves["responses"]["200"]["content"]["application/json"]["schema"]
    assert answer == {"$ref": "#/components/schemas/MoveAnswer"}
    given_up = paths["/api/puzzles/{puzzle_id}/give-up"]["post"]
    body = given_up["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/GiveUpBody"}
    answer = given_up["responses"]["200"]["content"]["application/json"]["schema"]
    assert answer == {"$ref": "#/components/schemas/MoveAnswer"}
    for path, model in [
        ("/api/puzzles/next", "PuzzleOut"),
        ("/api/puzzles/daily", "DailyPuzzle"),
        ("/api/puzzles/streak", "PuzzleOut"),
        ("/api/puzzles/me", "PuzzlesOfPlayer"),
        ("/api/puzzles/{puzzle_id}", "PuzzlePage"),
    ]:
        schema = paths[path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
        assert schema == {"$ref": f"#/components/schemas/{model}"}, path
    assert RatingModel.__name__ == "Rating"


def test_the_shipped_sets_are_the_default_catalogue(tmp_path: Path) -> None:
    from stairgames.puzzles import shipped_games

    with running(tmp_path) as client:
        response = client.get("/api/puzzles/next")
        if not shipped_games():
            _error(response, 404, "no_puzzles_for_game")
            return
        out = PuzzleOut.model_validate(response.json())
        assert out.game in shipped_games()
        first = client.get(f"/api/puzzles/{out.id}").json()
        assert first["solution"] is None and first["tree"] is None


@pytest.mark.slow
def test_attempts_and_ratings_are_shared_on_postgresql(tmp_path: Path) -> None:
    """Two server processes on one PostgreSQL: an attempt begun on one goes on on the
    other, is rated once, and the allowances are the database's."""
    from tests.postgresql_helpers import postgresql_server

    puzzle = LADDER[10]
    first, reply, last = main_line(puzzle)
    with (
        postgresql_server() as database,
        running(tmp_path / "a", database_url=database.url) as one,
        running(tmp_path / "b", database_url=database.url) as other,
    ):
        for client in (one, other):
            puzzles_of(client).catalogue = ListedCatalogue(LADDER)
            assert puzzles_of(client).rates.shared is not None
        player(one)
        other.cookies.update(one.cookies)
        assert move(one, puzzle.id, [], first).json()["outcome"] == "right"
        _error(move(one, puzzle.id, [], first), 409, "puzzle_out_of_step")
        solved = move(other, puzzle.id, [first, reply], last).json()
        assert solved["outcome"] == "solved" and solved["rating_change"]["before"] == 1500
        assert move(one, puzzle.id, [first, reply], last).json()["rating_change"] is None
        mine = one.get("/api/puzzles/me").json()
        assert mine["ratings"]["stairs"]["games"] == 1
        assert other.get(f"/api/puzzles/{puzzle.id}").json()["plays"] == 1
        ended = one.post(
            "/api/puzzles/streak/end", json={"game": "stairs", "count": 3}, headers=JSON
        )
        assert ended.json() == {"game": "stairs", "counted": 1, "best": 1}


# ----- puzzles from the site's games -----------------------------------------------------


def play_to_the_end(
    client: TestClient, game: str, position: str | None = None, **options: Any
) -> str:
    """A match of a person (always the first legal move) against a random computer,
    played to its end (from ``position`` if given): its id. Its last state is announced
    after the hub's listeners were told of the end (so a record kept of it is written
    by then)."""
    seats = ["human", "computer:random"]
    if position is None:
        created = new_match(client, game, seats, **options)
    else:
        asked = {"game": game, "options": options, "seats": seats, "position": position}
        response = client.post("/api/matches", json=asked, headers=JSON)
        assert response.status_code == 200, response.text
        created = response.json()
    url = f"/ws/matches/{created['match']}?token={token_of(created, 0)}"
    with connect(client, url) as ws:
        view = receive_until(ws, lambda m: m["type"] == "state" and not m["thinking"])
        while view["result"] is None:
            event = view["event"]
            ws.send_json({"type": "move", "move": view["legal"][0], "event": event})
            view = receive_until(
                ws,
                lambda m, after=event: (
                    m["type"] == "state"
                    and m["event"] > after
                    and not m["thinking"]
                    and (m["result"] is not None or m["to_act"] == 0)
                ),
            )
    return str(created["match"])


def test_a_finished_match_is_kept_for_puzzles_only_where_the_operator_says(
    tmp_path: Path,
) -> None:
    with running(tmp_path / "on", puzzles_from_games=True) as client:
        match = play_to_the_end(client, "stairs", size=3)
        kept = tmp_path / "on" / "puzzle-records" / "stairs" / f"{match}.json"
        assert kept.is_file()
        record = GameRecord.load(kept)
        served = client.get(f"/api/matches/{match}/record").json()
    assert record.game == "stairs" and record.is_full and record.seed is None
    assert list(record.moves) == served["moves"] and record.options == {
        key: tuple(value) if isinstance(value, list) else value
        for key, value in served["options"].items()
    }
    assert record.returns is not None and record.result == served["result"]
    assert set(record.players) <= {"human", "online", "random"}  # no name
    *_, (_move, last) = replay(record)
    assert last.is_terminal()
    assert [path.name for path in (tmp_path / "on" / "puzzle-records").rglob("*")] == [
        "stairs",
        f"{match}.json",
    ]
    assert (tmp_path / "on" / "puzzles").is_dir()  # where the operator's sets go
    with running(tmp_path / "off") as client:
        play_to_the_end(client, "stairs", size=3)
    assert not (tmp_path / "off" / "puzzle-records").exists()


def test_only_games_with_puzzles_and_nothing_hidden_feed_them(tmp_path: Path) -> None:
    assert offers_puzzles("stairs") and offers_puzzles("27") and offers_puzzles("ishigaki_race")
    assert not offers_puzzles("city_of_stairs")  # hidden hands
    assert not offers_puzzles("chess")
    with running(tmp_path, puzzles_from_games=True) as client:
        created = new_match(client, "city_of_stairs", ["human", "computer:random"])
        url = f"/ws/matches/{created['match']}?token={token_of(created, 0)}"
        with connect(client, url) as ws:
            view = receive_until(ws, lambda m: m["type"] == "state" and not m["thinking"])
            ws.send_json({"type": "move", "move": view["legal"][0], "event": view["event"]})
            view = receive_until(
                ws, lambda m: m["type"] == "state" and m["history"] and not m["thinking"]
            )
            ws.send_json({"type": "resign", "event": view["event"]})
            receive_until(ws, lambda m: m["type"] == "state" and m["result"] is not None)
        # a resignation before any move: no game to take puzzles from
        created = new_match(client, "stairs", ["human", "computer:random"], size=3)
        url = f"/ws/matches/{created['match']}?token={token_of(created, 0)}"
        with connect(client, url) as ws:
            view = receive_until(ws, lambda m: m["type"] == "state")
            ws.send_json({"type": "resign", "event": view["event"]})
            receive_until(ws, lambda m: m["type"] == "state" and m["result"] is not None)
    assert list((tmp_path / "puzzle-records").iterdir()) == []


def site_record(data_dir: Path, match: str) -> None:
    folder = data_dir / "puzzle-records" / "stairs"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{match}.json").write_text("{}", encoding="utf-8")


def test_the_sets_in_the_data_folder_are_served_on_top_of_the_shipped_ones(
    tmp_path: Path, clock: FakeClock
) -> None:
    from stairgames.puzzles import shipped, shipped_games

    if not shipped_games():
        pytest.skip("no shipped puzzle set yet")
    sets = tmp_path / "puzzles"
    sets.mkdir()
    site_record(tmp_path, "Match_from-site")
    from_site = built(
        "site0001", 1500.0, source={"kind": "record", "file": "Match_from-site.json", "ply": 4}
    )
    elsewhere = built("file0001", 1500.0, source={"kind": "record", "file": "other.json", "ply": 2})
    a_shipped = shipped(shipped_games()[0])[0]
    taken_id = built(a_shipped.id, 900.0)  # an id a shipped puzzle has: the shipped one
    write_puzzles(sets / "stairs.jsonl.gz", [from_site, elsewhere, taken_id])
    (sets / "notes.txt").write_text("not a set", encoding="utf-8")
    with running(tmp_path, wall_clock=clock, clock=clock) as client:
        page = PuzzlePage.model_validate(client.get("/api/puzzles/site0001").json())
        assert page.source == {"kind": "site", "match": "Match_from-site", "ply": 4}
        assert page.game == "stairs" and page.legal == [a.move for a in from_site.root.answers]
        other = client.get("/api/puzzles/file0001").json()
        assert other["source"] == {"kind": "record", "file": "other.json", "ply": 2}
        assert client.get(f"/api/puzzles/{a_shipped.id}").json()["source"] == a_shipped.source
        catalogue = puzzles_of(client).catalogue
        assert isinstance(catalogue, SiteCatalogue)
        assert {"site0001", "file0001"} <= {p.id for p in catalogue.puzzles("stairs")}
        assert len(catalogue.puzzles("stairs")) == len(shipped("stairs")) + 2
        assert catalogue.steady() is catalogue.base  # the daily puzzle: shipped only
        # a new set is read once the folder is looked at again
        seven = built("site0027", 1200.0, TWENTY_SEVEN)
        write_puzzles(sets / "twenty_seven.jsonl", [seven])
        _error(client.get("/api/puzzles/site0027"), 404, "puzzle_not_found")
        clock.advance(CHECK_SECONDS)
        assert client.get("/api/puzzles/site0027").json()["source"] == seven.source
        # a file being written (or damaged) keeps what was read of it; another is read
        (sets / "stairs.jsonl.gz").write_bytes(b"\x1f\x8b half a file")
        (sets / "broken.jsonl").write_text("{not json\n", encoding="utf-8")
        clock.advance(CHECK_SECONDS)
        assert client.get("/api/puzzles/site0001").status_code == 200
        write_puzzles(sets / "stairs.jsonl.gz", [elsewhere])
        clock.advance(CHECK_SECONDS)
        _error(client.get("/api/puzzles/site0001"), 404, "puzzle_not_found")
        assert client.get("/api/puzzles/file0001").status_code == 200
        assert client.get("/api/puzzles/site0027").status_code == 200


def test_puzzles_made_from_the_sites_records_are_served_as_the_sites(tmp_path: Path) -> None:
    """A match started from a shipped puzzle's position, kept, given to ``stairgames
    puzzles generate`` as the operator would: that position is a puzzle again, served
    as one from the site's match."""
    import io

    from stairgames.puzzles import shipped, shipped_games
    from stairgames.puzzles.generate import command

    if "stairs" not in shipped_games():
        pytest.skip("no shipped Stairs set yet")
    start = next(p for p in shipped("stairs") if p.options.get("size") == 4)
    out = tmp_path / "puzzles" / "stairs.jsonl.gz"
    with running(tmp_path, puzzles_from_games=True) as client:
        match = play_to_the_end(client, "stairs", start.position, **start.options)
        record = tmp_path / "puzzle-records" / "stairs" / f"{match}.json"
        said = io.StringIO()
        argv = ["generate", "stairs", "--from", str(record), "--out", str(out)]
        assert command(argv, out=said) == 0, said.getvalue()
        # (the shipped puzzle has that id: served here beside other puzzles)
        puzzles_of(client).catalogue = SiteCatalogue(
            ListedCatalogue(LADDER), out.parent, record.parent.parent, every=0
        )
        page = client.get(f"/api/puzzles/{start.id}").json()
        assert page["source"] == {"kind": "site", "match": match, "ply": 0}
        assert page["position"] == start.position and page["options"] == start.options


def test_serve_turns_the_site_feed_on_only_when_asked() -> None:
    """``stairgames serve --puzzles-from-games``: the operator's opt-in (off by default),
    and ``--no-client-limits`` lifts the puzzle allowances with the others."""
    from stairgames.server import serve

    parser = serve.serve_parser()
    assert not serve.serve_settings(parser.parse_args([]), parser).puzzles_from_games
    asked = serve.serve_settings(parser.parse_args(["--puzzles-from-games"]), parser)
    assert asked.puzzles_from_games
    lifted = serve.without_client_limits(asked)
    assert lifted.puzzle_moves_per_minute.per_minute >= 1e9
    assert lifted.puzzles_per_minute.per_minute >= 1e9
