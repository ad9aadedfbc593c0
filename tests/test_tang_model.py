"""Unit tests for analysis.models.tang (Tang, Wang, Hegde, Low 2005: Reno and Vegas/FAST).

Every expected value is derived by hand from the paper's equations (see the docstrings and
comments); no number is copied from config/originals/tang.yaml.
Networks whose equilibria are not closed-form are *reverse-constructed*: the prices are chosen
first and the capacities and price-map slopes derived from them, so the equilibrium is known.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.optimize import minimize

from analysis.models.tang.network import (
    DropTailPrice,
    Equilibrium,
    Flow,
    LinearPrice,
    Link,
    Network,
    RedPrice,
    equilibrium_at,
    equilibrium_residuals,
    mbps_to_pkts,
    pkts_to_mbps,
    red_marking_probability,
    red_price,
    reno_loss_probability,
    reno_marginal_utility,
    reno_rate,
    reno_utility,
    vegas_marginal_utility,
    vegas_rate,
    vegas_utility,
)
from analysis.models.tang.recipes import (
    Fig1Setup,
    Fig12Setup,
    fig1_network,
    fig9_curves,
    fig10_curves,
    fig13_curves,
    fig14_curves,
    prop1_condition,
    prop2_reno_rates,
    prop2_vegas_rates,
    prop3_alpha,
)
from analysis.models.tang.solver import find_equilibria, solve_active_set

# ------------------------------------------------------------------------------------------
# helpers: an independent evaluation of the equilibrium equations
# ------------------------------------------------------------------------------------------


def _m(link: Link, pf: float) -> float:
    """Price maps written out again: eq. (17) for RED, k p (<= 1) linear, 0 for DropTail."""
    p = link.price
    if isinstance(p, RedPrice):
        b = pf * link.capacity
        if b <= p.b_min:
            return 0.0
        if b >= p.b_max:
            return 1.0 / p.k
        return (b - p.b_min) / (p.b_max - p.b_min) / p.k
    if isinstance(p, LinearPrice):
        return min(p.k * pf, 1.0)
    return 0.0


def _max_violation(eq: Equilibrium) -> float:
    """Largest relative violation of (1)-(4), (7), (10), (17), from eq's rates and delays."""
    net = eq.network
    worst = 0.0
    loss = [_m(ln, float(eq.delay[i])) for i, ln in enumerate(net.links)]
    load = [0.0] * len(net.links)
    for g, f in enumerate(net.flows):
        x = float(eq.rate[g])
        qf = sum(float(eq.delay[i]) for i in f.route)  # eq. (2)
        d = f.rtt if f.rtt is not None else 2 * sum(net.links[i].delay for i in f.route)
        if f.protocol == "reno":
            qr = min(sum(loss[i] for i in f.route), 1.0)  # eq. (1)
            t = d + (qf if net.reno_rtt_includes_queueing else 0.0)
            worst = max(worst, abs(qr - 2 / (2 + (x * t) ** 2)) / qr)  # eq. (4)
        else:
            alpha = f.alpha * (d if f.alpha_unit == "per_second" else 1.0)
            worst = max(worst, abs(x * qf - alpha) / alpha)  # eq. (7)
        for i in f.route:
            load[i] += f.count * x
    for i, ln in enumerate(net.links):
        rel = (load[i] - ln.capacity) / ln.capacity
        worst = max(worst, rel)  # Rx <= c
        if eq.delay[i] > 0:
            worst = max(worst, abs(rel))  # P (Rx - c) = 0
        worst = max(worst, abs(eq.loss[i] - loss[i]))  # eq. (3)
    return worst


def _reno(q: float, t: float) -> float:
    """Eq. (4) solved for x."""
    return math.sqrt(2 * (1 - q) / q) / t


# ------------------------------------------------------------------------------------------
# input validation
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda: Link(-100.0, DropTailPrice()), r"^capacity must be > 0"),
        (lambda: Link(0.0, DropTailPrice()), r"^capacity must be > 0"),
        (lambda: Link(100.0, DropTailPrice(), delay=-0.1), r"^delay must be >= 0"),
        (lambda: Link(100.0, "red"), r"^price must be a RedPrice"),
        (lambda: Flow("cubic", (0,)), r"^protocol must be one of"),
        (lambda: Flow("vegas", (0,), alpha=0.0), r"^alpha must be > 0"),
        (lambda: Flow("fast", (0,), alpha=-5.0), r"^alpha must be > 0"),
        (lambda: Flow("vegas", (0,)), r"needs alpha > 0"),
        (lambda: Flow("reno", (0,), alpha=1.0), r"must not set it"),
        (lambda: Flow("vegas", (0,), alpha=1.0, alpha_unit="bytes"), r"^alpha_unit"),
        (lambda: Flow("reno", ()), r"at least one link"),
        (lambda: Flow("reno", (0, 0)), r"must not repeat"),
        (lambda: Flow("reno", (0,), count=0), r"^count must be an integer >= 1"),
        (lambda: Flow("reno", (0,), rtt=0.0), r"^rtt must be > 0"),
        (lambda: RedPrice(100, 100, 10), r"b_min < b_max"),
        (lambda: RedPrice(200, 100, 10), r"b_min < b_max"),
        (lambda: RedPrice(-1, 100, 10), r"^b_min must be >= 0"),
        (lambda: RedPrice(0, 100, 0.5), r"^K \(RED slope"),
        (lambda: LinearPrice(0.0), r"must be > 0"),
        (lambda: red_price(0.01, -5.0, 0, 100, 10), r"^capacity must be > 0"),
        (lambda: red_marking_probability(10, 50, 20, 10), r"b_min < b_max"),
        (lambda: vegas_rate(0.0, 0.1), r"^alpha must be > 0"),
        (lambda: reno_rate(0.01, -1.0), r"^rtt must be > 0"),
    ],
)
def test_bad_input_raises(make, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        make()


def test_bad_network_raises() -> None:
    link = Link(100.0, RedPrice(0, 50, 10))
    with pytest.raises(ValueError, match=r"uses link 1 but the network has 1 links"):
        Network((link,), (Flow("reno", (1,), rtt=0.1),))
    with pytest.raises(ValueError, match=r"zero propagation RTT"):
        Network((link,), (Flow("reno", (0,)),))  # link delay 0 and no rtt
    with pytest.raises(ValueError, match=r"at least one flow"):
        Network((link,), ())
    net = Network((link,), (Flow("reno", (0,), rtt=0.1),))
    with pytest.raises(ValueError, match=r"^resolution"):
        find_equilibria(net, resolution=3)
    with pytest.raises(ValueError, match=r"link indices must lie in"):
        solve_active_set(net, [2])
    with pytest.raises(ValueError, match=r"one per link"):
        equilibrium_at(net, [0.1, 0.2])
    with pytest.raises(ValueError, match=r"Prop 3 needs a constant Reno RTT"):
        prop3_alpha(Fig12Setup().network(4.0), [1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match=r"^layout"):
        Fig12Setup(layout="ring").network(4.0)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------
# per-flow relations, RED mapping, units
# ------------------------------------------------------------------------------------------


def test_units_and_per_flow_relations() -> None:
    # Sec 5.1: 100 Mbps = 8.33 pkts/ms with 1500-byte packets; 150 Mbps = 12.5 pkts/ms
    assert mbps_to_pkts(100.0) == pytest.approx(1e8 / 12000, rel=1e-15)
    assert mbps_to_pkts(150.0) == pytest.approx(12500.0, rel=1e-15)
    assert pkts_to_mbps(12500.0) == pytest.approx(150.0, rel=1e-15)
    # eq (4): x = 200 pkts/s, T = 0.1 s -> xT = 20, q = 2/402; and back
    assert reno_loss_probability(200.0, 0.1) == pytest.approx(2 / 402, rel=1e-14)
    assert reno_rate(2 / 402, 0.1) == pytest.approx(200.0, rel=1e-12)
    assert reno_rate(0.0, 0.1) == math.inf
    assert reno_rate(1.5, 0.1) == 0.0  # additive eq (1) above 1
    # eq (6): U(x) = sqrt2/T atan(xT/sqrt2); U' = eq (4) (finite difference)
    h = 1e-3
    du = (reno_utility(200.0 + h, 0.1) - reno_utility(200.0 - h, 0.1)) / (2 * h)
    assert du == pytest.approx(reno_marginal_utility(200.0, 0.1), rel=1e-8)
    # eqs (7), (9): x = alpha/q; U = alpha log x, U' = alpha/x
    assert vegas_rate(5.5, 0.011) == pytest.approx(500.0, rel=1e-14)
    assert vegas_utility(math.e, 3.0) == pytest.approx(3.0, rel=1e-15)
    assert vegas_marginal_utility(500.0, 5.5) == pytest.approx(0.011, rel=1e-15)


def test_red_eq16_eq17() -> None:
    # (b_min, b_max, K) = (100, 1500, 10): b = 800 -> (700/1400)/10 = 0.05; flat 0 / 0.1 outside
    p = red_marking_probability([50.0, 100.0, 800.0, 1500.0, 4000.0], 100, 1500, 10)
    assert np.allclose(p, [0.0, 0.0, 0.05, 0.1, 0.1], rtol=0, atol=1e-15)
    # eq (17) on a 12500 pkts/s link: delay 0.064 s is a queue of 800 packets
    assert red_price(0.064, 12500.0, 100, 1500, 10) == pytest.approx(0.05, rel=1e-13)
    red = RedPrice(100, 1500, 10)
    assert red.inverse(0.05, 12500.0) == pytest.approx(0.064, rel=1e-13)
    assert red.breakpoints(12500.0) == pytest.approx((0.008, 0.12))
    with pytest.raises(ValueError, match=r"exceeds the RED maximum"):
        red.inverse(0.2, 12500.0)


# ------------------------------------------------------------------------------------------
# single link
# ------------------------------------------------------------------------------------------


def test_single_link_reno_closed_form() -> None:
    """N Reno flows on one RED link, constant T.

    The Reno rate is infinite at zero loss, so the link is saturated (10): x = c/N. Eq. (4) gives
    the loss q = 2 / (2 + (cT/N)^2); if q < 1/K the middle branch of (17) inverts to
    p^f = (b_min + K q (b_max - b_min)) / c (queue b = c p^f). With c = 1000, N = 2, T = 0.1,
    (b_min, b_max, K) = (10, 110, 10): x = 500, q = 2/2502, p^f = (10 + 1000 q)/1000.
    """
    red = RedPrice(10, 110, 10)
    net = Network(
        (Link(1000.0, red),), (Flow("reno", (0,), 2, 0.1),), reno_rtt_includes_queueing=False
    )
    eqs = find_equilibria(net)
    assert len(eqs) == 1
    q = 2 / 2502
    assert eqs[0].rate[0] == pytest.approx(500.0, rel=1e-10)
    assert eqs[0].loss[0] == pytest.approx(q, rel=1e-10)
    assert eqs[0].delay[0] == pytest.approx((10 + 10 * q * 100) / 1000, rel=1e-10)
    assert eqs[0].saturated == (0,)


def test_single_link_reno_rtt_with_queueing_above_b_max() -> None:
    """T = d + p^f (footnote 1) and a queue above b_max: loss 1/K, x = c/N, so by (4)
    d + p^f = sqrt(2 (1 - 1/K) K) N / c, i.e. p^f = N sqrt(2 (K - 1)) / c - d.
    c = 1000, N = 2, K = 10, d = 1 ms: p^f = 2 sqrt(18)/1000 - 0.001 (7.49 packets > b_max = 5)."""
    net = Network(
        (Link(1000.0, RedPrice(0, 5, 10)),),
        (Flow("reno", (0,), 2, 0.001),),
        reno_rtt_includes_queueing=True,
    )
    (eq,) = find_equilibria(net)
    assert eq.delay[0] == pytest.approx(2 * math.sqrt(18) / 1000 - 0.001, rel=1e-10)
    assert eq.rate[0] == pytest.approx(500.0, rel=1e-10)
    assert eq.loss[0] == pytest.approx(0.1, rel=1e-14)
    assert eq.rtt[0] == pytest.approx(2 * math.sqrt(18) / 1000, rel=1e-10)


def test_single_link_reno_without_equilibrium() -> None:
    # c T / N = 0.5 -> eq (4) needs q = 2/2.25 = 0.89 > 1/K = 0.1: RED cannot mark enough and,
    # with constant T, nothing else slows Reno down -> no equilibrium
    net = Network(
        (Link(1000.0, RedPrice(0, 50, 10)),),
        (Flow("reno", (0,), 2, 0.001),),
        reno_rtt_includes_queueing=False,
    )
    assert find_equilibria(net) == []


@pytest.mark.parametrize("price", [DropTailPrice(), RedPrice(0, 5, 10)])
def test_single_link_vegas_closed_form(price) -> None:
    # x_i = alpha/p, sum = c -> p = N alpha / c: c = 1200, 3 flows with alpha = 2 -> 0.005 s, 400
    net = Network((Link(1200.0, price),), (Flow("vegas", (0,), 3, 0.1, 2.0),))
    (eq,) = find_equilibria(net)
    assert eq.delay[0] == pytest.approx(3 * 2.0 / 1200.0, rel=1e-10)
    assert eq.rate[0] == pytest.approx(1200.0 / 3, rel=1e-10)


def test_single_link_vegas_unequal_alpha_and_per_second_unit() -> None:
    # alpha 1 and 3 packets on c = 1000: p = 4/1000, x = 250, 750 (weighted shares)
    net = Network(
        (Link(1000.0, DropTailPrice()),),
        (Flow("vegas", (0,), 1, 0.1, 1.0), Flow("fast", (0,), 1, 0.1, 3.0)),
    )
    (eq,) = find_equilibria(net)
    assert eq.delay[0] == pytest.approx(0.004, rel=1e-10)
    assert eq.rate == pytest.approx([250.0, 750.0], rel=1e-10)
    # Sec 6.1 convention: alpha = 50 per second with d = 0.110 s keeps 5.5 packets queued;
    # 2 flows on c = 1100 -> p = 11/1100 = 0.01 s, x = 550
    net = Network(
        (Link(1100.0, DropTailPrice(), delay=0.055),),
        (Flow("vegas", (0,), 2, None, 50.0, "per_second"),),
    )
    assert net.alpha_packets[0] == pytest.approx(5.5, rel=1e-14)
    (eq,) = find_equilibria(net)
    assert eq.delay[0] == pytest.approx(0.01, rel=1e-10)
    assert eq.rate[0] == pytest.approx(550.0, rel=1e-10)


def test_single_link_mixed_reverse_constructed() -> None:
    # linear map k = 2, constant T = 0.1; choose p = 0.01: Vegas (alpha 3) 300, Reno at
    # q = 0.02: sqrt(2 * 0.98 / 0.02) / 0.1 = sqrt(98)/0.1 each, 2 Reno flows -> c
    c = 300.0 + 2 * _reno(0.02, 0.1)
    net = Network(
        (Link(c, LinearPrice(2.0)),),
        (Flow("vegas", (0,), 1, 0.1, 3.0), Flow("reno", (0,), 2, 0.1)),
        reno_rtt_includes_queueing=False,
    )
    (eq,) = find_equilibria(net)
    assert eq.delay[0] == pytest.approx(0.01, rel=1e-10)
    assert eq.rate == pytest.approx([300.0, math.sqrt(98) / 0.1], rel=1e-10)
    assert eq.throughput("reno") == pytest.approx(2 * math.sqrt(98) / 0.1, rel=1e-10)


# ------------------------------------------------------------------------------------------
# two links
# ------------------------------------------------------------------------------------------


def _two_link(c_a: float, c_b: float, k_a: float, k_b: float) -> Network:
    """Links A (0), B (1); Vegas V1 (alpha 1) on {A, B}, V2 (alpha 2) on {B}, Reno on {A, B}."""
    return Network(
        (Link(c_a, LinearPrice(k_a)), Link(c_b, LinearPrice(k_b))),
        (
            Flow("vegas", (0, 1), 1, 0.1, 1.0),
            Flow("vegas", (1,), 1, 0.1, 2.0),
            Flow("reno", (0, 1), 1, 0.1),
        ),
        reno_rtt_includes_queueing=False,
    )


def test_two_links_both_candidate_sets_by_hand() -> None:
    """Two links: the candidate active sets are {B} and {A, B} (V2 needs a price on B).

    A two-link network cannot have two isolated equilibria (Sec 2: with a full-rank routing
    matrix at least three links are needed [Tang et al. 2005b]; with rank 1 every flow uses both
    links and the equilibrium is unique or a continuum, see the next test), so both sets are
    reverse-constructed and the finder must return exactly the one that is an equilibrium.

    (i) {B}: p_B = 0.01 -> V1 = 100, V2 = 200; k_B = 2 -> q = 0.02 -> Reno sqrt(98)/0.1;
        c_B = 300 + R, c_A = 250 > V1 + R (link A unsaturated).
    (ii) {A, B}: p_A = 0.01, p_B = 0.02 -> V2 = 100, V1 = 1/0.03; k_A = 1, k_B = 0.5 ->
        q = 0.02 -> same Reno rate; c_A = V1 + R, c_B = c_A + 100.
    """
    r = _reno(0.02, 0.1)
    (eq,) = find_equilibria(_two_link(250.0, 300.0 + r, 1.0, 2.0))
    assert eq.priced == (1,) and eq.saturated == (1,)
    assert eq.delay == pytest.approx([0.0, 0.01], abs=1e-13)
    assert eq.rate == pytest.approx([100.0, 200.0, r], rel=1e-10)
    assert eq.load[0] == pytest.approx(100.0 + r, rel=1e-10)

    c_a = 1 / 0.03 + r
    (eq,) = find_equilibria(_two_link(c_a, c_a + 100.0, 1.0, 0.5))
    assert eq.priced == (0, 1) and eq.saturated == (0, 1)
    assert eq.delay == pytest.approx([0.01, 0.02], rel=1e-10)
    assert eq.rate == pytest.approx([1 / 0.03, 100.0, r], rel=1e-10)


def test_non_isolated_equilibria_raise() -> None:
    # rank-1 routing with equal capacities: one load equation, two prices -> a continuum
    links = (Link(100.0, LinearPrice(1.0)), Link(100.0, RedPrice(0, 50, 10)))
    flows = (Flow("vegas", (0, 1), 1, 0.1, 1.0), Flow("reno", (0, 1), 1, 0.1))
    with pytest.raises(RuntimeError, match=r"not isolated"):
        find_equilibria(Network(links, flows))


# ------------------------------------------------------------------------------------------
# Figure 1 network and Proposition 1
# ------------------------------------------------------------------------------------------

# Reverse-constructed Figure 1 network with linear maps, one flow per path, alpha = 1, T = 0.1:
# equilibrium A (links 1, 3 saturated): p1 = 0.01 -> x_v = 100; Reno 200 -> q = 2/402 = 2 k1 p1
# equilibrium B (link 2 saturated): p2 = 0.005 -> x_v = 200; Reno 50 -> q = 2/27 = k2 p2
# c1 = 100 + 200 = 300, c2 = 2 * 200 + 50 = 450; A: link-2 load 400 < 450, B: link-1 load 250.
K1_HAND = (2 / 402) / (2 * 0.01)
K2_HAND = (2 / 27) / 0.005


def _fig1_hand(k2: float = K2_HAND) -> Network:
    return fig1_network(
        LinearPrice(K1_HAND),
        LinearPrice(k2),
        c1=300.0,
        c2=450.0,
        alpha=1.0,
        vegas_rtt=0.05,
        reno_rtt=0.1,
        reno_rtt_includes_queueing=False,
    )


def test_prop1_condition_by_hand() -> None:
    chk = prop1_condition(
        300.0,
        450.0,
        LinearPrice(K1_HAND),
        LinearPrice(K2_HAND),
        vegas_alpha=1.0,
        reno_flows=1,
        reno_rtt=0.1,
    )
    u1 = 1.0 / 150.0  # (U1)'(c2 - c1) = alpha / 150
    mid = 2 / (2 + (150 * 0.1) ** 2)  # (U2)'(2 c1 - c2) = 2 / 227
    assert chk.lhs == pytest.approx(2 * K1_HAND * u1, rel=1e-14)
    assert chk.middle == pytest.approx(mid, rel=1e-14)
    assert chk.rhs == pytest.approx(K2_HAND * u1, rel=1e-14)
    assert chk.holds and chk.capacities_ok
    # remark after Prop 1: k1 < mid / (2 u1), k2 > mid / u1, hence k2/k1 > 2 is necessary
    assert chk.k1_max == pytest.approx(mid / (2 * u1), rel=1e-14)
    assert chk.k2_min == pytest.approx(2 * chk.k1_max, rel=1e-14)
    assert not prop1_condition(
        300.0, 700.0, LinearPrice(1), LinearPrice(9), vegas_alpha=1, reno_flows=1, reno_rtt=1
    ).holds  # c2 > 2 c1 violates condition 1


def test_fig1_all_equilibria_by_hand() -> None:
    """Prop 1 holds (previous test): the finder returns A, B and -- not in the paper -- a third
    equilibrium C with all three links saturated. C's rates follow from (10) alone:
    X_v = c2 - c1 = 150 per Vegas path, X_r = 2 c1 - c2 = 150; its prices: p1 = p3 = a,
    p2 = P - a with P = alpha / 150 and 2 k1 a + k2 (P - a) = 2/227, so
    a = (k2 P - 2/227) / (k2 - 2 k1)."""
    eqs = find_equilibria(_fig1_hand())
    assert [e.priced for e in eqs] == [(1,), (0, 2), (0, 1, 2)]
    b, a_eq, c_eq = eqs
    assert b.delay == pytest.approx([0.0, 0.005, 0.0], abs=1e-14)
    assert b.rate == pytest.approx([200.0, 200.0, 50.0], rel=1e-10)
    assert a_eq.delay == pytest.approx([0.01, 0.0, 0.01], abs=1e-14)
    assert a_eq.rate == pytest.approx([100.0, 100.0, 200.0], rel=1e-10)
    p = 1 / 150
    a = (K2_HAND * p - 2 / 227) / (K2_HAND - 2 * K1_HAND)
    assert c_eq.delay == pytest.approx([a, p - a, a], rel=1e-9)
    assert c_eq.rate == pytest.approx([150.0, 150.0, 150.0], rel=1e-10)
    for e in eqs:
        assert _max_violation(e) < 1e-9


def test_fig1_unique_region_by_hand() -> None:
    """k2 = 0.5 < k2_min: A does not depend on k2 (p2 = 0) and stays; B needs a root of (13)
    F(x) = (U2)'(450 - 2x) - k2 alpha/x with x > 150, but F is increasing and
    F(150) = 2/227 - 0.5/150 > 0; C needs 2 k1 a + k2 (P - a) = 2/227 with a in [0, P], but
    that linear function is at most max(k2, 2 k1) P < 2/227. So A is the only equilibrium."""
    assert 2 / 227 - 0.5 / 150 > 0 and max(0.5, 2 * K1_HAND) / 150 < 2 / 227
    (eq,) = find_equilibria(_fig1_hand(k2=0.5))
    assert eq.priced == (0, 2)
    assert eq.rate == pytest.approx([100.0, 100.0, 200.0], rel=1e-10)


def test_fig1_red_multiple_and_unique_regions() -> None:
    # Sec 6.1 network with RED. alpha = 50 packets and constant Reno RTT, K1 = 3500, K2 = 500
    # (Exp 5 slopes): both branches are equilibria, and so is the all-saturated one, whose rates
    # are fixed by (10): Vegas paths c2 - c1, Reno 2 c1 - c2 (50 Mbps each).
    multi = Fig1Setup(alpha_unit="packets", reno_rtt_includes_queueing=False)
    eqs = find_equilibria(multi.network(3500.0, 500.0))
    assert [e.priced for e in eqs] == [(1,), (0, 2), (0, 1, 2)]
    assert [e.saturated for e in eqs] == [(1,), (0, 2), (0, 1, 2)]
    c1, c2 = mbps_to_pkts(100.0), mbps_to_pkts(150.0)
    assert eqs[2].group_rate == pytest.approx([c2 - c1, c2 - c1, 2 * c1 - c2], rel=1e-10)
    # Sec 6.1 text reading (alpha * d = 5.5 packets), T with queueing delay, K2 = 600: only the
    # Reno-first equilibrium (links 1 and 3 saturated) exists
    unique = find_equilibria(Fig1Setup().network(10000.0, 600.0))
    assert [e.priced for e in unique] == [(0, 2)]
    for e in eqs + unique:
        assert _max_violation(e) < 1e-9


def test_single_protocol_and_linear_network_unique() -> None:
    # Kelly's problem is strictly concave if only one protocol is present (Sec 2.2): unique
    red1, red2 = RedPrice(0, 1000, 10000), RedPrice(100, 1500, 10)
    links = (Link(8000, red1, 0.05), Link(12000, red2, 0.005), Link(8000, red1, 0.05))
    vegas = tuple(Flow("vegas", r, 10, None, 5.0) for r in ((0, 1), (1, 2), (0, 1, 2)))
    reno = tuple(Flow("reno", r, 10) for r in ((0, 1), (1, 2), (0, 1, 2)))
    for flows in (vegas, reno):
        assert len(find_equilibria(Network(links, flows))) == 1
    # Figure 5 linear network (Exp 2), proved to have a unique equilibrium [Tang et al. 2005b],
    # with very different RED slopes per link
    for ks in ((10.0, 10.0, 10.0), (10.0, 1000.0, 10.0), (5000.0, 10.0, 300.0)):
        lk = tuple(
            Link(mbps_to_pkts(c), RedPrice(0, 200, k), 0.04)
            for c, k in zip((100.0, 150.0, 120.0), ks, strict=True)
        )
        fl = (
            *(Flow("fast", (i,), 1, None, 50.0) for i in range(3)),
            Flow("reno", (0, 1, 2), 8),
        )
        eqs = find_equilibria(Network(lk, fl))
        assert len(eqs) == 1 and eqs[0].priced == (0, 1, 2)
        assert _max_violation(eqs[0]) < 1e-9


# ------------------------------------------------------------------------------------------
# Figures 9, 10 (Sec 6.1) -- structure of the theory curves
# ------------------------------------------------------------------------------------------


def test_fig9_fig10_curve_structure() -> None:
    k2 = [10.0, 100.0, 600.0]
    f9 = fig9_curves(k2)
    # Reno first: link 2 unsaturated, so nothing depends on K2 (Sec 6.1, Exp 3)
    assert np.ptp(f9.reno_first.reno_mbps) < 1e-9 * f9.reno_first.reno_mbps[0]
    assert np.allclose(f9.reno_first.utilisation[:, [0, 2]], 1.0, rtol=0, atol=1e-9)
    assert np.all(f9.reno_first.utilisation[:, 1] < 1.0)
    # Vegas first: link 2 saturated; Reno throughput rises with K2 (smaller marking)
    assert np.allclose(f9.vegas_first.utilisation[:, 1], 1.0, rtol=0, atol=1e-9)
    assert np.all(np.diff(f9.vegas_first.reno_mbps) > 0)
    assert f9.vegas_first.exists.all() and f9.vegas_first.n_solutions.tolist() == [1, 1, 1]
    # a branch point is an equilibrium iff the other links are within capacity
    assert np.array_equal(f9.vegas_first.feasible, f9.vegas_first.utilisation[:, 0] <= 1 + 1e-9)
    # Exp 4: the Vegas-first branch does not depend on K1 (links 1 and 3 carry no price)
    f10 = fig10_curves([5000.0, 11000.0])
    assert np.ptp(f10.vegas_first.reno_mbps) < 1e-9 * f10.vegas_first.reno_mbps[0]
    assert f10.reno_first.reno_mbps[1] > f10.reno_first.reno_mbps[0]  # less marking at K1 up
    # the curve value equals the finder's equilibrium with the same active set
    eq = [e for e in find_equilibria(Fig1Setup().network(10000.0, 10.0)) if e.priced == (1,)]
    assert pkts_to_mbps(eq[0].throughput("reno")) == pytest.approx(
        f9.vegas_first.reno_mbps[0], rel=1e-12
    )


# ------------------------------------------------------------------------------------------
# Figures 13, 14 and Propositions 2, 3 (Sec 4, Sec 6.2)
# ------------------------------------------------------------------------------------------


def test_fig13_fig14_and_prop2_consistency() -> None:
    a2 = [4.0, 16.0]
    f13 = fig13_curves(a2)
    f14 = fig14_curves(a2)
    assert f13.n_equilibria.tolist() == [1, 1]
    # Prop 2: the Vegas rates are the weighted-proportionally-fair allocation of their own loads
    assert np.allclose(f13.prop2, f13.model, rtol=1e-8, atol=0)
    setup = Fig12Setup()
    for i, a in enumerate(a2):
        (eq,) = find_equilibria(setup.network(a))
        if eq.priced == (1,):  # only link 2 priced: every Vegas path has q = p2 -> x ~ alpha
            assert f13.model[i, 0] / f13.model[i, 2] == pytest.approx(1.5, rel=1e-10)
        # link 2 is saturated by the 15 Vegas and 5 Reno flows
        assert f14.vegas_link2[i] + f14.reno_link2[i] == pytest.approx(4000.0, rel=1e-9)
        assert _max_violation(eq) < 1e-9
    # Prop 3 remark: a larger alpha moves bandwidth from Reno to Vegas
    assert f14.vegas_link2[1] > f14.vegas_link2[0] and f14.reno_link2[1] < f14.reno_link2[0]


def test_prop2_against_direct_convex_optimisation() -> None:
    """Eq. (15) solved independently with SLSQP: max sum n_g a_g log x_g s.t. R n x <= c^f,
    and the Reno problem max sum n_g U(x_g) (eq. 6) s.t. R n x <= c^r."""
    net = Fig12Setup(layout="alternative").network(6.0)
    r = net.routing
    vegas = ~net.is_reno
    cf = np.array([1500.0, 2600.0, 1300.0])
    x = prop2_vegas_rates(net, cf)
    w = (net.counts * net.alpha_packets)[vegas]
    rv, nv = r[:, vegas], net.counts[vegas]
    cons = {"type": "ineq", "fun": lambda v: cf - rv @ (nv * np.exp(v))}
    sol = minimize(lambda v: -w @ v, np.log(np.full(3, 50.0)), constraints=[cons], tol=1e-14)
    assert x == pytest.approx(np.exp(sol.x), rel=1e-6)

    cr = np.array([800.0, 600.0, 700.0])
    t = net.propagation_rtt
    xr = prop2_reno_rates(net, cr, t)
    rr, nr, tr = r[:, ~vegas], net.counts[~vegas], t[~vegas]

    def neg_u(z: np.ndarray) -> float:
        return -float(np.sum(nr * math.sqrt(2) / tr * np.arctan(z * tr / math.sqrt(2))))

    cons_r = {"type": "ineq", "fun": lambda z: cr - rr @ (nr * z)}
    sol_r = minimize(neg_u, np.full(1, 10.0), constraints=[cons_r], bounds=[(0, None)], tol=1e-14)
    assert xr == pytest.approx(sol_r.x, rel=1e-6)
    assert xr[0] == pytest.approx(600.0 / 5, rel=1e-9)  # Reno on link 2 only: c^r_2 / 5


def test_prop3_alpha_reproduces_target() -> None:
    # b_min = 0 so that m is invertible (A1); constant Reno RTT as in eqs (4)-(6)
    setup = Fig12Setup(b_min=0.0, reno_rtt_includes_queueing=False)
    net = setup.network(8.0)
    (eq,) = find_equilibria(net)
    vegas = ~net.is_reno
    # alpha*(x^) gives back the alpha that produced x^
    alpha = prop3_alpha(net, eq.rate[vegas])
    assert alpha == pytest.approx(net.alpha_packets[vegas], rel=1e-8)
    # a different target: 10% less for flow1/flow2, 10% more for flow3
    target = eq.rate[vegas] * np.array([0.9, 0.9, 1.1])
    alpha_star = prop3_alpha(net, target)
    flows = tuple(
        Flow(f.protocol, f.route, f.count, f.rtt, float(a), "packets", f.name)
        for f, a in zip(net.flows[:3], alpha_star, strict=True)
    )
    net_star = Network(net.links, flows + net.flows[3:], reno_rtt_includes_queueing=False)
    hits = [e for e in find_equilibria(net_star) if np.allclose(e.rate[vegas], target, 1e-8)]
    assert len(hits) == 1


# ------------------------------------------------------------------------------------------
# every equilibrium returned satisfies the equations; branches beyond feasibility
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "net",
    [
        Fig1Setup().network(10000.0, 10.0),
        Fig1Setup(alpha_unit="packets").network(5000.0, 100.0),
        Fig12Setup(layout="alternative").network(10.0),
        _two_link(250.0, 398.0, 1.0, 2.0),
    ],
    ids=["fig1-readingI-k2-10", "fig1-readingII-k1-5000", "fig12-alt", "two-link"],
)
def test_every_equilibrium_satisfies_the_equations(net: Network) -> None:
    eqs = find_equilibria(net)
    assert eqs
    for e in eqs:
        assert _max_violation(e) < 1e-9
        assert equilibrium_residuals(e).max < 1e-9
        assert e.feasible and set(e.priced) <= set(e.saturated)


def test_solve_active_set_reports_infeasible_branch() -> None:
    # reading I, K2 = 600: the Vegas-first solution exists but overloads links 1 and 3
    (eq,) = solve_active_set(Fig1Setup().network(10000.0, 600.0), [1])
    assert not eq.feasible
    assert eq.utilisation[0] > 1 and eq.utilisation[1] == pytest.approx(1.0, rel=1e-10)
    assert equilibrium_residuals(eq).capacity_eq10 > 0
