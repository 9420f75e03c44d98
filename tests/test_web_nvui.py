"""The screen-reader mode (``static/nvui.js``, docs/accessibility.md): each of the four
games played to the end against the computer with the keyboard alone (focus, type,
Enter: no click), its answers and every change read from the polite live region, in
English and in Japanese.

The real web app runs in a thread; Debian's Chromium at /usr/bin/chromium drives the
pages (without it the tests skip and say why).
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.test_web_stepping import match_page

NEW_MATCH = """
async ({game, options, seats, time_control}) => {
  const made = await fetch("/api/matches", {method: "POST",
    headers: {"content-type": "application/json"},
    body: JSON.stringify({game, options, seats, time_control})});
  return await made.json();
}
"""

MOVES_LIMIT = 120
"""More of the person's moves than any of these games takes (a failing test stops)."""

SAID = "#nvui-said p"


@pytest.fixture(scope="module")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from stairgames.server.app import create_app
    from stairgames.server.base.limits import Rate
    from stairgames.server.base.settings import Settings
    from tests.browser_helpers import serving
    from tests.server_helpers import TEST_PLAYERS

    settings = Settings(
        data_dir=tmp_path_factory.mktemp("nvui"),
        computer_workers=0,
        computer_players=TEST_PLAYERS,
        loop_guard=True,
        messages_per_second=1e4,
        message_burst=1e4,
        matches_per_minute=Rate(per_minute=6000, burst=600),
    )
    with serving(create_app(settings)) as url:
        yield url


def _expect() -> Any:
    from tests.browser_helpers import expect

    return expect


def said(page: Any) -> list[str]:
    """Everything the live region holds, oldest first."""
    return [str(text) for text in page.locator(SAID).all_inner_texts()]


def spoken(page: Any) -> str:
    """The number of the newest announcement ("0" before any)."""
    if not page.locator(SAID).count():
        return "0"
    return str(page.locator(SAID).last.get_attribute("data-n"))


def said_after(page: Any, before: str) -> None:
    """Wait until something was said after announcement ``before``."""
    try:
        page.wait_for_function(
            "(before) => Number(document.querySelector('#nvui-said p:last-child')"
            "?.dataset.n) > before",
            arg=int(before),
        )
    except Exception as silence:  # Playwright's TimeoutError
        error = page.locator("#match-error").inner_text()
        raise AssertionError(f"nothing said; last: {said(page)[-4:]}; error: {error}") from silence


LAST_ANSWER_AFTER = """
(before) => [...document.querySelectorAll("#nvui-said p[data-kind=answer]")]
  .filter((line) => Number(line.dataset.n) > before)
  .map((line) => [line.textContent, line.dataset.n])
  .at(-1) || null
"""
"""The last answer to a command said after announcement ``before`` (its text and number),
or ``null``. (A function, not an expression: the page's Content-Security-Policy refuses
what Playwright would evaluate from a string.)"""


def answered(page: Any, text: str) -> tuple[str, str]:
    """Type ``text`` in the command field and press Enter: the last line of the answer
    (not a change of the game said meanwhile) and its number."""
    before = int(spoken(page))
    field = page.locator("#nvui-input")
    field.focus()
    field.fill(text)
    field.press("Enter")
    handle = page.wait_for_function(LAST_ANSWER_AFTER, arg=before)
    line, number = handle.json_value()
    return str(line), str(number)


def command(page: Any, text: str) -> str:
    """:func:`answered`'s text."""
    return answered(page, text)[0]


@contextlib.contextmanager
def opened(
    browser: Any,
    app_url: str,
    game: str,
    lang: str,
    time_control: dict[str, Any] | None = None,
    **options: Any,
) -> Iterator[Any]:
    """A new game of ``game`` against the computer (``random``), untimed unless told, its
    page opened in the screen-reader mode by ``?nvui=1``, in ``lang``."""
    from tests.browser_helpers import watch_content_security_policy

    with match_page(browser, app_url, "/") as page:
        made = page.evaluate(
            NEW_MATCH,
            {
                "game": game,
                "options": options,
                "seats": ["human", "computer:random"],
                "time_control": time_control or {"kind": "none"},
            },
        )
    match = made["match"]
    context = browser.new_context(locale="ja-JP" if lang == "ja" else "en-GB")
    violations: list[str] = []
    watch_content_security_policy(context, violations)
    kept = {"stairgames.lang": lang, f"stairgames.match.{match}": json.dumps(made["seats"])}
    context.add_init_script(
        script="".join(
            f"localStorage.setItem({json.dumps(k)}, {json.dumps(v)});" for k, v in kept.items()
        )
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{app_url}/m/{match}?nvui=1")
    try:
        yield page
        assert not errors, errors
        assert not violations, violations
    finally:
        context.close()


def play_to_the_end(page: Any, over: str, your_move: str, legal: str) -> list[str]:
    """Ask whose turn it is (``t``); at the person's, play the first legal move the mode
    reads out (``v``) by typing it; until the mode says the game is over: the moves
    played."""
    expect = _expect()
    expect(page.locator("#nvui")).to_be_visible()
    expect(page.locator("#board")).to_be_hidden()  # the drawn board gives way to text
    played: list[str] = []
    for _ in range(MOVES_LIMIT):
        turn, asked = answered(page, "t")
        if over in turn:
            return played
        if your_move not in turn:  # the computer's turn: wait for its move to be said
            said_after(page, asked)
            continue
        moves = command(page, "v")
        assert moves.startswith(legal), moves
        move = moves.removeprefix(legal).split(",")[0].split("、")[0].strip()
        before = spoken(page)
        field = page.locator("#nvui-input")
        field.fill(move)
        field.press("Enter")
        played.append(move)
        said_after(page, before)  # the change is said
    raise AssertionError(f"no end after {MOVES_LIMIT} moves: {said(page)[-5:]}")


def test_stairs_is_played_to_the_end_by_keyboard_in_english(browser, app_url):
    with opened(browser, app_url, "stairs", "en", size=3, agreement=False) as page:
        expect = _expect()
        expect(page.locator(SAID).last).to_contain_text("Your move. Light to move.")
        assert command(page, "p") == "Rank 1: a1 dark 1, b1 light 1, c1 dark 1"
        rows = said(page)[-3:]
        assert rows[0].startswith("Rank 3: a3 dark 1")
        assert command(page, "t") == "Your move. Light to move."
        assert command(page, "m b1").startswith("Moves of b1: b1-")
        assert command(page, "m c1") == "No legal move of c1."
        assert command(page, "l") == "No move yet."
        assert command(page, "c") == "This game has no clock."
        bad = command(page, "z9-z8")
        assert bad.startswith("Not a legal move or command: z9-z8.")
        expect(page.locator("#nvui-input")).to_have_attribute("aria-invalid", "true")
        assert command(page, "h").startswith("t whose turn")
        # said once: the page's own live turn line and result keep quiet meanwhile
        expect(page.locator("#turn")).to_have_attribute("aria-live", "off")
        expect(page.locator("#result")).to_have_attribute("aria-live", "off")
        played = play_to_the_end(page, "Game over", "Your move", "Legal moves: ")
        assert played
        history = said(page)
        # the computer's moves are told, each once
        told = [
            line for line in history if re.match(r"Dark [a-c][1-3]-[a-c][1-3], to height", line)
        ]
        assert told and len(told) == len(set(told))
        assert "Game over" in history[-1]


def test_twenty_seven_is_played_to_the_end_by_keyboard_in_japanese(browser, app_url):
    with opened(browser, app_url, "twenty_seven", "ja") as page:
        expect = _expect()
        expect(page.locator("#nvui-heading")).to_have_text("テキストで対局")
        expect(page.locator(SAID).last).to_contain_text("あなたの番です")
        assert command(page, "s").startswith("ここまでの得点")  # the list ends with the scores
        assert any(line.startswith("白が上：フィールド0") for line in said(page))
        bad = command(page, "99:1")
        assert bad.startswith("合法手でもコマンドでもありません")
        play_to_the_end(page, "ゲーム終了", "あなたの番です", "合法手：")
        # the switch, by keyboard: the board is back, the mode is off for the next page
        switch = page.locator("#nvui-on")
        switch.focus()
        switch.press("Space")
        expect(page.locator("#board")).to_be_visible()
        expect(page.locator("#nvui")).to_be_hidden()
        expect(page.locator("#turn")).to_have_attribute("aria-live", "polite")
        assert page.evaluate("localStorage.getItem('stairgames.nvui')") == "0"


def test_ishigaki_race_is_played_to_the_end_by_keyboard_in_english(browser, app_url):
    realtime = {"kind": "realtime", "minutes": 5, "increment": 3}
    with opened(browser, app_url, "ishigaki_race", "en", realtime, players=2) as page:
        expect = _expect()
        expect(page.locator(SAID).last).to_contain_text(re.compile("Your move|rolls"))
        assert command(page, "s").startswith("The goal is step")
        clocks = command(page, "c")
        assert re.fullmatch(r"Red: \d:\d\d(, running)?\. Blue: \d:\d\d(, running)?\.", clocks), (
            clocks
        )
        play_to_the_end(page, "Game over", "Your move", "Legal moves: ")
        assert any(re.search(r"ninja|die|step", line) for line in said(page))


def test_city_of_stairs_is_played_to_the_end_by_keyboard_in_japanese(browser, app_url):
    with opened(browser, app_url, "city_of_stairs", "ja", players=2) as page:
        expect = _expect()
        expect(page.locator(SAID).last).to_contain_text("あなたの番です")
        first = command(page, "p")
        assert first.startswith("1列目")
        play_to_the_end(page, "ゲーム終了", "あなたの番です", "合法手：")


def test_a_game_without_texts_is_still_played_by_keyboard(browser, tictactoe, tmp_path):
    """The fifth game (``tests/tictactoe``) declares no ``accessible``: the mode says it has
    no text of the position, and moves typed, the legal moves and the end still work (two
    people at one screen)."""
    from stairgames.server.app import create_app
    from stairgames.server.base.settings import Settings
    from tests.browser_helpers import checked_page, serving

    expect = _expect()
    settings = Settings(data_dir=tmp_path, computer_workers=0, loop_guard=True)
    with serving(create_app(settings), settings) as url, checked_page(browser, url) as page:
        page.goto(url + "/")
        made = page.evaluate(
            NEW_MATCH,
            {
                "game": "tictactoe",
                "options": {},
                "seats": ["human", "human"],
                "time_control": {"kind": "none"},
            },
        )
        page.evaluate(
            "([key, value]) => localStorage.setItem(key, value)",
            [f"stairgames.match.{made['match']}", json.dumps(made["seats"])],
        )
        page.goto(f"{url}/m/{made['match']}?nvui=1")
        expect(page.locator(SAID).last).to_have_text("Your move.")
        assert command(page, "p").startswith("This game gives no text of its position")
        assert command(page, "m b2") == "No legal move of b2."
        for move in ("a1", "b1", "a2", "b2"):
            assert move in command(page, "v")
            before = spoken(page)
            field = page.locator("#nvui-input")
            field.fill(move)
            field.press("Enter")
            said_after(page, before)
        assert command(page, "l") == "O: b2"
        before = spoken(page)
        page.locator("#nvui-input").fill("a3")
        page.locator("#nvui-input").press("Enter")
        said_after(page, before)
        expect(page.locator(SAID).last).to_contain_text("Game over")
