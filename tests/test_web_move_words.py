"""Each game's word moves on the page (issue 51, items 5 and 6): Stairs' offer to end by
agreement and its answer are notes under the move before them in the move list, not
moves of the pairs; ← and → step right after a move made by clicking the board; the
analysis board says Ishigaki Race's notation (``start:0``, ``die:3``, ``stop``) in the
reader's language.

The real web app runs in a thread; Debian's Chromium at /usr/bin/chromium drives the
pages (without it the tests skip and say why).
"""

from __future__ import annotations

import json
import re
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest

from tests.test_web_stepping import listed, match_page, page_match, square

PLAY_SCRIPT = """
async ({match, tokens, plan}) => {
  // plays `plan` in order, each by the seat to act: "*" its first board move (sorted,
  // no word), anything else that move
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const sockets = tokens.map(() => null);
  let step = 0;
  await new Promise((resolve, reject) => {
    tokens.forEach((token, seat) => {
      const url = `${scheme}://${location.host}/ws/matches/${match}?auth=message`;
      const socket = new WebSocket(url);
      sockets[seat] = socket;
      socket.onopen = () => socket.send(JSON.stringify({type: "hello", token}));
      socket.onerror = () => reject(new Error("the socket failed"));
      socket.onmessage = (message) => {
        const view = JSON.parse(message.data);
        if (view.type === "error") reject(new Error(JSON.stringify(view.error)));
        if (view.type !== "state" || view.to_act !== seat) return;
        if (view.history.length !== step) return;
        if (step === plan.length) { resolve(); return; }
        const board = [...view.legal].filter((m) => m.includes("-")).sort();
        const move = plan[step] === "*" ? board[0] : plan[step];
        step += 1;
        socket.send(JSON.stringify({type: "move", event: view.event, move}));
      };
    });
  });
  for (const socket of sockets) socket.close();
}
"""
"""Plays a plan of moves by the seats' tokens, each when it is its seat's turn."""


@pytest.fixture(scope="module")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from stairgames.server.app import create_app
    from stairgames.server.base.limits import Rate
    from stairgames.server.base.settings import Settings
    from tests.browser_helpers import serving

    settings = Settings(
        data_dir=tmp_path_factory.mktemp("move-words"),
        computer_workers=0,
        loop_guard=True,
        messages_per_second=1e4,
        message_burst=1e4,
        matches_per_minute=Rate(per_minute=6000, burst=600),
        positions_per_minute=Rate(per_minute=6000, burst=600),
    )
    with serving(create_app(settings)) as url:
        yield url


def _expect() -> Any:
    from tests.browser_helpers import expect

    return expect


def test_an_offer_and_its_answer_are_notes_under_the_move_before_them(
    browser: Any, app_url: str
) -> None:
    """1. light dark 2. light (dark offers, light declines) dark: the offer and the
    decline stand under light's second move, and dark's moves stay in dark's column; a
    note is no step (no button); stepping still goes through every position."""
    expect = _expect()
    with match_page(browser, app_url, "/") as page:
        made = page_match(page, "stairs", ["human", "human"])
        tokens = [seat["token"] for seat in made["seats"]]
        plan = ["*", "*", "*", "offer", "decline", "*"]
        page.evaluate(PLAY_SCRIPT, {"match": made["match"], "tokens": tokens, "plan": plan})
    with match_page(browser, app_url, f"/m/{made['match']}", made["seats"][:1], lang="ja") as page:
        rows = page.locator("#moves li")
        expect(rows).to_have_count(2)
        expect(page.locator("#moves .move")).to_have_count(4)
        second = rows.nth(1)
        expect(second.locator(".move")).to_have_count(2)
        notes = second.locator(".move-note")
        expect(notes).to_have_text(["合意による終了を申し出る", "申し出を断る"])
        expect(second.locator(".move-with-notes .move")).to_have_attribute("data-ply", "3")
        expect(second.locator(".move").nth(1)).to_have_attribute("data-ply", "6")
        assert notes.first.get_attribute("data-ply") is None  # a note is no step
        text = page.locator("#moves").inner_text()
        assert not re.search(r"\b(offer|decline)\b", text), text


def test_the_arrows_step_right_after_a_move_made_by_clicking_the_board(
    browser: Any, app_url: str
) -> None:
    """A move made with the mouse leaves the focus on a square; ← then steps back and →
    forward (before, the board kept the arrows and nothing happened). Once the keyboard
    moves about the board (Tab onto a square), the squares keep the arrows."""
    expect = _expect()
    with match_page(browser, app_url, "/") as page:
        made = page_match(page, "stairs", ["human", "human"])
    with match_page(browser, app_url, f"/m/{made['match']}", made["seats"]) as page:
        banner, step = page.locator("#step-banner"), page.locator("#replay-step")
        square(page, "d3").click()
        square(page, "c4").click()
        listed(page, 1)
        assert page.evaluate("document.getElementById('board').contains(document.activeElement)")
        page.keyboard.press("ArrowLeft")
        expect(banner).to_be_visible()
        expect(step).to_have_text("Move 0 of 1")
        page.keyboard.press("ArrowRight")
        expect(banner).to_be_hidden()
        expect(step).to_have_text("Move 1 of 1")
        page.keyboard.press("Home")
        expect(step).to_have_text("Move 0 of 1")
        page.keyboard.press("End")
        expect(banner).to_be_hidden()
        # the keyboard's way onto the board: Tab from a square, then the arrows move
        square(page, "c3").focus()
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")
        before = page.evaluate("document.activeElement.getAttribute('aria-label')")
        page.keyboard.press("ArrowUp")
        after = page.evaluate("document.activeElement.getAttribute('aria-label')")
        assert after != before
        expect(banner).to_be_hidden()


def test_the_analysis_board_says_ishigaki_races_notation_in_japanese(
    browser: Any, app_url: str
) -> None:
    """The start player's draw and the dice are said in words ("赤が先手（50%）", "出目3"),
    never as ``start:0`` or ``die:3``, in the choices, the moves explored and the lines."""
    expect = _expect()
    query = urllib.parse.urlencode(
        {"game": "ishigaki_race", "options": json.dumps({"players": 2}), "moves": "[]"}
    )
    with match_page(browser, app_url, f"/analysis?{query}", lang="ja") as page:
        choices = page.locator("#ab-choices button")
        expect(choices).to_have_count(2)
        expect(choices.first).to_have_text(re.compile(r"^赤が先手（50(\.0)?%）$"))
        choices.first.click()
        expect(page.locator("#ab-moves .move")).to_have_text(["赤が先手"])
        expect(choices).to_have_count(6)
        choices.nth(2).click()
        expect(page.locator("#ab-moves .move")).to_have_text(["赤が先手", "出目3"])
        expect(page.locator("#ab-eval")).to_contain_text("%")
        text = page.locator("#analysis-board").inner_text()
        assert not re.search(r"\b(start|die|stop|roll):?\d*\b", text), text
