"""A challenge to one player, in Chromium (issue 51, item 4): two people in two browser
contexts. Ann opens Bob's profile and challenges him (the lobby's form, Bob named); Bob,
on the home page, is told on his channel (``WS /ws/me``: a notice from
``web/static/told.js``), accepts there, and both land in the game. A third person's
lobby never lists it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_helpers import expect, serving, shot
from tests.test_web_told_everywhere import person


@pytest.fixture(scope="module")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from stairgames.server.app import create_app
    from stairgames.server.base.settings import Settings

    data_dir: Path = tmp_path_factory.mktemp("direct-web")
    settings = Settings(data_dir=data_dir, computer_workers=0, loop_guard=True)
    with serving(create_app(settings), settings) as url:
        yield url


def test_ann_challenges_bob_from_his_profile_and_he_accepts_from_the_home_page(
    browser: Any, app_url: str
) -> None:
    errors: list[str] = []
    ann_context, ann = person(browser, app_url, "Direct Ann", errors)
    bob_context, bob = person(browser, app_url, "Direct Bob", errors)
    cy_context, cy = person(browser, app_url, "Direct Cy", errors)
    bob.goto(app_url + "/")  # the home page: his channel open, no lobby
    ann.goto(app_url + "/p/Direct%20Bob")
    ann.locator("#profile-challenge").click()
    ann.wait_for_url(re.compile(r"/lobby\?to="))
    expect(ann.locator("#challenge-to")).to_contain_text("A challenge to Direct Bob")
    ann.locator("#challenge-game").select_option("stairs")
    ann.get_by_role("button", name="Open the game").click()
    ann.wait_for_url(re.compile(r"/m/"))
    match_path = ann.url.split(app_url, 1)[1]
    notice = bob.locator(".told-notice")
    expect(notice).to_contain_text("Direct Ann challenges you to Stairs")
    shot(bob, "told-direct-challenge")
    cy.goto(app_url + "/lobby")
    expect(cy.locator("#no-challenges")).to_be_visible()  # not listed to Cy
    notice.get_by_role("button", name="Accept").click()
    bob.wait_for_url(re.compile(re.escape(match_path) + "$"))
    expect(bob.locator("#turn")).to_have_text(re.compile(r"\S"))
    expect(ann.locator("#turn")).to_have_text("Your move")  # both seats taken: Ann plays
    for context in (ann_context, bob_context, cy_context):
        context.close()
    assert not errors
