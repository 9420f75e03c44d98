"""City of Stairs action encoding and notation.

Player actions (``NUM_ACTIONS`` = 60):

- ``slot * 28 + cell`` (0-55): place the stock card of ``slot`` (0 passage,
  1 experience) on ``cell`` (``row * 7 + column``); written ``CARD@CELL`` with
  the card's id, e.g. ``P03@c2``.
- 56-59: a stroll choice, written ``nw`` (↖), ``ne`` (↗), ``turn`` (turn
  around) and ``on`` (keep going, taking a "may ignore").

Chance actions (``NUM_CHANCE_OUTCOMES`` = 39):

- 0-27: draw the city card with that index into the stock: ``draw P03``.
- 28-34: deal departure card ``d`` (1-7) as ``27 + d``: ``deal 3 to red``;
  in the history as a seat that may not know the card sees it:
  ``deal ? to red`` (:func:`redacted_deal`).
- 35-38: the start player is seat ``s``, as ``35 + s``: ``start blue``.
"""

from __future__ import annotations

import re
from typing import Final

from stairgames.games.city_of_stairs.cards import UP_LEFT, UP_RIGHT
from stairgames.games.city_of_stairs.rules import CHOICES, NUM_CELLS, ON, Placement

CHOICE_BASE: Final = 2 * NUM_CELLS
NUM_ACTIONS: Final = CHOICE_BASE + len(CHOICES)
DEAL_BASE: Final = NUM_CELLS - 1
START_BASE: Final = NUM_CELLS + 7
NUM_CHANCE_OUTCOMES: Final = START_BASE + 4

_ALIASES: Final = {
    "↖": UP_LEFT,
    "↗": UP_RIGHT,
    "up-left": UP_LEFT,
    "up-right": UP_RIGHT,
    "ignore": ON,
    "keep": ON,
    "turn around": "turn",
    "turnaround": "turn",
}
PLACEMENT_RE: Final = re.compile(r"^([A-Za-z0-9][A-Za-z0-9_-]*)\s*(?:@|\s)\s*([a-gA-G][1-4])$")


def encode_placement(placement: Placement) -> int:
    return placement.slot * NUM_CELLS + placement.cell


def decode_placement(action: int) -> Placement | None:
    if not 0 <= action < CHOICE_BASE:
        return None
    slot, cell = divmod(action, NUM_CELLS)
    return Placement(slot, cell)


def encode_choice(choice: str) -> int:
    return CHOICE_BASE + CHOICES.index(choice)


def decode_choice(action: int) -> str | None:
    if CHOICE_BASE <= action < NUM_ACTIONS:
        return CHOICES[action - CHOICE_BASE]
    return None


def encode_deal(departure: int) -> int:
    return DEAL_BASE + departure


def encode_start(seat: int) -> int:
    return START_BASE + seat


def canonical_choice(text: str) -> str | None:
    """``nw``, ``ne``, ``turn`` or ``on`` for a choice text or alias (↖, ↗, ignore), else None."""
    lowered = " ".join(text.lower().split())
    lowered = _ALIASES.get(lowered, lowered)
    return lowered if lowered in CHOICES else None


HIDDEN_CARD: Final = "?"
"""Stands for a departure card in a redacted deal: ``deal ? to red``."""


def format_deal(card: int | str, colour: str) -> str:
    """A deal's notation: ``deal 3 to red``."""
    return f"deal {card} to {colour}"


def deal_colour(text: str) -> str | None:
    """The colour a deal (``deal 3 to red`` or ``deal ? to red``) goes to; ``None`` for
    any other move."""
    words = text.split()
    if len(words) == 4 and words[0] == "deal" and words[2] == "to":
        return words[3]
    return None


def redacted_deal(colour: str) -> str:
    """A deal to ``colour`` as a seat that may not know the card sees it.

    >>> redacted_deal("red")
    'deal ? to red'
    """
    return format_deal(HIDDEN_CARD, colour)
