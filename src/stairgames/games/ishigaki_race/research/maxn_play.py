"""The ``perfect_play`` hook of Ishigaki Race: the max^n solution (:mod:`.maxn`) of a
game's board and player count, as :mod:`.solutions` finds it."""

from __future__ import annotations

from stairgames.core.game import Game, State
from stairgames.games.ishigaki_race.notation import ROLL, STOP
from stairgames.games.ishigaki_race.research.maxn import Solved
from stairgames.games.ishigaki_race.research.solutions import for_game
from stairgames.games.ishigaki_race.rules import Board, Phase, Race


class SolvedPlay:
    """:class:`stairgames.core.hooks.PerfectPlay` from a solution: each decision's
    chances of winning when every seat maximises its own from there (max^n)."""

    def __init__(self, solved: Solved) -> None:
        self.solved = solved

    def action_values(self, state: State) -> dict[int, list[float]]:
        race = _race_of(state)
        if race.phase in (Phase.SETUP, Phase.OVER) or not race.first_die or race.rolling:
            raise ValueError(f"no decision to value in {state.position()}")
        stop, roll = self.solved.decision_values(race)
        return {STOP: list(stop), ROLL: list(roll)}

    def principal_variation(self, state: State, *, limit: int = 200) -> list[int]:
        """The solved policy's actions from ``state``; every die and start seat is equally
        likely, so the chance outcomes are the lowest of the most likely (the first
        listed)."""
        line: list[int] = []
        current = state.clone()
        while len(line) < limit and not current.is_terminal():
            if current.is_chance_node():
                outcomes = current.chance_outcomes()
                best = max(p for _, p in outcomes)
                action = next(a for a, p in outcomes if p == best)
            else:
                action = ROLL if self.solved.chooses_roll(_race_of(current)) else STOP
            current.apply_action(action)
            line.append(action)
        return line


def _race_of(state: State) -> Race:
    race = getattr(state, "race", None)
    if not isinstance(race, Race):
        raise TypeError(f"not an Ishigaki Race state: {type(state).__name__}")
    return race


def perfect_play(game: Game) -> SolvedPlay:
    """The ``perfect_play`` hook: the solved policy of ``game``'s board and players.

    :raises InvalidOptionError: as :func:`for_game`.
    """
    board: Board = game.board  # type: ignore[attr-defined]
    return SolvedPlay(for_game(board, game.num_players()))


__all__ = ["SolvedPlay", "perfect_play"]
