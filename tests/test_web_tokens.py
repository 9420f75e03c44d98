"""API tokens on the account page (issue 53; ``web/static/accounttokens.js``), in
Chromium: an account creates a token (its scopes as checkboxes), sees it once, finds it
listed and revokes it, after which the API refuses it; a player without a password is
offered no tokens; a bot's profile shows BOT before its name. Needs Debian's Chromium
(``tests/browser_helpers.py``); skips without it."""

from __future__ import annotations

import hashlib
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from stairgames.server.people.players import COOKIE
from stairgames.server.people.tokens import PREFIX, TokenRow
from tests.browser_helpers import expect, serving, watch_content_security_policy


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    from stairgames.server.app import create_app
    from stairgames.server.base.settings import Settings

    settings = Settings(data_dir=tmp_path, computer_workers=0)
    app = create_app(settings)
    with serving(app, settings) as base:
        yield base, app


def page_of(browser: Any, base: str, cookie: str, violations: list[str]) -> Any:
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-GB")
    host = base.split("//")[1].split(":")[0]
    context.add_cookies(
        [{"name": COOKIE, "value": cookie, "domain": host, "path": "/", "secure": True}]
    )
    watch_content_security_policy(context, violations)
    return context.new_page()


def upgrade_status(base: str, token: str) -> int:
    """What ``POST /api/bot/account/upgrade`` answers with ``token``."""
    request = urllib.request.Request(
        f"{base}/api/bot/account/upgrade",
        data=b"{}",
        method="POST",
        headers={"content-type": "application/json", "authorization": f"Bearer {token}"},
    )
    try:
        with urllib.request.urlopen(request) as reply:
            json.load(reply)
            return int(reply.status)
    except urllib.error.HTTPError as refused:
        return int(refused.code)


def test_an_account_creates_sees_once_and_revokes_a_token(
    site: tuple[str, Any], browser: Any
) -> None:
    base, app = site
    players = app.state.players
    ann, ann_secret = players.create("Ann")
    players.add_password(ann, "a long password")
    violations: list[str] = []
    page = page_of(browser, base, ann_secret, violations)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{base}/account")
    expect(page.locator("#tokens")).to_be_visible()
    expect(page.locator("#no-tokens")).to_be_visible()
    page.fill("#token-description", "my bot")
    page.check("#token-scopes input[value='bot:play']")
    page.uncheck("#token-scopes input[value='read']")
    page.click("#token-form button[type=submit]")
    expect(page.locator("#token-made")).to_be_visible()
    secret = page.input_value("#token-secret")
    assert secret.startswith(PREFIX)
    expect(page.locator("#token-list li")).to_have_count(1)
    expect(page.locator("#token-list li")).to_contain_text("my bot (bot:play)")
    expect(page.locator("#no-tokens")).to_be_hidden()
    with Session(players.engine) as session:
        (row,) = session.scalars(select(TokenRow))
    assert row.secret_hash == hashlib.sha256(secret.encode()).hexdigest()
    # shown once: a new page lists it without its secret
    page.reload()
    expect(page.locator("#token-list li")).to_have_count(1)
    assert secret not in page.content()
    assert upgrade_status(base, secret) == 200
    page.click("#token-list li button")
    expect(page.locator("#token-list li")).to_have_count(0)
    expect(page.locator("#no-tokens")).to_be_visible()
    assert upgrade_status(base, secret) == 401
    assert errors == [] and violations == []


def test_a_player_without_a_password_is_offered_no_tokens(
    site: tuple[str, Any], browser: Any
) -> None:
    base, app = site
    _guest, secret = app.state.players.create("Guest")
    violations: list[str] = []
    page = page_of(browser, base, secret, violations)
    page.goto(f"{base}/account")
    expect(page.locator("#page")).to_be_visible()
    expect(page.locator("#tokens")).to_be_hidden()
    assert violations == []


def test_the_pages_show_bot_before_a_bots_name(site: tuple[str, Any], browser: Any) -> None:
    from stairgames.server.people.tokens import tokens_on

    base, app = site
    players = app.state.players
    bob, _ = players.create("Bob")
    tokens_on(players.engine).make_bot(bob.id)
    _ann, ann_secret = players.create("Ann")
    violations: list[str] = []
    page = page_of(browser, base, ann_secret, violations)
    page.goto(f"{base}/p/Bob")
    expect(page.locator("#profile-name .bot-mark")).to_have_text("BOT")
    page.goto(f"{base}/p/Ann")
    expect(page.locator("#profile-name")).to_have_text("Ann")
    expect(page.locator("#profile-name .bot-mark")).to_have_count(0)
    assert violations == []
