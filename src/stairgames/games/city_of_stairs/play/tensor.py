"""The City of Stairs observation tensor: what one seat may know, as numbers.

A seat may know everything public (the city, the stock, the strolls begun, every
character's interests) and its own departure card; another seat's departure card
stays hidden until that seat's stroll begins (C8), and so does everything computed
from it (where that walker would go). The tensor is built from exactly that:
:meth:`CityOfStairsState.visible_departures` decides which departure cards and walks
it reads, so two states that differ only in a departure card hidden from the seat
give the same tensor (``tests/test_pettingzoo.py``).

Seats are listed relative to the observing seat: itself first, then the others in
seat order (relative seat ``k`` is seat ``(seat + k) % players``). A flat ``float32``
vector whose length is fixed by the option ``players`` (P), in these parts; a *card*
is described by 14 + 8P numbers: present, passage, experience, stairs, its experience
icon one-hot over the card set's 10 icons, and for each bottom corner (left, then
right) and each icon kind (``nw``, ``ne``, ``ignore``, ``turn``) whether that corner has
an icon of that kind that applies to relative seat ``k``, for each ``k``:

- ``city`` (28 × (14 + 10P)): the 7×4 grid, cell by cell in cell order (``a1``,
  ``b1``, ... ``g4``; reshape to ``(4, 7, 14 + 10P)``): the card on it, then for each
  relative seat whether its walker stands there now and whether its stroll entered
  the cell, for the strolls the seat may see (its own, and those begun);
- ``stock`` (2 × (14 + 8P)): the card in the passage slot, then the experience slot;
- ``cards_used`` (28): each city card of the set already placed or in the stock;
- ``departures`` (P × 7): one-hot over the seaside cards 1-7, the departure card of
  each relative seat the seat may see (its own once dealt; another's only once that
  seat's stroll has begun), zeros otherwise;
- ``diary`` (P × 11): the diary cards each visible stroll has turned face up (the 10
  icons, then the lighthouse);
- ``interests`` (P × 10): each relative seat's character's interests (public);
- ``stroll_started``, ``stroll_over`` (P each);
- ``phase`` (4): one-hot, setup, building, strolling, over;
- ``to_act`` (P), ``start_player`` (P): one-hot relative seats.

>>> import stairgames
>>> game = stairgames.load("city_of_stairs", players=2, first_player=0)
>>> tensor = observation_tensor(game.new_initial_state(), 0)
>>> tensor.shape, dict(layout_of(2))["city"], dict(layout_of(2))["departures"]
((1108,), 952, 14)
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from stairgames.core.game import Game, State
from stairgames.core.tensors import InformationStateTensor, ObservationTensor
from stairgames.games.city_of_stairs.cards import (
    IGNORE,
    LIGHTHOUSE,
    NUM_ICONS,
    NUM_SEASIDE,
    TURN,
    UP_LEFT,
    UP_RIGHT,
    CardSet,
    CityCard,
)
from stairgames.games.city_of_stairs.game import (
    MAX_CHOICES_PER_STROLL,
    CityOfStairsGame,
    CityOfStairsState,
)
from stairgames.games.city_of_stairs.rules import CHOICES, NUM_CELLS, parse_cell

ICON_KINDS: Final = (UP_LEFT, UP_RIGHT, IGNORE, TURN)
SIDES: Final = ("left", "right")
PHASES: Final = ("setup", "building", "strolling", "over")
CARD_BASE: Final = 4 + NUM_ICONS
"""Present, passage, experience, stairs, the icon one-hot."""


def card_size(players: int) -> int:
    """How many numbers describe one card."""
    return CARD_BASE + len(SIDES) * len(ICON_KINDS) * players


def layout_of(players: int) -> tuple[tuple[str, int], ...]:
    """The parts of the vector for ``players`` seats."""
    return (
        ("city", NUM_CELLS * (card_size(players) + 2 * players)),
        ("stock", 2 * card_size(players)),
        ("cards_used", NUM_CELLS),
        ("departures", players * NUM_SEASIDE),
        ("diary", players * (NUM_ICONS + 1)),
        ("interests", players * NUM_ICONS),
        ("stroll_started", players),
        ("stroll_over", players),
        ("phase", len(PHASES)),
        ("to_act", players),
        ("start_player", players),
    )


def _layout(game: Game) -> tuple[tuple[str, int], ...]:
    assert isinstance(game, CityOfStairsGame)
    return layout_of(game.options.players)


def _shape(game: Game) -> tuple[int, ...]:
    return (sum(size for _, size in _layout(game)),)


def _card_features(card: CityCard, cards: CardSet, colours: tuple[str, ...]) -> list[float]:
    """A card's numbers; ``colours`` are the relative seats' colours."""
    icon = [0.0] * NUM_ICONS
    if card.experience is not None:
        icon[cards.icons.index(card.experience)] = 1.0
    corners = [
        float(any(i.kind == kind and i.applies_to(colour) for i in card.corner(side)))
        for side in SIDES
        for kind in ICON_KINDS
        for colour in colours
    ]
    kind = [1.0, float(card.kind == "passage"), float(card.kind == "experience")]
    return [*kind, float(card.stairs), *icon, *corners]


def observation_tensor(state: State, seat: int) -> np.ndarray[Any, np.dtype[np.float32]]:
    """``seat``'s tensor of ``state`` (see the module): public information and its own
    departure card only.

    :raises ValueError: ``seat`` is not a seat of the game.
    """
    assert isinstance(state, CityOfStairsState)
    state.seat_name(seat)  # refuses a seat the game does not have
    table, cards = state.table, state.cards
    players = table.players
    order = [(seat + k) % players for k in range(players)]
    colours = tuple(table.colours[other] for other in order)
    visible = state.visible_departures(seat)
    walks = {k: state.walk(other) for k, other in enumerate(order) if other in visible}
    empty_card = [0.0] * card_size(players)

    city: list[float] = []
    for cell, index in enumerate(table.city):
        city += empty_card if index is None else _card_features(cards.cards[index], cards, colours)
        for k in range(players):
            walk = walks.get(k)
            here = walk is not None and walk.end is None and walk.location == cell
            entered = walk is not None and any(e.cell == cell for e in walk.events)
            city += [float(here), float(entered)]
    stock: list[float] = []
    for index in table.stock:
        stock += empty_card if index is None else _card_features(cards.cards[index], cards, colours)
    used = [0.0] * NUM_CELLS
    for index in (*table.city, *table.stock):
        if index is not None:
            used[index] = 1.0
    departures = [0.0] * (players * NUM_SEASIDE)
    diary = [0.0] * (players * (NUM_ICONS + 1))
    started = [float(state.stroll_started(other)) for other in order]
    over = [0.0] * players
    for k, other in enumerate(order):
        card = table.departures[other]
        if other in visible and card is not None:
            departures[k * NUM_SEASIDE + card - 1] = 1.0
        walk = walks.get(k)
        if walk is not None:
            over[k] = float(walk.end is not None)
            for icon in walk.diary:
                place = NUM_ICONS if icon == LIGHTHOUSE else cards.icons.index(icon)
                diary[k * (NUM_ICONS + 1) + place] = 1.0
    interests = [
        float(icon in cards.character(colour).interests)
        for colour in colours
        for icon in cards.icons
    ]
    phase = [float(state.phase() == name) for name in PHASES]
    current = state.current_player()
    to_act = [float(other == current) for other in order]
    start = [float(other == table.start) for other in order]
    return np.array(
        [
            *city,
            *stock,
            *used,
            *departures,
            *diary,
            *interests,
            *started,
            *over,
            *phase,
            *to_act,
            *start,
        ],
        dtype=np.float32,
    )


def placement_order(state: State, seat: int) -> np.ndarray[Any, np.dtype[np.float32]]:
    """For each cell, ``(k + 1) / 28`` when the ``k``-th placement of the game (from 0) put
    its card there, 0 while empty: read from ``seat``'s view of the history (placements
    are public)."""
    order = np.zeros(NUM_CELLS, dtype=np.float32)
    placed = 0
    for text in state.history_strings(seat):
        card, at, cell_text = text.partition("@")
        cell = parse_cell(cell_text)
        if at and card and cell is not None:
            placed += 1
            order[cell] = placed / NUM_CELLS
    return order


def stroll_choices(state: State, seat: int) -> np.ndarray[Any, np.dtype[np.float32]]:
    """Each relative seat's stroll choices so far, one-hot over ``nw``, ``ne``, ``turn``,
    ``on``, in order (``MAX_CHOICES_PER_STROLL`` places each): the strolls begun (public)
    and the seat's own."""
    assert isinstance(state, CityOfStairsState)
    table = state.table
    players = table.players
    width = MAX_CHOICES_PER_STROLL * len(CHOICES)
    choices = np.zeros(players * width, dtype=np.float32)
    visible = state.visible_departures(seat)
    for k in range(players):
        other = (seat + k) % players
        if other in visible:
            for place, choice in enumerate(table.strolls[other]):
                choices[k * width + place * len(CHOICES) + CHOICES.index(choice)] = 1.0
    return choices


def information_state_tensor(state: State, seat: int) -> np.ndarray[Any, np.dtype[np.float32]]:
    """``seat``'s information state: its observation tensor, then ``placement_order``
    (28) and ``stroll_choices`` (P × 57 × 4).

    From these the history as the seat knows it can be read back (the start player, the
    draws refilling the stock after each placement, its own deal, the placements, every
    choice of the strolls it has seen), so two histories the seat can tell apart give
    different tensors (perfect recall, as OpenSpiel's algorithms expect); a departure
    card hidden from the seat is in no part.
    """
    parts = (observation_tensor(state, seat), placement_order(state, seat))
    return np.concatenate([*parts, stroll_choices(state, seat)])


def _information_state_shape(game: Game) -> tuple[int, ...]:
    assert isinstance(game, CityOfStairsGame)
    players = game.options.players
    return (_shape(game)[0] + NUM_CELLS + players * MAX_CHOICES_PER_STROLL * len(CHOICES),)


TENSOR: Final = ObservationTensor(
    shape=_shape,
    encode=observation_tensor,
    layout=_layout,
    information_state=InformationStateTensor(
        shape=_information_state_shape, encode=information_state_tensor
    ),
)
"""What City of Stairs offers learning code (:mod:`stairgames.core.tensors`); no
picture: its terminal drawing (``render_mode="ansi"``) shows the city."""
