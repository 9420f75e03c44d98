"""The analysis board's "wins in N" (issue 31): the distance to the win under best play,
the winner winning as fast as it can and the loser lasting as long as it can, checked
against a plain minimax over the rules on tiny positions; and that where the budget is
too small the distance is only bounded, never wrong."""

from __future__ import annotations

import random
from typing import Any

import pytest

import stairgames
from stairgames.analysis.explore import DistanceSearch, _reviewer, assess_position
from stairgames.analysis.review import Budget, Reviewer
from stairgames.core.game import State

NEVER = 10**9
"""The brute force's distance of a position the winner does not win."""
ITERATIONS = 60


def brute_distance(state: State, winner: int, memo: dict[str, int]) -> int:
    """Plies to ``winner``'s win from ``state`` by minimax over every move: the least the
    winner needs where it moves, the most the others can hold out where they move
    (:data:`NEVER`: the winner does not win)."""
    key = state.position()
    if key in memo:
        return memo[key]
    if state.is_terminal():
        returns = state.returns()
        won = returns[winner] == max(returns) and returns.count(max(returns)) == 1
        found = 0 if won else NEVER
    else:
        distances = [brute_distance(_after(state, a), winner, memo) for a in state.legal_actions()]
        pick = min if state.current_player() == winner else max
        found = min(NEVER, 1 + pick(distances))
    memo[key] = found
    return found


def _after(state: State, action: int) -> State:
    child = state.clone()
    child.apply_action(action)
    return child


def winner_of(state: State, memo: dict[int, dict[str, int]]) -> int | None:
    """The seat that wins ``state`` under perfect play, by brute force (``None``: a draw)."""
    for seat in range(state.get_game().num_players()):
        if brute_distance(state, seat, memo.setdefault(seat, {})) < NEVER:
            return seat
    return None


def game_positions(size: int, seed: int) -> list[State]:
    """The positions of a random Stairs game (no agreement) on ``size``, before each move."""
    state = stairgames.load("stairs", size=size, agreement=False).new_initial_state()
    rng = random.Random(seed)
    states = []
    while not state.is_terminal():
        states.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return states


def random_positions(size: int, seed: int, *, last: int) -> list[State]:
    """The ``last`` positions before the end of a random game (none of its first half)."""
    states = game_positions(size, seed)
    return states[max(len(states) // 2, len(states) - last) :]


def assessed(state: State, options: dict[str, Any]) -> dict[str, Any]:
    return assess_position("stairs", options, state.position(), [], iterations=ITERATIONS, seed=0)


def check_against_brute_force(state: State, options: dict[str, Any]) -> int:
    """The board's winner, plies and move are the brute force's; returns the distance."""
    found = assessed(state, options)
    perfect = found["perfect"]
    assert isinstance(perfect, dict)
    winner = perfect["winner"]
    assert isinstance(winner, int)
    memo: dict[str, int] = {}
    distance = brute_distance(state, winner, memo)
    assert perfect["plies"] == distance, (state.position(), perfect)
    best = state.string_to_action(str(found["best"]))
    after = brute_distance(_after(state, best), winner, memo)
    assert after == distance - 1, "the move shown keeps the distance"
    line = found["line"]
    assert isinstance(line, list) and line[0] == found["best"]
    current = state.clone()
    for ply, move in enumerate(line, start=1):  # each move of the line keeps it too
        current.apply_action(current.string_to_action(move))
        assert brute_distance(current, winner, memo) == distance - ply
    return distance


def test_3x3_distances_from_the_start_and_every_position_after_it_are_the_brute_forces():
    start = stairgames.load("stairs", size=3, agreement=False).new_initial_state()
    options = {"size": 3, "agreement": False}
    seen = {check_against_brute_force(start, options)}
    for action in start.legal_actions():
        seen.add(check_against_brute_force(_after(start, action), options))
    assert len(seen) >= 3  # the distances differ, so a wrong count would show


@pytest.mark.parametrize("seed", range(4))
def test_4x4_endgame_distances_are_the_brute_forces(seed: int):
    options = {"size": 4, "agreement": False}
    for state in random_positions(4, seed, last=9)[::2]:
        check_against_brute_force(state, options)


def test_offers_to_end_by_agreement_do_not_count():
    """With agreement on (the board's default), the distance is that of the moves of
    play: the loser offering and the winner declining would only stall."""
    state = random_positions(4, 7, last=8)[0]
    with_agreement = stairgames.load("stairs", size=4).state_from_position(state.position())
    found = assess_position(
        "stairs", {"size": 4}, with_agreement.position(), [], iterations=ITERATIONS
    )
    perfect = found["perfect"]
    winner = perfect["winner"]
    assert perfect["plies"] == brute_distance(state, winner, {})


def test_the_quickest_win_is_reported_where_the_solvers_perfect_line_is_longer():
    """Positions where the winner has winning moves of different lengths: the board gives
    the quickest, where the line of the solver's first winning move at each ply (what
    it reported before) is longer."""
    options = {"size": 4, "agreement": False}
    longer = 0
    for seed in range(12):
        for state in random_positions(4, seed, last=10):
            memo: dict[str, int] = {}
            mover = state.current_player()
            if brute_distance(state, mover, memo) >= NEVER:
                continue
            wins = {a: brute_distance(_after(state, a), mover, memo) for a in state.legal_actions()}
            wins = {a: d for a, d in wins.items() if d < NEVER}
            if len(set(wins.values())) < 2:
                continue
            found = assessed(state, options)
            quickest = min(wins.values())
            assert found["perfect"]["plies"] == 1 + quickest
            assert wins[state.string_to_action(found["best"])] == quickest
            if solver_line_length(state) > 1 + quickest:
                longer += 1
    assert longer >= 2, "random endgames hold positions with a slow and a quick win"


def solver_line_length(state: State) -> int:
    """The length of the line where each seat plays the exact means' decided move (the
    first best in the order of the legal actions): one perfect game."""
    game = state.get_game()
    reviewer = Reviewer(game, budget=Budget(seconds=None, iterations=ITERATIONS))
    current = state.clone()
    plies = 0
    while not current.is_terminal():
        known = reviewer._known(current, nodes=None, deadline=None)
        decided = reviewer._decided(current, known)
        assert decided is not None
        current.apply_action(decided)
        plies += 1
    return plies


@pytest.mark.parametrize("positions", [1, 3, 10, 40, 150])
def test_a_small_budget_bounds_the_distance_and_never_misstates_it(positions: int):
    """With too few positions the search gives bounds: the true distance lies within."""
    state = random_positions(4, 3, last=12)[0]
    game = state.get_game()
    reviewer = _reviewer(game, ITERATIONS, 0)
    winner = winner_of(state, {})
    assert winner is not None
    truth = brute_distance(state, winner, {})
    found = DistanceSearch(reviewer, winner, positions=positions).measure(state)
    assert found.low <= truth <= found.high
    if found.exact:
        assert found.low == truth


@pytest.mark.slow
def test_a_bound_from_above_is_shown_as_at_most(monkeypatch: pytest.MonkeyPatch):
    """Where the budget proves a bound but not the distance, the board says "at most"
    (and the move it shows keeps the bound)."""
    from stairgames.analysis import explore

    state = game_positions(4, 3)[3]  # 9 plies from the end: a brute force of a second
    reviewer = _reviewer(state.get_game(), ITERATIONS, 0)
    winner = winner_of(state, {})
    assert winner is not None
    budget = next(
        budget
        for budget in range(10, 1000, 10)
        if not DistanceSearch(reviewer, winner, positions=budget).measure(state).exact
        and DistanceSearch(reviewer, winner, positions=budget).measure(state).high < NEVER
    )
    monkeypatch.setattr(explore, "DISTANCE_POSITIONS", budget)
    found = assessed(state, {"size": 4, "agreement": False})
    perfect = found["perfect"]
    truth = brute_distance(state, winner, {})
    assert perfect["plies"] is None and truth <= perfect["plies_at_most"] < NEVER
    if state.current_player() == winner:
        after = brute_distance(_after(state, state.string_to_action(found["best"])), winner, {})
        assert after <= perfect["plies_at_most"] - 1


# ----- a game with no exact means: the search alone ----------------------------------


def tictactoe_positions(seed: int) -> list[State]:
    state = stairgames.load("tictactoe").new_initial_state()
    rng = random.Random(seed)
    states = []
    while not state.is_terminal():
        states.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return states[3:]  # from three marks on: the brute force is quick


@pytest.mark.usefixtures("tictactoe")
def test_tictactoe_distances_by_the_search_alone_are_the_brute_forces():
    checked = 0
    for seed in range(8):
        for state in tictactoe_positions(seed):
            winner = winner_of(state, {})
            if winner is None:
                continue
            reviewer = _reviewer(state.get_game(), ITERATIONS, 0)
            found = DistanceSearch(reviewer, winner).measure(state)
            assert found.exact and found.low == brute_distance(state, winner, {})
            checked += 1
    assert checked >= 5
