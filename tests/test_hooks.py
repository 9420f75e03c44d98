"""Compiled kernels: the numba cache follows the modules a kernel copies from."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

import stairgames
from stairgames.games.stairs import kernel as stairs_kernel
from stairgames.games.twenty_seven import kernel as twenty_seven_kernel

SRC = Path(stairgames.__file__).resolve().parents[1]
ROOT = SRC.parent


def run_python(code: str, **env: str) -> str:
    """Run ``code`` in a fresh interpreter on this checkout; its standard output."""
    environment = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SRC), str(ROOT), env.pop("PYTHONPATH", "")]),
        "PYTHONDONTWRITEBYTECODE": "1",
        **env,
    }
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


# ----- the numba cache follows the modules a kernel copies from -----------------


def test_a_kernel_is_compiled_again_when_a_module_it_copies_from_changes(tmp_path):
    package = tmp_path / "tiny"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "rules.py").write_text("SIZE = 3\n")
    (package / "kernel.py").write_text(
        textwrap.dedent(
            """
            from stairgames.core.compiled import Kernel
            from tiny import rules

            KERNEL = Kernel(__name__, copies=(rules,))
            SIZE = rules.SIZE

            @KERNEL.compiled
            def size():
                return SIZE
            """
        )
    )
    script = """
        from tiny.kernel import KERNEL, size
        cold = KERNEL.cold()
        print(cold, size())
        KERNEL.warmed()
    """
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(tmp_path)}
    assert run_python(script, **env).split() == ["True", "3"]
    assert run_python(script, **env).split() == ["False", "3"]  # loaded from the cache
    cached = sorted(path.name for path in (tmp_path / "cache").rglob("kernel.size-*"))
    assert cached  # numba did keep it on disk
    (package / "rules.py").write_text("SIZE = 4  # the rules changed\n")
    # numba alone would load the code compiled with SIZE = 3 (kernel.py is unchanged)
    assert run_python(script, **env).split() == ["True", "4"]
    assert run_python(script, **env).split() == ["False", "4"]


def stairgames_imports(module: ModuleType) -> set[str]:
    """The stairgames modules that ``module``'s source imports, directly."""
    tree = ast.parse(Path(str(module.__file__)).read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.module.startswith("stairgames")
        ):
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                found.add(submodule if submodule in sys.modules else node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("stairgames"))
    return found


KERNELS = [stairs_kernel, twenty_seven_kernel]


@pytest.mark.parametrize("module", KERNELS, ids=lambda m: m.__name__)
def test_every_module_a_kernel_copies_from_is_in_its_digest(module):
    kernel = module.KERNEL
    declared = {copied.__name__ for copied in kernel.copies}
    unseen = {module.__name__}
    seen: set[str] = set()
    while unseen:
        name = unseen.pop()
        seen.add(name)
        unseen |= stairgames_imports(sys.modules[name]) - seen
    assert seen - {module.__name__, "stairgames.core.compiled"} == declared
    assert {path.name for path in kernel.sources()} >= {"compiled.py", "kernel.py", "rules.py"}


def test_every_kernel_module_is_checked_above():
    found = {
        path.relative_to(SRC).with_suffix("").as_posix().replace("/", ".")
        for path in (SRC / "stairgames").rglob("*.py")
        if "Kernel(__name__" in path.read_text(encoding="utf-8") and path.name != "compiled.py"
    }
    assert found == {module.__name__ for module in KERNELS}
