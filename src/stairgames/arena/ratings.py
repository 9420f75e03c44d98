"""Statistics of an arena run: scores with confidence intervals, Elo and OpenSkill ratings.

Everything is computed from the list of game results, so a saved run can be
summarised again exactly.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


def wilson_interval(score: float, games: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's 95% interval for a proportion: ``score`` points out of ``games``.

    Draws count half a point, so ``score`` may end in .5 (an approximation: a
    draw is treated as half a win and half a loss).

    >>> low, high = wilson_interval(90, 100)
    >>> round(low, 3), round(high, 3)
    (0.826, 0.945)
    """
    if games <= 0:
        return 0.0, 1.0
    p = score / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def pairwise_score(mine: float, theirs: float) -> float:
    """1 when ``mine`` beats ``theirs``, 0.5 when equal, 0 when lower."""
    if mine > theirs:
        return 1.0
    if mine < theirs:
        return 0.0
    return 0.5


def elo_ratings(
    players: Sequence[str],
    results: Mapping[tuple[int, int], tuple[float, int]],
    *,
    mean: float = 1500.0,
) -> list[float]:
    """Elo ratings by maximum likelihood (Bradley-Terry), averaging ``mean``.

    ``results[(i, j)] = (points of i against j, games)`` for ``i < j``. One
    virtual draw per pairing keeps ratings finite when a player wins every
    game. Unlike running Elo updates, the result does not depend on game order.
    """
    count = len(players)
    strength = [1.0] * count
    points = [0.0] * count
    pair_games: dict[tuple[int, int], float] = {}
    for (i, j), (score, games) in results.items():
        points[i] += score + 0.5
        points[j] += games - score + 0.5
        pair_games[(i, j)] = games + 1.0
    for _ in range(2000):
        updated = []
        for i in range(count):
            denominator = 0.0
            for (a, b), weight in pair_games.items():
                if i in (a, b):
                    other = b if i == a else a
                    denominator += weight / (strength[i] + strength[other])
            updated.append(points[i] / denominator if denominator else strength[i])
        scale = math.exp(sum(math.log(max(s, 1e-300)) for s in updated) / count)
        updated = [s / scale for s in updated]
        done = max(abs(a - b) for a, b in zip(updated, strength, strict=True)) < 1e-10
        strength = updated
        if done:
            break
    return [mean + 400.0 * math.log10(max(s, 1e-300)) for s in strength]


def openskill_ratings(
    count: int, tables: Sequence[tuple[Sequence[int], Sequence[float]]]
) -> list[tuple[float, float]] | None:
    """OpenSkill (Plackett-Luce) ``(mu, sigma)`` per player, games taken in order.

    ``tables`` holds, for each game, the player of each seat and the seats'
    returns (higher is better; equal returns tie). ``None`` when the
    ``openskill`` package is not installed.
    """
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        return None
    model = PlackettLuce()
    ratings = [model.rating() for _ in range(count)]
    for seats, returns in tables:
        teams = [[ratings[player]] for player in seats]
        scores = [float(value) for value in returns]
        rated = model.rate(teams, scores=scores)
        for player, team in zip(seats, rated, strict=True):
            ratings[player] = team[0]
    return [(float(r.mu), float(r.sigma)) for r in ratings]
