"""``mcts`` iterations a second against the bound of a plain C random playout, as a table.

Run from the repository root with ``python -m benchmarks.search_speed [--repeats N]
[--seconds S]`` (``make bench-search``).

Every MCTS iteration plays at least one random playout, so random playouts a second
of a plain C implementation from the same position bound the iterations a second
any MCTS with random playouts can run there. For each row (the opening of Stairs
and of each variant of 27), each repeat measures in turn, ``S`` seconds each:

- *C*: random playouts from the opening in a C loop (the Stairs one of
  :mod:`benchmarks.playout_speed`, and :data:`LINE_C_SOURCE` for 27, compiled here
  with ``cc -O2``; rows without a C compiler show ``-``);
- *compiled*: ``mcts:time=S`` on the game's compiled tree search (one move from the
  opening; iterations run divided by the seconds taken);
- *hook*: ``solver=0`` (the compiled search needs the solver), i.e. the search
  through the protocol with the game's compiled playouts: ``mcts`` before it had a
  compiled search;
- *protocol*: ``fast=0``: the search and its playouts through the protocol.

Seconds are CPU seconds (``time.process_time``) for every way, so that a busy
machine does not count against one of them.

The table gives the medians and the median of the per-repeat ratios to C (with
their range): ratios taken in one run hold on a noisy shared machine.
"""

from __future__ import annotations

import ctypes
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import stairgames
from benchmarks.playout_speed import chosen_rows, print_heading, speed_arguments
from benchmarks.playout_speed import compile_c as compile_stairs_c
from stairgames.agents import MctsAgent, make_agent
from stairgames.games.twenty_seven import rules as line_rules
from stairgames.games.twenty_seven.research import endgame_kernel as line_kernel

ROWS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("stairs", {"agreement": False}),
    ("twenty_seven", {"variant": "basic"}),
    ("twenty_seven", {"variant": "advanced"}),
    ("twenty_seven", {"variant": "expert"}),
)
BATCH = 200
"""Playouts per call of the C loop."""

LINE_C_SOURCE = r"""
#include <stdint.h>
#include <string.h>
enum { RED, GREY, WHITE, BLACK };
static uint64_t state;
static uint64_t next_random(void) {  /* xorshift64* */
    uint64_t x = state; x ^= x >> 12; x ^= x << 25; x ^= x >> 27; state = x;
    return x * 0x2545F4914F6CDD1DULL;
}
/* T2 + T3 (+ T6/T7): colour c's moves as (field, discs); the signed step */
static int moves(int d[9][32], const int *h, int fields, int c, int variant,
                 int *field, int *discs, int *step) {
    int code = WHITE + c, stacks = 0, n = 0;
    for (int f = 0; f < fields; f++) if (d[f][h[f] - 1] == code) stacks++;
    *step = c == 0 ? stacks : -stacks;
    for (int f = 0; f < fields; f++) {
        if (d[f][h[f] - 1] != code || f + *step < 0 || f + *step >= fields) continue;
        int movable = (variant == 2 || (variant == 1 && d[f][0] == GREY)) ? h[f] : h[f] - 1;
        for (int k = 1; k <= movable; k++) { field[n] = f; discs[n] = k; n++; }
    }
    return n;
}
/* games random playouts from the line (discs, heights, fields, to_move);
   white's total result (1 won, 0 drawn, -1 lost, T5) */
int playouts(const int *d0, const int *h0, int fields0, int to_move0, int variant,
             int games, uint64_t seed) {
    state = seed | 1;
    int total = 0, field[512], discs[512];
    for (int g = 0; g < games; g++) {
        int d[9][32], h[9], fields = fields0, c = to_move0, step;
        memcpy(d, d0, sizeof d); memcpy(h, h0, sizeof h);
        for (;;) {
            int n = moves(d, h, fields, c, variant, field, discs, &step);
            if (!n) {
                if (!moves(d, h, fields, 1 - c, variant, field, discs, &step)) break;
                c = 1 - c; continue;
            }
            int i = (int)(next_random() % (uint64_t)n), f = field[i], k = discs[i];
            int t = f + step;
            for (int j = 0; j < k; j++) d[t][h[t] + j] = d[f][h[f] - k + j];
            h[t] += k; h[f] -= k;
            if (!h[f]) {  /* the field leaves the line */
                for (int later = f; later < fields - 1; later++) {
                    h[later] = h[later + 1]; memcpy(d[later], d[later + 1], sizeof d[0]);
                }
                fields--;
            }
            c = 1 - c;
        }
        int white = h[fields - 1], black = h[0];
        total += white > black ? 1 : (white < black ? -1 : 0);
    }
    return total;
}
"""


def compile_line_c(directory: Path) -> Callable[[str, int, int], int] | None:
    """The C playouts from 27's opening as ``play(variant, games, seed)``, or ``None``."""
    compiler = shutil.which("cc")
    if compiler is None:
        return None
    source, library = directory / "line.c", directory / "line.so"
    source.write_text(LINE_C_SOURCE)
    subprocess.run([compiler, "-O2", "-shared", "-fPIC", "-o", library, source], check=True)
    playouts = ctypes.CDLL(str(library)).playouts
    playouts.restype = ctypes.c_int
    s = line_kernel.line_array(line_rules.initial_line())
    levels = 32
    discs = (ctypes.c_int * (9 * levels))()
    heights = (ctypes.c_int * 9)()
    for field in range(int(s[line_kernel.FIELDS])):
        heights[field] = int(s[line_kernel.HEIGHTS + field])
        for level in range(heights[field]):
            discs[field * levels + level] = int(
                s[line_kernel.DISCS + field * line_kernel.LEVELS + level]
            )
    fields, to_move = int(s[line_kernel.FIELDS]), int(s[line_kernel.TO_MOVE])
    assert levels >= line_kernel.LEVELS

    def play(variant: str, games: int, seed: int) -> int:
        code = line_kernel.VARIANT_CODES[variant]
        return int(playouts(discs, heights, fields, to_move, code, games, ctypes.c_uint64(seed)))

    return play


def c_playouts_per_second(play: Callable[[int], int], seconds: float) -> float:
    """C playouts a second, in batches of :data:`BATCH`, for ``seconds`` of CPU time."""
    done, seed = 0, 1
    started = time.process_time()
    while time.process_time() - started < seconds:
        play(seed)
        done += BATCH
        seed += 1
    return done / (time.process_time() - started)


def mcts_iterations_per_second(name: str, options: dict[str, Any], spec: str) -> float:
    """Iterations a second of CPU time of one ``mcts`` move from the opening (its budget
    is in seconds of the clock: on a busy machine it gets less CPU time than that)."""
    state = stairgames.load(name, **options).new_initial_state()
    agent = make_agent(spec, 0, seed=1, game=state.get_game())
    assert isinstance(agent, MctsAgent)
    started = time.process_time()
    agent.act(state)
    return agent.last_iterations / (time.process_time() - started)


def measure(
    name: str,
    options: dict[str, Any],
    c_play: Callable[[int], int] | None,
    repeats: int,
    seconds: float,
) -> dict[str, Any]:
    ways: dict[str, Callable[[], float]] = {
        "compiled": lambda: mcts_iterations_per_second(name, options, f"mcts:time={seconds}"),
        "hook": lambda: mcts_iterations_per_second(name, options, f"mcts:time={seconds},solver=0"),
        "protocol": lambda: mcts_iterations_per_second(
            name, options, f"mcts:time={seconds},fast=0"
        ),
    }
    if c_play is not None:
        play = c_play
        ways["C"] = lambda: c_playouts_per_second(play, seconds)
    for measure_once in ways.values():  # compile or load before timing
        measure_once()
    rates: dict[str, list[float]] = {way: [] for way in ways}
    for repeat in range(repeats):
        order = list(ways) if repeat % 2 == 0 else list(reversed(ways))
        for way in order:
            rates[way].append(ways[way]())
    row: dict[str, Any] = {way: statistics.median(values) for way, values in rates.items()}
    if "C" in rates:
        for way in ("compiled", "hook", "protocol"):
            ratios = [a / b for a, b in zip(rates[way], rates["C"], strict=True)]
            row[f"{way}/C"] = (statistics.median(ratios), min(ratios), max(ratios))
    return row


def c_playouts(
    name: str,
    options: dict[str, Any],
    stairs_c: Callable[[int, int], int] | None,
    line_c: Callable[[str, int, int], int] | None,
) -> Callable[[int], int] | None:
    """``play(seed)``: one batch of C playouts from the row's opening (``None``: no C)."""
    if name == "stairs" and stairs_c is not None:
        stairs = stairs_c
        return lambda seed: stairs(BATCH, seed)
    if name == "twenty_seven" and line_c is not None:
        line, variant = line_c, str(options["variant"])
        return lambda seed: line(variant, BATCH, seed)
    return None


def _share(row: dict[str, Any], key: str) -> str:
    if key not in row:
        return "-"
    median, low, high = row[key]
    return f"{100 * median:.1f}% ({100 * low:.1f}-{100 * high:.1f})"


def main(argv: list[str] | None = None) -> int:
    args = speed_arguments(__doc__, argv, per="row", seconds="seconds")
    with tempfile.TemporaryDirectory() as directory:
        stairs_c = compile_stairs_c(Path(directory))
        line_c = compile_line_c(Path(directory))
        print_heading(
            args,
            "s",
            "| game | options | C playouts/s (bound) | compiled mcts iterations/s | hook "
            "(solver=0) | protocol (fast=0) | compiled / C | hook / C | protocol / C |",
        )
        for name, options, described in chosen_rows(ROWS, args):
            c_play = c_playouts(name, options, stairs_c, line_c)
            row = measure(name, options, c_play, args.repeats, args.seconds)
            c_rate = f"{row['C']:,.0f}" if "C" in row else "-"
            print(
                f"| {name} | {described} | {c_rate} | {row['compiled']:,.0f} | "
                f"{row['hook']:,.0f} | {row['protocol']:,.0f} | {_share(row, 'compiled/C')} | "
                f"{_share(row, 'hook/C')} | {_share(row, 'protocol/C')} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
