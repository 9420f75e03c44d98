"""Stairs' learned move priors (issue 56): the policy head over the value network's
hidden layers, its compiled priors against numpy, the moves of the training's
symmetries, the policy targets of self-play, a tiny training run, the search guided by
PUCT (``mcts:net=1,policy=1``) and the flags that refuse it.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import stairgames
from stairgames import cli
from stairgames.agents import make_agent
from stairgames.core import uct
from stairgames.core.errors import InvalidOptionError
from stairgames.core.registry import player_hooks
from stairgames.games.stairs.game import StairsGame, StairsOptions
from stairgames.games.stairs.play import learned
from stairgames.games.stairs.research import endgame_kernel as ek
from stairgames.games.stairs.research.learn import kernel, net, priors, selfplay, train
from tests.test_stairs_learned import (
    inputs_of,
    random_states,
    symmetric_position,
    winning_state,
)

G = ek.endgame_constants()
P = kernel.SQUARES


def moves_of(s: np.ndarray) -> np.ndarray:
    found = np.empty(ek.MAX_MOVES, dtype=np.int64)
    count = ek.tree_moves(s, G, found)
    return found[: max(count, 0)].copy()


def random_policy(seed: int) -> kernel.PolicyWeights:
    rng = np.random.default_rng(seed)
    wp, _ = net.initial_policy(rng)
    return net.as_policy([wp * 30, rng.normal(0, 0.5, net.POLICY_SHAPES[1])])


def test_compiled_priors_agree_with_numpy_and_sum_to_one():
    weights, policy = net.shipped(), random_policy(3)
    for state in random_states(12, 4):
        s = ek.position_array(state.board, G)
        moves = moves_of(s)
        if len(moves) < 2:
            continue
        prior = np.zeros(len(moves) + 5, dtype=np.float32)
        value = priors.guided_evaluate(s, (G, weights, policy), moves, len(moves), prior, 5)
        expected = net.move_shares(weights, policy, inputs_of(state), moves)
        np.testing.assert_allclose(prior[5:], expected, atol=1e-5)
        assert prior[:5].tolist() == [0.0] * 5  # nothing before ``first``
        assert prior[5:].sum() == pytest.approx(1.0, abs=1e-5)
        assert expected.std() > 0  # the moves are told apart
        mover = kernel.mover_value(s, G, weights)
        assert value == pytest.approx(mover if s[ek.TO_MOVE] == 0 else 1 - mover)


def test_no_priors_are_written_for_no_moves():
    s = ek.position_array(StairsGame(StairsOptions()).new_initial_state().board, G)
    prior = np.full(3, 7.0, dtype=np.float32)
    priors.guided_evaluate(s, (G, net.shipped(), random_policy(1)), moves_of(s), 0, prior, 0)
    assert prior.tolist() == [7.0, 7.0, 7.0]


def test_the_moves_follow_the_symmetries_as_the_inputs_do():
    """A position's moves seen through a symmetry are the moves of the position seen
    through it (training moves the targets' squares as it moves the inputs')."""
    for state in random_states(6, 5):
        s = ek.position_array(state.board, G)
        moves = moves_of(s)
        for symmetry in range(8):
            moved = symmetric_position(s, symmetry)
            mapped = train.symmetric_moves(moves.astype(np.int16)[None], symmetry)[0]
            assert sorted(mapped.tolist()) == sorted(moves_of(moved).tolist())
    assert train.symmetric_moves(np.array([[-1, 5]], dtype=np.int16), 0).tolist() == [[-1, 5]]


def test_self_play_keeps_a_target_of_legal_moves_summing_to_one():
    positions = selfplay.play(3, seed=6, settings=selfplay.SelfPlay(iterations=60))
    assert positions.moves.shape == positions.shares.shape
    assert positions.moves.shape[0] == len(positions)
    targeted = positions.moves[:, 0] >= 0
    assert targeted.any() and not targeted.all()  # the random opening has none
    sums = positions.shares.sum(axis=1)
    np.testing.assert_allclose(sums[targeted], 1.0, atol=1e-5)
    assert (sums[~targeted] == 0).all()
    assert ((positions.shares > 0) <= (positions.moves >= 0)).all()
    one_hot = (positions.moves >= 0).sum(axis=1) == 1
    assert (one_hot & targeted).any()  # a proven win, alone


def test_a_tiny_policy_training_run_lowers_its_loss():
    positions = selfplay.play(4, seed=11, settings=selfplay.SelfPlay(iterations=50))
    rows = positions.moves[:, 0] >= 0
    targets = (positions.inputs[rows], positions.moves[rows], positions.shares[rows])
    policy, history = train.train_policy(
        net.shipped(),
        targets,
        seed=2,
        settings=train.Training(epochs=6, batch=16, learning_rate=1e-3),
        held_out=targets,
    )
    assert [epoch.number for epoch in history] == [1, 2, 3, 4, 5, 6]
    jax = train.require_jax()
    start = net.initial_policy(np.random.default_rng(2))  # what train_policy starts from
    before, _ = train.policy_cross_entropy(
        jax, net.shipped(), start, targets[0], targets[1].astype(np.int32), targets[2]
    )
    assert history[-1].held_out_loss is not None
    assert history[-1].held_out_loss < float(before) - 0.02
    assert history[-1].held_out_top is not None and history[-1].held_out_top > 0
    assert [a.shape for a in policy] == list(net.POLICY_SHAPES)


def test_train_policy_saves_a_head_that_loads_and_a_record(tmp_path, capsys):
    out = tmp_path / "p.npz"
    kept = tmp_path / "positions.npz"
    command = ["train", "stairs", "--games", "3", "--epochs", "1", "--iterations", "20"]
    flags = ["--policy", "shipped", "--positions", str(kept), "--out", str(out)]
    assert cli.main([*command, *flags]) == 0
    positions = selfplay.load(kept)
    assert len(positions) > 0 and positions.moves.shape[0] == len(positions)
    said = capsys.readouterr().out
    assert f"({len(positions)} positions)" in said
    assert cli.main([*command, "--seed", "9", *flags]) == 0  # the kept ones, not new games
    assert f"({len(positions)} positions)" in capsys.readouterr().out
    np.testing.assert_array_equal(selfplay.load(kept).inputs, positions.inputs)
    policy = net.load_policy(out)
    assert [a.shape for a in policy] == list(net.POLICY_SHAPES)
    about = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert about["policy_of"] == "shipped" and about["games"] == 3
    with pytest.raises(InvalidOptionError):
        net.load(out)  # a head is not a value network


def test_the_shipped_policy_loads_small_with_its_record():
    policy = net.shipped_policy()
    assert [a.shape for a in policy] == [(512 + 128 + 64, 72), (72,)]
    assert sum(a.nbytes for a in policy) < 300_000
    about = json.loads((Path(net.__file__).parent / "policy.json").read_text(encoding="utf-8"))
    assert about["policy_of"] == "shipped" and about["features_version"] == net.FEATURES_VERSION


def test_the_guided_search_keeps_priors_per_child_and_visits_by_them():
    state = StairsGame(StairsOptions()).new_initial_state()
    search = learned.policy_tree_search(state)
    assert search is not None
    search.run(3000, 0.7, 1)
    children = list(search.root_children())
    priors = np.array([search.prior[c] for c in children])
    assert priors.sum() == pytest.approx(1.0, abs=1e-4)
    visits = np.array([search.visits[c] for c in children])
    assert visits.sum() == search.iterations  # each reaches a new child or a proven one
    assert int(search.visits[0]) == search.iterations


def test_the_guided_search_carries_its_priors_over_with_the_tree():
    state = StairsGame(StairsOptions()).new_initial_state()
    search = learned.policy_tree_search(state)
    assert search is not None
    search.run(2000, 0.7, 1)
    child = max(search.root_children(), key=lambda c: search.visits[c])
    move = int(search.move[child])
    after = state.clone()
    after.apply_action(search.actions[move])
    successor = learned.policy_tree_search(after)
    assert successor is not None
    assert successor.adopt(search, [move]) == int(search.visits[child])
    first = int(search.start[child])
    expected = [search.prior[c] for c in range(first, first + int(search.width[child]))]
    assert [successor.prior[c] for c in successor.root_children()] == expected


def test_the_guided_search_plays_a_win_at_once():
    state = winning_state(3)
    seat = state.current_player()
    game = state.get_game()
    player = make_agent("mcts:iterations=2000,net=1,policy=1,decisive=0", seat, 2, game=game)
    child = state.clone()
    child.apply_action(player.step(state))
    assert child.is_terminal() and child.returns()[seat] > 0


def test_pucts_choice_weighs_value_prior_and_visits():
    """A visited child of mean 0.6 against an unvisited one (valued as its visited
    siblings' mean) with more prior; a proven win is chosen at once, a proven loss
    never while another remains."""
    start = np.array([1, -1, -1, -1], dtype=np.int32)
    width = np.array([3, 0, 0, 0], dtype=np.int32)
    mover = np.zeros(4, dtype=np.int8)
    proven = np.full(4, uct.UNKNOWN, dtype=np.int8)
    visits = np.array([10, 9, 1, 0], dtype=np.float32)
    totals = np.array([0, 5.4, 0.1, 0], dtype=np.float32)
    prior = np.array([0, 0.1, 0.1, 0.8], dtype=np.float32)
    pick = uct.select_guided(0, 1.0, start, width, proven, visits, totals, prior, mover)
    assert pick == 3  # 0.55 + 0.8·√10 beats 0.6 + 0.1·√10/10
    assert uct.select_guided(0, 0.0, start, width, proven, visits, totals, prior, mover) == 1
    proven[2] = 0
    assert uct.select_guided(0, 1.0, start, width, proven, visits, totals, prior, mover) == 2
    proven[2] = uct.UNKNOWN
    proven[3] = 1
    assert uct.select_guided(0, 1.0, start, width, proven, visits, totals, prior, mover) != 3


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("mcts:policy=1", "needs net=1"),
        ("mcts:net=1,mix=0.5,policy=1", "needs net=1 and no mix"),
    ],
)
def test_policy_needs_net_and_no_mix(spec, says):
    with pytest.raises(InvalidOptionError, match=says):
        make_agent(spec, 0, 1, game=stairgames.load("stairs"))


def test_policy_is_refused_for_a_game_without_a_learned_policy():
    with pytest.raises(InvalidOptionError, match="no learned"):
        make_agent("mcts:net=1,policy=1", 0, 1, game=stairgames.load("twenty_seven"))


def test_the_player_describes_its_policy():
    player = make_agent("mcts:time=0.1,net=1,policy=1", 0, 1, game=stairgames.load("stairs"))
    assert "policy=1" in player.describe()


def test_only_players_with_priors_warm_the_guided_search():
    """The guided search is compiled apart (``priors.KERNEL``): ``policy=1`` players
    (Stairs' ``hard`` and ``expert`` among them) warm it, ``net=1`` alone and ``medium``
    do not, so that their first start compiles no more than it needs."""
    game = stairgames.load("stairs")
    hooks = player_hooks("stairs")
    for spec in ("mcts:time=0.1,net=1,policy=1", "hard", "expert"):
        assert hooks.policy_warm_up in make_agent(spec, 0, 1, game=game).warm_ups(game)
    for spec in ("mcts:time=0.1,net=1", "medium"):
        assert hooks.policy_warm_up not in make_agent(spec, 0, 1, game=game).warm_ups(game)
    assert priors.KERNEL is not kernel.KERNEL
