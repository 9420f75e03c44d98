"""Compiled uniformly random playouts and tree search of Stairs (the ``playout``,
``tree_search`` and ``guided_tree_search`` hooks of
:mod:`stairgames.games.stairs.play.evaluate`), on the 6×6 board: a state's board as a
position array of the compiled engine
(:mod:`stairgames.games.stairs.research.endgame_kernel`), played to the end by
``kernel.playout`` or searched by ``kernel.tree_search`` (``kernel.guided_tree_search``:
playouts drawn by the move policy of :mod:`stairgames.games.stairs.research.policy`)
(:mod:`stairgames.core.uct` says how they play and what is checked). The warm-up
compiles the uniform search only: what every level plays.
"""

from __future__ import annotations

import random
from typing import Final

import numpy as np

from stairgames.core import uct
from stairgames.core.game import State
from stairgames.games.stairs import rules
from stairgames.games.stairs.game import StairsGame, StairsOptions, StairsState
from stairgames.games.stairs.notation import PASS, SWAP
from stairgames.games.stairs.research import endgame_kernel as kernel
from stairgames.games.stairs.research.endgame_kernel import Array

CONSTANTS: Final = kernel.endgame_constants()
"""The 6×6 board's constants for the compiled engine."""


def position_array(board: rules.Board) -> Array:
    """``board`` (6×6) as a position array for :func:`kernel.playout`."""
    assert len(board.stacks) == rules.NUM_SQUARES, "the playouts know the 6×6 board only"
    return kernel.position_array(board, CONSTANTS)


def playout(state: State, rng: random.Random) -> list[float]:
    """Uniformly random play from ``state`` to the end, compiled; the returns by seat.

    Like :func:`stairgames.games.stairs.play.evaluate.playout`, a ``swap`` and an offer to
    end by agreement are never chosen (players search the game without them). The
    kernel knows the 6×6 board only: on other sizes (S8) the game is played through
    the protocol (:func:`protocol_playout`)."""
    assert isinstance(state, StairsState)
    if len(state.board.stacks) != rules.NUM_SQUARES:  # not 6×6
        return protocol_playout(state, rng)
    s = position_array(state.board)
    found = np.empty(kernel.MAX_MOVES, dtype=np.int64)
    won = kernel.playout(s, CONSTANTS, uct.seed_of(rng), uct.NO_SCRIPT, found)
    return uct.returns_of(won, _seats(state))


def _seats(state: StairsState) -> tuple[int, int]:
    """The seat playing each colour (0 light, 1 dark)."""
    return state.seat_of(rules.LIGHT), state.seat_of(rules.DARK)


def protocol_playout(state: StairsState, rng: random.Random) -> list[float]:
    """Uniformly random play from a copy of ``state`` to the end through the protocol,
    on any board size: ``rng.choice`` of the legal actions at every step, as players
    without a playout of their own play."""
    state = state.clone()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state.returns()


def _kernel_move_actions() -> dict[int, int]:
    """The action of each kernel move (``source * 64 + target``), and of a pass."""
    actions = {uct.PASS: PASS}
    for source in range(rules.NUM_SQUARES):
        for direction, target in enumerate(rules.NEIGHBOURS[source]):
            if target >= 0:
                actions[source * 64 + target] = source * rules.NUM_DIRECTIONS + direction
    return actions


_ACTIONS: Final = _kernel_move_actions()


def tree_search(state: State) -> uct.TreeSearch | None:
    """The compiled tree search of ``state`` (its moves of play: a state without offers
    to end by agreement), or ``None`` where the pie rule's swap may still come (the
    first two turns of such a game), which it does not know, and on boards other than
    6×6 (S8), which the kernel does not know."""
    return _tree_search(state, kernel.tree_search)


def guided_tree_search(state: State) -> uct.TreeSearch | None:
    """:func:`tree_search` with the guided playouts (the policy of
    :mod:`stairgames.games.stairs.research.policy`) in place of uniformly random ones."""
    return _tree_search(state, kernel.guided_tree_search)


def _tree_search(state: State, search: uct.SearchKernel) -> uct.TreeSearch | None:
    assert isinstance(state, StairsState)
    if len(state.board.stacks) != rules.NUM_SQUARES:  # not 6×6
        return None
    if state.get_game().options.pie_rule and not state.board.climbed():
        return None
    if SWAP in state.legal_actions():
        return None
    return uct.TreeSearch(
        search,
        position_array(state.board),
        CONSTANTS,
        _ACTIONS,
        _seats(state),
        max_moves=kernel.MAX_MOVES,
    )


def warm_up() -> None:
    """Compile (the first time on a machine) or load the playout's and the tree
    search's kernel functions, by playing one game from the opening (before
    :func:`.endgame.warm_up`, which records the kernel warm)."""
    state = StairsGame(StairsOptions()).new_initial_state()
    playout(state, random.Random(0))
    search = tree_search(state)
    assert search is not None
    uct.warm_up(search)
