"""The Ishigaki Race observation tensor: ninjas, steps, dice and phase from one seat's view.

Ishigaki Race hides nothing (the dice are public once rolled), so a seat's tensor is
the whole position. Seats are listed relative to the observing seat: the seat itself
first, then the others in turn order (relative seat ``k`` is seat ``(seat + k) %
players``). A flat ``float32`` vector whose length is fixed by the options ``players``
(P) and ``goal`` (G), in these parts:

- ``steps`` (P × (G+1)): one-hot, each ninja's step, relative seat by relative seat;
- ``crumbling`` (G+1): 1 on the "−2" squares of the wall (I7), 0 without them;
- ``to_act`` (P): one-hot, the relative seat whose turn (or roll-off roll) it is;
- ``first_die`` (6): one-hot, the die rolled this turn (zeros before it);
- ``second_die_asked`` (1): the roller asked for the second die (``roll``);
- ``phase`` (5): one-hot, setup, race, goal round, roll-off, over;
- ``arrival_order`` (P × P): relative seat ``k``'s row has a 1 at its place in the order
  of arrival on the goal (during the goal round);
- ``rolloff_order`` (P × P): the same for the rolling order of the roll-off round;
- ``rolloff_score`` (P): each relative seat's score in this roll-off round / 12, once
  it has rolled;
- ``winner`` (P): one-hot, the winner once the game is over.

>>> import stairgames
>>> state = stairgames.load("ishigaki_race", players=3, first_player=1).new_initial_state()
>>> tensor = observation_tensor(state, 1)
>>> tensor.shape, layout_of(3, 20)[:3]
((123,), (('steps', 63), ('crumbling', 21), ('to_act', 3)))
>>> [int(tensor[i * 21]) for i in range(3)], tensor[84:87].tolist()
([1, 1, 1], [1.0, 0.0, 0.0])
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from stairgames.core.game import Game, State
from stairgames.core.tensors import ObservationTensor
from stairgames.games.ishigaki_race.game import IshigakiRaceGame, IshigakiRaceState
from stairgames.games.ishigaki_race.rules import DIE_FACES, Phase

PHASES: Final = (Phase.SETUP, Phase.RACE, Phase.GOAL, Phase.ROLLOFF, Phase.OVER)
MAX_ROLLOFF_SCORE: Final = 2 * max(DIE_FACES)
"""A roll-off roll scores at most double six."""


def layout_of(players: int, goal: int) -> tuple[tuple[str, int], ...]:
    """The parts of the vector for ``players`` seats and a goal on step ``goal``."""
    return (
        ("steps", players * (goal + 1)),
        ("crumbling", goal + 1),
        ("to_act", players),
        ("first_die", len(DIE_FACES)),
        ("second_die_asked", 1),
        ("phase", len(PHASES)),
        ("arrival_order", players * players),
        ("rolloff_order", players * players),
        ("rolloff_score", players),
        ("winner", players),
    )


def _layout(game: Game) -> tuple[tuple[str, int], ...]:
    assert isinstance(game, IshigakiRaceGame)
    return layout_of(game.options.players, game.board.goal)


def _shape(game: Game) -> tuple[int, ...]:
    return (sum(size for _, size in _layout(game)),)


def observation_tensor(state: State, seat: int) -> np.ndarray[Any, np.dtype[np.float32]]:
    """``seat``'s tensor of ``state`` (see the module).

    :raises ValueError: ``seat`` is not a seat of the game.
    """
    assert isinstance(state, IshigakiRaceState)
    state.seat_name(seat)  # refuses a seat the game does not have
    game = state.get_game()
    race, board = state.race, state.board
    players, width = race.players, board.goal + 1
    parts = {name: np.zeros(size, dtype=np.float32) for name, size in _layout(game)}

    def relative(other: int) -> int:
        return (other - seat) % players

    for other, step in enumerate(race.heights):
        parts["steps"][relative(other) * width + step] = 1.0
    for square in board.crumbling:
        parts["crumbling"][square] = 1.0
    if race.phase not in (Phase.SETUP, Phase.OVER):
        parts["to_act"][relative(race.turn)] = 1.0
    if race.first_die:
        parts["first_die"][race.first_die - 1] = 1.0
    parts["second_die_asked"][0] = float(race.rolling)
    parts["phase"][PHASES.index(race.phase)] = 1.0
    for place, other in enumerate(race.arrived):
        parts["arrival_order"][relative(other) * players + place] = 1.0
    for place, other in enumerate(race.rollers):
        parts["rolloff_order"][relative(other) * players + place] = 1.0
    for other, score in zip(race.rollers, race.scores, strict=False):
        parts["rolloff_score"][relative(other)] = score / MAX_ROLLOFF_SCORE
    if race.phase == Phase.OVER:
        parts["winner"][relative(race.winner)] = 1.0
    return np.concatenate(list(parts.values()))


_SEAT_RGB: Final = ((210, 40, 40), (40, 80, 210), (230, 200, 30), (40, 160, 60))
"""Red, blue, yellow, green: the seats' colours."""
_PIXELS: Final = 8


def image(state: State) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """The wall on its side as an RGB picture: one row per ninja (seat 0 at the top),
    one column per step (start at the left), the ninja a square in its colour, the
    "−2" squares darker."""
    assert isinstance(state, IshigakiRaceState)
    race, board = state.race, state.board
    width = board.goal + 1
    picture = np.zeros((race.players * _PIXELS, width * _PIXELS, 3), dtype=np.uint8)
    picture[:] = (190, 180, 160)
    for square in board.crumbling:
        picture[:, square * _PIXELS : (square + 1) * _PIXELS] = (120, 110, 95)
    for other, step in enumerate(race.heights):
        top, left = other * _PIXELS, step * _PIXELS
        picture[top + 1 : top + _PIXELS - 1, left + 1 : left + _PIXELS - 1] = _SEAT_RGB[other]
    return picture


TENSOR: Final = ObservationTensor(
    shape=_shape, encode=observation_tensor, layout=_layout, image=image
)
"""What Ishigaki Race offers learning code (:mod:`stairgames.core.tensors`)."""
