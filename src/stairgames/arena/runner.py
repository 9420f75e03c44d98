"""Playing the games of an arena run, spread over processes.

Seats are rotated fairly: in a two-seat game each pairing of players plays
``games`` games, alternating who sits first; with more seats, each table of
players (every combination of as many players as there are seats, or the
players repeated round the table when there are fewer) plays ``games`` games,
its line-up rotated by one seat each game. Every game has its own seed, drawn
from the run's seed, which feeds the chance draws and each player's
generator, so a run with a seed and iteration budgets repeats exactly.

With ``opening_plies`` K, every game opens with K uniformly random moves (chance
drawn as the game draws it), the same opening for each rotation of a line-up (in a
two-seat game: each opening played twice, seats exchanged), so that players are
compared from many positions and no seat's luck of the opening counts for one player.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from stairgames.agents import make_agent
from stairgames.analysis.parallel import run_tasks
from stairgames.core.chance import sample_chance_outcome
from stairgames.core.errors import InvalidOptionError
from stairgames.core.game import State
from stairgames.core.registry import load_with_text_options
from stairgames.i18n import N_

Progress = Callable[[int, int], None]
"""``progress(done, total)``, called after every game."""


@dataclasses.dataclass(frozen=True)
class GameTask:
    """One game to play: who sits where, and its seed."""

    index: int
    game: str
    options: dict[str, str]
    seats: tuple[int, ...]
    """The player (an index into the run's players) in each seat."""
    specs: tuple[str, ...]
    """The text form of each seat's player."""
    seed: int
    opening_plies: int = 0
    """Uniformly random moves played before the players take over (0: none)."""
    opening_seed: int = 0
    """The seed of those moves, shared by the rotations of the line-up."""


def tables(player_count: int, seats: int) -> list[tuple[int, ...]]:
    """The line-ups that play: pairings or tables of players, as player indices."""
    if player_count >= seats:
        return list(itertools.combinations(range(player_count), seats))
    return [tuple(i % player_count for i in range(seats))]


def schedule(
    game: str,
    options: dict[str, str],
    players: Sequence[str],
    games: int,
    seed: int,
    opening_plies: int = 0,
) -> list[GameTask]:
    """Every game of the run, with the line-up rotated one seat each game; with
    ``opening_plies``, each run of rotations from one random opening.

    :raises InvalidOptionError: fewer than two players, fewer than one game, or a
        negative ``opening_plies``.
    """
    if len(players) < 2:
        raise InvalidOptionError(
            message_id=N_("an arena needs at least two players, e.g. random,greedy")
        )
    if games < 1:
        raise InvalidOptionError(
            message_id=N_("--games must be at least 1, got {games}"), arguments={"games": games}
        )
    if opening_plies < 0:
        raise InvalidOptionError(
            message_id=N_("--opening-plies must be at least 0, got {plies}"),
            arguments={"plies": opening_plies},
        )
    seats = load_with_text_options(game, options).num_players()
    generator = random.Random(seed)
    tasks: list[GameTask] = []
    opening_seed = 0
    for lineup in tables(len(players), seats):
        for number in range(games):
            shift = number % seats
            rotated = lineup[shift:] + lineup[:shift]
            game_seed = generator.randrange(2**63)
            if opening_plies and not shift:  # a new opening for each run of rotations
                opening_seed = generator.randrange(2**63)
            tasks.append(
                GameTask(
                    index=len(tasks),
                    game=game,
                    options=dict(options),
                    seats=rotated,
                    specs=tuple(players[p] for p in rotated),
                    seed=game_seed,
                    opening_plies=opening_plies,
                    opening_seed=opening_seed,
                )
            )
    return tasks


def play_opening(state: State, plies: int, generator: random.Random) -> None:
    """Play up to ``plies`` uniformly random moves on ``state`` (chance nodes drawn as
    the game draws them, not counted), stopping early at the end of the game."""
    played = 0
    while played < plies and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, generator))
            continue
        state.apply_action(generator.choice(state.legal_actions()))
        played += 1


def play_game(task: GameTask) -> dict[str, Any]:
    """Play one game of the run; its result as JSON-ready data."""
    game = load_with_text_options(task.game, task.options)
    state = game.new_initial_state()
    play_opening(state, task.opening_plies, random.Random(task.opening_seed))
    opening = state.history()
    generator = random.Random(task.seed)
    agents = [
        make_agent(spec, seat, seed=generator.randrange(2**63))
        for seat, spec in enumerate(task.specs)
    ]
    for agent in agents:
        agent.prepare(game)  # outside the thinking clocks
    chance = random.Random(generator.randrange(2**63))
    thinking = [0.0] * len(agents)
    moves = [0] * len(agents)
    started = time.perf_counter()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, chance))
            continue
        seat = state.current_player()
        clock = time.perf_counter()
        action = agents[seat].act(state)
        thinking[seat] += time.perf_counter() - clock
        moves[seat] += 1
        state.apply_action(action)
    outcome = state.outcome()
    return {
        "index": task.index,
        "seats": list(task.seats),
        "returns": state.returns(),
        "winners": list(outcome.winners) if outcome is not None else [],
        "reason": str(outcome) if outcome is not None else "",
        "length": state.move_number(),
        "seed": task.seed,
        "seconds": round(time.perf_counter() - started, 4),
        **({"opening": opening} if task.opening_plies else {}),
        "thinking": [round(t, 4) for t in thinking],
        "moves": moves,
    }


def run_games(
    tasks: Sequence[GameTask],
    *,
    jobs: int = 1,
    progress: Progress | None = None,
    ray_address: str | None = None,
) -> list[dict[str, Any]]:
    """Play every task, over ``jobs`` processes or on the Ray cluster at
    ``ray_address`` (:func:`stairgames.analysis.parallel.run_tasks`); results in game
    order, the same wherever they were played (each game has its own seed).

    ``progress`` hears of ``0`` games done at once, then of every game played. The
    players are prepared here first (:func:`prepare_players`), so that compiled
    code is compiled once, not by every process, and no game's clock pays for it.
    """
    prepare_players(tasks)
    return run_tasks(play_game, tasks, jobs=jobs, ray_address=ray_address, progress=progress)


def prepare_players(tasks: Sequence[GameTask]) -> None:
    """Prepare each player of the tasks once for its game, in this process
    (:meth:`stairgames.agents.Agent.prepare`): refuse a player that cannot play it,
    and compile (or load) the game's compiled code the player uses.

    :raises InvalidOptionError: a player cannot play the game; the message says why.
    """
    done: set[tuple[str, tuple[tuple[str, str], ...], str]] = set()
    for task in tasks:
        for spec in task.specs:
            key = (task.game, tuple(sorted(task.options.items())), spec)
            if key not in done:
                done.add(key)
                make_agent(spec, 0, game=load_with_text_options(task.game, task.options))
