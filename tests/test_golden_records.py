"""Records and position texts written before (issue 28: "records and position texts
written before read the same"): ``tests/golden/records.json`` was written by the
code before the game packages were reshaped (``tests/golden_records.py``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import stairgames
from stairgames.core.record import GameRecord, final_state, make_record, replay
from tests.golden_records import GOLDEN

ENTRIES: list[dict[str, Any]] = json.loads(GOLDEN.read_text(encoding="utf-8"))


def _label(entry: dict[str, Any]) -> str:
    return f"{entry['game']}-{entry['options']}-{entry['seed']}"


def test_the_golden_file_covers_every_game() -> None:
    assert {entry["game"] for entry in ENTRIES} == set(stairgames.game_names())


@pytest.mark.parametrize("entry", ENTRIES, ids=_label)
def test_a_record_written_before_replays_through_the_same_positions(entry: dict[str, Any]) -> None:
    record = GameRecord.from_json(entry["record"])
    states = [state for _, state in replay(record)]
    every = entry["every"]
    seen = [state.position() for state in states[::every]]
    if (len(states) - 1) % every:
        seen.append(states[-1].position())
    assert seen == entry["positions"]
    final = final_state(record)
    assert make_record(final, seed=entry["seed"]).to_json() == entry["record"]


@pytest.mark.parametrize("entry", ENTRIES, ids=_label)
def test_a_position_text_written_before_reads_the_same(entry: dict[str, Any]) -> None:
    game = stairgames.load(entry["game"], **entry["options"])
    for text in entry["positions"]:
        assert game.state_from_position(text).position() == text


@pytest.mark.parametrize("entry", ENTRIES, ids=_label)
def test_a_view_record_written_before_replays_and_is_written_the_same(
    entry: dict[str, Any],
) -> None:
    record = GameRecord.from_json(entry["view_record"])
    last = final_state(record)
    assert not last.is_terminal() and record.seed is None  # unfinished: no seed shown
    again = make_record(last, seed=entry["seed"], viewer=record.viewer)
    assert again.to_json() == entry["view_record"]
