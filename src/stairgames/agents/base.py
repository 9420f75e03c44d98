"""The player interface and the factory that builds players from their text form.

A player is named by a kind and optional settings, as on the command line:
``random``, ``greedy``, ``mcts:time=0.5``, ``mcts:iterations=2000,c=1.0``,
``alphabeta:time=1``, or a level: ``easy``, ``medium``, ``hard``, ``expert``.
"""

from __future__ import annotations

import abc
import math
import random
from collections.abc import Callable, Mapping

from stairgames.agents.agreement import answer_offer
from stairgames.agents.warming import (
    BackgroundLoad,
    BackgroundWarmUp,
    Launcher,
    game_warm_ups,
    run_locked,
    start,
)
from stairgames.core.errors import IllegalMoveError, InvalidOptionError
from stairgames.core.game import AgreementOffer, Game, State
from stairgames.core.hooks import WarmUp
from stairgames.core.registry import player_hooks
from stairgames.core.views import seat_view
from stairgames.i18n import N_


class Agent(abc.ABC):
    """A computer player for one seat.

    Drivers (the terminal, the arena, benchmarks, the bridge) call :meth:`act`
    with the true state; it hands :meth:`step` the seat's *view* (a copy in
    games without hidden information, a determinisation made by the game where
    something is hidden: :func:`stairgames.core.views.seat_view`), so a player
    never receives what its seat may not know, and checks the action it returns.
    ``step`` may search its view freely (``clone``, and further
    determinisations, :mod:`stairgames.agents.determinise`). Its randomness,
    the view's hidden pieces included, comes from its own seeded generator, so a
    seed makes its choices repeatable (with an iteration budget; a time budget
    depends on the machine's speed).

    Before a game's first move a driver calls :meth:`prepare` (outside any clock),
    which refuses a game the player cannot play and gets its compiled code ready
    (or, for a person waiting, starts compiling it in the background and plays its
    :meth:`fallback` meanwhile: :mod:`stairgames.agents.warming`).
    """

    name: str = "agent"
    prepared_for: Game | None = None
    """The game :meth:`prepare` last got this player ready for."""
    _warming: BackgroundWarmUp | None = None
    _fallback: Agent | None = None
    _last_fallback: bool = False
    _loading: BackgroundLoad | None = None

    def __init__(self, seat: int, *, seed: int | None = None) -> None:
        self.seat = seat
        self.rng = random.Random(seed)

    def act(self, state: State) -> int:
        """The action this player takes at one of its seat's decisions in ``state``.

        The one entry point drivers call: ``step`` receives the seat's view, never
        ``state`` itself, and ``state`` is not changed. (The errors name no position:
        the true one may hold what the seat may not know.) The view has no offers to
        end by agreement (:meth:`State.without_agreement`): players search moves of
        play, and never offer; an offer to answer goes to :meth:`answer_offer`.

        :raises IllegalMoveError: it is not this seat's turn in ``state``, or the
            player chose an action that is not legal there.
        """
        if state.current_player() != self.seat:
            raise IllegalMoveError(
                f"{self.describe()} plays seat {self.seat}, but after move "
                f"{state.move_number()} the player to act is {state.current_player()}"
            )
        self._finish_loading()
        view = seat_view(state, self.seat, self.rng)
        offer = state.agreement_offer()
        if offer is not None and self.compiling():
            # the solver that would prove an answer is still being compiled: decline
            # anything short of the best result, as an unproven answer does
            best = view.get_game().info().max_utility
            action = offer.accept if offer.returns[self.seat] >= best else offer.decline
        elif offer is not None:
            action = self.answer_offer(view, offer)
        else:
            action = self.choose(view.without_agreement())
        if not state.is_legal(action):
            raise IllegalMoveError(
                f"{self.describe()} (seat {self.seat}) chose {action!r}, which is not legal "
                f"after move {state.move_number()}; legal: {state.legal_actions()}"
            )
        return action

    def answer_offer(self, view: State, offer: AgreementOffer) -> int:
        """Accept or decline an offer to end the game by agreement: accept only a
        result no worse than the game's value proven by its endgame solver
        (:mod:`stairgames.agents.agreement`)."""
        return answer_offer(view, self.seat, offer)

    @abc.abstractmethod
    def step(self, state: State) -> int:
        """The action this player takes in ``state``, its seat's view (its seat is to
        act). Drivers call :meth:`act`, which makes the view."""

    def choose(self, view: State) -> int:
        """:meth:`step`, or, while this player's compiled code is being compiled in the
        background, its :meth:`fallback`'s; the first move after the compiling ended
        loads the compiled code (from disk, about a second) before it searches, and
        plays as configured from then on (:attr:`last_fallback` says which played)."""
        self._last_fallback = False
        self._finish_loading()
        if self._warming is not None:
            if self._warming.running():
                assert self._fallback is not None
                self._last_fallback = True
                return self._fallback.step(view)
            self._finish_warming(view.get_game())
        return self.step(view)

    @property
    def warming(self) -> BackgroundWarmUp | None:
        """The background compiling of this player's code (:meth:`prepare` with
        ``background``), until a move after its end has loaded what it compiled."""
        return self._warming

    @property
    def last_fallback(self) -> bool:
        """Whether the last move was chosen by the :meth:`fallback`, the compiled code
        being still compiled in the background."""
        return self._last_fallback

    def compiling(self) -> bool:
        """Whether this player's compiled code is being compiled in the background now
        (it plays its :meth:`fallback` meanwhile)."""
        found = self.warming
        return found is not None and found.running()

    def fallback(self, game: Game) -> Agent | None:
        """The player that plays for this one while its compiled code is compiled in the
        background: the same search with the same budget and nothing compiled (so
        weaker), or ``None`` (the default: nothing to fall back on, so :meth:`prepare`
        waits for the compiling)."""
        del game
        return None

    def _finish_loading(self) -> None:
        """Wait for the compiled code being loaded in a thread (:meth:`prepare` with
        ``background`` on a warm installation), if it is."""
        if self._loading is not None:
            self._loading.wait()
            self._loading = None

    def _finish_warming(self, game: Game) -> None:
        """Load what the background process compiled (or, had it failed, compile it now),
        and stop playing the fallback."""
        self._warming = None
        self._fallback = None
        for warm_up in self.warm_ups(game):
            run_locked(warm_up)

    def restart(self) -> None:
        """Forget anything learned during a game (called between games)."""
        return None

    def prepare(
        self,
        game: Game,
        *,
        on_compiling: Callable[[], None] | None = None,
        background: bool = False,
        launcher: Launcher | None = None,
    ) -> None:
        """Get ready to play ``game``, before its first move and outside any move's clock.

        Refuses a game this player cannot play (:meth:`check_game`), loads what the
        game offers players (:func:`stairgames.core.registry.player_hooks`), and
        warms the game's compiled code that this player uses (:meth:`warm_ups`):
        the first time on a machine that compiles it (seconds), and
        ``on_compiling()`` is called first, so that a driver can say so. Drivers (the
        terminal, the arena, benchmarks) call it before a game starts; a player
        asked for a move without it prepares itself before its clock starts.

        With ``background`` (drivers with a person waiting), code compiled already is
        loaded in a thread while the board is read (:class:`stairgames.agents.warming.
        BackgroundLoad`; the first move waits for it), and a warm-up that has to
        compile is started in a process of its own instead (``launcher``, for tests:
        :func:`stairgames.agents.warming.start`) and the player plays its
        :meth:`fallback` until it has ended (:attr:`warming` is set meanwhile); a
        player without a fallback compiles here, as without ``background``. Its moves
        then depend on when the compiling ends, so drivers that must repeat a seed's
        games (the arena, benchmarks, scripted play) leave it off.

        :raises InvalidOptionError: this player cannot play ``game``; the message says why.
        """
        self.check_game(game)
        player_hooks(game.name)
        if self._warming is not None and self._warming.game_name == game.name:
            # compiling in the background already (the game's code serves all its
            # options: searches prepare again for their views, played without offers)
            assert self._fallback is not None
            self._fallback.prepare(game)
            self.prepared_for = game
            return
        self._warming = None
        self._fallback = None
        self._finish_loading()
        warm_ups = self.warm_ups(game)
        if background and self._warm_in_background(game, warm_ups, launcher):
            self.prepared_for = game
            return
        if background and warm_ups and not any(warm_up.cold() for warm_up in warm_ups):
            self._loading = BackgroundLoad(warm_ups, run_locked)  # compiled: loaded meanwhile
            self.prepared_for = game
            return
        for warm_up in warm_ups:
            if on_compiling is not None and warm_up.cold():
                on_compiling()
            run_locked(warm_up)
        self.prepared_for = game

    def _warm_in_background(
        self, game: Game, warm_ups: list[WarmUp], launcher: Launcher | None
    ) -> bool:
        """Start compiling in the background and take the :meth:`fallback`, if that is
        possible: something has to compile, it is among the game's own warm-ups (which
        a process of its own runs by the game's name: :func:`stairgames.agents.warming.
        game_warm_ups`, the learned evaluation's search included), and there is a
        fallback that needs nothing compiled."""
        if not any(warm_up.cold() for warm_up in warm_ups):
            return False
        own = game_warm_ups(game.name)
        if any(all(warm_up is not found for found in own) for warm_up in warm_ups):
            return False
        fallback = self.fallback(game)
        if fallback is None or fallback.warm_ups(game):
            return False
        fallback.prepare(game)
        self._fallback = fallback
        self._warming = start(game.name, launcher=launcher)
        return True

    def ensure_prepared(self, game: Game, *, background: bool = False) -> None:
        """:meth:`prepare` for ``game`` unless already done for it (or the same game
        with the same options)."""
        if self.prepared_for != game:  # Game equality: the same game, equal options
            self.prepare(game, background=background)

    def check_game(self, game: Game) -> None:
        """Refuse a game this player cannot play.

        :raises InvalidOptionError: with the reason (every player plays every game
            unless it says otherwise).
        """
        del game

    def warm_ups(self, game: Game) -> list[WarmUp]:
        """The warm-ups of the compiled code this player uses in ``game`` (none unless
        it says otherwise)."""
        del game
        return []

    def describe(self) -> str:
        """The player's text form with its settings, e.g. ``mcts:time=0.5``."""
        return self.name


Settings = Mapping[str, str]
AgentFactory = Callable[[int, int | None, Settings], Agent]

_FACTORIES: dict[str, AgentFactory] = {}


def register_agent(name: str, factory: AgentFactory) -> None:
    """Make a player kind available by name; ``factory(seat, seed, settings)``."""
    _FACTORIES[name] = factory


def player_kinds() -> list[str]:
    """Names of the computer players, for ``--dark mcts`` and the like."""
    return sorted(_FACTORIES)


def parse_player_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"mcts:time=0.5,c=1"`` into ``("mcts", {"time": "0.5", "c": "1"})``.

    :raises InvalidOptionError: a setting is not ``NAME=VALUE``.
    """
    kind, _, rest = spec.strip().partition(":")
    settings: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        name, equals, value = item.partition("=")
        if not equals or not name.strip() or not value.strip():
            raise InvalidOptionError(
                message_id=N_(
                    "player setting {item!r} in {spec!r} is not NAME=VALUE (e.g. mcts:time=0.5)"
                ),
                arguments={"item": item, "spec": spec},
            )
        settings[name.strip().lower()] = value.strip()
    return kind.strip().lower(), settings


def make_agent(kind: str, seat: int, seed: int | None = None, *, game: Game | None = None) -> Agent:
    """A computer player from its text form (``"random"``, ``"mcts:time=0.5"``, ``"hard"``);
    with ``game``, prepared for it (:meth:`Agent.prepare`).

    :raises InvalidOptionError: unknown kind or setting, or a player that cannot play
        ``game``; the message lists what is allowed.
    """
    name, settings = parse_player_spec(kind)
    factory = _FACTORIES.get(name)
    if factory is None:
        allowed = ", ".join(["human", *player_kinds()])
        raise InvalidOptionError(
            message_id=N_("unknown player {kind!r}; choose from {allowed}"),
            arguments={"kind": kind, "allowed": allowed},
        )
    agent = factory(seat, seed, settings)
    if game is not None:
        agent.prepare(game)
    return agent


def check_settings(kind: str, settings: Settings, allowed: Mapping[str, str]) -> None:
    """Refuse settings a player does not know; ``allowed`` maps each name to its meaning."""
    unknown = sorted(set(settings) - set(allowed))
    if unknown:
        known = "; ".join(f"{name}: {meaning}" for name, meaning in allowed.items()) or "none"
        raise InvalidOptionError(
            message_id=N_("unknown setting(s) {unknown} for player {kind!r}; known: {known}"),
            arguments={"unknown": ", ".join(unknown), "kind": kind, "known": known},
        )


def float_setting(
    settings: Settings,
    name: str,
    default: float,
    *,
    minimum: float = 0.0,
    maximum: float = math.inf,
) -> float:
    """A numeric setting, refused with a clear message when malformed or out of range."""
    if name not in settings:
        return default
    text = settings[name]
    try:
        value = float(text)
    except ValueError:
        raise InvalidOptionError(
            message_id=N_("player setting {name}={text!r} is not a number"),
            arguments={"name": name, "text": text},
        ) from None
    if not value >= minimum:
        raise InvalidOptionError(
            message_id=N_("player setting {name}={text!r} must be at least {minimum}"),
            arguments={"name": name, "text": text, "minimum": minimum},
        )
    if value > maximum:
        raise InvalidOptionError(
            message_id=N_("player setting {name}={text!r} must be at most {maximum}"),
            arguments={"name": name, "text": text, "maximum": maximum},
        )
    return value


def int_setting(settings: Settings, name: str, default: int, *, minimum: int = 0) -> int:
    """An integer setting, refused with a clear message when malformed or too small."""
    if name not in settings:
        return default
    text = settings[name]
    try:
        value = int(text)
    except ValueError:
        raise InvalidOptionError(
            message_id=N_("player setting {name}={text!r} is not a whole number"),
            arguments={"name": name, "text": text},
        ) from None
    if value < minimum:
        raise InvalidOptionError(
            message_id=N_("player setting {name}={text!r} must be at least {minimum}"),
            arguments={"name": name, "text": text, "minimum": minimum},
        )
    return value


def format_settings(kind: str, settings: Mapping[str, object]) -> str:
    """The text form ``kind:name=value,...`` (just ``kind`` without settings)."""
    if not settings:
        return kind
    return kind + ":" + ",".join(f"{name}={value}" for name, value in settings.items())
