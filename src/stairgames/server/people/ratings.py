"""Players' ratings: OpenSkill (Plackett-Luce) per game and rating pool, from stored results.

A rated game is one between people only: every seat held by a different player, none by
the computer, none shared at one screen (:func:`is_rateable`). Each game keeps its own
ratings, and a game whose options change it keeps one per pool
(:func:`pool_of`: Stairs 6×6 apart from other sizes, 27 by variant; the game's
registration names those options). Plackett-Luce rates 2 to 4 players at once, equal
scores sharing their place; a resignation counts as a loss because the result says so.

Ratings are always a fold over the stored results in the order the games ended
(:func:`rebuild`), so a change of formula recomputes them and loses no history
(``stairgames ratings rebuild``).

A rating is shown on the scale people know from chess (:func:`points`): a new player
stands at :data:`START_POINTS` (1500), and a difference of 400 points means what it means
for Elo, the stronger player expected to win about 10 games in 11. OpenSkill's μ is
mapped linearly (:data:`POINTS_PER_MU` points a unit of μ, about 29.5: Plackett–Luce's
chance of a win between two settled players is a logistic curve of their μ with scale
√2·β, Elo's one of the points with scale 400 / ln 10), and its σ with the same factor
(:attr:`Rating.deviation`, like Glicko's "RD"). A rating is followed by "?" while it is
provisional: fewer than :data:`PROVISIONAL_GAMES` rated games. Only what is shown is
on that scale: μ and σ are stored as OpenSkill makes them.

>>> book = RatingBook()
>>> _ = book.add(RatedResult("stairs", ("ann", "bob"), (1.0, -1.0)))
>>> book.rating("stairs", "ann").shown(), book.rating("stairs", "bob").shown()
('1578?', '1422?')
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from openskill.models import PlackettLuce

PROVISIONAL_GAMES: Final = 10
"""A rating of fewer rated games than this is shown with "?"."""

START_MU: Final = 25.0
"""OpenSkill's μ of a new player (its σ is a third of it)."""

BETA: Final = START_MU / 6.0
"""OpenSkill's β: the spread of one game's performance around a player's μ."""

START_POINTS: Final = 1500
"""A new player's rating as shown (μ = :data:`START_MU`)."""

POINTS_PER_MU: Final = 400.0 / (math.log(10.0) * math.sqrt(2.0) * BETA)
"""Shown points per unit of μ (≈ 29.5): Elo's logistic scale, 400 / ln 10 points, over
Plackett–Luce's between two settled players, √2·β of μ."""


def points(mu: float) -> int:
    """OpenSkill's ``mu`` on the shown scale: :data:`START_POINTS` for a new player.

    >>> points(START_MU), points(START_MU + 1.0), points(START_MU - 10.0)
    (1500, 1529, 1205)
    """
    return round(START_POINTS + POINTS_PER_MU * (mu - START_MU))


def signed(change: int) -> str:
    """A change of rating as shown: ``+12``, ``−12`` (a minus sign), ``±0``.

    >>> signed(12), signed(-12), signed(0)
    ('+12', '−12', '±0')
    """
    if change > 0:
        return f"+{change}"
    return f"−{-change}" if change < 0 else "±0"


@dataclasses.dataclass(frozen=True)
class Rating:
    """One player's rating in one pool: OpenSkill's μ and σ, and the games it counts."""

    mu: float = START_MU
    sigma: float = START_MU / 3.0
    games: int = 0

    @property
    def points(self) -> int:
        """μ on the shown scale (:func:`points`): 1500 for a new player."""
        return points(self.mu)

    @property
    def deviation(self) -> int:
        """σ on the shown scale: how far the rating may be off (246 for a new player)."""
        return round(POINTS_PER_MU * self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    def shown(self) -> str:
        """The points, with "?" while provisional: ``1500?``, ``1623``."""
        return f"{self.points}{'?' if self.provisional else ''}"

    def change_from(self, before: Rating) -> int:
        """The points gained since ``before`` (negative: lost), as the two are shown."""
        return self.points - before.points

    def json(self) -> dict[str, Any]:
        return {
            "rating": self.points,
            "deviation": self.deviation,
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
            "games": self.games,
            "provisional": self.provisional,
            "shown": self.shown(),
        }


@dataclasses.dataclass(frozen=True)
class RatedResult:
    """The result of one rated game: its pool, the player of each seat and the seats'
    returns (higher is better; equal returns share a place)."""

    pool: str
    players: tuple[str, ...]
    returns: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.players) != len(self.returns) or not 2 <= len(self.players) <= 4:
            raise ValueError("a rated result needs 2 to 4 players, one return each")
        if len(set(self.players)) != len(self.players):
            raise ValueError("a rated game has a different player in every seat")


def pool_of(game: str, options: Mapping[str, Any], pool_options: Sequence[str]) -> str:
    """The rating pool of a game with ``options``: the game's name, followed by the values
    of the options that make it another game for ratings (``pool_options``).

    >>> pool_of("stairs", {"size": 6, "pie_rule": True}, ("size",))
    'stairs size=6'
    >>> pool_of("ishigaki_race", {"players": 3}, ())
    'ishigaki_race'
    """
    named = [f"{name}={options[name]}" for name in pool_options if name in options]
    return " ".join([game, *named])


def is_rateable(seat_kinds: Sequence[str], seat_players: Sequence[str | None]) -> bool:
    """Whether a game counts for ratings: 2 to 4 seats, each a person (no computer)
    held by a known player, every player different (so no two seats at one screen).

    >>> is_rateable(["human", "online"], ["ann", "bob"])
    True
    >>> is_rateable(["human", "human"], ["ann", "ann"])
    False
    >>> is_rateable(["online", "computer"], ["ann", None])
    False
    """
    if not 2 <= len(seat_kinds) <= 4 or len(seat_kinds) != len(seat_players):
        return False
    if any(kind == "computer" for kind in seat_kinds):
        return False
    players = [player for player in seat_players if player is not None]
    return len(players) == len(seat_players) and len(set(players)) == len(players)


class RatingBook:
    """Ratings by (pool, player), updated one rated result at a time."""

    def __init__(self) -> None:
        self._model = PlackettLuce()
        self._ratings: dict[tuple[str, str], Rating] = {}

    def rating(self, pool: str, player: str) -> Rating:
        """``player``'s rating in ``pool`` (a new player's when they have none)."""
        return self._ratings.get((pool, player), Rating())

    def set(self, pool: str, player: str, rating: Rating) -> None:
        """Starts ``player``'s rating in ``pool`` from a stored one."""
        self._ratings[(pool, player)] = rating

    def ratings_of(self, player: str) -> dict[str, Rating]:
        """Every pool ``player`` has a rating in."""
        return {pool: rating for (pool, who), rating in self._ratings.items() if who == player}

    def add(self, result: RatedResult) -> dict[str, tuple[Rating, Rating]]:
        """Rate one game: each player's rating before and after it."""
        before = [self.rating(result.pool, player) for player in result.players]
        teams = [[self._model.rating(mu=r.mu, sigma=r.sigma)] for r in before]
        rated = self._model.rate(teams, scores=[float(value) for value in result.returns])
        changes = {}
        for player, old, team in zip(result.players, before, rated, strict=True):
            new = Rating(float(team[0].mu), float(team[0].sigma), old.games + 1)
            self._ratings[(result.pool, player)] = new
            changes[player] = (old, new)
        return changes

    def items(self) -> Iterable[tuple[tuple[str, str], Rating]]:
        return self._ratings.items()


def rebuild(results: Iterable[RatedResult]) -> RatingBook:
    """The ratings of ``results`` taken in order (the order the games ended)."""
    book = RatingBook()
    for result in results:
        book.add(result)
    return book
