"""Unit tests for analysis.models.akella2002 (Akella et al. 2002, the TCP Game analysis).

Every expected value is derived by hand from the paper's formulas (see the comments); no number is
copied from config/originals/akella2002.yaml.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from analysis.models import akella2002 as ak

# ------------------------------------------------------------------------------------------
# input validation
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: ak.gentle_alpha_goodput(-1, 1, 4, 100, 1), "alpha_n"),
        (lambda: ak.gentle_alpha_goodput(1, -0.5, 4, 100, 1), "alpha"),
        (lambda: ak.severe_alpha_goodput(-2, 1, 4, 100, 1, 5), "alpha_n"),
        (lambda: ak.hybrid_alpha_goodput(-1, 4, 100, 1, 5), "alpha_n"),
        (lambda: ak.red_goodput("gentle", 0.01, -1, 0.5, 0.1), "alpha"),
        (lambda: ak.f_alpha("gentle", [1, -1], [0.01, 0.01], [0, 0], 0.1), "alpha"),
        (lambda: ak.penalty_trajectory("gentle", [0], alpha=-1, beta=0.5, window0=1), "alpha"),
        (lambda: ak.simulate_droptail("gentle", [1, -1], [0.5, 0.5], 10, 1, 5), "alphas"),
    ],
)
def test_negative_alpha_raises(call, name: str) -> None:
    with pytest.raises(ValueError, match=rf"^{name} \(increase parameter\)"):
        call()


@pytest.mark.parametrize("bad", [0.0, 1.0, -0.2, 1.5])
@pytest.mark.parametrize(
    ("make", "name"),
    [
        (lambda b: ak.gentle_beta_goodput(b, 0.5, 4, 100, 1), "beta_n"),
        (lambda b: ak.gentle_beta_goodput(0.6, b, 4, 100, 1), "beta"),
        (lambda b: ak.severe_beta_goodput(b, 0.5, 4, 100, 1, 5), "beta_n"),
        (lambda b: ak.gentle_beta_lower_bound(0.7, b, 4, 100, 1), "beta"),
        (lambda b: ak.red_goodput("severe", 0.01, 1, b, 0.1, tau_s=2), "beta"),
        (lambda b: ak.f_beta("gentle", b, 0.01, 0.0, 0.1), "beta"),
        (lambda b: ak.droptail_elasticity("gentle", "beta", b, 4, 100), "beta"),
        (lambda b: ak.PenaltyFlow("gentle", 1, b, 10), "beta"),
    ],
)
def test_beta_outside_unit_interval_raises(make, name: str, bad: float) -> None:
    with pytest.raises(ValueError, match=rf"^{name} \(decrease parameter\) must lie in \(0, 1\)"):
        make(bad)


@pytest.mark.parametrize("bad_n", [1, 0, -3, 2.5, True, "10"])
@pytest.mark.parametrize(
    "make",
    [
        lambda n: ak.gentle_alpha_goodput(1, 1, n, 100, 1),
        lambda n: ak.gentle_beta_tau_o(0.6, 0.5, n, 100),
        lambda n: ak.severe_alpha_goodput(1, 1, n, 100, 1, 3),
        lambda n: ak.hybrid_tau_o(2, n, 100, 5),
        lambda n: ak.hybrid_threshold_bdp(n),
        lambda n: ak.droptail_symmetric_ne("gentle", "alpha", n, 100),
    ],
)
def test_n_below_two_raises(make, bad_n) -> None:
    with pytest.raises(ValueError, match=r"^n \(number of flows\) must be an integer >= 2"):
        make(bad_n)


def test_single_flow_simulation_raises() -> None:
    with pytest.raises(ValueError, match=r"len\(alphas\) \(number of flows\)"):
        ak.simulate_droptail("gentle", [1], [0.5], 10, 1, 5)


def test_other_invalid_inputs() -> None:
    with pytest.raises(ValueError, match="model must be one of"):
        ak.red_goodput("reno", 0.01, 1, 0.5, 0.1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="parameter must be one of"):
        ak.red_marginal("gentle", "gamma", 1, 0.01, 0, 0.1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^p \(loss rate\)"):
        ak.red_goodput("gentle", 0.0, 1, 0.5, 0.1)
    with pytest.raises(ValueError, match="tau_s is required"):
        ak.red_goodput("severe", 0.01, 1, 0.5, 0.1)
    with pytest.raises(ValueError, match="t0 .* is required"):
        ak.f_alpha("hybrid", 1, 0.01, 0.0, 0.1)
    with pytest.raises(ValueError, match="capacity/n must exceed tau_s"):
        ak.hybrid_alpha_goodput(2, 10, 150, 0.12, 20)
    with pytest.raises(ValueError, match="^capacity must be > 0"):
        ak.gentle_alpha_goodput(1, 1, 4, 0, 1)
    with pytest.raises(ValueError, match="^rtt must be > 0"):
        ak.gentle_alpha_goodput(1, 1, 4, 100, -1)
    with pytest.raises(ValueError, match="alpha_n \\+ \\(n-1\\) alpha must be > 0"):
        ak.gentle_alpha_goodput(0, 0, 4, 100, 1)
    with pytest.raises(ValueError, match="n0 .* is required"):
        ak.PenaltyFlow("hybrid", 1, 0.5, 10, tau_s=2)
    with pytest.raises(ValueError, match="losses must be 0 while the flow is silent"):
        ak.penalty_trajectory("severe", [1, 1], alpha=1, beta=0.5, window0=10, tau_s=2)


# ------------------------------------------------------------------------------------------
# Table 1 -- penalty models
# ------------------------------------------------------------------------------------------


def test_gentle_penalty_by_hand() -> None:
    # N = 10; L = 0, 0, 2, 0 with alpha = 1, beta = 0.5, gamma = 0.5:
    # 10 -> 11 -> 12 -> 0.5*12 - 0.5*2 = 5 -> 6.
    tr = ak.penalty_trajectory("gentle", [0, 0, 2, 0], alpha=1, beta=0.5, window0=10, gamma=0.5)
    np.testing.assert_allclose(tr, [10, 11, 12, 5, 6])


def test_severe_penalty_by_hand() -> None:
    # Loss in round 1 (N = 11): tau_S = 2 silent rounds, then beta * 11 = 5.5, then +alpha.
    tr = ak.penalty_trajectory("severe", [0, 1, 0, 0, 0, 0], alpha=1, beta=0.5, window0=10, tau_s=2)
    np.testing.assert_allclose(tr, [10, 11, 0, 0, 5.5, 6.5, 7.5])


def test_severe_with_zero_tau_is_gentle_without_gamma() -> None:
    losses = [0, 0, 1, 0, 3, 0, 0]
    sev = ak.penalty_trajectory("severe", losses, alpha=2, beta=0.7, window0=4, tau_s=0)
    gen = ak.penalty_trajectory("gentle", losses, alpha=2, beta=0.7, window0=4)
    np.testing.assert_allclose(sev, gen)


def test_hybrid_penalty_rows() -> None:
    # One loss: gentle row beta*N - gamma = 0.5*20 - 1 = 9. Two losses: tau_S = 3 silent rounds,
    # then Table 1's beta*N_0 = 0.5*8 = 4 (or N_0 = 8 with hybrid_restart_beta=False).
    kw = dict(alpha=1.0, beta=0.5, window0=20.0, tau_s=3, gamma=1.0, n0=8.0)
    np.testing.assert_allclose(ak.penalty_trajectory("hybrid", [1, 0], **kw), [20, 9, 10])
    np.testing.assert_allclose(
        ak.penalty_trajectory("hybrid", [2, 0, 0, 0, 0], **kw), [20, 0, 0, 0, 4, 5]
    )
    np.testing.assert_allclose(
        ak.penalty_trajectory("hybrid", [2, 0, 0, 0, 0], hybrid_restart_beta=False, **kw),
        [20, 0, 0, 0, 8, 9],
    )


def test_penalty_flow_silent_flag() -> None:
    f = ak.PenaltyFlow("severe", 1, 0.5, 10, tau_s=1)
    assert not f.silent
    assert f.step(1) == 0.0 and f.silent
    assert f.step(0) == 5.0 and not f.silent


# ------------------------------------------------------------------------------------------
# Sec 4.2.1 -- Gentle, drop-tail
# ------------------------------------------------------------------------------------------


def test_eq6_by_hand() -> None:
    # alpha_n = 2, others 1, n = 4: A = 3; G = 2*100/(0.1*(3+2)) = 400 packets/s.
    assert ak.gentle_alpha_goodput(2, 1, 4, 100, 0.1) == pytest.approx(400, rel=1e-14)


@pytest.mark.parametrize(("alpha", "n"), [(1, 2), (3.5, 10), (40, 7)])
def test_eq6_symmetric_is_fair_share(alpha: float, n: int) -> None:
    # alpha_n = alpha: G = alpha C/(R n alpha) = C/(nR).
    assert ak.gentle_alpha_goodput(alpha, alpha, n, 150, 0.12) == pytest.approx(150 / (n * 0.12))


def test_eq6_increasing_with_limit() -> None:
    g = ak.gentle_alpha_goodput(np.linspace(0, 500, 501), 1, 10, 150, 0.12)
    assert g[0] == 0 and np.all(np.diff(g) > 0)
    # alpha_n -> infinity: G -> C/R (F_n takes the whole link).
    assert ak.gentle_alpha_goodput(1e12, 1, 10, 150, 0.12) == pytest.approx(150 / 0.12, rel=1e-9)


def test_tau_o_general() -> None:
    # beta = 0.5: tau_O = 2C/sum(2 alpha_i) = C/sum(alpha_i) = 100/5 = 20.
    assert ak.droptail_tau_o([1, 1, 1, 2], [0.5] * 4, 100) == pytest.approx(20)
    # eq 11 is the same formula with alpha = 1.
    assert ak.droptail_tau_o([1, 1], [0.5, 0.75], 100) == pytest.approx(
        ak.gentle_beta_tau_o(0.75, 0.5, 2, 100)
    )


def test_eqs_9_to_13_by_hand() -> None:
    # n = 2, C = 100, R = 1, beta = 0.5, beta_n = 0.75:
    # eq 11: tau = 200/(1/0.5 + 1/0.25) = 200/6; eq 9: G = tau*1.75/(2*0.25*1.5) = 700/9.
    assert ak.gentle_beta_tau_o(0.75, 0.5, 2, 100) == pytest.approx(200 / 6)
    g = ak.gentle_beta_goodput(0.75, 0.5, 2, 100, 1.0)
    assert g == pytest.approx(700 / 9, rel=1e-14)
    # eq 12: tau = 2C(1-beta)/n = 50; eq 10: G = 50/(2*0.5) = 50 = C/(nR).
    assert ak.gentle_beta_tau_o(0.5, 0.5, 2, 100) == pytest.approx(50)
    assert ak.gentle_beta_goodput(0.5, 0.5, 2, 100, 1.0) == pytest.approx(50)
    # eq 13 (corrected): C(1+beta_n)/(nR(1+beta)) = 175/3 = 58.33, between 50 and 77.78.
    lb = ak.gentle_beta_lower_bound(0.75, 0.5, 2, 100, 1.0)
    assert lb == pytest.approx(175 / 3)
    assert 50 < lb < g


def test_eq13_corrected_holds_and_printed_fails() -> None:
    bn = np.linspace(0.51, 0.99, 49)
    for n in (2, 3, 10, 100):
        g = ak.gentle_beta_goodput(bn, 0.5, n, 150, 0.12)
        lb = ak.gentle_beta_lower_bound(bn, 0.5, n, 150, 0.12)
        fair = 150 / (n * 0.12)
        assert np.all(g > lb) and np.all(lb > fair)
        # With the printed factor 2 the second inequality of eq 13 is false.
        assert np.all(ak.gentle_beta_lower_bound(bn, 0.5, n, 150, 0.12, printed=True) < fair)


def test_eq9_limit_beta_n_to_beta_and_to_one() -> None:
    # beta_n -> beta: eq 9 -> eq 10 = C/(nR).
    assert ak.gentle_beta_goodput(0.6 + 1e-10, 0.6, 5, 100, 1.0) == pytest.approx(20, rel=1e-8)
    # beta_n -> 1: tau -> 0 like (1-beta_n), G -> C(1+1)/(R(1+beta)) * ... finite limit
    # 2*2C/(2R(1+beta)) = 2C/(R(1+beta)) = 125 for C = 100, beta = 0.6.
    assert ak.gentle_beta_goodput(1 - 1e-12, 0.6, 5, 100, 1.0) == pytest.approx(125, rel=1e-9)


# ------------------------------------------------------------------------------------------
# Sec 4.2.2 -- Severe, drop-tail
# ------------------------------------------------------------------------------------------


def test_severe_alpha_by_hand() -> None:
    # n = 4, others 1, alpha_n = 2, C = 100: tau = 20; S_n = 3*2*20*21/2 = 1260;
    # T = R(5 + 3*21/2) = 36.5 R  =>  G = 2520/73 for R = 1, tau_S = 5.
    assert ak.severe_alpha_goodput(2, 1, 4, 100, 1.0, 5) == pytest.approx(2520 / 73, rel=1e-14)


def test_severe_alpha_tau_s_zero_is_gentle() -> None:
    # tau_S = 0: G = 3 alpha_n tau (tau+1)/(3R(tau+1)) = alpha_n tau/R = eq 6.
    a = np.array([0.5, 1, 2, 7, 30])
    np.testing.assert_allclose(
        ak.severe_alpha_goodput(a, 1, 10, 150, 0.12, 0),
        ak.gentle_alpha_goodput(a, 1, 10, 150, 0.12),
    )


def test_severe_alpha_not_monotone_footnote6() -> None:
    # Footnote 6 claims G_n increases with alpha_n. It does at first but falls for large alpha_n
    # towards 3C/(R(2 tau_S + 3)) = 450/(0.12*43), which is below G_n(9) here.
    g = ak.severe_alpha_goodput(np.array([1.0, 9.0, 1e3, 1e9]), 1, 10, 150, 0.12, 20)
    assert g[1] > g[0] and g[2] < g[1] and g[3] < g[2]
    assert g[3] == pytest.approx(450 / (0.12 * 43), rel=1e-6)


def test_severe_beta_by_hand() -> None:
    # n = 2, beta_n = beta = 0.5, C = 100, R = 1, tau_S = 5: tau = 50;
    # G = 50*1.5*51/(2*5*0.5 + 2*0.5*1.5*51) = 3825/81.5.
    assert ak.severe_beta_goodput(0.5, 0.5, 2, 100, 1.0, 5) == pytest.approx(3825 / 81.5)
    # tau_S = 0 reduces to eq 9.
    assert ak.severe_beta_goodput(0.8, 0.5, 3, 100, 1.0, 0) == pytest.approx(
        ak.gentle_beta_goodput(0.8, 0.5, 3, 100, 1.0)
    )


def test_severe_beta_gain_exists_correction6() -> None:
    # Correction [6]: some beta_n > beta must give *more* goodput than beta.
    for n in (3, 10):
        for c, ts in ((50, 1), (150, 20), (1000, 5)):
            base = ak.severe_beta_goodput(0.5, 0.5, n, c, 0.12, ts)
            dev = ak.severe_beta_goodput(np.linspace(0.51, 0.99, 49), 0.5, n, c, 0.12, ts)
            assert np.all(dev > base)


# ------------------------------------------------------------------------------------------
# Round-based drop-tail simulation of Table 1 reproduces the closed forms
# ------------------------------------------------------------------------------------------


def test_simulation_gentle_matches_eq6_exactly() -> None:
    # Steady state for alphas (1,1,1,2), C = 100: tau_O = 20, N_i = 20 alpha_i; period 21 rounds.
    tr = ak.simulate_droptail(
        "gentle", [1, 1, 1, 2], [0.5] * 4, 100, 1.0, 21 * 8, init=[20, 20, 20, 40]
    )
    np.testing.assert_allclose(tr.goodput(), [20, 20, 20, 40], rtol=1e-12)
    assert tr.goodput()[-1] == pytest.approx(ak.gentle_alpha_goodput(2, 1, 4, 100, 1.0))
    # Losses: exactly alpha_i at each overflow (8 overflow rounds).
    np.testing.assert_allclose(tr.losses.sum(axis=0), [8, 8, 8, 16])


def test_simulation_gentle_converges_from_any_start() -> None:
    tr = ak.simulate_droptail("gentle", [1, 1, 1, 2], [0.5] * 4, 100, 1.0, 2100, init=[1, 5, 9, 3])
    np.testing.assert_allclose(tr.goodput(1050), [20, 20, 20, 40], rtol=1e-6)


def test_simulation_severe_matches_closed_form() -> None:
    # Period tau_S + tau + 1 = 26 rounds; closed form 2520/73 for the alpha = 2 flow.
    tr = ak.simulate_droptail(
        "severe", [1, 1, 1, 2], [0.5] * 4, 100, 1.0, 26 * 6, tau_s=5, init=[20, 20, 20, 40]
    )
    assert tr.goodput()[-1] == pytest.approx(2520 / 73, rel=1e-12)


def test_simulation_hybrid_all_default_is_gentle() -> None:
    args = ([1] * 5, [0.5] * 5, 100, 0.1, 400)
    hyb = ak.simulate_droptail("hybrid", *args, tau_s=4, init=[20] * 5)
    gen = ak.simulate_droptail("gentle", *args, init=[20] * 5)
    np.testing.assert_allclose(hyb.windows, gen.windows)


# ------------------------------------------------------------------------------------------
# Sec 4.2.3 -- Hybrid, drop-tail
# ------------------------------------------------------------------------------------------


def test_eq18_and_hybrid_goodput_by_hand() -> None:
    # n = 2, C = 100, tau_S = 10, alpha_n = 2, N_0 = C/n = 50:
    # eq 18: tau_O = (100*(2 - 1/2) + 10*2)/(2*1 + 2) = 170/4 = 42.5.
    assert ak.hybrid_tau_o(2, 2, 100, 10) == pytest.approx(42.5)
    # S_n = 50*33.5 + (2/2)*32.5*33.5 = 2763.75, T = 3R*43.5/2 = 65.25 R.
    assert ak.hybrid_alpha_goodput(2, 2, 100, 1.0, 10) == pytest.approx(2763.75 / 65.25, rel=1e-14)
    # Paper's product form: (2/3)(50 + 32.5)(1 - 10/43.5).
    assert ak.hybrid_alpha_goodput(2, 2, 100, 1.0, 10) == pytest.approx(
        (2 / 3) * 82.5 * (1 - 10 / 43.5)
    )


@pytest.mark.parametrize("alpha_n", [1.5, 3.0, 40.0])
def test_eq18_fills_link_and_buffer(alpha_n: float) -> None:
    # Eq 3: (n-1) flows at 2 tau_O plus F_n at N_0 + (tau_O - tau_S) alpha_n sum to 2C.
    n, c, ts = 10, 400.0, 20.0
    tau = ak.hybrid_tau_o(alpha_n, n, c, ts)
    assert (n - 1) * 2 * tau + c / n + (tau - ts) * alpha_n == pytest.approx(2 * c)


def test_hybrid_gentle_below_one_and_rtt_free_gain() -> None:
    # alpha_n <= 1: L_n <= 1, gentle, eq 6; G_n(1) = C/(nR).
    assert ak.hybrid_alpha_goodput(1.0, 10, 400, 0.12, 20) == pytest.approx(400 / (10 * 0.12))
    assert ak.hybrid_alpha_goodput(0.5, 10, 400, 0.12, 20) == pytest.approx(
        ak.gentle_alpha_goodput(0.5, 1, 10, 400, 0.12)
    )
    g1 = ak.hybrid_alpha_goodput(7.0, 10, 400, 0.12, 20) / (400 / (10 * 0.12))
    assert ak.hybrid_gain(7.0, 10, 400, 20) == pytest.approx(g1)


def test_hybrid_threshold_is_the_boundary() -> None:
    n = 50
    c = ak.hybrid_threshold_bdp(n, 20)
    assert c > 20
    assert ak.hybrid_best_deviation(n, c * n, 20)[1] == pytest.approx(1.0, abs=1e-9)
    grid = np.geomspace(1.0001, 1e6, 2000)
    assert np.all(ak.hybrid_gain(grid, n, 0.98 * c * n, 20) < 1)
    assert np.any(ak.hybrid_gain(grid, n, 1.02 * c * n, 20) > 1)
    a = ak.hybrid_alpha_needed(n, 1.02 * c * n, 20)
    assert ak.hybrid_gain(a, n, 1.02 * c * n, 20) == pytest.approx(1.0, abs=1e-9)
    assert math.isnan(ak.hybrid_alpha_needed(n, 0.98 * c * n, 20))


def test_unit_conversion_by_hand() -> None:
    # 25 packets of 1500 B per 0.12 s = 25*12000/0.12 b/s = 2.5 Mbps.
    assert ak.bdp_packets_to_mbps(25, 0.12, 1500) == pytest.approx(2.5)
    assert ak.mbps_to_bdp_packets(2.5, 0.12, 1000) == pytest.approx(37.5)


# ------------------------------------------------------------------------------------------
# Drop-tail symmetric equilibria
# ------------------------------------------------------------------------------------------


def _fd_elasticity(fun, x: float, h: float = 1e-6) -> float:
    return x * (math.log(fun(x + h)) - math.log(fun(x - h))) / (2 * h)


@pytest.mark.parametrize(("x", "n", "ts"), [(1.0, 10, 20.0), (4.0, 3, 5.0), (30.0, 10, 1.0)])
def test_droptail_alpha_elasticities_match_finite_differences(x: float, n: int, ts: float) -> None:
    c = 150.0
    e_sev = ak.droptail_elasticity("severe", "alpha", x, n, c, tau_s=ts)
    fd_sev = _fd_elasticity(lambda a: ak.severe_alpha_goodput(a, x, n, c, 0.12, ts), x)
    assert e_sev == pytest.approx(fd_sev, rel=1e-6)
    fd_gen = _fd_elasticity(lambda a: ak.gentle_alpha_goodput(a, x, n, c, 0.12), x)
    assert ak.droptail_elasticity("gentle", "alpha", x, n, c) == pytest.approx(fd_gen, rel=1e-6)
    assert ak.droptail_elasticity("gentle", "alpha", x, n, c) == pytest.approx(1 - 1 / n)


@pytest.mark.parametrize(("b", "n", "ts"), [(0.5, 10, 20.0), (0.9, 2, 5.0), (0.3, 4, 0.0)])
def test_droptail_beta_elasticities_match_finite_differences(b: float, n: int, ts: float) -> None:
    c = 150.0
    fd_sev = _fd_elasticity(lambda v: ak.severe_beta_goodput(v, b, n, c, 0.12, ts), b, 1e-7)
    e_sev = ak.droptail_elasticity("severe", "beta", b, n, c, tau_s=ts)
    assert e_sev == pytest.approx(fd_sev, rel=1e-6)
    fd_gen = _fd_elasticity(lambda v: ak.gentle_beta_goodput(v, b, n, c, 0.12), b, 1e-7)
    assert ak.droptail_elasticity("gentle", "beta", b, n, c) == pytest.approx(fd_gen, rel=1e-6)


def test_droptail_marginal_gain_positive_everywhere() -> None:
    # Hence alpha_E unbounded and beta_E -> 1 under Gentle and Severe penalties (Secs 4.2.1-4.2.2).
    alphas = np.linspace(0.1, 200, 400)
    betas = np.linspace(0.01, 0.999, 400)
    for n in (2, 3, 10, 100):
        for ts in (0.0, 1.0, 20.0):
            for c in (20.0, 150.0, 5000.0):
                assert np.all(ak.droptail_elasticity("severe", "alpha", alphas, n, c, tau_s=ts) > 0)
                assert np.all(ak.droptail_elasticity("severe", "beta", betas, n, c, tau_s=ts) > 0)


@pytest.mark.parametrize(
    ("model", "parameter", "value"),
    [
        ("gentle", "alpha", 100.0),
        ("severe", "alpha", 100.0),
        ("gentle", "beta", 0.999),
        ("severe", "beta", 0.999),
        ("hybrid", "beta", 0.999),
    ],
)
def test_droptail_ne_at_upper_bound(model: str, parameter: str, value: float) -> None:
    ne = ak.droptail_symmetric_ne(model, parameter, 10, 150, tau_s=20)  # type: ignore[arg-type]
    assert ne.kind == "upper_bound" and ne.value == value and ne.foc > 0


def test_hybrid_alpha_ne_corner_or_none() -> None:
    # C/n = 25 < threshold (~27 packets for n = 50): alpha = 1 is a best response to alpha = 1.
    ne = ak.droptail_symmetric_ne("hybrid", "alpha", 50, 50 * 25, tau_s=20)
    assert ne.kind == "corner" and ne.value == 1.0
    assert np.all(ak.hybrid_gain(np.geomspace(1.001, 1e5, 500), 50, 50 * 25, 20) < 1)
    # C/n = 100: a greedy flow gains, no symmetric equilibrium at alpha = 1.
    ne = ak.droptail_symmetric_ne("hybrid", "alpha", 50, 50 * 100, tau_s=20)
    assert ne.kind == "none" and math.isnan(ne.value)


# ------------------------------------------------------------------------------------------
# Sec 4.3 -- RED goodput equations
# ------------------------------------------------------------------------------------------


def test_eq24_by_hand() -> None:
    # alpha = 1, beta = 0.5, p = 0.01, R = 0.1: (1/0.1) sqrt(1.5/(2*0.01*0.5)) = 10 sqrt(150).
    assert ak.red_goodput("gentle", 0.01, 1, 0.5, 0.1) == pytest.approx(10 * math.sqrt(150))


def test_eq20_reduces_to_eq24_and_eq21() -> None:
    p, a, r = np.array([0.001, 0.02, 0.3]), 3.0, 0.2
    np.testing.assert_allclose(
        ak.red_goodput("severe", p, a, 0.7, r, tau_s=0), ak.red_goodput("gentle", p, a, 0.7, r)
    )
    # eq 21 (beta = 0.5): 1/(p R tau_S + R sqrt(2p/(3 alpha))).
    eq21 = 1 / (p * r * 4 + r * np.sqrt(2 * p / (3 * a)))
    np.testing.assert_allclose(ak.red_goodput("severe", p, a, 0.5, r, tau_s=4), eq21)


def test_eq25_limits() -> None:
    p, r = np.array([0.001, 0.05]), 0.1
    # T_0 = 0: eq 25 = eq 24.
    np.testing.assert_allclose(
        ak.red_goodput("hybrid", p, 2, 0.6, r, t0=0), ak.red_goodput("gentle", p, 2, 0.6, r)
    )
    # alpha = 1, beta = 0.5: the PFTK formula 1/(R sqrt(2p/3) + 3 T_0 sqrt(3p/8) p (1 + 32p^2)).
    pftk = 1 / (r * np.sqrt(2 * p / 3) + 3 * 1.0 * np.sqrt(3 * p / 8) * p * (1 + 32 * p**2))
    np.testing.assert_allclose(ak.red_goodput("hybrid", p, 1, 0.5, r, t0=1.0), pftk)


# ------------------------------------------------------------------------------------------
# F_a / F_b (Figure 6) are positive multiples of dG_n/dx'
# ------------------------------------------------------------------------------------------


def _loss_a(x: float, xd: float) -> float:
    return 0.002 * x**0.7 * math.exp(0.03 * (xd - x))


def _loss_b(x: float, xd: float) -> float:
    return 0.004 * (1 + x) * (1 - xd) ** -0.6


_MODEL_KW = {
    "gentle": {},
    "severe": {"tau_s": 3.0},
    "hybrid": {"t0": 0.5},
}


@pytest.mark.parametrize("model", ["gentle", "severe", "hybrid"])
@pytest.mark.parametrize("x", [1.0, 7.0, 33.0])
def test_f_alpha_is_scaled_derivative(model: str, x: float) -> None:
    kw, r, h = _MODEL_KW[model], 0.13, 1e-5
    g = [ak.red_deviation_goodput(model, "alpha", x, v, _loss_a, r, **kw) for v in (x - h, x + h)]
    dg = (g[1] - g[0]) / (2 * h)
    p, dp = _loss_a(x, x), 0.03 * _loss_a(x, x)
    fa = ak.f_alpha(model, x, p, dp, r, **kw)
    assert fa == pytest.approx(math.sqrt(6) * x / r * dg, rel=1e-6)
    assert ak.red_marginal(model, "alpha", x, p, dp, r, **kw) == pytest.approx(dg, rel=1e-6)


@pytest.mark.parametrize("model", ["gentle", "severe", "hybrid"])
@pytest.mark.parametrize("x", [0.5, 0.8, 0.98])
def test_f_beta_is_scaled_derivative(model: str, x: float) -> None:
    kw, r, h = _MODEL_KW[model], 0.13, 1e-7
    g = [ak.red_deviation_goodput(model, "beta", x, v, _loss_b, r, **kw) for v in (x - h, x + h)]
    dg = (g[1] - g[0]) / (2 * h)
    p, dp = _loss_b(x, x), 0.6 * _loss_b(x, x) / (1 - x)
    fb = ak.f_beta(model, x, p, dp, r, **kw)
    assert fb == pytest.approx(math.sqrt(2) / r * dg, rel=1e-6)


def test_reno_f_beta_printed_form_differs() -> None:
    # Correction [4]: the printed F_b leaves 3T_0(p^2+32p^4)beta/(R(1-beta)) outside C_b.
    b, p, dp, r, t0 = 0.7, 0.02, 0.05, 0.1, 1.0
    fixed = ak.f_beta("hybrid", b, p, dp, r, t0=t0)
    printed = ak.f_beta("hybrid", b, p, dp, r, t0=t0, printed=True)
    g = ak.red_goodput("hybrid", p, 1, b, r, t0=t0)
    cb = g**2 * math.sqrt((1 - b) / (p * (1 + b)))
    last = 3 * t0 * (p**2 + 32 * p**4) * b / (r * (1 - b))
    assert printed - fixed == pytest.approx(last - cb * last, rel=1e-12)
    assert abs(printed - fixed) > 1e-3 * abs(fixed)


def test_gentle_f_alpha_zero_when_loss_elasticity_is_one() -> None:
    # Gentle: F_a = C_a (p/alpha - P_a) = 0 iff P_a = p/alpha.
    assert ak.f_alpha("gentle", 5.0, 0.02, 0.004, 0.1) == pytest.approx(0.0, abs=1e-12)
    assert ak.f_beta("gentle", 0.6, 0.01, 2 * 0.01 / (1 - 0.36), 0.1) == pytest.approx(
        0.0, abs=1e-10
    )


def test_fig6_arrays_and_zero_crossing() -> None:
    alpha = np.arange(1.0, 51.0)
    p_a = 0.001 * alpha
    # P_a = p_a/alpha * k(alpha) with k crossing 1 at alpha = 20 -> Gentle F_a crosses at 20.
    P_a = p_a / alpha * (alpha / 20.0)
    beta = np.linspace(0.5, 0.99, 50)
    p_b = np.full(50, 0.01)
    P_b = np.zeros(50)
    fa, fb = ak.fig6("gentle", alpha, p_a, P_a, beta, p_b, P_b, 0.12)
    assert fa.shape == (50,) and fb.shape == (50,)
    assert np.all(fa[:19] > 0) and np.all(fa[20:] < 0)
    assert ak.first_zero_crossing(alpha, fa) == pytest.approx(20.0)
    assert np.all(fb > 0) and math.isnan(ak.first_zero_crossing(beta, fb))
    fa_sev, _ = ak.fig6("severe", alpha, p_a, P_a, beta, p_b, P_b, 0.12, tau_s=3)
    # With a severe penalty the crossing moves below 20 (extra -tau_S sqrt(6 p alpha) P_a term).
    assert ak.first_zero_crossing(alpha, fa_sev) < 20


def test_first_zero_crossing_by_hand() -> None:
    # Linear interpolation between (2, 1) and (3, -1): 2.5. The - to + change at 4 is ignored.
    assert ak.first_zero_crossing([1, 2, 3, 4], [2, 1, -1, 3]) == pytest.approx(2.5)
    # Only - to + (a minimum of G_n) or no change at all: nan.
    assert math.isnan(ak.first_zero_crossing([1, 2, 3, 4], [-2, 1, 1, 3]))
    assert math.isnan(ak.first_zero_crossing([1, 2], [1, 1]))


# ------------------------------------------------------------------------------------------
# RED symmetric equilibria: first-order condition and best response
# ------------------------------------------------------------------------------------------


def _exp_loss(c: float, k: float):
    # p'(alpha, alpha') = c alpha exp(k (alpha' - alpha)): P_a = k p_a.
    return lambda x, xd: c * x * math.exp(k * (xd - x))


def _best_response_check(model, parameter, ne, loss, r, grid, **kw) -> None:
    x = ne.value
    g_star = ak.red_deviation_goodput(model, parameter, x, x, loss, r, **kw)
    g = ak.red_deviation_goodput(model, parameter, x, grid, loss, r, **kw)
    assert np.all(g <= g_star * (1 + 1e-12))


def test_red_gentle_alpha_ne_by_hand() -> None:
    # Gentle: G ~ sqrt(alpha'/p') ~ sqrt(alpha' e^{-k alpha'}), maximal at alpha' = 1/k = 10.
    loss = _exp_loss(1e-5, 0.1)
    ne = ak.red_symmetric_ne("gentle", "alpha", loss, 0.1, dloss=lambda x: 0.1 * loss(x, x))
    assert ne.kind == "interior"
    assert ne.value == pytest.approx(10.0, rel=1e-12)
    assert abs(ne.foc) < 1e-9
    assert abs(ak.f_alpha("gentle", ne.value, loss(10, 10), 0.1 * loss(10, 10), 0.1)) < 1e-9
    _best_response_check("gentle", "alpha", ne, loss, 0.1, np.linspace(1, 60, 591))


def test_red_gentle_beta_ne_by_hand() -> None:
    # p'(beta, beta') = c (1 - beta')^-k: the log-derivative of G^2 is
    # 2/(1-b^2) - k/(1-b) = 0  =>  beta_E = 2/k - 1 = 0.6 for k = 1.25.
    def loss(x: float, xd: float) -> float:
        return 1e-4 * (1 - xd) ** -1.25

    ne = ak.red_symmetric_ne(
        "gentle", "beta", loss, 0.1, dloss=lambda x: 1.25 * loss(x, x) / (1 - x)
    )
    assert ne.kind == "interior"
    assert ne.value == pytest.approx(0.6, rel=1e-12)
    assert abs(ne.foc) < 1e-9
    _best_response_check("gentle", "beta", ne, loss, 0.1, np.linspace(0.01, 0.99, 197))


@pytest.mark.parametrize(("model", "kw"), [("severe", {"tau_s": 3.0}), ("hybrid", {"t0": 1.0})])
def test_red_alpha_ne_foc_and_best_response(model: str, kw: dict) -> None:
    loss = _exp_loss(1e-4, 0.1)
    ne = ak.red_symmetric_ne(model, "alpha", loss, 0.1, **kw)  # default: numerical P_a
    assert ne.kind == "interior"
    # The extra timeout / silence terms penalise losses more: alpha_E below the Gentle 1/k = 10.
    assert 1 < ne.value < 10
    assert abs(ne.foc) < 1e-9
    _best_response_check(model, "alpha", ne, loss, 0.1, np.linspace(1, 40, 391), **kw)


def test_red_beta_ne_severe_best_response() -> None:
    def loss(x: float, xd: float) -> float:
        return 1e-4 * (1 - xd) ** -1.25

    ne = ak.red_symmetric_ne("severe", "beta", loss, 0.1, tau_s=2.0)
    assert ne.kind == "interior" and abs(ne.foc) < 1e-9
    assert ne.value < 0.6
    _best_response_check("severe", "beta", ne, loss, 0.1, np.linspace(0.01, 0.99, 197), tau_s=2.0)


def test_red_uniform_loss_gives_unbounded_ne() -> None:
    # RED-like assignment with no own-parameter effect (P = 0): F > 0 throughout (Sec 4.3).
    ne_a = ak.red_symmetric_ne("gentle", "alpha", lambda x, xd: 1e-3 * x, 0.1)
    ne_b = ak.red_symmetric_ne("hybrid", "beta", lambda x, xd: 0.01, 0.1, t0=1.0)
    assert ne_a.kind == "upper_bound" and ne_a.value == ak.ALPHA_BOUNDS[1]
    assert ne_b.kind == "upper_bound" and ne_b.value == ak.BETA_BOUNDS[1]


def test_generic_solver_by_hand() -> None:
    ne = ak.symmetric_ne(lambda x: 3.0 - x, 0.0, 10.0)
    assert ne.kind == "interior" and ne.value == pytest.approx(3.0, abs=1e-13)
    assert ak.symmetric_ne(lambda x: -1.0, 0.0, 1.0).kind == "lower_bound"
    # A - to + change is a minimum of G_n, not an equilibrium: the answer is the upper end.
    ne = ak.symmetric_ne(lambda x: x - 3.0, 0.0, 10.0)
    assert ne.kind == "upper_bound" and ne.value == 10.0
    with pytest.raises(ValueError, match="need lo < hi"):
        ak.symmetric_ne(lambda x: x, 1.0, 1.0)
