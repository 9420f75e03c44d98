"""Figures for studies, drawn with matplotlib's Agg backend into small PNG files.

matplotlib is optional (``pip install 'stairgames[analysis]'``): it is imported when
a figure is drawn, and its absence is reported with what to install.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from stairgames.core.errors import InvalidOptionError
from stairgames.i18n import N_

Interval = tuple[float, float, float]
"""``(value, low, high)``."""

DPI = 100
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")


def pyplot() -> Any:
    """``matplotlib.pyplot`` on the Agg backend (no display needed).

    :raises InvalidOptionError: matplotlib is not installed; the message says how to get it.
    """
    try:
        import matplotlib  # optional dependency

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as error:
        raise InvalidOptionError(
            message_id=N_(
                "plots need matplotlib, which is not installed: "
                "pip install 'stairgames[analysis]' (or pip install matplotlib)"
            )
        ) from error
    return plt


def _save(figure: Any, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.tight_layout()
    figure.savefig(path, dpi=DPI)
    pyplot().close(figure)
    return path


def _error_bars(values: Sequence[Interval]) -> tuple[list[float], list[list[float]]]:
    centres = [value for value, _low, _high in values]
    return centres, [
        [value - low for value, low, _high in values],
        [high - value for value, _low, high in values],
    ]


def interval_panels(
    path: Path,
    *,
    title: str,
    panels: Sequence[tuple[str, Sequence[str], Sequence[Interval], float | None]],
    xlabel: str,
    ylabel: str,
) -> Path:
    """Side-by-side bar charts with error bars, one per ``(title, labels, intervals,
    reference)``; ``reference`` draws a dashed line (e.g. the fair share)."""
    plt = pyplot()
    figure, axes = plt.subplots(
        1, len(panels), figsize=(3.0 * len(panels) + 0.5, 3.4), sharey=True, squeeze=False
    )
    for axis, (panel_title, labels, values, reference) in zip(axes[0], panels, strict=True):
        centres, errors = _error_bars(values)
        axis.bar(labels, centres, yerr=errors, capsize=4, color=COLOURS[0], alpha=0.8)
        if reference is not None:
            axis.axhline(reference, color="black", linestyle="--", linewidth=1)
        axis.set_title(panel_title, fontsize=10)
        axis.set_xlabel(xlabel, fontsize=9)
    axes[0][0].set_ylabel(ylabel)
    figure.suptitle(title, fontsize=10)
    return _save(figure, path)


def interval_series(
    path: Path,
    *,
    title: str,
    series: Mapping[str, Mapping[str, Interval]],
    xlabel: str,
    ylabel: str,
) -> Path:
    """Points with error bars for each series over shared categories, side by side."""
    plt = pyplot()
    figure, axis = plt.subplots(figsize=(6.4, 3.6))
    categories = sorted({label for values in series.values() for label in values}, key=_order)
    width = 0.8 / max(1, len(series))
    for number, (name, values) in enumerate(series.items()):
        shown = [c for c in categories if c in values]
        centres, errors = _error_bars([values[c] for c in shown])
        offset = (number - (len(series) - 1) / 2) * width
        axis.errorbar(
            [categories.index(c) + offset for c in shown],
            centres,
            yerr=errors,
            fmt="o",
            capsize=3,
            color=COLOURS[number % len(COLOURS)],
            label=name,
        )
    axis.set_xticks(range(len(categories)), categories)
    axis.set_xlabel(xlabel)
    axis.set_ylabel(ylabel)
    axis.set_title(title, fontsize=10)
    axis.legend(fontsize=8)
    axis.grid(axis="y", alpha=0.3)
    return _save(figure, path)


def distributions(
    path: Path,
    *,
    title: str,
    series: Mapping[str, Mapping[int, int]],
    xlabel: str,
    ylabel: str,
) -> Path:
    """Each series' counts as shares, drawn as side-by-side bars over the values."""
    plt = pyplot()
    figure, axis = plt.subplots(figsize=(6.4, 3.6))
    values = sorted({value for counts in series.values() for value in counts})
    width = 0.8 / max(1, len(series))
    for number, (name, counts) in enumerate(series.items()):
        total = sum(counts.values()) or 1
        offset = (number - (len(series) - 1) / 2) * width
        axis.bar(
            [value + offset for value in values],
            [counts.get(value, 0) / total for value in values],
            width=width,
            color=COLOURS[number % len(COLOURS)],
            label=name,
        )
    axis.set_xticks(values)
    axis.set_xlabel(xlabel)
    axis.set_ylabel(ylabel)
    axis.set_title(title, fontsize=10)
    axis.legend(fontsize=8)
    return _save(figure, path)


def _order(label: str) -> tuple[int, str]:
    """Numbers in numeric order, then text."""
    return (int(label), "") if label.isdigit() else (1 << 30, label)


__all__ = ["distributions", "interval_panels", "interval_series", "pyplot"]
