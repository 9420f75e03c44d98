"""The level ladder measured as the strength figures are: each level against the next.

    .venv/bin/python -m benchmarks.ladder --games 100 --jobs 15 --checkpoint ladder.jsonl
    .venv/bin/python -m benchmarks.ladder --game stairs --steps medium:hard,hard:expert \\
        --games 200 --cores 1-15 --deadline 3000 --checkpoint ladder.jsonl --out ladder.json
    .venv/bin/python -m benchmarks.ladder --summarize ladder.jsonl

Each step ``WEAKER:STRONGER`` (``--steps``, default ``random:easy,easy:medium,
medium:hard,hard:expert``; ``random`` and the levels of :data:`stairgames.agents.LEVEL_NAMES`)
plays ``--games`` games of each game (``--game``, default Stairs, 27, Ishigaki Race
and City of Stairs, two seats each; ``--option KEY=VALUE`` goes to the games that have
that option, and a game it gives more than two seats is refused). Game ``i`` has the
seed ``--first-seed`` + ``i``; the stronger level sits first in the even ones, second
in the odd ones. Each level is the player it stands for in that game
(:func:`stairgames.agents.level_player`), prepared before the game's clock starts;
the chance outcomes are drawn from a generator seeded from the game's seed.

The conditions are those of ``benchmarks/players_openspiel.py``
(:mod:`stairgames.bench.strength`): one worker process per core (``--jobs N``, ``--cores
0-7,12``, ``--physical-cores``), pinned to it, plays its games one after another; the
compiled code is compiled (or loaded) once before the workers start, and each worker
makes one untimed move with every level of the run in every game before its first
game. The run refuses a loaded machine (``--allow-load`` runs anyway and marks its
games). Every game is kept as one JSON line (``--checkpoint FILE``; run again with
it, the games already there are not played again): both sides' seconds, simulations
(a level's search: ``mcts``'s iterations, ``alphabeta``'s nodes; 0 for players that
do not search, and where one move was legal) and legal moves for every move, each
side's budget a move (its ``time=``), the result, wall and CPU time, the core.
``--deadline SECONDS`` starts no game after that many seconds from the start.

The table has a row per game and step: the stronger level's score with its Wilson
95% interval, whether the step is *ordered* (the interval's lower end above 50%),
seconds a move and simulations a searched move of each side, moves over 1.1 times
their budget, and the conditions; then, per game, whether every step measured is
ordered. The command that reproduces the run is printed with its conditions.
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
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from stairgames.agents import (
    LEVEL_NAMES,
    Agent,
    AlphaBetaAgent,
    LevelAgent,
    MctsAgent,
    level_player,
    make_agent,
    parse_player_spec,
)
from stairgames.bench import pinned, strength
from stairgames.bench.output import save_json
from stairgames.core.chance import sample_chance_outcome
from stairgames.core.errors import StairgamesError
from stairgames.core.game import Game
from stairgames.core.options import option_fields
from stairgames.core.registry import get_spec, load_with_text_options

MODULE = "benchmarks.ladder"

GAMES = ("stairs", "twenty_seven", "ishigaki_race", "city_of_stairs")
"""The games played where no ``--game`` is given."""

STEPS = "random:easy,easy:medium,medium:hard,hard:expert"
"""The steps of the ladder where no ``--steps`` is given."""

PLAYERS = ("random", *LEVEL_NAMES)
"""What a step may name: ``random`` (the floor) and the levels."""

SIDES = ("stronger", "weaker")

Options = tuple[tuple[str, str], ...]
"""A game's options as text, sorted by name (hashable, and what a game line keeps)."""


# ----- what is played ------------------------------------------------------------


def parse_steps(text: str) -> list[tuple[str, str]]:
    """``--steps``: ``WEAKER:STRONGER`` pairs separated by commas.

    :raises ValueError: a step not of that form, a name that is neither ``random`` nor
        a level, or a step with the same name twice; the message says which.
    """
    steps: list[tuple[str, str]] = []
    for part in text.split(","):
        weaker, colon, stronger = part.strip().partition(":")
        if not colon or not weaker or not stronger or ":" in stronger:
            raise ValueError(f"--steps: {part.strip()!r} is not WEAKER:STRONGER (random:easy)")
        for name in (weaker, stronger):
            if name not in PLAYERS:
                raise ValueError(
                    f"--steps: unknown level {name!r} in {part.strip()!r}; "
                    f"choose from {', '.join(PLAYERS)}"
                )
        if weaker == stronger:
            raise ValueError(f"--steps: {part.strip()!r} sets a level against itself")
        steps.append((weaker, stronger))
    return steps


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """``--option KEY=VALUE`` (repeatable) as a dict.

    :raises ValueError: an option not of the form ``KEY=VALUE``.
    """
    options: dict[str, str] = {}
    for pair in pairs:
        key, equals, value = pair.partition("=")
        if not equals or not key.strip():
            raise ValueError(f"--option {pair!r}: not KEY=VALUE (players=2)")
        options[key.strip()] = value.strip()
    return options


def options_for(name: str, options: Mapping[str, str]) -> Options:
    """The options among ``options`` that game ``name`` has."""
    known = {field.name for field in option_fields(get_spec(name).options_class)}
    return tuple(sorted((key, value) for key, value in options.items() if key in known))


def check_games(names: Sequence[str], options: Mapping[str, str]) -> dict[str, Options]:
    """Each game's options, every game checked to load with them and to have two seats.

    :raises ValueError: an unknown game, an option no game has, a bad option value, or
        a game of more than two seats; the message says which.
    """
    chosen: dict[str, Options] = {}
    for name in names:
        try:
            chosen[name] = options_for(name, options)
            seats = load_with_text_options(name, dict(chosen[name])).num_players()
        except StairgamesError as error:
            raise ValueError(f"--game {name}: {error}") from None
        if seats != 2:
            shown = ",".join(f"{key}={value}" for key, value in chosen[name])
            raise ValueError(
                f"{name} with {shown or 'its default options'} has {seats} seats: "
                "the ladder plays two-seat games only"
            )
    unused = sorted(set(options) - {key for game in chosen.values() for key, _ in game})
    if unused:
        raise ValueError(f"--option {', '.join(unused)}: none of the games {names} has it")
    return chosen


def player_text(level: str, game: Game) -> str:
    """The player ``level`` stands for in ``game`` (``random`` is itself)."""
    return "random" if level == "random" else level_player(level, game)


def budget_of(text: str) -> float | None:
    """A player's seconds a move, read from its text (``mcts:time=0.25``); ``None``
    where it sets no time."""
    _, settings = parse_player_spec(text)
    return float(settings["time"]) if "time" in settings else None


@dataclasses.dataclass(frozen=True)
class Task:
    """One game to play: the game, its seed, the step and who sits first."""

    game: str
    options: Options
    seed: int
    weaker: str
    stronger: str
    weaker_player: str
    stronger_player: str
    stronger_first: bool
    loaded: bool = False
    load_known: bool = True


def match_key(record: Mapping[str, Any]) -> tuple[Any, ...]:
    """What makes games of one step: the game and its options, both levels and the
    players they stood for."""
    options = record["options"]
    if isinstance(options, Mapping):
        options = sorted(options.items())
    return (
        record["game"],
        tuple(tuple(pair) for pair in options),
        record["weaker"],
        record["stronger"],
        record["weaker_player"],
        record["stronger_player"],
    )


def game_key(record: Mapping[str, Any]) -> tuple[Any, ...]:
    """What makes two game lines the same game: the step, the seed and the seats."""
    return (*match_key(record), record["seed"], record["stronger_first"])


def task_record(task: Task) -> dict[str, Any]:
    """The fields of a game line that :func:`game_key` reads."""
    return {
        "game": task.game,
        "options": dict(task.options),
        "seed": task.seed,
        "weaker": task.weaker,
        "stronger": task.stronger,
        "weaker_player": task.weaker_player,
        "stronger_player": task.stronger_player,
        "stronger_first": task.stronger_first,
    }


def plan(
    options: Mapping[str, Options],
    steps: Sequence[tuple[str, str]],
    games: int,
    first_seed: int,
) -> list[Task]:
    """Every game of the run, game index first, so that a run stopped part-way has
    played the same share of every game and step."""
    loaded = {name: load_with_text_options(name, dict(chosen)) for name, chosen in options.items()}
    return [
        Task(
            game=name,
            options=options[name],
            seed=first_seed + index,
            weaker=weaker,
            stronger=stronger,
            weaker_player=player_text(weaker, loaded[name]),
            stronger_player=player_text(stronger, loaded[name]),
            stronger_first=index % 2 == 0,
        )
        for index in range(games)
        for name in options
        for weaker, stronger in steps
    ]


# ----- one game --------------------------------------------------------------------


def simulations(agent: Agent) -> int:
    """What ``agent`` searched for its last move: ``mcts``'s iterations, ``alphabeta``'s
    nodes, 0 for a player that does not search (a level: the player it stands for)."""
    inner = agent.inner if isinstance(agent, LevelAgent) else agent
    if isinstance(inner, MctsAgent):
        return int(inner.last_iterations)
    if isinstance(inner, AlphaBetaAgent):
        return int(inner.nodes)
    return 0


def score(returns: Sequence[float], seat: int) -> float:
    """1, 0.5 or 0: the player in ``seat`` won, drew or lost (by the returns)."""
    mine, theirs = returns[seat], returns[1 - seat]
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def play(task: Task) -> dict[str, Any]:
    """Play one game; its line for the checkpoint."""
    started = time.perf_counter()
    cpu_started = time.process_time()
    game = load_with_text_options(task.game, dict(task.options))
    generator = random.Random(task.seed)
    seats = {"stronger": 0, "weaker": 1} if task.stronger_first else {"weaker": 0, "stronger": 1}
    side_of = {seat: side for side, seat in seats.items()}
    levels = {"stronger": task.stronger, "weaker": task.weaker}
    agents: dict[int, Agent] = {}
    for seat in (0, 1):  # prepared (checked, compiled code loaded) outside the clock
        seed = generator.randrange(2**63)
        agents[seat] = make_agent(levels[side_of[seat]], seat, seed=seed, game=game)
    chance = random.Random(generator.randrange(2**63))
    moves: dict[str, dict[str, list[Any]]] = {
        side: {"seconds": [], "simulations": [], "choices": []} for side in SIDES
    }
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, chance))
            continue
        seat = state.current_player()
        choices = len(state.without_agreement().legal_actions())
        clock = time.perf_counter()
        action = agents[seat].act(state)
        spent = time.perf_counter() - clock
        kept = moves[side_of[seat]]
        kept["seconds"].append(round(spent, 6))
        kept["simulations"].append(simulations(agents[seat]) if choices > 1 else 0)
        kept["choices"].append(choices)
        state.apply_action(action)
    returns = [float(value) for value in state.returns()]
    return {
        "kind": "game",
        **task_record(task),
        "score": score(returns, seats["stronger"]),
        "returns": returns,
        **{f"{side}_{key}": values for side, kept in moves.items() for key, values in kept.items()},
        "stronger_budget": budget_of(task.stronger_player),
        "weaker_budget": budget_of(task.weaker_player),
        "loaded": task.loaded,
        "load_known": task.load_known,
        "wall": round(time.perf_counter() - started, 3),
        # the CPU time this process got: about the wall time on a core of its own
        "cpu": round(time.process_time() - cpu_started, 3),
    }


# ----- workers ------------------------------------------------------------------------


def warm_up(plays: Sequence[tuple[str, Options, str]]) -> float:
    """Untimed, before a worker's first game: each (game, options, level) of the run
    makes one move from the start of its game, so that its compiled code is loaded and
    it has searched once. Its seconds."""
    started = time.perf_counter()
    for name, options, level in plays:
        game = load_with_text_options(name, dict(options))
        state = game.new_initial_state()
        chance = random.Random(0)
        while state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, chance))
        if not state.is_terminal():
            make_agent(level, state.current_player(), seed=0, game=game).act(state)
    return time.perf_counter() - started


def describe_game(record: Mapping[str, Any], done: int, total: int) -> str:
    """A line of progress for one finished game."""
    seat = "first" if record["stronger_first"] else "second"
    result = pinned.RESULTS[record["score"]]
    middle = f": {record['stronger']} ({seat}) {result} against {record['weaker']}"
    return pinned.progress_line(record, done, total, middle, SIDES)


# ----- the summary -------------------------------------------------------------------


def read_lines(paths: Sequence[str]) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
    """:func:`stairgames.bench.strength.read_lines` with the ladder's :func:`game_key`: the
    run lines, the game lines (a game kept once) and how many lines could not be read."""
    return strength.read_lines(paths, game_key)


def side_figures(games: Sequence[Mapping[str, Any]], side: str) -> dict[str, Any]:
    """One side's budget (its seconds a move, from the games' lines) and
    :func:`stairgames.bench.strength.side_figures` without the simulations a second."""
    budget = games[0].get(f"{side}_budget") if games else None
    return {"budget": budget, **strength.side_figures(games, side, budget, per_second=False)}


def step_summary(games: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The figures of the games of one step: the stronger level's score with its Wilson
    95% interval, whether the step is ordered, each side's figures and the conditions."""
    scored = strength.score_figures(games)
    low, _ = scored["ci95"]
    return {
        **scored,
        "ordered": bool(games) and low > 0.5,
        "plies_per_game": sum(
            len(game["stronger_seconds"]) + len(game["weaker_seconds"]) for game in games
        )
        / max(1, len(games)),
        "sides": {side: side_figures(games, side) for side in SIDES},
        **strength.load_figures(games),
    }


def summarize(games: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One row per game and step (:func:`match_key`), in the order first played."""
    rows = []
    for key, played in strength.group_by(games, match_key).items():
        name, options, weaker, stronger, weaker_player, stronger_player = key
        rows.append(
            {
                "game": name,
                "options": dict(options),
                "weaker": weaker,
                "stronger": stronger,
                "weaker_player": weaker_player,
                "stronger_player": stronger_player,
                "seeds": sorted(int(game["seed"]) for game in played),
                **step_summary(played),
            }
        )
    return rows


def verdicts(rows: Sequence[Mapping[str, Any]]) -> dict[str, list[str]]:
    """Per game (with its options), the steps measured that are not ordered."""
    found: dict[str, list[str]] = {}
    for row in rows:
        found.setdefault(game_title(row), [])
        if not row["ordered"]:
            found[game_title(row)].append(f"{row['weaker']}:{row['stronger']}")
    return found


def game_title(row: Mapping[str, Any]) -> str:
    """The game of a row with its options: ``ishigaki_race (goal=12)``."""
    options = ",".join(f"{key}={value}" for key, value in sorted(row["options"].items()))
    return f"{row['game']} ({options})" if options else str(row["game"])


def _percent(share: float) -> str:
    return f"{100 * share:.1f}%"


def _over(figures: Mapping[str, Any]) -> str:
    if figures["budget"] is None:
        return f"— of {figures['moves']}"
    return f"{figures['over_budget']} of {figures['moves']}"


def format_table(rows: Sequence[Mapping[str, Any]]) -> str:
    """The rows of :func:`summarize` as a Markdown table, then a line per game saying
    whether every step measured is ordered."""
    lines = [
        "| game | weaker | stronger | games | stronger scored | 95% interval | ordered "
        "| s/move stronger / weaker | simulations a searched move stronger / weaker "
        f"| moves over {strength.OVER_BUDGET}× budget stronger / weaker | conditions |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        low, high = row["ci95"]
        stronger, weaker = row["sides"]["stronger"], row["sides"]["weaker"]
        lines.append(
            f"| {game_title(row)} | {row['weaker']} `{row['weaker_player']}` "
            f"| {row['stronger']} `{row['stronger_player']}` | {row['games']} "
            f"| {_percent(row['score'])} | [{_percent(low)}, {_percent(high)}] "
            f"| {'yes' if row['ordered'] else 'no'} "
            f"| {stronger['seconds_per_move']:.3f} / {weaker['seconds_per_move']:.3f} "
            f"| {stronger['simulations_per_searched_move']:,.0f} / "
            f"{weaker['simulations_per_searched_move']:,.0f} "
            f"| {_over(stronger)} / {_over(weaker)} | {strength.format_conditions(row)} |"
        )
    lines.append("")
    for title, unordered in verdicts(rows).items():
        verdict = (
            "every step measured is ordered"
            if not unordered
            else f"not ordered: {', '.join(unordered)}"
        )
        lines.append(f"{title}: {verdict}")
    return "\n".join(lines)


def print_summary(paths: Sequence[str], out: str | None) -> int:
    """Print the runs and the table of the games in checkpoint files ``paths``, and save
    them as JSON to ``out`` (where given)."""
    return strength.print_summary(paths, out, game_key, summarize, format_table)


# ----- the command --------------------------------------------------------------------


def reproducing_arguments(
    args: argparse.Namespace, names: Sequence[str], cores: Sequence[int]
) -> list[str]:
    """The arguments of this run with every setting that decides its games spelled out."""
    arguments = [argument for name in names for argument in ("--game", name)]
    arguments += [argument for pair in args.option or [] for argument in ("--option", pair)]
    arguments += ["--steps", args.steps, "--games", str(args.games)]
    arguments += ["--first-seed", str(args.first_seed), "--cores", strength.format_cores(cores)]
    arguments += strength.run_arguments(args)
    return arguments


def parser() -> argparse.ArgumentParser:
    made = argparse.ArgumentParser(
        prog="python -m benchmarks.ladder",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    made.add_argument("--game", action="append", help=f"game (repeatable); default {GAMES}")
    made.add_argument(
        "--option", action="append", metavar="KEY=VALUE", help="a game option (repeatable)"
    )
    made.add_argument("--steps", default=STEPS, help="WEAKER:STRONGER levels, comma-separated")
    made.add_argument("--games", type=int, default=100, help="games of each step in each game")
    made.add_argument("--first-seed", type=int, default=1000, help="seed of the first game")
    strength.add_core_arguments(made)
    strength.add_run_arguments(made)
    made.add_argument("--out", help="save the command, the runs' conditions and the rows as JSON")
    return made


@dataclasses.dataclass(frozen=True)
class Setup:
    """What the arguments decide, checked before anything is run or written."""

    names: list[str]
    options: dict[str, Options]
    steps: list[tuple[str, str]]
    cores: list[int]


def setup(args: argparse.Namespace, allowed: set[int]) -> Setup:
    """The games, options, steps and cores of the arguments.

    :raises ValueError: anything the ladder cannot play; the message says what.
    """
    if args.games < 1:
        raise ValueError(f"--games {args.games}: at least 1")
    steps = parse_steps(args.steps)
    names = list(dict.fromkeys(args.game or GAMES))
    options = check_games(names, parse_options(args.option or []))
    cores = strength.cores_to_use(args.jobs, args.cores, args.physical_cores, allowed)
    return Setup(names, options, steps, cores)


def warm_plays(chosen: Setup) -> list[tuple[str, Options, str]]:
    """Every (game, options, level) of the run."""
    levels = list(dict.fromkeys(level for step in chosen.steps for level in step))
    return [(name, chosen.options[name], level) for name in chosen.names for level in levels]


def compile_once(plays: Sequence[tuple[str, Options, str]]) -> float:
    """Prepare every level of the run for every game once (compiling or loading the
    compiled code), so that the workers only load it. Its seconds."""
    clock = time.perf_counter()
    for name, options, level in plays:
        make_agent(level, 0, game=load_with_text_options(name, dict(options)))
    return time.perf_counter() - clock


def conditions_before(
    chosen: Setup, allowed: set[int], load_before: dict[str, Any], games: int, done: int
) -> dict[str, Any]:
    """The conditions a run starts under (a run line keeps them)."""
    return {
        **strength.machine_conditions(chosen.cores, allowed, load_before),
        "games_planned": games,
        "games_already_in_checkpoint": done,
    }


def main(argv: list[str] | None = None) -> int:
    started = time.monotonic()
    command_parser = parser()
    args = command_parser.parse_args(argv)
    if args.summarize:
        return print_summary(args.summarize, args.out)
    allowed = os.sched_getaffinity(0)
    try:
        chosen = setup(args, allowed)
    except ValueError as error:
        command_parser.error(str(error))
    check, load_before = strength.check_load(len(chosen.cores), allowed)
    if pinned.load_refused(check, args.allow_load):
        return 2
    previous = signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # end the workers too
    try:
        return measure(args, chosen, allowed, check.loaded, check.known, load_before, started)
    finally:
        strength.pin(allowed)  # as it was (a caller in this process is not left on one core)
        signal.signal(signal.SIGTERM, previous)


def measure(
    args: argparse.Namespace,
    chosen: Setup,
    allowed: set[int],
    loaded: bool,
    load_known: bool,
    load_before: dict[str, Any],
    started: float,
) -> int:
    """Play the run's games not yet in the checkpoint; print and save the table."""
    pinned.one_thread_pools()
    planned = plan(chosen.options, chosen.steps, args.games, args.first_seed)
    done: set[tuple[Any, ...]] = set()
    if args.checkpoint is not None and Path(args.checkpoint).exists():
        done = {game_key(record) for record in read_lines([args.checkpoint])[1]}
    tasks = [
        dataclasses.replace(task, loaded=loaded, load_known=load_known)
        for task in planned
        if game_key(task_record(task)) not in done
    ]
    plays = warm_plays(chosen)
    spare = sorted(allowed - set(chosen.cores))
    strength.pin({spare[0]} if spare else {chosen.cores[0]})  # compile on a core of its own
    compiled = compile_once(plays)
    strength.pin(allowed)  # the workers start from it, then pin themselves
    command = strength.command_line(MODULE, reproducing_arguments(args, chosen.names, chosen.cores))
    conditions = conditions_before(chosen, allowed, load_before, len(planned), len(done))
    conditions["compile_or_load_seconds"] = round(compiled, 2)
    run_line = pinned.open_run(command, loaded, conditions, args.checkpoint, len(done))
    times_before = strength.cpu_times()
    deadline = None if args.deadline is None else started + args.deadline
    warm = functools.partial(warm_up, plays)
    progress = pinned.run_games(
        tasks, chosen.cores, warm, play, deadline, args.checkpoint, describe_game
    )
    after = pinned.conditions_after(progress, times_before, chosen.cores, allowed, started)
    runs, games = pinned.close_run(run_line, progress, after, args.checkpoint, game_key)
    steps = {match_key(task_record(task)) for task in planned}
    rows = summarize([game for game in games if match_key(game) in steps])
    pinned.print_results(run_line, format_table(rows), progress)
    print(f"to reproduce: {command}", flush=True)
    save_json(args.out, {"command": command, "runs": runs, "rows": rows})
    return 1 if progress.errors else 0


if __name__ == "__main__":
    sys.exit(main())
