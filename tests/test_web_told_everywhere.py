"""Told wherever you are, in Chromium (issue 51, item 4): two people in two browser
contexts; one waits on the lobby page while the other moves in their real-time game, and
the first's header badge and tab title say it is their turn, without a reload (the
player's channel, ``WS /ws/me``: ``web/static/told.js``, ``server/chat/told.py``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_helpers import expect, serving, shot
from tests.test_web_e2e import play_a_move


@pytest.fixture(scope="module")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from stairgames.server.app import create_app
    from stairgames.server.base.settings import Settings

    data_dir: Path = tmp_path_factory.mktemp("told-web")
    settings = Settings(data_dir=data_dir, computer_workers=0, loop_guard=True)
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


def test_a_move_made_elsewhere_reaches_the_badge_and_title_of_the_lobby_page(
    browser: Any, app_url: str
) -> None:
    errors: list[str] = []
    ann_context, ann = person(browser, app_url, "Moving Ann", errors)
    bob_context, bob = person(browser, app_url, "Lobby Bob", errors)
    ann.goto(app_url + "/lobby")
    ann.locator("#challenge-game").select_option("stairs")
    ann.locator("#challenge-time").select_option("realtime:5:3")
    ann.get_by_role("button", name="Open the game").click()
    ann.wait_for_url(re.compile(r"/m/"))
    bob.goto(app_url + "/lobby")
    bob.locator(".challenge").filter(has_text="Moving Ann").get_by_role(
        "button", name="Accept"
    ).click()
    bob.wait_for_url(re.compile(r"/m/"))
    bob.goto(app_url + "/lobby")  # light (Ann) to move: nothing waits for Bob
    badge = bob.locator("#my-games-badge")
    expect(badge).to_be_hidden()
    expect(bob).to_have_title(re.compile(r"^(?!\(\d+\))"))
    expect(ann).to_have_title(re.compile(r"^\(1\) Your turn · "))  # once, not twice
    expect(ann.locator("#turn")).to_have_text("Your move")
    play_a_move(ann)
    # the lobby page, never reloaded, hears it
    expect(badge).to_have_text("1")
    expect(bob).to_have_title(re.compile(r"^\(1\) Your turn · "))
    expect(ann).to_have_title(re.compile(r"^(?!\(\d+\))"))  # Ann's turn ended
    shot(bob, "lobby-told-your-turn")
    for context in (ann_context, bob_context):
        context.close()
    assert not errors
