"""The propositions and figures of Tang, Wang, Hegde, Low (2005) on the model
(:mod:`analysis.models.tang.network`) and its solver (:mod:`analysis.models.tang.solver`).

* Sec 3 -- the three-link network of Figure 1 (:func:`fig1_network`) and Proposition 1
  (:func:`prop1_condition`).
* Sec 4 -- Proposition 2 (intra-protocol fairness: :func:`prop2_vegas_rates`,
  :func:`prop2_reno_rates`) and Proposition 3 (inter-protocol fairness: :func:`prop3_alpha`).
* Sec 6.1 -- theoretical curves of Figures 9 and 10 (:func:`fig9_curves`, :func:`fig10_curves`,
  network :class:`Fig1Setup`); Sec 6.2 -- Figures 13 and 14 on the Figure 12 topology
  (:func:`fig13_curves`, :func:`fig14_curves`, network :class:`Fig12Setup`).

Correction of the printed paper: the proof of Prop 1 states its first claim with
"2 m_1^2((U^1)'(c_2 - c_1))"; the condition proved (and stated in Prop 1) is
2 m_1((U^1)'(c_2 - c_1)).

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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from analysis.models.checks import as_array, positive
from analysis.models.tang.network import (
    PACKET_BYTES,
    AlphaUnit,
    DropTailPrice,
    Equilibrium,
    Flow,
    LinearPrice,
    Link,
    Network,
    PriceMap,
    RedPrice,
    _count,
    mbps_to_pkts,
    pkts_to_mbps,
)
from analysis.models.tang.solver import find_equilibria, solve_active_set

__all__ = [
    "FIG1_BRANCHES",
    "BranchCurve",
    "Fig12Setup",
    "Fig13Curves",
    "Fig14Curves",
    "Fig1Setup",
    "Fig1Sweep",
    "Prop1Check",
    "fig10_curves",
    "fig13_curves",
    "fig14_curves",
    "fig1_network",
    "fig9_curves",
    "prop1_condition",
    "prop2_reno_rates",
    "prop2_vegas_rates",
    "prop3_alpha",
]

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
    :func:`~analysis.models.tang.solver.find_equilibria` finds all three, as the index theory of
    [Tang et al., 2005b] requires (the equilibria cannot all be locally stable).
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
    ASSUMED (Figure 12 itself is not in our copy of the paper): chain link1-link2-link3 with
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
