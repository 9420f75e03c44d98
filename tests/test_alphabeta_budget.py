"""alphabeta when its time runs out part-way through an iteration at the root."""

from __future__ import annotations

import stairgames
from stairgames.agents.alphabeta import AlphaBetaAgent, _OutOfTimeError
from stairgames.agents.evaluation import evaluator_for
from stairgames.core.game import State


class _StopsAfter(AlphaBetaAgent):
    """Runs out of time after ``moves`` root moves have been searched."""

    def __init__(self, seat: int, moves: int) -> None:
        super().__init__(seat, seed=0, time_limit=None)
        self.moves = moves
        self._evaluate = evaluator_for(stairgames.load("twenty_seven"))
        self._deadline = float("inf")

    def _child_value(
        self, child: State, mover: int, depth: int, alpha: float, beta: float, ply: int
    ) -> float:
        if ply == 1:
            if self.moves == 0:
                raise _OutOfTimeError
            self.moves -= 1
        return super()._child_value(child, mover, depth, alpha, beta, ply)


def test_an_interrupted_iteration_keeps_the_best_of_the_moves_it_searched():
    state = stairgames.load("twenty_seven").new_initial_state()
    legal = state.legal_actions()
    full = AlphaBetaAgent(0, seed=0, time_limit=None)
    full._evaluate = evaluator_for(state.get_game())
    full._deadline = float("inf")
    _, first_two_best, complete = full._root(state, legal[:2], 2)
    assert complete
    cut = _StopsAfter(0, moves=2)
    _, action, complete = cut._root(state, legal, 2)
    assert not complete
    assert action == first_two_best
    assert set(cut._root_values) == set(legal[:2])


def test_an_iteration_interrupted_before_any_move_names_none():
    state = stairgames.load("stairs").new_initial_state()
    cut = _StopsAfter(0, moves=0)
    _, action, complete = cut._root(state, state.legal_actions(), 1)
    assert action is None and not complete
