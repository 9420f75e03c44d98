"""Stale games against the computer leave My games, in Chromium (issue 51, item 4): a
player hides one game (it leaves the list and the badge; "Hidden games (1)" lists it, and
Show brings it back) and resigns another from the list; in Japanese the same buttons and
the toggle read as Japanese. The real web app runs in a thread; Debian's Chromium at
/usr/bin/chromium drives the pages (without it the tests skip and say why)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_helpers import expect, serving, shot
from tests.test_web_japanese import choose_name, unread
from tests.test_web_stepping import match_page


@pytest.fixture(scope="module")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from stairgames.server.app import create_app
    from stairgames.server.base.settings import Settings

    data_dir: Path = tmp_path_factory.mktemp("my-games-stale")
    settings = Settings(data_dir=data_dir, computer_workers=0, loop_guard=True)
    with serving(create_app(settings), settings) as url:
        yield url


def against_the_computer(page: Any, app_url: str) -> str:
    """A Stairs game of the page's player (to move) against the computer: its id (made
    through the API with the page's cookie, as the home page's form makes one)."""
    body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "computer:easy"]}
    made = page.request.post(app_url + "/api/matches", data=body)
    assert made.ok, made.text()
    match: str = made.json()["match"]
    return match


def row_of(page: Any, match: str) -> Any:
    return page.locator(".my-game").filter(has=page.locator(f'a[href="/m/{match}"]'))


def test_hiding_showing_and_resigning_from_my_games(browser: Any, app_url: str) -> None:
    with match_page(browser, app_url, "/") as page:
        choose_name(page, "Stale Sam")
        resigned = against_the_computer(page, app_url)
        hidden = against_the_computer(page, app_url)
        page.goto(app_url + "/my")
        expect(page.locator(".my-game")).to_have_count(2)
        expect(page.locator("#my-games-badge")).to_have_text("2")
        toggle = page.locator("#my-games-hidden-toggle")
        expect(toggle).to_be_hidden()  # nothing hidden yet

        row_of(page, hidden).get_by_role("button", name="Hide").click()
        expect(row_of(page, hidden)).to_have_count(0)
        expect(page.locator(".my-game")).to_have_count(1)
        expect(page.locator("#my-games-badge")).to_have_text("1")
        expect(toggle).to_have_text("Hidden games (1)")

        toggle.click()
        expect(toggle).to_have_text("Back to My games")
        expect(page.locator(".my-game")).to_have_count(1)
        shot(page, "my-games-hidden")
        row_of(page, hidden).get_by_role("button", name="Show").click()
        expect(page.locator(".my-game")).to_have_count(0)
        toggle.click()
        expect(page.locator(".my-game")).to_have_count(2)
        expect(page.locator("#my-games-badge")).to_have_text("2")

        page.once("dialog", lambda dialog: dialog.accept())
        row_of(page, resigned).get_by_role("button", name="Resign").click()
        expect(row_of(page, resigned)).to_contain_text("Lost")
        expect(row_of(page, resigned).get_by_role("button")).to_have_count(0)
        expect(page.locator("#my-games-badge")).to_have_text("1")
        expect(page.locator("#my-games-error")).to_have_text("")


def test_my_games_buttons_read_as_japanese(browser: Any, app_url: str) -> None:
    with match_page(browser, app_url, "/", lang="ja") as page:
        choose_name(page, "花子")
        kept = against_the_computer(page, app_url)
        hidden = against_the_computer(page, app_url)
        page.goto(app_url + "/my")
        row_of(page, hidden).get_by_role("button", name="隠す").click()
        toggle = page.locator("#my-games-hidden-toggle")
        expect(toggle).to_have_text("隠した対局（1）")
        expect(row_of(page, kept).get_by_role("button", name="降参")).to_be_visible()
        assert unread(page.locator("#my-games").inner_text()) == {}
