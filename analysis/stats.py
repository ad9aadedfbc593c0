"""Statistics shared by every paper: confidence intervals from scipy.

Only scipy.special is imported (the Student-t quantile is ``stdtrit``, what
``scipy.stats.t.ppf`` computes): short analysis jobs start fast.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import special


@dataclass(frozen=True)
class Interval:
    mean: float
    low: float
    high: float
    n: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2.0


def mean_ci(values: np.typing.ArrayLike, level: float = 0.95) -> Interval:
    """Student-t confidence interval of the mean. One sample: an interval of zero width."""
    x = np.asarray(values, dtype=float)
    if x.ndim != 1 or x.size == 0:
        raise ValueError("mean_ci: needs a non-empty list of values")
    if not np.all(np.isfinite(x)):
        raise ValueError("mean_ci: values must be finite")
    if not 0.0 < level < 1.0:
        raise ValueError(f"mean_ci: level must be in (0, 1), got {level}")
    m = float(x.mean())
    if x.size == 1:
        return Interval(m, m, m, 1)
    sem = float(x.std(ddof=1)) / np.sqrt(x.size)
    h = float(special.stdtrit(x.size - 1, 0.5 + level / 2.0)) * sem
    return Interval(m, m - h, m + h, int(x.size))


def paired_below(x: np.typing.ArrayLike, y: np.typing.ArrayLike, level: float) -> bool:
    """True when x's mean lies below y's by a paired comparison: the Student-t interval at
    ``level`` of the differences x_i - y_i over their common first samples (runs under the
    same seeds: common random numbers) lies entirely below 0. Fewer than two pairs: False."""
    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    n = min(a.size, b.size)
    if n < 2:
        return False
    return mean_ci(a[:n] - b[:n], level).high < 0.0


def intervals_overlap(a: Interval, b: Interval) -> bool:
    """True when two confidence intervals share at least one point."""
    return a.low <= b.high and b.low <= a.high
