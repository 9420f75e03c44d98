"""Making a puzzle from a position, and proving a made one again, with the exact means.

Every number a puzzle stores is proven by the game's exact means, reached through the
registry (its :class:`~stairgames.core.assess.Assessor`, as the review of a game uses
it: :class:`~stairgames.analysis.review.Reviewer`), and every distance to a win by the
analysis board's :class:`~stairgames.analysis.explore.DistanceSearch`; a position they do
not prove within the budget makes no puzzle. Two kinds:

- **a game without chance, two players** (Stairs, 27): the mover has a proven win with
  one or two winning first moves, within :data:`MOST_PLIES` plies. Each node judges
  every legal move of the solver: ``best``, the quickest proven win; ``also``, another
  win as quick; ``wrong``, anything else, with the opponent's proven result and the
  line that punishes it (a slower win is wrong too: the puzzle asks for the quickest).
  The defender's reply is its longest defence, and the puzzle goes on while the solver
  has a real choice again (two legal moves or more, at most two of them winning), up to
  :data:`MOST_SOLVER_MOVES` moves of the solver. Where a draw is the alternative (27),
  the goal is ``win_not_draw``.
- **a game with chance** (Ishigaki Race): a decision whose best and second-best exact
  shares differ by at least :data:`CHANCE_GAP`; goal ``best_chance``, one node.

Difficulty (:func:`difficulty`): how often the game's two weakest levels fail the first
move over a few seeded tries, mapped to 1000-2200 on the rating scale.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any, Final

from stairgames.agents import LEVEL_NAMES, make_agent
from stairgames.agents.levels import level_player
from stairgames.analysis.explore import DistanceSearch, _exact_value, _sole_winner
from stairgames.analysis.review import EPSILON, NODES_PER_ITERATION, Budget, Reviewer
from stairgames.core.assess import scaled_shares
from stairgames.core.errors import StairgamesError
from stairgames.core.game import Game, State
from stairgames.core.options import options_to_dict
from stairgames.core.puzzles import LONG_WIN, SHORT_WIN
from stairgames.core.registry import load, puzzle_kit
from stairgames.puzzles.judge import solution, start_state
from stairgames.puzzles.model import (
    ALSO,
    BEST,
    BEST_CHANCE,
    MAX_LINE,
    WIN,
    WIN_NOT_DRAW,
    WRONG,
    Answer,
    Node,
    Puzzle,
    puzzle_id,
)

MOST_PLIES: Final = 15
"""The longest proven win a puzzle asks for, in plies from its start."""
MOST_WINNING_MOVES: Final = 2
"""The most winning first moves a puzzle's position may have (1 is a unique solution)."""
MOST_SOLVER_MOVES: Final = 3
"""The most moves the solver makes in one puzzle."""
CHANCE_GAP: Final = 0.10
"""The least difference in exact share between a chance game's best decision and the
next best for a puzzle."""
EXACT_NODES: Final = 400_000
"""Positions the exact means may search to value one position (each query)."""
DISTANCE_POSITIONS: Final = 4_000
"""Positions a distance search may expand (:class:`DistanceSearch`)."""
DEEPER_SEARCH: Final = 8
"""How many times :data:`DISTANCE_POSITIONS` proving a puzzle again searches where the
first search did not settle a stored distance (:meth:`Prover.settled_distance`)."""
RATING_TRIES: Final = 3
"""Seeded tries of each weak level at a puzzle's first move."""
RATING_LEVELS: Final = 2
"""How many of the weakest levels (:data:`~stairgames.agents.LEVEL_NAMES`) rate a puzzle."""
LOWEST_RATING: Final = 1000.0
HIGHEST_RATING: Final = 2200.0
SHARE_TOLERANCE: Final = 1e-6
"""How far a re-proven share may be from a stored one (rounding in the tables)."""


class Prover:
    """The exact means of one game (its options), with what they proved kept.

    ``nodes``: positions each query of the exact means may search; ``positions``: the
    positions a distance search may expand."""

    def __init__(
        self,
        game: Game,
        *,
        nodes: int = EXACT_NODES,
        positions: int = DISTANCE_POSITIONS,
    ) -> None:
        self.game = game
        self.info = game.info()
        self.nodes = nodes
        self.positions = positions
        iterations = max(1, 2 * nodes // NODES_PER_ITERATION)
        self.reviewer = Reviewer(game, budget=Budget(seconds=None, iterations=iterations))
        self.reviewer.prepare()
        self._values: dict[str, dict[int, tuple[float, ...]] | None] = {}
        self._distances: dict[tuple[str, int], tuple[int | None, tuple[int, ...]]] = {}

    @property
    def deterministic_duel(self) -> bool:
        """Two players, no chance, nothing hidden: distances to a win have a meaning."""
        info = self.info
        return info.num_players == 2 and not info.chance and not info.hidden_information

    def value(self, state: State) -> tuple[float, ...] | None:
        """Every seat's exact share of ``state`` under best play, or ``None`` (unproven)."""
        settled = self.reviewer.assessor.settled(state)
        if settled is not None:
            return tuple(settled)
        if state.is_terminal():
            return tuple(scaled_shares(state) or ())
        if state.is_chance_node():
            found = _exact_value(self.reviewer, state, 2)
            return None if found is None else tuple(found)
        known = self._known(state)
        decided = self.reviewer._decided(state, known)
        return None if decided is None else tuple(known[decided])

    def values(self, state: State) -> dict[int, tuple[float, ...]] | None:
        """Every legal action of ``state`` (a decision) with every seat's exact share after
        it; ``None`` where one is not proven."""
        key = state.position()
        if key in self._values:
            return self._values[key]
        known = {action: tuple(v) for action, v in self._known(state).items()}
        found: dict[int, tuple[float, ...]] | None = {}
        for action in state.legal_actions():
            shares = known.get(action)
            if shares is None:
                shares = self.value(_after(state, action))
            if shares is None:
                found = None
                break
            assert found is not None
            found[action] = shares
        self._values[key] = found
        return found

    def distance(self, state: State, winner: int) -> tuple[int | None, tuple[int, ...]]:
        """The exact plies to ``winner``'s win from ``state`` (proven won for it) under
        best play, with a line of that play; ``(None, line)`` where the search does not
        settle it (the line then keeps a bound, or is empty)."""
        key = (state.position(), winner)
        if key not in self._distances:
            search = DistanceSearch(self.reviewer, winner, positions=self.positions)
            found = search.measure(state.clone())
            self._distances[key] = (found.low if found.exact else None, found.line)
        return self._distances[key]

    def settled_distance(self, state: State, winner: int) -> int | None:
        """:meth:`distance` where its search did not settle it, searched again with
        :data:`DEEPER_SEARCH` times its positions. The exact means keep what they proved,
        so the positions a distance needs depend on what was proved before: a puzzle
        made after one line of positions may be proven again after another (``stairgames
        puzzles verify`` over a whole set) with more."""
        search = DistanceSearch(self.reviewer, winner, positions=self.positions * DEEPER_SEARCH)
        found = search.measure(state.clone())
        return found.low if found.exact else None

    def line(self, state: State) -> tuple[int, ...]:
        """A line of best play from ``state`` as far as the exact means decide it (at most
        :data:`MAX_LINE` plies; chance nodes end it)."""
        current = state.clone()
        actions: list[int] = []
        while len(actions) < MAX_LINE and not current.is_terminal():
            if current.is_chance_node():
                break
            known = self._known(current)
            decided = self.reviewer._decided(current, known)
            if decided is None:
                break
            actions.append(decided)
            current.apply_action(decided)
        return tuple(actions)

    def _known(self, state: State) -> dict[int, list[float]]:
        try:
            return self.reviewer._known(state, nodes=self.nodes, deadline=None)
        except StairgamesError:
            return {}


_PROVERS: dict[tuple[str, str], Prover] = {}


def prover_for(game: Game) -> Prover:
    """The :class:`Prover` of ``game`` (its options), made once in this process."""
    key = (game.name, repr(game.options))
    if key not in _PROVERS:
        _PROVERS.clear()  # one game at a time: their tables are large
        _PROVERS[key] = Prover(game)
    return _PROVERS[key]


# ----- making a puzzle -------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Judged:
    """One legal move of the solver, proven."""

    action: int
    move: str
    shares: tuple[float, ...]
    winner: int | None
    plies: int | None
    line: tuple[int, ...]


def make_puzzle(
    game: str,
    options: dict[str, Any],
    state: State,
    source: dict[str, Any],
    *,
    rng: random.Random,
    rate: bool = True,
) -> Puzzle | None:
    """A puzzle from ``state`` (a position of ``game`` with ``options``), or ``None`` where
    it makes none (see the module): no kit for the game, nothing proven, no unique
    enough win or decision. ``source`` is stored as it is; ``rng`` seeds the rating's
    tries; ``rate=False`` leaves the rating at 1500 (tests).

    :raises StairgamesError: bad options.
    """
    kit = puzzle_kit(game)
    if kit is None or state.is_terminal() or state.is_chance_node():
        return None
    if state.agreement_offer() is not None:
        return None
    played = state.without_agreement()  # offers to end are no puzzle
    loaded = played.get_game()
    if len(played.legal_actions()) < 2:
        return None
    prover = prover_for(loaded)
    solver = played.current_player()
    if prover.deterministic_duel:
        found = _duel_puzzle(prover, played, solver)
    elif loaded.info().chance and not loaded.info().hidden_information:
        found = _chance_puzzle(prover, played, solver)
    else:
        return None
    if found is None:
        return None
    goal, root = found
    name = loaded.name
    puzzle_options = options_to_dict(loaded.options)
    position = played.position()
    puzzle = Puzzle(
        id=puzzle_id(name, puzzle_options, position),
        game=name,
        options=puzzle_options,
        position=position,
        solver=solver,
        goal=goal,
        root=root,
        themes=(),
        rating=1500.0,
        source=dict(source),
    )
    main_line = _actions(played, solution(puzzle))
    themes = _common_themes(root) + tuple(kit.themes(played.clone(), main_line))
    rating = difficulty(puzzle, rng=rng) if rate else 1500.0
    return dataclasses.replace(puzzle, themes=themes, rating=rating)


def _duel_puzzle(prover: Prover, state: State, solver: int) -> tuple[str, Node] | None:
    """A two-player puzzle's goal and tree from ``state``, or ``None``."""
    judged = _judge_all(prover, state, solver)
    if judged is None:
        return None
    node = _duel_node(prover, state, solver, judged, moves_left=MOST_SOLVER_MOVES)
    draws = any(j.winner is None for j in judged)
    return (WIN_NOT_DRAW if draws else WIN), node


def _judge_all(prover: Prover, state: State, solver: int) -> list[_Judged] | None:
    """Every legal move of ``state`` proven (its shares, its winner, the plies to the win
    and the line) where ``state`` makes a puzzle's node: one or two winning moves, not
    all, the quickest within :data:`MOST_PLIES`; else ``None``. The distances are
    searched only once the shares allow a puzzle, the winning moves' first."""
    values = prover.values(state)
    if values is None:
        return None
    legal = state.legal_actions()
    winners = {action: _sole_winner(values[action]) for action in legal}
    wins = [action for action in legal if winners[action] == solver]
    if not 1 <= len(wins) <= MOST_WINNING_MOVES or len(wins) == len(legal):
        return None
    found: dict[int, tuple[int | None, tuple[int, ...]]] = {}
    for action in wins:
        found[action] = prover.distance(_after(state, action), solver)
        if found[action][0] is None:
            return None
    if 1 + min(plies for plies, _line in found.values() if plies is not None) > MOST_PLIES:
        return None
    judged = []
    for action in legal:
        winner = winners[action]
        after = _after(state, action)
        if action in found:
            plies, line = found[action]
        elif winner is None:
            plies, line = None, prover.line(after)
        else:
            plies, line = prover.distance(after, winner)
        move = state.action_to_string(action)
        judged.append(_Judged(action, move, values[action], winner, plies, line))
    return judged


def _duel_node(
    prover: Prover, state: State, solver: int, judged: list[_Judged], *, moves_left: int
) -> Node:
    """The node of ``state`` (its moves ``judged``), and below it, while the solver has
    ``moves_left``, the nodes after each right move and the defender's longest defence."""
    wins = [j for j in judged if j.winner == solver and j.plies is not None]
    quickest = min(j.plies for j in wins if j.plies is not None)
    best_found = False
    answers = []
    for j in judged:
        right = j in wins and j.plies == quickest
        verdict = WRONG
        if right:
            verdict = ALSO if best_found else BEST
            best_found = True
        after = _after(state, j.action)
        reply: str | None = None
        following: Node | None = None
        if right and moves_left > 1 and j.line:
            reply_action = j.line[0]
            then = _after(after, reply_action)
            deeper = _next_node(prover, then, solver, moves_left - 1)
            if deeper is not None:
                reply, following = after.action_to_string(reply_action), deeper
        answers.append(
            Answer(
                move=j.move,
                verdict=verdict,
                shares=j.shares,
                plies=j.plies,
                winner=j.winner,
                line=_notation(after, j.line),
                reply=reply,
                next=following,
            )
        )
    return Node(tuple(answers))


def _next_node(prover: Prover, state: State, solver: int, moves_left: int) -> Node | None:
    """The node after a reply where the solver has a real choice again, else ``None``."""
    if state.is_terminal() or state.current_player() != solver:
        return None
    if len(state.legal_actions()) < 2:
        return None
    judged = _judge_all(prover, state, solver)
    if judged is None:
        return None
    return _duel_node(prover, state, solver, judged, moves_left=moves_left)


def _chance_puzzle(prover: Prover, state: State, solver: int) -> tuple[str, Node] | None:
    """A chance game's decision: its goal and one node, or ``None``."""
    values = prover.values(state)
    if values is None:
        return None
    ranked = sorted(values.items(), key=lambda item: -item[1][solver])
    best_action, best_shares = ranked[0]
    if best_shares[solver] - ranked[1][1][solver] < CHANCE_GAP:
        return None
    answers = []
    for action in state.legal_actions():
        shares = values[action]
        answers.append(
            Answer(
                move=state.action_to_string(action),
                verdict=BEST if action == best_action else WRONG,
                shares=shares,
                plies=None,
                winner=_sole_winner(shares),
                line=(),
                reply=None,
                next=None,
            )
        )
    return BEST_CHANCE, Node(tuple(answers))


def _common_themes(root: Node) -> tuple[str, ...]:
    """The shared themes of a puzzle's length (:data:`~stairgames.core.puzzles.COMMON_THEMES`)."""
    plies = root.best.plies
    if plies is None or root.best.winner is None:
        return ()
    total = 1 + plies
    if total == 1:
        return ("win_in_one",)
    if total <= SHORT_WIN:
        return ("short_win",)
    if total >= LONG_WIN:
        return ("long_win",)
    return ()


# ----- difficulty ----------------------------------------------------------------------


def difficulty(puzzle: Puzzle, *, rng: random.Random) -> float:
    """The puzzle's rating: how often the game's weakest levels (the first
    :data:`RATING_LEVELS` of :data:`~stairgames.agents.LEVEL_NAMES`) miss a right first
    move over :data:`RATING_TRIES` seeded tries each, the stronger level's misses
    weighing twice: ``1000 + 1200 × (easy + 2 × medium) / 3`` (misses as shares of tries),
    so 1000 when both always find it and 2200 when neither ever does."""
    state = start_state(puzzle)
    game = state.get_game()
    right = {answer.move for answer in puzzle.root.answers if answer.right}
    weights = [1.0 + index for index in range(RATING_LEVELS)]
    missed = 0.0
    for weight, level in zip(weights, LEVEL_NAMES[:RATING_LEVELS], strict=True):
        kind = level_player(level, game)
        misses = 0
        for _ in range(RATING_TRIES):
            agent = make_agent(kind, puzzle.solver, rng.randrange(1 << 30))
            try:
                move = state.action_to_string(agent.act(state))
            except StairgamesError:
                move = ""
            misses += move not in right
        missed += weight * misses / RATING_TRIES
    share = missed / sum(weights)
    return round(LOWEST_RATING + (HIGHEST_RATING - LOWEST_RATING) * share, 1)


# ----- proving a made puzzle again ------------------------------------------------------


def verify(puzzle: Puzzle, *, first_only: bool = False) -> list[str]:
    """Proves ``puzzle`` again with the exact means: the problems found (empty: every
    stored share, winner, distance and verdict holds, every line and reply is legal and
    each reply is a longest defence). ``first_only``: the root node only.
    """
    try:
        state = start_state(puzzle)
    except StairgamesError as exc:
        return [f"{puzzle.id}: the position does not load: {exc}"]
    if state.current_player() != puzzle.solver:
        return [f"{puzzle.id}: seat {puzzle.solver} is not to move"]
    prover = prover_for(state.get_game())
    problems: list[str] = []
    _verify_node(prover, puzzle, state, puzzle.root, "root", problems, first_only=first_only)
    return problems


def _verify_node(
    prover: Prover,
    puzzle: Puzzle,
    state: State,
    node: Node,
    where: str,
    problems: list[str],
    *,
    first_only: bool,
) -> None:
    here = f"{puzzle.id} {where}"
    legal = {state.action_to_string(action): action for action in state.legal_actions()}
    moves = [answer.move for answer in node.answers]
    if sorted(moves) != sorted(legal):
        problems.append(f"{here}: the answers are not the legal moves ({moves} vs {list(legal)})")
        return
    values = prover.values(state)
    if values is None:
        problems.append(f"{here}: the exact means prove no longer every move")
        return
    solver = puzzle.solver
    best = node.best
    for answer in node.answers:
        said = f"{here} {answer.move}"
        action = legal[answer.move]
        shares = values[action]
        if len(shares) != len(answer.shares) or any(
            abs(a - b) > SHARE_TOLERANCE for a, b in zip(shares, answer.shares, strict=False)
        ):
            problems.append(f"{said}: shares {list(answer.shares)}, proven {list(shares)}")
            continue
        if _sole_winner(shares) != answer.winner:
            problems.append(f"{said}: winner {answer.winner}, proven {_sole_winner(shares)}")
        after = _after(state, action)
        if not _line_is_legal(after, answer.line):
            problems.append(f"{said}: its line is not legal")
        if puzzle.goal == BEST_CHANCE:
            top = max(v[solver] for v in values.values())
            if answer.right != (shares[solver] >= top - EPSILON):
                problems.append(f"{said}: {answer.verdict}, but its share is {shares[solver]}")
            continue
        if answer.winner is not None and (answer.right or answer.plies is not None):
            plies, _line = prover.distance(after, answer.winner)
            if plies is None and answer.plies is not None:  # unsettled here: search on
                plies = prover.settled_distance(after, answer.winner)
            if plies != answer.plies:
                problems.append(f"{said}: {answer.plies} plies, proven {plies}")
                continue
        quickest = best.plies
        keeps = answer.winner == solver and answer.plies is not None and quickest is not None
        should_be_right = keeps and answer.plies is not None and answer.plies <= (quickest or 0)
        if answer.right != should_be_right:
            problems.append(f"{said}: {answer.verdict}, but it should not be")
        if answer.reply is not None and answer.next is not None and not first_only:
            if answer.reply not in [after.action_to_string(a) for a in after.legal_actions()]:
                problems.append(f"{said}: the reply {answer.reply} is not legal")
                continue
            then = after.clone()
            then.apply_action(then.string_to_action(answer.reply))
            if answer.plies is not None:
                left, _line = prover.distance(then, solver)
                if left != answer.plies - 1:
                    problems.append(f"{said}: the reply {answer.reply} is not a longest defence")
            _verify_node(
                prover,
                puzzle,
                then,
                answer.next,
                f"{where} {answer.move} {answer.reply}",
                problems,
                first_only=first_only,
            )
    if node.best.verdict != BEST or not node.best.right:
        problems.append(f"{here}: no best move")


def _line_is_legal(state: State, line: Sequence[str]) -> bool:
    current = state.clone()
    try:
        for move in line:
            current.apply_action(current.string_to_action(move))
    except StairgamesError:
        return False
    return True


def _after(state: State, action: int) -> State:
    child = state.clone()
    child.apply_action(action)
    return child


def _notation(state: State, actions: Sequence[int]) -> tuple[str, ...]:
    current = state.clone()
    moves = []
    for action in actions[:MAX_LINE]:
        moves.append(current.action_to_string(action))
        current.apply_action(action)
    return tuple(moves)


def _actions(state: State, moves: Sequence[str]) -> tuple[int, ...]:
    current = state.clone()
    actions = []
    for move in moves:
        action = current.string_to_action(move)
        actions.append(action)
        current.apply_action(action)
    return tuple(actions)


def load_game(game: str, options: dict[str, Any]) -> Game:
    """``game`` with ``options`` (for callers that have them as data)."""
    return load(game, **options)


__all__ = [
    "CHANCE_GAP",
    "MOST_PLIES",
    "MOST_SOLVER_MOVES",
    "MOST_WINNING_MOVES",
    "Prover",
    "difficulty",
    "make_puzzle",
    "prover_for",
    "verify",
]
