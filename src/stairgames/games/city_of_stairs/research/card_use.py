"""How a card set plays under random play: how strolls end, which icons are ever used.

Run
``python -m stairgames.games.city_of_stairs.research.card_use [GAMES] [--cards FILE]``
to measure
a card set (the figures in ``docs/rules/city_of_stairs.md`` come from ``1000``). It reports
how strolls end (the share reaching the lighthouse), how often each diary card turns up, and
how often each movement icon of each card is resolved: an icon no stroll ever resolves is
useless in play.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import random
import statistics
from collections.abc import Sequence

import stairgames
from stairgames.core.chance import sample_chance_outcome
from stairgames.games.city_of_stairs import rules
from stairgames.games.city_of_stairs.cards import IGNORE, CardSet
from stairgames.games.city_of_stairs.game import CityOfStairsGame, CityOfStairsState


def icon_key(card_id: str, side: str, token: str) -> str:
    """How a movement icon is named in the figures: ``P07 left red:nw``."""
    return f"{card_id} {side} {token}"


def movement_icon_keys(cards: CardSet, colours: tuple[str, ...]) -> tuple[str, ...]:
    """The movement icons that apply to one of ``colours`` (the colours in play), card
    by card, left corner first: another colour's icon cannot matter in that game."""
    return tuple(
        icon_key(card.id, side, icon.token())
        for card in cards.cards
        for side in (rules.LEFT, rules.RIGHT)
        for icon in card.corner(side)
        if icon.colour is None or icon.colour in colours
    )


def resolved_icons(
    cards: CardSet, city: tuple[int | None, ...], colour: str, walk: rules.Walk
) -> set[str]:
    """The movement icons that decided a step of ``walk``.

    An arrow or "turn around" is resolved when its effect is the one taken on
    entering its corner and it applies to the walker; a "may ignore" when the
    walker took it (``on``). Two icons with the same effect both count.
    """
    used: set[str] = set()
    side = None
    for event in walk.events:
        if event.kind == "enter":
            side = event.side
        if event.kind != "move" or event.cell is None or side is None:
            continue
        index = city[event.cell]
        if index is None or event.detail == "next":
            continue
        card = cards.cards[index]
        for icon in card.corner(side):
            if not icon.applies_to(colour):
                continue
            if icon.kind == event.detail or (icon.kind == IGNORE and event.detail == rules.ON):
                used.add(icon_key(card.id, side, icon.token()))
    return used


@dataclasses.dataclass(frozen=True)
class StrollStatistics:
    """Figures over ``games`` random games of one player count."""

    players: int
    games: int
    ends: dict[str, float]
    """Share of strolls ending on five diary cards, at the lighthouse, or trapped."""
    diary: dict[str, float]
    """Mean number of times each diary card turns up per stroll."""
    movement: dict[str, float]
    """Share of strolls resolving each movement icon that applies to a colour in play
    (unused ones 0)."""
    wins: dict[str, int]
    """Games won (or shared) by each colour."""
    ties: float
    mean_score: float
    mean_length: float
    max_length: int

    def report(self) -> str:
        ends = ", ".join(f"{name} {share:.1%}" for name, share in sorted(self.ends.items()))
        diary = ", ".join(
            f"{icon} {mean:.2f}" for icon, mean in sorted(self.diary.items(), key=lambda kv: -kv[1])
        )
        unused = self.unused_icons()
        rarest = sorted(self.movement.items(), key=lambda kv: (kv[1], kv[0]))[:3]
        movement = (
            f"{len(self.movement) - len(unused)} of {len(self.movement)} resolved"
            + (f" (never: {', '.join(unused)})" if unused else "")
            + "; rarest: "
            + ", ".join(f"{key} {share:.1%}" for key, share in rarest)
        )
        return (
            f"{self.players} players, {self.games} games: strolls end {ends}; ties "
            f"{self.ties:.1%}; mean score {self.mean_score:.2f}; length mean "
            f"{self.mean_length:.1f}, max {self.max_length}\n"
            f"  diary cards per stroll: {diary}\n"
            f"  movement icons (share of strolls resolving each): {movement}\n"
            f"  wins by colour: {self.wins}"
        )

    def unused_icons(self) -> list[str]:
        """The movement icons no stroll resolved."""
        return [key for key, share in self.movement.items() if share == 0]


def measure(
    players: int, games: int, *, seed: int = 0, cards: str | None = None
) -> StrollStatistics:
    """Play ``games`` games with every decision uniformly at random and collect figures."""
    game = stairgames.load("city_of_stairs", players=players, cards=cards)
    assert isinstance(game, CityOfStairsGame)
    rng = random.Random(seed)
    ends: collections.Counter[str] = collections.Counter()
    diary: collections.Counter[str] = collections.Counter()
    movement: collections.Counter[str] = collections.Counter()
    wins: collections.Counter[str] = collections.Counter()
    lengths: list[int] = []
    points: list[int] = []
    ties = 0
    for _ in range(games):
        state = game.new_initial_state()
        assert isinstance(state, CityOfStairsState)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance_outcome(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        lengths.append(state.move_number())
        points.extend(state.scores())
        for seat in range(players):
            walk = state.walk(seat)
            assert walk is not None and walk.end is not None
            ends[walk.end.name.lower()] += 1
            diary.update(walk.diary)
            movement.update(
                resolved_icons(state.cards, state.table.city, state.table.colours[seat], walk)
            )
        outcome = state.outcome()
        assert outcome is not None
        ties += len(outcome.winners) > 1
        wins.update(state.table.colours[seat] for seat in outcome.winners)
    strolls = games * players
    return StrollStatistics(
        players=players,
        games=games,
        ends={name: count / strolls for name, count in ends.items()},
        diary={icon: count / strolls for icon, count in diary.items()},
        movement={
            key: movement[key] / strolls for key in movement_icon_keys(game.cards, game.colours)
        },
        wins=dict(wins),
        ties=ties / games,
        mean_score=statistics.mean(points),
        mean_length=statistics.mean(lengths),
        max_length=max(lengths),
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", type=int, nargs="?", default=200)
    parser.add_argument("--cards", default=None, help="card-set TOML file (default set if none)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    for players in (2, 3, 4):
        print(measure(players, args.games, seed=args.seed + players, cards=args.cards).report())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
