"""Seeks that die with their creator, in Chromium (issue 51, item 1): a rated 1+0
challenge whose creator closes the tab leaves the other's lobby; a rated real-time game
whose first mover never moves is aborted, unrated, and both pages say so.

The served app's grace and first-move limit are short (:data:`GRACE`,
:data:`FIRST_MOVE`), so that the server's own clock decides within the test's waits.
"""

from __future__ import annotations

import json
import re
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_helpers import expect, serving, shot

GRACE = 2.0
FIRST_MOVE = 5.0


@pytest.fixture(scope="module")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from stairgames.server.app import create_app
    from stairgames.server.base.settings import Settings

    data_dir: Path = tmp_path_factory.mktemp("seek-abort-web")
    settings = Settings(
        data_dir=data_dir,
        computer_workers=0,
        loop_guard=True,
        challenge_grace_seconds=GRACE,
        lobby_sweep_seconds=0.5,
        first_move_seconds=FIRST_MOVE,
    )
    with serving(create_app(settings), settings) as url:
        yield url


def person(browser: Any, app_url: str, name: str, errors: list[str]) -> tuple[Any, Any]:
    """A browser context of its own whose page chose ``name``: (context, page)."""
    context = browser.new_context(locale="en-GB", viewport={"width": 1100, "height": 800})
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(app_url + "/")
    page.locator("#me-edit").click()
    page.get_by_label("Your name", exact=True).fill(name)
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#me-name")).to_have_text(name)
    return context, page


def open_rated_one_minute_challenge(page: Any, app_url: str) -> None:
    page.goto(app_url + "/lobby")
    page.locator("#challenge-game").select_option("stairs")
    page.locator("#challenge-rated").check()
    page.locator("#challenge-time").select_option("realtime:1:0")
    page.get_by_role("button", name="Open the game").click()
    page.wait_for_url(re.compile(r"/m/"))
    expect(page.locator("#invite")).to_be_visible()  # waiting for someone


def api(app_url: str, path: str) -> Any:
    with urllib.request.urlopen(app_url + path, timeout=30) as reply:
        return json.loads(reply.read().decode())


def test_a_challenge_whose_creator_closes_the_tab_leaves_the_lobby(
    browser: Any, app_url: str
) -> None:
    errors: list[str] = []
    ann_context, ann = person(browser, app_url, "Leaving Ann", errors)
    bob_context, bob = person(browser, app_url, "Staying Bob", errors)
    open_rated_one_minute_challenge(ann, app_url)
    bob.goto(app_url + "/lobby")
    row = bob.locator(".challenge").filter(has_text="Leaving Ann")
    expect(row).to_contain_text("rated")
    ann_context.close()  # the tab closes: her last page on the site
    expect(row).to_have_count(0, timeout=30_000)  # gone from Bob's lobby, live
    assert api(app_url, "/api/challenges")["challenges"] == []
    shot(bob, "lobby-creator-left")
    bob_context.close()
    assert not errors


def test_a_rated_game_whose_first_mover_never_moves_is_aborted_unrated(
    browser: Any, app_url: str
) -> None:
    errors: list[str] = []
    ann_context, ann = person(browser, app_url, "Idle Ann", errors)
    bob_context, bob = person(browser, app_url, "Waiting Bob", errors)
    open_rated_one_minute_challenge(ann, app_url)
    bob.goto(app_url + "/lobby")
    row = bob.locator(".challenge").filter(has_text="Idle Ann")
    row.get_by_role("button", name="Accept").click()
    bob.wait_for_url(re.compile(r"/m/"))
    expect(ann.locator("#seats .clock.running")).to_have_count(1)  # Ann's first turn runs
    # nobody moves: the server aborts the game once Ann's first turn ran its limit
    for page in (ann, bob):
        result = page.locator("#result")
        expect(result).to_contain_text(
            "The game was aborted: light did not make a first move", timeout=30_000
        )
        expect(page.locator("#seats .clock.running")).to_have_count(0)
        expect(result.locator("strong")).to_have_text("Game aborted")  # not "Draw"
        expect(result).to_have_attribute("data-outcome", "neutral")
    shot(bob, "game-aborted")
    for name in ("Idle Ann", "Waiting Bob"):  # unrated: nobody's rating changed
        profile = api(app_url, "/api/players/" + urllib.parse.quote(name))
        assert profile["ratings"] == {}, profile
    for context in (ann_context, bob_context):
        context.close()
    assert not errors
