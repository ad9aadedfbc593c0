"""Figures and tables of Akella et al. 2002 (the TCP game).

Usage: a figure takes the contract of :mod:`analysis.cli` (rule ``figure`` of
rules/common.smk); ``tables`` is rules/akella2002.smk's own::

    python -m analysis.plots.akella2002 FIG --tidy T.csv [--extra DIR] \
        --originals config/originals/akella2002.yaml --pdf figures/FIDELITY/akella2002/FIG.pdf \
        --tex paper/generated/FIDELITY/akella2002/FIG.tex
    python -m analysis.plots.akella2002 tables --searches-tex S.tex --settings-tex T.tex \
        SEARCH.json ...
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from analysis import akella2002 as ak
from analysis import cli
from analysis.akella2002_search import PAPER
from analysis.compare import Published, load_originals
from analysis.latex import tex_breakable, tex_escape
from analysis.outputs import write_claims, write_numbers, write_tidy
from analysis.plots.common import figure_tex, save

SCRIPT = "analysis/plots/akella2002.py"
TCP_NAME = {"sack": "SACK", "tahoe": "Tahoe", "reno": "Reno"}
QUEUE_NAME = {"droptail": "drop-tail", "red": "RED", "chokeplus": "CHOKe+"}
SERIES_STYLE = {
    "tahoe_red": ("Tahoe, RED", "tab:blue", "o"),
    "reno_red": ("Reno, RED", "tab:green", "s"),
    "sack_red": ("SACK, RED", "tab:orange", "^"),
    "sack_chokeplus": ("SACK, CHOKe+ (right axis)", "tab:red", "D"),
}
CAPTIONS = {
    "fig05": "Akella et al., Figure 5: loss functions measured under RED (left axis) and CHOKe+ "
    "(right axis, SACK only). (a) $p_a$, the loss rate of every flow when all use "
    "$\\alpha$ ($\\beta = 0.5$); (b) $P_a = dp'_a/d\\alpha'$ at $\\alpha' = \\alpha$; "
    "(c) $p_b$ ($\\alpha = 1$); (d) $P_b = dp'_b/d\\beta'$. $p'$ is the aggregate loss "
    "rate under RED and $F_n$'s own under CHOKe+; slopes are central differences of "
    "neighbouring points.",
    "fig06": "Akella et al., Figure 6: $F_a(\\alpha)$ and $F_b(\\beta)$ of Sec.~4.3 computed "
    "from the Figure 5 measurements with the model module (Tahoe: severe, $\\tau_S$ "
    "assumed; SACK and SACK/CHOKe+: gentle; Reno: eq.~25 with $T_0$ = measured mean "
    "RTO). $F > 0$: a slightly more aggressive deviation pays. Symmetric-log scale.",
    "fig10": "Akella et al., Figure 10: loss rates of $F_1..F_{n-1}$ (mean) and of $F_n$ as "
    "$F_n$'s $\\alpha$ (a, $\\beta = 0.5$) or $\\beta$ (b, $\\alpha = 1$) varies; the "
    "others at $(1, 0.5)$; SACK.",
    "choke": "Akella et al., Sec.~5.1: plain CHOKe (one candidate per arrival) with $N$ "
    "standard SACK flows at $(1, 0.5)$, under our RED thresholds and the two pairs the "
    "sensitivity design tests. (a) link utilisation (the packets the bottleneck sent over "
    "$C$; mean and standard deviation over runs), the dotted line our assumed threshold of a "
    "severe under-utilisation; (b) the mean per-flow loss rate against CHOKe's floor $1/N$.",
    "hybrid": "Akella et al., the Hybrid (Reno) drop-tail evaluation of Sec.~4.2.3 ($\\tau_S = "
    "20$ rounds, $R = 0.12$\\,s): $G_n(\\alpha_n)/G_n(1)$ for per-flow capacities "
    "$C/n$; below 1 deviating does not pay.",
}


def _pub(originals: Path) -> dict[str, Published]:
    return {p.key: p for p in load_originals(originals)}


def _pub_value(pub: Mapping[str, Published], key: str) -> float:
    p = pub.get(key)
    return (
        float(p.published) if p is not None and isinstance(p.published, (int, float)) else math.nan
    )  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# Figures 2, 3, 4, 7, 8, 9, 11
# --------------------------------------------------------------------------------------------


def ne_panel(ax: plt.Axes, t: pd.DataFrame, mode: str, published: float) -> None:
    d = t[t["mode"] == mode]
    cmap = plt.get_cmap("viridis")
    its = sorted(d["iteration"].unique())
    for i, it in enumerate(its):
        c = d[d["iteration"] == it].sort_values("value")
        common = c["common_alpha"].iloc[0] if mode == "alpha" else c["common_beta"].iloc[0]
        col = cmap(i / max(len(its) - 1, 1) * 0.85)
        sym = r"\alpha" if mode == "alpha" else r"\beta"
        ax.errorbar(
            c["value"],
            c["mean"],
            yerr=[c["mean"] - c["low"], c["high"] - c["mean"]],
            color=col,
            marker=".",
            ms=4,
            lw=1,
            capsize=1.5,
            label=f"$j={it}$: ${sym}^j = {ak.fmt(common)}$",
        )
        best = c[c["picked"]]
        ax.plot(best["value"], best["mean"], marker="*", ms=11, color=col, mec="k", mew=0.6, ls="")
    if not math.isnan(published):
        ax.axvline(published, color="0.4", ls="--", lw=0.8, label=f"paper: {ak.fmt(published)}")
    ax.set_xlabel(r"$\alpha_n$ of $F_n$" if mode == "alpha" else r"$\beta_n$ of $F_n$")
    ax.set_ylabel("goodput of $F_n$ (Mbps)")
    ax.legend(fontsize=6.5, loc="best")


def ne_figure(fig: str, tidy: pd.DataFrame, pub: dict[str, Published]) -> plt.Figure:
    f, axes = plt.subplots(1, 2, figsize=(9.0, 3.4))
    for ax, mode, panel in zip(axes, ("alpha", "beta"), "ab", strict=True):
        key = ak.number_key(fig, mode, "alpha_e" if mode == "alpha" else "beta_e")
        ne_panel(ax, tidy, mode, _pub_value(pub, key))
        ax.set_title(
            f"({panel}) {'increase' if mode == 'alpha' else 'decrease'} parameter", fontsize=9
        )
    return f


def _pct(x: float) -> str:
    return "--" if math.isnan(x) else f"{100 * x:.2f}\\,\\%"


def _num(x: float, digits: int = 3) -> str:
    return "--" if math.isnan(x) else f"{x:.{digits}f}"


def ne_table(fig: str, ne: pd.DataFrame, pub: dict[str, Published]) -> str:
    """The table printed under the paper's figure: NE and its per-flow goodput and loss."""
    rows = [
        r"\begin{tabular}{@{}lllrrrrrr@{}}",
        r"\toprule search & NE $(\alpha_E, \beta_E)$ & paper & iter. & runs (grid) "
        r"& goodput (Mbps) & paper & loss & paper \\ \midrule",
    ]
    for _, r in ne.iterrows():
        mode = r["mode"]
        pa = _pub_value(pub, ak.number_key(fig, mode, "alpha_e")) if mode != "beta" else np.nan
        pb = _pub_value(pub, ak.number_key(fig, mode, "beta_e")) if mode != "alpha" else np.nan
        if mode == "alpha":
            paper = f"$\\alpha_E = {ak.fmt(pa)}$" if not math.isnan(pa) else "--"
        elif mode == "beta":
            paper = f"$\\beta_E = {ak.fmt(pb)}$" if not math.isnan(pb) else "--"
        else:
            paper = f"$({ak.fmt(pa)}, {ak.fmt(pb)})$" if not math.isnan(pa) else "--"
        conv = "" if r["converged"] else r"$^\dagger$"
        rows.append(
            f"{mode} & $({ak.fmt(r['alpha_e'])}, {ak.fmt(r['beta_e'])})${conv} & {paper} & "
            f"{int(r['iterations'])} & {int(r['runs'])} ({int(r['exhaustive_runs'])}) & "
            f"{_num(r['ne_goodput'])} & "
            f"{_num(_pub_value(pub, ak.number_key(fig, mode, 'ne_goodput')), 2)} & "
            f"{_pct(r['ne_loss'])} & {_pct(_pub_value(pub, ak.number_key(fig, mode, 'ne_loss')))} "
            "\\\\"
        )
    d = ne.iloc[0]
    rows += [
        r"\bottomrule",
        r"\end{tabular}",
        "",
        f"\\par\\footnotesize Per-flow goodput and loss: means over all flows and runs at the NE "
        f"profile. Default profile $(1, 0.5)$: {_num(d['default_goodput'])}\\,Mbps, "
        f"{_pct(d['default_loss'])}. Runs: ns runs the search made; in brackets an exhaustive "
        f"best-response table over the same values. $^\\dagger$: iteration cap reached "
        f"without convergence (last pick shown).",
    ]
    return "\n".join(rows)


def ne_caption(fig: str) -> str:
    tcp, queue = ak.NE_FIGURES[fig]
    return (
        f"Akella et al., Figure {int(fig[3:])}: {TCP_NAME[tcp]} flows, {QUEUE_NAME[queue]} "
        "bottleneck: best response of $F_n$ to $F_1..F_{n-1}$, (a) varying $\\alpha$ "
        "($\\beta = 0.5$), (b) varying "
        "$\\beta$ ($\\alpha = 1$). One curve per iteration $j$ (mean goodput of $F_n$ with "
        "85\\,\\% "
        "confidence intervals), star: the iteration's pick; dashed: the paper's NE."
    )


# --------------------------------------------------------------------------------------------
# Figures 5, 6, 10 and the Hybrid evaluation
# --------------------------------------------------------------------------------------------


def _twin(ax: plt.Axes) -> plt.Axes:
    ax2 = ax.twinx()
    ax2.grid(False)
    ax2.tick_params(axis="y", colors=SERIES_STYLE["sack_chokeplus"][1])
    return ax2


def fig05(tidy: pd.DataFrame) -> plt.Figure:
    f, axes = plt.subplots(2, 2, figsize=(9.0, 6.2))
    panels = [
        ("alpha", "p", "(a) $p_a$", r"$\alpha$"),
        ("alpha", "P", "(b) $P_a$", r"$\alpha$"),
        ("beta", "p", "(c) $p_b$", r"$\beta$"),
        ("beta", "P", "(d) $P_b$", r"$\beta$"),
    ]
    for ax, (prm, col, title, xl) in zip(axes.flat, panels, strict=True):
        ax2 = _twin(ax)
        for series, (label, color, marker) in SERIES_STYLE.items():
            d = tidy[(tidy["series"] == series) & (tidy["parameter"] == prm)].sort_values("x")
            if d.empty:
                continue
            y = d["p_fn"] if (series == "sack_chokeplus" and col == "p") else d[col]
            target = ax2 if series == "sack_chokeplus" else ax
            target.plot(d["x"], y, color=color, marker=marker, ms=3.5, lw=1, label=label)
        ax.set_title(title, fontsize=9)
        ax.set_xlabel(xl)
        ax.set_ylabel("RED")
        ax2.set_ylabel("CHOKe+", color=SERIES_STYLE["sack_chokeplus"][1])
        if col == "P":
            ax.axhline(0, color="0.5", lw=0.6)
    h1, l1 = axes.flat[0].get_legend_handles_labels()
    h2, l2 = f.axes[4].get_legend_handles_labels()
    f.legend(h1 + h2, l1 + l2, loc="upper center", ncol=4, fontsize=7, bbox_to_anchor=(0.5, 1.02))
    f.tight_layout(rect=(0, 0, 1, 0.96))
    return f


def fig06(tidy: pd.DataFrame) -> plt.Figure:
    f, axes = plt.subplots(1, 2, figsize=(9.0, 3.4))
    for ax, prm, title in zip(axes, ("alpha", "beta"), ("(a) $F_a$", "(b) $F_b$"), strict=True):
        for series, (label, color, marker) in SERIES_STYLE.items():
            d = (
                tidy[(tidy["series"] == series) & (tidy["parameter"] == prm)]
                .dropna()
                .sort_values("x")
            )
            if d.empty:
                continue
            ax.plot(
                d["x"],
                d["F"],
                color=color,
                marker=marker,
                ms=3.5,
                lw=1,
                label=label.replace(" (right axis)", ""),
            )
        ax.set_yscale("symlog", linthresh=1.0)
        ax.axhline(0, color="k", lw=0.7)
        ax.set_xlabel(r"$\alpha$" if prm == "alpha" else r"$\beta$")
        ax.set_ylabel(title[4:])
        ax.set_title(title, fontsize=9)
        ax.legend(fontsize=7)
    return f


def fig10(tidy: pd.DataFrame) -> plt.Figure:
    f, axes = plt.subplots(1, 2, figsize=(9.0, 3.4))
    style = {"red": ("RED", "tab:blue"), "chokeplus": ("CHOKe+", "tab:red")}
    for ax, prm, title in zip(
        axes, ("alpha", "beta"), (r"(a) $\alpha_{n}$ varies", r"(b) $\beta_n$ varies"), strict=True
    ):
        for q, (name, color) in style.items():
            d = tidy[(tidy["queue"] == q) & (tidy["parameter"] == prm)].sort_values("x")
            if d.empty:
                continue
            ax.plot(
                d["x"],
                d["loss_others"],
                color=color,
                ls="--",
                marker=".",
                label=f"{name}: $F_1..F_{{n-1}}$",
            )
            ax.plot(
                d["x"],
                d["loss_fn"],
                color=color,
                ls="-",
                marker="o",
                ms=3.5,
                label=f"{name}: $F_n$",
            )
        ax.set_xlabel(r"$\alpha_n$" if prm == "alpha" else r"$\beta_n$")
        ax.set_ylabel("loss rate")
        ax.set_title(title, fontsize=9)
        ax.legend(fontsize=7)
    return f


def choke_figure(tidy: pd.DataFrame, underuse: float, ours: tuple[float, float]) -> plt.Figure:
    f, (ax_u, ax_l) = plt.subplots(1, 2, figsize=(9.0, 3.4))
    for (lo, hi), d in tidy.groupby(["min_th", "max_th"]):
        mine = (lo, hi) == ours
        label = f"$min_{{th}}, max_{{th}}$ = {lo:g}, {hi:g}" + (" (ours)" if mine else "")
        style = {"color": "tab:red"} if mine else {"alpha": 0.6, "ls": "--"}
        ax_u.errorbar(
            d["n"], d["utilisation"], yerr=d["utilisation_sd"], marker="o", ms=3.5, capsize=2,
            label=label, **style,
        )  # fmt: skip
        ax_l.plot(d["n"], d["loss"], marker="o", ms=3.5, label=label, **style)
    ax_u.axhline(underuse, color="k", ls=":", lw=0.8, label="threshold (assumed)")
    ax_u.set_ylabel("utilisation of $C$")
    ax_u.set_title("(a) link utilisation", fontsize=9)
    floor = tidy.drop_duplicates("n").sort_values("n")
    ax_l.plot(floor["n"], floor["floor"], ls="-", color="k", lw=0.8, label="$1/N$")
    ax_l.set_yscale("log")
    ax_l.set_ylabel("per-flow loss rate")
    ax_l.set_title("(b) loss rate", fontsize=9)
    for ax in (ax_u, ax_l):
        ax.set_xscale("log")
        ax.set_xlabel("flows $N$")
        ax.legend(fontsize=6)
    return f


def hybrid_figure(curves: pd.DataFrame) -> plt.Figure:
    f, axes = plt.subplots(1, 2, figsize=(9.0, 3.4), sharey=True)
    for ax, (n, d) in zip(axes, curves.groupby("n"), strict=False):
        for mbps, c in d.groupby("c_per_n_mbps"):
            ax.plot(c["alpha_n"], c["gain"], lw=1.1, label=f"$C/n$ = {mbps:g} Mbps")
        ax.axhline(1.0, color="k", lw=0.7)
        ax.set_xscale("log")
        ax.set_xlabel(r"$\alpha_n$")
        ax.set_title(f"n = {n}", fontsize=9)
        ax.legend(fontsize=7)
    axes[0].set_ylabel(r"$G_n(\alpha_n) / G_n(1)$")
    return f


def hybrid_table(table: pd.DataFrame, pub: dict[str, Published], pkt_size_note: str) -> str:
    small = _pub_value(pub, "analysis.hybrid.small_n.max_c_per_n")
    large = _pub_value(pub, "analysis.hybrid.large_n.max_c_per_n")
    rows = [
        r"\begin{tabular}{@{}rrrrr@{}}",
        r"\toprule $n$ & threshold $C/n$ (packets) & (Mbps, 1000 B) & (Mbps, 1500 B) & "
        r"$\alpha_n$ for $+10\,\%$ at $1.1\times$ \\ \midrule",
    ]
    for _, r in table.iterrows():
        rows.append(
            f"{int(r['n'])} & {r['threshold_pkts']:.1f} & {r['threshold_mbps']:.2f} & "
            f"{r['threshold_mbps_1500']:.2f} & {_num(r['alpha_needed_10pct'], 1)} \\\\"
        )
    rows += [
        r"\bottomrule",
        r"\end{tabular}",
        "",
        f"\\par\\footnotesize Largest per-flow capacity for which no $\\alpha_n > 1$ beats "
        f"$\\alpha_n = 1$. Paper: {small:g}\\,Mbps for $n \\approx 50$, {large:g}\\,Mbps for "
        f"$n > 100$, $\\alpha_n > 75$ needed above. {pkt_size_note}",
    ]
    return "\n".join(rows)


# --------------------------------------------------------------------------------------------
# report tables: searches and settings
# --------------------------------------------------------------------------------------------


def searches_tex(searches: Sequence[Mapping]) -> str:
    rows = [
        r"\small",
        r"\begin{longtable}{@{}llrrrrrrr@{}}",
        r"\toprule search & method & NE $(\alpha_E, \beta_E)$ & conv. & iter. & points "
        r"& runs & sweep & grid \\ \midrule\endhead",
    ]
    total = grid = sweep = 0
    for s in sorted(searches, key=lambda x: x["search"]):
        g = ak.exhaustive_grid_runs(s)
        f = ak.full_sweep_runs(s)
        total += s["runs"]
        grid += g
        sweep += f
        rows.append(
            f"{tex_escape(s['search'])} & {s['spec']['method']} & "
            f"$({ak.fmt(s['alpha_e'])}, {ak.fmt(s['beta_e'])})$ & "
            f"{'yes' if s['converged'] else 'no'} & {s['iterations']} & {s['points']} & "
            f"{s['runs']} & {f} & {g} \\\\"
        )
    rows += [
        r"\midrule",
        f"total & & & & & & {total} & {sweep} & {grid} \\\\",
        r"\bottomrule",
        r"\end{longtable}",
        "",
        r"\noindent\footnotesize Conv.: the search converged within its iteration cap; iter.: "
        r"its iterations (sweeps). "
        r"Method: \emph{full}, the paper's sweep (every candidate, "
        r"every run); \emph{adaptive}, the same candidates, runs per point and pick rule with "
        r"fewer runs (a coarse pass, the paper's step near its best, more runs only while a "
        r"candidate's CI overlaps the best's). Sweep: the runs the paper's (full) method makes "
        r"over the same iterations. "
        r"Runs count each search's sweeps separately; searches share "
        r"points (e.g.\ the first iteration of the alpha and joint searches), so fewer distinct "
        r"ns runs are made. Grid: an exhaustive grid of every value the search visited as "
        r"$F_n$'s choice against every such common value (joint: pairs), the table a "
        r"search-free best-response analysis over the same range would need.",
        r"\normalsize",
        "",
    ]
    return "\n".join(rows)


def joint_order_tex(rows: pd.DataFrame, summary: str) -> str:
    """The joint searches in both start orders against the published numbers, and whether the
    start order explains the rows that are off (``summary``, computed)."""
    out = [
        r"\begingroup\footnotesize\setlength{\tabcolsep}{3pt}",
        r"\begin{longtable}{@{}p{0.3\linewidth}lrrrll@{}}",
        r"\toprule number & tolerance & published & $\alpha$ first & $\beta$ first & "
        r"verdict ($\alpha$ first) & verdict ($\beta$ first) \\ \midrule\endhead",
    ]
    for _, r in rows.iterrows():
        va, vb = (
            _num(r[c], 3) if r["metric"] in ("ne_goodput", "ne_loss") else ak.fmt(r[c])
            for c in ("alpha_first", "beta_first")
        )
        out.append(
            f"{tex_escape(r['key'])} & {tex_escape(r['tolerance'])} & {r['published']:g} & "
            f"{va} & {vb} & "
            f"{r['verdict_alpha_first']} & {r['verdict_beta_first']} \\\\"
        )
    out += [
        r"\bottomrule",
        r"\end{longtable}",
        r"\endgroup",
        "",
        r"\noindent\footnotesize The primary joint search sweeps $\alpha$ first (config "
        r"\texttt{joint\_order: alpha\_first}); the sensitivity searches "
        r"(\texttt{*\_joint\_betafirst}) start with the $\beta$ sweep, with the same grids, "
        r"runs and pick rule. Only the primary search's numbers enter the diff. "
        + tex_escape(summary),
        "",
    ]
    return "\n".join(out)


def settings_tex(config: Mapping) -> str:
    """Search, Figure 5 and plain-CHOKe settings with their provenance (the design blocks of
    the config)."""
    exps = config[PAPER]["experiments"]
    seen: dict[str, tuple[object, str, str]] = {}
    for e in exps.values():
        for k, s in e.get("design", {}).get("settings", {}).items():
            seen.setdefault(k, (s["value"], s["status"], s.get("reason") or s.get("source", "")))
    grids: dict[str, dict] = {}
    for e in exps.values():
        d = e.get("design", {})
        if "search" in d:
            grids = d["fidelity"]
            break
    rows = [
        r"\begin{longtable}{@{}p{0.25\linewidth}p{0.1\linewidth}lp{0.45\linewidth}@{}}",
        r"\toprule setting & value & status & reason or source \\ \midrule\endhead",
    ]
    for k, (v, status, why) in sorted(seen.items()):
        rows.append(
            f"\\texttt{{{tex_breakable(k)}}} & {tex_breakable(str(v))} & {status} & "
            f"{tex_escape(why)} \\\\"
        )
    for fid, g in grids.items():
        text = ", ".join(f"{k} {v}" for k, v in g.items())
        rows.append(f"\\texttt{{grids ({fid})}} & & assumed & {tex_escape(text)} \\\\")
    rows += [r"\bottomrule", r"\end{longtable}", ""]
    return "\n".join(rows)


# --------------------------------------------------------------------------------------------
# sensitivity to the parameters the paper does not state
# --------------------------------------------------------------------------------------------


def sensitivity_figure(rows: pd.DataFrame) -> plt.Figure:
    """One panel per rerun search: the NE coordinate it searches under our default and each
    tested value (filled: the paper's conclusion holds, open: it fails), the paper's value
    dashed."""
    names = list(dict.fromkeys(rows["search"])) if len(rows) else []
    cols = 4
    nrows = max(1, math.ceil(len(names) / cols))
    fig, axes = plt.subplots(nrows, cols, figsize=(12, 3.0 * nrows), squeeze=False)
    for ax in axes.flat[len(names) :]:
        ax.set_visible(False)
    if not names:
        axes[0][0].set_visible(True)
        axes[0][0].text(0.5, 0.5, "no sensitivity search at this fidelity", ha="center")
        axes[0][0].set_axis_off()
    for ax, name in zip(axes.flat, names, strict=False):
        t = rows[rows["search"] == name].reset_index(drop=True)
        x = np.arange(len(t))
        for i, r in t.iterrows():
            filled = r["holds"] is True or r["holds"] == 1
            ax.plot(
                [x[i]],
                [r["ne_value"]],
                "o",
                color="C0" if r["value"] else "k",
                markerfacecolor=None if filled else "none",
            )
        pub = t["published"].iloc[0]
        if np.isfinite(pub):
            ax.axhline(pub, color="C3", ls="--", lw=1, label="paper")
        ax.set_xticks(x, [r["value"] or "ours" for _, r in t.iterrows()], rotation=45, fontsize=7)
        # a beta search: the beta set-up's, or one started at a paper's joint NE
        coord = "beta" if name.endswith(("_beta", "_beta_at_ne")) else "alpha"
        ax.set_ylabel(f"$\\{coord}_E$")
        ax.set_title(name.replace("_", " "), fontsize=9)
    fig.tight_layout()
    return fig


def sensitivity_tex(
    sens: object,
    rows: pd.DataFrame,
    checks: Mapping[str, tuple[bool, str]],
    explains: pd.DataFrame,
    figure: str,
) -> str:
    """The tested values with their reasons, the NE per search and value, our robustness checks
    of the paper's conclusions and the off rows blamed on unstated parameters."""
    from analysis.akella2002_search import Sensitivity

    assert isinstance(sens, Sensitivity)
    out = [
        r"\small",
        r"\begin{longtable}{@{}p{0.2\linewidth}p{0.12\linewidth}p{0.24\linewidth}"
        r"p{0.36\linewidth}@{}}",
        r"\toprule parameter (ours) & value & sets & reason \\ \midrule\endhead",
    ]
    for v in sens.values:
        title, default, *_ = sens.parameters[v.parameter]
        sets = ", ".join(f"{k} {x}" for k, x in v.set)
        out.append(
            f"{tex_escape(title)} ({tex_escape(default)}) & {tex_escape(v.label)} & "
            f"{tex_escape(sets)} & {tex_escape(v.reason)} \\\\"
        )
    if not sens.values:
        out.append(r"\multicolumn{4}{@{}l}{no value is tested at this fidelity} \\")
    out += [r"\bottomrule", r"\end{longtable}", r"\normalsize", ""]
    out += [
        # the names wrap (every tested value of every search, at paper too)
        r"\begin{longtable}{@{}p{0.21\linewidth}p{0.1\linewidth}p{0.12\linewidth}rrrrl@{}}",
        r"\toprule search & parameter & value & $\alpha_E$ & $\beta_E$ & goodput (Mbps) & "
        r"loss & conclusion \\ \midrule\endhead",
    ]
    for _, r in rows.iterrows():
        holds = (
            ""
            if r["holds"] is None or r["holds"] != r["holds"]
            else ("holds" if r["holds"] else "fails")
        )
        out.append(
            f"{tex_breakable(r['search'])} & {tex_breakable(r['parameter'] or 'ours')} & "
            f"{tex_escape(r['label'])} & {ak.fmt(r['alpha_e'])} & {ak.fmt(r['beta_e'])} & "
            f"{_num(r['ne_goodput'])} & {_pct(r['ne_loss'])} & {holds} \\\\"
        )
    out += [
        r"\bottomrule",
        r"\end{longtable}",
        "",
        r"\noindent\footnotesize Paper's values of the searched coordinate: "
        + tex_escape(
            "; ".join(
                f"{n} {ak.fmt(p)}"
                for n, p in rows.drop_duplicates("search")[["search", "published"]].itertuples(
                    index=False
                )
                if np.isfinite(p)
            )
            or "none"
        )
        + ". Conclusion: the paper's conclusion the search supports (the checks below), "
        "judged on that search alone.",
        "",
        r"\normalsize",
        r"\paragraph{Do the paper's conclusions survive?} Each check holds when the conclusion "
        r"holds under our default and under every tested value of the parameter (our checks, "
        r"not the paper's claims: they are not in the diff).",
        r"\begin{itemize}",
    ]
    for k in sorted(checks):
        ok, detail = checks[k]
        out.append(
            f"\\item \\texttt{{{tex_escape(k)}}}: \\textbf{{{'holds' if ok else 'fails'}}}. "
            f"{tex_escape(detail)}"
        )
    if not checks:
        out.append(r"\item none at this fidelity (a parameter needs every tested value's search)")
    out += [r"\end{itemize}", ""]
    out += [
        r"\paragraph{Off rows blamed on unstated parameters.} The rows the sensitivity design"
        r" blames on a parameter, ours under our default and under each tested value:",
        "",
        # a few rows: a tabular, which (unlike a longtable) leaves room for a float above it
        r"\noindent\begin{tabular}{@{}p{0.2\linewidth}p{0.1\linewidth}lrrp{0.26\linewidth}@{}}",
        r"\toprule number & parameters & tolerance & published & ours (verdict) & tested values "
        r"\\ \midrule",
    ]
    for _, r in explains.iterrows():
        ours = _num(r["ours"]) if "ne_" in r["key"] else ak.fmt(r["ours"])
        out.append(
            f"{tex_breakable(r['key'])} & {tex_escape(r['parameters'])} & "
            f"{tex_escape(r['tolerance'])} & {r['published']:g} & {ours} ({r['verdict']}) & "
            f"{tex_escape(r['tested'] or 'none')} \\\\"
        )
    out += [
        r"\bottomrule",
        r"\end{tabular}",
        "",
        r"\noindent " + tex_escape(ak.sensitivity_summary(explains)),
        "",
        figure,
    ]
    return "\n".join(out)


def sensitivity(a: argparse.Namespace, ap: argparse.ArgumentParser) -> None:
    """The sensitivity section: --params keys sensitivity, parameters, experiments, fidelity;
    the search records in --inputs."""
    from analysis import akella2002_search as aks
    from analysis.latex import figure as latex_figure
    from analysis.latex import trace_tex

    cli.need(ap, a, "--originals", "--tex", "--pdf", "--tidy-out", "--checks", "--numbers")
    pconf = {k: cli.param(ap, a, k) for k in ("sensitivity", "parameters", "experiments")}
    sens = aks.sensitivity({PAPER: pconf}, str(cli.param(ap, a, "fidelity")))
    docs = {d["search"]: d for d in (json.loads(p.read_text()) for p in a.inputs)}
    if sens is None:
        sens = aks.Sensitivity((), {}, (), {})
    pub = _pub(a.originals)
    rows = ak.sensitivity_rows(sens, docs, pub)
    checks = ak.sensitivity_checks(sens, docs)
    explains = ak.sensitivity_explains(sens, docs, pub)
    write_tidy(rows, a.tidy_out)
    write_claims(checks, a.checks)
    # the checks of the diagnoses of the rows blamed on unstated parameters
    write_numbers(ak.sensitivity_check_values(explains), a.numbers)
    save(sensitivity_figure(rows), a.pdf)
    rel = os.path.relpath(a.pdf, start=Path("paper")).replace(os.sep, "/")
    caption = (
        "Sensitivity of the NE to parameters the paper does not state: the searched coordinate "
        "under our defaults (black) and each tested value (blue); filled when the paper's "
        "conclusion holds, open when it fails; the paper's value dashed."
    )
    fig = latex_figure(
        rel,
        caption,
        trace_tex(None, "akella2002_search, akella2002_sensitivity", SCRIPT),
        "fig:akella2002-sensitivity",
    )
    a.tex.parent.mkdir(parents=True, exist_ok=True)
    a.tex.write_text(sensitivity_tex(sens, rows, checks, explains, fig))


# --------------------------------------------------------------------------------------------
# command line
# --------------------------------------------------------------------------------------------


def tables(a: argparse.Namespace, ap: argparse.ArgumentParser) -> None:
    """The searches' summary, the joint searches by start order, the search settings with
    their provenance (``--params`` key ``experiments``) and the marks of the figures made at
    this fidelity (``--params`` key ``figures``); record files in ``--inputs``."""
    cli.need(ap, a, "--searches-tex", "--settings-tex", "--originals")
    docs = [json.loads(p.read_text()) for p in a.inputs]
    a.searches_tex.parent.mkdir(parents=True, exist_ok=True)
    a.searches_tex.write_text(searches_tex(docs))
    if a.joint_order_tex:
        rows = ak.joint_order_rows({d["search"]: d for d in docs}, _pub(a.originals))
        a.joint_order_tex.write_text(joint_order_tex(rows, ak.joint_order_summary(rows)))
        if a.numbers:  # the checks of the joint rows' diagnoses: the beta-first search's NE
            write_numbers(ak.joint_order_check_values(rows), a.numbers)
    experiments = cli.param(ap, a, "experiments")
    a.settings_tex.write_text(settings_tex({PAPER: {"experiments": experiments}}))
    if a.figures_tex:
        marks = [
            f"\\expandafter\\def\\csname akellafig@{f}\\endcsname{{}}"
            for f in cli.param(ap, a, "figures")  # type: ignore[attr-defined]
        ]
        a.figures_tex.write_text("\n".join(marks) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    items = [
        *sorted(ak.NE_FIGURES),
        "fig05",
        "fig06",
        "fig10",
        "choke",
        "hybrid",
        "tables",
        "sensitivity",
    ]
    ap = cli.plot_parser("analysis.plots.akella2002", "Akella et al. 2002 figures", items)
    # the tables item writes four files from the search records
    ap.add_argument("--inputs", type=Path, nargs="*", default=[], help="tables: search records")
    ap.add_argument("--searches-tex", type=Path)
    ap.add_argument("--settings-tex", type=Path)
    ap.add_argument("--joint-order-tex", type=Path, help="joint searches by start order")
    ap.add_argument("--figures-tex", type=Path, help="marks the figures made at this fidelity")
    ap.add_argument("--tidy-out", type=Path, help="sensitivity: its tidy table")
    ap.add_argument("--checks", type=Path, help="sensitivity: our robustness checks")
    a = cli.parse(ap, argv)
    if a.item == "tables":
        tables(a, ap)
        return 0
    if a.item == "sensitivity":
        sensitivity(a, ap)
        return 0
    cli.need(ap, a, "--tidy", "--originals", "--pdf", "--tex")
    pub = _pub(a.originals)
    tidy = pd.read_csv(a.tidy)
    rule = f"figure ({a.item})"
    below = ""
    if a.item in ak.NE_FIGURES:
        fig = ne_figure(a.item, tidy, pub)
        caption = ne_caption(a.item)
        below = ne_table(a.item, pd.read_csv(a.extra / "ne.csv"), pub)
        rule = "akella2002_search, analyse, figure"
    elif a.item == "fig05":
        fig, caption = fig05(tidy), CAPTIONS["fig05"]
    elif a.item == "fig06":
        fig, caption = fig06(tidy), CAPTIONS["fig06"]
    elif a.item == "fig10":
        fig, caption = fig10(tidy), CAPTIONS["fig10"]
    elif a.item == "choke":
        underuse = float(cli.param(ap, a, ak.UNDERUSE))  # type: ignore[arg-type]
        ours = (float(cli.param(ap, a, ak.RED_THRESH)), float(cli.param(ap, a, ak.RED_MAXTHRESH)))  # type: ignore[arg-type]
        fig, caption = choke_figure(tidy, underuse, ours), CAPTIONS["choke"]
    else:
        fig, caption = hybrid_figure(tidy), CAPTIONS["hybrid"]
        table = pd.read_csv(a.extra / "thresholds.csv")
        below = hybrid_table(table, pub, "Our numbers from the model module.")
        rule = "analyse, figure"
    trace = a.params.get("trace")
    if trace:
        trace = {**trace, "rule": rule}
    save(fig, a.pdf)
    figure_tex(a.tex, a.pdf, caption, rule, SCRIPT, f"fig:akella2002-{a.item}", trace)
    if below:
        text = a.tex.read_text().replace(
            "\\end{figure}", "\\par\\centering\\small\n" + below + "\n\\end{figure}"
        )
        a.tex.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
