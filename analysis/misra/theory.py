"""Misra, Baras, Ott: the model's values and the paper's analytical statements, from the
configured set-ups (no simulation).

The values the paper does not print (``derived.*`` in config/originals/misra.yaml) are our own
computation with the model: the fixed point of Sec III at the capacities
:data:`THEORY_CAPACITIES_MBPS` and the window distribution of Sec IV along
:data:`THEORY_ALPHAS` and :data:`THEORY_C2`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import pandas as pd

from analysis.misra.setup import SETS, Setup, reference_params, setup_of
from analysis.misra.tidy import strictly, theory_rows
from analysis.models import misra as models

#: Grids of our own computation of the model's values (``derived.*`` of the originals).
THEORY_CAPACITIES_MBPS = (5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0)
THEORY_ALPHAS = (-1.0, -0.75, -0.5, -0.25, 0.0)
THEORY_C2 = (0.1, 0.2, 0.3, 0.4, 0.5)
#: The c1 sweep of Sec IV.C, whose figure the paper omits (theory only).
THEORY_C1 = (0.25, 0.5, 1.0, 2.0)


def num_key(v: float) -> str:
    """-0.75 -> m0_75, 0.1 -> 0_1, 0 -> 0 (the originals' key spelling)."""
    s = f"{abs(v):g}".replace(".", "_")
    return ("m" if v < 0 else "") + s


def theory_numbers(config: dict) -> dict[str, float | bool]:
    """The model's values the paper does not print (our own computation, regression targets)
    from the configured set-ups, and the theory-only boolean statements."""
    out: dict[str, float | bool] = {}
    caps = THEORY_CAPACITIES_MBPS
    th: dict[str, pd.DataFrame] = {}
    for exp in [f"exp{x}_s{k}" for x in "ab" for k in SETS]:
        th[exp] = pd.DataFrame(theory_rows(exp, reference_params(config, exp), caps))

    def thr(exp: str) -> pd.DataFrame:
        return th[exp].pivot(index="capacity_mbps", columns="flow", values="throughput_mbps")

    t1 = thr("expa_s1")
    for c in (5.0, 12.0):
        for i in (0, 1):
            out[f"derived.fig1.set1.c{c:g}.rho.tcp{i + 1}"] = float(t1.loc[c, i])
    q2 = th["expa_s2"].groupby("capacity_mbps")["queue_pkts"].first()
    out["derived.fig2.set2.c5.qstar"] = float(q2.loc[5.0])
    ra = {k: thr(f"expa_s{k}")[1] / thr(f"expa_s{k}")[0] for k in SETS}
    rb = {k: thr(f"expb_s{k}")[0] / thr(f"expb_s{k}")[1] for k in SETS}
    for c in caps:
        out[f"derived.fig4.theory_ratio.sets13.c{c:g}"] = float(ra[1][c])
        out[f"derived.fig4.theory_ratio.sets24.c{c:g}"] = float(ra[2][c])
        out[f"derived.fig5.theory_ratio.set1.c{c:g}"] = float(rb[1][c])
        out[f"derived.fig5.theory_ratio.set3.c{c:g}"] = float(rb[3][c])
        out[f"derived.fig5.theory_ratio.sets24.c{c:g}"] = float(rb[2][c])
    # sets 2 and 4 share c2/c1 = 0.5
    out["fig4.theory_depends_only_on_c2_over_c1"] = same_curves([(ra[2], ra[4]), (rb[2], rb[4])])
    for parameter, grid, keys in (
        ("alpha", THEORY_ALPHAS, ("mean", "cov")),
        ("c2", THEORY_C2, ("mean", "var", "cov")),
    ):
        exp = "sec4_alpha" if parameter == "alpha" else "sec4_c2"
        s = setup_of(reference_params(config, exp))
        dists = models.window_sweep(parameter, grid, base=s.tcp, setup=s.single_flow())  # type: ignore[arg-type]
        fig = "fig6" if parameter == "alpha" else "fig7"
        for v, dist in zip(grid, dists, strict=True):
            vals = {"mean": dist.mean, "var": dist.variance, "cov": dist.cv}
            for k in keys:
                out[f"derived.{fig}.theory.{k}.{parameter}_{num_key(v)}"] = float(vals[k])
    s = setup_of(reference_params(config, "sec4_alpha"))
    d1 = models.window_sweep("c1", THEORY_C1, base=s.tcp, setup=s.single_flow())
    out["sec4.c1_up_mean_up_cov_up"] = mean_and_cov_rise(d1)
    return out


def same_curves(pairs: Sequence[tuple[pd.Series, pd.Series]], tol: float = 1e-9) -> bool:
    """Every pair of curves (over the same capacities) agrees within ``tol``: the theory's
    ratios for two parameter sets with the same c2/c1 (Figure 4's prose)."""
    return all(float(np.max(np.abs(a - b))) < tol for a, b in pairs)


def mean_and_cov_rise(dists: Sequence[models.WindowDistribution]) -> bool:
    """The windows' mean and coefficient of variation both rise strictly along ``dists``
    (Sec IV.C: 'increasing c1 increases not just the mean but the CoV as well')."""
    return strictly([d.mean for d in dists], True) and strictly([d.cv for d in dists], True)


def _eq9_left(setup: Setup, q: float) -> float:
    """Left side of eq (9) minus 1: sum_i h_i(Q) M_i / (Q + RTT_i C) - 1."""
    total = 0.0
    for f in setup.flows:
        h = models.mean_window(f, q, setup.capacity, setup.ored, setup.tcp)
        total += h * f.mss / (q + f.rtt * setup.capacity)
    return total - 1.0


#: the theory checks' criteria: residuals of a solution, and the agreement of the limit
#: process with a Monte Carlo of the chain (17) (8 x 2e5 packets: sampling error ~1 %)
RESIDUAL_OK = 1e-9
LIMIT_PROCESS_OK = 0.03
CDF_RESIDUAL_OK = 1e-3


def fixed_point_holds(drift: float, capacity_residual: float) -> bool:
    """eq (4) (zero drift for every flow) and eq (9) (the link full) hold at a point."""
    return drift < RESIDUAL_OK and capacity_residual < RESIDUAL_OK


def unique_root_holds(strictly_decreasing: bool, sign_changes: Sequence[int]) -> bool:
    """eq (9)'s left side falls strictly and crosses 1 exactly once in every set-up."""
    return strictly_decreasing and set(sign_changes) == {1}


def limit_process_holds(relative_errors: Sequence[float]) -> bool:
    """The limit process's window mean and CoV agree with the chain's Monte Carlo."""
    return max(abs(e) for e in relative_errors) <= LIMIT_PROCESS_OK


def theory_claims(config: dict) -> dict[str, tuple[bool, str]]:
    """The paper's analytical statements, checked on the model with the configured set-ups."""
    out: dict[str, tuple[bool, str]] = {}
    drift = cap = 0.0
    mono, roots, points = True, [], 0
    for exp in [f"exp{x}_s{k}" for x in "ab" for k in SETS]:
        s0 = setup_of(reference_params(config, exp))
        for c in THEORY_CAPACITIES_MBPS:
            s = replace(s0, capacity=c * 1e6 / 8.0)
            fp = models.fixed_point(s.flows, s.capacity, s.ored, s.tcp)
            drift = max(drift, float(np.max(np.abs(fp.drift_residual()))))
            cap = max(cap, abs(fp.capacity_residual()))
            lo = s.ored.min_th
            qs = lo + (20.0 * s.ored.max_th - lo) * np.logspace(-6, 0, 400)
            vals = np.array([_eq9_left(s, float(q)) for q in qs])
            mono = mono and bool(np.all(np.diff(vals) < 0))
            roots.append(int(np.sum(np.diff(np.sign(vals)) != 0)))
            points += 1
    out["sec3.fixed_point"] = (
        fixed_point_holds(drift, cap),
        f"eq (4) drift and eq (9) capacity residuals at the computed fixed point, Exps A and B, "
        f"sets 1-4, C = 5..12 Mb/s ({points} points): max {drift:.1e} and {cap:.1e} (< 1e-9)",
    )
    out["sec3.unique_fixed_point"] = (
        unique_root_holds(mono, roots),
        f"left side of eq (9) minus 1 on 400 queues from min_th to 20 max_th, same "
        f"{points} set-ups: strictly decreasing in every one: {mono}; sign changes per set-up: "
        f"{sorted(set(roots))}",
    )
    s = setup_of(reference_params(config, "sec4_alpha"))
    sf = s.single_flow()
    errors: list[float] = []
    details = []
    for alpha in (-1.0, 0.0):
        tcp = replace(s.tcp, alpha=alpha)
        dist = models.window_distribution(tcp, sf.marking())
        mc = models.simulate_window_chain(
            tcp,
            sf.marking(),
            steps=200_000,
            chains=8,
            burn_in=20_000,
            rng=np.random.default_rng(1),
        )
        e_mean = dist.mean / mc.mean - 1.0
        e_cv = dist.cv / mc.cv - 1.0
        errors += [e_mean, e_cv]
        details.append(f"alpha {alpha:g}: mean {e_mean:+.2%}, CoV {e_cv:+.2%}")
    out["prop1.limit_process"] = (
        limit_process_holds(errors),
        "window distribution of the limit process against a Monte Carlo of the chain (17) "
        "(8 x 2e5 packets, Sec IV set-up), relative differences within 3 %: " + "; ".join(details),
    )
    res = []
    for c2 in THEORY_C2:
        tcp = replace(s.tcp, c2=c2)
        dist = models.window_distribution(tcp, sf.marking())
        res.append(_cdf_residual(dist, tcp, sf.marking()))
    out["sec4.window_cdf_equation"] = (
        max(res) < CDF_RESIDUAL_OK,
        "G = 1 - F_s from the H iteration (exp(+int q), sign corrected, M7) satisfies "
        "dG/dw = -q(w) (G(w) - G(w/(1-c2))): largest residual relative to max |dG/dw| over "
        f"c2 = 0.1..0.5: {max(res):.1e} (< 1e-3)",
    )
    out["sec4.cov_const_marking"] = cov_law_claim()
    return out


def _cdf_residual(
    dist: models.WindowDistribution, tcp: models.GeneralizedTCP, marking: models.WindowMarking
) -> float:
    """max |w G'(w) + w q(w) (G(w) - G(w/(1-c2)))| / max |w G'(w)| on the solver's grid
    (central differences in u = ln w; the grid step divides ln(1/(1-c2)))."""
    m = round(-math.log1p(-tcp.c2) / dist.du)
    g = dist.ccdf
    dg = (g[2:] - g[:-2]) / (2.0 * dist.du)  # dG/du = w G'(w)
    w = dist.w[1:-1]
    above = np.concatenate([g[m:], np.zeros(m)])[1:-1]
    rhs = -w * marking.q(w, tcp) * (g[1:-1] - above)
    keep = np.arange(w.size) < w.size - m  # G(w/(1-c2)) on the grid
    return float(np.max(np.abs(dg - rhs)[keep]) / np.max(np.abs(dg[keep])))


def cov_law_claim() -> tuple[bool, str]:
    """The law cited from [10]: with constant marking, CoV proportional to sqrt(1/(1-c2)).
    For the limit process (beta = 1) the exact law is CV(W^(1-alpha)) = sqrt((1-r)/(1+r)),
    r = (1-c2)^(1-alpha): independent of c1 and p, but not proportional to sqrt(1/(1-c2))."""
    parts = []
    spread = 0.0
    for alpha in (-1.0, 0.0):
        k = [
            models.constant_marking_cv(models.GeneralizedTCP(alpha, 1.0, 1.0, c2))
            / math.sqrt(1.0 / (1.0 - c2))
            for c2 in THEORY_C2
        ]
        spread = max(spread, max(k) / min(k))
        parts.append(f"alpha {alpha:g}: {min(k):.3f} to {max(k):.3f}")
    c1s = {
        round(models.constant_marking_cv(models.GeneralizedTCP(-1.0, 1.0, c1, 0.5)), 12)
        for c1 in THEORY_C1
    }
    return (
        spread < 1.01,
        "exact law for the limit process with constant marking: CV(W^(1-alpha)) = "
        "sqrt((1-r)/(1+r)), r = (1-c2)^(1-alpha) (independent of c1 and p: "
        f"{len(c1s) == 1}); its ratio to sqrt(1/(1-c2)) over c2 = 0.1..0.5 is not constant: "
        + "; ".join(parts),
    )
