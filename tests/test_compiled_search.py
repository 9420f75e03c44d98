"""The compiled tree search of Stairs and 27 (:mod:`stairgames.core.uct`, the games'
``tree_search`` hooks) against the rules, the exact solvers and the protocol search."""

from __future__ import annotations

import random

import numpy as np
import pytest

import stairgames
from stairgames.agents import MctsAgent, make_agent
from stairgames.core import uct
from stairgames.core.game import State
from stairgames.core.registry import player_hooks
from stairgames.games.stairs.research import endgame as stairs_solve
from stairgames.games.twenty_seven.research import endgame as line_solve
from tests.test_agents import FORCED_WINS

GAMES = [
    ("stairs", {"agreement": False}),
    ("stairs", {"agreement": False, "pie_rule": True}),
    ("twenty_seven", {"variant": "basic"}),
    ("twenty_seven", {"variant": "advanced"}),
    ("twenty_seven", {"variant": "expert"}),
]


def random_position(name: str, options: dict[str, object], seed: int, plies: int) -> State:
    state = stairgames.load(name, **options).new_initial_state()
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def tree_search(state: State) -> uct.TreeSearch | None:
    make = player_hooks(state.get_game().name).tree_search
    assert make is not None
    return make(state)


def children(search: uct.TreeSearch) -> list[int]:
    return list(search.root_children())


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_the_root_of_the_compiled_search_offers_the_rules_moves(name, options):
    """Along random games, the root's children are the protocol's legal actions (a
    pass where the rules force one), one child each."""
    checked = 0
    for seed in range(12):
        for plies in range(0, 60, 4):
            state = random_position(name, options, seed, plies)
            if state.is_terminal():
                break
            search = tree_search(state)
            if search is None:  # the pie rule's first two turns
                assert options.get("pie_rule") and plies <= 1
                continue
            search.expand_root(seed)
            actions = [search.action(child) for child in children(search)]
            assert sorted(actions) == sorted(state.legal_actions())
            assert search.seats[search.root_colour()] == state.current_player()
            checked += 1
    assert checked > 30


def proven_value(state: State, solver: object, seat: int) -> float | None:
    """The value for ``seat`` under perfect play by the exact solver, in [0, 1]."""
    solved = solver.solve(state, nodes=2_000_000)  # type: ignore[attr-defined]
    if solved is None:
        return None
    returns, _ = solved
    info = state.get_game().info()
    return float((returns[seat] - info.min_utility) / (info.max_utility - info.min_utility))


@pytest.mark.parametrize(
    ("name", "options", "make_solver", "plies"),
    [
        ("stairs", {"agreement": False}, stairs_solve.EndgameSolver, 20),
        ("twenty_seven", {"variant": "basic"}, line_solve.EndgameSolver, 12),
        ("twenty_seven", {"variant": "expert"}, line_solve.EndgameSolver, 12),
    ],
)
@pytest.mark.slow
def test_the_compiled_search_proves_the_values_the_exact_solver_proves(
    name, options, make_solver, plies
):
    """MCTS-Solver in the compiled tree: run to a proof on late positions of random
    games, the root's value is the exact solver's, and a proven win is played."""
    proven = 0
    for seed in range(10):
        state = random_position(name, options, seed, plies)
        if state.is_terminal():
            continue
        search = tree_search(state)
        assert search is not None
        for _ in range(400):
            if search.run(500, 1.0, seed) < 500:
                break
        seat = state.current_player()
        value = search.root_value(seat)
        if value is None:
            continue
        assert value == proven_value(state, make_solver(), seat)
        child = state.clone()
        child.apply_action(search.best_action())
        assert proven_value(child, make_solver(), seat) == value
        proven += 1
    assert proven >= 5


@pytest.mark.parametrize(("name", "options"), GAMES[:3])
def test_every_visit_of_a_node_but_its_first_goes_on_to_one_child(name, options):
    """Backup: the root's children share its visits; any other expanded node, unproven,
    has one visit more than its children together (its first ended in a playout)."""
    state = random_position(name, options, 1, 6)
    search = tree_search(state)
    assert search is not None
    assert search.run(3000, 1.0, 7) == 3000
    assert search.visits[0] == 3000
    used = int(search._used[0])
    for node in range(used):
        first, width = int(search.start[node]), int(search.width[node])
        if first < 0 or search.proven[node] != uct.UNKNOWN:
            continue
        below = float(search.visits[first : first + width].sum())
        assert below == search.visits[node] - (0 if node == 0 else 1)
        assert np.all(search.totals[first : first + width] <= search.visits[first : first + width])


@pytest.mark.parametrize(("position", "wins"), FORCED_WINS)
def test_mcts_finds_the_forced_win_in_the_compiled_search(position, wins):
    state = stairgames.load("stairs").state_from_position(position)
    for seed in range(3):
        agent = MctsAgent(state.current_player(), seed=seed, time_limit=None, iterations=3000)
        assert state.action_to_string(agent.act(state)) in wins
        assert agent.last_compiled or agent.last_iterations == 0


@pytest.mark.parametrize("name", ["stairs", "twenty_seven"])
def test_mcts_on_the_compiled_search_repeats_with_a_seed_and_an_iteration_budget(name):
    state = random_position(name, {}, 3, 5)
    chosen = set()
    for _ in range(2):
        agent = make_agent("mcts:iterations=2000", state.current_player(), seed=11)
        chosen.add(agent.act(state))
        assert isinstance(agent, MctsAgent) and agent.last_compiled
        assert agent.last_iterations == 2000
    assert len(chosen) == 1


def test_mcts_on_a_time_budget_searches_in_chunks_until_the_time_is_spent():
    state = random_position("twenty_seven", {}, 2, 3)
    agent = make_agent("mcts:time=0.05", state.current_player(), seed=1)
    agent.act(state)  # prepared (compiled code warmed) outside the clock
    assert isinstance(agent, MctsAgent) and agent.last_compiled
    assert agent.last_iterations > 500


def test_moves_marked_lost_are_never_chosen_while_another_remains():
    state = random_position("stairs", {"agreement": False}, 4, 10)
    search = tree_search(state)
    assert search is not None
    search.expand_root(0)
    actions = {search.action(child) for child in children(search)}
    keep = min(actions)
    search.mark_lost(actions - {keep})
    search.run(200, 1.0, 1)
    assert search.best_action() == keep
    everything = tree_search(state)
    assert everything is not None
    everything.expand_root(0)
    everything.mark_lost(actions)  # all lost: nothing is marked
    assert all(everything.proven[child] == uct.UNKNOWN for child in children(everything))


def test_the_pie_rules_first_turns_are_searched_through_the_protocol():
    game = stairgames.load("stairs", pie_rule=True)
    state = game.new_initial_state()
    first = make_agent("mcts:iterations=50", 0, seed=1)
    state.apply_action(first.act(state))
    second = make_agent("mcts:iterations=50", 1, seed=2)
    action = second.act(state)
    assert isinstance(second, MctsAgent) and not second.last_compiled
    assert state.is_legal(action)


def test_growing_the_arrays_keeps_the_tree(monkeypatch):
    """A search that starts small and doubles its arrays between calls grows the same
    tree as one that had room from the start (same seeds, same calls)."""
    state = random_position("stairs", {"agreement": False}, 5, 4)
    big = tree_search(state)
    monkeypatch.setattr(uct, "INITIAL_NODES", 1 << 12)
    small = tree_search(state)
    assert big is not None and small is not None
    assert small.start.shape[0] < big.start.shape[0]
    for chunk in range(40):
        big.run(10, 1.0, chunk)
        small.run(10, 1.0, chunk)
    used = int(big._used[0])  # the tree's size
    assert small.start.shape[0] > 1 << 12 and used == int(small._used[0])
    for mine, theirs in zip(small._arrays(), big._arrays(), strict=True):
        assert np.array_equal(mine[:used], theirs[:used])


def subtree(search: uct.TreeSearch, node: int) -> list[tuple[int, int, int, float, float]]:
    """The subtree of ``node`` breadth first: (move, mover, proven, visits, totals)
    per node, the children of each in their order."""
    order, rows = [node], []
    while order:
        here = order.pop(0)
        rows.append(
            (
                int(search.move[here]),
                int(search.mover[here]) if search.start[here] >= 0 else -1,
                int(search.proven[here]),
                float(search.visits[here]),
                float(search.totals[here]),
            )
        )
        if search.start[here] >= 0:
            first = int(search.start[here])
            order.extend(range(first, first + int(search.width[here])))
    return rows


@pytest.mark.parametrize(("name", "options"), [GAMES[0], GAMES[2]])
def test_a_search_takes_over_the_subtree_of_the_position_reached(name, options):
    """``adopt``: the subtree below the two moves played becomes the new tree, node for
    node (moves, proven results, visits, values), and searching goes on from it."""
    state = random_position(name, options, 6, 6)
    earlier = tree_search(state)
    assert earlier is not None
    earlier.run(20000, 0.7, 3)
    ours = earlier.best_action()
    ours_child = next(c for c in children(earlier) if earlier.action(c) == ours)
    first = int(earlier.start[ours_child])
    replies = range(first, first + int(earlier.width[ours_child]))
    reply_node = max(replies, key=lambda node: earlier.visits[node])
    state.apply_action(ours)
    reply = earlier.action(reply_node)
    state.apply_action(reply)
    later = tree_search(state)
    assert later is not None
    moves = [int(earlier.move[ours_child]), int(earlier.move[reply_node])]
    taken = later.adopt(earlier, moves)
    assert taken == earlier.visits[reply_node] > 10
    assert subtree(later, 0)[1:] == subtree(earlier, reply_node)[1:]
    assert sorted(later.action(c) for c in children(later)) == sorted(state.legal_actions())
    later.run(500, 0.7, 4)
    assert later.visits[0] == taken + 500 or later.proven[0] != uct.UNKNOWN


def test_a_search_takes_over_nothing_from_a_position_it_never_reached():
    state = random_position("stairs", {"agreement": False}, 7, 4)
    earlier = tree_search(state)
    assert earlier is not None
    earlier.run(50, 1.0, 0)
    later = tree_search(state)
    assert later is not None
    missing = max(int(earlier.move[c]) for c in children(earlier)) + 1
    assert later.adopt(earlier, [missing]) == 0
    assert int(later._used[0]) == 1 and later.start[0] < 0


def test_mcts_with_reuse_carries_its_tree_over_and_forgets_it_on_restart():
    """``reuse=1``: the next move's search starts from the visits the last one gave the
    position reached; a restart (a new game) starts afresh; ``reuse=0`` never carries."""
    game = stairgames.load("stairs", agreement=False)
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(10):
        state.apply_action(rng.choice(state.legal_actions()))
    mover = state.current_player()
    keeps = make_agent("mcts:iterations=20000,c=0.35,reuse=1", mover, seed=3, game=game)
    fresh = make_agent("mcts:iterations=20000,c=0.35", mover, seed=3, game=game)
    assert isinstance(keeps, MctsAgent) and isinstance(fresh, MctsAgent)
    first = keeps.act(state)
    assert fresh.act(state) == first and keeps.last_reused == 0
    state.apply_action(first)
    state.apply_action(rng.choice(state.legal_actions()))
    keeps.act(state)
    fresh.act(state)
    assert keeps.last_reused > 0 and fresh.last_reused == 0
    keeps.restart()
    keeps.act(state)
    assert keeps.last_reused == 0
    assert "reuse=1" in keeps.describe()
