"""Figures of Floyd 1991.

Usage (called by rules/floyd1991.smk)::

    python -m analysis.plots.floyd1991 fig02 --tidy T.csv --originals O.yaml \
        --pdf figures/floyd1991/fig02.pdf --tex paper/generated/floyd1991/fig02.tex
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd

from analysis.compare import load_originals
from analysis.plots.common import figure_tex, save

SCRIPT = "analysis/plots/floyd1991.py"


def fig02(tidy: pd.DataFrame, originals: Path, pdf: Path, tex: Path) -> None:
    """Connection 0 alone: throughput (% of M) per 50-s period against n; one line per
    period index (bottom = first period); the paper's n = 5 first-period bound marked."""
    d = tidy[tidy["conn"] == 0].groupby(["n", "period"], as_index=False)["pct"].mean()
    fig, ax = plt.subplots()
    cmap = plt.get_cmap("viridis")
    periods = sorted(d["period"].unique())
    for i, per in enumerate(periods):
        s = d[d["period"] == per].sort_values("n")
        ax.plot(
            s["n"], s["pct"], marker="o", ms=3, lw=0.8, color=cmap(i / max(1, len(periods) - 1))
        )
    pub = {p.key: p for p in load_originals(originals)}
    bound = pub.get("fig2.packets_first_50s_n5")
    if bound is not None:
        # packets in the first period as % of the maximum M * period
        per_len = float(tidy["period_s"].iloc[0])
        rate = float(tidy["rate"].iloc[0])
        y = 100.0 * float(bound.published) / (rate * per_len)
        ax.plot(
            [5],
            [y],
            marker="v",
            color="crimson",
            ms=8,
            ls="none",
            label=f"paper: first period, n = 5, > {bound.published:g} packets",
        )
        ax.legend(loc="lower left")
    ax.set_xlabel("n (congested gateways)")
    ax.set_ylabel("connection 0 throughput (% of M)")
    ax.set_ylim(0, 105)
    ax.set_xticks(sorted(d["n"].unique()))
    save(fig, pdf)
    figure_tex(
        tex,
        pdf,
        "Floyd 1991, Figure 2: connection 0 alone, RED gateways, Increase-by-One with "
        "Reduce-by-Half (SACK). One line per 50-s period, lowest = first period.",
        rule="floyd1991_plot (fig02)",
        script=SCRIPT,
        label="fig:floyd1991:fig02",
    )


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Floyd 1991 figures")
    ap.add_argument("figure", choices=["fig02"])
    ap.add_argument("--tidy", type=Path, required=True)
    ap.add_argument("--originals", type=Path, required=True)
    ap.add_argument("--pdf", type=Path, required=True)
    ap.add_argument("--tex", type=Path, required=True)
    a = ap.parse_args(argv)
    tidy = pd.read_csv(a.tidy)
    {"fig02": fig02}[a.figure](tidy, a.originals, a.pdf, a.tex)
    return 0


if __name__ == "__main__":
    sys.exit(main())
