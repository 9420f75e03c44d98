"""City of Stairs, 2 players: our player against OpenSpiel's ``ISMCTSBot`` at equal time.

    .venv/bin/python -m benchmarks.city_ismcts --games 200 --time 0.25 --jobs 1

OpenSpiel's information-set MCTS (``open_spiel.python.algorithms.ismcts``: random
rollouts, ``uct_c`` 2, a fresh world drawn for every simulation, the most visited
move) plays one seat through the bridge (:mod:`stairgames.interop.openspiel`): it keys
its tree by the bridge's information-state strings and draws the hidden departure
cards with :func:`stairgames.interop.openspiel.seeded_resampler`, so it never sees
what its seat may not know; our player (``--ours``, by default ``expert``, whose
configuration in City of Stairs is ``mcts:time=1.8,cutoff=1,c=0.1``) plays the other
with its time set to ``--time``. Equal time: the bot counts simulations, so it is
calibrated first (its simulations a second on early positions) and then kept on the
budget during the game (after each search its simulations are scaled by budget / time
taken, at most doubled), as :mod:`stairgames.bench.players_openspiel` does for ``MCTSBot``.
``ISMCTSBot`` runs every simulation it is allowed (it has no early stop), so the
simulations it ran are those it was given at each searched move.

Games cycle through our seat (0, 1) and the start player (0, 1), so that each pairing of
seat and start comes up equally often; the score counts a win 1, a shared win (C7: tied
leaders share the win) 1/2, a loss 0, with a Wilson 95% interval.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts
from open_spiel.python.algorithms import mcts as spiel_mcts

from stairgames.agents import MctsAgent, make_agent
from stairgames.arena.ratings import wilson_interval
from stairgames.bench.output import ratio_of_sums, save_json
from stairgames.bench.players_openspiel import our_player
from stairgames.interop import openspiel as bridge

PLAYERS = 2


def make_ismcts(game: Any, simulations: int, seed: int) -> ismcts.ISMCTSBot:
    """OpenSpiel's ISMCTS bot with random rollouts, drawing worlds from a seeded generator."""
    evaluator = spiel_mcts.RandomRolloutEvaluator(
        n_rollouts=1, random_state=np.random.RandomState(seed)
    )
    bot = ismcts.ISMCTSBot(
        game,
        evaluator,
        2.0,
        simulations,
        random_state=np.random.RandomState(seed + 1),
    )
    bot.set_resampler(bridge.seeded_resampler(seed + 2))
    return bot


def load_city(first_player: int | None = None) -> Any:
    return bridge.load_game("city_of_stairs", players=PLAYERS, first_player=first_player)


def play_chance(state: Any, rng: random.Random) -> None:
    """Chance outcomes (shuffles, deals) drawn by their probabilities until a decision."""
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])


def calibrate(seconds: float, simulations: int = 100) -> int:
    """Simulations of ``ISMCTSBot`` that take ``seconds`` on early positions."""
    game = load_city(first_player=0)
    bot = make_ismcts(game, simulations, 0)
    state = game.new_initial_state()
    rng = random.Random(0)
    spent = 0.0
    done = 0
    for _ in range(8):
        play_chance(state, rng)
        if state.is_terminal():
            break
        legal = state.legal_actions()
        if len(legal) > 1:
            clock = time.perf_counter()
            bot.step(state)
            spent += time.perf_counter() - clock
            done += simulations
        state.apply_action(rng.choice(legal))
    return max(10, int(done / spent * seconds))


def play(task: tuple[int, float, int, int, int, str]) -> dict[str, Any]:
    seed, seconds, simulations, ours_seat, first_player, kind = task
    bridge.register_all()
    game = load_city(first_player)
    state = game.new_initial_state()
    inner_game = state.inner.get_game()
    # prepared (checked, compiled code warmed) before the game, outside its clock
    ours = make_agent(our_player(kind, inner_game, seconds), ours_seat, seed=seed, game=inner_game)
    bot = make_ismcts(game, simulations, seed)
    rng = random.Random(seed)
    ours_time = theirs_time = 0.0
    ours_moves = theirs_moves = theirs_searches = 0
    ours_iterations = theirs_simulations = 0
    theirs_search_time = 0.0
    while True:
        play_chance(state, rng)
        if state.is_terminal():
            break
        legal = state.legal_actions()
        clock = time.perf_counter()
        if state.current_player() == ours_seat:
            action = ours.act(state.inner)
            ours_time += time.perf_counter() - clock
            ours_moves += 1
            if isinstance(ours, MctsAgent):
                ours_iterations += ours.last_iterations
        else:
            action = int(bot.step(state)) if len(legal) > 1 else legal[0]
            spent = time.perf_counter() - clock
            theirs_time += spent
            theirs_moves += 1
            if len(legal) > 1:
                theirs_searches += 1
                theirs_search_time += spent
                theirs_simulations += bot._max_simulations
                scaled = bot._max_simulations * seconds / max(spent, 1e-6)
                bot._max_simulations = max(10, int(min(2 * bot._max_simulations, scaled)))
        state.apply_action(action)
    returns = state.returns()
    mine = returns[ours_seat]
    best = max(returns)
    leaders = sum(1 for r in returns if r == best)
    score = 0.0 if mine < best else 1.0 / leaders
    return {
        "score": score,
        "shared": mine == best and leaders > 1,
        "ours_seat": ours_seat,
        "ours_first": first_player == ours_seat,
        "ours_time": ours_time,
        "ours_moves": ours_moves,
        "ours_iterations": ours_iterations,
        "theirs_time": theirs_time,
        "theirs_moves": theirs_moves,
        "theirs_searches": theirs_searches,
        "theirs_simulations": theirs_simulations,
        "theirs_search_time": theirs_search_time,
    }


def summary(
    results: list[dict[str, Any]], ours: str, seconds: float, simulations: int
) -> dict[str, Any]:
    score = sum(r["score"] for r in results)
    low, high = wilson_interval(score, len(results))

    row: dict[str, Any] = {
        "game": "city_of_stairs",
        "players": PLAYERS,
        "ours": ours,
        "games": len(results),
        "seconds_per_move_budget": seconds,
        "ismcts_simulations_calibrated": simulations,
        "ours_score": score / len(results),
        "ci95": [low, high],
        "shared_wins": sum(1 for r in results if r["shared"]),
        "ours_seconds_per_move": ratio_of_sums(results, "ours_time", "ours_moves"),
        "ismcts_seconds_per_move": ratio_of_sums(results, "theirs_time", "theirs_moves"),
        "ours_iterations_per_second": ratio_of_sums(results, "ours_iterations", "ours_time"),
        "ismcts_simulations_per_move": ratio_of_sums(
            results, "theirs_simulations", "theirs_searches"
        ),
        "ismcts_simulations_per_second": ratio_of_sums(
            results, "theirs_simulations", "theirs_search_time"
        ),
    }
    for first, label in ((True, "first"), (False, "second")):
        seated = [r["score"] for r in results if r["ours_first"] == first]
        row[f"ours_score_{label}"] = sum(seated) / max(1, len(seated))
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--time", type=float, default=0.25, help="seconds per move for both")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--ours", default="expert", help="our player or level; time = --time")
    parser.add_argument("--out", help="save the figures as JSON")
    args = parser.parse_args(argv)
    bridge.register_all()
    started = time.perf_counter()
    simulations = calibrate(args.time)
    tasks = [
        (2000 + i, args.time, simulations, i % PLAYERS, (i // PLAYERS) % PLAYERS, args.ours)
        for i in range(args.games)
    ]
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        results = pool.map(play, tasks, chunksize=1)
    row = summary(results, args.ours, args.time, simulations)
    row["wall_seconds"] = time.perf_counter() - started
    low, high = row["ci95"]
    print(
        f"city_of_stairs ({PLAYERS} players): ours ({args.ours}) scores "
        f"{row['ours_score']:.1%} [{low:.1%}, {high:.1%}] of {row['games']} against ISMCTSBot "
        f"at {args.time} s/move ({row['shared_wins']} shared wins); s/move ours "
        f"{row['ours_seconds_per_move']:.3f} ISMCTS {row['ismcts_seconds_per_move']:.3f}; "
        f"ISMCTS simulations a searched move {row['ismcts_simulations_per_move']:.0f} "
        f"({row['ismcts_simulations_per_second']:.0f}/s); ours starting / the bot starting "
        f"{row['ours_score_first']:.1%} / {row['ours_score_second']:.1%}; "
        f"{row['wall_seconds']:.0f} s",
        flush=True,
    )
    save_json(args.out, row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
