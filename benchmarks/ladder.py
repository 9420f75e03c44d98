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
(:mod:`benchmarks.strength`): one worker process per core (``--jobs N``, ``--cores
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
import json
import os
import platform
import random
import signal
import sys
import time
import traceback
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from multiprocessing import connection, get_context
from pathlib import Path
from typing import Any

from benchmarks.output import save_json
from benchmarks.strength import (
    CPU_SHARE,
    OVER_BUDGET,
    append_line,
    busy_between,
    check_load,
    choose_cores,
    command_line,
    cpu_model,
    cpu_times,
    format_cores,
    format_run,
    git_commit,
    one_thread_per_core,
    over_budget,
    pin,
    shared_physical_cores,
    thread_siblings,
    versions,
)
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
from stairgames.arena.ratings import wilson_interval
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

THREAD_VARIABLES = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "NUMBA_NUM_THREADS",
)
"""Thread pools kept to one thread in the workers (each has one core)."""

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


def worker(core: int, link: connection.Connection, plays: list[tuple[str, Options, str]]) -> None:
    """A worker pinned to ``core``: warms up, says so, then plays each task it is sent
    (``None``: stop) and sends back its game line (or the error)."""
    try:
        pin({core})
        link.send({"kind": "ready", "core": core, "warm_up": warm_up(plays)})
    except Exception:
        link.send({"kind": "error", "core": core, "fatal": True, "error": traceback.format_exc()})
        link.close()
        return
    while (task := link.recv()) is not None:
        try:
            record = play(task)
            record["core"] = core
            record["pinned"] = sorted(os.sched_getaffinity(0)) == [core]
            link.send({"kind": "game", "record": record})
        except Exception:
            link.send(
                {"kind": "error", "core": core, "fatal": False, "error": traceback.format_exc()}
            )
    link.close()


@dataclasses.dataclass
class Progress:
    """What the games of a run came to, as they end."""

    records: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    errors: list[str] = dataclasses.field(default_factory=list)
    not_started: int = 0
    max_load1: float = 0.0
    warm_up: list[float] = dataclasses.field(default_factory=list)


def describe_game(record: Mapping[str, Any], done: int, total: int) -> str:
    """A line of progress for one finished game."""
    result = {1.0: "won", 0.5: "drew", 0.0: "lost"}[record["score"]]
    seat = "first" if record["stronger_first"] else "second"
    plies = len(record["stronger_seconds"]) + len(record["weaker_seconds"])
    return (
        f"[{done}/{total}] {record['game']} seed {record['seed']}: {record['stronger']} "
        f"({seat}) {result} against {record['weaker']} in {plies} plies, "
        f"{record['wall']:.1f} s, core {record['core']}"
    )


def start_workers(
    cores: Sequence[int], plays: list[tuple[str, Options, str]]
) -> dict[connection.Connection, Any]:
    """One spawned worker process per core; the links to them."""
    context = get_context("spawn")
    links: dict[connection.Connection, Any] = {}
    for core in cores:
        ours, theirs = context.Pipe()
        process = context.Process(target=worker, args=(core, theirs, plays), daemon=True)
        process.start()
        theirs.close()
        links[ours] = process
    return links


def receive(
    message: dict[str, Any],
    progress: Progress,
    total: int,
    checkpoint: str | None,
) -> bool:
    """Take in one message of a worker; whether the worker goes on."""
    if message["kind"] == "error":
        progress.errors.append(message["error"])
        print(f"core {message['core']}: {message['error']}", file=sys.stderr, flush=True)
        return not message["fatal"]
    if message["kind"] == "ready":
        progress.warm_up.append(message["warm_up"])
        return True
    record = message["record"]
    progress.records.append(record)
    if checkpoint is not None:
        append_line(checkpoint, record)
    print(describe_game(record, len(progress.records), total), flush=True)
    return True


def run_games(
    tasks: list[Task],
    cores: list[int],
    plays: list[tuple[str, Options, str]],
    deadline: float | None,
    checkpoint: str | None,
) -> Progress:
    """Play ``tasks`` on one pinned worker per core, handing each idle worker the next
    task until none is left or ``deadline`` (a :func:`time.monotonic`) has passed."""
    progress = Progress()
    pending = deque(tasks)
    links = start_workers(cores, plays)
    spare = set(os.sched_getaffinity(0)) - set(cores)
    if spare:  # this process waits on the cores the games leave free
        pin(spare)
    running: dict[connection.Connection, Task] = {}
    sampled = 0.0
    while links:
        if time.monotonic() - sampled >= 10:
            sampled = time.monotonic()
            progress.max_load1 = max(progress.max_load1, os.getloadavg()[0])
        for link in connection.wait(list(links), timeout=10):
            assert isinstance(link, connection.Connection)
            try:
                message = link.recv()
            except EOFError:
                lost = running.pop(link, None)
                if lost is not None:
                    progress.errors.append(f"a worker ended during {lost}")
                links.pop(link).join()
                continue
            running.pop(link, None)
            if not receive(message, progress, len(tasks), checkpoint):
                links.pop(link).join()
                continue
            if (
                pending
                and not progress.errors
                and (deadline is None or time.monotonic() < deadline)
            ):
                running[link] = pending.popleft()
                link.send(running[link])
            else:
                link.send(None)
                links.pop(link).join()
    progress.not_started = len(pending)
    return progress


# ----- the summary -------------------------------------------------------------------


def read_lines(paths: Sequence[str]) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
    """The run lines (each with its ``run_end`` figures as its conditions'
    ``load_after``), the game lines (a game kept once, as first seen) and how many lines
    could not be read (cut off when a run was stopped while writing)."""
    runs: list[dict[str, Any]] = []
    games: list[dict[str, Any]] = []
    seen: set[tuple[Any, ...]] = set()
    broken = 0
    for path in paths:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                broken += 1
                continue
            if record.get("kind") == "run":
                runs.append(record)
            elif record.get("kind") == "run_end":
                for run in runs:
                    if run.get("run") == record.get("run"):
                        run.setdefault("conditions", {})["load_after"] = record
            elif record.get("kind") == "game" and game_key(record) not in seen:
                seen.add(game_key(record))
                games.append(record)
    return runs, games, broken


def side_figures(games: Sequence[Mapping[str, Any]], side: str) -> dict[str, Any]:
    """One side's seconds a move, simulations a searched move (one with more than one
    legal move) and moves over :data:`~benchmarks.strength.OVER_BUDGET` times its
    budget."""
    seconds = [spent for game in games for spent in game[f"{side}_seconds"]]
    searched = [
        ran
        for game in games
        for ran, choices in zip(game[f"{side}_simulations"], game[f"{side}_choices"], strict=True)
        if choices > 1
    ]
    budget = games[0].get(f"{side}_budget") if games else None
    return {
        "budget": budget,
        "moves": len(seconds),
        "seconds_per_move": sum(seconds) / max(1, len(seconds)),
        "max_seconds": max(seconds, default=0.0),
        "searched_moves": len(searched),
        "simulations_per_searched_move": sum(searched) / max(1, len(searched)),
        "over_budget": over_budget(seconds, budget),
    }


def short_of_cpu(game: Mapping[str, Any]) -> bool:
    """Whether the game's process got less than :data:`CPU_SHARE` of its wall time."""
    return float(game["cpu"]) < CPU_SHARE * float(game["wall"])


def step_summary(games: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The figures of the games of one step: the stronger level's score with its Wilson
    95% interval, whether the step is ordered, each side's figures and the conditions."""
    total = sum(float(game["score"]) for game in games)
    low, high = wilson_interval(total, len(games))
    wall = sum(float(game["wall"]) for game in games)
    return {
        "games": len(games),
        "wins": sum(1 for game in games if game["score"] == 1.0),
        "draws": sum(1 for game in games if game["score"] == 0.5),
        "losses": sum(1 for game in games if game["score"] == 0.0),
        "score": total / max(1, len(games)),
        "ci95": [low, high],
        "ordered": bool(games) and low > 0.5,
        "plies_per_game": sum(
            len(game["stronger_seconds"]) + len(game["weaker_seconds"]) for game in games
        )
        / max(1, len(games)),
        "sides": {side: side_figures(games, side) for side in SIDES},
        "loaded_games": sum(1 for game in games if game.get("loaded")),
        "load_unknown_games": sum(1 for game in games if not game.get("load_known", True)),
        "cpu_share": sum(float(game["cpu"]) for game in games) / max(1e-9, wall),
        "games_short_of_cpu": sum(1 for game in games if short_of_cpu(game)),
    }


def summarize(games: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One row per game and step (:func:`match_key`), in the order first played."""
    matches: dict[tuple[Any, ...], list[Mapping[str, Any]]] = {}
    for game in games:
        matches.setdefault(match_key(game), []).append(game)
    rows = []
    for key, played in matches.items():
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


def _conditions(row: Mapping[str, Any]) -> str:
    if row["loaded_games"]:
        text = f"LOADED ({row['loaded_games']} games)"
    elif row["load_unknown_games"]:
        text = f"load unknown ({row['load_unknown_games']} games)"
    else:
        text = "not loaded at start"
    text += f"; CPU {_percent(row['cpu_share'])} of wall"
    if row["games_short_of_cpu"]:
        text += f", {row['games_short_of_cpu']} games under {CPU_SHARE:.0%}"
    return text


def format_table(rows: Sequence[Mapping[str, Any]]) -> str:
    """The rows of :func:`summarize` as a Markdown table, then a line per game saying
    whether every step measured is ordered."""
    lines = [
        "| game | weaker | stronger | games | stronger scored | 95% interval | ordered "
        "| s/move stronger / weaker | simulations a searched move stronger / weaker "
        f"| moves over {OVER_BUDGET}× budget stronger / weaker | conditions |",
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
            f"| {_over(stronger)} / {_over(weaker)} | {_conditions(row)} |"
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
    runs, games, broken = read_lines(paths)
    for run in runs:
        print(format_run(run))
    rows = summarize(games)
    print(format_table(rows))
    if broken:
        print(f"({broken} lines could not be read: cut off while written)")
    save_json(out, {"runs": runs, "rows": rows, "unreadable_lines": broken})
    return 0


# ----- the command --------------------------------------------------------------------


def reproducing_arguments(
    args: argparse.Namespace, names: Sequence[str], cores: Sequence[int]
) -> list[str]:
    """The arguments of this run with every setting that decides its games spelled out."""
    arguments = [argument for name in names for argument in ("--game", name)]
    arguments += [argument for pair in args.option or [] for argument in ("--option", pair)]
    arguments += ["--steps", args.steps, "--games", str(args.games)]
    arguments += ["--first-seed", str(args.first_seed), "--cores", format_cores(cores)]
    for flag, value in (
        ("--deadline", args.deadline),
        ("--checkpoint", args.checkpoint),
        ("--out", args.out),
    ):
        if value is not None:
            arguments += [flag, f"{value:g}" if isinstance(value, float) else str(value)]
    if args.allow_load:
        arguments.append("--allow-load")
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
    made.add_argument(
        "--jobs", type=int, default=2, help="games at once, one per core: the first N cores"
    )
    made.add_argument("--cores", help="the cores to use instead (0-7,12): one game on each")
    made.add_argument(
        "--physical-cores",
        action="store_true",
        help="with --jobs: one hardware thread of each physical core (no two games share one)",
    )
    made.add_argument(
        "--allow-load", action="store_true", help="run on a loaded machine (the run is marked)"
    )
    made.add_argument("--deadline", type=float, help="start no game after these seconds")
    made.add_argument("--checkpoint", help="append each game to this file (JSON lines)")
    made.add_argument(
        "--summarize", nargs="+", metavar="FILE", help="print the table of checkpoint files"
    )
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
    usable = (
        one_thread_per_core(allowed, thread_siblings(allowed)) if args.physical_cores else allowed
    )
    return Setup(names, options, steps, choose_cores(args.jobs, args.cores, usable))


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
    siblings = thread_siblings(chosen.cores)
    return {
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "commit": git_commit(),
        "cores": chosen.cores,
        "cpus": os.cpu_count(),
        "usable_cpus": sorted(allowed),
        "shared_physical_cores": (
            shared_physical_cores(siblings, chosen.cores) if siblings else None
        ),
        "kernel": platform.release(),
        "cpu_model": cpu_model(),
        "versions": versions(),
        "load_before": load_before,
        "games_planned": games,
        "games_already_in_checkpoint": done,
    }


def conditions_after(
    progress: Progress,
    times_before: Mapping[int, tuple[int, int]],
    cores: Sequence[int],
    allowed: Iterable[int],
    started: float,
) -> dict[str, Any]:
    """The conditions a run ended under (its ``run_end`` line)."""
    shares = busy_between(times_before, cpu_times(), allowed)
    others = [share for cpu, share in shares.items() if cpu not in cores]
    return {
        "load_average": [round(value, 2) for value in os.getloadavg()],
        "max_load1_during": round(progress.max_load1, 2),
        "ours_busy": (
            round(sum(shares[core] for core in cores) / len(cores), 3)
            if all(core in shares for core in cores)
            else None
        ),
        "others_busy": round(sum(others), 2) if others else None,
        "warm_up_seconds_max": round(max(progress.warm_up, default=0.0), 2),
        "games_played": len(progress.records),
        "games_not_started": progress.not_started,
        "errors": len(progress.errors),
        "wall_seconds": round(time.monotonic() - started, 1),
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
    check, load_before = check_load(len(chosen.cores), allowed)
    print(check.describe(), flush=True)
    if check.loaded and not args.allow_load:
        print(
            "The machine is loaded: not started (--allow-load runs anyway, marked as loaded).",
            file=sys.stderr,
        )
        return 2
    previous = signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # end the workers too
    try:
        return measure(args, chosen, allowed, check.loaded, check.known, load_before, started)
    finally:
        pin(allowed)  # as it was (a caller in this process is not left on one core)
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
    for variable in THREAD_VARIABLES:
        os.environ.setdefault(variable, "1")
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
    pin({spare[0]} if spare else {chosen.cores[0]})  # compile on a core of its own
    compiled = compile_once(plays)
    pin(allowed)  # the workers start from it, then pin themselves
    command = command_line(MODULE, reproducing_arguments(args, chosen.names, chosen.cores))
    conditions = conditions_before(chosen, allowed, load_before, len(planned), len(done))
    conditions["compile_or_load_seconds"] = round(compiled, 2)
    run_id = f"{conditions['started']}-{os.getpid()}"
    run_line = {
        "kind": "run",
        "run": run_id,
        "command": command,
        "argv": sys.argv,
        "loaded": loaded,
        "conditions": conditions,
    }
    if args.checkpoint is not None:
        append_line(args.checkpoint, run_line)
    print(format_run(run_line), flush=True)
    if done:
        print(f"{len(done)} games already in {args.checkpoint}: not played again", flush=True)
    times_before = cpu_times()
    deadline = None if args.deadline is None else started + args.deadline
    progress = (
        run_games(tasks, chosen.cores, plays, deadline, args.checkpoint) if tasks else Progress()
    )
    conditions["load_after"] = conditions_after(
        progress, times_before, chosen.cores, allowed, started
    )
    if args.checkpoint is not None:
        append_line(args.checkpoint, {"kind": "run_end", "run": run_id, **conditions["load_after"]})
        runs, games, _ = read_lines([args.checkpoint])
    else:
        runs, games = [run_line], progress.records
    steps = {match_key(task_record(task)) for task in planned}
    rows = summarize([game for game in games if match_key(game) in steps])
    print(format_run(run_line))
    print(format_table(rows), flush=True)
    if progress.not_started:
        print(f"{progress.not_started} games not started: the deadline had passed", flush=True)
    print(f"to reproduce: {command}", flush=True)
    save_json(args.out, {"command": command, "runs": runs, "rows": rows})
    return 1 if progress.errors else 0


if __name__ == "__main__":
    sys.exit(main())
