"""Misra, Baras, Ott: the paper's statements about its simulations, checked on the figures'
tidy tables, and the simulations' errors against the theory (drawn as a table by
``python -m analysis.plots.misra errors``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd
from scipy import stats

from analysis.misra.setup import CAPACITY_FIGURES, WINDOW_FIGURES
from analysis.misra.tidy import capacity_errors, ratios, strictly, window_stats


def _mean_ratio(tidy: pd.DataFrame) -> dict[int, float]:
    """Mean over capacities of each set's simulated throughput ratio."""
    r = ratios(tidy, "sim")
    return {int(k): float(g["ratio"].mean()) for k, g in r.groupby("set")}


def sim_claims(
    tidy: Mapping[str, pd.DataFrame],
) -> tuple[dict[str, float | bool], dict[str, tuple[bool, str]]]:
    """The paper's statements about its simulations, each checked by a stated criterion on
    ours. Returns (numbers for the diff, {claim key: (holds, criterion with values)})."""
    numbers: dict[str, float | bool] = {}
    out: dict[str, tuple[bool, str]] = {}
    have = tidy.keys()
    caps = [t for f, t in tidy.items() if f in CAPACITY_FIGURES or f == "ext01"]
    sims = None
    if caps:  # Figure 4 repeats the runs of Figures 1-2, Figure 5 those of Figure 3
        sims = pd.concat([t[t["source"] == "sim"] for t in caps], ignore_index=True)
        sims = sims.drop_duplicates(["experiment", "capacity_mbps", "n_flows", "seed", "flow"])
    if {"fig04", "fig05"} <= have:
        c = pd.concat([tidy["fig04"], tidy["fig05"]])
        c = c[c["source"] == "sim"]["capacity_mbps"]
        lo, hi = float(c.min()), float(c.max())
        # one number for a stated range: the end that leaves it, else the top
        numbers["params.capacity_range"] = lo if lo < 4.5 else hi
    if "fig04" in have:
        a = _mean_ratio(tidy["fig04"])
        numbers["fig4.aimd_closer_to_proportional"] = min(a[2], a[4]) > max(a[1], a[3])
        numbers["fig4.sim_lower_c2_more_differentiation"] = a[3] > a[1] and a[2] > a[4]
        r = ratios(tidy["fig04"], "sim")
        rho = {
            int(k): float(stats.spearmanr(g["capacity_mbps"], g["ratio"]).statistic)
            for k, g in r.groupby("set")
        }
        out["fig4.excess_not_proportional"] = (
            bool(r["ratio"].max() < 2.0 and all(x <= -0.8 for x in rho.values())),
            f"Exp A simulations: rho2/rho1 below 2 at every C (max {r['ratio'].max():.3f}) and "
            "falling with C (Spearman <= -0.8): "
            + ", ".join(f"set {k} {x:.2f}" for k, x in sorted(rho.items())),
        )
    if "fig05" in have:
        b = _mean_ratio(tidy["fig05"])
        r = ratios(tidy["fig05"], "sim")
        numbers["fig5.short_rtt_gets_more"] = bool((r["ratio"] > 1.0).all())
        aimd = max(b[2], b[4]) < min(b[1], b[3])
        c2 = b[3] < b[1] and b[2] < b[4]
        out["fig5.smaller_c2_closer_to_proportional"] = (
            aimd and c2,
            "Exp B simulations, rho1/rho2 averaged over C (1 = proportional): AIMD sets 2, 4 "
            f"below SAIMD sets 1, 3 ({aimd}) and the smaller c2 lower within each class "
            f"({c2}): " + ", ".join(f"set {k} {x:.3f}" for k, x in sorted(b.items())),
        )
    if {"fig01", "fig02", "fig03"} <= have:
        errs = {f: capacity_errors(tidy[f]) for f in ("fig01", "fig02", "fig03")}
        w = {f: float(e["window_err"].abs().mean()) for f, e in errs.items()}
        t = {f: float(e["throughput_mbps_err"].abs().mean()) for f, e in errs.items()}
        out["figs1_3.close_agreement"] = (
            all(x <= 0.05 for x in [*w.values(), *t.values()]),
            "mean |simulation - fixed point| / fixed point over C and flows <= 5 % for windows "
            "and throughputs: "
            + "; ".join(f"Fig {f[-1]} windows {w[f]:.1%}, throughputs {t[f]:.1%}" for f in errs),
        )
    if sims is not None:
        m = sims.groupby(["experiment", "capacity_mbps", "n_flows", "seed"])
        share = (sims["throughput_mbps"] / sims["profile_mbps"]).min()
        out["sec3.each_flow_gets_assured_rate"] = (
            bool(share >= 0.98),
            "every flow's goodput >= 98 % of its assured rate in every run of Exps A, B and the "
            f"N-flow extension: smallest goodput/profile {share:.3f}",
        )
        runs = m.agg(decreases=("decreases", "sum"), marks=("marks", "first"))
        runs = runs[runs["marks"] >= 100]
        gap = float(((runs["decreases"] - runs["marks"]).abs() / runs["marks"]).max())
        rex = int(sims["rexmits"].sum())
        out["model.generalized_tcp"] = (
            bool(gap <= 0.02 and rex == 0),
            f"one window decrease per ECN mark (|decreases - marks| / marks <= 2 % in every run "
            f"with >= 100 marks: max {gap:.2%} over {len(runs)} runs) and no retransmission in "
            f"any measurement window ({rex})",
        )
        drops = int(sims["drops"].sum()) + int(m["early_drops"].first().sum())
        outs = sims.groupby(["experiment", "capacity_mbps", "n_flows", "seed"])["out_fraction"]
        out["model.ored"] = (
            drops == 0,
            f"no packet dropped at the ORED bottleneck (overflow or early) in any measurement "
            f"window of Exps A, B and the extension: {drops} drops; out-of-profile fraction "
            f"{float(outs.mean().min()):.2f} to {float(outs.mean().max()):.2f}",
        )
    if "fig06" in have:
        s = window_stats(tidy["fig06"])
        numbers["fig6.mean_and_cov_increase_with_alpha"] = strictly(
            s["mean_sim"], True
        ) and strictly(s["cov_sim"], True)
        err = s["mean_err"].abs()
        numbers["fig6.theory_less_accurate_for_larger_alpha"] = bool(err.iloc[-1] > err.iloc[0])
    if "fig07" in have:
        s = window_stats(tidy["fig07"])  # ascending c2
        numbers["fig7.c2_down_mean_up_var_down_cov_down"] = (
            strictly(s["mean_sim"], False)
            and strictly(s["var_sim"], True)
            and strictly(s["cov_sim"], True)
        )
        c2 = s["value"].to_numpy()
        cov = s["cov_sim"].to_numpy()
        drop_c2 = 1.0 - c2[0] / c2[-1]
        drop_cov = 1.0 - cov[0] / cov[-1]
        out["conclusion.decrease_c2"] = (
            bool(strictly(cov, True) and drop_cov >= 0.5 * drop_c2),
            f"simulated CoV falls at every step as c2 decreases, by at least half as much "
            f"(relative) as c2: c2 {c2[-1]:g} -> {c2[0]:g} ({drop_c2:.0%} lower) takes the CoV "
            f"{cov[-1]:.3f} -> {cov[0]:.3f} ({drop_cov:.0%} lower)",
        )
    return numbers, out


#: The quantity of the window figures' distribution row, a distance rather than an error.
TV_QUANTITY = "total variation (pmf)"


def errors_table(tidy: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """The simulations against the solvers, one row per compared value: figure, quantity,
    where (the values compared, as text) and error. Figures 1-5 and ext01: relative errors
    (sim - theory)/theory of the seed-averaged simulation against the fixed point of Sec III
    (mean window, throughput, mean queue; Figures 4-5 also the throughput ratio); Figures 6-7:
    against the distribution of Prop 1, pooled over seeds (mean window, variance, CoV), and the
    total-variation distance of the distributions (quantity :data:`TV_QUANTITY`)."""
    rows: list[dict[str, object]] = []

    def add(fig: str, what: str, e: pd.Series, where: str) -> None:
        rows.extend({"figure": fig, "quantity": what, "where": where, "error": x} for x in e)

    for f in [*CAPACITY_FIGURES, "ext01"]:
        if f not in tidy:
            continue
        e = capacity_errors(tidy[f])
        caps = e["capacity_mbps"]
        where = f"C = {caps.min():g}..{caps.max():g} Mb/s"
        if f == "ext01":
            where = f"N = {', '.join(str(n) for n in sorted(e['n_flows'].unique()))}"
        elif f in ("fig04", "fig05"):
            where = f"sets 1-4, {where}"
        add(f, "mean window", e["window_err"], where)
        add(f, "throughput", e["throughput_mbps_err"], where)
        q = e.drop_duplicates(["experiment", "capacity_mbps", "n_flows"])["queue_pkts_err"]
        add(f, "mean queue", q, where)
        if f in ("fig04", "fig05"):
            s, t = ratios(tidy[f], "sim"), ratios(tidy[f], "theory")
            r = s.merge(t, on=["experiment", "capacity_mbps"], suffixes=("_s", "_t"))
            add(f, "throughput ratio", r["ratio_s"] / r["ratio_t"] - 1.0, where)
    for f, p in WINDOW_FIGURES.items():
        if f not in tidy:
            continue
        s = window_stats(tidy[f])
        where = f"{p} = " + ", ".join(f"{v:g}" for v in s["value"])
        for k, what in (("mean", "mean window"), ("var", "window variance"), ("cov", "CoV")):
            add(f, what, s[f"{k}_err"], where)
        add(f, TV_QUANTITY, s["tv"], where)
    return pd.DataFrame(rows, columns=["figure", "quantity", "where", "error"])


def tables_of(tidy_paths: Sequence[Path]) -> dict[str, pd.DataFrame]:
    """The figures' tidy tables, each named by its path: results/misra/<figure>/<fidelity>/
    tidy.csv -> <figure>."""
    return {p.parent.parent.name: pd.read_csv(p) for p in tidy_paths}
