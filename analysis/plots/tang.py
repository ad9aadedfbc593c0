r"""Figures and tables of Tang, Wang, Hegde, Low 2005.

Command line (the contract of :mod:`analysis.cli`; no item reads ``--params`` or
``--numbers``)::

    python -m analysis.plots.tang fig09 --tidy T.csv --extra DIR \
        --originals config/originals/tang.yaml --pdf figures/FIDELITY/tang/fig09.pdf \
        --tex paper/generated/FIDELITY/tang/fig09.tex
    python -m analysis.plots.tang table1 --tidy T.csv --originals config/originals/tang.yaml \
        --tex T.tex

``--tidy`` and ``--extra`` are those of the analysis step the item draws (traces.csv and
theory.csv in the ``--extra`` folder).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from analysis import tang
from analysis.cli import need, parse, plot_parser
from analysis.compare import Published, load_originals
from analysis.latex import tex_escape, trace_tex
from analysis.models.tang.recipes import fig13_curves
from analysis.plots.common import figure_tex, save

SCRIPT = "analysis/plots/tang.py"

CAPTIONS = {
    "fig03": "Figure 3: Experiment 1 (emulated Dummynet, DropTail), link 1: queue (EWMA, 1-s "
    "time constant) and throughput (1-s bins), FAST first vs Reno first; thin lines: the same "
    "with Vegas in place of FAST.",
    "fig04": "Figure 4: Experiment 1, link 2 (as Figure 3).",
    "fig06": "Figure 6: Experiment 2 (linear network), link 1: queue and throughput, FAST "
    "first vs Reno first; thin lines: Vegas in place of FAST.",
    "fig07": "Figure 7: Experiment 2, link 2 (as Figure 6).",
    "fig08": "Figure 8: Experiment 2, link 3 (as Figure 6).",
    "fig09": "Figure 9: Experiment 3, RED marking, K1 = 10000, K2 varied: aggregate Reno "
    "throughput and link-1 utilisation; marks: ns-2 (mean over seeds), lines: the model "
    "(solid: constant Reno RTT, dashed: RTT with queueing delay; only where the branch is an "
    "equilibrium). Filled marks and thick lines: Vegas alpha d = 5.5 packets per flow as Sec 6.1 "
    "states (alpha = 50 per second); open marks and thin lines: the sensitivity runs with 50 "
    "packets per flow.",
    "fig10": "Figure 10: Experiment 4, K2 = 100, K1 (links 1 and 3) varied: aggregate Reno "
    "throughput and link-2 utilisation (as Figure 9).",
    "fig11": "Figure 11: Experiment 5, K1 = 3500, K2 = 500: queues at links 1 and 2 "
    "(EWMA, 1-s time constant).",
    "ext3": "Extension: Experiment 5 with K2 = 2000 (Figure 11's network nearer the tipping "
    "point): queues at links 1 and 2 (EWMA, 1-s time constant).",
    "fig13": "Figure 13: Experiment 6 (Figure 12 network as assumed, Sec 6.2): aggregate "
    "rate of the three Vegas groups vs alpha2 (alpha1 = 1.5 alpha2); marks: ns-2, solid: "
    "Prop. 2 from the measured prices (n alpha_i over the sum of the mean queueing delays on "
    "the path), dashed: the full model.",
    "fig14": "Figure 14: Experiment 6: aggregate Vegas (15 flows) and Reno (5 flows) "
    "throughput at link 2 vs alpha2; marks: ns-2, lines: the model.",
}
TRACE_LINK = {"fig03": 1, "fig04": 2, "fig06": 1, "fig07": 2, "fig08": 3}
TABLE_EXPERIMENT = {
    "table1": "exp1",
    "table2": "table2",
    "table3": "table3",
    "table4": "exp2",
    "ext1": "ext1",
    "ext2": "ext2",
}
TABLE_CAPTIONS = {
    "table1": "Table 1: Experiment 1, aggregate path throughput (Mbps, mean $\\pm$ s.d. over "
    "seeds; window at the end of the run).",
    "table2": "Table 2: the Experiment 1 network with all flows Reno (Sack1); rows marked "
    "'sensitivity' run one long-path flow instead of the set-up's eight.",
    "table3": "Table 3: the Experiment 1 network with all flows FAST (long path alpha 30); rows "
    "marked 'sensitivity' run one long-path flow instead of the set-up's eight.",
    "table4": "Table 4: Experiment 2, the linear network; rows marked 'sensitivity' run FAST "
    "with alpha 100 packets instead of our 50 (the paper does not state it).",
    "ext1": "Extension: Experiment 1 with a 400-packet link-2 buffer (paper column: Table 1, "
    "150 packets).",
    "ext2": "Alternative: Experiment 1 with FAST on ns-2's Reno-style loss recovery (patch 0024; "
    "Table 1 uses TCP-Linux's SACK recovery, the testbed's).",
}
ORDER_STYLE = {"short": ("tab:blue", "o"), "long": ("tab:red", "s"), "all": ("tab:green", "^")}


def _pub(originals: Path) -> dict[str, Published]:
    return {p.key: p for p in load_originals(originals)}


def _order_label(fig: str, first: str) -> str:
    return tang.SCENARIOS.get(fig, {}).get(first, first).replace("_", " ")


def trace_figure(fig: str, tr: pd.DataFrame) -> plt.Figure:
    link = TRACE_LINK[fig]
    exp = "exp1" if fig in ("fig03", "fig04") else "exp2"
    f, (a1, a2) = plt.subplots(2, 1, sharex=True, figsize=(6.4, 5.2))
    d = tang.primary(exp, tr[tr["link"] == link])  # the stated set-up's runs
    for (tcp, first), g in d.groupby(["short_tcp", "first"]):
        color, _ = ORDER_STYLE[str(first)]
        lw, alpha = (1.2, 1.0) if tcp == "fast" else (0.6, 0.6)
        lab = f"{_order_label(exp, str(first))} ({tcp})"
        q = g[g["kind"] == "queue"]
        a1.plot(q["t"], q["q_ewma"], color=color, lw=lw, alpha=alpha, label=lab)
        th = g[g["kind"] == "throughput"]
        a2.plot(th["t"], th["mbps"], color=color, lw=lw, alpha=alpha, label=lab)
    a1.set_ylabel(f"link {link} queue (packets)")
    a2.set_ylabel(f"link {link} throughput (Mbps)")
    a2.set_xlabel("time (s)")
    a1.legend(fontsize="small")
    return f


def fig1_sweep(
    fig: str, w: pd.DataFrame, th: pd.DataFrame, pub: dict[str, Published]
) -> plt.Figure:
    col, xlabel, link = (
        ("k2", "K2 (link 2)", 1) if fig == "fig09" else ("k13", "K1 (links 1, 3)", 2)
    )
    f, (a1, a2) = plt.subplots(2, 1, sharex=True, figsize=(6.4, 5.6))
    reno = w[(w["what"] == "group") & w["protocol"].isin(["reno", "sack"])]
    util = w[(w["what"] == "link") & (w["idx"] == link)]
    _, sens_unit = tang.SENSITIVITY[fig]
    for unit in sorted(w["alpha_unit"].unique(), key=lambda u: u == sens_unit):
        mfill = "none" if unit == sens_unit else "full"
        for first in ("long", "short"):
            color, marker = ORDER_STYLE[first]
            tag = f" ({tang.sensitivity_label(fig)})" if unit == sens_unit else ""
            r = reno[(reno["first"] == first) & (reno["alpha_unit"] == unit)]
            if len(r):
                m = r.groupby(col)["mbps"].mean()
                a1.plot(
                    m.index,
                    m.values,
                    marker,
                    color=color,
                    fillstyle=mfill,
                    label=f"ns-2 {_order_label(fig, first)}{tag}",
                )
            u = util[(util["first"] == first) & (util["alpha_unit"] == unit)]
            if len(u):
                m = u.groupby(col)["util"].mean()
                a2.plot(m.index, m.values, marker, color=color, fillstyle=mfill)
            t = th[(th["first"] == first) & (th["alpha_unit"] == unit)] if len(th) else th
            for q, ls in ((False, "-"), (True, "--")):
                if not len(t):
                    continue
                c = t[t["queueing"].astype(bool) == q].sort_values("x")
                ok = c["feasible"].astype(bool)
                y = c["reno_mbps"].where(ok)
                yu = c[f"util{link}"].where(ok)
                lw = 0.6 if unit == sens_unit else 1.2
                a1.plot(c["x"], y, ls, color=color, lw=lw)
                a2.plot(c["x"], yu, ls, color=color, lw=lw)
    key = (
        "fig9.vegas_first.link1_util_at_k2_600"
        if fig == "fig09"
        else "fig10.reno_first.link2_util_at_k1_5000"
    )
    if key in pub:
        x = 600 if fig == "fig09" else 5000
        a2.plot([x], [float(pub[key].published)], "k*", ms=10, label="paper (prose)")
        a2.legend(fontsize="small")
    a1.set_ylabel("Reno throughput (Mbps)")
    a2.set_ylabel(f"link {link} utilisation")
    a2.set_xlabel(xlabel)
    a1.legend(fontsize="small")
    return f


def fig11(tr: pd.DataFrame) -> plt.Figure:
    f, ax = plt.subplots(figsize=(6.4, 3.6))
    q = tr[tr["kind"] == "queue"]
    for link, color in ((1, "tab:red"), (2, "tab:blue")):
        g = q[q["link"] == link]
        ax.plot(g["t"], g["q_ewma"], color=color, lw=0.8, label=f"link {link}")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("queue (packets)")
    ax.legend()
    return f


def fig13(w: pd.DataFrame) -> plt.Figure:
    f13, _ = tang.fig12_comparison(w)
    a2 = np.array(sorted(w["alpha"].unique()), dtype=float)
    model = fig13_curves(a2).model
    f, ax = plt.subplots()
    for k, color in zip(range(3), ("tab:blue", "tab:orange", "tab:green"), strict=True):
        d = f13[f13["group"] == k + 1]
        ax.plot(d["alpha"], d["measured"], "o", color=color, label=f"flow{k + 1} ns-2")
        ax.plot(d["alpha"], d["prop2"], "-", color=color, label=f"flow{k + 1} Prop 2")
        ax.plot(a2, model[:, k], "--", color=color, lw=0.8)
    ax.set_xlabel("alpha2 (packets)")
    ax.set_ylabel("aggregate rate (pkts/s)")
    ax.legend(fontsize="small", ncol=2)
    return f


def fig14(w: pd.DataFrame) -> plt.Figure:
    _, f14 = tang.fig12_comparison(w)
    f, ax = plt.subplots()
    for who, color in (("vegas", "tab:blue"), ("reno", "tab:red")):
        d = f14[f14["who"] == who]
        ax.plot(d["alpha"], d["measured"], "o", color=color, label=f"{who} ns-2")
        ax.plot(d["alpha"], d["model"], "-", color=color, label=f"{who} model")
    ax.set_xlabel("alpha2 (packets)")
    ax.set_ylabel("throughput at link 2 (pkts/s)")
    ax.legend(fontsize="small")
    return f


def draw(
    fig: str,
    tidy: Path,
    extra: Path,
    originals: Path,
    pdf: Path,
    tex: Path,
    trace: Mapping | None = None,
) -> None:
    traces, theory = extra / "traces.csv", extra / "theory.csv"
    pub = _pub(originals)
    caption = CAPTIONS[fig]
    if fig in TRACE_LINK:
        f = trace_figure(fig, pd.read_csv(traces))
    elif fig in ("fig09", "fig10"):
        f = fig1_sweep(fig, pd.read_csv(tidy), pd.read_csv(theory), pub)
    elif fig in ("fig11", "ext3"):
        tr = pd.read_csv(traces)
        f = fig11(tr)
        frac, switches = tang.shifting(tr)
        u1 = tang.second_half_utilisation(tr, 1)
        caption = (
            f"{caption} Links 1 and 3 lead (scaled by their RED ramp) {100 * frac:.0f} % of the "
            f"time after the first 10 %, {switches} switches; link-1 utilisation over the "
            f"second half {u1:.2f}."
        )
    elif fig == "fig13":
        f = fig13(pd.read_csv(tidy))
    elif fig == "fig14":
        f = fig14(pd.read_csv(tidy))
    else:
        raise ValueError(f"unknown Tang figure '{fig}'")
    f.tight_layout()
    save(f, pdf)
    figure_tex(
        tex,
        pdf,
        f"Tang et al.\\ 2005, {tex_escape(caption)}",
        rule=f"figure ({fig})",
        script=SCRIPT,
        label=f"fig:tang:{fig}",
        trace=trace,
    )


def table_tex(
    table: str, w: pd.DataFrame, pub: dict[str, Published], trace: Mapping | None = None
) -> str:
    """LaTeX table: regenerated (mean +- s.d.) per scenario and path next to the paper's."""
    exp = TABLE_EXPERIMENT[table]
    st = tang.path_stats(w)
    names = tang.SCENARIOS[exp]
    lines = [
        "\\begin{table}[htbp]\\centering\\small",
        f"\\caption{{Tang et al.\\ 2005, {TABLE_CAPTIONS[table]} "
        f"{trace_tex(trace, f'table ({table})', SCRIPT)}}}",
        f"\\label{{tab:tang:{table}}}",
        "\\begin{tabular}{lllrrr}\\toprule",
        "delay-based TCP & scenario & path & ours & paper & seeds \\\\ \\midrule",
    ]
    st["order"] = st["first"].map({"short": 0, "long": 1, "all": 2})
    sens = tang.sensitivity(exp, st) if exp in tang.SENSITIVITY else st.iloc[0:0]
    st["sens"] = st.index.isin(sens.index)
    for _, r in st.sort_values(["sens", "short_tcp", "order", "idx"]).iterrows():
        scen = names[r["first"]]
        if exp in ("exp1", "exp2") or exp in tang.EXTENSIONS:
            proto = "reno" if r["protocol"] in ("reno", "sack") else "fast"
            path = f"path{r['idx']}_{proto}"
        else:
            path = f"path{r['idx']}"
        base = f"{tang.TABLE.get(exp, 'table1')}.{scen}.{path}"
        p = ""
        if r["sens"]:
            scen = f"{scen} ({tang.sensitivity_label(exp)})"
        elif r["short_tcp"] == "fast" or exp in ("table2", "table3"):
            if f"{base}.mean" in pub:
                pm, ps = (float(pub[f"{base}.{k}"].published) for k in ("mean", "sd"))
                p = f"{pm:.1f} $\\pm$ {ps:.1f}"
        sd = "--" if np.isnan(r["sd"]) else f"{r['sd']:.1f}"
        tcp = r["short_tcp"] if exp in ("exp1", "exp2") or exp in tang.EXTENSIONS else "--"
        lines.append(
            f"{tex_escape(str(tcp))} & {tex_escape(scen)} & "
            f"{r['idx']} ({tex_escape(str(r['protocol']))}) & "
            f"{r['mean']:.1f} $\\pm$ {sd} & {p} & {int(r['n'])} \\\\"
        )
    lines += ["\\bottomrule\\end{tabular}", "\\end{table}", ""]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = plot_parser(
        "python -m analysis.plots.tang",
        "Tang et al. 2005 figures and tables",
        [*CAPTIONS, *TABLE_EXPERIMENT],
    )
    a = parse(ap, argv)
    if a.item in TABLE_EXPERIMENT:
        need(ap, a, "--tidy", "--originals", "--tex")
        a.tex.parent.mkdir(parents=True, exist_ok=True)
        trace = a.params.get("trace")
        a.tex.write_text(table_tex(a.item, pd.read_csv(a.tidy), _pub(a.originals), trace))
        return 0
    need(ap, a, "--tidy", "--extra", "--originals", "--pdf", "--tex")
    draw(a.item, a.tidy, a.extra, a.originals, a.pdf, a.tex, a.params.get("trace"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
