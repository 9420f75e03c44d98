"""What every kind of tournament shares: its error, a game's outcome, the seed order."""

from __future__ import annotations

import enum
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from stairgames.core.errors import StairgamesError


class TournamentError(StairgamesError):
    """Bad input to a tournament's rules (an unknown or repeated player, a round
    without its results); nothing is changed."""


class NoPairingError(TournamentError):
    """No pairing is left that keeps the rules (in a Swiss: everyone has met everyone
    they could); the tournament ends early."""


class Outcome(enum.Enum):
    """A two-player game's result for one player."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"

    def flipped(self) -> Outcome:
        """The same game's result for the opponent."""
        return {Outcome.WIN: Outcome.LOSS, Outcome.LOSS: Outcome.WIN}.get(self, self)


@dataclass(frozen=True)
class Entrant:
    """A player as they join: their id and their rating then (the seed order)."""

    player: str
    rating: int


def seed_order(entrants: Iterable[Entrant]) -> list[str]:
    """Players by seed: higher rating first, then by id; a repeated id is an error.

    :raises TournamentError: a player entered twice.
    """
    listed = list(entrants)
    check_unique([e.player for e in listed])
    return [e.player for e in sorted(listed, key=lambda e: (-e.rating, e.player))]


def check_unique(players: Sequence[str]) -> None:
    """:raises TournamentError: a player named twice."""
    seen: set[str] = set()
    for player in players:
        if player in seen:
            raise TournamentError(f"player named twice: {player!r}")
        seen.add(player)


def check_known(players: Collection[str], known: Collection[str]) -> None:
    """:raises TournamentError: a player who never entered."""
    unknown = sorted(set(players) - set(known))
    if unknown:
        raise TournamentError(f"not in the tournament: {unknown!r}")
