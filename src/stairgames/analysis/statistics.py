"""Intervals for balance studies: shares (Wilson) and means (Student's t).

Plain Python, no SciPy: the t quantile is found by bisection on Student's
distribution function, written with the regularised incomplete beta function
(Numerical Recipes' continued fraction).

>>> low, high = mean_interval([1.0, 2.0, 3.0, 4.0])[1:]
>>> round(low, 3), round(high, 3)
(0.446, 4.554)
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

from stairgames.arena.ratings import wilson_interval

CONFIDENCE = 0.95


def _incomplete_beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularised incomplete beta function (Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    value = d
    for m in range(1, 300):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            value *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return value


def regularised_incomplete_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b), for a, b > 0 and 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _incomplete_beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _incomplete_beta_fraction(b, a, 1.0 - x) / b


def student_t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom."""
    tail = 0.5 * regularised_incomplete_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def student_t_quantile(probability: float, df: float) -> float:
    """The t with ``student_t_cdf(t, df) == probability`` (0 < probability < 1).

    >>> round(student_t_quantile(0.975, 10), 3)
    2.228
    """
    if not 0.0 < probability < 1.0:
        raise ValueError(f"probability must be in (0, 1), got {probability}")
    low, high = -1.0, 1.0
    while student_t_cdf(low, df) > probability:
        low *= 2.0
    while student_t_cdf(high, df) < probability:
        high *= 2.0
    for _ in range(200):
        middle = (low + high) / 2.0
        if student_t_cdf(middle, df) < probability:
            low = middle
        else:
            high = middle
        if high - low < 1e-12:
            break
    return (low + high) / 2.0


def mean_interval(
    values: Sequence[float], confidence: float = CONFIDENCE
) -> tuple[float, float, float]:
    """The mean of ``values`` and its t interval: ``(mean, low, high)``.

    One value gives no spread: its interval is the value itself widened to infinity.
    """
    if not values:
        raise ValueError("mean_interval needs at least one value")
    mean = statistics.fmean(values)
    if len(values) == 1:
        return mean, -math.inf, math.inf
    half = student_t_quantile(0.5 + confidence / 2.0, len(values) - 1) * (
        statistics.stdev(values) / math.sqrt(len(values))
    )
    return mean, mean - half, mean + half


def share_interval(share: float, trials: int) -> tuple[float, float, float]:
    """A share of ``trials`` (``share`` points, ties counted as fractions) with
    Wilson's 95% interval: ``(rate, low, high)``."""
    rate = share / trials if trials else 0.0
    low, high = wilson_interval(share, trials)
    return rate, low, high


__all__ = [
    "mean_interval",
    "regularised_incomplete_beta",
    "share_interval",
    "student_t_cdf",
    "student_t_quantile",
    "wilson_interval",
]
