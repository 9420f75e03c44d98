"""The computer's analysis for the web app: a finished game's review, one position's value.

Two functions, each run in a worker process of the server's computer pool
(:mod:`stairgames.server.computer`'s tasks), never on its event loop, and each taking
and giving plain data only:

- :func:`analyse_record`: every decision of a game record reviewed
  (:func:`stairgames.analysis.review.review`) with a fixed budget of search iterations a
  position and a fixed seed, so that the same record gives the same analysis on any
  machine; each move's mark and better move, and every seat's share before and after
  it, for the page's graph;
- :func:`assess_position`: one position's value for the analysis board: every seat's
  share, the engine's move and best line, the exact share of each legal action where the
  game's exact means know it (Ishigaki Race: stopping and rolling), and, where the
  position is proven and the exact means follow it to the end, the winner and the length
  of the engine's perfect line.

Shares are as in the review: a seat's winning chance from 0 to 1 (a draw counts a half),
or in City of Stairs its expected share of the win. ``docs/analysis.md`` ("The analysis
in the browser") documents the budget and the shapes.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Any, Final

from stairgames.analysis.review import (
    NODES_PER_ITERATION,
    Budget,
    Progress,
    Reviewer,
    review,
)
from stairgames.core.errors import StairgamesError
from stairgames.core.game import Game, State
from stairgames.core.record import GameRecord
from stairgames.core.registry import assessor, load

PERFECT_LINE_PLIES: Final = 80
"""The most plies the perfect line of :func:`assess_position` is followed for."""
CHANCE_OUTCOMES: Final = 64
"""The most outcomes of a chance node :func:`assess_position` values exactly."""
CHANCE_DEPTH: Final = 2
"""How many chance nodes in a row below one :func:`assess_position` follows."""
REVIEWERS_KEPT: Final = 8
"""Reviewers (their exact solvers' tables) a worker keeps between positions."""

_REVIEWERS: OrderedDict[tuple[str, str, int, int], Reviewer] = OrderedDict()


def budget_json(iterations: int, seed: int) -> dict[str, Any]:
    """The budget of an analysis as its JSON says it: search iterations a position, the
    exact solvers' positions a position (half the budget, first), and the seed."""
    return {
        "iterations": iterations,
        "exact_positions": int(iterations * NODES_PER_ITERATION / 2),
        "seed": seed,
    }


def _rounded(shares: tuple[float, ...] | list[float]) -> list[float]:
    return [round(float(share), 4) for share in shares]


def analyse_record(
    record: str, *, iterations: int, seed: int = 0, progress: Progress | None = None
) -> dict[str, Any]:
    """The analysis of a game record (its JSON text, full: every move as it was):
    ``{"game", "seats", "measure", "thresholds", "budget", "moves", "decisions",
    "proven", "seconds"}``, ``moves`` one object a decision (the review's JSON,
    :meth:`~stairgames.analysis.review.MoveReview.to_json`, with ``shares_before`` and
    ``shares_after``: every seat's share).

    :raises ReviewRefusedError: a game with hidden information that is not over.
    :raises InvalidRecordError: the record does not replay.
    """
    started = time.perf_counter()
    parsed = GameRecord.from_json(record)
    reviews = review(
        parsed, budget=Budget(seconds=None, iterations=iterations), seed=seed, progress=progress
    )
    game = load(parsed.game, **parsed.options)
    judge = assessor(game.name)
    moves = []
    for move in reviews:
        entry = move.to_json()
        entry["shares_before"] = _rounded(move.shares_before)
        entry["shares_after"] = _rounded(move.shares_after)
        moves.append(entry)
    thresholds = judge.thresholds
    return {
        "game": game.name,
        "seats": list(game.info().seat_names),
        "measure": judge.measure,
        "thresholds": {
            "inaccuracy": thresholds.inaccuracy,
            "mistake": thresholds.mistake,
            "blunder": thresholds.blunder,
        },
        "budget": budget_json(iterations, seed),
        "moves": moves,
        "plies": len(parsed.moves),
        "decisions": len(reviews),
        "proven": sum(1 for move in reviews if move.proven),
        "seconds": round(time.perf_counter() - started, 3),
    }


def start_state(game: Game, position: str | None, moves: list[str]) -> State:
    """The state ``moves`` (in notation, chance outcomes included) lead to from
    ``position`` (its text; ``None``: the start).

    :raises StairgamesError: a bad position, or a move illegal where it stands (the
        engine's error).
    """
    state = game.new_initial_state() if position is None else game.state_from_position(position)
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def _reviewer(game: Game, iterations: int, seed: int) -> Reviewer:
    key = (game.name, repr(game.options), iterations, seed)
    reviewer = _REVIEWERS.get(key)
    if reviewer is None:
        reviewer = Reviewer(game, budget=Budget(seconds=None, iterations=iterations), seed=seed)
        reviewer.prepare()
        _REVIEWERS[key] = reviewer
        while len(_REVIEWERS) > REVIEWERS_KEPT:
            _REVIEWERS.popitem(last=False)
    else:
        _REVIEWERS.move_to_end(key)
    return reviewer


def assess_position(
    game: str,
    options: dict[str, Any],
    position: str | None,
    moves: list[str],
    *,
    iterations: int,
    seed: int = 0,
) -> dict[str, Any]:
    """One position's value (see the module): ``{"shares", "proven", "uncertainty",
    "best", "line", "actions": [{"move", "shares"}], "perfect": {"winner", "plies",
    "returns"} | null, "measure", "budget"}`` (at a chance node whose outcomes the exact
    means value, ``actions`` are the outcomes, each with its ``probability``).

    :raises StairgamesError: a bad position or move.
    """
    loaded = load(game, **options)
    state = start_state(loaded, position, moves)
    reviewer = _reviewer(loaded, iterations, seed)
    if state.is_chance_node():
        exact = _exact_chance(reviewer, state)
        if exact is not None:
            return exact
    found = reviewer.assess(state, index=len(moves))
    actions: list[dict[str, Any]] = []
    if found.actions and not state.is_chance_node():
        for action in state.legal_actions():
            if action in found.actions:
                actions.append(
                    {
                        "move": state.action_to_string(action),
                        "shares": _rounded(found.actions[action]),
                    }
                )
    best = None if found.best is None else state.action_to_string(found.best)
    perfect = None
    if found.proven and found.best is not None and not loaded.info().chance:
        perfect = _perfect_line(reviewer, state, found.best)
    return {
        "shares": _rounded(found.shares),
        "proven": found.proven,
        "uncertainty": round(found.uncertainty, 4),
        "best": best,
        "line": list(found.line),
        "actions": actions,
        "perfect": perfect,
        "measure": reviewer.assessor.measure,
        "budget": budget_json(iterations, seed),
    }


def _exact_chance(reviewer: Reviewer, state: State) -> dict[str, Any] | None:
    """A chance node's value where the exact means value every outcome (Ishigaki Race's
    dice: the decision after a first die, or, after a second, the next turn's first die):
    the shares expected over the outcomes, with each outcome's (``actions``, with its
    ``probability``); else ``None``."""
    outcomes = state.chance_outcomes()
    if len(outcomes) > CHANCE_OUTCOMES:
        return None
    expected = [0.0] * state.get_game().num_players()
    actions = []
    for action, probability in outcomes:
        child = state.clone()
        child.apply_action(action)
        shares = _exact_value(reviewer, child, CHANCE_DEPTH)
        if shares is None:
            return None
        for seat, share in enumerate(shares):
            expected[seat] += probability * share
        actions.append(
            {
                "move": state.action_to_string(action),
                "shares": _rounded(shares),
                "probability": round(probability, 4),
            }
        )
    return {
        "shares": _rounded(expected),
        "proven": True,
        "uncertainty": 0.0,
        "best": None,
        "line": [],
        "actions": actions,
        "perfect": None,
        "measure": reviewer.assessor.measure,
        "budget": budget_json(int(reviewer.budget.iterations or 0), reviewer.seed),
    }


def _exact_value(reviewer: Reviewer, state: State, depth: int) -> list[float] | None:
    """``state``'s shares where the exact means give them without search: settled, a
    decision they decide, or a chance node (at most ``depth`` deep) whose every outcome
    they value; else ``None``."""
    shares = reviewer.assessor.settled(state)
    if shares is not None:
        return list(shares)
    if state.is_terminal():
        return None
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        if depth <= 0 or len(outcomes) > CHANCE_OUTCOMES:
            return None
        expected = [0.0] * state.get_game().num_players()
        for action, probability in outcomes:
            child = state.clone()
            child.apply_action(action)
            found = _exact_value(reviewer, child, depth - 1)
            if found is None:
                return None
            for seat, share in enumerate(found):
                expected[seat] += probability * share
        return expected
    nodes = max(1, int(reviewer.budget.iterations or 1) * NODES_PER_ITERATION // 2)
    try:
        known = reviewer._known(state, nodes=nodes, deadline=None)
    except StairgamesError:
        return None
    decided = reviewer._decided(state, known)
    return None if decided is None else list(known[decided])


def _perfect_line(reviewer: Reviewer, state: State, best: int) -> dict[str, Any] | None:
    """Where the exact means follow the engine's perfect line from ``state`` to the end
    (each position decided within the reviewer's budget, at most
    :data:`PERFECT_LINE_PLIES`): ``{"winner": seat | None, "plies": n, "returns"}`` (no
    winner: a draw, or a win shared); else ``None``. The line is one perfect game, not
    the quickest win: the losing side's replies are not chosen to last longest."""
    current = state.clone()
    current.apply_action(best)
    plies = 1
    nodes = max(1, int(reviewer.budget.iterations or 1) * NODES_PER_ITERATION // 2)
    while not current.is_terminal():
        if plies >= PERFECT_LINE_PLIES or current.is_chance_node():
            return None
        try:
            known = reviewer._known(current, nodes=nodes, deadline=None)
        except StairgamesError:
            return None
        decided = reviewer._decided(current, known)
        if decided is None:
            return None
        current.apply_action(decided)
        plies += 1
    returns = current.returns()
    top = max(returns)
    winners = [seat for seat, value in enumerate(returns) if value == top]
    winner = winners[0] if len(winners) == 1 and len(set(returns)) > 1 else None
    return {"winner": winner, "plies": plies, "returns": [float(v) for v in returns]}


TASKS: Final = {
    "analyse_record": analyse_record,
    "assess_position": assess_position,
}
"""The tasks the server's computer pool may run in its workers, by name."""

__all__ = ["TASKS", "analyse_record", "assess_position", "budget_json", "start_state"]
