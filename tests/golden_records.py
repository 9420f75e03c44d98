"""Records and position texts written by an earlier version, kept to be read again.

``python -m tests.golden_records --write`` plays, for every game and option set of the
registry, seeded random games and writes ``tests/golden/records.json``: each game's
full record (JSON), a view record of an unfinished game for seat 0, and the position text
every few plies. ``tests/test_golden_records.py`` reads the file with today's code: the
records must replay to the same positions and be written again the same. Write it again
only on purpose (a deliberate change of a format), and say so in the commit.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

import stairgames
from stairgames.core.chance import sample_chance_outcome
from stairgames.core.game import State
from stairgames.core.record import make_record
from stairgames.core.registry import get_spec

GOLDEN = Path(__file__).resolve().parent / "golden" / "records.json"
SEEDS = (1, 2)
EVERY = 5
"""A position text is kept every this many plies (and the last)."""


def played(name: str, options: dict[str, Any], seed: int) -> tuple[State, list[str]]:
    """A random game of ``name`` from ``seed`` and its position texts every few plies."""
    rng = random.Random(seed)
    state = stairgames.load(name, **options).new_initial_state()
    positions: list[str] = []
    ply = 0
    while not state.is_terminal():
        if ply % EVERY == 0:
            positions.append(state.position())
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        ply += 1
    positions.append(state.position())
    return state, positions


def unfinished_view(name: str, options: dict[str, Any], seed: int) -> str:
    """The record seat 0 may have of the first half of a random game."""
    rng = random.Random(seed)
    state = stairgames.load(name, **options).new_initial_state()
    full, _ = played(name, options, seed)
    for _ in range(len(full.history()) // 2):
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return make_record(state, seed=seed, viewer=0).to_json()


def golden_entries() -> list[dict[str, Any]]:
    entries = []
    for name in stairgames.game_names():
        for options in get_spec(name).option_sets:
            for seed in SEEDS:
                state, positions = played(name, options, seed)
                entries.append(
                    {
                        "game": name,
                        "options": options,
                        "seed": seed,
                        "record": make_record(state, seed=seed).to_json(),
                        "view_record": unfinished_view(name, options, seed),
                        "positions": positions,
                        "every": EVERY,
                    }
                )
    return entries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", action="store_true", help="write " + str(GOLDEN))
    if not parser.parse_args().write:
        parser.error("nothing to do: --write writes the file anew")
    GOLDEN.write_text(json.dumps(golden_entries(), ensure_ascii=False, indent=1) + "\n")


if __name__ == "__main__":
    main()
