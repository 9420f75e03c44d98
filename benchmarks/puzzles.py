"""Puzzles made an hour and the share of candidate positions proven, per game.

    .venv/bin/python -m benchmarks.puzzles --games 6 --repeats 3 --seed 1
    .venv/bin/python -m benchmarks.puzzles --game stairs --games 30 --repeats 5 --out puzzles.json

What it measures and how: :mod:`stairgames.bench.puzzles`.
"""

from __future__ import annotations

import argparse
import shlex
import sys

from stairgames.bench.output import save_json
from stairgames.bench.puzzles import (
    Repeat,
    conditions,
    describe,
    figures,
    run,
    summarize,
    table,
)
from stairgames.core.errors import StairgamesError
from stairgames.core.registry import get_spec, puzzle_games, puzzle_kit


def game_names(parser: argparse.ArgumentParser, asked: list[str] | None) -> list[str]:
    """The games to measure: ``--game``'s (each must have puzzles), else every game
    with puzzles."""
    if not asked:
        return list(puzzle_games())
    names = []
    for name in asked:
        try:
            spec = get_spec(name)
        except StairgamesError as error:
            parser.error(str(error))
        if puzzle_kit(spec.name) is None:
            parser.error(
                f"{spec.name} has no puzzles; games with puzzles: {', '.join(puzzle_games())}"
            )
        names.append(spec.name)
    return names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=6, help="self-play games a repeat (default 6)")
    parser.add_argument("--repeats", type=int, default=3, help="repeats of each game (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="the self-play seed (default 1)")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--out", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeats < 1:
        parser.error("--games and --repeats must be at least 1")
    names = game_names(parser, args.game)
    command = "python -m benchmarks.puzzles " + shlex.join(sys.argv[1:] if argv is None else argv)
    start = conditions()
    print(command)
    print(f"start {describe(start)}")

    def progress(one: Repeat) -> None:
        print(
            f"  {one.game} repeat {one.repeat + 1}: {one.tried} tried, {one.proven} proven, "
            f"{one.made} puzzles in {one.seconds:.1f} s",
            file=sys.stderr,
            flush=True,
        )

    repeats = run(names, games=args.games, repeats=args.repeats, seed=args.seed, progress=progress)
    end = conditions()
    print(f"{args.games} self-play games a repeat, seed {args.seed}, each repeat a fresh process")
    print("\n".join(table(summarize(repeats))))
    print(f"end {describe(end)}")
    arguments = {"games": args.games, "repeats": args.repeats, "seed": args.seed, "game": names}
    save_json(args.out, figures(repeats, arguments, start, end))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
