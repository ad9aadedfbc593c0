"""Figures and tables of Gao, Jain, Schulman (Figure 2, Figure 3, Tables 1 and 2, and our
sensitivity figure for the low marker L).

Usage: the contract of :mod:`analysis.cli` (called by rules ``figure`` and ``table`` of
rules/common.smk; the primary F of Figure 2 comes in ``--params``)::

    python -m analysis.plots.gao fig02 --params JSON --tidy T.csv \
        --originals config/originals/gao.yaml --pdf figures/FIDELITY/gao/fig02.pdf \
        --tex paper/generated/FIDELITY/gao/fig02.tex
    python -m analysis.plots.gao table1 --tidy T.csv --originals config/originals/gao.yaml \
        --tex paper/generated/FIDELITY/gao/table1.tex
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from analysis import cli, gao
from analysis.compare import Published, load_originals
from analysis.gao import PRIMARY_F
from analysis.plots.common import figure_tex, save, trace_tex
from analysis.queues import LABELS as QUEUE_LABELS
from analysis.queues import PER_FLOW

SCRIPT = "analysis/plots/gao.py"
LABEL = {
    "protocol1": "Protocol I",
    "protocol2": "Protocol II",
    "choke": "CHOKe",
    "droptail": "DropTail",
    "red": "RED",
    "drr": "DRR",
}
COLOR = {
    "protocol1": "tab:blue",
    "protocol2": "tab:green",
    "choke": "tab:red",
    "droptail": "tab:gray",
    "red": "tab:purple",
    "drr": "tab:brown",
}
TCP_LABEL = {"tahoe": "Tahoe", "reno": "Reno", "newreno": "Newreno", "sack": "SACK"}
CAPTIONS = {
    "fig01": "Figure 1 (schematic of Theorem 4.4, no data): the worst-case history of an "
    "increase-by-one flow at a Protocol I router, from \\texttt{{analysis/models/gao.py}} "
    "with the proof's simplification $T_{{TCP}}^D = T_1F = T_{{TCP}}^W = T_{{TCP}}^I$. The "
    "rate climbs to the fair share $\\alpha$ in $T_{{TCP}}^I$ (shaded: delivered), then "
    "every packet is dropped while it backs off to 0 and the queue forgets it; the "
    "delivered fraction gives $D = {D}$ (paper: $D \\le 8$).",
    "fig02": "Figure 2 (Simulation 1): average throughput of Poisson flow 4 against its "
    "sending rate, both in units of the link rate $r$, under Protocols I and II "
    "($H = F/6$, $L = 0$). Solid: buffer $F = {F}$; dashed: the other buffer sizes. "
    "Bands: 95\\% confidence intervals over seeds. The paper's statement (peak about $0.3r$ "
    "at a rate below $r$) is the shaded box; dotted: the max-min fair share $0.2r$. "
    "Each run lasts {T}$r$\\,s and is measured after its first {W}$r$\\,s (paper: "
    "{P}$r$\\,s; shorter runs at the smoke and quick fidelities).",
    "fig03": "Figure 3 (Simulation 2.1): average throughput of each flow over 100\\,s, one UDP "
    "flow (index 1, 3\\,Mb/s) and 32 TCP flows on a 2\\,Mb/s link. (a) the paper's "
    "comparison, Protocol I against CHOKe, with 95\\% confidence intervals over seeds; "
    "(b) Protocol II and the reference schemes (not in the paper), seed means on a log "
    "scale. Dotted: the fair share 2/33\\,Mb/s.",
    "aqm01": "Beyond the paper: Simulation 2's set-ups behind today's queues (SACK senders; "
    "the same buffer for every queue). Each flow kind's mean throughput over the max-min "
    "fair rate of such a flow; marks: mean over seeds, bars: range over seeds; log scale. "
    "(a) Simulation 2.1's set-up, (b) Simulation 2.2's; each panel's title gives its flows "
    "and link rate, as the runs recorded them. Bold: "
    "per-flow schedulers. ns-2's SFQ hashes the source and destination addresses without "
    "perturbation, and DRR classifies by source node.",
    "sens_low": "The low marker $L$, which the paper does not give for Simulations 2 and 3 "
    "(ours; $F = {F}$, $H = {H}$). (a) Table 1's setting: mean throughput per UDP and per "
    "TCP flow under Protocols I and II; (b) Table 2's setting: each flow's rate on L23. "
    "Horizontal marks: the paper's values; vertical line: the $L$ used for Figure 3 and "
    "Tables 1 and 2.",
}


def _pub(originals: Path) -> dict[str, Published]:
    return {p.key: p for p in load_originals(originals)}


def fig01(tidy: pd.DataFrame, ax: plt.Axes) -> float:
    """Theorem 4.4's worst-case history (times in T_I, rates in alpha); returns D, the cycle
    length over the area delivered (shaded: the rising segments) in one cycle."""
    t, r = tidy["t"].to_numpy(), tidy["rate"].to_numpy()
    ax.plot(t, r, color="tab:blue", lw=1.5)
    areas = []
    for i in range(len(t) - 1):
        if r[i + 1] > r[i]:
            ax.fill_between(t[i : i + 2], r[i : i + 2], color="tab:blue", alpha=0.25, lw=0)
            areas.append(0.5 * (t[i + 1] - t[i]) * (r[i] + r[i + 1]))
    cycles = int(np.sum(np.diff(r) > 0))
    cycle = float(t[-1] - t[0]) / cycles
    # each cycle is 4 points: start of the climb, peak, back at 0, end of the idle time
    for k in range(cycles):
        p0, p1, p2, p3 = (float(x) for x in t[4 * k : 4 * k + 4])
        for x0, x1, label in ((p0, p1, "$T^I$"), (p1, p2, "$T^D$"), (p2, p3, "$T_1F + T^W$")):
            ax.annotate(
                "",
                xy=(x1, -0.12),
                xytext=(x0, -0.12),
                arrowprops={"arrowstyle": "<->", "lw": 0.7, "color": "0.3"},
            )
            ax.text((x0 + x1) / 2, -0.2, label, ha="center", va="top", fontsize=8)
    ax.axhline(1.0, color="0.5", ls=":", lw=0.8)
    ax.text(float(t[-1]), 1.02, "$\\alpha$ (fair share)", ha="right", va="bottom", fontsize=8)
    ax.set_ylim(-0.45, 1.25)
    ax.set_xlabel("time (units of $T_{TCP}^I$)")
    ax.set_ylabel("generation rate / $\\alpha$")
    ax.grid(False)
    return cycle / (sum(areas) / cycles)


def fig02(tidy: pd.DataFrame, pub: dict[str, Published], primary_f: int, ax: plt.Axes) -> int:
    """Draw Figure 2; return the buffer F drawn solid (the primary one if it was run)."""
    curve = gao.fig02_curve(tidy)
    fs = sorted(curve["F"].unique(), reverse=True)
    main = primary_f if primary_f in fs else fs[0]
    for (gw, f), c in curve.groupby(["gateway", "F"]):
        c = c.sort_values("s4")
        ls = "-" if f == main else "--"
        ax.plot(
            c["s4"],
            c["mean"],
            ls=ls,
            marker="o",
            ms=3,
            color=COLOR[gw],
            label=f"{LABEL[gw]}, F = {f}",
        )
        if (c["n"] > 1).any():
            ax.fill_between(c["s4"], c["low"], c["high"], color=COLOR[gw], alpha=0.15, lw=0)
    top = pub.get("fig2.max_flow4_throughput")
    bound = pub.get("fig2.argmax_sending_rate_upper_bound")
    if top is not None and bound is not None:
        v, tol = float(top.published), top.allowance(float(top.published))
        ax.add_patch(
            plt.Rectangle(
                (0, v - tol),
                float(bound.published),
                2 * tol,
                color="crimson",
                alpha=0.12,
                lw=0,
                label=f"paper: peak about {v:g}r at a rate below r",
            )
        )
    fair = pub.get("derived.sim1.maxmin_fair_share")
    if fair is not None:
        ax.axhline(float(fair.published), color="black", lw=0.8, ls=":")
    xmax = float(curve["s4"].max())
    ax.plot([0, xmax], [0, xmax], color="lightgray", lw=0.8, zorder=0)
    ax.set_xlim(0, xmax * 1.02)
    ax.set_ylim(0, max(0.45, float(curve["mean"].max()) * 1.1))
    ax.set_xlabel("sending rate of flow 4 (units of r)")
    ax.set_ylabel("throughput of flow 4 (units of r)")
    ax.legend(fontsize=7)
    return int(main)


def _flow_means(tidy: pd.DataFrame) -> pd.DataFrame:
    t = tidy[tidy["link"] == 1]
    return t.groupby(["gateway", "fid"])["mbps"].apply(gao.seed_ci).unstack().reset_index()


def fig03(tidy: pd.DataFrame, axes: Sequence[plt.Axes]) -> None:
    m = _flow_means(tidy)
    fair = gao.single_link_fair_share(tidy)
    panels = (
        ("(a) the paper's comparison", ["protocol1", "choke"], "linear"),
        ("(b) other schemes", ["protocol2", "droptail", "red", "drr"], "log"),
    )
    offsets = np.linspace(-0.25, 0.25, 4)
    for ax, (title, schemes, scale) in zip(axes, panels, strict=True):
        shown = [s for s in schemes if s in set(m["gateway"])]
        for i, s in enumerate(shown):
            d = m[m["gateway"] == s]
            # confidence bars on the linear panel only (a log axis cannot show a bar that
            # reaches below 0)
            err = (
                np.vstack([d["mean"] - d["low"], d["high"] - d["mean"]])
                if scale == "linear"
                else None
            )
            ax.errorbar(
                d["fid"] + (offsets[i] if len(shown) > 2 else 0.0),
                d["mean"],
                yerr=err,
                ls="none",
                marker="o" if i % 2 == 0 else "s",
                ms=3,
                capsize=1.5,
                lw=0.8,
                color=COLOR[s],
                label=LABEL[s],
            )
        ax.axhline(fair, color="black", lw=0.8, ls=":", label=f"fair share {fair:.4f}")
        ax.set_yscale(scale)
        ax.set_title(title, fontsize=8)
        ax.set_xlabel("flow index (1 = UDP)")
        ax.set_ylabel("average throughput (Mb/s)")
        ax.legend(fontsize=6.5)


def aqm01(tidy: pd.DataFrame, axes: Sequence[plt.Axes]) -> None:
    """Per scenario (panel), per queue: the UDP and the TCP flows' mean throughput over their
    max-min fair rate; marks the mean over seeds, bars the range over seeds."""
    for ax, (scenario, d) in zip(axes, tidy.groupby("scenario", sort=True), strict=True):
        shown = [q for q in QUEUE_LABELS if q in set(d["gateway"])]
        x = np.arange(len(shown))
        for off, kind, marker in ((-0.12, "udp", "o"), (0.12, "tcp", "s")):
            g = d.groupby("gateway")[f"{kind}_x_fair"]
            mean, lo, hi = (g.agg(f).reindex(shown).to_numpy() for f in ("mean", "min", "max"))
            ax.errorbar(
                x + off,
                mean,
                yerr=np.vstack([mean - lo, hi - mean]),
                ls="none",
                marker=marker,
                ms=4,
                capsize=1.5,
                lw=0.8,
                color="tab:red" if kind == "udp" else "tab:blue",
                label=f"{kind.upper()} flows",
            )
        ax.axhline(1.0, color="black", lw=0.8, ls=":", label="max-min fair share")
        ax.set_yscale("log")
        ax.set_xticks(x, [QUEUE_LABELS[q] for q in shown], rotation=45, ha="right", fontsize=7)
        for tick, q in zip(ax.get_xticklabels(), shown, strict=True):
            tick.set_fontweight("bold" if q in PER_FLOW else "normal")
        ax.set_title(f"{scenario} on {d['link_mbps'].iloc[0]:g} Mb/s", fontsize=8)
        ax.set_ylabel("throughput per flow / max-min fair rate")
        ax.legend(fontsize=6.5)


def sens_low(
    tidy: pd.DataFrame, pub: dict[str, Published], low: int, axes: Sequence[plt.Axes]
) -> None:
    a, b = axes
    t1 = tidy[tidy["setting"] == "table1"]
    if len(t1):
        runs = gao.per_run_extremes(t1)
        for kind, marker in (("udp", "o"), ("tcp", "s")):
            for gw, ls in (("protocol1", "--"), ("protocol2", "-")):
                r = runs[runs["gateway"] == gw]
                if r.empty:
                    continue
                m = r.groupby("low")[f"{kind}_mean"].apply(gao.seed_ci).unstack()
                ax_label = f"{LABEL[gw]}, {kind.upper()}"
                a.plot(
                    m.index, m["mean"], ls=ls, marker=marker, ms=3, color=COLOR[gw], label=ax_label
                )
                key_max, key_min = f"table1.{gw}.{kind}_max", f"table1.{gw}.{kind}_min"
                if key_max in pub and key_min in pub:
                    mid = (float(pub[key_max].published) + float(pub[key_min].published)) / 2
                    a.plot(
                        [m.index.max() * 1.04], [mid], marker="<", color=COLOR[gw], ms=6, ls="none"
                    )
        a.set_xlabel("low marker L (packets)")
        a.set_ylabel("mean throughput per flow (Mb/s)")
        a.set_title("(a) Table 1: 10 UDP + 10 TCP, 1.5 Mb/s", fontsize=8)
        a.axvline(low, color="black", lw=0.8, ls=":")
        a.plot([], [], marker="<", ls="none", color="black", label="paper (mid of max, min)")
        a.legend(fontsize=6)
    t2 = tidy[(tidy["setting"] == "table2") & (tidy["link"] == 2)]
    if len(t2):
        for gw, ls in (("protocol1", "--"), ("protocol2", "-")):
            for fid, marker in ((1, "o"), (2, "s"), (3, "^")):
                d = t2[(t2["gateway"] == gw) & (t2["fid"] == fid)]
                if d.empty:
                    continue
                m = d.groupby("low")["mbps"].mean()
                name = gao.FLOW_NAMES[fid]
                b.plot(
                    m.index,
                    m.values,
                    ls=ls,
                    marker=marker,
                    ms=3,
                    color=COLOR[gw],
                    label=f"{LABEL[gw]}, {name.upper()}",
                )
                key = f"table2.{gw}.{name}.l23"
                if key in pub:
                    b.plot(
                        [m.index.max() * 1.04],
                        [float(pub[key].published)],
                        marker="<",
                        color=COLOR[gw],
                        ms=6,
                        ls="none",
                    )
        b.set_xlabel("low marker L (packets)")
        b.set_ylabel("rate on L23 (Mb/s)")
        b.set_title("(b) Table 2: UDP1 + 2 TCP, two 10 Mb/s links", fontsize=8)
        b.axvline(low, color="black", lw=0.8, ls=":")
        b.plot([], [], marker="<", ls="none", color="black", label="paper")
        b.legend(fontsize=6)


def draw(
    figure: str,
    tidy: pd.DataFrame,
    originals: Path,
    primary_f: int,
    low: int,
    pdf: Path,
    tex: Path,
    trace: Mapping | None = None,
) -> None:
    pub = _pub(originals)
    if figure == "fig01":
        fig, ax = plt.subplots(figsize=(6.0, 2.6))
        d = fig01(tidy, ax)
        caption = CAPTIONS[figure].replace("{{", "{").replace("}}", "}").replace("{D}", f"{d:g}")
    elif figure == "fig02":
        fig, ax = plt.subplots()
        main = fig02(tidy, pub, primary_f, ax)
        r = tidy["r_mbps"]
        caption = (
            CAPTIONS[figure]
            .replace("{F}", str(main))
            .replace("{T}", ", ".join(f"{x:g}" for x in sorted(set(tidy["duration"] / r))))
            .replace("{W}", ", ".join(f"{x:g}" for x in sorted(set(tidy["sim1_warmup"] / r))))
            .replace("{P}", f"{float(pub['sim1.duration'].published):g}")  # type: ignore[arg-type]
        )
    elif figure == "fig03":
        fig, axes = plt.subplots(1, 2, figsize=(8.0, 3.2), layout="constrained")
        fig03(tidy, axes)
        caption = CAPTIONS[figure]
    elif figure == "aqm01":
        fig, axes = plt.subplots(1, 2, figsize=(8.0, 3.4), layout="constrained")
        aqm01(tidy, axes)
        caption = CAPTIONS[figure]
    elif figure == "sens_low":
        fig, axes = plt.subplots(1, 2, figsize=(8.0, 3.2), layout="constrained")
        sens_low(tidy, pub, low, axes)
        f, h = (sorted(set(tidy[k])) for k in ("buffer", "high"))
        caption = CAPTIONS[figure].replace("{F}", ", ".join(map(str, f)))
        caption = caption.replace("{H}", ", ".join(map(str, h)))
    else:
        raise ValueError(f"unknown figure {figure}")
    save(fig, pdf)
    figure_tex(
        tex,
        pdf,
        f"Gao, Jain, Schulman. {caption}",
        rule=f"figure ({figure})",
        script=SCRIPT,
        label=f"fig:gao:{figure}",
        trace=trace,
    )


# ---- tables ------------------------------------------------------------------------------


def _cell(mean: float, low: float, high: float, n: int, digits: int) -> str:
    if n > 1:
        return f"{mean:.{digits}f}\\,$\\pm$\\,{(high - low) / 2:.{digits}f}"
    return f"{mean:.{digits}f}"


def _pub_cell(pub: dict[str, Published], key: str, digits: int) -> str:
    p = pub.get(key)
    return f"({float(p.published):.{digits}f})" if p is not None else ""


def _table_env(
    body: list[str], caption: str, label: str, rule: str, trace: Mapping | None = None
) -> str:
    return "\n".join(
        [
            "\\begin{table}[htbp]",
            "\\centering\\footnotesize",
            *body,
            f"\\caption{{{caption} {trace_tex(trace, rule, SCRIPT)}}}",
            f"\\label{{{label}}}",
            "\\end{table}",
            "",
        ]
    )


def table1_tex(tidy: pd.DataFrame, pub: dict[str, Published], trace: Mapping | None = None) -> str:
    s = gao.table1_summary(tidy)
    schemes = [g for g in gao.SCHEMES if g in set(s["gateway"])]
    x = gao.table1_extremes(tidy)
    tahoe = x[x["tcp"] == "tahoe"].set_index(["gateway", "stat"])
    n = int(tahoe["n"].max()) if len(tahoe) else 0
    rows = [
        "\\resizebox{\\linewidth}{!}{%",
        f"\\begin{{tabular}}{{l{'r' * len(schemes)}}}",
        "\\toprule",
        " & ".join(["Tahoe (Mb/s)", *(LABEL[g] for g in schemes)]) + " \\\\",
        "\\midrule",
    ]
    for stat, name in (
        ("udp_max", "UDP MAX"),
        ("udp_min", "UDP MIN"),
        ("tcp_max", "TCP MAX"),
        ("tcp_min", "TCP MIN"),
    ):
        cells, pubs = [], []
        for g in schemes:
            if (g, stat) in tahoe.index:
                r = tahoe.loc[(g, stat)]
                rng = f" [{r['lo']:.5f}, {r['hi']:.5f}]" if int(r["n"]) > 1 else ""
                cells.append(f"{r['value']:.5f}{rng}")
            else:
                cells.append("--")
            pubs.append(_pub_cell(pub, f"table1.{g}.{stat}", 5))
        rows.append(" & ".join([name, *cells]) + " \\\\")
        rows.append(" & ".join(["\\quad paper", *pubs]) + " \\\\")
    rows += ["\\bottomrule", "\\end{tabular}}"]
    variants = [v for v in gao_tcp_order(s) if v != "tahoe"]
    if variants:
        rows += [
            "",
            "\\medskip",
            "",
            "\\resizebox{\\linewidth}{!}{%",
            f"\\begin{{tabular}}{{ll{'r' * len(schemes)}}}",
            "\\toprule",
            " & ".join(["TCP", "mean per flow (Mb/s)", *(LABEL[g] for g in schemes)]) + " \\\\",
            "\\midrule",
        ]
        full = s.set_index(["tcp", "gateway", "stat"])
        for v in gao_tcp_order(s):
            for stat, name in (("udp_mean", "UDP"), ("tcp_mean", "TCP")):
                cells = []
                for g in schemes:
                    if (v, g, stat) in full.index:
                        r = full.loc[(v, g, stat)]
                        cells.append(_cell(r["mean"], r["low"], r["high"], int(r["n"]), 4))
                    else:
                        cells.append("--")
                rows.append(
                    " & ".join([TCP_LABEL[v] if stat == "udp_mean" else "", name, *cells]) + " \\\\"
                )
        rows += ["\\bottomrule", "\\end{tabular}}"]
    caption = (
        "Table 1 (Simulation 2.2): ten UDP flows at 0.5\\,Mb/s and ten TCP flows on a 1.5\\,Mb/s "
        "link, throughput over 100\\,s. Top: maximum and minimum over the flows of each kind "
        f"with Tahoe in one run: the median over {n} seeds [smallest, largest run] (the paper "
        "gives one run's value), and the paper's value in parentheses (the paper has CHOKe, "
        "Protocols I and II only; DropTail, RED and DRR are our reference rows). Bottom: mean "
        "throughput per flow with each TCP variant (the paper only says Reno, Newreno and SACK "
        "gave similar results)."
    )
    return _table_env(rows, caption, "tab:gao:table1", "table (table1)", trace)


def gao_tcp_order(s: pd.DataFrame) -> list[str]:
    return [v for v in TCP_LABEL if v in set(s["tcp"])]


def table2_tex(tidy: pd.DataFrame, pub: dict[str, Published], trace: Mapping | None = None) -> str:
    s = gao.table2_summary(tidy).set_index(["gateway", "link", "fid"])
    schemes = [g for g in gao.SCHEMES if g in set(s.index.get_level_values("gateway"))]
    cols = [(1, 1), (1, 2), (2, 1), (2, 2), (2, 3)]  # (link, fid)
    head = [f"{gao.FLOW_NAMES[f].upper()} {gao.LINK_NAMES[link].upper()}" for link, f in cols]
    n = int(s["n"].max()) if len(s) else 0
    rows = [
        f"\\begin{{tabular}}{{l{'r' * len(cols)}}}",
        "\\toprule",
        " & ".join(["(Mb/s)", *head]) + " \\\\",
        "\\midrule",
    ]
    for g in schemes:
        cells = []
        for link, f in cols:
            if (g, link, f) in s.index:
                r = s.loc[(g, link, f)]
                cells.append(_cell(r["mean"], r["low"], r["high"], int(r["n"]), 3))
            else:
                cells.append("--")
        rows.append(" & ".join([LABEL[g], *cells]) + " \\\\")
        pubs = [
            _pub_cell(pub, f"table2.{g}.{gao.FLOW_NAMES[f]}.{gao.LINK_NAMES[link]}", 3)
            for link, f in cols
        ]
        if any(pubs):
            rows.append(" & ".join(["\\quad paper", *pubs]) + " \\\\")
    rows += ["\\bottomrule", "\\end{tabular}"]
    caption = (
        "Table 2 (Simulation 3): UDP1 at 10\\,Mb/s and TCP2 over both 10\\,Mb/s links L12 and "
        "L23, TCP3 over L23 only; rate of each flow on each link over 20\\,s, mean $\\pm$ 95\\% "
        f"confidence half-width over {n} seeds, the paper's value in parentheses. DropTail, "
        "RED and DRR are our reference rows."
    )
    return _table_env(rows, caption, "tab:gao:table2", "table (table2)", trace)


def main(argv: Sequence[str] | None = None) -> int:
    items = [*CAPTIONS, "table1", "table2"]
    ap = cli.plot_parser("analysis.plots.gao", "Gao, Jain, Schulman figures and tables", items)
    a = cli.parse(ap, argv)
    cli.need(ap, a, "--tidy", "--originals", "--tex")
    if a.item not in ("table1", "table2"):
        cli.need(ap, a, "--pdf")
    tidy = pd.read_csv(a.tidy)
    if a.item in ("table1", "table2"):
        make = table1_tex if a.item == "table1" else table2_tex
        text = make(tidy, _pub(a.originals), a.params.get("trace"))
        a.tex.parent.mkdir(parents=True, exist_ok=True)
        a.tex.write_text(text)
        return 0
    primary_f = int(a.params.get(PRIMARY_F, 0))
    low = int(a.params.get("parameters.low.value", 0))
    draw(a.item, tidy, a.originals, primary_f, low, a.pdf, a.tex, a.params.get("trace"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
