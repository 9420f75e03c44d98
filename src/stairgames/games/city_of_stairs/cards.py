"""City of Stairs card sets as data: the TOML format, its schema check and the default set.

The rulebook describes the cards but its pictures are missing, so the card
faces come from a data file. The format (``format = "city-of-stairs-cards"``,
``version = 1``) is documented in ``docs/rules/city_of_stairs.md``; the
default set ``default_cards.toml`` shipped beside this module is a
reconstruction that meets every constraint of rulings C1 and C2. A user who
owns the printed game loads its real cards the same way::

    stairgames.load("city_of_stairs", players=3, cards="my_cards.toml")

:func:`load_card_set` refuses a malformed or inconsistent file with an
:class:`~stairgames.core.errors.InvalidOptionError` that lists every problem
found, each naming the card (section, number and id) and the field.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import tomllib
import unicodedata
from collections.abc import Iterable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any, Final, Literal

from stairgames.core.errors import InvalidOptionError
from stairgames.i18n import N_, Lines, Text

FORMAT: Final = "city-of-stairs-cards"
VERSION: Final = 1

NUM_SEASIDE: Final = 7
NUM_PASSAGE: Final = 14
NUM_STAIRS: Final = 12
NUM_EXPERIENCE: Final = 14
NUM_ICONS: Final = 10
NUM_CHARACTERS: Final = 4
LIGHTHOUSE: Final = "lighthouse"
"""The name of the lighthouse in diary lists (it is no experience icon)."""

UP_LEFT: Final = "nw"
UP_RIGHT: Final = "ne"
IGNORE: Final = "ignore"
TURN: Final = "turn"
ARROWS: Final = (UP_LEFT, UP_RIGHT)

IconKind = Literal["nw", "ne", "ignore", "turn"]

_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
_NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")
_SYMBOLS: Final = {UP_LEFT: "↖", UP_RIGHT: "↗", IGNORE: "≈", TURN: "↺"}
_MAX_REPORTED = 25
SET_NAME_LENGTH: Final = (1, 60)
"""The shortest and longest name of a card set (the board shows it)."""
CHARACTER_NAME_LENGTH: Final = (1, 24)
"""The shortest and longest name of a character (the board shows it by its seat)."""
_REFUSED_IN_NAMES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""The Unicode categories no name may hold, as for a player's name: control characters,
format characters (bidirectional embeddings, overrides and isolates such as U+202E,
marks such as U+200F, zero-width ones), surrogates, private-use and unassigned
characters, line and paragraph separators."""


@dataclasses.dataclass(frozen=True)
class Icon:
    """A movement icon in a bottom corner (C2).

    ``kind`` is ``nw`` (↖), ``ne`` (↗), ``ignore`` or ``turn``; ``colour`` is
    ``None`` for an arrow everyone resolves, else the only colour it applies to.
    """

    kind: IconKind
    colour: str | None = None

    def applies_to(self, colour: str) -> bool:
        return self.colour is None or self.colour == colour

    def is_arrow(self) -> bool:
        return self.kind in ARROWS

    def token(self) -> str:
        """The icon as written in a card file: ``nw``, ``red:ne``, ``blue:turn``."""
        return self.kind if self.colour is None else f"{self.colour}:{self.kind}"

    def symbol(self) -> str:
        """The icon for the terminal: ``↖``, ``R↗`` (red only), ``B≈`` (blue may ignore)."""
        prefix = "" if self.colour is None else self.colour[0].upper()
        return prefix + _SYMBOLS[self.kind]


@dataclasses.dataclass(frozen=True)
class CityCard:
    """A passage or experience card (C1, C2)."""

    index: int
    """Position in the card set: passage cards first, then experience cards."""
    id: str
    kind: Literal["passage", "experience"]
    stairs: bool
    experience: str | None
    """The experience icon in the top-left corner (experience cards only)."""
    left: tuple[Icon, ...]
    """Movement icons in the bottom-left corner: resolved when entering from the left."""
    right: tuple[Icon, ...]
    """Movement icons in the bottom-right corner: resolved when entering from the right."""

    def corner(self, side: str) -> tuple[Icon, ...]:
        return self.left if side == "left" else self.right

    def describe(self) -> str:
        """A one-line face: ``P03 stairs ↖|↗`` or ``E01 cat``."""
        parts = [self.id]
        if self.stairs:
            parts.append("stairs")
        if self.experience is not None:
            parts.append(self.experience)
        if self.left or self.right:
            left = "".join(i.symbol() for i in self.left)
            right = "".join(i.symbol() for i in self.right)
            parts.append(f"{left or '-'}|{right or '-'}")
        return " ".join(parts)


@dataclasses.dataclass(frozen=True)
class Character:
    """A character card: a colour and the experience icons it is interested in (C1)."""

    colour: str
    name: str
    interests: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class CardSet:
    """A complete, checked card set."""

    name: str
    source: str
    icons: tuple[str, ...]
    """The 10 experience icons, in the file's order."""
    characters: tuple[Character, ...]
    seaside: tuple[int, ...]
    """Seaside card numbers 1-7, left to right; each offers ↖ and ↗."""
    departures: tuple[int, ...]
    """Departure card numbers; each names the seaside card a stroll starts from."""
    diary: tuple[str, ...]
    """The walking-diary cards of one colour: every icon once, plus the lighthouse."""
    lighthouse_points: int
    cards: tuple[CityCard, ...]
    """The 28 city cards: 14 passage (indices 0-13), then 14 experience (14-27)."""

    @functools.cached_property
    def by_id(self) -> dict[str, CityCard]:
        return {card.id: card for card in self.cards}

    def colours(self) -> tuple[str, ...]:
        return tuple(c.colour for c in self.characters)

    def character(self, colour: str) -> Character:
        for character in self.characters:
            if character.colour == colour:
                return character
        raise KeyError(colour)

    def of_kind(self, kind: str) -> tuple[CityCard, ...]:
        return tuple(card for card in self.cards if card.kind == kind)


DEFAULT_CARDS_FILE: Final = "default_cards.toml"


def default_cards_text() -> str:
    return (
        resources.files("stairgames.games.city_of_stairs")
        .joinpath(DEFAULT_CARDS_FILE)
        .read_text(encoding="utf-8")
    )


def load_card_set(path: str | None = None) -> CardSet:
    """The card set in the TOML file at ``path``, or the default set for ``None``.

    :raises InvalidOptionError: the file cannot be read, is not TOML, or breaks
        the format or rulings C1-C2; the message lists every problem with its
        card and field.
    """
    if path is None:
        return _default_card_set()
    try:
        resolved = Path(path).expanduser().resolve()
        stamp = resolved.stat().st_mtime_ns
    except OSError as exc:
        raise InvalidOptionError(
            message_id=N_("cannot read card file {path!r}: {exc}"),
            arguments={"path": path, "exc": exc},
        ) from None
    return _load_file(str(resolved), stamp)


@functools.cache
def _default_card_set() -> CardSet:
    return parse_card_set(default_cards_text(), source=DEFAULT_SOURCE)


@functools.lru_cache(maxsize=16)
def _load_file(path: str, stamp: int) -> CardSet:
    del stamp  # part of the cache key only: an edited file is read again
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidOptionError(
            message_id=N_("cannot read card file {path!r}: {exc}"),
            arguments={"path": path, "exc": exc},
        ) from None
    return parse_card_set(text, source=path)


DEFAULT_SOURCE: Final = Text(N_("default card set"))
"""The name of the default set in messages (``CardSet.source`` holds its English)."""
_SOME_FILE: Final = Text(N_("card file"))


def parse_card_set(text: str, *, source: str | Text = _SOME_FILE) -> CardSet:
    """Read and check a card set from TOML text; ``source`` names it in messages (a path,
    or a :class:`~stairgames.i18n.Text`).

    :raises InvalidOptionError: with every problem found, each naming card and field.
        Its ``message_id`` is :data:`INVALID_CARD_SET` (or :data:`INVALID_CARD_SET_AND_MORE`
        when more than 25 problems were found); its ``arguments`` are ``source``,
        ``problems`` (an :class:`~stairgames.i18n.Lines` of texts ``{where}: {problem}``,
        each a message id with arguments) and ``more`` (how many were left out), so that
        :func:`stairgames.i18n.translate` gives it whole in the player's language.
    """
    try:
        data = tomllib.loads(text)
    except RecursionError:  # arrays or tables nested thousands deep
        raise InvalidOptionError(
            message_id=N_("{source}: not valid TOML: {exc}"),
            arguments={"source": source, "exc": "nested too deeply"},
        ) from None
    except tomllib.TOMLDecodeError as exc:
        raise InvalidOptionError(
            message_id=N_("{source}: not valid TOML: {exc}"),
            arguments={"source": source, "exc": exc},
        ) from None
    checker = _Checker(source)
    card_set = checker.read(data)
    checker.raise_if_problems()
    assert card_set is not None
    return card_set


INVALID_CARD_SET: Final = N_("{source} is not a valid City of Stairs card set:\n{problems}")
INVALID_CARD_SET_AND_MORE: Final = N_(
    "{source} is not a valid City of Stairs card set:\n{problems}\n  ... and {more} more"
)
PROBLEM: Final = N_("{where}: {problem}")
"""One problem of a card file: where (section, card, field) and what is wrong."""

_CARD_BY_NUMBER: Final = {
    "passage": N_("passage card {number}"),
    "experience": N_("experience card {number}"),
}
_CARD_BY_NUMBER_AND_ID: Final = {
    "passage": N_("passage card {number} ({id})"),
    "experience": N_("experience card {number} ({id})"),
}
_CARD_BY_ID: Final = {"passage": N_("passage card {id}"), "experience": N_("experience card {id}")}


def _field(name: str, where: Text | None = None) -> Text:
    """``field 'name'`` of the document, or of ``where`` (a section, a card)."""
    if where is None:
        return Text(N_("field {field!r}"), {"field": name})
    return Text(N_("{where} field {field!r}"), {"where": where, "field": name})


def _array_section(name: str) -> Text:
    """An array of tables, ``[[passage]]``."""
    return Text(N_("section [[{section}]]"), {"section": name})


def _table_section(name: str) -> Text:
    """A table, ``[diary]``."""
    return Text(N_("section [{section}]"), {"section": name})


def _names(names: Iterable[str]) -> str:
    """Keys or icon names as written in a card file, for a message: ``a, b, c``."""
    return ", ".join(names)


class _Checker:
    """Reads a parsed TOML document into a :class:`CardSet`, collecting every problem."""

    def __init__(self, source: str | Text) -> None:
        self.source = source
        self.problems: list[Text] = []

    def fail(self, where: Text, problem: str, **arguments: Any) -> None:
        """Note a problem: ``where`` it is, and a message id ``problem`` filled with
        ``arguments``."""
        self.problems.append(Text(PROBLEM, {"where": where, "problem": Text(problem, arguments)}))

    def raise_if_problems(self) -> None:
        if not self.problems:
            return
        shown = Lines(tuple(self.problems[:_MAX_REPORTED]))
        more = len(self.problems) - len(shown.items)
        raise InvalidOptionError(
            message_id=INVALID_CARD_SET_AND_MORE if more else INVALID_CARD_SET,
            arguments={"source": self.source, "problems": shown, "more": more},
        )

    # ----- the document -----------------------------------------------------

    def read(self, data: Mapping[str, Any]) -> CardSet | None:
        known = {
            "format",
            "version",
            "name",
            "icons",
            "character",
            "seaside",
            "departure",
            "diary",
            "lighthouse",
            "passage",
            "experience",
        }
        for key in data:
            if key not in known:
                self.fail(
                    Text(N_("top level key {key!r}"), {"key": key}),
                    N_("unknown; expected {names}"),
                    names=_names(sorted(known)),
                )
        if data.get("format") != FORMAT:
            self.fail(
                _field("format"),
                N_("must be {expected!r}, got {value!r}"),
                expected=FORMAT,
                value=data.get("format"),
            )
        if data.get("version") != VERSION:
            self.fail(
                _field("version"),
                N_("this program reads version {version}, got {value!r}"),
                version=VERSION,
                value=data.get("version"),
            )
        name = data.get("name", "unnamed card set")
        if not isinstance(name, str):
            self.fail(_field("name"), N_("must be a string, got {value!r}"), value=name)
            name = "unnamed card set"
        self.check_name(_field("name"), name, SET_NAME_LENGTH)
        icons = self.read_icons(data.get("icons"))
        characters = self.read_characters(data.get("character"), icons)
        colours = tuple(c.colour for c in characters)
        seaside = self.read_seaside(data.get("seaside"))
        departures = self.read_departures(data.get("departure"), seaside)
        diary = self.read_diary(data.get("diary"), icons)
        points = self.read_lighthouse(data.get("lighthouse"))
        passage = self.read_city_cards(data.get("passage"), "passage", 0, icons, colours)
        experience = self.read_city_cards(
            data.get("experience"), "experience", len(passage), icons, colours
        )
        cards = passage + experience
        self.check_counts(passage, experience, icons)
        self.check_unique_ids(cards)
        if self.problems:
            return None
        return CardSet(
            name=name,
            source=str(self.source),
            icons=icons,
            characters=characters,
            seaside=seaside,
            departures=departures,
            diary=diary,
            lighthouse_points=points,
            cards=cards,
        )

    def check_name(self, where: Text, name: str, length: tuple[int, int]) -> None:
        """Note a name (the set's, a character's: the board shows them) of the wrong
        length, or holding a character that is invisible or changes how the text around
        it reads (U+202E would show ``Red`` reversed, and the rest of the line with it)."""
        shortest, longest = length
        if not shortest <= len(name) <= longest:
            self.fail(where, N_("a name has {min} to {max} characters"), min=shortest, max=longest)
        if any(unicodedata.category(char) in _REFUSED_IN_NAMES for char in name):
            self.fail(where, N_("a name may not hold control or invisible characters"))

    def table_list(self, value: Any, section: str) -> list[Mapping[str, Any]]:
        if value is None:
            self.fail(_array_section(section), N_("missing"))
            return []
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            self.fail(_array_section(section), N_("must be an array of tables"))
            return []
        return value

    def check_keys(self, where: Text, table: Mapping[str, Any], allowed: Iterable[str]) -> None:
        allowed = tuple(allowed)
        for key in table:
            if key not in allowed:
                self.fail(
                    _field(key, where), N_("unknown; expected {names}"), names=_names(allowed)
                )

    def read_icons(self, value: Any) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.fail(_field("icons"), N_("must be a list of experience icon names"))
            return ()
        for icon in value:
            if not _NAME_RE.match(icon):
                self.fail(
                    Text(N_("field 'icons' entry {icon!r}"), {"icon": icon}),
                    N_("an icon name is lower case letters, digits and _"),
                )
            if icon == LIGHTHOUSE:
                self.fail(_field("icons"), N_("the lighthouse is not an experience icon"))
        if len(set(value)) != len(value):
            self.fail(_field("icons"), N_("an icon is listed twice"))
        if len(value) != NUM_ICONS:
            self.fail(
                _field("icons"),
                N_("C1: there are {expected} experience icons, got {count}"),
                expected=NUM_ICONS,
                count=len(value),
            )
        return tuple(value)

    def read_characters(self, value: Any, icons: tuple[str, ...]) -> tuple[Character, ...]:
        characters = []
        for number, table in enumerate(self.table_list(value, "character"), start=1):
            where = Text(N_("character {number}"), {"number": number})
            self.check_keys(where, table, ("colour", "name", "interests"))
            colour = table.get("colour")
            if not isinstance(colour, str) or not _NAME_RE.match(colour):
                self.fail(
                    _field("colour", where),
                    N_("a lower-case name is needed, got {value!r}"),
                    value=colour,
                )
                continue
            where = Text(N_("character {number} ({colour})"), {"number": number, "colour": colour})
            name = table.get("name", colour.capitalize())
            if not isinstance(name, str):
                self.fail(_field("name", where), N_("must be a string, got {value!r}"), value=name)
                name = colour
            self.check_name(_field("name", where), name, CHARACTER_NAME_LENGTH)
            interests = table.get("interests")
            if not isinstance(interests, list) or not interests:
                self.fail(_field("interests", where), N_("must be a non-empty list of icons"))
                interests = []
            for interest in interests:
                if interest not in icons:
                    self.fail(
                        _field("interests", where),
                        N_("{value!r} is not one of the icons"),
                        value=interest,
                    )
            if len(set(map(str, interests))) != len(interests):
                self.fail(_field("interests", where), N_("an interest is listed twice"))
            characters.append(Character(colour, name, tuple(map(str, interests))))
        colours = [c.colour for c in characters]
        initials = [c[0] for c in colours]
        if len(set(colours)) != len(colours):
            self.fail(_array_section("character"), N_("two characters share a colour"))
        elif len(set(initials)) != len(initials):
            self.fail(_array_section("character"), N_("colours must start with different letters"))
        if len(characters) != NUM_CHARACTERS and value is not None:
            self.fail(
                _array_section("character"),
                N_("C1: there are {expected} characters, got {count}"),
                expected=NUM_CHARACTERS,
                count=len(characters),
            )
        return tuple(characters)

    def read_seaside(self, value: Any) -> tuple[int, ...]:
        numbers = []
        for position, table in enumerate(self.table_list(value, "seaside"), start=1):
            where = Text(N_("seaside card {number}"), {"number": position})
            self.check_keys(where, table, ("number", "offers"))
            number = table.get("number")
            if number != position:
                self.fail(
                    _field("number", where),
                    N_("seaside cards are numbered 1-{last} in order, got {value!r}"),
                    last=NUM_SEASIDE,
                    value=number,
                )
            offers = table.get("offers", [UP_LEFT, UP_RIGHT])
            if not isinstance(offers, list) or sorted(map(str, offers)) != [UP_RIGHT, UP_LEFT]:
                self.fail(
                    _field("offers", where),
                    N_("C1: must be ['nw', 'ne'], got {value!r}"),
                    value=offers,
                )
            numbers.append(position)
        if value is not None and len(numbers) != NUM_SEASIDE:
            self.fail(
                _array_section("seaside"),
                N_("C1: there are {expected} seaside cards, got {count}"),
                expected=NUM_SEASIDE,
                count=len(numbers),
            )
        return tuple(numbers)

    def read_departures(self, value: Any, seaside: tuple[int, ...]) -> tuple[int, ...]:
        numbers: list[int] = []
        for position, table in enumerate(self.table_list(value, "departure"), start=1):
            where = Text(N_("departure card {number}"), {"number": position})
            self.check_keys(where, table, ("seaside",))
            number = table.get("seaside")
            if not isinstance(number, int) or isinstance(number, bool) or number not in seaside:
                self.fail(
                    _field("seaside", where),
                    N_("must name a seaside card 1-7, got {value!r}"),
                    value=number,
                )
                continue
            if number in numbers:
                self.fail(
                    _field("seaside", where),
                    N_("seaside card {number} is named twice"),
                    number=number,
                )
            numbers.append(number)
        if isinstance(value, list) and len(value) != NUM_SEASIDE:
            self.fail(
                _array_section("departure"),
                N_("C1: there are {expected} departure cards, got {count}"),
                expected=NUM_SEASIDE,
                count=len(value),
            )
        return tuple(numbers)

    def read_diary(self, value: Any, icons: tuple[str, ...]) -> tuple[str, ...]:
        section = _table_section("diary")
        if not isinstance(value, dict):
            self.fail(section, N_("missing, or not a table"))
            return ()
        self.check_keys(section, value, ("icons",))
        entries = value.get("icons")
        if not isinstance(entries, list) or not all(isinstance(e, str) for e in entries):
            self.fail(_field("icons", section), N_("must be a list of icon names"))
            return ()
        expected = set(icons) | {LIGHTHOUSE}
        if sorted(entries) != sorted(expected):
            self.fail(
                _field("icons", section),
                N_(
                    "C1: one diary card per experience icon plus the lighthouse "
                    "({expected} cards), got {value!r}"
                ),
                expected=len(expected),
                value=entries,
            )
        return tuple(entries)

    def read_lighthouse(self, value: Any) -> int:
        section = _table_section("lighthouse")
        if not isinstance(value, dict):
            self.fail(section, N_("missing, or not a table"))
            return 3
        self.check_keys(section, value, ("points",))
        points = value.get("points", 3)
        if not isinstance(points, int) or isinstance(points, bool) or points < 1:
            self.fail(
                _field("points", section), N_("a positive integer, got {value!r}"), value=points
            )
            return 3
        return points

    def read_city_cards(
        self,
        value: Any,
        kind: Literal["passage", "experience"],
        first_index: int,
        icons: tuple[str, ...],
        colours: tuple[str, ...],
    ) -> tuple[CityCard, ...]:
        cards: list[CityCard] = []
        allowed = ("id", "stairs", "left", "right") + (("icon",) if kind == "experience" else ())
        for number, table in enumerate(self.table_list(value, kind), start=1):
            card_id = table.get("id")
            where = Text(_CARD_BY_NUMBER[kind], {"number": number})
            if not isinstance(card_id, str) or not _ID_RE.match(card_id):
                self.fail(
                    _field("id", where),
                    N_("letters, digits, _ and - starting with a letter or digit, got {value!r}"),
                    value=card_id,
                )
                card_id = f"?{number}"
            else:
                where = Text(_CARD_BY_NUMBER_AND_ID[kind], {"number": number, "id": card_id})
            self.check_keys(where, table, allowed)
            stairs = table.get("stairs", False)
            if not isinstance(stairs, bool):
                self.fail(_field("stairs", where), N_("true or false, got {value!r}"), value=stairs)
                stairs = False
            experience = None
            if kind == "experience":
                experience = table.get("icon")
                if experience not in icons:
                    self.fail(
                        _field("icon", where),
                        N_("C1: an experience card has one of the icons, got {value!r}"),
                        value=experience,
                    )
                if stairs:
                    self.fail(_field("stairs", where), N_("experience cards have no stairs"))
            left = self.read_corner(table.get("left", []), _field("left", where), colours)
            right = self.read_corner(table.get("right", []), _field("right", where), colours)
            card = CityCard(
                index=first_index + len(cards),
                id=card_id,
                kind=kind,
                stairs=stairs,
                experience=experience if isinstance(experience, str) else None,
                left=left,
                right=right,
            )
            self.check_card_consistency(card, where)
            cards.append(card)
        return tuple(cards)

    def read_corner(self, value: Any, where: Text, colours: tuple[str, ...]) -> tuple[Icon, ...]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.fail(where, N_("must be a list of movement icons, got {value!r}"), value=value)
            return ()
        result = []
        for token in value:
            icon = self.read_icon(token, where, colours)
            if icon is not None:
                if icon in result:
                    self.fail(where, N_("icon {token!r} is listed twice"), token=token)
                result.append(icon)
        return tuple(result)

    def read_icon(self, token: str, where: Text, colours: tuple[str, ...]) -> Icon | None:
        colour, _, kind = token.rpartition(":")
        if kind not in (UP_LEFT, UP_RIGHT, IGNORE, TURN):
            self.fail(
                where,
                N_(
                    "unknown icon {token!r}; write nw, ne, COLOUR:nw, COLOUR:ne, "
                    "COLOUR:ignore or COLOUR:turn"
                ),
                token=token,
            )
            return None
        if not colour:
            if kind in (IGNORE, TURN):
                self.fail(
                    where, N_("C2: {kind!r} belongs to a colour; write COLOUR:{kind}"), kind=kind
                )
                return None
            return Icon(kind)  # type: ignore[arg-type]
        if colour not in colours:
            self.fail(
                where,
                N_("icon {token!r} names colour {colour!r}, not a character's colour"),
                token=token,
                colour=colour,
            )
            return None
        return Icon(kind, colour)  # type: ignore[arg-type]

    def check_card_consistency(self, card: CityCard, where: Text) -> None:
        arrows = [i for i in card.left + card.right if i.is_arrow()]
        if card.stairs and not arrows:
            self.fail(where, N_("a card with stairs needs a ↖ or ↗ icon (the stairs lead up)"))
        if arrows and not card.stairs:
            self.fail(where, N_("a card with a ↖ or ↗ icon has stairs: set stairs = true"))
        for side in ("left", "right"):
            corner = card.corner(side)
            for icon in corner:
                if icon.kind == IGNORE and not any(
                    other.is_arrow() and other.applies_to(icon.colour or "") for other in corner
                ):
                    self.fail(
                        _field(side, where),
                        N_("{icon!r} has no ↖ or ↗ for {colour} to ignore in that corner"),
                        icon=icon.token(),
                        colour=icon.colour,
                    )

    def check_counts(
        self,
        passage: tuple[CityCard, ...],
        experience: tuple[CityCard, ...],
        icons: tuple[str, ...],
    ) -> None:
        if len(passage) != NUM_PASSAGE:
            self.fail(
                _array_section("passage"),
                N_("C1: there are {expected} passage cards, got {count}"),
                expected=NUM_PASSAGE,
                count=len(passage),
            )
        stairs = sum(card.stairs for card in passage)
        if stairs != NUM_STAIRS:
            self.fail(
                _array_section("passage"),
                N_(
                    "C1: {expected} passage cards have stairs, got {count} (every row of the "
                    "7x4 city ends with exactly 3)"
                ),
                expected=NUM_STAIRS,
                count=stairs,
            )
        if len(experience) != NUM_EXPERIENCE:
            self.fail(
                _array_section("experience"),
                N_("C1: there are {expected} experience cards, got {count}"),
                expected=NUM_EXPERIENCE,
                count=len(experience),
            )
        for card in passage:
            if card.experience is not None:
                self.fail(
                    Text(_CARD_BY_ID["passage"], {"id": card.id}),
                    N_("passage cards have no experience icon"),
                )
        shown = {card.experience for card in experience}
        for icon in icons:
            if icon not in shown:
                self.fail(
                    _array_section("experience"),
                    N_(
                        "icon {icon!r} is on no experience card: its diary card could never turn up"
                    ),
                    icon=icon,
                )

    def check_unique_ids(self, cards: tuple[CityCard, ...]) -> None:
        seen: set[str] = set()
        for card in cards:
            if card.id in seen:
                self.fail(
                    Text(_CARD_BY_ID[card.kind], {"id": card.id}),
                    N_("field 'id': this id is used twice"),
                )
            seen.add(card.id)
