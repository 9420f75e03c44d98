"""Getting a game's compiled code ready in the background, so that nobody waits for it.

A game's compiled code (numba: the Stairs and 27 tree searches, playouts and endgame
solvers, :class:`stairgames.core.hooks.WarmUp`) is compiled once per installation and
kept on disk beside the sources; compiling it takes 5 to 50 seconds on a 2-core
machine (by its load), loading it later about a second. Drivers that have a person
waiting (the terminal, the web server's workers) prepare players with
``prepare(game, background=True)``: when the warm-up is cold, it is run here, in a
process of its own (:func:`start`), on another core, while the person reads the board;
until it is done the player plays its *fallback* (:meth:`stairgames.agents.Agent.
fallback`: the same search without compiled parts, with the same time, weaker), and at
its first move after the process ended it loads the compiled code (from disk, about a
second) and plays as configured from then on.

A process compiling holds a lock (:func:`lock`: a file in the temporary folder, one per
installation and numba cache folder), so that two processes never compile at once: a
second one waits for the first and then loads what it compiled. One lock for all games,
not one each: the games' kernels share compiled functions (:mod:`stairgames.core.uct`),
and numba rewrites a function's cache index whole, so two processes compiling two
games at once could each drop the other's entry, leaving a signature to compile in a
move. (So ``stairgames prepare`` compiles one game after the other, under the same lock.)

Run as ``python -m stairgames.agents.warming GAME``: the warm-ups of ``GAME``'s compiled
code under its lock (:func:`game_warm_ups`: what :func:`start` runs); ``python -m
stairgames.agents.warming --cold GAME ...``: those warm-ups of those games that still have
to compile, one after the other (what :func:`start_every_game` runs when ``stairgames
serve`` starts).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from stairgames.core.hooks import WarmUp
from stairgames.core.registry import game_names, player_hooks

Launcher = Callable[[str], "subprocess.Popen[bytes]"]
"""How a background warm-up's process is started for a game (tests give their own)."""


def _package_root() -> Path:
    """The folder that holds the ``stairgames`` package (for the child's ``PYTHONPATH``)."""
    return Path(__file__).resolve().parents[2]


def lock_path() -> Path:
    """The lock file of compiling: one per installation (the package's folder) and
    numba cache folder (``NUMBA_CACHE_DIR``)."""
    key = f"{_package_root()}\0{os.environ.get('NUMBA_CACHE_DIR', '')}"
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"stairgames-compiling-{digest}.lock"


@contextlib.contextmanager
def lock() -> Iterator[None]:
    """Hold the lock of compiling (waiting while another process holds it); without a
    usable lock file, nothing is locked."""
    try:
        handle = open(lock_path(), "a+b")  # noqa: SIM115 - held for the block
    except OSError:
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def game_warm_up(game_name: str) -> WarmUp | None:
    """The warm-up of ``game_name``'s compiled code (its hooks' ``warm_up``), if any."""
    return player_hooks(game_name).warm_up


def game_warm_ups(game_name: str) -> list[WarmUp]:
    """Every warm-up of ``game_name``'s compiled code, in the order they are run: its
    hooks' ``warm_up``, then ``valued_warm_up`` (the search valued by the game's learned
    evaluation, ``mcts:net=1``), which builds on the first, then ``policy_warm_up`` (the
    same search guided by the learned move priors, ``mcts:net=1,policy=1``), which
    builds on both; a level may play any of them. What the background process
    compiles, so that no level compiles in the foreground."""
    hooks = player_hooks(game_name)
    ordered = (hooks.warm_up, hooks.valued_warm_up, hooks.policy_warm_up)
    return [found for found in ordered if found is not None]


def run_locked(warm_up: WarmUp) -> None:
    """Run ``warm_up``, under the lock when it has to compile, so that no other process
    compiles meanwhile (after waiting for one, it loads what that one compiled)."""
    if warm_up.cold():
        with lock():
            warm_up.run()
    else:
        warm_up.run()


COLD_ONLY = "--cold"
"""The background process's flag: only the warm-ups that have to compile."""


def launch(game_name: str) -> subprocess.Popen[bytes]:
    """Start ``python -m stairgames.agents.warming GAME`` (the default :data:`Launcher`)."""
    return launch_arguments([game_name])


def launch_arguments(arguments: Sequence[str]) -> subprocess.Popen[bytes]:
    """Start ``python -m stairgames.agents.warming ARGUMENTS``: quiet, in a session of its
    own (a Ctrl-C at the terminal does not stop it half-way), with this package
    importable."""
    environment = dict(os.environ)
    paths = [str(_package_root()), environment.get("PYTHONPATH", "")]
    environment["PYTHONPATH"] = os.pathsep.join(path for path in paths if path)
    return subprocess.Popen(
        [sys.executable, "-m", __name__, *arguments],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=environment,
        start_new_session=True,
    )


class BackgroundWarmUp:
    """A game's warm-up running in a process of its own (:func:`start`)."""

    def __init__(self, game_name: str, process: subprocess.Popen[bytes]) -> None:
        self.game_name = game_name
        self.process = process
        self.started = time.perf_counter()
        self.seconds: float | None = None
        """How long the process ran, once it has ended."""

    def running(self) -> bool:
        """Whether the process is still compiling."""
        if self.seconds is not None:
            return False
        if self.process.poll() is None:
            return True
        self.seconds = time.perf_counter() - self.started
        return False

    def succeeded(self) -> bool:
        """Whether the process ended having compiled everything (otherwise the player's
        own warm-up compiles in the foreground, and says why if it fails)."""
        return not self.running() and self.process.returncode == 0

    def elapsed(self) -> float:
        """Seconds since the process started (until it ended)."""
        return self.seconds if self.seconds is not None else time.perf_counter() - self.started


class BackgroundLoad:
    """Compiled code that is already on disk, loaded in a thread of this process while
    the person reads the board (about a second; :meth:`wait` before the first search).
    Loading does not compile, so it needs no process of its own; should a warm-up fail
    in the thread, :meth:`wait` runs them all again in the caller's thread, where the
    error is raised as the foreground warm-up raises it."""

    def __init__(
        self, warm_ups: Sequence[WarmUp], run: Callable[[WarmUp], None] = run_locked
    ) -> None:
        self.warm_ups = list(warm_ups)
        self._run = run
        self._failed = False
        self._thread = threading.Thread(target=self._load, name="stairgames-load", daemon=True)
        self._thread.start()

    def _load(self) -> None:
        try:
            for warm_up in self.warm_ups:
                self._run(warm_up)
        except Exception:  # raised again by wait(), in the caller's thread
            self._failed = True

    def wait(self) -> None:
        """Wait until the code is loaded (at once when it already is)."""
        self._thread.join()
        if self._failed:
            for warm_up in self.warm_ups:
                self._run(warm_up)
            self._failed = False


_RUNNING: dict[str, BackgroundWarmUp] = {}
"""The background warm-up of each game started by this process (one for all its players)."""


def start(game_name: str, *, launcher: Launcher | None = None) -> BackgroundWarmUp:
    """The background warm-up of ``game_name``'s compiled code, started now unless one
    is already running for this process."""
    found = _RUNNING.get(game_name)
    if found is not None and found.running():
        return found
    handle = BackgroundWarmUp(game_name, (launcher or launch)(game_name))
    _RUNNING[game_name] = handle
    return handle


def start_every_game(
    *, launcher: Callable[[Sequence[str]], subprocess.Popen[bytes]] | None = None
) -> subprocess.Popen[bytes]:
    """Start one process that compiles every game's code still to compile, one game after
    the other under the lock (``stairgames serve`` when it starts, so that the site's
    first games usually find it ready). It checks what is cold itself, so the caller
    waits for nothing. A player prepared meanwhile in the background (a worker's) starts
    its own warm-up, which waits for the lock and then loads what this one compiled."""
    return (launcher or launch_arguments)([COLD_ONLY, *game_names()])


def main(argv: Sequence[str]) -> int:
    """The background process: the warm-ups of each game named (:func:`game_warm_ups`),
    under the lock (with :data:`COLD_ONLY`, only those that have to compile); 1 if one
    failed (the other games are still run)."""
    cold_only = COLD_ONLY in argv
    failed = False
    for name in argv:
        if name == COLD_ONLY:
            continue
        try:
            for warm_up in game_warm_ups(name):
                if not cold_only or warm_up.cold():
                    run_locked(warm_up)
        except Exception:
            if not cold_only:
                raise
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
