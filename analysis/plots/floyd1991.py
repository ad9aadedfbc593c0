"""Figures of Floyd 1991 (Figures 2-12 from simulations, 14-18 from the analysis).

Usage: the contract of :mod:`analysis.cli` (called by rule ``figure`` of rules/common.smk)::

    python -m analysis.plots.floyd1991 FIG --tidy T.csv --numbers N.csv \
        --originals config/originals/floyd1991.yaml --pdf figures/FIDELITY/floyd1991/FIG.pdf \
        --tex paper/generated/FIDELITY/floyd1991/FIG.tex
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from analysis import cli, floyd1991
from analysis.compare import Published, load_originals
from analysis.models import floyd1991 as models
from analysis.plots.common import QUEUE_COLOURS, figure_tex, save
from analysis.queues import LABELS as QUEUE_LABELS
from analysis.queues import PER_FLOW

SCRIPT = "analysis/plots/floyd1991.py"

CAPTIONS = {
    "fig02": "Figure 2: connection 0 alone, RED gateways, Increase-by-One with Reduce-by-Half "
    "(SACK). One line per 50-s period, lowest = first period.",
    "fig03": "Figure 3: Increase-by-One, RED gateways, Reduce-by-Half (SACK).",
    "fig04": "Figure 4: Increase-by-One, Random Drop gateways, Reduce-to-One (Tahoe).",
    "fig05": "Figure 5: Increase-by-One, Drop Tail gateways with random processing delay, "
    "Reduce-to-One (Tahoe).",
    "fig06": "Figure 6: Constant-Rate increase, RED gateways, Reduce-by-Half (SACK).",
    "fig07": "Figure 7: Constant-Rate increase, Random Drop gateways, Reduce-by-Half (SACK).",
    "fig08": "Figure 8: Constant-Rate increase, Drop Tail gateways, Reduce-by-Half (SACK).",
    "fig09": "Figure 9: RED (Figure 6 runs): connection 0's share of the drops divided by its "
    "share of the throughput, per congested gateway and 50-s period with drops.",
    "fig10": "Figure 10: the same ratio for Random Drop (Figure 7 runs).",
    "fig11": "Figure 11: the same ratio for Drop Tail (Figure 8 runs).",
    "fig12": "Figure 12: Drop Tail (Figure 8 runs): the ratio against connection 0's share of "
    "the throughput at the gateway, with the paper's two fits and ours.",
    "ext01": "Extension (not in the paper): connection 0's throughput in the same topology "
    "with modern mechanisms -- SACK and Newreno senders (Increase-by-One, Reduce-by-Half) "
    "behind Drop Tail, RED and CHOKe gateways (periods after the first; mean over seeds); "
    "50\\,\\% is the max-min fair share at every gateway.",
    "aqm01": "Beyond the paper: connection 0's throughput behind today's queues at every "
    "congested gateway (the paper's gateway buffer for every queue; SACK, Increase-by-One, "
    "Reduce-by-Half; "
    "periods after the first; mean over seeds). Solid: per-flow schedulers (SFQ, DRR, "
    "FQ-CoDel); dashed: one FIFO queue with a drop policy. Grey: Floyd's Corollary 6 for "
    "Increase-by-One ($r_0/r_1 = 2n-1$) as a share of the gateway's throughput; dotted: the "
    "max-min fair share. ns-2's SFQ hashes the source and destination addresses without "
    "perturbation, and DRR classifies by source node.",
    "fig14": "Figure 14: Corollary 3, one gateway, Increase-by-One: throughput shares against "
    "the ratio of round-trip times.",
    "fig15": "Figure 15: Corollary 6, $n$ gateways, Increase-by-One ($r_0/r_1 = 2n-1$).",
    "fig16": "Figure 16: Corollary 7 with the burst bias $f(p)$, Increase-by-One.",
    "fig17": "Figure 17: Claim 1, $n$ gateways, equal rates of increase.",
    "fig18": "Figure 18: Corollary 7 with the burst bias $f(p)$, Constant-Rate increase.",
}
#: Sec 4.3's 'at least 1/nth of the throughput' (of connection 1), drawn and listed here
ONE_OVER_N = ("fig07", "fig08")
THROUGHPUT_ANALYSIS = {
    "fig03": "Cor. 6",
    "fig04": "Cor. 7 (IB1)",
    "fig05": "Cor. 7 (IB1)",
    "fig06": "Claim 1",
    "fig07": "Cor. 7 (CR)",
    "fig08": "Cor. 7 (CR)",
}
ANALYTICAL = {  # figure -> (tidy column, originals key prefix)
    "fig15": ("cor6", "fig15.cor6.p"),
    "fig16": ("cor7_ib1", "fig16.cor7_increase_by_one.p"),
    "fig17": ("claim1", "fig17.claim1.p"),
    "fig18": ("cor7_cr", "fig18.cor7_constant_rate.p"),
}
C0, C1 = "tab:blue", "tab:orange"


def _pub(originals: Path) -> dict[str, Published]:
    return {p.key: p for p in load_originals(originals)}


def _n_axis(ax: plt.Axes, ns: Sequence[int], ylabel: str) -> None:
    ax.set_xlabel("n (congested gateways)")
    ax.set_ylabel(ylabel)
    ax.set_xticks(sorted(set(int(n) for n in ns)))


def fig02(tidy: pd.DataFrame, pub: dict[str, Published], ax: plt.Axes) -> None:
    d = tidy[tidy["conn"] == 0].groupby(["n", "period"], as_index=False)["pct"].mean()
    cmap = plt.get_cmap("viridis")
    periods = sorted(d["period"].unique())
    for i, per in enumerate(periods):
        s = d[d["period"] == per].sort_values("n")
        color = cmap(i / max(1, len(periods) - 1))
        ax.plot(s["n"], s["pct"], marker="o", ms=3, lw=0.8, color=color)
    bound = pub.get("fig2.packets_first_50s_n5")
    if bound is not None:
        rate, per_len = float(tidy["rate"].iloc[0]), float(tidy["period_s"].iloc[0])
        y = 100.0 * float(bound.published) / (rate * per_len)
        label = f"paper: first period, n = 5, > {bound.published:g} packets"
        ax.plot([5], [y], marker="v", color="crimson", ms=8, ls="none", label=label)
        ax.legend(loc="lower right")
    ax.set_ylim(0, 105)
    _n_axis(ax, d["n"], "connection 0 throughput (% of M)")


def one_over_n_text(tidy: pd.DataFrame) -> str:
    """Caption sentence: the n at which connection 0's mean is significantly below 1/n of
    connection 1's (Sec 4.3; the one-sided test of floyd1991.one_over_n), with both values,
    from the figure's own runs."""
    b = floyd1991.one_over_n(tidy)
    low = b[~b["holds"]]
    head = "Dotted: connection 1's mean over $n$ (Sec 4.3: connection 0 gets at least that)"
    if low.empty:
        return head + "; connection 0 reaches it at every $n$."
    return (
        head
        + "; connection 0 is significantly below it (one-sided "
        + f"{100 * floyd1991.ONE_OVER_N_LEVEL:g}\\% t test over periods and seeds) at "
        + ", ".join(
            f"$n = {n}$ ({r.conn0:.1f}\\% against {r.bound:.1f}\\%)" for n, r in low.iterrows()
        )
        + "."
    )


def throughput(figure: str, tidy: pd.DataFrame, pub: dict[str, Published], ax: plt.Axes) -> None:
    rng = np.random.default_rng(0)  # jitter only, fixed: identical figures on every run
    for conn, color in ((0, C0), (1, C1)):
        d = tidy[tidy["conn"] == conn]
        x = d["n"] + rng.uniform(-0.12, 0.12, len(d))
        ax.plot(x, d["pct"], ls="none", marker=".", ms=3, color=color, alpha=0.5)
        m = d.groupby("n")[["pct", "analysis_pct"]].mean()
        ax.plot(m.index, m["pct"], ls="--", color=color, label=f"connection {conn}: simulation")
        ax.plot(
            m.index,
            m["analysis_pct"],
            ls="-",
            color=color,
            lw=1.5,
            label=f"connection {conn}: {THROUGHPUT_ANALYSIS[figure]}",
        )
    if figure in ONE_OVER_N:
        b = floyd1991.one_over_n(tidy)
        ax.plot(b.index, b["bound"], ls=":", color=C0, label="connection 1 / n (Sec 4.3)")
    key = f"fig{int(figure[3:])}.packets_first_50s_n5"
    if key in pub:
        rate, per_len = float(tidy["rate"].iloc[0]), float(tidy["period_s"].iloc[0])
        y = 100.0 * float(pub[key].published) / (rate * per_len)
        ax.plot(
            [5],
            [y],
            marker="*",
            color="crimson",
            ms=10,
            ls="none",
            label=f"paper: conn. 0, first period, n = 5 ({pub[key].published:g} pkts)",
        )
    ax.set_ylim(0, 105)
    ax.legend(fontsize=6.5, loc="upper center", bbox_to_anchor=(0.5, -0.17), ncol=2)
    _n_axis(ax, tidy["n"], "throughput (% of M)")


def ratio(figure: str, tidy: pd.DataFrame, pub: dict[str, Published], ax: plt.Axes) -> None:
    d = tidy[tidy["ratio"].notna()]
    rng = np.random.default_rng(0)
    ax.plot(
        d["n"] + rng.uniform(-0.12, 0.12, len(d)),
        d["ratio"],
        ls="none",
        marker=".",
        ms=3,
        alpha=0.5,
        color=C0,
        label="gateway, 50-s period",
    )
    m = d.groupby("n")["ratio"].mean()
    ax.plot(m.index, m.values, color=C0, lw=1.5, label="average per n")
    ax.axhline(1.0, color="grey", lw=0.8, ls=":")
    if figure == "fig09" and "fig9.avg_ratio" in pub:
        ax.axhline(
            float(pub["fig9.avg_ratio"].published),
            color="crimson",
            lw=0.8,
            ls="--",
            label="paper: average close to 1",
        )
    ax.legend(fontsize=7)
    _n_axis(ax, tidy["n"], "drop share / throughput share (conn. 0)")


def fig12(
    tidy: pd.DataFrame, numbers: dict[str, float], pub: dict[str, Published], ax: plt.Axes
) -> None:
    d = tidy[tidy["ratio"].notna() & (tidy["s_t"] > 0)]
    ax.plot(
        d["s_t"],
        d["ratio"],
        ls="none",
        marker=".",
        ms=3,
        alpha=0.5,
        color=C0,
        label="gateway, 50-s period",
    )
    x = np.linspace(0.01, 0.5, 200)

    def val(src: dict, key: str) -> float:
        v = src[key]
        return float(v.published) if isinstance(v, Published) else float(v)

    fits = [(pub, "paper", "crimson", "--"), (numbers, "ours", "black", "-")]
    for src, who, color, ls in fits:
        k = "fig12.fit_exponential"
        if all(f"{k}.{c}" in src for c in "abc"):
            a, b, c = (val(src, f"{k}.{c}") for c in "abc")
            ax.plot(
                x,
                a + b * np.exp(-c * x),
                color=color,
                ls=ls,
                label=f"{who}: {a:.2f} + {b:.2f} exp(-{c:.2f} x)",
            )
        k = "fig12.fit_sqrt"
        if all(f"{k}.{c}" in src for c in "ab"):
            a, b = val(src, f"{k}.a"), val(src, f"{k}.b")
            ax.plot(
                x,
                a + b / np.sqrt(x),
                color=color,
                ls=":",
                label=f"{who}: {a:.2f} + {b:.2f}/sqrt(x)",
            )
    ax.set_xlim(0, 0.5)
    ax.set_ylim(0, max(6.0, float(d["ratio"].quantile(0.98)) if len(d) else 6.0))
    ax.set_xlabel("connection 0's share of the throughput at the gateway")
    ax.set_ylabel("drop share / throughput share")
    ax.legend(fontsize=6.5)


def ext01(tidy: pd.DataFrame, ax: plt.Axes) -> None:
    styles = {"droptail": "tab:red", "red": "tab:blue", "choke": "tab:green"}
    names = {"droptail": "Drop Tail", "red": "RED", "choke": "CHOKe"}
    for (gw, tcp), d in tidy.groupby(["gateway", "tcp"]):
        m = d.groupby("n")["conn0_pct"].mean()
        ax.plot(
            m.index,
            m.to_numpy(),
            marker="o" if tcp == "sack" else "s",
            ms=3,
            ls="-" if tcp == "sack" else "--",
            color=styles.get(str(gw), "black"),
            label=f"{names.get(str(gw), gw)}, {'SACK' if tcp == 'sack' else tcp.capitalize()}",
        )
    ax.axhline(50, color="grey", lw=0.8, ls=":", label="max-min fair share")
    ax.set_ylim(0, 60)
    ax.legend(fontsize=7, ncol=2)
    _n_axis(ax, tidy["n"], "connection 0 throughput (% of M)")


def aqm01(tidy: pd.DataFrame, ax: plt.Axes) -> None:
    for gw, label in QUEUE_LABELS.items():
        colour = QUEUE_COLOURS[gw]
        d = tidy[tidy["gateway"] == gw]
        if d.empty:
            continue
        m = d.groupby("n")["conn0_pct"].mean()
        ax.plot(
            m.index,
            m.to_numpy(),
            marker="o",
            ms=3,
            ls="-" if gw in PER_FLOW else "--",
            color=colour,
            label=label,
        )
    n = np.arange(1, max(2, int(tidy["n"].max())) + 1)
    ax.plot(n, 100 * models.cor6_share(n), color="grey", lw=1.2, label="Corollary 6 (analysis)")
    ax.axhline(50, color="grey", lw=0.8, ls=":", label="max-min fair share")
    ax.set_ylim(0, 80)
    ax.legend(fontsize=6.5, ncol=4, loc="upper center")
    _n_axis(ax, tidy["n"], "connection 0 throughput (% of M)")


def fig14(pub: dict[str, Published], ax: plt.Axes) -> None:
    r = np.linspace(1, 20, 200)
    p = models.cor3_share(r)
    ax.plot(r, 100 * p, color=C0, label="connection 0")
    ax.plot(r, 100 * (1 - p), color=C1, label="connection 1")
    pts = [(int(k.rsplit(".r", 1)[1]), v) for k, v in pub.items() if k.startswith("fig14.cor3.p.r")]
    if pts:
        xs, vs = zip(*sorted(pts), strict=True)
        ax.plot(
            xs,
            [100 * float(v.published) for v in vs],
            ls="none",
            marker="x",
            color="crimson",
            label="derived values",
        )
    ax.set_xlabel("$r_0 / r_1$")
    ax.set_ylabel("throughput (% of M)")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=7)


def analytical(figure: str, tidy: pd.DataFrame, pub: dict[str, Published], ax: plt.Axes) -> None:
    col, prefix = ANALYTICAL[figure]
    ax.plot(tidy["n"], 100 * tidy[col], color=C0, marker="o", ms=3, label="connection 0")
    ax.plot(tidy["n"], 100 * (1 - tidy[col]), color=C1, marker="o", ms=3, label="connection 1")
    ns = [n for n in tidy["n"] if f"{prefix}.n{n}" in pub]
    ax.plot(
        ns,
        [100 * float(pub[f"{prefix}.n{n}"].published) for n in ns],
        ls="none",
        marker="x",
        color="crimson",
        label="derived values",
    )
    ax.set_ylim(0, 100)
    ax.legend(fontsize=7)
    _n_axis(ax, tidy["n"], "throughput (% of M)")


def draw(
    figure: str,
    tidy: pd.DataFrame,
    numbers: dict[str, float],
    originals: Path,
    pdf: Path,
    tex: Path,
    trace: Mapping | None = None,
) -> None:
    pub = _pub(originals)
    fig, ax = plt.subplots()
    if figure == "fig02":
        fig02(tidy, pub, ax)
    elif figure in THROUGHPUT_ANALYSIS:
        throughput(figure, tidy, pub, ax)
    elif figure in ("fig09", "fig10", "fig11"):
        ratio(figure, tidy, pub, ax)
    elif figure == "fig12":
        fig12(tidy, numbers, pub, ax)
    elif figure == "fig14":
        fig14(pub, ax)
    elif figure == "ext01":
        ext01(tidy, ax)
    elif figure == "aqm01":
        aqm01(tidy, ax)
    elif figure in ANALYTICAL:
        analytical(figure, tidy, pub, ax)
    else:
        raise ValueError(f"unknown figure {figure}")
    caption = CAPTIONS[figure]
    if figure in ONE_OVER_N:
        caption += " " + one_over_n_text(tidy)
    save(fig, pdf)
    figure_tex(
        tex,
        pdf,
        f"Floyd 1991, {caption}",
        rule=f"figure ({figure})",
        script=SCRIPT,
        label=f"fig:floyd1991:{figure}",
        trace=trace,
    )


def _numbers(path: Path | None) -> dict[str, float]:
    if path is None or not path.is_file():
        return {}
    d = pd.read_csv(path, dtype={"value": str})
    return {
        k: float(v)
        for k, v in zip(d["key"], d["value"], strict=True)
        if isinstance(v, str) and v not in ("", "true", "false")
    }


def main(argv: Sequence[str] | None = None) -> int:
    ap = cli.plot_parser("analysis.plots.floyd1991", "Floyd 1991 figures", CAPTIONS)
    a = cli.parse(ap, argv)
    cli.need(ap, a, "--tidy", "--originals", "--pdf", "--tex")
    tidy = pd.read_csv(a.tidy)
    draw(a.item, tidy, _numbers(a.numbers), a.originals, a.pdf, a.tex, a.params.get("trace"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
