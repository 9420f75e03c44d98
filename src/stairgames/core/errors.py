"""Errors raised by stairgames, all rooted in :class:`ValueError`.

Callers may catch ``ValueError`` broadly or one cause precisely. Every error
is raised before a state is touched, so a state is unchanged after one.
"""

from __future__ import annotations


class StairgamesError(ValueError):
    """Base class of every error raised for bad input."""


class IllegalMoveError(StairgamesError):
    """A move text is malformed, or the move is not legal in this state."""


class InvalidPositionError(StairgamesError):
    """A position text is malformed, or describes an impossible position."""


class InvalidOptionError(StairgamesError):
    """An unknown game, an unknown option, or a bad option value."""


class InvalidRecordError(StairgamesError):
    """A game record is malformed or does not replay."""
