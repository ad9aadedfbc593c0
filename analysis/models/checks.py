"""Argument checks shared by the analytical models: a clear ValueError naming the argument."""

from __future__ import annotations

import math
import numbers

import numpy as np
import numpy.typing as npt


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


def as_array(x: npt.ArrayLike, name: str, *, allow_inf: bool = False) -> npt.NDArray[np.float64]:
    """``x`` as a non-empty float array; NaN (and, unless ``allow_inf``, infinity) refused."""
    try:
        a = np.asarray(x, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numeric, got {x!r}") from exc
    if a.size == 0:
        raise ValueError(f"{name} must not be empty")
    if allow_inf:
        if np.any(np.isnan(a)):
            raise ValueError(f"{name} must not be NaN, got {x!r}")
    elif not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must be finite, got {x!r}")
    return a


def as_output(x: npt.ArrayLike) -> float | npt.NDArray[np.float64]:
    """A model's result: a float for a scalar input, else the array."""
    a = np.asarray(x, dtype=float)
    return float(a) if a.ndim == 0 else a
