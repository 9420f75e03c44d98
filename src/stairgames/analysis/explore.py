"""The computer's analysis for the web app: a finished game's review, one position's value.

Two functions, each run in a worker process of the server's computer pool
(:mod:`stairgames.server.play.computer`'s tasks), never on its event loop, and each taking
and giving plain data only:

- :func:`analyse_record`: every decision of a game record reviewed
  (:func:`stairgames.analysis.review.review`) with a fixed budget of search iterations a
  position and a fixed seed, so that the same record gives the same analysis on any
  machine; each move's mark and better move, and every seat's share before and after
  it, for the page's graph;
- :func:`assess_position`: one position's value for the analysis board: every seat's
  share, the engine's move and best line, the exact share of each legal action where the
  game's exact means know it (Ishigaki Race: stopping and rolling), and, where the
  position is proven won in a game without chance, the winner and its distance to the
  win under best play (:class:`DistanceSearch`: the winner's quickest win, the loser's
  longest defence), or a bound on it where the budget does not settle it.

Shares are as in the review: a seat's winning chance from 0 to 1 (a draw counts a half),
or in City of Stairs its expected share of the win. ``docs/analysis.md`` ("The analysis
in the browser") documents the budget and the shapes.
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Final

from stairgames.analysis.review import (
    EPSILON,
    LINE_PLIES,
    NODES_PER_ITERATION,
    Budget,
    Progress,
    Reviewer,
    review,
)
from stairgames.core.assess import scaled_shares
from stairgames.core.errors import StairgamesError
from stairgames.core.game import Game, State
from stairgames.core.record import GameRecord
from stairgames.core.registry import assessor, load

MOST_DISTANCE: Final = 80
"""The most plies :func:`assess_position` searches a proven win to (a distance to the
win beyond it is not given)."""
DISTANCE_POSITIONS: Final = 10_000
"""The most positions the search for the distance to a win expands for one position
(each asks the exact means once, within the reviewer's exact budget); past it the
distance is given as a bound, or not at all."""
BOUND_SHARE: Final = 0.25
"""The share of :data:`DISTANCE_POSITIONS` the first proof, the bound from above, may take
(it proves the win to the end, the winner playing its proven wins; iterative deepening
from below then has the rest)."""
NEVER: Final = 1 << 30
"""The distance of a position the winner does not win (and "no bound known")."""
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
    "plies_at_most", "returns"} | null, "measure", "budget"}`` (at a chance node whose
    outcomes the exact means value, ``actions`` are the outcomes, each with its
    ``probability``). ``perfect``: see :func:`_perfect`; where its distance is exact,
    ``best`` and ``line`` are the moves that keep it.

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
    line = list(found.line)
    perfect = None
    if found.proven and found.best is not None and not loaded.info().chance:
        perfect, keeping = _perfect(reviewer, state, found.shares)
        if keeping and (perfect["plies"] is not None or keeping[0] != best):
            best, line = keeping[0], keeping  # the move that keeps the distance
    return {
        "shares": _rounded(found.shares),
        "proven": found.proven,
        "uncertainty": round(found.uncertainty, 4),
        "best": best,
        "line": line,
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


def _perfect(
    reviewer: Reviewer, state: State, shares: tuple[float, ...]
) -> tuple[dict[str, Any], list[str]]:
    """Who wins ``state`` (proven: ``shares`` exact) and how soon under best play
    (:class:`DistanceSearch`), ``{"winner", "plies", "plies_at_most", "returns"}``
    (``plies``: the distance, where it is known exactly; else ``plies_at_most``: a bound
    from above, where one was found; no winner: a draw or a win shared), and the line
    that keeps it: where the distance is exact, the quickest win or the longest
    defence from here; where only bounded and the winner moves, the move that keeps the
    bound; else empty."""
    winner = _sole_winner(shares)
    perfect: dict[str, Any] = {
        "winner": winner,
        "plies": None,
        "plies_at_most": None,
        "returns": _returns_of(state.get_game(), shares),
    }
    if winner is None or state.agreement_offer() is not None:
        return perfect, []
    played = state.without_agreement()  # offers to end by agreement only delay a win
    found = DistanceSearch(reviewer, winner).measure(played)
    if found.exact:
        perfect["plies"] = found.low
    elif found.high <= MOST_DISTANCE:
        perfect["plies_at_most"] = found.high
    return perfect, _notation(played, found.line)


def _notation(state: State, actions: tuple[int, ...]) -> list[str]:
    """``actions`` played from ``state``, in notation."""
    current = state.clone()
    moves = []
    for action in actions:
        moves.append(current.action_to_string(action))
        current.apply_action(action)
    return moves


def _sole_winner(shares: tuple[float, ...]) -> int | None:
    """The seat with a share of 1 when the others have none; else ``None``."""
    winners = [seat for seat, share in enumerate(shares) if share >= 1.0 - EPSILON]
    losers = [seat for seat, share in enumerate(shares) if share <= EPSILON]
    if len(winners) == 1 and len(losers) == len(shares) - 1:
        return winners[0]
    return None


def _returns_of(game: Game, shares: tuple[float, ...]) -> list[float]:
    """``shares`` on the game's utility scale (a win 1, a loss -1 in Stairs)."""
    info = game.info()
    span = info.max_utility - info.min_utility
    return [float(info.min_utility + share * span) for share in shares]


class _OutOfPositionsError(Exception):
    """The distance search has expanded all the positions it may."""


@dataclasses.dataclass(frozen=True)
class WinDistance:
    """How many plies the winner of a proven position needs under best play: at least
    :attr:`low`, at most :attr:`high` (:data:`NEVER`: no bound found)."""

    low: int
    high: int
    line: tuple[int, ...] = ()
    """Where the distance is exact: a line of best play from the position (the winner's
    quickest win, the loser's longest defence), at most :data:`LINE_PLIES` actions."""

    @property
    def exact(self) -> bool:
        return self.low == self.high


Bounds = tuple[int, int]
"""What the distance search knows of a position's distance: (at least, at most)."""


class DistanceSearch:
    """The distance to ``winner``'s win from a position it is proven to win: the least
    number of plies within which it wins against every defence, so the quickest win when
    it moves and the longest defence when another seat moves.

    Iterative deepening over a depth-limited proof: "does the winner win within n
    plies?" for n = 1, 2, ... until it does; the winner's moves are asked of the
    reviewer's exact means first (:meth:`Reviewer._known`), so that moves proven not to
    win are never searched and moves proven to win are tried first (then the others,
    leaving the fewest replies first); every other seat's every move is searched. A
    table keyed on the position text keeps each position's bounds between the
    iterations. The budget is a count of positions expanded (their moves generated,
    :data:`DISTANCE_POSITIONS`), so the result repeats on any machine; where it runs
    out the distance is given as bounds. Games with chance are not searched (the
    distance to a win has no meaning there); a line longer than
    :data:`MOST_DISTANCE` plies is not followed."""

    def __init__(self, reviewer: Reviewer, winner: int, *, positions: int | None = None) -> None:
        self.reviewer = reviewer
        self.winner = winner
        self.positions = DISTANCE_POSITIONS if positions is None else positions
        self.limit = self.positions
        """The positions that may be expanded before the search stops (a phase's)."""
        self.exact_nodes = max(1, int(reviewer.budget.iterations or 1) * NODES_PER_ITERATION // 2)
        self.bounds: dict[str, Bounds] = {}
        self.children: dict[str, list[tuple[int, str]]] = {}
        self.won: set[str] = set()
        """Positions another seat moves in that the exact means proved won for the winner."""

    @property
    def expanded(self) -> int:
        """Positions expanded so far (for measurements)."""
        return len(self.children)

    def measure(self, state: State) -> WinDistance:
        """The distance from ``state`` (proven won for the winner) within the budget."""
        key = state.position()
        self.won.add(key)
        self.limit = int(self.positions * BOUND_SHARE)
        with contextlib.suppress(_OutOfPositionsError):
            self.within(state, MOST_DISTANCE, key)  # a bound from above: one proof
        self.limit = self.positions
        with contextlib.suppress(_OutOfPositionsError):
            self._deepen(state, key)
        low, high = self.bounds_of(key)
        if low == high:
            return WinDistance(low, high, self._best_line(state))
        keeping = self._keeping(state, high) if state.current_player() == self.winner else None
        return WinDistance(low, high, () if keeping is None else (keeping,))

    def _deepen(self, state: State, key: str) -> None:
        """Asks "within n plies?" for the least n not yet refuted, until one holds."""
        while True:
            low, high = self.bounds_of(key)
            if low >= high or low > MOST_DISTANCE:
                return
            self.within(state, max(low, 1), key)

    def bounds_of(self, key: str) -> Bounds:
        return self.bounds.get(key, (0, NEVER))

    def _narrow(self, key: str, low: int, high: int) -> None:
        known_low, known_high = self.bounds_of(key)
        self.bounds[key] = (max(known_low, low), min(known_high, high))

    # ----- "does the winner win within n plies?" --------------------------------------

    def within(self, state: State, plies: int, key: str | None = None) -> bool:
        """Whether the winner wins from ``state`` (its position text ``key``) within
        ``plies`` plies against every defence (its bounds narrowed either way).

        :raises _OutOfPositionsError: the budget is spent.
        """
        if key is None:
            key = state.position()
        low, high = self.bounds_of(key)
        if high <= plies:
            return True
        if low > plies:
            return False
        if state.is_terminal():
            distance = 0 if self._winner_won(state) else NEVER
            self._narrow(key, distance, distance)
            return distance <= plies
        if plies == 0:
            self._narrow(key, 1, NEVER)
            return False
        children = self._children(state, key)
        if self.bounds_of(key)[0] > plies:  # the exact means found it not won
            return False
        if state.current_player() == self.winner:
            self._some_child_within(state, children, plies)
            self._narrow(key, *self._combined(children, min))
        else:
            self._every_child_within(state, children, plies)
            self._narrow(key, *self._combined(children, max))
        return self.bounds_of(key)[1] <= plies

    def _some_child_within(self, state: State, children: list[tuple[int, str]], plies: int) -> None:
        """The winner's moves, the most promising first, until one wins within
        ``plies - 1`` more."""
        order = sorted(children, key=lambda child: self._promise(child[1], plies - 1))
        for action, child_key in order:
            if self._child_within(state, action, child_key, plies - 1):
                return

    def _every_child_within(
        self, state: State, children: list[tuple[int, str]], plies: int
    ) -> None:
        """The defender's moves, the likeliest to last longest first, until one lasts
        beyond ``plies - 1`` more."""
        order = sorted(children, key=lambda child: -self.bounds_of(child[1])[0])
        for action, child_key in order:
            if not self._child_within(state, action, child_key, plies - 1):
                return

    def _child_within(self, state: State, action: int, key: str, plies: int) -> bool:
        """:meth:`within` for the position after ``action``, made only where the table
        does not tell."""
        low, high = self.bounds_of(key)
        if high <= plies or low > plies:
            return high <= plies
        return self.within(_after(state, action), plies, key)

    def _promise(self, key: str, plies: int) -> tuple[bool, int]:
        """Sorts the winner's moves: those proven to win within ``plies`` first, then by
        the least distance they may have."""
        low, high = self.bounds_of(key)
        return (high > plies, low)

    def _combined(self, children: list[tuple[int, str]], pick: Callable[..., int]) -> Bounds:
        """A position's bounds from its children's: the least (``min``: the winner
        chooses) or the greatest (``max``: a defender chooses), one ply more."""
        if not children:
            return NEVER, NEVER
        lows = [self.bounds_of(key)[0] for _, key in children]
        highs = [self.bounds_of(key)[1] for _, key in children]
        return min(NEVER, 1 + pick(lows)), min(NEVER, 1 + pick(highs))

    def _winner_won(self, state: State) -> bool:
        shares = self.reviewer.assessor.settled(state) or scaled_shares(state) or ()
        return _sole_winner(tuple(shares)) == self.winner

    # ----- a position's moves ------------------------------------------------------------

    def _children(self, state: State, key: str) -> list[tuple[int, str]]:
        """The moves searched from ``state``, each with the position text after it: the
        winner's moves not proven to lose, proven wins first, then by fewest replies;
        every move of another seat (none, and the position marked not won, where the
        exact means prove a reply that saves it)."""
        cached = self.children.get(key)
        if cached is not None:
            return cached
        if len(self.children) >= self.limit:
            raise _OutOfPositionsError
        if state.is_chance_node():
            raise _OutOfPositionsError  # no distance to a win with chance to come
        if state.current_player() == self.winner:
            children = self._winner_moves(state)
        else:
            children = self._defences(state, key)
        self.children[key] = children
        return children

    def _winner_moves(self, state: State) -> list[tuple[int, str]]:
        known = self._known(state)
        ranked = []
        for action in state.legal_actions():
            shares = known.get(action)
            if shares is not None and shares[self.winner] < 1.0 - EPSILON:
                continue  # proven not to win
            child = _after(state, action)
            child_key = child.position()
            if shares is not None:
                self.won.add(child_key)
            replies = 0 if child.is_terminal() else len(child.legal_actions())
            ranked.append((shares is None, replies, action, child_key))
        ranked.sort(key=lambda entry: entry[:2])
        return [(action, child_key) for _, _, action, child_key in ranked]

    def _defences(self, state: State, key: str) -> list[tuple[int, str]]:
        if key not in self.won:
            known = self._known(state)
            if any(shares[self.winner] < 1.0 - EPSILON for shares in known.values()):
                self._narrow(key, NEVER, NEVER)
                return []
        return [(action, _after(state, action).position()) for action in state.legal_actions()]

    def _known(self, state: State) -> dict[int, list[float]]:
        try:
            return self.reviewer._known(state, nodes=self.exact_nodes, deadline=None)
        except StairgamesError:
            return {}

    # ----- the line ------------------------------------------------------------------------

    def _best_line(self, state: State) -> tuple[int, ...]:
        """From a position of exact distance, the moves that keep it as far as the table
        proves them: to a position one ply nearer the win, at most :data:`LINE_PLIES`."""
        line: list[int] = []
        current = state.clone()
        distance = self.bounds_of(current.position())[0]
        while distance > 0 and len(line) < LINE_PLIES:
            action = self._keeping(current, distance)
            if action is None:
                break
            line.append(action)
            current.apply_action(action)
            distance -= 1
        return tuple(line)

    def _keeping(self, state: State, distance: int) -> int | None:
        """A move of ``state`` that keeps ``distance``: where ``state`` is exactly that
        far from the win, to a position exactly one ply nearer; where it is at most that
        far and the winner moves, to one at most one ply nearer."""
        exact = self.bounds_of(state.position())[0] == distance
        for action, key in self.children.get(state.position(), []):
            low, high = self.bounds_of(key)
            if (low, high) == (distance - 1, distance - 1) or (not exact and high < distance):
                return action
        return None


def _after(state: State, action: int) -> State:
    child = state.clone()
    child.apply_action(action)
    return child


TASKS: Final = {
    "analyse_record": analyse_record,
    "assess_position": assess_position,
}
"""The tasks the server's computer pool may run in its workers, by name."""

__all__ = [
    "TASKS",
    "DistanceSearch",
    "WinDistance",
    "analyse_record",
    "assess_position",
    "budget_json",
    "start_state",
]
