"""Floyd 1991: from ns runs to tidy tables and regenerated numbers.

Usage (called by rules/floyd1991.smk)::

    python -m analysis.floyd1991 fig02 --tidy T.csv --numbers N.csv RUN/summary.json ...
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from analysis import nsio
from analysis.numbers import write_numbers


def period_throughput(run_dirs: Sequence[Path]) -> pd.DataFrame:
    """Per-period goodput of every connection: n, seed, period, conn, delivered, pct
    (plus rate = M and period_s, the period length).

    pct = 100 * delivered / (M * period length), M the bottleneck rate in packets/s.
    """
    frames = []
    for d in run_dirs:
        summary, tables = nsio.read_run(d)
        p = summary["params"]
        g = tables["goodput"].sort_values(["conn", "period"]).copy()
        g["delivered"] = g.groupby("conn")["delivered"].diff().fillna(g["delivered"])
        rate = summary["results"]["rate_pkts_per_s"]
        g["pct"] = 100.0 * g["delivered"] / (rate * p["period"])
        g["n"] = p["n"]
        g["seed"] = p["seed"]
        g["rate"] = rate
        g["period_s"] = p["period"]
        frames.append(
            g[["n", "seed", "period", "t", "conn", "delivered", "pct", "rate", "period_s"]]
        )
    return pd.concat(frames, ignore_index=True).sort_values(["n", "seed", "conn", "period"])


def time_to_window(run_dir: Path, conn: int = 0) -> float:
    """First sampled time at which connection ``conn``'s cwnd reaches its maximum window
    (NaN if it never does, or if the run sampled no cwnd)."""
    summary, tables = nsio.read_run(run_dir)
    if "cwnd" not in tables:
        return float("nan")
    w = summary["results"][f"window_{conn}"]
    c = tables["cwnd"]
    hit = c[(c["conn"] == conn) & (c["cwnd"] >= w)]
    return float(hit["t"].iloc[0]) if len(hit) else float("nan")


def fig02(run_dirs: Sequence[Path]) -> tuple[pd.DataFrame, dict[str, float]]:
    """Figure 2: connection 0 alone. Tidy per-period table and the numbers to diff."""
    tidy = period_throughput(run_dirs)
    per_run = []
    for d in run_dirs:
        s = nsio.read_summary(d)
        per_run.append(
            {
                "n": s["params"]["n"],
                "seed": s["params"]["seed"],
                "rtt0": s["results"]["rtt_0"],
                "window0": s["results"]["window_0"],
                "t_max_window": time_to_window(d),
            }
        )
    runs = pd.DataFrame(per_run).groupby("n").mean(numeric_only=True)
    first = tidy[(tidy["conn"] == 0) & (tidy["period"] == 1)].groupby("n")["delivered"].mean()
    numbers: dict[str, float] = {}
    for n, r in runs.iterrows():
        numbers[f"topo.rtt_conn0_ms.n{n}"] = 1000.0 * r["rtt0"]
        numbers[f"topo.fig2_window_conn0.n{n}"] = r["window0"]
    if 1 in runs.index:
        numbers["fig2.rtt_conn0_n1"] = 1000.0 * runs.loc[1, "rtt0"]
        numbers["fig2.window_conn0_n1"] = runs.loc[1, "window0"]
    if 10 in runs.index:
        numbers["fig2.rtt_conn0_n10"] = runs.loc[10, "rtt0"]
        numbers["fig2.window_conn0_n10"] = runs.loc[10, "window0"]
        numbers["fig2.time_to_max_window_n10"] = runs.loc[10, "t_max_window"]
    if 5 in first.index:
        numbers["fig2.packets_first_50s_n5"] = first.loc[5]
    return tidy, numbers


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Floyd 1991 analysis")
    ap.add_argument("figure", choices=["fig02"])
    ap.add_argument("--tidy", type=Path, required=True)
    ap.add_argument("--numbers", type=Path, required=True)
    ap.add_argument("runs", type=Path, nargs="+", help="run folders or their summary.json")
    a = ap.parse_args(argv)
    dirs = [r.parent if r.name == "summary.json" else r for r in a.runs]
    tidy, numbers = {"fig02": fig02}[a.figure](dirs)
    a.tidy.parent.mkdir(parents=True, exist_ok=True)
    tidy.to_csv(a.tidy, index=False, float_format="%.6g")
    write_numbers(numbers, a.numbers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
