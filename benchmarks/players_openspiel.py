"""Our player against OpenSpiel's ``MCTSBot`` (random rollouts, ``uct_c`` 2, solver on).

    .venv/bin/python -m benchmarks.players_openspiel --game stairs --games 100 --time 0.1
    .venv/bin/python -m benchmarks.players_openspiel --time 0.1 --bot-time 1.0 --games 200

Both players search from the same positions of the same games, seats
alternating. ``--time`` is our budget a move, ``--bot-time`` the bot's (equal time
unless given). OpenSpiel's bot counts simulations, not time, so it is
calibrated first (its simulations per second on the game's opening positions
set ``max_simulations``) and then kept on its budget during the game: after each
of its moves ``max_simulations`` is scaled by budget / time taken (at most
doubled). The measured seconds per move of each side are reported to show the
budgets matched (ours stops early on forced, immediately winning and proven
moves, so it averages less than the budget). The bot's simulations are those it
actually ran (the root's ``explore_count``; its solver stops a search early once
the root is proven), not those it was allowed; they are reported per searched move
and per second of its search.
OpenSpiel's bot reaches our engine through the bridge
(:mod:`stairgames.interop.openspiel`), so its iterations include the bridge's
cost (pyspiel's calls into a Python game; a clone is our engine's ``clone``); that is
the price any OpenSpiel algorithm pays on a Python game
(:mod:`benchmarks.openspiel_bridge_speed` measures it).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from typing import Any

import numpy as np
from open_spiel.python.algorithms import mcts as spiel_mcts

from benchmarks.output import save_json
from stairgames.agents import LEVEL_NAMES, MctsAgent, level_player, make_agent, parse_player_spec
from stairgames.agents.base import format_settings
from stairgames.arena.ratings import wilson_interval
from stairgames.interop import openspiel as bridge


def make_bot(game: Any, simulations: int, seed: int) -> spiel_mcts.MCTSBot:
    evaluator = spiel_mcts.RandomRolloutEvaluator(
        n_rollouts=1, random_state=np.random.RandomState(seed)
    )
    return spiel_mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=simulations,
        evaluator=evaluator,
        random_state=np.random.RandomState(seed + 1),
        solve=True,
    )


def bot_move(bot: spiel_mcts.MCTSBot, state: Any) -> tuple[int, int]:
    """The bot's action as ``MCTSBot.step`` chooses it, and the simulations it ran."""
    root = bot.mcts_search(state)
    return int(root.best_child().action), int(root.explore_count)


MOVES_OF_PLAY_ONLY: dict[str, dict[str, Any]] = {"stairs": {"agreement": False}}
"""Options that leave out offers to end by agreement (Stairs S7): our players search
moves of play only and decide agreement apart, so OpenSpiel's bot gets the same game
(its random rollouts would otherwise end games by random offers and answers)."""


def load_for_play(name: str) -> Any:
    return bridge.load_game(name, **MOVES_OF_PLAY_ONLY.get(name, {}))


def calibrate(name: str, seconds: float) -> int:
    """Simulations of OpenSpiel's bot that take ``seconds`` on early positions of ``name``."""
    game = load_for_play(name)
    bot = make_bot(game, 200, 0)
    state = game.new_initial_state()
    rng = random.Random(0)
    spent = 0.0
    done = 0
    for _ in range(6):
        if state.is_terminal():
            break
        clock = time.perf_counter()
        _, ran = bot_move(bot, state)
        spent += time.perf_counter() - clock
        done += ran
        while state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        state.apply_action(rng.choice(state.legal_actions()))
        while state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    return max(10, int(done / spent * seconds))


def our_player(spec: str, game: Any, seconds: float) -> str:
    """The text form of our player with its time set to ``seconds``.

    ``spec`` is a player (``mcts``, ``alphabeta:depth=9``) or a level (``expert``),
    which stands for its configuration in this game; either way ``time`` is the budget.
    """
    if spec in LEVEL_NAMES:
        spec = level_player(spec, game)
    kind, settings = parse_player_spec(spec)
    return format_settings(kind, {**settings, "time": seconds})


def play(task: tuple[str, int, float, float, int, bool, str]) -> dict[str, Any]:
    name, seed, seconds, bot_seconds, simulations, ours_first, kind = task
    bridge.register_all()
    game = load_for_play(name)
    state = game.new_initial_state()
    ours_seat = 0 if ours_first else 1
    inner_game = state.inner.get_game()
    # prepared (checked, compiled code warmed) before the game, outside its clock
    ours = make_agent(our_player(kind, inner_game, seconds), ours_seat, seed=seed, game=inner_game)
    bot = make_bot(game, simulations, seed)
    rng = random.Random(seed)
    ours_time = theirs_time = 0.0
    ours_moves = theirs_moves = 0
    ours_iterations = 0
    theirs_iterations = 0
    theirs_searches = 0
    theirs_search_time = 0.0
    theirs_full = 0
    theirs_full_time = 0.0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        legal = state.legal_actions()
        clock = time.perf_counter()
        if state.current_player() == ours_seat:
            action = ours.act(state.inner)
            ours_time += time.perf_counter() - clock
            ours_moves += 1
            ours_iterations += (
                ours.last_iterations if isinstance(ours, MctsAgent) else getattr(ours, "nodes", 0)
            )
        else:
            action, ran = bot_move(bot, state) if len(legal) > 1 else (legal[0], 0)
            spent = time.perf_counter() - clock
            theirs_time += spent
            theirs_moves += 1
            if len(legal) > 1:
                theirs_iterations += ran
                theirs_searches += 1
                theirs_search_time += spent
                if ran == bot.max_simulations:
                    theirs_full += 1
                    theirs_full_time += spent
                    # keep the bot on its budget: scale its simulations by the time it took
                    scaled = bot.max_simulations * bot_seconds / max(spent, 1e-6)
                    bot.max_simulations = max(10, int(min(2 * bot.max_simulations, scaled)))
        state.apply_action(action)
    returns = state.returns()
    mine, theirs = returns[ours_seat], returns[1 - ours_seat]
    return {
        "score": 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0,
        "ours_first": ours_first,
        "ours_time": ours_time,
        "ours_moves": ours_moves,
        "ours_iterations": ours_iterations,
        "theirs_time": theirs_time,
        "theirs_moves": theirs_moves,
        "theirs_iterations": theirs_iterations,
        "theirs_searches": theirs_searches,
        "theirs_search_time": theirs_search_time,
        "theirs_full": theirs_full,
        "theirs_full_time": theirs_full_time,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", action="append", help="game (repeatable); default stairs, 27")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--time", type=float, default=0.1, help="our seconds per move")
    parser.add_argument(
        "--bot-time", type=float, help="seconds per move for OpenSpiel's bot (default --time)"
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--ours",
        default="mcts",
        help="our player, with settings or a level (expert); its time is set to --time",
    )
    parser.add_argument("--out", help="save the figures as JSON")
    args = parser.parse_args(argv)
    bot_time = args.time if args.bot_time is None else args.bot_time
    bridge.register_all()
    rows = []
    for name in args.game or ["stairs", "twenty_seven"]:
        simulations = calibrate(name, bot_time)
        tasks = [
            (name, 1000 + i, args.time, bot_time, simulations, i % 2 == 0, args.ours)
            for i in range(args.games)
        ]
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            results = pool.map(play, tasks, chunksize=1)
        score = sum(r["score"] for r in results)
        low, high = wilson_interval(score, len(results))
        row = {
            "game": name,
            "ours": args.ours,
            "games": len(results),
            "seconds_per_move_budget": args.time,
            "openspiel_seconds_per_move_budget": bot_time,
            "openspiel_simulations_calibrated": simulations,
            "ours_win_rate": score / len(results),
            "ci95": [low, high],
            "ours_seconds_per_move": sum(r["ours_time"] for r in results)
            / max(1, sum(r["ours_moves"] for r in results)),
            "openspiel_seconds_per_move": sum(r["theirs_time"] for r in results)
            / max(1, sum(r["theirs_moves"] for r in results)),
            "ours_iterations_per_second": sum(r["ours_iterations"] for r in results)
            / max(1e-9, sum(r["ours_time"] for r in results)),
            "openspiel_simulations_per_move": sum(r["theirs_iterations"] for r in results)
            / max(1, sum(r["theirs_searches"] for r in results)),
            "openspiel_iterations_per_second": sum(r["theirs_iterations"] for r in results)
            / max(1e-9, sum(r["theirs_search_time"] for r in results)),
            "openspiel_seconds_per_searched_move": sum(r["theirs_search_time"] for r in results)
            / max(1, sum(r["theirs_searches"] for r in results)),
            "openspiel_seconds_per_full_search": sum(r["theirs_full_time"] for r in results)
            / max(1, sum(r["theirs_full"] for r in results)),
        }
        for first, label in ((True, "first"), (False, "second")):
            seated = [r["score"] for r in results if r["ours_first"] == first]
            row[f"ours_win_rate_{label}"] = sum(seated) / max(1, len(seated))
        rows.append(row)
        print(
            f"{name}: ours ({args.ours}) wins {row['ours_win_rate']:.1%} "
            f"[{low:.1%}, {high:.1%}] of "
            f"{row['games']} at {args.time} / {bot_time} s/move (ours / OpenSpiel); "
            f"s/move ours {row['ours_seconds_per_move']:.3f} "
            f"OpenSpiel {row['openspiel_seconds_per_move']:.3f} "
            f"({row['openspiel_seconds_per_searched_move']:.3f} a searched move, "
            f"{row['openspiel_seconds_per_full_search']:.3f} a search its solver did not "
            "end early); "
            "iterations/s ours "
            f"{row['ours_iterations_per_second']:.0f} OpenSpiel "
            f"{row['openspiel_iterations_per_second']:.0f} (simulations run a searched move "
            f"{row['openspiel_simulations_per_move']:.0f}); ours first / second "
            f"{row['ours_win_rate_first']:.1%} / {row['ours_win_rate_second']:.1%}",
            flush=True,
        )
    save_json(args.out, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
