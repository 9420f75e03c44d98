"""The computer's analysis in the browser (issue 31), driven in Chromium: a finished game
of each of the four games analysed from its page (the button, the progress, the graph,
the marks in the move list), a blunder clicked in the graph showing the better move on the
board, and the analysis board opened from a position text, explored, and played on
against the computer. The server's budgets are tiny (``Settings.analysis_iterations``)
so that the analyses take moments. Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import json
import re
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any, cast

import pytest

from tests.browser_helpers import checked_page, expect, serving, shot


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real web app on a temporary SQLite (computers and analyses in threads, a
    budget of 4 search iterations a position), served by uvicorn: its base URL."""
    pytest.importorskip("fastapi", reason="the web app needs fastapi")
    from stairgames.server.app import create_app
    from stairgames.server.base.limits import Rate
    from stairgames.server.base.settings import Settings

    generous = Rate(per_minute=6000, burst=600)
    settings = Settings(
        data_dir=tmp_path_factory.mktemp("web-analysis"),
        computer_workers=0,
        loop_guard=True,
        computer_players=("easy", "medium", "hard", "expert", "random"),
        matches_per_minute=generous,
        analyses_per_minute=generous,
        positions_per_minute=generous,
        analysis_iterations=4,
        analysis_position_iterations=16,
    )
    with serving(create_app(settings)) as url:
        yield url


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    with checked_page(browser, server, height=900) as opened:
        yield opened


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        result: dict[str, Any] = json.loads(answer.read())
        return result


def get(base: str, path: str) -> dict[str, Any]:
    with urllib.request.urlopen(base + path, timeout=30) as answer:
        result: dict[str, Any] = json.loads(answer.read())
        return result


def said(base: str, game: str, move: str) -> str:
    """A move as the page says it: its game's word for it (``GET /api/games``'s
    ``move_words``, issue 51: "Stop", not ``stop``), or its notation."""
    games = cast(list[dict[str, Any]], get(base, "/api/games"))
    listing = next(g for g in games if g["name"] == game)
    words = {word["move"]: word["label"] for word in listing["move_words"]}
    return str(words.get(move, move))


def finished_game(base: str, game: str, **options: Any) -> str:
    """A match of two random computer players, played to its end: its id."""
    created = post(
        base,
        "/api/matches",
        {"game": game, "options": options, "seats": ["computer:random", "computer:random"]},
    )
    match = str(created["match"])
    deadline = time.monotonic() + 60
    while get(base, f"/api/matches/{match}")["result"] is None:
        assert time.monotonic() < deadline, f"the {game} game did not end"
        time.sleep(0.1)
    return match


def blundered_stairs_game(page: Any) -> str:
    """Stairs 3×3 at one screen in this browser: light's first move b1-a2 gives the won
    game away (docs/analysis.md: the 8 first moves onto a neighbouring edge lose), dark
    answers, then light resigns. Its id."""
    page.goto(page.base_url + "/")
    page.get_by_label("Stairs", exact=True).check()
    page.locator('[data-option="size"]').fill("3")
    page.get_by_label("A person at this screen", exact=True).check()
    page.get_by_role("button", name="Start").click()
    page.wait_for_url(re.compile(r"/m/"))
    page.get_by_role("button", name="b1", exact=True).click()
    page.get_by_role("button", name="a2", exact=True).click()
    expect(page.locator("#moves")).to_contain_text("b1-a2")
    page.locator("#board .square.movable").first.click()
    page.locator("#board .square.target").first.click()
    expect(page.locator("#moves .move")).to_have_count(2)
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").click()
    expect(page.locator("#result")).to_be_visible()
    return str(page.url.rsplit("/", 1)[-1])


def analyse(page: Any) -> None:
    """Ask for the analysis of the finished game shown and wait for its graph."""
    start = page.get_by_role("button", name="Analyse this game")
    expect(start).to_be_visible()
    start.click()
    expect(page.locator("#analysis-graph .graph-point").first).to_be_attached(timeout=60_000)
    expect(page.locator("#analysis-progress")).to_be_hidden()


GAMES = [
    ("stairs", {"size": 4}),
    ("twenty_seven", {}),
    ("ishigaki_race", {}),
    ("city_of_stairs", {}),
]


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_a_finished_game_of_each_game_is_analysed_from_its_page(
    page: Any, game: str, options: dict[str, Any]
) -> None:
    match = finished_game(page.base_url, game, **options)
    page.goto(f"{page.base_url}/m/{match}")
    expect(page.locator("#result")).to_be_visible()
    analyse(page)
    analysis = get(page.base_url, f"/api/matches/{match}/analysis")["analysis"]
    points = page.locator("#analysis-graph .graph-point")
    expect(points).to_have_count(len(analysis["moves"]))
    # the move list carries the marks of the moves that lost much
    marked = [move for move in analysis["moves"] if move["mark"]]
    expect(page.locator("#moves .move-mark")).to_have_count(len(marked))
    # a point shows its move: the step banner, the panel's account of the move
    chosen = analysis["moves"][len(analysis["moves"]) // 2]
    page.locator(f'#analysis-graph .graph-point[data-ply="{chosen["ply"]}"]').click()
    expect(page.locator("#step-text")).to_have_text(f"Viewing move {chosen['ply']}")
    expect(page.locator("#analysis-move .analysis-head")).to_contain_text(
        f"Move {chosen['ply']}: {said(page.base_url, game, chosen['move'])}"
    )
    shot(page, f"analysis-{game}")
    # the record download carries the analysis
    record = get(page.base_url, f"/api/matches/{match}/record")
    assert record["analysis"]["moves"] == analysis["moves"]


def test_a_blunder_clicked_in_the_graph_shows_the_better_move_on_the_board(page: Any) -> None:
    blundered_stairs_game(page)
    analyse(page)
    blunder = page.locator('#analysis-graph .graph-point.mark-blunder[data-ply="1"]')
    expect(blunder).to_have_count(1)
    expect(page.locator('#moves [data-ply="1"] .move-mark.mark-blunder')).to_have_text("??")
    blunder.click()
    expect(page.locator("#step-text")).to_have_text("Viewing move 1")
    head = page.locator("#analysis-move .analysis-head")
    expect(head).to_have_text("Move 1: b1-a2 ?? (blunder)")
    better = page.locator("#analysis-move .analysis-better")
    expect(better).to_contain_text("Better: ")
    move = better.inner_text().removeprefix("Better: ").strip()
    assert re.fullmatch(r"[a-c][1-3]-[a-c][1-3]", move)
    expect(page.locator(f'#board .hint[data-hint="{move}"]')).to_be_attached()
    expect(page.locator("#analysis-move")).to_contain_text("100% before the move, 0% after it")
    shot(page, "analysis-blunder")
    # the panel opens the analysis board at the position shown
    page.get_by_role("button", name="Explore this position on the analysis board").click()
    page.wait_for_url(re.compile(r"/analysis\?"))
    expect(page.locator("#ab-moves .move")).to_have_count(1)
    expect(page.locator("#ab-eval .ab-perfect")).to_contain_text("dark wins in")


def test_the_analysis_board_from_a_position_text_and_play_on(page: Any) -> None:
    page.goto(page.base_url + "/analysis")
    page.locator("#ab-game").select_option("stairs")
    # a 4×4 start (dark wins it, docs/analysis.md): the text says the board's size
    start = "L,D,L,D/D,L,D,L/L,D,L,D/D,L,D,L L -"
    page.locator("#ab-text").fill(start)
    page.get_by_role("button", name="Show this position").click()
    expect(page.locator("#ab-board [data-square]")).to_have_count(16)
    expect(page.locator("#ab-eval .ab-perfect")).to_contain_text("dark wins", ignore_case=True)
    expect(page.locator("#ab-eval .ab-perfect")).to_contain_text("whatever light plays")
    expect(page.locator("#ab-board .hint")).to_be_attached()
    # light moves, then dark: both sides move freely; the address keeps it all
    page.get_by_role("button", name="b1", exact=True).click()
    page.get_by_role("button", name="b2", exact=True).click()
    expect(page.locator("#ab-moves .move")).to_have_text(["b1-b2"])
    expect(page.locator("#ab-turn")).to_have_text("dark to move")
    expect(page.locator("#ab-eval .ab-perfect")).to_contain_text("dark wins in")
    expect(page.locator("#ab-eval .ab-perfect")).to_contain_text(" with ")
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(page.url).query)
    assert json.loads(query["moves"][0]) == ["b1-b2"]
    assert query["position"] == [start] and json.loads(query["options"][0])["size"] == 4
    shot(page, "analysis-board-stairs")
    # the link holds the position and the moves: opened again, the same board
    page.goto(page.url)
    expect(page.locator("#ab-moves .move")).to_have_text(["b1-b2"])
    expect(page.locator("#ab-turn")).to_have_text("dark to move")
    # play on against the computer from here: this browser plays dark, the computer light
    page.get_by_role("button", name="Play on against the computer").click()
    page.wait_for_url(re.compile(r"/m/"))
    expect(page.locator("#seats")).to_contain_text("dark (you)")
    expect(page.locator("#board [data-square]")).to_have_count(16)
    expect(page.locator("#turn")).to_have_text("Your move")
    shot(page, "analysis-board-play-on")


def test_the_analysis_board_gives_ishigaki_races_chance_of_stopping_and_rolling(
    page: Any,
) -> None:
    moves = json.dumps(["start:0", "die:2"])
    query = urllib.parse.urlencode({"game": "ishigaki_race", "options": "{}", "moves": moves})
    page.goto(f"{page.base_url}/analysis?{query}")
    actions = page.locator("#ab-eval .ab-actions li")
    expect(actions).to_have_count(2)
    expect(page.locator('#ab-eval .ab-actions li[data-move="stop"]')).to_contain_text("%")
    expect(page.locator('#ab-eval .ab-actions li[data-move="roll"]')).to_contain_text("%")
    expect(page.locator("#ab-eval")).to_contain_text("(proven)")
    shot(page, "analysis-board-ishigaki")
    # roll: the die is chosen here, each outcome with its exact chance
    page.get_by_role("button", name="Roll the second die").click()
    expect(page.locator("#ab-choices button")).to_have_count(6)
    expect(page.locator("#ab-eval .ab-actions li")).to_have_count(6)
    page.locator("#ab-choices button").first.click()
    expect(page.locator("#ab-moves .move")).to_have_count(4)


def test_a_game_with_hidden_cards_does_not_play_on_from_a_position(page: Any) -> None:
    page.goto(page.base_url + "/analysis?game=city_of_stairs")
    expect(page.locator("#ab-title")).to_have_text("City of Stairs")
    expect(page.locator("#ab-play-on")).to_be_hidden()
    expect(page.locator("#ab-play-on-note")).to_be_visible()
