"""Analytical models of Misra, Baras, Ott, "Generalized TCP Congestion Avoidance and its Effect on
Bandwidth Sharing and Variability".

Everything here is a pure function of its arguments (numpy/scipy only). References are to the
paper's sections and numbered equations:

* Sec II, eqs (1)-(3) -- the generalised window rule (:class:`GeneralizedTCP`) and the ORED
  marking function f_mark (:class:`ORED`).
* Sec III.A-B, eqs (4)-(13) -- the multi-flow fixed point: h_i(Q) (:func:`mean_window`, eq 8 by
  the safeguarded Newton iteration of eq 13) and the queue Q* of constraint (9)
  (:func:`fixed_point`); Figures 1-5 (:func:`capacity_sweep`, :func:`fig01` ... :func:`fig05`).
* Sec IV, eqs (14)-(20) -- the single-flow window distribution for beta = 1
  (:class:`SingleFlowSetup`, :class:`WindowMarking`, :func:`window_distribution`, the H(x)
  iteration of Sec IV.B in a stable normalisation) and a Monte-Carlo run of the Markov chain
  (17) (:func:`simulate_window_chain`); Figures 6 and 7 (:func:`window_sweep`, :func:`fig06`,
  :func:`fig07`).

Units. Sec III works in bytes: capacity C and assured rates R_i in bytes/s, segment sizes M_i in
bytes, queue Q and ORED thresholds in bytes, RTT_i (nominal, without the bottleneck queue) in
seconds, windows W_i in segments. Sec IV works in segments: C and R in segments/s, thresholds and
windows in segments. The figure helpers take rates in Mbps (10^6 bit/s) and thresholds in packets
and convert (:func:`mbps_to_bytes_per_s`).

Corrections to the printed paper (labels of docs/misra.md, which also lists our assumptions; each is
also stated where it is used):

* M1 -- parameter set 2 is printed with beta = -1; AIMD is (alpha = 0, beta = 1), the analysis
  needs alpha < beta and set 4 is "set 2 with larger coefficients": beta = 1
  (:data:`PARAMETER_SETS`).
* M2 -- "max_th and min_th ... 20 and 100 respectively" is read as min_th = 20, max_th = 100.
* M3 -- eqs (8) and (12) (and g_1) print ``(1 - R_i(RTT_i + Q/C)/(W_i M_i) * f_mark(Q))^-1``;
  from eqs (5) and (7) the marking probability is p_i = (1 - a_i/W_i) f_mark(Q), so the left side
  is ``1/((1 - a_i/W_i) f_mark(Q)) - 1``.
* M4 -- eq (13) prints W + g/g'; the Newton step is W - g/g'.
* M5 -- eq (10) omits f_mark; it is only an asymptotic argument (eq 11 is what we check).
* M21 -- the prose defines gamma_i = (rho_i - R_i)/R_i, but eq (7) (used here, and eq 14 in
  Sec IV) is the fraction of OUT packets (rho_i - R_i)/rho_i.
* f_mark is p_max for Q >= max_th (the paper writes "Q > max_th"; f_mark is continuous there).
* M6 -- eq (20) prints the f_mark argument as X / c1^(1/(1-alpha)); inverting eq (18) gives
  X / p_max^(1/(1-alpha)). The solver works in W units, where eq (20) reads
  dW/dt = c1 W^alpha / p(W).
* M7 -- Sec IV.B defines H(x) = (1 - F_s(x)) exp(-int_0^x q); only exp(+int_0^x q) removes the
  linear term: with G = 1 - F_s, H' = q(x) exp(Q(x) - Q(x/(1-c2))) H(x/(1-c2)).
* M8 -- Sec IV.C states a bandwidth-delay product of 5 segments, but 3 Mbps x 13.66 ms / 512 B =
  10.0 segments; :data:`SEC4_SETUP` uses the stated primitives (pass rtt = 6.83 ms for the
  5-segment variant).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

import numpy as np
import numpy.typing as npt
from scipy.optimize import brentq

from analysis.models.checks import finite, nonneg, positive

__all__ = [
    "EXP_A",
    "EXP_B",
    "PARAMETER_SETS",
    "SEC4_SETUP",
    "SEC4_TCP",
    "CapacitySweep",
    "ChainSummary",
    "Experiment",
    "FixedPoint",
    "Flow",
    "GeneralizedTCP",
    "ORED",
    "ParameterSet",
    "SingleFlowSetup",
    "WindowDistribution",
    "WindowMarking",
    "capacity_sweep",
    "constant_marking_cv",
    "fig01",
    "fig02",
    "fig03",
    "fig04",
    "fig05",
    "fig06",
    "fig07",
    "fixed_point",
    "mbps_to_bytes_per_s",
    "mean_window",
    "profile_window",
    "simulate_window_chain",
    "window_distribution",
    "window_sweep",
]

FloatArray = npt.NDArray[np.float64]
SweepParameter = Literal["alpha", "c1", "c2"]

_EPS = float(np.finfo(float).eps)
_MAX_NEWTON = 500
_MAX_BRACKET = 2000

# --------------------------------------------------------------------------------------------
# input validation helpers
# --------------------------------------------------------------------------------------------


def mbps_to_bytes_per_s(rate_mbps: float) -> float:
    """Rate in bytes/s of ``rate_mbps`` Mbit/s (1 Mbps = 10^6 bit/s)."""
    return nonneg(rate_mbps, "rate_mbps") * 1e6 / 8.0


# --------------------------------------------------------------------------------------------
# Sec II -- the generalised window rule and the ORED queue
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GeneralizedTCP:
    """Generalised congestion avoidance (Sec I-II, eqs 1-2): per unmarked ACK W += c1 W^alpha,
    per ECN-marked ACK W -= c2 W^beta.

    Requirements: c1, c2 > 0 (Sec I); alpha < beta (Sec II: incr(W)/decr(W) -> 0 as W grows,
    needed for a finite fixed point); c2 < 1 when beta = 1 (a multiplicative decrease by c2 >= 1
    would take W to <= 0). alpha = -1, beta = 1 is SAIMD (today's TCP with c1 = 1, c2 = 0.5),
    alpha = 0, beta = 1 is AIMD.
    """

    alpha: float
    beta: float
    c1: float
    c2: float

    def __post_init__(self) -> None:
        for name in ("alpha", "beta"):
            object.__setattr__(self, name, finite(getattr(self, name), name))
        object.__setattr__(self, "c1", positive(self.c1, "c1 (increase coefficient)"))
        object.__setattr__(self, "c2", positive(self.c2, "c2 (decrease coefficient)"))
        if self.alpha >= self.beta:
            raise ValueError(
                "alpha must be < beta (Sec II: the decrease must outgrow the increase as W grows); "
                f"got alpha={self.alpha:g}, beta={self.beta:g} (parameter set 2 is printed with "
                "beta = -1; AIMD is beta = 1, docs/misra.md M1)"
            )
        if self.beta == 1.0 and self.c2 >= 1.0:
            raise ValueError(
                f"c2 must be < 1 when beta = 1: a marked ACK sets W to (1 - c2) W <= 0 (eq 2), "
                f"got c2={self.c2:g}"
            )

    @property
    def ratio(self) -> float:
        """c2/c1: the fixed point (eq 8) depends on c1 and c2 only through this ratio."""
        return self.c2 / self.c1


@dataclass(frozen=True)
class ORED:
    """ORED marking function f_mark(Q) (Sec II) for OUT packets; IN packets are never marked.

    ``min_th`` and ``max_th`` are in the unit of the queue they are applied to (bytes in Sec III,
    segments in Sec IV); f_mark = 0 below min_th, p_max (Q - min_th)/(max_th - min_th) between,
    and p_max for Q >= max_th (printed "Q > max_th"; the function is continuous there).
    """

    min_th: float
    max_th: float
    p_max: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "min_th", nonneg(self.min_th, "min_th"))
        object.__setattr__(self, "max_th", finite(self.max_th, "max_th"))
        object.__setattr__(self, "p_max", finite(self.p_max, "p_max"))
        if self.max_th <= self.min_th:
            raise ValueError(
                f"max_th must be > min_th, got min_th={self.min_th:g}, max_th={self.max_th:g} "
                "(Sec III.C prints the two in reverse order: min_th = 20, max_th = 100, "
                "docs/misra.md M2)"
            )
        if not 0.0 < self.p_max <= 1.0:
            raise ValueError(f"p_max must lie in (0, 1], got {self.p_max!r}")

    def fmark(self, queue: npt.ArrayLike) -> FloatArray:
        """f_mark(Q) of Sec II, elementwise."""
        q = np.asarray(queue, dtype=float)
        ramp = self.p_max * (q - self.min_th) / (self.max_th - self.min_th)
        return np.where(q < self.min_th, 0.0, np.where(q >= self.max_th, self.p_max, ramp))

    def scaled(self, factor: float) -> ORED:
        """The same ORED with thresholds multiplied by ``factor`` (packets -> bytes: the MSS)."""
        f = positive(factor, "factor")
        return replace(self, min_th=self.min_th * f, max_th=self.max_th * f)


# --------------------------------------------------------------------------------------------
# Sec III -- the multi-flow fixed point, eqs (4)-(13)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Flow:
    """One flow of Sec III: assured (profile) rate R_i in bytes/s, nominal round-trip time RTT_i in
    seconds (propagation and transmission, without the bottleneck queue), segment size M_i in
    bytes."""

    profile: float
    rtt: float
    mss: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "profile", nonneg(self.profile, "profile (assured rate)"))
        object.__setattr__(self, "rtt", nonneg(self.rtt, "rtt"))
        object.__setattr__(self, "mss", positive(self.mss, "mss (segment size)"))


def _check_capacity(flows: Sequence[Flow], capacity: float) -> float:
    c = positive(capacity, "capacity")
    total = sum(f.profile for f in flows)
    if c <= total:
        raise ValueError(
            f"capacity C = {c:g} must exceed the sum of the profiles {total:g} (eq 3); "
            "below it marks occur before the flows reach their assured rates (footnote 3)"
        )
    return c


def profile_window(flow: Flow, queue: float, capacity: float) -> float:
    """a_i(Q) = R_i (RTT_i + Q/C) / M_i: the window (segments) that just meets the profile at queue
    Q (from eqs 6-7); for W_i > a_i the OUT fraction is gamma_i = 1 - a_i/W_i (eq 7)."""
    q = nonneg(queue, "queue")
    c = positive(capacity, "capacity")
    return flow.profile * (flow.rtt + q / c) / flow.mss


def _excess_window(a: float, f: float, k: float, d: float) -> float:
    """x = W - a > 0 solving eq (8) (corrected grouping, M3) in the form g(a + x) = 0 of eq (12):

        g = 1/((1 - a/W) f) - 1 - k W^d = (a + x)/(x f) - 1 - k (a + x)^d,

    with k = c2/c1 and d = beta - alpha.

    g decreases strictly from +inf (x -> 0+) to -inf, so the root is unique. Newton's iteration of
    eq (13) with the corrected sign (M4), x <- x - g/g', g' = -a/(f x^2) - k d (a + x)^(d - 1),
    safeguarded by the bracket [lo, hi] (g(lo) > 0 > g(hi)) and bisection: for d <= 1 g is convex
    and Newton from the left is monotone (Sec III.B); for d > 1 (SAIMD: d = 2) it may overshoot.
    Working in x rather than W keeps full precision when W is close to a.
    """
    if a == 0.0:  # best-effort flow: 1/f - 1 = k x^d
        if f >= 1.0:
            raise ValueError("a flow with a zero profile has no fixed point when f_mark(Q) = 1")
        return float(((1.0 / f - 1.0) / k) ** (1.0 / d))

    def g(x: float) -> float:
        return (a + x) / (x * f) - 1.0 - k * (a + x) ** d

    def dg(x: float) -> float:
        return -a / (f * x * x) - k * d * (a + x) ** (d - 1.0)

    lo, hi = 0.0, math.inf
    x = a / (f * (1.0 + k * a**d))  # eq (11)-type start: W - a ~ W/(f (1 + k W^d)) at W = a
    for _ in range(_MAX_NEWTON):
        gx = g(x)
        if gx == 0.0:
            return x
        if gx > 0.0:
            lo = x
        else:
            hi = x
        x_new = x - gx / dg(x)
        if not lo < x_new < hi:
            x_new = 0.5 * (lo + hi) if math.isfinite(hi) else 2.0 * x
        if abs(x_new - x) <= 4.0 * _EPS * x_new or hi - lo <= 4.0 * _EPS * hi < math.inf:
            return x_new
        x = x_new
    raise RuntimeError(f"eq (8) Newton iteration did not converge (a={a!r}, f={f!r})")


def mean_window(
    flow: Flow, queue: float, capacity: float, ored: ORED, tcp: GeneralizedTCP
) -> float:
    """h_i(Q): the mean window (segments) of ``flow`` for a mean queue Q (bytes), eq (8).

    Zero drift (eq 4), c1 W^alpha (1 - p_i) = c2 W^beta p_i, with p_i = (1 - a_i(Q)/W) f_mark(Q)
    (eqs 5, 7; grouping corrected, M3), solved by the safeguarded Newton iteration of eq (13)
    (sign corrected, M4). Raises ValueError for Q <= min_th (no marking: the window is unbounded).
    """
    q = nonneg(queue, "queue")
    f = float(ored.fmark(q))
    if f <= 0.0:
        raise ValueError(
            f"queue Q = {q:g} gives f_mark(Q) = 0 (Q <= min_th = {ored.min_th:g}): "
            "no OUT packet is marked and the mean window is unbounded"
        )
    a = profile_window(flow, q, capacity)
    return a + _excess_window(a, f, tcp.ratio, tcp.beta - tcp.alpha)


@dataclass(frozen=True)
class FixedPoint:
    """Solution of Sec III.A: queue Q* (bytes) and, per flow, W_i* = h_i(Q*) (segments), the
    throughput rho_i = W_i* M_i / (RTT_i + Q*/C) (bytes/s, eq 6), the OUT fraction gamma_i (eq 7)
    and the marking probability p_i = gamma_i f_mark(Q*)."""

    queue: float
    windows: FloatArray
    throughputs: FloatArray
    out_fraction: FloatArray
    marking: FloatArray
    f_mark: float
    flows: tuple[Flow, ...]
    capacity: float
    tcps: tuple[GeneralizedTCP, ...]

    def drift_residual(self) -> FloatArray:
        """Relative residual of eq (4) per flow: (c1 W^a (1 - p) - c2 W^b p) / (c1 W^a (1 - p))."""
        out = np.empty(len(self.flows))
        for i, (w, p, t) in enumerate(zip(self.windows, self.marking, self.tcps, strict=True)):
            up = t.c1 * w**t.alpha * (1.0 - p)
            out[i] = (up - t.c2 * w**t.beta * p) / up
        return out

    def capacity_residual(self) -> float:
        """Relative residual of constraint (9): sum_i rho_i / C - 1."""
        return float(self.throughputs.sum() / self.capacity - 1.0)

    def queue_packets(self, mss: float) -> float:
        """Q* in packets of ``mss`` bytes."""
        return self.queue / positive(mss, "mss")


def fixed_point(
    flows: Sequence[Flow],
    capacity: float,
    ored: ORED,
    tcp: GeneralizedTCP | Sequence[GeneralizedTCP],
) -> FixedPoint:
    """The fixed point of Sec III.A-B: Q* with sum_i h_i(Q) M_i / (Q + RTT_i C) = 1 (eq 9).

    ``flows`` and ``capacity`` in bytes and bytes/s, ``ored`` thresholds in bytes; ``tcp`` is one
    parameter set for all flows (as in the paper) or one per flow. Outer loop: bracketing of Q on
    (min_th, inf) and Brent's method (the paper's binary search); inner loop: h_i(Q) by
    :func:`mean_window`. Eq (9) is evaluated as sum_i x_i M_i/(Q + RTT_i C) = 1 - sum_i R_i/C with
    x_i = h_i - a_i, which is the same equation (a_i M_i/(Q + RTT_i C) = R_i/C) without
    cancellation. The left side decreases from +inf near min_th (f_mark -> 0, h_i -> inf) to
    sum R_i/C - 1 < 0 as Q -> inf (eq 11), so Q* is unique (Sec III.A).
    """
    fl = tuple(flows)
    if not fl:
        raise ValueError("flows must not be empty")
    for f in fl:
        if not isinstance(f, Flow):
            raise ValueError(f"flows must be Flow instances, got {f!r}")
    c = _check_capacity(fl, capacity)
    if isinstance(tcp, GeneralizedTCP):
        tcps = (tcp,) * len(fl)
    else:
        tcps = tuple(tcp)
        if len(tcps) != len(fl):
            raise ValueError(f"got {len(tcps)} parameter sets for {len(fl)} flows")
    spare = 1.0 - sum(f.profile for f in fl) / c

    def excess(q: float) -> float:
        fm = float(ored.fmark(q))
        total = 0.0
        for f, t in zip(fl, tcps, strict=True):
            a = profile_window(f, q, c)
            x = _excess_window(a, fm, t.ratio, t.beta - t.alpha)
            total += x * f.mss / (q + f.rtt * c)
        return total - spare

    hi = max(ored.max_th, 2.0 * ored.min_th)
    for _ in range(_MAX_BRACKET):
        if excess(hi) < 0.0:
            break
        hi *= 2.0
    else:
        raise RuntimeError("no upper bracket for Q* (eq 9)")
    lo = ored.min_th + 0.5 * (hi - ored.min_th)
    for _ in range(_MAX_BRACKET):
        if excess(lo) > 0.0:
            break
        lo = ored.min_th + 0.5 * (lo - ored.min_th)
    else:
        raise RuntimeError("no lower bracket for Q* (eq 9)")
    q_star = float(brentq(excess, lo, hi, xtol=1e-12, rtol=4.0 * _EPS, maxiter=1000))
    fm = float(ored.fmark(q_star))
    windows = np.array([mean_window(f, q_star, c, ored, t) for f, t in zip(fl, tcps, strict=True)])
    a = np.array([profile_window(f, q_star, c) for f in fl])
    gamma = 1.0 - a / windows
    thr = np.array([w * f.mss / (f.rtt + q_star / c) for w, f in zip(windows, fl, strict=True)])
    return FixedPoint(
        queue=q_star,
        windows=windows,
        throughputs=thr,
        out_fraction=gamma,
        marking=gamma * fm,
        f_mark=fm,
        flows=fl,
        capacity=c,
        tcps=tcps,
    )


# --------------------------------------------------------------------------------------------
# Sec III.C -- experiments A and B, Figures 1-5
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ParameterSet:
    """A numbered parameter set of Sec III.C: the window rule and the ORED p_max used with it."""

    name: str
    tcp: GeneralizedTCP
    p_max: float


#: Parameter sets 1-4 of Sec III.C (STATED), set 2 with beta = 1 (printed -1, correction M1);
#: p_max 0.01 for sets 1 and 3, 0.1 for sets 2 and 4 (STATED).
PARAMETER_SETS: Mapping[int, ParameterSet] = {
    1: ParameterSet("set 1 (SAIMD, current TCP)", GeneralizedTCP(-1.0, 1.0, 1.0, 0.5), 0.01),
    2: ParameterSet("set 2 (AIMD)", GeneralizedTCP(0.0, 1.0, 0.2, 0.1), 0.1),
    3: ParameterSet("set 3 (SAIMD, small coefficients)", GeneralizedTCP(-1.0, 1.0, 0.5, 0.1), 0.01),
    4: ParameterSet("set 4 (AIMD, larger coefficients)", GeneralizedTCP(0.0, 1.0, 0.4, 0.2), 0.1),
}


@dataclass(frozen=True)
class Experiment:
    """Flows and ORED thresholds of a Sec III.C experiment: assured rates (Mbps), nominal RTTs (s),
    segment size (bytes), ORED thresholds (packets of ``mss`` bytes)."""

    name: str
    profiles_mbps: tuple[float, ...]
    rtts: tuple[float, ...]
    mss: float
    min_th: float
    max_th: float

    def __post_init__(self) -> None:
        if len(self.profiles_mbps) != len(self.rtts) or not self.profiles_mbps:
            raise ValueError(
                f"profiles_mbps and rtts must be non-empty and of equal length, got "
                f"{self.profiles_mbps!r} and {self.rtts!r}"
            )

    def flows(self) -> tuple[Flow, ...]:
        return tuple(
            Flow(mbps_to_bytes_per_s(r), t, self.mss)
            for r, t in zip(self.profiles_mbps, self.rtts, strict=True)
        )

    def ored(self, p_max: float) -> ORED:
        """ORED with this experiment's thresholds in bytes."""
        return ORED(self.min_th, self.max_th, p_max).scaled(self.mss)


#: Experiment A (Sec III.C): profiles 1.5 and 3 Mbps (STATED), equal RTTs of 20 ms (ASSUMED, the
#: paper does not state them; docs/misra.md M9), 512-byte segments, min_th 20 / max_th 100
#: packets (M2).
EXP_A = Experiment("A", (1.5, 3.0), (0.020, 0.020), 512.0, 20.0, 100.0)
#: Experiment B (Sec III.C): equal profiles 1.5 Mbps, RTTs 20 and 100 ms (all STATED).
EXP_B = Experiment("B", (1.5, 1.5), (0.020, 0.100), 512.0, 20.0, 100.0)


@dataclass(frozen=True)
class CapacitySweep:
    """Fixed points over a grid of capacities: rows are capacities, columns flows."""

    capacity_mbps: FloatArray
    queue_packets: FloatArray
    windows: FloatArray
    throughput_mbps: FloatArray
    marking: FloatArray
    profiles_mbps: FloatArray

    @property
    def excess_mbps(self) -> FloatArray:
        """Excess capacity C - sum R_i (Mbps), the x axis discussed for Figures 4-5."""
        return self.capacity_mbps - self.profiles_mbps.sum()

    def ratio(self, i: int, j: int) -> FloatArray:
        """Throughput ratio rho_i / rho_j at every capacity."""
        return self.throughput_mbps[:, i] / self.throughput_mbps[:, j]


def capacity_sweep(
    capacities_mbps: Sequence[float] | npt.ArrayLike, experiment: Experiment, pset: ParameterSet
) -> CapacitySweep:
    """Fixed point (:func:`fixed_point`) of ``experiment`` with parameter set ``pset`` at each
    capacity (Mbps)."""
    caps = np.atleast_1d(np.asarray(capacities_mbps, dtype=float))
    if caps.size == 0:
        raise ValueError("capacities_mbps must not be empty")
    flows = experiment.flows()
    ored = experiment.ored(pset.p_max)
    n = len(flows)
    q = np.empty(caps.size)
    w = np.empty((caps.size, n))
    thr = np.empty((caps.size, n))
    mk = np.empty((caps.size, n))
    for k, c in enumerate(caps):
        fp = fixed_point(flows, mbps_to_bytes_per_s(float(c)), ored, pset.tcp)
        q[k] = fp.queue_packets(experiment.mss)
        w[k] = fp.windows
        thr[k] = fp.throughputs * 8.0 / 1e6
        mk[k] = fp.marking
    return CapacitySweep(caps, q, w, thr, mk, np.asarray(experiment.profiles_mbps, dtype=float))


def fig01(
    capacities_mbps: Sequence[float] | npt.ArrayLike,
    experiment: Experiment = EXP_A,
    pset: ParameterSet = PARAMETER_SETS[1],
) -> CapacitySweep:
    """Figure 1: mean windows (a) and throughputs (b) vs C, Exp A, parameter set 1."""
    return capacity_sweep(capacities_mbps, experiment, pset)


def fig02(
    capacities_mbps: Sequence[float] | npt.ArrayLike,
    experiment: Experiment = EXP_A,
    pset: ParameterSet = PARAMETER_SETS[2],
) -> CapacitySweep:
    """Figure 2: as Figure 1 with parameter set 2 (beta = 1, M1)."""
    return capacity_sweep(capacities_mbps, experiment, pset)


def fig03(
    capacities_mbps: Sequence[float] | npt.ArrayLike,
    experiment: Experiment = EXP_B,
    pset: ParameterSet = PARAMETER_SETS[1],
) -> CapacitySweep:
    """Figure 3: mean windows and throughputs vs C, Exp B (RTT 20 vs 100 ms), parameter set 1."""
    return capacity_sweep(capacities_mbps, experiment, pset)


def _ratios(
    capacities_mbps: Sequence[float] | npt.ArrayLike,
    experiment: Experiment,
    sets: Mapping[int, ParameterSet],
    i: int,
    j: int,
) -> dict[int, FloatArray]:
    return {k: capacity_sweep(capacities_mbps, experiment, s).ratio(i, j) for k, s in sets.items()}


def fig04(
    capacities_mbps: Sequence[float] | npt.ArrayLike,
    experiment: Experiment = EXP_A,
    sets: Mapping[int, ParameterSet] = PARAMETER_SETS,
) -> dict[int, FloatArray]:
    """Figure 4(b): theoretical throughput ratio rho_2/rho_1 (Exp A, profiles 3 vs 1.5 Mbps;
    proportional sharing = 2) vs C for each parameter set."""
    return _ratios(capacities_mbps, experiment, sets, 1, 0)


def fig05(
    capacities_mbps: Sequence[float] | npt.ArrayLike,
    experiment: Experiment = EXP_B,
    sets: Mapping[int, ParameterSet] = PARAMETER_SETS,
) -> dict[int, FloatArray]:
    """Figure 5: theoretical throughput ratio rho_1/rho_2 (Exp B, short over long RTT;
    proportional sharing = 1) vs C for each parameter set."""
    return _ratios(capacities_mbps, experiment, sets, 0, 1)


# --------------------------------------------------------------------------------------------
# Sec IV -- single flow, window distribution, eqs (14)-(20)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WindowMarking:
    """Marking probability p(W) as a function of the window, eq (16): 0 for W < w_start (= W*),
    linear from 0 to p_top on [w_start, w_full), p_top for W >= w_full. ``w_full == w_start`` is
    a step (constant marking p_top above w_start)."""

    w_start: float
    w_full: float
    p_top: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "w_start", positive(self.w_start, "w_start"))
        object.__setattr__(self, "w_full", finite(self.w_full, "w_full"))
        object.__setattr__(self, "p_top", finite(self.p_top, "p_top"))
        if self.w_full < self.w_start:
            raise ValueError(f"w_full must be >= w_start, got {self.w_full!r} < {self.w_start!r}")
        if not 0.0 < self.p_top < 1.0:
            raise ValueError(f"p_top (marking probability) must lie in (0, 1), got {self.p_top!r}")

    def __call__(self, w: npt.ArrayLike) -> FloatArray:
        x = np.asarray(w, dtype=float)
        if self.w_full > self.w_start:
            ramp = self.p_top * (x - self.w_start) / (self.w_full - self.w_start)
        else:
            ramp = np.full_like(x, self.p_top)
        return np.where(x < self.w_start, 0.0, np.where(x >= self.w_full, self.p_top, ramp))

    def q(self, w: npt.ArrayLike, tcp: GeneralizedTCP) -> FloatArray:
        """q(w) = p(w) / (c1 w^alpha): the inverse speed dt/dW of the limit process in subjective
        time (Prop 1, eq 20 in W units)."""
        x = np.asarray(w, dtype=float)
        return self(x) / (tcp.c1 * x**tcp.alpha)

    def q_integral(self, w: npt.ArrayLike, tcp: GeneralizedTCP) -> FloatArray:
        """Q(w) = int_0^w q(u) du in closed form (alpha < 1 because alpha < beta = 1)."""
        x = np.asarray(w, dtype=float)
        a, c1, ws, wf, pt = tcp.alpha, tcp.c1, self.w_start, self.w_full, self.p_top
        e1, e2 = 1.0 - a, 2.0 - a
        xr = np.clip(x, ws, wf)
        if wf > ws:
            ramp = (xr**e2 - ws**e2) / e2 - ws * (xr**e1 - ws**e1) / e1
            out = pt / (c1 * (wf - ws)) * ramp
        else:
            out = np.zeros_like(xr)
        out = out + np.where(x > wf, pt / c1 * (np.maximum(x, wf) ** e1 - wf**e1) / e1, 0.0)
        return np.where(x <= ws, 0.0, out)


@dataclass(frozen=True)
class SingleFlowSetup:
    """Single-flow set-up of Sec IV: capacity C and assured rate R in segments/s, nominal RTT (s),
    ORED thresholds in segments. The pipe is always full (eq 15: W = Q + C RTT)."""

    capacity: float
    profile: float
    rtt: float
    ored: ORED

    def __post_init__(self) -> None:
        object.__setattr__(self, "capacity", positive(self.capacity, "capacity"))
        object.__setattr__(self, "profile", nonneg(self.profile, "profile (assured rate)"))
        object.__setattr__(self, "rtt", nonneg(self.rtt, "rtt"))
        if self.capacity <= self.profile:
            raise ValueError(
                f"capacity C = {self.capacity:g} must exceed the profile R = {self.profile:g} "
                "(eqs 3, 14)"
            )

    @classmethod
    def from_mbps(
        cls, capacity_mbps: float, profile_mbps: float, rtt: float, mss: float, ored: ORED
    ) -> SingleFlowSetup:
        """Set-up from rates in Mbps and segments of ``mss`` bytes (``ored`` in segments)."""
        m = positive(mss, "mss")
        return cls(
            mbps_to_bytes_per_s(capacity_mbps) / m, mbps_to_bytes_per_s(profile_mbps) / m, rtt, ored
        )

    @property
    def bdp(self) -> float:
        """C RTT in segments (eq 15)."""
        return self.capacity * self.rtt

    @property
    def gamma(self) -> float:
        """Fraction of OUT packets, gamma = (C - R)/C (eq 14)."""
        return (self.capacity - self.profile) / self.capacity

    @property
    def w_star(self) -> float:
        """W* = min_th + C RTT (eq 17): no marks below it."""
        return self.ored.min_th + self.bdp

    def marking(self) -> WindowMarking:
        """p(W) of eq (16): gamma f_mark(W - C RTT)."""
        return WindowMarking(self.w_star, self.ored.max_th + self.bdp, self.gamma * self.ored.p_max)


#: Sec IV.C baseline window rule (alpha = -1, beta = 1, c1 = 1, c2 = 0.5; STATED).
SEC4_TCP = GeneralizedTCP(-1.0, 1.0, 1.0, 0.5)
#: Sec IV.C network (STATED): 3 Mbps ORED link, 0.75 Mbps profile, nominal RTT 13.66 ms, MSS 512 B,
#: min_th 15, max_th 95 segments, p_max 0.02. C RTT = 10.0 segments (the printed 5 is M8).
SEC4_SETUP = SingleFlowSetup.from_mbps(3.0, 0.75, 0.01366, 512.0, ORED(15.0, 95.0, 0.02))


@dataclass(frozen=True)
class WindowDistribution:
    """Stationary per-packet window distribution of a single flow (Sec IV.B).

    ``w`` is a geometric grid (segments) from (1 - c2) W* upwards; ``density`` the per-packet
    density g(w) (per segment, integrates to 1 over the grid), ``ccdf`` G = 1 - F_s of the limit
    process in subjective time (eq 20 and the CDF equation of Sec IV.B), ``h`` the function H of
    the iteration (H(0) = 1). ``marking_rate`` is E[p(W)] per packet. With the pipe full each
    packet takes 1/C seconds, so the per-packet and per-time distributions coincide.
    """

    w: FloatArray
    density: FloatArray
    ccdf: FloatArray
    h: FloatArray
    du: float
    marking_rate: float
    sweeps: int
    mean: float = field(init=False)
    variance: float = field(init=False)

    def __post_init__(self) -> None:
        mean = self.expect(self.w)
        object.__setattr__(self, "mean", mean)
        object.__setattr__(self, "variance", self.expect((self.w - mean) ** 2))

    @property
    def cv(self) -> float:
        """Coefficient of variation sd/mean (Sec IV.C)."""
        return math.sqrt(self.variance) / self.mean

    def expect(self, values: npt.ArrayLike) -> float:
        """E[f(W)] for ``values`` = f on the grid (trapezoid rule in log w)."""
        v = np.asarray(values, dtype=float)
        return float(np.trapezoid(v * self.density * self.w, dx=self.du))

    def moment(self, k: float) -> float:
        """E[W^k]."""
        return self.expect(self.w**k)

    def pmf(self, edges: npt.ArrayLike) -> FloatArray:
        """Probability of each bin [edges[i], edges[i+1]) (for comparison with histograms)."""
        e = np.asarray(edges, dtype=float)
        if e.ndim != 1 or e.size < 2 or np.any(np.diff(e) <= 0):
            raise ValueError("edges must be an increasing 1-d array of at least two values")
        seg = 0.5 * self.du * (self.density[1:] * self.w[1:] + self.density[:-1] * self.w[:-1])
        cdf = np.concatenate([[0.0], np.cumsum(seg)])
        return np.diff(np.interp(e, self.w, cdf, left=0.0, right=float(cdf[-1])))


def _tail_point(fn: Callable[[float], float], start: float, target: float) -> float:
    """Smallest w >= start with fn(w) >= target, for fn increasing on [start, inf)."""
    if fn(start) >= target:
        return start
    hi = 2.0 * start
    for _ in range(_MAX_BRACKET):
        if fn(hi) >= target:
            break
        hi *= 2.0
    else:
        raise RuntimeError("no upper grid bound found for the window distribution")
    return float(brentq(lambda x: fn(x) - target, start, hi, xtol=1e-9 * hi))


def window_distribution(
    tcp: GeneralizedTCP,
    marking: WindowMarking,
    *,
    du: float = 2e-4,
    tail: float = 40.0,
    tol: float = 1e-13,
    max_sweeps: int = 10_000,
    normalisation: Literal["infinity", "origin"] = "infinity",
    drift: Literal["limit", "finite"] = "limit",
) -> WindowDistribution:
    """Stationary window distribution of the chain (17) via the limit process of Prop 1 (Sec IV.B).

    In W units (M6) the limit process moves up at speed dW/dt = c1 W^alpha / p(W) between the
    points of a rate-1 Poisson process and jumps W -> (1 - c2) W at them (beta = 1 is required,
    footnote 5). With q(w) = p(w)/(c1 w^alpha), Q(x) = int_0^x q and G = 1 - F_s the CDF equation
    is G'(x) = -q(x) (G(x) - G(x/(1-c2))), G = 1 below W*. With H = G exp(+Q) (sign corrected,
    M7) H'(x) = K(x) H(x/(1-c2)), K = q exp(Q(x) - Q(x/(1-c2))) <= q (the exponent is evaluated as
    a difference, never exp(Q) alone). The iteration of Sec IV.B is run on J = H/H(inf):

        J_{k+1}(x) = 1 - int_x^inf K(u) J_k(u/(1-c2)) du,   J_0 = 1,

    until max|J_{k+1} - J_k| < ``tol``; then H = J/J(0). This "infinity" normalisation is a
    Volterra iteration that converges factorially, and on the grid below exactly after at most
    (number of jumps spanned by the grid) sweeps. ``normalisation="origin"`` keeps H(0) = 1 as in
    the paper: H_{k+1} = Hhat/Hhat(0) with Hhat(x) = H_k(inf) - int_x^inf K H_k(u/(1-c2)) du, which
    is the same sequence up to scale and gives the same result. (A tempting variant writes
    Hhat = 1 - int_x^inf ..., i.e. H(inf) = 1 and H(0) = 1 at once; its fixed point solves
    Hhat(0) H' = K H(x/(1-c2)) instead of the CDF equation. It is off by ~3e-7 in the mean at
    alpha = -1, where H(inf) = 1.0013, and does not converge at alpha = 0, where H(inf) = 1.65:
    so that variant seems to "diverge" there.)

    Grid: u = ln w with step du' = ln(1/(1-c2))/m <= ``du`` so that x/(1-c2) is exactly m grid
    points above x (no interpolation); integrals by the trapezoid rule in u. It runs from
    (1 - c2) W* to w_max where both Q(w_max) - ln H(inf) and Q(w_max/(1-c2)) - Q(w_max) exceed
    ``tail`` (nats), so G(w_max) and the truncated part of the integral are below e^-tail.

    The per-packet density is recovered by reversing the time change dt = p dn (eq 19):
    g(w) is proportional to (F_s(w/(1-c2)) - F_s(w)) / (c1 w^alpha) (the rate of upward crossings
    of level w times packets per unit of w), which also covers the deterministic climb below W*.

    ``drift="limit"`` is Prop 1 (p_max -> 0). ``drift="finite"`` (ours, not in the paper) keeps
    the factor 1 - p(W) of the chain (17): between marks W grows by c1 W^alpha per unmarked packet,
    i.e. dW/dt = c1 W^alpha (1 - p)/p in subjective time, so q = p/(c1 W^alpha (1 - p)) (Q(x) then
    by the trapezoid rule on the grid) and packets per unit of w are 1/(c1 w^alpha (1 - p)). The
    limit model overestimates the mean by about E[p] relative to the chain (17); the finite form
    removes most of that bias (the paper's remark that the theory is less accurate for larger
    alpha, where E[p] is larger).
    """
    if tcp.beta != 1.0:
        raise ValueError(
            "the window distribution needs beta = 1 (Sec IV, Prop 1, footnote 5), "
            f"got beta={tcp.beta:g}"
        )
    du = positive(du, "du")
    tail = positive(tail, "tail")
    tol = positive(tol, "tol")
    if isinstance(max_sweeps, bool) or not isinstance(max_sweeps, int) or max_sweeps < 1:
        raise ValueError(f"max_sweeps must be a positive integer, got {max_sweeps!r}")
    if normalisation not in ("infinity", "origin"):
        raise ValueError(f"normalisation must be 'infinity' or 'origin', got {normalisation!r}")
    if drift not in ("limit", "finite"):
        raise ValueError(f"drift must be 'limit' or 'finite', got {drift!r}")
    c2 = tcp.c2
    jump = -math.log1p(-c2)  # ln(1/(1-c2))
    m = max(4, math.ceil(jump / du))
    step = jump / m
    ws = marking.w_start

    def qint(x: npt.ArrayLike) -> FloatArray:
        return marking.q_integral(x, tcp)

    def gap(x: float) -> float:
        return float(qint(x / (1.0 - c2)) - qint(x))

    extra = 0.0  # ln H(inf), learnt from a first pass
    for _ in range(8):
        w_top = max(
            _tail_point(lambda x: float(qint(x)), marking.w_full, tail + extra),
            _tail_point(gap, marking.w_full, tail),
        )
        n = m + math.ceil(math.log(w_top / ws) / step) + 1
        w_ext = ws * np.exp((np.arange(n + m) - m) * step)  # w_ext[i + m] = w_ext[i]/(1 - c2)
        w = w_ext[:n]
        if drift == "limit":
            q_ext = marking.q(w_ext, tcp)
            big_q = qint(w_ext)
        else:
            p_ext = marking(w_ext)
            q_ext = p_ext / (tcp.c1 * w_ext**tcp.alpha * (1.0 - p_ext))
            qu = q_ext * w_ext  # dQ/du
            right = qu[1:].copy()
            right[m - 1] = 0.0  # left limit at W*
            big_q = np.concatenate([[0.0], np.cumsum(0.5 * step * (qu[:-1] + right))])
        qw = big_q[:n]
        kern = q_ext[:n] * np.exp(qw - big_q[m:]) * w  # K(w) dw/du
        k_left = kern[:-1]
        k_right = kern[1:].copy()
        k_right[m - 1] = 0.0  # left limit at W* (q = 0 below W*; matters for a step marking)
        j = np.ones(n)
        for sweep in range(1, max_sweeps + 1):
            top = float(j[-1])  # H_k(inf): H is constant above the grid
            jp = np.concatenate([j, np.full(m + 1, top)])
            cell = 0.5 * step * (k_left * jp[m : n - 1 + m] + k_right * jp[m + 1 : n + m])
            j_new = np.full(n, top)
            j_new[:-1] = top - np.cumsum(cell[::-1])[::-1]
            if normalisation == "origin":
                if not j_new[0] > 0.0:
                    raise RuntimeError(
                        f"H iteration normalised at the origin broke down after {sweep} sweeps"
                    )
                j_new = j_new / j_new[0]
            change = float(np.max(np.abs(j_new - j)))
            j = j_new
            if change < tol:
                break
        else:
            raise RuntimeError(
                f"H iteration ({normalisation} normalisation) did not converge in {max_sweeps} "
                f"sweeps (last change {change:.3g})"
            )
        if not j[0] > 0.0:
            raise RuntimeError("H iteration gave J(0) <= 0: grid too coarse (reduce du)")
        h = j / j[0]
        ln_hinf = math.log(float(h[-1]))
        if ln_hinf <= extra + 1.0:  # G(w_max) <= e^-(tail - 1)
            break
        extra = ln_hinf + 1.0
    else:
        raise RuntimeError("window-distribution grid did not reach the tail")
    g_ccdf = h * np.exp(-qw)
    above = np.concatenate([g_ccdf[m:], np.zeros(m)])  # G(w/(1-c2)); 0 beyond the grid
    speed = tcp.c1 * w**tcp.alpha  # window growth per packet (c1 w^alpha (1 - p) if finite)
    if drift == "finite":
        speed = speed * (1.0 - marking(w))
    dens = (g_ccdf - above) / speed
    z = float(np.trapezoid(dens * w, dx=step))
    return WindowDistribution(
        w=w,
        density=dens / z,
        ccdf=g_ccdf,
        h=h,
        du=step,
        marking_rate=1.0 / z,
        sweeps=sweep,
    )


def constant_marking_cv(tcp: GeneralizedTCP) -> float:
    """Coefficient of variation of Y = W^(1-alpha) under a constant marking probability p, for the
    limit process of Prop 1 (beta = 1): sqrt((1 - r)/(1 + r)) with r = (1 - c2)^(1-alpha).

    Derivation: the per-packet generator gives, for smooth phi, c1 E[phi'(W) W^alpha] =
    p E[phi(W) - phi((1 - c2) W)]. With phi = Y^j: c1 (1-alpha) j E[Y^(j-1)] = p (1 - r^j) E[Y^j],
    so E[Y] = c1 (1-alpha)/(p (1-r)), E[Y^2] = 2 c1 (1-alpha) E[Y]/(p (1-r^2)) and
    CV^2 = 2/(1+r) - 1. It is independent of c1 and p (the property the paper cites from [10]);
    for AIMD (alpha = 0) it is the CV of W itself, sqrt(c2/(2 - c2)).
    """
    if tcp.beta != 1.0:
        raise ValueError(f"constant_marking_cv needs beta = 1, got beta={tcp.beta:g}")
    r = (1.0 - tcp.c2) ** (1.0 - tcp.alpha)
    return math.sqrt((1.0 - r) / (1.0 + r))


def window_sweep(
    parameter: SweepParameter,
    values: Sequence[float] | npt.ArrayLike,
    *,
    base: GeneralizedTCP = SEC4_TCP,
    setup: SingleFlowSetup = SEC4_SETUP,
    du: float = 2e-4,
    drift: Literal["limit", "finite"] = "limit",
) -> list[WindowDistribution]:
    """Window distributions of ``setup`` with one of alpha, c1, c2 of ``base`` varied (Sec IV.C);
    ``drift`` as in :func:`window_distribution`."""
    if parameter not in ("alpha", "c1", "c2"):
        raise ValueError(f"parameter must be one of 'alpha', 'c1', 'c2', got {parameter!r}")
    vals = np.atleast_1d(np.asarray(values, dtype=float))
    marking = setup.marking()
    out = []
    for v in vals:
        tcp = replace(base, **{parameter: float(v)})
        out.append(window_distribution(tcp, marking, du=du, drift=drift))
    return out


def fig06(
    alphas: Sequence[float] | npt.ArrayLike,
    *,
    base: GeneralizedTCP = SEC4_TCP,
    setup: SingleFlowSetup = SEC4_SETUP,
) -> list[WindowDistribution]:
    """Figure 6: window statistics vs alpha (beta = 1, c1 = 1, c2 = 0.5 by default); panel (c) is
    the distribution at alpha = -1."""
    return window_sweep("alpha", alphas, base=base, setup=setup)


def fig07(
    c2_values: Sequence[float] | npt.ArrayLike,
    *,
    base: GeneralizedTCP = SEC4_TCP,
    setup: SingleFlowSetup = SEC4_SETUP,
) -> list[WindowDistribution]:
    """Figure 7: window statistics vs c2 (alpha = -1, beta = 1, c1 = 1 by default); distributions
    at c2 = 0.2 and 0.4."""
    return window_sweep("c2", c2_values, base=base, setup=setup)


# --------------------------------------------------------------------------------------------
# Monte Carlo of the chain (17)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChainSummary:
    """Per-packet statistics of :func:`simulate_window_chain` (after the burn-in).

    ``chain_means`` are the per-chain time averages (independent chains: ``stderr`` of the mean is
    their standard deviation / sqrt(chains)); ``pmf`` the fraction of samples per bin of ``edges``
    (None without bins)."""

    mean: float
    variance: float
    chain_means: FloatArray
    samples: int
    pmf: FloatArray | None
    edges: FloatArray | None

    @property
    def cv(self) -> float:
        return math.sqrt(self.variance) / self.mean

    @property
    def stderr(self) -> float:
        return float(np.std(self.chain_means, ddof=1) / math.sqrt(self.chain_means.size))


def simulate_window_chain(
    tcp: GeneralizedTCP,
    marking: WindowMarking,
    *,
    steps: int,
    chains: int,
    burn_in: int,
    rng: np.random.Generator,
    w0: float | None = None,
    floor: float = 1.0,
    edges: npt.ArrayLike | None = None,
    block: int = 256,
) -> ChainSummary:
    """Monte Carlo of the Markov chain (17), ``chains`` independent copies run in parallel.

    Per step (one packet): with probability p(W_n) (eq 16; 0 for W_n <= W*) W_{n+1} = W_n - c2
    W_n^beta, otherwise W_{n+1} = W_n + c1 W_n^alpha; then W_{n+1} = max(W_{n+1}, ``floor``) (a
    floor of one segment, as in our ns-2 agent of patch 0021; it never binds when
    (1 - c2) W* > floor). The chains start at ``w0`` (default W*) and the first ``burn_in``
    steps are discarded. ``rng`` (a seeded numpy Generator) makes runs reproducible.
    """
    if isinstance(steps, bool) or not isinstance(steps, int) or steps <= 0:
        raise ValueError(f"steps must be a positive integer, got {steps!r}")
    if isinstance(chains, bool) or not isinstance(chains, int) or chains <= 1:
        raise ValueError(f"chains must be an integer >= 2, got {chains!r}")
    if isinstance(burn_in, bool) or not isinstance(burn_in, int) or not 0 <= burn_in < steps:
        raise ValueError(f"burn_in must be an integer in [0, steps), got {burn_in!r}")
    if not isinstance(rng, np.random.Generator):
        raise ValueError("rng must be a numpy.random.Generator (seeded, for reproducibility)")
    floor = nonneg(floor, "floor")
    start = marking.w_start if w0 is None else positive(w0, "w0")
    bins = None if edges is None else np.asarray(edges, dtype=float)
    if bins is not None and (bins.ndim != 1 or bins.size < 2 or np.any(np.diff(bins) <= 0)):
        raise ValueError("edges must be an increasing 1-d array of at least two values")
    counts = None if bins is None else np.zeros(bins.size - 1)
    w = np.full(chains, start)
    s1 = np.zeros(chains)
    s2 = np.zeros(chains)
    done = 0
    while done < steps:
        b = min(block, steps - done)
        u = rng.random((b, chains))
        rec = np.empty((b, chains))
        for i in range(b):
            marked = u[i] < marking(w)
            w = np.where(marked, w - tcp.c2 * w**tcp.beta, w + tcp.c1 * w**tcp.alpha)
            np.maximum(w, floor, out=w)
            rec[i] = w
        keep = rec[max(0, burn_in - done) :]
        s1 += keep.sum(axis=0)
        s2 += (keep * keep).sum(axis=0)
        if counts is not None and bins is not None and keep.size:
            counts += np.histogram(keep, bins=bins)[0]
        done += b
    n = steps - burn_in
    means = s1 / n
    mean = float(means.mean())
    var = float((s2 / n).mean() - mean * mean)
    pmf = None if counts is None else counts / (n * chains)
    return ChainSummary(mean, var, means, n * chains, pmf, bins)
