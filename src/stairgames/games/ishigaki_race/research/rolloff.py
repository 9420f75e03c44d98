"""The roll-off of Ishigaki Race (I6), every roller maximising its own chance of winning.

Ties at the goal are settled by a roll-off: each roller in turn rolls a die, may roll a
second, and scores by :func:`.rules.rolloff_score`; the best score wins, and a tie rolls
off again among the tied, in the same order. Its chances depend only on the number of
rollers (:func:`rolloff_chances`); :class:`RolloffRound` searches one round from any
point of it.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from stairgames.games.ishigaki_race import rules

FloatArray = npt.NDArray[np.float64]


def _rolloff_round(
    rolloff: FloatArray, rollers: int, place: int, best: int, leaders: tuple[int, ...]
) -> tuple[float, ...]:
    """The chances, by place in the rolling order, of ``rollers`` rolling off when the
    roller at ``place`` is to roll, the best score so far is ``best`` (``-1``: none) and
    ``leaders`` are the places that scored it; ties roll off again in the same order,
    with chances ``rolloff`` (I6)."""
    return RolloffRound(rolloff, rollers).chances(place, best, leaders)


class RolloffRound:
    """One round of a roll-off, searched with the positions it shares remembered."""

    def __init__(self, rolloff: FloatArray, rollers: int) -> None:
        self.rolloff = rolloff
        self.rollers = rollers
        self.known: dict[tuple[int, int, tuple[int, ...]], FloatArray] = {}

    def chances(self, place: int, best: int, leaders: tuple[int, ...]) -> tuple[float, ...]:
        return tuple(float(v) for v in self._chances(place, best, leaders))

    def _chances(self, place: int, best: int, leaders: tuple[int, ...]) -> FloatArray:
        key = (place, best, leaders)
        if key not in self.known:
            self.known[key] = self._search(place, best, leaders)
        return self.known[key]

    def _search(self, place: int, best: int, leaders: tuple[int, ...]) -> FloatArray:
        chances = np.zeros(self.rollers)
        if place == self.rollers:
            if len(leaders) == 1:
                chances[leaders[0]] = 1.0
            for rank, p in enumerate(leaders if len(leaders) > 1 else ()):
                chances[p] = self.rolloff[len(leaders), rank]
            return chances
        for first in rules.DIE_FACES:
            stop = self._after_score(place, best, leaders, first)
            roll = np.mean(
                [
                    self._after_score(place, best, leaders, rules.rolloff_score(first, e))
                    for e in rules.DIE_FACES
                ],
                axis=0,
            )
            chances += roll if roll[place] > stop[place] else stop
        return chances / 6

    def _after_score(
        self, place: int, best: int, leaders: tuple[int, ...], score: int
    ) -> FloatArray:
        if score > best:
            best, leaders = score, (place,)
        elif score == best:
            leaders = (*leaders, place)
        return self._chances(place + 1, best, leaders)


def rolloff_chances(players: int) -> FloatArray:
    """(rollers, place) -> the chance that the roller at that place in the rolling order
    wins a roll-off of that many (rows 0 and 1 unused), every roller maximising its own
    chance; a tie among all of them repeats the roll-off, so each row is a fixed point."""
    chances = np.zeros((players + 1, players))
    for rollers in range(2, players + 1):
        chances[rollers, :rollers] = 1.0 / rollers
        for _ in range(200):
            updated = np.array(_rolloff_round(chances, rollers, 0, -1, ()))
            change = float(np.abs(updated - chances[rollers, :rollers]).max())
            chances[rollers, :rollers] = updated
            if change < 1e-15:
                break
    return chances


__all__ = ["RolloffRound", "rolloff_chances"]
