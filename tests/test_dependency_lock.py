"""The dependency lock (hardening finding 12): ``requirements/lock.txt`` pins every
package the server, its PostgreSQL driver and the tests need, within ``pyproject.toml``'s
bounds, and both set-up commands install with it."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements" / "lock.txt"


def _pins() -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in LOCK.read_text().splitlines():
        found = re.match(r"^([A-Za-z0-9_.\-]+)==(\S+)", line)
        if found:
            pins[canonicalize_name(found.group(1))] = found.group(2)
    return pins


def _declared() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    texts = [*project["dependencies"], *extras["dev"], *extras["postgresql"]]
    return [Requirement(text) for text in texts]


def test_every_declared_dependency_is_pinned_within_its_bounds() -> None:
    pins = _pins()
    for requirement in _declared():
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement.name} is not in {LOCK.name}: run make lock"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"{requirement.name}=={pins[name]} is outside {requirement.specifier}"
        )


def test_every_line_of_the_lock_is_an_exact_pin_or_a_comment() -> None:
    for line in LOCK.read_text().splitlines():
        text = line.strip()
        assert not text or text.startswith("#") or re.match(r"^[A-Za-z0-9_.\-]+==\S+$", text), line


def test_both_set_up_commands_install_with_the_lock() -> None:
    makefile = (ROOT / "Makefile").read_text()
    installs = [line for line in makefile.splitlines() if "pip install" in line and "-e " in line]
    assert len(installs) == 2, installs
    assert all("-c $(LOCK)" in line for line in installs), installs
    assert "LOCK := requirements/lock.txt" in makefile
    stamps = [line for line in makefile.splitlines() if re.match(r"^\$\((PLAY|DEV)_STAMP\):", line)]
    assert len(stamps) == 2 and all("$(LOCK)" in line for line in stamps), stamps


def test_the_environment_running_the_tests_is_the_locked_one() -> None:
    """``make test`` installed from the lock: what runs is what is pinned."""
    pins = _pins()
    for requirement in _declared():
        name = canonicalize_name(requirement.name)
        installed = importlib.metadata.version(requirement.name)
        assert installed == pins[name], f"{requirement.name} {installed}, locked {pins[name]}"
