"""What a player's name may be, beyond its length (issue 51; docs/web.md, "Players").

A name is unique by its skeleton (:func:`~stairgames.server.base.name_skeleton.skeleton`:
look-alike letters, case, width and accents ignored), kept in ``player_names``
(:class:`PlayerNameRow`) with the names a player had before, reserved for them.

:func:`refuse_unsafe` refuses, in a name already NFC-normalised:

- invisible characters that Python's categories do not call format characters
  (:data:`INVISIBLE`: Unicode's default-ignorable code points, among them the variation
  selectors such as U+FE0F and the Hangul fillers such as U+3164, and the blank braille
  pattern U+2800);
- combining marks that NFC did not join to a letter of the Latin, Greek or Cyrillic
  alphabets (whose accented letters Unicode has whole: ``Bo\\u0301b`` is ``Bób``, but
  ``B\\u0301ob`` is refused), or more than :data:`MOST_MARKS` in a row anywhere;
- a name with no letter or digit (``..``, ``--``), and ``/`` and ``\\`` (the profile's
  address, ``/p/{name}``, must reach any name: browsers resolve ``/p/..`` to ``/``);

and :func:`refuse_words` the words of ``refused_names.toml``.
"""

from __future__ import annotations

import datetime
import functools
import importlib.resources
import re
import tomllib
import unicodedata
from typing import Final

from sqlalchemy import DateTime, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from stairgames.i18n import N_
from stairgames.server.base.errors import ServerError
from stairgames.server.base.name_skeleton import skeleton
from stairgames.server.base.store import Base

INVISIBLE: Final = frozenset(
    chr(code)
    for first, last in (
        (0x00AD, 0x00AD),
        (0x034F, 0x034F),
        (0x061C, 0x061C),
        (0x115F, 0x1160),
        (0x17B4, 0x17B5),
        (0x180B, 0x180F),
        (0x200B, 0x200F),
        (0x202A, 0x202E),
        (0x2060, 0x206F),
        (0x2800, 0x2800),
        (0x3164, 0x3164),
        (0xFE00, 0xFE0F),
        (0xFEFF, 0xFEFF),
        (0xFFA0, 0xFFA0),
        (0xFFF0, 0xFFF8),
        (0x1BCA0, 0x1BCA3),
        (0x1D173, 0x1D17A),
        (0xE0000, 0xE0FFF),
    )
    for code in range(first, last + 1)
)
"""Unicode's Default_Ignorable_Code_Point characters (DerivedCoreProperties.txt) and the
blank braille pattern: none may stand in a name."""
MOST_MARKS: Final = 2
"""The most combining marks in a row (a Thai vowel and its tone mark; no more)."""
_WHOLE_LETTER_ALPHABETS: Final = ("LATIN ", "GREEK ", "CYRILLIC ")
_MARKS: Final = frozenset({"Mn", "Me"})
_SLASHES: Final = frozenset("/\\")
_NOT_LETTERS: Final = re.compile(r"[\W_]+")
_WORD_BREAK: Final = re.compile(r"[\W_]+|(?<=[a-z])(?=[A-Z])")


class PlayerNameRow(Base):
    """A name a player holds (``retired_at`` ``None``) or held after a rated game
    (reserved for them), by its skeleton, unique (a player's row: ``players``)."""

    __tablename__ = "player_names"
    skeleton: Mapped[str] = mapped_column(String(256), primary_key=True)
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(64))
    retired_at: Mapped[datetime.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )


def refuse_unsafe(name: str) -> None:
    """Refuses ``name`` (NFC) if it holds what the module's text lists.

    :raises ServerError: 400.
    """
    if any(char in INVISIBLE for char in name):
        raise ServerError(400, N_("a name may not hold control or invisible characters"))
    if not _marks_join_letters(name):
        raise ServerError(400, N_("a name may not hold combining marks on their own"))
    if not any(unicodedata.category(char)[0] in "LN" for char in name):
        raise ServerError(400, N_("a name needs a letter or a digit"))
    if any(char in _SLASHES for char in name):
        raise ServerError(400, N_("a name may not hold “/” or “\\”"))


def _marks_join_letters(name: str) -> bool:
    """Whether every combining mark of ``name`` follows a letter of an alphabet without
    whole accented letters, at most :data:`MOST_MARKS` in a row."""
    base, run = "", 0
    for char in name:
        if unicodedata.category(char) not in _MARKS:
            base, run = char, 0
            continue
        run += 1
        if run > MOST_MARKS or not base or not unicodedata.category(base).startswith("L"):
            return False
        if unicodedata.name(base, "").startswith(_WHOLE_LETTER_ALPHABETS):
            return False
    return True


def refuse_words(name: str) -> None:
    """Refuses ``name`` if it holds a word of ``refused_names.toml`` (the file's text).

    :raises ServerError: 400.
    """
    anywhere, words = refused_words()
    if any(word in _word_form(name) for word in anywhere) or words & _words_of(name):
        raise ServerError(400, N_("that name is not allowed"))


def _word_form(text: str) -> str:
    """``text`` as refused words are matched: its skeleton, spaces and punctuation left
    out."""
    return _NOT_LETTERS.sub("", skeleton(text))


def _words_of(name: str) -> set[str]:
    return {_word_form(word) for word in _WORD_BREAK.split(name) if word}


@functools.cache
def refused_words() -> tuple[tuple[str, ...], frozenset[str]]:
    """The words refused anywhere in a name, and those refused as a word of it, in
    :func:`_word_form`."""
    source = importlib.resources.files(__package__).joinpath("refused_names.toml")
    table = tomllib.loads(source.read_text(encoding="utf-8"))
    anywhere = [_word_form(word) for words in table["anywhere"].values() for word in words]
    whole = {_word_form(word) for words in table["words"].values() for word in words}
    return tuple(anywhere), frozenset(whole)
