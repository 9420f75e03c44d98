"""Computer players, run outside the server's event loop in a process pool, so that a
computer thinking for seconds never delays another game.

A worker receives everything it needs as plain data (game, options, player, seat, the
moves so far in full notation, a seed), rebuilds the true state and asks the player
through :meth:`Agent.act`, which hands the player its seat's view only, and answers
offers to end by agreement itself. Players are kept per worker process, so a level's
compiled code is got ready once per process.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
from typing import Any

from stairgames.agents.base import Agent, make_agent
from stairgames.core.registry import load

_AGENTS: dict[tuple[str, str, str, int], Agent] = {}


def choose_move(
    game_name: str, options: dict[str, Any], player: str, seat: int, moves: list[str], seed: int
) -> str:
    """The move (full notation) that ``player`` at ``seat`` chooses after ``moves``.

    The player's generator is reseeded from ``seed`` at every call, so a move does not
    depend on which worker thought of it.
    """
    game = load(game_name, **options)
    state = game.new_initial_state()
    for move in moves:
        state.apply_move(move)
    key = (game_name, repr(game.options), player, seat)
    agent = _AGENTS.get(key)
    if agent is None:
        agent = _AGENTS[key] = make_agent(player, seat, seed)
    agent.ensure_prepared(game)
    agent.rng.seed(seed)
    action = agent.act(state)
    return state.action_to_string(action)


class ComputerPool:
    """The process pool computer players think in (``workers`` processes, started on
    first use); ``workers=0`` thinks in a thread instead (tests, tiny machines)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: concurrent.futures.Executor | None = None

    def _executor(self) -> concurrent.futures.Executor:
        if self._pool is None:
            if self.workers > 0:
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    self.workers, mp_context=multiprocessing.get_context("spawn")
                )
            else:
                self._pool = concurrent.futures.ThreadPoolExecutor(1)
        return self._pool

    async def choose(
        self,
        game_name: str,
        options: dict[str, Any],
        player: str,
        seat: int,
        moves: list[str],
        seed: int,
    ) -> str:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._executor(), choose_move, game_name, options, player, seat, moves, seed
        )

    def shutdown(self) -> None:
        if self._pool is not None:
            # waits for a move being thought (queued ones are dropped): a process left
            # behind leaks its semaphores, and Python warns as the server stops
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
