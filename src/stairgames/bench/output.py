"""What the benchmarks share for their results."""

from __future__ import annotations

import json
import statistics
from typing import Any


def save_json(path: str | None, figures: Any) -> None:
    """Write ``figures`` as JSON to ``path`` (the ``--out`` option); nothing without one."""
    if path is None:
        return
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(figures, handle, indent=1)


def ratio_of_sums(rows: list[dict[str, Any]], key: str, by: str) -> float:
    """The sum of ``key`` over ``rows`` divided by the sum of ``by`` (0 when that is 0):
    a rate over many games, such as seconds a move."""
    return float(sum(row[key] for row in rows) / max(1e-9, sum(row[by] for row in rows)))


def median_p99_ms(latencies: list[float]) -> tuple[float, float]:
    """The median and the 99th percentile of ``latencies`` (seconds), in milliseconds."""
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return statistics.median(ordered) * 1000, p99 * 1000
