"""The chat on the match page (issue 30), in Chromium: two players and a spectator, markup
shown as text, preset phrases in each reader's language, the spectators' room kept from
the players, and the switch that hides the chat.

Needs Debian's Chromium (``tests/browser_helpers.py``); skips without it. Screenshots go
to ``test-artifacts/chat-*.png``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_helpers import expect, serving, shot, watch_content_security_policy

HOSTILE = "<img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("fastapi", reason="the web app needs fastapi")
    from stairgames.server.app import create_app
    from stairgames.server.base.settings import Settings

    data: Path = tmp_path_factory.mktemp("web-chat")
    with serving(create_app(Settings(data_dir=data, computer_workers=0, loop_guard=True))) as url:
        yield url


class Person:
    """A browser of its own (cookies, storage): its page, its dialogs, its policy breaches
    and script errors."""

    def __init__(self, browser: Any, server: str, locale: str = "en-GB") -> None:
        self.context = browser.new_context(viewport={"width": 1100, "height": 860}, locale=locale)
        self.violations: list[str] = []
        watch_content_security_policy(self.context, self.violations)
        self.page = self.context.new_page()
        self.dialogs: list[str] = []
        """The dialogs the page opened (but the confirmation of a resignation)."""
        self.errors: list[str] = []
        self.page.on("dialog", self._dialog)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.server = server

    def _dialog(self, dialog: Any) -> None:
        if dialog.message == "Resign this game?":
            dialog.accept()
            return
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def lines(self) -> Any:
        return self.page.locator("#chat-messages li")

    def write(self, text: str) -> None:
        self.page.locator("#chat-input").fill(text)
        self.page.locator("#chat-form button[type=submit]").click()
        expect(self.page.locator("#chat-input")).to_have_value("")

    def name(self) -> str:
        """The name of this browser's player."""
        me: dict[str, Any] = self.page.evaluate("fetch('/api/me').then(r => r.json())")
        return str(me["name"])

    def check(self) -> None:
        assert self.dialogs == [] and self.errors == [] and self.violations == []


@pytest.fixture
def people(browser: Any, server: str) -> Iterator[list[Person]]:
    made: list[Person] = []
    yield made
    for person in made:
        person.context.close()


def online_game(
    people: list[Person], browser: Any, server: str, watcher_locale: str = "en-GB"
) -> tuple[Person, Person, Person]:
    """Ann starts Stairs against a friend online, Bob joins through the link, and Cat
    (whose browser reads ``watcher_locale``) watches."""
    ann, bob = Person(browser, server), Person(browser, server)
    cat = Person(browser, server, watcher_locale)
    people += [ann, bob, cat]
    ann.page.goto(server + "/")
    ann.page.get_by_label("Stairs", exact=True).check()
    ann.page.get_by_label("A friend online (invite link)", exact=True).check()
    ann.page.get_by_role("button", name="Start").click()
    ann.page.wait_for_url(re.compile(r"/m/"))
    link = ann.page.get_by_label("Invite link", exact=True)
    link.wait_for()
    bob.page.goto(link.input_value())
    expect(bob.page.locator("#seats li").nth(1)).to_have_text("dark (you)")
    ann.page.get_by_text("dark joined").wait_for()
    cat.page.goto(ann.page.url)
    expect(cat.page.locator("#watching")).to_be_visible()
    for person in (ann, bob, cat):
        expect(person.page.locator("#chat")).to_be_visible()
    return ann, bob, cat


def test_players_and_a_spectator_chat_markup_reads_as_text(
    browser: Any, server: str, people: list[Person]
) -> None:
    ann, bob, cat = online_game(people, browser, server)
    expect(ann.page.locator("#chat-empty")).to_have_text("No messages yet.")
    ann.write(HOSTILE)
    for person in (ann, bob, cat):
        said = person.lines().last.locator(".chat-said")
        expect(said).to_have_text(HOSTILE)
        assert person.page.locator("#chat img, #chat script").count() == 0
    expect(bob.lines().last.locator(".chat-who")).to_have_text(f"{ann.name()} (light)")

    # a spectator writes to the spectators: told so, and the players never see it
    expect(cat.page.locator("#chat-note")).to_be_visible()
    assert ann.page.locator("#chat-note").is_hidden()
    cat.write("who wins?")
    expect(cat.lines().last).to_have_class(re.compile(r"\bspectators\b"))
    expect(cat.lines().last.locator(".chat-who")).to_have_text(f"{cat.name()} (spectator)")
    bob.write("my move next")
    for person in (ann, cat):
        expect(person.lines().last.locator(".chat-said")).to_have_text("my move next")
    for person in (ann, bob):  # Bob's message came after Cat's: Cat's never reached them
        expect(person.lines()).to_have_count(2)
        assert "who wins?" not in person.page.locator("#chat-messages").inner_text()
    expect(cat.lines()).to_have_count(3)

    shot(ann.page, "chat-player")
    shot(cat.page, "chat-spectator")
    for person in (ann, bob, cat):
        person.check()


def test_a_phrase_reads_in_each_readers_language(
    browser: Any, server: str, people: list[Person]
) -> None:
    from stairgames.server.ops.pages import catalog_messages

    japanese = catalog_messages("ja").get("Good game")
    assert japanese and not japanese.isascii(), "translate 'Good game' in the .po file"
    ann, bob, cat = online_game(people, browser, server, watcher_locale="ja-JP")
    phrases = bob.page.locator("#chat-phrases button")
    expect(phrases).to_have_text(["Hello", "Good luck", "Thank you", "Good game"])
    bob.page.get_by_role("button", name="Good game", exact=True).click()
    for person in (ann, bob):
        expect(person.lines().last.locator(".chat-said")).to_have_text("Good game")
    expect(cat.lines().last.locator(".chat-said")).to_have_text(japanese)
    # the reader's language, whenever it changes
    ann.page.get_by_label("Language").select_option("ja")
    expect(ann.lines().last.locator(".chat-said")).to_have_text(japanese)
    expect(ann.page.locator("#chat-phrases button").last).to_have_text(japanese)
    shot(cat.page, "chat-spectator-japanese")
    for person in (ann, bob, cat):
        person.check()


def test_hide_chat_is_remembered(browser: Any, server: str, people: list[Person]) -> None:
    ann, bob, _cat = online_game(people, browser, server)
    ann.write("hello there")
    expect(bob.lines().last.locator(".chat-said")).to_have_text("hello there")
    bob.page.get_by_label("Hide chat").check()
    expect(bob.page.locator("#chat-messages")).to_be_hidden()
    expect(bob.page.locator("#chat-input")).to_be_hidden()
    bob.page.reload()
    expect(bob.page.locator("#seats li").nth(1)).to_have_text("dark (you)")
    expect(bob.page.get_by_label("Hide chat")).to_be_checked()
    expect(bob.page.locator("#chat-messages")).to_be_hidden()
    bob.page.get_by_label("Hide chat").uncheck()
    expect(bob.lines().last.locator(".chat-said")).to_have_text("hello there")


def test_the_replay_shows_what_was_said_by_each_move(
    browser: Any, server: str, people: list[Person]
) -> None:
    ann, bob, _cat = online_game(people, browser, server)
    ann.page.get_by_role("button", name="Good luck", exact=True).click()
    ann.page.get_by_role("button", name="d3", exact=True).click()
    ann.page.get_by_role("button", name="c4", exact=True).click()
    expect(bob.page.locator("#turn")).to_have_text("Your move")
    bob.write("nice move")
    bob.page.get_by_role("button", name="Resign").click()
    expect(ann.page.locator("#result")).to_be_visible()
    # the result box is coloured by what the game means to its viewer
    expect(ann.page.locator("#result")).to_have_attribute("data-outcome", "won")
    expect(bob.page.locator("#result")).to_have_attribute("data-outcome", "lost")
    ann.page.get_by_role("button", name="Good game", exact=True).click()
    said = ann.page.locator("#chat-messages .chat-said")
    expect(said).to_have_text(["Good luck", "nice move", "Good game"])
    ann.page.get_by_role("button", name="First").click()
    expect(ann.page.locator("#replay-step")).to_have_text("Move 0 of 1")
    expect(said).to_have_text(["Good luck"])
    ann.page.get_by_role("button", name="Next").click()
    expect(said).to_have_text(["Good luck", "nice move", "Good game"])
    shot(ann.page, "chat-replay")
    for person in (ann, bob):
        person.check()
