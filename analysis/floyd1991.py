"""Floyd 1991: from ns runs to tidy tables and regenerated numbers.

Usage: the contract of :mod:`analysis.cli` (called by rule ``analyse`` of rules/common.smk)::

    python -m analysis.floyd1991 fig02 --params JSON --runs RUN/summary.json ... --tidy T.csv \
        --numbers N.csv
    python -m analysis.floyd1991 claims --params JSON \
        --inputs results/floyd1991/ITEM/FIDELITY/tidy.csv ... --tidy T.csv --numbers N.csv \
        --claims C.csv
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import numpy as np
import pandas as pd
from scipy import stats

from analysis import cli, nsio
from analysis.models import floyd1991 as models
from analysis.outputs import write_claims, write_numbers, write_tidy

#: the columns of ``period_throughput``
PERIOD_COLUMNS = (
    "n",
    "seed",
    "period",
    "t",
    "conn",
    "delivered",
    "pct",
    "timeouts",
    "rate",
    "period_s",
)


def period_throughput(run_dirs: Sequence[Path]) -> pd.DataFrame:
    """Per-period goodput of every connection: n, seed, period, conn, delivered, pct,
    timeouts (the sender's retransmission timeouts in the period), plus rate = M and
    period_s, the period length.

    pct = 100 * delivered / (M * period length), M the bottleneck rate in packets/s.
    """
    frames = []
    for d in run_dirs:
        summary, tables = nsio.read_run(d)
        p = summary["params"]
        g = tables["goodput"].sort_values(["conn", "period"]).copy()
        for col in ("delivered", "timeouts"):  # cumulative in the run: per period
            g[col] = g.groupby("conn")[col].diff().fillna(g[col])
        rate = summary["results"]["rate_pkts_per_s"]
        g["pct"] = 100.0 * g["delivered"] / (rate * p["period"])
        g["n"] = p["n"]
        g["seed"] = p["seed"]
        g["rate"] = rate
        g["period_s"] = p["period"]
        frames.append(g[list(PERIOD_COLUMNS)])
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


# Figures 3-8: which analytical share the paper draws as the solid line.
ANALYSIS = {
    "fig03": ("Cor 6", lambda n: models.cor6_share(n)),
    "fig04": ("Cor 7, Increase-by-One", lambda n: models.cor7_increase_by_one(n)),
    "fig05": ("Cor 7, Increase-by-One", lambda n: models.cor7_increase_by_one(n)),
    "fig06": ("Claim 1", lambda n: models.claim1_share(n)),
    "fig07": ("Cor 7, Constant-Rate", lambda n: models.cor7_constant_rate(n)),
    "fig08": ("Cor 7, Constant-Rate", lambda n: models.cor7_constant_rate(n)),
}
# Figures 9-12: drop share over throughput share, from the runs of Figures 6-8 (which runs
# each reads: floyd1991.items in the config).
RATIO_FIGURES = ("fig09", "fig10", "fig11", "fig12")
# Sec 4.5's drops per congested gateway and period, over the runs of Figures 3-8
DROPS_STEP = "sec45"
# Figure 2 under another set-up, each the check of a diagnosis: step -> the suffix of its
# check keys. fig02_links: the other reading of Sec 3 (every link at 1.5 Mb/s);
# fig02_ssthresh: the initial ssthresh (not stated) at half the maximum window;
# fig02_links_ssthresh: both
FIG2_VARIANTS = {
    "fig02_links": "equal_links",
    "fig02_ssthresh": "ssthresh_half",
    "fig02_links_ssthresh": "equal_links_ssthresh_half",
}
#: the Figure 2 rows that each variant recomputes as check values
FIG2_VARIANT_ROWS = ("fig2.packets_first_50s_n5", "fig2.time_to_max_window_n10")
# every analysis step with runs
FIGURES = ("fig02", *ANALYSIS, *RATIO_FIGURES, DROPS_STEP, *FIG2_VARIANTS, "ext01", "aqm01")


def throughput(run_dirs: Sequence[Path], figure: str) -> pd.DataFrame:
    """Figures 3-8: per-period throughput (% of M) of connections 0 and 1, and per n the
    analytical line p(n) x measured mean total (conn 0 + conn 1), conn 1 = (1 - p) x total
    (the paper's scaling, stated for Fig 6; docs/floyd1991.md A9)."""
    t = period_throughput(run_dirs)
    t = t[t["conn"].isin([0, 1])].copy()
    total = t.groupby(["n", "seed", "period"])["pct"].sum().groupby("n").mean()
    p = pd.Series([float(ANALYSIS[figure][1](n)) for n in total.index], index=total.index)
    t["analysis_pct"] = [
        (p[n] if c == 0 else 1.0 - p[n]) * total[n] for n, c in zip(t["n"], t["conn"], strict=True)
    ]
    return t


def gateway_shares(run_dirs: Sequence[Path]) -> pd.DataFrame:
    """Figures 9-12: per run, congested gateway g and 50-s period, connection 0's share of
    the throughput s_t = t0/(t0 + tg) and of the drops s_d = d0/(d0 + dg) (departures and
    drops at gateway g), and their ratio. Periods without drops have no ratio (NaN)."""
    frames = []
    for d in run_dirs:
        summary, tables = nsio.read_run(d)
        g = tables["gateways"].sort_values(["gw", "conn", "period"]).copy()
        for col in ("departures", "drops"):
            g[col] = g.groupby(["gw", "conn"])[col].diff().fillna(g[col])
        g["who"] = (g["conn"] == 0).map({True: "c0", False: "cx"})
        w = g.pivot_table(index=["period", "gw"], columns="who", values=["departures", "drops"])
        w.columns = [f"{a}_{b}" for a, b in w.columns]
        w = w.reset_index()
        w["s_t"] = w["departures_c0"] / (w["departures_c0"] + w["departures_cx"])
        dsum = w["drops_c0"] + w["drops_cx"]
        w["s_d"] = (w["drops_c0"] / dsum).where(dsum >= 1)
        w["ratio"] = (w["s_d"] / w["s_t"]).where((dsum >= 1) & (w["s_t"] > 0))
        w["drops"] = dsum
        w["n"] = summary["params"]["n"]
        w["seed"] = summary["params"]["seed"]
        frames.append(w)
    return pd.concat(frames, ignore_index=True).sort_values(["n", "seed", "gw", "period"])


def first_period_packets(t: pd.DataFrame, n: int) -> float:
    """Connection 0's packets delivered in the first period for n gateways (seed mean)."""
    s = t[(t["conn"] == 0) & (t["period"] == 1) & (t["n"] == n)]["delivered"]
    return float(s.mean()) if len(s) else float("nan")


def config_facts(run_dirs: Sequence[Path]) -> dict[str, float]:
    """The stated simulation facts as the runs actually used them (echoed parameters)."""
    p = nsio.read_summary(run_dirs[0])["params"]
    ns = [nsio.read_summary(d)["params"]["n"] for d in run_dirs]
    return {
        "sim.data_packet_size": p["pkt_size"],
        "sim.ack_packet_size": p["ack_size"],
        "sim.max_queue": p["gw_buffer"],
        "sim.red_min_avg_queue": p["red_thresh"],
        "sim.red_max_avg_queue": p["red_maxthresh"],
        "sim.constant_rate_a": p["window_const"],
        "sim.run_length": p["duration"],
        "sim.period_length": p["period"],
        "topo.bottleneck_rate": p["gw_bw"] / 1e6,
        "topo.inter_gateway_delay": p["gw_delay"] * 1e3,
        "topo.access_link.rate_mbps": p["access_bw"] / 1e6,
        "topo.access_link.delay_ms": p["access_delay"] * 1e3,
        "sim.n_min": min(ns),
        "sim.n_max": max(ns),
    }


def extension(run_dirs: Sequence[Path]) -> pd.DataFrame:
    """The extension (not in the paper): per run, the gateway discipline, the TCP variant,
    and connection 0's and connection 1's mean throughput (% of M) over every period after
    the first (the first holds slow start)."""
    rows = []
    for d in run_dirs:
        p = nsio.read_summary(d)["params"]
        r = period_throughput([d])
        m = r[(r["period"] > 1) & r["conn"].isin([0, 1])].groupby("conn")["pct"].mean()
        rows.append(
            {
                "gateway": p["gateway"],
                "tcp": p["tcp"],
                "n": p["n"],
                "seed": p["seed"],
                "conn0_pct": float(m.get(0, np.nan)),
                "conn1_pct": float(m.get(1, np.nan)),
            }
        )
    return pd.DataFrame(rows).sort_values(["gateway", "tcp", "n", "seed"], ignore_index=True)


def analyse(figure: str, run_dirs: Sequence[Path]) -> tuple[pd.DataFrame, dict[str, float]]:
    """Tidy table and regenerated numbers of one figure."""
    numbers: dict[str, float] = {}
    if figure in ("ext01", "aqm01"):
        return extension(run_dirs), numbers  # not in the paper: nothing to compare
    if figure in FIG2_VARIANTS:
        tidy, made = fig02(run_dirs)
        suffix = FIG2_VARIANTS[figure]
        return tidy, {f"check.{k}.{suffix}": made[k] for k in FIG2_VARIANT_ROWS if k in made}
    if figure == "fig02":
        tidy, numbers = fig02(run_dirs)
        facts = config_facts(run_dirs)
        numbers.update(facts)
        return tidy, numbers
    if figure in ANALYSIS:
        tidy = throughput(run_dirs, figure)
        key = {"fig05": "fig5", "fig06": "fig6"}.get(figure)
        if key:
            numbers[f"{key}.packets_first_50s_n5"] = first_period_packets(tidy, 5)
        if figure == "fig05":
            numbers["sim.droptail_random_delay_b"] = (
                1e3 * nsio.read_summary(run_dirs[0])["params"]["overhead"]
            )
        return tidy, numbers
    if figure == DROPS_STEP:
        # Sec 4.5: "the congested gateways have persistent congestion (with from 11 to 25
        # dropped packets in each 50-second period of simulation, for the parameters in these
        # simulations)": the section discusses Figures 2, 5 and 6 and speaks of the
        # simulations of Section 4 with all connections active (Figure 2 has connection 0
        # alone and no congestion), i.e. Figures 3-8; the mean over their gateways and periods
        tidy = gateway_shares(run_dirs)
        numbers["sec4_5.drops_per_gateway_per_50s"] = float(tidy["drops"].mean())
        return tidy, numbers
    if figure in RATIO_FIGURES:
        tidy = gateway_shares(run_dirs)
        if figure == "fig09":
            numbers["fig9.avg_ratio"] = farthest_from_one(avg_ratio_per_n(tidy))
            numbers["fig9.red_drops_per_50s_often"] = float(tidy["drops"].median())
            numbers[MODE_CHECK] = most_common_drops(tidy)
        if figure == "fig12":
            numbers[F_CHECK] = paper_f_excess(tidy)
            b = ratio_bins(tidy)
            if len(b) >= 4:
                e = models.fit_exponential(b.index.to_numpy(), b["mean"].to_numpy())
                q = models.fit_inverse_sqrt(b.index.to_numpy(), b["mean"].to_numpy())
                m = models.fit_inverse_sqrt(b.index.to_numpy(), b["median"].to_numpy())
                numbers.update(
                    {
                        "fig12.fit_exponential.a": e.a,
                        "fig12.fit_exponential.b": e.b,
                        "fig12.fit_exponential.c": e.c,
                        "fig12.fit_sqrt.a": q.a,
                        "fig12.fit_sqrt.b": q.b,
                        f"{SQRT_MEDIAN_CHECK}.a": m.a,
                        f"{SQRT_MEDIAN_CHECK}.b": m.b,
                    }
                )
        return tidy, numbers
    raise ValueError(f"unknown Floyd 1991 figure '{figure}'")


#: the check of the inverse-square-root fit rows' diagnosis: the fit to each bin's median
SQRT_MEDIAN_CHECK = "check.fig12.fit_sqrt.median_bins"


def ratio_bins(t: pd.DataFrame, width: float = 0.025, least: int = 3) -> pd.DataFrame:
    """Figure 12's points (connection 0's throughput share s_t at a gateway in a period, and
    its drop share over its throughput share) in s_t bins of ``width``, each bin's centre
    with the mean and the median ratio and its number of points; bins with fewer than
    ``least`` points are left out. The fits are made to these (the paper does not say how it
    fitted): to every point, a few periods where connection 0 sent almost nothing (one drop
    over a throughput share near 0: very large ratios) would decide a fit alone. Our rows fit
    the means; the diagnosis of the inverse-square-root rows checks a fit to the medians,
    which such periods move less."""
    d = t[t["ratio"].notna() & (t["s_t"] > 0)]
    centre = (d["s_t"] // width) * width + width / 2
    b = d.groupby(centre)["ratio"].agg(["mean", "median", "size"])
    return b[b["size"] >= least]


#: one-sided level of the test that connection 0 is below 1/n of connection 1 (one_over_n)
ONE_OVER_N_LEVEL = 0.05


#: the check of the diagnosis of Sec 4.4's "two or three packets" (the other reading)
MODE_CHECK = "check.fig9.red_drops_per_50s_often.most_common"


def most_common_drops(t: pd.DataFrame) -> float:
    """Sec 4.4's "In many of the simulations with RED gateways, the gateway drops only two or
    three packets in a 50-second time period" read as the most common count: the mode of the
    drops per gateway and period (the smallest, if several are equally common); NaN without
    periods. Our primary reading is the median (the typical period)."""
    m = t["drops"].dropna().mode()
    return float(m.min()) if len(m) else float("nan")


#: the check of the Figure 12 fit rows' diagnosis (config/diagnoses/floyd1991.yaml)
F_CHECK = "check.fig12.paper_f_overstates_above_quarter"


def paper_f_excess(t: pd.DataFrame, above: float = 0.25) -> float:
    """Sec 4.4 and Sec 5.3 say the printed f(p) = 0.59 + 5 e^{-5p} (Figure 12's line, used in
    Corollary 7) "overstates the bias ... for p >= 1/4": the mean over Figure 12's
    gateway-periods with connection 0's throughput share s_t >= ``above`` (and a ratio) of
    f(s_t) minus the measured ratio; > 0 when the paper's function overstates our data there
    as the paper says it overstates its own. NaN without such periods."""
    d = t[t["ratio"].notna() & (t["s_t"] >= above)]
    if d.empty:
        return float("nan")
    f = models.burst_bias_f(d["s_t"].clip(upper=1.0).to_numpy())
    return float(np.mean(f - d["ratio"].to_numpy()))


#: the check of the diagnosis of Sec 4.3's "at least 1/nth" (config/diagnoses/floyd1991.yaml)
STALL_CHECK = "check.figs7_8.conn0_at_least_one_over_n.met_without_timeouts"


def met_without_timeouts(tables: Sequence[pd.DataFrame]) -> bool | float:
    """Whether connection 0 falls short of 1/n (``one_over_n``) only through the periods in
    which its sender stalls in retransmission timeouts: over the (figure, n) cells of the
    tables (Figures 7 and 8) where the bound fails, True when in every such cell connection
    0 meets it (the same one-sided test) over the 50-s periods in which connection 0 had no
    timeout, False when some cell does not, or has no such period; NaN when no cell fails
    (nothing to explain). Periods without a timeout also tend to be those with fewer drops,
    so this tests the stall mechanism, not that drops alone would spare the bound."""
    short = 0
    for t in tables:
        for n, ok in one_over_n(t)["holds"].items():
            if ok:
                continue
            short += 1
            cell = t[t["n"] == n]
            calm = cell[(cell["conn"] == 0) & (cell["timeouts"] == 0)][["seed", "period"]]
            if calm.empty:
                return False
            if not bool(one_over_n(cell.merge(calm, on=["seed", "period"])).loc[n, "holds"]):
                return False
    return True if short else float("nan")


def one_over_n(t: pd.DataFrame, level: float = ONE_OVER_N_LEVEL) -> pd.DataFrame:
    """Sec 4.3's "with n congested gateways connection 0 receives at least 1/nth of the
    throughput", read as the paper's Secs 6-7 phrase it: 1/n times the throughput of a
    connection with one congested gateway. Per n: connection 0's and connection 1's mean
    throughput (% of M, over periods and seeds: the figures' dashed lines), the bound
    conn1 / n, and whether connection 0 reaches it.

    "At least" is decided by a one-sided t test on the per-period differences
    conn0 - conn1 / n (one per seed and 50-s period): connection 0 falls short at n only
    when the upper ``1 - level`` confidence bound of their mean is below 0. Comparing the two
    means alone decides n = 1 by a coin flip: there connection 0 and connection 1 cross the
    same gateway on identical paths, so the claim is an equality in expectation and the sign
    of their difference is noise. ``upper`` is that confidence bound (% of M)."""
    w = t[t["conn"].isin([0, 1])].pivot_table(
        index=["n", "seed", "period"], columns="conn", values="pct"
    )
    d = (w[0] - w[1] / w.index.get_level_values("n").to_numpy(dtype=float)).groupby("n")
    m = t[t["conn"].isin([0, 1])].groupby(["n", "conn"])["pct"].mean().unstack("conn")
    out = pd.DataFrame({"conn0": m[0], "conn1": m[1]})
    out["bound"] = out["conn1"] / out.index.to_numpy(dtype=float)
    k, mean, sd = d.size(), d.mean(), d.std(ddof=1)
    tq = pd.Series(stats.t.ppf(1.0 - level, (k - 1).clip(lower=1)), index=k.index)
    out["upper"] = mean + tq * sd.fillna(0.0) / np.sqrt(k)
    out["holds"] = out["upper"] >= 0.0
    return out


def avg_ratio_per_n(t: pd.DataFrame) -> pd.Series:
    """Figures 9-11: per n, the average over gateways, periods and seeds of connection 0's
    share of the drops over its share of the throughput (periods with drops only)."""
    return t.groupby("n")["ratio"].mean().dropna()


def farthest_from_one(per_n: pd.Series) -> float:
    """The per-n average ratio farthest from 1 (Fig 9: 'for each value of n this average
    ratio is close to one', so every n must be within the tolerance); NaN if none."""
    if per_n.empty:
        return float("nan")
    return float(per_n.loc[(per_n - 1.0).abs().idxmax()])


def _mean_abs_gap(t: pd.DataFrame) -> float:
    """Mean over n of |simulated - analytical| throughput of connection 0 (% of M)."""
    m = t[t["conn"] == 0].groupby("n")[["pct", "analysis_pct"]].mean()
    return float((m["pct"] - m["analysis_pct"]).abs().mean())


def claims(
    tidy: dict[str, pd.DataFrame],
) -> tuple[dict[str, bool | float], dict[str, tuple[bool, str]]]:
    """The paper's claims, each checked by a stated criterion on the regenerated results.

    Returns (published boolean numbers, {claim key: (holds, criterion with values)}).
    Criteria are ours (the paper states the claims in words); each detail string says it.
    """
    numbers: dict[str, bool | float] = {}
    out: dict[str, tuple[bool, str]] = {}
    have = tidy.keys()
    if {"fig10", "fig11"} <= have:
        r = [avg_ratio_per_n(tidy[f]).get(10, np.nan) for f in ("fig10", "fig11")]
        if all(np.isfinite(r)):  # the paper's statement is about n = 10
            numbers["fig10_11.avg_ratio_n10_gt_1"] = all(x > 1.0 for x in r)
    if {"fig07", "fig08"} <= have:
        numbers["figs7_8.conn0_at_least_one_over_n"] = all(
            bool(one_over_n(tidy[f])["holds"].all()) for f in ("fig07", "fig08")
        )
        numbers[STALL_CHECK] = met_without_timeouts([tidy["fig07"], tidy["fig08"]])
        gaps = [tidy[f][tidy[f]["conn"] == 0] for f in ("fig07", "fig08")]
        over = [float((g["pct"] - g["analysis_pct"]).mean()) for g in gaps]
        out["figs7_8.analysis_overstates_bias"] = (
            all(o > 0 for o in over),
            "simulated minus Cor. 7 throughput of connection 0, mean over n and periods, > 0 "
            f"in both: Fig 7 {over[0]:+.1f}, Fig 8 {over[1]:+.1f} points of M",
        )
        a, b = (t[t["conn"] == 0].groupby("n")["pct"].mean() for t in gaps)
        gap = float((a - b).abs().mean())
        out["sec4_5.droptail_randomdrop_similar"] = (
            gap <= 10.0,
            f"mean |Random Drop - Drop Tail| connection-0 throughput over n <= 10 points of M: "
            f"{gap:.1f}",
        )
    if "fig02" in have:
        t = tidy["fig02"]
        m = t[t["conn"] == 0].groupby(["n", "period"])["pct"].mean().unstack()
        drops = int((m.diff(axis=1) < -1.0).sum().sum())
        out["fig2.throughput_rises_each_period"] = (
            drops == 0,
            f"connection 0's throughput never falls by more than 1 point of M from one period "
            f"to the next, for any n: {drops} falls",
        )
    if {"fig03", "fig04", "fig05"} <= have:
        rho = {}
        for f in ("fig03", "fig04", "fig05"):
            m = tidy[f][tidy[f]["conn"] == 0].groupby("n")["pct"].mean()
            rho[f] = float(stats.spearmanr(m.index, m.values).statistic)
        out["figs3_5.conn0_falls_with_n"] = (
            all(r <= -0.8 for r in rho.values()),
            "Spearman rank correlation of n and connection 0's mean throughput <= -0.8: "
            + ", ".join(f"{f} {r:.2f}" for f, r in rho.items()),
        )
        g3, g4, g5 = (_mean_abs_gap(tidy[f]) for f in ("fig03", "fig04", "fig05"))
        out["fig3.reasonable_agreement"] = (
            g3 <= 5.0,
            f"mean |simulation - Cor. 6| for connection 0 <= 5 points of M: {g3:.1f}",
        )
        out["figs4_5.some_discrepancy"] = (
            min(g4, g5) > g3,
            f"mean |simulation - Cor. 7| for connection 0 larger than Fig 3's {g3:.1f}: "
            f"Fig 4 {g4:.1f}, Fig 5 {g5:.1f} points of M",
        )
    if "fig06" in have:
        t = tidy["fig06"]
        g6 = _mean_abs_gap(t)
        c10 = float(t[(t["conn"] == 0) & (t["n"] == t["n"].max())]["pct"].mean())
        out["fig6.close_agreement"] = (
            g6 <= 5.0 and c10 >= 10.0,
            f"mean |simulation - Claim 1| for connection 0 <= 5 points of M ({g6:.1f}) and "
            f"connection 0 >= 10% of M at the largest n ({c10:.1f}%)",
        )
    if "fig12" in have:
        d = tidy["fig12"]
        d = d[d["ratio"].notna()]
        r = stats.spearmanr(d["s_t"], d["ratio"])
        out["fig12.ratio_rises_as_share_falls"] = (
            bool(r.statistic < 0 and r.pvalue < 0.01),
            f"Spearman correlation of throughput share and ratio < 0 at the 1% level: "
            f"rho = {r.statistic:.2f}, p = {r.pvalue:.1g}, {len(d)} gateway-periods",
        )
    out.update(analytical_claims())
    return numbers, out


def analytical_claims(models: ModuleType = models) -> dict[str, tuple[bool, str]]:
    """The closed forms satisfy the equations they solve (n = 1..10, ratios 1..20).
    ``models``: the module of closed forms checked (the tests pass wrong ones)."""
    n = np.arange(1, 11, dtype=float)
    out: dict[str, tuple[bool, str]] = {}
    p = np.asarray(models.claim1_share(n))
    e = float(np.max(np.abs((1 - p) ** 2 - n * p**2)))
    out["claim1.formula"] = (e < 1e-12, f"max |(1-p)^2 - n p^2| = {e:.1e} for n = 1..10")
    r = np.linspace(1, 20, 39)
    p3 = np.asarray(models.cor3_share(r))
    e = float(np.max(np.abs(p3 * (1 + r) - 1)))
    out["cor3.formula"] = (e < 1e-12, f"max |p (1 + r0/r1) - 1| = {e:.1e} for r0/r1 in [1, 20]")
    p4 = [float(models.cor4_share(1.0, x)) for x in r]
    e = max(abs(x - 0.5) for x in p4)
    out["cor4.formula"] = (e < 1e-12, f"max |p - 1/2| = {e:.1e} for r1/r0 in [1, 20]")
    p6 = np.asarray(models.cor6_share(n))
    lhs = n * p6**2 / (1 - p6) ** 2
    e = float(np.max(np.abs(lhs - 1 / (2 * n - 1) ** 2)))
    out["cor6.formula"] = (e < 1e-12, f"max |n p^2/(1-p)^2 - 1/(2n-1)^2| = {e:.1e}")
    worst = max(
        abs(models.cor7_lhs(float(models.cor7_constant_rate(int(k))), float(k)) - 1.0) for k in n
    )
    out["cor7.formula"] = (worst < 1e-9, f"Cor. 7 (Constant-Rate) root residual max {worst:.1e}")
    grid = np.linspace(0.0, 1.0, 200001)
    errs = [
        abs(grid[np.argmax(models.product_measure(grid, k))] - 1 / (k + 1)) for k in range(1, 11)
    ]
    out["sec6.product_measure_argmax"] = (
        max(errs) < 1e-4,
        f"numeric argmax of p(1-p)^n vs 1/(n+1): max gap {max(errs):.1e}",
    )
    errs = [abs(grid[np.argmax(models.jain_gateways(grid, k))] - 1 / (k + 1)) for k in range(1, 11)]
    out["sec6.jain_gateways_argmax"] = (
        max(errs) < 1e-4,
        f"numeric argmax of the throughput x gateways Jain index vs 1/(n+1): max gap "
        f"{max(errs):.1e}",
    )
    return out


def analytical() -> tuple[pd.DataFrame, dict[str, float]]:
    """Figures 14-18: the heuristic analysis, no simulation."""
    n = np.arange(1, 11)
    tidy = pd.DataFrame(
        {
            "n": n,
            "claim1": models.claim1_share(n),
            "cor6": models.cor6_share(n),
            "cor7_cr": [models.cor7_constant_rate(int(k)) for k in n],
            "cor7_ib1": [models.cor7_increase_by_one(int(k)) for k in n],
        }
    )
    numbers: dict[str, float] = {}
    for col, key in (
        ("claim1", "fig17.claim1.p"),
        ("cor6", "fig15.cor6.p"),
        ("cor7_cr", "fig18.cor7_constant_rate.p"),
        ("cor7_ib1", "fig16.cor7_increase_by_one.p"),
    ):
        for k, v in zip(tidy["n"], tidy[col], strict=True):
            numbers[f"{key}.n{k}"] = float(v)
    for r in (1, 2, 3, 4, 5, 10, 20):
        numbers[f"fig14.cor3.p.r{r}"] = float(models.cor3_share(r))
    numbers["cor4.p"] = float(models.cor4_share(1.0, 3.0))
    grid = np.linspace(0.0, 1.0, 100001)
    numbers["sec6.jain_throughput_argmax"] = float(grid[np.argmax(models.jain_throughput(grid, 5))])
    return tidy, numbers


def main(argv: Sequence[str] | None = None) -> int:
    steps = [*FIGURES, "analysis", "claims"]
    ap = cli.analysis_parser("analysis.floyd1991", "Floyd 1991 analysis", steps)
    a = cli.parse(ap, argv)
    cli.need(ap, a, "--tidy", "--numbers")
    if a.extra:
        cli.extra_dir(ap, a)  # made, empty: this paper's steps write no further tables
    if a.step == "analysis":
        tidy, numbers = analytical()
    elif a.step == "claims":
        cli.need(ap, a, "--claims", "--inputs")
        # tidy tables of other steps: results/floyd1991/<step>/<fidelity>/tidy.csv
        tables = {p.parent.parent.name: pd.read_csv(p) for p in a.inputs}
        bools, checks = claims(tables)
        tidy, numbers = pd.DataFrame({"key": sorted(checks)}), dict(bools)
        write_claims(checks, a.claims)
    else:
        tidy, numbers = analyse(a.step, cli.run_dirs(a.runs))
    write_tidy(tidy, a.tidy)
    write_numbers(numbers, a.numbers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
