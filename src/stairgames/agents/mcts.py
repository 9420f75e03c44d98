"""The ``mcts`` player: Monte Carlo tree search (UCT), for every game.

One implementation covers all four games:

- **Any number of seats.** Each node keeps the summed value of every seat;
  a seat choosing at a node maximises its own value (values are returns
  scaled into [0, 1]).
- **Chance.** At a chance node the outcome is drawn with its probability
  (sampled, not averaged), and the tree keeps one child per outcome seen.
- **Hidden information** (information-set MCTS, single observer). Each
  iteration searches a determinisation
  (:mod:`stairgames.agents.determinise`); children are keyed by action, and
  selection only considers actions legal in the current determinisation,
  with UCB's exploration term counted over the iterations in which the
  action was available. Without hidden information this is plain UCT.

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
  without chance or hidden information: a node is proven when a proven child
  gives its mover the best value there is, or when all its children are
  proven; searches through a proven node stop there, and the move chosen is a
  proven win if there is one, never a proven loss if there is another;
- ``reuse``: ``1`` keeps, in games without hidden information, the subtree
  of the last search that the game has reached since (checked by replaying
  the actions played since), so its statistics are not lost (default 0: it
  measured no stronger in Stairs, see ``docs/agents.md``);
- ``fast``: ``1`` (default) plays random playouts with the game's own
  ``playout`` hook where it has one (uniformly random games, the same in
  distribution, faster; Stairs and 27 have compiled ones), ``0`` through the
  protocol;
- ``prior``: each new node starts as if visited this many times at the value
  the game's evaluation gives it (heuristic initialisation; default 0: off);
- ``rave``: the RAVE equivalence parameter K (default 0: off). Each node also
  keeps all-moves-as-first (AMAF) statistics: for every action its mover
  played anywhere later in an iteration (in the tree or the playout), the
  result of that iteration. Selection blends a child's mean with the AMAF mean
  of its action, the AMAF share being ``sqrt(K / (3 n + K))`` after ``n``
  visits of the child, and untried actions are tried in the order of their
  AMAF means (unseen ones first);
- ``implicit``: the weight α of implicit minimax backups (default 0: off).
  Each new node is scored by the game's evaluation, and every node keeps the
  minimax of those scores over its searched subtree (its mover's best child;
  a chance node the mean of its children; a finished game its returns, a
  proven node its proven value). Selection uses ``(1 - α) · mean + α ·
  minimax`` in place of a child's mean (Lanctot et al., 2014);
- ``endgame``: the share (0-1) of the move's budget given first to the game's
  exact endgame solver, where the game offers one (the ``endgame_solver`` hook;
  Stairs and 27 do; warmed up when the player is prepared for the game). When
  it proves a winning move in time, that move is played; otherwise (unproven,
  or every move loses) the search runs on the rest of the budget
  (:mod:`stairgames.agents.endgame`). Default 0: off.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

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
from stairgames.agents.endgame import EndgameProbe
from stairgames.agents.evaluation import evaluator_for, find_playout, find_recording_playout
from stairgames.core.chance import sample_chance_outcome
from stairgames.core.errors import InvalidOptionError
from stairgames.core.game import CHANCE, Game, State
from stairgames.core.hooks import WarmUp
from stairgames.core.registry import player_hooks
from stairgames.i18n import N_

SETTINGS = {
    "time": "seconds per move",
    "iterations": "iterations per move",
    "c": "UCB exploration constant",
    "cutoff": "playout steps before the evaluation scores the state (0: to the end)",
    "decisive": "1 to play an immediately winning move at once",
    "solver": "1 to prove wins and losses in the tree (games without chance or hidden cards)",
    "prior": "virtual visits at the evaluation's value given to each new node (0: none)",
    "reuse": "1 to keep the subtree reached since the last move (no hidden information)",
    "fast": "1 to use the game's own fast random playout where it has one",
    "rave": "RAVE equivalence parameter: all-moves-as-first statistics blended in (0: off)",
    "implicit": "weight (0-1) of the minimax of evaluations blended into the mean (0: off)",
    "endgame": "share (0-1) of the budget for the game's exact endgame solver first (0: off)",
}


class _Node:
    """Statistics of one action sequence in the tree."""

    __slots__ = (
        "amaf",
        "available",
        "children",
        "implicit",
        "legal_count",
        "player",
        "solved",
        "totals",
        "visits",
    )

    def __init__(self, seats: int) -> None:
        self.visits = 0
        self.available = 0
        self.totals = [0.0] * seats
        self.children: dict[int, _Node] = {}
        self.player = CHANCE
        """Who acts at this node (set when first searched through)."""
        self.legal_count = 0
        self.solved: list[float] | None = None
        """The exact values per seat, once proven (solver; deterministic games only)."""
        self.implicit: list[float] | None = None
        """Minimax of the evaluations below, per seat in [0, 1] (``implicit`` only)."""
        self.amaf: dict[int, list[float]] = {}
        """AMAF statistics (``rave``): action -> [iterations, summed value for the mover]."""


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
        prior: int = 0,
        reuse: bool = False,
        fast: bool = True,
        rave: float = 0.0,
        implicit: float = 0.0,
        endgame: float = 0.0,
    ) -> None:
        super().__init__(seat, seed=seed)
        if time_limit is None and iterations is None:
            raise InvalidOptionError(message_id=N_("mcts needs a time or an iteration budget"))
        self.time_limit = time_limit
        self.iterations = iterations
        self.exploration = exploration
        self.cutoff = cutoff
        self.decisive = decisive
        self.solver = solver
        self.prior = prior
        self.reuse = reuse
        self.fast = fast
        self.rave = rave
        self.implicit = implicit
        self.endgame = endgame
        self._endgame = EndgameProbe(endgame)
        self._kept: tuple[State, _Node] | None = None
        self.last_iterations = 0
        """Iterations run for the last move (for benchmarks)."""

    def describe(self) -> str:
        settings: dict[str, object] = {}
        if self.time_limit is not None:
            settings["time"] = self.time_limit
        if self.iterations is not None:
            settings["iterations"] = self.iterations
        settings["c"] = self.exploration
        if self.cutoff:
            settings["cutoff"] = self.cutoff
        if self.prior:
            settings["prior"] = self.prior
        if self.rave:
            settings["rave"] = self.rave
        if self.implicit:
            settings["implicit"] = self.implicit
        if self.endgame:
            settings["endgame"] = self.endgame
        return format_settings(self.name, settings)

    # ----- the search ---------------------------------------------------------

    def warm_ups(self, game: Game) -> list[WarmUp]:
        """The endgame solver's warm-up, and the game's where its own playout is
        compiled (the same warm-up for Stairs and 27: one kernel serves both)."""
        found = self._endgame.warm_ups(game)
        warm_up = player_hooks(game.name).warm_up
        if self.fast and player_hooks(game.name).playout is not None and warm_up is not None:
            found = found if warm_up in found else [*found, warm_up]
        return found

    def step(self, state: State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        game = state.get_game()
        self.ensure_prepared(game)
        started = time.perf_counter()
        worlds = Determiniser(state, self.seat)
        if self.decisive:
            winning = self._winning_action(worlds.sample(self.rng), legal)
            if winning is not None:
                self.last_iterations = 0
                return winning
        losing: dict[int, list[float]] = {}
        if self.endgame and not worlds.hidden:
            winning, losing = self._endgame.prove(
                state, started=started, seconds=self.time_limit, iterations=self.iterations
            )
            if winning is not None:
                self.last_iterations = 0
                return winning
        root = self._reusable_root(state) or _Node(game.num_players())
        if losing and len(losing) < len(legal):
            self._mark_losing(root, state, losing)
        search = _Search(self, game, root)
        deadline = None if self.time_limit is None else started + self.time_limit
        done = 0
        while self.iterations is None or done < self.iterations:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            search.iterate(worlds.sample(self.rng))
            done += 1
            if root.solved is not None:
                break
        self.last_iterations = done
        if self.reuse and not worlds.hidden:
            self._kept = (state.clone(), root)
        return max(legal, key=lambda a: _preference(root, a, self.seat))

    def restart(self) -> None:
        self._kept = None
        self._endgame.restart()

    def _mark_losing(self, root: _Node, state: State, losing: dict[int, list[float]]) -> None:
        """Root children for the actions the endgame solver proved lost, as proven
        nodes (MCTS-Solver then never chooses them while another action is open)."""
        seats = state.get_game().num_players()
        info = state.get_game().info()
        span = (info.max_utility - info.min_utility) or 1.0
        for action, proven in losing.items():
            child = _child(root, action, seats)
            if child.solved is not None:
                continue
            child.solved = [(value - info.min_utility) / span for value in proven]
            child.visits = max(child.visits, 1)
            child.totals = [child.visits * value for value in child.solved]

    def _reusable_root(self, state: State) -> _Node | None:
        """The subtree of the last search that this state reached, when it still applies.

        The kept root state, advanced by the actions played since, must give this
        state's position and player to move; otherwise a fresh tree is grown."""
        if self._kept is None or not self.reuse:
            return None
        kept_state, node = self._kept
        self._kept = None
        before, now = kept_state.history(), state.history()
        if now[: len(before)] != before or len(now) <= len(before):
            return None
        replay = kept_state.clone()
        for action in now[len(before) :]:
            child = node.children.get(action)
            if child is None or not replay.is_legal(action):
                return None
            replay.apply_action(action)
            node = child
        if replay.position() != state.position() or replay.current_player() != self.seat:
            return None
        return node

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


def _preference(root: _Node, action: int, seat: int) -> tuple[float, int]:
    """Proven values first (a proven win, then unproven, then proven losses), then visits."""
    child = root.children.get(action)
    if child is None:
        return (0.5, 0)
    proven = 0.5 if child.solved is None else child.solved[seat]
    return (proven if child.solved is not None and proven != 0.5 else 0.5, child.visits)


class _Search:
    """One move's search: selection, expansion, playout, backpropagation."""

    def __init__(self, agent: MctsAgent, game: Game, root: _Node) -> None:
        self.agent = agent
        self.rng = agent.rng
        self.root = root
        self.seats = game.num_players()
        info = game.info()
        self.low = info.min_utility
        self.span = (info.max_utility - info.min_utility) or 1.0
        self.evaluate: Callable[[State, int], float] = evaluator_for(game)
        self.solver = agent.solver and not info.chance and not info.hidden_information
        self.prior = agent.prior
        self.fast_playout = find_playout(game.name) if agent.fast else None
        self.rave = agent.rave
        self.implicit = agent.implicit
        self.recording_playout = (
            find_recording_playout(game.name) if agent.fast and self.rave else None
        )

    def iterate(self, state: State) -> None:
        node = self.root
        path = [node]
        values: list[float] | None = None
        moves: list[tuple[int, int]] = []
        """(player, action) from each node of ``path`` to the next (``rave`` only)."""
        rave = self.rave
        while not state.is_terminal():
            if node.solved is not None:
                values = node.solved
                break
            if state.is_chance_node():
                outcome = sample_chance_outcome(state, self.rng)
                state.apply_action(outcome)
                if rave:
                    moves.append((CHANCE, outcome))
                node = _child(node, outcome, self.seats)
                path.append(node)
                continue
            player = state.current_player()
            legal = state.legal_actions()
            node.player = player
            node.legal_count = len(legal)
            action, expanded = self._select(node, legal, player)
            state.apply_action(action)
            if rave:
                moves.append((player, action))
            node = _child(node, action, self.seats)
            path.append(node)
            if expanded:
                if self.prior and not state.is_terminal():
                    self._seed_with_evaluation(node, state)
                if self.implicit:
                    node.implicit = self._evaluations(state)
                break
        played: list[tuple[int, int]] = []
        if values is None:
            if state.is_terminal():
                values = self._scaled_returns(state)
                if self.solver:
                    node.solved = values
            else:
                values = self._playout(state, played if rave else None)
        if self.solver and node.solved is not None:
            self._prove(path)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for seat in range(self.seats):
                totals[seat] += values[seat]
        if rave:
            self._update_amaf(path, moves, played, values)
        if self.implicit:
            self._back_up_minimax(path)

    def _evaluations(self, state: State) -> list[float]:
        """The game's evaluation of ``state`` for every seat, in [0, 1]."""
        if state.is_terminal():
            return self._scaled_returns(state)
        return [(self.evaluate(state, seat) + 1.0) / 2.0 for seat in range(self.seats)]

    def _back_up_minimax(self, path: list[_Node]) -> None:
        """Implicit minimax: each node on the path takes its mover's best child's value."""
        for node in reversed(path):
            if node.solved is not None:
                node.implicit = node.solved
                continue
            known = [c.implicit for c in node.children.values() if c.implicit is not None]
            if not known:
                continue
            if node.player == CHANCE:
                node.implicit = [
                    sum(v[seat] for v in known) / len(known) for seat in range(self.seats)
                ]
            else:
                mover = node.player
                node.implicit = max(known, key=lambda v: v[mover])

    def _update_amaf(
        self,
        path: list[_Node],
        moves: list[tuple[int, int]],
        played: list[tuple[int, int]],
        values: list[float],
    ) -> None:
        """All moves as first: credit each node's mover's later actions with this result."""
        later: list[set[int]] = [set() for _ in range(self.seats)]
        for player, action in played:
            if player >= 0:
                later[player].add(action)
        for depth in range(len(moves) - 1, -1, -1):
            player, action = moves[depth]
            if player < 0:
                continue
            actions = later[player]
            actions.add(action)
            amaf = path[depth].amaf
            value = values[player]
            for later_action in actions:
                entry = amaf.get(later_action)
                if entry is None:
                    amaf[later_action] = [1.0, value]
                else:
                    entry[0] += 1.0
                    entry[1] += value

    def _seed_with_evaluation(self, node: _Node, state: State) -> None:
        """Start a new node as if it had been visited ``prior`` times at the evaluation's value."""
        weight = self.prior
        node.visits += weight
        for seat in range(self.seats):
            node.totals[seat] += weight * (self.evaluate(state, seat) + 1.0) / 2.0

    def _prove(self, path: list[_Node]) -> None:
        """MCTS-Solver: carry a proven value up while it decides the parent too.

        A parent is proven when a proven child gives its mover the best possible
        value, or when every legal child is proven (the mover takes the best)."""
        for depth in range(len(path) - 2, -1, -1):
            parent, child = path[depth], path[depth + 1]
            assert child.solved is not None
            mover = parent.player
            if child.solved[mover] >= 1.0:
                parent.solved = child.solved
                continue
            children = parent.children.values()
            if len(parent.children) < parent.legal_count or any(c.solved is None for c in children):
                return
            parent.solved = max((c.solved for c in children if c.solved), key=lambda v: v[mover])

    def _select(self, node: _Node, legal: list[int], player: int) -> tuple[int, bool]:
        """UCB over the actions legal here; an untried action first (then ``expanded``)."""
        children = node.children
        untried = [a for a in legal if a not in children]
        for action in legal:
            child = children.get(action)
            if child is not None:
                child.available += 1
        rave = self.rave
        if untried:
            if rave and len(untried) > 1:
                return self._best_by_amaf(node, untried), True
            return self.rng.choice(untried), True
        c = self.agent.exploration
        best_action = legal[0]
        best_score = -math.inf
        amaf = node.amaf
        alpha = self.implicit
        for action in legal:
            child = children[action]
            visits = child.visits
            mean = child.totals[player] / visits
            if rave:
                entry = amaf.get(action)
                if entry is not None:
                    share = math.sqrt(rave / (3.0 * visits + rave))
                    mean = (1.0 - share) * mean + share * entry[1] / entry[0]
            if alpha:
                implicit = child.implicit
                if implicit is not None:
                    mean = (1.0 - alpha) * mean + alpha * implicit[player]
            score = mean + c * math.sqrt(math.log(child.available) / visits)
            if score > best_score:
                best_action, best_score = action, score
        return best_action, False

    def _best_by_amaf(self, node: _Node, actions: list[int]) -> int:
        """The action with the best AMAF mean (never seen counts as best), ties at random."""
        amaf = node.amaf
        best: list[int] = []
        best_mean = -math.inf
        for action in actions:
            entry = amaf.get(action)
            mean = math.inf if entry is None else entry[1] / entry[0]
            if mean > best_mean:
                best, best_mean = [action], mean
            elif mean == best_mean:
                best.append(action)
        return best[0] if len(best) == 1 else self.rng.choice(best)

    def _playout(self, state: State, played: list[tuple[int, int]] | None = None) -> list[float]:
        """Random play to the end (or to the cut-off), as values in [0, 1] per seat.

        With ``played``, the (player, action) pairs of the playout are appended to it."""
        rng = self.rng
        cutoff = self.agent.cutoff
        if played is not None and self.recording_playout is not None and not cutoff:
            returns = self.recording_playout(state, rng, played)
            return [(value - self.low) / self.span for value in returns]
        if self.fast_playout is not None and not cutoff and played is None:
            return [(value - self.low) / self.span for value in self.fast_playout(state, rng)]
        steps = 0
        while not state.is_terminal():
            if cutoff and steps >= cutoff:
                return [(self.evaluate(state, seat) + 1.0) / 2.0 for seat in range(self.seats)]
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(sample_chance_outcome(state, rng))
            else:
                action = rng.choice(state.legal_actions())
                if played is not None:
                    played.append((player, action))
                state.apply_action(action)
            steps += 1
        return self._scaled_returns(state)

    def _scaled_returns(self, state: State) -> list[float]:
        return [(value - self.low) / self.span for value in state.returns()]


def _child(node: _Node, action: int, seats: int) -> _Node:
    child = node.children.get(action)
    if child is None:
        child = _Node(seats)
        node.children[action] = child
    return child


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
        prior=int_setting(settings, "prior", 0),
        reuse=int_setting(settings, "reuse", 0) != 0,
        fast=int_setting(settings, "fast", 1) != 0,
        rave=float_setting(settings, "rave", 0.0),
        implicit=float_setting(settings, "implicit", 0.0),
        endgame=float_setting(settings, "endgame", 0.0, minimum=0.0, maximum=1.0),
    )


register_agent("mcts", _make)
