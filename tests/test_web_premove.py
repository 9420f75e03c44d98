"""Premove (issue 54) in Debian's Chromium: while the computer thinks, the player queues
a move on the board; it is played the moment the computer's move arrives. The computer
here thinks until the test lets it (no sleeps), then plays its first legal move."""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import stairgames
from stairgames.server.app import create_app
from stairgames.server.base.settings import Settings
from stairgames.server.play.computer import ComputerPool
from stairgames.server.play.match import Match
from tests.browser_helpers import checked_page, expect, serving, shot

SQUARES = re.compile(r"^([a-z]\d+)-([a-z]\d+)$")


class GatedPool(ComputerPool):
    """A pool whose computer thinks until :attr:`gate` opens, then plays the first legal
    move."""

    def __init__(self) -> None:
        super().__init__(0)
        self.gate = threading.Event()

    async def _choose_in_thread(self, job: tuple[Any, ...]) -> str:
        game_name, options, _player, _seat, moves = job[:5]
        await asyncio.to_thread(self.gate.wait)
        state = stairgames.load(game_name, **options).new_initial_state()
        for move in moves:
            state.apply_move(move)
        return state.action_to_string(state.legal_actions()[0])


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, Any, GatedPool]]:
    app = create_app(Settings(data_dir=tmp_path, computer_workers=0, loop_guard=True))
    pool = GatedPool()
    with serving(app) as url:
        app.state.hub.computers = pool  # the hub is made as the app starts
        yield url, app, pool
        pool.gate.set()


def test_premoves_are_listed_only_while_the_opponent_is_to_move(tmp_path: Path) -> None:
    from tests.server_helpers import JSON, new_match, running, seat_get, token_of

    with running(tmp_path) as client:
        created = new_match(client, "stairs", ["human", "online"])
        joined = client.post(f"/api/matches/{created['match']}/join", headers=JSON)
        url = f"/api/matches/{created['match']}"
        light = seat_get(client, f"{url}?token={token_of(created, 0)}").json()
        dark = seat_get(client, f"{url}?token={joined.json()['token']}").json()
        spectator = seat_get(client, url).json()
        assert light["premoves"] == [] and light["legal"]  # to move: no premove
        assert spectator["premoves"] == []
        match: Match = client.app.state.hub.service.get(created["match"])  # type: ignore[attr-defined]
        expected = set()
        for action in match.state.legal_actions():
            after = match.state.clone()
            after.apply_action(action)
            expected |= {after.action_to_string(a) for a in after.legal_actions()}
        assert set(dark["premoves"]) == expected and expected


def _pick(match: Match) -> tuple[str, str, str]:
    """A move of the person's that is legal once the computer played its first legal
    move, and its two squares."""
    state = match.state.clone()
    state.apply_action(state.legal_actions()[0])
    for action in state.legal_actions():
        move = state.action_to_string(action)
        found = SQUARES.match(move)
        if found:
            return move, found.group(1), found.group(2)
    raise AssertionError("no move from square to square")


def test_a_premove_made_while_the_computer_thinks_is_played_on_arrival(
    browser: Any, site: tuple[str, Any, GatedPool]
) -> None:
    url, app, pool = site
    with checked_page(browser, url, height=900) as page:
        page.goto(url + "/")
        page.get_by_label("Stairs", exact=True).check()
        page.get_by_label("The computer", exact=True).check()
        page.get_by_role("button", name="Start").click()
        page.wait_for_url(re.compile(r"/m/"))
        match_id = page.url.rsplit("/", 1)[-1]
        page.get_by_role("button", name="d3", exact=True).click()
        page.get_by_role("button", name="c4", exact=True).click()
        expect(page.locator("#moves .move")).to_have_count(1)  # the computer thinks
        match: Match = app.state.hub.service.get(match_id)
        # a first premove, cancelled by a click: never played
        source, target = _pick(match)[1:]
        page.get_by_role("button", name=source, exact=True).click()
        page.get_by_role("button", name=target, exact=True).click()
        queued = page.locator("#premove button")
        expect(queued).to_have_text(re.compile(r"^Premove: .+ \(click to cancel\)$"))
        queued.click()
        expect(page.locator("#premove")).to_be_hidden()
        # the one kept
        premove, source, target = _pick(match)
        page.get_by_role("button", name=source, exact=True).click()
        page.get_by_role("button", name=target, exact=True).click()
        expect(queued).to_have_text(f"Premove: {premove} (click to cancel)")
        shot(page, "premove-queued")
        pool.gate.set()  # the computer moves: the premove goes at once
        expect(page.locator("#moves .move")).to_have_count(4)  # and the computer's answer
        history = app.state.hub.service.get(match_id).state.history_strings()
        assert history[2] == premove
        expect(page.locator("#premove")).to_be_hidden()
