"""How long the ``perfect`` Stairs player thinks, move by move, in one game.

    .venv/bin/python -m benchmarks.stairs_perfect_play [--size 5] [--opponent random] [--seed 1]

The ``perfect`` player takes light against ``--opponent`` (dark) on a board of
``--size`` (5×5 needs the record of ``stairgames solve stairs --size 5 --try-larger``
in the solved-tables folder, ``$STAIRGAMES_SOLVED_DIR`` or the default); prints each
move with the processor seconds its player took, the result, and how long the run
took.
"""

from __future__ import annotations

import argparse
import sys
import time

import stairgames
from stairgames.agents import make_agent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    game = stairgames.load("stairs", size=args.size, agreement=False)
    players = [
        make_agent("perfect", 0, seed=args.seed, game=game),
        make_agent(args.opponent, 1, seed=args.seed, game=game),
    ]
    for player in players:
        player.prepare(game)
    state = game.new_initial_state()
    print("| ply | player | move | processor s |")
    print("|---|---|---|---|")
    ply = 0
    while not state.is_terminal():
        seat = state.current_player()
        clock = time.process_time()
        action = players[seat].act(state)
        name = "perfect" if seat == 0 else args.opponent
        seconds = time.process_time() - clock
        print(f"| {ply} | {name} | {state.action_to_string(action)} | {seconds:.1f} |")
        sys.stdout.flush()
        state.apply_action(action)
        ply += 1
    print(f"\nreturns (perfect, {args.opponent}): {state.returns()}")
    print(f"({time.perf_counter() - started:.1f} s in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
