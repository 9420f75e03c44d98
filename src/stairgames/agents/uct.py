"""The tree search of ``mcts`` through the protocol, for every game.

One iteration walks the tree from the root of one determinisation of the position
(:mod:`stairgames.agents.determinise`; the position itself where nothing is hidden)
in four steps:

1. **Selection**: at a chance node an outcome is drawn with its probability; at a
   decision node its mover takes the child with the best UCB1 score for itself
   (values are returns scaled into [0, 1], each node keeping the summed value of
   every seat, so any number of seats works). Only actions legal in this
   determinisation are considered, and the exploration term counts the iterations
   in which an action was available (single-observer information-set MCTS; without
   hidden information this is plain UCT).
2. **Expansion**: the first untried action, chosen at random, adds one node.
3. **Playout**: uniformly random play to the end (the game's own fast ``playout``
   where it has one), or ``cutoff`` random steps and then the game's evaluation.
4. **Backup**: every node on the path adds the values; with the solver
   (MCTS-Solver, games without chance or hidden information) a finished game is a
   proven node, and a parent is proven when a proven child gives its mover the best
   value there is or when all its children are proven.

Games that offer a compiled tree search (:mod:`stairgames.core.uct`) run the same
search in compiled code instead (:mod:`stairgames.agents.mcts` chooses).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from stairgames.core.chance import sample_chance_outcome
from stairgames.core.game import CHANCE, Game, State
from stairgames.core.hooks import Playout


class Node:
    """The statistics of one action sequence in the tree."""

    __slots__ = ("available", "children", "legal_count", "player", "solved", "totals", "visits")

    def __init__(self, seats: int) -> None:
        self.visits = 0
        self.available = 0
        """Iterations in which the action leading here was legal (ISMCTS)."""
        self.totals = [0.0] * seats
        self.children: dict[int, Node] = {}
        self.player = CHANCE
        """Who acts at this node (set when first searched through)."""
        self.legal_count = 0
        self.solved: list[float] | None = None
        """The exact values per seat, once proven (solver only)."""

    def child(self, action: int, seats: int) -> Node:
        """The child reached by ``action``, added when new."""
        found = self.children.get(action)
        if found is None:
            found = self.children[action] = Node(seats)
        return found

    def preference(self, action: int, seat: int) -> tuple[float, int]:
        """How much ``seat`` (to move here) wants ``action``: a proven win first, then
        unproven actions and proven draws, then proven losses; then visits."""
        child = self.children.get(action)
        if child is None:
            return (0.5, 0)
        proven = 0.5 if child.solved is None else child.solved[seat]
        return (proven, child.visits)


class ProtocolSearch:
    """One move's search through the protocol (the steps in the module's docstring)."""

    def __init__(
        self,
        game: Game,
        root: Node,
        rng: random.Random,
        *,
        exploration: float,
        cutoff: int,
        solver: bool,
        playout: Playout | None,
        evaluate: Callable[[State, int], float],
    ) -> None:
        self.root = root
        self.rng = rng
        self.exploration = exploration
        self.cutoff = cutoff
        self.seats = game.num_players()
        info = game.info()
        self.low = info.min_utility
        self.span = (info.max_utility - info.min_utility) or 1.0
        self.solver = solver and not info.chance and not info.hidden_information
        self.playout = None if cutoff else playout
        self.evaluate = evaluate

    def iterate(self, state: State) -> None:
        """One iteration from ``state`` (a determinisation of the root, used up)."""
        path, values = self._descend(state)
        if values is None:
            values = self._play_out(state)
        leaf = path[-1]
        if self.solver and leaf.solved is not None:
            self._prove(path)
        for node in path:
            node.visits += 1
            for seat in range(self.seats):
                node.totals[seat] += values[seat]

    def _descend(self, state: State) -> tuple[list[Node], list[float] | None]:
        """Selection and expansion: the path, and the values where it ended in a
        finished game or a proven node (``None``: a playout follows)."""
        node = self.root
        path = [node]
        while not state.is_terminal():
            if node.solved is not None:
                return path, node.solved
            if state.is_chance_node():
                outcome = sample_chance_outcome(state, self.rng)
                state.apply_action(outcome)
                node = node.child(outcome, self.seats)
                path.append(node)
                continue
            legal = state.legal_actions()
            node.player = state.current_player()
            node.legal_count = len(legal)
            action, expanded = self._select(node, legal)
            state.apply_action(action)
            node = node.child(action, self.seats)
            path.append(node)
            if expanded:
                break
        if not state.is_terminal():
            return path, None
        values = self._scaled_returns(state)
        if self.solver:
            node.solved = values
        return path, values

    def _select(self, node: Node, legal: list[int]) -> tuple[int, bool]:
        """UCB1 over the actions legal here; an untried one first (then ``expanded``)."""
        children = node.children
        untried = [a for a in legal if a not in children]
        for action in legal:
            child = children.get(action)
            if child is not None:
                child.available += 1
        if untried:
            return self.rng.choice(untried), True
        player = node.player
        c = self.exploration
        best_action, best_score = legal[0], -math.inf
        for action in legal:
            child = children[action]
            visits = child.visits
            score = child.totals[player] / visits + c * math.sqrt(
                math.log(child.available) / visits
            )
            if score > best_score:
                best_action, best_score = action, score
        return best_action, False

    def _prove(self, path: list[Node]) -> None:
        """MCTS-Solver: carries a proven value up while it decides the parent too."""
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

    def _play_out(self, state: State) -> list[float]:
        """Random play to the end (or ``cutoff`` steps, then the evaluation), as
        values in [0, 1] per seat."""
        rng = self.rng
        if self.playout is not None:
            return [(value - self.low) / self.span for value in self.playout(state, rng)]
        steps = 0
        while not state.is_terminal():
            if self.cutoff and steps >= self.cutoff:
                return [(self.evaluate(state, seat) + 1.0) / 2.0 for seat in range(self.seats)]
            if state.is_chance_node():
                state.apply_action(sample_chance_outcome(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return self._scaled_returns(state)

    def _scaled_returns(self, state: State) -> list[float]:
        return [(value - self.low) / self.span for value in state.returns()]

    def mark_lost(self, state: State, losing: dict[int, list[float]]) -> None:
        """Root children for the actions an exact solver proved lost, as proven nodes
        (the solver's MCTS-Solver then never chooses them while another is open)."""
        info = state.get_game().info()
        for action, proven in losing.items():
            child = self.root.child(action, self.seats)
            child.solved = [(value - info.min_utility) / self.span for value in proven]
            child.visits = max(child.visits, 1)
            child.totals = [child.visits * value for value in child.solved]
