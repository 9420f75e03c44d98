"""Stairs' learned evaluation (issue 56): the network's inputs, its three forward passes
(numpy, numba, JAX) against each other, a tiny training run, the search whose leaves it
values (``mcts:net=1``), ``stairgames train stairs`` refusing bad flags, the shipped
weights, and play that never imports JAX.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

import stairgames
from stairgames import cli
from stairgames.agents import make_agent
from stairgames.core import uct
from stairgames.core.errors import InvalidOptionError
from stairgames.games.stairs import rules
from stairgames.games.stairs.game import StairsState
from stairgames.games.stairs.research import endgame_kernel as ek
from stairgames.games.stairs.research.learn import kernel, net, selfplay, train
from tests.test_hooks import run_python

G = ek.endgame_constants()
P = kernel.SQUARES


def inputs_of(state: object) -> np.ndarray:
    assert isinstance(state, StairsState)
    x = np.empty(kernel.NUM_INPUTS, dtype=np.float32)
    kernel.features(ek.position_array(state.board, G), G, x)
    return x


def plane(x: np.ndarray, number: int) -> np.ndarray:
    return x[number * P : (number + 1) * P]


def square(name: str) -> int:
    return rules.square_index(ord(name[0]) - ord("a"), int(name[1]) - 1)


def test_the_inputs_of_the_opening_by_hand():
    """Every stack 1 high (the greatest height), light to move: 18 stacks of each colour
    at the greatest height, every piece movable; the king's graph of 6×6 has 110 edges,
    and light's 18 squares touch each of them once: 110 moves each."""
    state = stairgames.load("stairs").new_initial_state()
    assert isinstance(state, StairsState)
    x = inputs_of(state)
    light = {q for q, stack in enumerate(state.board.stacks) if stack == rules.LIGHT}
    assert {int(q) for q in np.flatnonzero(plane(x, 0))} == light
    assert plane(x, 1).sum() == 18 and not (plane(x, 0) * plane(x, 1)).any()
    for empty_plane in range(2, 11):
        assert plane(x, empty_plane).sum() == 0
    assert plane(x, 11).sum() == 18 and plane(x, 12).sum() == 18
    np.testing.assert_allclose(plane(x, 13), 0.1)
    g = x[kernel.GLOBALS :]
    np.testing.assert_allclose(g, [0.1, 0, 0, 110 / 16, 110 / 16, 0, 0, 0.1], rtol=1e-6)


def test_the_inputs_after_one_climb_by_hand():
    """d3-c4: light on light, 2 high on c4; dark to move sees the other colour alone at
    the greatest height, arrived there last, its own piece under it; d3 empty; the rest
    one below the greatest height."""
    state = stairgames.load("stairs").new_initial_state()
    state.apply_move("d3-c4")
    x = inputs_of(state)
    c4, d3 = square("c4"), square("d3")
    assert np.flatnonzero(plane(x, 1)).tolist() == [c4]
    assert plane(x, 0).sum() == 0
    assert np.flatnonzero(plane(x, 10)).tolist() == [c4] and plane(x, 9).sum() == 0
    assert np.flatnonzero(plane(x, 8)).tolist() == [d3]
    assert plane(x, 2).sum() == 18 and plane(x, 3).sum() == 16
    assert plane(x, 11).sum() == 18 and plane(x, 12).sum() == 16 and plane(x, 12)[c4] == 0
    assert plane(x, 13)[c4] == pytest.approx(0.2) and plane(x, 13)[d3] == 0
    g = x[kernel.GLOBALS :]
    assert g[0] == pytest.approx(0.2)
    assert (g[1], g[2], g[5]) == (0.0, 1.0, 0.0)
    assert g[6] == pytest.approx(1 / 36) and g[7] == pytest.approx(0.1)
    dark_moves = sum(1 for a in state.legal_actions() if "-" in state.action_to_string(a))
    assert g[3] == pytest.approx(dark_moves / 16)


def random_states(count: int, seed: int) -> list[StairsState]:
    game = stairgames.load("stairs", agreement=False)
    rng = random.Random(seed)
    found: list[StairsState] = []
    while len(found) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(found) < count:
            assert isinstance(state, StairsState)
            if rng.random() < 0.3:
                found.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return found


def symmetric_position(s: np.ndarray, symmetry: int) -> np.ndarray:
    """The position array ``s`` rotated or reflected by ``symmetry`` (0-7)."""
    moved = s.copy()
    images = ek.IMAGES[6, symmetry, :P]
    moved[ek.HEIGHTS + images] = s[ek.HEIGHTS : ek.HEIGHTS + P]
    moved[ek.PIECES + images] = s[ek.PIECES : ek.PIECES + P]
    ek.complete(moved, G)
    return moved


def test_the_inputs_follow_the_symmetries_of_the_board():
    """The inputs of a rotated or reflected position are the inputs moved as
    :func:`net.symmetric` moves them (what training's augmentation relies on)."""
    for state in random_states(6, 3):
        s = ek.position_array(state.board, G)
        x = np.empty(kernel.NUM_INPUTS, dtype=np.float32)
        kernel.features(s, G, x)
        for symmetry in range(8):
            moved = symmetric_position(s, symmetry)
            y = np.empty_like(x)
            kernel.features(moved, G, y)
            np.testing.assert_array_equal(y, net.symmetric(x[None], symmetry)[0])


def test_numpy_numba_and_jax_forward_passes_agree():
    rng = np.random.default_rng(5)
    w1, b1, w2, b2, w3, _ = net.initial(rng)
    weights = net.as_weights(
        [w1, rng.normal(0, 0.1, b1.shape), w2, rng.normal(0, 0.1, b2.shape), w3, [0.3]]
    )
    states = random_states(40, 7)
    inputs = np.array([inputs_of(state) for state in states])
    by_numpy = net.forward(weights, inputs)
    by_jax = train.forward(weights, inputs)
    by_numba = [
        kernel.mover_value(ek.position_array(state.board, G), G, weights) for state in states
    ]
    assert by_numpy.std() > 0.01  # the positions are told apart
    np.testing.assert_allclose(by_numba, by_numpy, atol=1e-5)
    np.testing.assert_allclose(by_jax, by_numpy, atol=1e-5)


def test_a_tiny_training_run_lowers_the_loss_on_its_data():
    positions = selfplay.play(4, seed=11, settings=selfplay.SelfPlay(iterations=50))
    assert len(positions) > 60 and ((positions.labels >= 0) & (positions.labels <= 1)).all()
    before = net.initial(np.random.default_rng(2))  # what train() starts from with seed 2
    weights, history = train.train(
        positions.inputs,
        positions.labels,
        seed=2,
        settings=train.Training(epochs=1, batch=16, learning_rate=3e-3),
    )
    assert len(history) == 1
    assert train.mean_loss(weights, positions.inputs, positions.labels) < train.mean_loss(
        before, positions.inputs, positions.labels
    )


def test_self_play_labels_each_position_by_its_mover_and_repeats_with_its_seed():
    first = selfplay.play(2, seed=4, settings=selfplay.SelfPlay(iterations=30))
    again = selfplay.play(2, seed=4, settings=selfplay.SelfPlay(iterations=30))
    np.testing.assert_array_equal(first.inputs, again.inputs)
    np.testing.assert_array_equal(first.labels, again.labels)
    assert first.proven.any() and not first.proven.all()
    assert set(first.labels[first.proven].tolist()) <= {0.0, 1.0}
    results_only = selfplay.play(
        2, seed=4, settings=selfplay.SelfPlay(iterations=30, search_share=0)
    )
    assert set(results_only.labels.tolist()) <= {0.0, 1.0}
    mixed = first.labels[~first.proven]
    assert ((mixed > 0) & (mixed < 1)).any()  # the search's values are in the labels


def winning_state(seed: int) -> StairsState:
    """A position of a random game where the colour to move has a move that ends the game
    won for it, and another that does not."""
    game = stairgames.load("stairs", agreement=False)
    rng = random.Random(seed)
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            assert isinstance(state, StairsState)
            seat = state.current_player()
            ends = []
            for action in state.legal_actions():
                child = state.clone()
                child.apply_action(action)
                ends.append(child.is_terminal() and child.returns()[seat] > 0)
            if any(ends) and not all(ends):
                return state
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("mix", [0.0, 0.5])
def test_the_valued_search_plays_a_legal_move_and_a_win_at_once(mix):
    game = stairgames.load("stairs", agreement=False)
    state = game.new_initial_state()
    player = make_agent(f"mcts:iterations=300,net=1,mix={mix}", 0, 1, game=game)
    assert player.step(state) in state.legal_actions()
    state = winning_state(3)
    seat = state.current_player()
    player = make_agent(f"mcts:iterations=2000,net=1,mix={mix},decisive=0", seat, 2, game=game)
    child = state.clone()
    child.apply_action(player.step(state))
    assert child.is_terminal() and child.returns()[seat] > 0


def test_net_1_is_refused_for_a_game_without_a_learned_evaluation():
    with pytest.raises(InvalidOptionError, match="no learned evaluation"):
        make_agent("mcts:net=1", 0, 1, game=stairgames.load("ishigaki_race"))


def test_the_valued_leaf_is_the_networks_value_for_light():
    """Light's value: the network's chance for the colour to move, turned round when dark
    moves."""
    weights = net.shipped()
    for state in random_states(8, 9):
        s = ek.position_array(state.board, G)
        mover = kernel.mover_value(s, G, weights)
        found = np.empty(ek.MAX_MOVES, dtype=np.int64)
        leaf = kernel.leaf_value(s.copy(), kernel.params(G, weights, 0.0), found)
        assert leaf == pytest.approx(mover if s[ek.TO_MOVE] == 0 else 1 - mover)


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (["--games", "0"], "--games must be 1 or more"),
        (["--epochs", "-1"], "--epochs must be 1 or more"),
        (["--iterations", "0"], "--iterations must be 1 or more"),
        (["--learning-rate", "0"], "--learning-rate must be above 0"),
        (["--held-out", "1"], "--held-out must be from 0"),
        (["--search-share", "1.5"], "--search-share must be from 0 to 1"),
        (["--out", "weights.txt"], "must name a .npz file"),
        (["--out", "no/such/folder/w.npz"], "no folder"),
    ],
)
def test_train_refuses_bad_flags_and_writes_nothing(flags, says, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["train", "stairs", "--games", "1", *flags]) == 2
    assert says in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_train_refuses_a_game_without_a_trainer(capsys):
    assert cli.main(["train", "ishigaki_race"]) == 2
    assert "has no trainer" in capsys.readouterr().err


def test_train_says_how_to_install_jax_when_it_is_missing(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "jax", None)
    out = tmp_path / "w.npz"
    assert cli.main(["train", "stairs", "--games", "1", "--out", str(out)]) == 2
    assert "pip install 'stairgames[train]'" in capsys.readouterr().err
    assert not out.exists()


def test_train_stairs_plays_trains_and_saves_weights_that_load(tmp_path, capsys):
    out = tmp_path / "w.npz"
    command = ["train", "stairs", "--games", "3", "--epochs", "1", "--iterations", "20"]
    assert cli.main([*command, "--out", str(out), "--seed", "5"]) == 0
    weights = net.load(out)
    about = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert about["games"] == 3 and about["epochs"] == 1 and about["seed"] == 5
    assert about["command"].startswith("stairgames train stairs --games 3")
    assert [w.shape for w in weights] == list(net.SHAPES)
    assert "Saved to" in capsys.readouterr().out


def test_the_shipped_weights_load_with_the_documented_shapes_and_record():
    weights = net.shipped()
    assert [w.shape for w in weights] == [(512, 128), (128,), (128, 64), (64,), (64,), (1,)]
    assert all(w.dtype == np.float32 for w in weights)
    assert sum(w.nbytes for w in weights) < 400_000
    about = net.shipped_about()
    assert about["features_version"] == net.FEATURES_VERSION
    for key in ("games", "epochs", "seed", "command", "date", "iterations"):
        assert key in about


def test_weights_of_other_shapes_or_inputs_are_refused(tmp_path):
    bad = tmp_path / "bad.npz"
    np.savez(bad, w1=np.zeros((3, 3)))
    with pytest.raises(InvalidOptionError):
        net.load(bad)
    good = tmp_path / "old.npz"
    net.save(good, net.shipped(), {})
    about = json.loads(good.with_suffix(".json").read_text(encoding="utf-8"))
    about["features_version"] = 0
    good.with_suffix(".json").write_text(json.dumps(about), encoding="utf-8")
    with pytest.raises(InvalidOptionError, match="version"):
        net.load(good)


def test_iterate_valued_backs_up_floats_for_the_chooser_of_each_node():
    path = np.array([0, 1, 2], dtype=np.int64)
    mover = np.array([0, 1, 0], dtype=np.int8)
    visits = np.zeros(3, dtype=np.float32)
    totals = np.zeros(3, dtype=np.float32)
    uct.back_up_value(path, 2, 0.75, mover, visits, totals)
    assert visits.tolist() == [1.0, 1.0, 1.0]
    assert totals.tolist() == [0.0, 0.75, 0.25]  # node 1 chosen by light, node 2 by dark


@pytest.mark.slow
def test_playing_and_serving_never_import_jax():
    loaded = run_python(
        """
        import sys
        import stairgames
        import stairgames.server.app
        from stairgames.agents import make_agent

        game = stairgames.load("stairs", agreement=False)
        state = game.new_initial_state()
        for spec in ("mcts:iterations=50,net=1", "hard"):
            make_agent(spec, 0, 1, game=game).step(state)
        print(sorted(m for m in sys.modules if m.partition(".")[0] in ("jax", "jaxlib")))
        """
    )
    assert loaded.strip() == "[]"


def test_the_shipped_file_is_package_data():
    text = (Path(__file__).parents[1] / "pyproject.toml").read_text(encoding="utf-8")
    assert '"**/*.npz"' in text
