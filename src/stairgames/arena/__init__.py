"""The arena: many games between computer players, with ratings.

>>> from stairgames.arena import run_arena
>>> run = run_arena("stairs", ["random", "greedy"], games=2, seed=1)
>>> len(run.results)
2
"""

from __future__ import annotations

from collections.abc import Sequence

from stairgames.agents import make_agent
from stairgames.analysis.parallel import TasksInterrupted
from stairgames.arena.report import ArenaRun, format_report, summarise
from stairgames.arena.runner import (
    GameTask,
    Progress,
    play_game,
    prepare_players,
    run_games,
    schedule,
)
from stairgames.core.registry import load_with_text_options


def run_arena(
    game: str,
    players: Sequence[str],
    *,
    games: int = 100,
    seed: int = 0,
    jobs: int = 1,
    options: dict[str, str] | None = None,
    progress: Progress | None = None,
    ray_address: str | None = None,
    opening_plies: int = 0,
) -> ArenaRun:
    """Play ``games`` games per pairing (or table) of ``players`` and return the run,
    over ``jobs`` local processes or on the Ray cluster at ``ray_address``; each game
    opened with ``opening_plies`` random moves, the same for each rotation of its
    line-up (:func:`stairgames.arena.runner.schedule`).

    Stopped by Ctrl-C or SIGTERM, it returns the games that ended before that, the
    run marked :attr:`ArenaRun.stopped`.

    :raises InvalidOptionError: bad options or players, or a player that cannot play
        the game (before any game is played).
    """
    options = dict(options or {})
    loaded = load_with_text_options(game, options)
    name = loaded.name
    tasks = schedule(name, options, players, games, seed, opening_plies)
    for player in players:
        make_agent(player, 0).check_game(loaded)
    seats = load_with_text_options(name, options).num_players()
    stopped = False
    try:
        results = run_games(tasks, jobs=jobs, progress=progress, ray_address=ray_address)
    except TasksInterrupted as stop:
        results, stopped = list(stop.finished.values()), True
    return ArenaRun(
        name,
        options,
        list(players),
        games,
        seed,
        seats,
        results,
        stopped=stopped,
        opening_plies=opening_plies,
    )


__all__ = [
    "ArenaRun",
    "GameTask",
    "format_report",
    "play_game",
    "prepare_players",
    "run_arena",
    "run_games",
    "schedule",
    "summarise",
]
