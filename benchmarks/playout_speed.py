"""Random playouts per second: compiled (numba) against the protocol, and for Stairs
against a plain C implementation, as a table.

Run from the repository root with ``python -m benchmarks.playout_speed [--repeats N]
[--seconds S]`` (``make bench-playouts``).

For each game, each repeat plays random games from the opening for ``S`` seconds of
CPU time each way, in turn:

- *protocol*: ``clone`` of the initial state, then ``legal_actions`` /
  ``apply_action`` to the end (as ``benchmarks/engine_speed.py``);
- *hook*: the game's ``playout`` hook, the compiled playout that ``mcts`` calls, from
  the state (its board written into an array each time: what a player pays);
- *kernel*: the compiled playout alone, games played in a compiled loop from the
  opening's array (copied each game) with a fresh seed each;
- *C* (Stairs, when a C compiler ``cc`` is found): a plain C random playout on arrays
  of heights and pieces (:data:`C_SOURCE`, compiled here with ``-O2``), games played
  in a C loop, called once through ``ctypes``.

The table gives the median games per second of each and the median of the per-repeat
ratios (hook and kernel over protocol; kernel over C), with their range. Ratios taken
in one run hold on a noisy shared machine; the games per second do not.
"""

from __future__ import annotations

import argparse
import ctypes
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba
import numpy as np

import stairgames
from benchmarks.engine_speed import games_per_second, protocol_random_game
from stairgames.core.hooks import Playout
from stairgames.core.registry import player_hooks
from stairgames.games.stairs import rules as stairs_rules
from stairgames.games.stairs.play import playout as stairs_playout
from stairgames.games.stairs.research import endgame_kernel as stairs_kernel
from stairgames.games.twenty_seven import rules as line_rules
from stairgames.games.twenty_seven.research import endgame_kernel as line_kernel

ROWS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("stairs", {"agreement": False}),
    ("twenty_seven", {"variant": "basic"}),
    ("twenty_seven", {"variant": "advanced"}),
    ("twenty_seven", {"variant": "expert"}),
)
BATCH = 200
"""Games per call of the compiled and C loops."""

_NO_SCRIPT = np.zeros(0, dtype=np.int64)


@numba.njit(nogil=True)
def stairs_batch(initial: Any, g: Any, seed: int, games: int) -> int:
    """``games`` compiled Stairs playouts from ``initial`` (``g``: the board's constants);
    how many light won."""
    found = np.empty(stairs_kernel.MAX_MOVES, dtype=np.int64)
    light = 0
    for game in range(games):
        light += 1 - stairs_kernel.playout(initial.copy(), g, seed + game, _NO_SCRIPT, found)
    return light


@numba.njit(nogil=True)
def line_batch(initial: Any, variant: int, seed: int, games: int) -> int:
    """``games`` compiled 27 playouts from ``initial``; white's total result."""
    found = np.empty(line_kernel.MAX_MOVES, dtype=np.int64)
    total = 0
    for game in range(games):
        total += line_kernel.playout(initial.copy(), variant, seed + game, _NO_SCRIPT, found)
    return total


C_SOURCE = r"""
#include <stdint.h>
static int neighbours[36][8], degree[36], ready;
static uint64_t state;
static uint64_t next_random(void) {  /* xorshift64* */
    uint64_t x = state; x ^= x >> 12; x ^= x << 25; x ^= x >> 27; state = x;
    return x * 0x2545F4914F6CDD1DULL;
}
static void prepare(void) {
    for (int q = 0; q < 36; q++)
        for (int dr = -1; dr <= 1; dr++)
            for (int df = -1; df <= 1; df++) {
                int r = q / 6 + dr, f = q % 6 + df;
                if ((dr || df) && r >= 0 && r < 6 && f >= 0 && f < 6)
                    neighbours[q][degree[q]++] = r * 6 + f;
            }
    ready = 1;
}
/* S2 + S3: the moves of the lowest movable pieces of colour c */
static int moves(const int *h, const int *top, int c, int *from, int *to) {
    int best = 1000, n = 0;
    for (int q = 0; q < 36; q++) {
        if (top[q] != c || h[q] > best) continue;
        for (int k = 0; k < degree[q]; k++) {
            int t = neighbours[q][k];
            if (h[t] != h[q]) continue;
            if (h[q] < best) { best = h[q]; n = 0; }
            from[n] = q; to[n] = t; n++;
        }
    }
    return n;
}
/* games random playouts from (heights, pieces, to_move, arrival); light's wins */
int playouts(const int *h0, const int64_t *p0, int to_move0, int arrival0,
             int games, uint64_t seed) {
    if (!ready) prepare();
    state = seed | 1;
    int wins = 0, from[288], to[288];
    for (int g = 0; g < games; g++) {
        int h[36], top[36], c = to_move0, arrival = arrival0, peak = 0;
        int64_t p[36];
        for (int q = 0; q < 36; q++) {
            h[q] = h0[q]; p[q] = p0[q];
            top[q] = h[q] ? (int)((p[q] >> (h[q] - 1)) & 1) : -1;
            if (h[q] > peak) peak = h[q];
        }
        for (;;) {
            int n = moves(h, top, c, from, to);
            if (!n) {
                if (!moves(h, top, 1 - c, from, to)) break;
                c = 1 - c; continue;
            }
            int i = (int)(next_random() % (uint64_t)n), s = from[i], t = to[i];
            h[s]--; p[s] &= ~((int64_t)1 << h[s]);
            top[s] = h[s] ? (int)((p[s] >> (h[s] - 1)) & 1) : -1;
            p[t] |= (int64_t)c << h[t]; h[t]++; top[t] = c;
            if (h[t] >= peak) { peak = h[t]; arrival = c; }
            c = 1 - c;
        }
        int light = 0, dark = 0;
        for (int q = 0; q < 36; q++)
            if (h[q] == peak) { if (top[q]) dark++; else light++; }
        int winner = (!light || !dark) ? (light ? 0 : 1)
                   : (light != dark ? (light > dark ? 0 : 1) : 1 - arrival);
        wins += winner == 0;
    }
    return wins;
}
"""


def compile_c(directory: Path) -> Callable[[int, int], int] | None:
    """The C playouts from the Stairs opening as ``play(games, seed) -> light's wins``,
    or ``None`` without a C compiler."""
    compiler = shutil.which("cc")
    if compiler is None:
        return None
    source, library = directory / "playouts.c", directory / "playouts.so"
    source.write_text(C_SOURCE)
    subprocess.run([compiler, "-O2", "-shared", "-fPIC", "-o", library, source], check=True)
    playouts = ctypes.CDLL(str(library)).playouts
    playouts.restype = ctypes.c_int
    s = stairs_playout.position_array(stairs_rules.initial_board())
    heights = (ctypes.c_int * 36)(*s[stairs_kernel.HEIGHTS : stairs_kernel.HEIGHTS + 36])
    pieces = (ctypes.c_int64 * 36)(*s[stairs_kernel.PIECES : stairs_kernel.PIECES + 36])
    arrival = int(s[stairs_kernel.ARRIVAL])
    to_move = int(s[stairs_kernel.TO_MOVE])

    def play(games: int, seed: int) -> int:
        wins = playouts(heights, pieces, to_move, arrival, games, ctypes.c_uint64(seed))
        return int(wins)

    return play


def sides(
    name: str, options: dict[str, Any], c_play: Callable[[int, int], int] | None
) -> dict[str, Callable[[random.Random], int]]:
    """The ways of playing random games of one row, each ``play(rng) -> games``."""
    initial = stairgames.load(name, **options).new_initial_state()
    hook: Playout | None = player_hooks(name).playout
    assert hook is not None

    def protocol(rng: random.Random) -> int:
        protocol_random_game(initial, rng)
        return 1

    def compiled_hook(rng: random.Random) -> int:
        hook(initial, rng)
        return 1

    if name == "stairs":
        array = stairs_playout.position_array(stairs_rules.initial_board())

        def kernel(rng: random.Random) -> int:
            stairs_batch(array, stairs_playout.CONSTANTS, rng.getrandbits(40), BATCH)
            return BATCH

    else:
        array = line_kernel.line_array(line_rules.initial_line())
        variant = line_kernel.VARIANT_CODES[options["variant"]]

        def kernel(rng: random.Random) -> int:
            line_batch(array, variant, rng.getrandbits(40), BATCH)
            return BATCH

    found: dict[str, Callable[[random.Random], int]] = {
        "protocol": protocol,
        "hook": compiled_hook,
        "kernel": kernel,
    }
    if c_play is not None and name == "stairs":
        play_c = c_play

        def in_c(rng: random.Random) -> int:
            play_c(BATCH, rng.getrandbits(63))
            return BATCH

        found["C"] = in_c
    return found


def measure(
    name: str,
    options: dict[str, Any],
    c_play: Callable[[int, int], int] | None,
    repeats: int,
    seconds: float,
) -> dict[str, Any]:
    ways = sides(name, options, c_play)
    for play in ways.values():  # compile or load before timing
        play(random.Random(0))
    rates: dict[str, list[float]] = {way: [] for way in ways}
    for repeat in range(repeats):
        order = list(ways) if repeat % 2 == 0 else list(reversed(ways))
        for way in order:
            rates[way].append(games_per_second(ways[way], seconds, seed=repeat))
    row: dict[str, Any] = {way: statistics.median(values) for way, values in rates.items()}
    pairs = [("hook", "protocol"), ("kernel", "protocol"), ("kernel", "C")]
    for top, bottom in pairs:
        if top in rates and bottom in rates:
            ratios = [a / b for a, b in zip(rates[top], rates[bottom], strict=True)]
            row[f"{top}/{bottom}"] = (statistics.median(ratios), min(ratios), max(ratios))
    return row


def _ratio(row: dict[str, Any], key: str) -> str:
    if key not in row:
        return "-"
    median, low, high = row[key]
    return (
        f"{median:.1f}x ({low:.1f}-{high:.1f})"
        if median >= 10
        else (f"{median:.2f}x ({low:.2f}-{high:.2f})")
    )


def speed_arguments(
    doc: str | None, argv: list[str] | None, *, per: str, seconds: str
) -> argparse.Namespace:
    """The options of a speed table (this one's and :mod:`benchmarks.search_speed`'s):
    ``--repeats`` (per ``per``), ``--seconds`` (``seconds`` per way) and ``--game``."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0] if doc else None)
    parser.add_argument("--repeats", type=int, default=5, help=f"repeats per {per} (odd)")
    parser.add_argument("--seconds", type=float, default=0.5, help=f"{seconds} per way")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    return parser.parse_args(argv)


def print_heading(args: argparse.Namespace, seconds: str, columns: str) -> None:
    """The versions, the repeats and the head of a speed table of nine columns."""
    print(
        f"Python {sys.version.split()[0]}, numba {numba.__version__}, {args.repeats} "
        f"repeats of {args.seconds:g} {seconds} per way; medians"
    )
    print(columns)
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")


def chosen_rows(
    rows: tuple[tuple[str, dict[str, Any]], ...], args: argparse.Namespace
) -> list[tuple[str, dict[str, Any], str]]:
    """The rows ``--game`` asks for, each with its options as the table writes them."""
    return [
        (name, options, ", ".join(f"{k}={v}" for k, v in options.items()))
        for name, options in rows
        if not args.game or name in args.game
    ]


def main(argv: list[str] | None = None) -> int:
    args = speed_arguments(__doc__, argv, per="game", seconds="CPU seconds")
    with tempfile.TemporaryDirectory() as directory:
        c_play = compile_c(Path(directory))
        print_heading(
            args,
            "CPU s",
            "| game | options | protocol games/s | hook games/s | kernel games/s | C games/s "
            "| hook/protocol | kernel/protocol | kernel/C |",
        )
        for name, options, described in chosen_rows(ROWS, args):
            row = measure(name, options, c_play, args.repeats, args.seconds)
            c_rate = f"{row['C']:,.0f}" if "C" in row else "-"
            print(
                f"| {name} | {described} | {row['protocol']:,.0f} | {row['hook']:,.0f} | "
                f"{row['kernel']:,.0f} | {c_rate} | {_ratio(row, 'hook/protocol')} | "
                f"{_ratio(row, 'kernel/protocol')} | {_ratio(row, 'kernel/C')} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
