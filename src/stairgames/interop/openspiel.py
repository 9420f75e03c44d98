"""The OpenSpiel bridge: every registered game as a pyspiel Python game.

>>> from stairgames.interop import openspiel  # doctest: +SKIP
>>> names = openspiel.register_all()  # doctest: +SKIP
>>> game = pyspiel.load_game("stairgames_stairs", {"pie_rule": True})  # doctest: +SKIP

Each game is registered under ``stairgames_<name>`` with its options as
parameters: booleans, integers and text stay as they are; other option types
(``int | None``, tuples of integers) travel as text: ``"none"``, and
``"5;9;13;17"`` (semicolons, since pyspiel's game strings separate
parameters with commas).
Actions, chance outcomes, returns and bounds are ours unchanged; observations
are our ``observation_string`` (what the seat may see), and the games' own
observation tensors (information-state tensors where a game hides something):
:mod:`stairgames.interop.openspiel_tensors`. Information-state strings
(perfect recall) are the seat's observation followed by its view of the history
(:func:`information_state`), and
``resample_from_infostate`` draws a state consistent with a seat's information
state (our :func:`stairgames.core.views.seat_view`), so OpenSpiel's
information-set algorithms (``ISMCTSBot``) run on every game, City of Stairs
included. A ``max_game_length`` beyond 32 bits is given to pyspiel as
``2**31 - 1`` (still an upper bound on what any game reaches). Needs the
``open_spiel`` package (``pip install open_spiel``).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

import pyspiel

from stairgames.core.game import CHANCE, TERMINAL, State
from stairgames.core.options import option_fields, option_types
from stairgames.core.registry import game_names, get_spec, load_with_text_options
from stairgames.core.views import seat_view
from stairgames.interop import openspiel_tensors

PREFIX = "stairgames_"
"""pyspiel names are ``PREFIX + registry name``."""

TUPLE_SEPARATOR = ";"
"""Separates the numbers of a tuple option in a pyspiel parameter (``"5;9;13;17"``): pyspiel's
game strings already use commas between parameters. A single number keeps a trailing
separator (``"5;"``) so that pyspiel does not read it back as an integer."""

MAX_LENGTH = 2**31 - 1
"""pyspiel stores ``max_game_length`` in 32 bits; a longer proven bound is capped here."""

HISTORY_SEPARATOR = "; "
"""Separates the moves of the history in an information-state string."""

_REGISTERED: dict[str, str] = {}


def spiel_name(name: str) -> str:
    """The pyspiel short name of one of our games."""
    return PREFIX + get_spec(name).name


def parameter_defaults(name: str) -> dict[str, Any]:
    """The pyspiel parameter specification of a game: each option with its default."""
    spec = get_spec(name)
    types = option_types(spec.options_class)
    defaults: dict[str, Any] = {}
    for field in option_fields(spec.options_class):
        defaults[field.name] = _to_parameter(field.default, types[field.name])
    return defaults


def _to_parameter(value: Any, hint: Any) -> Any:
    if hint in (bool, int, str) or isinstance(value, bool):
        return value
    if isinstance(value, int) and hint is not int:
        return str(value)
    if value is None:
        return "none"
    if isinstance(value, tuple):
        text = TUPLE_SEPARATOR.join(str(v) for v in value)
        return text + TUPLE_SEPARATOR if len(value) == 1 else text
    return str(value)


def parameters_for(options: dict[str, Any], name: str) -> dict[str, Any]:
    """Our keyword options converted to pyspiel parameters for game ``name``."""
    spec = get_spec(name)
    types = option_types(spec.options_class)
    return {key: _to_parameter(value, types.get(key, str)) for key, value in options.items()}


def _options_text(params: dict[str, Any]) -> dict[str, str]:
    text = {}
    for key, value in params.items():
        if isinstance(value, bool):
            text[key] = str(value).lower()
        else:
            text[key] = str(value).replace(TUPLE_SEPARATOR, ",")
    return text


def _make_classes(name: str) -> type[pyspiel.Game]:
    spec = get_spec(name)
    default_game = load_with_text_options(spec.name, {})
    default_info = default_game.info()
    max_players = default_info.max_players
    min_players = default_info.min_players
    hidden = default_info.hidden_information
    chance = default_info.chance
    game_type = pyspiel.GameType(
        short_name=PREFIX + spec.name,
        long_name=f"stairgames {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if chance or hidden
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if hidden
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM
            if default_info.zero_sum
            else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        # tensors: stairgames.interop.openspiel_tensors
        provides_information_state_tensor=openspiel_tensors.provides_information_state_tensor(
            spec.name
        ),
        provides_observation_string=True,
        provides_observation_tensor=openspiel_tensors.provides_observation_tensor(spec.name),
        parameter_specification=parameter_defaults(spec.name),
    )

    class BridgeGame(pyspiel.Game):  # type: ignore[misc]
        """One of our games seen from OpenSpiel."""

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            merged = {**parameter_defaults(spec.name), **(params or {})}
            self.ours = load_with_text_options(spec.name, _options_text(merged))
            self._initial = self.ours.new_initial_state()
            info = self.ours.info()
            game_info = pyspiel.GameInfo(
                num_distinct_actions=info.num_distinct_actions,
                max_chance_outcomes=info.max_chance_outcomes,
                num_players=info.num_players,
                min_utility=info.min_utility,
                max_utility=info.max_utility,
                utility_sum=0.0 if info.zero_sum else None,
                max_game_length=min(info.max_game_length, MAX_LENGTH),
            )
            super().__init__(game_type, game_info, merged)

        def new_initial_state(self) -> BridgeState:
            """A fresh state: a clone of our initial state, made once (pyspiel's ``clone``
            starts from a new initial state, so this runs once a clone)."""
            return BridgeState(self, self._initial.clone())

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
            del params
            perfect_recall = iig_obs_type is not None and bool(iig_obs_type.perfect_recall)
            strings = _StringObserver(perfect_recall=perfect_recall)
            # tensors: stairgames.interop.openspiel_tensors
            return openspiel_tensors.with_tensor(strings, self.ours, perfect_recall=perfect_recall)

    class BridgeState(pyspiel.State):  # type: ignore[misc]
        """One of our states seen from OpenSpiel.

        Our state is held in a :class:`_Held` (the only attribute): pyspiel clones a
        Python state by ``copy.deepcopy`` of each attribute, and ``_Held`` makes that
        our engine's own :meth:`State.clone` instead of a deep copy of every field
        (game object included). The hooks pyspiel calls on every move (current
        player, terminal, legal actions, apply) go straight to the engine's hooks where
        pyspiel has already checked what our public methods would check again.
        """

        def __init__(self, game: BridgeGame, inner: State) -> None:
            super().__init__(game)
            self._held = _Held(inner)

        @property
        def inner(self) -> State:
            """Our state behind this one."""
            return self._held.state

        def current_player(self) -> int:
            player = self._held.state._current_player()
            if player >= 0:
                return player
            if player == CHANCE:
                return SPIEL_CHANCE
            return SPIEL_TERMINAL

        def _legal_actions(self, player: int) -> list[int]:
            # pyspiel asks only for the player to act at a decision node (PyState::LegalActions)
            inner = self._held.state
            if player != inner._current_player():
                return []
            return inner._legal_actions()

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return self.inner.chance_outcomes()

        def _apply_action(self, action: int) -> None:
            self._held.state.apply_action(int(action))

        def _action_to_string(self, player: int, action: int) -> str:
            del player
            return self.inner.action_to_string(int(action))

        def is_terminal(self) -> bool:
            return bool(self._held.state._current_player() == TERMINAL)

        def returns(self) -> list[float]:
            return self.inner.returns()

        def observation_string(self, player: int) -> str:
            return self.inner.observation_string(player)

        def resample_from_infostate(
            self, player_id: int, probability_sampler: Callable[[], float]
        ) -> BridgeState:
            """A state with ``player_id``'s information state, everything hidden from it
            redrawn (OpenSpiel's hook for ``ISMCTSBot``): our ``seat_view``, with a
            generator seeded from ``probability_sampler()`` (a number in [0, 1))."""
            seed = int(probability_sampler() * 2**53)
            view = seat_view(self.inner, player_id, random.Random(seed))
            return self._replayed(view)

        def _replayed(self, inner: State) -> BridgeState:
            """A bridge state for ``inner`` (a view of this state) whose OpenSpiel history
            is ``inner``'s.

            The history is written into pyspiel's books without playing it again: playing
            checks every action for legality (in City of Stairs, placing every card for
            each placement of the game so far), half of ``ISMCTSBot``'s time in the middle
            of a game. The actions are ``inner``'s; who took each is this state's, since a
            view redraws only what chance dealt in secret, never who acts.
            """
            actions = inner.history()
            players = [step.player for step in self.full_history()]
            if len(players) != len(actions):
                raise ValueError(
                    f"a view of this state has {len(actions)} actions in its history, "
                    f"this state {len(players)}"
                )
            replay = _HistoryWriter(self.get_game(), inner, players)
            for action in actions:
                replay.apply_action(action)
            del replay._players, replay._step  # not to be copied by the clone
            state: BridgeState = replay.clone()
            return state

        def __str__(self) -> str:
            return self.inner.position()

    class _HistoryWriter(BridgeState):
        """A bridge state for a finished ``inner`` that takes its history's actions into
        pyspiel's books (with who took each, given) without applying them to ``inner``
        (see ``BridgeState._replayed``; its ``clone`` is a plain bridge state)."""

        def __init__(self, game: BridgeGame, inner: State, players: list[int]) -> None:
            super().__init__(game, inner)
            self._players = players
            self._step = 0

        def current_player(self) -> int:
            return self._players[self._step]

        def _apply_action(self, action: int) -> None:
            del action
            self._step += 1

    BridgeGame.__name__ = BridgeGame.__qualname__ = f"Spiel_{spec.name}"
    BridgeState.__name__ = BridgeState.__qualname__ = f"SpielState_{spec.name}"
    pyspiel.register_game(game_type, BridgeGame)
    return BridgeGame


SPIEL_CHANCE = int(pyspiel.PlayerId.CHANCE)
SPIEL_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


class _Held:
    """Our state inside a bridge state, copied by :meth:`State.clone` when pyspiel clones
    the bridge state (``copy.deepcopy`` of each attribute). Pickles as the state does
    (pyspiel's ``serialize``)."""

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        del memo
        return _Held(self.state.clone())


def information_state(state: State, player: int) -> str:
    """``player``'s information state in ``state``: its observation, then the history as
    it may know it (:meth:`State.history_strings` with the seat), one line each.

    >>> import stairgames
    >>> state = stairgames.load("twenty_seven").new_initial_state()
    >>> _ = state.apply_move("0:4")
    >>> print(information_state(state, 1))
    RWWWWW/GWWWW/G/G/G/G/G/G/RBBBBBBBBB B you:B
    history: 0:4
    """
    moves = HISTORY_SEPARATOR.join(state.history_strings(player))
    return f"{state.observation_string(player)}\nhistory: {moves}"


@dataclasses.dataclass
class _StringObserver:
    """OpenSpiel's observer protocol, strings only: our ``observation_string``, or with
    perfect recall (information states) :func:`information_state`."""

    perfect_recall: bool = False
    tensor: Any = None
    dict: Any = dataclasses.field(default_factory=dict)

    def set_from(self, state: Any, player: int) -> None:
        del state, player

    def string_from(self, state: Any, player: int) -> str:
        if self.perfect_recall:
            return information_state(state.inner, player)
        return str(state.inner.observation_string(player))


def seeded_resampler(seed: int) -> Callable[[Any, int], Any]:
    """A resampler for ``ISMCTSBot.set_resampler`` that draws from its own seeded generator,
    so a search repeats exactly (the bot's default sampler is seeded by the machine).

    >>> from open_spiel.python.algorithms import ismcts  # doctest: +SKIP
    >>> bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 100)  # doctest: +SKIP
    >>> bot.set_resampler(seeded_resampler(7))  # doctest: +SKIP
    """
    rng = random.Random(seed)

    def resample(state: Any, player: int) -> Any:
        return state.resample_from_infostate(player, rng.random)

    return resample


def register_all() -> list[str]:
    """Register every game of ours with pyspiel (once); their pyspiel names, sorted."""
    for name in game_names():
        if name not in _REGISTERED:
            _make_classes(name)
            _REGISTERED[name] = PREFIX + name
    return sorted(_REGISTERED.values())


def load_game(name: str, **options: Any) -> pyspiel.Game:
    """One of our games as a pyspiel game, with our keyword options."""
    register_all()
    return pyspiel.load_game(spiel_name(name), parameters_for(options, name))
