"""The game protocol shared by every game and every player.

The vocabulary is OpenSpiel's, so that research code feels at home:
``game.new_initial_state()``, ``state.current_player()``,
``state.legal_actions()``, ``state.apply_action(a)``, ``state.is_chance_node()``,
``state.chance_outcomes()``, ``state.is_terminal()``, ``state.returns()``,
``state.clone()``, ``state.action_to_string(a)``, ``state.string_to_action(s)``
and ``state.observation_string(player)``.

Actions are small non-negative integers; their text form is each game's move
notation. Chance events (dice, draws, deals) are actions too, applied at chance
nodes, so a game's history of action strings is a complete record of it and a
game replays exactly without its random seed.

The base class keeps the books; a game fills hooks. :meth:`State.apply_action`
refuses terminal states and illegal or unknown actions before anything
changes, records the action in the history, then calls the game's
``_apply_action``. A game writes ``_current_player``, ``_legal_actions``,
``_apply_action``, ``_action_to_string``, ``_returns`` and the text forms; for speed it
may also set ``_notation_depends_on_state = False`` (history text formatted only when
asked) and give ``_legal_action_ids`` (its cached legal actions, for the legality check);
see ``docs/engines.md``.
"""

from __future__ import annotations

import abc
import dataclasses
from collections.abc import Collection, Sequence
from typing import Any, ClassVar, Self

from stairgames.core.errors import IllegalMoveError
from stairgames.i18n import N_, Text, localize

CHANCE: int = -1
"""``current_player()`` at a chance node (OpenSpiel's ``kChancePlayerId``)."""

TERMINAL: int = -4
"""``current_player()`` once the game is over (OpenSpiel's ``kTerminalPlayerId``)."""


@dataclasses.dataclass(frozen=True)
class GameInfo:
    """What a game is, as data: players, chance, information, bounds."""

    name: str
    """Registry name, as given to :func:`stairgames.load`."""
    title: str
    """Human-readable name."""
    num_players: int
    """Seats in this game (after options such as ``players=`` are applied)."""
    min_players: int
    max_players: int
    chance: bool
    """Whether the game has chance nodes."""
    hidden_information: bool
    """Whether some seat cannot see everything."""
    num_distinct_actions: int
    """Upper bound (exclusive) of the player action ids."""
    max_chance_outcomes: int
    """Upper bound (exclusive) of the chance action ids (0 without chance)."""
    max_game_length: int
    """A bound on the number of actions in a game, chance included: proven unless
    ``max_game_length_proven`` is false (games with dice may go on forever with
    vanishing probability; their documented practical bound is used instead)."""
    min_utility: float
    max_utility: float
    zero_sum: bool
    seat_names: tuple[str, ...]
    """A name for each seat, used by the command line (``--light``, ``--dark``)."""
    max_game_length_proven: bool = True
    """Whether ``max_game_length`` is a proof (True) or a documented practical bound."""


@dataclasses.dataclass(frozen=True)
class Outcome:
    """The result of a finished game, for people to read.

    ``returns`` holds one value per seat; ``reason`` says how it was decided.
    """

    returns: tuple[float, ...]
    reason: str
    winners: tuple[int, ...]
    details: dict[str, Any] = dataclasses.field(default_factory=dict, compare=False)
    text: Text | None = dataclasses.field(default=None, compare=False)
    """Optional: the reason for players in any language (:func:`stairgames.i18n.localize`);
    ``reason`` is its English."""

    def __str__(self) -> str:
        return self.reason

    def localized(self) -> str:
        """The reason in the current language (English where the game gives no text)."""
        return self.reason if self.text is None else localize(self.text)


@dataclasses.dataclass(frozen=True)
class AgreementOffer:
    """An offer to end the game by agreement, awaiting the answer of the player to act."""

    accept: int
    """The action that accepts: the game ends with :attr:`returns`."""
    decline: int
    """The action that declines: the game goes on."""
    returns: tuple[float, ...]
    """What accepting gives each seat."""


class Game(abc.ABC):
    """A game with its options. Cheap to create; holds no play state."""

    name: ClassVar[str]
    """Registry name."""

    def __init__(self, options: Any) -> None:
        self.options = options

    @abc.abstractmethod
    def info(self) -> GameInfo:
        """What this game is, with these options."""

    def num_players(self) -> int:
        return self.info().num_players

    @abc.abstractmethod
    def new_initial_state(self) -> State:
        """The state before the first action."""

    @abc.abstractmethod
    def state_from_position(self, text: str) -> State:
        """Build a state from its position text (see :meth:`State.position`).

        :raises InvalidPositionError: the text is malformed or impossible.
        """

    def __eq__(self, other: object) -> bool:
        """Games are equal when they are the same game with equal options."""
        if not isinstance(other, Game):
            return NotImplemented
        return type(self) is type(other) and self.options == other.options

    def __hash__(self) -> int:
        return hash((type(self), self.options))

    def __repr__(self) -> str:
        """Code that builds this game again: ``stairgames.load('stairs', pie_rule=True)``."""
        arguments = "".join(f", {k}={v!r}" for k, v in _options_as_dict(self.options).items())
        return f"stairgames.load({self.name!r}{arguments})"


class State(abc.ABC):
    """A state of a game. Mutable through :meth:`apply_action`; copy with :meth:`clone`."""

    _notation_depends_on_state: ClassVar[bool] = True
    """Whether an action's notation may depend on the state it is played in (City of
    Stairs names the card a deal draws). Then :meth:`apply_action` formats each action
    as it applies it. A game whose notation is a function of the action alone sets this
    to ``False``: its history strings are formatted only when asked for, from
    :attr:`_history`, which keeps move text out of playouts."""

    def __init__(self, game: Game) -> None:
        self._game = game
        self._history: list[int] = []
        self._history_strings: list[str] = []
        """The notation of each applied action, kept only where
        :attr:`_notation_depends_on_state` (else empty)."""

    # ----- hooks a game fills -------------------------------------------------

    @abc.abstractmethod
    def _current_player(self) -> int:
        """The seat to act, :data:`CHANCE` or :data:`TERMINAL`."""

    @abc.abstractmethod
    def _legal_actions(self) -> list[int]:
        """Sorted legal actions of the player to act (never at chance or terminal)."""

    @abc.abstractmethod
    def _apply_action(self, action: int) -> None:
        """Apply an action already known to be legal (or a possible chance outcome)."""

    @abc.abstractmethod
    def _action_to_string(self, action: int) -> str:
        """The notation of an action in this state."""

    @abc.abstractmethod
    def _returns(self) -> list[float]:
        """One value per seat at a terminal state."""

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        """Sorted ``(action, probability)`` pairs at a chance node."""
        raise NotImplementedError(f"{type(self).__name__} has no chance nodes")

    @abc.abstractmethod
    def _copy_into(self, other: Self) -> None:
        """Copy the game fields of ``self`` into a fresh ``other`` (for :meth:`clone`)."""

    @abc.abstractmethod
    def position(self) -> str:
        """The position text; ``game.state_from_position`` reads it back."""

    @abc.abstractmethod
    def observation_string(self, player: int) -> str:
        """What ``player`` may see of this state, and nothing more."""

    @abc.abstractmethod
    def outcome(self) -> Outcome | None:
        """The result with its reason, or ``None`` while the game goes on."""

    # ----- the protocol -------------------------------------------------------

    def get_game(self) -> Game:
        return self._game

    def current_player(self) -> int:
        return self._current_player()

    def seat_name(self, seat: int) -> str:
        """What ``seat`` is called now, for people to read (``GameInfo.seat_names`` by
        default; a game where seats change roles, such as Stairs after a ``swap``,
        names the role the seat plays now).

        :raises ValueError: ``seat`` is not a seat of this game.
        """
        info = self._game.info()
        self._check_seat(seat)
        return info.seat_names[seat] if seat < len(info.seat_names) else f"seat {seat}"

    def _check_seat(self, seat: int) -> None:
        num_players = self._game.num_players()
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < num_players:
            raise ValueError(
                f"{seat!r} is not a seat of {self._game.name}; seats are 0 to {num_players - 1}"
            )

    def is_terminal(self) -> bool:
        return self._current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self._current_player() == CHANCE

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Sorted legal actions; empty at chance and terminal nodes, or for a seat not to act."""
        current = self._current_player()
        if current < 0 or (player is not None and player != current):
            return []
        return self._legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Sorted ``(action, probability)`` pairs; empty unless at a chance node."""
        if not self.is_chance_node():
            return []
        return self._chance_outcomes()

    def returns(self) -> list[float]:
        """One value per seat: the result at the end, zeros before."""
        if not self.is_terminal():
            return [0.0] * self._game.num_players()
        return self._returns()

    def history(self) -> list[int]:
        """Every action applied to this state since it was created, chance included.

        This is the engine's truth: in a game with hidden information it holds what
        some seats may not know (another seat's deal). Give a seat its
        :meth:`history_strings` ``(seat)`` instead, or a view made by
        :func:`stairgames.core.views.seat_view`.
        """
        return list(self._history)

    def history_strings(self, seat: int | None = None) -> list[str]:
        """The history in notation.

        Without ``seat``: the full history, the engine's truth, replayable with
        :meth:`apply_move` (for the server, for finished games and for records of
        them). With ``seat``: the history as that seat may know it now; a move the seat
        may not know is written in the game's redacted notation (City of Stairs:
        another seat's deal as ``deal ? to blue`` until that seat's stroll begins),
        which no longer replays by itself (see :func:`stairgames.core.record.replay`).

        :raises ValueError: ``seat`` is not a seat of this game.
        """
        if seat is None:
            return self._full_history_strings()
        self._check_seat(seat)
        return self._redacted_history(seat)

    def _full_history_strings(self) -> list[str]:
        """The full history in notation (a new list)."""
        if self._notation_depends_on_state:
            return list(self._history_strings)
        action_to_string = self._action_to_string
        return [action_to_string(action) for action in self._history]

    def public_history_strings(self) -> list[str]:
        """The history as a spectator may know it now: what every seat may know.

        >>> import stairgames
        >>> state = stairgames.load("stairs").new_initial_state()
        >>> state.apply_move("d3-c4")
        127
        >>> state.public_history_strings()
        ['d3-c4']
        """
        return self._redacted_history(None)

    def _redacted_history(self, viewer: int | None) -> list[str]:
        """The history in notation as ``viewer`` (a seat, or ``None``: a spectator) may
        know it now. Games with hidden information override it; the default redacts
        nothing."""
        del viewer
        return self._full_history_strings()

    def move_number(self) -> int:
        """How many actions have been applied to this state."""
        return len(self._history)

    def is_legal(self, action: int) -> bool:
        current = self._current_player()
        if current == TERMINAL:
            return False
        if current == CHANCE:
            return any(a == action for a, _ in self._chance_outcomes())
        return action in self._legal_action_ids()

    def apply_action(self, action: int) -> None:
        """Apply an action of the player to act, or a chance outcome at a chance node.

        :raises IllegalMoveError: the game is over or the action is not legal here;
            the state is unchanged.
        """
        self._check_applicable(action)
        if self._notation_depends_on_state:
            text = self._action_to_string(action)
            self._apply_action(action)
            self._history_strings.append(text)
        else:
            self._apply_action(action)
        self._history.append(action)

    def apply_move(self, text: str) -> int:
        """Parse a move (or chance outcome) in notation, apply it and return its action."""
        action = self.string_to_action(text)
        self.apply_action(action)
        return action

    def action_to_string(self, action: int, player: int | None = None) -> str:
        """The notation of ``action`` in this state (``player`` is accepted for OpenSpiel)."""
        del player
        return self._action_to_string(action)

    def string_to_action(self, text: str) -> int:
        """The legal action (or chance outcome) whose notation is ``text``.

        :raises IllegalMoveError: the text is malformed, or names no legal move here.
        """
        wanted = self._normalise_move_text(text)
        direct = self._action_from_text(wanted)
        if direct is not None and self._reads_as(direct, wanted):
            return direct
        candidates = self._candidate_actions()
        for action in candidates:
            if self._action_to_string(action) == wanted:
                return action
        self._raise_unmatched_move(text, candidates)
        raise AssertionError("unreachable")

    def clone(self) -> Self:
        """An independent copy: applying actions to one never changes the other."""
        other = self.__class__.__new__(self.__class__)
        other._game = self._game
        other._history = list(self._history)
        other._history_strings = list(self._history_strings)
        self._copy_into(other)
        return other

    # ----- helpers for games --------------------------------------------------

    def _normalise_move_text(self, text: str) -> str:
        """Games may override to accept case or spacing variants of their notation."""
        return text.strip()

    def _check_move_syntax(self, text: str) -> None:
        """Games override to raise :class:`IllegalMoveError` for malformed text."""
        return None

    def _reads_as(self, action: int, normalised: str) -> bool:
        return self.is_legal(action) and self._action_to_string(action) == normalised

    def _action_from_text(self, normalised: str) -> int | None:
        """The action that normalised notation names, read directly, or ``None`` to find
        it by formatting every legal action (a game may override this to skip that
        search; the result is still checked to be legal and to format back to the text).
        """
        del normalised
        return None

    def _candidate_actions(self) -> list[int]:
        current = self._current_player()
        if current == TERMINAL:
            return []
        if current == CHANCE:
            return [a for a, _ in self._chance_outcomes()]
        return self._legal_actions()

    def _raise_unmatched_move(self, text: str, candidates: Sequence[int]) -> None:
        self._check_move_syntax(text)
        if self.is_terminal():
            raise IllegalMoveError(
                f"illegal move {text!r}: the game is over in {self.position()}",
                message_id=N_("illegal move {text!r}: the game is over"),
                arguments={"text": text},
            )
        legal = ", ".join(self._action_to_string(a) for a in candidates)
        raise IllegalMoveError(
            f"illegal move {text!r} in {self.position()}; legal moves: {legal}",
            message_id=N_("illegal move {text!r}; type 'moves' to list the legal moves"),
            arguments={"text": text},
        )

    def _check_applicable(self, action: int) -> None:
        current = self._current_player()
        if current == TERMINAL:
            raise IllegalMoveError(
                f"cannot apply action {action}: the game is over in {self.position()}"
            )
        if type(action) is not int and (isinstance(action, bool) or not isinstance(action, int)):
            raise IllegalMoveError(f"an action is an int, got {action!r}")
        if current == CHANCE:
            if not any(a == action for a, _ in self._chance_outcomes()):
                raise IllegalMoveError(
                    f"{action} is not a possible chance outcome in {self.position()}"
                )
            return
        if action not in self._legal_action_ids():
            raise IllegalMoveError(
                f"illegal action {action} in {self.position()}; legal: {self._legal_actions()}"
            )

    def _legal_action_ids(self) -> Collection[int]:
        """The legal actions of the player to act, for membership tests only (never
        returned to callers, so a game may hand out its cache here instead of the copy
        that :meth:`_legal_actions` makes)."""
        return self._legal_actions()

    # ----- agreement ----------------------------------------------------------

    def agreement_offer(self) -> AgreementOffer | None:
        """An offer to end the game by agreement that the player to act must answer, or
        ``None``. Games where the rules allow ending by agreement override this."""
        return None

    def offer_action(self) -> int:
        """The action that offers to end the game by agreement, legal now.

        :raises IllegalMoveError: no offer may be made now; the message says why (the
            default: the game has no ending by agreement).
        """
        raise IllegalMoveError(
            message_id=N_("{game} cannot end by agreement"),
            arguments={"game": Text(self._game.info().title)},
        )

    def without_agreement(self) -> State:
        """This position in the same game played without offers to end by agreement:
        what players search (agreement is decided apart, see :meth:`agreement_offer`).
        A copy; games without such a rule return :meth:`clone`."""
        return self.clone()

    # ----- comparison and text ------------------------------------------------

    def __eq__(self, other: object) -> bool:
        """States are equal when their games are equal and their positions are the same
        (history aside, as with python-chess boards); compare :meth:`history` for that."""
        if not isinstance(other, State):
            return NotImplemented
        return self._game == other._game and self.position() == other.position()

    __hash__ = None  # type: ignore[assignment]  # mutable: not usable as a key

    def __str__(self) -> str:
        """The game's drawing of the state, without colour (its registration's
        ``drawing``, else its terminal drawing for a spectator); the position text for a
        game not registered."""
        from stairgames.core.registry import drawing  # the registry imports this module

        draw = drawing(self._game.name)
        return self.position() if draw is None else draw(self)

    def __repr__(self) -> str:
        """Code that builds this state again (history aside), e.g.
        ``stairgames.load('stairs').state_from_position('...')``."""
        return f"{self._game!r}.state_from_position({self.position()!r})"


def _options_as_dict(options: Any) -> dict[str, Any]:
    """The options that differ from their defaults, by name (for ``repr``)."""
    if not dataclasses.is_dataclass(options) or isinstance(options, type):
        return {}
    result = {}
    for field in dataclasses.fields(options):
        value = getattr(options, field.name)
        if field.default is not dataclasses.MISSING and value == field.default:
            continue
        result[field.name] = value
    return result
