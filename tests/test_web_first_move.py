"""The page while the computer's compiled code is still being compiled (issue 34): under
the board, in the page's language, a line says that the computer is getting ready and
plays a quicker, weaker search meanwhile; it goes once a move of the compiled player
comes. The real web app in Debian's Chromium; the computer pool is a fake whose moves
are noted as the stand-in's until the test says otherwise (no compiling, no sleeps).
Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import stairgames
from stairgames.agents.levels import stand_in_band, stand_in_like
from stairgames.server.app import create_app
from stairgames.server.base.settings import Settings
from stairgames.server.play.computer import WARMING, ComputerPool
from tests.browser_helpers import checked_page, expect, serving, shot


class StandInPool(ComputerPool):
    """A pool whose computer plays the first legal move, noted as its stand-in's while
    :attr:`warming` is true (its :meth:`~ComputerPool.choose` as it is, in thread mode:
    only the thread's part replaced)."""

    def __init__(self) -> None:
        super().__init__(0)
        self.warming = True

    async def _choose_in_thread(self, job: tuple[Any, ...]) -> str:
        game_name, options, player, _seat, moves = job[:5]
        state = stairgames.load(game_name, **options).new_initial_state()
        for move in moves:
            state.apply_move(move)
        self._noted(game_name, options, player, ("move", "", WARMING if self.warming else None))
        return state.action_to_string(state.legal_actions()[0])


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, StandInPool]]:
    app = create_app(Settings(data_dir=tmp_path, computer_workers=0, loop_guard=True))
    pool = StandInPool()
    with serving(app) as url:
        app.state.hub.computers = pool  # the hub is made as the app starts
        yield url, pool


def start_against_the_computer(page: Any, url: str, level: str) -> None:
    """From the home page, a game of Stairs against the computer at ``level``."""
    page.goto(url + "/")
    page.get_by_label("Stairs", exact=True).check()
    page.get_by_label("The computer", exact=True).check()
    page.locator("#level").select_option(level)
    page.get_by_role("button", name="Start").click()
    page.wait_for_url(re.compile(r"/m/"))


def said_in_both_languages(page: Any, english: str, japanese: str, name: str) -> None:
    """The note under the board says ``english``, then, the page switched to Japanese, what
    the pattern ``japanese`` matches; a screenshot of each on a phone's width (``name``,
    ``name-ja``)."""
    note = page.locator("#computer-note")
    expect(note).to_have_text(english)
    page.set_viewport_size({"width": 390, "height": 844})
    note.scroll_into_view_if_needed()
    shot(page, name)
    page.locator("#lang").select_option("ja")
    expect(note).to_have_text(re.compile(japanese))
    shot(page, f"{name}-ja")


def play_a_move(page: Any, source: str, target: str) -> None:
    moves = page.locator("#moves .move").count()
    page.get_by_role("button", name=source, exact=True).click()
    page.get_by_role("button", name=target, exact=True).click()
    expect(page.locator("#moves .move")).to_have_count(moves + 2)  # and the computer's


def test_the_page_says_the_computer_is_getting_ready_until_it_is(browser, site):
    """It names the level the stand-in plays for and, where Stairs measured it, the level
    the stand-in is about as strong as (``PlayerHooks.stand_ins``); screenshots on a
    phone's width (390 px) in both languages."""
    url, pool = site
    like = stand_in_like("expert", "stairs")
    assert like is not None
    with checked_page(browser, url, height=900) as page:
        start_against_the_computer(page, url, "expert")
        note = page.locator("#computer-note")
        expect(note).to_be_hidden()  # the computer has not moved yet
        play_a_move(page, "d3", "c4")
        expect(note).to_be_visible()
        said_in_both_languages(
            page,
            "The computer (expert) is getting ready (compiling, first time only); until "
            f"then a stand-in plays for it, about as strong as {like}.",
            r"^コンピューター（エキスパート）の準備中です.*強さは「",
            "computer-stand-in-390",
        )
        pool.warming = False  # the compiled code is ready: the next move is the player's own
        page.locator("#lang").select_option("en")
        play_a_move(page, "b3", "a4")
        expect(note).to_be_hidden()


def test_the_page_says_between_which_levels_a_stand_in_was_measured(browser, site):
    """Where Stairs measured a level's stand-in between two levels (``PlayerHooks.
    stand_in_bands``), the note names both; screenshots on a phone's width in both
    languages."""
    url, _pool = site
    band = stand_in_band("hard", "stairs")
    assert band is not None
    above, below = band
    with checked_page(browser, url, height=900) as page:
        start_against_the_computer(page, url, "hard")
        play_a_move(page, "d3", "c4")
        said_in_both_languages(
            page,
            "The computer (hard) is getting ready (compiling, first time only); until then "
            f"a stand-in plays for it, stronger than {above} and weaker than {below}.",
            r"^コンピューター（むずかしい）の準備中です.*より上、.*より下です。$",
            "computer-stand-in-band-390",
        )
