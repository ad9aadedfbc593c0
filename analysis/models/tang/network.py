"""The network model of Tang, Wang, Hegde, Low, "Equilibrium and Fairness of Networks Shared by
TCP Reno and Vegas/FAST" (2005), Sec 2.

Everything here is a pure function of its arguments (numpy only). References are to the
paper's sections and numbered equations:

* Sec 2 -- the model: end-to-end prices (1)-(2), price mapping (3), Reno equilibrium (4) with
  utility (5)-(6), Vegas/FAST equilibrium (7) with utility (8)-(9), capacity constraints and
  complementary slackness (10). :class:`Network`, :func:`equilibrium_at`,
  :func:`equilibrium_residuals`.
* Sec 6 -- RED marking probability (16) and the RED price mapping (17): :class:`RedPrice`.
* Remark after Prop 1 (Sec 3): the linear map :class:`LinearPrice`.

Units: capacities and rates in packets/s, queueing delays ("delay prices" p^f) and round-trip
times in seconds, RED thresholds b in packets, loss/marking probabilities ("loss prices" p^r)
dimensionless, Vegas/FAST alpha in packets (x = alpha/q). Flows that share a path and a
protocol form a *group* (:class:`Flow` with ``count``); all flows of a group have the same
equilibrium rate, so aggregating them is exact.

Vegas alpha unit: Sec 6.1 says "alpha d is the number of packets the flow maintains along its
path ... every flow tries to put 5.5 packets along its path as we set alpha = 50", i.e. alpha
in 1/s times the propagation RTT d. ``Flow(alpha_unit="per_second")`` takes that reading
(alpha_packets = alpha * d, reading I); ``alpha_unit="packets"`` takes alpha as the packets of
eq. (7) directly (reading II).

Reno RTT: eq. (4) assumes a constant T_i; footnote 1 says T_i should include the equilibrium
queueing delay for a more accurate prediction. ``Network.reno_rtt_includes_queueing`` selects
T_i = d_i + q^f_i (True) or T_i = d_i (False), with d_i the propagation RTT.

Corrections and readings of the printed paper:

* Sec 6.1 says the predictions use "the price mapping function 16 for RED"; the price mapping is
  eq. (17) (eq. (16) is the marking probability as a function of the queue length).
* Remark after Prop 1: the linear map m_l(p) = k_l p is only defined on [0, 1/k_l]; it is
  extended by m_l = 1 above (a loss probability cannot exceed 1).
* Eq. (1) adds link loss probabilities; a Reno path with a sum above 1 is given q = 1 (rate 0).
* RED (17) saturates at 1/K, so assumption A1's m_l(inf) = 1 does not hold for RED; the
  equilibria are nevertheless well defined (a link above b_max keeps marking with 1/K).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import numpy.typing as npt

from analysis.models.checks import as_array, as_output, finite, nonneg, positive

__all__ = [
    "PACKET_BYTES",
    "SATURATION_RTOL",
    "AlphaUnit",
    "DropTailPrice",
    "Equilibrium",
    "EquilibriumResiduals",
    "Flow",
    "LinearPrice",
    "Link",
    "Network",
    "PriceMap",
    "Protocol",
    "RedPrice",
    "equilibrium_at",
    "equilibrium_residuals",
    "mbps_to_pkts",
    "pkts_to_mbps",
    "red_marking_probability",
    "red_price",
    "reno_loss_probability",
    "reno_marginal_utility",
    "reno_rate",
    "reno_utility",
    "vegas_marginal_utility",
    "vegas_rate",
    "vegas_utility",
]

FloatOrArray = float | npt.NDArray[np.float64]
Protocol = Literal["reno", "vegas", "fast"]
AlphaUnit = Literal["packets", "per_second"]

_PROTOCOLS: tuple[str, ...] = ("reno", "vegas", "fast")
_ALPHA_UNITS: tuple[str, ...] = ("packets", "per_second")

#: Packet size (bytes) of the paper's unit conversions ("100 Mbps = 8.33 pkts/ms", Sec 5.1).
PACKET_BYTES: float = 1500.0

#: Relative tolerance on |y_l - c_l| / c_l for a link to count as saturated (eq. 10).
SATURATION_RTOL: float = 1e-9

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
