"""Strength figures anyone can reproduce: the conditions of a run, the load check,
the games kept one JSON line each, and the table made from them.

What ``benchmarks/players_openspiel.py`` needs apart from OpenSpiel, so that it is
tested without it (``tests/test_benchmarks_strength.py``). A file of games kept by
``--checkpoint`` is summarised again, alone or with others, by

    .venv/bin/python -m benchmarks.strength FILE [FILE ...] [--out FIGURES.json]

(the same as ``python -m benchmarks.players_openspiel --summarize FILE``).

A game line (``"kind": "game"``) holds the game's settings (game, seed, our player,
both budgets), which seat we had, the result, and for each side the seconds, the
simulations (ours: the tree search's iterations, 0 where the endgame solver or a
move winning at once decided; the bot: its root's ``explore_count``, 0 where it had
one legal move) and the number of legal moves of every one of its moves; with
``--record-moves`` also the game's moves in the notation (``"moves"``). Our budget is
``time`` (seconds) and/or ``ours_iterations``; the bot's is ``bot_time`` (its
simulations kept to that time) or, where ``bot_fixed_simulations`` is set, that many
simulations a move (``bot_time`` is then ``null``). A run line (``"kind": "run"``)
holds the conditions the run started under.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, TextIO

from stairgames.arena.ratings import wilson_interval
from stairgames.bench.output import save_json

OVER_BUDGET = 1.1
"""A move is over budget when it took more than this many times its side's budget."""

SEATS = ("first", "second", "all")


# ----- the load check ---------------------------------------------------------


def load_limit(cpus: int, jobs: int) -> float:
    """The load a run of ``jobs`` games on a machine of ``cpus`` cores accepts: the cores
    it leaves free, and half a core for the odd short process."""
    return cpus - jobs + 0.5


@dataclass(frozen=True)
class LoadCheck:
    """Whether the machine is too loaded to measure on.

    ``load1`` is the 1-minute load average (``os.getloadavg()[0]``) over the machine's
    ``cpus`` cores; ``busy`` the cores found busy among the ``allowed`` ones this process
    may run on, in a sample of ``/proc/stat`` over a second or two (``None`` where it
    cannot be read). The load average lags by about a minute: just after a run of ours
    it stays high while every core is idle. So the machine counts as loaded only when
    the load average is above :func:`load_limit` and the sample confirms it (or there
    is no sample). Where the kernel reports no load (``reported`` false: gVisor's
    ``/proc/loadavg`` always reads ``0.00 0.00 0.00 0/0 0``), the sample alone decides,
    and with no sample either the load is unknown (:attr:`known`), not loaded.
    """

    load1: float
    busy: float | None
    cpus: int
    allowed: int
    jobs: int
    reported: bool = True

    @property
    def limit(self) -> float:
        return load_limit(self.cpus, self.jobs)

    @property
    def busy_limit(self) -> float:
        return load_limit(self.allowed, self.jobs)

    @property
    def known(self) -> bool:
        """Whether the check could see the load at all."""
        return self.reported or self.busy is not None

    @property
    def loaded(self) -> bool:
        if not self.reported:
            return self.busy is not None and self.busy > self.busy_limit
        if self.load1 <= self.limit:
            return False
        return self.busy is None or self.busy > self.busy_limit

    def describe(self) -> str:
        sample = "no sample" if self.busy is None else f"{self.busy:.2f} cores busy just now"
        load = (
            f"load average {self.load1:.2f}"
            if self.reported
            else "no load average (this kernel reports none)"
        )
        return (
            f"{load} (limit {self.limit:.1f} for {self.jobs} jobs on {self.cpus} cores), "
            f"{sample} (limit {self.busy_limit:.1f})"
            + ("" if self.known else ": the load cannot be checked here")
        )


def load_reported(text: str) -> bool:
    """Whether ``/proc/loadavg`` (its ``text``) comes from a kernel that counts its
    load: a real one always counts at least one thread (``0.08 0.10 0.09 1/170 42``)."""
    fields = text.split()
    if len(fields) < 4 or "/" not in fields[3]:
        return False
    return fields[3].split("/")[1] not in ("", "0")


def parse_proc_stat(text: str) -> dict[int, tuple[int, int]]:
    """Per CPU of ``/proc/stat``: (busy ticks, all ticks) since boot (idle and iowait
    are not busy; guest time is already counted in user time)."""
    times: dict[int, tuple[int, int]] = {}
    for line in text.splitlines():
        fields = line.split()
        if not fields or not fields[0].startswith("cpu") or fields[0] == "cpu":
            continue
        ticks = [int(value) for value in fields[1:9]]
        idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)
        total = sum(ticks)
        times[int(fields[0][3:])] = (total - idle, total)
    return times


def cpu_times() -> dict[int, tuple[int, int]]:
    """:func:`parse_proc_stat` of this machine's ``/proc/stat`` ({} where there is none)."""
    try:
        return parse_proc_stat(Path("/proc/stat").read_text(encoding="ascii"))
    except OSError:
        return {}


def busy_between(
    before: Mapping[int, tuple[int, int]],
    after: Mapping[int, tuple[int, int]],
    cpus: Iterable[int],
) -> dict[int, float]:
    """The share of the time (0-1) each of ``cpus`` was busy between two
    :func:`cpu_times` (left out: the CPUs missing from either, and those whose ticks did
    not move, as under gVisor, which reports zeros)."""
    shares: dict[int, float] = {}
    for cpu in cpus:
        if cpu in before and cpu in after:
            busy = after[cpu][0] - before[cpu][0]
            total = after[cpu][1] - before[cpu][1]
            if total > 0:
                shares[cpu] = busy / total
    return shares


LOAD_SAMPLE_SECONDS = 2.0
"""How long ``/proc/stat`` is watched before the run, to confirm a high load average."""


def pin(cores: set[int]) -> bool:
    """Run this process on ``cores`` only; whether the system agreed (each game line
    records whether its worker was pinned)."""
    try:
        os.sched_setaffinity(0, cores)
    except OSError:
        return False
    return True


def append_line(path: str, record: dict[str, Any]) -> None:
    """Append ``record`` to ``path`` as one JSON line, flushed at once."""
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(record, separators=(",", ":")) + "\n")
        handle.flush()
        os.fsync(handle.fileno())


def check_load(jobs: int, allowed: set[int]) -> tuple[LoadCheck, dict[str, Any]]:
    """The load check before a run, and the figures it saw (for the JSON)."""
    load = os.getloadavg()
    try:
        reported = load_reported(Path("/proc/loadavg").read_text(encoding="ascii"))
    except OSError:
        reported = True  # no /proc: os.getloadavg() asked the kernel itself
    before = cpu_times()
    time.sleep(LOAD_SAMPLE_SECONDS if before else 0)
    shares = busy_between(before, cpu_times(), allowed)
    check = LoadCheck(
        load1=load[0],
        busy=sum(shares.values()) if shares else None,
        cpus=os.cpu_count() or len(allowed),
        allowed=len(allowed),
        jobs=jobs,
        reported=reported,
    )
    figures = {
        "load_average": [round(value, 2) for value in load],
        "busy_cores_sampled": None if check.busy is None else round(check.busy, 2),
        "limit": check.limit,
        "load_reported": check.reported,
        "known": check.known,
        "loaded": check.loaded,
        "describe": check.describe(),
    }
    return check, figures


# ----- cores ------------------------------------------------------------------


def parse_cores(text: str) -> list[int]:
    """``"0-3,8,10-11"`` as ``[0, 1, 2, 3, 8, 10, 11]`` (each core once).

    :raises ValueError: not a list of cores and ranges, or a core named twice.
    """
    cores: list[int] = []
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        first = int(low)
        last = int(high) if dash else first
        if first < 0 or last < first:
            raise ValueError(f"not a range of cores: {part!r}")
        cores.extend(range(first, last + 1))
    if len(set(cores)) != len(cores):
        raise ValueError(f"a core is named twice in {text!r}")
    return cores


def format_cores(cores: Sequence[int]) -> str:
    """``[0, 1, 2, 3, 8]`` as ``"0-3,8"`` (what :func:`parse_cores` reads)."""
    parts: list[str] = []
    for core in cores:
        if parts and "," not in parts[-1] and _extends(parts[-1], core):
            low = parts[-1].split("-")[0]
            parts[-1] = f"{low}-{core}"
        else:
            parts.append(str(core))
    return ",".join(parts)


def _extends(part: str, core: int) -> bool:
    return int(part.split("-")[-1]) + 1 == core


def choose_cores(jobs: int, cores: str | None, allowed: Iterable[int]) -> list[int]:
    """The cores a run uses, one game on each at a time: those of ``cores`` (``--cores``),
    or else the first ``jobs`` this process may run on (0 to ``jobs`` - 1 on a whole
    machine).

    :raises ValueError: a core this process may not use, or more jobs than cores.
    """
    usable = sorted(set(allowed))
    if cores is not None:
        chosen = parse_cores(cores)
        refused = [core for core in chosen if core not in usable]
        if refused:
            raise ValueError(f"cores {refused} are not among those usable here: {usable}")
        return chosen
    if jobs < 1 or jobs > len(usable):
        raise ValueError(f"--jobs {jobs}: this process may use {len(usable)} cores ({usable})")
    return usable[:jobs]


def shared_physical_cores(
    siblings: Mapping[int, Sequence[int]], cores: Sequence[int]
) -> list[list[int]]:
    """The groups of ``cores`` that are hardware threads of one physical core
    (``siblings``: each core's thread siblings, itself included)."""
    groups: list[list[int]] = []
    seen: set[int] = set()
    for core in cores:
        if core in seen:
            continue
        group = [other for other in cores if other in siblings.get(core, [core])]
        seen.update(group)
        if len(group) > 1:
            groups.append(group)
    return groups


def one_thread_per_core(usable: Iterable[int], siblings: Mapping[int, Sequence[int]]) -> list[int]:
    """The first of ``usable`` on each physical core (``siblings``: each core's hardware
    threads; a core missing from it counts as a physical core of its own)."""
    chosen: list[int] = []
    taken: set[int] = set()
    for core in sorted(set(usable)):
        if core not in taken:
            chosen.append(core)
            taken.update(siblings.get(core, [core]))
    return chosen


def thread_siblings(cores: Iterable[int]) -> dict[int, list[int]]:
    """Each core's hardware-thread siblings from ``/sys`` (a core left out where unknown)."""
    found: dict[int, list[int]] = {}
    for core in cores:
        path = Path(f"/sys/devices/system/cpu/cpu{core}/topology/thread_siblings_list")
        try:
            found[core] = parse_cores(path.read_text(encoding="ascii").strip())
        except (OSError, ValueError):
            continue
    return found


# ----- conditions -------------------------------------------------------------


def cpu_model(text: str | None = None) -> str:
    """The ``model name`` of ``/proc/cpuinfo`` (``text`` where given), else the platform's."""
    if text is None:
        try:
            text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = ""
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "model name":
            return value.strip()
    return platform.processor() or platform.machine()


def versions(
    packages: Sequence[str] = ("numba", "llvmlite", "numpy", "open_spiel"),
) -> dict[str, str | None]:
    """Python's version and each package's installed version (``None``: not found)."""
    found: dict[str, str | None] = {"python": platform.python_version()}
    for package in packages:
        try:
            found[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            found[package] = None
    return found


def git_commit() -> str | None:
    """The checked-out commit, with ``+dirty`` when files differ from it; outside a git
    checkout (a copy of the tree on another machine) ``$STAIRGAMES_COMMIT`` where set,
    else ``None``."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True, timeout=10
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return os.environ.get("STAIRGAMES_COMMIT")
    return commit + ("+dirty" if dirty else "")


def machine_conditions(
    cores: list[int], allowed: set[int], load_before: dict[str, Any]
) -> dict[str, Any]:
    """The machine a run starts on: when, the commit, the cores (``cores`` of the
    ``allowed``, those sharing a physical core), the kernel, CPU and versions, and the
    load before (:func:`check_load`)."""
    siblings = thread_siblings(cores)
    return {
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "commit": git_commit(),
        "cores": cores,
        "cpus": os.cpu_count(),
        "usable_cpus": sorted(allowed),
        "shared_physical_cores": shared_physical_cores(siblings, cores) if siblings else None,
        "kernel": platform.release(),
        "cpu_model": cpu_model(),
        "versions": versions(),
        "load_before": load_before,
    }


def cores_to_use(jobs: int, cores: str | None, physical: bool, allowed: set[int]) -> list[int]:
    """The cores of ``--jobs``/``--cores`` among ``allowed`` (with ``physical``: one
    hardware thread of each physical core).

    :raises ValueError: as :func:`choose_cores`.
    """
    usable = one_thread_per_core(allowed, thread_siblings(allowed)) if physical else allowed
    return choose_cores(jobs, cores, usable)


def run_arguments(args: argparse.Namespace) -> list[str]:
    """The arguments of :func:`add_run_arguments` (but ``--summarize``) and ``--out``
    that a run was given, as the command that reproduces it spells them."""
    arguments: list[str] = []
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


def add_core_arguments(parser: argparse.ArgumentParser) -> None:
    """``--jobs``, ``--cores`` and ``--physical-cores``: where the games are played."""
    parser.add_argument(
        "--jobs", type=int, default=2, help="games at once, one per core: the first N cores"
    )
    parser.add_argument("--cores", help="the cores to use instead (0-7,12): one game on each")
    parser.add_argument(
        "--physical-cores",
        action="store_true",
        help="with --jobs: one hardware thread of each physical core (no two games share one)",
    )


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    """``--allow-load``, ``--deadline``, ``--checkpoint`` and ``--summarize``."""
    parser.add_argument(
        "--allow-load", action="store_true", help="run on a loaded machine (the run is marked)"
    )
    parser.add_argument("--deadline", type=float, help="start no game after these seconds")
    parser.add_argument("--checkpoint", help="append each game to this file (JSON lines)")
    parser.add_argument(
        "--summarize", nargs="+", metavar="FILE", help="print the table of checkpoint files"
    )


def command_line(module: str, arguments: Sequence[str]) -> str:
    """The shell command that runs ``python -m module`` with ``arguments``."""
    return shlex.join(["python", "-m", module, *arguments])


# ----- games and their order ----------------------------------------------------


def parse_per_game(
    text: str, names: Sequence[str], flag: str = "--games", minimum: int = 0
) -> dict[str, int]:
    """A number for every game (``"200"``) or one per game in order (``"150,210"``), as
    ``flag`` takes it (``--games``, ``--bot-simulations``).

    :raises ValueError: not numbers, one below ``minimum``, or not as many as games.
    """
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise ValueError(f"{flag} {text}: not a number or numbers separated by commas") from None
    if any(count < minimum for count in counts):
        raise ValueError(f"{flag} {text}: each number must be at least {minimum}")
    if len(counts) == 1:
        counts = counts * len(names)
    if len(counts) != len(names):
        raise ValueError(f"{flag} {text}: {len(counts)} numbers for {len(names)} games")
    return dict(zip(names, counts, strict=True))


def parse_game_counts(text: str, names: Sequence[str]) -> dict[str, int]:
    """``--games``: one count for every game (``"200"``) or one per game in order
    (``"150,210"``).

    :raises ValueError: not counts, or as many counts as games.
    """
    return parse_per_game(text, names, "--games", 0)


def interleave(counts: Mapping[str, int]) -> list[tuple[str, int]]:
    """Every (game, index) of ``counts``, the games mixed in proportion to their counts,
    so that a run stopped part-way has played the same share of each."""
    order = list(counts)
    tasks = [(name, index) for name in order for index in range(counts[name])]
    return sorted(tasks, key=lambda task: ((task[1] + 0.5) / counts[task[0]], order.index(task[0])))


def _number(value: Any) -> float | None:
    return None if value is None else float(value)


def match_key(record: Mapping[str, Any]) -> tuple[Any, ...]:
    """What makes games of one match: the game and both players with their budgets
    (ours in seconds or iterations, the bot's in seconds or a fixed number of
    simulations; lines written before the fixed budgets existed read as timed), and how
    the bot reached our engine (lines before issue 56 read as through pyspiel)."""
    return (
        record["game"],
        record["ours"],
        _number(record["time"]),
        record.get("ours_iterations"),
        _number(record["bot_time"]),
        record.get("bot_fixed_simulations"),
        record.get("bot_engine", "pyspiel"),
    )


def game_key(record: Mapping[str, Any]) -> tuple[Any, ...]:
    """What makes two game lines the same game: the match (:func:`match_key`) and the
    seed."""
    return (*match_key(record), record["seed"])


def ours_budget(record: Mapping[str, Any]) -> str:
    """Our budget a move as the table writes it: ``0.1 s``, ``12,000 iterations`` or
    both."""
    parts = []
    if record.get("time") is not None:
        parts.append(f"{float(record['time']):g} s")
    if record.get("ours_iterations") is not None:
        parts.append(f"{int(record['ours_iterations']):,} iterations")
    return " or ".join(parts)


def bot_budget(record: Mapping[str, Any]) -> str:
    """The bot's budget a move as the table writes it: ``1 s`` (its simulations kept to
    the time) or ``3,457 simulations`` (fixed)."""
    if record.get("bot_fixed_simulations") is not None:
        budget = f"{int(record['bot_fixed_simulations']):,} simulations"
    else:
        budget = f"{float(record['bot_time']):g} s"
    if record.get("bot_engine", "pyspiel") == "pyspiel":
        budget += " (through pyspiel)"
    return budget


def read_lines(
    paths: Sequence[str], key: Callable[[Mapping[str, Any]], Hashable] = game_key
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
    """The run lines (each with the figures of its ``run_end`` line as its conditions'
    ``load_after``, where the run got that far) and the game lines of checkpoint files
    (a game played twice, by ``key``, is kept once, as first seen), and how many lines
    could not be read (a line cut off when a run was stopped while writing it). Files
    whose names end in ``.gz`` (as ``benchmarks/results`` keeps them) are read
    through gzip."""
    runs: list[dict[str, Any]] = []
    games: list[dict[str, Any]] = []
    seen: set[Hashable] = set()
    broken = 0
    for path in paths:
        with open_text(path) as handle:
            for line in handle:
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
                    end_run(runs, record)
                elif record.get("kind") == "game" and key(record) not in seen:
                    seen.add(key(record))
                    games.append(record)
    return runs, games, broken


def open_text(path: str) -> TextIO:
    """A checkpoint file opened for reading text, through gzip where it is compressed."""
    if path.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8")
    return open(path, encoding="utf-8")


def end_run(runs: Sequence[dict[str, Any]], end: dict[str, Any]) -> None:
    """Keep the figures of a ``run_end`` line as its run's conditions' ``load_after``."""
    for run in runs:
        if run.get("run") == end.get("run"):
            run.setdefault("conditions", {})["load_after"] = end


# ----- the summary ---------------------------------------------------------------


def over_budget(seconds: Iterable[float], budget: float | None, factor: float = OVER_BUDGET) -> int:
    """How many of the moves took more than ``factor`` times ``budget`` (none where the
    budget is not a time)."""
    if budget is None:
        return 0
    return sum(1 for spent in seconds if spent > factor * budget)


def side_figures(
    games: Sequence[Mapping[str, Any]], side: str, budget: float | None, *, per_second: bool = True
) -> dict[str, Any]:
    """One side's moves, seconds a move, simulations a searched move (one with more than
    one legal move), simulations a second of search (with ``per_second``) and moves over
    :data:`OVER_BUDGET` times ``budget``."""
    seconds = [spent for game in games for spent in game[f"{side}_seconds"]]
    searched = [
        (spent, ran)
        for game in games
        for spent, ran, choices in zip(
            game[f"{side}_seconds"],
            game[f"{side}_simulations"],
            game[f"{side}_choices"],
            strict=True,
        )
        if choices > 1
    ]
    search_time = sum(spent for spent, _ in searched)
    simulations = sum(ran for _, ran in searched)
    figures: dict[str, Any] = {
        "moves": len(seconds),
        "seconds_per_move": sum(seconds) / max(1, len(seconds)),
        "max_seconds": max(seconds, default=0.0),
        "searched_moves": len(searched),
        "simulations_per_searched_move": simulations / max(1, len(searched)),
    }
    if per_second:
        figures["simulations_per_second"] = simulations / max(1e-9, search_time)
    figures["over_budget"] = over_budget(seconds, budget)
    return figures


CPU_SHARE = 0.9
"""A game whose process got less CPU time than this share of its wall time shared its
core with other work (the check that also works where the load is not reported)."""


def _short_of_cpu(game: Mapping[str, Any]) -> bool:
    return "cpu" in game and float(game["cpu"]) < CPU_SHARE * float(game["wall"])


def score_figures(games: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The games, wins, draws and losses of the side scored, its score and the score's
    Wilson 95% interval."""
    score = sum(float(game["score"]) for game in games)
    low, high = wilson_interval(score, len(games))
    return {
        "games": len(games),
        "wins": sum(1 for game in games if game["score"] == 1.0),
        "draws": sum(1 for game in games if game["score"] == 0.5),
        "losses": sum(1 for game in games if game["score"] == 0.0),
        "score": score / max(1, len(games)),
        "ci95": [low, high],
    }


def load_figures(games: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The games played loaded or with the load unknown, the share of the wall time the
    games' processes got on the CPU, and the games that got less than :data:`CPU_SHARE`."""
    return {
        "loaded_games": sum(1 for game in games if game.get("loaded")),
        "load_unknown_games": sum(1 for game in games if not game.get("load_known", True)),
        "cpu_share": sum(float(game.get("cpu", 0.0)) for game in games)
        / max(1e-9, sum(float(game.get("wall", 0.0)) for game in games)),
        "games_short_of_cpu": sum(1 for game in games if _short_of_cpu(game)),
    }


def seat_summary(games: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The figures of some games of one match: our score with its Wilson 95% interval,
    plies a game, each side's seconds, simulations and moves over budget, and the
    share of the wall time the games' processes got on the CPU."""
    budget = _number(games[0]["time"]) if games else None
    bot_seconds = (
        _number(games[0]["bot_time"])
        if games and games[0].get("bot_fixed_simulations") is None
        else None
    )
    return {
        **score_figures(games),
        "plies_per_game": sum(
            len(game["ours_seconds"]) + len(game["bot_seconds"]) for game in games
        )
        / max(1, len(games)),
        "seconds_per_game": sum(float(game.get("wall", 0.0)) for game in games)
        / max(1, len(games)),
        "ours": side_figures(games, "ours", budget),
        "bot": side_figures(games, "bot", bot_seconds),
        **load_figures(games),
    }


def group_by(
    games: Iterable[Mapping[str, Any]], key: Callable[[Mapping[str, Any]], tuple[Any, ...]]
) -> dict[tuple[Any, ...], list[Mapping[str, Any]]]:
    """``games`` grouped by ``key``, the groups and their games in the order first seen."""
    groups: dict[tuple[Any, ...], list[Mapping[str, Any]]] = {}
    for game in games:
        groups.setdefault(key(game), []).append(game)
    return groups


def summarize(games: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One row per match (:func:`match_key`: game, our player, both budgets) in the
    order first played, with :func:`seat_summary` of the games where we were first,
    second, and all."""
    rows = []
    for key, played in group_by(games, match_key).items():
        name, ours, seconds, iterations, bot_seconds, bot_simulations, bot_engine = key
        seated = {
            "first": [game for game in played if game["ours_first"]],
            "second": [game for game in played if not game["ours_first"]],
            "all": played,
        }
        rows.append(
            {
                "game": name,
                "ours": ours,
                "time": seconds,
                "ours_iterations": iterations,
                "bot_time": bot_seconds,
                "bot_fixed_simulations": bot_simulations,
                "bot_engine": bot_engine,
                "seeds": sorted(int(game["seed"]) for game in played),
                "loaded": any(game.get("loaded") for game in played),
                **{seat: seat_summary(seated[seat]) for seat in SEATS},
            }
        )
    return rows


def _percent(share: float) -> str:
    return f"{100 * share:.1f}%"


def format_conditions(figures: Mapping[str, Any]) -> str:
    """The conditions of some games (:func:`load_figures`) as the tables write them."""
    if figures["loaded_games"]:
        text = f"LOADED ({figures['loaded_games']} games)"
    elif figures["load_unknown_games"]:
        text = f"load unknown ({figures['load_unknown_games']} games)"
    else:
        text = "not loaded at start"
    text += f"; CPU {_percent(figures['cpu_share'])} of wall"
    if figures["games_short_of_cpu"]:
        text += f", {figures['games_short_of_cpu']} games under {CPU_SHARE:.0%}"
    return text


def format_table(rows: Sequence[Mapping[str, Any]]) -> str:
    """The rows of :func:`summarize` as a Markdown table, a line per match and seat
    (a seat without games left out)."""
    lines = [
        "| game | ours | bot | our seat | games | ours won | 95% interval | plies a game "
        "| s/move ours / bot | simulations a searched move ours / bot "
        f"| moves over {OVER_BUDGET}× budget ours / bot | conditions |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        for seat in SEATS:
            figures = row[seat]
            if not figures["games"]:
                continue
            ours, bot = figures["ours"], figures["bot"]
            low, high = figures["ci95"]
            over = [
                f"{side['over_budget']} of {side['moves']}" if timed else f"— of {side['moves']}"
                for side, timed in (
                    (ours, row.get("time") is not None),
                    (bot, row.get("bot_fixed_simulations") is None),
                )
            ]
            loaded = format_conditions(figures)
            lines.append(
                f"| {row['game']} | `{row['ours']}` {ours_budget(row)} | MCTSBot "
                f"{bot_budget(row)} | {seat} | {figures['games']} "
                f"| {_percent(figures['score'])} | [{_percent(low)}, {_percent(high)}] "
                f"| {figures['plies_per_game']:.1f} "
                f"| {ours['seconds_per_move']:.3f} / {bot['seconds_per_move']:.3f} "
                f"| {ours['simulations_per_searched_move']:,.0f} / "
                f"{bot['simulations_per_searched_move']:,.0f} "
                f"| {over[0]} / {over[1]} | {loaded} |"
            )
    return "\n".join(lines)


def _shared(groups: list[list[int]] | None) -> str:
    if groups is None:
        return "unknown (no topology in /sys)"
    return ", ".join(format_cores(group) for group in groups) or "none"


def format_run(run: Mapping[str, Any]) -> str:
    """The conditions of one run line, in a few lines of text."""
    conditions = run.get("conditions", {})
    before = conditions.get("load_before", {})
    after = conditions.get("load_after")
    found = conditions.get("versions", {})
    parts = [
        f"command: {run.get('command', '?')}",
        f"  started {conditions.get('started', '?')}, commit {conditions.get('commit')}, "
        f"cores {format_cores(conditions.get('cores') or [])} of {conditions.get('cpus')} "
        f"({conditions.get('cpu_model', '?')}, kernel {conditions.get('kernel', '?')}; "
        f"cores sharing a physical core: {_shared(conditions.get('shared_physical_cores'))})",
        f"  load before {before.get('describe', '?')}"
        + (" -> LOADED (--allow-load)" if run.get("loaded") else ""),
        "  " + ", ".join(f"{name} {version}" for name, version in found.items()),
    ]
    if after is not None:  # the run got to its end
        parts.insert(
            3,
            f"  load after {after.get('load_average')}, highest 1-minute load average during "
            f"the games {after.get('max_load1_during')}, cores outside ours busy "
            f"{after.get('others_busy')}; {after.get('games_played')} games played, "
            f"{after.get('games_not_started')} not started (deadline), wall "
            f"{after.get('wall_seconds')} s",
        )
    return "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("files", nargs="+", help="checkpoint files (JSON lines)")
    parser.add_argument("--out", help="save the rows and the runs' conditions as JSON")
    args = parser.parse_args(argv)
    return print_summary(args.files, args.out)


def print_summary(
    paths: Sequence[str],
    out: str | None,
    key: Callable[[Mapping[str, Any]], Hashable] = game_key,
    rows_of: Callable[[Sequence[Mapping[str, Any]]], list[dict[str, Any]]] = summarize,
    table: Callable[[Sequence[Mapping[str, Any]]], str] = format_table,
) -> int:
    """Print the runs and the table of the games in checkpoint files ``paths``, and save
    them as JSON to ``out`` (where given); games told apart by ``key``, summarized into
    rows by ``rows_of`` and printed by ``table``."""
    runs, games, broken = read_lines(paths, key)
    for run in runs:
        print(format_run(run))
    rows = rows_of(games)
    print(table(rows))
    if broken:
        print(f"({broken} lines could not be read: cut off while written)")
    save_json(out, {"runs": runs, "rows": rows, "unreadable_lines": broken})
    return 0


if __name__ == "__main__":
    sys.exit(main())
