"""Our player against OpenSpiel's ``MCTSBot`` (random rollouts, ``uct_c`` 2, solver on).

    .venv/bin/python -m benchmarks.players_openspiel --game stairs --games 100 --time 0.1
    .venv/bin/python -m benchmarks.players_openspiel --time 0.1 --bot-time 1.0 --games 200
    .venv/bin/python -m benchmarks.players_openspiel --time 0.1 --bot-time 1.0 \\
        --ours mcts:c=0.7,endgame=0.3 --games 200,200 --jobs 15 --checkpoint games.jsonl
    .venv/bin/python -m benchmarks.players_openspiel --summarize games.jsonl
    .venv/bin/python -m benchmarks.players_openspiel --game twenty_seven --games 40 \
        --ours mcts:c=0.7,endgame=0.3 --ours-iterations 12000 --bot-simulations 3457 \
        --jobs 1 --record-moves --checkpoint games.jsonl

Both players search from the same positions of the same games, seats
alternating (seed ``--first-seed`` + i; we are the first player in the even ones).
``--time`` is our budget a move, ``--bot-time`` the bot's (equal time
unless given). OpenSpiel's bot counts simulations, not time, so it is
calibrated first (its simulations per second on the game's opening positions
set ``max_simulations``) and then kept on its budget during the game: after each
of its moves ``max_simulations`` is scaled by budget / time taken (at most
doubled). ``--bot-simulations N`` (or one number per game: ``1669,3457``) holds it to
N simulations a move instead, whatever they take (the outside harness's measure); and
``--ours-iterations N`` gives our ``mcts`` N iterations a move instead of ``--time``,
so that a run's games do not depend on the machine's speed or load (with both fixed
and the same seeds, a game is played again move for move). ``--record-moves`` keeps
each game's moves (the notation) in its checkpoint line. The bot's simulations are
those it actually ran (the root's
``explore_count``; its solver stops a search early once the root is proven), not
those it was allowed; ours are our tree search's iterations (0 where the endgame
solver proved the move or a move wins at once).
OpenSpiel's bot searches our engine directly by default (``--bot-engine direct``:
:mod:`stairgames.interop.openspiel_direct`, OpenSpiel's method names on our own
states), at its full speed; ``--bot-engine pyspiel`` reaches it through the pyspiel
bridge (:mod:`stairgames.interop.openspiel`) instead, as figures before issue 56 did,
whose calls into a Python game cost the bot about a quarter of its simulations
(:mod:`benchmarks.openspiel_bridge_speed` measures it). With the same seeds both play
the same searches, move for move; the table names the engine beside the bot's budget
and gives its simulations a searched move.

Conditions, so that the figures can be reproduced and judged:

- one worker process per core (``--jobs N``: the first N cores this process may use,
  0 to N-1 on a whole machine; or ``--cores 0-7,12``), pinned to it
  (``os.sched_setaffinity``), plays its games one after another: one game per core at
  a time. numpy's and numba's thread pools are kept to one thread. Before the workers
  start, this process compiles (or loads) our player's compiled code once, on a core
  of its own, and calibrates the bot; each worker then plays a short untimed game of
  each game before its first game (loading the compiled code, a first search of each
  side), so that no move's clock pays for compiling or loading.
- the run refuses to start on a loaded machine (:class:`stairgames.bench.strength.LoadCheck`:
  a 1-minute load average above the cores the run leaves free plus 0.5, confirmed by
  the cores found busy in a sample of ``/proc/stat``); with ``--allow-load`` it runs
  and its games are marked loaded in the table and the JSON.
- every move of each side is kept: its seconds, its simulations and the legal moves
  it had; a move over 1.1 times its side's budget is counted, per side.
- printed, and saved with ``--out``: the command that reproduces the run, the cores,
  the load average before and after (and the highest during the games), how busy the
  cores outside ours were, the CPU model, the Python, numba, llvmlite, numpy and
  OpenSpiel versions and the commit, then a row per game and seat: our score as first
  player, as second and in all with its Wilson 95% interval, plies a game, seconds a
  move and simulations a searched move of each side, moves over budget.
- ``--checkpoint FILE`` appends every finished game to FILE as one JSON line (and
  the run's conditions as lines of their own), so a run stopped by a time limit keeps
  the games it finished; run again with the same FILE, it skips the games already
  there, and its table covers them all. ``--deadline SECONDS`` (from the start of the
  command) starts no game after it and lets the running ones finish. ``--summarize
  FILE [FILE ...]`` prints the table of such files (:mod:`stairgames.bench.strength`).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import os
import random
import signal
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from open_spiel.python.algorithms import mcts as spiel_mcts

from stairgames.agents import LEVEL_NAMES, MctsAgent, level_player, make_agent, parse_player_spec
from stairgames.agents.base import format_settings
from stairgames.bench.output import save_json
from stairgames.bench.pinned import (
    RESULTS,
    close_run,
    conditions_after,
    load_refused,
    one_thread_pools,
    open_run,
    print_results,
    progress_line,
    run_games,
)
from stairgames.bench.strength import (
    add_core_arguments,
    add_run_arguments,
    check_load,
    command_line,
    cores_to_use,
    cpu_times,
    format_cores,
    format_table,
    game_key,
    interleave,
    machine_conditions,
    match_key,
    parse_game_counts,
    parse_per_game,
    pin,
    print_summary,
    read_lines,
    run_arguments,
    summarize,
)
from stairgames.bench.strength import (
    append_line as append_line,  # kept importable from here (the tests read it)
)
from stairgames.interop import openspiel as bridge
from stairgames.interop.openspiel_direct import direct_game

MODULE = "benchmarks.players_openspiel"

SEAT_NAMES = {True: "first", False: "second"}
"""``--ours-seat``'s name of the games where ours is first (seeds ``--first-seed`` + an
even number) or second."""


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


BOT_ENGINES = ("direct", "pyspiel")
"""How OpenSpiel's bot reaches our engine: directly (its full speed), or through pyspiel."""


def load_for_play(name: str, engine: str = "direct") -> Any:
    """The game the bot searches: our engine directly (``direct``) or through pyspiel;
    its states hold ours as ``inner`` either way."""
    spiel_game = bridge.load_game(name, **MOVES_OF_PLAY_ONLY.get(name, {}))
    return direct_game(spiel_game) if engine == "direct" else spiel_game


def calibrate(name: str, seconds: float, engine: str = "direct") -> int:
    """Simulations of OpenSpiel's bot that take ``seconds`` on early positions of ``name``."""
    game = load_for_play(name, engine)
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


UNTIMED_KINDS = ("random", "greedy")
"""Players that take no budget (they answer at once: City of Stairs' ``hard`` is
``greedy``); they play as they are, whatever ``--time``."""


def our_player(spec: str, game: Any, seconds: float | None, iterations: int | None = None) -> str:
    """The text form of our player with its budget set: ``time`` to ``seconds``, or,
    where ``iterations`` is given, ``iterations`` to it and no time at all.

    ``spec`` is a player (``mcts``, ``alphabeta:depth=9``) or a level (``expert``),
    which stands for its configuration in this game; a player of :data:`UNTIMED_KINDS`
    keeps no budget.
    """
    if spec in LEVEL_NAMES:
        spec = level_player(spec, game)
    kind, settings = parse_player_spec(spec)
    settings = {key: value for key, value in settings.items() if key not in ("time", "iterations")}
    if kind in UNTIMED_KINDS:
        return format_settings(kind, settings)
    if iterations is not None:
        return format_settings(kind, {**settings, "iterations": iterations})
    return format_settings(kind, {**settings, "time": seconds})


@dataclasses.dataclass(frozen=True)
class Task:
    """One game to play: a seed, who is first, both budgets and the bot's simulations
    (``bot_fixed``: held to them; else kept to ``bot_seconds`` from them on)."""

    game: str
    seed: int
    seconds: float | None
    bot_seconds: float | None
    simulations: int
    ours_first: bool
    ours: str
    loaded: bool = False
    load_known: bool = True
    iterations: int | None = None
    bot_fixed: bool = False
    record_moves: bool = False
    bot_engine: str = "direct"


def task_key(task: Task) -> tuple[Any, ...]:
    """:func:`stairgames.bench.strength.game_key` of the game ``task`` plays."""
    return game_key(budgets(task) | {"game": task.game, "seed": task.seed, "ours": task.ours})


def budgets(task: Task) -> dict[str, Any]:
    """Both sides' budgets as a game line keeps them (:mod:`stairgames.bench.strength`)."""
    return {
        "time": task.seconds,
        "ours_iterations": task.iterations,
        "bot_time": None if task.bot_fixed else task.bot_seconds,
        "bot_fixed_simulations": task.simulations if task.bot_fixed else None,
        "bot_engine": task.bot_engine,
    }


def rescaled(simulations: int, budget: float, spent: float) -> int:
    """The bot's next ``max_simulations`` after a full search of ``simulations`` took
    ``spent`` seconds of its ``budget``: scaled by budget / time taken, at most
    doubled, at least 10."""
    return max(10, int(min(2 * simulations, simulations * budget / max(spent, 1e-6))))


def play(task: Task) -> dict[str, Any]:
    """Play one game; its line for the checkpoint (``benchmarks.strength`` reads it)."""
    started = time.perf_counter()
    cpu_started = time.process_time()
    bridge.register_all()
    game = load_for_play(task.game, task.bot_engine)
    state = game.new_initial_state()
    ours_seat = 0 if task.ours_first else 1
    inner_game = state.inner.get_game()
    # prepared (checked, compiled code warmed) before the game, outside its clock
    ours = make_agent(
        our_player(task.ours, inner_game, task.seconds, task.iterations),
        ours_seat,
        seed=task.seed,
        game=inner_game,
    )
    bot = make_bot(game, task.simulations, task.seed)
    rng = random.Random(task.seed)
    moves: dict[str, dict[str, list[Any]]] = {
        side: {"seconds": [], "simulations": [], "choices": []} for side in ("ours", "bot")
    }
    notation: list[str] = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            if task.record_moves:
                notation.append(state.inner.action_to_string(action))
            state.apply_action(action)
            continue
        legal = state.legal_actions()
        clock = time.perf_counter()
        if state.current_player() == ours_seat:
            side = "ours"
            action = ours.act(state.inner)
            spent = time.perf_counter() - clock
            ran = ours.last_iterations if isinstance(ours, MctsAgent) else getattr(ours, "nodes", 0)
        else:
            side = "bot"
            action, ran = bot_move(bot, state) if len(legal) > 1 else (legal[0], 0)
            spent = time.perf_counter() - clock
            if (
                not task.bot_fixed
                and task.bot_seconds is not None
                and len(legal) > 1
                and ran == bot.max_simulations
            ):
                # keep the bot on its budget: scale its simulations by the time it took
                bot.max_simulations = rescaled(bot.max_simulations, task.bot_seconds, spent)
        moves[side]["seconds"].append(round(spent, 6))
        moves[side]["simulations"].append(int(ran))
        moves[side]["choices"].append(len(legal))
        if task.record_moves:
            notation.append(state.inner.action_to_string(action))
        state.apply_action(action)
    returns = state.returns()
    mine, theirs = returns[ours_seat], returns[1 - ours_seat]
    return {
        "kind": "game",
        "game": task.game,
        "seed": task.seed,
        "ours": task.ours,
        **budgets(task),
        "ours_first": task.ours_first,
        "score": 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0,
        "returns": [float(value) for value in returns],
        "bot_simulations_calibrated": task.simulations,
        "bot_simulations_last": int(bot.max_simulations),
        **{f"{side}_{key}": values for side, kept in moves.items() for key, values in kept.items()},
        **({"moves": notation} if task.record_moves else {}),
        "loaded": task.loaded,
        "load_known": task.load_known,
        "wall": round(time.perf_counter() - started, 3),
        # the CPU time this process got: about the wall time on a core of its own
        "cpu": round(time.process_time() - cpu_started, 3),
    }


def warm_up(
    names: list[str],
    ours: str,
    seconds: float | None,
    iterations: int | None,
    engine: str = "direct",
) -> float:
    """Untimed, before a worker's first game: a short game of each of ``names`` (our
    player at its budget against a small bot), so that the compiled code is loaded and
    both sides have searched once. Its seconds."""
    started = time.perf_counter()
    for name in names:
        game = load_for_play(name, engine)
        state = game.new_initial_state()
        inner_game = state.inner.get_game()
        player = make_agent(
            our_player(ours, inner_game, seconds, iterations), 0, seed=0, game=inner_game
        )
        bot = make_bot(game, 20, 0)
        for _ in range(24):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(state.chance_outcomes()[0][0])
            elif state.current_player() == 0:
                state.apply_action(player.act(state.inner))
            else:
                state.apply_action(bot_move(bot, state)[0])
    return time.perf_counter() - started


def prepare_worker(
    names: list[str],
    ours: str,
    seconds: float | None,
    iterations: int | None,
    engine: str = "direct",
) -> float:
    """A worker's start, once pinned: OpenSpiel's games registered, then
    :func:`warm_up`. Its seconds."""
    bridge.register_all()
    return warm_up(names, ours, seconds, iterations, engine)


def describe_game(record: Mapping[str, Any], done: int, total: int) -> str:
    """A line of progress for one finished game."""
    seat = "first" if record["ours_first"] else "second"
    middle = f" ours {seat}: {RESULTS[record['score']]}"
    return progress_line(record, done, total, middle, ("ours", "bot"))


def reproducing_arguments(
    args: argparse.Namespace, names: list[str], counts: dict[str, int], cores: list[int]
) -> list[str]:
    """The arguments of this run with every setting that decides its games spelled out."""
    arguments = [argument for name in names for argument in ("--game", name)]
    arguments += ["--games", ",".join(str(counts[name]) for name in names)]
    arguments += ["--first-seed", str(args.first_seed)]
    if args.ours_iterations is not None:
        arguments += ["--ours-iterations", str(args.ours_iterations)]
    else:
        arguments += ["--time", f"{args.time:g}"]
    if args.bot_simulations is not None:
        fixed = parse_per_game(args.bot_simulations, names, "--bot-simulations", 1)
        arguments += ["--bot-simulations", ",".join(str(fixed[name]) for name in names)]
    else:
        arguments += ["--bot-time", f"{args.bot_time:g}"]
    arguments += ["--bot-engine", args.bot_engine]
    arguments += ["--ours", args.ours, "--cores", format_cores(cores)]
    arguments += run_arguments(args)
    if args.record_moves:
        arguments.append("--record-moves")
    if args.ours_seat != "both":
        arguments += ["--ours-seat", args.ours_seat]
    return arguments


def main(argv: list[str] | None = None) -> int:
    started = time.monotonic()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # end the workers too
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", action="append", help="game (repeatable); default stairs, 27")
    parser.add_argument(
        "--games", default="100", help="games of each game, or one count per --game: 150,210"
    )
    parser.add_argument("--first-seed", type=int, default=1000, help="seed of the first game")
    parser.add_argument("--time", type=float, default=0.1, help="our seconds per move")
    parser.add_argument(
        "--bot-time", type=float, help="seconds per move for OpenSpiel's bot (default --time)"
    )
    parser.add_argument(
        "--bot-simulations",
        metavar="N",
        help="the bot's simulations a move, fixed (instead of --bot-time), or one per game: "
        "1669,3457",
    )
    parser.add_argument(
        "--bot-engine",
        choices=BOT_ENGINES,
        default="direct",
        help="how the bot reaches our engine: directly, at its full speed (default), or "
        "through the pyspiel bridge (as figures before issue 56)",
    )
    parser.add_argument(
        "--ours-iterations",
        type=int,
        metavar="N",
        help="our mcts's iterations a move (instead of --time): repeatable, whatever the load",
    )
    parser.add_argument(
        "--record-moves", action="store_true", help="keep each game's moves in its checkpoint line"
    )
    parser.add_argument(
        "--ours-seat",
        choices=("first", "second", "both"),
        default="both",
        help="play only the games (of the --games seeds) where ours has this seat",
    )
    add_core_arguments(parser)
    parser.add_argument(
        "--ours",
        default="mcts",
        help="our player, with settings or a level (expert); its time is set to --time",
    )
    add_run_arguments(parser)
    parser.add_argument("--out", help="save the conditions and the figures as JSON")
    args = parser.parse_args(argv)
    if args.summarize:
        return print_summary(args.summarize, args.out)
    args.bot_time = args.time if args.bot_time is None else args.bot_time
    names = args.game or ["stairs", "twenty_seven"]
    allowed = os.sched_getaffinity(0)
    try:
        counts = parse_game_counts(args.games, names)
        fixed = (
            None
            if args.bot_simulations is None
            else parse_per_game(args.bot_simulations, names, "--bot-simulations", 1)
        )
        if args.ours_iterations is not None and args.ours_iterations < 1:
            raise ValueError(f"--ours-iterations {args.ours_iterations}: at least 1")
        cores = cores_to_use(args.jobs, args.cores, args.physical_cores, allowed)
    except ValueError as error:
        parser.error(str(error))
    check, load_before = check_load(len(cores), allowed)
    if load_refused(check, args.allow_load):
        return 2
    one_thread_pools()
    bridge.register_all()
    done: set[tuple[Any, ...]] = set()
    if args.checkpoint is not None and Path(args.checkpoint).exists():
        done = {game_key(record) for record in read_lines([args.checkpoint])[1]}
    # compile (or load) our player's code and calibrate the bot on a core of its own
    spare = sorted(allowed - set(cores))
    pin({spare[0]} if spare else {cores[0]})
    clock = time.perf_counter()
    seconds = None if args.ours_iterations is not None else args.time
    for name in names:
        inner_game = load_for_play(name).new_initial_state().inner.get_game()
        make_agent(
            our_player(args.ours, inner_game, seconds, args.ours_iterations), 0, game=inner_game
        )
    compiled = time.perf_counter() - clock
    calibrated = (
        fixed
        if fixed is not None
        else {name: calibrate(name, args.bot_time, args.bot_engine) for name in names}
    )
    pin(allowed)  # the workers start from it, then pin themselves
    tasks = [
        Task(
            game=name,
            seed=args.first_seed + index,
            seconds=seconds,
            bot_seconds=None if fixed is not None else args.bot_time,
            simulations=calibrated[name],
            ours_first=index % 2 == 0,
            ours=args.ours,
            loaded=check.loaded,
            load_known=check.known,
            iterations=args.ours_iterations,
            bot_fixed=fixed is not None,
            record_moves=args.record_moves,
            bot_engine=args.bot_engine,
        )
        for name, index in interleave(counts)
    ]
    tasks = [task for task in tasks if args.ours_seat in ("both", SEAT_NAMES[task.ours_first])]
    plan = tasks
    tasks = [task for task in tasks if task_key(task) not in done]
    command = command_line(MODULE, reproducing_arguments(args, names, counts, cores))
    conditions: dict[str, Any] = {
        **machine_conditions(cores, allowed, load_before),
        "compile_or_load_seconds": round(compiled, 2),
        "bot_simulations_calibrated" if fixed is None else "bot_simulations_fixed": calibrated,
        "games_planned": counts,
        "games_already_in_checkpoint": len(done),
    }
    run_line = open_run(command, check.loaded, conditions, args.checkpoint, len(done))
    times_before = cpu_times()
    deadline = None if args.deadline is None else started + args.deadline
    warm = functools.partial(
        prepare_worker, names, args.ours, seconds, args.ours_iterations, args.bot_engine
    )
    progress = run_games(tasks, cores, warm, play, deadline, args.checkpoint, describe_game)
    after = conditions_after(progress, times_before, cores, allowed, started)
    runs, games = close_run(run_line, progress, after, args.checkpoint, game_key)
    matches = {match_key(budgets(task) | {"game": task.game, "ours": task.ours}) for task in plan}
    games = [game for game in games if match_key(game) in matches]
    rows = summarize(games)
    print_results(run_line, format_table(rows), progress)
    save_json(args.out, {"command": command, "runs": runs, "rows": rows})
    return 1 if progress.errors else 0


if __name__ == "__main__":
    sys.exit(main())
