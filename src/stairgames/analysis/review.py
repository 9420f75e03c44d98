"""The review of a game: each move's share before and after it, marked where it lost much.

For every decision of a record (chance moves, the dice and the deals, are not assessed
and are left out of the review), the mover's *share* before the move and after it: its
winning chance from 0 to 1 (a draw counts a half), or in City of Stairs its expected
share of the win (ties split). Each position is valued by the strongest means its game
offers (its :class:`~stairgames.core.assess.Assessor`, the registration's ``assessor``):

1. **exact**: the game's solved tables and exact solvers (``Assessor.exact``), within
   the first :data:`EXACT_SHARE` of the budget and what the positions reviewed before
   left of theirs (:class:`Reserve`: a review goes from the last move back), and the
   positions whose value needs no search (``Assessor.settled``: the end, City's
   complete city). A position is exact when every legal action is, or one gives the
   mover a share of 1;
2. **search** otherwise: Monte Carlo tree search (the ``mcts`` player's, compiled where
   the game offers it) on the rest of the budget, the actions proven lost left out. An
   estimate is the mean share of the search's iterations through one move, with the
   half-width of its 95% Wilson interval over that move's visits (:class:`Estimate`):
   the position's, through the search's move; the played move's, in the same search, so
   that one search values both sides of a move. A position the search proves
   (MCTS-Solver) is exact too.

A move whose proven share is below that of another move proven from the same position is
marked by that difference whatever the engine would have played; otherwise a move is
marked (:class:`~stairgames.core.assess.Thresholds`, per game) by its loss,
``before - after``, less its uncertainty when it is estimated (so that the search's noise
alone marks nothing), unless it is the engine's own move. The budget is per position
assessed (:class:`Budget`: seconds, or iterations for reviews that repeat exactly under a
seed); a move after which chance follows (a die) may need two.

A game with hidden information (City of Stairs) is reviewed only from the full record of
a finished game, where every card is known: any other record is refused before anything
is searched. :func:`hint` assesses one position for the seat to move during play; in a
game with hidden information it searches that seat's determinisations only (what the
seat may know, as the computer players do), so no hidden card reaches it.

``docs/analysis.md`` ("Reviewing a game") documents the thresholds and the JSON shape.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from stairgames.agents.determinise import Determiniser
from stairgames.agents.evaluation import evaluator_for, find_playout
from stairgames.agents.uct import Node, ProtocolSearch
from stairgames.arena.ratings import wilson_interval
from stairgames.core.assess import Assessor, ExactValues, Settled, scaled_shares
from stairgames.core.chance import sample_chance_outcome
from stairgames.core.errors import StairgamesError
from stairgames.core.game import Game, State
from stairgames.core.hooks import Playout
from stairgames.core.record import GameRecord, replay
from stairgames.core.registry import assessor, get_spec, player_hooks
from stairgames.i18n import N_, Text, _, display_width, ngettext, pad, wrap

if TYPE_CHECKING:
    from stairgames.core.uct import TreeSearch

EXACT_SHARE: Final = 0.5
"""The share of a position's budget the game's exact means get first."""
NODES_PER_ITERATION: Final = 400
"""Positions of exact proof an iteration of the budget stands for, where the budget is
counted in iterations (the compiled exact solvers search some 400 positions in the time of
one iteration of the search through the protocol)."""
LINE_PLIES: Final = 6
"""The most actions of a best line."""
LINE_VISITS: Final = 2
"""The visits a search's move needs to be part of a line after its first move."""
EPSILON: Final = 1e-9
RESERVE_CAP: Final = 8
"""The most a position's exact means may draw from the reserve that earlier positions
left (:class:`Reserve`), in multiples of their own share."""
PROOF_STEPS: Final = 8
"""A proof counted in positions starts with this fraction of its share (see
:meth:`Reviewer._prove`)."""
CHUNK_SECONDS: Final = 0.004
"""How long one call into a compiled search should take (the clock is read between)."""

Progress = Callable[[int, int], None]
"""``progress(done, total)``: the decisions assessed so far, of all."""


@dataclasses.dataclass(frozen=True)
class Budget:
    """A position's budget: ``seconds`` and/or ``iterations`` of search (the first spent
    ends it). Iterations repeat exactly under a seed; the exact solvers get
    :data:`EXACT_SHARE` of it first (``iterations`` × 400 × that share positions)."""

    seconds: float | None = 0.5
    iterations: int | None = None

    def __post_init__(self) -> None:
        if self.seconds is None and self.iterations is None:
            raise ValueError("a budget needs seconds or iterations")
        if (self.seconds is not None and self.seconds <= 0) or (
            self.iterations is not None and self.iterations < 1
        ):
            raise ValueError(f"a budget must be positive: {self}")


@dataclasses.dataclass(frozen=True)
class ExactShare:
    """The exact means' share of a position's budget: positions and seconds (``None``:
    the budget sets no such limit)."""

    nodes: float | None
    seconds: float | None

    @property
    def nodes_or_zero(self) -> float:
        return 0.0 if self.nodes is None else self.nodes


@dataclasses.dataclass(frozen=True)
class Reserve:
    """What the exact means of earlier positions left unspent of their share, in
    positions and in seconds, for the positions still to prove (a review goes from the
    last move back, so the quick proofs of the end pay for the harder ones before)."""

    nodes: float = 0.0
    seconds: float = 0.0

    def drawable(self, share: ExactShare) -> Reserve:
        """What one position may draw: at most :data:`RESERVE_CAP` times its share."""
        return Reserve(
            nodes=0.0 if share.nodes is None else min(self.nodes, RESERVE_CAP * share.nodes),
            seconds=0.0
            if share.seconds is None
            else min(self.seconds, RESERVE_CAP * share.seconds),
        )

    def after(self, share: ExactShare, spent: Reserve) -> Reserve:
        """The reserve once a position with ``share`` spent ``spent``."""
        return Reserve(
            nodes=0.0 if share.nodes is None else max(0.0, self.nodes + share.nodes - spent.nodes),
            seconds=0.0
            if share.seconds is None
            else max(0.0, self.seconds + share.seconds - spent.seconds),
        )


DEFAULT_BUDGET: Final = Budget(seconds=0.5)
"""``stairgames review``'s budget per position."""
HINT_BUDGET: Final = Budget(seconds=1.0)
"""The terminal's ``hint``: one position, so a little more."""


@dataclasses.dataclass(frozen=True)
class Assessment:
    """A position's value as the review finds it."""

    shares: tuple[float, ...]
    """Every seat's share under best play (as far as the review sees it)."""
    proven: bool
    """Whether :attr:`shares` are exact."""
    uncertainty: float
    """The half-width of the 95% interval of the mover's share (0 when proven)."""
    mover: int | None
    """The seat to move; ``None`` at chance or at the end."""
    best: int | None = None
    """The engine's move (a decision only)."""
    line: tuple[str, ...] = ()
    """The best line from here, in notation (starting with :attr:`best`)."""
    actions: dict[int, tuple[float, ...]] = dataclasses.field(default_factory=dict)
    """The actions whose values are exact, with every seat's share after them."""
    estimates: dict[int, Estimate] = dataclasses.field(default_factory=dict)
    """The actions the search tried (a decision, not proven), each with its estimate:
    the same search values a move and the position it leaves."""


@dataclasses.dataclass(frozen=True)
class Estimate:
    """What a search found of one action from its root."""

    shares: tuple[float, ...]
    """Every seat's mean share over the search's iterations through the action (its
    proven shares where the search proved it)."""
    uncertainty: float
    """The half-width of the 95% Wilson interval of the mover's mean over the action's
    visits (0 when the search proved it)."""


@dataclasses.dataclass(frozen=True)
class MoveReview:
    """One decision of a record, assessed."""

    ply: int
    """The move's number in the record (1 for the first; chance moves count)."""
    move: str
    mover: int
    colour: str
    """The mover's seat name as it was then (Stairs' ``swap`` exchanges colours)."""
    before: float
    after: float
    proven: bool
    uncertainty: float
    """The half-width of the 95% interval of the loss ``before - after`` (0 when proven)."""
    before_uncertainty: float
    """The half-width of :attr:`before`'s 95% interval (0 when it is exact)."""
    after_uncertainty: float
    """The half-width of :attr:`after`'s 95% interval (0 when it is exact)."""
    mark: str | None
    better: str | None
    line: tuple[str, ...]
    shares_before: tuple[float, ...] = ()
    """Every seat's share before the move (the mover's is :attr:`before`), as far as the
    review valued them (the web app's graph follows any seat)."""
    shares_after: tuple[float, ...] = ()
    """Every seat's share after the move (the mover's is :attr:`after`)."""

    @property
    def loss(self) -> float:
        return max(0.0, self.before - self.after)

    def to_json(self) -> dict[str, Any]:
        """``{"ply", "move", "mover", "colour", "before", "after", "proven", "mark",
        "better", "line"}``, and ``"uncertainty"`` when not proven."""
        data: dict[str, Any] = {
            "ply": self.ply,
            "move": self.move,
            "mover": self.mover,
            "colour": self.colour,
            "before": round(self.before, 4),
            "after": round(self.after, 4),
            "proven": self.proven,
            "mark": self.mark,
            "better": self.better,
            "line": list(self.line),
        }
        if not self.proven:
            data["uncertainty"] = round(self.uncertainty, 4)
        return data


class ReviewRefusedError(StairgamesError):
    """A record the review does not take (an unfinished game with hidden information)."""


def wilson_half_width(share: float, visits: float) -> float:
    """Half the width of the 95% Wilson interval of a share measured over ``visits``
    (:func:`stairgames.arena.ratings.wilson_interval`; a half with none).

    >>> round(wilson_half_width(0.5, 100), 3)
    0.096
    """
    games = int(visits)
    low, high = wilson_interval(min(1.0, max(0.0, share)) * games, games)
    return (high - low) / 2


class Reviewer:
    """Assesses the positions of one game (its options) with its assessor; keeps the
    game's exact solvers (and what they proved) from one position to the next."""

    def __init__(self, game: Game, *, budget: Budget = DEFAULT_BUDGET, seed: int = 0) -> None:
        self.game = game
        self.assessor: Assessor = assessor(game.name)
        self.budget = budget
        self.seed = seed
        self.info = game.info()
        self._exact: ExactValues | None = None
        self._exact_tried = False
        self.reserve = Reserve()
        """What the exact means of the positions assessed so far left unspent."""

    def prepare(self) -> None:
        """Gets the game's compiled code and exact values ready (compiling, loading, solving
        what is solved on demand), so that no position's budget pays for it."""
        warm_up = player_hooks(self.game.name).warm_up
        if warm_up is not None:
            warm_up.run()
        self.exact()

    # ----- the game's exact values -------------------------------------------------

    def exact(self) -> ExactValues | None:
        """The game's exact values for these options, made on first need (``None``: the
        game has none, or not for these options)."""
        if not self._exact_tried:
            self._exact_tried = True
            if self.assessor.exact is not None:
                try:
                    self._exact = self.assessor.exact(self.game)
                except StairgamesError:
                    self._exact = None
        return self._exact

    def _settled(self, state: State) -> list[float] | None:
        return self.assessor.settled(state)

    def _known(
        self, state: State, *, nodes: int | None, deadline: float | None
    ) -> dict[int, list[float]]:
        """The legal actions of ``state`` whose shares are exact within the budget."""
        known: dict[int, list[float]] = {}
        exact = self.exact()
        if exact is not None:
            try:
                known.update(exact.action_values(state, nodes=nodes, deadline=deadline))
            except (StairgamesError, ValueError):
                known = {}
        for action in state.legal_actions():
            if action not in known:
                child = state.clone()
                child.apply_action(action)
                shares = self._settled(child)
                if shares is not None:
                    known[action] = shares
        return known

    @staticmethod
    def _decided(state: State, known: dict[int, list[float]]) -> int | None:
        """The best action when ``known`` decides the position: every action is known, or
        one gives the mover a share of 1; else ``None``."""
        mover = state.current_player()
        legal = state.legal_actions()
        complete = all(action in known for action in legal)
        if not complete and not any(v[mover] >= 1.0 - EPSILON for v in known.values()):
            return None
        candidates = [action for action in legal if action in known]
        return max(candidates, key=lambda action: (known[action][mover], -legal.index(action)))

    # ----- one position ------------------------------------------------------------

    def assess(
        self,
        state: State,
        *,
        index: int = 0,
        viewer: int | None = None,
        reserve: bool = False,
    ) -> Assessment:
        """The value of ``state``. ``viewer``: assess for this seat from what it may know
        (its determinisations, no exact means): for a game with hidden information in play.
        ``index`` seeds the search (the same index and seed give the same search).
        ``reserve``: the exact means may also spend what earlier positions left of theirs
        (:attr:`reserve`, at most :data:`RESERVE_CAP` times a position's share)."""
        rng = random.Random(self.seed * 1_000_003 + index)
        started = time.perf_counter()
        hidden = viewer is not None and self.info.hidden_information and not state.is_terminal()
        if not hidden:
            shares = self._settled(state)
            if shares is not None and (state.is_terminal() or state.is_chance_node()):
                return Assessment(tuple(shares), proven=True, uncertainty=0.0, mover=None)
        if state.is_terminal():
            return Assessment(
                tuple(scaled_shares(state) or ()), proven=True, uncertainty=0.0, mover=None
            )
        known: dict[int, list[float]] = {}
        if not state.is_chance_node() and not hidden:
            known = self._prove(state, started, reserve=reserve)
            best = self._decided(state, known)
            if best is not None:
                line = self._exact_line(state, best)
                return Assessment(
                    tuple(known[best]),
                    proven=True,
                    uncertainty=0.0,
                    mover=state.current_player(),
                    best=best,
                    line=line,
                    actions={a: tuple(v) for a, v in known.items()},
                )
        worlds: Callable[[random.Random], State]
        if hidden:
            assert viewer is not None
            worlds = Determiniser(state, viewer).sample
        else:
            worlds = lambda _rng: state.clone()  # noqa: E731
        found = self._search(state, rng, known, worlds, started, hidden=hidden)
        return dataclasses.replace(found, actions={a: tuple(v) for a, v in known.items()})

    def _prove(self, state: State, started: float, *, reserve: bool) -> dict[int, list[float]]:
        """The legal actions of ``state`` the exact means prove within their share of the
        budget (:data:`EXACT_SHARE`), and with ``reserve`` within what :attr:`reserve`
        adds; what the share leaves unspent goes to :attr:`reserve`.

        Counted in positions (an iteration budget), the proof runs in steps that double,
        from a :data:`PROOF_STEPS`-th of the share on, until the position is decided, so
        that the positions spent are known (the exact solvers keep what they proved
        between steps); counted in seconds, the clock tells."""
        share = self._exact_share()
        extra = self.reserve.drawable(share) if reserve else Reserve()
        deadline = None if share.seconds is None else started + share.seconds + extra.seconds
        if share.nodes is None:
            known = self._known(state, nodes=None, deadline=deadline)
            spent = 0.0
        else:
            known, spent = self._prove_in_steps(state, share.nodes + extra.nodes, deadline)
        seconds = time.perf_counter() - started
        self.reserve = self.reserve.after(share, Reserve(nodes=spent, seconds=seconds))
        return known

    def _prove_in_steps(
        self, state: State, allowed: float, deadline: float | None
    ) -> tuple[dict[int, list[float]], float]:
        """:meth:`_prove` counted in positions: the proven actions, and the positions
        spent (at most ``allowed``)."""
        known: dict[int, list[float]] = {}
        spent = 0.0
        step = max(1.0, self._exact_share().nodes_or_zero / PROOF_STEPS)
        steps = 0
        while spent < allowed:
            nodes = max(1, int(min(step, allowed - spent)))
            known.update(self._known(state, nodes=nodes, deadline=deadline))
            spent += nodes
            steps += 1
            if self._decided(state, known) is not None:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
            if steps > 1:
                step *= 2
        return known, spent

    def _exact_share(self) -> ExactShare:
        """The exact means' share of a position's budget."""
        budget = self.budget
        return ExactShare(
            nodes=None
            if budget.iterations is None
            else max(1.0, EXACT_SHARE * budget.iterations * NODES_PER_ITERATION),
            seconds=None if budget.seconds is None else EXACT_SHARE * budget.seconds,
        )

    def _exact_line(self, state: State, best: int) -> tuple[str, ...]:
        """A best line from ``state`` while the exact means decide it (the most likely
        outcome at chance; it stops at chance in a game with hidden information), on the
        search's share of the budget."""
        budget = self.budget
        deadline = (
            None
            if budget.seconds is None
            else time.perf_counter() + (1 - EXACT_SHARE) * budget.seconds
        )
        nodes = (
            None
            if budget.iterations is None
            else max(1, int((1 - EXACT_SHARE) * budget.iterations * NODES_PER_ITERATION))
        )
        current = state.clone()
        line = [current.action_to_string(best)]
        current.apply_action(best)
        while len(line) < LINE_PLIES and not current.is_terminal():
            if current.is_chance_node():
                if self.info.hidden_information:
                    break
                outcomes = current.chance_outcomes()
                likeliest = max(p for _, p in outcomes)
                action = next(a for a, p in outcomes if p == likeliest)
            else:
                if deadline is not None and time.perf_counter() > deadline:
                    break
                known = self._known(current, nodes=nodes, deadline=deadline)
                decided = self._decided(current, known)
                if decided is None:
                    break
                action = decided
            line.append(current.action_to_string(action))
            current.apply_action(action)
        return tuple(line)

    # ----- the search --------------------------------------------------------------

    def _search(
        self,
        state: State,
        rng: random.Random,
        known: dict[int, list[float]],
        worlds: Callable[[random.Random], State],
        started: float,
        *,
        hidden: bool,
    ) -> Assessment:
        seconds = self.budget.seconds
        deadline = (
            None
            if seconds is None  # the search's share, after a proof that drew on the reserve
            else max(started + seconds, time.perf_counter() + (1 - EXACT_SHARE) * seconds)
        )
        lost = {}
        if not state.is_chance_node():
            mover = state.current_player()
            lost = {a: v for a, v in known.items() if v[mover] <= EPSILON}
            if len(lost) >= len(state.legal_actions()):
                lost = {}
        make = player_hooks(self.game.name).tree_search
        if make is not None and not hidden and not state.is_chance_node():
            compiled = make(state)
            if compiled is not None:
                found = self._search_compiled(state, compiled, rng, set(lost), deadline)
                if found is not None:
                    return found
        return self._search_protocol(state, rng, lost, worlds, deadline, hidden=hidden)

    def _search_compiled(
        self,
        state: State,
        search: TreeSearch,
        rng: random.Random,
        lost: set[int],
        deadline: float | None,
    ) -> Assessment | None:
        """The game's compiled search (two seats, nothing hidden, no chance); ``None`` where
        its move is not legal here."""
        iterations = self.budget.iterations
        if lost:
            search.expand_root(rng.getrandbits(62))
            search.mark_lost(lost)
        chunk = 32
        while iterations is None or search.iterations < iterations:
            if iterations is not None:
                chunk = (
                    iterations - search.iterations
                    if deadline is None
                    else min(chunk, iterations - search.iterations)
                )
            clock = time.perf_counter()
            done = search.run(chunk, self.assessor.exploration, rng.getrandbits(62))
            if done < chunk or (deadline is not None and time.perf_counter() >= deadline):
                break
            spent = time.perf_counter() - clock
            chunk = max(16, min(chunk * 4, int(chunk * CHUNK_SECONDS / max(spent, 1e-6))))
        best = search.best_action()
        if best not in state.legal_actions():
            return None  # a position the compiled search does not play (an offer to answer)
        mover = state.current_player()
        children = list(search.root_children())
        estimates = {
            search.action(child): self._compiled_estimate(search, child, mover)
            for child in children
            if float(search.visits[child]) > 0 or int(search.proven[child]) >= 0
        }
        through_best = estimates.get(best, Estimate((0.5, 0.5), 0.5))
        shares, proven, uncertainty = through_best.shares, False, through_best.uncertainty
        root = search.root_value(mover)
        if root is not None:
            shares, proven, uncertainty, estimates = _two_seats(mover, root), True, 0.0, {}
        best_child = next(c for c in children if search.action(c) == best)
        line = self._compiled_line(state, search, best_child)
        return Assessment(shares, proven, uncertainty, mover, best, line, estimates=estimates)

    @staticmethod
    def _compiled_estimate(search: TreeSearch, child: int, mover: int) -> Estimate:
        """The estimate of a root child of a compiled search (its totals count for the
        root's mover)."""
        from stairgames.core.uct import DRAW, UNKNOWN  # loaded with the compiled search

        result = int(search.proven[child])
        if result != UNKNOWN:
            value = 0.5 if result == DRAW else float(result == search.root_colour())
            return Estimate(_two_seats(mover, value), 0.0)
        visits = float(search.visits[child])
        mean = float(search.totals[child]) / visits
        return Estimate(_two_seats(mover, mean), wilson_half_width(mean, visits))

    @staticmethod
    def _compiled_line(state: State, search: TreeSearch, first: int) -> tuple[str, ...]:
        """The most visited line of a compiled search from its root's ``first`` child."""
        current = state.clone()
        action = search.action(first)
        line = [current.action_to_string(action)]
        current.apply_action(action)
        node = first
        while len(line) < LINE_PLIES and not current.is_terminal():
            start, width = int(search.start[node]), int(search.width[node])
            if start < 0 or width == 0:
                break
            colour = int(search.mover[node])
            children = range(start, start + width)
            won = [c for c in children if int(search.proven[c]) == colour]
            pick = won[0] if won else max(children, key=lambda c: float(search.visits[c]))
            if float(search.visits[pick]) < LINE_VISITS and not won:
                break
            action_of = search.actions.get(int(search.move[pick]))
            if action_of is None or action_of not in current.legal_actions():
                break
            line.append(current.action_to_string(action_of))
            current.apply_action(action_of)
            node = pick
        return tuple(line)

    def _search_protocol(
        self,
        state: State,
        rng: random.Random,
        lost: dict[int, list[float]],
        worlds: Callable[[random.Random], State],
        deadline: float | None,
        *,
        hidden: bool,
    ) -> Assessment:
        """``mcts``'s search through the protocol, on ``worlds`` (the state, or a seat's
        determinisations), its playouts ending where the assessor settles a state."""
        game = self.game
        seats = game.num_players()
        root = Node(seats)
        custom = self.assessor.settled is not scaled_shares
        search = _ReviewSearch(
            game,
            root,
            rng,
            exploration=self.assessor.exploration,
            cutoff=0,
            solver=not hidden,
            playout=None if custom else find_playout(game.name),
            evaluate=evaluator_for(game),
            settled=self.assessor.settled if custom else None,
        )
        for action, proven_shares in lost.items():
            lost_child = root.child(action, seats)
            lost_child.solved = list(proven_shares)
            lost_child.visits = 1
            lost_child.totals = list(proven_shares)
        done = 0
        iterations = self.budget.iterations
        while iterations is None or done < iterations:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            search.iterate(worlds(rng))
            done += 1
            if root.solved is not None:
                break
        shares: tuple[float, ...]
        if state.is_chance_node():
            visits = max(root.visits, 1)
            shares = tuple(total / visits for total in root.totals)
            spread = max(wilson_half_width(s, root.visits) for s in shares)
            line = self._protocol_line(worlds(rng) if hidden else state, root, None)
            return Assessment(shares, root.solved is not None, spread, None, None, line)
        mover = state.current_player()
        legal = state.legal_actions()
        best = max(legal, key=lambda action: root.preference(action, mover))
        estimates = {
            action: _node_estimate(child, mover)
            for action, child in root.children.items()
            if child.visits > 0 or child.solved is not None
        }
        if root.solved is not None:
            shares, proven, spread, estimates = tuple(root.solved), True, 0.0, {}
        elif best in estimates:
            shares, proven, spread = estimates[best].shares, False, estimates[best].uncertainty
        else:
            visits = max(root.visits, 1)
            shares = tuple(total / visits for total in root.totals)
            proven, spread = False, wilson_half_width(shares[mover], root.visits)
        line = self._protocol_line(worlds(rng) if hidden else state, root, best)
        return Assessment(shares, proven, spread, mover, best, line, estimates=estimates)

    def _protocol_line(self, state: State, root: Node, best: int | None) -> tuple[str, ...]:
        """The most visited line of a search through the protocol from ``state`` (the
        position, or for a hint in a game with hidden information one of the seat's
        determinisations, so that the line tells nothing of the true state): the most
        visited outcome at chance; it stops at chance in a game with hidden information."""
        current = state.clone()
        node = root
        line: list[str] = []
        first = best
        while len(line) < LINE_PLIES and not current.is_terminal():
            if current.is_chance_node():
                if self.info.hidden_information or not node.children:
                    break
                action = max(node.children, key=lambda a: node.children[a].visits)
            elif first is not None:
                action, first = first, None
            else:
                options = [a for a in current.legal_actions() if a in node.children]
                if not options:
                    break
                seat = current.current_player()
                action = max(options, key=lambda a: node.preference(a, seat))
            child = node.children.get(action)
            if line and (child is None or (child.visits < LINE_VISITS and child.solved is None)):
                break
            if not current.is_chance_node() and action not in current.legal_actions():
                break
            line.append(current.action_to_string(action))
            current.apply_action(action)
            if child is None:
                break
            node = child
        return tuple(line)


def _node_estimate(child: Node, mover: int) -> Estimate:
    """The estimate of a root child of a search through the protocol."""
    if child.solved is not None:
        return Estimate(tuple(child.solved), 0.0)
    shares = tuple(total / child.visits for total in child.totals)
    return Estimate(shares, wilson_half_width(shares[mover], child.visits))


def _two_seats(mover: int, value: float) -> tuple[float, float]:
    """The shares of a two-seat game where ``mover`` gets ``value``."""
    return (value, 1.0 - value) if mover == 0 else (1.0 - value, value)


class _ReviewSearch(ProtocolSearch):
    """``mcts``'s protocol search, valuing states by an assessor's :data:`Settled`: a
    playout ends where it settles a state (City's complete city)."""

    def __init__(
        self,
        game: Game,
        root: Node,
        rng: random.Random,
        *,
        exploration: float,
        cutoff: int,
        solver: bool,
        playout: Playout | None,
        evaluate: Callable[[State, int], float],
        settled: Settled | None,
    ) -> None:
        super().__init__(
            game,
            root,
            rng,
            exploration=exploration,
            cutoff=cutoff,
            solver=solver,
            playout=playout,
            evaluate=evaluate,
        )
        self.settled = settled

    def _scaled_returns(self, state: State) -> list[float]:
        shares = None if self.settled is None else self.settled(state)
        return super()._scaled_returns(state) if shares is None else shares

    def _play_out(self, state: State) -> list[float]:
        if self.settled is None:
            return super()._play_out(state)
        while True:
            shares = self.settled(state)
            if shares is not None:
                return shares
            if state.is_chance_node():
                state.apply_action(sample_chance_outcome(state, self.rng))
            else:
                state.apply_action(self.rng.choice(state.legal_actions()))


# ----- a record ---------------------------------------------------------------------


def review(
    record: GameRecord,
    *,
    budget: Budget = DEFAULT_BUDGET,
    seed: int = 0,
    progress: Progress | None = None,
) -> list[MoveReview]:
    """Every decision of ``record`` assessed, in order (chance moves left out).

    :raises ReviewRefusedError: a game with hidden information whose record is not the
        full record of a finished game (checked before anything is searched).
    :raises InvalidRecordError: the record does not replay.
    :raises ReviewInterrupted: Ctrl-C (or ``progress`` raising
        :exc:`KeyboardInterrupt`) stopped it; it holds the moves reviewed so far.
    """
    _refuse_hidden_unless_finished(record)
    frames = list(replay(record))
    states = [state for _, state in frames]
    moves = [move or "" for move, _ in frames[1:]]
    game = states[0].get_game()
    if game.info().hidden_information and not states[-1].is_terminal():
        raise _refusal(record.game)
    reviewer = Reviewer(game, budget=budget, seed=seed)
    reviewer.prepare()
    decisions = [i for i in range(len(moves)) if not states[i].is_chance_node()]
    cache: dict[int, Assessment] = {}

    def assessed(index: int) -> Assessment:
        if index not in cache:
            cache[index] = reviewer.assess(states[index], index=index, reserve=True)
        return cache[index]

    reviews: dict[int, MoveReview] = {}
    try:
        for done, index in enumerate(reversed(decisions), start=1):  # the end first: Reserve
            reviews[index] = _review_move(reviewer, states, moves, index, assessed)
            if progress is not None:
                progress(done, len(decisions))
    except KeyboardInterrupt as stop:
        if isinstance(stop, ReviewInterrupted):
            raise
        kept = [reviews[index] for index in decisions if index in reviews]
        raise ReviewInterrupted(kept, len(decisions)) from None
    return [reviews[index] for index in decisions]


class ReviewInterrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM stopped :func:`review`: a :exc:`KeyboardInterrupt` that keeps
    the moves reviewed before it (the last moves of the game, since the review works
    from the end), in game order."""

    def __init__(self, reviews: list[MoveReview], total: int) -> None:
        super().__init__(f"stopped after {len(reviews)} of {total} moves")
        self.reviews = reviews
        """The moves reviewed, in game order."""
        self.total = total
        """The decisions the whole review would have assessed."""


@dataclasses.dataclass(frozen=True)
class _Side:
    """One side of a move, before or after it: every seat's shares, whether they are
    proven, and the half-width of the mover's 95% interval (0 when proven)."""

    shares: tuple[float, ...]
    proven: bool
    spread: float


def _review_move(
    reviewer: Reviewer,
    states: list[State],
    moves: list[str],
    index: int,
    assessed: Callable[[int], Assessment],
) -> MoveReview:
    before_state, after_state = states[index], states[index + 1]
    mover = before_state.current_player()
    played = after_state.history()[-1]
    forced = len(before_state.legal_actions()) == 1  # a forced move loses nothing
    value = None if forced else assessed(index)
    after = _after_side(value, played, lambda: assessed(index + 1))
    best, line = (played, (moves[index],)) if value is None else (value.best, value.line)
    before = after if value is None else _before_side(value, after, mover)
    proven = before.proven and after.proven
    spread = 0.0 if proven else math.hypot(before.spread, after.spread)
    thresholds = reviewer.assessor.thresholds
    drop = None if value is None else _proven_drop(before_state, value, after)
    mark, better = None, None
    if drop is not None:  # whatever the engine would have played
        loss, better = drop
        mark = thresholds.mark(loss)
    elif played != best:
        mark = thresholds.mark(max(0.0, before.shares[mover] - after.shares[mover]) - spread)
        better = best
    return MoveReview(
        ply=index + 1,
        move=moves[index],
        mover=mover,
        colour=before_state.seat_name(mover),
        before=before.shares[mover],
        after=after.shares[mover],
        proven=proven,
        uncertainty=spread,
        before_uncertainty=before.spread,
        after_uncertainty=after.spread,
        mark=mark,
        better=None if mark is None or better is None else before_state.action_to_string(better),
        line=line,
        shares_before=before.shares,
        shares_after=after.shares,
    )


def _after_side(
    value: Assessment | None, played: int, assess_after: Callable[[], Assessment]
) -> _Side:
    """The side after the played move: its proven shares (from the position before, or
    the position after), else its estimate in the search of the position before (one
    search values both sides of a move, so that they cannot contradict each other: the
    engine's own move loses nothing), else, where that search never tried it, the
    search of the position after."""
    if value is not None and played in value.actions:
        return _Side(value.actions[played], True, 0.0)
    after = assess_after()
    if after.proven:
        return _Side(after.shares, True, 0.0)
    if value is not None and played in value.estimates:
        estimate = value.estimates[played]
        return _Side(estimate.shares, False, estimate.uncertainty)
    return _Side(after.shares, False, after.uncertainty)


def _before_side(value: Assessment, after: _Side, mover: int) -> _Side:
    """The side before the move: the position's value, no less than a move proven from
    it (the played one included); proven when such a move gives the mover a share of 1."""
    if value.proven:
        return _Side(value.shares, True, 0.0)
    floors = list(value.actions.values()) + ([after.shares] if after.proven else [])
    floor = max(floors, key=lambda shares: shares[mover], default=None)
    if floor is None or floor[mover] <= value.shares[mover]:
        return _Side(value.shares, False, value.uncertainty)
    if floor[mover] >= 1.0 - EPSILON:
        return _Side(tuple(floor), True, 0.0)
    return _Side(tuple(floor), False, value.uncertainty)


def _proven_drop(state: State, value: Assessment, after: _Side) -> tuple[float, int] | None:
    """``(loss, better)`` where the move's proven share is below that of a move proven
    from ``state`` (``better``, the first of the best): a proven drop; else ``None``."""
    if not after.proven or not value.actions:
        return None
    mover = state.current_player()
    legal = state.legal_actions()
    better = max(value.actions, key=lambda a: (value.actions[a][mover], -legal.index(a)))
    loss = value.actions[better][mover] - after.shares[mover]
    return (loss, better) if loss > EPSILON else None


def _refuse_hidden_unless_finished(record: GameRecord) -> None:
    """Refuses a record of a game with hidden information that is not full (before it is
    replayed: a view record replays with stand-in cards)."""
    from stairgames.core.registry import load

    try:
        game = load(record.game, **record.options)
    except StairgamesError:
        return  # replaying it says what is wrong
    if game.info().hidden_information and not record.is_full:
        raise _refusal(record.game)


def _refusal(name: str) -> ReviewRefusedError:
    return ReviewRefusedError(
        message_id=N_(
            "a game of {title} is reviewed only once it is over, from its full record: "
            "before that the review would need cards hidden from the players"
        ),
        arguments={"title": Text(get_spec(name).title)},
    )


def review_json(reviews: list[MoveReview]) -> list[dict[str, Any]]:
    """The review as JSON-ready data: one object a decision (:meth:`MoveReview.to_json`)."""
    return [move.to_json() for move in reviews]


# ----- one position during play -----------------------------------------------------


def hint(
    state: State,
    *,
    budget: Budget = HINT_BUDGET,
    seed: int = 0,
    reviewer: Reviewer | None = None,
) -> Assessment:
    """The engine's move and its assessment for the seat to move in ``state``; in a game
    with hidden information, from what that seat may know only. ``reviewer``: one kept
    from an earlier hint of the same game, whose budget and seed then apply (its exact
    solvers keep what they proved).

    :raises ValueError: ``state`` is not a decision.
    """
    if state.is_terminal() or state.is_chance_node():
        raise ValueError("a hint needs a position with a seat to move")
    if reviewer is None or reviewer.game != state.get_game():
        reviewer = Reviewer(state.get_game(), budget=budget, seed=seed)
    reviewer.prepare()
    return reviewer.assess(state, index=len(state.history()), viewer=state.current_player())


# ----- for people -------------------------------------------------------------------


def percent(share: float, spread: float | None = None) -> str:
    """``73%``, or ``73±4%`` for an estimate."""
    if spread is None:
        return f"{round(100 * share)}%"
    return f"{round(100 * share)}±{max(1, round(100 * spread))}%"


TABLE_WIDTH: Final = 80
"""The columns the review's table keeps within (a terminal's width)."""

MARK_NAMES: Final = {
    "inaccuracy": N_("inaccuracy"),
    "mistake": N_("mistake"),
    "blunder": N_("blunder"),
}
"""Each mark's name for players (message ids)."""


def format_table(reviews: list[MoveReview], game: str) -> str:
    """The review as a table for the terminal, in the current language."""
    measure = _(assessor(game).measure)
    heading = _(
        "Each move's {measure} for its player, before and after it. With ±: the "
        "search's estimate, the mean of its playouts through the move (before: its own "
        "move; after: the move played, in the same search), and the 95% interval of that "
        "mean; without: proven."
    ).format(measure=measure)
    headers = [_("ply"), _("move"), _("player"), _("before"), _("after"), _("mark"), _("better")]
    rows = []
    for move in reviews:
        before = percent(move.before, move.before_uncertainty or None)
        after = percent(move.after, move.after_uncertainty or None)
        rows.append(
            [
                str(move.ply),
                move.move,
                _(move.colour),
                before,
                after,
                "" if move.mark is None else _(MARK_NAMES[move.mark]),
                move.better or "",
            ]
        )
    widths = [max(display_width(row[c]) for row in [headers, *rows]) for c in range(len(headers))]
    lines = [*wrap(heading, TABLE_WIDTH), ""]
    for row in [headers, *rows]:
        lines.append(
            "  ".join(pad(cell, width) for cell, width in zip(row, widths, strict=True)).rstrip()
        )
    proven = sum(1 for move in reviews if move.proven)
    lines.append("")
    lines.extend(
        wrap(
            ngettext(
                "{proven} of {count} move proven exactly.",
                "{proven} of {count} moves proven exactly.",
                len(reviews),
            ).format(proven=proven, count=len(reviews)),
            TABLE_WIDTH,
        )
    )
    return "\n".join(lines)


def format_hint(state: State, found: Assessment) -> list[str]:
    """The terminal's ``hint``: the engine's move, the mover's share, the best line."""
    assert found.mover is not None and found.best is not None
    measure = _(assessor(state.get_game().name).measure)
    share = found.shares[found.mover]
    lines = [_("The engine's move: {move}").format(move=state.action_to_string(found.best))]
    if found.proven:
        lines.append(
            _("Your {measure}: {value} (proven)").format(measure=measure, value=percent(share))
        )
    else:
        lines.append(
            _("Your {measure}: {value} (the search's estimate, 95% interval)").format(
                measure=measure, value=percent(share, found.uncertainty)
            )
        )
    if len(found.line) > 1:
        lines.append(_("Best line: {line}").format(line=" ".join(found.line)))
    return lines


__all__ = [
    "DEFAULT_BUDGET",
    "HINT_BUDGET",
    "Assessment",
    "Budget",
    "MoveReview",
    "ReviewInterrupted",
    "ReviewRefusedError",
    "Reviewer",
    "format_hint",
    "format_table",
    "hint",
    "percent",
    "review",
    "review_json",
    "wilson_half_width",
]
