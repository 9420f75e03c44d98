"""Clocks and being told in Chromium (issue 30): a 1+0 game of Stairs between two browsers
that one player loses on time with nobody touching the page, the tab's title and a
browser notification on the waiting player's page.

The server's clock is the real one, until the last minute: the test moves it a minute
ahead (:class:`AheadClock`) instead of waiting for one, and the server's own referee
flags the seat whose time ran out, as it would a minute later."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_helpers import expect, serving, shot
from tests.test_web_e2e import play_a_move

HIDDEN_TAB = """
(() => {
  // The tab hidden on the test's word, and every notification the page makes kept.
  window.__hidden = false;
  Object.defineProperty(document, "hidden", { get: () => window.__hidden === true });
  window.__notes = [];
  const Real = window.Notification;
  class Kept extends Real {
    constructor(title, options) {
      super(title, options);
      window.__notes.push([title, options.body]);
    }
  }
  Object.defineProperty(Kept, "permission", { get: () => Real.permission });
  Kept.requestPermission = (...args) => Real.requestPermission(...args);
  window.Notification = Kept;
})();
"""


class AheadClock:
    """The server's wall clock: the real one, ``ahead`` seconds later."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def __call__(self) -> float:
        return time.time() + self.ahead


@pytest.fixture(scope="module")
def server_clock() -> AheadClock:
    return AheadClock()


@pytest.fixture(scope="module")
def app_url(tmp_path_factory: pytest.TempPathFactory, server_clock: AheadClock) -> Iterator[str]:
    from stairgames.server.app import create_app
    from stairgames.server.base.settings import Settings

    data_dir: Path = tmp_path_factory.mktemp("clocks-web")
    settings = Settings(
        data_dir=data_dir, computer_workers=0, loop_guard=True, wall_clock=server_clock
    )
    with serving(create_app(settings), settings) as url:
        yield url


def seconds_shown(text: str) -> float:
    minutes, _, seconds = text.rpartition(":")
    return (int(minutes) * 60 if minutes else 0) + float(seconds)


def test_a_one_minute_game_is_lost_on_time_with_nobody_touching_the_page(
    browser: Any, app_url: str, server_clock: AheadClock
) -> None:
    errors: list[str] = []
    contexts = [
        browser.new_context(
            locale="en-GB", viewport={"width": 1100, "height": 800}, permissions=["notifications"]
        )
        for _ in range(2)
    ]
    ann, bob = (context.new_page() for context in contexts)
    for page in (ann, bob):
        page.add_init_script(HIDDEN_TAB)
        page.on("pageerror", lambda error: errors.append(str(error)))
    ann.goto(app_url + "/")
    ann.locator(".game-card", has_text="Stairs").first.click()
    ann.get_by_label("A friend online (invite link)").check()
    ann.locator("#time-control").select_option("realtime:1:0")
    ann.get_by_role("button", name="Start").click()
    ann.wait_for_url(re.compile(r"/m/"))
    clocks = ann.locator("#seats .clock")
    expect(clocks).to_have_text(["1:00", "1:00"])  # nobody's time runs before Bob comes
    invite = ann.locator("#invite-link").input_value()
    bob.goto(invite)
    expect(bob.locator("#seats li")).to_have_count(2)
    # Ann's clock runs now: it counts down in both pages
    expect(ann.locator("#seats .clock.running")).to_have_count(1)
    expect(bob.locator("#seats .clock").first).not_to_have_text("1:00")
    assert seconds_shown(bob.locator("#seats .clock").nth(1).inner_text()) == 60
    # Bob's tab hides; Ann moves: Bob's title and a notification tell him
    bob.evaluate("window.__hidden = true")
    play_a_move(ann)
    expect(bob).to_have_title(re.compile(r"^\(1\) Your turn · Stairs$"))
    bob.wait_for_function("window.__notes.length > 0")
    assert bob.evaluate("window.__notes") == [["(1) Your turn", "Stairs"]]
    expect(ann).to_have_title("Stairs · stairgames")
    expect(bob.locator("#seats .clock").nth(1)).to_have_class(re.compile(r"\brunning\b"))
    shot(ann, "clock-running")
    # Bob makes his first move (a game whose person never made one is aborted, issue 51)
    # and Ann answers; then nobody touches anything: Bob's time runs out and the server
    # ends the game
    play_a_move(bob)
    expect(ann.locator("#seats .clock").first).to_have_class(re.compile(r"\brunning\b"))
    play_a_move(ann)
    expect(bob.locator("#seats .clock").nth(1)).to_have_class(re.compile(r"\brunning\b"))
    result = ann.locator("#result")
    expect(result).to_be_hidden()
    server_clock.ahead += 61  # a minute passes, for the server (nobody touches anything)
    expect(result).to_contain_text("Dark runs out of time", timeout=30_000)
    expect(bob.locator("#result")).to_contain_text("Dark runs out of time")
    expect(bob.locator("#seats .clock").nth(1)).to_have_text("0.0")
    expect(bob).to_have_title("Stairs · stairgames")
    shot(bob, "clock-flagged")
    for context in contexts:
        context.close()
    assert not errors
