"""The ``alphabeta`` player: depth-first search for two-player perfect-information games.

Negamax with alpha-beta pruning, iterative deepening under a time budget, a
transposition table keyed by the mover's observation (which, in a perfect
information game, is the whole state) and the legal actions, and move
ordering (the table's best move first, then actions by their history score).
Leaves are scored by the game's evaluation; ends by their returns, preferring
quick wins and slow losses. It refuses games with chance, hidden information or
more than two seats, where plain minimax does not apply: use ``mcts`` there.

Settings (``alphabeta:time=1,depth=6``): ``time`` seconds per move (default
1.0); ``depth`` the deepest iteration (default 64, i.e. as deep as time allows);
``endgame`` the share (0-1) of the time first given to the game's exact endgame
solver where it has one (:mod:`stairgames.agents.endgame`; with a time budget
only; default 0: off); ``book`` ``1`` plays the move of the game's opening book (the
``opening`` hook; 27 has one) without searching where it covers the position (default
0: off).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from stairgames.agents.base import (
    Agent,
    Settings,
    check_settings,
    float_setting,
    format_settings,
    int_setting,
    register_agent,
)
from stairgames.agents.endgame import EndgameProbe
from stairgames.agents.evaluation import book_move, evaluator_for, scaled_return
from stairgames.core.errors import InvalidOptionError
from stairgames.core.game import Game, State
from stairgames.core.hooks import WarmUp
from stairgames.i18n import N_, Text

_WIN = 1000.0
"""A won end scores ``_WIN - depth``, so quicker wins score higher."""

_EXACT, _LOWER, _UPPER = 0, 1, 2


class _OutOfTimeError(Exception):
    """Raised inside the search when the time budget is spent."""


class AlphaBetaAgent(Agent):
    name = "alphabeta"

    def __init__(
        self,
        seat: int,
        *,
        seed: int | None = None,
        time_limit: float | None = 1.0,
        max_depth: int = 64,
        endgame: float = 0.0,
        book: bool = False,
    ) -> None:
        super().__init__(seat, seed=seed)
        self.time_limit = time_limit
        self.max_depth = max_depth
        self.endgame = endgame
        self.book = book
        self._endgame = EndgameProbe(endgame)
        self.last_depth = 0
        """Deepest iteration completed for the last move."""
        self.nodes = 0
        """Nodes searched for the last move (for benchmarks)."""
        self._table: dict[tuple[str, tuple[int, ...]], tuple[int, int, float, int]] = {}
        self._history_score: dict[int, int] = {}
        self._deadline = 0.0
        self._root_values: dict[int, float] = {}
        """The value of each root move in the last iteration (for ordering the next)."""
        self._evaluate: Callable[[State, int], float] | None = None

    def describe(self) -> str:
        settings: dict[str, object] = {}
        if self.time_limit is not None:
            settings["time"] = self.time_limit
        if self.max_depth != 64:
            settings["depth"] = self.max_depth
        if self.endgame:
            settings["endgame"] = self.endgame
        if self.book:
            settings["book"] = 1
        return format_settings(self.name, settings)

    def restart(self) -> None:
        self._table.clear()
        self._history_score.clear()
        self._endgame.restart()

    def prepare(self, game: Game, **options: Any) -> None:
        """:meth:`Agent.prepare`, and the endgame solver made (outside any move's clock)."""
        super().prepare(game, **options)
        self._endgame.make_ready(game)

    def check_game(self, game: Game) -> None:
        info = game.info()
        if info.num_players != 2 or info.chance or info.hidden_information:
            raise InvalidOptionError(
                message_id=N_(
                    "alphabeta plays two-player games without chance or hidden information; "
                    "{title} is not one (use mcts)"
                ),
                arguments={"title": Text(info.title)},
            )

    def warm_ups(self, game: Game) -> list[WarmUp]:
        return self._endgame.warm_ups(game) if self.time_limit is not None else []

    def fallback(self, game: Game) -> Agent | None:
        """The same search without the endgame solver (compiled), with the same time."""
        if not self.warm_ups(game):
            return None
        return AlphaBetaAgent(
            self.seat,
            seed=self.rng.randrange(2**32),
            time_limit=self.time_limit,
            max_depth=self.max_depth,
            book=self.book,
        )

    def step(self, state: State) -> int:
        self.ensure_prepared(state.get_game())
        started = time.perf_counter()
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        self.nodes = 0
        booked = book_move(state, legal) if self.book else None
        if booked is not None:
            return booked
        if self.endgame and self.time_limit is not None:
            winning, losing = self._endgame.prove(
                state, started=started, seconds=self.time_limit, iterations=None
            )
            if winning is not None:
                return winning
            if len(losing) < len(legal):
                legal = [action for action in legal if action not in losing]
            if len(legal) == 1:
                return legal[0]
        self._evaluate = evaluator_for(state.get_game())
        self._deadline = float("inf") if self.time_limit is None else started + self.time_limit
        self.nodes = 0
        if len(self._table) > 2_000_000:
            self._table.clear()
        best = self.rng.choice(legal)
        self._root_values = {}
        for depth in range(1, self.max_depth + 1):
            value, action, complete = self._root(state, legal, depth)
            if action is not None:
                best = action
            if not complete:
                break
            self.last_depth = depth
            if abs(value) >= _WIN - self.max_depth:
                break
        return best

    # ----- negamax ------------------------------------------------------------

    def _root(self, state: State, legal: list[int], depth: int) -> tuple[float, int | None, bool]:
        """One iteration at the root: its value, best action and whether it finished.

        The last iteration's best move is searched first, so when time runs out
        part-way a move found better than it (at this depth) is kept; ``None`` when
        not even the first move was searched. The other moves are ordered by their
        values in the last iteration."""
        mover = state.current_player()
        alpha, beta = -float("inf"), float("inf")
        ordered = self._ordered(state, legal)
        values = self._root_values
        if values:
            first = ordered[0]
            ordered = [first, *sorted(ordered[1:], key=lambda a: -values.get(a, -_WIN))]
        best_action: int | None = None
        for action in ordered:
            child = state.clone()
            child.apply_action(action)
            try:
                value = self._child_value(child, mover, depth - 1, alpha, beta, 1)
            except _OutOfTimeError:
                return alpha, best_action, False
            values[action] = value
            if value > alpha or best_action is None:
                alpha, best_action = value, action
        assert best_action is not None
        self._store(state, legal, depth, alpha, _EXACT, best_action)
        return alpha, best_action, True

    def _child_value(
        self, child: State, mover: int, depth: int, alpha: float, beta: float, ply: int
    ) -> float:
        """The value of ``child`` for ``mover`` (who may move again in it)."""
        if child.is_terminal():
            returns = child.returns()
            return scaled_return(child.get_game(), returns[mover]) * (_WIN - ply)
        if child.current_player() == mover:
            return self._negamax(child, depth, alpha, beta, ply)
        return -self._negamax(child, depth, -beta, -alpha, ply)

    def _negamax(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The value of a non-terminal ``state`` for the seat to move in it."""
        self.nodes += 1
        if self.nodes & 7 == 0 and time.perf_counter() > self._deadline:
            raise _OutOfTimeError
        mover = state.current_player()
        if depth <= 0:
            assert self._evaluate is not None
            return self._evaluate(state, mover)
        legal = state.legal_actions()
        key = (state.observation_string(mover), tuple(legal))
        entry = self._table.get(key)
        original_alpha, original_beta = alpha, beta
        if entry is not None and entry[0] >= depth:
            _, flag, value, _ = entry
            if flag == _EXACT:
                return value
            if flag == _LOWER:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                return value
        best_value = -float("inf")
        best_action = legal[0]
        for action in self._ordered(state, legal, entry):
            child = state.clone()
            child.apply_action(action)
            value = self._child_value(child, mover, depth - 1, alpha, beta, ply + 1)
            if value > best_value:
                best_value, best_action = value, action
            alpha = max(alpha, value)
            if alpha >= beta:
                self._history_score[action] = self._history_score.get(action, 0) + depth * depth
                break
        flag = _EXACT
        if best_value <= original_alpha:
            flag = _UPPER
        elif best_value >= original_beta:
            flag = _LOWER
        self._table[key] = (depth, flag, best_value, best_action)
        return best_value

    def _ordered(
        self,
        state: State,
        legal: list[int],
        entry: tuple[int, int, float, int] | None = None,
    ) -> list[int]:
        scores = self._history_score
        ordered = sorted(legal, key=lambda a: -scores.get(a, 0))
        if entry is None:
            mover = state.current_player()
            entry = self._table.get((state.observation_string(mover), tuple(legal)))
        if entry is not None and entry[3] in legal:
            ordered.remove(entry[3])
            ordered.insert(0, entry[3])
        return ordered

    def _store(
        self, state: State, legal: list[int], depth: int, value: float, flag: int, action: int
    ) -> None:
        mover = state.current_player()
        self._table[(state.observation_string(mover), tuple(legal))] = (depth, flag, value, action)


def _make(seat: int, seed: int | None, settings: Settings) -> Agent:
    check_settings(
        "alphabeta",
        settings,
        {
            "time": "seconds per move",
            "depth": "deepest iteration",
            "endgame": "share (0-1) of the time for the game's exact endgame solver first",
            "book": "1 to play the game's opening book move where it has one",
        },
    )
    return AlphaBetaAgent(
        seat,
        seed=seed,
        time_limit=float_setting(settings, "time", 1.0, minimum=0.001),
        max_depth=int_setting(settings, "depth", 64, minimum=1),
        endgame=float_setting(settings, "endgame", 0.0, maximum=1.0),
        book=int_setting(settings, "book", 0) != 0,
    )


register_agent("alphabeta", _make)
