"""How the state space of 27 grows, solved completely on reduced games.

    .venv/bin/python -m benchmarks.twenty_seven_retrograde [--sizes 9x1,9x2,...] \
        [--proof-only 9x7] [--plot docs/figures/twenty_seven_state_space.png] [--out FILE]

Each size ``FxD`` is a basic 27 of F fields and D discs of each colour (the real game
is 9x9), solved from its start by the retrograde solver
(:func:`stairgames.games.twenty_seven.research.retrograde.solve`) into a fresh table in a
temporary folder: once completely (every position reachable from the start) and once
as a proof only (a position's other moves skipped once one wins). The table gives,
per size: the arrangements (white to move; black to move is stored as the mirror),
the table's bytes at 2 bits a rank, the positions reachable from the start, the
positions the proof stored, the seconds of each, and the start's value for white.
Sizes in ``--proof-only`` are solved as a proof only (their complete solve would take
too long here). With ``--plot`` it draws the growth on a log scale (matplotlib: the
``analysis`` extra). It prints the whole run's time at the end. ``--rows FILE`` tables
and plots the rows a run saved with ``--out`` instead of solving again.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from stairgames.bench.output import save_json
from stairgames.games.twenty_seven.research import reduced, retrograde

DEFAULT_SIZES = "9x1,9x2,9x3,9x4,9x5,9x6,2x9,3x9,4x9"
RESULTS = {1: "white wins", 0: "draw", -1: "black wins"}


def parse_sizes(text: str) -> list[reduced.Size]:
    sizes = []
    for part in text.split(","):
        if part.strip():
            fields, discs = part.strip().lower().split("x")
            sizes.append(reduced.Size(int(fields), int(discs)))
    return sizes


def solve_once(size: reduced.Size, complete: bool) -> dict[str, Any]:
    """Solves ``size`` from its start in a temporary folder; the figures."""
    with tempfile.TemporaryDirectory() as folder:
        began = time.perf_counter()
        table = retrograde.solve(Path(folder), size, complete=complete, memory=1 << 34)
        seconds = time.perf_counter() - began
        return {"stored": table.meta["stored"], "seconds": seconds, "value": table.meta["result"]}


def measure(size: reduced.Size, proof_only: bool) -> dict[str, Any]:
    row: dict[str, Any] = {
        "fields": size.fields,
        "discs": size.discs,
        "arrangements": size.positions,
        "bytes": size.direct_bytes,
    }
    proof = solve_once(size, complete=False)
    row.update(proof_positions=proof["stored"], proof_seconds=proof["seconds"])
    row["value"] = proof["value"]
    if not proof_only:
        full = solve_once(size, complete=True)
        assert full["value"] == proof["value"]
        row.update(reachable=full["stored"], seconds=full["seconds"])
    return row


def table_lines(rows: list[dict[str, Any]]) -> list[str]:
    lines = [
        "| fields | discs per colour | arrangements | table (2 bits) | reachable | seconds "
        "| proof positions | proof seconds | start, perfect play |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        reachable = f"{row['reachable']:,}" if "reachable" in row else "not run"
        seconds = f"{row['seconds']:.2f}" if "seconds" in row else ""
        lines.append(
            f"| {row['fields']} | {row['discs']} | {row['arrangements']:,} "
            f"| {_bytes(row['bytes'])} | {reachable} | {seconds} | {row['proof_positions']:,} "
            f"| {row['proof_seconds']:.2f} | {RESULTS[row['value']]} |"
        )
    return lines


def _bytes(count: int) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count} B"


def plot(rows: list[dict[str, Any]], path: Path) -> None:
    """Positions by discs of each colour on 9 fields, log scale, with the real game's
    arrangements; saved as a PNG at ``path``."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("--plot needs matplotlib: pip install 'stairgames[analysis]'")
    nine = [row for row in rows if row["fields"] == 9]
    discs = [row["discs"] for row in nine]
    every = list(range(1, 10))
    figure, axes = plt.subplots(figsize=(6.4, 4.0), dpi=100)
    axes.plot(
        every,
        [reduced.Size(9, d).positions for d in every],
        "o-",
        color="grey",
        label="arrangements (table ranks)",
    )
    reach = [row for row in nine if "reachable" in row]
    axes.plot(
        [row["discs"] for row in reach],
        [row["reachable"] for row in reach],
        "s-",
        label="reachable from the start (complete solve)",
    )
    if reach:
        last = reach[-1]
        share = last["reachable"] / last["arrangements"]
        later = list(range(last["discs"], 10))
        axes.plot(
            later,
            [share * reduced.Size(9, d).positions for d in later],
            "s--",
            color="C0",
            alpha=0.5,
            label=f"reachable, extrapolated ({100 * share:.0f} % of the arrangements)",
        )
    axes.plot(discs, [row["proof_positions"] for row in nine], "^-", label="stored by the proof")
    axes.set_yscale("log")
    axes.set_xlabel("discs of each colour (9 fields; the real game has 9)")
    axes.set_ylabel("positions")
    axes.set_title("27, basic rules: the state space by discs")
    axes.grid(True, which="major", alpha=0.4)
    axes.legend(fontsize=8)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)
    plt.close(figure)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default=DEFAULT_SIZES, help="FIELDSxDISCS, comma-separated")
    parser.add_argument("--proof-only", default="", help="sizes solved as a proof only")
    parser.add_argument("--plot", type=Path, help="write the growth plot (PNG) here")
    parser.add_argument("--out", help="save the rows as JSON")
    parser.add_argument("--rows", type=Path, help="table and plot the rows of a saved run")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    if args.rows is not None:
        rows = json.loads(args.rows.read_text(encoding="utf-8"))
        print("\n".join(table_lines(rows)))
        if args.plot is not None:
            plot(rows, args.plot)
        return 0
    solve_once(reduced.Size(2, 1), complete=True)  # compile (or load) the kernel first
    sizes = [(size, False) for size in parse_sizes(args.sizes)]
    sizes += [(size, True) for size in parse_sizes(args.proof_only)]
    rows = []
    for size, proof_only in sizes:
        rows.append(measure(size, proof_only))
        print(table_lines(rows)[-1], f"({time.perf_counter() - began:.0f} s so far)", flush=True)
    print("\n".join(table_lines(rows)))
    if args.plot is not None:
        plot(rows, args.plot)
        print(f"plot: {args.plot}")
    save_json(args.out, rows)
    print(f"took {time.perf_counter() - began:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
