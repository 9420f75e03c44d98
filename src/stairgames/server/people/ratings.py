"""Players' ratings: OpenSkill (Plackett-Luce) per game and rating pool, from stored results.

A rated game is one between people only: every seat held by a different player, none by
the computer, none shared at one screen (:func:`is_rateable`). Each game keeps its own
ratings, and a game whose options change it keeps one per pool
(:func:`pool_of`: Stairs 6×6 apart from other sizes, 27 by variant; the game's
registration names those options). Plackett-Luce rates 2 to 4 players at once, equal
scores sharing their place; a resignation counts as a loss because the result says so.

Ratings are always a fold over the stored results in the order the games ended
(:func:`rebuild`), so a change of formula recomputes them and loses no history
(``stairgames ratings rebuild``). A rating is shown as its ordinal (μ − 3σ, a level the
player is almost surely above; a new player's is 0), followed by "?" while it
is provisional: fewer than :data:`PROVISIONAL_GAMES` rated games.

>>> book = RatingBook()
>>> _ = book.add(RatedResult("stairs", ("ann", "bob"), (1.0, -1.0)))
>>> book.rating("stairs", "ann").shown(), book.rating("stairs", "bob").shown()
('3.4?', '-1.8?')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from openskill.models import PlackettLuce

PROVISIONAL_GAMES: Final = 10
"""A rating of fewer rated games than this is shown with "?"."""


@dataclasses.dataclass(frozen=True)
class Rating:
    """One player's rating in one pool: OpenSkill's μ and σ, and the games it counts."""

    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    games: int = 0

    @property
    def ordinal(self) -> float:
        """μ − 3σ: the rating shown (0 for a new player)."""
        return self.mu - 3.0 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    def shown(self) -> str:
        """The ordinal to one decimal, with "?" while provisional."""
        value = round(self.ordinal, 1) + 0.0  # no "-0.0"
        return f"{value:.1f}{'?' if self.provisional else ''}"

    def json(self) -> dict[str, Any]:
        return {
            "rating": round(self.ordinal, 2),
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
