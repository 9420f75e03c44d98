"""The skeleton of a player's name: the form two names that look alike share (issue 51).

Unicode's TR39 (*Unicode Security Mechanisms*, section 4) defines the skeleton of a
text: decomposed (NFD), each character replaced by its *prototype* in the confusables
table (Cyrillic ``а`` and Greek ``α`` by Latin ``a``, the digit ``0`` by ``O``, ``1`` and
``I`` by ``l``, ``m`` by ``rn``), decomposed again; two texts are confusable when their
skeletons are equal. :func:`skeleton` goes further, as a name must differ from every
other by more than case, width or accents:

1. NFKC (full width ``Ｂｏｂ`` is ``Bob``);
2. decomposed, the TR39 prototypes taken, and every combining mark dropped
   (``Bób`` and ``Bo\\u0301b`` are ``Bob``);
3. case-folded, and 2 again, until nothing changes (``B0b``: ``BOb``, ``bob``);
4. ``i`` written ``l``: TR39 takes ``I`` for ``l`` (they are one glyph in many fonts),
   and case folding ``I`` for ``i``, so that without this ``ALICE`` would not be
   ``Alice``; so ``i``, ``I``, ``l``, ``1`` and ``|`` are one letter in names (``Ali``
   is taken by ``All``: a small price against ``AIice`` passing for ``Alice``).

So ``Аlice`` (Cyrillic А), ``AIice`` (a capital i), ``ALICE``, ``Bοb`` (Greek ο), ``B0b``,
``BOB`` and ``Bób`` share the skeletons of ``Alice`` and ``Bob``.

The prototypes are read from the confusables table of the ``confusable-homoglyphs``
package (TR39's ``confusables.txt``, kept as JSON, pinned in ``requirements/lock.txt``).
That file lists each pair both ways without saying which is the prototype: a character
listed with one look-alike that itself has several (``а``: ``a``; ``a``: 23 of them) or
one of several characters (``m``: ``rn``) maps to it; where two characters list only each
other, the one of the lower code point is taken as the prototype. The skeletons are
stored (``player_names``), so a new table is taken up by a migration that recomputes them.
"""

from __future__ import annotations

import functools
import importlib.resources
import json
import unicodedata
from typing import Final

TABLE_PACKAGE: Final = "confusable_homoglyphs"
TABLE_FILE: Final = "confusables.json"
_DIRECTION_MARKS: Final = str.maketrans("", "", "\u200e\u200f")
"""The left-to-right and right-to-left marks the table puts around right-to-left text."""
_PASSES: Final = 4
"""At most this many rounds of step 2 and case folding (two suffice for any name seen)."""
_MARKS: Final = frozenset({"Mn", "Me", "Mc"})


def skeleton(name: str) -> str:
    """The skeleton of ``name`` (the module's text).

    >>> skeleton("Аlice") == skeleton("AIice") == skeleton("ALICE") == skeleton("Alice")
    True
    >>> skeleton("Alice")
    'allce'
    >>> skeleton("B0b") == skeleton("Bοb") == skeleton("Bo\\u0301b") == skeleton("Bob")
    True
    >>> skeleton("Bob") == skeleton("Rob")
    False
    """
    text = unicodedata.normalize("NFKC", name)
    for _ in range(_PASSES):
        folded = _prototypes(text).casefold()
        if folded == text:
            break
        text = folded
    return text.replace("i", "l")


def _prototypes(text: str) -> str:
    """``text`` decomposed, each character replaced by its prototype, marks dropped."""
    table = prototype_table()
    mapped = "".join(table.get(char, char) for char in unicodedata.normalize("NFD", text))
    return "".join(
        char
        for char in unicodedata.normalize("NFD", mapped)
        if unicodedata.category(char) not in _MARKS
    )


@functools.cache
def prototype_table() -> dict[str, str]:
    """Each confusable character's prototype (a character or a few), from the table."""
    listed = _listed_pairs()
    table: dict[str, str] = {}
    for char, alikes in listed.items():
        if len(char) != 1 or len(alikes) != 1:
            continue  # a sequence, or a prototype of several
        (alike,) = alikes
        others = listed.get(alike, [])
        if len(alike) > 1 or len(others) > 1 or (others == [char] and alike < char):
            table[char] = alike
    return table


def _listed_pairs() -> dict[str, list[str]]:
    """The table's characters (and sequences), each with its look-alikes."""
    source = importlib.resources.files(TABLE_PACKAGE).joinpath(TABLE_FILE)
    data: dict[str, list[dict[str, str]]] = json.loads(source.read_text(encoding="utf-8"))
    return {
        key.translate(_DIRECTION_MARKS): [
            entry["c"].translate(_DIRECTION_MARKS) for entry in entries
        ]
        for key, entries in data.items()
    }
