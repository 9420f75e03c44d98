"""The guided playouts of Stairs: their move features, their draws, their games, the fit
of their policy, and ``mcts:guided=1``.

The features are checked against the same counts made from the rules' board (so the
compiled code says what its documentation says), the draws against the policy's
probabilities, a guided playout against the rules (it ends where no colour can move,
with S5's winner, every piece still on the board), and the fit against a planted
preference it has to find.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import stairgames
from stairgames.agents import MctsAgent, make_agent
from stairgames.agents.determinise import Determiniser
from stairgames.core import uct
from stairgames.games.stairs import rules
from stairgames.games.stairs.game import StairsState
from stairgames.games.stairs.notation import PASS
from stairgames.games.stairs.play import playout as stairs_playout
from stairgames.games.stairs.research import endgame_kernel as kernel
from stairgames.games.stairs.research import policy

CONSTANTS = stairs_playout.CONSTANTS


def random_positions(count: int, seed: int) -> list[StairsState]:
    """Positions of random games (the colour to move has two moves or more)."""
    game = stairgames.load("stairs", agreement=False)
    rng = random.Random(seed)
    found: list[StairsState] = []
    while len(found) < count:
        state = game.new_initial_state()
        assert isinstance(state, StairsState)
        while not state.is_terminal():
            legal = state.legal_actions()
            if len(legal) > 1 and rng.random() < 0.2:
                found.append(state.clone())
            state.apply_action(rng.choice(legal))
    return found[:count]


def features_by_the_rules(state: StairsState, action: int) -> list[int]:
    """:func:`kernel.move_features` counted on the rules' board."""
    board = state.board
    stacks = board.stacks
    move = rules.step_move(action)
    mover = board.to_move
    other = rules.opponent(mover)
    height = len(stacks[move.source])

    def around(square: int) -> list[int]:
        return [q for q in rules.NEIGHBOURS[square] if q >= 0]

    def peers(square: int, level: int, colour: str | None = None) -> int:
        return sum(
            len(stacks[q]) == level and (colour is None or stacks[q][-1] == colour)
            for q in around(square)
        )

    left = stacks[move.source][-2] if height > 1 else None
    return [
        int(stacks[move.target][-1] == other),
        0 if left is None else (1 if left == other else -1),
        peers(move.target, height + 1),
        peers(move.target, height + 1, mover),
        peers(move.source, height - 1) if height > 1 else 0,
        peers(move.source, height - 1, other) if height > 1 else 0,
        int(len(around(move.target)) < 8),
        int(len(around(move.target)) == 3),
    ]


def test_the_move_features_count_what_they_say_on_the_rules_board():
    checked = 0
    for state in random_positions(150, seed=3):
        for action in state.legal_actions():
            if action == PASS:
                continue
            move = state.action_to_string(action)
            compiled = policy.feature_rows(state, [move])[0]
            assert list(compiled) == features_by_the_rules(state, action), move
            checked += 1
    assert checked > 1000


def test_the_solver_tries_the_fewest_replies_first_and_breaks_ties_by_the_policy():
    """``order_moves``: moves leaving the other colour fewer replies first; among those,
    the moves the policy scores higher (``500 - 100 · score``, clamped to [0, 1000]),
    counted here on the rules' board."""
    keys, proven = kernel.table(10, 2)  # empty: nothing proven, so no move is looked up
    for state in random_positions(60, seed=11):
        s = kernel.position_array(state.board, CONSTANTS)
        found = np.array(
            sorted(kernel.kernel_move(a) for a in state.legal_actions()), dtype=np.int64
        )
        scores = np.empty(len(found), dtype=np.int64)
        assert kernel.order_moves(s, CONSTANTS, keys, proven, found, scores, len(found)) == -1
        action_of = {kernel.kernel_move(a): a for a in state.legal_actions()}
        keys_in_order = []
        for move in found:
            child = state.clone()
            child.apply_action(action_of[int(move)])
            replies = (
                0 if child.is_terminal() else len([a for a in child.legal_actions() if a != PASS])
            )
            score = float(np.dot(kernel.POLICY, features_by_the_rules(state, action_of[int(move)])))
            rank = int(max(0.0, min(1000.0, 500.0 - 100.0 * score)))
            keys_in_order.append((replies, rank, int(move)))
        assert keys_in_order == sorted(keys_in_order)


def test_a_guided_draw_follows_the_policys_probabilities():
    """2,000 seeded draws from a position: each move's share within five standard
    errors of ``exp(POLICY · features)`` normalised, and the policy far from uniform."""
    state = random_positions(40, seed=5)[-1]
    moves = [state.action_to_string(a) for a in state.legal_actions()]
    expected = np.exp(policy.feature_rows(state, moves) @ kernel.POLICY)
    expected /= expected.sum()
    assert expected.max() > 2 * expected.min()
    s = stairs_playout.position_array(state.board)
    found = np.array([kernel.kernel_move(state.string_to_action(m)) for m in moves])
    weights = np.empty(len(moves))
    features = np.empty(kernel.NUM_FEATURES, dtype=np.int64)
    draws = 2000
    uct.seed(11)
    counts = np.zeros(len(moves))
    for _ in range(draws):
        counts[kernel.guided_move(s, CONSTANTS, found, len(moves), weights, features)] += 1
    error = np.sqrt(expected * (1 - expected) / draws)
    assert np.all(np.abs(counts / draws - expected) <= 5 * error + 1e-9)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_guided_playout_ends_where_the_rules_end_a_game_with_their_winner(seed):
    uct.seed(seed)
    for state in random_positions(30, seed=seed):
        s = stairs_playout.position_array(state.board)
        found = np.empty(kernel.MAX_MOVES, dtype=np.int64)
        won = kernel.guided_rollout(s, CONSTANTS, found)
        assert kernel.tree_moves(s, CONSTANTS, found) == -1  # S4: neither colour can move
        assert won == kernel.winner(s)  # S5
        assert int(s[kernel.HEIGHTS : kernel.HEIGHTS + rules.NUM_SQUARES].sum()) == 36


def test_the_fit_finds_a_planted_preference_and_puts_more_on_the_winning_moves():
    """Positions where the winning moves are those covering a stack (feature 0), with
    the other features drawn at random: the fitted weight of feature 0 is the largest,
    and the fitted policy draws the winning moves more often than uniform play."""
    rng = np.random.default_rng(0)
    rows = []
    for _ in range(200):
        features = rng.integers(0, 4, size=(6, kernel.NUM_FEATURES)).astype(float)
        features[:, 0] = 0.0
        features[rng.choice(6, size=2, replace=False), 0] = 1.0
        rows.append((features, features[:, 0].copy()))
    weights = policy.fit(rows, steps=100)
    assert int(np.argmax(weights)) == 0
    uniform = np.zeros(kernel.NUM_FEATURES)
    assert policy.winning_mass(weights, rows) > policy.winning_mass(uniform, rows) + 0.3


def test_labels_are_the_solvers_and_the_informative_positions_have_both():
    late = random_positions(400, seed=9)
    state = next(s for s in late if s.board.max_height() >= 4 and len(s.legal_actions()) > 1)
    winning = policy.label(state, nodes=2_000_000)
    assert winning is not None and set(winning) == {
        state.action_to_string(a) for a in state.legal_actions()
    }
    position = policy.LabelledPosition((), winning)
    assert position.informative() == (len(set(winning.values())) == 2)


@pytest.mark.slow
def test_mcts_guided_searches_stairs_with_the_guided_playouts_and_says_so():
    game = stairgames.load("stairs", agreement=False)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    mover = state.current_player()
    guided = make_agent("mcts:iterations=300,guided=1", mover, seed=1, game=game)
    uniform = make_agent("mcts:iterations=300", mover, seed=1, game=game)
    assert isinstance(guided, MctsAgent) and isinstance(uniform, MctsAgent)
    assert "guided=1" in guided.describe() and "guided" not in uniform.describe()
    worlds = Determiniser(state, mover)
    search = guided._compiled_search(state, worlds)
    assert search is not None and search._search is kernel.guided_tree_search
    plain = uniform._compiled_search(state, worlds)
    assert plain is not None and plain._search is kernel.tree_search
    assert guided.act(state) in state.legal_actions()


def test_mcts_guided_plays_the_uniform_search_where_a_game_has_no_policy():
    game = stairgames.load("twenty_seven")
    state = game.new_initial_state()
    player = make_agent("mcts:iterations=200,guided=1", 0, seed=1, game=game)
    assert isinstance(player, MctsAgent)
    search = player._compiled_search(state, Determiniser(state, 0))
    assert search is not None and search._search is not kernel.guided_tree_search
    assert player.act(state) in state.legal_actions()
