"""Means with 95% confidence intervals (normal and Student's t), in pure Python:
the statistics of a duplicate match (:mod:`pinochlekit.match.duplicate`)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Interval", "interval", "t_quantile"]

_Z95 = 1.959963984540054  # the 97.5% point of the standard normal ("1.96")


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def _beta_inc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def _t_cdf(t: float, df: float) -> float:
    tail = 0.5 * _beta_inc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t distribution with ``df`` degrees of freedom.

    >>> round(t_quantile(0.975, 1), 3), round(t_quantile(0.975, 10), 4)
    (12.706, 2.2281)
    """
    if not 0.0 < p < 1.0 or df <= 0:
        raise ValueError(f"t_quantile needs 0 < p < 1 and df > 0, not p={p}, df={df}")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    low, high = 0.0, 1.0
    while _t_cdf(high, df) < p:
        high *= 2.0
    for _ in range(200):
        mid = (low + high) / 2.0
        if _t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
        if high - low < 1e-12 * max(1.0, high):
            break
    return (low + high) / 2.0


@dataclass(frozen=True)
class Interval:
    """A mean with two 95% confidence intervals: normal (mean ± 1.96·sd/√n) and
    Student's t (mean ± t(0.975, n−1)·sd/√n, wider for small n). ``sd`` and the
    half-widths are NaN with fewer than two values."""

    n: int
    mean: float
    sd: float
    half_z: float
    half_t: float

    @property
    def low(self) -> float:
        """The lower end of the normal interval."""
        return self.mean - self.half_z

    @property
    def high(self) -> float:
        """The upper end of the normal interval."""
        return self.mean + self.half_z

    @property
    def low_t(self) -> float:
        """The lower end of the t interval."""
        return self.mean - self.half_t

    @property
    def high_t(self) -> float:
        """The upper end of the t interval."""
        return self.mean + self.half_t


def interval(values: Sequence[float]) -> Interval:
    """The mean of ``values`` with its 95% confidence intervals.

    >>> i = interval([1, 2, 3, 4, 5])
    >>> i.mean, round(i.sd, 4), round(i.low, 4), round(i.high_t, 4)
    (3.0, 1.5811, 1.6141, 4.9632)
    """
    n = len(values)
    if n == 0:
        nan = math.nan
        return Interval(0, nan, nan, nan, nan)
    mean = math.fsum(values) / n
    if n == 1:
        return Interval(1, mean, math.nan, math.nan, math.nan)
    sd = statistics.stdev(values)
    se = sd / math.sqrt(n)
    return Interval(n, mean, sd, _Z95 * se, t_quantile(0.975, n - 1) * se)
