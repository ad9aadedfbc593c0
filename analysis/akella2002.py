"""Akella et al. 2002 (the TCP game): from finished searches and point runs to tidy
tables, regenerated numbers and computed claims. The run design and the search itself are in
:mod:`analysis.akella2002_search`.

Usage: the contract of :mod:`analysis.cli` (called by rule ``analyse`` of rules/common.smk;
every step also takes ``--params``)::

    python -m analysis.akella2002 fig02 --inputs SEARCH.json ... --tidy T.csv --numbers N.csv \
        --extra DIR                        # fig02-fig04, fig07-fig09, fig11; DIR/ne.csv
                                           # (reads config/originals/akella2002.yaml)
    python -m analysis.akella2002 fig05 --runs POINT/summary.json ... --tidy T.csv \
        --numbers N.csv --extra DIR        # also fig10
    python -m analysis.akella2002 fig06 --inputs FIG05_TIDY.csv --tidy T.csv --numbers N.csv \
        --extra DIR --params JSON          # the Figure 5 sender's tau in --params
    python -m analysis.akella2002 hybrid --tidy T.csv --numbers N.csv --extra DIR \
        --params JSON                      # DIR/thresholds.csv, DIR/threshold_fit.csv
                                           # (reads config/originals/akella2002.yaml)
    python -m analysis.akella2002 claims --inputs SEARCH.json ... FIG05/FIG06/FIG10_TIDY.csv \
        --tidy T.csv --numbers N.csv --claims C.csv --extra DIR --params JSON
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import special

from analysis import cli, nsio
from analysis.akella2002_search import (
    COORDS,
    FIG5_SERIES,
    MODES,
    NE_FIGURES,
    Sensitivity,
    exhaustive_grid_runs,
    fmt,
    full_sweep_runs,
    profile_metrics,
    read_point_rows,
    variant_search,
)
from analysis.compare import Published, load_originals, verdict
from analysis.models import akella2002 as models
from analysis.outputs import write_claims, write_numbers, write_tidy

#: G_n(beta_n, beta, n, C, R, tau_S) of the Severe beta game (models.severe_beta_goodput).
SevereBetaGoodput = Callable[..., Any]

#: The paper's words bracket its criteria; ours sit inside the brackets. Goodput: 0.90 Mbps
#: (of C/n = 1 Mbps) is "reasonable" (Sec 4.3.3), 0.73 Mbps "low" (Sec 4.3.1), so a good NE
#: goodput is at least GOODPUT_OK x C/n. Loss: 4 % is "good" (Sec 5.1, CHOKe+ joint NE) and
#: 4.95 % "somewhat high" (Sec 4.3.2, SACK-RED alpha NE), so a good loss rate is at most
#: LOSS_GOOD_MAX and a high one at least LOSS_HIGH_MIN (in between: neither). 26 % is
#: "extremely high" (Sec 4.2.1) where 5.7 % is only "undesirable": LOSS_EXTREME.
GOODPUT_OK = 0.85
LOSS_GOOD_MAX = 0.04
LOSS_HIGH_MIN = 0.0495
LOSS_EXTREME = 0.15
#: "Undesirable ... in comparison with the default parameter setting" (Observation 4): the
#: NE's per-flow goodput is below the default profile's by more than this fraction of C/n.
GOODPUT_DROP = 0.01


# --------------------------------------------------------------------------------------------
# figures 2-4, 7-9, 11: iteration curves and NE tables
# --------------------------------------------------------------------------------------------

#: Published numbers per search kind: figure -> {mode: [metrics in config/originals]}.
PUBLISHED = {
    "fig02": {
        "alpha": ["alpha_e"],
        "beta": ["beta_e"],
        "joint": ["alpha_e", "beta_e", "ne_goodput", "ne_loss"],
    },
    "fig03": {"alpha": ["alpha_e"], "beta": ["beta_e"], "joint": ["alpha_e", "beta_e"]},
    "fig04": {"alpha": ["alpha_e"], "beta": ["beta_e"], "joint": ["alpha_e", "beta_e"]},
    "fig07": {
        "alpha": ["alpha_e"],
        "beta": ["beta_e"],
        "joint": ["alpha_e", "beta_e", "ne_goodput", "ne_loss"],
    },
    "fig08": {
        "alpha": ["alpha_e", "ne_goodput", "ne_loss"],
        "beta": ["beta_e"],
        "joint": ["alpha_e", "beta_e", "ne_goodput", "ne_loss"],
    },
    "fig09": {
        "alpha": ["alpha_e", "ne_goodput", "ne_loss"],
        "beta": [],
        "joint": ["alpha_e", "beta_e", "ne_goodput", "ne_loss"],
    },
    "fig11": {
        "alpha": ["alpha_e"],
        "beta": ["beta_e"],
        "joint": ["alpha_e", "beta_e", "ne_goodput", "ne_loss"],
    },
}


def number_key(figure: str, mode: str, metric: str) -> str:
    """Key of a published NE number in config/originals/akella2002.yaml."""
    tcp, queue = NE_FIGURES[figure]
    num = int(figure[3:])
    if mode == "joint":
        return f"text.{tcp}_{queue}_joint.{metric}"
    return f"fig{num}{'a' if mode == 'alpha' else 'b'}.{tcp}_{queue}.{metric}"


def ne_figure(
    figure: str, searches: Sequence[Mapping]
) -> tuple[pd.DataFrame, pd.DataFrame, dict[str, float]]:
    """Tidy iteration curves, the NE table and the regenerated numbers of one figure."""
    by_mode = {s["mode"]: s for s in searches}
    if set(by_mode) != set(MODES):
        raise ValueError(
            f"{figure}: needs the alpha, beta and joint searches, got {sorted(by_mode)}"
        )
    rows, ne_rows = [], []
    numbers: dict[str, float] = {}
    for mode in MODES:
        s = by_mode[mode]
        for r in s["records"]:
            for c in r["candidates"]:
                rows.append(
                    {
                        "mode": mode,
                        "iteration": r["iteration"],
                        "coordinate": r["coordinate"],
                        "common_alpha": r["current"]["alpha"],
                        "common_beta": r["current"]["beta"],
                        "value": c["value"],
                        "mean": c["mean"],
                        "low": c["low"],
                        "high": c["high"],
                        "runs": c["runs"],
                        "picked": c["value"] == r["pick"],
                    }
                )
        ne_rows.append(
            {
                "mode": mode,
                "alpha_e": s["alpha_e"],
                "beta_e": s["beta_e"],
                "converged": s["converged"],
                "iterations": s["iterations"],
                "method": s["spec"]["method"],
                "points": s["points"],
                "runs": s["runs"],
                "full_sweep_runs": full_sweep_runs(s),
                "exhaustive_runs": exhaustive_grid_runs(s),
                "ne_goodput": s["ne"]["goodput"],
                "ne_loss": s["ne"]["loss"],
                "default_goodput": s["start_profile"]["goodput"],
                "default_loss": s["start_profile"]["loss"],
                "fair_share": s["ne"]["fair_share"],
            }
        )
        vals = {
            "alpha_e": s["alpha_e"],
            "beta_e": s["beta_e"],
            "ne_goodput": s["ne"]["goodput"],
            "ne_loss": s["ne"]["loss"],
        }
        for metric in PUBLISHED[figure][mode]:
            numbers[number_key(figure, mode, metric)] = vals[metric]
    return pd.DataFrame(rows), pd.DataFrame(ne_rows), numbers


#: The NE rows whose diagnosis (config/diagnoses/akella2002.yaml) is the paper's own
#: 85%-interval comparison (:func:`ci_tied_closest`): published key -> its check. The
#: coordinate compared is the row's (alpha_e: alpha, beta_e: beta).
CI_TIED_ROWS = {
    k: f"check.{k}.ci_tied"
    for k in (
        "fig2b.sack_droptail.beta_e",
        "fig3b.tahoe_droptail.beta_e",
        "text.tahoe_droptail_joint.beta_e",
        "text.reno_droptail_joint.beta_e",
        "fig7a.tahoe_red.alpha_e",
        "text.sack_droptail_joint.alpha_e",
        "text.tahoe_red_joint.alpha_e",
        "text.sack_red_joint.alpha_e",
    )
}


def ci_tied_values(search: Mapping, coordinate: str) -> list[float]:
    """The candidates of the search's last sweep of ``coordinate`` whose interval of F_n's
    goodput overlaps the picked one's: by Sec 4.1's comparison ("G_n(x1) < G_n(x2) iff the
    85% CIs do not overlap") none of them is worse than the pick (the pick among them included;
    [] when the search never swept ``coordinate``)."""
    recs = [r for r in search["records"] if r["coordinate"] == coordinate]
    if not recs:
        return []
    last = recs[-1]
    cands = [c for c in last["candidates"] if c["runs"] > 0]
    pick = next(c for c in cands if c["value"] == last["pick"])
    return sorted(
        float(c["value"]) for c in cands if c["low"] <= pick["high"] and pick["low"] <= c["high"]
    )


def ci_tied_closest(search: Mapping, coordinate: str, published: float) -> float:
    """Of :func:`ci_tied_values`, the one nearest the published NE (nan when there is none):
    the check of the :data:`CI_TIED_ROWS` diagnoses, which hold when the paper's own interval
    comparison cannot tell the published value from our pick."""
    tied = ci_tied_values(search, coordinate)
    return min(tied, key=lambda v: abs(v - published)) if tied else math.nan


#: The NE rows whose diagnosis is Sec 5.1's reading of the pick (:func:`conservative_pick`):
#: published key -> its check.
CONSERVATIVE_ROWS = {k: f"check.{k}.conservative_pick" for k in ("fig11b.sack_chokeplus.beta_e",)}


def conservative_pick(search: Mapping, coordinate: str) -> float:
    """Sec 5.1's "greedy flows do not choose a more aggressive parameter setting unless it
    yields a substantially higher goodput with high confidence", replayed on the search's
    last sweep of ``coordinate``: the least aggressive candidate (the smallest alpha or beta)
    that no more aggressive candidate beats by Sec 4.1's comparison (its 85 % interval of F_n's
    goodput lies entirely above). nan when the search never swept ``coordinate``, or its last
    sweep ran no candidate."""
    recs = [r for r in search["records"] if r["coordinate"] == coordinate]
    if not recs:
        return math.nan
    cands = sorted((c for c in recs[-1]["candidates"] if c["runs"] > 0), key=lambda c: c["value"])
    # the most aggressive candidate has no larger one to beat it: the loop ends by then
    return next(
        (float(c["value"]) for i, c in enumerate(cands)
         if not any(d["low"] > c["high"] for d in cands[i + 1 :])),
        math.nan,
    )  # fmt: skip


def ci_tied_checks(
    figure: str, searches: Sequence[Mapping], published: Mapping[str, float]
) -> dict[str, float]:
    """The checks of :data:`CI_TIED_ROWS` (``published``: the rows' published values, read
    from the originals) and of :data:`CONSERVATIVE_ROWS` among ``figure``'s searches."""
    out: dict[str, float] = {}
    for s in searches:
        for metric in PUBLISHED[figure][s["mode"]]:
            key = number_key(figure, s["mode"], metric)
            coordinate = "alpha" if metric == "alpha_e" else "beta"
            if key in CI_TIED_ROWS and key in published:
                out[CI_TIED_ROWS[key]] = ci_tied_closest(s, coordinate, published[key])
            if key in CONSERVATIVE_ROWS:
                out[CONSERVATIVE_ROWS[key]] = conservative_pick(s, coordinate)
    return out


# --------------------------------------------------------------------------------------------
# Figure 5 (measured loss functions), Figure 6 (F_a, F_b), Figure 10 (loss assignment)
# --------------------------------------------------------------------------------------------


def _points_table(point_dirs: Sequence[Path], seeds: Sequence[int]) -> pd.DataFrame:
    """One row per point: its coordinates, n and :func:`profile_metrics`."""
    rows = []
    for d in point_dirs:
        runs = read_point_rows(d, seeds)
        first = runs[0]
        rows.append(
            {**{k: first[f"p_{k}"] for k in COORDS}, "n": int(first["n"]), **profile_metrics(runs)}
        )
    return pd.DataFrame(rows)


def fig05(
    point_dirs: Sequence[Path], seeds: Sequence[int]
) -> tuple[pd.DataFrame, dict[str, float]]:
    """p (loss rate common to all flows at the symmetric point x) and P = dp'/dx' (F_n at
    x -+ h, one-sided at the ends), per series and parameter. p' is the aggregate loss rate
    for RED (equal for all flows by the model's assumption) and F_n's own loss rate for
    CHOKe+ (docs/akella2002.md A8); both slopes are kept (``P_aggregate``, ``P_fn``; ``P`` is
    the one Figure 6 uses). The Figure 5(b) number compares ``P_fn`` of both queues
    (:func:`p_a_log10_ratio`)."""
    t = _points_table(point_dirs, seeds)
    out = []
    for (tcp, queue), g in t.groupby(["tcp", "queue"]):
        for prm, other in (("alpha", "beta"), ("beta", "alpha")):
            dev = f"{prm}_n"
            # symmetric points of this derivative: all flows at x, the other coordinate fixed
            sym = g[(g[prm] == g[dev]) & (g[other] == g[f"{other}_n"])]
            for _, s in sym.iterrows():
                nb = g[
                    (g[prm] == s[prm])
                    & (g[other] == s[other])
                    & (g[f"{other}_n"] == s[other])
                    & (g[dev] != s[prm])
                ]
                if nb.empty:
                    continue  # a symmetric point of the other derivative
                lo = nb[nb[dev] < s[prm]].sort_values(dev).tail(1)
                hi = nb[nb[dev] > s[prm]].sort_values(dev).head(1)
                a = lo.iloc[0] if len(lo) else s
                b = hi.iloc[0] if len(hi) else s
                h = float(b[dev] - a[dev])
                use_fn = queue != "red"
                out.append(
                    {
                        "tcp": tcp,
                        "queue": queue,
                        "series": f"{tcp}_{queue}",
                        "parameter": prm,
                        "x": float(s[prm]),
                        "p": float(s["aggregate_loss"]),
                        "p_fn": float(s["loss_fn"]),
                        "P_aggregate": float((b["aggregate_loss"] - a["aggregate_loss"]) / h),
                        "P_fn": float((b["loss_fn"] - a["loss_fn"]) / h),
                        "P": float(
                            (
                                (b["loss_fn"] - a["loss_fn"])
                                if use_fn
                                else (b["aggregate_loss"] - a["aggregate_loss"])
                            )
                            / h
                        ),
                        "h": h,
                        "srtt": float(s["srtt"]),
                        "rto": float(s["rto"]),
                        "goodput": float(s["goodput"]),
                        "n": int(s["n"]),
                    }
                )
    tidy = pd.DataFrame(out).sort_values(["series", "parameter", "x"]).reset_index(drop=True)
    numbers: dict[str, float] = {}
    ratio = p_a_log10_ratio(tidy)
    if ratio is not None:
        numbers["fig5b.chokeplus_vs_red.p_a_log10_ratio"] = ratio
    return tidy, numbers


def p_a_log10_ratio(fig5: pd.DataFrame) -> float | None:
    """Figure 5(b) (Sec 5.1, "P_a is an order of magnitude higher for CHOKe+ buffers compared
    to the corresponding values for RED buffers"): :func:`log10_ratio` of the mean P_a of SACK
    under CHOKe+ over the mean P_a of SACK under RED, over the alphas both series measured;
    None when they share none.

    P_a is the same quantity for both queues: the slope of the loss rate F_n itself sees,
    ``P_fn`` = dp'/dalpha' of F_n's own loss (docs/akella2002.md A16). It is not the ``P``
    column, which for RED is the slope of the aggregate loss rate (the common p' of the RED
    model, A8): under RED the two agree only in expectation, and dividing one queue's
    aggregate slope by the other's own-flow slope compares two different quantities."""
    pa = fig5[fig5["parameter"] == "alpha"]
    cp = pa[pa["series"] == "sack_chokeplus"].set_index("x")["P_fn"]
    rd = pa[pa["series"] == "sack_red"].set_index("x")["P_fn"]
    common = cp.index.intersection(rd.index)
    if not len(common):
        return None
    return log10_ratio(float(cp[common].mean()), float(rd[common].mean()))


def log10_ratio(num: float, den: float) -> float:
    """Orders of magnitude between two slopes ("an order of magnitude higher": about 1).
    A positive slope over a non-positive one has no order of magnitude (nan); a non-positive
    numerator over a positive denominator is -inf (the opposite of the claim)."""
    if den <= 0:
        return math.nan
    if num <= 0:
        return -math.inf
    return math.log10(num / den)


#: the check of the Reno/RED alpha_E rows' diagnosis (config/diagnoses/akella2002.yaml): the
#: fraction of the measured alphas at which the fitted Reno/RED F_a is not significantly
#: negative (:func:`fa_not_negative_fraction`)
RENO_RED_FA_CHECK = "check.fig6a.reno_red.fa_not_negative_fraction"
#: the one-sided level of F_a's upper confidence bound in :func:`fa_not_negative_fraction`,
#: and its normal quantile
FA_NEGATIVE_LEVEL = 0.95
FA_NEGATIVE_Z = float(special.ndtri(FA_NEGATIVE_LEVEL))
#: the Figure 6(a) crossing row, whose diagnosis tests tau_S (:func:`fa_crossing_tau_s`)
TAHOE_CROSSING = "fig6a.tahoe_red.fa_zero_crossing"
#: its check: the crossing under the tested tau_S nearest the published bound
TAHOE_CROSSING_CHECK = f"check.{TAHOE_CROSSING}.closest_tau_s"


def fig06(fig5: pd.DataFrame, tau_s: float) -> tuple[pd.DataFrame, dict[str, float]]:
    """F_a(alpha) and F_b(beta) from the Figure 5 measurements with the model of each TCP
    (Tahoe severe with tau_S, SACK gentle, Reno hybrid with T_0 = measured mean RTO); the
    round-trip time is the measured mean smoothed RTT at each point. Points without losses
    (p = 0) have no F. The tidy F is the raw curve (each point's own measured slope); the
    Tahoe-RED crossing number is read from a fitted F_a (:func:`fa_zero_crossing`), and so is
    the check ``RENO_RED_FA_CHECK`` (:func:`fa_not_negative_fraction`). The crossing under
    each tested tau_S is :func:`fa_crossing_tau_s`."""
    rows = []
    for _, r in fig5.iterrows():
        model = FIG5_SERIES[(r["tcp"], r["queue"])]
        f = math.nan
        if r["p"] > 0 and r["srtt"] > 0 and (r["parameter"] == "beta" or r["x"] > 0):
            kw = {
                "tau_s": tau_s if model == "severe" else None,
                "t0": r["rto"] if model == "hybrid" else None,
            }
            if r["parameter"] == "alpha":
                f = float(models.f_alpha(model, r["x"], r["p"], r["P"], r["srtt"], **kw))  # type: ignore[arg-type]
            else:
                f = float(models.f_beta(model, r["x"], r["p"], r["P"], r["srtt"], **kw))  # type: ignore[arg-type]
        rows.append(
            {
                "series": r["series"],
                "parameter": r["parameter"],
                "model": model,
                "x": r["x"],
                "F": f,
            }
        )
    tidy = pd.DataFrame(rows)
    numbers: dict[str, float] = {}
    crossing = fa_zero_crossing(fig5, "tahoe_red", tau_s)
    if crossing is not None:
        numbers["fig6a.tahoe_red.fa_zero_crossing"] = crossing
    positive = fa_not_negative_fraction(fig5, "reno_red", tau_s)
    if positive is not None:
        numbers[RENO_RED_FA_CHECK] = positive
    return tidy, numbers


#: Half-width, in alpha, of the running-line fit of P_a(alpha) behind the Figure 6(a) crossing
#: (:func:`fa_zero_crossing`). At the paper's alpha step of 1 a fitted slope pools 21
#: measured slopes (its variance about that of one central difference with h = 5 from the
#: same number of runs); at the quick sweep's steps of 5-10 it pools 2-5.
FA_FIT_HALFWIDTH = 10.0


def _running_line_matrix(x: np.ndarray, weights: np.ndarray, halfwidth: float) -> np.ndarray:
    """The running-line smoother as a matrix L (fit = L @ y): row i holds the weights of the
    weighted straight line through the points with |x_j - x_i| <= ``halfwidth``, read at x_i
    (a window with a single distinct x: the weighted mean there)."""
    n = x.size
    out = np.zeros((n, n))
    for i, x0 in enumerate(x):
        m = (np.abs(x - x0) <= halfwidth) & (weights > 0)
        if np.unique(x[m]).size < 2:
            out[i, m] = weights[m] / weights[m].sum()
            continue
        design = np.column_stack([np.ones(m.sum()), x[m] - x0])
        wd = design * weights[m][:, None]
        # intercept of the weighted least squares: first row of (X'WX)^-1 X'W
        out[i, m] = np.linalg.solve(design.T @ wd, wd.T)[0]
    return out


def running_line(x: np.ndarray, y: np.ndarray, weights: np.ndarray, halfwidth: float) -> np.ndarray:
    """Local linear least-squares fit of y(x), evaluated at every x: at x_i, the weighted
    straight line through the points with |x_j - x_i| <= ``halfwidth`` (uniform kernel, the
    running-line smoother), its value at x_i. Unlike a moving average it has no first-order
    bias, also at the ends of the range, and reproduces a straight line exactly. A window
    holding a single distinct x keeps y (weighted mean) there. Deterministic."""
    return running_line_se(x, y, weights, halfwidth)[0]


def running_line_se(
    x: np.ndarray, y: np.ndarray, weights: np.ndarray, halfwidth: float
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`running_line` and the standard error of its value at each x. The weights are
    inverse variances up to one common factor sigma^2 (var y_j = sigma^2 / w_j), estimated
    from the residuals as for any linear smoother: sigma^2 = sum w_j (y_j - fit_j)^2 /
    (n - tr L), L the smoother matrix (fit = L y); then var fit_i = sigma^2 sum_j L_ij^2 /
    w_j. Zero when the fit reproduces every point (or n <= tr L)."""
    x, y, w = (np.asarray(v, dtype=float) for v in (x, y, weights))
    mat = _running_line_matrix(x, w, halfwidth)
    fit = mat @ y
    dof = x.size - float(np.trace(mat))
    used = w > 0
    rss = float(np.sum(w[used] * (y[used] - fit[used]) ** 2))
    sigma2 = rss / dof if dof > 0 and rss > 0 else 0.0
    inv_w = np.divide(1.0, w, out=np.zeros_like(w), where=used)
    return fit, np.sqrt(sigma2 * (mat**2 @ inv_w))


def fa_fitted(
    fig5: pd.DataFrame,
    series: str,
    tau_s: float,
    halfwidth: float = FA_FIT_HALFWIDTH,
    shift: float = 0.0,
) -> tuple[np.ndarray, np.ndarray] | None:
    """(alphas, F_a) of ``series`` with P_a estimated by regression (the curve
    :func:`fa_zero_crossing` reads); None without usable alpha points.

    The measured slope P_a at each alpha is a difference quotient of two noisy loss rates
    (variance ~ 1/h^2; alpha step 1 at paper fidelity), and F_a is linear in P_a, so the raw F_a
    changes sign wherever one slope is high or low by chance. Sec 4.3 treats p_a and P_a as
    smooth functions of alpha estimated from the measurements, so we estimate the function
    P_a(alpha) by regression: a running-line (local linear least-squares) fit over alpha -+
    ``halfwidth`` (:func:`running_line`), each measured slope weighted by h^2 (the inverse of
    its variance, equal noise in the loss rates assumed). F_a is then computed from the
    measured p_a, round-trip time and RTO and the fitted P_a (:func:`models.f_alpha`, the
    series' model, ``tau_s`` for Severe). Points without losses (p = 0) or with alpha = 0 have
    no F_a and are left out. ``shift`` moves the fitted P_a by that many of its standard
    errors (:func:`running_line_se`) before F_a is computed: every model's F_a falls as P_a
    grows (its coefficient is -C_a times a positive factor), so a shift of -z gives F_a's
    one-sided upper confidence bound at level z (:func:`fa_not_negative_fraction`)."""
    d = fig5[
        (fig5["series"] == series)
        & (fig5["parameter"] == "alpha")
        & (fig5["p"] > 0)
        & (fig5["srtt"] > 0)
        & (fig5["x"] > 0)
    ].sort_values("x")
    if d.empty:
        return None
    model = FIG5_SERIES[(d["tcp"].iloc[0], d["queue"].iloc[0])]
    x = d["x"].to_numpy(dtype=float)
    h = d["h"].to_numpy(dtype=float)
    p_fit, p_se = running_line_se(x, d["P"].to_numpy(dtype=float), h**2, halfwidth)
    p_fit = p_fit + shift * p_se
    ts = tau_s if model == "severe" else None
    t0s = d["rto"] if model == "hybrid" else [None] * len(d)
    f_fit = np.array(
        [
            float(models.f_alpha(model, xi, pi, di, ri, tau_s=ts, t0=ti))  # type: ignore[arg-type]
            for xi, pi, di, ri, ti in zip(x, d["p"], p_fit, d["srtt"], t0s, strict=True)
        ]
    )
    return x, f_fit


def fa_zero_crossing(
    fig5: pd.DataFrame, series: str, tau_s: float, halfwidth: float = FA_FIT_HALFWIDTH
) -> float | None:
    """Figure 6(a)'s bound on alpha_E (Sec 4.3.1: F_a > 0 below the crossing, so alpha_E is at
    least there) from the fitted F_a (:func:`fa_fitted`: the raw F_a's first sign change is
    biased early by the noise of the measured slopes); None without usable alpha points of
    ``series``. The bound is the first + to - sign change of the fitted F_a
    (:func:`zero_crossing_bound`), the paper's reading of its curve. The rule "last sign
    change after which F_a stays negative" was not taken: it does not reduce the noise, only
    moves its bias late, and it would place the bound where the measured F_a is negative."""
    fit = fa_fitted(fig5, series, tau_s, halfwidth)
    return None if fit is None else zero_crossing_bound(*fit)


def fa_not_negative_fraction(
    fig5: pd.DataFrame,
    series: str,
    tau_s: float,
    halfwidth: float = FA_FIT_HALFWIDTH,
    z: float = FA_NEGATIVE_Z,
) -> float | None:
    """The fraction of the measured alphas at which the fitted F_a (:func:`fa_fitted`) is not
    significantly negative: its one-sided upper confidence bound at level ``z`` (the fitted
    slope P_a moved down by z standard errors) is positive. None without usable alpha points.
    1 is Sec 4.3.3's "F > 0 throughout" as far as our measurements can tell it: no alpha at
    which the data put F_a below zero. The check of the Reno/RED alpha_E rows' diagnosis; a
    point estimate's sign alone (the first criterion) fails by chance wherever the fitted
    slope is noisy, e.g. at the ends of the range, where the running line sees half a
    window."""
    fit = fa_fitted(fig5, series, tau_s, halfwidth, shift=-z)
    return None if fit is None else float(np.mean(fit[1] > 0))


def fa_alpha_bound(
    fig5: pd.DataFrame, series: str, tau_s: float, halfwidth: float = FA_FIT_HALFWIDTH
) -> float | None:
    """Sec 4.3.1's lower bound on alpha_E from the fitted F_a: its first + to - crossing
    (:func:`fa_zero_crossing`) or, where F_a stays positive over the whole measured range, the
    largest measured alpha (F_a > 0 up to there, so alpha_E is at least there). None without
    usable alpha points."""
    fit = fa_fitted(fig5, series, tau_s, halfwidth)
    if fit is None:
        return None
    bound = zero_crossing_bound(*fit)
    return float(fit[0][-1]) if math.isnan(bound) else bound


def fa_crossing_tau_s(
    fig5: pd.DataFrame, series: str, tau_values: Sequence[float], pub: Published
) -> tuple[pd.DataFrame, float]:
    """Figure 6(a)'s bound on alpha_E (:func:`fa_alpha_bound`) under each tested tau_S (the
    Severe model's penalty, not stated for Figure 6), and of these the one nearest the
    published bound (:func:`_closest_tested`): the check of the crossing row's
    unstated-parameter diagnosis."""
    rows = [
        {"tau_s": float(t), "alpha_bound": fa_alpha_bound(fig5, series, float(t))}
        for t in tau_values
    ]
    table = pd.DataFrame(rows, columns=["tau_s", "alpha_bound"])
    found = [float(v) for v in table["alpha_bound"] if v is not None and not math.isnan(v)]
    return table, _closest_tested(found, pub)


def zero_crossing_bound(x: np.ndarray, f: np.ndarray) -> float:
    """Where F_a first turns from + to - (Figure 6(a): F_a > 0 below it, so alpha_E >= that
    alpha), by linear interpolation; :func:`fa_zero_crossing` applies it to the fitted F_a.
    F not positive at the first point: that point; F positive throughout the measured
    range: nan, since the curve the paper reads its bound from (a crossing) is not there."""
    if f[0] <= 0:
        return float(x[0])
    return float(models.first_zero_crossing(x, f)) if len(x) > 1 else math.nan


def fig10(
    point_dirs: Sequence[Path], seeds: Sequence[int]
) -> tuple[pd.DataFrame, dict[str, float | bool]]:
    """Loss rates of F_n and of F_1..F_{n-1} (mean over flows and runs) as F_n's alpha or
    beta varies, the others at the point's common (alpha, beta)."""
    t = _points_table(point_dirs, seeds)
    rows = []
    for _, r in t.iterrows():
        prm = "alpha" if r["beta_n"] == r["beta"] else "beta"
        if r["alpha_n"] == r["alpha"] and r["beta_n"] == r["beta"]:
            for prm in ("alpha", "beta"):  # the symmetric point starts both curves
                rows.append(_fig10_row(r, prm))
            continue
        rows.append(_fig10_row(r, prm))
    tidy = pd.DataFrame(rows).sort_values(["queue", "parameter", "x"]).reset_index(drop=True)
    numbers: dict[str, float | bool] = {}
    first = t.iloc[0]
    numbers["fig10.n_flows"] = float(first["n"])
    numbers["fig10.others_alpha"] = float(first["alpha"])
    numbers["fig10.others_beta"] = float(first["beta"])
    for prm, key in (("alpha", "fig10a.alpha10_range"), ("beta", "fig10b.beta10_range")):
        xs = tidy[tidy["parameter"] == prm]["x"]
        if len(xs):
            numbers[key] = float(xs.max())
    red = tidy[tidy["queue"] == "red"]
    if len(red):
        numbers["fig10.red.curves_coincide"] = bool(red_curves_coincide(red)[0])
    return tidy, numbers


def _fig10_row(r: pd.Series, prm: str) -> dict:
    return {
        "queue": r["queue"],
        "parameter": prm,
        "x": float(r[f"{prm}_n"]),
        "loss_fn": float(r["loss_fn"]),
        "loss_others": float(r["loss_others"]),
        "goodput_fn": float(r["goodput_fn"]),
        "goodput_others": float(r["goodput_others"]),
    }


def red_curves_coincide(red: pd.DataFrame, tolerance: float = 0.25) -> tuple[bool, float]:
    """Figure 10 caption: under RED F_10's loss rate equals F_1..F_9's. Criterion: the mean
    over the swept points of |loss_fn - loss_others| / loss_others is at most ``tolerance``."""
    d = red[red["loss_others"] > 0]
    if d.empty:
        return False, math.nan
    gap = float(((d["loss_fn"] - d["loss_others"]).abs() / d["loss_others"]).mean())
    return gap <= tolerance, gap


# --------------------------------------------------------------------------------------------
# Sec 5.1: plain CHOKe's 1/N loss floor with few flows
# --------------------------------------------------------------------------------------------

#: the row the plain-CHOKe sweep regenerates: "When there are relatively small number of flows
#: (< 50), this starting loss rate is excessively high and results in the severe
#: under-utilization of the available capacity" (Sec 5.1)
CHOKE_FEW_FLOWS = "choke.too_few_flows"
#: its diagnosis's check: the row under the tested RED thresholds nearest the published bound
CHOKE_FEW_FLOWS_CHECK = f"check.{CHOKE_FEW_FLOWS}.thresholds"


def choke_flows(
    point_dirs: Sequence[Path],
    seeds: Sequence[int],
    underuse: float,
    thresholds: tuple[float, float],
    pub: Published,
) -> tuple[pd.DataFrame, dict[str, float]]:
    """Plain CHOKe (k = 1) with N standard flows, one point per N and pair of RED thresholds
    (min_th, max_th): the link's utilisation (the packets it sent, arrivals less drops at the
    bottleneck, over C; mean and standard deviation over runs), the flows' goodput over C, the
    mean per-flow and the aggregate loss rate, and CHOKe's floor 1/N. The row is
    :func:`too_few_flows` of the mean utilisations at ``underuse`` under the configured
    ``thresholds``; its check value, the same under the other thresholds tested at which the
    fewest swept flows under-use the link, the one nearest the published bound ``pub``
    (:func:`_closest_tested`)."""
    rows = []
    for d in point_dirs:
        flows = read_point_rows(d, seeds)
        n = int(flows[0]["n"])
        used, good = [], []
        for s in seeds:
            summary = nsio.read_summary(Path(d) / f"s{s}")
            prm = summary["params"]
            bits = float(prm["pkt_size"]) * 8.0 / float(summary["results"]["window_s"])
            mine = [r for r in flows if r["seed"] == s]
            sent = sum(r["arrivals"] - r["drops"] for r in mine)
            used.append(sent * bits / float(prm["bw"]))
            good.append(sum(r["goodput"] for r in mine) * 1e6 / float(prm["bw"]))
        u = np.array(used)
        m = profile_metrics(flows)
        rows.append(
            {
                "min_th": float(prm["red_thresh"]),
                "max_th": float(prm["red_maxthresh"]),
                "n": n,
                "utilisation": float(u.mean()),
                "utilisation_sd": float(u.std(ddof=1)) if u.size > 1 else math.nan,
                "goodput_share": float(np.mean(good)),
                "loss": m["loss"],
                "aggregate_loss": m["aggregate_loss"],
                "floor": 1.0 / n,
                "runs": int(u.size),
            }
        )
    tidy = pd.DataFrame(rows).sort_values(["min_th", "max_th", "n"]).reset_index(drop=True)
    ours = tuple(float(t) for t in thresholds)
    found, regime = {}, {}
    for key, g in tidy.groupby(["min_th", "max_th"]):
        found[key] = too_few_flows(g["n"].to_numpy(), g["utilisation"].to_numpy(), underuse)
        regime[key] = bool(g["utilisation"].iloc[0] < underuse)  # the fewest flows (sorted)
    if ours not in found:
        raise ValueError(f"no plain-CHOKe point has the configured thresholds {ours}")
    # a tested pair explains the row only where it shows the sentence's situation: the fewest
    # swept flows under-use the link (else its bound passes on a dip among more flows)
    tested = [v for key, v in found.items() if key != ours and regime[key]]
    numbers = {CHOKE_FEW_FLOWS: found[ours]}
    if tested:
        numbers[CHOKE_FEW_FLOWS_CHECK] = _closest_tested(tested, pub)
    return tidy, numbers


def too_few_flows(ns: np.ndarray, utilisation: np.ndarray, underuse: float) -> float:
    """The largest swept N at which plain CHOKe leaves the link severely under-used
    (utilisation below ``underuse``): the sentence's "too few" flows reach up to it, and the
    published bound says they stay below about 50. nan when no swept N is under-used: there are
    no too few flows, and the sentence's regime is not there to compare."""
    if len(ns) != len(utilisation) or not len(ns):
        raise ValueError("one utilisation per swept N is needed")
    under = [float(n) for n, u in zip(ns, utilisation, strict=True) if u < underuse]
    return max(under) if under else math.nan


# --------------------------------------------------------------------------------------------
# the Hybrid (Reno) drop-tail evaluation of Sec 4.2.3 (no simulation)
# --------------------------------------------------------------------------------------------

HYBRID_SMALL_N = 50  # "n small (approx 50)"
HYBRID_LARGE_N = 101  # "n large (> 100)": the smallest n the statement covers
HYBRID_NS = (10, HYBRID_SMALL_N, HYBRID_LARGE_N, 200, 1000)
HYBRID_GAIN = 0.1  # "significantly better": 10 % more goodput (our reading)
HYBRID_MARGIN = 1.1  # "when C/n exceeds the given values": C/n = 1.1 x the threshold (ours)


def hybrid(pkt_size: float) -> tuple[pd.DataFrame, pd.DataFrame, dict[str, float]]:
    """Thresholds of the Hybrid evaluation (tau_S = 20, R = 0.12 s) and gain curves.

    Returns (threshold table, gain curves, numbers). Threshold: the largest C/n with
    G_n(alpha_n) < G_n(1) for every alpha_n (model.hybrid_threshold_bdp), in packets and in
    Mbps for ``pkt_size`` and 1500-byte packets. 'alpha needed': the smallest alpha_n with
    a 10 % gain over G_n(1) at C/n = 1.1 x the threshold, n = 50 (HYBRID_GAIN, HYBRID_MARGIN)."""
    r, ts = models.HYBRID_RTT, models.HYBRID_TAU_S
    rows = []
    for n in HYBRID_NS:
        c = models.hybrid_threshold_bdp(n, ts)
        need = models.hybrid_alpha_needed(n, HYBRID_MARGIN * c * n, ts, gain=HYBRID_GAIN)
        rows.append(
            {
                "n": n,
                "threshold_pkts": c,
                "threshold_mbps": float(models.bdp_packets_to_mbps(c, r, pkt_size)),
                "threshold_mbps_1500": float(models.bdp_packets_to_mbps(c, r, 1500.0)),
                "alpha_needed_10pct": need,
            }
        )
    table = pd.DataFrame(rows)
    curves = []
    alphas = np.unique(np.concatenate([np.linspace(1.0, 10.0, 37), np.geomspace(10.0, 1000.0, 60)]))
    for n in (HYBRID_SMALL_N, HYBRID_LARGE_N):
        for mbps in (1.0, 1.5, 2.0, 2.5, 3.0):
            cpn = float(models.mbps_to_bdp_packets(mbps, r, pkt_size))
            if cpn <= ts:
                continue
            g = np.asarray(models.hybrid_gain(alphas, n, cpn * n, ts))
            curves += [
                {"n": n, "c_per_n_mbps": mbps, "alpha_n": float(a), "gain": float(v)}
                for a, v in zip(alphas, g, strict=True)
            ]
    t = table.set_index("n")
    numbers = {
        "analysis.hybrid.tau_s": ts,
        "analysis.hybrid.r": r,
        "analysis.hybrid.small_n": float(HYBRID_SMALL_N),
        "analysis.hybrid.small_n.max_c_per_n": float(t.loc[HYBRID_SMALL_N, "threshold_mbps"]),
        "analysis.hybrid.large_n": float(HYBRID_LARGE_N),
        "analysis.hybrid.large_n.max_c_per_n": float(t.loc[HYBRID_LARGE_N, "threshold_mbps"]),
        "analysis.hybrid.alpha_needed_above_threshold": float(
            t.loc[HYBRID_SMALL_N, "alpha_needed_10pct"]
        ),
        "analysis.severe_beta.min_n": float(severe_beta_min_n(models.severe_beta_goodput)),
        "model.hybrid_gentle_loss_threshold": hybrid_gentle_threshold(),
    }
    return table, pd.DataFrame(curves), numbers


#: The published Hybrid rows of Sec 4.2.3 that :func:`hybrid_fit` fits and checks.
HYBRID_SMALL_KEY = "analysis.hybrid.small_n.max_c_per_n"
HYBRID_LARGE_KEY = "analysis.hybrid.large_n.max_c_per_n"
HYBRID_ALPHA_KEY = "analysis.hybrid.alpha_needed_above_threshold"
#: Readings under which eq (18)'s thresholds (packets per flow) become the paper's Mbps
#: (docs/akella2002.md A17): the packet size is solved for, and kept if it lies in this range
#: (bytes: a 40-byte TCP/IP header to a 9000-byte jumbo frame); the length of a round in units
#: of R (R = 0.12 s, or the model's mean round 3R/2: T = 3R(tau_O + 1)/2 over tau_O + 1
#: rounds); "n large (> 100)" at these n; F_n's restart window N_0 = C/n (Sec 4.2.3) or
#: beta C/n with beta = 0.5 (Table 1, E8).
HYBRID_FIT_PKT_RANGE = (40.0, 9000.0)
HYBRID_FIT_ROUNDS = {"R": 1.0, "3R/2": 1.5}
HYBRID_FIT_LARGE_NS = (HYBRID_LARGE_N, 200, 1000)
HYBRID_FIT_RESTARTS: dict[str, float | None] = {"C/n": None, "beta C/n": 0.5}
#: the checks of the Hybrid rows' diagnoses (config/diagnoses/akella2002.yaml)
HYBRID_CHECKS = {
    HYBRID_SMALL_KEY: f"check.{HYBRID_SMALL_KEY}.fitted_to_large_n",
    HYBRID_LARGE_KEY: f"check.{HYBRID_LARGE_KEY}.fitted_to_small_n",
    HYBRID_ALPHA_KEY: f"check.{HYBRID_ALPHA_KEY}.fitted_to_large_n",
}
#: threshold(n, restart_beta) -> the largest per-flow C/n in packets (models.hybrid_threshold_bdp)
HybridThreshold = Callable[[int, float | None], float]


def _hybrid_threshold(n: int, restart_beta: float | None) -> float:
    return float(models.hybrid_threshold_bdp(n, models.HYBRID_TAU_S, restart_beta=restart_beta))


def hybrid_fit(
    published: Mapping[str, float],
    threshold: HybridThreshold = _hybrid_threshold,
    pkt_range: tuple[float, float] = HYBRID_FIT_PKT_RANGE,
) -> tuple[pd.DataFrame, dict[str, float]]:
    """Sec 4.2.3's printed formula fitted to one of its own thresholds, evaluated at the other
    (the check of the Hybrid rows' paper-inconsistent diagnoses; docs/akella2002.md A17).

    ``published``: the paper's values of HYBRID_SMALL_KEY, HYBRID_LARGE_KEY and
    HYBRID_ALPHA_KEY (read from config/originals, never typed). Eq (18)'s threshold is a
    number of packets per flow c(n), independent of R; in Mbps it is c(n) 8 S / t / 1e6 for
    packets of S bytes and rounds of t seconds. For each reading (round length, large n,
    restart window N_0; HYBRID_FIT_*) and each of the two published thresholds, the packet
    size S that makes the model's threshold equal it is solved for exactly (a continuous scan
    of S); with S in ``pkt_range`` the other threshold is evaluated under the same S and t.
    Fitted to the n > 100 threshold, the paper's n ~ 50 value is also converted to packets and
    the alpha_n needed there is computed as for HYBRID_ALPHA_KEY (gain HYBRID_GAIN at
    HYBRID_MARGIN x that C/n). ``threshold`` is :func:`models.hybrid_threshold_bdp` (a test
    passes a closed form).

    Returns (one row per reading and fitted row, check values): each check is, over the
    readings with S in range, the evaluated value closest to the published one (nan when no
    reading has S in range)."""
    small, large = float(published[HYBRID_SMALL_KEY]), float(published[HYBRID_LARGE_KEY])
    alpha_pub = float(published[HYBRID_ALPHA_KEY])
    r, ts = models.HYBRID_RTT, models.HYBRID_TAU_S
    lo, hi = pkt_range
    rows = []
    for restart, rb in HYBRID_FIT_RESTARTS.items():
        c_small = float(threshold(HYBRID_SMALL_N, rb))
        for n_large in HYBRID_FIT_LARGE_NS:
            c_large = float(threshold(n_large, rb))
            for rnd, k in HYBRID_FIT_ROUNDS.items():
                t = k * r
                for fitted, target, c_fit, n_other, c_other in (
                    ("large_n", large, c_large, HYBRID_SMALL_N, c_small),
                    ("small_n", small, c_small, n_large, c_large),
                ):
                    s = float(models.mbps_to_bdp_packets(target, t, 1.0)) / c_fit
                    ok = lo <= s <= hi
                    other = float(models.bdp_packets_to_mbps(c_other, t, s))
                    need = math.nan
                    cpn = HYBRID_MARGIN * float(models.mbps_to_bdp_packets(small, t, s))
                    if fitted == "large_n" and ok and cpn > ts:  # the model needs C/n > tau_S
                        n0 = None if rb is None else rb * cpn
                        need = float(
                            models.hybrid_alpha_needed(
                                HYBRID_SMALL_N, cpn * HYBRID_SMALL_N, ts, gain=HYBRID_GAIN, n0=n0
                            )
                        )
                    rows.append(
                        {
                            "fitted": fitted,
                            "restart": restart,
                            "n_large": n_large,
                            "round": rnd,
                            "round_s": t,
                            "c_small_pkts": c_small,
                            "c_large_pkts": c_large,
                            "pkt_size": s,
                            "in_range": ok,
                            "evaluated_n": n_other,
                            "evaluated_mbps": other,
                            "alpha_needed": need,
                        }
                    )
    table = pd.DataFrame(rows)

    def closest(fitted: str, column: str, want: float) -> float:
        d = table[(table["fitted"] == fitted) & table["in_range"]].dropna(subset=[column])
        if d.empty:
            return math.nan
        return float(d.loc[(d[column] - want).abs().idxmin(), column])

    checks = {
        HYBRID_CHECKS[HYBRID_SMALL_KEY]: closest("large_n", "evaluated_mbps", small),
        HYBRID_CHECKS[HYBRID_LARGE_KEY]: closest("small_n", "evaluated_mbps", large),
        HYBRID_CHECKS[HYBRID_ALPHA_KEY]: closest("large_n", "alpha_needed", alpha_pub),
    }
    return table, checks


def severe_beta_min_n(goodput: SevereBetaGoodput, n_max: int = 20) -> int:
    """Smallest n from which the Severe beta claim (Sec 4.2.2, corrected sign, model
    correction [6]) holds at every larger n up to ``n_max``: there is some beta_n in
    0.51..0.99 with G_n(beta_n) > G_n(0.5), at every C in {50, 150, 1000} packets and tau_S in
    {1, 5, 20} (R = 1; our grid). ``n_max + 1``: it fails at n_max. The paper says
    the claim holds "as long as n > 2", i.e. this is at most 3. ``goodput`` is
    :func:`models.severe_beta_goodput` (a test passes a model for which it fails)."""
    bns = np.round(np.arange(0.51, 0.995, 0.01), 2)

    def holds(n: int) -> bool:
        for c in (50.0, 150.0, 1000.0):
            for ts in (1.0, 5.0, 20.0):
                g = np.asarray(goodput(bns, 0.5, n, c, 1.0, ts))
                g0 = float(goodput(0.5, 0.5, n, c, 1.0, ts))
                if not np.any(g > g0):
                    return False
        return True

    ok = [holds(n) for n in range(2, n_max + 1)]
    for i in range(len(ok)):
        if all(ok[i:]):
            return i + 2
    return n_max + 1


def hybrid_gentle_threshold() -> float:
    """Largest losses per round a Hybrid (Reno) flow takes without a severe penalty (Table 1):
    probed on :class:`models.PenaltyFlow` over L = 0.5, 1, 1.5, ..."""
    last = 0.0
    for k in range(1, 11):
        loss = 0.5 * k
        f = models.PenaltyFlow("hybrid", 1.0, 0.5, window=10.0, tau_s=3, n0=10.0)
        f.step(loss)
        if f.silent:
            break
        last = loss
    return last


# --------------------------------------------------------------------------------------------
# claims and setup numbers
# --------------------------------------------------------------------------------------------


def efficient(m: Mapping[str, float]) -> bool:
    """Good per-flow goodput (>= GOODPUT_OK x C/n) and a good loss rate (<= LOSS_GOOD_MAX)."""
    return m["goodput"] >= GOODPUT_OK * m["fair_share"] and m["loss"] <= LOSS_GOOD_MAX


def undesirable(ne: Mapping[str, float], default: Mapping[str, float]) -> bool:
    """Observation 4: worse than the default profile (1, 0.5) of the same set-up, "a low
    per-flow goodput or a high per-flow loss rate": goodput below the default's by more than
    GOODPUT_DROP x C/n, or a high loss rate (>= LOSS_HIGH_MIN, the paper's "somewhat high")."""
    low = ne["goodput"] < default["goodput"] - GOODPUT_DROP * default["fair_share"]
    return bool(low or ne["loss"] >= LOSS_HIGH_MIN)


def _ne_text(s: Mapping) -> str:
    return (
        f"{s['search']}: NE ({fmt(s['alpha_e'])}, {fmt(s['beta_e'])}), per-flow goodput "
        f"{s['ne']['goodput']:.3f} Mbps, loss {100 * s['ne']['loss']:.2f}%"
    )


#: The paper's words for the NE goodput/loss (claims keyed as in the originals): claim key ->
#: (search, metric, word). Words map to criteria in :func:`word_holds`.
NE_WORDS = {
    "fig2a.sack_droptail.ne_goodput": ("sack_droptail_alpha", "goodput", "reasonable"),
    "fig2a.sack_droptail.ne_loss": ("sack_droptail_alpha", "loss", "extremely high"),
    "fig2b.sack_droptail.ne_goodput": ("sack_droptail_beta", "goodput", "very reasonable"),
    "fig2b.sack_droptail.ne_loss": ("sack_droptail_beta", "loss", "very reasonable"),
    "fig3a.tahoe_droptail.ne_goodput": ("tahoe_droptail_alpha", "goodput", "poor"),
    "fig3a.tahoe_droptail.ne_loss": ("tahoe_droptail_alpha", "loss", "poor"),
    "fig3b.tahoe_droptail.ne_goodput": ("tahoe_droptail_beta", "goodput", "poor"),
    "fig3b.tahoe_droptail.ne_loss": ("tahoe_droptail_beta", "loss", "low"),
    "fig4b.reno_droptail.ne_goodput": ("reno_droptail_beta", "goodput", "high"),
    "fig4b.reno_droptail.ne_loss": ("reno_droptail_beta", "loss", "low"),
    "fig7a.tahoe_red.ne_goodput": ("tahoe_red_alpha", "goodput", "rather low"),
    "fig7b.tahoe_red.ne_goodput": ("tahoe_red_beta", "goodput", "low"),
    "fig8b.sack_red.ne_goodput": ("sack_red_beta", "goodput", "reasonable"),
    "fig8b.sack_red.ne_loss": ("sack_red_beta", "loss", "reasonable"),
    "fig9b.reno_red.ne_goodput": ("reno_red_beta", "goodput", "not undesirable"),
    "fig9b.reno_red.ne_loss": ("reno_red_beta", "loss", "not undesirable"),
    "fig11a.sack_chokeplus.ne_goodput": ("sack_chokeplus_alpha", "goodput", "good"),
    "fig11a.sack_chokeplus.ne_loss": ("sack_chokeplus_alpha", "loss", "good"),
    "fig11b.sack_chokeplus.ne_goodput": ("sack_chokeplus_beta", "goodput", "good"),
    "fig11b.sack_chokeplus.ne_loss": ("sack_chokeplus_beta", "loss", "good"),
}
#: Words meaning a good NE goodput / a good (low) NE loss rate; other words mean bad.
GOOD_GOODPUT = {"reasonable", "very reasonable", "good", "high", "not undesirable"}
GOOD_LOSS = {"reasonable", "very reasonable", "good", "low", "not undesirable"}


def word_holds(metric: str, word: str, m: Mapping[str, float]) -> tuple[bool, str]:
    """Our criterion for one of the paper's words on NE goodput or loss."""
    if metric == "goodput":
        share = m["goodput"] / m["fair_share"]
        want_good = word in GOOD_GOODPUT
        ok = share >= GOODPUT_OK if want_good else share < GOODPUT_OK
        rel = ">=" if want_good else "<"
        return (
            ok,
            f"'{word}' goodput: per-flow goodput {rel} {GOODPUT_OK:g} x C/n: {m['goodput']:.3f} "
            f"Mbps = {share:.2f} x C/n",
        )
    loss = m["loss"]
    if word == "extremely high":
        return (
            loss >= LOSS_EXTREME,
            f"'{word}' loss: per-flow loss >= {100 * LOSS_EXTREME:g}%: {100 * loss:.2f}%",
        )
    if word not in GOOD_LOSS:
        return (
            loss >= LOSS_HIGH_MIN,
            f"'{word}' loss: per-flow loss >= {100 * LOSS_HIGH_MIN:g}%: {100 * loss:.2f}%",
        )
    return (
        loss <= LOSS_GOOD_MAX,
        f"'{word}' loss: per-flow loss <= {100 * LOSS_GOOD_MAX:g}%: {100 * loss:.2f}%",
    )


def claims(
    searches: Mapping[str, Mapping],
    f5: pd.DataFrame | None,
    f6: pd.DataFrame | None,
    f10: pd.DataFrame | None,
) -> dict[str, tuple[bool, str]]:
    """The paper's qualitative claims, each checked by a stated criterion."""
    out: dict[str, tuple[bool, str]] = {}
    for key, (name, metric, word) in NE_WORDS.items():
        if name in searches:
            ok, detail = word_holds(metric, word, searches[name]["ne"])
            out[key] = (ok, f"{detail} ({_ne_text(searches[name])})")

    def get(tcp: str, queue: str, mode: str) -> Mapping | None:
        return searches.get(f"{tcp}_{queue}_{mode}")

    def eff(s: Mapping) -> bool:
        return efficient(s["ne"])

    def undes(s: Mapping) -> bool:
        return undesirable(s["ne"], s["start_profile"])

    crit = (
        f"efficient = per-flow goodput >= {GOODPUT_OK:g} x C/n and loss <= "
        f"{100 * LOSS_GOOD_MAX:g}%; undesirable = goodput below the default (1, 0.5) profile's "
        f"by > {100 * GOODPUT_DROP:g}% of C/n, or loss >= {100 * LOSS_HIGH_MIN:g}%"
    )
    s = [get("sack", "droptail", m) for m in MODES]
    if all(s):
        a, b, j = s  # type: ignore[misc]
        ok = undes(a) and a["alpha_e"] > 1 and eff(b) and undes(j)
        out["obs1.sack_droptail"] = (
            ok,
            f"alpha-NE undesirable, beta-NE efficient, joint undesirable ({crit}): "
            + "; ".join(_ne_text(x) for x in s),
        )  # type: ignore[arg-type]
    s = [get("tahoe", "droptail", m) for m in MODES]
    if all(s):
        ok = all(not eff(x) for x in s)  # type: ignore[union-attr]
        out["obs2.tahoe_droptail"] = (
            ok,
            f"no NE efficient ({crit}): " + "; ".join(_ne_text(x) for x in s),
        )  # type: ignore[arg-type]
    s = [get("reno", "droptail", m) for m in MODES]
    if all(s):
        a, b, j = s  # type: ignore[misc]
        ok = a["alpha_e"] == 1 and eff(b) and eff(j)
        out["obs3.reno_droptail"] = (
            ok,
            f"alpha_E = 1, beta-NE and joint NE efficient ({crit}): "
            + "; ".join(_ne_text(x) for x in s),
        )  # type: ignore[arg-type]
    red_a = [get(t, "red", "alpha") for t in ("tahoe", "sack", "reno")]
    red_b = [get(t, "red", "beta") for t in ("tahoe", "sack", "reno")]
    if all(red_a) and all(red_b):
        ok = (
            all(undes(x) for x in red_a)
            and undes(red_b[0])
            and all(not undes(x) for x in red_b[1:])
        )  # type: ignore[union-attr,arg-type]
        out["obs4.red"] = (
            ok,
            f"every RED alpha-NE undesirable; beta-NEs not undesirable except Tahoe's ({crit}): "
            + "; ".join(_ne_text(x) for x in red_a + red_b),
        )  # type: ignore[operator,arg-type]
    s = [get("sack", "chokeplus", m) for m in MODES]
    if all(s):
        ok = all(eff(x) for x in s)  # type: ignore[union-attr]
        out["sec51.chokeplus_efficient"] = (
            ok,
            f"all CHOKe+ NEs efficient ({crit}): " + "; ".join(_ne_text(x) for x in s),
        )  # type: ignore[arg-type]
    b = get("reno", "red", "beta")
    if b:
        out["fig9b.reno_red.beta_e"] = (
            not undes(b),
            f"Reno-RED beta-NE not undesirable ({crit}): {_ne_text(b)}",
        )
    if f5 is not None and len(f5):
        out.update(_fig5_claims(f5))
    if f6 is not None and len(f6):
        for series, prm, key in (
            ("sack_red", "alpha", "fig6a.sack_red.fa_sign"),
            ("reno_red", "alpha", "fig6a.reno_red.fa_sign"),
            ("sack_chokeplus", "alpha", "fig6a.sack_chokeplus.fa_sign"),
            ("tahoe_red", "beta", "fig6b.tahoe_red.fb_sign"),
            ("sack_red", "beta", "fig6b.sack_red.fb_sign"),
            ("reno_red", "beta", "fig6b.reno_red.fb_sign"),
            ("sack_chokeplus", "beta", "fig6b.sack_chokeplus.fb_sign"),
        ):
            d = f6[(f6["series"] == series) & (f6["parameter"] == prm)].dropna(subset=["F"])
            if len(d):
                pos = int((d["F"] > 0).sum())
                out[key] = (
                    pos == len(d),
                    f"F > 0 at every measured {prm}: {pos} of {len(d)} points ({prm} = "
                    f"{fmt(d['x'].min())}..{fmt(d['x'].max())})",
                )
    if f10 is not None and len(f10):
        out.update(_fig10_claims(f10))
    return out


def _fig5_claims(f5: pd.DataFrame) -> dict[str, tuple[bool, str]]:
    out: dict[str, tuple[bool, str]] = {}

    def series(name: str, prm: str) -> pd.DataFrame:
        return f5[(f5["series"] == name) & (f5["parameter"] == prm)].set_index("x")

    cp, rd = series("sack_chokeplus", "alpha"), series("sack_red", "alpha")
    common = cp.index.intersection(rd.index)
    if len(common):
        ratio = float(cp.loc[common, "p_fn"].mean() / max(rd.loc[common, "p"].mean(), 1e-12))
        out["fig5a.chokeplus_vs_red.p_a"] = (
            ratio >= 2.0,
            "'much higher': mean p_a of SACK under CHOKe+ (F_n's loss) >= 2x SACK under RED over "
            f"the common alphas: ratio {ratio:.2f}",
        )
    cp, rd = series("sack_chokeplus", "beta"), series("sack_red", "beta")
    common = cp.index.intersection(rd.index)
    if len(common):
        p_ok = float(cp.loc[common, "p_fn"].mean()) > float(rd.loc[common, "p"].mean())
        pb_ok = float(cp.loc[common, "P"].mean()) > float(rd.loc[common, "P"].mean())
        out["fig5cd.chokeplus_vs_red.p_b_p_b"] = (
            p_ok and pb_ok,
            f"mean p_b and mean P_b over the common betas larger under CHOKe+ than RED (SACK): "
            f"p_b {cp.loc[common, 'p_fn'].mean():.4f} vs {rd.loc[common, 'p'].mean():.4f}, "
            f"P_b {cp.loc[common, 'P'].mean():.4f} vs {rd.loc[common, 'P'].mean():.4f}",
        )
    return out


def _fig10_claims(f10: pd.DataFrame) -> dict[str, tuple[bool, str]]:
    out: dict[str, tuple[bool, str]] = {}
    d = f10[f10["parameter"] == "alpha"]
    red, cp = d[d["queue"] == "red"].sort_values("x"), d[d["queue"] == "chokeplus"].sort_values("x")
    if len(red) >= 2 and len(cp) >= 2:
        sr = float(np.polyfit(red["x"], red["loss_fn"], 1)[0])
        sc = float(np.polyfit(cp["x"], cp["loss_fn"], 1)[0])
        base = float(cp["loss_others"].iloc[0])
        drift = float((cp["loss_others"] - base).abs().max() / max(base, 1e-12))
        out["fig10.chokeplus.f10_loss_growth"] = (
            sc >= 3.0 * sr and drift <= 0.5,
            "least-squares slope of F_n's loss in alpha_n under CHOKe+ >= 3x RED's and "
            "F_1..F_n-1's "
            f"CHOKe+ loss within 50% of its value at the first point: slopes {sc:.5f} vs {sr:.5f} "
            f"per unit alpha, drift {100 * drift:.0f}%",
        )
    return out


def setup_numbers(search: Mapping, beta_search: Mapping | None) -> dict[str, float]:
    """The stated set-up as the runs used it (the alpha search's spec and echoed parameters)."""
    p, sp = search["params"], search["spec"]
    out = {
        "setup.bottleneck_capacity": float(p["bw"]) / 1e6,
        "setup.n_flows": float(p["n"]),
        "setup.sim_duration": float(p["duration"]),
        "setup.warmup_discard": float(p["warmup"]),
        "setup.runs_per_point": float(len(search["seeds"])),
        "setup.ci_level": float(sp["ci_level"]),
        "setup.alpha_sweep_halfwidth": float(sp["alpha_halfwidth"]),
        "setup.alpha_sweep_lower_clip": float(sp["alpha_low"]),
        "setup.alpha_start": float(sp["start"][0]),
        "setup.beta_fixed_in_alpha_search": float(sp["start"][1]),
        "setup.beta_sweep_low": float(sp["beta_low"]),
        "setup.beta_sweep_high": float(sp["beta_high"]),
        "chokeplus.gamma1": float(p["choke_gamma1"]),
        "chokeplus.gamma2": float(p["choke_gamma2"]),
        "chokeplus.k": float(p["choke_k"]),
        "model.sack_timeout_dupack_threshold": float(search["numdupacks"]),
    }
    if beta_search is not None:
        out["setup.alpha_fixed_in_beta_search"] = float(beta_search["spec"]["start"][0])
    return out


def setup_claims(search: Mapping) -> dict[str, tuple[bool, str]]:
    p = search["params"]
    rtt = 2.0 * (float(p["delay"]) + 2.0 * float(p["access_delay"]))
    bdp = float(p["bw"]) * rtt / (8.0 * float(p["pkt_size"]))
    return {
        "setup.buffer": (
            abs(float(p["buffer"]) - bdp) < 1.0,
            f"bottleneck buffer {p['buffer']} packets vs bandwidth-delay product C R / (8 S) = "
            f"{bdp:.1f} packets (R = {1e3 * rtt:g} ms)",
        )
    }


def analytical_claims(pkt_size: float, model: Any = models) -> dict[str, tuple[bool, str]]:
    """The drop-tail closed forms of Sec 4.2 checked numerically on ``model`` (the model module;
    a test passes a wrong one to show each check can fail)."""
    out: dict[str, tuple[bool, str]] = {}
    n, c, r = 10, 150.0, 0.12
    g_beta = float(model.gentle_beta_goodput(0.5, 0.5, n, c, r))
    out["analysis.gentle_droptail.g_n_beta"] = (
        abs(g_beta - c / (n * r)) < 1e-9 * c / (n * r),
        f"eq (9)-(12) at beta_n = beta = 0.5, n = 10, C = 150, R = 0.12: G_n = {g_beta:.6g} vs "
        f"C/(nR) = {c / (n * r):.6g} packets/s",
    )
    an = np.linspace(0.5, 200.0, 400)
    g = np.asarray(model.gentle_alpha_goodput(an, 1.0, n, c, r))
    out["analysis.gentle_droptail.alpha_unbounded"] = (
        bool(np.all(np.diff(g) > 0)),
        "eq (6) strictly increasing in alpha_n on 0.5..200 (n = 10, others alpha = 1): "
        f"{int(np.sum(np.diff(g) > 0))} of {len(g) - 1} steps up",
    )
    bn = np.round(np.arange(0.51, 0.995, 0.01), 2)
    worst = min(
        float(
            np.min(
                np.asarray(model.gentle_beta_goodput(bn[bn > b], b, n, c, r))
                / float(model.gentle_beta_goodput(b, b, n, c, r))
            )
        )
        for b in (0.5, 0.7, 0.9)
    )
    out["analysis.gentle_droptail.beta_to_one"] = (
        worst > 1.0,
        "G_n(beta_n)/G_n(beta) > 1 for beta_n > beta (beta in 0.5, 0.7, 0.9; eqs 9-13): minimum "
        f"ratio {worst:.4f}",
    )
    el = [
        float(model.droptail_elasticity("severe", "alpha", a, n, c, tau_s=ts))
        for a in (1.0, 5.0, 20.0, 50.0)
        for ts in (1.0, 5.0, 20.0)
    ]
    out["analysis.severe_droptail.alpha_unbounded"] = (
        min(el) > 0,
        "dG_n/dalpha_n > 0 at every symmetric profile alpha in 1..50, tau_S in 1..20 (no finite "
        "symmetric NE; G_n itself is not monotone, see the model module): minimum elasticity "
        f"{min(el):.3g}",
    )
    out["analysis.hybrid.alpha_one_dominant"] = hybrid_dominance(HYBRID_BOUNDS_MBPS, pkt_size)
    return out


#: Sec 4.2.3 items 1-2: "the inequality holds for all alpha_n as long as C/n < 2.5 Mbps" for
#: n ~ 50 and "< 1.5 Mbps" for n > 100 (the claim's stated domain, n -> C/n bound in Mbps).
HYBRID_BOUNDS_MBPS = {HYBRID_SMALL_N: 2.5, HYBRID_LARGE_N: 1.5}


def hybrid_dominance(
    bounds: Mapping[int, float], pkt_size: float, points: int = 6
) -> tuple[bool, str]:
    """alpha_i = 1 dominant for low C/n (Sec 4.2.3): for each n and every C/n below the
    paper's stated bound (``points`` values from just above tau_S, the model's range, to just
    below the bound; R = 0.12 s, ``pkt_size`` bytes), no alpha_n > 1 gives F_n more goodput:
    sup G_n(alpha_n)/G_n(1) < 1. The closed form has the others at alpha = 1 (setting (i));
    the paper's "no matter what the increase parameters of the other flows are" is not
    derived there and not checked."""
    r, ts = models.HYBRID_RTT, models.HYBRID_TAU_S
    worst: list[str] = []
    ok = True
    for n, bound in sorted(bounds.items()):
        lo = ts * (1.0 + 1e-6)
        hi = float(models.mbps_to_bdp_packets(bound, r, pkt_size)) * (1.0 - 1e-6)
        if hi <= lo:
            raise ValueError(f"n = {n}: C/n < {bound:g} Mbps is inside the model's C/n <= tau_S")
        gains = [models.hybrid_best_deviation(n, c * n, ts)[1] for c in np.linspace(lo, hi, points)]
        ok = ok and max(gains) < 1.0
        worst.append(f"n = {n}, C/n < {bound:g} Mbps: max {max(gains):.3f}")
    return (
        ok,
        "sup over alpha_n > 1 of G_n(alpha_n)/G_n(1) < 1 at every C/n (tau_S < C/n < the paper's "
        f"bound, {int(pkt_size)}-B packets, others at alpha = 1): " + "; ".join(worst),
    )


# --------------------------------------------------------------------------------------------
# the joint searches by start order (sensitivity)
# --------------------------------------------------------------------------------------------

#: Suffix of the joint searches that sweep beta first (config joint_order: beta_first).
BETA_FIRST = "_betafirst"


#: suffix of the check values of the joint rows: the same search with the beta sweep first
JOINT_ORDER_CHECK = "beta_first"


def joint_order_check_values(rows: pd.DataFrame) -> dict[str, float]:
    """The check of each joint row's diagnosis (the other reading of Sec 4.1's "a combination
    of the above two simulation set-ups"): the row's value from the joint search with the beta
    sweep first, ``check.<key>.beta_first``, from :func:`joint_order_rows`."""
    if rows.empty:
        return {}
    return {
        f"check.{r['key']}.{JOINT_ORDER_CHECK}": float(r["beta_first"])
        for _, r in rows.iterrows()
        if not math.isnan(float(r["beta_first"]))
    }


def joint_order_rows(
    searches: Mapping[str, Mapping], published: Mapping[str, Published]
) -> pd.DataFrame:
    """Every published joint-search number of a set-up searched in both orders: the value
    and verdict with the alpha sweep first (the primary search) and with the beta sweep first."""
    rows = []
    for figure, (tcp, queue) in NE_FIGURES.items():
        first = searches.get(f"{tcp}_{queue}_joint")
        second = searches.get(f"{tcp}_{queue}_joint{BETA_FIRST}")
        if first is None or second is None:
            continue
        for metric in PUBLISHED[figure]["joint"]:
            key = number_key(figure, "joint", metric)
            pub = published[key]
            va, vb = (_ne_value(x, metric) for x in (first, second))
            rows.append(
                {
                    "key": key,
                    "setup": f"{tcp}_{queue}",
                    "metric": metric,
                    "published": pub.published,
                    "tolerance": pub.tolerance_text(),
                    "alpha_first": va,
                    "beta_first": vb,
                    "verdict_alpha_first": verdict(pub, repr(va)),
                    "verdict_beta_first": verdict(pub, repr(vb)),
                }
            )
    return pd.DataFrame(rows)


def _ne_value(search: Mapping, metric: str) -> float:
    if metric in ("alpha_e", "beta_e"):
        return float(search[metric])
    return float(search["ne"][metric.removeprefix("ne_")])


def joint_order_summary(rows: pd.DataFrame) -> str:
    """Whether the start order explains the joint rows that are off (computed from ``rows``)."""
    if rows.empty:
        return "No set-up was searched in both orders at this fidelity."
    off = rows[rows["verdict_alpha_first"] == "off"]
    fixed = off[off["verdict_beta_first"] == "ok"]
    broken = rows[(rows["verdict_alpha_first"] == "ok") & (rows["verdict_beta_first"] == "off")]
    if off.empty:
        verdict_text = "no joint row is off with the alpha sweep first"
    elif len(fixed) == len(off):
        verdict_text = "the start order explains every off row"
    elif fixed.empty:
        verdict_text = "the start order explains none of the off rows"
    else:
        verdict_text = f"the start order explains {len(fixed)} of the {len(off)} off rows"
    names = ", ".join(fixed["key"]) if len(fixed) else "none"
    return (
        f"Of {len(rows)} published joint-search numbers ({rows['setup'].nunique()} set-ups), "
        f"{len(off)} are off with the alpha sweep first; with the beta sweep first {len(fixed)} "
        f"of those are within tolerance ({names}), and of the rows within tolerance with alpha "
        f"first {len(broken)} are off with beta first: {verdict_text}."
    )


# --------------------------------------------------------------------------------------------
# sensitivity to the parameters the paper does not state (config akella2002.sensitivity)
# --------------------------------------------------------------------------------------------

#: The paper's conclusion each rerun search supports, as a criterion on its record (the same
#: criteria as :func:`claims`): search -> (the conclusion in words, criterion).
CONCLUSIONS: dict[str, tuple[str, Callable[[Mapping], bool]]] = {
    "sack_droptail_alpha": (
        "Observation 1: the SACK/drop-tail alpha-NE is aggressive (alpha_E > 1) and undesirable",
        lambda s: s["alpha_e"] > 1 and undesirable(s["ne"], s["start_profile"]),
    ),
    "reno_droptail_alpha": (
        "Observation 3: the Reno/drop-tail alpha-NE is alpha_E = 1",
        lambda s: s["alpha_e"] == 1,
    ),
    "reno_droptail_beta": (
        "Observation 3: the Reno/drop-tail beta-NE is efficient",
        lambda s: efficient(s["ne"]),
    ),
    "sack_red_alpha": (
        "Observation 4: the SACK/RED alpha-NE is undesirable",
        lambda s: undesirable(s["ne"], s["start_profile"]),
    ),
    "reno_red_alpha": (
        "Observation 4: the Reno/RED alpha-NE is undesirable",
        lambda s: undesirable(s["ne"], s["start_profile"]),
    ),
    "sack_chokeplus_alpha": (
        "Sec 5.1: the SACK/CHOKe+ alpha-NE is efficient",
        lambda s: efficient(s["ne"]),
    ),
    "sack_chokeplus_beta": (
        "Sec 5.1: the SACK/CHOKe+ beta-NE is efficient",
        lambda s: efficient(s["ne"]),
    ),
}


def published_search(key: str) -> tuple[str, str]:
    """(search, metric) of a published NE number's key (the inverse of :func:`number_key`)."""
    for figure, modes in PUBLISHED.items():
        tcp, queue = NE_FIGURES[figure]
        for mode, metrics in modes.items():
            for metric in metrics:
                if number_key(figure, mode, metric) == key:
                    return f"{tcp}_{queue}_{mode}", metric
    raise ValueError(f"'{key}' is no published NE number of a search")


def _search_value(search: Mapping) -> float:
    """The NE coordinate a search varies (alpha_E of an alpha search, beta_E of a beta search)."""
    return float(search["beta_e" if search["mode"] == "beta" else "alpha_e"])


def sensitivity_rows(
    sens: Sensitivity, searches: Mapping[str, Mapping], published: Mapping[str, Published]
) -> pd.DataFrame:
    """One row per rerun search and tested value (and our default, value ''), with the NE, its
    per-flow goodput and loss, and the paper's number for the NE coordinate when it has one."""
    rows = []
    for name in sens.searches:
        base = searches.get(name)
        if base is None:
            continue
        tried = [("", "", "default", base)]
        for v in sens.values:
            doc = searches.get(variant_search(name, v.name))
            if doc is not None:
                tried.append((v.parameter, v.name, v.label, doc))
        fig = next(f for f, tq in NE_FIGURES.items() if tq == (base["tcp"], base["queue"]))
        metric = "beta_e" if base["mode"] == "beta" else "alpha_e"
        pub = published.get(number_key(fig, base["mode"], metric))
        for prm, vname, label, doc in tried:
            rows.append(
                {
                    "search": name,
                    "parameter": prm,
                    "value": vname,
                    "label": label,
                    "alpha_e": doc["alpha_e"],
                    "beta_e": doc["beta_e"],
                    "ne_goodput": doc["ne"]["goodput"],
                    "ne_loss": doc["ne"]["loss"],
                    "fair_share": doc["ne"]["fair_share"],
                    "converged": bool(doc["converged"]),
                    "runs": doc["runs"],
                    "ne_value": _search_value(doc),
                    "published": float(pub.published) if pub is not None else math.nan,  # type: ignore[arg-type]
                    "holds": CONCLUSIONS[name][1](doc) if name in CONCLUSIONS else None,
                }
            )
    return pd.DataFrame(rows)


def sensitivity_checks(
    sens: Sensitivity, searches: Mapping[str, Mapping]
) -> dict[str, tuple[bool, str]]:
    """For each rerun search with a stated conclusion and each parameter tested on it: the
    conclusion holds under our default and under every tested value of the parameter. A
    parameter with a tested value whose search is missing gives no check."""
    out: dict[str, tuple[bool, str]] = {}
    for name in sens.searches:
        base = searches.get(name)
        if base is None or name not in CONCLUSIONS:
            continue
        words, holds = CONCLUSIONS[name]
        for prm, (title, default, queues, modes) in sens.parameters.items():
            if base["queue"] not in queues or base["mode"] not in modes:
                continue
            vals = [v for v in sens.values if v.parameter == prm]
            docs = [searches.get(variant_search(name, v.name)) for v in vals]
            if not vals or any(d is None for d in docs):
                continue
            tried = [(f"{default} (ours)", base)] + [
                (v.label, d) for v, d in zip(vals, docs, strict=True)
            ]
            ok = [holds(d) for _, d in tried]  # type: ignore[arg-type]
            detail = "; ".join(
                f"{title} {lab}: {'holds' if h else 'fails'} ({_ne_text(d)})"  # type: ignore[arg-type]
                for (lab, d), h in zip(tried, ok, strict=True)
            )
            out[f"sens.{name}.{prm}"] = (all(ok), f"{words}, for every tested {title}: {detail}")
    return out


def sensitivity_explains(
    sens: Sensitivity, searches: Mapping[str, Mapping], published: Mapping[str, Published]
) -> pd.DataFrame:
    """For each off row blamed on unstated parameters (``explains``): its verdict under our
    default and under each tested value of the parameters named, and whether any brings it
    within tolerance (``fixed_by``: the values that do)."""
    rows = []
    for key, prms in sens.explains.items():
        name, metric = published_search(key)
        pub = published.get(key)
        if pub is None:
            raise ValueError(f"sensitivity.explains: '{key}' is not in the originals")
        base = searches.get(name)
        if base is None:
            continue
        ours = _ne_value(base, metric)
        tested = []
        for v in sens.values:
            doc = searches.get(variant_search(name, v.name))
            if v.parameter in prms and doc is not None:
                x = _ne_value(doc, metric)
                tested.append((v, x, verdict(pub, repr(x))))
        rows.append(
            {
                "key": key,
                "parameters": ", ".join(prms),
                "published": pub.published,
                "tolerance": pub.tolerance_text(),
                "ours": ours,
                "verdict": verdict(pub, repr(ours)),
                "tested": "; ".join(f"{v.name} {fmt(x)} {vd}" for v, x, vd in tested),
                "n_tested": len(tested),
                "fixed_by": ", ".join(v.name for v, _, vd in tested if vd == "ok"),
                "closest": _closest_tested([x for _, x, _ in tested], pub),
            }
        )
    return pd.DataFrame(rows)


def _closest_tested(values: Sequence[float], pub: Published) -> float:
    """Of the row's values under the tested values, the one nearest the published number (the
    nearest end of a published range; every value meeting a published bound is at distance
    0, the first of them is taken; nan when none was tested)."""
    if not values:
        return math.nan
    v = pub.published
    lo, hi = (float(v[0]), float(v[1])) if isinstance(v, (list, tuple)) else (float(v), float(v))  # type: ignore[arg-type]
    if pub.kind == "lower_bound":
        hi = math.inf
    elif pub.kind == "upper_bound":
        lo = -math.inf
    return min(values, key=lambda x: max(lo - x, x - hi, 0.0))


def sensitivity_check_key(key: str) -> str:
    """The check value of an ``explains`` row's unstated-parameter diagnosis."""
    return f"check.{key}.closest_tested"


def sensitivity_check_values(rows: pd.DataFrame) -> dict[str, float]:
    """The check of each ``explains`` row's diagnosis (config/diagnoses/akella2002.yaml): the
    row's value under the tested value of the named parameters that comes closest to the
    published number (:func:`sensitivity_explains`, column ``closest``); its criterion
    ``reproduces`` holds when that value is within the row's tolerance. Rows with no tested
    value give none (the check is then not computed: the sensitivity searches run at quick
    fidelity only unless config lists values at paper)."""
    if rows.empty:
        return {}
    return {
        sensitivity_check_key(r["key"]): float(r["closest"])
        for _, r in rows.iterrows()
        if not math.isnan(float(r["closest"]))
    }


def sensitivity_summary(rows: pd.DataFrame) -> str:
    """One sentence per off row: whether a tested value brings it within tolerance (computed)."""
    if rows.empty:
        return "No off row's search was rerun under a tested value at this fidelity."
    out = []
    for _, r in rows.iterrows():
        if r["verdict"] == "ok":
            out.append(f"{r['key']} is within tolerance under our defaults.")
        elif r["n_tested"] == 0:
            out.append(f"{r['key']}: no value of {r['parameters']} was tested at this fidelity.")
        elif r["fixed_by"]:
            out.append(
                f"{r['key']} comes within tolerance under {r['fixed_by']} (tested values of "
                f"{r['parameters']}); the default is not changed."
            )
        else:
            out.append(
                f"{r['key']} stays {r['verdict']} under every tested value of {r['parameters']} "
                f"({r['n_tested']} tested): the named parameters do not explain it."
            )
    return " ".join(out)


# --------------------------------------------------------------------------------------------
# command line
# --------------------------------------------------------------------------------------------


def _points(summaries: Sequence[Path]) -> tuple[list[Path], list[int]]:
    """Point folders and seeds from the point runs' summary.json
    (<point>/s<seed>/summary.json), in the order given."""
    dirs = [p.parent.parent if p.name == "summary.json" else p.parent for p in summaries]
    seeds = [
        int(p.parent.name[1:]) if p.name == "summary.json" else int(p.name[1:]) for p in summaries
    ]
    return list(dict.fromkeys(dirs)), list(dict.fromkeys(seeds))


def hybrid_published(path: Path) -> dict[str, float]:
    """The published values :func:`hybrid_fit` fits and checks, from the originals file."""
    pub = {p.key: p for p in load_originals(path)}
    return {k: float(pub[k].published) for k in HYBRID_CHECKS}  # type: ignore[arg-type]


#: the config values (``--params`` keys) of Figure 6's tau_S and of the packet size
TAU_S = "experiments.fig05a_chokeplus.design.settings.tau_s.value"
TAU_S_TESTED = "experiments.fig05a_chokeplus.design.settings.tau_s_tested.value"
PKT_SIZE = "parameters.pkt_size.value"
#: the utilisation below which the plain-CHOKe sweep counts a severe under-utilisation
UNDERUSE = "experiments.choke_flows.design.settings.underuse.value"
#: the configured RED thresholds (the plain-CHOKe sweep's own; the others are tested values)
RED_THRESH = "parameters.red_thresh.value"
RED_MAXTHRESH = "parameters.red_maxthresh.value"


def main(argv: Sequence[str] | None = None) -> int:
    steps = [*sorted(NE_FIGURES), "fig05", "fig06", "fig10", "choke", "hybrid", "claims"]
    ap = cli.analysis_parser("analysis.akella2002", "Akella et al. 2002 analysis", steps)
    a = cli.parse(ap, argv)
    cli.need(ap, a, "--tidy", "--numbers", "--extra")
    extra = cli.extra_dir(ap, a)
    numbers: Mapping[str, float | bool]
    if a.step in NE_FIGURES:
        searches = [json.loads(p.read_text()) for p in a.inputs]
        tidy, ne, numbers = ne_figure(a.step, searches)
        write_tidy(ne, extra / "ne.csv")
        # the paper's own numbers (--originals, an input of the step): never typed into code
        cli.need(ap, a, "--originals")
        pub = {p.key: p.published for p in load_originals(a.originals) if p.key in CI_TIED_ROWS}
        numbers = {**numbers, **ci_tied_checks(a.step, searches, pub)}  # type: ignore[arg-type]
    elif a.step in ("fig05", "fig10"):
        cli.need(ap, a, "--runs")
        dirs, seeds = _points(a.runs)
        tidy, numbers = (fig05 if a.step == "fig05" else fig10)(dirs, seeds)
    elif a.step == "choke":
        cli.need(ap, a, "--runs")
        dirs, seeds = _points(a.runs)
        cli.need(ap, a, "--originals")
        (pub,) = [p for p in load_originals(a.originals) if p.key == CHOKE_FEW_FLOWS]
        thresholds = (float(cli.param(ap, a, RED_THRESH)), float(cli.param(ap, a, RED_MAXTHRESH)))  # type: ignore[arg-type]
        underuse = float(cli.param(ap, a, UNDERUSE))  # type: ignore[arg-type]
        tidy, numbers = choke_flows(dirs, seeds, underuse, thresholds, pub)
    elif a.step == "fig06":
        if len(a.inputs) != 1:
            ap.error("fig06 needs the Figure 5 tidy table in --inputs")
        tau_s = float(cli.param(ap, a, TAU_S))  # type: ignore[arg-type]
        fig5 = pd.read_csv(a.inputs[0])
        tidy, numbers = fig06(fig5, tau_s)
        cli.need(ap, a, "--originals")
        (pub,) = [p for p in load_originals(a.originals) if p.key == TAHOE_CROSSING]
        tested = cli.param(ap, a, TAU_S_TESTED)
        table, closest = fa_crossing_tau_s(fig5, "tahoe_red", tested, pub)  # type: ignore[arg-type]
        write_tidy(table, extra / "tahoe_crossing_tau_s.csv")
        if not math.isnan(closest):
            numbers[TAHOE_CROSSING_CHECK] = closest
    elif a.step == "hybrid":
        table, tidy, numbers = hybrid(float(cli.param(ap, a, PKT_SIZE)))  # type: ignore[arg-type]
        write_tidy(table, extra / "thresholds.csv")
        cli.need(ap, a, "--originals")
        fit, checks = hybrid_fit(hybrid_published(a.originals))
        write_tidy(fit, extra / "threshold_fit.csv")
        numbers = {**numbers, **checks}
    else:
        cli.need(ap, a, "--claims")
        records = [p for p in a.inputs if p.suffix == ".json"]
        # tidy tables of Figures 5, 6 and 10: results/akella2002/<step>/<fidelity>/tidy.csv
        tables = {p.parent.parent.name: pd.read_csv(p) for p in a.inputs if p.suffix == ".csv"}
        found = {s["search"]: s for s in (json.loads(p.read_text()) for p in records)}
        checks = claims(found, tables.get("fig05"), tables.get("fig06"), tables.get("fig10"))
        checks.update(analytical_claims(float(cli.param(ap, a, PKT_SIZE))))  # type: ignore[arg-type]
        numbers = {}
        if "sack_droptail_alpha" in found:
            checks.update(setup_claims(found["sack_droptail_alpha"]))
            numbers = setup_numbers(found["sack_droptail_alpha"], found.get("sack_droptail_beta"))
        write_claims(checks, a.claims)
        tidy = pd.DataFrame({"key": sorted(checks)})
    write_tidy(tidy, a.tidy)
    write_numbers(numbers, a.numbers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
