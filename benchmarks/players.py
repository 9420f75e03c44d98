"""The level ladder: each level against the one below it, and ``hard`` against ``random``.

    .venv/bin/python -m benchmarks.players --games 40 --jobs 2 [--game stairs] [--out f.json]

For every game (default options) it runs arenas between adjacent levels
(``random``–``easy``, ``easy``–``medium``, ``medium``–``hard``, ``hard``–``expert``)
and ``hard``–``random``, and prints a Markdown table: the stronger side's score
with its 95% interval and each side's seconds per move. The figures in
``docs/agents.md`` come from this script.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import stairgames
from stairgames.agents import level_player
from stairgames.arena import run_arena, summarise
from stairgames.bench.output import save_json

MATCHES = (
    ("easy", "random"),
    ("medium", "easy"),
    ("hard", "medium"),
    ("expert", "hard"),
    ("hard", "random"),
)


def ladder(
    game: str, games: int, jobs: int, seed: int, matches: list[tuple[str, str]]
) -> list[dict[str, Any]]:
    rows = []
    loaded = stairgames.load(game)
    for stronger, weaker in matches:
        clock = time.perf_counter()
        run = run_arena(game, [stronger, weaker], games=games, seed=seed, jobs=jobs)
        summary = summarise(run)
        (pairing,) = summary["pairings"]
        first, second = summary["players"]
        rows.append(
            {
                "game": game,
                "stronger": stronger,
                "stronger_player": level_player(stronger, loaded)
                if stronger != "random"
                else "random",
                "weaker": weaker,
                "weaker_player": level_player(weaker, loaded) if weaker != "random" else "random",
                "games": pairing["games"],
                "score": pairing["rate"],
                "ci95": pairing["ci95"],
                "stronger_seconds_per_move": first["seconds_per_move"],
                "weaker_seconds_per_move": second["seconds_per_move"],
                "wall_seconds": time.perf_counter() - clock,
            }
        )
        print(format_row(rows[-1]), flush=True)
    return rows


def format_row(row: dict[str, Any]) -> str:
    low, high = row["ci95"]
    return (
        f"| {row['game']} | {row['stronger']} (`{row['stronger_player']}`) | "
        f"{row['weaker']} (`{row['weaker_player']}`) | {row['games']} | {row['score']:.1%} | "
        f"[{low:.1%}, {high:.1%}] | {row['stronger_seconds_per_move']:.3f} / "
        f"{row['weaker_seconds_per_move']:.3f} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", action="append", help="game (repeatable); default: all")
    parser.add_argument("--games", type=int, default=40, help="games per match")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--match", action="append", help="STRONGER-WEAKER (repeatable); default: the ladder"
    )
    parser.add_argument("--out", help="save the rows as JSON")
    args = parser.parse_args(argv)
    matches = [tuple(m.split("-", 1)) for m in args.match] if args.match else list(MATCHES)
    print("| game | player | opponent | games | score | 95% CI | s/move (player / opponent) |")
    print("|---|---|---|---|---|---|---|")
    rows: list[dict[str, Any]] = []
    for game in args.game or stairgames.game_names():
        rows += ladder(game, args.games, args.jobs, args.seed, matches)
    save_json(args.out, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
