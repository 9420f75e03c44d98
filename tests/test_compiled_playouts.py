"""The compiled random playouts of Stairs and 27 against the reference rules.

On many random games through the protocol: at every position the compiled move
generation offers exactly the moves the protocol offers, and a compiled playout fed
the moves the protocol game went on to play (a script) ends with the protocol
game's result. The random part of a compiled playout is checked in distribution
against random play, and the hooks that players use are the compiled ones.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import stairgames
from stairgames.agents.evaluation import find_playout
from stairgames.core.game import State
from stairgames.games.stairs.game import StairsState
from stairgames.games.stairs.notation import PASS as STAIRS_PASS
from stairgames.games.stairs.notation import SWAP
from stairgames.games.stairs.notation import decode_move as stairs_decode
from stairgames.games.stairs.play import evaluate as stairs_evaluate
from stairgames.games.stairs.play import playout as stairs_playout
from stairgames.games.stairs.research import endgame_kernel as stairs_kernel
from stairgames.games.twenty_seven.game import TwentySevenState
from stairgames.games.twenty_seven.notation import MAX_COUNT
from stairgames.games.twenty_seven.notation import PASS as LINE_PASS
from stairgames.games.twenty_seven.play import evaluate as line_evaluate
from stairgames.games.twenty_seven.play import playout as line_playout
from stairgames.games.twenty_seven.research import endgame_kernel as line_kernel

GAMES = 120
CONSTANTS = stairs_playout.CONSTANTS
"""The 6×6 board's constants for the compiled Stairs engine."""
VARIANTS = ("basic", "advanced", "expert")


def random_game(state: State, rng: random.Random) -> tuple[list[State], list[int]]:
    """The states of a random game through the protocol from ``state`` to the end,
    and the actions between them."""
    states, actions = [state.clone()], []
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        states.append(state.clone())
        actions.append(action)
    return states, actions


# ----- Stairs ----------------------------------------------------------------------


def stairs_compiled_move(action: int) -> int:
    """A protocol move action as the kernel writes the move (``source * 64 + target``)."""
    move = stairs_decode(action)
    assert move is not None
    return move.source * 64 + move.target


def stairs_offered(state: StairsState) -> list[int]:
    """The moves the kernel offers in ``state``, sorted."""
    s = stairs_playout.position_array(state.board)
    found = np.empty(stairs_kernel.MAX_MOVES, dtype=np.int64)
    count = stairs_kernel.moves(s, CONSTANTS, int(s[stairs_kernel.TO_MOVE]), found)
    return sorted(int(move) for move in found[:count])


def stairs_compiled_returns(state: StairsState, script: list[int], seed: int = 0) -> list[float]:
    """The returns of a compiled playout of ``state`` that first plays ``script``."""
    s = stairs_playout.position_array(state.board)
    found = np.empty(stairs_kernel.MAX_MOVES, dtype=np.int64)
    won = stairs_kernel.playout(s, CONSTANTS, seed, np.array(script, dtype=np.int64), found)
    assert won in (0, 1), "a scripted move was not offered"
    winner = state.seat_of("L" if won == 0 else "D")
    return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]


@pytest.mark.parametrize("options", [{"agreement": False}, {"pie_rule": True, "agreement": False}])
def test_stairs_kernel_offers_the_moves_and_ends_scripted_games_as_the_rules_do(options):
    game = stairgames.load("stairs", **options)
    rng = random.Random(1)
    positions = 0
    for _ in range(GAMES):
        states, actions = random_game(game.new_initial_state(), rng)
        moves = [stairs_compiled_move(a) if a < STAIRS_PASS else -1 for a in actions]
        final = states[-1].returns()
        for index, state in enumerate(states[:-1]):
            assert isinstance(state, StairsState)
            legal = state.legal_actions()
            if legal == [STAIRS_PASS] or SWAP in legal:
                continue  # a pass (the kernel plays it unasked) or the pie rule's choice
            assert stairs_offered(state) == sorted(stairs_compiled_move(a) for a in legal)
            positions += 1
            settled = index >= 2 or not options.get("pie_rule")  # no swap to come
            if settled and index % 7 in (0, 2):  # the opening and positions along the game
                script = [move for move in moves[index:] if move >= 0]
                assert stairs_compiled_returns(state, script) == final
    assert positions > 20 * GAMES


def test_stairs_compiled_playout_refuses_a_scripted_move_the_rules_do_not_offer():
    state = stairgames.load("stairs").new_initial_state()
    assert isinstance(state, StairsState)
    offered = stairs_offered(state)
    s = stairs_playout.position_array(state.board)
    found = np.empty(stairs_kernel.MAX_MOVES, dtype=np.int64)
    first = np.array([offered[0]], dtype=np.int64)
    assert stairs_kernel.playout(s.copy(), CONSTANTS, 0, first, found) in (0, 1)
    not_offered = next(move for move in range(64 * 36) if move not in offered)
    refused = np.array([not_offered], dtype=np.int64)
    assert stairs_kernel.playout(s, CONSTANTS, 0, refused, found) == -1


@pytest.mark.slow
def test_stairs_compiled_playout_wins_as_often_as_the_rules_random_play():
    """From a position after six random moves, light's share of 3000 compiled playouts
    lies within four standard errors of its share of 3000 reference playouts."""
    state = stairgames.load("stairs", agreement=False).new_initial_state()
    rng = random.Random(7)
    for _ in range(6):
        state.apply_action(rng.choice(state.legal_actions()))
    games = 3000
    compiled = sum(stairs_playout.playout(state, rng)[0] > 0 for _ in range(games)) / games
    reference = (
        sum(random_game(state.clone(), rng)[0][-1].returns()[0] > 0 for _ in range(games)) / games
    )
    error = (2 * reference * (1 - reference) / games) ** 0.5
    assert 0.05 < reference < 0.95
    assert abs(compiled - reference) < 4 * error


# ----- 27 ----------------------------------------------------------------------------


def line_compiled_move(action: int) -> int:
    """A protocol move action as the kernel writes the move (``field * 64 + count``)."""
    field, rest = divmod(action, MAX_COUNT)
    return field * 64 + rest + 1


def line_offered(state: TwentySevenState) -> list[int]:
    s = line_kernel.line_array(state.line)
    found = np.empty(line_kernel.MAX_MOVES, dtype=np.int64)
    variant = line_kernel.VARIANT_CODES[state.variant]
    count, _ = line_kernel.moves(s, int(s[line_kernel.TO_MOVE]), variant, found)
    return sorted(int(move) for move in found[:count])


def line_compiled_returns(state: TwentySevenState, script: list[int]) -> list[float]:
    s = line_kernel.line_array(state.line)
    found = np.empty(line_kernel.MAX_MOVES, dtype=np.int64)
    variant = line_kernel.VARIANT_CODES[state.variant]
    result = line_kernel.playout(s, variant, 0, np.array(script, dtype=np.int64), found)
    assert result != line_kernel.NOT_OFFERED, "a scripted move was not offered"
    return [float(result), float(-result)]


@pytest.mark.parametrize("variant", VARIANTS)
def test_27_kernel_offers_the_moves_and_ends_scripted_games_as_the_rules_do(variant):
    game = stairgames.load("twenty_seven", variant=variant)
    rng = random.Random(2)
    positions = 0
    for _ in range(GAMES):
        states, actions = random_game(game.new_initial_state(), rng)
        moves = [line_compiled_move(a) if a != LINE_PASS else -1 for a in actions]
        final = states[-1].returns()
        for index, state in enumerate(states[:-1]):
            assert isinstance(state, TwentySevenState)
            legal = state.legal_actions()
            if legal == [LINE_PASS]:
                assert line_offered(state) == []
                continue
            assert line_offered(state) == sorted(line_compiled_move(a) for a in legal)
            positions += 1
            if index % 5 == 0:
                script = [move for move in moves[index:] if move >= 0]
                assert line_compiled_returns(state, script) == final
    assert positions > 10 * GAMES


def test_27_compiled_playout_refuses_a_scripted_move_the_rules_do_not_offer():
    state = stairgames.load("twenty_seven").new_initial_state()
    assert isinstance(state, TwentySevenState)
    offered = line_offered(state)
    s = line_kernel.line_array(state.line)
    found = np.empty(line_kernel.MAX_MOVES, dtype=np.int64)
    not_offered = max(offered) + 1
    assert not_offered not in offered
    script = np.array([not_offered], dtype=np.int64)
    assert line_kernel.playout(s, 0, 0, script, found) == line_kernel.NOT_OFFERED


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.slow
def test_27_compiled_playout_scores_as_often_as_the_rules_random_play(variant):
    """From the opening, white's mean return over 3000 compiled playouts lies within
    four standard errors of its mean over 3000 random games through the protocol."""
    initial = stairgames.load("twenty_seven", variant=variant).new_initial_state()
    rng = random.Random(3)
    games = 3000
    compiled = [line_playout.playout(initial, rng)[0] for _ in range(games)]
    reference = [random_game(initial.clone(), rng)[0][-1].returns()[0] for _ in range(games)]
    error = (2 * float(np.var(reference)) / games) ** 0.5
    assert abs(float(np.mean(compiled)) - float(np.mean(reference))) < 4 * error


# ----- the hooks players use -------------------------------------------------------


def test_players_play_out_stairs_and_27_with_the_compiled_playouts():
    assert find_playout("stairs") is stairs_evaluate.playout
    assert find_playout("twenty_seven") is line_evaluate.playout
    rng = random.Random(4)
    for name in ("stairs", "twenty_seven"):
        state = stairgames.load(name).new_initial_state()
        playout = find_playout(name)
        assert playout is not None
        results = {tuple(playout(state, rng)) for _ in range(200)}
        assert results <= {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}
        assert (1.0, -1.0) in results and (-1.0, 1.0) in results  # seeded afresh each time
