"""City of Stairs on the shared protocol: options, seats, chance, hidden departure cards.

Chance events are the start player (C9, unless the ``first_player`` option
names one), every draw into the stock (a chance outcome over the cards left in
that deck, C3) and every departure deal (over the departure cards not yet
dealt, C8). Seats are numbered 0 to ``players - 1``; each plays the character
colour given by the ``characters`` option (default: the card set's colours in
order, C9). Returns: 1 for each winner (ties share the win, C7), 0 for the
others.
"""

from __future__ import annotations

import dataclasses
import random
import re
from typing import Final, Self

from stairgames.core.errors import IllegalMoveError, InvalidOptionError
from stairgames.core.game import CHANCE, TERMINAL, Game, GameInfo, Outcome, State
from stairgames.core.options import option
from stairgames.games.city_of_stairs import rules
from stairgames.games.city_of_stairs.cards import CardSet, load_card_set
from stairgames.games.city_of_stairs.notation import (
    CHOICE_BASE,
    DEAL_BASE,
    NUM_ACTIONS,
    NUM_CHANCE_OUTCOMES,
    PLACEMENT_RE,
    START_BASE,
    canonical_choice,
    deal_colour,
    decode_choice,
    decode_placement,
    encode_choice,
    encode_deal,
    encode_placement,
    encode_start,
    format_deal,
    redacted_deal,
)
from stairgames.games.city_of_stairs.position import format_position, parse_position
from stairgames.games.city_of_stairs.rules import NodeKind, Table
from stairgames.i18n import N_, Count, Names, Text

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4
MAX_CHOICES_PER_STROLL: Final = 1 + rules.ROWS * 2 * rules.COLUMNS
"""One choice at the seaside, then at most one per card entry. Within a row each
(card, side) pair is entered at most once before the stroll ends as trapped (C6),
and that trapping entry asks nothing: at most 14 entries with a choice per row."""


def max_game_length(players: int) -> int:
    """A proven bound: start player, deals, 28 draws, 28 placements and the strolls."""
    chance = 1 + players + rules.NUM_CELLS
    return chance + rules.NUM_CELLS + players * MAX_CHOICES_PER_STROLL


@dataclasses.dataclass(frozen=True)
class CityOfStairsOptions:
    """Options of City of Stairs."""

    players: int = option(2, label=N_("Players"), role="players", summary=N_("{value} players"))
    """2 to 4 players."""
    cards: str | None = option(
        None,
        label=N_("Card set"),
        role="file",
        summary=N_("an uploaded card set"),
        default_label=N_("the default cards"),
        upload_label=N_("Upload a card file (TOML)"),
        checking=N_("Checking the card file…"),
        ready=N_("Card set {name} is ready."),
    )
    """Path of a card-set TOML file; ``None`` for the default (reconstructed) set."""
    first_player: int | None = option(None, label=N_("Who starts"), role="seat")
    """C9: the start player's seat; ``None`` draws it at random (a chance node)."""
    characters: str = option(
        "",
        label=N_("Characters (colours, comma-separated)"),
        placeholder="red,blue,green",
        summary=N_("characters: {value}"),
    )
    """C9: each seat's character colour, comma-separated (``"blue,red"``);
    empty gives the card set's colours in order."""

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise InvalidOptionError(
                message_id=N_(
                    "City of Stairs is for {minimum} to {maximum} players, got {players}"
                ),
                arguments={
                    "minimum": MIN_PLAYERS,
                    "maximum": MAX_PLAYERS,
                    "players": self.players,
                },
            )
        if self.first_player is not None and not 0 <= self.first_player < self.players:
            raise InvalidOptionError(
                message_id=N_("first_player must be a seat 0-{last} or None, got {first_player}"),
                arguments={"last": self.players - 1, "first_player": self.first_player},
            )
        seat_colours(self, load_card_set(self.cards))


def seat_colours(options: CityOfStairsOptions, cards: CardSet) -> tuple[str, ...]:
    """C9: the colour each seat plays.

    :raises InvalidOptionError: unknown or repeated colours, or the wrong count.
    """
    if not options.characters.strip():
        return cards.colours()[: options.players]
    chosen = tuple(part.strip().lower() for part in options.characters.split(","))
    known = cards.colours()
    for colour in chosen:
        if colour not in known:
            raise InvalidOptionError(
                f"characters: unknown colour {colour!r}; the card set has {', '.join(known)}"
            )
    if len(set(chosen)) != len(chosen):
        raise InvalidOptionError(
            message_id=N_("characters: each seat needs its own colour, got {chosen}"),
            arguments={"chosen": chosen},
        )
    if len(chosen) != options.players:
        raise InvalidOptionError(
            message_id=N_("characters: name one colour per seat ({players}), got {count}"),
            arguments={"players": options.players, "count": len(chosen)},
        )
    return chosen


class CityOfStairsGame(Game):
    name = "city_of_stairs"
    options: CityOfStairsOptions

    def __init__(self, options: CityOfStairsOptions) -> None:
        super().__init__(options)
        self.cards: CardSet = load_card_set(options.cards)
        self.colours: tuple[str, ...] = seat_colours(options, self.cards)

    def info(self) -> GameInfo:
        players = self.options.players
        return GameInfo(
            name=self.name,
            title="City of Stairs",
            num_players=players,
            min_players=MIN_PLAYERS,
            max_players=MAX_PLAYERS,
            chance=True,
            hidden_information=True,
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_CHANCE_OUTCOMES,
            max_game_length=max_game_length(players),
            min_utility=0.0,
            max_utility=1.0,
            zero_sum=False,
            seat_names=self.colours,
        )

    def new_initial_state(self) -> CityOfStairsState:
        return CityOfStairsState(self, rules.initial_table(self.colours, self.options.first_player))

    def state_from_position(self, text: str) -> CityOfStairsState:
        table = parse_position(text, self.cards, self.colours, self.options.first_player)
        return CityOfStairsState(self, table)


class CityOfStairsState(State):
    """A game of City of Stairs in progress."""

    _game: CityOfStairsGame

    def __init__(self, game: CityOfStairsGame, table: Table) -> None:
        super().__init__(game)
        self._table = table
        self._node: rules.Node | None = None
        self._walks: dict[int, rules.Walk] = {}
        self._actions: tuple[int, ...] | None = None
        """The legal actions, computed once per table (immutable: clones share them)."""

    # ----- access -------------------------------------------------------------

    @property
    def table(self) -> Table:
        """Everything decided so far, as an immutable value."""
        return self._table

    @property
    def cards(self) -> CardSet:
        return self._game.cards

    def node(self) -> rules.Node:
        """What happens next (chance event, a seat's placement or stroll, or the end)."""
        if self._node is None:
            self._node = rules.next_node(self._table, self.cards)
        return self._node

    def phase(self) -> str:
        """``setup``, ``building``, ``strolling`` or ``over``."""
        if any(d is None for d in self._table.departures):
            return "setup"
        if not self._table.city_complete():
            return "building"
        return "over" if self.node().kind == NodeKind.OVER else "strolling"

    def walk(self, seat: int) -> rules.Walk | None:
        """``seat``'s stroll so far, or ``None`` before the city is finished."""
        if not self._table.city_complete() or self._table.departures[seat] is None:
            return None
        if seat not in self._walks:
            self._walks[seat] = rules.walk_of(self._table, self.cards, seat)
        return self._walks[seat]

    def stroll_started(self, seat: int) -> bool:
        return rules.stroll_started(self._table, self.cards, seat)

    def scores(self) -> tuple[int, ...]:
        return rules.scores(self._table, self.cards)

    # ----- protocol hooks -----------------------------------------------------

    def _current_player(self) -> int:
        node = self.node()
        if node.kind in (NodeKind.START, NodeKind.DRAW, NodeKind.DEAL):
            return CHANCE
        if node.kind == NodeKind.OVER:
            return TERMINAL
        assert node.seat is not None
        return node.seat

    def _legal_actions(self) -> list[int]:
        return list(self._legal_action_ids())

    def _legal_action_ids(self) -> tuple[int, ...]:
        """The legal actions, cached: the legality check of ``apply_action`` after
        ``legal_actions`` (a playout's every move) does not place every card again."""
        if self._actions is None:
            self._actions = tuple(self._compute_legal_actions())
        return self._actions

    def _compute_legal_actions(self) -> list[int]:
        node = self.node()
        if node.kind == NodeKind.PLACE:
            return [encode_placement(p) for p in rules.placements(self._table, self.cards)]
        assert node.kind == NodeKind.STROLL and node.seat is not None
        walk = self.walk(node.seat)
        assert walk is not None
        return [encode_choice(choice) for choice in walk.options]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        node = self.node()
        if node.kind == NodeKind.START:
            actions = [encode_start(seat) for seat in range(self._table.players)]
        elif node.kind == NodeKind.DRAW:
            assert node.slot is not None
            actions = list(rules.deck(self._table, self.cards, node.slot))
        else:
            actions = [encode_deal(d) for d in rules.undealt_departures(self._table, self.cards)]
        return [(action, 1.0 / len(actions)) for action in sorted(actions)]

    def _apply_action(self, action: int) -> None:
        node = self.node()
        table = self._table
        if node.kind == NodeKind.START:
            table = rules.set_start(table, action - START_BASE)
        elif node.kind == NodeKind.DRAW:
            assert node.slot is not None
            table = rules.draw(table, node.slot, action)
        elif node.kind == NodeKind.DEAL:
            assert node.seat is not None
            table = rules.deal(table, node.seat, action - DEAL_BASE)
        elif node.kind == NodeKind.PLACE:
            placement = decode_placement(action)
            assert placement is not None
            table = rules.place(table, placement)
        else:
            choice = decode_choice(action)
            assert choice is not None and node.seat is not None
            walks = {seat: w for seat, w in self._walks.items() if seat != node.seat}
            self._set_table(rules.choose(table, node.seat, choice))
            self._walks = walks  # only the walker's stroll changed
            return
        self._set_table(table)

    def _set_table(self, table: Table) -> None:
        """Replace the table, forgetting everything computed from the old one."""
        self._table = table
        self._node = None
        self._walks = {}
        self._actions = None

    def _action_to_string(self, action: int) -> str:
        node = self.node()
        colours = self._table.colours
        if node.kind == NodeKind.START and START_BASE <= action < START_BASE + len(colours):
            return f"start {colours[action - START_BASE]}"
        if node.kind == NodeKind.DRAW and 0 <= action < len(self.cards.cards):
            return f"draw {self.cards.cards[action].id}"
        if node.kind == NodeKind.DEAL and DEAL_BASE < action < START_BASE:
            assert node.seat is not None
            return format_deal(action - DEAL_BASE, colours[node.seat])
        placement = decode_placement(action)
        if node.kind == NodeKind.PLACE and placement is not None:
            index = self._table.stock[placement.slot]
            card_id = "?" if index is None else self.cards.cards[index].id
            return f"{card_id}@{rules.cell_name(placement.cell)}"
        choice = decode_choice(action)
        if node.kind == NodeKind.STROLL and choice is not None:
            return choice
        raise IllegalMoveError(
            message_id=N_("{action} is not an action at this point ({kind})"),
            arguments={"action": action, "kind": node.kind.value},
        )

    def _normalise_move_text(self, text: str) -> str:
        text = " ".join(text.split())
        choice = canonical_choice(text)
        if choice is not None:
            return choice
        match = PLACEMENT_RE.match(text)
        if match is not None:
            wanted, cell = match.groups()
            for index in self._table.stock:
                if index is not None and self.cards.cards[index].id.lower() == wanted.lower():
                    return f"{self.cards.cards[index].id}@{cell.lower()}"
        return text

    def _check_move_syntax(self, text: str) -> None:
        if self.is_terminal() or self.is_chance_node():
            return
        text = " ".join(text.split())
        node = self.node()
        choice = canonical_choice(text)
        match = PLACEMENT_RE.match(text)
        if choice is None and match is None:
            raise IllegalMoveError(
                message_id=N_(
                    "malformed move {text!r}: place a stock card as CARD@CELL (e.g. P03@c2, "
                    "cells a1-g4), or while strolling choose nw (↖), ne (↗), turn or on"
                ),
                arguments={"text": text},
            )
        if node.kind == NodeKind.PLACE:
            self._explain_placement(text, match)
        else:
            self._explain_choice(text, choice)

    def _explain_placement(self, text: str, match: re.Match[str] | None) -> None:
        if match is None:
            raise IllegalMoveError(
                message_id=N_("illegal move {text!r}: it is time to place a stock card"),
                arguments={"text": text},
            )
        wanted, cell_text = match.groups()
        cell = rules.parse_cell(cell_text)
        assert cell is not None
        for slot, index in enumerate(self._table.stock):
            if index is not None and self.cards.cards[index].id.lower() == wanted.lower():
                reason = rules.why_not_placeable(
                    self._table, self.cards, rules.Placement(slot, cell)
                )
                raise IllegalMoveError(
                    message_id=N_("illegal move {text!r}: {reason}"),
                    arguments={"text": text, "reason": reason},
                )
        in_stock = [self.cards.cards[i].id for i in self._table.stock if i is not None]
        raise IllegalMoveError(
            message_id=N_("illegal move {text!r}: {card} is not in the stock ({stock})"),
            arguments={"text": text, "card": wanted, "stock": ", ".join(in_stock)},
        )

    def _explain_choice(self, text: str, choice: str | None) -> None:
        node = self.node()
        assert node.seat is not None
        walk = self.walk(node.seat)
        assert walk is not None
        options = ", ".join(walk.options)
        if choice is None:
            raise IllegalMoveError(
                message_id=N_("illegal move {text!r}: the city is built; choose one of {options}"),
                arguments={"text": text, "options": options},
            )
        if walk.location is None:
            raise IllegalMoveError(
                message_id=N_("illegal move {text!r}: at the seaside you may choose {options}"),
                arguments={"text": text, "options": options},
            )
        raise IllegalMoveError(
            message_id=N_("illegal move {text!r}: on {cell} you may choose {options}"),
            arguments={"text": text, "cell": rules.cell_name(walk.location), "options": options},
        )

    def _returns(self) -> list[float]:
        outcome = self.outcome()
        assert outcome is not None
        return list(outcome.returns)

    def _copy_into(self, other: Self) -> None:
        other._table = self._table
        other._node = self._node
        other._walks = dict(self._walks)
        other._actions = self._actions

    # ----- results ------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        points = self.scores()
        best = rules.winners(points)
        colours = self._table.colours
        listing = Names(
            tuple(
                Text("{name} {points}", {"name": Text(colours[s]), "points": p})
                for s, p in enumerate(points)
            ),
            conjunction=False,
        )
        if len(best) == 1:
            text = Text(
                N_("{scores}: {winner} wins"), {"scores": listing, "winner": Text(colours[best[0]])}
            )
        else:
            text = Text(
                N_("{scores}: {names} share the win with {points}"),
                {
                    "scores": listing,
                    "names": Names(tuple(colours[s] for s in best)),
                    "points": Count("{count} point", "{count} points", points[best[0]]),
                },
            )
        reason = str(text)
        ends = {}
        for seat in range(self._table.players):
            walk = self.walk(seat)
            assert walk is not None and walk.end is not None
            ends[colours[seat]] = walk.end.name.lower()
        return Outcome(
            returns=tuple(1.0 if s in best else 0.0 for s in range(len(points))),
            reason=reason,
            text=text,
            winners=best,
            details={"scores": points, "ends": ends},
        )

    # ----- text forms ---------------------------------------------------------

    def position(self) -> str:
        return format_position(self._table, self.cards)

    def visible_departures(self, player: int) -> frozenset[int]:
        """C8: the seats whose departure card ``player`` may see: its own, and any
        seat whose stroll has begun."""
        return frozenset(
            seat
            for seat in range(self._table.players)
            if seat == player or self.stroll_started(seat)
        )

    def resample_hidden(self, player: int, rng: random.Random) -> CityOfStairsState:
        """A copy where every departure card hidden from ``player`` is redrawn (C8).

        The hidden cards are dealt again at random from the departure cards that
        ``player`` has not seen, and the deals in the history are rewritten to
        match, so the copy is a state consistent with everything ``player`` saw.
        Players that search use it to sample what they cannot see.
        """
        visible = self.visible_departures(player)
        hidden = [
            seat
            for seat, card in enumerate(self._table.departures)
            if card is not None and seat not in visible
        ]
        seen = {self._table.departures[seat] for seat in visible}
        pool = [card for card in self.cards.departures if card not in seen]
        redrawn = rng.sample(pool, len(hidden))
        departures = list(self._table.departures)
        for seat, card in zip(hidden, redrawn, strict=True):
            departures[seat] = card
        copy = self.clone()
        copy._set_table(dataclasses.replace(self._table, departures=tuple(departures)))
        copy._rewrite_deals({seat: departures[seat] for seat in hidden})
        return copy

    def _rewrite_deals(self, cards: dict[int, int | None]) -> None:
        colours = self._table.colours
        for index, text in enumerate(self._history_strings):
            colour = deal_colour(text)
            if colour is None:
                continue
            seat = colours.index(colour)
            card = cards.get(seat)
            if card is not None:
                self._history[index] = encode_deal(card)
                self._history_strings[index] = format_deal(card, colours[seat])

    def _known_departures(self, viewer: int | None) -> frozenset[int]:
        """The seats whose departure card ``viewer`` may know (C8); a spectator
        (``None``) knows those whose stroll has begun."""
        if viewer is not None:
            return self.visible_departures(viewer)
        return frozenset(s for s in range(self._table.players) if self.stroll_started(s))

    def _redacted_history(self, viewer: int | None) -> list[str]:
        """C8: a deal to a seat whose card ``viewer`` may not know yet is written
        ``deal ? to <colour>``; everything else is public."""
        known = self._known_departures(viewer)
        colours = self._table.colours
        hidden = {colours[seat] for seat in range(self._table.players) if seat not in known}
        return [
            redacted_deal(colour)
            if (colour := deal_colour(text)) is not None and colour in hidden
            else text
            for text in self._history_strings
        ]

    def observation_string(self, player: int) -> str:
        """What ``player`` may know: everything public, and its own departure card (C8)."""
        visible = self.visible_departures(player)
        public = format_position(self._table, self.cards, visible_departures=visible)
        return f"seat={player} colour={self._table.colours[player]} {public}"


__all__ = [
    "CHOICE_BASE",
    "CityOfStairsGame",
    "CityOfStairsOptions",
    "CityOfStairsState",
    "max_game_length",
]
