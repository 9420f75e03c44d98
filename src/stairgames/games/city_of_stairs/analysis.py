"""How a card set plays under random play: how strolls end, which diary cards turn up.

Run ``python -m stairgames.games.city_of_stairs.analysis [GAMES] [--cards FILE]`` to measure
a card set (the figures in ``docs/rules/city_of_stairs.md`` come from ``1000``).
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import random
import statistics
from collections.abc import Sequence

import stairgames
from stairgames.core.chance import sample_chance_outcome
from stairgames.games.city_of_stairs.game import CityOfStairsState


@dataclasses.dataclass(frozen=True)
class StrollStatistics:
    """Figures over ``games`` random games of one player count."""

    players: int
    games: int
    ends: dict[str, float]
    """Share of strolls ending on five diary cards, at the lighthouse, or trapped."""
    diary: dict[str, float]
    """Mean number of times each diary card turns up per stroll."""
    wins: dict[str, int]
    """Games won (or shared) by each colour."""
    ties: float
    mean_score: float
    mean_length: float
    max_length: int

    def report(self) -> str:
        ends = ", ".join(f"{name} {share:.1%}" for name, share in sorted(self.ends.items()))
        diary = ", ".join(
            f"{icon} {mean:.2f}" for icon, mean in sorted(self.diary.items(), key=lambda kv: -kv[1])
        )
        return (
            f"{self.players} players, {self.games} games: strolls end {ends}; ties "
            f"{self.ties:.1%}; mean score {self.mean_score:.2f}; length mean "
            f"{self.mean_length:.1f}, max {self.max_length}\n"
            f"  diary cards per stroll: {diary}\n  wins by colour: {self.wins}"
        )


def measure(
    players: int, games: int, *, seed: int = 0, cards: str | None = None
) -> StrollStatistics:
    """Play ``games`` games with every decision uniformly at random and collect figures."""
    game = stairgames.load("city_of_stairs", players=players, cards=cards)
    rng = random.Random(seed)
    ends: collections.Counter[str] = collections.Counter()
    diary: collections.Counter[str] = collections.Counter()
    wins: collections.Counter[str] = collections.Counter()
    lengths: list[int] = []
    points: list[int] = []
    ties = 0
    for _ in range(games):
        state = game.new_initial_state()
        assert isinstance(state, CityOfStairsState)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance_outcome(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        lengths.append(state.move_number())
        points.extend(state.scores())
        for seat in range(players):
            walk = state.walk(seat)
            assert walk is not None and walk.end is not None
            ends[walk.end.name.lower()] += 1
            diary.update(walk.diary)
        outcome = state.outcome()
        assert outcome is not None
        ties += len(outcome.winners) > 1
        wins.update(state.table.colours[seat] for seat in outcome.winners)
    strolls = games * players
    return StrollStatistics(
        players=players,
        games=games,
        ends={name: count / strolls for name, count in ends.items()},
        diary={icon: count / strolls for icon, count in diary.items()},
        wins=dict(wins),
        ties=ties / games,
        mean_score=statistics.mean(points),
        mean_length=statistics.mean(lengths),
        max_length=max(lengths),
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", type=int, nargs="?", default=200)
    parser.add_argument("--cards", default=None, help="card-set TOML file (default set if none)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    for players in (2, 3, 4):
        print(measure(players, args.games, seed=args.seed + players, cards=args.cards).report())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
