"""Heuristic analysis of Floyd (1991), "Connections with Multiple Congested Gateways in
Packet-Switched Networks, Part 1: One-way Traffic".

Everything here is a pure function of its arguments (numpy/scipy only). References are to the
paper's sections, claims, corollaries and numbered equations:

* Sec 5.1, Claim 1 -- n congested gateways, equal rates of throughput increase (Fig 17).
* Sec 5.2, Claim 2, Corollaries 3 and 4 -- one gateway, round-trip times r0 >= r1 (Figs 13, 14).
* Sec 5.3, Claim 5 (eq. 3 = eq. 6), Corollary 6 (Fig 15), Corollary 7 (Figs 16, 18).
* Sec 4.4 / Fig 12 -- burst-bias function f(p) = 0.59 + 5 e^{-5p} and its fit.
* Sec 6 -- fairness measures (Jain's index, product measure).
* Appendix A -- recovery times with the Reduce-to-One window decrease.

Notation (as in the paper): ``p`` is connection 0's average share of the throughput when
congestion is detected at a gateway (connection 0 gets ``M * p`` pkts/s, each one-gateway
connection ``M * (1 - p)``); ``n >= 1`` is the number of congested gateways; ``r0``, ``r1`` are
the round-trip times of connection 0 (long) and connection 1; ``g(r)`` is the number of packets a
connection adds to its window per round-trip time (Increase-by-One: ``g = 1``; Constant-Rate:
``g(r) = a r^2``).

Closed forms accept scalars or numpy arrays (broadcast); they return a ``float`` for scalar
input and an ``ndarray`` otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy.optimize import brentq, curve_fit

from analysis.models.checks import as_array, as_output

__all__ = [
    "F_A",
    "F_B",
    "F_C",
    "COR7_P_MIN",
    "COR7_P_MAX",
    "ExponentialFit",
    "InverseSqrtFit",
    "appa_long_recovery_time",
    "appa_recovery_ratio",
    "appa_recovery_time",
    "burst_bias_f",
    "claim1_share",
    "claim2_share",
    "claim5_rhs",
    "claim5_share",
    "cor3_share",
    "cor4_share",
    "cor6_share",
    "cor7_constant_rate",
    "cor7_increase_by_one",
    "cor7_lhs",
    "cor7_share",
    "fit_exponential",
    "fit_inverse_sqrt",
    "jain_gateways",
    "jain_gateways_argmax",
    "jain_gateways_paper",
    "jain_index",
    "jain_throughput",
    "product_measure",
    "product_measure_argmax",
]

FloatOrArray = float | npt.NDArray[np.float64]

#: Parameters of the paper's burst-bias approximation f(p) = a + b e^{-c p} (Sec 4.4, Fig 12).
F_A: float = 0.59
F_B: float = 5.0
F_C: float = 5.0

#: Search interval for the root of Corollary 7's equation; f(p) is only given for 0 <= p <= 0.5.
COR7_P_MIN: float = 1e-9
COR7_P_MAX: float = 0.5

# --------------------------------------------------------------------------------------------
# input validation helpers
# --------------------------------------------------------------------------------------------


def _check_n(n: npt.ArrayLike, name: str = "n") -> npt.NDArray[np.float64]:
    a = as_array(n, name)
    if np.any(a < 1):
        raise ValueError(f"{name} (number of congested gateways) must be >= 1, got {n!r}")
    return a


def _check_positive(x: npt.ArrayLike, name: str) -> npt.NDArray[np.float64]:
    a = as_array(x, name)
    if np.any(a <= 0):
        raise ValueError(f"{name} must be > 0, got {x!r}")
    return a


def _check_prob(p: npt.ArrayLike, name: str = "p") -> npt.NDArray[np.float64]:
    a = as_array(p, name)
    if np.any((a < 0) | (a > 1)):
        raise ValueError(f"{name} must lie in [0, 1], got {p!r}")
    return a


def _at_least(x: npt.ArrayLike, lo: float, name: str) -> npt.NDArray[np.float64]:
    a = as_array(x, name)
    if np.any(a < lo):
        raise ValueError(f"{name} must be >= {lo:g}, got {x!r}")
    return a


# --------------------------------------------------------------------------------------------
# Sec 5.1 -- Claim 1
# --------------------------------------------------------------------------------------------


def claim1_share(n: npt.ArrayLike) -> FloatOrArray:
    """Claim 1 (Sec 5.1, Fig 17): connection 0's share with n gateways and equal increase rates.

    Equal rates of throughput increase give ``(1 - p)^2 = n p^2``, hence
    ``p = 1 / (1 + sqrt(n))`` (Constant-Rate increase, Reduce-by-Half, RED gateways).
    """
    a = _check_n(n)
    return as_output(1.0 / (1.0 + np.sqrt(a)))


# --------------------------------------------------------------------------------------------
# Sec 5.2 -- Claim 2, Corollaries 3 and 4
# --------------------------------------------------------------------------------------------


def claim2_share(
    r0: npt.ArrayLike, r1: npt.ArrayLike, g0: npt.ArrayLike, g1: npt.ArrayLike
) -> FloatOrArray:
    """Claim 2 (Sec 5.2, eqs. 1-2): one gateway, two connections with RTTs r0 and r1.

    ``g0 = g(r0)`` and ``g1 = g(r1)`` are the window increments per RTT (packets). From
    ``g(r0)/r0^2 = M lambda p^2 / 2`` and ``g(r1)/r1^2 = M lambda (1 - p)^2 / 2``:
    ``p = 1 / (1 + (r0/r1) * sqrt(g(r1)/g(r0)))``. (The paper labels r0 >= r1; the formula
    does not need it.)
    """
    a0 = _check_positive(r0, "r0")
    a1 = _check_positive(r1, "r1")
    b0 = _check_positive(g0, "g0")
    b1 = _check_positive(g1, "g1")
    return as_output(1.0 / (1.0 + (a0 / a1) * np.sqrt(b1 / b0)))


def cor3_share(rtt_ratio: npt.ArrayLike) -> FloatOrArray:
    """Corollary 3 (Sec 5.2, Fig 14): Increase-by-One (g = 1), one gateway.

    ``p = 1 / (1 + r0/r1)`` with ``rtt_ratio = r0/r1``.
    """
    q = _check_positive(rtt_ratio, "rtt_ratio")
    return as_output(1.0 / (1.0 + q))


def cor4_share(r0: npt.ArrayLike = 1.0, r1: npt.ArrayLike = 1.0, a: float = 4.0) -> FloatOrArray:
    """Corollary 4 (Sec 5.2): Constant-Rate increase, ``g(r) = a r^2``: ``p = 1/2`` for any RTTs.

    Evaluated through :func:`claim2_share` so that the independence of r0, r1 and ``a`` can be
    checked; the result equals 1/2 up to floating-point rounding (exactly 1/2 for r0 == r1).
    """
    a0 = _check_positive(r0, "r0")
    a1 = _check_positive(r1, "r1")
    ac = float(_check_positive(a, "a"))
    return claim2_share(a0, a1, ac * a0**2, ac * a1**2)


# --------------------------------------------------------------------------------------------
# Sec 5.3 -- Claim 5, Corollaries 6 and 7
# --------------------------------------------------------------------------------------------


def claim5_rhs(rtt_ratio: npt.ArrayLike = 1.0, g_ratio: npt.ArrayLike = 1.0) -> FloatOrArray:
    """Right-hand side shared by Claim 5 and Corollary 7: ``(g(r0)/g(r1)) * (r1/r0)^2``.

    ``rtt_ratio = r0/r1`` and ``g_ratio = g(r0)/g(r1)``. Constant-Rate (``g = a r^2``) gives 1;
    Increase-by-One (``g = 1``) gives ``1/rtt_ratio^2``.
    """
    q = _check_positive(rtt_ratio, "rtt_ratio")
    g = _check_positive(g_ratio, "g_ratio")
    return as_output(g / q**2)


def claim5_share(
    n: npt.ArrayLike, rtt_ratio: npt.ArrayLike = 1.0, g_ratio: npt.ArrayLike = 1.0
) -> FloatOrArray:
    """Claim 5 (Sec 5.3, eq. 3; repeated as eq. 6 in Sec 6): n gateways, general g.

    ``n p^2 / (1 - p)^2 = (g(r0)/g(r1)) (r1/r0)^2`` (eqs. 4-5), hence
    ``p = 1 / (1 + sqrt(n) * (r0/r1) * sqrt(g(r1)/g(r0)))`` with ``rtt_ratio = r0/r1`` and
    ``g_ratio = g(r0)/g(r1)``.
    """
    a = _check_n(n)
    q = _check_positive(rtt_ratio, "rtt_ratio")
    g = _check_positive(g_ratio, "g_ratio")
    return as_output(1.0 / (1.0 + np.sqrt(a) * q / np.sqrt(g)))


def cor6_share(n: npt.ArrayLike) -> FloatOrArray:
    """Corollary 6 (Sec 5.3, Fig 15): Increase-by-One with ``r0/r1 = 2n - 1`` (network of Fig 1).

    ``p = 1 / (1 + sqrt(n) * (2n - 1))``.
    """
    a = _check_n(n)
    return as_output(1.0 / (1.0 + np.sqrt(a) * (2.0 * a - 1.0)))


def burst_bias_f(p: npt.ArrayLike, a: float = F_A, b: float = F_B, c: float = F_C) -> FloatOrArray:
    """Burst-bias function of Sec 4.4 / Fig 12, used in Corollary 7: ``f(p) = a + b e^{-c p}``.

    f(p) approximates connection 0's share of the drops divided by its share of the throughput
    at Drop Tail gateways; the paper gives a = 0.59, b = 5, c = 5 for ``0 <= p <= 0.5`` and
    notes it overstates the bias for p >= 1/4.
    """
    x = _check_prob(p)
    return as_output(a + b * np.exp(-c * x))


def cor7_lhs(p: float, n: float, f: Callable[[float], float] = burst_bias_f) -> float:
    """Left-hand side of Corollary 7 (Sec 5.3): ``n p f(p) p / ((1 - p) (1 - f(p) p))``.

    Connection 0 is hit by a drop with probability ``f(p) p`` at each of its n gateways, the
    cross connection with probability ``1 - f(p) p``; equating the throughput-increase rates as
    in the proof of Claim 5 gives ``LHS(p) = (g(r0)/g(r1)) (r1/r0)^2``.
    """
    pp = float(_check_prob(p))
    nn = float(_check_n(n))
    if pp >= 1.0:
        raise ValueError(f"p must be < 1 in Corollary 7's equation, got {p!r}")
    q = float(f(pp)) * pp
    if not math.isfinite(q) or q < 0 or q >= 1.0:
        raise ValueError(f"f(p)*p must lie in [0, 1) (a drop probability); got {q!r} at p={pp!r}")
    return nn * pp * q / ((1.0 - pp) * (1.0 - q))


def _cor7_lhs_grid(
    grid: npt.NDArray[np.float64], n: float, f: Callable[[float], float]
) -> np.ndarray:
    """Corollary 7's LHS on a grid; uses f vectorised when it returns one value per point."""
    try:
        fv = np.asarray(f(grid), dtype=float)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        fv = None
    if fv is None or fv.shape != grid.shape:
        return np.array([cor7_lhs(float(x), n, f) for x in grid])
    q = fv * grid
    if not np.all(np.isfinite(q) & (q >= 0) & (q < 1)):
        i = int(np.argmin(np.isfinite(q) & (q >= 0) & (q < 1)))
        raise ValueError(
            f"f(p)*p must lie in [0, 1) (a drop probability); got {q[i]!r} at p={grid[i]!r}"
        )
    return n * grid * q / ((1.0 - grid) * (1.0 - q))


def _cor7_scalar(
    n: float,
    rhs: float,
    f: Callable[[float], float],
    p_min: float,
    p_max: float,
    check_monotone: bool,
) -> float:
    def g(p: float) -> float:
        return cor7_lhs(p, n, f) - rhs

    if check_monotone:
        grid = np.unique(
            np.concatenate([np.geomspace(p_min, p_max, 1001), np.linspace(p_min, p_max, 1001)])
        )
        vals = _cor7_lhs_grid(grid, n, f)
        if not np.all(np.diff(vals) > 0):
            bad = float(grid[int(np.argmin(np.diff(vals) > 0))])
            raise ValueError(
                "Corollary 7: LHS n*p*f(p)*p/((1-p)(1-f(p)*p)) is not strictly increasing on "
                f"[{p_min:g}, {p_max:g}] (first failure near p={bad:.6g}); the root may not be "
                "unique"
            )
    lo, hi = g(p_min), g(p_max)
    if hi == 0.0:
        return p_max
    if not (lo < 0.0 < hi):
        raise ValueError(
            f"Corollary 7: no root bracketed in ({p_min:g}, {p_max:g}] for n={n:g}, rhs={rhs:.6g}: "
            f"LHS ranges from {lo + rhs:.6g} to {hi + rhs:.6g}"
        )
    return float(brentq(g, p_min, p_max, xtol=1e-16, rtol=4.0 * np.finfo(float).eps, maxiter=200))


def cor7_share(
    n: npt.ArrayLike,
    rhs: npt.ArrayLike,
    f: Callable[[float], float] = burst_bias_f,
    *,
    p_min: float = COR7_P_MIN,
    p_max: float = COR7_P_MAX,
    check_monotone: bool = True,
) -> FloatOrArray:
    """Corollary 7 (Sec 5.3, Figs 16 and 18): share p with a burst bias f, solved numerically.

    Solves ``n p f(p) p / ((1 - p)(1 - f(p) p)) = rhs`` with ``rhs = (g(r0)/g(r1)) (r1/r0)^2``
    (see :func:`claim5_rhs`) by :func:`scipy.optimize.brentq` on ``(p_min, p_max]`` (default
    ``(1e-9, 0.5]``, the range on which the paper gives f). ``f`` is a scalar function of p,
    default ``0.59 + 5 e^{-5p}``.

    With ``check_monotone`` the LHS is evaluated on a grid of ~2000 points and must be strictly
    increasing (so the root is unique). Raises ValueError if it is not, if ``f(p) p`` leaves
    ``[0, 1)``, or if no root is bracketed. ``n`` and ``rhs`` broadcast against each other.
    """
    a = _check_n(n)
    r = _check_positive(rhs, "rhs")
    if not (0.0 < p_min < p_max < 1.0):
        raise ValueError(f"need 0 < p_min < p_max < 1, got p_min={p_min!r}, p_max={p_max!r}")
    na, ra = np.broadcast_arrays(a, r)
    res = np.array(
        [
            _cor7_scalar(float(ni), float(ri), f, p_min, p_max, check_monotone)
            for ni, ri in zip(na.ravel(), ra.ravel(), strict=True)
        ]
    ).reshape(na.shape)
    return as_output(res)


def cor7_constant_rate(
    n: npt.ArrayLike, f: Callable[[float], float] = burst_bias_f
) -> FloatOrArray:
    """Corollary 7 with Constant-Rate increase (``g = a r^2`` => rhs = 1); Fig 18."""
    return cor7_share(n, 1.0, f)


def cor7_increase_by_one(
    n: npt.ArrayLike,
    rtt_ratio: npt.ArrayLike | None = None,
    f: Callable[[float], float] = burst_bias_f,
) -> FloatOrArray:
    """Corollary 7 with Increase-by-One (``g = 1`` => rhs = (r1/r0)^2); Fig 16.

    ``rtt_ratio = r0/r1`` defaults to ``2n - 1`` as in the paper (Corollary 6, Fig 1).
    """
    a = _check_n(n)
    q = 2.0 * a - 1.0 if rtt_ratio is None else _check_positive(rtt_ratio, "rtt_ratio")
    return cor7_share(a, 1.0 / np.asarray(q) ** 2, f)


# --------------------------------------------------------------------------------------------
# Sec 6 -- fairness measures
# --------------------------------------------------------------------------------------------


def jain_index(x: npt.ArrayLike) -> float:
    """Jain's fairness index [JCH84] (Sec 6): ``(sum x_i)^2 / (k * sum x_i^2)`` for k users."""
    v = as_array(x, "x").ravel()
    if np.any(v < 0):
        raise ValueError(f"x (allocations) must be >= 0, got {x!r}")
    s2 = float(np.sum(v**2))
    if s2 == 0.0:
        raise ValueError("x (allocations) must not be all zero")
    return float(np.sum(v)) ** 2 / (v.size * s2)


def jain_throughput(p: npt.ArrayLike, n: npt.ArrayLike) -> FloatOrArray:
    """Sec 6: Jain's index with allocation = throughput, one connection at p and n at 1 - p.

    ``F1 = (p + n(1 - p))^2 / ((n + 1)(p^2 + n(1 - p)^2))``; maximal (= 1) at p = 1/2.
    """
    x = _check_prob(p)
    a = _check_n(n)
    return as_output((x + a * (1 - x)) ** 2 / ((a + 1) * (x**2 + a * (1 - x) ** 2)))


def jain_gateways(p: npt.ArrayLike, n: npt.ArrayLike) -> FloatOrArray:
    """Sec 6: Jain's index with allocation = throughput x gateways, exact evaluation.

    With ``x_0 = 2 n p`` and ``x_i = 2 (1 - p)`` (i = 1..n, n + 1 users):
    ``F1 = n / ((n + 1)((1 - p)^2 + n p^2))``; maximal (= 1) at ``p = 1/(n + 1)``.
    The paper prints this without the factor ``n/(n + 1)``; see :func:`jain_gateways_paper`.
    """
    x = _check_prob(p)
    a = _check_n(n)
    return as_output(a / ((a + 1) * ((1 - x) ** 2 + a * x**2)))


def jain_gateways_paper(p: npt.ArrayLike, n: npt.ArrayLike) -> FloatOrArray:
    """Sec 6 as printed: ``1 / (1 - 2p + p^2 + n p^2)`` (lacks the factor n/(n+1), exceeds 1).

    Same maximiser ``p = 1/(n + 1)`` as :func:`jain_gateways`.
    """
    x = _check_prob(p)
    a = _check_n(n)
    return as_output(1.0 / (1 - 2 * x + x**2 + a * x**2))


def jain_gateways_argmax(n: npt.ArrayLike) -> FloatOrArray:
    """Sec 6: maximiser of the throughput x gateways index, ``p = 1/(n + 1)``."""
    a = _check_n(n)
    return as_output(1.0 / (a + 1))


def product_measure(p: npt.ArrayLike, n: npt.ArrayLike) -> FloatOrArray:
    """Sec 6: product measure F2 (variant of network power [BJ81]): ``p (1 - p)^n``."""
    x = _check_prob(p)
    a = _check_n(n)
    return as_output(x * (1 - x) ** a)


def product_measure_argmax(n: npt.ArrayLike) -> FloatOrArray:
    """Sec 6: ``(1-p)^n - n (1-p)^{n-1} p = 0`` gives the maximiser ``p = 1/(n + 1)``."""
    a = _check_n(n)
    return as_output(1.0 / (a + 1))


# --------------------------------------------------------------------------------------------
# Appendix A -- Reduce-to-One recovery times
# --------------------------------------------------------------------------------------------


def appa_recovery_time(rtt: npt.ArrayLike, window: npt.ArrayLike) -> FloatOrArray:
    """Appendix A: time for Reduce-to-One + slow start to regain half the window.

    A connection with RTT ``rtt`` whose window was ``window`` when a packet was dropped needs
    roughly ``rtt * log2(window / 2)`` seconds to get back to ``window / 2``.
    """
    r = _check_positive(rtt, "rtt")
    w = _at_least(window, 2.0, "window")
    return as_output(r * np.log2(w / 2))


def appa_long_recovery_time(r1: npt.ArrayLike, w1: npt.ArrayLike, m: npt.ArrayLike) -> FloatOrArray:
    """Appendix A: recovery time of connection 0 with ``r0 = m r1`` and ``w0 = m w1``.

    ``r0 log2(w0/2) = m r1 (log2(w1/2) + log2 m)`` seconds (equal throughput rates).
    """
    r = _check_positive(r1, "r1")
    w = _at_least(w1, 2.0, "w1")
    mm = _at_least(m, 1.0, "m")
    return as_output(mm * r * (np.log2(w / 2) + np.log2(mm)))


def appa_recovery_ratio(w1: npt.ArrayLike, m: npt.ArrayLike) -> FloatOrArray:
    """Appendix A: connection 0's recovery time over connection 1's, ``m (1 + log2 m/log2(w1/2))``.

    Exceeds m for m > 1 ("more than m times longer"); needs ``w1 > 2``.
    """
    w = as_array(w1, "w1")
    if np.any(w <= 2):
        raise ValueError(f"w1 must be > 2 for a finite ratio, got {w1!r}")
    mm = _at_least(m, 1.0, "m")
    return as_output(mm * (1.0 + np.log2(mm) / np.log2(w / 2)))


# --------------------------------------------------------------------------------------------
# Fig 12 -- curve fits
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ExponentialFit:
    """Least-squares fit of ``y = a + b e^{-c x}``; ``rms`` is the root-mean-square residual."""

    a: float
    b: float
    c: float
    rms: float

    def __call__(self, x: npt.ArrayLike) -> FloatOrArray:
        return as_output(self.a + self.b * np.exp(-self.c * np.asarray(x, dtype=float)))


@dataclass(frozen=True)
class InverseSqrtFit:
    """Least-squares fit of ``y = a + b / sqrt(x)``; ``rms`` is the root-mean-square residual."""

    a: float
    b: float
    rms: float

    def __call__(self, x: npt.ArrayLike) -> FloatOrArray:
        return as_output(self.a + self.b / np.sqrt(np.asarray(x, dtype=float)))


def _xy(x: npt.ArrayLike, y: npt.ArrayLike, k: int) -> tuple[np.ndarray, np.ndarray]:
    xa = as_array(x, "x").ravel()
    ya = as_array(y, "y").ravel()
    if xa.size != ya.size:
        raise ValueError(f"x and y must have the same length, got {xa.size} and {ya.size}")
    if xa.size < k:
        raise ValueError(f"need at least {k} points (x, y) for the fit, got {xa.size}")
    return xa, ya


def fit_exponential(
    x: npt.ArrayLike,
    y: npt.ArrayLike,
    p0: tuple[float, float, float] = (F_A, F_B, F_C),
) -> ExponentialFit:
    """Fit ``y = a + b e^{-c x}`` with :func:`scipy.optimize.curve_fit` (Fig 12, Sec 4.4).

    The paper's fit to its Drop Tail data is a = 0.59, b = 5, c = 5 (the starting point ``p0``).
    """
    xa, ya = _xy(x, y, 3)

    def model(t: np.ndarray, a: float, b: float, c: float) -> np.ndarray:
        return a + b * np.exp(-c * t)

    popt, _ = curve_fit(model, xa, ya, p0=p0, maxfev=20000)
    a, b, c = (float(v) for v in popt)
    rms = float(np.sqrt(np.mean((ya - model(xa, a, b, c)) ** 2)))
    return ExponentialFit(a=a, b=b, c=c, rms=rms)


def fit_inverse_sqrt(x: npt.ArrayLike, y: npt.ArrayLike) -> InverseSqrtFit:
    """Fit ``y = a + b / sqrt(x)`` by linear least squares (Sec 4.4's alternative fit to Fig 12,
    given there as a = -1.19, b = 1.548). Requires x > 0."""
    xa, ya = _xy(x, y, 2)
    if np.any(xa <= 0):
        raise ValueError("x must be > 0 for y = a + b/sqrt(x)")
    design = np.column_stack([np.ones_like(xa), 1.0 / np.sqrt(xa)])
    (a, b), *_ = np.linalg.lstsq(design, ya, rcond=None)
    rms = float(np.sqrt(np.mean((ya - (a + b / np.sqrt(xa))) ** 2)))
    return InverseSqrtFit(a=float(a), b=float(b), rms=rms)
