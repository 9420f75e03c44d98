"""How long the web app's analysis of a finished game takes, and how much of it is proven.

``.venv/bin/python -m benchmarks.analysis_speed [--games 3] [--iterations 200]``

For each game (Stairs 6×6 and 4×4, 27, Ishigaki Race for 2 and 3 players, City of
Stairs for 2), plays ``--games`` typical games between two ``medium`` computer players
(seeded, so the same games every run), then analyses each as the server does
(:func:`stairgames.analysis.explore.analyse_record`, ``--iterations`` search iterations
a position, seed 0: the server's default budget, ``Settings.analysis_iterations``), in
this process, one game after another. The first analysis of each game is run once
before the timed ones, so that compiling code and solving on demand (Stairs 4×4's and
Ishigaki Race's tables) are not counted; the table says what that preparation took.
Prints a Markdown table: plies and decisions a game, seconds a game and a decision
(wall clock), the share of decisions whose numbers are all proven, and the marks.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from stairgames.agents.base import make_agent
from stairgames.analysis.explore import analyse_record
from stairgames.bench.output import save_json
from stairgames.core.chance import sample_chance_outcome
from stairgames.core.game import State
from stairgames.core.record import make_record
from stairgames.core.registry import load

CASES: list[tuple[str, str, dict[str, Any]]] = [
    ("Stairs 6×6", "stairs", {}),
    ("Stairs 4×4", "stairs", {"size": 4}),
    ("27 (basic)", "twenty_seven", {}),
    ("Ishigaki Race, 2 players", "ishigaki_race", {}),
    ("Ishigaki Race, 3 players", "ishigaki_race", {"players": 3}),
    ("City of Stairs, 2 players", "city_of_stairs", {}),
]


def play(game_name: str, options: dict[str, Any], seed: int, player: str) -> State:
    """A game of ``player`` against itself at every seat, chance drawn from ``seed``."""
    game = load(game_name, **options)
    rng = random.Random(seed)
    agents = [
        make_agent(player, seat, seed + seat, game=game) for seat in range(game.num_players())
    ]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(agents[state.current_player()].act(state))
    return state


def measure(games: int, iterations: int, player: str) -> list[dict[str, Any]]:
    rows = []
    for label, game_name, options in CASES:
        records = [make_record(play(game_name, options, 1000 + g, player)) for g in range(games)]
        started = time.perf_counter()
        analyse_record(records[0].to_json(), iterations=iterations)  # compiling, solving
        prepared = time.perf_counter() - started
        plies = decisions = proven = 0
        marks = {"inaccuracy": 0, "mistake": 0, "blunder": 0}
        seconds = 0.0
        for record in records:
            started = time.perf_counter()
            data = analyse_record(record.to_json(), iterations=iterations)
            seconds += time.perf_counter() - started
            plies += data["plies"]
            decisions += data["decisions"]
            proven += data["proven"]
            for move in data["moves"]:
                if move["mark"]:
                    marks[move["mark"]] += 1
        rows.append(
            {
                "game": label,
                "games": games,
                "plies": plies / games,
                "decisions": decisions / games,
                "seconds_a_game": seconds / games,
                "seconds_a_decision": seconds / max(1, decisions),
                "proven": proven / max(1, decisions),
                "marks": marks,
                "first_analysis_seconds": prepared,
            }
        )
        row = rows[-1]
        print(
            f"| {label} | {row['plies']:.0f} | {row['decisions']:.0f} | "
            f"{row['seconds_a_game']:.1f} | {row['seconds_a_decision']:.3f} | "
            f"{row['proven']:.0%} | {marks['inaccuracy']} / {marks['mistake']} / "
            f"{marks['blunder']} | {prepared:.1f} |",
            flush=True,
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games a row (default 3)")
    parser.add_argument(
        "--iterations", type=int, default=200, help="search iterations a position (200)"
    )
    parser.add_argument("--player", default="medium", help="who plays the games (medium)")
    parser.add_argument("--out", help="also write the figures as JSON here")
    args = parser.parse_args()
    print(
        f"{args.games} games a row of {args.player} against itself, "
        f"{args.iterations} iterations a position"
    )
    print(
        "| game | plies | decisions | s a game | s a decision | decisions proven "
        "| marks (?! / ? / ??) | first analysis, s |"
    )
    print("|---|---:|---:|---:|---:|---:|---|---:|")
    started = time.perf_counter()
    rows = measure(args.games, args.iterations, args.player)
    print(f"({time.perf_counter() - started:.0f} s in all)")
    save_json(args.out, rows)


if __name__ == "__main__":
    main()
