"""Measuring how long games of Ishigaki Race last, for the length policy.

The game has no finite bound on its length (slips, doubles, crumbling squares
and tied roll-offs can repeat for ever), so ``max_game_length`` is a
probabilistic bound. :func:`length_report` measures game lengths under a simple
policy and estimates how likely a game is to pass a bound by extending the
exponential tail of the measured lengths (``docs/rules/ishigaki_race.md``).

>>> import stairgames
>>> report = length_report(stairgames.load("ishigaki_race"), games=200, seed=1)
>>> report.games, report.longest < report.bound
(200, True)
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable
from typing import Final

from stairgames.core.game import Game
from stairgames.games.ishigaki_race import rules
from stairgames.games.ishigaki_race.rules import Phase, Race

Policy = Callable[[random.Random, Race], bool]
"""Whether to roll the second die."""

POLICIES: Final[dict[str, Policy]] = {
    "random": lambda rng, race: rng.random() < 0.5,
    "always_roll": lambda rng, race: True,
    "always_stop": lambda rng, race: False,
}


def game_length(game: Game, rng: random.Random, policy: Policy) -> int:
    """The number of actions (chance included) of one game played with ``policy``."""
    board: rules.Board = game.board  # type: ignore[attr-defined]
    players = game.num_players()
    race = rules.initial_race(players, game.options.first_player)
    actions = 0
    while race.phase != Phase.OVER:
        if race.phase == Phase.SETUP:
            race = rules.choose_start(race, rng.randrange(players))
        elif race.first_die == 0 or race.rolling:
            race = rules.roll_die(board, race, rng.randint(1, 6))
        else:
            race = rules.decide(board, race, policy(rng, race))
        actions += 1
    return actions


@dataclasses.dataclass(frozen=True)
class LengthReport:
    """Measured game lengths and the estimated chance of passing ``bound``."""

    games: int
    mean: float
    percentile_999: int
    longest: int
    bound: int
    tail_scale: float
    """Actions over which the chance of a longer game falls by a factor e, fitted on the
    longest 1 % of the games."""
    log10_chance_beyond_bound: float
    """Estimated log10 of the chance that one game passes ``bound``."""


def length_report(game: Game, *, games: int, seed: int, policy: str = "random") -> LengthReport:
    """Play ``games`` games with ``policy`` and fit an exponential tail to their lengths."""
    rng = random.Random(seed)
    lengths = sorted(game_length(game, rng, POLICIES[policy]) for _ in range(games))
    bound = game.info().max_game_length
    scale = tail_scale(lengths)
    start = lengths[int(0.99 * len(lengths))]
    beyond = math.log10(0.01) - (bound - start) / scale / math.log(10)
    return LengthReport(
        games=games,
        mean=sum(lengths) / games,
        percentile_999=lengths[int(0.999 * len(lengths))],
        longest=lengths[-1],
        bound=bound,
        tail_scale=scale,
        log10_chance_beyond_bound=beyond,
    )


def tail_scale(lengths: list[int]) -> float:
    """The scale of an exponential tail fitted to the longest 1 % of sorted ``lengths``: for
    an exponential tail, the mean excess over the 99th percentile (at least 1)."""
    start = lengths[int(0.99 * len(lengths))]
    top = [n - start for n in lengths if n >= start]
    return max(1.0, sum(top) / len(top))
