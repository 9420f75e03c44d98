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
from typing import Any, Protocol, TypeVar, cast

from stairgames.core.assess import DEFAULT_ASSESSOR, Assessor
from stairgames.core.errors import InvalidOptionError
from stairgames.core.game import Game, State
from stairgames.core.hooks import NO_HOOKS, PlayerHooks, ResampleHidden
from stairgames.core.options import (
    build_options,
    describe_options,
    option_fields,
    option_listing,
)
from stairgames.core.puzzles import PuzzleKit
from stairgames.core.solvers import SolveCommand
from stairgames.core.studies import Study
from stairgames.core.tensors import ObservationTensor
from stairgames.core.training import TrainCommand
from stairgames.i18n import N_, Text, text_json

T = TypeVar("T")


class Renderer(Protocol):
    """Draws a state for the terminal.

    ``colour``: use ANSI colours. ``viewer``: the seat looking at the screen, whose
    private information may be shown; ``None`` shows only public information.
    """

    def __call__(self, state: State, *, colour: bool, viewer: int | None) -> str: ...


Narrator = Callable[[State, int, State], list[str]]
"""``narrate(before, action, after)``: sentences telling people what an action did."""


class MoveNarrator(Protocol):
    """``narrate_moves(game, history, start)``: for each move of ``history``, a history as
    one seat may know it (``history_strings(seat)``, or ``public_history_strings()``),
    its short account as JSON-ready texts a client translates (the shapes of
    :func:`stairgames.i18n.text_json`); made from that history alone, so it tells
    nothing the seat may not know. ``start``: the position text the game began from
    (a game started from a position), ``None`` for the game's start."""

    def __call__(
        self, game: Game, history: Sequence[str], start: str | None = None
    ) -> list[list[Any]]: ...


WebView = Callable[[State, int | None], dict[str, Any]]
"""``board_view(state, viewer)``: JSON-ready drawing data for the browser's ``board.js``,
holding only what ``viewer`` may see (``None``: a spectator)."""


class UploadedFile(Protocol):
    """What reading an uploaded option file gives: something with a name to show."""

    @property
    def name(self) -> str: ...


class FileParser(Protocol):
    """``parse(text, source=...)``: an uploaded option file read and checked; ``source``
    names the file in messages (its name as the browser gave it, or a
    :class:`~stairgames.i18n.Text`).

    :raises StairgamesError: the file is refused; the message lists every problem.
    """

    def __call__(self, text: str, *, source: str | Text) -> UploadedFile: ...


@dataclasses.dataclass(frozen=True)
class OptionFile:
    """An option whose value may be a file uploaded from the browser (City of Stairs'
    ``cards``): the server checks an upload with :attr:`parse`, keeps it, and gives the
    option the kept file's path (:mod:`stairgames.server.play.card_files`)."""

    option: str
    """The option's name; the server takes its uploads at ``POST /api/<option>`` (a
    text file, sent as ``application/toml``, as City of Stairs' ``cards`` are)."""
    parse: str
    """A ``"module:attribute"`` reference to the :class:`FileParser` that reads and
    checks an uploaded file's text."""


@dataclasses.dataclass(frozen=True)
class MoveWord:
    """A move the browser says in words rather than in its notation (Stairs' ``pass``,
    ``offer``; Ishigaki Race's ``stop``, ``die:3``): its button where a player may play
    it, its entry in the move list, the analysis panel and the analysis board."""

    move: str
    """The move's notation, or a pattern of notations with a ``{number}`` (any number,
    said as it is) or a ``{seat}`` (a seat's number, said as its name) in it:
    ``"die:{number}"``, ``"start:{seat}"``."""
    label: str
    """How people read it (an English message id, translated where it is shown, with
    the pattern's ``{number}`` or ``{seat}``): its button's text and its entry's."""
    button: bool = True
    """Whether the match page and the analysis board offer it as a button of its own
    where it is legal (``False``: the game's ``board.js`` draws its own)."""
    control: bool = False
    """Its button stands among the match's controls (beside Resign, the page's element
    whose id is the move) rather than with the moves of the turn."""
    note: bool = False
    """Not a move of the pairs (an offer to end the game and its answer): the move list
    shows it as a note under the move it follows, and the board keeps the mark of the
    move before it."""
    forced: str | None = None
    """What the match page says where it is the only move a player has (a lone pass:
    why), an English message id."""
    told: tuple[str, str] | None = None
    """What the match page says while it is the last move: to the player who made it,
    and to the others (with ``{name}``, who made it), English message ids."""


def _no_pieces(move: str) -> tuple[str, ...]:
    del move
    return ()


@dataclasses.dataclass(frozen=True)
class Accessible:
    """What the browser's screen-reader mode reads of a game (``docs/accessibility.md``):
    each a function of a state and the seat looking at it (``None``: a spectator) that
    says only what that seat may see, in texts not yet in a language
    (:class:`~stairgames.i18n.Text`, :class:`~stairgames.i18n.Names`...), sent as
    :func:`~stairgames.i18n.text_json` gives them and translated by the page with the
    served catalog (the ids are marked with ``N_`` where they are written, so
    ``make messages`` finds them)."""

    rows: Callable[[State, int | None], list[Any]]
    """The position row by row, as a sighted player reads the board (the far row first)."""
    items: Callable[[State, int | None], list[Any]]
    """The position as a list: each stack, ninja, card or player with what it holds."""
    turn: Callable[[State, int | None], Any]
    """Whose turn it is and what it asks (the colour to move, the die to decide on);
    asked only while the game goes on."""
    last: Callable[[State, int | None], Any] = lambda state, viewer: None
    """The last move told in words (``None``: none, or the page says its notation)."""
    pieces: Callable[[str], tuple[str, ...]] = _no_pieces
    """The pieces or squares a legal move (its notation) belongs to, for the mode's
    ``m <square>``: Stairs' ``c3-d4`` is ``c3``'s; none where a move has no piece."""


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
    player_hooks: str | None = None
    """Optional: what the game offers computer players (:mod:`stairgames.core.hooks`), as
    a ``"module:attribute"`` reference to a :class:`~stairgames.core.hooks.PlayerHooks`
    (``"stairgames.games.stairs.play.evaluate:HOOKS"``). Resolved once, on a player's
    first need (:func:`player_hooks`), so that loading a game imports no player code."""
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
    observation_tensor: str | None = None
    """Optional: the game's observation tensor for learning code
    (:mod:`stairgames.core.tensors`), a ``"module:attribute"`` reference resolved once,
    on first need (:func:`observation_tensor`)."""
    solver: str | None = None
    """Optional: the game's part of ``stairgames solve GAME``
    (:mod:`stairgames.core.solvers`), a ``"module:attribute"`` reference to a
    :class:`~stairgames.core.solvers.SolveCommand`, resolved only when that command runs
    (:func:`solver`)."""
    trainer: str | None = None
    """Optional: the game's part of ``stairgames train GAME`` (a learned evaluation
    trained by self-play, :mod:`stairgames.core.training`), a ``"module:attribute"``
    reference to a :class:`~stairgames.core.training.TrainCommand`, resolved only when
    that command runs (:func:`trainer`)."""
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
    drawing: str | None = None
    """Optional: what ``str(state)`` prints, a ``"module:attribute"`` reference to
    ``drawing(state) -> str`` (no colour, everything the state holds), resolved on the
    first ``str``; without it ``str(state)`` is :attr:`render`'s drawing without colour
    for a spectator (all of a game that hides nothing)."""
    realtime_default: tuple[float, int] = (5, 3)
    """Optional: the real-time control offered first for the game, (minutes each, seconds
    added a move): a game of many quick decisions (dice) or long ones (cards) wants
    another than the 5+3 of a board game."""
    rating_options: tuple[str, ...] = ()
    """Optional: the options that make the game another game for players' ratings (Stairs:
    ``size``; 27: ``variant``): the web app keeps a rating per value of each."""
    study: str | None = None
    """Optional: the game's study for ``stairgames analyze GAME``, a ``"module:attribute"``
    reference to a :class:`~stairgames.core.studies.Study`, resolved when the command
    runs (:func:`study`)."""
    option_files: tuple[OptionFile, ...] = ()
    """Optional: the options whose value may be a file uploaded from the browser (City of
    Stairs' card sets), each with the function that reads and checks such a file."""
    browser_messages: str | None = None
    """Optional: the message ids the game's ``board.js`` translates, a ``"module:attribute"``
    reference to a tuple of ``N_`` ids (a ``view/messages.py``), gathered into the
    browser's catalog by :mod:`stairgames.web.messages` (:func:`browser_messages`); the
    tuple may hold plurals too, each a ``deferred.ngettext(singular, plural)`` pair that
    ``board.js`` says with ``ui.ngettext`` (:func:`browser_plurals`)."""
    assessor: str | None = None
    """Optional: what the game offers the review of a game (``stairgames review``, the
    terminal's ``hint``), a ``"module:attribute"`` reference to an
    :class:`~stairgames.core.assess.Assessor` (its thresholds, exact values, settled
    positions), resolved once, on the first review (:func:`assessor`); without it the
    review searches with :data:`~stairgames.core.assess.DEFAULT_ASSESSOR`."""
    move_words: tuple[MoveWord, ...] = ()
    """Optional: the moves the browser says in words rather than in notation (Stairs'
    pass, swap and agreement; Ishigaki Race's decisions and dice), with how people read
    them; shared JavaScript names none (they reach it through ``GET /api/games``)."""
    puzzles: str | None = None
    """Optional: what the game offers puzzles (:mod:`stairgames.core.puzzles`), a
    ``"module:attribute"`` reference to a :class:`~stairgames.core.puzzles.PuzzleKit`
    (its themes), resolved once, on first need (:func:`puzzle_kit`); without it the game
    has no puzzles."""
    accessible: str | None = None
    """Optional: what the screen-reader mode reads of the game, a ``"module:attribute"``
    reference to an :class:`Accessible` (a ``view/accessible.py``), resolved once, on
    first need (:func:`accessible_view`); without it the mode offers the legal moves and
    the move list, but reads no position."""
    listing_order: int = 100
    """Where the game comes in the server's list of games (``GET /api/games``; lower
    first, then by name): the home page shows its cards in that order and chooses the
    first."""


_REGISTRY: dict[str, GameSpec] = {}
_DISCOVERED = False


def register(spec: GameSpec) -> None:
    """Register a game; called by each game package at import."""
    _REGISTRY[spec.name] = spec


def unregister(name: str) -> None:
    """Forget a game registered with :func:`register` (and what was loaded for it): for
    tests that register a game of their own."""
    _REGISTRY.pop(name, None)
    _loaded_hooks.cache_clear()
    _loaded_tensor.cache_clear()
    _loaded_assessor.cache_clear()
    _loaded_puzzle_kit.cache_clear()
    _loaded_accessible.cache_clear()


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


def resolve(reference: str) -> Any:
    """The object a ``"module:attribute"`` reference names, its module imported now
    (``"stairgames.games.stairs.play.evaluate:HOOKS"``; the attribute may be dotted).

    :raises ValueError: not of the form ``"module:attribute"``.
    """
    module_name, _colon, attribute = reference.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"not a 'module:attribute' reference: {reference!r}")
    value: Any = importlib.import_module(module_name)
    for part in attribute.split("."):
        value = getattr(value, part)
    return value


def drawing(name: str) -> Callable[[State], str] | None:
    """The game's ``drawing(state) -> str`` for ``str(state)`` (:attr:`GameSpec.drawing`,
    else its renderer without colour for a spectator); ``None`` for a game not registered.
    """
    try:
        spec = get_spec(name)
    except InvalidOptionError:
        return None
    if spec.drawing is not None:
        return _loaded_drawing(spec.drawing)
    render = spec.render
    return lambda state: render(state, colour=False, viewer=None)


@functools.cache
def _loaded_drawing(reference: str) -> Callable[[State], str]:
    draw: Callable[[State], str] = resolve(reference)
    return draw


def _resolve_as(reference: str, expected: type[T]) -> T:
    """:func:`resolve`, checking that the reference names an ``expected``.

    :raises TypeError: it names something else.
    """
    value = resolve(reference)
    if not isinstance(value, expected):
        raise TypeError(f"{reference!r} names a {type(value).__name__}, not a {expected.__name__}")
    return value


def player_hooks(name: str) -> PlayerHooks:
    """What the game ``name`` offers computer players (:data:`NO_HOOKS` when nothing);
    the first call imports the game's player code.

    :raises InvalidOptionError: no such game.
    """
    return _loaded_hooks(get_spec(name).name)


@functools.cache
def _loaded_hooks(name: str) -> PlayerHooks:
    reference = _REGISTRY[name].player_hooks
    return NO_HOOKS if reference is None else _resolve_as(reference, PlayerHooks)


def observation_tensor(name: str) -> ObservationTensor | None:
    """The observation tensor the game ``name`` offers, or ``None``; the first call
    imports the game's tensor code.

    :raises InvalidOptionError: no such game.
    """
    return _loaded_tensor(get_spec(name).name)


@functools.cache
def _loaded_tensor(name: str) -> ObservationTensor | None:
    reference = _REGISTRY[name].observation_tensor
    return None if reference is None else _resolve_as(reference, ObservationTensor)


def assessor(name: str) -> Assessor:
    """What the game ``name`` offers the review of a game (:data:`DEFAULT_ASSESSOR` when it
    declares nothing); the first call imports the game's review code.

    :raises InvalidOptionError: no such game.
    """
    return _loaded_assessor(get_spec(name).name)


@functools.cache
def _loaded_assessor(name: str) -> Assessor:
    reference = _REGISTRY[name].assessor
    return DEFAULT_ASSESSOR if reference is None else _resolve_as(reference, Assessor)


def puzzle_kit(name: str) -> PuzzleKit | None:
    """What the game ``name`` offers puzzles (``None``: it has no puzzles); the first call
    imports the game's puzzle code.

    :raises InvalidOptionError: no such game.
    """
    return _loaded_puzzle_kit(get_spec(name).name)


@functools.cache
def _loaded_puzzle_kit(name: str) -> PuzzleKit | None:
    reference = _REGISTRY[name].puzzles
    return None if reference is None else _resolve_as(reference, PuzzleKit)


def accessible(name: str) -> Accessible | None:
    """What the screen-reader mode reads of the game ``name`` (``None``: it declares
    nothing); the first call imports the game's ``view/accessible.py``.

    :raises InvalidOptionError: no such game.
    """
    return _loaded_accessible(get_spec(name).name)


@functools.cache
def _loaded_accessible(name: str) -> Accessible | None:
    reference = _REGISTRY[name].accessible
    return None if reference is None else _resolve_as(reference, Accessible)


def accessible_view(
    name: str, state: State, viewer: int | None, legal: Sequence[str]
) -> dict[str, Any] | None:
    """The texts the screen-reader mode reads, for ``viewer`` (a seat, ``None``: a
    spectator), JSON-ready (:func:`~stairgames.i18n.text_json`): ``rows`` (the position
    row by row), ``items`` (as a list), ``turn`` (``None`` once the game is over: the
    page says the result), ``last`` (the last move told, or
    ``None``) and ``pieces``: each piece or square with the moves of ``legal`` (the
    viewer's legal moves, by notation) that are its. ``None`` where the game offers none.

    :raises InvalidOptionError: no such game.
    """
    texts = accessible(name)
    if texts is None:
        return None
    pieces: dict[str, list[str]] = {}
    for move in legal:
        for piece in texts.pieces(move):
            pieces.setdefault(piece, []).append(move)
    return {
        "rows": [text_json(row) for row in texts.rows(state, viewer)],
        "items": [text_json(item) for item in texts.items(state, viewer)],
        "turn": None if state.is_terminal() else text_json(texts.turn(state, viewer)),
        "last": text_json(texts.last(state, viewer)),
        "pieces": pieces,
    }


def drawn_once(draw: WebView) -> WebView:
    """``draw`` (a game's ``board_view``) remembering its last drawing, for the texts of
    :class:`Accessible` that read it (rows, list and turn, three times a view): the same
    state object at the same history, for the same viewer, is drawn once. The drawing
    given back is shared: read it, never change it."""
    last: list[tuple[State, tuple[int, ...], int | None, dict[str, Any]]] = []

    def drawn(state: State, viewer: int | None) -> dict[str, Any]:
        history = tuple(state.history())
        kept = last[0] if last else None
        if kept is not None and kept[0] is state and kept[1] == history and kept[2] == viewer:
            return kept[3]
        made = draw(state, viewer)
        last[:] = [(state, history, viewer, made)]
        return made

    return drawn


def puzzle_games() -> list[str]:
    """The games that offer puzzles, in :func:`listing_order`."""
    return [name for name in listing_order() if _REGISTRY[name].puzzles is not None]


def solver(name: str) -> SolveCommand | None:
    """The game's part of ``stairgames solve`` (``None``: the game has no solver); its
    solver's code is imported now.

    :raises InvalidOptionError: no such game.
    """
    reference = get_spec(name).solver
    return None if reference is None else _resolve_as(reference, SolveCommand)


def trainer(name: str) -> TrainCommand | None:
    """The game's part of ``stairgames train`` (``None``: the game has none); its code
    is imported now.

    :raises InvalidOptionError: no such game.
    """
    reference = get_spec(name).trainer
    return None if reference is None else _resolve_as(reference, TrainCommand)


def trained_games() -> list[str]:
    """The games that declare a trainer, sorted."""
    return [name for name in game_names() if _REGISTRY[name].trainer is not None]


def study(name: str) -> Study | None:
    """The game's study for ``stairgames analyze`` (``None``: the game has none); its
    code is imported now.

    :raises InvalidOptionError: no such game.
    """
    reference = get_spec(name).study
    return None if reference is None else cast(Study, resolve(reference))


def studied_games() -> list[str]:
    """The games that declare a study, sorted."""
    return [name for name in game_names() if _REGISTRY[name].study is not None]


def option_files() -> dict[str, FileParser]:
    """Every option that takes an uploaded file, with the function that checks one: the
    first game (by name) to declare the option decides how its files are read."""
    parsers: dict[str, FileParser] = {}
    for name in game_names():
        for declared in _REGISTRY[name].option_files:
            if declared.option not in parsers:
                parsers[declared.option] = cast(FileParser, resolve(declared.parse))
    return parsers


def uploaded_options() -> list[str]:
    """The names of the options that take an uploaded file, without importing their
    readers."""
    names = {declared.option for name in game_names() for declared in _REGISTRY[name].option_files}
    return sorted(names)


def browser_messages(name: str) -> tuple[str, ...]:
    """The message ids the game's ``board.js`` translates (none when it declares none):
    its plurals' ids are their singulars, listed by :func:`browser_plurals`.

    :raises InvalidOptionError: no such game.
    """
    return tuple(entry for entry in _browser_entries(name) if isinstance(entry, str))


def browser_plurals(name: str) -> tuple[tuple[str, str], ...]:
    """The plural messages the game's ``board.js`` says with ``ui.ngettext``: each its
    (singular, plural), as ``deferred.ngettext`` marked them (none when it declares none).

    :raises InvalidOptionError: no such game.
    """
    return tuple(entry for entry in _browser_entries(name) if isinstance(entry, tuple))


def _browser_entries(name: str) -> tuple[str | tuple[str, str], ...]:
    reference = get_spec(name).browser_messages
    if reference is None:
        return ()
    messages = resolve(reference)
    if not isinstance(messages, tuple) or not all(
        isinstance(entry, str) or _is_plural(entry) for entry in messages
    ):
        raise TypeError(f"{reference!r} must name a tuple of message ids and plural pairs")
    return messages


def _is_plural(entry: object) -> bool:
    return (
        isinstance(entry, tuple)
        and len(entry) == 2
        and all(isinstance(form, str) for form in entry)
    )


def move_words_json(name: str) -> list[dict[str, Any]]:
    """The game's :attr:`GameSpec.move_words` as ``GET /api/games`` lists them: each
    ``{"move", "label", "button", "control", "note"}``, with ``"forced"`` and ``"told"``
    where the game declared them.

    :raises InvalidOptionError: no such game.
    """
    listed = []
    for word in get_spec(name).move_words:
        entry: dict[str, Any] = {
            "move": word.move,
            "label": word.label,
            "button": word.button,
            "control": word.control,
            "note": word.note,
        }
        if word.forced is not None:
            entry["forced"] = word.forced
        if word.told is not None:
            entry["told"] = list(word.told)
        listed.append(entry)
    return listed


def listing_order() -> list[str]:
    """The registered game names in the order of listings meant for people (the home
    page): by :attr:`GameSpec.listing_order`, then by name."""
    return sorted(game_names(), key=lambda name: (_REGISTRY[name].listing_order, name))


def list_games() -> list[dict[str, Any]]:
    """Every game with its title, summary and options: ``options``, a line for people
    (``name=default, ...``), and ``option_listing``, each option's name, type, default,
    kind, words and bounds for the browser's forms
    (:func:`~stairgames.core.options.option_listing`)."""
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
                "option_listing": option_listing(spec.options_class),
            }
        )
    return listing
