"""Issue 34: a move of ``mcts`` keeps within its time (the outside harness counts every
move over 1.1 times its budget). Behaviour only, no timing: the size of the calls into
the compiled search, the arrays that grow only while the time left allows, and the
endgame solvers made before a move's clock runs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import stairgames
from stairgames.agents import endgame as endgame_module
from stairgames.agents import make_agent
from stairgames.agents.mcts import CHUNK_SECONDS, FINAL_CHUNK_SHARE, next_chunk
from stairgames.core import uct
from stairgames.core.hooks import PlayerHooks
from stairgames.core.registry import player_hooks
from stairgames.games.stairs.research.endgame import Solver as StairsSolver
from stairgames.games.twenty_seven.research.endgame import Solver as LineSolver


def stairs_search() -> uct.TreeSearch:
    state = stairgames.load("stairs", agreement=False).new_initial_state()
    make = player_hooks("stairs").tree_search
    assert make is not None
    search = make(state)
    assert search is not None
    return search


# ----- the calls into the compiled search ---------------------------------------------


def test_the_next_call_fits_into_most_of_the_time_left():
    # 1,000 iterations took 4 ms: 4 microseconds each; 2 ms left hold 400 at 80%
    assert next_chunk(1000, 0.004, 0.002) == int(FINAL_CHUNK_SHARE * 0.002 / 4e-6)
    assert next_chunk(1000, 0.004, 0.0) == 16  # at least 16, however little is left
    assert next_chunk(1000, 0.004, None) == int(CHUNK_SECONDS / 4e-6)  # no deadline


def test_the_next_call_grows_at_most_fourfold():
    assert next_chunk(100, 0.0001, None) == 400  # 1 microsecond each would allow 4,000


@given(
    chunk=st.integers(1, 1_000_000),
    spent=st.floats(1e-7, 1.0),
    left=st.none() | st.floats(0.0, 10.0),
)
def test_the_next_call_never_asks_for_more_than_the_time_left_holds(chunk, spent, left):
    each = spent / chunk
    size = next_chunk(chunk, spent, left)
    assert size >= 16
    assert size <= max(16, 4 * chunk)
    if left is not None:
        assert size <= max(16, FINAL_CHUNK_SHARE * left / each)


# ----- the arrays growing ----------------------------------------------------------------


def fill_until_growth_is_due(search: uct.TreeSearch) -> None:
    while not search.growth_due():
        search.run(256, 1.0, 7, grow=False)
        assert search.start.shape[0] == uct.INITIAL_NODES


def test_a_search_told_not_to_grow_keeps_its_arrays_and_goes_on_searching():
    search = stairs_search()
    fill_until_growth_is_due(search)
    before = search.iterations
    assert search.run(500, 1.0, 8, grow=False) == 500  # a full tree still searches
    assert search.iterations == before + 500
    assert search.start.shape[0] == uct.INITIAL_NODES


def test_a_search_allowed_to_grow_doubles_its_arrays_keeping_the_tree():
    search = stairs_search()
    fill_until_growth_is_due(search)
    used = int(search._used[0])
    kept = [array[:used].copy() for array in search._arrays()]
    search._grow()
    assert search.start.shape[0] == 2 * uct.INITIAL_NODES
    for before, after in zip(kept, search._arrays(), strict=True):
        assert (after[:used] == before).all()
    assert not search.growth_due()


def test_growing_is_expected_to_cost_in_proportion_to_the_new_size():
    search = stairs_search()
    assert search.growth_seconds() == pytest.approx(
        2 * uct.INITIAL_NODES * uct.TreeSearch.growth_seconds_a_node
    )


def test_a_player_does_not_grow_its_tree_when_the_doubling_would_outlast_its_time(
    monkeypatch: pytest.MonkeyPatch,
):
    """Told that doubling takes longer than any move's time, ``mcts`` on a clock never
    doubles its arrays; told that it takes no time, it does (0.3 s from the opening
    fill the first arrays many times over on any machine that runs the tests)."""
    sizes: list[int] = []
    original: Callable[..., int] = uct.TreeSearch.run

    def run(self: uct.TreeSearch, *args: Any, **kwargs: Any) -> int:
        done = original(self, *args, **kwargs)
        sizes.append(self.start.shape[0])
        return done

    monkeypatch.setattr(uct.TreeSearch, "run", run)
    monkeypatch.setattr(uct.TreeSearch, "growth_seconds", lambda self: 1e9)
    game = stairgames.load("stairs", agreement=False)
    state = game.new_initial_state()
    make_agent("mcts:time=0.05,c=0.35", 0, game=game, seed=1).step(state)
    assert sizes and max(sizes) == uct.INITIAL_NODES
    sizes.clear()
    monkeypatch.setattr(uct.TreeSearch, "growth_seconds", lambda self: 0.0)
    make_agent("mcts:time=0.3,c=0.35", 0, game=game, seed=1).step(state)
    assert max(sizes) > uct.INITIAL_NODES


# ----- the endgame solvers made outside a move --------------------------------------


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every endgame solver of Stairs made from now on."""
    solvers: list[object] = []
    hooks = player_hooks("stairs")
    assert hooks.endgame_solver is not None
    make_solver = hooks.endgame_solver

    def counted() -> Any:
        solver = make_solver()
        solvers.append(solver)
        return solver

    def spied(name: str) -> PlayerHooks:
        assert name == "stairs"
        return PlayerHooks(endgame_solver=counted, warm_up=hooks.warm_up)

    monkeypatch.setattr(endgame_module, "player_hooks", spied)
    return solvers


@pytest.mark.parametrize("text", ["mcts:time=0.05,endgame=0.5", "alphabeta:time=0.05,endgame=0.5"])
def test_a_player_makes_its_endgame_solver_when_prepared_and_when_it_restarts(made, text):
    game = stairgames.load("stairs", agreement=False)
    agent = make_agent(text, 0, game=game, seed=3)
    assert len(made) == 1  # prepared with the game: made before the first move
    state = game.new_initial_state()
    state.apply_action(agent.step(state))
    assert len(made) == 1  # the move used it, made none
    agent.restart()
    assert len(made) == 2  # made anew between games, what it proved forgotten
    state = game.new_initial_state()
    agent.step(state)
    assert len(made) == 2


def test_a_player_without_the_endgame_share_makes_no_solver(made):
    game = stairgames.load("stairs", agreement=False)
    agent = make_agent("mcts:time=0.05", 0, game=game, seed=3)
    agent.restart()
    assert made == []


@pytest.mark.parametrize(
    ("make", "fields"),
    [
        (lambda: StairsSolver(table_bits=12), ("keys", "proven")),
        (lambda: LineSolver(12), ("keys", "bounds")),
    ],
)
def test_committing_a_solver_table_to_memory_keeps_what_it_holds(make, fields):
    solver = make()
    for name in fields:
        getattr(solver, name).flat[::7] = 1
    kept = [getattr(solver, name).copy() for name in fields]
    solver.commit_memory()
    for name, before in zip(fields, kept, strict=True):
        assert (getattr(solver, name) == before).all()
