"""Planned replies (issue 54) in Debian's Chromium: in a correspondence game of Stairs
between two browsers, Bob plans a reply while Ann is to move; Ann plays the move he
planned for, and his reply is on both boards at once."""

from __future__ import annotations

import re
from typing import Any

from stairgames.server.play.match import Match
from tests.browser_helpers import expect, shot
from tests.test_web_axe import axe_violations
from tests.test_web_vacation import correspondence_game, site  # noqa: F401 (the fixture)

SQUARES = re.compile(r"^([a-z]\d+)-([a-z]\d+)$")


def squares_move(state: Any, nth: int = 0) -> str:
    """The ``nth`` move of the one to act that goes from a square to a square."""
    moves = [str(state.action_to_string(action)) for action in state.legal_actions()]
    return [move for move in moves if SQUARES.match(move)][nth]


def click_move(page: Any, move: str) -> None:
    found = SQUARES.match(move)
    assert found is not None
    page.get_by_role("button", name=found.group(1), exact=True).click()
    page.get_by_role("button", name=found.group(2), exact=True).click()


def test_a_reply_planned_on_the_page_is_played_when_the_move_comes(
    browser: Any,
    site: tuple[str, Any],  # noqa: F811
) -> None:
    url, app = site
    with correspondence_game(browser, url) as (ann, bob, match_id):
        match: Match = app.state.hub.service.get(match_id)
        state = match.state.clone()
        theirs = squares_move(state)
        state.apply_move(theirs)
        mine = squares_move(state)
        panel = bob.locator("#plans")
        expect(panel.get_by_role("heading", name="Plan replies")).to_be_visible()
        expect(ann.locator("#plans")).to_be_hidden()  # Ann is to move: nothing to plan
        expect(panel).to_contain_text("No replies planned.")
        panel.get_by_label("If your opponent plays").select_option(theirs)  # picked
        panel.get_by_label("you play").select_option(mine)
        panel.get_by_role("button", name="Add this reply").click()
        expect(panel.locator("#plan-lines li")).to_have_text([f"if {theirs}, {mine} Delete"])
        # another typed: a line of two moves of each
        later = match.state.clone()
        second = [squares_move(later, 1)]
        later.apply_move(second[0])
        for _ in range(3):
            second.append(squares_move(later))
            later.apply_move(second[-1])
        panel.get_by_label("New line").fill(" ".join(second))
        panel.get_by_role("button", name="Add line").click()
        expect(panel.locator("#plan-lines li")).to_have_count(2)
        expect(panel.locator("#plan-lines li").nth(1)).to_have_text(
            f"if {second[0]}, {second[1]}; then if {second[2]}, {second[3]} Delete"
        )
        shot(bob, "plans-stored")
        assert axe_violations(bob) == []
        refused = "zz9 a1"  # a line that is no move: refused, said, nothing changed
        panel.get_by_label("New line").fill(refused)
        panel.get_by_role("button", name="Add line").click()
        expect(panel.get_by_role("alert")).to_have_text("line 3: move 1 is not legal there")
        expect(panel.locator("#plan-lines li")).to_have_count(2)
        panel.get_by_role("button", name="Delete line 2").click()
        expect(panel.locator("#plan-lines li")).to_have_count(1)
        click_move(ann, theirs)
        expect(ann.locator("#moves .move")).to_have_count(4)  # Bob's reply at once
        expect(bob.locator("#moves .move")).to_have_count(4)
        assert app.state.hub.service.get(match_id).state.history_strings()[2:] == [theirs, mine]
        expect(bob.locator("#plans")).to_contain_text("No replies planned.")
