"""Stairs solved from the start on small boards (S8) by the compiled search, as tables.

    .venv/bin/python -m benchmarks.stairs_anysize [--sizes 3,4] [--compare]
    nice .venv/bin/python -m benchmarks.stairs_anysize --prove 5:b1-b2 --table-bits 27
                                           # one 5×5 first move alone, a fresh table

5×5 from the start is solved by ``stairgames solve stairs --size 5 --try-larger
--jobs N`` (a part and a table for each group of symmetric first moves); ``--sizes 5``
here solves the first moves one after another with one shared table, which serves the
later ones badly (``docs/analysis.md``).

For each size, without the pie rule: who wins under perfect play (light moves first),
light's winning first moves, the positions the compiled search
(:mod:`stairgames.games.stairs.research.anysize`) expanded and its processor seconds; with
the pie rule (S6), solved through the engine's own ``swap``: who wins, and for each
first move the colour that wins the position after it (so the colour the second
player takes). ``--compare`` also runs the plain-Python search
(:mod:`stairgames.games.stairs.research.exact`) and the compiled one without symmetries, for
the speed ratio. ``--checkpoint FILE`` keeps each solved first move in FILE, and a
run with the same FILE goes on from there. ``--prove SIZE:MOVE`` solves the position
after one first move alone, with a fresh table (a different ``--table-bits`` replaces
other positions, so it checks a result by a second search). Prints how long the whole
run took.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from stairgames.games.stairs import rules
from stairgames.games.stairs.research import anysize, exact

SLICE = 50_000_000
"""Positions between two progress lines of a long solve (the table keeps the work)."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="3,4", help="board sizes, comma-separated")
    parser.add_argument("--table-bits", type=int, default=anysize.DEFAULT_TABLE_BITS)
    parser.add_argument("--compare", action="store_true", help="also time exact.py")
    parser.add_argument("--checkpoint", type=Path, help="keep solved first moves here")
    parser.add_argument("--prove", metavar="SIZE:MOVE", help="solve after one first move")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    if args.prove:
        prove_first_move(args.prove, args.table_bits)
        print(f"\n({time.perf_counter() - started:.1f} s in all)")
        return 0
    sizes = [int(part) for part in args.sizes.split(",")]
    anysize.solve_start(3)  # compile (or load) the search before anything is timed
    print("Without the pie rule (light moves first):\n")
    print("| board | winner | light's winning first moves | positions | seconds |")
    print("|---|---|---|---|---|")
    for size in sizes:
        result = solve_with_progress(size, args.table_bits, args.checkpoint)
        winner = "light (first)" if result.winner == rules.LIGHT else "dark (second)"
        moves = " ".join(result.winning_first_moves) or f"none of {len(result.first_moves)}"
        print(f"| {size}×{size} | {winner} | {moves} | {result.nodes:,} | {result.seconds:.2f} |")
        sys.stdout.flush()
    if args.compare:
        print_comparison(sizes)
    print("\nWith the pie rule (S6), through the engine's swap:\n")
    print("| board | winner | first moves after which light wins | positions | seconds |")
    print("|---|---|---|---|---|")
    for size in sizes:
        if size > 4:
            continue  # the table above gives it: see docs/analysis.md
        pie = anysize.solve_pie_rule(size, table_bits=args.table_bits)
        light_after = [move for move, colour in pie.first_moves if colour == rules.LIGHT]
        print(
            f"| {size}×{size} | {pie.winner} player, after every first move | "
            f"{len(light_after)} of {len(pie.first_moves)} (the second player swaps after "
            f"these, plays on as dark after the others) | {pie.nodes:,} | {pie.seconds:.2f} |"
        )
        sys.stdout.flush()
    print(f"\n({time.perf_counter() - started:.1f} s in all)")
    return 0


def prove_first_move(text: str, table_bits: int) -> None:
    """Print who wins after light's first move ``SIZE:MOVE`` (e.g. ``5:b1-b2``)."""
    size_text, _, move_text = text.partition(":")
    size = int(size_text)
    board = rules.initial_board(size)
    move = next((m for m in rules.legal_moves(board, rules.LIGHT) if str(m) == move_text), None)
    if move is None:
        raise SystemExit(f"{move_text!r} is not a first move of light on {size}×{size}")
    solver = anysize.BoardSolver(size, table_bits=table_bits)
    clock = time.process_time()
    dark_wins = solver.wins(rules.apply_move(board, move))
    winner = "dark" if dark_wins else "light"
    print(
        f"{size}×{size} after {move_text}: {winner} wins; {solver.nodes:,} positions, "
        f"{time.process_time() - clock:.1f} processor s (table of 2^{table_bits} slots)"
    )


def solve_with_progress(size: int, table_bits: int, checkpoint: Path | None) -> anysize.StartValue:
    """:func:`anysize.solve_start`, printing progress to stderr every :data:`SLICE`
    positions and keeping each solved first move in ``checkpoint``."""
    done: dict[str, object] = {}
    key = str(size)
    if checkpoint is not None and checkpoint.exists():
        done = json.loads(checkpoint.read_text(encoding="utf-8")).get(key, {})
    solver = anysize.BoardSolver(size, table_bits=table_bits)
    board = rules.initial_board(size)
    started = time.process_time()
    values = []
    nodes = int(done.get("nodes", 0))  # type: ignore[call-overload]
    seconds = float(done.get("seconds", 0.0))  # type: ignore[arg-type]
    moves_done: dict[str, str] = dict(done.get("moves", {}))  # type: ignore[call-overload]
    for move in rules.legal_moves(board, rules.LIGHT):
        name = str(move)
        if name in moves_done:
            values.append((name, moves_done[name]))
            continue
        after = rules.apply_move(board, move)
        while True:
            try:
                dark_wins = solver.wins(after, nodes=SLICE)
                break
            except anysize.UnsolvedError:
                print(
                    f"  {size}×{size} {name}: {solver.nodes:,} positions, "
                    f"{time.process_time() - started:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
        winner = rules.DARK if dark_wins else rules.LIGHT
        values.append((name, winner))
        moves_done[name] = winner
        if size > 4:
            print(f"  {size}×{size} {name}: {winner} wins", file=sys.stderr, flush=True)
        if checkpoint is not None:
            state = {"moves": moves_done, "nodes": nodes + solver.nodes}
            state["seconds"] = seconds + time.process_time() - started
            saved = (
                json.loads(checkpoint.read_text(encoding="utf-8")) if checkpoint.exists() else {}
            )
            saved[key] = state
            checkpoint.write_text(json.dumps(saved, indent=1), encoding="utf-8")
    winning = tuple(name for name, winner in values if winner == rules.LIGHT)
    return anysize.StartValue(
        size=size,
        pie_rule=False,
        winner=rules.LIGHT if winning else rules.DARK,
        winning_first_moves=winning,
        first_moves=tuple(values),
        nodes=nodes + solver.nodes,
        seconds=seconds + time.process_time() - started,
    )


def print_comparison(sizes: list[int]) -> None:
    """The plain-Python search and the compiled one without symmetries, against the
    compiled search with them (each from a fresh table)."""
    print("\nThe same solves by the plain-Python search and without symmetries:\n")
    print("| board | search | positions | seconds | compiled with symmetries is faster by |")
    print("|---|---|---|---|---|")
    for size in sizes:
        if size > 4:
            continue
        fast = anysize.solve_start(size)
        plain = anysize.solve_start(size, symmetric=False)
        slow = exact.solve_start(size)
        assert fast.winner == plain.winner == slow.winner, "the searches disagree"
        assert fast.winning_first_moves == slow.winning_first_moves
        for name, nodes, seconds in (
            ("compiled, symmetries", fast.nodes, fast.seconds),
            ("compiled, no symmetries", plain.nodes, plain.seconds),
            ("plain Python (exact.py)", slow.nodes, slow.seconds),
        ):
            ratio = seconds / max(fast.seconds, 1e-9)
            print(f"| {size}×{size} | {name} | {nodes:,} | {seconds:.3f} | {ratio:,.0f}× |")
        sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
