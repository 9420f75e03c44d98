"""The registry: the only place where a game's name meets shared code.

Each game package registers a :class:`GameSpec` when it is imported; the
command line, players and analysis look games up here by name and never branch
on it. :func:`stairgames.load` is :func:`load`.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import pkgutil
from collections.abc import Callable, Sequence
from importlib.resources.abc import Traversable
from typing import Any, Protocol

from stairgames.core.errors import InvalidOptionError
from stairgames.core.game import Game, State
from stairgames.core.hooks import NO_HOOKS, PlayerHooks, ResampleHidden
from stairgames.core.options import build_options, describe_options, option_fields
from stairgames.core.solvers import SolveCommand
from stairgames.core.tensors import ObservationTensor
from stairgames.i18n import N_


class Renderer(Protocol):
    """Draws a state for the terminal.

    ``colour``: use ANSI colours. ``viewer``: the seat looking at the screen, whose
    private information may be shown; ``None`` shows only public information.
    """

    def __call__(self, state: State, *, colour: bool, viewer: int | None) -> str: ...


Narrator = Callable[[State, int, State], list[str]]
"""``narrate(before, action, after)``: sentences telling people what an action did."""

MoveNarrator = Callable[[Game, Sequence[str]], list[list[Any]]]
"""``narrate_moves(game, history)``: for each move of ``history``, a history as one seat
may know it (``history_strings(seat)``, or ``public_history_strings()``), its short
account as JSON-ready texts a client translates (the shapes of
:func:`stairgames.i18n.text_json`); made from that history alone, so it tells nothing
the seat may not know."""

WebView = Callable[[State, int | None], dict[str, Any]]
"""``board_view(state, viewer)``: JSON-ready drawing data for the browser's ``board.js``,
holding only what ``viewer`` may see (``None``: a spectator)."""


@dataclasses.dataclass(frozen=True)
class GameSpec:
    """Everything shared code needs to know about one game."""

    name: str
    title: str
    game_class: type[Game]
    options_class: type[Any]
    render: Renderer
    summary: str = ""
    aliases: tuple[str, ...] = ()
    narrate: Narrator | None = None
    """Optional: an account of each action for players to read (dice, falls, draws)."""
    option_sets: tuple[dict[str, Any], ...] = ({},)
    """Option sets that together cover every variant and optional rule; shared tests
    and benchmarks run each of them."""
    player_hooks: Callable[[], PlayerHooks] | None = None
    """Optional: what the game offers computer players (:mod:`stairgames.core.hooks`).
    Called once, on a player's first need (:func:`player_hooks`); it imports the
    game's player code then, so that loading a game does not."""
    resample_hidden: ResampleHidden | None = None
    """Optional, for games with hidden information: ``resample_hidden(state, seat,
    rng)``, a state with what ``seat`` cannot see redrawn (players' determinisations)."""
    help: str = ""
    """Optional: how a move is written and what the drawing shows, for the terminal's
    ``help`` (an English message id, translated where it is shown)."""
    web_view: WebView | None = None
    """Optional: the board as JSON-ready drawing data for the browser (``board_view(state,
    viewer)``, only what ``viewer`` may see), read by the game's ``board.js``."""
    web_assets: Traversable | None = None
    """Optional: the package folder holding the game's browser files (``board.js``, an ES
    module exporting ``draw(svg, board, ui)``), served at ``/games/<name>/board.js``."""
    observation_tensor: Callable[[], ObservationTensor] | None = None
    """Optional: the game's observation tensor for learning code
    (:mod:`stairgames.core.tensors`). Called once, on first need
    (:func:`observation_tensor`); it imports the game's ``tensor.py`` then."""
    solver: Callable[[], SolveCommand] | None = None
    """Optional: the game's part of ``stairgames solve GAME``
    (:mod:`stairgames.core.solvers`); called only when that command runs."""
    narrate_moves: MoveNarrator | None = None
    """Optional: each move of a history, as a seat may know it, told in a few words for
    the browser's move list (dice, draws, deals); without it the list shows the moves'
    notation."""
    rules_summary: tuple[str, ...] = ()
    """Optional: the rules in a few sentences for the browser's Rules panel (English
    message ids, translated where they are shown)."""
    play_minutes: tuple[int, int] | None = None
    """Optional: how long a game takes, in minutes (shortest, longest; the same for a
    single figure), as its rulebook says, for the games' cards on the home page."""
    position_options: Callable[[str], dict[str, str]] | None = None
    """Optional: the options a position text says itself (Stairs: the board size its
    ranks draw), as text (``{"size": "5"}``); ``stairgames show`` reads a position
    with them unless the command line names the option."""


_REGISTRY: dict[str, GameSpec] = {}
_DISCOVERED = False


def register(spec: GameSpec) -> None:
    """Register a game; called by each game package at import."""
    _REGISTRY[spec.name] = spec


def _discover() -> None:
    """Import every package under :mod:`stairgames.games` once, so each registers itself."""
    global _DISCOVERED
    if _DISCOVERED:
        return
    _DISCOVERED = True
    import stairgames.games as games_package

    for module in pkgutil.iter_modules(games_package.__path__):
        if module.ispkg:
            importlib.import_module(f"{games_package.__name__}.{module.name}")


def game_names() -> list[str]:
    """The registered game names, sorted."""
    _discover()
    return sorted(_REGISTRY)


def get_spec(name: str) -> GameSpec:
    """The spec of a game by name or alias (case-insensitive).

    :raises InvalidOptionError: no such game; the message lists the games.
    """
    _discover()
    key = name.strip().lower().replace("-", "_")
    for spec in _REGISTRY.values():
        if key == spec.name or key in spec.aliases:
            return spec
    raise InvalidOptionError(
        message_id=N_("unknown game {name!r}; available: {games}"),
        arguments={"name": name, "games": ", ".join(game_names())},
    )


def load(name: str, **options: Any) -> Game:
    """A game by name with keyword options.

    >>> import stairgames
    >>> stairgames.load("stairs", pie_rule=True).options
    StairsOptions(pie_rule=True, agreement=True, size=6)

    :raises InvalidOptionError: unknown game, unknown option or bad value.
    """
    spec = get_spec(name)
    return spec.game_class(build_options(spec.options_class, spec.name, options, from_text=False))


def load_with_text_options(name: str, options: dict[str, str]) -> Game:
    """Like :func:`load`, with option values given as text (``"true"``, ``"3"``)."""
    spec = get_spec(name)
    return spec.game_class(build_options(spec.options_class, spec.name, options, from_text=True))


def player_hooks(name: str) -> PlayerHooks:
    """What the game ``name`` offers computer players (:data:`NO_HOOKS` when nothing);
    the first call imports the game's player code.

    :raises InvalidOptionError: no such game.
    """
    return _loaded_hooks(get_spec(name).name)


@functools.cache
def _loaded_hooks(name: str) -> PlayerHooks:
    load_hooks = _REGISTRY[name].player_hooks
    return NO_HOOKS if load_hooks is None else load_hooks()


def observation_tensor(name: str) -> ObservationTensor | None:
    """The observation tensor the game ``name`` offers, or ``None``; the first call
    imports the game's tensor code.

    :raises InvalidOptionError: no such game.
    """
    return _loaded_tensor(get_spec(name).name)


@functools.cache
def _loaded_tensor(name: str) -> ObservationTensor | None:
    load_tensor = _REGISTRY[name].observation_tensor
    return None if load_tensor is None else load_tensor()


def list_games() -> list[dict[str, Any]]:
    """Every game with its title, summary and options (name, type, default)."""
    listing = []
    for name in game_names():
        spec = _REGISTRY[name]
        listing.append(
            {
                "name": spec.name,
                "title": spec.title,
                "summary": spec.summary,
                "options": describe_options(spec.options_class),
                "option_names": [f.name for f in option_fields(spec.options_class)],
            }
        )
    return listing
