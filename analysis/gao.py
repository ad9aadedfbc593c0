"""Gao, Jain, Schulman: from ns runs to tidy tables and regenerated numbers.

Items (each a figure or table of the report):

* ``fig02``: Simulation 1, Poisson flows (tcl/gao/poisson.tcl);
* ``fig03``, ``table1``, ``table2``: Simulations 2.1, 2.2 and 3 (tcl/gao/chain.tcl);
* ``sens_low``: the low marker L swept in the settings of Tables 1 and 2 (ours);
* ``claims``: the paper's qualitative claims, checked on the tidy tables of the others.

Usage: the contract of :mod:`analysis.cli` (called by rule ``analyse`` of rules/common.smk)::

    python -m analysis.gao table1 --params JSON --runs RUN/summary.json ... --tidy T.csv \
        --numbers N.csv
    python -m analysis.gao claims --params JSON --inputs results/gao/ITEM/FIDELITY/tidy.csv ... \
        --tidy T.csv --numbers N.csv --claims C.csv
"""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from analysis import cli, nsio
from analysis.models import gao as model
from analysis.outputs import write_claims, write_numbers, write_tidy
from analysis.stats import mean_ci

# The three schemes of the paper, and the reference schemes we add.
PAPER_SCHEMES = ("choke", "protocol1", "protocol2")
SCHEMES = (*PAPER_SCHEMES, "droptail", "red", "drr")
LINK_NAMES = {1: "l12", 2: "l23"}  # Table 2: link 1 = L12, link 2 = L23
FLOW_NAMES = {1: "udp1", 2: "tcp2", 3: "tcp3"}  # Table 2: flow ids


def maxmin(
    capacity: Mapping[str, float],
    routes: Mapping[str, Sequence[str]],
    demand: Mapping[str, float] | None = None,
) -> dict[str, float]:
    """Max-min fair rates by progressive filling: raise every unfrozen flow's rate
    together; a flow freezes when it reaches its demand or one of its links is full.

    ``capacity``: link -> capacity; ``routes``: flow -> links it crosses; ``demand``:
    flow -> desired rate (missing = unbounded)."""
    for link, c in capacity.items():
        if not c > 0:
            raise ValueError(f"maxmin: capacity of link '{link}' must be > 0, got {c}")
    want = {f: math.inf for f in routes} | dict(demand or {})
    for f, d in want.items():
        if f not in routes:
            raise ValueError(f"maxmin: demand for unknown flow '{f}'")
        if not d >= 0:
            raise ValueError(f"maxmin: demand of flow '{f}' must be >= 0, got {d}")
        for link in routes[f]:
            if link not in capacity:
                raise ValueError(f"maxmin: flow '{f}' crosses unknown link '{link}'")
    rate = dict.fromkeys(routes, 0.0)
    active = {f for f in routes if want[f] > 0 and routes[f]}
    while active:
        room = {
            link: (capacity[link] - sum(rate[f] for f in routes if link in routes[f]))
            / sum(1 for f in active if link in routes[f])
            for link in capacity
            if any(link in routes[f] for f in active)
        }
        step = min(min(room.values()), min(want[f] - rate[f] for f in active))
        for f in active:
            rate[f] += step
        full = {link for link, r in room.items() if r - step <= 1e-12 * capacity[link]}
        met = {f for f in active if want[f] - rate[f] <= 1e-12 * max(1.0, rate[f])}
        active = {f for f in active if f not in met and not full & set(routes[f])}
    return rate


def _dirs(runs: Sequence[Path]) -> list[Path]:
    return [r.parent if r.name == "summary.json" else r for r in runs]


def _window_counts(counts: pd.DataFrame) -> pd.DataFrame:
    """Packets per (link, fid) between the first and the last sample of a run."""
    t0, t1 = counts["t"].min(), counts["t"].max()
    a = counts[counts["t"] == t0].set_index(["link", "fid"])
    b = counts[counts["t"] == t1].set_index(["link", "fid"])
    cols = ["arrivals", "departures", "drops"]
    return (b[cols] - a[cols]).reset_index()


def chain_rates(run_dirs: Sequence[Path]) -> pd.DataFrame:
    """Per run, congested link and flow crossing it: packets arrived, departed and dropped
    in the measurement window, and the throughput (departures) in Mbps."""
    frames = []
    for d in _dirs(run_dirs):
        summary, tables = nsio.read_run(d)
        p = summary["params"]
        w = _window_counts(tables["counts"]).merge(tables["flows"], on="fid")
        w = w[(w["link"] >= w["first_link"]) & (w["link"] <= w["last_link"])].copy()
        window = float(p["duration"]) - float(p["warmup"])
        w["mbps"] = w["departures"] * p["pkt_size"] * 8.0 / window / 1e6
        for k in (
            "gateway",
            "tcp",
            "low",
            "seed",
            "links",
            "link_bw",
            "udp_rate",
            "buffer",
            "high",
        ):
            w[k] = p[k]
        frames.append(w)
    if not frames:
        raise ValueError("no runs given")
    cols = ["gateway", "tcp", "low", "seed", "links", "link_bw", "udp_rate", "link", "fid"]
    t = pd.concat(frames, ignore_index=True)
    return t[[*cols, *(c for c in t.columns if c not in cols)]].sort_values(cols, ignore_index=True)


def poisson_rates(run_dirs: Sequence[Path]) -> pd.DataFrame:
    """Simulation 1, per run and flow: sending rate and throughput in units of r, and the
    packet counts of the window."""
    frames = []
    for d in _dirs(run_dirs):
        summary, tables = nsio.read_run(d)
        p, res = summary["params"], summary["results"]
        w = _window_counts(tables["counts"]).merge(tables["flows"], on="fid")
        window = float(p["duration"]) - float(p["sim1_warmup"])
        r = float(p["r"])
        w["rate_r"] = w["rate"] / r
        w["thr_r"] = w["departures"] * p["pkt_size"] * 8.0 / window / r
        w["loss"] = (w["drops"] / w["arrivals"]).where(w["arrivals"] > 0)
        for k in ("gateway", "F", "L", "s4", "seed", "duration", "sim1_warmup"):
            w[k] = p[k]
        w["r_mbps"] = r / 1e6
        w["H"] = res["H"]
        w["overflow_drops"] = res["overflow_drops"]
        frames.append(w)
    if not frames:
        raise ValueError("no runs given")
    cols = ["gateway", "F", "H", "L", "s4", "seed", "fid"]
    t = pd.concat(frames, ignore_index=True)
    return t[[*cols, *(c for c in t.columns if c not in cols)]].sort_values(cols, ignore_index=True)


def seed_ci(values: pd.Series) -> pd.Series:
    """Mean and 95 % confidence interval over seeds (Student t), as a row."""
    ci = mean_ci(values.to_numpy())
    return pd.Series({"mean": ci.mean, "low": ci.low, "high": ci.high, "n": ci.n})


# ---- Figure 2 ---------------------------------------------------------------------------


def fig02_curve(tidy: pd.DataFrame) -> pd.DataFrame:
    """Flow 4's throughput and loss (units of r), mean and CI over seeds, per (gateway, F, s4)."""
    f4 = tidy[tidy["fid"] == 4]
    thr = f4.groupby(["gateway", "F", "s4"])["thr_r"].apply(seed_ci).unstack()
    loss = f4.groupby(["gateway", "F", "s4"])["loss"].mean().rename("loss")
    return thr.join(loss).reset_index()


def fig02(run_dirs: Sequence[Path], primary_f: int | None) -> tuple[pd.DataFrame, dict]:
    tidy = poisson_rates(run_dirs)
    curve = fig02_curve(tidy)
    fs = sorted(curve["F"].unique())
    f = primary_f if primary_f in fs else fs[-1]
    c = curve[curve["F"] == f]
    best = c.loc[c["mean"].idxmax()]
    first = tidy.iloc[0]
    keys = ["gateway", "F", "s4", "seed"]  # one run
    rates = tidy[(tidy[keys] == first[keys]).all(axis=1)].set_index("fid")["rate_r"]
    fixed = {str(i): float(rates[i]) for i in range(4)}
    alpha = maxmin({"link": 1.0}, {k: ["link"] for k in [*fixed, "4"]}, fixed)
    numbers = {
        "fig2.max_flow4_throughput": float(best["mean"]),
        "fig2.argmax_sending_rate_upper_bound": float(best["s4"]),
        "sim1.h_over_f": float(first["H"]) / float(first["F"]),
        "sim1.l": float(first["L"]),
        # the paper's interval is 5000r s (r in Mb/s): our run length in the same units
        "sim1.duration": float(first["duration"]) / float(first["r_mbps"]),
        **{f"sim1.fixed_rates.flow{i}": fixed[str(i)] for i in range(4)},
        "derived.sim1.maxmin_fair_share": alpha["4"],
    }
    return tidy, numbers


# ---- Figure 3 and Table 1: one congested link --------------------------------------------


def first_run(tidy: pd.DataFrame) -> tuple[pd.Series, pd.DataFrame]:
    """(the first row, every row of its run: same gateway, tcp, low and seed)."""
    first = tidy.iloc[0]
    keys = ["gateway", "tcp", "low", "seed"]
    return first, tidy[(tidy[keys] == first[keys]).all(axis=1)]


def single_link_fair_share(tidy: pd.DataFrame) -> float:
    """Max-min fair rate (Mbps) of an unbounded flow on the link of the first run (UDP
    flows demand their sending rate, TCP flows are unbounded)."""
    first, run = first_run(tidy)
    run = run[run["link"] == 1]
    flows = [str(f) for f in run["fid"]]
    demand = {str(f): first["udp_rate"] / 1e6 for f in run[run["kind"] == "udp"]["fid"]}
    rates = maxmin({"l": first["link_bw"] / 1e6}, {f: ["l"] for f in flows}, demand)
    tcp = [str(f) for f in run[run["kind"] == "tcp"]["fid"]]
    return max(rates[f] for f in tcp) if tcp else max(rates.values())


def fig03(run_dirs: Sequence[Path]) -> tuple[pd.DataFrame, dict]:
    tidy = chain_rates(run_dirs)
    return tidy, {"derived.sim2_1.fair_share": single_link_fair_share(tidy)}


def per_run_extremes(tidy: pd.DataFrame) -> pd.DataFrame:
    """Per run (gateway, tcp, low, seed): max, min and mean throughput of each flow kind on
    link 1, columns udp_max, udp_min, udp_mean, tcp_max, ..."""
    t = tidy[tidy["link"] == 1]
    g = t.groupby(["gateway", "tcp", "low", "seed", "kind"])["mbps"].agg(["max", "min", "mean"])
    w = g.unstack("kind")
    w.columns = [f"{kind}_{stat}" for stat, kind in w.columns]
    return w.reset_index()


def table1_summary(tidy: pd.DataFrame) -> pd.DataFrame:
    """Mean and CI over seeds of each run statistic: gateway, tcp, stat, mean, low, high, n."""
    runs = per_run_extremes(tidy)
    stats_cols = [c for c in runs.columns if c.startswith(("udp_", "tcp_"))]
    long = runs.melt(id_vars=["gateway", "tcp", "low", "seed"], value_vars=stats_cols)
    out = long.groupby(["gateway", "tcp", "variable"])["value"].apply(seed_ci).unstack()
    return out.reset_index().rename(columns={"variable": "stat"})


#: Table 1's rows per scheme: the largest and the smallest flow of each kind in one run
TABLE1_EXTREMES = ("udp_max", "udp_min", "tcp_max", "tcp_min")


def table1_extremes(tidy: pd.DataFrame) -> pd.DataFrame:
    """Table 1's max/min rows regenerated, per (gateway, tcp, stat): ``value``, ``lo``,
    ``hi`` and ``n`` (seeds).

    The paper's Table 1 gives "the maximal and minimal throughputs of two kinds of flows over
    a 100 sec interval" (Sec 6.2.2): an order statistic (largest or smallest of ten flows) of
    one simulation, a single draw (docs/gao.md A15). The unit of comparison is therefore one
    run's statistic (``per_run_extremes``), never flows pooled over runs: the smallest of
    10 x S flows falls as the number of seeds S grows, towards 0 packets in the shut-out rows,
    and is not what one run shows. ``value`` is the median over seeds of the run's statistic:
    the middle of the distribution the paper's single number was drawn from (with an odd
    number of seeds it is one run's value, a whole number of packets in 100 s; with an even
    number, the midpoint of the two middle runs). The mean over seeds, used before, is
    pulled by one outlying seed in the shut-out rows, where a run's minimum is a few packets,
    skewed and bounded below by 0; a designated run (seed 1) would be a one-run value as well
    but would make each row's verdict hang on that seed's noise.

    The seeds then give the run-to-run variation: ``lo`` and ``hi`` are the smallest and
    largest per-seed values, the range within which a published single-run number is one
    run's variation (``table1_seed_range``)."""
    runs = per_run_extremes(tidy)
    stats_cols = [c for c in TABLE1_EXTREMES if c in runs.columns]
    long = runs.melt(
        id_vars=["gateway", "tcp", "low", "seed"], value_vars=stats_cols, var_name="stat"
    )
    g = long.groupby(["gateway", "tcp", "stat"])["value"]
    return g.agg(value="median", lo="min", hi="max", n="count").reset_index()


def table1_numbers(tidy: pd.DataFrame) -> dict[str, float]:
    """Table 1's regenerated numbers (Tahoe, the paper's three schemes): each max/min row is
    the median over seeds of the run's statistic (``table1_extremes``), and the fair share."""
    s = table1_extremes(tidy)
    s = s[(s["tcp"] == "tahoe") & s["gateway"].isin(PAPER_SCHEMES)]
    numbers: dict[str, float] = {
        f"table1.{r.gateway}.{r.stat}": float(r.value) for r in s.itertuples()
    }
    numbers["derived.sim2_2.fair_share"] = single_link_fair_share(tidy)
    return numbers


def table1_seed_range(tidy: pd.DataFrame, row: str = "table1.choke.tcp_min") -> dict[str, float]:
    """Check values of one Table 1 max/min row (Tahoe): ``check.<row>.lo`` and
    ``check.<row>.hi``, the smallest and largest per-seed value of the row's one-run
    statistic. A diagnosis can test whether the published single-run number lies within
    ``[lo, hi]``, i.e. within the run-to-run variation of our runs (the ``table1`` step writes
    ``lo`` of ``TABLE1_CHECKED_ROW``, the check its diagnosis names)."""
    parts = row.split(".")
    if len(parts) != 3 or parts[0] != "table1" or parts[2] not in TABLE1_EXTREMES:
        raise ValueError(f"table1_seed_range: '{row}' is not a Table 1 max/min row")
    _, gateway, stat = parts
    s = table1_extremes(tidy)
    r = s[(s["tcp"] == "tahoe") & (s["gateway"] == gateway) & (s["stat"] == stat)]
    if r.empty:
        raise ValueError(f"table1_seed_range: no Tahoe runs of '{gateway}' with '{stat}'")
    return {f"check.{row}.lo": float(r["lo"].iloc[0]), f"check.{row}.hi": float(r["hi"].iloc[0])}


#: the Table 1 row whose diagnosis checks the smallest run (config/diagnoses/gao.yaml)
TABLE1_CHECKED_ROW = "table1.choke.tcp_min"


def table1(run_dirs: Sequence[Path]) -> tuple[pd.DataFrame, dict]:
    tidy = chain_rates(run_dirs)
    numbers = table1_numbers(tidy)
    if TABLE1_CHECKED_ROW in numbers:
        lo = f"check.{TABLE1_CHECKED_ROW}.lo"
        numbers[lo] = table1_seed_range(tidy, TABLE1_CHECKED_ROW)[lo]
    return tidy, numbers


# ---- Table 2: two congested links --------------------------------------------------------


def table2_summary(tidy: pd.DataFrame) -> pd.DataFrame:
    """Per gateway, link and flow: throughput mean and CI over seeds (Mbps)."""
    g = tidy.groupby(["gateway", "link", "fid"])["mbps"].apply(seed_ci).unstack()
    return g.reset_index()


def table2(run_dirs: Sequence[Path]) -> tuple[pd.DataFrame, dict]:
    tidy = chain_rates(run_dirs)
    s = table2_summary(tidy)
    numbers: dict[str, float] = {}
    for r in s[s["gateway"].isin(PAPER_SCHEMES)].itertuples():
        numbers[f"table2.{r.gateway}.{FLOW_NAMES[r.fid]}.{LINK_NAMES[r.link]}"] = float(r.mean)
    p1 = s[(s["gateway"] == "protocol1") & (s["link"] == 1) & (s["fid"] == 1)]
    if len(p1):
        bw = float(tidy["link_bw"].iloc[0]) / 1e6
        numbers["sec6_3.protocol1.udp1_share_of_l12"] = float(p1["mean"].iloc[0]) / bw
    numbers["derived.sim3.maxmin_fair_share"] = min(chain_maxmin(tidy).values())
    return tidy, numbers


#: Table 2's CHOKe rows that move with CHOKe's unstated thresholds: their values under the
#: higher thresholds of experiments table2_choke<min_th> are the checks of their diagnoses
#: (config/diagnoses/gao.yaml)
CHOKE_THRESH_ROWS = ("table2.choke.tcp2.l12", "table2.choke.tcp2.l23", "table2.choke.tcp3.l23")
#: the threshold steps (one experiment each: min_th, with max_th twice and the limit three
#: times it) -> the suffix of their check keys
CHOKE_THRESH_STEPS = {
    "table2_choke150": "thresh150",
    "table2_choke200": "thresh200",
    "table2_choke300": "thresh300",
    "table2_choke333": "thresh333",
}


def table2_choke_thresholds(run_dirs: Sequence[Path], suffix: str) -> tuple[pd.DataFrame, dict]:
    """Table 2 under other CHOKe thresholds (a sensitivity run, never the primary result):
    the rows of ``CHOKE_THRESH_ROWS`` as check values ``check.<row>.<suffix>``."""
    tidy, made = table2(run_dirs)
    return tidy, {f"check.{k}.{suffix}": made[k] for k in CHOKE_THRESH_ROWS if k in made}


def chain_maxmin(tidy: pd.DataFrame) -> dict[int, float]:
    """Max-min fair rates (Mbps) of the flows of the first run's chain: fid -> rate (UDP
    flows demand their sending rate, TCP flows are unbounded)."""
    first, run = first_run(tidy)
    routes: dict[str, list[str]] = {}
    for r in run.itertuples():
        routes.setdefault(str(r.fid), []).append(str(r.link))
    cap = {str(link): float(first["link_bw"]) / 1e6 for link in run["link"].unique()}
    udp = {str(f): float(first["udp_rate"]) / 1e6 for f in run[run["kind"] == "udp"]["fid"]}
    return {int(f): v for f, v in maxmin(cap, routes, udp).items()}


def jain(x: Sequence[float]) -> float:
    """Jain's fairness index (sum x)^2 / (n sum x^2)."""
    a = np.asarray(x, dtype=float)
    return float(a.sum() ** 2 / (a.size * (a**2).sum()))


# ---- the low marker L (ours) ---------------------------------------------------------------


def sens_low(run_dirs: Sequence[Path]) -> pd.DataFrame:
    """Throughput per flow against L in the settings of Table 1 (links = 1) and Table 2
    (links = 2); column ``setting`` says which."""
    t = chain_rates(run_dirs)
    t["setting"] = t["links"].map({1: "table1", 2: "table2"})
    return t


# ---- claims ------------------------------------------------------------------------------


# ---- beyond the paper: Simulation 2's set-ups behind today's queues -----------------------


def aqm01(run_dirs: Sequence[Path]) -> pd.DataFrame:
    """Per run of Simulation 2.1's and 2.2's set-ups under a gateway discipline: the mean
    throughput (Mbps) of the UDP flows and of the TCP flows on the link, and each over the
    max-min fair rate of such a flow (UDP flows demand their sending rate, TCP flows are
    unbounded): ``udp_x_fair`` 1 is a fair share, 2 twice that."""
    t = chain_rates(run_dirs)
    t = t[t["link"] == 1]
    rows = []
    for (gw, tcp, seed, bw, udp), run in t.groupby(
        ["gateway", "tcp", "seed", "link_bw", "udp_rate"], sort=True
    ):
        flows = {str(f): k for f, k in zip(run["fid"], run["kind"], strict=True)}
        demand = {f: udp / 1e6 for f, k in flows.items() if k == "udp"}
        fair = maxmin({"l": bw / 1e6}, {f: ["l"] for f in flows}, demand)
        mbps = dict(zip((str(f) for f in run["fid"]), run["mbps"], strict=True))
        row: dict[str, object] = {
            "scenario": f"{len(demand)} UDP, {len(flows) - len(demand)} TCP",
            "gateway": gw,
            "tcp": tcp,
            "seed": seed,
            "link_mbps": bw / 1e6,
        }
        for kind in ("udp", "tcp"):
            fs = [f for f, k in flows.items() if k == kind]
            got = float(np.mean([mbps[f] for f in fs]))
            row[f"{kind}_mbps"] = got
            row[f"{kind}_fair_mbps"] = float(np.mean([fair[f] for f in fs]))
            row[f"{kind}_x_fair"] = got / row[f"{kind}_fair_mbps"]  # type: ignore[operator]
        rows.append(row)
    return pd.DataFrame(rows)


def _kind_means(t: pd.DataFrame) -> pd.DataFrame:
    """Seed-mean of per-run max/min/mean per (gateway, tcp)."""
    return per_run_extremes(t).groupby(["gateway", "tcp"]).mean(numeric_only=True)


def claims(
    tidy: Mapping[str, pd.DataFrame], primary_f: int | None = None
) -> dict[str, tuple[bool, str]]:
    """The paper's qualitative claims, each checked by a stated criterion on the regenerated
    results: {claim key: (holds, criterion with the measured values)}. The criteria are
    ours (the paper states the claims in words); each detail string says it."""
    out: dict[str, tuple[bool, str]] = {}
    if "fig02" in tidy:
        c = fig02_curve(tidy["fig02"])
        f = primary_f if primary_f in set(c["F"]) else c["F"].max()
        c = c[c["F"] == f]
        parts, ok = [], True
        for gw, g in c.groupby("gateway"):
            at_r = g.iloc[(g["s4"] - 1.0).abs().argmin()]
            best = g.loc[g["mean"].idxmax()]
            ok &= bool(at_r["loss"] >= 0.5 and best["s4"] < 1.0)
            parts.append(
                f"{gw}: loss {100 * at_r['loss']:.0f}% at s4 = {at_r['s4']:g}r, peak "
                f"{best['mean']:.3f}r at s4 = {best['s4']:g}r"
            )
        out["fig2.drops_at_rate_r"] = (
            ok,
            f"F = {f}: flow 4 loses >= 50% of its packets at s4 = r and its throughput peaks "
            "at s4 < r, both protocols: " + "; ".join(parts),
        )
    if "fig03" in tidy:
        t = tidy["fig03"]
        fair = single_link_fair_share(t)
        per = t.groupby(["gateway", "fid", "kind"])["mbps"].mean().reset_index()
        have = set(per["gateway"])
        if "protocol1" in have:
            p = per[per["gateway"] == "protocol1"]
            udp = float(p[p["kind"] == "udp"]["mbps"].sum())
            tcp = float(p[p["kind"] == "tcp"]["mbps"].mean())
            sent = float(t["udp_rate"].iloc[0]) / 1e6
            out["fig3.protocol1_penalises_udp"] = (
                udp <= 0.1 * sent and abs(tcp - fair) <= 0.1 * fair,
                f"Protocol I: UDP gets <= 10% of its {sent:g} Mb/s ({udp:.3f} Mb/s, "
                f"{100 * udp / sent:.1f}%) and the mean TCP flow is within 10% of the fair "
                f"share {fair:.4f} Mb/s ({tcp:.4f})",
            )
        if "choke" in have:
            p = per[per["gateway"] == "choke"]
            udp = float(p[p["kind"] == "udp"]["mbps"].sum())
            tmax = float(p[p["kind"] == "tcp"]["mbps"].max())
            out["fig3.choke_tcp_below_udp"] = (
                tmax < udp,
                f"CHOKe: every TCP flow's mean throughput below the UDP flow's: max TCP "
                f"{tmax:.4f} < UDP {udp:.4f} Mb/s",
            )
    if "table1" in tidy:
        t = tidy["table1"]
        fair = single_link_fair_share(t)
        runs = per_run_extremes(t)
        m = _kind_means(t)
        tahoe = runs[runs["tcp"] == "tahoe"]
        schemes = [s for s in PAPER_SCHEMES if s in set(tahoe["gateway"])]
        # "the TCP sources" are not shut out: every TCP flow delivers something in every run
        shut = {s: int((tahoe[tahoe["gateway"] == s]["tcp_min"] <= 0).sum()) for s in schemes}
        runs_of = {s: int((tahoe["gateway"] == s).sum()) for s in schemes}
        absent = [s for s in PAPER_SCHEMES if s not in schemes]
        out["table1.no_tcp_shutout"] = (
            not absent and not any(shut.values()),
            "Tahoe: every TCP flow gets > 0 throughput in every run of each of the three "
            "schemes"
            + (f" (no runs of {', '.join(absent)})" if absent else "")
            + "; runs with a TCP flow at 0, and the smallest TCP flow of a run: "
            + ", ".join(
                f"{s} {shut[s]} of {runs_of[s]}, "
                f"{tahoe[tahoe['gateway'] == s]['tcp_min'].min() * 1e3:.2f} kb/s"
                for s in schemes
            ),
        )
        two = [s for s in ("choke", "protocol1") if (s, "tahoe") in m.index]
        if two:
            ok = all(
                m.loc[(s, "tahoe"), "udp_min"] > fair
                and m.loc[(s, "tahoe"), "udp_mean"] > m.loc[(s, "tahoe"), "tcp_mean"]
                for s in two
            )
            out["table1.choke_protocol1_udp_above_fair"] = (
                ok,
                f"Tahoe, seed means: the smallest UDP flow above the fair share {fair:.3f} "
                "Mb/s and UDP above TCP on average: "
                + "; ".join(
                    f"{s} UDP min {m.loc[(s, 'tahoe'), 'udp_min']:.4f}, UDP mean "
                    f"{m.loc[(s, 'tahoe'), 'udp_mean']:.4f}, TCP mean "
                    f"{m.loc[(s, 'tahoe'), 'tcp_mean']:.4f}"
                    for s in two
                ),
            )
        p2 = tahoe[tahoe["gateway"] == "protocol2"]
        if len(p2):
            worse = int((p2["tcp_mean"] < p2["udp_mean"]).sum())
            out["table1.protocol2_tcp_above_udp"] = (
                worse == 0,
                f"Protocol II, Tahoe: mean TCP flow >= mean UDP flow in every run "
                f"({len(p2) - worse} of {len(p2)}); seed means TCP "
                f"{p2['tcp_mean'].mean():.4f}, UDP {p2['udp_mean'].mean():.4f} Mb/s",
            )
        variants = sorted(set(m.index.get_level_values("tcp")) - {"tahoe"})
        if variants and schemes:
            ok, parts = True, []
            for v in variants:
                for s in schemes:
                    if (s, v) not in m.index or (s, "tahoe") not in m.index:
                        continue
                    a, b = m.loc[(s, v)], m.loc[(s, "tahoe")]
                    same = (a["tcp_mean"] > a["udp_mean"]) == (b["tcp_mean"] > b["udp_mean"])
                    close = abs(a["udp_mean"] - b["udp_mean"]) <= 0.25 * fair
                    ok &= bool(same and close)
                    parts.append(f"{v}/{s} {a['udp_mean'] - b['udp_mean']:+.4f}")
            out["table1.tcp_variants_similar"] = (
                ok,
                "under each scheme, Reno/Newreno/SACK give the same winner (TCP or UDP) as "
                f"Tahoe and a mean UDP rate within 0.25 x fair share ({0.25 * fair:.4f} "
                "Mb/s) of Tahoe's; differences: " + ", ".join(parts),
            )
    if "table2" in tidy:
        t = tidy["table2"]
        s = t.groupby(["gateway", "link", "fid"])["mbps"].mean()
        fair_of = chain_maxmin(t)
        gws = set(s.index.get_level_values("gateway"))
        if "protocol1" in gws:
            l23 = s.loc["protocol1", 2]
            ok = all(abs(v - fair_of[f]) <= 0.3 * fair_of[f] for f, v in l23.items())
            out["table2.near_fair_on_l23"] = (
                ok,
                "Protocol I: every flow's L23 rate within 30% of its max-min rate ("
                + ", ".join(f"{fair_of[f]:.3f}" for f in l23.index)
                + " Mb/s): "
                + ", ".join(f"{FLOW_NAMES.get(f, f)} {v:.3f}" for f, v in l23.items()),
            )
        if {"protocol1", "protocol2", "choke"} <= gws:
            j = {g: jain(s.loc[g, 2].to_numpy()) for g in ("protocol1", "protocol2", "choke")}
            out["table2.protocol2_comparable_beats_choke"] = (
                abs(j["protocol2"] - j["protocol1"]) <= 0.05 and j["protocol2"] > j["choke"],
                "Jain index of the three L23 rates: Protocol II within 0.05 of Protocol I and "
                f"above CHOKe: II {j['protocol2']:.3f}, I {j['protocol1']:.3f}, CHOKe "
                f"{j['choke']:.3f}",
            )
        lost = {}
        for g in ("protocol1", "protocol2"):
            if g not in gws:
                continue
            d = t[t["gateway"] == g].groupby(["link", "fid"])[["arrivals", "departures"]].sum()
            lost[g] = {
                f: 1.0 - d.loc[(2, f), "departures"] / d.loc[(1, f), "arrivals"] for f in (1, 2)
            }
        if lost:
            out["table2.udp_more_loss_multi_link"] = (
                all(v[1] > v[2] for v in lost.values()),
                "fraction of the packets entering L12 that do not leave L23, UDP1 above TCP2: "
                + "; ".join(
                    f"{g} UDP1 {100 * v[1]:.1f}%, TCP2 {100 * v[2]:.1f}%" for g, v in lost.items()
                ),
            )
    return out


#: Theorem 4.4 under the proof's simplification: T_D, T1 F, T_W at most T_I (times in units
#: of T_I); the grid of the claim check below.
THM44_GRID = (0.25, 0.5, 0.75, 1.0)


def thm44_claim(d: float, cycle: float, area: float, grid: Sequence[float]) -> tuple[bool, str]:
    """Theorem 4.4's claim on the worst-case history: the factor D = cycle / delivered area
    is finite over the grid of T_D, T1F, T_W <= T_I, and the largest at equality (the proof's
    worst case, D = ``d``)."""
    finite = all(math.isfinite(x) and x > 0 for x in grid)
    holds = bool(
        grid
        and finite
        and area > 0
        and math.isclose(d, cycle / area, rel_tol=1e-12)
        and math.isclose(max(grid), d, rel_tol=1e-12)
    )
    return (
        holds,
        f"worst-case history (Figure 1): delivered {area:.3f} alpha T_I per cycle of "
        f"{cycle:g} T_I, so D = {cycle / area if area > 0 else math.inf:g}; over T_D, T1F, "
        f"T_W in {list(THM44_GRID)} T_I, D is finite ({finite}), between {min(grid):g} and "
        f"{max(grid):g}, and the largest at equality, the proof's worst case (D = {d:g})",
    )


def thm44() -> tuple[pd.DataFrame, dict[str, float], dict[str, tuple[bool, str]]]:
    """Figure 1's worst-case history (two cycles, times in units of T_I, rates in units of
    alpha), the factor D of Theorem 4.4 and the check of its claim."""
    h = model.worst_case_history(1.0, 1.0, 1.0, 1.0, cycles=2)
    tidy = pd.DataFrame({"t": h.t, "rate": h.rate})
    d = model.worst_case_factor(1.0, 1.0, 1.0, 1.0)
    grid = [
        model.worst_case_factor(1.0, a, b, c)
        for a in THM44_GRID
        for b in THM44_GRID
        for c in THM44_GRID
    ]
    checks = {
        "thm4_4.tcp_constant_factor": thm44_claim(d, h.cycle, model.delivered_per_cycle(h), grid)
    }
    return tidy, {"thm4_4.d_bound": d}, checks


def analyse(
    item: str, run_dirs: Sequence[Path], primary_f: int | None = None
) -> tuple[pd.DataFrame, dict]:
    """Tidy table and regenerated numbers of one item."""
    if item == "fig02":
        return fig02(run_dirs, primary_f)
    if item == "fig03":
        return fig03(run_dirs)
    if item == "table1":
        return table1(run_dirs)
    if item == "table2":
        return table2(run_dirs)
    if item in CHOKE_THRESH_STEPS:
        return table2_choke_thresholds(run_dirs, CHOKE_THRESH_STEPS[item])
    if item == "sens_low":
        return sens_low(run_dirs), {}
    if item == "aqm01":
        return aqm01(run_dirs), {}  # not in the paper: nothing to compare
    known = f"fig02, fig03, table1, table2, {', '.join(CHOKE_THRESH_STEPS)}, sens_low, aqm01"
    raise ValueError(f"unknown Gao item '{item}' ({known})")


#: the config value (``--params`` key) that names the main buffer F of Figure 2
PRIMARY_F = "parameters.F.value"


def main(argv: Sequence[str] | None = None) -> int:
    steps = ["fig02", "fig03", "table1", "table2", *CHOKE_THRESH_STEPS, "sens_low", "aqm01"]
    steps += ["thm44", "claims"]
    ap = cli.analysis_parser("analysis.gao", "Gao, Jain, Schulman analysis", steps)
    a = cli.parse(ap, argv)
    cli.need(ap, a, "--tidy", "--numbers")
    if a.extra:
        cli.extra_dir(ap, a)  # made, empty: this paper's steps write no further tables
    if a.step == "thm44":
        tidy, numbers, _ = thm44()  # its claims are checked in the claims step
    elif a.step == "claims":
        cli.need(ap, a, "--claims", "--inputs")
        primary_f = int(cli.param(ap, a, PRIMARY_F))  # type: ignore[call-overload]
        # tidy tables of the other steps: results/gao/<step>/<fidelity>/tidy.csv
        tables = {p.parent.parent.name: pd.read_csv(p) for p in a.inputs}
        checks = claims(tables, primary_f)
        checks.update(thm44()[2])  # Theorem 4.4: the model alone
        write_claims(checks, a.claims)
        tidy, numbers = pd.DataFrame({"key": sorted(checks)}), {}
    else:
        primary_f = a.params.get(PRIMARY_F)
        tidy, numbers = analyse(a.step, a.runs, None if primary_f is None else int(primary_f))
    write_tidy(tidy, a.tidy)
    write_numbers(numbers, a.numbers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
