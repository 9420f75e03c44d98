"""OpenSpiel's ``MCTSBot`` simulations a second on our games through the bridge.

    .venv/bin/python -m benchmarks.openspiel_bridge_speed
    .venv/bin/python -m benchmarks.openspiel_bridge_speed --baseline 028f21a --repeats 7
    .venv/bin/python -m benchmarks.openspiel_bridge_speed --game city_of_stairs \
        --simulations 100 --baseline 028f21a

With ``--game city_of_stairs`` (2 players) the bot is ``ISMCTSBot`` (random rollouts,
``uct_c`` 2, worlds from :func:`stairgames.interop.openspiel.seeded_resampler`) on every
4th decision of the line, through the building phase.

The bot (random rollouts, ``uct_c`` 2, solver on, as in :mod:`stairgames.bench.players_openspiel`)
searches a fixed number of simulations from each of the first positions of a seeded
random line of play (the openings); its simulations a second are the simulations it ran
(the root's ``explore_count``) over the seconds its searches took.

With ``--baseline REV`` the same measurement runs alternately on that revision's sources
(``git archive`` into a temporary folder) and on this checkout's, each in a fresh
process, ``--repeats`` times; the report gives the median of each, their ratio, and the
median of each repeat's ratio (its two runs back to back, so robust to a load that drifts
during the run), so that a change to the bridge is measured against what it replaced on
the same machine at the same time.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from open_spiel.python.algorithms import mcts as spiel_mcts

from stairgames.bench.output import save_json

ROOT = Path(__file__).resolve().parent.parent

GAMES: dict[str, dict[str, Any]] = {
    "stairs": {"agreement": False},
    "twenty_seven": {},
    "city_of_stairs": {"players": 2, "first_player": 0},
}
"""The games measured, with the options the OpenSpiel benchmarks play them with."""

SPREAD = {"city_of_stairs": 4}
"""Take every n-th decision of the line (City of Stairs: positions through the building
phase, where an information-set search costs more as the history grows), else the first."""


def opening_states(game: Any, plies: int, seed: int, every: int = 1) -> list[Any]:
    """``plies`` decision positions of a seeded random line of play: every ``every``-th
    decision from the first."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    states: list[Any] = []
    decisions = 0
    while len(states) < plies and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        if decisions % every == 0:
            states.append(state.clone())
        decisions += 1
        state.apply_action(rng.choice(state.legal_actions()))
    return states


def bot_name(name: str) -> str:
    return "ISMCTSBot" if name == "city_of_stairs" else "MCTSBot"


def ismcts_simulations_per_second(game: Any, simulations: int, plies: int) -> float:
    """``ISMCTSBot``'s simulations a second (it runs all it is given) on City of Stairs."""
    from open_spiel.python.algorithms import ismcts

    from stairgames.interop import openspiel as bridge

    ran = 0
    spent = 0.0
    for index, state in enumerate(opening_states(game, plies, 0, SPREAD["city_of_stairs"])):
        if len(state.legal_actions()) < 2:
            continue
        evaluator = spiel_mcts.RandomRolloutEvaluator(1, np.random.RandomState(index))
        bot = ismcts.ISMCTSBot(
            game, evaluator, 2.0, simulations, random_state=np.random.RandomState(100 + index)
        )
        bot.set_resampler(bridge.seeded_resampler(200 + index))
        clock = time.perf_counter()
        bot.step(state)
        spent += time.perf_counter() - clock
        ran += simulations
    return ran / spent


def simulations_per_second(name: str, simulations: int, plies: int) -> float:
    """The bot's simulations a second from the opening positions of ``name``."""
    from stairgames.interop import openspiel as bridge

    game = bridge.load_game(name, **GAMES[name])
    if name == "city_of_stairs":
        return ismcts_simulations_per_second(game, simulations, plies)
    ran = 0
    spent = 0.0
    for index, state in enumerate(opening_states(game, plies, seed=0)):
        bot = spiel_mcts.MCTSBot(
            game,
            uct_c=2.0,
            max_simulations=simulations,
            evaluator=spiel_mcts.RandomRolloutEvaluator(1, np.random.RandomState(index)),
            random_state=np.random.RandomState(100 + index),
            solve=True,
        )
        clock = time.perf_counter()
        root = bot.mcts_search(state)
        spent += time.perf_counter() - clock
        ran += root.explore_count
    return ran / spent


def export_sources(revision: str, into: Path) -> Path:
    """``revision``'s ``src`` folder, unpacked under ``into``."""
    archive = into / "src.tar"
    with archive.open("wb") as handle:
        subprocess.run(
            ["git", "archive", "--format=tar", revision, "src"], cwd=ROOT, stdout=handle, check=True
        )
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def measure_in_process(sources: Path, name: str, simulations: int, plies: int) -> float:
    """:func:`simulations_per_second` in a fresh Python importing ``sources``."""
    env = {**os.environ, "PYTHONPATH": str(sources)}
    command = [
        sys.executable,
        "-m",
        "benchmarks.openspiel_bridge_speed",
        "--measure",
        name,
        "--simulations",
        str(simulations),
        "--plies",
        str(plies),
    ]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def compare(
    baseline: str, names: list[str], repeats: int, simulations: int, plies: int
) -> list[dict[str, Any]]:
    """Baseline and current sources measured alternately (which goes first alternates too)."""
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        sides = {"baseline": export_sources(baseline, Path(folder)), "current": ROOT / "src"}
        for name in names:
            rates: dict[str, list[float]] = {"baseline": [], "current": []}
            for repeat in range(repeats):
                order = ["baseline", "current"] if repeat % 2 == 0 else ["current", "baseline"]
                for side in order:
                    rates[side].append(measure_in_process(sides[side], name, simulations, plies))
            before = statistics.median(rates["baseline"])
            after = statistics.median(rates["current"])
            # each repeat's two runs are back to back: their ratio is robust to a drifting load
            paired = statistics.median(
                now / then for now, then in zip(rates["current"], rates["baseline"], strict=True)
            )
            rows.append(
                {
                    "game": name,
                    "baseline": baseline,
                    "repeats": repeats,
                    "baseline_simulations_per_second": rates["baseline"],
                    "current_simulations_per_second": rates["current"],
                    "median_baseline": before,
                    "median_current": after,
                    "ratio": after / before,
                    "median_paired_ratio": paired,
                }
            )
            print(
                f"{name}: {bot_name(name)} simulations/s, median of {repeats}: "
                f"{baseline} {before:.0f}, "
                f"current {after:.0f}, ratio {after / before:.2f} (median of the repeats' "
                f"ratios {paired:.2f})",
                flush=True,
            )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="repeatable")
    parser.add_argument("--baseline", help="a git revision to compare this checkout with")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--simulations", type=int, default=1000, help="a search, per position")
    parser.add_argument("--plies", type=int, default=6, help="opening positions searched")
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    parser.add_argument("--out", help="save the figures as JSON")
    args = parser.parse_args(argv)
    if args.measure:
        print(simulations_per_second(args.measure, args.simulations, args.plies))
        return 0
    names = args.game or ["stairs", "twenty_seven"]
    if args.baseline:
        rows = compare(args.baseline, names, args.repeats, args.simulations, args.plies)
    else:
        rows = []
        for name in names:
            rate = simulations_per_second(name, args.simulations, args.plies)
            rows.append({"game": name, "simulations_per_second": rate})
            print(f"{name}: {bot_name(name)} simulations/s {rate:.0f}", flush=True)
    save_json(args.out, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
