"""What new players ran into (issue 27), in the page: the real web app (uvicorn in a
thread) driven in Debian's Chromium (skipped with a message without it). Screenshots go
to ``test-artifacts/newcomers-*.png`` (git-ignored)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_helpers import BROWSER_WAIT_MS, expect, serving, shot


@pytest.fixture(scope="module")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from stairgames.server.app import create_app
    from stairgames.server.base.settings import Settings

    data_dir: Path = tmp_path_factory.mktemp("newcomers-web")
    settings = Settings(data_dir=data_dir, computer_workers=0, loop_guard=True)
    with serving(create_app(settings), settings) as url:
        yield url


class Person:
    """One browser of one person: its page, and what went wrong in it (page errors and
    failed requests the console reports)."""

    def __init__(self, browser: Any, url: str) -> None:
        self.context = browser.new_context(locale="en-GB", viewport={"width": 1100, "height": 800})
        self.page = self.context.new_page()
        self.url = url
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on(
            "console",
            lambda message: self.errors.append(message.text) if message.type == "error" else None,
        )


@pytest.fixture
def people(browser: Any, app_url: str) -> Iterator[list[Person]]:
    made: list[Person] = []

    def person() -> Person:
        made.append(Person(browser, app_url))
        return made[-1]

    yield person  # type: ignore[misc]
    for one in made:
        one.context.close()
    errors = [error for one in made for error in one.errors]
    assert not errors, f"errors in the pages: {errors}"


def start(page: Any, url: str, game: str, opponent: str = "The computer", **choices: str) -> None:
    page.goto(url + "/")
    page.get_by_label(game, exact=True).check()
    page.get_by_label(opponent, exact=True).check()
    for label, value in choices.items():
        control = page.get_by_label(label.replace("_", " "), exact=True)
        if control.evaluate("(node) => node.tagName") == "SELECT":
            control.select_option(value)
        else:
            control.fill(value)
    page.get_by_role("button", name="Start").click()
    page.wait_for_url(re.compile(r"/m/"))


def square(page: Any, name: str) -> Any:
    return page.locator(f'#board [data-square="{name}"]')


def test_undo_shows_only_once_the_person_has_moved(people: Any) -> None:
    me = people()
    page = me.page
    start(page, me.url, "Stairs", Level="easy", You_play="1")
    # the computer (light) moved first: nothing of ours to take back yet
    expect(page.locator("#turn")).to_have_text("Your move")
    expect(page.locator("#moves li")).to_have_count(1)
    expect(page.get_by_role("button", name="Undo")).to_be_hidden()
    first = page.locator("#board .square.movable").first.get_attribute("data-square")
    square(page, first).click()
    page.locator("#board .square.target").first.click()
    expect(page.get_by_role("button", name="Undo")).to_be_visible()


def test_movable_pieces_are_marked_and_a_stuck_piece_says_why(people: Any) -> None:
    me = people()
    page = me.page
    start(page, me.url, "Stairs", Level="easy")
    expect(page.locator("#turn")).to_have_text("Your move")
    assert page.locator("#board .square.movable .movable-mark").count() >= 1
    square(page, "b1").click()
    square(page, "c2").click()  # b1-c2: light climbs onto c2
    # the computer answered (its move listed: "Your move" alone may still be the text
    # from before ours, and the answer's redraw would then wipe the note below)
    expect(page.locator("#moves li button")).to_have_count(2)
    expect(page.locator("#turn")).to_have_text("Your move")
    square(page, "c2").click()  # light on top, height 2: it may not move now
    note = page.locator("#board-notes .why-not")
    expect(note).to_have_text(
        re.compile(
            r"^c2 cannot move: (you must move one of your lowest"
            r"|no stack next to c2 is 2 high)"
        )
    )
    assert "selected" not in (square(page, "c2").get_attribute("class") or "")
    shot(page, "newcomers-stairs-why-not")
    movable = page.locator("#board .square.movable").first.get_attribute("data-square")
    square(page, movable).click()  # a movable piece: the reason goes
    expect(note).to_have_count(0)


def test_twenty_seven_a_field_that_cannot_move_says_why(people: Any) -> None:
    me = people()
    page = me.page
    start(page, me.url, "27", "A person at this screen")
    for move in ("0:1", "8:1", "0:2", "7:1", "2:1", "8:1"):  # then white's 5 cannot move
        field, count = move.split(":")
        expect(square_27(page, field)).to_have_class(re.compile(r"\bmovable\b"))
        square_27(page, field).click()
        page.keyboard.press(count)
        page.locator("#board .field.target").click()
    expect(square_27(page, "5")).not_to_have_class(re.compile(r"\bmovable\b"))
    assert page.locator("#board .field.movable .movable-mark").count() >= 1
    square_27(page, "5").click()
    expect(page.locator("#board-notes .why-not")).to_have_text(
        "Field 5 cannot move: white has 4 stacks, so the move must go exactly 4 fields,"
        " which would pass the end of the line (T3)"
    )
    shot(page, "newcomers-27-why-not")


def square_27(page: Any, field: str) -> Any:
    return page.locator(f'#board [data-field="{field}"]')


def test_a_lone_pass_says_there_is_no_legal_move(people: Any) -> None:
    me = people()
    page = me.page
    start(
        page,
        me.url,
        "Stairs",
        "A person at this screen",
        **{"Board size (3 to 8 squares a side)": "3"},
    )
    for move in ("b1-c2", "b2-a1", "a2-b3"):  # then dark has no legal move
        expect(square(page, move[:2])).to_have_class(re.compile(r"\bmovable\b"))
        square(page, move[:2]).click()
        square(page, move[3:]).click()
    words = page.locator("#words")
    expect(words.get_by_role("button", name="Pass")).to_be_visible()
    expect(words).to_contain_text("You have no legal move: you must pass.")
    shot(page, "newcomers-lone-pass")


def test_a_declined_offer_says_who_declined(people: Any) -> None:
    me = people()
    page = me.page
    start(page, me.url, "Stairs", "A person at this screen")
    square(page, "b1").click()
    square(page, "c2").click()
    page.get_by_role("button", name="Offer to end by agreement").click()
    page.get_by_role("button", name="Decline the offer").click()
    expect(page.locator("#prompt")).to_contain_text("declined the offer to end by agreement.")
    # the last move on the board stays marked
    expect(square(page, "c2")).to_have_class(re.compile(r"\blast-to\b"))
    shot(page, "newcomers-declined-offer")


def test_twenty_seven_shows_the_stack_counts_and_the_final_score(people: Any) -> None:
    me = people()
    page = me.page
    start(page, me.url, "27", Level="easy")
    notes = page.locator("#board-notes")
    expect(notes).to_contain_text("Stacks (how far a move goes): white 1, black 1")
    expect(notes).to_contain_text("Score so far")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").click()
    expect(page.locator("#result")).to_be_visible()
    expect(notes).to_contain_text(re.compile(r"Final score: white \d+, black \d+"))
    expect(notes).not_to_contain_text("Score so far")
    expect(notes).to_contain_text("Stacks (how far a move goes)")
    shot(page, "newcomers-27-final-score")


def test_online_takeback_refusal_spectator_and_rematch_offer(people: Any) -> None:
    light, dark, watcher = people(), people(), people()
    start(light.page, light.url, "Stairs", "A friend online (invite link)")
    expect(light.page.locator("#invite-link")).to_have_value(re.compile(r"/m/"))
    link = light.page.locator("#invite-link").input_value()
    dark.page.goto(link)
    expect(dark.page.locator("#seats")).to_contain_text("dark (you)")
    # a spectator opening the link of a full match watches, asking for no seat
    watcher.page.goto(link)
    expect(watcher.page.locator("#watching")).to_be_visible()
    page = light.page
    expect(page.locator("#turn")).to_have_text("Your move")
    square(page, "b1").click()
    square(page, "c2").click()
    expect(dark.page.locator("#turn")).to_have_text("Your move")
    page.get_by_role("button", name="Ask for a takeback").click()
    expect(page.locator("#prompt")).to_contain_text("waiting for the answer")
    shot(page, "newcomers-takeback-waiting")
    dark.page.get_by_role("button", name="Refuse").click()
    expect(page.locator("#prompt")).to_contain_text("Your takeback was refused.")
    # a rematch is offered, not imposed
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").click()
    expect(dark.page.locator("#result")).to_be_visible()
    first_match = dark.page.url
    dark.page.get_by_role("button", name="Rematch").click()
    expect(page.locator("#prompt")).to_contain_text("Rematch offered by dark.")
    expect(dark.page.locator("#prompt")).to_contain_text("waiting for the others to accept")
    assert dark.page.url == first_match and watcher.page.url == first_match
    shot(page, "newcomers-rematch-offered")
    page.get_by_role("button", name="Accept the rematch").click()
    expect(page).not_to_have_url(first_match)
    expect(dark.page).not_to_have_url(first_match)
    expect(watcher.page.locator("#prompt")).to_contain_text("The players started a rematch.")
    assert watcher.page.url == first_match
    shot(watcher.page, "newcomers-rematch-spectator")
    expect(page.locator("#seats")).to_contain_text("dark (you)")
    expect(dark.page.locator("#seats")).to_contain_text("light (you)")


def test_ishigaki_a_resignation_at_a_table_of_three_leaves_a_computer(people: Any) -> None:
    red, blue = people(), people()
    page = red.page
    page.goto(red.url + "/")
    page.get_by_label("Ishigaki Race", exact=True).check()
    page.get_by_label("Players", exact=True).select_option("3")
    page.get_by_label("Crumbling wall (the −2 steps)").check()
    page.get_by_label("Who plays blue", exact=True).select_option(
        label="A friend online (invite link)"
    )
    page.get_by_role("button", name="Start").click()
    page.wait_for_url(re.compile(r"/m/"))
    expect(page.locator("#invite-link")).to_have_value(re.compile(r"/m/"))
    blue.page.goto(page.locator("#invite-link").input_value())
    expect(blue.page.locator("#seats")).to_contain_text("blue (you)")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").click()
    told = "Red resigned and left; the computer (medium) plays on for them."
    expect(blue.page.locator("#prompt")).to_contain_text(told)
    expect(page.locator("#prompt")).to_contain_text(told)
    expect(page.locator("#watching")).to_be_visible()
    expect(blue.page.locator("#result")).to_be_hidden()
    shot(blue.page, "newcomers-ishigaki-left")
    # the crack of a crumbling stone keeps clear of its step number
    overlaps = page.evaluate(
        """() => [...document.querySelectorAll('#board .stone.crumbling')].filter((stone) => {
          const a = stone.querySelector('.crack').getBBox();
          const b = stone.querySelector('.step-number').getBBox();
          return a.x < b.x + b.width && b.x < a.x + a.width &&
            a.y < b.y + b.height && b.y < a.y + a.height;
        }).map((stone) => stone.dataset.step)"""
    )
    assert overlaps == []


def test_ishigaki_a_resignation_mid_turn_leaves_no_roll_in_progress(people: Any) -> None:
    me = people()
    page = me.page
    page.goto(me.url + "/")
    page.get_by_label("Ishigaki Race", exact=True).check()
    page.get_by_role("button", name="Start").click()
    page.wait_for_url(re.compile(r"/m/"))
    turns = page.locator("#board-notes .ishi-account li")
    while True:  # stop at every decision until the account of the last turns is full
        page.wait_for_function(
            "() => document.querySelector('#board-notes button.choice-stop') ||"
            " document.querySelector('#result:not([hidden])')",
            timeout=BROWSER_WAIT_MS,
        )
        if turns.count() >= 8 or page.locator("#result").is_visible():
            break
        before = page.locator("#moves li").count()
        page.locator("#board-notes button.choice-stop").click()
        page.wait_for_function(f"() => document.querySelectorAll('#moves li').length > {before}")
    # every turn of the account is shown whole, the first too
    clipped = page.evaluate(
        """() => {
          const list = document.querySelector('#board-notes .ishi-account ol');
          const first = list.querySelector('li').getBoundingClientRect();
          return list.scrollHeight > list.clientHeight ||
            first.top < list.getBoundingClientRect().top;
        }"""
    )
    assert not clipped
    shot(page, "newcomers-ishigaki-account")
    if page.locator("#result").is_visible():
        return  # (the race ended first: nothing to resign)
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").click()
    expect(page.locator("#result")).to_contain_text("You lose")
    expect(page.locator("#board-notes")).not_to_contain_text("decides")
    expect(page.locator("#board .dice")).not_to_contain_text("rolls")
    assert page.locator('#board [aria-label="second die not rolled"]').count() == 0
    shot(page, "newcomers-ishigaki-resigned")
