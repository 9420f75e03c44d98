"""Ishigaki Race, 3 and 4 players: our player in one seat, OpenSpiel's ``MCTSBot`` in the others.

    .venv/bin/python -m benchmarks.ishigaki_openspiel --players 3 --games 200 --time 0.05
    .venv/bin/python -m benchmarks.ishigaki_openspiel --players 4 --games 200 --time 0.05

Every other seat is an ``MCTSBot`` of its own (random rollouts, ``uct_c`` 2, solver on,
as in :mod:`stairgames.bench.players_openspiel`) playing through the bridge
(:mod:`stairgames.interop.openspiel`). Equal time, nominally: each bot is calibrated to
``--time`` seconds a move (its simulations a second on early positions) and kept on it
during the game (after each search its simulations are scaled by budget / time taken, at
most doubled); our player (``--ours``, by default ``expert``: ``greedy`` with the exact
evaluation, I-rules perfect play for a race alone) has the same budget and needs far
less of it (it takes no time setting). Our seat cycles over every seat, game by game;
the start player is drawn by the game's chance node (I9). A game has one winner (I6: a
tie on the goal is rolled off), so our share of wins is compared with the fair share
``1 / players``, with a Wilson 95% interval.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from typing import Any

from stairgames.agents import make_agent
from stairgames.arena.ratings import wilson_interval
from stairgames.bench.output import ratio_of_sums, save_json
from stairgames.bench.players_openspiel import bot_move, make_bot
from stairgames.interop import openspiel as bridge


def load_race(players: int) -> Any:
    return bridge.load_game("ishigaki_race", players=players)


def play_chance(state: Any, rng: random.Random) -> None:
    """Chance outcomes (dice, the start player) drawn by their probabilities."""
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])


def calibrate(players: int, seconds: float, simulations: int = 200) -> int:
    """Simulations of ``MCTSBot`` that take ``seconds`` on early positions."""
    game = load_race(players)
    bot = make_bot(game, simulations, 0)
    state = game.new_initial_state()
    rng = random.Random(0)
    spent = 0.0
    done = 0
    for _ in range(4 * players):
        play_chance(state, rng)
        if state.is_terminal():
            break
        legal = state.legal_actions()
        if len(legal) > 1:
            clock = time.perf_counter()
            _, ran = bot_move(bot, state)
            spent += time.perf_counter() - clock
            done += ran
        state.apply_action(rng.choice(legal))
    return max(10, int(done / max(spent, 1e-9) * seconds))


def play(task: tuple[int, int, float, int, int, str]) -> dict[str, Any]:
    players, seed, seconds, simulations, ours_seat, kind = task
    bridge.register_all()
    game = load_race(players)
    state = game.new_initial_state()
    inner_game = state.inner.get_game()
    ours = make_agent(kind, ours_seat, seed=seed, game=inner_game)
    bots = {
        seat: make_bot(game, simulations, seed + 10 * seat)
        for seat in range(players)
        if seat != ours_seat
    }
    rng = random.Random(seed)
    ours_time = theirs_time = 0.0
    ours_moves = theirs_searches = theirs_simulations = 0
    while True:
        play_chance(state, rng)
        if state.is_terminal():
            break
        legal = state.legal_actions()
        seat = state.current_player()
        clock = time.perf_counter()
        if seat == ours_seat:
            action = ours.act(state.inner)
            ours_time += time.perf_counter() - clock
            ours_moves += 1
        elif len(legal) == 1:
            action = legal[0]
        else:
            bot = bots[seat]
            action, ran = bot_move(bot, state)
            spent = time.perf_counter() - clock
            theirs_time += spent
            theirs_searches += 1
            theirs_simulations += ran
            if ran == bot.max_simulations:
                scaled = bot.max_simulations * seconds / max(spent, 1e-6)
                bot.max_simulations = max(10, int(min(2 * bot.max_simulations, scaled)))
        state.apply_action(action)
    returns = state.returns()
    winners = [s for s, r in enumerate(returns) if r == max(returns)]
    return {
        "win": ours_seat in winners,
        "winners": len(winners),
        "ours_seat": ours_seat,
        "ours_time": ours_time,
        "ours_moves": ours_moves,
        "theirs_time": theirs_time,
        "theirs_searches": theirs_searches,
        "theirs_simulations": theirs_simulations,
    }


def summary(
    results: list[dict[str, Any]], players: int, ours: str, seconds: float, simulations: int
) -> dict[str, Any]:
    wins = sum(1 for r in results if r["win"])
    low, high = wilson_interval(wins, len(results))

    row: dict[str, Any] = {
        "game": "ishigaki_race",
        "players": players,
        "ours": ours,
        "games": len(results),
        "seconds_per_move_budget": seconds,
        "mcts_simulations_calibrated": simulations,
        "ours_win_share": wins / len(results),
        "fair_share": 1 / players,
        "ci95": [low, high],
        "games_with_shared_wins": sum(1 for r in results if r["winners"] > 1),
        "ours_seconds_per_move": ratio_of_sums(results, "ours_time", "ours_moves"),
        "mcts_seconds_per_search": ratio_of_sums(results, "theirs_time", "theirs_searches"),
        "mcts_simulations_per_search": ratio_of_sums(
            results, "theirs_simulations", "theirs_searches"
        ),
        "mcts_simulations_per_second": ratio_of_sums(results, "theirs_simulations", "theirs_time"),
    }
    for seat in range(players):
        seated = [r["win"] for r in results if r["ours_seat"] == seat]
        row[f"ours_win_share_seat_{seat}"] = sum(seated) / max(1, len(seated))
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, action="append", help="3 or 4 (repeatable)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--time", type=float, default=0.05, help="seconds per move (budget)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--ours", default="expert", help="our player or level")
    parser.add_argument("--out", help="save the figures as JSON")
    args = parser.parse_args(argv)
    bridge.register_all()
    rows = []
    for players in args.players or [3, 4]:
        started = time.perf_counter()
        simulations = calibrate(players, args.time)
        tasks = [
            (players, 3000 + i, args.time, simulations, i % players, args.ours)
            for i in range(args.games)
        ]
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            results = pool.map(play, tasks, chunksize=1)
        row = summary(results, players, args.ours, args.time, simulations)
        row["wall_seconds"] = time.perf_counter() - started
        rows.append(row)
        low, high = row["ci95"]
        seats = " / ".join(f"{row[f'ours_win_share_seat_{seat}']:.1%}" for seat in range(players))
        print(
            f"ishigaki_race ({players} players): ours ({args.ours}) wins "
            f"{row['ours_win_share']:.1%} [{low:.1%}, {high:.1%}] of {row['games']} "
            f"against {players - 1} MCTSBots "
            f"(fair share {1 / players:.1%}) at {args.time} s/move; s/move ours "
            f"{row['ours_seconds_per_move']:.4f}, MCTS a search "
            f"{row['mcts_seconds_per_search']:.3f} "
            f"({row['mcts_simulations_per_search']:.0f} simulations, "
            f"{row['mcts_simulations_per_second']:.0f}/s); by our seat {seats}; "
            f"{row['wall_seconds']:.0f} s",
            flush=True,
        )
    save_json(args.out, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
