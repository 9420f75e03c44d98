"""Compiling a game's hot loops (an exact solver's search) with numba, cached on disk.

Games that search their own positions far faster than the protocol allows (the
Stairs and 27 endgame solvers) keep those positions in numpy arrays and compile the
search in a *kernel* module, whose functions are decorated with
:meth:`Kernel.compiled`: numba's ``njit``, cached on disk (compiled once per
machine, a few seconds; loaded by a new process in under one).

numba keys a function's cache on its own source file alone, but a kernel compiles
in constants it copies from other modules (the board size and neighbours of the
rules); after those change, numba would go on loading code built from the old ones.
A :class:`Kernel` therefore also keys its cache on a digest of the modules it copies
from (``copies``), of itself, of this module (the compile flags) and of the numba and
Python versions: when the digest changes, the kernel's cache files are dropped
before numba reads them, and those of the kernels it copies from too (a generic
kernel such as :mod:`stairgames.core.uct` caches the code compiled for this kernel's
functions in its own files), which leaves every kernel warmed on those cold again.
``tests/test_hooks.py`` checks that every module a kernel imports from is among its
``copies``.

This module imports numba; only the kernels and what uses them import it, so
loading a game and playing it through the protocol does not.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar, cast

import numba

_F = TypeVar("_F", bound=Callable[..., object])


class Kernel:
    """The compiled functions of one module (``module``: its ``__name__``), with a disk
    cache that also depends on the sources of the modules in ``copies``.

    Create one at the top of the kernel module, before its functions::

        KERNEL = Kernel(__name__, copies=(rules,))

        @KERNEL.compiled
        def search(...): ...
    """

    def __init__(self, module: str, *, copies: Sequence[ModuleType] = ()) -> None:
        self.module = module
        self.copies = tuple(copies)
        """The modules whose values the compiled code copies (their sources are in
        the digest)."""
        self.functions: list[Any] = []
        """The numba dispatchers of the decorated functions, in order."""
        self._digest: str | None = None

    def compiled(self, function: _F) -> _F:
        """numba's ``njit`` (cached on disk), keeping the function's type for mypy.

        The first function decorated drops the cache files compiled from other
        sources (nothing is compiled or loaded before a function is first called)."""
        return self._compile(function, numba.njit(cache=True, nogil=True))

    def inlined(self, function: _F) -> _F:
        """:meth:`compiled`, and inlined by numba into the compiled functions that call
        it (``inline="always"``: no call, no reference counting of its arrays), for
        small functions on the hottest paths."""
        return self._compile(function, numba.njit(cache=True, nogil=True, inline="always"))

    def _compile(self, function: _F, njit: Callable[[_F], Any]) -> _F:
        dispatcher = njit(function)
        self.functions.append(dispatcher)
        if len(self.functions) == 1:
            self.drop_stale_cache()
        return cast(_F, dispatcher)

    # ----- the digest and the cache on disk -------------------------------------

    def sources(self) -> list[Path]:
        """The source files the compiled code depends on: the kernel's, this module's
        and those of ``copies``."""
        modules = [sys.modules[self.module], sys.modules[__name__], *self.copies]
        return [Path(str(module.__file__)) for module in modules]

    def digest(self) -> str:
        """A digest of the sources and of the numba and Python versions."""
        if self._digest is None:
            hasher = hashlib.sha256(f"{numba.__version__} {sys.version}".encode())
            for path in self.sources():
                hasher.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
            self._digest = hasher.hexdigest()
        return self._digest

    def cache_dir(self) -> Path | None:
        """Where numba keeps this kernel's compiled code (``None``: it cannot cache)."""
        if not self.functions:
            return None
        # numba's dispatcher keeps its cache (or a NullCache, whose path is None) in
        # ``_cache``; guarded, so that another numba falls back to "cannot cache"
        cache = getattr(self.functions[0], "_cache", None)
        found = getattr(cache, "cache_path", None)
        return Path(found) if isinstance(found, str) else None

    def _stem(self) -> str:
        """The start of the kernel's cache file names: numba names them after the
        source file (``kernel.search-171.py311.nbi``)."""
        return Path(str(sys.modules[self.module].__file__)).stem

    def _marker(self, kind: str) -> Path | None:
        directory = self.cache_dir()
        return None if directory is None else directory / f"{self._stem()}.stairgames-{kind}"

    def drop_stale_cache(self) -> None:
        """Remove the kernel's cache files unless they were compiled from the sources
        of the current digest (recorded beside them), and with them those of the
        kernels it copies from (``copies``, such as :mod:`stairgames.core.uct`): their
        generic functions, compiled for this kernel's functions, are cached in their
        own files, which numba keys on their own source alone. Kept, those entries
        broke numba's saving of the code compiled afresh (a ``ReferenceError`` in the
        first warm-up after the Stairs kernel changed, with ``uct.py`` unchanged). A
        kernel compiled here for the first time (no digest recorded) has nothing there
        to drop, and leaves the other kernels' code alone."""
        marker = self._marker("sources")
        recorded = None if marker is None else _read(marker)
        if marker is None or recorded == self.digest():
            return
        self._drop_files()
        if recorded is not None:  # compiled here before, from other sources
            for kernel in self._copied_kernels():
                kernel._drop_files()
        _write(marker, self.digest())

    def _drop_files(self) -> None:
        """Remove the kernel's compiled code on disk, and start a new generation of it:
        the kernels warmed with the code of the last one are cold again (:meth:`cold`)."""
        generation = self._marker("generation")
        if generation is None:
            return
        directory = generation.parent
        for pattern in (f"{self._stem()}.*.nbi", f"{self._stem()}.*.nbc"):
            for path in directory.glob(pattern):
                path.unlink(missing_ok=True)
        warm = self._marker("warm")
        if warm is not None:
            warm.unlink(missing_ok=True)
        _write(generation, f"{time.time_ns()}.{os.getpid()}")

    def _copied_kernels(self) -> list[Kernel]:
        """The kernels of the modules in ``copies``."""
        found = (getattr(module, "KERNEL", None) for module in self.copies)
        return [kernel for kernel in found if isinstance(kernel, Kernel)]

    def _warm_mark(self) -> str:
        """What a finished warm-up records: the digest, and the generation of the
        compiled code of each kernel copied from (compiled for this one's functions
        too, so dropped with another kernel's change: :meth:`drop_stale_cache`)."""
        marks = [self.digest()]
        for kernel in self._copied_kernels():
            generation = kernel._marker("generation")
            marks.append((_read(generation) if generation else None) or "0")
        return " ".join(marks)

    def cold(self) -> bool:
        """Whether a warm-up has to compile: no warm-up has finished with the current
        sources and the current code of the kernels copied from since the cache was
        last dropped (or numba cannot cache here)."""
        marker = self._marker("warm")
        return marker is None or _read(marker) != self._warm_mark()

    def warmed(self) -> None:
        """Record that a warm-up compiled (or loaded) every function a move uses."""
        marker = self._marker("warm")
        if marker is not None:
            _write(marker, self._warm_mark())

    def compiled_signatures(self) -> int:
        """How many compiled versions the kernel's functions hold in this process
        (a move that compiles nothing leaves it unchanged)."""
        return sum(len(function.signatures) for function in self.functions)


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None


def _write(path: Path, text: str) -> None:
    """Write ``text`` whole or not at all (other processes may read it meanwhile); a
    cache that cannot be written to is left alone."""
    try:
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name)
    except OSError:
        return
    try:
        with os.fdopen(descriptor, "w", encoding="ascii") as file:
            file.write(text + "\n")
        os.replace(temporary, path)
    except OSError:
        Path(temporary).unlink(missing_ok=True)
