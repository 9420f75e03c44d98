"""What a game offers ``stairgames train GAME``: its own flags and its training run.

A game that can learn an evaluation by self-play names a :class:`TrainCommand` in its
registration (:attr:`stairgames.core.registry.GameSpec.trainer`, a ``"module:attribute"``
reference); the registry imports it only when the command runs, so loading or playing a
game imports none of it (nor the training framework it needs). The command line gives
every game the same frame: ``--games``, ``--epochs``, ``--seed`` and ``--out``; the game
adds its own flags and does the rest.
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from stairgames.core.game import Game


@dataclasses.dataclass(frozen=True)
class TrainRequest:
    """What ``stairgames train`` hands a game's trainer."""

    game: Game
    """The game (its default options)."""
    arguments: argparse.Namespace
    """Every flag parsed (the game's own among them)."""
    games: int
    """Self-play games to play (``--games``)."""
    epochs: int
    """Passes over their positions (``--epochs``)."""
    seed: int
    """The seed of every generator of the run (``--seed``)."""
    out: Path
    """Where the trained weights go (``--out``)."""
    command: str
    """The command line that asked for it (kept with the weights)."""
    stderr: TextIO
    """Where progress goes."""


@dataclasses.dataclass(frozen=True)
class TrainCommand:
    """A game's part of ``stairgames train GAME``."""

    add_arguments: Callable[[argparse.ArgumentParser], None]
    """Adds the game's own flags."""
    default_out: str
    """The file the weights go to without ``--out`` (a name in the current folder)."""
    run: Callable[[TrainRequest], int]
    """Plays, trains, saves, prints what it did, and returns the exit status.

    :raises InvalidOptionError: a flag out of range, or the training framework
        missing (saying how to install it)."""
