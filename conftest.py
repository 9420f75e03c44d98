"""Collection settings for the doctests under ``src/``: a module that needs an optional
package (the research interfaces need PettingZoo, Gymnasium or OpenSpiel) is left out
when that package is not installed, as the tests that need it skip."""

import importlib.util

_NEEDS = {
    "src/stairgames/interop/pettingzoo.py": ("pettingzoo", "gymnasium"),
    "src/stairgames/interop/gymnasium.py": ("pettingzoo", "gymnasium"),
    "src/stairgames/interop/openspiel.py": ("pyspiel",),
}

collect_ignore = [
    path
    for path, packages in _NEEDS.items()
    if any(importlib.util.find_spec(package) is None for package in packages)
]
