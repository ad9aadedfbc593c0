"""Argument checks shared by the analytical models: a clear ValueError naming the argument."""

from __future__ import annotations

import math
import numbers


def finite(x: object, name: str) -> float:
    """``x`` as a float; a non-number (bools included), NaN or infinity is refused."""
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        raise ValueError(f"{name} must be a real number, got {x!r}")
    v = float(x)
    if not math.isfinite(v):
        raise ValueError(f"{name} must be finite, got {x!r}")
    return v


def positive(x: object, name: str) -> float:
    v = finite(x, name)
    if v <= 0:
        raise ValueError(f"{name} must be > 0, got {x!r}")
    return v


def nonneg(x: object, name: str) -> float:
    v = finite(x, name)
    if v < 0:
        raise ValueError(f"{name} must be >= 0, got {x!r}")
    return v
