"""Breaks rule (d): the engine imports the game's play/ layer (a relative import)."""

from . import rules
from .play import evaluate

__all__ = ["evaluate", "rules"]
