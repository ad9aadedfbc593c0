"""Equilibrium model of Tang, Wang, Hegde, Low, "Equilibrium and Fairness of Networks Shared by
TCP Reno and Vegas/FAST" (2005).

Everything here is a pure function of its arguments (numpy/scipy only). References are to the
paper's sections, propositions and numbered equations:

* Sec 2 -- the model: end-to-end prices (1)-(2), price mapping (3), Reno equilibrium (4) with
  utility (5)-(6), Vegas/FAST equilibrium (7) with utility (8)-(9), capacity constraints and
  complementary slackness (10). :class:`Network`, :func:`equilibrium_at`,
  :func:`equilibrium_residuals`.
* Sec 6 -- RED marking probability (16) and the RED price mapping (17): :class:`RedPrice`.
* Sec 3 -- the three-link network of Figure 1, Proposition 1 (:func:`prop1_condition`) and its
  linear-map remark (:class:`LinearPrice`).
* Every equilibrium of a network: :func:`find_equilibria` enumerates the sets of links with a
  positive price and finds every solution of (10) with equality on each set
  (:func:`solve_active_set`), see the docstring of :func:`find_equilibria`.
* Sec 4 -- Proposition 2 (intra-protocol fairness: :func:`prop2_vegas_rates`,
  :func:`prop2_reno_rates`) and Proposition 3 (inter-protocol fairness: :func:`prop3_alpha`).
* Sec 6.1 -- theoretical curves of Figures 9 and 10 (:func:`fig9_curves`, :func:`fig10_curves`,
  network :class:`Fig1Setup`); Sec 6.2 -- Figures 13 and 14 on the Figure 12 topology
  (:func:`fig13_curves`, :func:`fig14_curves`, network :class:`Fig12Setup`).

Units: capacities and rates in packets/s, queueing delays ("delay prices" p^f) and round-trip
times in seconds, RED thresholds b in packets, loss/marking probabilities ("loss prices" p^r)
dimensionless, Vegas/FAST alpha in packets (x = alpha/q). Flows that share a path and a
protocol form a *group* (:class:`Flow` with ``count``); all flows of a group have the same
equilibrium rate, so aggregating them is exact.

Vegas alpha unit (experiment catalog, ambiguity T1): Sec 6.1 says "alpha d is the number of
packets the flow maintains along its path ... every flow tries to put 5.5 packets along its path
as we set alpha = 50", i.e. alpha in 1/s times the propagation RTT d. ``Flow(alpha_unit=
"per_second")`` takes that reading (alpha_packets = alpha * d, reading I of the catalog);
``alpha_unit="packets"`` takes alpha as the packets of eq. (7) directly (reading II).

Reno RTT: eq. (4) assumes a constant T_i; footnote 1 says T_i should include the equilibrium
queueing delay for a more accurate prediction. ``Network.reno_rtt_includes_queueing`` selects
T_i = d_i + q^f_i (True) or T_i = d_i (False), with d_i the propagation RTT (catalog T2).

Corrections and readings of the printed paper:

* Proof of Prop 1: the first claim is printed with "2 m_1^2((U^1)'(c_2 - c_1))"; the condition
  proved (and stated in Prop 1) is 2 m_1((U^1)'(c_2 - c_1)).
* Sec 6.1 says the predictions use "the price mapping function 16 for RED"; the price mapping is
  eq. (17) (eq. (16) is the marking probability as a function of the queue length).
* Remark after Prop 1: the linear map m_l(p) = k_l p is only defined on [0, 1/k_l]; it is
  extended by m_l = 1 above (a loss probability cannot exceed 1).
* Eq. (1) adds link loss probabilities; a Reno path with a sum above 1 is given q = 1 (rate 0).
* RED (17) saturates at 1/K, so assumption A1's m_l(inf) = 1 does not hold for RED; the
  equilibria are nevertheless well defined (a link above b_max keeps marking with 1/K).

Finding beyond the paper: where Prop 1's condition holds, the Figure 1 network has a *third*
equilibrium with all three links saturated (rates fixed by (10): c2 - c1 per Vegas path,
2 c1 - c2 for Reno), whose existence follows from condition 3 by the intermediate value theorem
(:func:`prop1_condition`). It is consistent with [Tang et al., 2005b] (an odd number of regular
equilibria; not all locally stable) and is presumably the unstable one between the paper's two.
With RED the count can also be even, because RED's marking saturates at 1/K (A1 fails): e.g.
the links-{1, 3} equilibrium disappears "to infinity" when the Reno flows at the maximum marking
rate 2/K1 alone exceed c1 (constant T).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations, product
from typing import Literal

import numpy as np
import numpy.typing as npt
from scipy.ndimage import label
from scipy.optimize import brentq, root

from analysis.models.checks import as_array, as_output, finite, nonneg, positive

__all__ = [
    "PACKET_BYTES",
    "AlphaUnit",
    "BranchCurve",
    "DEFAULT_RESOLUTION",
    "DropTailPrice",
    "Equilibrium",
    "EquilibriumResiduals",
    "FIG1_BRANCHES",
    "MAX_SOLUTIONS_PER_SET",
    "SATURATION_RTOL",
    "Fig12Setup",
    "Fig13Curves",
    "Fig14Curves",
    "Fig1Setup",
    "Fig1Sweep",
    "Flow",
    "LinearPrice",
    "Link",
    "Network",
    "PriceMap",
    "Prop1Check",
    "Protocol",
    "RedPrice",
    "equilibrium_at",
    "equilibrium_residuals",
    "fig10_curves",
    "fig13_curves",
    "fig14_curves",
    "fig1_network",
    "fig9_curves",
    "find_equilibria",
    "mbps_to_pkts",
    "pkts_to_mbps",
    "prop1_condition",
    "prop2_reno_rates",
    "prop2_vegas_rates",
    "prop3_alpha",
    "red_marking_probability",
    "red_price",
    "reno_loss_probability",
    "reno_marginal_utility",
    "reno_rate",
    "reno_utility",
    "solve_active_set",
    "vegas_marginal_utility",
    "vegas_rate",
    "vegas_utility",
]

FloatOrArray = float | npt.NDArray[np.float64]
Protocol = Literal["reno", "vegas", "fast"]
AlphaUnit = Literal["packets", "per_second"]

_PROTOCOLS: tuple[str, ...] = ("reno", "vegas", "fast")
_ALPHA_UNITS: tuple[str, ...] = ("packets", "per_second")
_EPS = float(np.finfo(float).eps)

#: Packet size (bytes) of the paper's unit conversions ("100 Mbps = 8.33 pkts/ms", Sec 5.1).
PACKET_BYTES: float = 1500.0

#: Relative tolerance on |y_l - c_l| / c_l for a link to count as saturated (eq. 10).
SATURATION_RTOL: float = 1e-9

#: Default number of grid points per scanned price (see :func:`find_equilibria`).
DEFAULT_RESOLUTION: int = 600

#: Starting points tried per candidate region when |S| >= 3 (see :func:`find_equilibria`).
MAX_POLISH_STARTS: int = 4

#: More distinct solutions than this for one set of priced links means a continuum of equilibria.
MAX_SOLUTIONS_PER_SET: int = 32

# --------------------------------------------------------------------------------------------
# input validation helpers
# --------------------------------------------------------------------------------------------


def _count(n: object, name: str) -> int:
    if isinstance(n, bool) or not isinstance(n, numbers.Real):
        raise ValueError(f"{name} must be an integer >= 1, got {n!r}")
    if not math.isfinite(float(n)) or float(n) != int(n) or int(n) < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {n!r}")
    return int(n)


# --------------------------------------------------------------------------------------------
# unit conversions
# --------------------------------------------------------------------------------------------


def pkts_to_mbps(rate: npt.ArrayLike, packet_bytes: float = PACKET_BYTES) -> FloatOrArray:
    """Rate in packets/s to Mbps (10^6 bit/s) with ``packet_bytes``-byte packets."""
    pb = positive(packet_bytes, "packet_bytes")
    return as_output(as_array(rate, "rate", allow_inf=True) * pb * 8.0 / 1e6)


def mbps_to_pkts(mbps: npt.ArrayLike, packet_bytes: float = PACKET_BYTES) -> FloatOrArray:
    """Rate in Mbps to packets/s (100 Mbps = 8333.3 pkts/s with 1500-byte packets, Sec 5.1)."""
    pb = positive(packet_bytes, "packet_bytes")
    return as_output(as_array(mbps, "mbps", allow_inf=True) * 1e6 / (8.0 * pb))


# --------------------------------------------------------------------------------------------
# Sec 2.2 -- per-flow equilibrium relations, eqs (4)-(9)
# --------------------------------------------------------------------------------------------


def reno_loss_probability(rate: npt.ArrayLike, rtt: npt.ArrayLike) -> FloatOrArray:
    """Eq. (4): end-to-end loss probability q = 2 / (2 + x^2 T^2) of a Reno flow at rate x.

    This is also Reno's marginal utility U'(x) of eq. (6), see :func:`reno_marginal_utility`.
    """
    x = as_array(rate, "rate", allow_inf=True)
    t = as_array(rtt, "rtt", allow_inf=True)
    if np.any(x < 0):
        raise ValueError(f"rate must be >= 0, got {rate!r}")
    if np.any(t <= 0):
        raise ValueError(f"rtt must be > 0, got {rtt!r}")
    return as_output(2.0 / (2.0 + (x * t) ** 2))


def reno_rate(q: npt.ArrayLike, rtt: npt.ArrayLike) -> FloatOrArray:
    """Eq. (4) solved for the rate: x = (1/T) sqrt(2 (1 - q) / q).

    ``q`` is the end-to-end loss probability of eq. (1); q = 0 gives an infinite rate, q >= 1
    (possible with the additive eq. (1)) gives 0.
    """
    qq = as_array(q, "q", allow_inf=True)
    t = as_array(rtt, "rtt", allow_inf=True)
    if np.any(qq < 0):
        raise ValueError(f"q (loss probability) must be >= 0, got {q!r}")
    if np.any(t <= 0):
        raise ValueError(f"rtt must be > 0, got {rtt!r}")
    return as_output(_reno_rate(qq, t))


def _reno_rate(q: npt.NDArray[np.float64], t: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    qc = np.minimum(q, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        x = np.sqrt(2.0 * (1.0 - qc) / qc) / t
    return np.where(qc <= 0.0, np.inf, x)


def reno_utility(rate: npt.ArrayLike, rtt: npt.ArrayLike) -> FloatOrArray:
    """Eq. (6): Reno utility U(x) = (sqrt 2 / T) arctan(x T / sqrt 2)."""
    x = as_array(rate, "rate", allow_inf=True)
    t = as_array(rtt, "rtt", allow_inf=True)
    if np.any(t <= 0):
        raise ValueError(f"rtt must be > 0, got {rtt!r}")
    return as_output(math.sqrt(2.0) / t * np.arctan(x * t / math.sqrt(2.0)))


def reno_marginal_utility(rate: npt.ArrayLike, rtt: npt.ArrayLike) -> FloatOrArray:
    """Derivative of eq. (6): U'(x) = 2 / (2 + x^2 T^2) (the right-hand side of eq. 4)."""
    return reno_loss_probability(rate, rtt)


def vegas_rate(alpha: npt.ArrayLike, q: npt.ArrayLike) -> FloatOrArray:
    """Eq. (7): Vegas/FAST rate x = alpha / q (alpha in packets, q queueing delay in s)."""
    a = as_array(alpha, "alpha", allow_inf=True)
    qq = as_array(q, "q", allow_inf=True)
    if np.any(a <= 0):
        raise ValueError(f"alpha must be > 0, got {alpha!r}")
    if np.any(qq < 0):
        raise ValueError(f"q (queueing delay) must be >= 0, got {q!r}")
    with np.errstate(divide="ignore"):
        return as_output(a / qq)


def vegas_utility(rate: npt.ArrayLike, alpha: npt.ArrayLike) -> FloatOrArray:
    """Eq. (9): Vegas/FAST utility U(x) = alpha log x."""
    x = as_array(rate, "rate", allow_inf=True)
    a = as_array(alpha, "alpha", allow_inf=True)
    if np.any(x <= 0):
        raise ValueError(f"rate must be > 0, got {rate!r}")
    return as_output(a * np.log(x))


def vegas_marginal_utility(rate: npt.ArrayLike, alpha: npt.ArrayLike) -> FloatOrArray:
    """Derivative of eq. (9): U'(x) = alpha / x."""
    x = as_array(rate, "rate", allow_inf=True)
    a = as_array(alpha, "alpha", allow_inf=True)
    if np.any(x <= 0):
        raise ValueError(f"rate must be > 0, got {rate!r}")
    return as_output(a / x)


# --------------------------------------------------------------------------------------------
# price mapping functions, eq (3); RED eqs (16)-(17)
# --------------------------------------------------------------------------------------------


def _check_red(b_min: float, b_max: float, k: float) -> tuple[float, float, float]:
    lo = nonneg(b_min, "b_min")
    hi = finite(b_max, "b_max")
    if not lo < hi:
        raise ValueError(f"RED thresholds need b_min < b_max, got b_min={b_min!r}, b_max={b_max!r}")
    kk = finite(k, "K")
    if kk < 1:
        raise ValueError(
            f"K (RED slope; 1/K is the maximum marking probability) must be >= 1, got {k!r}"
        )
    return lo, hi, kk


def red_marking_probability(
    queue: npt.ArrayLike, b_min: float, b_max: float, k: float
) -> FloatOrArray:
    """Eq. (16): RED marking probability p(b) of a queue of b packets.

    p = 0 for b <= b_min, (1/K) (b - b_min) / (b_max - b_min) for b_min < b < b_max, 1/K above.
    """
    lo, hi, kk = _check_red(b_min, b_max, k)
    b = as_array(queue, "queue", allow_inf=True)
    return as_output(np.clip((b - lo) / (hi - lo), 0.0, 1.0) / kk)


def red_price(
    delay: npt.ArrayLike, capacity: float, b_min: float, b_max: float, k: float
) -> FloatOrArray:
    """Eq. (17): RED price mapping p^r = m(p^f) = p(p^f c) of a link of capacity c (pkts/s).

    The queue of a link with queueing delay p^f is b = p^f c packets, so m(p^f) = 0 for
    p^f <= b_min/c, (1/K)(p^f c - b_min)/(b_max - b_min) in between and 1/K for p^f >= b_max/c.
    """
    c = positive(capacity, "capacity")
    d = as_array(delay, "delay", allow_inf=True)
    return red_marking_probability(d * c, b_min, b_max, k)


@dataclass(frozen=True)
class RedPrice:
    """RED price mapping of eq. (17) with thresholds (b_min, b_max) in packets and slope K."""

    b_min: float
    b_max: float
    k: float

    def __post_init__(self) -> None:
        lo, hi, kk = _check_red(self.b_min, self.b_max, self.k)
        object.__setattr__(self, "b_min", lo)
        object.__setattr__(self, "b_max", hi)
        object.__setattr__(self, "k", kk)

    @property
    def max_loss(self) -> float:
        """Largest loss price the map produces (1/K)."""
        return 1.0 / self.k

    def loss(self, delay: npt.NDArray[np.float64], capacity: float) -> npt.NDArray[np.float64]:
        """m(p^f) of eq. (17), vectorised over ``delay``."""
        return (
            np.clip((delay * capacity - self.b_min) / (self.b_max - self.b_min), 0.0, 1.0) / self.k
        )

    def breakpoints(self, capacity: float) -> tuple[float, ...]:
        """Delays at which m has a kink: b_min/c (if > 0) and b_max/c."""
        pts = (self.b_min / capacity, self.b_max / capacity)
        return tuple(p for p in pts if p > 0)

    def inverse(self, loss: float, capacity: float) -> float:
        """m^{-1}(p^r): the queueing delay giving loss price ``loss`` (0 for loss 0).

        m is flat at 0 below b_min/c and at 1/K above b_max/c; the inverse takes the lower end
        of the flat pieces (0 and b_max/c). A loss above 1/K cannot be produced: ValueError.
        """
        p = nonneg(loss, "loss")
        if p > self.max_loss * (1 + 1e-12):
            raise ValueError(f"loss {loss!r} exceeds the RED maximum 1/K = {self.max_loss!r}")
        if p == 0:
            return 0.0
        return (self.b_min + min(p * self.k, 1.0) * (self.b_max - self.b_min)) / capacity


@dataclass(frozen=True)
class LinearPrice:
    """Linear price mapping m(p) = k p of the remark after Prop 1 (extended by 1 above 1/k)."""

    k: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "k", positive(self.k, "k (linear price slope)"))

    @property
    def max_loss(self) -> float:
        return 1.0

    def loss(self, delay: npt.NDArray[np.float64], capacity: float) -> npt.NDArray[np.float64]:
        return np.minimum(self.k * delay, 1.0)

    def breakpoints(self, capacity: float) -> tuple[float, ...]:
        return (1.0 / self.k,)

    def inverse(self, loss: float, capacity: float) -> float:
        p = nonneg(loss, "loss")
        if p > 1:
            raise ValueError(f"loss must be <= 1, got {loss!r}")
        return p / self.k


@dataclass(frozen=True)
class DropTailPrice:
    """DropTail link whose buffer never overflows in equilibrium: the only price is queueing delay.

    m(p^f) = 0 for every p^f. (The paper notes that a finite DropTail buffer has no accurate price
    model, Sec 6; a steep :class:`RedPrice` with b_max = buffer can approximate one.)
    """

    @property
    def max_loss(self) -> float:
        return 0.0

    def loss(self, delay: npt.NDArray[np.float64], capacity: float) -> npt.NDArray[np.float64]:
        return np.zeros_like(delay)

    def breakpoints(self, capacity: float) -> tuple[float, ...]:
        return ()

    def inverse(self, loss: float, capacity: float) -> float:
        if nonneg(loss, "loss") > 0:
            raise ValueError("a DropTail (delay-only) link cannot produce a loss price > 0")
        return 0.0


PriceMap = RedPrice | LinearPrice | DropTailPrice
_PRICE_TYPES = (RedPrice, LinearPrice, DropTailPrice)

# --------------------------------------------------------------------------------------------
# network description
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Link:
    """A link: capacity c_l (pkts/s), price mapping m_l (eq. 3), one-way propagation delay (s)."""

    capacity: float
    price: PriceMap
    delay: float = 0.0
    name: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "capacity", positive(self.capacity, "capacity"))
        object.__setattr__(self, "delay", nonneg(self.delay, "delay"))
        if not isinstance(self.price, _PRICE_TYPES):
            raise ValueError(
                f"price must be a RedPrice, LinearPrice or DropTailPrice, got {self.price!r}"
            )


@dataclass(frozen=True)
class Flow:
    """A group of ``count`` identical flows on one path (a column of the routing matrix R).

    ``route``: indices of the links the path uses. ``protocol``: "reno" or "vegas"/"fast" (same
    equilibrium, eq. 7). ``rtt``: propagation round-trip time d (s); None derives it from the
    links as 2 * (sum of one-way delays on the route). ``alpha`` (Vegas/FAST only, > 0): in
    packets (``alpha_unit="packets"``) or in 1/s with alpha * d packets queued
    (``alpha_unit="per_second"``, the Sec 6.1 convention).
    """

    protocol: Protocol
    route: tuple[int, ...]
    count: int = 1
    rtt: float | None = None
    alpha: float | None = None
    alpha_unit: AlphaUnit = "packets"
    name: str = ""

    def __post_init__(self) -> None:
        if self.protocol not in _PROTOCOLS:
            raise ValueError(f"protocol must be one of {_PROTOCOLS}, got {self.protocol!r}")
        try:
            route = tuple(int(i) for i in self.route)
        except (TypeError, ValueError) as exc:
            raise ValueError(
                f"route must be a sequence of link indices, got {self.route!r}"
            ) from exc
        if not route:
            raise ValueError("route must contain at least one link")
        if len(set(route)) != len(route):
            raise ValueError(f"route must not repeat a link, got {self.route!r}")
        if min(route) < 0:
            raise ValueError(f"route link indices must be >= 0, got {self.route!r}")
        object.__setattr__(self, "route", route)
        object.__setattr__(self, "count", _count(self.count, "count"))
        if self.rtt is not None:
            object.__setattr__(self, "rtt", positive(self.rtt, "rtt"))
        if self.alpha_unit not in _ALPHA_UNITS:
            raise ValueError(f"alpha_unit must be one of {_ALPHA_UNITS}, got {self.alpha_unit!r}")
        if self.protocol == "reno":
            if self.alpha is not None:
                raise ValueError("alpha is a Vegas/FAST parameter; a Reno flow must not set it")
        else:
            if self.alpha is None:
                raise ValueError(f"a {self.protocol} flow needs alpha > 0")
            object.__setattr__(self, "alpha", positive(self.alpha, "alpha"))

    @property
    def is_reno(self) -> bool:
        return self.protocol == "reno"


@dataclass(frozen=True)
class Network:
    """Links, flow groups, and whether Reno's T_i includes queueing delay (footnote 1)."""

    links: tuple[Link, ...]
    flows: tuple[Flow, ...]
    reno_rtt_includes_queueing: bool = True

    def __post_init__(self) -> None:
        links = tuple(self.links)
        flows = tuple(self.flows)
        if not links:
            raise ValueError("a network needs at least one link")
        if not flows:
            raise ValueError("a network needs at least one flow")
        for ln in links:
            if not isinstance(ln, Link):
                raise ValueError(f"links must be Link objects, got {ln!r}")
        for f in flows:
            if not isinstance(f, Flow):
                raise ValueError(f"flows must be Flow objects, got {f!r}")
            if max(f.route) >= len(links):
                raise ValueError(
                    f"flow {f.name or f.route!r} uses link {max(f.route)} but the network has "
                    f"{len(links)} links"
                )
        object.__setattr__(self, "links", links)
        object.__setattr__(self, "flows", flows)
        object.__setattr__(
            self, "reno_rtt_includes_queueing", bool(self.reno_rtt_includes_queueing)
        )
        rtt = self.propagation_rtt
        bad = [i for i, v in enumerate(rtt) if not v > 0]
        if bad:
            raise ValueError(
                f"flow groups {bad} have a zero propagation RTT: give Flow.rtt or link delays"
            )

    @property
    def routing(self) -> npt.NDArray[np.int_]:
        """Routing matrix R = [R^r R^f] restricted to the groups: R[l, g] = 1 if group g uses l."""
        r = np.zeros((len(self.links), len(self.flows)), dtype=int)
        for g, f in enumerate(self.flows):
            r[list(f.route), g] = 1
        return r

    @property
    def capacity(self) -> npt.NDArray[np.float64]:
        return np.array([ln.capacity for ln in self.links])

    @property
    def is_reno(self) -> npt.NDArray[np.bool_]:
        return np.array([f.is_reno for f in self.flows], dtype=bool)

    @property
    def counts(self) -> npt.NDArray[np.float64]:
        return np.array([f.count for f in self.flows], dtype=float)

    @property
    def propagation_rtt(self) -> npt.NDArray[np.float64]:
        """d_i (s): ``Flow.rtt`` or twice the sum of the one-way link delays on the route."""
        return np.array(
            [
                f.rtt if f.rtt is not None else 2.0 * sum(self.links[i].delay for i in f.route)
                for f in self.flows
            ]
        )

    @property
    def alpha_packets(self) -> npt.NDArray[np.float64]:
        """alpha_i of eq. (7) in packets per flow (NaN for Reno groups)."""
        d = self.propagation_rtt
        out = np.full(len(self.flows), np.nan)
        for g, f in enumerate(self.flows):
            if f.alpha is not None:
                out[g] = f.alpha * (d[g] if f.alpha_unit == "per_second" else 1.0)
        return out


# --------------------------------------------------------------------------------------------
# evaluation of the model at given delay prices
# --------------------------------------------------------------------------------------------


class _Model:
    """Arrays of a network and the vectorised map p^f -> (rates, loads)."""

    def __init__(self, net: Network) -> None:
        self.net = net
        self.c = net.capacity
        self.R = net.routing.astype(bool)
        self.Rf = self.R.astype(float)
        self.reno = net.is_reno
        self.n = net.counts
        self.d = net.propagation_rtt
        self.alpha = np.nan_to_num(net.alpha_packets, nan=0.0)
        self.maps = [ln.price for ln in net.links]
        self.flag = net.reno_rtt_includes_queueing
        self.L = len(net.links)
        # price range scanned per link: a reference delay s_l, then [1e-8 s_l, 1e4 s_l]
        scale = np.empty(self.L)
        for l_ in range(self.L):
            through = self.R[l_]
            load = float(np.sum((self.n * self.alpha)[through & ~self.reno]))
            ml = self.maps[l_].max_loss
            if ml > 0:
                load += float(np.sum(self.n[through & self.reno])) * math.sqrt(2 * (1 - ml) / ml)
            cands = [load / self.c[l_], *self.maps[l_].breakpoints(self.c[l_]), 1e-6]
            scale[l_] = max(cands)
        self.lo = 1e-8 * scale
        self.hi = 1e4 * scale

    def loss(self, delay: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        return np.stack([m.loss(delay[i], float(self.c[i])) for i, m in enumerate(self.maps)])

    def state(self, delay: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float64], ...]:
        """delay (L, M) -> loss (L, M), qf, qr, T, x (G, M), y (L, M).

        Negative delays (used only inside the solver, see :func:`_own_floor`) extend the model
        continuously: the loss of a link is m(max(p, 0)), a path with q^f <= 0 has an infinite
        Vegas rate and a Reno T <= 0 an infinite Reno rate.
        """
        loss = self.loss(np.maximum(delay, 0.0))
        qf = self.Rf.T @ delay
        qr = self.Rf.T @ loss
        t = self.d[:, None] + (qf if self.flag else 0.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            xf = np.where(qf > 0, self.alpha[:, None] / qf, np.inf)
        xr = np.where(t > 0, _reno_rate(qr, np.where(t > 0, t, 1.0)), np.inf)
        x = np.where(self.reno[:, None], xr, xf)
        agg = self.n[:, None] * x
        y = np.where(self.R[:, :, None], agg[None, :, :], 0.0).sum(axis=1)
        return loss, qf, qr, t, x, y

    def residual(self, delay: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """(y - c) / (y + c) in [-1, 1] (1 for an infinite load), shape (L, M)."""
        y = self.state(delay)[-1]
        c = self.c[:, None]
        with np.errstate(invalid="ignore"):
            r = (y - c) / (y + c)
        return np.where(np.isinf(y), 1.0, r)


@dataclass(frozen=True, eq=False)
class Equilibrium:
    """The model evaluated at delay prices p^f (an equilibrium when it satisfies (10)).

    Per link: ``delay`` p^f, ``loss`` p^r = m(p^f) (eq. 3), ``load`` y = R x, ``utilisation``
    y / c. Per group: ``rate`` (one flow's x_i), ``path_delay`` q^f (eq. 2), ``path_loss`` q^r
    (eq. 1, before capping at 1), ``rtt`` (the T_i used in eq. 4; the propagation RTT for Vegas).
    ``priced`` are the links with p^f > 0, ``saturated`` those with y = c (relative 1e-9).
    """

    network: Network = field(repr=False)
    delay: npt.NDArray[np.float64]
    loss: npt.NDArray[np.float64]
    rate: npt.NDArray[np.float64]
    path_delay: npt.NDArray[np.float64]
    path_loss: npt.NDArray[np.float64]
    rtt: npt.NDArray[np.float64]
    load: npt.NDArray[np.float64]
    priced: tuple[int, ...] = field(default=())

    @property
    def utilisation(self) -> npt.NDArray[np.float64]:
        return self.load / self.network.capacity

    @property
    def saturated(self) -> tuple[int, ...]:
        """Active constraint set: links with equality in (10)."""
        c = self.network.capacity
        return tuple(int(i) for i in np.flatnonzero(np.abs(self.load - c) <= SATURATION_RTOL * c))

    @property
    def feasible(self) -> bool:
        """Rx <= c (eq. 10, relative tolerance 1e-9) with finite rates."""
        c = self.network.capacity
        return bool(
            np.all(np.isfinite(self.load)) and np.all(self.load <= c * (1 + SATURATION_RTOL))
        )

    @property
    def group_rate(self) -> npt.NDArray[np.float64]:
        """Aggregate rate of each group (count * rate), pkts/s."""
        return self.network.counts * self.rate

    def throughput(self, protocol: Literal["reno", "vegas"], link: int | None = None) -> float:
        """Aggregate rate (pkts/s) of all Reno or all Vegas/FAST flows, optionally via a link."""
        if protocol not in ("reno", "vegas"):
            raise ValueError(f"protocol must be 'reno' or 'vegas', got {protocol!r}")
        mask = self.network.is_reno if protocol == "reno" else ~self.network.is_reno
        if link is not None:
            if not 0 <= int(link) < len(self.network.links):
                raise ValueError(f"link index {link!r} out of range")
            mask = mask & self.network.routing[int(link)].astype(bool)
        return float(np.sum(self.group_rate[mask]))


def _equilibrium(model: _Model, delay: npt.NDArray[np.float64]) -> Equilibrium:
    d = np.asarray(delay, dtype=float).reshape(model.L, 1)
    loss, qf, qr, t, x, y = model.state(d)
    return Equilibrium(
        network=model.net,
        delay=d[:, 0].copy(),
        loss=loss[:, 0],
        rate=x[:, 0],
        path_delay=qf[:, 0],
        path_loss=qr[:, 0],
        rtt=np.where(model.reno, t[:, 0], model.d),
        load=y[:, 0],
        priced=tuple(int(i) for i in np.flatnonzero(d[:, 0] > 0)),
    )


def equilibrium_at(network: Network, delay: npt.ArrayLike) -> Equilibrium:
    """Evaluate eqs (1)-(4), (7) and (17) at link queueing delays ``delay`` (p^f, s, length L)."""
    d = as_array(delay, "delay", allow_inf=True).ravel()
    if d.size != len(network.links):
        raise ValueError(f"delay needs {len(network.links)} entries (one per link), got {d.size}")
    if np.any(d < 0) or not np.all(np.isfinite(d)):
        raise ValueError(f"delay prices must be finite and >= 0, got {delay!r}")
    return _equilibrium(_Model(network), d)


@dataclass(frozen=True)
class EquilibriumResiduals:
    """Largest violation of each equilibrium equation (all relative, dimensionless).

    ``reno_eq4``: |q^r - 2/(2 + x^2 T^2)| / q^r; ``vegas_eq7``: |x q^f - alpha| / alpha;
    ``capacity_eq10``: max(0, (y - c)/c); ``slackness_eq10``: |y - c|/c over links with p^f > 0;
    ``price_map_eq3``: |p^r - m(p^f)|.
    """

    reno_eq4: float
    vegas_eq7: float
    capacity_eq10: float
    slackness_eq10: float
    price_map_eq3: float

    @property
    def max(self) -> float:
        return max(
            self.reno_eq4,
            self.vegas_eq7,
            self.capacity_eq10,
            self.slackness_eq10,
            self.price_map_eq3,
        )


def equilibrium_residuals(eq: Equilibrium) -> EquilibriumResiduals:
    """Check (1)-(4), (7), (10) and the price maps at ``eq`` (computed afresh from its fields)."""
    net = eq.network
    r = net.routing
    c = net.capacity
    reno = net.is_reno
    loss = np.array(
        [ln.price.loss(np.array([eq.delay[i]]), ln.capacity)[0] for i, ln in enumerate(net.links)]
    )
    qr = np.minimum(r.T @ eq.loss, 1.0)
    qf = r.T @ eq.delay
    t = net.propagation_rtt + (qf if net.reno_rtt_includes_queueing else 0.0)
    x = eq.rate
    e4 = np.abs(qr - 2.0 / (2.0 + (x * t) ** 2)) / qr
    alpha = net.alpha_packets
    e7 = np.abs(x * qf - alpha) / alpha
    y = r @ (net.counts * x)
    rel = (y - c) / c
    pos = eq.delay > 0
    return EquilibriumResiduals(
        reno_eq4=float(np.max(e4[reno], initial=0.0)),
        vegas_eq7=float(np.max(e7[~reno], initial=0.0)),
        capacity_eq10=float(max(np.max(rel), 0.0)),
        slackness_eq10=float(np.max(np.abs(rel[pos]), initial=0.0)),
        price_map_eq3=float(np.max(np.abs(eq.loss - loss))),
    )


# --------------------------------------------------------------------------------------------
# equilibrium finder
# --------------------------------------------------------------------------------------------


def _can_price(model: _Model, active: tuple[int, ...]) -> bool:
    """Necessary condition for finite rates and a root with y_l = c_l on every link of ``active``.

    Every group must cross a priced link (else x = alpha/0 or x(q = 0) is infinite), every Reno
    group a priced link that can mark, and every priced link must carry a flow.
    """
    s = np.zeros(model.L, dtype=bool)
    s[list(active)] = True
    can_mark = np.array([m.max_loss > 0 for m in model.maps])
    for g in range(len(model.n)):
        through = model.R[:, g]
        if not np.any(through & s):
            return False
        if model.reno[g] and not np.any(through & s & can_mark):
            return False
    return bool(np.all(model.R[list(active)].any(axis=1)))


def _elimination_link(model: _Model, active: tuple[int, ...]) -> int:
    """Link of ``active`` whose equation is solved for its own price (most Vegas groups)."""
    vegas = (model.R & ~model.reno[None, :]).sum(axis=1)
    return max(active, key=lambda l_: (vegas[l_], l_))


def _own_floor(model: _Model, delay: npt.NDArray[np.float64], e: int) -> npt.NDArray[np.float64]:
    """Smallest (virtual, possibly negative) price of link e keeping every rate through e finite.

    With the other prices fixed, a Vegas group through e has q^f = p_e + rest > 0 only for
    p_e > -rest (and a Reno group with queueing in T needs p_e > -(d + rest)). Letting p_e go
    below 0 down to this floor makes y_e(p_e) a continuous, non-increasing function that starts
    at +inf, so the root is unique and never clamped at p_e = 0; a root p_e <= 0 means that link e
    is not saturated at these prices (the solution belongs to another set of priced links).
    """
    d = delay.copy()
    d[e] = 0.0
    rest = model.Rf.T @ d  # (G, M)
    through = model.R[e]
    cand = [rest[through & ~model.reno]]
    if model.flag:
        cand.append(rest[through & model.reno] + model.d[through & model.reno, None])
    allc = np.concatenate(cand, axis=0)
    if allc.shape[0] == 0:
        return np.zeros(delay.shape[1])
    return -np.min(allc, axis=0)


def _solve_own_price(
    model: _Model, delay: npt.NDArray[np.float64], e: int, iters: int = 64
) -> npt.NDArray[np.float64]:
    """Vectorised bisection of y_e(p_e) = c_e with the other prices fixed (see :func:`_own_floor`).

    y_e is non-increasing in p_e, so the root is unique; it is clamped to [floor, hi_e].
    Modifies and returns ``delay`` (L, M).
    """
    a = _own_floor(model, delay, e)
    b = np.full(delay.shape[1], model.hi[e])
    floor = a.copy()
    delay[e] = a
    below = model.residual(delay)[e] <= 0  # unsaturated even at the floor price
    delay[e] = b
    above = model.residual(delay)[e] >= 0  # oversubscribed even at the largest price
    for _ in range(iters):
        mid = 0.5 * (a + b)
        delay[e] = mid
        pos = model.residual(delay)[e] > 0
        a = np.where(pos, mid, a)
        b = np.where(pos, b, mid)
    out = 0.5 * (a + b)
    out = np.where(below, floor, out)
    out = np.where(above, model.hi[e], out)
    delay[e] = out
    return delay


def _own_price_scalar(model: _Model, delay: npt.NDArray[np.float64], e: int) -> float:
    """Scalar version of :func:`_solve_own_price` refined with brentq (machine precision)."""
    col = delay.reshape(model.L, 1).copy()

    def f(v: float) -> float:
        col[e, 0] = v
        return float(model.residual(col)[e, 0])

    a, b = float(_own_floor(model, col, e)[0]), float(model.hi[e])
    if f(a) <= 0:
        return a
    if f(b) >= 0:
        return b
    return float(brentq(f, a, b, xtol=1e-300, rtol=4 * _EPS, maxiter=500))


def _grid(model: _Model, link: int, points: int) -> npt.NDArray[np.float64]:
    lo, hi = model.lo[link], model.hi[link]
    g = np.geomspace(lo, hi, points)
    extra = [p for p in model.maps[link].breakpoints(model.c[link]) if lo < p < hi]
    extra += [p * f for p in extra for f in (1 - 1e-6, 1 + 1e-6)]
    return np.unique(np.concatenate([g, extra]))


def _accept(model: _Model, active: tuple[int, ...], delay: npt.NDArray[np.float64]) -> bool:
    d = delay.reshape(model.L, 1)
    y = model.state(d)[-1][:, 0]
    for l_ in active:
        if not model.lo[l_] * (1 + 1e-9) < d[l_, 0] < model.hi[l_] * (1 - 1e-9):
            return False
        if not abs(y[l_] - model.c[l_]) <= 1e-10 * model.c[l_]:
            return False
    return True


def _dedupe(sols: list[npt.NDArray[np.float64]]) -> list[npt.NDArray[np.float64]]:
    out: list[npt.NDArray[np.float64]] = []
    for s in sols:
        if not any(np.all(np.abs(s - o) <= 1e-7 * np.maximum(np.abs(o), 1e-300)) for o in out):
            out.append(s)
    return out


def _polish(
    model: _Model, active: tuple[int, ...], e: int, start: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64] | None:
    """Refine y_S = c_S from ``start`` with scipy ``root`` (hybr, then lm).

    First on the reduced map of the free links' log prices (p_e solved exactly for each
    evaluation, so a start with p_e clamped near 0 is harmless), then on the full system.
    """
    free = [l_ for l_ in active if l_ != e]
    idx = list(active)
    base = np.zeros((model.L, 1))
    lo, hi = np.log(model.lo) - 5, np.log(model.hi) + 5

    def reduced(v: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        base[:, 0] = 0.0
        base[free, 0] = np.exp(np.clip(v, lo[free], hi[free]))
        base[e, 0] = _own_price_scalar(model, base[:, 0], e)
        return model.residual(base)[free, 0]

    def full(v: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        base[:, 0] = 0.0
        base[idx, 0] = np.exp(np.clip(v, lo[idx], hi[idx]))
        return model.residual(base)[idx, 0]

    for fun, coords in ((reduced, free), (full, idx)):
        for method in ("hybr", "lm"):
            opts = {"xtol": 1e-15} if method == "hybr" else {}
            v0 = np.log(np.maximum(start[coords], model.lo[coords]))
            sol = root(fun, v0, method=method, options=opts)
            fun(sol.x)  # leaves the solution (with p_e for the reduced map) in ``base``
            cand = base[:, 0].copy()
            if _accept(model, active, cand):
                return cand
    return None


def _solve_set(model: _Model, active: tuple[int, ...], resolution: int) -> list[Equilibrium]:
    if not _can_price(model, active):
        return []
    e = _elimination_link(model, active)
    free = [l_ for l_ in active if l_ != e]
    sols: list[npt.NDArray[np.float64]] = []
    if not free:
        d = np.zeros(model.L)
        d[e] = _own_price_scalar(model, d, e)
        if _accept(model, active, d):
            sols.append(d)
    elif len(free) == 1:
        a = free[0]
        grid = _grid(model, a, resolution)
        delay = np.zeros((model.L, grid.size))
        delay[a] = grid
        delay = _solve_own_price(model, delay, e)
        g = model.residual(delay)[a]
        work = np.zeros(model.L)

        def reduced(v: float) -> float:
            work[:] = 0.0
            work[a] = math.exp(v)
            work[e] = _own_price_scalar(model, work, e)
            return float(model.residual(work.reshape(-1, 1))[a, 0])

        for i in np.flatnonzero(g[:-1] * g[1:] <= 0):
            lo_v, hi_v = math.log(grid[i]), math.log(grid[i + 1])
            flo, fhi = reduced(lo_v), reduced(hi_v)
            if flo == 0:
                v = lo_v
            elif fhi == 0:
                v = hi_v
            elif flo * fhi > 0:
                continue
            else:
                v = float(brentq(reduced, lo_v, hi_v, xtol=1e-15, rtol=4 * _EPS, maxiter=300))
            reduced(v)
            if _accept(model, active, work):
                sols.append(work.copy())
                if (
                    len(sols) > 2 * MAX_SOLUTIONS_PER_SET
                    and len(_dedupe(sols)) > MAX_SOLUTIONS_PER_SET
                ):
                    break
    else:
        k = len(free)
        pts = int(min(resolution, max(8, round((1.2e4) ** (1.0 / k)))))
        grids = [_grid(model, l_, pts) for l_ in free]
        shape = tuple(g.size for g in grids)
        mesh = np.meshgrid(*grids, indexing="ij")
        delay = np.zeros((model.L, mesh[0].size))
        for l_, m in zip(free, mesh, strict=True):
            delay[l_] = m.ravel()
        delay = _solve_own_price(model, delay, e)
        res = model.residual(delay)
        mask = np.ones(tuple(s - 1 for s in shape), dtype=bool)
        for l_ in free:
            r = res[l_].reshape(shape)
            lo_r, hi_r = r.copy(), r.copy()
            for ax in range(k):
                sl0 = [slice(None)] * k
                sl1 = [slice(None)] * k
                sl0[ax] = slice(0, -1)
                sl1[ax] = slice(1, None)
                lo_r = np.minimum(lo_r[tuple(sl0)], lo_r[tuple(sl1)])
                hi_r = np.maximum(hi_r[tuple(sl0)], hi_r[tuple(sl1)])
            mask &= (lo_r <= 0) & (hi_r >= 0)
        # a cell whose corners all have a virtual own price p_e <= 0 (or p_e at its upper
        # bound) cannot hold a solution with 0 < p_e < hi_e
        own = delay[e].reshape(shape)
        real = (own > 0) & (own < model.hi[e])
        for ax in range(k):
            sl0 = [slice(None)] * k
            sl1 = [slice(None)] * k
            sl0[ax] = slice(0, -1)
            sl1[ax] = slice(1, None)
            real = real[tuple(sl0)] | real[tuple(sl1)]
        mask &= real
        labels, n_comp = label(mask, structure=np.ones((3,) * k))
        worst = np.max(np.abs(res[free]), axis=0).reshape(shape)
        for comp in range(1, n_comp + 1):
            cells = np.argwhere(labels == comp)
            # start from the corners of the component's cells, those with p_e > 0 and the
            # smallest residual of the free links first; stop at the first solution
            corners = {
                tuple(int(i) for i in c + o) for c in cells for o in product((0, 1), repeat=k)
            }
            order = sorted(corners, key=lambda ix: (bool(own[ix] <= 0), float(worst[ix])))
            for ix in order[:MAX_POLISH_STARTS]:
                sol = _polish(model, active, e, delay[:, np.ravel_multi_index(ix, shape)].copy())
                if sol is not None:
                    sols.append(sol)
                    break
    sols = _dedupe(sols)
    if len(sols) > MAX_SOLUTIONS_PER_SET:
        raise RuntimeError(
            f"{len(sols)} solutions with priced links {active}: the equilibria are not isolated "
            "(e.g. links with identical flows and capacities share one constraint)"
        )
    mask = np.isin(np.arange(model.L), active)
    return [_equilibrium(model, np.where(mask, s, 0.0)) for s in sols]


def _check_active(network: Network, links: Iterable[int]) -> tuple[int, ...]:
    try:
        act = tuple(sorted({int(i) for i in links}))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"links must be link indices, got {links!r}") from exc
    if not act:
        raise ValueError("the set of priced links must not be empty")
    if act[0] < 0 or act[-1] >= len(network.links):
        raise ValueError(f"link indices must lie in [0, {len(network.links) - 1}], got {act!r}")
    return act


def _check_resolution(resolution: int) -> int:
    if isinstance(resolution, bool) or not isinstance(resolution, numbers.Integral):
        raise ValueError(f"resolution must be an integer >= 16, got {resolution!r}")
    if resolution < 16:
        raise ValueError(f"resolution must be an integer >= 16, got {resolution!r}")
    return int(resolution)


def solve_active_set(
    network: Network, links: Iterable[int], *, resolution: int = DEFAULT_RESOLUTION
) -> list[Equilibrium]:
    """All solutions with p^f_l > 0 exactly on ``links`` and y_l = c_l there (eq. 10 with equality).

    The capacity constraints of the other links are *not* imposed: check ``Equilibrium.feasible``
    (that is how the paper's branches are followed beyond the point where they stop being
    equilibria, e.g. the "Vegas first" branch of Fig 9). Method: see :func:`find_equilibria`.
    """
    return _solve_set(_Model(network), _check_active(network, links), _check_resolution(resolution))


def find_equilibria(network: Network, *, resolution: int = DEFAULT_RESOLUTION) -> list[Equilibrium]:
    """Every equilibrium of ``network``: (1)-(4), (7), the price maps (3) and (10).

    Method (active-set enumeration): every subset S of links is a candidate set of links with a
    positive delay price (the others have p^f = 0 and must satisfy y_l <= c_l). For a given S,
    y_S(p_S) = c_S is solved as follows. Every rate is non-increasing in every link price, so for
    one link e of S (the one carrying most Vegas groups) the equation y_e = c_e has a unique root
    p_e for fixed other prices (bisection, then brentq). p_e may go below 0 down to the price at
    which a rate through e becomes infinite (a continuous "virtual" extension, see
    ``_own_floor``), so this elimination never clamps at p_e = 0 and cannot turn a solution of
    another set S' into a spurious root of the reduced map; roots with p_e <= 0 are discarded.
    This eliminates one dimension:

    * |S| = 1: the root is unique;
    * |S| = 2: the remaining 1-D function of p_a is scanned on ``resolution`` log-spaced points
      (plus the kinks of the price map) and every sign change is refined with brentq -- this
      finds all roots separated by more than one grid step (about 5% in price for 600 points);
    * |S| >= 3: the remaining (|S|-1)-D map is evaluated on a grid (about 1.2e4 points), cells
      where every component changes sign (and some corner has 0 < p_e) are grouped into
      connected components and each is refined with scipy ``root`` (hybr, then lm) on the
      reduced map, then on the full system, from up to ``MAX_POLISH_STARTS`` corners.

    Prices are searched in [1e-8 s_l, 1e4 s_l] with s_l a per-link reference delay (the largest of
    the price map's kinks and (sum of Vegas alpha + Reno rate-at-maximum-loss terms) / c_l).
    Solutions with |y_l - c_l| > 1e-10 c_l on S are rejected; duplicates are removed. Returns the
    feasible solutions (y <= c on the other links), ordered by active-set size, then links.
    Non-isolated equilibria (a continuum) raise RuntimeError.

    Note on Figure 1: where Prop 1's condition holds, the finder returns *three* equilibria: the
    paper's two (links {1, 3} and link {2} saturated) and a third with all three links saturated
    (see :func:`prop1_condition`), as the index theory of [Tang et al., 2005b] requires (the
    equilibria cannot all be locally stable).
    """
    res = _check_resolution(resolution)
    model = _Model(network)
    out: list[Equilibrium] = []
    for k in range(1, model.L + 1):
        for active in combinations(range(model.L), k):
            out.extend(eq for eq in _solve_set(model, active, res) if eq.feasible)
    return out


# --------------------------------------------------------------------------------------------
# Sec 3 -- Proposition 1 on the Figure 1 network
# --------------------------------------------------------------------------------------------


def fig1_network(
    price1: PriceMap,
    price2: PriceMap,
    *,
    c1: float,
    c2: float,
    delay1: float = 0.0,
    delay2: float = 0.0,
    vegas_per_path: int = 1,
    reno_flows: int = 1,
    alpha: float = 1.0,
    alpha_unit: AlphaUnit = "packets",
    vegas_rtt: float | None = None,
    reno_rtt: float | None = None,
    reno_rtt_includes_queueing: bool = True,
) -> Network:
    """The network of Figure 1 (Sec 3): links 1 and 3 identical (c1, m1), link 2 (c2, m2).

    Vegas/FAST path 1 = links {1, 2}, path 2 = links {2, 3}, each with ``vegas_per_path`` flows of
    parameter ``alpha``; ``reno_flows`` Reno flows on path 3 = links {1, 2, 3}. Link indices are
    0, 1, 2. ``delay1``/``delay2`` are one-way propagation delays; ``vegas_rtt``/``reno_rtt``
    override the derived propagation RTTs.
    """
    links = (
        Link(c1, price1, delay1, "link1"),
        Link(c2, price2, delay2, "link2"),
        Link(c1, price1, delay1, "link3"),
    )
    flows = (
        Flow("vegas", (0, 1), vegas_per_path, vegas_rtt, alpha, alpha_unit, "path1"),
        Flow("vegas", (1, 2), vegas_per_path, vegas_rtt, alpha, alpha_unit, "path2"),
        Flow("reno", (0, 1, 2), reno_flows, reno_rtt, name="path3"),
    )
    return Network(links, flows, reno_rtt_includes_queueing)


@dataclass(frozen=True)
class Prop1Check:
    """Condition 3 of Prop 1: ``lhs`` = 2 m1((U1)'(c2 - c1)) < ``middle`` = (U2)'(2c1 - c2) <
    ``rhs`` = m2((U1)'(c2 - c1)); condition 1: c1 < c2 < 2 c1. ``k1_max`` and ``k2_min`` are the
    slopes of the linear-map remark: k1 < k1_max and k2 > k2_min (k2_min = 2 k1_max).
    """

    lhs: float
    middle: float
    rhs: float
    capacities_ok: bool
    k1_max: float
    k2_min: float

    @property
    def holds(self) -> bool:
        return self.capacities_ok and self.lhs < self.middle < self.rhs


def prop1_condition(
    c1: float,
    c2: float,
    price1: PriceMap,
    price2: PriceMap,
    *,
    vegas_alpha: float,
    reno_flows: int,
    reno_rtt: float,
) -> Prop1Check:
    """Sufficient condition of Proposition 1 for two equilibria of the Figure 1 network.

    U^1 is the aggregate utility of the Vegas/FAST flows of one path with total parameter
    ``vegas_alpha`` (packets; (U1)'(X) = vegas_alpha / X), U^2 that of ``reno_flows`` Reno flows
    with constant RTT ``reno_rtt`` ((U2)'(X) = 2 / (2 + (X T / N)^2), eq. 6 at X/N). The prices
    m1, m2 are evaluated on links of capacity c1, c2. Proof typo corrected: "2 m_1^2" -> 2 m_1.

    Beyond the paper: when the condition holds (constant T), a *third* equilibrium with all three
    links saturated exists too. Its rates are fixed by (10): X_v = c2 - c1 per Vegas path and
    X_r = 2 c1 - c2 for Reno; its prices are p1 = p3 = a, p2 = P - a with P = (U1)'(c2 - c1) and
    h(a) := 2 m1(a) + m2(P - a) = (U2)'(2c1 - c2). Since h(0) = ``rhs`` > ``middle`` >
    ``lhs`` = h(P), a root 0 < a < P exists (for linear maps a = (k2 P - middle)/(k2 - 2 k1)).
    """
    cc1 = positive(c1, "c1")
    cc2 = positive(c2, "c2")
    a = positive(vegas_alpha, "vegas_alpha")
    n = _count(reno_flows, "reno_flows")
    t = positive(reno_rtt, "reno_rtt")
    ok = cc1 < cc2 < 2 * cc1
    if not ok:
        nan = float("nan")
        return Prop1Check(nan, nan, nan, False, nan, nan)
    u1 = a / (cc2 - cc1)
    mid = 2.0 / (2.0 + ((2 * cc1 - cc2) * t / n) ** 2)
    lhs = 2.0 * float(price1.loss(np.array([u1]), cc1)[0])
    rhs = float(price2.loss(np.array([u1]), cc2)[0])
    return Prop1Check(lhs, mid, rhs, ok, mid / (2 * u1), mid / u1)


# --------------------------------------------------------------------------------------------
# Sec 4 -- Propositions 2 and 3
# --------------------------------------------------------------------------------------------


def _sub_network(
    network: Network, reno: bool, capacity: npt.NDArray[np.float64], rtt: npt.NDArray[np.float64]
) -> tuple[Network, npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Single-protocol network with the given per-link capacities (links the protocol uses)."""
    groups = np.flatnonzero(network.is_reno == reno)
    if groups.size == 0:
        raise ValueError(f"the network has no {'Reno' if reno else 'Vegas/FAST'} flows")
    used = np.flatnonzero(network.routing[:, groups].any(axis=1))
    bad = [int(l_) for l_ in used if not capacity[l_] > 0]
    if bad:
        raise ValueError(f"effective capacity must be > 0 on links {bad} used by the protocol")
    index = {int(l_): i for i, l_ in enumerate(used)}
    price: PriceMap = LinearPrice(1.0) if reno else DropTailPrice()
    links = tuple(Link(float(capacity[l_]), price) for l_ in used)
    alpha = network.alpha_packets
    flows = []
    for g in groups:
        f = network.flows[g]
        route = tuple(index[i] for i in f.route)
        if reno:
            flows.append(Flow("reno", route, f.count, float(rtt[g])))
        else:
            flows.append(Flow("vegas", route, f.count, float(rtt[g]), float(alpha[g]), "packets"))
    return Network(links, tuple(flows), reno_rtt_includes_queueing=False), groups, used


def _unique(network: Network, what: str) -> Equilibrium:
    eqs = find_equilibria(network)
    if len(eqs) != 1:
        raise RuntimeError(f"{what}: expected a unique optimum, found {len(eqs)} solutions")
    return eqs[0]


def prop2_vegas_rates(network: Network, vegas_capacity: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Proposition 2, eq. (15): per-flow Vegas/FAST rates maximising sum alpha_i log x_i subject
    to R^f x <= c^f, with c^f (pkts/s per link, length L) e.g. the measured Vegas load per link.

    Solved as the unique equilibrium of a Vegas-only network with capacities c^f and delay-only
    prices (the single-protocol case of Sec 2.2). Returns one rate per Vegas group, in order.
    """
    cap = as_array(vegas_capacity, "vegas_capacity", allow_inf=True).ravel()
    if cap.size != len(network.links):
        raise ValueError(f"vegas_capacity needs {len(network.links)} entries, got {cap.size}")
    sub, _, _ = _sub_network(network, False, cap, network.propagation_rtt)
    return _unique(sub, "Prop 2 (Vegas)").rate


def prop2_reno_rates(
    network: Network, reno_capacity: npt.ArrayLike, rtt: npt.ArrayLike | None = None
) -> npt.NDArray[np.float64]:
    """Proposition 2: per-flow Reno rates maximising sum U^r_i(x_i) (eq. 6) s.t. R^r x <= c^r.

    ``reno_capacity`` is c - c^f per link; ``rtt`` the T_i of eq. (6) per group (length = number
    of groups, Vegas entries ignored; default: propagation RTTs). Returns one rate per Reno group.
    """
    cap = as_array(reno_capacity, "reno_capacity", allow_inf=True).ravel()
    if cap.size != len(network.links):
        raise ValueError(f"reno_capacity needs {len(network.links)} entries, got {cap.size}")
    t = network.propagation_rtt if rtt is None else as_array(rtt, "rtt", allow_inf=True).ravel()
    if t.size != len(network.flows):
        raise ValueError(f"rtt needs {len(network.flows)} entries (one per group), got {t.size}")
    sub, _, _ = _sub_network(network, True, cap, t)
    return _unique(sub, "Prop 2 (Reno)").rate


def prop3_alpha(network: Network, target_rates: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Proposition 3: Vegas/FAST parameters alpha*_i = x*_i sum_l R^f_li m_l^{-1}(p^r_l) (packets)
    that make the per-flow Vegas rates ``target_rates`` (one per Vegas group) an equilibrium.

    p^r are the multipliers of the Reno problem with capacities c - R^f x*. Requires a constant
    Reno RTT (``reno_rtt_includes_queueing=False``), as in eqs (4)-(6). m^{-1}(0) is taken as 0.
    """
    if network.reno_rtt_includes_queueing:
        raise ValueError("Prop 3 needs a constant Reno RTT: set reno_rtt_includes_queueing=False")
    vegas = np.flatnonzero(~network.is_reno)
    x = as_array(target_rates, "target_rates", allow_inf=True).ravel()
    if x.size != vegas.size:
        raise ValueError(f"target_rates needs {vegas.size} entries (one per Vegas group)")
    if np.any(x <= 0) or not np.all(np.isfinite(x)):
        raise ValueError(f"target_rates must be finite and > 0, got {target_rates!r}")
    r = network.routing
    cap = network.capacity - r[:, vegas] @ (network.counts[vegas] * x)
    sub, _, used = _sub_network(network, True, cap, network.propagation_rtt)
    pr = np.zeros(len(network.links))
    pr[used] = _unique(sub, "Prop 3 (Reno problem)").delay  # LinearPrice(1): price = loss
    delay = np.array(
        [ln.price.inverse(float(pr[i]), ln.capacity) for i, ln in enumerate(network.links)]
    )
    alpha = x * (r[:, vegas].T @ delay)
    if np.any(alpha <= 0):
        raise ValueError("target not attainable: a Vegas path would have zero queueing delay")
    return alpha


# --------------------------------------------------------------------------------------------
# Sec 6.1 -- Figures 9 and 10 (Experiments 3 and 4, Figure 1 network with RED)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fig1Setup:
    """Sec 6.1 network (Figure 1 with RED), Experiments 3-5; defaults are the STATED values.

    Links 1 and 3: ``c1_mbps`` Mbps, one-way ``delay1`` s, RED (b1_min, b1_max, K1); link 2:
    ``c2_mbps``, ``delay2``, RED (b2_min, b2_max, K2). ``vegas_per_path`` Vegas flows on each of
    paths 1 and 2 with parameter ``alpha`` (``alpha_unit``: "per_second" = the text's reading,
    alpha * d = 5.5 packets; "packets" = 50 packets); ``reno_flows`` Reno flows on path 3.
    """

    c1_mbps: float = 100.0
    c2_mbps: float = 150.0
    delay1: float = 0.050
    delay2: float = 0.005
    b1_min: float = 0.0
    b1_max: float = 1000.0
    b2_min: float = 100.0
    b2_max: float = 1500.0
    vegas_per_path: int = 10
    reno_flows: int = 20
    alpha: float = 50.0
    alpha_unit: AlphaUnit = "per_second"
    reno_rtt_includes_queueing: bool = True
    packet_bytes: float = PACKET_BYTES

    def network(self, k1: float, k2: float) -> Network:
        """The Figure 1 network with RED slopes K1 (links 1, 3) and K2 (link 2)."""
        return fig1_network(
            RedPrice(self.b1_min, self.b1_max, k1),
            RedPrice(self.b2_min, self.b2_max, k2),
            c1=float(mbps_to_pkts(self.c1_mbps, self.packet_bytes)),
            c2=float(mbps_to_pkts(self.c2_mbps, self.packet_bytes)),
            delay1=self.delay1,
            delay2=self.delay2,
            vegas_per_path=self.vegas_per_path,
            reno_flows=self.reno_flows,
            alpha=self.alpha,
            alpha_unit=self.alpha_unit,
            reno_rtt_includes_queueing=self.reno_rtt_includes_queueing,
        )


#: Active sets of the two branches of Figure 1: Reno first (links 1, 3) and Vegas first (link 2).
FIG1_BRANCHES: dict[str, tuple[int, ...]] = {"reno_first": (0, 2), "vegas_first": (1,)}


@dataclass(frozen=True)
class BranchCurve:
    """One branch of Fig 9/10 along the swept parameter (NaN where the branch has no solution).

    ``reno_mbps``: aggregate Reno throughput; ``vegas_mbps``: (n, 2) aggregate Vegas throughput
    of paths 1 and 2; ``utilisation`` and ``delay``: (n, 3) per link; ``exists``: a solution with
    the branch's active set was found; ``feasible``: it satisfies Rx <= c (an equilibrium);
    ``n_solutions``: number of solutions with that active set (the first one is reported).
    """

    reno_mbps: npt.NDArray[np.float64]
    vegas_mbps: npt.NDArray[np.float64]
    utilisation: npt.NDArray[np.float64]
    delay: npt.NDArray[np.float64]
    exists: npt.NDArray[np.bool_]
    feasible: npt.NDArray[np.bool_]
    n_solutions: npt.NDArray[np.int_]


@dataclass(frozen=True)
class Fig1Sweep:
    """Theory curves of Fig 9 (``parameter`` "k2") or Fig 10 ("k1"): both branches."""

    parameter: str
    values: npt.NDArray[np.float64]
    reno_first: BranchCurve
    vegas_first: BranchCurve


def _branch_curve(nets: Sequence[Network], active: tuple[int, ...], pb: float) -> BranchCurve:
    n = len(nets)
    reno = np.full(n, np.nan)
    vegas = np.full((n, 2), np.nan)
    util = np.full((n, 3), np.nan)
    delay = np.full((n, 3), np.nan)
    exists = np.zeros(n, dtype=bool)
    feas = np.zeros(n, dtype=bool)
    count = np.zeros(n, dtype=int)
    for i, net in enumerate(nets):
        sols = solve_active_set(net, active)
        count[i] = len(sols)
        if not sols:
            continue
        eq = sols[0]
        exists[i] = True
        feas[i] = eq.feasible
        reno[i] = float(pkts_to_mbps(eq.throughput("reno"), pb))
        vegas[i] = pkts_to_mbps(eq.group_rate[:2], pb)
        util[i] = eq.utilisation
        delay[i] = eq.delay
    return BranchCurve(reno, vegas, util, delay, exists, feas, count)


def _fig1_sweep(parameter: str, values: npt.ArrayLike, nets: list[Network], pb: float) -> Fig1Sweep:
    v = as_array(values, parameter, allow_inf=True).ravel()
    return Fig1Sweep(
        parameter,
        v,
        _branch_curve(nets, FIG1_BRANCHES["reno_first"], pb),
        _branch_curve(nets, FIG1_BRANCHES["vegas_first"], pb),
    )


def fig9_curves(
    k2_values: npt.ArrayLike, *, k1: float = 10000.0, setup: Fig1Setup | None = None
) -> Fig1Sweep:
    """Figure 9 (Experiment 3): aggregate Reno throughput and link-1 utilisation vs K2.

    Reno first = equilibrium with links 1 and 3 saturated (eqs 11-12 generalised to groups),
    Vegas first = link 2 saturated (eqs 13-14). K1 = 10000 (STATED). Use
    ``.reno_first.utilisation[:, 0]`` for the link-1 curve.
    """
    s = setup or Fig1Setup()
    ks = as_array(k2_values, "k2_values", allow_inf=True).ravel()
    return _fig1_sweep("k2", ks, [s.network(k1, float(k)) for k in ks], s.packet_bytes)


def fig10_curves(
    k1_values: npt.ArrayLike, *, k2: float = 100.0, setup: Fig1Setup | None = None
) -> Fig1Sweep:
    """Figure 10 (Experiment 4): aggregate Reno throughput and link-2 utilisation vs K1 (links 1
    and 3 together), K2 = 100 (STATED). Use ``.reno_first.utilisation[:, 1]`` for link 2."""
    s = setup or Fig1Setup()
    ks = as_array(k1_values, "k1_values", allow_inf=True).ravel()
    return _fig1_sweep("k1", ks, [s.network(float(k), k2) for k in ks], s.packet_bytes)


# --------------------------------------------------------------------------------------------
# Sec 6.2 -- Figures 13 and 14 (Experiment 6, Figure 12 topology)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fig12Setup:
    """Figure 12 network of Experiment 6 (Sec 6.2).

    STATED: capacities 3000, 4000, 2000 pkts/s; every link 60 ms round-trip propagation delay;
    RED (b_min, b_max, K) = (20, 220, 20) on all links; 5 flows per path; alpha1 = 1.5 alpha2.
    ASSUMED (Figure 12 is not in the transcription, catalog T11): chain link1-link2-link3 with
    Vegas flow1 on {1, 2}, flow2 on {2, 3}, flow3 on {2}, Reno on {1, 2, 3} (``layout``
    "primary"), or flow3 on {1, 2, 3} and Reno on {2} ("alternative"); alpha in packets.
    """

    capacities: tuple[float, float, float] = (3000.0, 4000.0, 2000.0)
    link_rtt: float = 0.060
    b_min: float = 20.0
    b_max: float = 220.0
    k: float = 20.0
    flows_per_path: int = 5
    alpha_ratio: float = 1.5
    layout: Literal["primary", "alternative"] = "primary"
    alpha_unit: AlphaUnit = "packets"
    reno_rtt_includes_queueing: bool = True

    def network(self, alpha2: float) -> Network:
        """Network for flow3 parameter ``alpha2`` (flows 1 and 2: alpha_ratio * alpha2)."""
        if self.layout not in ("primary", "alternative"):
            raise ValueError(f"layout must be 'primary' or 'alternative', got {self.layout!r}")
        a2 = positive(alpha2, "alpha2")
        a1 = positive(self.alpha_ratio, "alpha_ratio") * a2
        price = RedPrice(self.b_min, self.b_max, self.k)
        one_way = positive(self.link_rtt, "link_rtt") / 2.0
        links = tuple(
            Link(c, price, one_way, f"link{i + 1}") for i, c in enumerate(self.capacities)
        )
        n = self.flows_per_path
        u = self.alpha_unit
        r3, rr = ((1,), (0, 1, 2)) if self.layout == "primary" else ((0, 1, 2), (1,))
        flows = (
            Flow("vegas", (0, 1), n, None, a1, u, "flow1"),
            Flow("vegas", (1, 2), n, None, a1, u, "flow2"),
            Flow("vegas", r3, n, None, a2, u, "flow3"),
            Flow("reno", rr, n, name="reno"),
        )
        return Network(links, flows, self.reno_rtt_includes_queueing)


@dataclass(frozen=True)
class Fig13Curves:
    """Figure 13: aggregate rate (pkts/s) of Vegas groups flow1..flow3 vs alpha2.

    ``model``: the full equilibrium; ``prop2``: Prop 2's weighted proportionally fair allocation
    with the model's per-link Vegas load as capacity (equal to ``model`` by Prop 2);
    ``n_equilibria``: equilibria found (the first is reported; NaN if none).
    """

    alpha2: npt.NDArray[np.float64]
    model: npt.NDArray[np.float64]
    prop2: npt.NDArray[np.float64]
    n_equilibria: npt.NDArray[np.int_]


@dataclass(frozen=True)
class Fig14Curves:
    """Figure 14: aggregate Vegas (15 flows) and Reno (5 flows) throughput at link 2 (pkts/s)."""

    alpha2: npt.NDArray[np.float64]
    vegas_link2: npt.NDArray[np.float64]
    reno_link2: npt.NDArray[np.float64]
    n_equilibria: npt.NDArray[np.int_]


def _fig12_equilibria(
    alpha2_values: npt.ArrayLike, setup: Fig12Setup | None
) -> tuple[npt.NDArray[np.float64], list[Network], list[list[Equilibrium]]]:
    s = setup or Fig12Setup()
    a2 = as_array(alpha2_values, "alpha2_values", allow_inf=True).ravel()
    nets = [s.network(float(a)) for a in a2]
    return a2, nets, [find_equilibria(n) for n in nets]


def fig13_curves(alpha2_values: npt.ArrayLike, *, setup: Fig12Setup | None = None) -> Fig13Curves:
    """Figure 13 theory (Prop 2): rates of the three Vegas groups as alpha2 varies."""
    a2, nets, eqs = _fig12_equilibria(alpha2_values, setup)
    model = np.full((a2.size, 3), np.nan)
    prop2 = np.full((a2.size, 3), np.nan)
    count = np.array([len(e) for e in eqs], dtype=int)
    for i, (net, sols) in enumerate(zip(nets, eqs, strict=True)):
        if not sols:
            continue
        eq = sols[0]
        vegas = ~net.is_reno
        model[i] = eq.group_rate[vegas]
        cf = net.routing[:, vegas] @ eq.group_rate[vegas]
        prop2[i] = net.counts[vegas] * prop2_vegas_rates(net, cf)
    return Fig13Curves(a2, model, prop2, count)


def fig14_curves(alpha2_values: npt.ArrayLike, *, setup: Fig12Setup | None = None) -> Fig14Curves:
    """Figure 14 theory (Prop 3): Vegas and Reno aggregate throughput at link 2 vs alpha2."""
    a2, _, eqs = _fig12_equilibria(alpha2_values, setup)
    vegas = np.full(a2.size, np.nan)
    reno = np.full(a2.size, np.nan)
    for i, sols in enumerate(eqs):
        if sols:
            vegas[i] = sols[0].throughput("vegas", link=1)
            reno[i] = sols[0].throughput("reno", link=1)
    return Fig14Curves(a2, vegas, reno, np.array([len(e) for e in eqs], dtype=int))
