"""Compiled Monte Carlo tree search (UCT with MCTS-Solver) for games with a kernel.

Two-player games without chance or hidden information that keep their positions in
a numba kernel (Stairs and 27) search their positions here, tree and statistics in
arrays walked by compiled code, so a search iteration costs little more than its
random playout. The search is the one ``mcts`` runs through the protocol
(:mod:`stairgames.agents.mcts`): UCB1 on values in [0, 1], one node expanded per
iteration, a uniformly random playout from it, and proven results carried up the
tree (a node is won for its mover when one child is, and decided when all children
are).

A game provides five compiled functions with these signatures, and a compiled
``search`` of its own that passes them to :func:`iterate` (numba specialises
:func:`iterate` for them):

- ``moves(s, params, found) -> int``: writes the moves of the colour to move into
  ``found`` and returns how many; 0 when it must pass, -1 when the game is over;
- ``play(s, params, move)``: plays ``move`` in place (:data:`PASS`: the turn passes);
- ``outcome(s) -> int``: at the end, :data:`FIRST` or :data:`SECOND` (the colour
  that won) or :data:`DRAW`;
- ``rollout(s, params, found) -> int``: plays on at random to the end (numba's
  generator, seeded by :func:`iterate`), the outcome: :func:`rollout` with the
  game's ``moves``, ``play`` and ``outcome``, or a faster one of its own;
- ``to_move(s) -> int``: the colour to move (0 or 1).

A game with a learned evaluation searches with :func:`iterate_valued` instead: the same
tree, with each new leaf worth ``value(s, params, found)`` (colour 0's value in [0, 1],
a float backed up by :func:`back_up_value`) rather than a playout's result
(``mcts:net=1``).

The same functions give the game's compiled random playout from a position, with
moves scripted first (:func:`playout`: the ``playout`` hook and its tests).

Colours are the game's own (0 moves first, light or white); seats are mapped in
Python by :class:`TreeSearch`, which holds the arrays and grows them as needed.

A game's ``playout`` hook built on these (``play/playout.py``) plays the same games as
uniformly random play through the protocol *in distribution*, not move for move: the
moves are drawn by numba's generator, seeded with one draw from the caller's ``rng``
(:func:`seed_of`); ``tests/test_compiled_playouts.py`` checks that the kernels offer the
moves the rules offer and end scripted games with the rules' results.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from stairgames.core.compiled import Kernel

KERNEL: Final = Kernel(__name__)
_compiled = KERNEL.compiled

Array = npt.NDArray[np.int64]
Links = npt.NDArray[np.int32]
Floats = npt.NDArray[np.float32]
Flags = npt.NDArray[np.int8]
Params = Any
"""A game's constants for its kernel (``params``): an array (27: the variant) or a
tuple of integers (Stairs: the board), whatever the game's functions take."""
Tree = tuple[Links, Links, Links, Flags, Flags, Floats, Floats, Floats, Array, Array, Array]
"""The arrays of a search, as :func:`iterate` takes them: per node the first child, the
number of children, the move leading there, the colour to move, the proven result,
visits, summed value and prior (the share a policy gave its move: :func:`iterate_guided`
only); then the nodes in use (one entry), room for a position's moves, and the path of
the current iteration."""

FIRST: Final = 0
SECOND: Final = 1
DRAW: Final = 2
UNKNOWN: Final = -1
"""``proven[node]`` while the node's result is not proven."""
PASS: Final = -1
"""The move of a turn passed."""
NOT_OFFERED: Final = -1
"""What :func:`playout` returns when a scripted move is not offered."""
MAX_DEPTH: Final = 512
"""The deepest path the tree grows (far beyond what a second's search reaches)."""
INITIAL_NODES: Final = 1 << 15
MAX_NODES: Final = 1 << 22
"""The tree stops growing here (22 bytes a node: about 90 megabytes, some 60,000
iterations from the Stairs opening); iterations go on, playing out from the leaves
they reach."""
GROWTH_SECONDS_A_NODE: Final = 5e-8
"""What doubling the arrays is assumed to cost a node of the new size before any
doubling has been timed (above what this machine takes: 15-30 ns)."""


@_compiled
def first_colour_value(result: int) -> float:
    """What ``result`` is worth to colour 0, in [0, 1]."""
    if result == FIRST:
        return 1.0
    if result == SECOND:
        return 0.0
    return 0.5


@_compiled
def add_children(
    node: int,
    found: Array,
    count: int,
    colour: int,
    start: Links,
    width: Links,
    move: Links,
    mover: Flags,
    proven: Flags,
    visits: Floats,
    totals: Floats,
    used: Array,
) -> None:
    """Expands ``node`` (``colour`` to move) with the moves ``found[:count]`` in a random
    order (a pass when ``count`` is 0)."""
    for i in range(count - 1, 0, -1):
        j = np.random.randint(0, i + 1)
        found[i], found[j] = found[j], found[i]
    first = used[0]
    children = max(count, 1)
    for i in range(children):
        child = first + i
        move[child] = found[i] if count else PASS
        start[child] = -1
        width[child] = 0
        proven[child] = UNKNOWN
        visits[child] = 0.0
        totals[child] = 0.0
    start[node] = first
    width[node] = children
    mover[node] = colour
    used[0] = first + children


@_compiled
def select(
    node: int,
    c: float,
    start: Links,
    width: Links,
    proven: Flags,
    visits: Floats,
    totals: Floats,
    mover: Flags,
) -> int:
    """The child of ``node`` to search: a proven win for its mover at once, else an
    unvisited child, else the best by UCB1 (proven losses left out while another
    child remains; a proven draw counts 0.5 with no exploration bonus)."""
    colour = mover[node]
    first = start[node]
    log_parent = math.log(max(visits[node], 1.0))
    best = int(first)
    best_score = -1.0
    for child in range(first, first + width[node]):
        result = proven[child]
        if result == colour:
            return int(child)
        if result == UNKNOWN:
            if visits[child] == 0.0:
                return int(child)
            mean = totals[child] / visits[child]
            score = mean + c * math.sqrt(log_parent / visits[child])
        elif result == DRAW:
            score = 0.5
        else:
            score = -0.5
        if score > best_score:
            best, best_score = int(child), score
    return best


@_compiled
def back_up(
    path: Array, depth: int, result: int, mover: Flags, visits: Floats, totals: Floats
) -> None:
    """Adds one visit and ``result``'s value (for the colour that chose each node) to
    every node of ``path[: depth + 1]``."""
    value = first_colour_value(result)
    visits[path[0]] += 1.0
    for d in range(1, depth + 1):
        node = path[d]
        visits[node] += 1.0
        totals[node] += value if mover[path[d - 1]] == 0 else 1.0 - value


@_compiled
def prove_up(
    path: Array, depth: int, start: Links, width: Links, mover: Flags, proven: Flags
) -> None:
    """MCTS-Solver: from the proven node ``path[depth]`` up, proves each parent that a
    proven child decides (its mover's win), or whose children are all proven (the
    best of them for its mover)."""
    for d in range(depth, 0, -1):
        child, parent = path[d], path[d - 1]
        colour = mover[parent]
        if proven[child] == colour:
            proven[parent] = colour
            continue
        best = 1 - colour
        for other in range(start[parent], start[parent] + width[parent]):
            result = proven[other]
            if result == UNKNOWN:
                return
            if result == DRAW:
                best = DRAW
        proven[parent] = best


@_compiled
def iterate(
    moves: Any,
    play: Any,
    outcome: Any,
    rollout: Any,
    to_move: Any,
    root: Array,
    params: Params,
    c: float,
    iterations: int,
    tree: Tree,
) -> int:
    """Runs up to ``iterations`` iterations from the position ``root`` (left as it
    was); returns how many ran (fewer once the root is proven). Node 0 is the root;
    ``used[0]`` counts the nodes in use, and the tree grows no further once the
    arrays are full."""
    start, width, move, mover, proven, visits, totals, _, used, found, path = tree
    capacity = start.shape[0]
    done = 0
    while done < iterations and proven[0] == UNKNOWN:
        s = root.copy()
        node = 0
        depth = 0
        path[0] = 0
        while True:
            if proven[node] != UNKNOWN:
                result = proven[node]
                break
            if start[node] < 0:
                count = moves(s, params, found)
                if count < 0:
                    result = outcome(s)
                    proven[node] = result
                    break
                if used[0] + max(count, 1) > capacity or depth + 1 >= path.shape[0]:
                    result = rollout(s, params, found)
                    break
                add_children(
                    node,
                    found,
                    count,
                    to_move(s),
                    start,
                    width,
                    move,
                    mover,
                    proven,
                    visits,
                    totals,
                    used,
                )
            node = select(node, c, start, width, proven, visits, totals, mover)
            play(s, params, move[node])
            depth += 1
            path[depth] = node
            if visits[node] == 0.0:  # a new node: its first visit is a playout
                result = rollout(s, params, found)
                break
        back_up(path, depth, result, mover, visits, totals)
        if proven[node] != UNKNOWN:
            prove_up(path, depth, start, width, mover, proven)
        done += 1
    return done


@_compiled
def back_up_value(
    path: Array, depth: int, value: float, mover: Flags, visits: Floats, totals: Floats
) -> None:
    """:func:`back_up` of a value for colour 0 in [0, 1] (a leaf's evaluation) rather
    than a result: one visit and ``value`` (for the colour that chose each node) added
    to every node of ``path[: depth + 1]``."""
    visits[path[0]] += 1.0
    for d in range(1, depth + 1):
        node = path[d]
        visits[node] += 1.0
        totals[node] += value if mover[path[d - 1]] == 0 else 1.0 - value


@_compiled
def iterate_valued(
    moves: Any,
    play: Any,
    outcome: Any,
    value: Any,
    to_move: Any,
    root: Array,
    params: Params,
    c: float,
    iterations: int,
    tree: Tree,
) -> int:
    """:func:`iterate` with a leaf *valued* rather than played out: a new node (or a leaf
    of a full tree) is worth ``value(s, params, found)``, colour 0's value of the
    position ``s`` in [0, 1] (a learned evaluation, say, which may play ``s`` out in
    place: it is a copy), backed up as a float (:func:`back_up_value`); a position at
    the end of the game and a proven node are worth their result, as in :func:`iterate`,
    and proven results are carried up the same way."""
    start, width, move, mover, proven, visits, totals, _, used, found, path = tree
    capacity = start.shape[0]
    done = 0
    while done < iterations and proven[0] == UNKNOWN:
        s = root.copy()
        node = 0
        depth = 0
        path[0] = 0
        while True:
            if proven[node] != UNKNOWN:
                worth = first_colour_value(proven[node])
                break
            if start[node] < 0:
                count = moves(s, params, found)
                if count < 0:
                    proven[node] = outcome(s)
                    worth = first_colour_value(proven[node])
                    break
                if used[0] + max(count, 1) > capacity or depth + 1 >= path.shape[0]:
                    worth = value(s, params, found)
                    break
                add_children(
                    node,
                    found,
                    count,
                    to_move(s),
                    start,
                    width,
                    move,
                    mover,
                    proven,
                    visits,
                    totals,
                    used,
                )
            node = select(node, c, start, width, proven, visits, totals, mover)
            play(s, params, move[node])
            depth += 1
            path[depth] = node
            if visits[node] == 0.0:  # a new node: its first visit is its evaluation
                count = moves(s, params, found)
                if count < 0:
                    proven[node] = outcome(s)
                    worth = first_colour_value(proven[node])
                else:
                    worth = value(s, params, found)
                break
        back_up_value(path, depth, worth, mover, visits, totals)
        if proven[node] != UNKNOWN:
            prove_up(path, depth, start, width, mover, proven)
        done += 1
    return done


@_compiled
def select_guided(
    node: int,
    c: float,
    start: Links,
    width: Links,
    proven: Flags,
    visits: Floats,
    totals: Floats,
    prior: Floats,
    mover: Flags,
) -> int:
    """The child of ``node`` to search by PUCT (AlphaZero's rule on values in [0, 1]): a
    proven win for its mover at once, else the best of mean value + ``c`` × prior ×
    √(visits of ``node``) / (1 + visits of the child); a child not yet visited is
    valued as the mean of its visited siblings (the first one as a draw), proven losses
    left out while another child remains, a proven draw worth 0.5."""
    colour = mover[node]
    first = start[node]
    seen = 0.0
    seen_total = 0.0
    for child in range(first, first + width[node]):
        if proven[child] == colour:
            return int(child)
        if proven[child] == UNKNOWN and visits[child] > 0.0:
            seen += visits[child]
            seen_total += totals[child]
    unvisited = seen_total / seen if seen > 0.0 else 0.5
    scale = c * math.sqrt(max(visits[node], 1.0))
    best = int(first)
    best_score = -1.0
    for child in range(first, first + width[node]):
        result = proven[child]
        if result == UNKNOWN:
            n = visits[child]
            mean = totals[child] / n if n > 0.0 else unvisited
            score = mean + scale * prior[child] / (1.0 + n)
        elif result == DRAW:
            score = 0.5
        else:
            score = -0.5
        if score > best_score:
            best, best_score = int(child), score
    return best


@_compiled
def iterate_guided(
    moves: Any,
    play: Any,
    outcome: Any,
    evaluate: Any,
    to_move: Any,
    root: Array,
    params: Params,
    c: float,
    iterations: int,
    tree: Tree,
) -> int:
    """:func:`iterate_valued` with a policy's priors (``mcts:net=1,prior=1``): a new node
    is expanded at once and judged by ``evaluate(s, params, found, count, prior, first)``,
    which writes the prior of each of its ``count`` moves (``found[:count]``, in the
    order of the children from ``first``) into ``prior`` and returns colour 0's value of
    ``s`` in [0, 1]; children are chosen by :func:`select_guided` (PUCT, ``c`` its
    constant). A leaf of a full tree is judged without being expanded; a position at
    the end of the game and a proven node are worth their result, and proven results
    are carried up as in :func:`iterate`."""
    start, width, move, mover, proven, visits, totals, prior, used, found, path = tree
    capacity = start.shape[0]
    done = 0
    while done < iterations and proven[0] == UNKNOWN:
        s = root.copy()
        node = 0
        depth = 0
        path[0] = 0
        while True:
            if proven[node] != UNKNOWN:
                worth = first_colour_value(proven[node])
                break
            if start[node] < 0:
                count = moves(s, params, found)
                if count < 0:
                    proven[node] = outcome(s)
                    worth = first_colour_value(proven[node])
                    break
                first = used[0]
                if first + max(count, 1) > capacity or depth + 1 >= path.shape[0]:
                    worth = evaluate(s, params, found, 0, prior, first)
                    break
                add_children(
                    node,
                    found,
                    count,
                    to_move(s),
                    start,
                    width,
                    move,
                    mover,
                    proven,
                    visits,
                    totals,
                    used,
                )
                if count == 0:
                    prior[first] = 1.0
                worth = evaluate(s, params, found, count, prior, first)
                if depth > 0:  # a new node: its first visit is its evaluation
                    break
            node = select_guided(node, c, start, width, proven, visits, totals, prior, mover)
            play(s, params, move[node])
            depth += 1
            path[depth] = node
        back_up_value(path, depth, worth, mover, visits, totals)
        if proven[node] != UNKNOWN:
            prove_up(path, depth, start, width, mover, proven)
        done += 1
    return done


@_compiled
def rollout(moves: Any, play: Any, outcome: Any, s: Array, params: Params, found: Array) -> int:
    """Plays ``s`` on to the end in place with the game's ``moves``, ``play`` and
    ``outcome``, each move drawn uniformly from numba's generator (a pass, drawing
    nothing, where the colour to move has no move); the outcome."""
    while True:
        count = moves(s, params, found)
        if count < 0:
            return int(outcome(s))
        play(s, params, found[np.random.randint(0, count)] if count else PASS)


@_compiled
def playout(
    moves: Any,
    play: Any,
    outcome: Any,
    rollout: Any,
    s: Array,
    params: Params,
    seed_value: int,
    script: Array,
    found: Array,
) -> int:
    """Plays the position ``s`` to the end of the game in place; the outcome, or
    :data:`NOT_OFFERED` when a scripted move is not offered.

    First the moves of ``script`` (as the game's ``moves`` writes them; passes are not
    listed, they are played whenever the colour to move has no move), then the game's
    ``rollout`` with numba's generator seeded with ``seed_value``. ``found`` is room for a
    position's moves.
    """
    np.random.seed(seed_value)
    step = 0
    while step < script.shape[0]:
        count = moves(s, params, found)
        if count < 0:
            return int(outcome(s))
        if count == 0:
            play(s, params, PASS)
            continue
        move = script[step]
        if not offered(found, count, move):
            return NOT_OFFERED
        step += 1
        play(s, params, move)
    return int(rollout(s, params, found))


@_compiled
def offered(found: Array, count: int, move: int) -> bool:
    """Whether ``move`` is among ``found[:count]``."""
    i = 0
    while i < count and found[i] != move:
        i += 1
    return i < count


@_compiled
def copy_subtree(node: int, old: Tree, new: Tree, queue: Array) -> int:
    """Copies the subtree of ``node`` in ``old`` into ``new`` with ``node`` as its root
    (node 0), breadth first, so that every node's children stay side by side; returns
    how many nodes it copied. ``queue`` has room for every node of ``old`` in use."""
    start, width, move, mover, proven, visits, totals, prior = old[:8]
    n_start, n_width, n_move, n_mover, n_proven, n_visits, n_totals, n_prior = new[:8]
    queue[0] = node
    tail = 1
    i = 0
    while i < tail:
        source = queue[i]
        n_move[i] = move[source]
        n_mover[i] = mover[source]
        n_proven[i] = proven[source]
        n_visits[i] = visits[source]
        n_totals[i] = totals[source]
        n_prior[i] = prior[source]
        n_width[i] = width[source]
        if start[source] < 0:
            n_start[i] = -1
        else:
            n_start[i] = tail
            for k in range(width[source]):
                queue[tail + k] = start[source] + k
            tail += width[source]
        i += 1
    return tail


@_compiled
def seed(value: int) -> None:
    """Seeds numba's generator (the shuffles and the playouts draw from it)."""
    np.random.seed(value)


SearchKernel = Callable[[Array, Params, float, int, "Tree"], int]
"""A game's compiled ``search(root, params, c, iterations, tree)`` that calls
:func:`iterate` with its functions."""


class TreeSearch:
    """One position's compiled search, run in chunks of iterations (compiled code
    cannot read the clock, so the caller checks it between chunks).

    ``search`` is the game's compiled search, ``root`` the position array, ``params``
    the game's constants for the kernel (a variant), ``actions`` the protocol action of
    each kernel move of the root (and of :data:`PASS`, where a pass can be), and
    ``seats`` the seat playing each colour.
    """

    def __init__(
        self,
        search: SearchKernel,
        root: Array,
        params: Params,
        actions: Mapping[int, int],
        seats: tuple[int, int],
        *,
        max_moves: int,
    ) -> None:
        self._search = search
        self.root = root
        self.params = params
        self.actions = dict(actions)
        self._moves: dict[int, int] | None = None
        """The inverse of :attr:`actions`, made on first need (:meth:`kernel_move`)."""
        self.seats = seats
        self.iterations = 0
        """Iterations run so far."""
        self._found = np.empty(max_moves, dtype=np.int64)
        self._path = np.zeros(MAX_DEPTH, dtype=np.int64)
        self._used = np.zeros(1, dtype=np.int64)
        self._allocate(INITIAL_NODES)
        self._used[0] = 1
        self.start[0] = -1
        self.proven[0] = UNKNOWN

    def _allocate(self, nodes: int) -> None:
        self.start = np.full(nodes, -1, dtype=np.int32)
        self.width = np.zeros(nodes, dtype=np.int32)
        self.move = np.zeros(nodes, dtype=np.int32)
        self.mover = np.zeros(nodes, dtype=np.int8)
        self.proven = np.full(nodes, UNKNOWN, dtype=np.int8)
        self.visits = np.zeros(nodes, dtype=np.float32)
        self.totals = np.zeros(nodes, dtype=np.float32)
        self.prior = np.zeros(nodes, dtype=np.float32)

    growth_seconds_a_node: float = GROWTH_SECONDS_A_NODE
    """The seconds a node of the new size that doubling the arrays took, followed over
    the doublings of this process (a class attribute: every search shares it)."""

    def growth_due(self) -> bool:
        """Whether the next :meth:`run` that may grow will double the arrays."""
        nodes = self.start.shape[0]
        return self._used[0] * 4 >= nodes * 3 and nodes < MAX_NODES

    def growth_seconds(self) -> float:
        """What doubling the arrays now would take, by the doublings timed so far."""
        return 2 * self.start.shape[0] * TreeSearch.growth_seconds_a_node

    def _grow(self) -> None:
        """Doubles the arrays when the tree fills three quarters of them."""
        if not self.growth_due():
            return
        started = time.perf_counter()
        nodes = self.start.shape[0]
        old = self._arrays()
        self._allocate(nodes * 2)
        for before, after in zip(old, self._arrays(), strict=True):
            after[:nodes] = before
        if nodes >= INITIAL_NODES * 2:  # smaller ones say little of the larger
            took = (time.perf_counter() - started) / (nodes * 2)
            TreeSearch.growth_seconds_a_node = 0.5 * TreeSearch.growth_seconds_a_node + 0.5 * took

    def _tree(self) -> Tree:
        return (
            self.start,
            self.width,
            self.move,
            self.mover,
            self.proven,
            self.visits,
            self.totals,
            self.prior,
            self._used,
            self._found,
            self._path,
        )

    def _arrays(self) -> tuple[npt.NDArray[Any], ...]:
        """The arrays with an entry per node."""
        return self._tree()[:8]

    def run(self, iterations: int, c: float, seed_value: int, *, grow: bool = True) -> int:
        """Runs up to ``iterations`` more iterations with exploration ``c``, drawing from
        numba's generator seeded with ``seed_value``; how many ran. ``grow=False``
        leaves the arrays as they are (a caller short of time: a full tree stops
        expanding, and its iterations play out from the leaves they reach)."""
        if grow:
            self._grow()
        seed(seed_value)
        done = int(self._search(self.root, self.params, c, iterations, self._tree()))
        self.iterations += done
        return done

    def expand_root(self, seed_value: int) -> None:
        """Expands the root without searching (one iteration), so that root moves can
        be marked proven before the search."""
        if self.start[0] < 0 and self.proven[0] == UNKNOWN:
            self.run(1, 1.0, seed_value)

    def adopt(self, earlier: TreeSearch, moves: list[int]) -> int:
        """Takes over what ``earlier`` (a search of an earlier position of the same game,
        not yet searched here) learnt below the position that ``moves`` (kernel moves,
        :data:`PASS` for a pass) lead to from its root, which must be this search's root
        position: that subtree becomes this tree, its statistics and proven results
        kept. Returns the visits taken over (0 where ``earlier`` never reached the
        position, and nothing changes)."""
        assert self.iterations == 0 and self._used[0] == 1, "adopt before searching"
        node = 0
        for kernel_move in moves:
            if earlier.start[node] < 0:
                return 0
            first = int(earlier.start[node])
            children = range(first, first + int(earlier.width[node]))
            found = [child for child in children if int(earlier.move[child]) == kernel_move]
            if not found:
                return 0
            node = found[0]
        if earlier.start[node] < 0:
            return 0
        needed = int(earlier._used[0])
        self._allocate(max(self.start.shape[0], needed))  # run() grows it as it fills
        queue = np.empty(needed, dtype=np.int64)
        self._used[0] = copy_subtree(node, earlier._tree(), self._tree(), queue)
        return int(self.visits[0])

    def root_children(self) -> range:
        return range(int(self.start[0]), int(self.start[0] + self.width[0]))

    def root_colour(self) -> int:
        return int(self.mover[0])

    def mark_lost(self, actions: set[int]) -> None:
        """Marks the root moves played by ``actions`` as proven losses for the root's
        mover (proven by an exact solver before the search), unless every move is among
        them."""
        children = [child for child in self.root_children() if self.action(child) in actions]
        if len(children) >= len(self.root_children()):
            return
        for child in children:
            self.proven[child] = 1 - self.root_colour()

    def kernel_move(self, action: int) -> int | None:
        """The kernel move of the protocol ``action`` (``None``: not a move of play)."""
        if self._moves is None:
            self._moves = {known: move for move, known in self.actions.items()}
        return self._moves.get(action)

    def action(self, child: int) -> int:
        return self.actions[int(self.move[child])]

    def best_action(self) -> int:
        """A proven win if there is one; else the most visited move not proven lost
        (proven draws counted by their visits too); every move lost: the most visited."""
        colour = self.root_colour()
        children = list(self.root_children())
        for child in children:
            if self.proven[child] == colour:
                return self.action(child)
        open_ = [child for child in children if self.proven[child] != 1 - colour] or children
        best = max(open_, key=lambda child: (self.visits[child], self.totals[child]))
        return self.action(best)

    def root_value(self, seat: int) -> float | None:
        """The root's proven value for ``seat`` in [0, 1], or ``None`` while unproven."""
        result = int(self.proven[0])
        if result == UNKNOWN:
            return None
        if result == DRAW:
            return 0.5
        return 1.0 if self.seats[result] == seat else 0.0


NO_SCRIPT: Final = np.zeros(0, dtype=np.int64)
"""No scripted moves for a game's compiled ``playout``."""


def seed_of(rng: random.Random) -> int:
    """The seed of numba's generator for one compiled playout: one draw from ``rng``."""
    return rng.getrandbits(62)


def returns_of(outcome: int, seats: tuple[int, int]) -> list[float]:
    """The returns by seat of ``outcome`` (:data:`FIRST`, :data:`SECOND` or
    :data:`DRAW`), ``seats`` the seat playing each colour."""
    if outcome == DRAW:
        return [0.0, 0.0]
    return [1.0, -1.0] if seats[outcome] == 0 else [-1.0, 1.0]


def warm_up(search: TreeSearch) -> None:
    """Compiles (the first time on a machine) or loads a game's tree search, by running
    a few iterations of ``search``, and what carries a tree over to the next move
    (:meth:`TreeSearch.adopt`)."""
    search.run(64, 1.0, 0)
    successor = TreeSearch(
        search._search,
        search.root,
        search.params,
        search.actions,
        search.seats,
        max_moves=search._found.shape[0],
    )
    successor.adopt(search, [])
