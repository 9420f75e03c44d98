"""Ishigaki Race through the page, against the real web app (uvicorn in a thread).

Debian's Chromium at /usr/bin/chromium drives it (skipped with a message without it);
screenshots go to ``test-artifacts/`` (git-ignored).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_helpers import ARTIFACTS, BROWSER_WAIT_MS, expect, serving

CHOICE_OR_END = (
    "() => document.querySelector('#result:not([hidden])') || "
    "document.querySelector('#board-notes button.choice-stop')"
)
"""(Every predicate waited for is a function: Playwright evaluates a bare expression with
``eval``, which the server's Content-Security-Policy refuses.)"""


@pytest.fixture(scope="module")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from stairgames.server.app import create_app
    from stairgames.server.base.settings import Settings

    data_dir: Path = tmp_path_factory.mktemp("ishigaki-web")
    with serving(
        create_app(Settings(data_dir=data_dir, computer_workers=0, loop_guard=True))
    ) as url:
        yield url


def open_page(browser: Any, url: str, **context: Any) -> tuple[Any, Any, list[str]]:
    context.setdefault("viewport", {"width": 1100, "height": 800})
    opened = browser.new_context(locale="en-GB", **context)
    page = opened.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.base_url = url
    return opened, page, errors


@pytest.fixture
def page(browser: Any, app_url: str) -> Iterator[Any]:
    context, page, errors = open_page(browser, app_url)
    yield page
    context.close()
    assert not errors, f"errors in the page: {errors}"


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def new_ishigaki(page: Any, players: int, seats: dict[str, str], crumbling: bool = False) -> None:
    """From the home page: Ishigaki Race, ``players`` seats, each seat's player by its
    option text (``seats``: colour -> text), then Start."""
    page.goto(page.base_url + "/")
    page.get_by_label("Ishigaki Race", exact=True).check()
    page.get_by_label("Players", exact=True).select_option(str(players))
    if crumbling:
        page.get_by_label("Crumbling wall (the −2 steps)").check()
    for colour, text in seats.items():
        page.get_by_label(f"Who plays {colour}", exact=True).select_option(label=text)
    page.get_by_role("button", name="Start").click()
    page.wait_for_url(re.compile(r"/m/"))


def moves_made(page: Any) -> int:
    count: int = page.locator("#moves li").count()
    return count


def decide(page: Any, turn: int) -> None:
    """Take the decision in front of us: roll on a low die, stop otherwise; every third
    decision by keyboard (Tab focus and Enter) instead of a click."""
    stop = page.locator("#board-notes button.choice-stop")
    roll = page.locator("#board-notes button.choice-roll")
    die = int(page.locator("#board .dice .die").first.get_attribute("aria-label").split()[-1])
    button = roll if die <= 2 else stop
    before = moves_made(page)
    if turn % 3 == 2:
        button.focus()
        page.keyboard.press("Enter")
    else:
        button.click()
    page.wait_for_function(f"() => document.querySelectorAll('#moves li').length > {before}")


def play_until_over(page: Any) -> int:
    """Decide whenever it is a person's turn until the result shows; the decisions taken.
    (A game takes 7 to 15 s here: about 40 decisions and the computers' turns.)"""
    decisions = 0
    while True:
        page.wait_for_function(CHOICE_OR_END, timeout=BROWSER_WAIT_MS)
        if page.locator("#result").is_visible():
            return decisions
        if decisions == 3:
            shot(page, "ishigaki-3-seats-deciding")
        decide(page, decisions)
        decisions += 1


def test_a_three_seat_game_with_two_people_at_one_screen_and_the_computer(page):
    new_ishigaki(
        page,
        3,
        {
            "red": "A person at this screen",
            "blue": "A person at this screen",
            "yellow": "The computer (easy)",
        },
    )
    expect_seats = page.locator("#seats li")
    expect_seats.nth(2).wait_for()
    assert expect_seats.count() == 3
    decisions = play_until_over(page)
    assert decisions > 0
    result = page.locator("#result").inner_text()
    assert "wins" in result
    winner = page.locator("#board .ninja").evaluate_all(
        "nodes => nodes.map(n => n.getAttribute('aria-label'))"
    )
    assert any(label.endswith("on step 20") for label in winner)
    assert page.locator(".ishi-phase.phase-over").inner_text().endswith("wins!")
    assert page.locator(".ishi-account li").count() > 0
    shot(page, "ishigaki-3-seats-over")
    # the finished game steps back through its positions, the wall as it was
    page.get_by_role("button", name="First").click()
    page.wait_for_function(
        "() => document.querySelector('#replay-step').textContent.startsWith('Move 0 ')"
    )
    labels = page.locator("#board .ninja").evaluate_all(
        "nodes => nodes.map(n => n.getAttribute('aria-label'))"
    )
    assert labels == ["Red on step 0", "Blue on step 0", "Yellow on step 0"]
    page.get_by_role("button", name="Next").click()
    page.wait_for_function(
        "() => document.querySelector('#replay-step').textContent.startsWith('Move 1 ')"
    )
    assert page.locator(".ishi-account li").first.inner_text().endswith("starts.")


def test_a_four_seat_game_with_two_people_and_computer_levels(page):
    new_ishigaki(
        page,
        4,
        {
            "red": "The computer (easy)",
            "blue": "A person at this screen",
            "yellow": "The computer (medium)",
            "green": "A person at this screen",
        },
    )
    page.locator("#seats li").nth(3).wait_for()
    page.locator("#board .stone").first.wait_for()
    assert page.locator("#board .stone").count() == 21
    play_until_over(page)
    assert page.locator("#result").is_visible()
    shot(page, "ishigaki-4-seats-over")


def test_the_choice_buttons_name_what_they_do_and_the_chances_show_on_request(page):
    import stairgames
    from stairgames.games.ishigaki_race import IshigakiRaceState
    from stairgames.games.ishigaki_race.view.board import prepare_solution

    # The wall's solution worked out beforehand, as after an earlier game on it (the
    # server, in this process, keeps it): the chances come with the first decision.
    # (That the first view starts working it out is tested in test_ishigaki_web.py.)
    start = stairgames.load("ishigaki_race", players=2).new_initial_state()
    assert isinstance(start, IshigakiRaceState)
    prepare_solution(start.board)
    new_ishigaki(page, 2, {"red": "A person at this screen", "blue": "A person at this screen"})
    page.locator("#board-notes button.choice-stop").wait_for()
    die = int(page.locator("#board .dice .die").first.get_attribute("aria-label").split()[-1])
    climb = {1: 1, 2: 1, 3: 1, 4: 2, 5: 2, 6: 2}[die]  # the rulebook's table (I1)
    stop = page.get_by_role("button", name=re.compile(r"^Stop: climb"))
    assert stop.inner_text().startswith(f"Stop: climb {climb}")
    roll = page.get_by_role("button", name=re.compile(r"^Roll the second die"))
    assert "lower: slip 1 step" in roll.inner_text()
    toggle = page.get_by_role("button", name="Winning chances")
    toggle.click()
    assert (
        toggle.get_attribute("aria-pressed") == "true"
        or page.get_by_role("button", name="Winning chances").get_attribute("aria-pressed")
        == "true"
    )
    expect(page.locator(".choice-chance")).to_have_count(2)
    chances = page.locator(".choice-chance").all_inner_texts()
    assert len(chances) == 2 and all(re.fullmatch(r"wins \d+\.\d %", c) for c in chances)
    shot(page, "ishigaki-chances")


def test_japanese_on_a_phone_screen(browser, app_url):
    context, page, errors = open_page(
        browser, app_url, viewport={"width": 360, "height": 740}, has_touch=True
    )
    try:
        page.goto(app_url + "/")
        page.get_by_label("Language").select_option("ja")
        page.get_by_label("いしがき・れえす", exact=True).check()
        page.get_by_label("プレイ人数").select_option("3")
        page.get_by_label("赤を遊ぶのは", exact=True).select_option(label="この画面で一緒に遊ぶ人")
        page.get_by_label("青を遊ぶのは", exact=True).select_option(label="この画面で一緒に遊ぶ人")
        page.get_by_label("黄を遊ぶのは", exact=True).select_option(label="この画面で一緒に遊ぶ人")
        page.get_by_label("くずれそうな石垣（「−2」のマス）").check()
        page.get_by_role("button", name="開始").click()
        page.wait_for_url(re.compile(r"/m/"))
        stop = page.locator("#board-notes button.choice-stop")
        try:
            stop.wait_for()
        except Exception:
            shot(page, "ishigaki-phone-ja-debug")
            raise AssertionError(f"no choice to make; errors in the page: {errors}") from None
        assert stop.inner_text().startswith("止める：")
        assert page.locator("#board .end-label").all_text_contents() == ["すたあと", "ごおる"]
        assert page.locator("#board .stone.crumbling").count() == 4
        for _ in range(4):
            decide(page, 0)
            page.wait_for_function(CHOICE_OR_END)
        assert page.locator(".ishi-account li").count() >= 4
        assert "段" in page.locator(".ishi-account").inner_text()
        board = page.locator("#board").bounding_box()
        assert board is not None and board["x"] >= 0 and board["x"] + board["width"] <= 360
        buttons = page.locator("#board-notes button.choice").all()
        for button in buttons:
            box = button.bounding_box()
            assert box is not None and box["x"] + box["width"] <= 360 and box["height"] >= 44
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        shot(page, "ishigaki-phone-ja")
    finally:
        context.close()
    assert not errors, f"errors in the page: {errors}"
