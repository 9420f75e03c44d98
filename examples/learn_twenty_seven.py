"""A masked policy learns 27 against ``random``, in plain numpy, then meets the arena.

The policy is a small neural network (the 27 observation tensor, 1701 numbers, through
one hidden layer of 64 tanh units to a logit for each of the 244 actions), whose
softmax is taken over the legal actions only (the environment's ``action_masks()``).
It is trained by REINFORCE with a running-mean baseline and Adam, playing either seat
of the Gymnasium environment (:mod:`stairgames.interop.gymnasium`) against ``random``
for a few minutes of one CPU core. Before and after, it plays ``random`` and ``easy``
in the arena (seats alternating, as every arena run does), choosing its most likely
legal action; the win rates are printed (a draw counts half), with their 95% intervals.

    pip install -e '.[rl-example]'
    python examples/learn_twenty_seven.py --minutes 3 --games 200 --seed 1

The figures measured on the development machine are in ``docs/rl.md``.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from stairgames.agents import Agent, register_agent
from stairgames.arena import run_arena
from stairgames.arena.report import summarise
from stairgames.core.game import State
from stairgames.core.registry import observation_tensor
from stairgames.interop.gymnasium import GameEnv

GAME = "twenty_seven"
HIDDEN = 64
Array = np.ndarray[Any, np.dtype[np.float64]]


class Policy:
    """A one-hidden-layer network whose softmax is taken over the legal actions."""

    def __init__(self, inputs: int, actions: int, rng: np.random.Generator) -> None:
        self.params: dict[str, Array] = {
            "w1": rng.normal(0.0, 1.0 / np.sqrt(inputs), (inputs, HIDDEN)),
            "b1": np.zeros(HIDDEN),
            "w2": rng.normal(0.0, 0.01, (HIDDEN, actions)),
            "b2": np.zeros(actions),
        }

    def forward(self, x: Array, mask: np.ndarray[Any, Any]) -> tuple[Array, Array]:
        """The hidden layer and the probabilities of the legal actions (0 elsewhere)."""
        hidden = np.tanh(x @ self.params["w1"] + self.params["b1"])
        logits = hidden @ self.params["w2"] + self.params["b2"]
        logits = np.where(mask, logits, -np.inf)
        logits -= logits.max()
        weights = np.exp(logits)
        return hidden, weights / weights.sum()

    def gradient(self, x: Array, mask: np.ndarray[Any, Any], action: int) -> dict[str, Array]:
        """The gradient of ``log p(action)`` for one decision."""
        hidden, probabilities = self.forward(x, mask)
        d_logits = -probabilities
        d_logits[action] += 1.0
        d_hidden = (self.params["w2"] @ d_logits) * (1.0 - hidden**2)
        return {
            "w1": np.outer(x, d_hidden),
            "b1": d_hidden,
            "w2": np.outer(hidden, d_logits),
            "b2": d_logits,
        }


class Adam:
    """Gradient ascent with Adam's moment estimates."""

    def __init__(self, params: dict[str, Array], rate: float = 3e-3) -> None:
        self.rate, self.step = rate, 0
        self.first = {k: np.zeros_like(v) for k, v in params.items()}
        self.second = {k: np.zeros_like(v) for k, v in params.items()}

    def ascend(self, params: dict[str, Array], grads: dict[str, Array]) -> None:
        self.step += 1
        for key, grad in grads.items():
            self.first[key] = 0.9 * self.first[key] + 0.1 * grad
            self.second[key] = 0.999 * self.second[key] + 0.001 * grad**2
            first = self.first[key] / (1 - 0.9**self.step)
            second = self.second[key] / (1 - 0.999**self.step)
            params[key] += self.rate * first / (np.sqrt(second) + 1e-8)


def train(policy: Policy, seconds: float, seed: int, batch: int = 16) -> int:
    """REINFORCE against ``random`` for ``seconds``; the number of games played."""
    env = GameEnv(GAME, opponent="random", seat=None)
    rng = np.random.default_rng(seed)
    optimiser = Adam(policy.params)
    baseline, games = 0.0, 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        total = {k: np.zeros_like(v) for k, v in policy.params.items()}
        for _ in range(batch):
            observation, _ = env.reset(seed=int(rng.integers(2**31)))
            decisions = []
            while True:
                x = observation.ravel().astype(np.float64)
                mask = env.action_masks()
                _, probabilities = policy.forward(x, mask)
                action = int(rng.choice(len(probabilities), p=probabilities))
                decisions.append((x, mask, action))
                observation, reward, terminated, truncated, _ = env.step(action)
                if terminated or truncated:
                    break
            advantage = float(reward) - baseline
            baseline += 0.01 * (float(reward) - baseline)
            for x, mask, action in decisions:
                for key, grad in policy.gradient(x, mask, action).items():
                    total[key] += advantage * grad / batch
            games += 1
        optimiser.ascend(policy.params, total)
    return games


class PolicyAgent(Agent):
    """The policy as a computer player: its most likely legal action in its seat's view."""

    name = "learned"
    policy: Policy | None = None

    def step(self, state: State) -> int:
        assert self.policy is not None
        tensor = observation_tensor(state.get_game().name)
        assert tensor is not None
        x = tensor.encode(state, self.seat).ravel().astype(np.float64)
        mask = np.zeros(len(self.policy.params["b2"]), dtype=np.bool_)
        mask[state.legal_actions()] = True
        _, probabilities = self.policy.forward(x, mask)
        return int(np.argmax(probabilities))


def win_rates(games: int, seed: int) -> dict[str, str]:
    """The learned player's score rate against ``random`` and ``easy`` in the arena."""
    rates = {}
    for opponent in ("random", "easy"):
        run = run_arena(GAME, ["learned", opponent], games=games, seed=seed)
        pairing = summarise(run)["pairings"][0]
        low, high = pairing["ci95"]
        rates[opponent] = f"{pairing['rate']:.1%} [{low:.1%}, {high:.1%}]"
    return rates


def main(arguments: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="training time")
    parser.add_argument("--games", type=int, default=200, help="arena games per opponent")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(arguments)
    env = GameEnv(GAME)
    inputs = int(np.prod(env.tensor.shape(env.game)))
    policy = Policy(inputs, env.num_actions, np.random.default_rng(args.seed))
    PolicyAgent.policy = policy
    register_agent("learned", lambda seat, seed, settings: PolicyAgent(seat, seed=seed))
    before = win_rates(args.games, args.seed)
    print(f"before training: against random {before['random']}, against easy {before['easy']}")
    started = time.perf_counter()
    played = train(policy, args.minutes * 60, args.seed)
    print(f"trained on {played} games against random in {time.perf_counter() - started:.0f} s")
    after = win_rates(args.games, args.seed)
    print(f"after training:  against random {after['random']}, against easy {after['easy']}")
    return {"before": before, "after": after, "games": played}


if __name__ == "__main__":
    main()
