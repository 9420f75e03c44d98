"""Asking a game's exact endgame solver for a proven win before searching.

Players that search (``mcts``, ``alphabeta``) take a setting ``endgame=F``: the
share F of the move's budget first given to the game's own solver (the
``endgame_solver`` field of its :class:`stairgames.core.hooks.PlayerHooks`; Stairs
and 27 offer one). The solver is compiled: :meth:`EndgameProbe.warm_ups` gives its
warm-up, which players run when prepared for a game, so that no move's clock pays
for compiling or loading it. A proven winning action is played at once; otherwise the
player searches on the rest of the budget, leaving out the actions proven to
lose (unless all are). One solver is kept per game
while a player plays it (what it proved is reused on the next move) and made anew
by :meth:`EndgameProbe.restart`. Solvers are made when a player is prepared and when
it restarts (:meth:`EndgameProbe.make_ready`), not in a move: making one (its table
of proven positions, megabytes) takes milliseconds that a move of 0.1 s cannot spare.
"""

from __future__ import annotations

from stairgames.core.game import Game, State
from stairgames.core.hooks import EndgameSolver, WarmUp
from stairgames.core.registry import player_hooks

NODES_PER_ITERATION = 400
"""Solver positions allowed per iteration (or node) of the share under a budget
counted in iterations instead of seconds, so that a seed still repeats every
choice (the compiled Stairs solver searches some 400 positions in the time of
one ``mcts`` iteration through the protocol, or one ``alphabeta`` node)."""

NODES_PER_COMPILED_ITERATION = 6
"""The same for an iteration of a game's compiled tree search (:mod:`stairgames.core.uct`),
some 60 times faster than one through the protocol: the compiled 27 solver searches
4-6 positions in the time of one such iteration in an open position (0.7-1.5 million
positions against 150,000-300,000 iterations a second), the Stairs one about 10-15.
So ``mcts:iterations=N,endgame=F`` gives its solver about the share of the work that
``mcts:time=T,endgame=F`` does where T seconds buy N iterations."""


TRIAL_SHARE = 0.1
"""The solver first gets this share of the budget; only if it proves some action in
it does it go on to the player's whole share (early in a game it proves nothing, and
the time is better spent by the search)."""


class EndgameProbe:
    """A player's access to the game's endgame solver.

    ``trial``: the share of the move's budget the solver first gets (default
    :data:`TRIAL_SHARE`); only if it proves some action there does it go on to its
    whole ``share``.

    ``hold``: once the solver has proven some action in a game, every later move of
    that game gives it the whole share at once, without the trial first (the trial
    gauges whether the end is in reach; once it is, it stays so, while a trial that
    proves nothing in an open position would leave the search without the solver).
    """

    def __init__(self, share: float, *, hold: bool = False, trial: float = TRIAL_SHARE) -> None:
        self.share = share
        self.hold = hold
        self.trial = trial
        """The share of the budget of the trial (at most ``share``)."""
        self._solvers: dict[str, EndgameSolver] = {}
        self._reached: set[str] = set()
        """The games in which the solver has proven some action (for ``hold``)."""
        self.nodes = 0
        """Positions the solver searched in the last :meth:`prove` (its trial and the
        rest of its share together)."""

    def restart(self) -> None:
        """Forget what the solvers proved: each game's solver is made anew now,
        between games, rather than in the next game's first move."""
        names = list(self._solvers)
        self._solvers.clear()
        self._reached.clear()
        for name in names:
            self._make_solver(name)

    def make_ready(self, game: Game) -> None:
        """Make ``game``'s solver now, if this probe will use it (players call it when
        prepared, outside any move's clock)."""
        if self.applies_to(game) and game.name not in self._solvers:
            self._make_solver(game.name)

    def _make_solver(self, name: str) -> EndgameSolver | None:
        make_solver = player_hooks(name).endgame_solver
        if make_solver is None:
            return None
        solver = self._solvers[name] = make_solver()
        return solver

    def applies_to(self, game: Game) -> bool:
        """Whether this probe asks ``game``'s solver anything: a share is set, and the
        game is for two players without chance or hidden information."""
        info = game.info()
        return bool(self.share) and not (
            info.chance or info.hidden_information or info.num_players != 2
        )

    def warm_ups(self, game: Game) -> list[WarmUp]:
        """The warm-up of ``game``'s solver when this probe will use it."""
        hooks = player_hooks(game.name)
        if not self.applies_to(game) or hooks.endgame_solver is None or hooks.warm_up is None:
            return []
        return [hooks.warm_up]

    def prove(
        self,
        state: State,
        *,
        started: float,
        seconds: float | None,
        iterations: int | None,
        nodes_per_iteration: int = NODES_PER_ITERATION,
    ) -> tuple[int | None, dict[int, list[float]]]:
        """A winning action proven within the share of the budget (else ``None``), and
        the actions proven to lose, each with the returns it leads to.

        ``seconds`` and ``iterations`` are the player's whole budget for the move
        (either may be ``None``); the solver gets ``share`` of each, an iteration
        counting as ``nodes_per_iteration`` of its positions.
        """
        game = state.get_game()
        self.nodes = 0
        if not self.applies_to(game):
            return None, {}
        solver = self._solvers.get(game.name) or self._make_solver(game.name)
        if solver is None:
            return None, {}
        seat = state.current_player()
        proven: dict[int, list[float]] = {}
        for share in self._shares(game.name):
            deadline = None if seconds is None else started + share * seconds
            nodes = None if iterations is None else int(share * iterations * nodes_per_iteration)
            proven = solver.prove(state.clone(), nodes=nodes, deadline=deadline)
            self.nodes += solver.nodes
            if not proven:
                break  # nothing is within reach yet: leave the time to the search
            self._reached.add(game.name)
        losing = {
            action: returns for action, returns in proven.items() if returns[seat] < max(returns)
        }
        winning = [action for action, returns in proven.items() if returns[seat] > min(returns)]
        return (winning[0] if winning else None), losing

    def _shares(self, name: str) -> tuple[float, ...]:
        """The shares of the budget the solver gets one after the other: a trial, then
        the whole share if the trial proved something; the whole share at once where
        ``hold`` and the solver has proven something in this game already."""
        if self.hold and name in self._reached:
            return (self.share,)
        return (min(self.trial, self.share), self.share)
