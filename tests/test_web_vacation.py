"""Vacation (issue 54) in Debian's Chromium: Ann starts a vacation on her account page;
Bob's page of their correspondence game says at once, beside her clock, until when she
is away, in English and in Japanese, and no more once she is back; axe-core finds no
serious violation on either page."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from stairgames.server.app import create_app
from stairgames.server.base.settings import Settings
from tests.browser_helpers import expect, serving, shot
from tests.test_web_axe import axe_violations
from tests.test_web_e2e import play_a_move


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    app = create_app(Settings(data_dir=tmp_path, computer_workers=0, loop_guard=True))
    with serving(app) as url:
        yield url, app


@contextlib.contextmanager
def correspondence_game(browser: Any, url: str) -> Iterator[tuple[Any, Any, str]]:
    """Ann's and Bob's pages of a game of Stairs a day a move, each past a first move:
    Ann (light) to move; and the match's id. The test fails on any script error."""
    errors: list[str] = []
    contexts = [
        # (bypass_csp: axe-core is injected, as a browser extension would be)
        browser.new_context(
            locale="en-GB", viewport={"width": 1100, "height": 900}, bypass_csp=True
        )
        for _ in range(2)
    ]
    ann, bob = (context.new_page() for context in contexts)
    for page in (ann, bob):
        page.on("pageerror", lambda error: errors.append(str(error)))
    ann.goto(url + "/")
    ann.get_by_label("Stairs", exact=True).check()
    ann.get_by_label("A friend online (invite link)").check()
    ann.locator("#time-control").select_option("correspondence:1")
    ann.get_by_role("button", name="Start").click()
    ann.wait_for_url(re.compile(r"/m/"))
    expect(ann.locator("#invite-link")).to_have_value(re.compile(r"/m/"))
    bob.goto(ann.locator("#invite-link").input_value())
    expect(bob.locator("#seats li")).to_have_count(2)
    play_a_move(ann)
    expect(bob.locator("#moves .move")).to_have_count(1)
    play_a_move(bob)
    expect(ann.locator("#moves .move")).to_have_count(2)
    try:
        yield ann, bob, ann.url.rsplit("/", 1)[-1]
    finally:
        for context in contexts:
            context.close()
    assert not errors, errors


def test_the_opponent_sees_until_when_a_player_is_away(browser: Any, site: tuple[str, Any]) -> None:
    url, _app = site
    with correspondence_game(browser, url) as (ann, bob, _match_id):
        notice = bob.locator("#seats .away-note")
        expect(notice).to_have_count(0)
        account = ann.context.new_page()
        account.goto(url + "/account")
        section = account.locator("#vacation")
        expect(section.get_by_role("heading", name="Vacation")).to_be_visible()
        expect(section.locator("#vacation-days")).to_contain_text("Days left: 14.0.")
        automatic = section.get_by_label(re.compile("Start a vacation by itself"))
        expect(automatic).to_be_checked()
        automatic.uncheck()  # kept by the server, the focus where it was
        expect(automatic).not_to_be_checked()
        expect(automatic).to_be_focused()
        account.reload()
        expect(automatic).not_to_be_checked()
        section.get_by_role("button", name="Start a vacation").click()
        expect(section.locator("#vacation-state")).to_have_text(
            re.compile(r"^You are on vacation until .+\.$")
        )
        expect(notice).to_have_text(re.compile(r"^on vacation until \S"))
        expect(bob.locator("#seats li").first).to_contain_text("on vacation until")
        shot(bob, "vacation-notice")
        assert axe_violations(account) == [] and axe_violations(bob) == []
        bob.locator("#lang").select_option("ja")
        expect(notice).to_have_text(re.compile(r"まで休暇中$"))
        assert axe_violations(bob) == []
        section.get_by_role("button", name="End my vacation").click()
        expect(section.locator("#vacation-state")).to_have_text("You are not on vacation.")
        expect(notice).to_have_count(0)
        account.close()
