"""Rules-engine speed for every registered game and option set, as a table.

Run with ``make bench`` or ``python benchmarks/run.py [--seconds S] [--game NAME]``.

Columns:
- legal/s: ``legal_actions()`` calls per second on fresh states sampled from
  random games (nothing cached; includes deciding whose turn it is or that the
  game is over, and costs nothing at chance nodes);
- apply/s: actions applied per second (legality checked, history kept);
- games/s: complete random games per second (uniform legal actions, chance
  sampled by its probabilities);
- length: mean number of actions per game, chance included.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

import stairgames
from stairgames.core.chance import sample_chance_outcome
from stairgames.core.game import Game, State
from stairgames.core.registry import get_spec


def random_game(game: Game, rng: random.Random) -> State:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def fresh_states(game: Game, rng: random.Random, count: int) -> list[State]:
    """States from random games, each made by applying an action to a clone, so that
    nothing has asked for (and cached) their legal actions yet."""
    states: list[State] = []
    while len(states) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(states) < count:
            if state.is_chance_node():
                action = sample_chance_outcome(state, rng)
            else:
                action = rng.choice(state.legal_actions())
            fresh = state.clone()
            fresh.apply_action(action)
            states.append(fresh)
            state.apply_action(action)
    return states


def measure_legal(game: Game, rng: random.Random, seconds: float) -> float:
    """Timed calls only; the wall clock caps the untimed set-up (chance-heavy games
    spend most of it generating states)."""
    done, elapsed = 0, 0.0
    wall_start = time.perf_counter()
    while elapsed < seconds and time.perf_counter() - wall_start < 4 * seconds:
        states = fresh_states(game, rng, 2000)
        start = time.perf_counter()
        for state in states:
            state.legal_actions()
        elapsed += time.perf_counter() - start
        done += len(states)
    return done / elapsed


def measure_games(game: Game, rng: random.Random, seconds: float) -> tuple[float, float, float]:
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = random_game(game, rng)
        games += 1
        actions += len(state.history())
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / elapsed, actions / games


def run(names: list[str], seconds: float, seed: int) -> list[dict[str, Any]]:
    rows = []
    for name in names:
        for options in get_spec(name).option_sets:
            game = stairgames.load(name, **options)
            rng = random.Random(seed)
            legal = measure_legal(game, rng, seconds)
            games, applies, length = measure_games(game, rng, seconds)
            label = ", ".join(f"{k}={v}" for k, v in options.items()) or "default"
            rows.append(
                {
                    "game": name,
                    "options": label,
                    "legal_per_s": legal,
                    "apply_per_s": applies,
                    "games_per_s": games,
                    "mean_length": length,
                }
            )
    return rows


def print_table(rows: list[dict[str, Any]]) -> None:
    print("| game | options | legal/s | apply/s | games/s | length |")
    print("|---|---|---:|---:|---:|---:|")
    for row in rows:
        print(
            f"| {row['game']} | {row['options']} | {row['legal_per_s']:,.0f} | "
            f"{row['apply_per_s']:,.0f} | {row['games_per_s']:,.1f} | {row['mean_length']:.1f} |"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    names = args.game or stairgames.game_names()
    rows = run(names, args.seconds, args.seed)
    if args.json:
        json.dump(rows, sys.stdout, indent=2)
        print()
    else:
        print(f"Python {sys.version.split()[0]}, {args.seconds:g} s per measurement")
        print_table(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
