"""Secrets over the wire (issue 17): what each browser receives of a City of Stairs game
does not depend on another seat's departure card until that card is revealed (C8).

Each game is played twice through the real app (HTTP and WebSocket), once per seat
count, with everything the same (match id, tokens, seed, every draw and every move)
except one seat's departure card. Every WebSocket frame and every HTTP response each
browser receives is captured; for every browser that may not know that card (the other
seats and a spectator) the two captures must be byte-identical up to the frame that
reveals it, and the reveal must come (so that the comparison can fail).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import stairgames
from stairgames.core.game import State
from stairgames.server.base.limits import Rate
from stairgames.server.play import matches
from tests.server_helpers import JSON, connect, new_match, running, seat_get

SECRET_SEAT = 1
"""The seat whose departure card differs between the two games."""
SEED = 987654321987
"""The match's seed (it predicts every draw): no browser may see it before the end."""


@dataclass
class Browser:
    """One browser: its seat's token (``None``: a spectator) and all it received."""

    name: str
    token: str | None
    frames: list[str] = field(default_factory=list)

    def query(self) -> str:
        return "" if self.token is None else f"?token={self.token}"


class Predictable:
    """Stands in for the ``secrets`` module of the match service: the same ids, tokens
    and seed in both games."""

    def __init__(self) -> None:
        self._count = itertools.count()

    def token_urlsafe(self, size: int = 24) -> str:
        return f"token{next(self._count):04d}".ljust(size, "x")

    def randbits(self, bits: int) -> int:
        return SEED % (1 << bits)


def scripted_draws(departures: dict[str, int]) -> Any:
    """Chance outcomes fixed in advance: each seat (by colour) gets the departure card
    given; every other chance node takes its first outcome."""

    def draw(state: State, rng: random.Random) -> int:
        del rng
        outcomes = [action for action, _ in state.chance_outcomes()]
        for action in outcomes:
            words = state.action_to_string(action).split()
            if words[0] == "deal" and int(words[1]) == departures[words[3]]:
                return action
        return outcomes[0]

    return draw


def colours_of(players: int) -> list[str]:
    state = stairgames.load("city_of_stairs", players=players).new_initial_state()
    return [state.seat_name(seat) for seat in range(players)]


def deals_for(players: int, secret_card: int) -> dict[str, int]:
    colours = colours_of(players)
    cards = {colour: index + 1 for index, colour in enumerate(colours)}
    cards[colours[SECRET_SEAT]] = secret_card
    return cards


def play_and_capture(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, players: int, secret_card: int
) -> tuple[list[Browser], int]:
    """Play a whole game with one browser per seat and a spectator; every browser's
    capture, and the secret seat's true card."""
    monkeypatch.setattr(matches, "secrets", Predictable())
    monkeypatch.setattr(matches, "new_id", lambda: "match0000000000")
    departures = deals_for(players, secret_card)
    monkeypatch.setattr(matches, "sample_chance_outcome", scripted_draws(departures))
    # every browser asks for the record and replay after every event, all from one address
    with running(tmp_path, replays_per_minute=MANY_REPLAYS) as client:
        created = new_match(
            client, "city_of_stairs", ["human"] + ["online"] * (players - 1), players=players
        )
        match = created["match"]
        browsers = [Browser("seat 0", created["seats"][0]["token"])]
        for seat in range(1, players):
            joined = client.post(f"/api/matches/{match}/join", headers=JSON)
            browsers.append(Browser(f"seat {seat}", joined.json()["token"]))
            browsers[-1].frames.append(joined.text)
        browsers.append(Browser("spectator", None))
        play_to_the_end(client, match, browsers)
    colour = colours_of(players)[SECRET_SEAT]
    return browsers, departures[colour]


def play_to_the_end(client: TestClient, match: str, browsers: list[Browser]) -> None:
    """Open every browser's WebSocket in turn, then play the first legal move (in
    sorted order) of the seat to act until the game ends; after each step every browser
    also asks for the match, its record and its replay over HTTP."""
    with contextlib.ExitStack() as stack:
        sockets: list[Any] = []
        for browser in browsers:
            url = f"/ws/matches/{match}{browser.query()}"
            sockets.append(stack.enter_context(connect(client, url)))
            receive_one_each(sockets[-1:], browsers[len(sockets) - 1 :])  # its own view
        for _ in range(500):
            views = [json.loads(b.frames[-1]) for b in browsers]
            for browser in browsers:
                ask_over_http(client, match, browser)
            if views[0]["result"] is not None:
                return
            seat = views[0]["to_act"]
            move = sorted(views[seat]["legal"])[0]
            sockets[seat].send_json({"type": "move", "move": move, "event": views[0]["event"]})
            receive_one_each(sockets, browsers)  # the move (and any draws) announced
    raise AssertionError("the game did not end")


def receive_one_each(sockets: list[Any], browsers: list[Browser]) -> None:
    """The next state each socket receives. Presence messages (who is connected: seat
    numbers and a count, sent when due, so in no fixed place among the states) are
    skipped."""
    for socket, browser in zip(sockets, browsers, strict=False):
        text = socket.receive_text()
        while json.loads(text)["type"] == "presence":
            assert set(json.loads(text)) == PRESENCE_KEYS, text
            text = socket.receive_text()
        assert json.loads(text)["type"] == "state", text
        browser.frames.append(text)


MANY_REPLAYS = Rate(per_minute=100_000, burst=100_000)
PRESENCE_KEYS = {"type", "match", "event", "connected", "spectators"}


def ask_over_http(client: TestClient, match: str, browser: Browser) -> None:
    for path in ("", "/record", "/replay"):
        response = seat_get(client, f"/api/matches/{match}{path}{browser.query()}")
        browser.frames.append(f"{response.status_code} {response.text}")


def first_difference(one: list[str], other: list[str]) -> int | None:
    for index, (a, b) in enumerate(zip(one, other, strict=False)):
        if a != b:
            return index
    return None if len(one) == len(other) else min(len(one), len(other))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.slow
def test_another_seats_departure_card_changes_nothing_a_browser_receives_until_revealed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, players: int
) -> None:
    first, card = play_and_capture(tmp_path / "a", monkeypatch, players, secret_card=6)
    second, other_card = play_and_capture(tmp_path / "b", monkeypatch, players, secret_card=7)
    colour = colours_of(players)[SECRET_SEAT]
    revealed = f"deal {card} to {colour}"
    for one, other in zip(first, second, strict=True):
        if one.name == f"seat {SECRET_SEAT}":
            continue  # its own card: it may know it from the start
        differ = first_difference(one.frames, other.frames)
        assert differ is not None, f"{one.name}: the card never showed (the test cannot fail)"
        assert not any(revealed in frame for frame in one.frames[:differ]), one.name
        assert revealed in one.frames[differ], (
            f"{one.name} received something that depends on {colour}'s departure card "
            f"before it was revealed: {one.frames[differ][:300]}"
        )
        assert f"deal {other_card} to {colour}" in other.frames[differ]


@pytest.mark.slow
def test_the_seed_reaches_no_browser_before_the_game_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    browsers, _ = play_and_capture(tmp_path, monkeypatch, 3, secret_card=6)
    for browser in browsers:
        over = next(i for i, f in enumerate(browser.frames) if '"result": {' in f)
        assert not any(str(SEED) in frame for frame in browser.frames[:over]), browser.name
        assert any(str(SEED) in frame for frame in browser.frames[over:]), browser.name


def test_a_seat_token_in_an_address_is_refused_and_travels_in_a_header_or_first_message(
    tmp_path: Path,
) -> None:
    """Issue 29: no token or secret in any URL."""
    with running(tmp_path) as client:
        created = new_match(client, "stairs", ["human", "online"])
        match, token = created["match"], created["seats"][0]["token"]
        in_address = "token_in_address"
        for path in ("", "/record", "/replay"):
            refused = client.get(f"/api/matches/{match}{path}", params={"token": token})
            assert refused.status_code == 400
            assert refused.json()["error"]["code"] == in_address
        assert token not in refused.text
        with client.websocket_connect(f"/ws/matches/{match}?token={token}") as ws:
            assert ws.receive_json()["error"]["code"] == in_address
        assert (
            client.get(f"/api/matches/{match}", headers={"x-seat-token": token}).json()["you"] == 0
        )
        with client.websocket_connect(f"/ws/matches/{match}?auth=message") as ws:
            ws.send_json({"type": "hello", "token": token})
            assert ws.receive_json()["you"] == 0
        for first in ({"type": "move", "token": token}, {"type": "hello", "token": 7}):
            with client.websocket_connect(f"/ws/matches/{match}?auth=message") as ws:
                ws.send_json(first)
                error = ws.receive_json()
                assert error["error"]["code"] == "hello_expected"
