"""Unit tests for analysis.models.floyd1991 (Floyd 1991, heuristic analysis of Sec 5-6, App. A).

Every expected value is derived by hand from the paper's formulas (see the comments); no number is
copied from config/originals/floyd1991.yaml.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from analysis.models import floyd1991 as fl

NS = list(range(1, 11))


# ------------------------------------------------------------------------------------------
# Claim 1
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "expected"),
    [(1, 1 / 2), (4, 1 / 3), (9, 1 / 4), (16, 1 / 5), (2, math.sqrt(2) - 1)],
)
def test_claim1_hand_values(n: int, expected: float) -> None:
    # p = 1/(1 + sqrt(n)); for n = 2: 1/(1 + sqrt 2) = sqrt 2 - 1.
    assert fl.claim1_share(n) == pytest.approx(expected, rel=1e-15, abs=1e-15)


@pytest.mark.parametrize("n", NS)
def test_claim1_satisfies_its_equation(n: int) -> None:
    p = fl.claim1_share(n)
    assert (1 - p) ** 2 == pytest.approx(n * p**2, rel=1e-13)


def test_claim1_vectorised_and_decreasing() -> None:
    arr = fl.claim1_share(np.array(NS))
    assert isinstance(arr, np.ndarray) and arr.shape == (10,)
    assert np.allclose(arr, [fl.claim1_share(n) for n in NS], rtol=0, atol=0)
    assert np.all(np.diff(arr) < 0)
    assert isinstance(fl.claim1_share(3), float)


# ------------------------------------------------------------------------------------------
# Claim 2, Corollaries 3 and 4
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ratio", "expected"), [(1, 1 / 2), (2, 1 / 3), (3, 1 / 4), (4, 1 / 5), (19, 1 / 20)]
)
def test_cor3_hand_values(ratio: float, expected: float) -> None:
    assert fl.cor3_share(ratio) == pytest.approx(expected, rel=1e-15)


def test_claim2_equal_g_is_cor3() -> None:
    for r0, r1 in [(0.2, 0.1), (2.027, 0.127), (1.0, 1.0), (0.5, 0.05)]:
        assert fl.claim2_share(r0, r1, 1.0, 1.0) == pytest.approx(fl.cor3_share(r0 / r1))


def test_claim2_satisfies_eqs_1_and_2() -> None:
    # (r1/r0)^2 g(r0)/g(r1) = (p/(1-p))^2
    r0, r1, g0, g1 = 0.9, 0.15, 3.0, 0.7
    p = fl.claim2_share(r0, r1, g0, g1)
    assert (p / (1 - p)) ** 2 == pytest.approx((r1 / r0) ** 2 * g0 / g1, rel=1e-13)


def test_cor4_is_half_for_any_rtts() -> None:
    assert fl.cor4_share() == 0.5
    for r0, r1, a in [(2.0, 0.1, 4.0), (0.127, 2.027, 1.0), (5.0, 5.0, 0.3)]:
        assert fl.cor4_share(r0, r1, a) == pytest.approx(0.5, rel=1e-14)
    # Claim 2 with g(r) = a r^2 directly
    assert fl.claim2_share(3.0, 0.5, 4 * 3.0**2, 4 * 0.5**2) == pytest.approx(0.5, rel=1e-14)


# ------------------------------------------------------------------------------------------
# Claim 5, Corollary 6
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", NS)
def test_claim5_equal_rtt_and_g_is_claim1(n: int) -> None:
    assert fl.claim5_share(n, 1.0, 1.0) == pytest.approx(fl.claim1_share(n), rel=1e-15)


def test_claim5_single_gateway_is_claim2() -> None:
    r0, r1, g0, g1 = 1.3, 0.2, 2.0, 0.5
    assert fl.claim5_share(1, r0 / r1, g0 / g1) == pytest.approx(fl.claim2_share(r0, r1, g0, g1))


@pytest.mark.parametrize("n", NS)
def test_claim5_constant_rate_is_claim1(n: int) -> None:
    # g(r) = a r^2 => g_ratio = rtt_ratio^2 => the RTTs drop out (Claim 1 for any RTTs).
    q = 2 * n - 1.0
    assert fl.claim5_share(n, q, q**2) == pytest.approx(fl.claim1_share(n), rel=1e-13)
    assert fl.claim5_rhs(q, q**2) == pytest.approx(1.0, rel=1e-15)


def test_claim5_satisfies_its_equation() -> None:
    n, q, g = 6, 3.5, 0.8
    p = fl.claim5_share(n, q, g)
    assert n * p**2 / (1 - p) ** 2 == pytest.approx(g / q**2, rel=1e-13)


def test_cor6_hand_values() -> None:
    assert fl.cor6_share(1) == pytest.approx(0.5, rel=1e-15)
    # n = 2: sqrt(2) * 3
    assert fl.cor6_share(2) == pytest.approx(1 / (1 + 3 * math.sqrt(2)), rel=1e-15)
    # n = 4: 2 * 7 = 14 ; n = 9: 3 * 17 = 51
    assert fl.cor6_share(4) == pytest.approx(1 / 15, rel=1e-15)
    assert fl.cor6_share(9) == pytest.approx(1 / 52, rel=1e-15)


@pytest.mark.parametrize("n", NS)
def test_cor6_is_claim5_with_ratio_2n_minus_1(n: int) -> None:
    assert fl.cor6_share(n) == pytest.approx(fl.claim5_share(n, 2 * n - 1, 1.0), rel=1e-15)


# ------------------------------------------------------------------------------------------
# burst-bias f and Corollary 7
# ------------------------------------------------------------------------------------------


def test_burst_bias_f_values() -> None:
    assert fl.burst_bias_f(0.0) == pytest.approx(5.59, rel=1e-15)
    assert fl.burst_bias_f(0.5) == pytest.approx(0.59 + 5 * math.exp(-2.5), rel=1e-15)
    assert fl.burst_bias_f(0.2, a=1.0, b=2.0, c=10.0) == pytest.approx(1 + 2 * math.exp(-2))
    v = fl.burst_bias_f(np.array([0.0, 0.25, 0.5]))
    assert isinstance(v, np.ndarray) and np.all(np.diff(v) < 0)


def test_cor7_lhs_increasing_on_bracket() -> None:
    # f(p) p alone is NOT monotone on (0, 0.5] (its derivative 0.59 + 5 e^{-5p}(1 - 5p) is
    # negative near p = 0.4), but the LHS p * q / ((1-p)(1-q)) with q = f(p) p is.
    grid = np.linspace(fl.COR7_P_MIN, fl.COR7_P_MAX, 5001)
    lhs = np.array([fl.cor7_lhs(float(p), 1, fl.burst_bias_f) for p in grid])
    assert np.all(np.diff(lhs) > 0)
    q = grid * fl.burst_bias_f(grid)
    assert np.any(np.diff(q) < 0)


def test_cor7_lhs_formula() -> None:
    p, n = 0.3, 4
    f = 0.59 + 5 * math.exp(-1.5)
    assert fl.cor7_lhs(p, n) == pytest.approx(n * p * f * p / ((1 - p) * (1 - f * p)), rel=1e-15)


@pytest.mark.parametrize("n", NS)
@pytest.mark.parametrize("rhs_kind", ["cr", "ib1"])
def test_cor7_root_satisfies_equation(n: int, rhs_kind: str) -> None:
    rhs = 1.0 if rhs_kind == "cr" else 1.0 / (2 * n - 1) ** 2
    p = fl.cor7_share(n, rhs)
    assert 0 < p <= 0.5
    assert abs(fl.cor7_lhs(p, n) - rhs) <= 1e-12


@pytest.mark.parametrize("n", NS)
@pytest.mark.parametrize("q", [1.0, 2.0, 5.0])
def test_cor7_with_f_one_is_claim5(n: int, q: float) -> None:
    # Hand derivation: with f(p) == 1 the Cor 7 equation reads
    #     n p * 1 * p / ((1 - p)(1 - 1 * p)) = n p^2 / (1 - p)^2 = RHS,
    # i.e. exactly Claim 5's eq. n p^2/(1-p)^2 = (g(r0)/g(r1)) (r1/r0)^2. Taking the positive
    # root, p/(1 - p) = sqrt(RHS/n), so p = 1/(1 + sqrt(n/RHS)); with RHS = g_ratio/q^2 this is
    # 1/(1 + sqrt(n) q / sqrt(g_ratio)) = claim5_share(n, q, g_ratio). In the bracket
    # (0, 1/2] iff RHS <= n, which holds for all cases below (g_ratio = 1 and q >= 1).
    def one(p: float) -> float:
        return 1.0

    rhs = fl.claim5_rhs(q, 1.0)
    assert fl.cor7_share(n, rhs, f=one) == pytest.approx(fl.claim5_share(n, q, 1.0), abs=1e-13)
    # Constant-Rate (RHS = 1) with f == 1 is Claim 1.
    assert fl.cor7_share(n, 1.0, f=one) == pytest.approx(fl.claim1_share(n), abs=1e-13)


@pytest.mark.parametrize("n", NS)
def test_cor7_bias_lowers_share(n: int) -> None:
    # f(p) >= f(1/2) = 0.59 + 5 e^{-2.5} > 1 on [0, 1/2], and the LHS grows with f at fixed p,
    # so the root lies strictly below the unbiased (f == 1) root = Claim 5 / Claim 1 / Cor 6.
    assert fl.burst_bias_f(0.5) > 1
    assert fl.cor7_constant_rate(n) < fl.claim1_share(n)
    assert fl.cor7_increase_by_one(n) < fl.cor6_share(n)


def test_cor7_convenience_functions() -> None:
    # n = 1: ratio 2n - 1 = 1, so Increase-by-One and Constant-Rate coincide.
    assert fl.cor7_increase_by_one(1) == fl.cor7_constant_rate(1)
    assert fl.cor7_constant_rate(3) == fl.cor7_share(3, 1.0)
    assert fl.cor7_increase_by_one(3) == pytest.approx(fl.cor7_share(3, 1 / 25), abs=1e-15)
    assert fl.cor7_increase_by_one(3, rtt_ratio=4.0) == pytest.approx(
        fl.cor7_share(3, 1 / 16), abs=1e-15
    )
    cr = fl.cor7_constant_rate(np.array(NS))
    ib = fl.cor7_increase_by_one(np.array(NS))
    assert isinstance(cr, np.ndarray) and cr.shape == (10,)
    assert np.all(np.diff(cr) < 0) and np.all(np.diff(ib) < 0)
    assert np.all(ib <= cr)


def test_cor7_no_root_raises_and_wider_bracket_finds_it() -> None:
    def one(p: float) -> float:
        return 1.0

    # f == 1, n = 1, RHS = 4: p/(1-p) = 2 => p = 2/3 > 1/2, not bracketed.
    with pytest.raises(ValueError, match="no root bracketed"):
        fl.cor7_share(1, 4.0, f=one)
    assert fl.cor7_share(1, 4.0, f=one, p_max=0.9) == pytest.approx(2 / 3, abs=1e-13)


def test_cor7_non_monotone_lhs_raises() -> None:
    # f(p) p = 0.9 e^{-50 p}: the drop probability collapses with p and the LHS decreases.
    def steep(p: float) -> float:
        return 0.9 * math.exp(-50 * p) / p

    with pytest.raises(ValueError, match="not strictly increasing"):
        fl.cor7_share(2, 1e-3, f=steep)


def test_cor7_invalid_drop_probability_raises() -> None:
    with pytest.raises(ValueError, match=r"f\(p\)\*p"):
        fl.cor7_share(2, 1.0, f=lambda p: 3.0)


# ------------------------------------------------------------------------------------------
# Sec 6 fairness
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", NS)
def test_jain_throughput_closed_form_matches_generic(n: int) -> None:
    for p in [0.0, 0.1, 0.25, 0.5, 0.8, 1.0]:
        x = [p] + [1 - p] * n
        assert fl.jain_throughput(p, n) == pytest.approx(fl.jain_index(x), rel=1e-14)
    # At p = 1/2: (1/2 + n/2)^2 / ((n+1)(1/4 + n/4)) = 1 (all allocations equal).
    assert fl.jain_throughput(0.5, n) == pytest.approx(1.0, rel=1e-15)
    assert fl.jain_throughput(0.5, n) == pytest.approx(fl.jain_index([0.5] * (n + 1)), rel=1e-15)


def test_jain_index_k_of_n() -> None:
    # Sec 6: the index is k/n when k users share equally and n - k get nothing.
    assert fl.jain_index([1, 1, 1, 0, 0]) == pytest.approx(3 / 5)
    assert fl.jain_index([2.0]) == 1.0


@pytest.mark.parametrize("n", NS)
def test_jain_gateways_exact_vs_paper(n: int) -> None:
    grid = np.linspace(0, 1, 100001)
    exact = fl.jain_gateways(grid, n)
    paper = fl.jain_gateways_paper(grid, n)
    # exact = n/(n+1) * paper
    assert np.allclose(exact, n / (n + 1) * paper, rtol=1e-14, atol=0)
    for p in [0.0, 0.2, 1 / (n + 1), 0.7]:
        x = [2 * n * p] + [2 * (1 - p)] * n
        assert fl.jain_gateways(p, n) == pytest.approx(fl.jain_index(x), rel=1e-13)
    # maximiser 1/(n+1) by scan; the exact index peaks at 1, the printed one at (n+1)/n.
    assert grid[np.argmax(exact)] == pytest.approx(1 / (n + 1), abs=1e-5)
    assert grid[np.argmax(paper)] == pytest.approx(1 / (n + 1), abs=1e-5)
    assert fl.jain_gateways_argmax(n) == pytest.approx(1 / (n + 1))
    assert fl.jain_gateways(1 / (n + 1), n) == pytest.approx(1.0, rel=1e-14)
    assert fl.jain_gateways_paper(1 / (n + 1), n) == pytest.approx((n + 1) / n, rel=1e-14)


@pytest.mark.parametrize("n", NS)
def test_jain_throughput_argmax_half(n: int) -> None:
    grid = np.linspace(0, 1, 100001)
    assert grid[np.argmax(fl.jain_throughput(grid, n))] == pytest.approx(0.5, abs=1e-5)


@pytest.mark.parametrize("n", NS)
def test_product_measure_argmax(n: int) -> None:
    grid = np.linspace(0, 1, 200001)
    vals = fl.product_measure(grid, n)
    assert grid[np.argmax(vals)] == pytest.approx(1 / (n + 1), abs=1e-5)
    assert fl.product_measure_argmax(n) == pytest.approx(1 / (n + 1), rel=1e-15)
    assert fl.product_measure(0.25, 2) == pytest.approx(0.25 * 0.75**2)
    # Sec 6 ordering: 1/(n+1) <= Claim 1 share <= 1/2 (Constant-Rate is "acceptably fair").
    assert 1 / (n + 1) <= fl.claim1_share(n) <= 0.5


# ------------------------------------------------------------------------------------------
# Appendix A
# ------------------------------------------------------------------------------------------


def test_appendix_a_recovery_times() -> None:
    # w = 32 => log2(16) = 4 RTTs
    assert fl.appa_recovery_time(0.1, 32) == pytest.approx(0.4)
    r1, w1 = 0.127, 24.0
    for m in [1.0, 2.0, 4.0, 19.0]:
        long_t = fl.appa_long_recovery_time(r1, w1, m)
        # identity of App. A: r0 log2(w0/2) with r0 = m r1, w0 = m w1
        assert long_t == pytest.approx(fl.appa_recovery_time(m * r1, m * w1), rel=1e-14)
        ratio = long_t / fl.appa_recovery_time(r1, w1)
        assert ratio == pytest.approx(fl.appa_recovery_ratio(w1, m), rel=1e-14)
        if m > 1:
            assert ratio > m
        else:
            assert ratio == pytest.approx(1.0)
    # w1 = 8, m = 4: 4 * (1 + 2/2) = 8
    assert fl.appa_recovery_ratio(8, 4) == pytest.approx(8.0)


# ------------------------------------------------------------------------------------------
# curve fits (Fig 12)
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("a", "b", "c"), [(0.59, 5.0, 5.0), (1.0, 2.0, 3.0), (-0.3, 7.5, 12.0)])
def test_fit_exponential_recovers_parameters(a: float, b: float, c: float) -> None:
    x = np.linspace(0.0, 0.5, 60)
    y = a + b * np.exp(-c * x)
    fit = fl.fit_exponential(x, y)
    assert (fit.a, fit.b, fit.c) == pytest.approx((a, b, c), rel=1e-6, abs=1e-8)
    assert fit.rms < 1e-8
    assert fit(0.3) == pytest.approx(a + b * math.exp(-0.3 * c), rel=1e-6)


def test_fit_exponential_rms_with_noise() -> None:
    rng = np.random.default_rng(1)
    x = np.linspace(0.01, 0.5, 400)
    y = 0.59 + 5 * np.exp(-5 * x) + rng.normal(0, 0.05, x.size)
    fit = fl.fit_exponential(x, y)
    assert fit.rms == pytest.approx(0.05, rel=0.15)
    assert fit.c == pytest.approx(5.0, rel=0.1)


def test_fit_inverse_sqrt_recovers_parameters() -> None:
    x = np.linspace(0.01, 0.5, 50)
    y = -1.19 + 1.548 / np.sqrt(x)
    fit = fl.fit_inverse_sqrt(x, y)
    assert (fit.a, fit.b) == pytest.approx((-1.19, 1.548), rel=1e-10)
    assert fit.rms < 1e-10


# ------------------------------------------------------------------------------------------
# input validation
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: fl.claim1_share(0), "n"),
        (lambda: fl.claim1_share(0.5), "n"),
        (lambda: fl.claim1_share(np.array([1, 2, 0])), "n"),
        (lambda: fl.claim1_share(float("nan")), "n"),
        (lambda: fl.claim2_share(-1.0, 1.0, 1.0, 1.0), "r0"),
        (lambda: fl.claim2_share(1.0, 0.0, 1.0, 1.0), "r1"),
        (lambda: fl.claim2_share(1.0, 1.0, 0.0, 1.0), "g0"),
        (lambda: fl.claim2_share(1.0, 1.0, 1.0, -2.0), "g1"),
        (lambda: fl.cor3_share(0.0), "rtt_ratio"),
        (lambda: fl.cor4_share(0.0, 1.0), "r0"),
        (lambda: fl.claim5_share(0, 1.0, 1.0), "n"),
        (lambda: fl.claim5_share(2, -1.0, 1.0), "rtt_ratio"),
        (lambda: fl.claim5_share(2, 1.0, 0.0), "g_ratio"),
        (lambda: fl.cor6_share(0), "n"),
        (lambda: fl.burst_bias_f(-0.1), "p"),
        (lambda: fl.burst_bias_f(1.1), "p"),
        (lambda: fl.cor7_share(0, 1.0), "n"),
        (lambda: fl.cor7_share(2, 0.0), "rhs"),
        (lambda: fl.cor7_constant_rate(0.5), "n"),
        (lambda: fl.cor7_increase_by_one(2, rtt_ratio=-3.0), "rtt_ratio"),
        (lambda: fl.cor7_lhs(1.5, 2), "p"),
        (lambda: fl.jain_throughput(1.5, 2), "p"),
        (lambda: fl.jain_throughput(0.5, 0), "n"),
        (lambda: fl.jain_gateways(-0.5, 2), "p"),
        (lambda: fl.jain_gateways_paper(0.5, 0), "n"),
        (lambda: fl.product_measure(2.0, 3), "p"),
        (lambda: fl.product_measure(0.2, 0), "n"),
        (lambda: fl.jain_index([1.0, -1.0]), "x"),
        (lambda: fl.appa_recovery_time(0.0, 10), "rtt"),
        (lambda: fl.appa_recovery_time(0.1, 1.0), "window"),
        (lambda: fl.appa_long_recovery_time(0.1, 10, 0.5), "m"),
        (lambda: fl.fit_exponential([0.1, 0.2, 0.3], [1.0, 2.0]), "same length"),
        (lambda: fl.fit_exponential([0.1, 0.2], [1.0, 2.0]), "at least 3"),
    ],
)
def test_invalid_inputs_raise(call, name: str) -> None:
    with pytest.raises(ValueError, match=name):
        call()
