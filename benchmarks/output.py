"""What the benchmarks share for their results."""

from __future__ import annotations

import json
from typing import Any


def save_json(path: str | None, figures: Any) -> None:
    """Write ``figures`` as JSON to ``path`` (the ``--out`` option); nothing without one."""
    if path is None:
        return
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(figures, handle, indent=1)
