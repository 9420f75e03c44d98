"""Blocking from a profile (issue 51, item 7), in Chromium: the blocked player's challenge
leaves the blocker's lobby and their chat the blocker's game page, live and after a
reload, while the others still see both.

Needs Debian's Chromium (``tests/browser_helpers.py``); skips without it.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_helpers import expect, serving, shot


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("fastapi", reason="the web app needs fastapi")
    from stairgames.server.app import create_app
    from stairgames.server.base.settings import Settings

    data: Path = tmp_path_factory.mktemp("web-blocks")
    settings = Settings(data_dir=data, computer_workers=0, loop_guard=True)
    with serving(create_app(settings), settings) as url:
        yield url


def person(browser: Any, server: str, name: str, errors: list[str]) -> Any:
    """A page of a browser of its own, its player named ``name``."""
    context = browser.new_context(locale="en-GB", viewport={"width": 1100, "height": 860})
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server + "/")
    page.evaluate(
        """name => fetch('/api/me', {method: 'POST', headers: {'content-type':
        'application/json'}, body: JSON.stringify({name})})""",
        name,
    )
    return page


def open_challenge(page: Any) -> str:
    """A Stairs challenge of the page's player: its match."""
    made: dict[str, Any] = page.evaluate(
        """() => fetch('/api/challenges', {method: 'POST', headers: {'content-type':
        'application/json'}, body: JSON.stringify({game: 'stairs', options: {size: 4},
        seats: ['human', 'online']})}).then(r => r.json())"""
    )
    return str(made["match"])


def write(page: Any, text: str) -> None:
    page.locator("#chat-input").fill(text)
    page.locator("#chat-form button[type=submit]").click()
    expect(page.locator("#chat-input")).to_have_value("")


def test_a_block_from_a_profile_hides_that_players_challenge_and_chat(
    browser: Any, server: str
) -> None:
    errors: list[str] = []
    ann = person(browser, server, "Ann Blocker", errors)
    bob = person(browser, server, "Bob Blocked", errors)
    cy = person(browser, server, "Cy Other", errors)
    match = open_challenge(bob)
    accepted = ann.evaluate(
        f"""() => fetch('/api/challenges/{match}/accept', {{method: 'POST', headers:
        {{'content-type': 'application/json'}}, body: '{{}}'}}).then(r => r.status)"""
    )
    assert accepted == 200
    for page in (ann, bob):
        page.goto(f"{server}/m/{match}")
        expect(page.locator("#chat")).to_be_visible()
    write(bob, "hello from Bob")
    expect(ann.locator("#chat-messages li")).to_have_count(1)
    open_challenge(bob)
    open_challenge(cy)

    ann.goto(f"{server}/p/{urllib.parse.quote('Bob Blocked')}")
    ann.get_by_role("button", name="Block", exact=True).click()
    expect(ann.get_by_role("button", name="Unblock")).to_be_visible()
    expect(ann.locator("#profile-actions")).to_contain_text("You blocked this player.")
    shot(ann, "blocks-profile")

    ann.goto(server + "/lobby")
    expect(ann.locator(".challenge").filter(has_text="Cy Other")).to_have_count(1)
    expect(ann.locator(".challenge").filter(has_text="Bob Blocked")).to_have_count(0)
    cy.goto(server + "/lobby")
    expect(cy.locator(".challenge").filter(has_text="Bob Blocked")).to_have_count(1)

    ann.goto(f"{server}/m/{match}")
    expect(ann.locator("#chat")).to_be_visible()
    expect(ann.locator("#chat-empty")).to_be_visible()  # Bob's message: not listed to her
    write(bob, "more from Bob")
    write(ann, "from Ann")
    expect(bob.locator("#chat-messages li")).to_have_count(3)  # Bob reads everything
    expect(ann.locator("#chat-messages li")).to_have_count(1)
    expect(ann.locator("#chat-messages")).not_to_contain_text("Bob")
    ann.reload()
    expect(ann.locator("#chat-messages li")).to_have_count(1)
    assert errors == []


def test_a_chat_message_is_muted_from_its_mute_button(browser: Any, server: str) -> None:
    errors: list[str] = []
    dee = person(browser, server, "Dee Muter", errors)
    eve = person(browser, server, "Eve Muted", errors)
    match = open_challenge(eve)
    dee.evaluate(f"fetch('/api/challenges/{match}/accept', {{method: 'POST'}})")
    for page in (dee, eve):
        page.goto(f"{server}/m/{match}")
        expect(page.locator("#chat")).to_be_visible()
    write(eve, "noise")
    line = dee.locator("#chat-messages li").filter(has_text="noise")
    expect(line.get_by_role("button", name="Report")).to_be_visible()
    line.get_by_role("button", name="Mute").click()
    expect(dee.locator("#chat-messages li")).to_have_count(0)
    expect(eve.locator("#chat-messages li")).to_have_count(1)
    expect(eve.locator("#chat-messages button")).to_have_count(0)  # none on her own message
    assert errors == []
