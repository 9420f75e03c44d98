"""The ``greedy`` player: one move ahead with the game's evaluation.

Each legal action is tried on a copy of the state and the result scored for
this seat with :func:`stairgames.agents.evaluation.evaluator_for` (the game's
evaluation, or its returns at the end). Ties are broken at random with the
player's own generator. Where the action leads to a chance node, the value is
the average over the chance outcomes (each scored one step on). In games with
hidden information the copy is a determinisation: what the seat cannot see is
redrawn consistently with what it has seen.

Settings: ``noise`` (0 to 1, default 0): the share of moves played at random,
used by the ``easy`` level.

Where the game's evaluation runs compiled code for its options (Ishigaki Race for three
players: the max^n solution, ``PlayerHooks.estimate``), the player gets that code ready
when prepared (the game's warm-up), and its :meth:`~GreedyAgent.fallback`, while it is
compiled in the background, is the same player on the game's estimate instead (weaker).
"""

from __future__ import annotations

from stairgames.agents.base import (
    Agent,
    Settings,
    check_settings,
    float_setting,
    format_settings,
    register_agent,
)
from stairgames.agents.determinise import Determiniser
from stairgames.agents.evaluation import evaluator_for
from stairgames.core.errors import InvalidOptionError
from stairgames.core.game import Game, State
from stairgames.core.hooks import WarmUp
from stairgames.core.registry import player_hooks
from stairgames.i18n import N_

_EPSILON = 1e-9


class GreedyAgent(Agent):
    name = "greedy"

    def __init__(
        self, seat: int, *, seed: int | None = None, noise: float = 0.0, estimate: bool = False
    ) -> None:
        super().__init__(seat, seed=seed)
        if not 0.0 <= noise <= 1.0:
            raise InvalidOptionError(
                message_id=N_("greedy noise must be between 0 and 1, got {noise}"),
                arguments={"noise": noise},
            )
        self.noise = noise
        self.estimate = estimate
        """Whether it evaluates with the game's estimate that runs no compiled code (the
        :meth:`fallback`)."""

    def describe(self) -> str:
        return format_settings(self.name, {"noise": self.noise} if self.noise else {})

    def warm_ups(self, game: Game) -> list[WarmUp]:
        """The game's warm-up where its evaluation runs compiled code for these options
        (it offers an ``estimate`` that runs none)."""
        hooks = player_hooks(game.name)
        if self.estimate or hooks.warm_up is None or hooks.estimate is None:
            return []
        return [hooks.warm_up] if hooks.estimate(game) is not None else []

    def fallback(self, game: Game) -> Agent | None:
        """The same player on the game's estimate (no compiled code; weaker)."""
        if not self.warm_ups(game):
            return None
        return GreedyAgent(
            self.seat, seed=self.rng.randrange(2**32), noise=self.noise, estimate=True
        )

    def step(self, state: State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if self.noise and self.rng.random() < self.noise:
            return self.rng.choice(legal)
        world = Determiniser(state, self.seat).sample(self.rng)
        evaluate = evaluator_for(state.get_game(), estimate=self.estimate)
        best: list[int] = []
        best_value = -float("inf")
        for action in legal:
            child = world.clone()
            child.apply_action(action)
            value = self._value(child, evaluate)
            if value > best_value + _EPSILON:
                best, best_value = [action], value
            elif value > best_value - _EPSILON:
                best.append(action)
        return self.rng.choice(best)

    def _value(self, state: State, evaluate: object) -> float:
        assert callable(evaluate)
        if not state.is_chance_node():
            return float(evaluate(state, self.seat))
        total = 0.0
        for outcome, probability in state.chance_outcomes():
            child = state.clone()
            child.apply_action(outcome)
            total += probability * float(evaluate(child, self.seat))
        return total


def _make(seat: int, seed: int | None, settings: Settings) -> Agent:
    check_settings("greedy", settings, {"noise": "share of random moves, 0 to 1"})
    return GreedyAgent(seat, seed=seed, noise=float_setting(settings, "noise", 0.0))


register_agent("greedy", _make)
