"""A match's replay frames are made in a database thread while the event loop goes on
committing moves: making them must read the match as it was asked and never touch it.

(The frames were once made by putting each earlier state in the live match for the
game's drawing: a move committed meanwhile, or two replays at once, left the match at an
earlier position, and a computer seat then thought for ever about a turn that was not
its own: the hang of ``tests/test_ishigaki_server.py`` and of the browser's three-seat
game.)
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from stairgames.core.chance import sample_chance_outcome
from stairgames.core.game import State
from stairgames.core.registry import _REGISTRY, get_spec, load
from stairgames.server.base.store import EventRecord, MatchRecord, SeatRecord
from stairgames.server.play.match import Match

GAME = "ishigaki_race"
OPTIONS = {"players": 3}


def played_events(count: int, seed: int = 4) -> list[EventRecord]:
    """The first ``count`` moves of a random three-seat Ishigaki Race, as match events."""
    rng = random.Random(seed)
    state = load(GAME, **OPTIONS).new_initial_state()
    events: list[EventRecord] = []
    while len(events) < count and not state.is_terminal():
        if state.is_chance_node():
            seat, action = None, sample_chance_outcome(state, rng)
        else:
            seat, action = state.current_player(), rng.choice(state.legal_actions())
        events.append(
            EventRecord(len(events) + 1, "move", seat, {"move": state.action_to_string(action)})
        )
        state.apply_action(action)
    return events


def new_match(events: list[EventRecord]) -> Match:
    seats = tuple(SeatRecord(seat, "human", None, None) for seat in range(3))
    return Match(MatchRecord("m", GAME, OPTIONS, 1, None, seats, tuple(events)))


def test_the_frames_never_put_an_earlier_state_in_the_match(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    events = played_events(30)
    match = new_match(events)
    live = match.state
    seen: list[bool] = []
    drawing = get_spec(GAME).web_view
    assert drawing is not None

    def spying(state: State, viewer: int | None) -> dict[str, Any]:
        seen.append(match.state is live)
        return drawing(state, viewer)

    monkeypatch.setitem(_REGISTRY, GAME, dataclasses.replace(get_spec(GAME), web_view=spying))
    frames = match.replay_frames(None)()
    assert len(frames) == len(events) + 1
    assert seen and all(seen), "a frame was drawn with an earlier state put in the live match"
    assert match.state is live


def test_moves_committed_after_asking_change_neither_the_frames_nor_the_match() -> None:
    events = played_events(31)
    match = new_match(events[:30])
    make = match.replay_frames(None)
    match.apply_event(events[30])  # the event loop commits a move before the thread runs
    after = list(match.state.history())
    frames = make()
    assert len(frames) == 31
    assert list(match.state.history()) == after
    assert len(after) == 31


def test_each_frame_is_the_drawing_of_its_position() -> None:
    events = played_events(12)
    match = new_match(events)
    frames = match.replay_frames(None)()
    drawing = get_spec(GAME).web_view
    assert drawing is not None
    state = load(GAME, **OPTIONS).new_initial_state()
    assert frames[0] == {"move": None, "board": drawing(state, None)}
    for frame, event in zip(frames[1:], events, strict=True):
        state.apply_move(event.data["move"])
        assert frame == {"move": event.data["move"], "board": drawing(state, None)}
    # the start player's draw is the first turn of the account, as the page shows it
    assert frames[1]["board"]["account"][0]["seat"] is None
