"""What a game offers computer players, as typed data (loaded only when a player asks).

A game's registration (:class:`stairgames.core.registry.GameSpec`) names, in
``player_hooks``, a :class:`PlayerHooks` by a lazy ``"module:attribute"`` reference:
the game's evaluation, its own fast playout, its exact endgame solver, its level
configurations, the warm-up of its compiled code (and an evaluation that needs none)
and its opening book. Every field is
optional. The
registry imports the game's player module (``play/evaluate.py``) only on first need, so
loading a game and playing it through the protocol imports no player code and no
numba (``tests/test_hooks.py``). Nothing here is found by a module's name or an
attribute's name: shared code reads these fields and nothing else.
"""

from __future__ import annotations

import dataclasses
import functools
import random
import types
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from stairgames.core.game import Game, State

if TYPE_CHECKING:
    from stairgames.core.uct import TreeSearch

Evaluator = Callable[[State, int], float]
"""``evaluate(state, seat)``: a heuristic value in [-1, 1] of ``state`` for ``seat``."""

Playout = Callable[[State, random.Random], list[float]]
"""``playout(state, rng) -> returns``: a game's own uniformly random playout to the end.

It must play the games of choosing ``rng.choice(state.legal_actions())`` (and
sampling chance) at every step with the same probabilities, only faster; it may draw
its moves from a generator of its own seeded from ``rng`` (the compiled playouts of
Stairs and 27 do), so the same ``rng`` need not give the same game move for move."""


class EndgameSolver(Protocol):
    """A game's exact solver for positions near the end.

    A two-player game without chance or hidden information may offer one when it can
    search the rest of a game to the end faster than a player could through the
    protocol; one solver serves one player through one game, keeping what it proved.
    """

    nodes: int
    """Positions searched by the last :meth:`prove` (for benchmarks)."""

    def prove(
        self, state: State, *, nodes: int | None = None, deadline: float | None = None
    ) -> dict[int, list[float]]:
        """The actions of ``state`` proven within ``nodes`` positions or by ``deadline``,
        each with the returns it leads to under perfect play; it stops at the first
        action proven to win for the seat to move."""
        ...


class PerfectPlay(Protocol):
    """A game's solved values: what every legal action is worth under perfect play.

    A game offers it (:attr:`PlayerHooks.perfect_play`) for the option sets it has
    solved (small Stairs boards, a 27 variant whose table is on disk, two-player
    Ishigaki Race); the ``perfect`` player and analysis read it.
    """

    def action_values(self, state: State) -> dict[int, list[float]]:
        """Each legal action of ``state`` (a decision, not a chance node) with the
        returns (or, with chance, the expected returns) it leads to when every seat
        plays perfectly from there."""
        ...

    def principal_variation(self, state: State, *, limit: int = 200) -> list[int]:
        """The actions (chance outcomes included, where the game has them: the most
        likely ones) of a perfect game from ``state``, at most ``limit``."""
        ...


PerfectPlayFactory = Callable[[Game], PerfectPlay]
"""``perfect_play(game)``: the solved values of ``game`` (its options).

:raises InvalidOptionError: ``game`` (with these options) is not solved, or its
    table is missing; the message says why and how to solve it."""


ResampleHidden = Callable[[State, int, random.Random], State]
"""``resample_hidden(state, seat, rng)``: a fresh state in which everything ``seat``
cannot see is redrawn at random, consistently with what it has seen (the hook of
:mod:`stairgames.agents.determinise`)."""


@dataclasses.dataclass(frozen=True)
class WarmUp:
    """Getting a game's compiled code (numba kernels) ready before play.

    The first use on a machine compiles it (seconds) and keeps it on disk; later
    processes load it (well under a second). Players call :attr:`run` when they are
    prepared for a game (:meth:`stairgames.agents.Agent.prepare`), outside any
    move's clock.
    """

    run: Callable[[], None]
    """Compile, or load from disk, everything a player's move would use."""
    cold: Callable[[], bool]
    """Whether :attr:`run` has to compile (nothing usable on disk yet), so that a
    driver can tell people it takes a few seconds, this once."""


@dataclasses.dataclass(frozen=True)
class PlayerHooks:
    """What a game offers computer players; every field is optional."""

    evaluate: Evaluator | None = None
    """A heuristic value of a state for a seat, in [-1, 1]; without it players use
    the returns at the end and 0 before."""
    playout: Playout | None = None
    """A faster uniformly random playout than the protocol's."""
    endgame_solver: Callable[[], EndgameSolver] | None = None
    """A factory of exact endgame solvers (one per player and game)."""
    tree_search: Callable[[State], TreeSearch | None] | None = None
    """A compiled tree search of a state (:mod:`stairgames.core.uct`), which ``mcts``
    runs in place of its own where the game offers it; ``None`` for a state it does not
    cover."""
    guided_tree_search: Callable[[State], TreeSearch | None] | None = None
    """:attr:`tree_search` with playouts that draw moves by the game's move policy rather
    than uniformly (``mcts:guided=1``)."""
    valued_tree_search: Callable[[State, float], TreeSearch | None] | None = None
    """``valued_tree_search(state, mix)``: :attr:`tree_search` with each new leaf valued by
    the game's learned evaluation (:func:`stairgames.core.uct.iterate_valued`) mixed with
    a random playout's result by the share ``mix`` (0: the evaluation alone), for
    ``mcts:net=1``; ``None`` for a state it does not cover."""
    policy_tree_search: Callable[[State], TreeSearch | None] | None = None
    """:attr:`valued_tree_search` (the evaluation alone) with each node's moves given
    priors by the game's learned policy and chosen by PUCT
    (:func:`stairgames.core.uct.iterate_guided`), for ``mcts:net=1,policy=1``; ``None``
    for a state it does not cover."""
    valued_warm_up: WarmUp | None = None
    """The warm-up of :attr:`valued_tree_search`'s compiled code (players that take
    ``net=1`` run it when they are prepared)."""
    policy_warm_up: WarmUp | None = None
    """The warm-up of :attr:`policy_tree_search`'s compiled code (players that take
    ``policy=1`` run it when they are prepared)."""
    levels: Mapping[str, str] = dataclasses.field(
        default_factory=lambda: types.MappingProxyType({})
    )
    """Level configurations this game replaces, e.g. ``{"expert":
    "alphabeta:time=1.8"}`` (:mod:`stairgames.agents.levels`)."""
    stand_ins: Mapping[str, str] = dataclasses.field(
        default_factory=lambda: types.MappingProxyType({})
    )
    """Per level, the level that its stand-in (the :meth:`~stairgames.agents.Agent.
    fallback` it plays while its compiled code is compiled in the background) is about as
    strong as, measured in the arena, e.g. ``{"expert": "medium"}``; what the terminal and
    the page tell players meanwhile (:func:`stairgames.agents.levels.stand_in_like`). A
    level named neither here nor in :attr:`stand_in_bands` was not measured: its stand-in
    is only said to be weaker."""
    stand_in_bands: Mapping[str, tuple[str, str]] = dataclasses.field(
        default_factory=lambda: types.MappingProxyType({})
    )
    """Per level, the two levels its stand-in was measured between in the arena: the one
    it beat and the one that beat it, e.g. ``{"hard": ("easy", "medium")}``, where it is
    about as strong as neither (:func:`stairgames.agents.levels.stand_in_band`)."""
    perfect_play: PerfectPlayFactory | None = None
    """The game's solved values, for the option sets it has solved (the ``perfect``
    player)."""
    warm_up: WarmUp | None = None
    """The warm-up of the compiled code that :attr:`endgame_solver` and :attr:`playout`
    use (and :attr:`evaluate`, for the options :attr:`estimate` names)."""
    estimate: Callable[[Game], Evaluator | None] | None = None
    """For a game (its options) whose :attr:`evaluate` runs the compiled code of
    :attr:`warm_up`: an evaluation that runs none (weaker: an estimate where the other is
    exact), which players that evaluate play with while that code is compiled in the
    background; ``None`` for options whose evaluation runs no compiled code."""
    opening: Callable[[State], int | None] | None = None
    """The game's opening book: its move for a state it covers (an action of the state),
    ``None`` for any other state. Players that take the setting ``book=1`` play it
    without searching (27 offers one for the first player's first moves)."""

    def __post_init__(self) -> None:
        # a read-only copy, so that nobody changes a game's levels behind its back
        object.__setattr__(self, "levels", types.MappingProxyType(dict(self.levels)))
        object.__setattr__(self, "stand_ins", types.MappingProxyType(dict(self.stand_ins)))
        bands = types.MappingProxyType(dict(self.stand_in_bands))
        object.__setattr__(self, "stand_in_bands", bands)


NO_HOOKS = PlayerHooks()
"""The hooks of a game that offers players nothing of its own."""


def on_first_use(reference: str) -> Callable[..., Any]:
    """The function a ``"module:attribute"`` reference names, its module imported on the
    first call (:func:`stairgames.core.registry.resolve`): how a game's hooks name
    their compiled parts, so that loading the hooks imports neither those modules nor
    numba (``tests/test_hooks.py``)."""

    @functools.cache
    def target() -> Callable[..., Any]:
        from stairgames.core.registry import resolve

        found: Callable[..., Any] = resolve(reference)
        return found

    def call(*args: Any, **kwargs: Any) -> Any:
        return target()(*args, **kwargs)

    call.__doc__ = f"``{reference}``, imported on first use."
    return call


def compiled_warm_up(*steps: str, kernel: str) -> WarmUp:
    """The warm-up of a game's compiled code: the functions ``steps`` (``"module:
    attribute"`` references), called in order once a process (players prepare for
    every game of an arena; the last step records the kernel warm), and cold while
    the :class:`stairgames.core.compiled.Kernel` that ``kernel`` names is
    (:meth:`~stairgames.core.compiled.Kernel.cold`)."""

    @functools.cache
    def run() -> None:
        for step in steps:
            on_first_use(step)()

    def cold() -> bool:
        from stairgames.core.registry import resolve

        return bool(resolve(kernel).cold())

    return WarmUp(run=run, cold=cold)
