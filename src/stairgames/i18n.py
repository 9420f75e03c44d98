"""The language of everything players read: English, or Japanese (``--lang ja``).

Player-facing texts are English message ids marked for extraction (``_("...")``,
``ngettext(...)``, or ``N_("...")`` where the text is translated later), with named
``{placeholders}`` filled in after translation::

    _("{name} rolls {value}.").format(name=..., value=...)

The translations live in gettext catalogs managed with Babel
(``locale/ja/LC_MESSAGES/stairgames.po``, template ``locale/stairgames.pot``); the web
app reuses them. The ``.po`` file is read at run time with Babel, so a fresh checkout
needs no compile step. The current language is process-wide: :func:`set_language`
(``--lang``), else the locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``).

Errors (:class:`stairgames.core.errors.StairgamesError`) keep their English message
for programmers and carry a message id and arguments: :func:`translate` gives the
player's text in the current language.
"""

from __future__ import annotations

import dataclasses
import errno
import functools
import gettext
import io
import math
import os
import re
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import Any

DOMAIN = "stairgames"
LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES = ("en", "ja")
"""The languages players can choose; ``en`` is the source language."""
DEFAULT_LANGUAGE = "en"

_current = {"language": ""}


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the locale asks for, as gettext reads it: the first of ``LANGUAGE``,
    ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set (``ja_JP.UTF-8`` is ``ja``); English
    when none names a language of :data:`LANGUAGES`."""
    env = os.environ if environ is None else environ
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable, "")
        if not value:
            continue
        for candidate in value.split(":"):
            code = candidate.split(".")[0].split("@")[0].split("_")[0].lower()
            if code in LANGUAGES:
                return code
        return DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def set_language(language: str | None) -> str:
    """Choose the language of everything players read from now on; ``None`` follows the
    locale. Returns the language chosen.

    :raises ValueError: not one of :data:`LANGUAGES`.
    """
    chosen = language_from_environment() if language is None else language.lower()
    if chosen not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}; choose from {', '.join(LANGUAGES)}")
    _current["language"] = chosen
    return chosen


def current_language() -> str:
    """The language in use (chosen from the locale on first use)."""
    if not _current["language"]:
        set_language(None)
    return _current["language"]


def catalog_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def translations(language: str) -> gettext.NullTranslations:
    """The catalog of ``language``, read from its ``.po`` with Babel (English: none)."""
    if language == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with catalog_path(language).open("rb") as po:
        catalog = read_po(po, locale=language, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def _(message: str) -> str:
    """``message`` in the current language (marks it for extraction)."""
    return translations(current_language()).gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a message for ``count`` in the current language: "1 point", "2 points"."""
    return translations(current_language()).ngettext(singular, plural, count)


def N_(message: str) -> str:  # noqa: N802 (the gettext convention)
    """Marks ``message`` for extraction without translating it now (it is translated where
    it is shown, with :func:`_`)."""
    return message


class Deferred:
    """Marks plural messages for extraction without translating them now: ``make
    messages`` (pybabel) finds the two forms of a plural only in a call named
    ``ngettext``, so texts translated elsewhere (the browser's ``ngettext`` in
    ``web/static/i18n.js``) are listed as ``deferred.ngettext(singular, plural)``."""

    @staticmethod
    def ngettext(singular: str, plural: str) -> tuple[str, str]:
        """The two English forms of a plural message, as they are (the message id is the
        singular; the catalog holds a form for each plural form of its language)."""
        return singular, plural


deferred = Deferred()
"""The marker of plural messages translated elsewhere: ``deferred.ngettext(...)``."""


@dataclasses.dataclass(frozen=True)
class Text:
    """A sentence for players, not yet in a language: a message id (English, with named
    ``{placeholders}``) and the arguments that fill it, which may be texts themselves.
    ``str(text)`` is the English; :func:`localize` gives the current language."""

    message_id: str
    arguments: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def __str__(self) -> str:
        return self.message_id.format(**self.arguments)


@dataclasses.dataclass(frozen=True)
class Count:
    """A count with its noun, in the plural form the language wants: ``1 point``,
    ``2 points``. The forms are message ids with a ``{count}`` placeholder, extracted where
    the same forms are passed to :func:`ngettext`."""

    singular: str
    plural: str
    count: int

    def __str__(self) -> str:
        return (self.singular if self.count == 1 else self.plural).format(count=self.count)

    def localized(self) -> str:
        return ngettext(self.singular, self.plural, self.count).format(count=self.count)


@dataclasses.dataclass(frozen=True)
class Names:
    """Names or texts listed in the language they are shown in: ``red, blue and green``
    (or, with ``conjunction=False``, ``red 5, blue 6``). A name is a message id."""

    items: tuple[str | Text, ...]
    conjunction: bool = True

    def __str__(self) -> str:
        words = [str(item) for item in self.items]
        if self.conjunction and len(words) > 1:
            return ", ".join(words[:-1]) + " and " + words[-1]
        return ", ".join(words)

    def localized(self) -> str:
        words = [localize(item) if isinstance(item, Text) else _(item) for item in self.items]
        return join_and(words) if self.conjunction else _(", ").join(words)


@dataclasses.dataclass(frozen=True)
class Lines:
    """Texts shown one a line, each after ``bullet``: the problems of a file, say. An item
    is a :class:`Text` (or anything :func:`localize` takes); ``str(lines)`` is the English."""

    items: tuple[object, ...]
    bullet: str = "  - "

    def __str__(self) -> str:
        return "\n".join(self.bullet + str(item) for item in self.items)

    def localized(self) -> str:
        return "\n".join(self.bullet + localize(item) for item in self.items)


def localize(value: object) -> str:
    """``value`` for players in the current language: a :class:`Text` translated (with its
    arguments localized too), an error through :func:`translate`, anything else as it is."""
    if isinstance(value, Text):
        arguments = {name: _localized_argument(arg) for name, arg in value.arguments.items()}
        return _(value.message_id).format(**arguments)
    if isinstance(value, Names | Count | Lines):
        return value.localized()
    if isinstance(value, BaseException):
        return translate(value)
    return str(value)


def _localized_argument(value: object) -> object:
    localizable = Text | Names | Count | Lines | BaseException
    return localize(value) if isinstance(value, localizable) else value


def translate(error: BaseException) -> str:
    """An error's text for players in the current language: its message id translated and
    filled with its arguments; the English message where it has no id (but the usual
    reasons a file cannot be read are translated: "No such file or directory")."""
    message_id = getattr(error, "message_id", None)
    if not message_id:
        return _file_error(error) if isinstance(error, OSError) else str(error)
    arguments: Mapping[str, Any] = getattr(error, "arguments", {})
    return localize(Text(message_id, arguments))


def text_json(value: object) -> Any:
    """``value`` as JSON that a client translates in its own language, the way
    :func:`localize` does (``web/static/i18n.js`` ``say``): a :class:`Text` or an error with
    a message id as ``{"id", "args"}`` (arguments converted too; no ``args`` when there are
    none), a :class:`Count` as ``{"id", "plural", "n", "args"}`` (the two English forms),
    :class:`Names` as ``{"names": [...], "and": conjunction}`` (a name, a message id, as
    ``{"id"}``), :class:`Lines` as ``{"lines": [...], "bullet"}``; numbers, text, booleans
    and ``None`` as they are (plain text is not translated), anything else as its
    English ``str``. Ishigaki Race's account uses the same shapes."""
    if isinstance(value, Text):
        if not value.arguments:
            return {"id": value.message_id}
        return {"id": value.message_id, "args": arguments_json(value.arguments)}
    if isinstance(value, Count):
        return {
            "id": value.singular,
            "plural": value.plural,
            "n": value.count,
            "args": {"count": value.count},
        }
    if isinstance(value, Names):
        items = [text_json(Text(i) if isinstance(i, str) else i) for i in value.items]
        return {"names": items, "and": value.conjunction}
    if isinstance(value, Lines):
        return {"lines": [text_json(item) for item in value.items], "bullet": value.bullet}
    message_id = getattr(value, "message_id", None)
    if isinstance(value, BaseException) and isinstance(message_id, str) and message_id:
        return text_json(Text(message_id, getattr(value, "arguments", {}) or {}))
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)  # JSON has no nan or inf: "nan", as the English says it
    if isinstance(value, str):
        return unicode_only(value)
    if isinstance(value, int | float | bool) or value is None:
        return value
    return unicode_only(str(value))


def unicode_only(text: str) -> str:
    """``text`` with each lone surrogate (``"\\ud800"``: not Unicode, so not encodable
    as UTF-8) replaced by U+FFFD, so that any text that echoes input can be sent."""
    if text.isascii():
        return text
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def arguments_json(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """A text's arguments as JSON, each through :func:`text_json`."""
    return {name: text_json(value) for name, value in arguments.items()}


_FILE_ERRORS = {
    errno.ENOENT: N_("no such file or directory"),
    errno.EACCES: N_("permission denied"),
    errno.EISDIR: N_("it is a folder, not a file"),
    errno.ENOTDIR: N_("a part of the path is not a folder"),
}


def _file_error(error: OSError) -> str:
    """Why a file cannot be read: the system's English (``[Errno 2] No such file or
    directory: 'x'``) in English, else the reason translated where it is a usual one
    (the file's name is in the message around it)."""
    reason = _FILE_ERRORS.get(error.errno or 0)
    if reason is None or current_language() == DEFAULT_LANGUAGE:
        return str(error)
    return _(reason)


def join_and(items: list[str]) -> str:
    """``red, blue and yellow`` in the current language."""
    if len(items) <= 1:
        return "".join(items)
    return _("{items} and {last}").format(items=_(", ").join(items[:-1]), last=items[-1])


_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
"""A terminal's control sequence (colours, clearing): it takes no column."""


def display_width(text: str) -> int:
    """Columns ``text`` takes on a terminal: wide (East Asian) characters take two,
    control sequences such as colours none."""
    shown = _ESCAPE.sub("", text)
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in shown)


def pad(text: str, width: int) -> str:
    """``text`` followed by spaces to fill ``width`` columns."""
    return text + " " * max(0, width - display_width(text))


_CLOSING = "、。，．・：；？！）」』】〕〉》ー…"
"""Wide characters a line never starts with (Japanese line breaking, kinsoku)."""
_OPENING = "（「『【〔〈《"
"""Wide characters a line never ends with."""


def _words(text: str) -> list[str]:
    """``text`` cut where a line may break: before a space (kept with the word after it)
    and before a wide character, but never before closing punctuation nor after opening
    punctuation."""
    words: list[str] = []
    for char in text:
        breaks_before = char == " " or (display_width(char) == 2 and char not in _CLOSING)
        if not words or (breaks_before and words[-1][-1] not in _OPENING):
            words.append(char)
        else:
            words[-1] += char
    return words


def wrap(text: str, width: int, *, indent: str = "", subsequent_indent: str = "") -> list[str]:
    """``text`` broken into lines of at most ``width`` columns: at spaces, and between
    wide characters (Japanese has no spaces between words), keeping punctuation with
    the character it belongs to."""
    lines: list[str] = []
    line = indent
    for word in _words(text):
        if display_width(line + word) > width and line.strip():
            lines.append(line.rstrip())
            line = subsequent_indent + word.lstrip(" ")
        else:
            line += word
    if line.strip():
        lines.append(line.rstrip())
    return lines


__all__ = [
    "LANGUAGES",
    "N_",
    "Count",
    "Lines",
    "Names",
    "Text",
    "_",
    "arguments_json",
    "current_language",
    "deferred",
    "display_width",
    "join_and",
    "language_from_environment",
    "localize",
    "ngettext",
    "pad",
    "set_language",
    "text_json",
    "translate",
    "wrap",
]
