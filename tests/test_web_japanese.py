"""The site's pages in Japanese (issue 51, item 6): the lobby's rows and form, a player's
profile, the computer's analysis of a game and the analysis board, read in Chromium and
checked as ``tests/test_japanese_text.py`` checks every message: no English word, no raw
notation that is no move ("offer", "roll", "start:0", "size 6"), full-width punctuation
in Japanese sentences, and no "1 days" in English either.

The real web app runs in a thread; Debian's Chromium at /usr/bin/chromium drives the
pages (without it the tests skip and say why).
"""

from __future__ import annotations

import json
import re
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest

from tests.test_japanese_text import problems
from tests.test_web_move_words import PLAY_SCRIPT
from tests.test_web_stepping import match_page, page_match

NAME = "花子"
"""The name of the player whose profile is read (a Japanese name is no English word)."""


@pytest.fixture(scope="module")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real web app (computers and analyses in threads, a budget of 4 search
    iterations a position) served by uvicorn: its base URL."""
    from stairgames.server.app import create_app
    from stairgames.server.base.limits import Rate
    from stairgames.server.base.settings import Settings
    from tests.browser_helpers import serving

    generous = Rate(per_minute=6000, burst=600)
    settings = Settings(
        data_dir=tmp_path_factory.mktemp("web-japanese"),
        computer_workers=0,
        loop_guard=True,
        computer_players=("easy", "medium", "hard", "expert", "random"),
        messages_per_second=1e4,
        message_burst=1e4,
        matches_per_minute=generous,
        analyses_per_minute=generous,
        positions_per_minute=generous,
        analysis_iterations=4,
        analysis_position_iterations=16,
    )
    with serving(create_app(settings), settings) as url:
        yield url


def _expect() -> Any:
    from tests.browser_helpers import expect

    return expect


def unread(text: str) -> dict[str, list[str]]:
    """The lines of a page's ``text`` that a Japanese reader should not meet, with why."""
    return {line: found for line in text.splitlines() if (found := problems(line))}


def choose_name(page: Any, name: str) -> None:
    page.locator("#me-edit").click()
    page.locator("#me-input").fill(name)
    page.locator("#me-form button[type=submit]").click()
    _expect()(page.locator("#me-name")).to_have_text(name)


def open_challenge(
    page: Any,
    app_url: str,
    game: str,
    *,
    players: int = 2,
    flags: tuple[str, ...] = (),
    clock: str = "none",
    rated: bool = False,
) -> None:
    """Open a challenge from the lobby's form (``flags``: the game's flag options to
    tick; ``clock``: a value of the clock's choice), then wait on its game page."""
    page.goto(app_url + "/lobby")
    page.locator("#challenge-game").select_option(game)
    if players > 2:
        page.locator("#challenge-players").select_option(str(players))
        page.locator("#challenge-people").select_option(str(players))
    for flag in flags:
        page.locator(f'#challenge-options [data-option="{flag}"]').check()
    page.locator("#challenge-time").select_option(clock)
    if rated:
        page.locator("#challenge-rated").check()
    page.locator("#challenge-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/m/"))


def test_the_lobby_reads_as_japanese_rows_and_form(browser: Any, app_url: str) -> None:
    """A three-player Ishigaki Race with the crumbling wall, one day a move: its row says
    its options, seats and clock in Japanese ("一手1日"); the form offers 14 days."""
    expect = _expect()
    with match_page(browser, app_url, "/lobby", lang="ja") as creator:
        open_challenge(
            creator,
            app_url,
            "ishigaki_race",
            players=3,
            flags=("crumbling_wall",),
            clock="correspondence:1",
        )
        with match_page(browser, app_url, "/lobby", lang="ja") as reader:
            row = reader.locator(".challenge").filter(has_text="いしがき・れえす")
            expect(row).to_have_count(1)
            expect(row).to_contain_text("一手1日")
            assert unread(row.inner_text()) == {}
            reader.locator("#challenge-game").select_option("ishigaki_race")
            reader.locator("#challenge-players").select_option("3")
            times = reader.locator("#challenge-time option").all_inner_texts()
            assert "通信対局、一手14日" in times, times
            assert unread(reader.locator("#lobby").inner_text()) == {}
        with match_page(browser, app_url, "/lobby") as english:
            row = english.locator(".challenge").filter(has_text="Ishigaki Race")
            expect(row).to_contain_text("1 day a move")
            times = english.locator("#challenge-time option").all_inner_texts()
            assert "Correspondence, 1 day a move" in times, times
            assert "Correspondence, 14 days a move" in times, times
            assert not any("1 days" in text for text in times)


def resign(page: Any) -> None:
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#resign").click()
    _expect()(page.locator("#result")).to_be_visible()


def test_a_profile_reads_as_japanese_its_rating_pool_too(browser: Any, app_url: str) -> None:
    """花子 plays a rated Stairs game from the lobby and resigns after a move each: her
    profile names the pool by the game's title and its board ("ステアー · 6×6の盤"), not
    "ステアー (size 6)"."""
    expect = _expect()
    with match_page(browser, app_url, "/", lang="ja") as hanako:
        choose_name(hanako, NAME)
        open_challenge(hanako, app_url, "stairs", rated=True)
        with match_page(browser, app_url, "/lobby", lang="ja") as other:
            row = other.locator(".challenge").filter(has_text=NAME)
            row.locator("button").click()
            other.wait_for_url(re.compile(r"/m/"))
            for page, moves in ((hanako, 1), (other, 2)):  # a game begun is no abort
                page.locator("#board .square.movable").first.click()
                page.locator("#board .square.target").first.click()
                expect(page.locator("#moves .move")).to_have_count(moves)
            expect(hanako.locator("#moves .move")).to_have_count(2)
            resign(hanako)
            other.goto(f"{app_url}/p/{urllib.parse.quote(NAME)}")
            rows = other.locator("#profile-ratings tr")
            expect(rows).to_have_count(1)
            expect(rows.first.locator("td").first).to_have_text("ステアー · 6×6の盤")
            assert unread(other.locator("#profile").inner_text()) == {}


def analysed_stairs_game(browser: Any, app_url: str) -> str:
    """A 4×4 Stairs game at one screen where dark offers to end and light declines, then
    light resigns: its id."""
    with match_page(browser, app_url, "/") as page:
        made = page_match(page, "stairs", ["human", "human"], size=4)
        tokens = [seat["token"] for seat in made["seats"]]
        plan = ["*", "*", "*", "offer", "decline", "*"]
        page.evaluate(PLAY_SCRIPT, {"match": made["match"], "tokens": tokens, "plan": plan})
    match = str(made["match"])
    with match_page(browser, app_url, f"/m/{match}", made["seats"]) as page:
        _expect()(page.locator("#moves .move")).to_have_count(4)
        resign(page)
    return match


def finished_ishigaki_game(browser: Any, app_url: str) -> str:
    """A two-player Ishigaki Race between random computer players, played to its end."""
    with match_page(browser, app_url, "/") as page:
        made = page_match(page, "ishigaki_race", ["computer:random", "computer:random"])
    match = str(made["match"])
    with match_page(browser, app_url, f"/m/{match}") as page:
        _expect()(page.locator("#result")).to_be_visible()
    return match


@pytest.mark.parametrize("game", ["stairs", "ishigaki_race"])
def test_the_analysis_panel_reads_as_japanese(browser: Any, app_url: str, game: str) -> None:
    """Every move of the analysed game, shown from the graph, is said in Japanese: the
    offer and its answer, stop and roll, the dice and the best lines (no "6手目のoffer",
    "5手目のroll", "roll die:1")."""
    expect = _expect()
    if game == "stairs":
        match = analysed_stairs_game(browser, app_url)
    else:
        match = finished_ishigaki_game(browser, app_url)
    with match_page(browser, app_url, f"/m/{match}", lang="ja") as page:
        expect(page.locator("#result")).to_be_visible()
        page.locator("#analysis-start").click()
        points = page.locator("#analysis-graph .graph-point")
        expect(points.first).to_be_attached()
        expect(page.locator("#analysis-progress")).to_be_hidden()
        said: dict[str, list[str]] = unread(page.locator("#analysis").inner_text())
        for index in range(min(points.count(), 16)):
            ply = points.nth(index).get_attribute("data-ply")
            points.nth(index).click()
            head = page.locator("#analysis-move .analysis-head")
            expect(head).to_contain_text(f"{ply}手目")
            said |= unread(page.locator("#analysis").inner_text())
        said |= unread(page.locator("#moves").inner_text())
        assert said == {}


BOARDS = [("stairs", {"size": 4}, 0), ("ishigaki_race", {"players": 2}, 2)]


@pytest.mark.parametrize(("game", "options", "chances"), BOARDS, ids=[b[0] for b in BOARDS])
def test_the_analysis_board_reads_as_japanese(
    browser: Any, app_url: str, game: str, options: dict[str, Any], chances: int
) -> None:
    """The analysis board's evaluation, its chances by seat and by move, the choices of
    chance ("赤が先手（50%）", not "start:0 (50%)") and the moves explored."""
    expect = _expect()
    query = urllib.parse.urlencode({"game": game, "options": json.dumps(options), "moves": "[]"})
    with match_page(browser, app_url, f"/analysis?{query}", lang="ja") as page:
        expect(page.locator("#ab-eval .ab-shares li").first).to_be_attached()
        said = unread(page.locator("#analysis-board").inner_text())
        for explored in range(1, chances + 1):
            page.locator("#ab-choices button").first.click()
            expect(page.locator("#ab-moves .move")).to_have_count(explored)
            expect(page.locator("#ab-eval .ab-shares li").first).to_be_attached()
            said |= unread(page.locator("#analysis-board").inner_text())
        assert said == {}
