"""A person plays a bot in the browser (issue 53): the bot is ``stairgames bot``'s client
(:class:`stairgames.bot_client.Bot`, over HTTP only, in a thread), the person a Chromium
page. The person challenges the bot, the bot accepts from its event stream, the page
names it with the BOT mark, and the person plays the game to its end, the bot answering
each move through its game stream. Needs Debian's Chromium (``tests/browser_helpers.py``);
skips without it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from stairgames.bot_client import Bot, agent_chooser
from stairgames.server.people.players import COOKIE
from tests.browser_helpers import expect, serving, watch_content_security_policy
from tests.server_helpers import JSON
from tests.test_web_e2e import play_moves, result_shown


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    from stairgames.server.app import create_app
    from stairgames.server.base.settings import Settings

    settings = Settings(data_dir=tmp_path, computer_workers=0)
    app = create_app(settings)
    with serving(app, settings) as base:
        yield base, app


def bot_token(base: str, app: Any, name: str) -> str:
    players = app.state.players
    made, secret = players.create(name)
    players.add_password(made, "a long password")
    cookie = {**JSON, "cookie": f"{COOKIE}={secret}"}
    body = {"description": "bot", "scopes": ["bot:play"]}
    reply = httpx.post(f"{base}/api/account/tokens", json=body, headers=cookie)
    assert reply.status_code == 200, reply.text
    token: str = reply.json()["token"]
    bearer = {**JSON, "authorization": f"Bearer {token}"}
    upgraded = httpx.post(f"{base}/api/bot/account/upgrade", json={}, headers=bearer)
    assert upgraded.status_code == 200, upgraded.text
    return token


def test_a_person_plays_a_bot_to_the_end_in_the_browser(
    site: tuple[str, Any], browser: Any
) -> None:
    base, app = site
    listening = threading.Event()
    said: list[str] = []

    def say(text: str) -> None:
        said.append(text)
        if "listening" in text:
            listening.set()

    bot = Bot(base, bot_token(base, app, "Robo"), agent_chooser("random"), games=1, seed=3, say=say)
    playing = threading.Thread(target=bot.run, daemon=True)
    playing.start()
    assert listening.wait(timeout=60), said

    _ann, ann_secret = app.state.players.create("Ann")
    cookie = {**JSON, "cookie": f"{COOKIE}={ann_secret}"}
    body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"], "to": "Robo"}
    made = httpx.post(f"{base}/api/challenges", json=body, headers=cookie)
    assert made.status_code == 200, made.text
    match = made.json()["match"]

    violations: list[str] = []
    context = browser.new_context(viewport={"width": 1100, "height": 800}, locale="en-GB")
    host = base.split("//")[1].split(":")[0]
    context.add_cookies(
        [{"name": COOKIE, "value": ann_secret, "domain": host, "path": "/", "secure": True}]
    )
    watch_content_security_policy(context, violations)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{base}/m/{match}")
        expect(page.locator(".bot-mark").first).to_be_visible()  # the bot's seat: BOT Robo
        assert play_moves(page, 200), "the game did not end within 200 moves"
        assert result_shown(page)
    finally:
        context.close()
    playing.join(timeout=60)
    assert not playing.is_alive(), said
    assert bot.finished == 1 and not bot.failures, said
    assert not errors and not violations, (errors, violations)
