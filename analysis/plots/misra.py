r"""Figures of Misra, Baras, Ott (Figures 1-7 and the N-flow extension ext01).

Simulation: markers (one per seed, mean joined by a dashed line where useful); theory: solid
lines (fixed point of Sec III, window distribution of Sec IV). The model's values the paper
does not print, our own computation (config/originals/misra.yaml, ``derived.*``), are drawn as
crosses on the theory. Item ``errors`` is the table of the simulations' errors against the
theory that the claims step computes. Command line (the contract of :mod:`analysis.cli`; no
item reads ``--params``, ``--extra`` or ``--numbers``)::

    python -m analysis.plots.misra FIG --tidy T.csv --originals config/originals/misra.yaml \
        --pdf figures/FIDELITY/misra/FIG.pdf --tex paper/generated/FIDELITY/misra/FIG.tex
    python -m analysis.plots.misra errors --tidy results/misra/claims/FID/tidy.csv \
        --tex paper/generated/FIDELITY/misra/errors.tex
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from analysis.cli import need, parse, plot_parser
from analysis.compare import Published, load_originals
from analysis.latex import tex_escape, trace_tex
from analysis.misra.claims import TV_QUANTITY
from analysis.misra.setup import WINDOW_FIGURES
from analysis.misra.theory import THEORY_ALPHAS, THEORY_C2, THEORY_CAPACITIES_MBPS, num_key
from analysis.misra.tidy import PREDICTION_EXPERIMENT, capacity_errors, ratios, window_stats
from analysis.models import misra as models
from analysis.plots.common import figure_tex, save

SCRIPT = "analysis/plots/misra.py"
FLOW_COLORS = ("tab:blue", "tab:orange")
SET_COLORS = {1: "tab:blue", 2: "tab:red", 3: "tab:green", 4: "tab:purple"}
# sets 3 and 4 dashed over 1 and 2: in theory they coincide pairwise (same c2/c1 in Exp A)
SET_STYLES = {1: ("-", "o"), 2: ("-", "s"), 3: ("--", "^"), 4: ("--", "D")}
SET_LABELS = {
    1: "set 1: SAIMD, c1 1, c2 0.5",
    2: "set 2: AIMD, c1 0.2, c2 0.1",
    3: "set 3: SAIMD, c1 0.5, c2 0.1",
    4: "set 4: AIMD, c1 0.4, c2 0.2",
}
CAPTIONS = {
    "fig01": "Figure 1: Experiment A (assured rates 1.5 and 3 Mb/s, equal RTTs of 20 ms), "
    "parameter set 1 (SAIMD, today's TCP): (a) mean windows, (b) throughputs against the "
    "bottleneck capacity.",
    "fig02": "Figure 2: Experiment A, parameter set 2 (AIMD, $\\beta = 1$: printed $-1$): "
    "(a) mean windows, (b) throughputs.",
    "fig03": "Figure 3: Experiment B (assured rates 1.5 Mb/s each, RTTs 20 and 100 ms), "
    "parameter set 1: (a) mean windows, (b) throughputs.",
    "fig04": "Figure 4: Experiment A, throughput ratio $\\rho_2/\\rho_1$ (proportional "
    "sharing of the excess: 2) for the four parameter sets: (a) simulation, (b) theory.",
    "fig05": "Figure 5: Experiment B, throughput ratio $\\rho_1/\\rho_2$ of the 20-ms flow to "
    "the 100-ms flow (proportional sharing: 1): (a) simulation, (b) theory.",
    "fig06": "Figure 6: one flow (3 Mb/s ORED, assured 0.75 Mb/s, RTT 13.66 ms), $\\beta = 1$, "
    "$c_1 = 1$, $c_2 = 0.5$: window statistics against $\\alpha$ and the window distribution "
    "at $\\alpha = -1$. Theory: the limit process of Prop.~1 (solid); crosses: the same with the "
    "chain's finite drift (ours).",
    "fig07": "Figure 7: one flow, $\\alpha = -1$, $\\beta = 1$, $c_1 = 1$: window statistics "
    "against $c_2$ and the distributions at $c_2 = 0.2$ and 0.4. Last panel (theory only): with a "
    "constant marking probability the exact law of the limit process, "
    "$\\mathrm{CV}(W^{1-\\alpha}) = \\sqrt{(1-r)/(1+r)}$, $r = (1-c_2)^{1-\\alpha}$, against "
    "the law cited from [10], $\\sqrt{1/(1-c_2)}$, scaled to agree at $c_2 = 0.5$.",
    "ext01": "Extension (not in the paper): $N$ flows with assured rates alternating 1.5 and "
    "3 Mb/s, equal RTTs of 20 ms, $C = 3N$ Mb/s, ORED thresholds $10N$/$50N$ packets, parameter "
    "set 1; token buckets of 20 packets (the paper's; circles, solid) and of 200 packets "
    "(squares, dashed). (a) Throughputs, simulation and fixed point; (b) the largest relative "
    "error over the flows (the paper states 5\\,\\%); (c) the rate of in-profile packets over "
    "the assured rate (the model assumes 1 for every flow above its profile).",
}


def _pub(originals: Path) -> dict[str, Published]:
    return {p.key: p for p in load_originals(originals)}


def _pct(x: float) -> str:
    return f"{100.0 * x:.1f}\\,\\%"


# --------------------------------------------------------------------------------------------
# Figures 1-3: windows and throughputs against C
# --------------------------------------------------------------------------------------------


def _flow_label(g: pd.DataFrame, flow: int) -> str:
    r = g[g["flow"] == flow].iloc[0]
    return f"TCP{flow + 1} ({r['profile_mbps']:g} Mb/s, {r['rtt_ms']:g} ms)"


def windows_throughputs(
    tidy: pd.DataFrame, figure: str, pub: dict[str, Published], axes: Sequence[plt.Axes]
) -> str:
    """Panels (a) windows, (b) throughputs; returns the caption's error sentence."""
    sim = tidy[tidy["source"] == "sim"]
    th = tidy[tidy["source"] == "theory"].sort_values("capacity_mbps")
    for col, ax, ylabel in (
        ("window", axes[0], "mean window (packets)"),
        ("throughput_mbps", axes[1], "throughput (Mb/s)"),
    ):
        for flow in sorted(sim["flow"].unique()):
            color = FLOW_COLORS[int(flow) % 2]
            s = sim[sim["flow"] == flow]
            t = th[th["flow"] == flow]
            ax.plot(t["capacity_mbps"], t[col], color=color, lw=1.4, label=None)
            ax.plot(
                s["capacity_mbps"],
                s[col],
                ls="none",
                marker="o",
                ms=4,
                mfc="none",
                color=color,
                label=_flow_label(sim, int(flow)),
            )
        ax.set_xlabel("bottleneck capacity C (Mb/s)")
        ax.set_ylabel(ylabel)
    if figure == "fig01":
        keys = [(c, i) for c in (5, 12) for i in (1, 2)]
        pts = [
            (c, float(pub[k].published))
            for c, i in keys
            if (k := f"derived.fig1.set1.c{c}.rho.tcp{i}") in pub
        ]
        if pts:
            xs, ys = zip(*pts, strict=True)
            axes[1].plot(xs, ys, ls="none", marker="x", color="crimson", label="our computation")
    axes[0].plot([], [], color="grey", lw=1.4, label="fixed point (Sec III)")
    axes[0].legend(fontsize=6.5)
    axes[1].legend(fontsize=6.5)
    e = capacity_errors(tidy)
    return (
        " Simulation against the fixed point: mean windows within "
        f"{_pct(e['window_err'].abs().max())}"
        f" (mean {_pct(e['window_err'].abs().mean())}), throughputs within "
        f"{_pct(e['throughput_mbps_err'].abs().max())} (mean "
        f"{_pct(e['throughput_mbps_err'].abs().mean())})."
    )


# --------------------------------------------------------------------------------------------
# Figures 4-5: throughput ratios
# --------------------------------------------------------------------------------------------


def ratio_panels(
    tidy: pd.DataFrame, figure: str, pub: dict[str, Published], axes: Sequence[plt.Axes]
) -> str:
    sim, th = ratios(tidy, "sim"), ratios(tidy, "theory")
    for ax, d, title in ((axes[0], sim, "(a) simulation"), (axes[1], th, "(b) theory")):
        for k, g in d.groupby("set"):
            g = g.sort_values("capacity_mbps")
            ls, marker = SET_STYLES[int(k)]
            ax.plot(
                g["capacity_mbps"],
                g["ratio"],
                ls=ls,
                lw=1.0 if ls == "--" else 1.6,
                marker=marker if ax is axes[0] else None,
                ms=3.5,
                mfc="none",
                color=SET_COLORS[int(k)],
                label=SET_LABELS[int(k)],
            )
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("bottleneck capacity C (Mb/s)")
    if figure == "fig04":
        axes[0].set_ylabel("$\\rho_2 / \\rho_1$")
        for ax in axes:
            ax.axhline(2.0, color="grey", lw=0.8, ls=":")
            ax.axhline(1.0, color="grey", lw=0.8, ls=":")
        groups = {"sets13": (1, 3), "sets24": (2, 4)}
        prefix = "derived.fig4.theory_ratio"
    else:
        axes[0].set_ylabel("$\\rho_1 / \\rho_2$")
        for ax in axes:
            ax.axhline(1.0, color="grey", lw=0.8, ls=":")
        groups = {"set1": (1,), "set3": (3,), "sets24": (2, 4)}
        prefix = "derived.fig5.theory_ratio"
    label = "our computation"
    for name in groups:
        pts = [
            (c, float(pub[k].published))
            for c in THEORY_CAPACITIES_MBPS
            if (k := f"{prefix}.{name}.c{c:g}") in pub
        ]
        if pts:
            xs, ys = zip(*pts, strict=True)
            axes[1].plot(xs, ys, ls="none", marker="x", ms=4, color="crimson", label=label)
            label = None
    axes[1].legend(fontsize=6)
    lo = min(axes[0].get_ylim()[0], axes[1].get_ylim()[0])
    hi = max(axes[0].get_ylim()[1], axes[1].get_ylim()[1])
    for ax in axes:
        ax.set_ylim(lo, hi)
    r = sim.merge(th, on=["experiment", "capacity_mbps"], suffixes=("_s", "_t"))
    err = (r["ratio_s"] / r["ratio_t"] - 1.0).abs()
    return (
        f" Simulated ratios against the theory: within {_pct(err.max())} (mean {_pct(err.mean())})."
    )


# --------------------------------------------------------------------------------------------
# Figures 6-7: window distribution
# --------------------------------------------------------------------------------------------

STAT_LABELS = {"mean": "mean window (packets)", "var": "window variance", "cov": "CoV"}


def window_stats_panel(
    tidy: pd.DataFrame, stat: str, xlabel: str, pub: dict[str, Published], fig: str, ax: plt.Axes
) -> None:
    d = tidy[tidy["stat"] == stat]
    s = d[d["source"] == "sim"]
    ax.plot(
        s["value"],
        s["y"],
        ls="none",
        marker="o",
        ms=4,
        mfc="none",
        color="tab:blue",
        label="simulation (ns-2)",
    )
    m = s.groupby("value")["y"].mean()
    ax.plot(m.index, m.to_numpy(), ls="--", lw=0.8, color="tab:blue")
    t = d[d["source"] == "theory_line"].sort_values("value")
    ax.plot(t["value"], t["y"], color="black", label="theory (Prop. 1)")
    t = d[d["source"] == "theory_finite"]
    ax.plot(t["value"], t["y"], ls="none", marker="+", color="black", label="finite drift (ours)")
    if stat == "var":
        ax.set_yscale("log")
    name = "fig6" if fig == "fig06" else "fig7"
    param = "alpha" if fig == "fig06" else "c2"
    grid = THEORY_ALPHAS if fig == "fig06" else THEORY_C2
    pts = [
        (v, float(pub[k].published))
        for v in grid
        if (k := f"derived.{name}.theory.{stat}.{param}_{num_key(v)}") in pub
    ]
    if pts:
        xs, ys = zip(*pts, strict=True)
        ax.plot(xs, ys, ls="none", marker="x", ms=4, color="crimson", label="our computation")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(STAT_LABELS[stat])


def pmf_panel(tidy: pd.DataFrame, value: float, xlabel: str, ax: plt.Axes) -> None:
    d = tidy[(tidy["stat"] == "pmf") & np.isclose(tidy["value"], value)]
    s = d[d["source"] == "sim"].groupby("w")["y"].mean()
    t = d[d["source"] == "theory"].set_index("w")["y"].sort_index()
    if len(s):
        ax.step(s.index, s.to_numpy(), where="post", color="tab:blue", lw=0.9, label="simulation")
    ax.plot(t.index + 0.5, t.to_numpy(), color="black", lw=1.2, label="theory")
    hi = s.index.max() + 1 if len(s) else t.index.max()
    keep = t[t > 1e-4 * t.max()]
    ax.set_xlim(0, max(hi, keep.index.max()) if len(keep) else hi)
    ax.set_xlabel("window W (packets)")
    ax.set_ylabel("probability per packet of W")
    ax.set_title(f"distribution, {xlabel} = {value:g}", fontsize=9)
    ax.legend(fontsize=6.5)


def cited_law_panel(ax: plt.Axes) -> None:
    """Constant marking (Sec IV.C, cited from [10]): the exact CoV law of the limit process,
    CV(W^(1-alpha)) = sqrt((1-r)/(1+r)), r = (1-c2)^(1-alpha), against the cited
    sqrt(1/(1-c2)) scaled to agree at c2 = 0.5."""
    c2 = np.linspace(0.05, 0.6, 111)
    for alpha, color in ((-1.0, "black"), (0.0, "tab:gray")):
        law = np.array(
            [models.constant_marking_cv(models.GeneralizedTCP(alpha, 1.0, 1.0, c)) for c in c2]
        )
        cited = np.sqrt(1.0 / (1.0 - c2))
        k = law[np.argmin(np.abs(c2 - 0.5))] / cited[np.argmin(np.abs(c2 - 0.5))]
        ax.plot(c2, law, color=color, label=f"exact, $\\alpha = {alpha:g}$")
        ax.plot(c2, k * cited, color=color, ls="--", label="cited law, scaled")
    ax.set_xlabel("$c_2$")
    ax.set_ylabel("CoV of $W^{1-\\alpha}$")
    ax.set_title("constant marking probability", fontsize=9)
    ax.legend(fontsize=6.5)


def window_figure(tidy: pd.DataFrame, figure: str, pub: dict[str, Published]) -> tuple:
    param = WINDOW_FIGURES[figure]
    xlabel = "$\\alpha$" if param == "alpha" else "$c_2$"
    values = sorted(tidy["value"].unique())
    if figure == "fig06":
        dists = [v for v in values if np.isclose(v, -1.0)] or values[:1]
        fig, axs = plt.subplots(2, 2, figsize=(7.5, 5.6))
    else:
        dists = [v for v in values if np.isclose(v, 0.2) or np.isclose(v, 0.4)] or values[:1]
        fig, axs = plt.subplots(2, 3, figsize=(10.5, 5.6))
    flat = list(axs.flat)
    for ax, stat in zip(flat, ("mean", "var", "cov"), strict=False):
        window_stats_panel(tidy, stat, xlabel, pub, figure, ax)
    flat[0].legend(fontsize=6.5)
    for ax, v in zip(flat[3:], dists, strict=False):
        pmf_panel(tidy, float(v), xlabel, ax)
    rest = flat[3 + len(dists) :]
    if figure == "fig07" and rest:
        cited_law_panel(rest.pop(0))
    for ax in rest:
        ax.set_visible(False)
    s = window_stats(tidy)
    text = (
        " Simulation against Prop.~1: mean within "
        f"{_pct(s['mean_err'].abs().max())}, variance within {_pct(s['var_err'].abs().max())}, "
        f"CoV within {_pct(s['cov_err'].abs().max())}; total-variation distance of the "
        f"distributions {s['tv'].min():.3f} to {s['tv'].max():.3f}."
    )
    return fig, text


# --------------------------------------------------------------------------------------------
# extension: N flows
# --------------------------------------------------------------------------------------------


NFLOWS_LABELS = {"nflows": "20-packet buckets", "nflows_deep": "200-packet buckets"}


def nflows_panels(tidy: pd.DataFrame, pub: dict[str, Published], axes: Sequence[plt.Axes]) -> str:
    e = capacity_errors(tidy)
    lo = e["profile_mbps"].min()
    for (exp, prof), g in e.groupby(["experiment", "profile_mbps"]):
        color = FLOW_COLORS[0] if prof == lo else FLOW_COLORS[1]
        deep = exp != PREDICTION_EXPERIMENT
        axes[0].plot(
            g["n_flows"],
            g["throughput_mbps_sim"],
            ls="none",
            marker="s" if deep else "o",
            ms=3.5,
            mfc=color if deep else "none",
            color=color,
            alpha=0.7,
            label=f"{prof:g} Mb/s flows, {NFLOWS_LABELS.get(str(exp), exp)}",
        )
        if not deep:
            t = g.groupby("n_flows")["throughput_mbps_theory"].mean()
            axes[0].plot(t.index, t.to_numpy(), color=color, label=f"{prof:g} Mb/s: fixed point")
    axes[0].set_xlabel("number of flows N")
    axes[0].set_ylabel("throughput per flow (Mb/s)")
    axes[0].legend(fontsize=5.5, loc="center right", framealpha=0.9)
    a = e.assign(w=e["window_err"].abs(), t=e["throughput_mbps_err"].abs())
    per_n = a.groupby(["experiment", "n_flows"])[["w", "t"]].max().reset_index()
    for exp, g in per_n.groupby("experiment"):
        ls = "--" if exp != PREDICTION_EXPERIMENT else "-"
        name = NFLOWS_LABELS.get(str(exp), exp)
        axes[1].plot(
            g["n_flows"],
            100 * g["w"],
            ls=ls,
            marker="o",
            ms=3,
            color="tab:green",
            label=f"windows, {name}",
        )
        axes[1].plot(
            g["n_flows"],
            100 * g["t"],
            ls=ls,
            marker="s",
            ms=3,
            color="tab:brown",
            label=f"throughputs, {name}",
        )
    bound = pub.get("fig1_2.prediction_error_bound_n2_20")
    if bound is not None:
        axes[1].axhline(
            100 * float(bound.published), color="crimson", ls=":", lw=1.0, label="paper: within 5 %"
        )
    axes[1].set_xlabel("number of flows N")
    axes[1].set_ylabel("largest relative error (%)")
    axes[1].set_ylim(bottom=0)
    axes[1].legend(fontsize=6)
    sim = tidy[tidy["source"] == "sim"]
    sim = sim.assign(share=sim["throughput_mbps"] * (1 - sim["out_fraction"]) / sim["profile_mbps"])
    for (exp, prof), g in sim.groupby(["experiment", "profile_mbps"]):
        m = g.groupby("n_flows")["share"].mean()
        deep = exp != PREDICTION_EXPERIMENT
        axes[2].plot(
            m.index,
            m.to_numpy(),
            ls="--" if deep else "-",
            marker="o",
            ms=3,
            color=FLOW_COLORS[0] if prof == lo else FLOW_COLORS[1],
            label=f"{prof:g} Mb/s, {NFLOWS_LABELS.get(str(exp), exp)}",
        )
    axes[2].axhline(1.0, color="grey", lw=0.8, ls=":")
    axes[2].set_xlabel("number of flows N")
    axes[2].set_ylabel("in-profile rate / assured rate")
    axes[2].legend(fontsize=6)
    w = per_n[per_n["experiment"] == PREDICTION_EXPERIMENT]
    text = (
        " Largest relative error over all $N$ and flows with 20-packet buckets: windows "
        f"{_pct(w['w'].max())}, throughputs {_pct(w['t'].max())}"
    )
    d = per_n[per_n["experiment"] != PREDICTION_EXPERIMENT]
    if len(d):
        text += f"; with 200-packet buckets {_pct(d['w'].max())} and {_pct(d['t'].max())}"
    return text + "."


# --------------------------------------------------------------------------------------------


def draw(
    figure: str,
    tidy: pd.DataFrame,
    originals: Path,
    pdf: Path,
    tex: Path,
    trace: Mapping | None = None,
) -> None:
    pub = _pub(originals)
    if figure in ("fig01", "fig02", "fig03"):
        fig, axs = plt.subplots(1, 2, figsize=(8.0, 3.2))
        extra = windows_throughputs(tidy, figure, pub, axs)
    elif figure in ("fig04", "fig05"):
        fig, axs = plt.subplots(1, 2, figsize=(8.0, 3.4), sharey=True)
        extra = ratio_panels(tidy, figure, pub, axs)
    elif figure in WINDOW_FIGURES:
        fig, extra = window_figure(tidy, figure, pub)
    elif figure == "ext01":
        fig, axs = plt.subplots(1, 3, figsize=(11.0, 3.4))
        extra = nflows_panels(tidy, pub, axs)
    else:
        raise ValueError(f"unknown figure {figure}")
    fig.tight_layout()
    save(fig, pdf)
    figure_tex(
        tex,
        pdf,
        f"Misra et al., {CAPTIONS[figure]}{extra}",
        rule=f"figure ({figure})",
        script=SCRIPT,
        label=f"fig:misra:{figure}",
        trace=trace,
    )


def errors_tex(errors: pd.DataFrame, trace: Mapping | None = None) -> str:
    """The simulations' errors against the solvers per figure and quantity (the claims step's
    table, :func:`analysis.misra.claims.errors_table`), as a LaTeX table."""
    head = (
        r"\toprule figure & quantity & mean $|$error$|$ & max $|$error$|$ & values compared \\ "
        r"\midrule"
    )
    lines = [
        r"\begin{longtable}{@{}llrrl@{}}",
        r"\caption{Misra et al.: simulation against the solvers, relative errors "
        r"(sim $-$ theory)/theory per figure (Figures 1--5 and ext01: seed-averaged simulation "
        r"against the fixed point of Sec.~III; 6--7: against the distribution of Prop.~1, "
        r"pooled over seeds). "
        + trace_tex(trace, "table (errors)", SCRIPT)
        + r"}\label{tab:misra:errors}\\",
        head + r"\endfirsthead",
        head + r"\endhead",
    ]
    for (fig, what), g in errors.groupby(["figure", "quantity"], sort=False):
        a = g["error"].abs()
        if what == TV_QUANTITY:
            mean, top = f"{a.mean():.3f}", f"{a.max():.3f}"
        else:
            mean, top = _pct(a.mean()), _pct(a.max())
        lines.append(
            f"{fig} & {tex_escape(str(what))} & {mean} & {top} & "
            f"{len(a)}: {tex_escape(str(g['where'].iloc[0]))} \\\\"
        )
    lines += [r"\bottomrule", r"\end{longtable}", ""]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = plot_parser(
        "python -m analysis.plots.misra", "Misra, Baras, Ott figures", [*CAPTIONS, "errors"]
    )
    a = parse(ap, argv)
    if a.item == "errors":
        need(ap, a, "--tidy", "--tex")
        a.tex.parent.mkdir(parents=True, exist_ok=True)
        a.tex.write_text(errors_tex(pd.read_csv(a.tidy), a.params.get("trace")))
        return 0
    need(ap, a, "--tidy", "--originals", "--pdf", "--tex")
    draw(a.item, pd.read_csv(a.tidy), a.originals, a.pdf, a.tex, a.params.get("trace"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
