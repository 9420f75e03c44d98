"""The ``mcts`` player: Monte Carlo tree search (UCT), for every game.

One search covers all four games (:mod:`stairgames.agents.uct`): any number of
seats (each seat maximises its own value at its nodes), chance (outcomes sampled),
hidden information (single-observer information-set MCTS on determinisations),
proven values (MCTS-Solver) in games without chance or hidden information. Where a
game offers a compiled tree search (the ``tree_search`` hook; Stairs and 27), the
same search runs in compiled code on the game's own positions
(:mod:`stairgames.core.uct`): 12-25 times the iterations a second of the protocol
search with the games' compiled playouts, some 50 times that of the search all
through the protocol (``benchmarks/search_speed.py``).

This module is the player around the search: the budget, a decisive first look for
a move that wins at once, the game's exact endgame solver first (``endgame``), and
the choice between the compiled and the protocol search.

Settings (``mcts:time=0.5,c=1.0``):

- ``time``: seconds per move (default 1.0, unless ``iterations`` is given);
- ``iterations``: iterations per move (repeatable with a seed; when both are
  given the search stops at whichever comes first);
- ``c``: UCB exploration constant (default 1.0);
- ``cutoff``: after this many playout steps the playout stops and the game's
  evaluation (``evaluate``) scores the state (default 0: play to the end);
- ``decisive``: ``1`` (default) plays a move that wins at once without
  searching, ``0`` does not;
- ``solver``: ``1`` (default) proves values in the tree (MCTS-Solver) in games
  without chance or hidden information: the move chosen is a proven win if there
  is one, never a proven loss if there is another;
- ``fast``: ``1`` (default) uses the game's compiled tree search, or failing that
  its own ``playout`` hook, where it has them (the same search and the same games in
  distribution, faster); ``0`` searches and plays out through the protocol;
- ``endgame``: the share (0-1) of the move's budget given first to the game's
  exact endgame solver, where the game offers one (Stairs and 27; warmed up when
  the player is prepared for the game). When it proves a winning move in time, that
  move is played; otherwise the search runs on the rest of the budget without the
  moves proven to lose (:mod:`stairgames.agents.endgame`). Default 0: off;
- ``endgame_rate``: under an iteration budget, the endgame solver's positions that
  one iteration buys, paid out of the search's iterations as a time budget would
  pay them (``iterations=11000,endgame=0.3,endgame_rate=15``: the solver may search
  up to 0.3 × 11,000 × 15 positions, and the search gets 11,000 iterations less one
  for every 15 positions the solver searched). Default 0: the solver gets a fixed
  number of positions an iteration (:data:`.endgame.NODES_PER_COMPILED_ITERATION`)
  on top of the whole iteration budget;
- ``endgame_hold``: ``1`` gives the endgame solver its whole share at once on every
  move after the first on which it proved some action (no trial tenth first; the
  trial of an open position often proves nothing even late in a game), ``0``
  (default) tries it first on every move;
- ``endgame_trial``: the share (0-1) of the move's budget of that trial (default 0.1;
  capped at ``endgame``): where the trial proves no action, the search gets the rest;
- ``reuse``: ``1`` keeps what the compiled search learnt below the position the game
  reached (its own move and the replies since) and searches on from there on the next
  move, ``0`` (default) starts every move's search afresh;
- ``guided``: ``1`` plays the compiled search's playouts by the game's move policy
  (the ``guided_tree_search`` hook; Stairs has one, fitted on moves its endgame solver
  proved: :mod:`stairgames.games.stairs.research.policy`) instead of uniformly at
  random, where the game has one; ``0`` (default) plays them uniformly. The levels do
  not use it, so the warm-up does not compile it: a player's first guided search
  compiles it (seconds, once a machine);
- ``net``: ``1`` values each new leaf of the compiled search by the game's learned
  evaluation (the ``valued_tree_search`` hook: Stairs on 6×6 has one, a small network
  trained by self-play, ``stairgames train stairs``;
  :mod:`stairgames.games.stairs.research.learn`) instead of a random playout; a game
  without one refuses it. ``0`` (default) plays leaves out. Its warm-up compiles the
  valued search when the player is prepared; the levels do not use it yet (80% of 600
  games against the same search with playouts at equal time, not yet measured as a
  level: ``docs/research/2026-12-05-stairs-learned-value.md``);
- ``mix``: with ``net=1``, the share (0-1) of a random playout's result in a leaf's
  value, the rest the network's (AlphaGo's λ; default 0: the network alone);
- ``policy``: with ``net=1``, ``1`` also gives each node's moves the priors of the
  game's learned policy and chooses among them by PUCT (AlphaZero's rule, ``c`` its
  constant; the ``policy_tree_search`` hook), a new node expanded and judged at once;
  not with ``mix``. ``0`` (default): UCB1 without priors;
- ``book``: ``1`` plays the move of the game's opening book (the ``opening`` hook;
  27 has one for the first player's first moves, built offline with its exact solver)
  without searching, where the book covers the position; ``0`` (default) does not.

Settings once offered and dropped because they measured no stronger
(``docs/agents.md``): ``prior``, ``rave`` and ``implicit``; ``reuse`` was dropped from
the protocol search and came back for the compiled one.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from stairgames.agents.base import (
    Agent,
    Settings,
    check_settings,
    float_setting,
    format_settings,
    int_setting,
    register_agent,
)
from stairgames.agents.determinise import Determiniser
from stairgames.agents.endgame import (
    NODES_PER_COMPILED_ITERATION,
    NODES_PER_ITERATION,
    TRIAL_SHARE,
    EndgameProbe,
)
from stairgames.agents.evaluation import book_move, evaluator_for, find_playout
from stairgames.agents.uct import Node, ProtocolSearch
from stairgames.core.errors import InvalidOptionError
from stairgames.core.game import Game, State
from stairgames.core.hooks import WarmUp
from stairgames.core.registry import player_hooks
from stairgames.i18n import N_

if TYPE_CHECKING:
    from stairgames.core.uct import TreeSearch

SETTINGS = {
    "time": "seconds per move",
    "iterations": "iterations per move",
    "c": "UCB exploration constant",
    "cutoff": "playout steps before the evaluation scores the state (0: to the end)",
    "decisive": "1 to play an immediately winning move at once",
    "solver": "1 to prove wins and losses in the tree (games without chance or hidden cards)",
    "fast": "1 to use the game's compiled search or fast playout where it has them",
    "endgame": "share (0-1) of the budget for the game's exact endgame solver first (0: off)",
    "book": "1 to play the game's opening book move where it has one",
    "endgame_rate": "solver positions an iteration buys, paid from the iterations (0: free)",
    "endgame_hold": "1 to give the solver its whole share, no trial, once it has proven a move",
    "endgame_trial": "share (0-1) of the budget for the solver's trial before its whole share",
    "reuse": "1 to keep the compiled search's tree from one move to the next",
    "guided": "1 to draw the compiled search's playouts by the game's move policy",
    "net": "1 to value the compiled search's leaves by the game's learned evaluation",
    "mix": "with net=1, share (0-1) of a random playout in a leaf's value (0: the net alone)",
    "policy": "with net=1, 1 to guide the search by the game's learned move priors (PUCT)",
}

CHUNK_SECONDS = 0.004
"""How long one call into the compiled search should take: compiled code cannot read
the clock, so the time budget is checked between calls."""


GROWTH_MARGIN = 3.0
"""The search doubles its arrays only while the time left is this many times what the
doubling is expected to take (their cost varies several times over between doublings
of one size): near the deadline a full tree stops expanding instead."""
FINAL_CHUNK_SHARE = 0.8
"""The share of the time left that the next call into the compiled search may take at
most: a call cannot be stopped once started, so the last one is sized to end before the
deadline (with room for the iterations growing slower as the tree grows)."""


def next_chunk(chunk: int, spent: float, left: float | None) -> int:
    """The iterations of the next call into the compiled search, after ``chunk`` took
    ``spent`` seconds with ``left`` seconds of the budget still to go (``None``: no
    deadline): about :data:`CHUNK_SECONDS` of them, at most four times the last, and
    no more than fit into :data:`FINAL_CHUNK_SHARE` of the time left (16 at least)."""
    each = max(spent, 1e-6) / chunk
    wanted = min(chunk * 4, int(CHUNK_SECONDS / each))
    if left is not None:
        wanted = min(wanted, int(FINAL_CHUNK_SHARE * left / each))
    return max(16, wanted)


class MctsAgent(Agent):
    name = "mcts"

    def __init__(
        self,
        seat: int,
        *,
        seed: int | None = None,
        time_limit: float | None = 1.0,
        iterations: int | None = None,
        exploration: float = 1.0,
        cutoff: int = 0,
        decisive: bool = True,
        solver: bool = True,
        fast: bool = True,
        endgame: float = 0.0,
        book: bool = False,
        endgame_rate: int = 0,
        endgame_hold: bool = False,
        endgame_trial: float = TRIAL_SHARE,
        reuse: bool = False,
        guided: bool = False,
        net: bool = False,
        mix: float = 0.0,
        policy: bool = False,
    ) -> None:
        super().__init__(seat, seed=seed)
        if time_limit is None and iterations is None:
            raise InvalidOptionError(message_id=N_("mcts needs a time or an iteration budget"))
        if policy and (not net or mix):
            raise InvalidOptionError(message_id=N_("mcts:policy=1 needs net=1 and no mix"))
        self.time_limit = time_limit
        self.iterations = iterations
        self.exploration = exploration
        self.cutoff = cutoff
        self.decisive = decisive
        self.solver = solver
        self.fast = fast
        self.endgame = endgame
        self.book = book
        self.endgame_rate = endgame_rate
        self.endgame_hold = endgame_hold
        self.endgame_trial = endgame_trial
        self._endgame = EndgameProbe(endgame, hold=endgame_hold, trial=endgame_trial)
        self.reuse = reuse
        self.guided = guided
        self.net = net
        self.mix = mix
        self.policy = policy
        self._previous: tuple[TreeSearch, list[int]] | None = None
        """The last compiled search and the history of its root (for ``reuse``)."""
        self.last_reused = 0
        """Visits the last move's search took over from the one before (``reuse``)."""
        self.last_iterations = 0
        """Iterations run for the last move (for benchmarks)."""
        self.last_compiled = False
        """Whether the last move was searched by the game's compiled search."""

    def describe(self) -> str:
        settings: dict[str, object] = {}
        if self.time_limit is not None:
            settings["time"] = self.time_limit
        if self.iterations is not None:
            settings["iterations"] = self.iterations
        settings["c"] = self.exploration
        if not self.fast:
            settings["fast"] = 0
        if self.cutoff:
            settings["cutoff"] = self.cutoff
        if self.endgame:
            settings["endgame"] = self.endgame
        if self.book:
            settings["book"] = 1
        if self.endgame_rate:
            settings["endgame_rate"] = self.endgame_rate
        if self.endgame_hold:
            settings["endgame_hold"] = 1
        if self.endgame_trial != TRIAL_SHARE:
            settings["endgame_trial"] = self.endgame_trial
        if self.reuse:
            settings["reuse"] = 1
        if self.guided:
            settings["guided"] = 1
        if self.net:
            settings["net"] = 1
            if self.mix:
                settings["mix"] = self.mix
            if self.policy:
                settings["policy"] = 1
        return format_settings(self.name, settings)

    def check_game(self, game: Game) -> None:
        """``net=1`` refuses a game without a learned evaluation, ``policy=1`` one without
        a learned policy."""
        hooks = player_hooks(game.name)
        if self.net and hooks.valued_tree_search is None:
            raise InvalidOptionError(
                message_id=N_("{game} has no learned evaluation for mcts:net=1"),
                arguments={"game": game.name},
            )
        if self.policy and hooks.policy_tree_search is None:
            raise InvalidOptionError(
                message_id=N_("{game} has no learned policy for mcts:policy=1"),
                arguments={"game": game.name},
            )

    def warm_ups(self, game: Game) -> list[WarmUp]:
        """The endgame solver's warm-up, and the game's where its own search or playout
        is compiled (the same warm-up for Stairs and 27: one kernel serves all)."""
        found = self._endgame.warm_ups(game)
        hooks = player_hooks(game.name)
        compiled = hooks.playout is not None or hooks.tree_search is not None
        if self.fast and compiled and hooks.warm_up is not None and hooks.warm_up not in found:
            found = [*found, hooks.warm_up]
        if self.fast and self.net and hooks.valued_warm_up is not None:
            found = [*found, hooks.valued_warm_up]
        if self.fast and self.policy and hooks.policy_warm_up is not None:
            found = [*found, hooks.policy_warm_up]
        return found

    def fallback(self, game: Game) -> Agent | None:
        """The same search through the protocol (``fast=0``, no endgame solver), with
        the same budget: the plain-Python search, weaker for the same time."""
        if not self.warm_ups(game):
            return None
        return MctsAgent(
            self.seat,
            seed=self.rng.randrange(2**32),
            time_limit=self.time_limit,
            iterations=self.iterations,
            exploration=self.exploration,
            cutoff=self.cutoff,
            decisive=self.decisive,
            solver=self.solver,
            fast=False,
            endgame=0.0,
            book=self.book,
        )

    def restart(self) -> None:
        self._endgame.restart()
        self._previous = None

    def prepare(self, game: Game, **options: Any) -> None:
        """:meth:`Agent.prepare`, and the endgame solver made (outside any move's clock)."""
        super().prepare(game, **options)
        self._endgame.make_ready(game)

    # ----- one move ------------------------------------------------------------

    def step(self, state: State) -> int:
        legal = state.legal_actions()
        self.last_iterations = 0
        self.last_reused = 0
        self.last_compiled = False
        if len(legal) == 1:
            return legal[0]
        self.ensure_prepared(state.get_game())
        started = time.perf_counter()
        worlds = Determiniser(state, self.seat)
        if self.decisive:
            winning = self._winning_action(worlds.sample(self.rng), legal)
            if winning is not None:
                return winning
        if self.book and not worlds.hidden:
            move = book_move(state, legal)
            if move is not None:
                return move
        losing: dict[int, list[float]] = {}
        compiled = self._compiled_search(state, worlds)
        iterations = self.iterations
        if self.endgame and not worlds.hidden:
            winning, losing = self._endgame.prove(
                state,
                started=started,
                seconds=self.time_limit,
                iterations=self.iterations,
                nodes_per_iteration=self._solver_positions_an_iteration(compiled is not None),
            )
            if winning is not None:
                return winning
            iterations = self._iterations_left_after_solver()
        deadline = None if self.time_limit is None else started + self.time_limit
        if compiled is not None:
            self.last_compiled = True
            if self.reuse:
                self.last_reused = self._take_over(compiled, state.history())
            return self._search_compiled(compiled, losing, deadline, iterations)
        return self._search_protocol(state, worlds, legal, losing, deadline, iterations)

    def _solver_positions_an_iteration(self, compiled: bool) -> int:
        """What one iteration of the budget buys the endgame solver."""
        if self.endgame_rate:
            return self.endgame_rate
        return NODES_PER_COMPILED_ITERATION if compiled else NODES_PER_ITERATION

    def _iterations_left_after_solver(self) -> int | None:
        """The search's iterations once the solver has been paid (``endgame_rate``):
        at least one, so that a move is still chosen by the search."""
        if self.iterations is None or not self.endgame_rate:
            return self.iterations
        paid = -(-self._endgame.nodes // self.endgame_rate)
        return max(1, self.iterations - paid)

    def _compiled_search(self, state: State, worlds: Determiniser) -> TreeSearch | None:
        """The game's compiled search of ``state``, where it offers one that does what
        the settings ask (the solver on, playouts to the end, nothing hidden)."""
        hooks = player_hooks(state.get_game().name)
        if not self.fast or not self.solver or self.cutoff or worlds.hidden:
            return None
        if self.net:
            if hooks.valued_tree_search is None:
                raise InvalidOptionError(
                    message_id=N_("{game} has no learned evaluation for mcts:net=1"),
                    arguments={"game": state.get_game().name},
                )
            if self.policy:
                if hooks.policy_tree_search is None:
                    raise InvalidOptionError(
                        message_id=N_("{game} has no learned policy for mcts:policy=1"),
                        arguments={"game": state.get_game().name},
                    )
                return hooks.policy_tree_search(state)
            return hooks.valued_tree_search(state, self.mix)
        make = (self.guided and hooks.guided_tree_search) or hooks.tree_search
        return None if make is None else make(state)

    def _take_over(self, search: TreeSearch, history: list[int]) -> int:
        """Lets ``search`` take over the last move's search below the position reached
        since (``reuse``); remembers ``search`` for the next move. The visits taken over."""
        previous, self._previous = self._previous, (search, history)
        if previous is None:
            return 0
        earlier, earlier_history = previous
        if history[: len(earlier_history)] != earlier_history:
            return 0
        moves = [earlier.kernel_move(action) for action in history[len(earlier_history) :]]
        if not moves or any(move is None for move in moves):
            return 0
        return search.adopt(earlier, [move for move in moves if move is not None])

    def _search_compiled(
        self,
        search: TreeSearch,
        losing: dict[int, list[float]],
        deadline: float | None,
        iterations: int | None,
    ) -> int:
        """Runs the compiled search in calls of about :data:`CHUNK_SECONDS` until the
        budget (``deadline``, ``iterations``) is spent or the root is proven; its best move."""
        if losing:
            search.expand_root(self.rng.getrandbits(62))
            search.mark_lost(set(losing))
        chunk = 32
        while iterations is None or search.iterations < iterations:
            if iterations is not None and deadline is None:
                chunk = iterations - search.iterations
            elif iterations is not None:
                chunk = min(chunk, iterations - search.iterations)
            clock = time.perf_counter()
            left = None if deadline is None else deadline - clock
            grow = left is None or GROWTH_MARGIN * search.growth_seconds() < left
            done = search.run(chunk, self.exploration, self.rng.getrandbits(62), grow=grow)
            now = time.perf_counter()
            if done < chunk or (deadline is not None and now >= deadline):
                break
            left = None if deadline is None else deadline - now
            chunk = next_chunk(chunk, now - clock, left)
        self.last_iterations = search.iterations
        return search.best_action()

    def _search_protocol(
        self,
        state: State,
        worlds: Determiniser,
        legal: list[int],
        losing: dict[int, list[float]],
        deadline: float | None,
        iterations: int | None,
    ) -> int:
        game = state.get_game()
        root = Node(game.num_players())
        search = ProtocolSearch(
            game,
            root,
            self.rng,
            exploration=self.exploration,
            cutoff=self.cutoff,
            solver=self.solver,
            playout=find_playout(game.name) if self.fast else None,
            evaluate=evaluator_for(game),
        )
        if losing and len(losing) < len(legal):
            search.mark_lost(state, losing)
        done = 0
        while iterations is None or done < iterations:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            search.iterate(worlds.sample(self.rng))
            done += 1
            if root.solved is not None:
                break
        self.last_iterations = done
        return max(legal, key=lambda action: root.preference(action, self.seat))

    def _winning_action(self, world: State, legal: list[int]) -> int | None:
        """An action that ends the game at once with this seat among the best returns."""
        for action in legal:
            child = world.clone()
            child.apply_action(action)
            if child.is_terminal():
                returns = child.returns()
                if returns[self.seat] >= max(returns) and returns[self.seat] > min(returns):
                    return action
        return None


def _make(seat: int, seed: int | None, settings: Settings) -> Agent:
    check_settings("mcts", settings, SETTINGS)
    iterations = int_setting(settings, "iterations", 0, minimum=1) or None
    default_time = None if iterations is not None else 1.0
    time_limit: float | None = float_setting(settings, "time", default_time or 0.0, minimum=0.001)
    if "time" not in settings and default_time is None:
        time_limit = None
    return MctsAgent(
        seat,
        seed=seed,
        time_limit=time_limit,
        iterations=iterations,
        exploration=float_setting(settings, "c", 1.0),
        cutoff=int_setting(settings, "cutoff", 0),
        decisive=int_setting(settings, "decisive", 1) != 0,
        solver=int_setting(settings, "solver", 1) != 0,
        fast=int_setting(settings, "fast", 1) != 0,
        endgame=float_setting(settings, "endgame", 0.0, minimum=0.0, maximum=1.0),
        book=int_setting(settings, "book", 0) != 0,
        endgame_rate=int_setting(settings, "endgame_rate", 0, minimum=0),
        endgame_hold=int_setting(settings, "endgame_hold", 0) != 0,
        endgame_trial=float_setting(
            settings, "endgame_trial", TRIAL_SHARE, minimum=0.0, maximum=1.0
        ),
        reuse=int_setting(settings, "reuse", 0) != 0,
        guided=int_setting(settings, "guided", 0) != 0,
        net=int_setting(settings, "net", 0) != 0,
        mix=float_setting(settings, "mix", 0.0, minimum=0.0, maximum=1.0),
        policy=int_setting(settings, "policy", 0) != 0,
    )


register_agent("mcts", _make)
