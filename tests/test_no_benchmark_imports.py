"""No test imports ``benchmarks/`` (issue 50): what a test checks of a benchmark lives in
the package (:mod:`stairgames.bench`) or in a test helper, and the scripts in
``benchmarks/`` import it from there, so the tests run from an installed package and a
benchmark's script can change without breaking them."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def benchmark_imports(source: str) -> Iterator[tuple[int, str]]:
    """The line and module of every import of ``benchmarks`` in ``source``, those
    inside functions included."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            if name == "benchmarks" or name.startswith("benchmarks."):
                yield node.lineno, name


def test_no_test_imports_benchmarks() -> None:
    found = [
        f"{path.relative_to(TESTS)}:{line}: {name}"
        for path in sorted(TESTS.rglob("*.py"))
        for line, name in benchmark_imports(path.read_text(encoding="utf-8"))
    ]
    assert not found, "tests import benchmarks/ (move what they need to stairgames.bench):\n" + (
        "\n".join(found)
    )


def test_every_form_of_importing_benchmarks_is_found() -> None:
    source = (
        "import benchmarks\n"
        "from benchmarks.site import nginx\n"
        "import os, benchmarks.ladder as ladder\n"
        "def later():\n"
        "    from benchmarks import strength\n"
        "from stairgames.bench import naive\n"
        "from . import benchmarks_helpers\n"
        "import benchmarks_elsewhere\n"
        "NAME = 'benchmarks.site'\n"
    )
    assert list(benchmark_imports(source)) == [
        (1, "benchmarks"),
        (2, "benchmarks.site"),
        (3, "benchmarks.ladder"),
        (5, "benchmarks"),
    ]
