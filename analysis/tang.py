r"""Tang, Wang, Hegde, Low 2005: from ns runs to tidy tables, regenerated numbers and claims.

Command line (the contract of :mod:`analysis.cli`; no step reads ``--params``)::

    python -m analysis.tang EXP --runs RUN/summary.json ... --tidy T.csv --numbers N.csv \
        --extra DIR            # DIR/traces.csv, DIR/theory.csv
    python -m analysis.tang theory --tidy T.csv --numbers N.csv --extra DIR
    python -m analysis.tang claims --inputs results/tang/EXP/FID/tidy.csv ... --tidy T.csv \
        --numbers N.csv --claims C.csv --extra DIR

``claims`` names each input by its path (``results/tang/<experiment>/<fidelity>/tidy.csv``)
and reads the traces and model curves it needs from the ``extra/`` folder next to it.

Every run is one tcl/tang/chain.tcl network (three links in a chain, flow groups on
contiguous runs of links). Rates are averaged over the window [measure_from, duration] from
cumulative packet counts (acknowledged packets per group, departures per link), so 32-bit
counters never overflow.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from analysis import nsio
from analysis.cli import analysis_parser, extra_dir, need, parse, run_dirs
from analysis.compare import load_originals
from analysis.models.tang.network import (
    Flow,
    LinearPrice,
    Link,
    Network,
    RedPrice,
    mbps_to_pkts,
    pkts_to_mbps,
)
from analysis.models.tang.recipes import (
    Fig1Setup,
    Fig12Setup,
    fig9_curves,
    fig10_curves,
    fig13_curves,
    prop1_condition,
    prop2_vegas_rates,
    prop3_alpha,
)
from analysis.models.tang.solver import find_equilibria
from analysis.outputs import write_claims, write_numbers, write_tidy

#: Routes (0-based link indices) of the groups of each topology, as tcl/tang/chain.tcl.
ROUTES = {
    "fig1": [(0, 1), (1, 2), (0, 1, 2)],
    "linear": [(0,), (1,), (2,), (0, 1, 2)],
    "fig12": [(0, 1), (1, 2), (1,), (0, 1, 2)],
}
#: Run parameters that tell the runs of one experiment apart (besides the seed).
KEYS = ["short_tcp", "first", "alpha_unit", "n_long", "k13", "k2", "alpha"]
#: Labelled sensitivity runs: a reading we chose, run next to the one the paper states.
#: experiment -> (parameter, value of the sensitivity runs); every other run is primary.
#: Sec 6.1 states alpha d = 5.5 packets per flow (alpha = 50 per second, reading I); 50
#: packets per flow (reading II) is our reading. Tables 2-3 use "the same network set-up"
#: as Experiment 1 (Sec 5.2: 8 long-path flows); one long flow is our reading of the tables'
#: "long flow starts first". Experiment 2's FAST alpha is not stated (Sec 5.3): 50 packets
#: per flow as in Experiment 1, and 100, Experiment 1's backlog per FAST path, as sensitivity.
SENSITIVITY: dict[str, tuple[str, object]] = {
    "fig09": ("alpha_unit", "packets"),
    "fig10": ("alpha_unit", "packets"),
    "table2": ("n_long", 1),
    "table3": ("n_long", 1),
    "exp2": ("alpha", 100),
}
#: Scenario names of the paper per experiment and start order.
SCENARIOS = {
    "exp1": {"short": "fast_first", "long": "reno_first"},
    "table2": {"short": "short_first", "long": "long_first"},
    "table3": {"short": "short_first", "long": "long_first"},
    "exp2": {"short": "fast_first", "long": "reno_first"},
    "ext1": {"short": "fast_first", "long": "reno_first"},
    "ext2": {"short": "fast_first", "long": "reno_first"},
    "fig09": {"short": "vegas_first", "long": "reno_first", "all": "together"},
    "fig10": {"short": "vegas_first", "long": "reno_first", "all": "together"},
}
TABLE = {"exp1": "table1", "table2": "table2", "table3": "table3", "exp2": "table4"}
#: Beyond the paper: Experiment 1 variants, shown as tables next to Table 1.
EXTENSIONS = {
    "ext1": "400-packet link-2 buffer",
    "ext2": "FAST on ns-2's Reno-style recovery",
}
#: Beyond the paper: Experiment 5 (Figure 11) variants.
SHIFT_EXTENSIONS = {"ext3": "K2 = 2000"}
EWMA_TAU = 1.0  # s, time constant of the plotted queue average (our choice)


def _mbps(pkts_per_s: float | np.ndarray, pkt_size: float) -> float | np.ndarray:
    return pkts_per_s * 8.0 * pkt_size / 1e6


def _window_rate(t: pd.Series, count: pd.Series, t0: float, t1: float) -> float:
    """Packets per second between the samples nearest t0 and t1 of a cumulative count."""
    s = pd.Series(count.to_numpy(), index=t.to_numpy()).sort_index()
    if s.empty or s.index[-1] < t1 - 1e-6 or s.index[0] > t0 + 1e-6:
        raise ValueError(f"counts do not cover the window [{t0}, {t1}] s")
    a = s.iloc[int(np.argmin(np.abs(s.index - t0)))]
    ta = s.index[int(np.argmin(np.abs(s.index - t0)))]
    b = s.iloc[int(np.argmin(np.abs(s.index - t1)))]
    tb = s.index[int(np.argmin(np.abs(s.index - t1)))]
    if tb <= ta:
        raise ValueError(f"window [{t0}, {t1}] s holds no sampling interval")
    return float((b - a) / (tb - ta))


def run_window(run_dir: Path) -> pd.DataFrame:
    """One run's window averages: a row per group (rate) and per link (utilisation, queue).

    Columns: the KEYS parameters, seed, what ("group" / "link"), idx (1-based), protocol,
    pkts (pkts/s), mbps, util (links: departures / capacity), qmean (links: mean sampled queue
    in the window, NaN without a queue table).
    """
    summary, tables = nsio.read_run(run_dir)
    p = summary["params"]
    r = summary["results"]
    t0, t1 = float(p["measure_from"]), float(p["duration"])
    t1 = float(np.floor(t1 / p["sample"] + 1e-9) * p["sample"])
    base = {k: p[k] for k in KEYS}
    base["seed"] = p["seed"]
    rows = []
    g = tables["groups"]
    for gid, d in g.groupby("group"):
        x = _window_rate(d["t"], d["acked"], t0, t1)
        rows.append(
            {
                **base,
                "what": "group",
                "idx": int(gid),
                "protocol": r[f"protocol_{int(gid)}"],
                "pkts": x,
                "mbps": _mbps(x, p["pkt_size"]),
                "util": np.nan,
                "qmean": np.nan,
            }
        )
    links = tables["links"]
    q = tables.get("queue")
    for lid, d in links.groupby("link"):
        x = _window_rate(d["t"], d["departures"], t0, t1)
        cap = p[f"bw{int(lid)}"] / (8.0 * p["pkt_size"])
        qm = np.nan
        if q is not None:
            ql = q[(q["link"] == lid) & (q["t"] >= t0) & (q["t"] <= t1)]
            qm = float(ql["qlen"].mean()) if len(ql) else np.nan
        rows.append(
            {
                **base,
                "what": "link",
                "idx": int(lid),
                "protocol": "",
                "pkts": x,
                "mbps": _mbps(x, p["pkt_size"]),
                "util": x / cap,
                "qmean": qm,
            }
        )
    return pd.DataFrame(rows)


def window_table(run_dirs: Sequence[Path]) -> pd.DataFrame:
    """Window averages of every run (see :func:`run_window`)."""
    if not run_dirs:
        raise ValueError("no runs given")
    return pd.concat([run_window(d) for d in run_dirs], ignore_index=True)


# the RED ramps of links 1/3 and 2, carried with the traces (Figure 11's claim scales by them)
RED_RAMPS = ("bmin13", "bmax13", "bmin2", "bmax2")
#: Link rates (bit/s) carried along in the traces (utilisation of the traced links).
LINK_RATES = ("bw1", "bw2")


def traces(run_dirs: Sequence[Path]) -> pd.DataFrame:
    """Queue and throughput traces of the seed-1 run of each scenario (Figs 3-4, 6-8, 11).

    Per link and sample: qlen (instantaneous), q_ewma (EWMA with time constant EWMA_TAU, our
    choice), and the link throughput (Mbps) in the sampling bins of the counters.
    """
    frames = []
    for d in run_dirs:
        summary, tables = nsio.read_run(d)
        p = summary["params"]
        if p["seed"] != min(nsio.read_summary(x)["params"]["seed"] for x in run_dirs):
            continue
        if "queue" not in tables:
            continue
        q = tables["queue"].sort_values(["link", "t"]).copy()
        wt = 1.0 - np.exp(-p["qsample"] / EWMA_TAU)
        q["q_ewma"] = q.groupby("link")["qlen"].transform(lambda s, a=wt: s.ewm(alpha=a).mean())
        q["kind"] = "queue"
        q["mbps"] = np.nan
        lk = tables["links"].sort_values(["link", "t"]).copy()
        lk["mbps"] = _mbps(
            lk.groupby("link")["departures"].diff().fillna(lk["departures"]) / p["sample"],
            p["pkt_size"],
        )
        lk["kind"] = "throughput"
        tr = pd.concat(
            [q[["t", "link", "kind", "qlen", "q_ewma", "mbps"]], lk[["t", "link", "kind", "mbps"]]],
            ignore_index=True,
        )
        for k in (*KEYS, *RED_RAMPS, *LINK_RATES):
            tr[k] = p[k]
        frames.append(tr)
    cols = ["t", "link", "kind", "qlen", "q_ewma", "mbps", *KEYS, *RED_RAMPS, *LINK_RATES]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=cols)


def primary(experiment: str, w: pd.DataFrame) -> pd.DataFrame:
    """The rows of an experiment's primary runs (the paper's stated set-up)."""
    if experiment not in SENSITIVITY:
        return w
    k, v = SENSITIVITY[experiment]
    return w[w[k].astype(str) != str(v)]


def sensitivity(experiment: str, w: pd.DataFrame) -> pd.DataFrame:
    """The rows of an experiment's labelled sensitivity runs (empty if it has none)."""
    if experiment not in SENSITIVITY:
        return w.iloc[0:0]
    k, v = SENSITIVITY[experiment]
    return w[w[k].astype(str) == str(v)]


def sensitivity_label(experiment: str) -> str:
    """How the report names an experiment's sensitivity runs."""
    k, v = SENSITIVITY[experiment]
    return f"sensitivity {k} = {v}"


def path_stats(w: pd.DataFrame) -> pd.DataFrame:
    """Per scenario (short_tcp, first, n_long, alpha) and group: mean and s.d. over seeds of
    the group rate."""
    g = w[w["what"] == "group"]
    return (
        g.groupby(["short_tcp", "first", "n_long", "alpha", "idx", "protocol"])["mbps"]
        .agg(mean="mean", sd=lambda s: float(s.std(ddof=1)) if len(s) > 1 else np.nan, n="size")
        .reset_index()
    )


#: suffix of the check values of Tables 2-3 under their sensitivity runs (one long-path flow)
ONE_LONG_CHECK = "one_long_flow"
#: the suffix of each table's check values under its experiment's sensitivity runs
SENSITIVITY_CHECK = {"table2": ONE_LONG_CHECK, "table3": ONE_LONG_CHECK, "exp2": "fast_alpha_100"}


def table_numbers(experiment: str, w: pd.DataFrame, runs: str = "primary") -> dict[str, float]:
    """Tables 1-4: (mean, s.d.) of every path, keys as config/originals/tang.yaml. Experiments
    1 and 2 report the FAST runs (the Vegas runs are in the tidy table and the figure); every
    table its primary runs, or (``runs="sensitivity"``) its labelled sensitivity runs, whose
    values are written as check values ``check.<key>.<SENSITIVITY_CHECK suffix>`` (Tables 2-3:
    the other reading of "long flow"; Table 4: FAST alpha 100), the checks of those rows'
    diagnoses."""
    pick = primary if runs == "primary" else sensitivity
    st = path_stats(pick(experiment, w))
    if experiment in ("exp1", "exp2"):
        st = st[st["short_tcp"] == "fast"]
    out: dict[str, float] = {}
    names = SCENARIOS[experiment]
    for _, r in st.iterrows():
        scen = names[r["first"]]
        if experiment in ("exp1", "exp2"):
            proto = "reno" if r["protocol"] in ("reno", "sack") else "fast"
            path = f"path{r['idx']}_{proto}"
        else:
            path = f"path{r['idx']}"
        out[f"{TABLE[experiment]}.{scen}.{path}.mean"] = r["mean"]
        out[f"{TABLE[experiment]}.{scen}.{path}.sd"] = r["sd"]
    return out


def _pick(w: pd.DataFrame, what: str, idx: int, **eq: object) -> pd.Series:
    m = (w["what"] == what) & (w["idx"] == idx)
    for k, v in eq.items():
        m &= w[k] == v
    return w[m]


def primary_summary(experiment: str, run_dirs: Sequence[Path]) -> dict:
    """The summary of the first primary run of an experiment."""
    for d in run_dirs:
        s = nsio.read_summary(d)
        if experiment not in SENSITIVITY:
            return s
        k, v = SENSITIVITY[experiment]
        if str(s["params"][k]) != str(v):
            return s
    raise ValueError(f"{experiment}: no primary run among the {len(run_dirs)} given")


def vegas_packets_per_flow(summary: dict) -> float:
    """Packets a path-1 Vegas flow of a run keeps queued: alpha, or alpha times the path's
    propagation RTT when alpha is per second (as tcl/tang/chain.tcl sets it)."""
    p = summary["params"]
    if p["alpha_unit"] == "per_second":
        return float(p["alpha"] * summary["results"]["prop_rtt_1"])
    return float(p["alpha"])


#: Sec 5.2 on Experiment 1's two states: with FAST first "link 2 queue remains nonzero while
#: link 1 (and hence link 3) queue remains empty"; with Reno first "the queue and throughput
#: behaviors are exactly opposite". The links (0-based) whose queues are not empty, per state.
TABLE1_QUEUED = {"fast_first": (1,), "reno_first": (0, 2)}
#: suffix of Table 1's check values: FAST's queueing delay at the published rate over the
#: largest the state's queued links can give
FAST_DELAY_CHECK = "fast_delay_over_buffer"


def fast_delay_over_buffer(
    rate_mbps: float,
    flows: int,
    alpha_pkts: float,
    pkt_size: float,
    queued: Sequence[tuple[float, float]],
) -> float:
    """FAST's equilibrium (Sec 2: a flow keeps alpha packets queued along its path, so its
    rate is x = alpha / q) read backwards: the queueing delay q = alpha / x that a path's
    ``flows`` flows must see to send ``rate_mbps`` together, over the largest queueing delay
    the path's queued links can give, each a full buffer drained at capacity (``queued``:
    (buffer packets, capacity b/s) per link). Above 1, no queue the stated buffers can hold
    gives that rate."""
    if rate_mbps <= 0 or flows < 1 or not queued:
        raise ValueError("a positive rate, at least one flow and one queued link are needed")
    x = rate_mbps * 1e6 / (8.0 * pkt_size) / flows  # packets/s per flow
    q_max = sum(buf * 8.0 * pkt_size / bw for buf, bw in queued)
    return (alpha_pkts / x) / q_max


def table1_fast_checks(params: Mapping[str, float], published: Mapping[str, float]) -> dict:
    """The check values of Table 1's FAST rows: for each state and FAST path (groups 1 and 2 of
    the fig1 chain, ``n_short`` flows each), :func:`fast_delay_over_buffer` of the published
    rate on the Experiment 1 network the runs simulate (alpha, buffers, capacities, packet
    size), over the path's links that Sec 5.2 says are queued in that state; and per state
    the smallest of its paths' values (``...fast_delay_over_buffer_min``)."""
    out: dict[str, float] = {}
    for state, links in TABLE1_QUEUED.items():
        vals = []
        for g in (0, 1):  # the FAST paths
            on = [i for i in ROUTES["fig1"][g] if i in links]
            queued = [(params[f"buf{i + 1}"], params[f"bw{i + 1}"]) for i in on]
            key = f"table1.{state}.path{g + 1}_fast.mean"
            v = fast_delay_over_buffer(
                published[key], int(params["n_short"]), params["alpha"], params["pkt_size"], queued
            )
            out[f"check.table1.{state}.path{g + 1}_fast.{FAST_DELAY_CHECK}"] = v
            vals.append(v)
        out[f"check.table1.{state}.{FAST_DELAY_CHECK}_min"] = min(vals)
    return out


#: suffix of the check values of the tables' s.d. rows: our coefficient of variation over the
#: published one (:func:`cv_ratio_checks`)
CV_CHECK = "cv_ratio"


def cv_ratio_checks(
    numbers: Mapping[str, float], published: Mapping[str, float]
) -> dict[str, float]:
    """For every s.d. row of ``numbers`` (``<table>.<order>.<path>.sd``) whose mean row is in
    both ``numbers`` and ``published``: our s.d. over our mean, divided by the published s.d.
    over the published mean, written as ``check.<row>.cv_ratio``. A path's spread over
    repetitions grows with its rate, so where our mean differs from the paper's the two
    spreads compare as coefficients of variation; below 1 ours is the smaller."""
    out: dict[str, float] = {}
    for key, sd in numbers.items():
        if key.startswith("check.") or not key.endswith(".sd") or key not in published:
            continue
        mean = key[: -len(".sd")] + ".mean"
        if mean not in numbers or mean not in published:
            continue
        ours, theirs = numbers[mean], published[mean]
        if not ours or not theirs or not published[key]:
            continue
        out[f"check.{key}.{CV_CHECK}"] = (sd / ours) / (published[key] / theirs)
    return out


#: Tables 2-3 (one protocol on every path): suffix of the path-3 mean rows' check values, the
#: end-to-end price the published rates give path 3 over the sum of paths 1 and 2's
PRICE_SUM_CHECK = "price_over_short_paths"
#: the protocol of every flow in Tables 2 (Reno) and 3 (FAST)
SINGLE_PROTOCOL = {"table2": "reno", "table3": "fast"}


def path_price(
    protocol: str, rate_mbps: float, flows: int, pkt_size: float, alpha: float, rtt: float
) -> float:
    """The end-to-end price a path's ``flows`` flows see at equilibrium when they send
    ``rate_mbps`` together (Sec 2.2): for Reno the loss probability of eq. (4),
    q = 2 / (2 + x^2 T^2) at per-flow rate x (packets/s) and round-trip time ``rtt``; for FAST
    the queueing delay of eq. (7), q = alpha / x (``alpha`` packets; ``rtt`` unused)."""
    if rate_mbps <= 0 or flows < 1:
        raise ValueError("a positive rate and at least one flow are needed")
    x = rate_mbps * 1e6 / (8.0 * pkt_size) / flows
    if protocol == "reno":
        return 2.0 / (2.0 + (x * rtt) ** 2)
    if protocol == "fast":
        return alpha / x
    raise ValueError(f"unknown protocol '{protocol}' (reno or fast)")


def price_over_short_paths(
    protocol: str,
    rates_mbps: Sequence[float],
    flows: Sequence[int],
    alphas: Sequence[float],
    rtts: Sequence[tuple[float, float]],
    pkt_size: float,
) -> float:
    """Paths 1, 2, 3 of the Fig 1 network (ROUTES["fig1"]): path 3 crosses links 1, 2 and 3,
    paths 1 and 2 links {1, 2} and {2, 3}, so with prices summed along a path (eqs. 1-2) and
    no link price negative, path 3's price is at most the sum of paths 1 and 2's. Returns
    path 3's price over that sum at the given path rates (:func:`path_price`; ``rtts``:
    (smallest, largest) round-trip time of each path, taken where it makes the ratio least:
    the largest for path 3, the smallest for paths 1 and 2). Above 1, no equilibrium of the
    model gives these rates, whatever the link prices."""
    r = ROUTES["fig1"]
    if not set(r[2]) <= set(r[0]) | set(r[1]):
        raise ValueError("path 3 does not lie within paths 1 and 2")
    least = [rtts[0][0], rtts[1][0], rtts[2][1]]
    q = [
        path_price(protocol, rates_mbps[g], flows[g], pkt_size, alphas[g], least[g])
        for g in range(3)
    ]
    return q[2] / (q[0] + q[1])


def single_protocol_checks(
    experiment: str, summary: Mapping, published: Mapping[str, float]
) -> dict[str, float]:
    """The check values of Tables 2-3's path-3 mean rows: :func:`price_over_short_paths` of
    the published path rates, per start order, on the network a primary run of ``experiment``
    simulates (``summary``: its flows per path, alphas, buffers, capacities, packet size and
    propagation round-trip times; a path's largest round-trip time adds its links' full
    buffers drained at capacity). ``..._one_long_flow``: the same with one path-3 flow."""
    p, res = summary["params"], summary["results"]
    proto = SINGLE_PROTOCOL[experiment]
    table = TABLE[experiment]
    size = float(p["pkt_size"])
    rtts = []
    for g, route in enumerate(ROUTES["fig1"]):
        prop = float(res[f"prop_rtt_{g + 1}"])
        full = sum(p[f"buf{i + 1}"] * 8.0 * size / p[f"bw{i + 1}"] for i in route)
        rtts.append((prop, prop + full))
    alphas = [float(p["alpha"]), float(p["alpha"]), float(p["alpha_long"])]
    out: dict[str, float] = {}
    for scen in SCENARIOS[experiment].values():
        rates = [published[f"{table}.{scen}.path{g}.mean"] for g in (1, 2, 3)]
        for suffix, n_long in (("", int(p["n_long"])), (f"_{ONE_LONG_CHECK}", 1)):
            flows = [int(p["n_short"]), int(p["n_short"]), n_long]
            v = price_over_short_paths(proto, rates, flows, alphas, rtts, size)
            out[f"check.{table}.{scen}.path3.mean.{PRICE_SUM_CHECK}{suffix}"] = v
    return out


#: Figure 10's published row (Sec 6.1 Experiment 4: "the utilization at link 2 is close to 95%
#: when K1 = 5000", Reno first) and the suffix of its check value
FIG10_ROW = "fig10.reno_first.link2_util_at_k1_5000"
BEYOND_MODEL_CHECK = "beyond_model"


def beyond_model(ours: float, model: float, published: float) -> float:
    """How far ``ours`` departs from the model's value in the direction of the published one, as
    a fraction of the published departure: 0 at the model, 1 at the published value, negative
    on the model's other side, above 1 beyond the published value."""
    if published == model:
        raise ValueError("the published value is the model's: no departure to compare")
    return (ours - model) / (published - model)


def analyse(
    experiment: str, run_dirs: Sequence[Path], published: Mapping[str, float] | None = None
) -> tuple[pd.DataFrame, dict[str, float]]:
    """Window table (tidy) and regenerated numbers of one experiment; ``published`` (the
    paper's numbers by key) adds the checks computed from them (Experiment 1)."""
    w = window_table(run_dirs)
    numbers: dict[str, float] = {}
    s0 = nsio.read_summary(run_dirs[0])
    p0 = s0["params"]
    pw = primary(experiment, w)
    if experiment in TABLE:
        numbers.update(table_numbers(experiment, w))
        if experiment in SENSITIVITY_CHECK:
            alt = table_numbers(experiment, w, "sensitivity")
            suffix = SENSITIVITY_CHECK[experiment]
            numbers.update({f"check.{k}.{suffix}": v for k, v in alt.items()})
        if experiment == "exp1":
            numbers["exp1.repetitions"] = float(w["seed"].nunique())
            if published is not None:
                numbers.update(table1_fast_checks(p0, published))
        if published is not None:
            numbers.update(cv_ratio_checks(numbers, published))
        if experiment in SINGLE_PROTOCOL and published is not None:
            numbers.update(
                single_protocol_checks(experiment, primary_summary(experiment, run_dirs), published)
            )
    elif experiment == "fig09":
        u = _pick(pw, "link", 1, first="short", k2=600)["util"]
        numbers["fig9.vegas_first.link1_util_at_k2_600"] = float(u.mean()) if len(u) else np.nan
        numbers["fig9.k2_max_exhibited"] = float(w["k2"].max())
        # alpha d: the packets every Vegas flow of the primary runs keeps queued (Sec 6.1)
        numbers["exp3.vegas_packets_per_flow"] = vegas_packets_per_flow(
            primary_summary(experiment, run_dirs)
        )
        numbers["exp3.vegas_alpha"] = p0["alpha"]
        numbers["link.100mbps_pkts_per_ms"] = p0["bw1"] / (8.0 * p0["pkt_size"]) / 1e3
        numbers["link.150mbps_pkts_per_ms"] = p0["bw2"] / (8.0 * p0["pkt_size"]) / 1e3
    elif experiment == "fig10":
        u = _pick(pw, "link", 2, first="long", k13=5000)["util"]
        ours = float(u.mean()) if len(u) else np.nan
        numbers[FIG10_ROW] = ours
        if published is not None and FIG10_ROW in published and len(u):
            unit = primary_summary(experiment, run_dirs)["params"]["alpha_unit"]
            th = fig1_theory("fig10", np.array([5000.0]), unit, False)
            model = float(th[th["first"] == "long"]["util2"].iloc[0])
            numbers[f"check.{FIG10_ROW}.{BEYOND_MODEL_CHECK}"] = beyond_model(
                ours, model, published[FIG10_ROW]
            )
    elif experiment == "fig11":
        numbers["fig11.duration"] = float(p0["duration"])
    elif experiment != "fig12" and experiment not in {**EXTENSIONS, **SHIFT_EXTENSIONS}:
        raise ValueError(f"unknown Tang experiment '{experiment}'")
    return w, numbers


# ---------------------------------------------------------------------------------------------
# theory
# ---------------------------------------------------------------------------------------------

FIG9_GRID = np.arange(10.0, 601.0, 10.0)
FIG10_GRID = np.arange(5000.0, 11001.0, 250.0)
BRANCH_FIRST = {"reno_first": "long", "vegas_first": "short"}


def fig1_setup(alpha_unit: str, queueing: bool) -> Fig1Setup:
    return Fig1Setup(alpha_unit=alpha_unit, reno_rtt_includes_queueing=queueing)  # type: ignore[arg-type]


def fig1_theory(figure: str, values: np.ndarray, alpha_unit: str, queueing: bool) -> pd.DataFrame:
    """Fig 9 (K2 sweep, K1 = 10000) or Fig 10 (K1 sweep, K2 = 100) model curves, both branches:
    Reno Mbps and utilisation of links 1 and 2, feasible = an equilibrium (Rx <= c)."""
    s = fig1_setup(alpha_unit, queueing)
    c = fig9_curves(values, setup=s) if figure == "fig09" else fig10_curves(values, setup=s)
    rows = []
    for branch in ("reno_first", "vegas_first"):
        b = getattr(c, branch)
        for i, v in enumerate(c.values):
            rows.append(
                {
                    "x": float(v),
                    "alpha_unit": alpha_unit,
                    "queueing": queueing,
                    "first": BRANCH_FIRST[branch],
                    "reno_mbps": b.reno_mbps[i],
                    "util1": b.utilisation[i, 0],
                    "util2": b.utilisation[i, 1],
                    "feasible": bool(b.feasible[i]),
                }
            )
    return pd.DataFrame(rows)


def theory_for_runs(figure: str, w: pd.DataFrame) -> pd.DataFrame:
    """Model curves (fine grid and at the simulated points) for every alpha unit simulated."""
    grid = FIG9_GRID if figure == "fig09" else FIG10_GRID
    col = "k2" if figure == "fig09" else "k13"
    xs = np.union1d(grid, w[col].unique().astype(float))
    frames = [
        fig1_theory(figure, xs, u, q)
        for u in sorted(w["alpha_unit"].unique())
        for q in (False, True)
    ]
    return pd.concat(frames, ignore_index=True)


def dummynet_pf_prediction() -> np.ndarray:
    """Our own computation for Table 3 (Sec 5.2): weighted proportional fairness (Prop 2, eq. 15,
    with every link at capacity) of the all-FAST Experiment 1 network, path aggregates in Mbps."""
    c = mbps_to_pkts(np.array([110.0, 150.0, 110.0]))
    price = RedPrice(0.0, 1.0, 1.0)
    links = tuple(Link(float(x), price, d) for x, d in zip(c, (0.05, 0.01, 0.05), strict=True))
    flows = (
        Flow("fast", (0, 1), 2, None, 50.0),
        Flow("fast", (1, 2), 2, None, 50.0),
        Flow("fast", (0, 1, 2), 8, None, 30.0),
    )
    net = Network(links, flows)
    rates = prop2_vegas_rates(net, c) * net.counts
    return np.asarray(pkts_to_mbps(rates))


def theory_numbers() -> dict[str, float]:
    """Model values the paper does not print, our own computation (``derived.*`` in
    config/originals/tang.yaml), and Prop 1's linear-map ratio."""
    out: dict[str, float] = {}
    i = fig1_theory("fig09", np.array([10.0, 600.0]), "per_second", True)
    out["derived.exp3.readingi.a.reno_mbps"] = float(
        i[(i["first"] == "long") & (i["x"] == 10.0)]["reno_mbps"].iloc[0]
    )
    out["derived.exp3.readingi.b.reno_mbps.k2_10"] = float(
        i[(i["first"] == "short") & (i["x"] == 10.0)]["reno_mbps"].iloc[0]
    )
    ii = fig1_theory("fig09", np.array([600.0]), "packets", False)
    b = ii[ii["first"] == "short"].iloc[0]
    out["derived.exp3.readingii.b.reno_mbps.k2_600"] = float(b["reno_mbps"])
    out["derived.exp3.readingii.b.link1_util.k2_600"] = float(b["util1"])
    pf = dummynet_pf_prediction()
    for k in range(3):
        out[f"derived.table3.weighted_pf_prediction.path{k + 1}"] = float(pf[k])
    s = Fig1Setup()
    c1 = float(mbps_to_pkts(s.c1_mbps))
    c2 = float(mbps_to_pkts(s.c2_mbps))
    chk = prop1_condition(
        c1,
        c2,
        LinearPrice(1e-4),
        LinearPrice(1e-4),
        vegas_alpha=s.vegas_per_path * 50.0,
        reno_flows=s.reno_flows,
        reno_rtt=0.21,
    )
    out["prop1.k2_over_k1_min"] = float(chk.k2_min / chk.k1_max)
    return out


def theory() -> tuple[pd.DataFrame, dict[str, float]]:
    """The model-only outputs: the numbers above and, as tidy, every equilibrium of the Fig 9
    network at a few K2 (showing the third, all-links-saturated one where two exist)."""
    rows = []
    for unit, q in (("packets", False), ("per_second", True)):
        for k2 in (10.0, 100.0, 300.0, 600.0):
            net = fig1_setup(unit, q).network(10000.0, k2)
            for j, eq in enumerate(find_equilibria(net)):
                rows.append(
                    {
                        "alpha_unit": unit,
                        "queueing": q,
                        "k2": k2,
                        "equilibrium": j,
                        "saturated": "+".join(str(s + 1) for s in eq.saturated),
                        "reno_mbps": float(pkts_to_mbps(eq.throughput("reno"))),
                        "util1": float(eq.utilisation[0]),
                        "util2": float(eq.utilisation[1]),
                    }
                )
    return pd.DataFrame(rows), theory_numbers()


# ---------------------------------------------------------------------------------------------
# claims
# ---------------------------------------------------------------------------------------------


def order_distance(w: pd.DataFrame, short_tcp: str | None = None) -> tuple[float, str]:
    """D = sum over paths |mean(first=short) - mean(first=long)| / mean total rate: 0 = the same
    equilibrium whatever starts first. Returns D and a per-path text."""
    st = path_stats(w)
    if short_tcp is not None:
        st = st[st["short_tcp"] == short_tcp]
    a = st[st["first"] == "short"].set_index("idx")["mean"]
    b = st[st["first"] == "long"].set_index("idx")["mean"]
    diff = (a - b).abs()
    d = float(diff.sum() / ((a.sum() + b.sum()) / 2.0))
    txt = ", ".join(f"path {i}: {a[i]:.1f} vs {b[i]:.1f}" for i in a.index)
    return d, txt


def _separated(w: pd.DataFrame, short_tcp: str) -> tuple[bool, str]:
    st = path_stats(w)
    st = st[st["short_tcp"] == short_tcp]
    a = st[st["first"] == "short"].set_index("idx")
    b = st[st["first"] == "long"].set_index("idx")
    sd = np.fmax(a["sd"].fillna(0), b["sd"].fillna(0))
    gap = (a["mean"] - b["mean"]).abs()
    ok = bool((gap > 3 * sd).all())
    return ok, ", ".join(
        f"|diff| {g:.1f} vs 3 s.d. {3 * s:.1f}" for g, s in zip(gap, sd, strict=True)
    )


#: Figure 11's criterion: both states visited (time fraction of the link-1 state) and switches.
SHIFT_FRACTION = (0.1, 0.9)
SHIFT_MIN_SWITCHES = 2


def shifting(tr: pd.DataFrame) -> tuple[float, int]:
    """(fraction of the time in the links-1-and-3 state, number of state switches) of an
    Experiment 5 trace, after its first 10 %. The state at a sample: which link's queue (EWMA)
    is further up its own RED ramp (b_min .. b_max), link 1 or link 2."""
    tr = tr[tr["kind"] == "queue"]
    a = tr[tr["link"] == 1].set_index("t")["q_ewma"]
    b = tr[tr["link"] == 2].set_index("t")["q_ewma"]
    r = tr.iloc[0]
    up1 = (a - r["bmin13"]).clip(lower=0) / (r["bmax13"] - r["bmin13"])
    up2 = (b - r["bmin2"]).clip(lower=0) / (r["bmax2"] - r["bmin2"])
    state = (up1 > up2).astype(int)
    state = state[state.index >= 0.1 * state.index.max()]
    frac = float(state.mean()) if len(state) else float("nan")
    return frac, int((state.diff().abs() > 0).sum())


def second_half_utilisation(tr: pd.DataFrame, link: int) -> float:
    """Mean utilisation of link 1 or 2 over the second half of a trace (its throughput bins
    over the link's rate)."""
    d = tr[(tr["kind"] == "throughput") & (tr["link"] == link)]
    d = d[d["t"] > d["t"].max() / 2]
    return float(d["mbps"].mean() * 1e6 / d[f"bw{link}"].iloc[0])


ONE_EQ_D = 0.3  # order distance below which the equilibrium counts as unique

#: A link is saturated when it carries at least this fraction of its capacity over the
#: window. The paper calls a link at "more than 95 %" not yet saturated (Sec 6.1, Exp 3) and
#: one "close to 95 %" close to switching (Exp 4); in the model a saturated link runs at 1.
SAT_UTIL = 0.97
#: The Figure 1 network's two equilibria as saturated links (Sec 5.2, 6.1): delay-based flows
#: first saturate link 2 only, loss-based flows first links 1 and 3 only.
FIG1_STATES: dict[str, tuple[int, ...]] = {"short": (2,), "long": (1, 3)}
#: Figure 9's "flat": Reno throughput's (max - min) / mean over K2 at most this; "rises": its
#: change from the smallest to the largest K2, over its mean, more than this.
FLAT_REL = 0.1
#: Figure 13: mean |measured - predicted| / predicted Vegas group rate at most this.
PROP2_REL = 0.15


def saturation(w: pd.DataFrame) -> pd.DataFrame:
    """Per run (the KEYS parameters and seed): ``saturated``, the tuple of links with window
    utilisation >= SAT_UTIL, and ``utils``, the utilisations of links 1, 2, 3 as text."""
    lk = w[w["what"] == "link"]
    keys = [k for k in (*KEYS, "seed") if k in lk.columns]
    rows = []
    for vals, d in lk.groupby(keys, dropna=False, sort=True):
        u = d.set_index("idx")["util"].sort_index()
        rows.append(
            {
                **dict(zip(keys, vals, strict=True)),
                "saturated": tuple(int(i) for i in u.index[u >= SAT_UTIL]),
                "utils": "/".join(f"{x:.2f}" for x in u),
            }
        )
    return pd.DataFrame(rows, columns=[*keys, "saturated", "utils"])


def _links_text(sat: tuple[int, ...]) -> str:
    if not sat:
        return "none"
    return ("link " if len(sat) == 1 else "links ") + "+".join(str(i) for i in sat)


def states_check(
    w: pd.DataFrame, states: dict[str, tuple[int, ...]], label: str = ""
) -> tuple[bool, str]:
    """Does every run of each start order (``first``) saturate exactly the links ``states``
    names for it? A run with no saturated link is an agent that stalls: the check fails and
    says so. Returns (holds, text with every run's saturated links and utilisations)."""
    s = saturation(w)
    ok = True
    parts = []
    stalled = []
    for first, want in states.items():
        d = s[s["first"] == first]
        if d.empty:
            ok = False
            parts.append(f"{first} first: no runs")
            continue
        got = [tuple(x) for x in d["saturated"]]
        ok &= all(g == tuple(want) for g in got)
        if any(not g for g in got):
            stalled.append(f"{first} first")
        runs = "; ".join(f"{_links_text(g)} ({u})" for g, u in zip(got, d["utils"], strict=True))
        parts.append(f"{first} first, want {_links_text(tuple(want))}: {runs}")
    text = (f"{label}: " if label else "") + " | ".join(parts)
    if stalled:
        text += (
            f" -- STALLS: no link saturated (utilisation >= {SAT_UTIL}) in the "
            + " and ".join(stalled)
            + " runs"
        )
    return bool(ok), text


def same_state_check(w: pd.DataFrame, label: str = "") -> tuple[bool, str]:
    """Unique equilibrium: every run of both start orders saturates the same, non-empty set of
    links (an empty set is an agent that stalls). Returns (holds, text)."""
    s = saturation(w)
    got = {tuple(x) for x in s["saturated"]}
    ok = len(got) == 1 and () not in got
    runs = "; ".join(
        f"{f} first: {_links_text(tuple(g))} ({u})"
        for f, g, u in zip(s["first"], s["saturated"], s["utils"], strict=True)
    )
    text = (f"{label}: " if label else "") + runs
    if () in got:
        text += f" -- STALLS: no link saturated (utilisation >= {SAT_UTIL}) in some runs"
    return bool(ok), text


def sweep_states_check(w: pd.DataFrame, col: str, label: str) -> tuple[bool, str]:
    """Figures 9-10: the two equilibria (FIG1_STATES) at every simulated value of ``col``."""
    ok = True
    parts = []
    for x, d in w.groupby(col):
        h, t = states_check(d, FIG1_STATES)
        ok &= h
        parts.append(f"{col} = {x:g}: {t}")
    return bool(ok) and bool(parts), f"{label}: " + "; ".join(parts)


def _window_traces(tr: pd.DataFrame, first: str, link: int, col: str) -> float:
    d = tr[(tr["first"] == first) & (tr["link"] == link)]
    d = d[d["t"] >= d["t"].max() / 2]  # second half of the run
    return float(d[col].mean())


def _model_at(th: pd.DataFrame, first: str, x: float) -> str:
    """The constant-T model's equilibrium of one start order at one K, as text."""
    t = th[(th["first"] == first) & (th["x"] == float(x)) & ~th["queueing"].astype(bool)]
    if t.empty or not bool(t["feasible"].iloc[0]):
        return "no equilibrium"
    r = t.iloc[0]
    return f"Reno {r['reno_mbps']:.1f} Mb/s, link utilisations {r['util1']:.2f}/{r['util2']:.2f}"


def claims(
    tidy: dict[str, pd.DataFrame],
) -> tuple[dict[str, bool], dict[str, tuple[bool, str]]]:
    """The paper's claims, each checked by a stated criterion on the regenerated results."""
    out: dict[str, tuple[bool, str]] = {}
    if "exp1" in tidy:
        w = tidy["exp1"]
        parts = []
        holds = False
        for tcp in sorted(w["short_tcp"].unique()):
            st_ok, st_txt = states_check(w[w["short_tcp"] == tcp], FIG1_STATES, tcp)
            sep, stxt = _separated(w, tcp)
            d, txt = order_distance(w, tcp)
            if tcp == "fast":
                holds = st_ok and (sep or w["seed"].nunique() < 2)
            parts.append(f"{st_txt}; D = {d:.2f} ({txt}; {stxt})")
        for ext, what in EXTENSIONS.items():
            if ext not in tidy:
                continue
            for tcp in sorted(tidy[ext]["short_tcp"].unique()):
                e = tidy[ext][tidy[ext]["short_tcp"] == tcp]
                parts.append("extension, " + states_check(e, FIG1_STATES, f"{what}, {tcp}")[1])
        out["table1.two_equilibria"] = (
            holds,
            f"FAST runs: every FAST-first run saturates link 2 only and every Reno-first run "
            f"links 1 and 3 only (saturated: window utilisation >= {SAT_UTIL}), and every "
            "path's gap between the orders > 3 s.d.; " + " || ".join(parts),
        )
    if "exp1_traces" in tidy:
        tr = tidy["exp1_traces"]
        tr = tr[tr["short_tcp"] == "fast"]
        q_tr = tr[tr["kind"] == "queue"]
        if len(q_tr):
            q = {
                (f, link): _window_traces(q_tr, f, link, "qlen")
                for f in ("short", "long")
                for link in (1, 2)
            }
            u2 = second_half_utilisation(tr[tr["first"] == "short"], 2)
            u1 = second_half_utilisation(tr[tr["first"] == "long"], 1)
            ok = (
                q[("short", 2)] > q[("short", 1)]
                and q[("long", 1)] > q[("long", 2)]
                and u2 >= SAT_UTIL
                and u1 >= SAT_UTIL
            )
            out["figs3_4.queues_opposite"] = (
                ok,
                "second half of the FAST traces: FAST first, link-2 queue > link-1 queue "
                f"({q[('short', 2)]:.0f} vs {q[('short', 1)]:.0f} pkts) and link 2 near "
                f"capacity (utilisation {u2:.2f} >= {SAT_UTIL}); Reno first, link-1 queue > "
                f"link-2 queue ({q[('long', 1)]:.0f} vs {q[('long', 2)]:.0f} pkts) and link 1 "
                f"near capacity ({u1:.2f} >= {SAT_UTIL})",
            )
    if {"table2", "table3"} <= tidy.keys():
        ok = True
        parts = []
        for exp, what in (("table2", "all Reno"), ("table3", "all FAST")):
            pw = primary(exp, tidy[exp])
            d, t = order_distance(pw)
            s_ok, s_txt = same_state_check(pw, "saturated links")
            ok &= d <= ONE_EQ_D and s_ok
            sw = sensitivity(exp, tidy[exp])
            sens = ""
            if len(sw):
                ds, _ = order_distance(sw)
                sens = f"; {sensitivity_label(exp)}: D = {ds:.2f}, " + same_state_check(sw)[1]
            parts.append(f"{what}: D = {d:.2f} ({t}); {s_txt}{sens}")
        out["tables2_3.unique_single_protocol"] = (
            ok,
            f"primary runs (the Experiment 1 set-up): order distance D <= {ONE_EQ_D} (Mbps, "
            "short-first vs long-first) and the same non-empty set of saturated links "
            f"(utilisation >= {SAT_UTIL}) in every run; " + " || ".join(parts),
        )
    if "exp2" in tidy:
        w = primary("exp2", tidy["exp2"])
        parts = []
        holds = False
        for tcp in sorted(w["short_tcp"].unique()):
            wt = w[w["short_tcp"] == tcp]
            d, txt = order_distance(w, tcp)
            s_ok, s_txt = same_state_check(wt, "saturated links")
            if tcp == "fast":
                holds = d <= ONE_EQ_D and s_ok
            parts.append(f"{tcp}: D = {d:.2f} ({txt}); {s_txt}")
        out["table4.unique_equilibrium"] = (
            holds,
            f"FAST runs: order distance D <= {ONE_EQ_D} and the same non-empty set of saturated "
            f"links (utilisation >= {SAT_UTIL}) in every run; " + " || ".join(parts),
        )
    for fig, col in (("fig09", "k2"), ("fig10", "k13")):
        if fig not in tidy:
            continue
        name = "fig9" if fig == "fig09" else "fig10"
        readings = [("primary", primary(fig, tidy[fig]))]
        if len(sensitivity(fig, tidy[fig])):
            readings.append((sensitivity_label(fig), sensitivity(fig, tidy[fig])))
        checks = [sweep_states_check(rw, col, lab) for lab, rw in readings]
        out[f"{name}.two_equilibria"] = (
            checks[0][0],
            "primary runs (alpha d = 5.5 packets per flow, as stated): at every simulated "
            f"{col} the Reno-first runs saturate links 1 and 3 only and the Vegas-first runs "
            f"link 2 only (saturated: utilisation >= {SAT_UTIL}); "
            + " || ".join(t for _, t in checks),
        )
        if f"{fig}_theory" not in tidy:
            continue
        w = primary(fig, tidy[fig])
        reno = w[(w["what"] == "group") & (w["protocol"].isin(["reno", "sack"]))]
        m = reno.groupby(["first", col])["mbps"].mean()
        th = primary(fig, tidy[f"{fig}_theory"])
        th = th[~th["queueing"].astype(bool)]
        rf, vf = m.get("long"), m.get("short")
        if fig == "fig09":
            flat = float((rf.max() - rf.min()) / rf.mean())
            rises = float((vf.iloc[-1] - vf.iloc[0]) / vf.mean())
            out["fig9.reno_first_flat"] = (
                flat <= FLAT_REL and rises > FLAT_REL,
                f"primary runs: Reno first, (max - min)/mean of Reno throughput over K2 <= "
                f"{FLAT_REL}: {flat:.2f}; Vegas first, (Reno throughput at the largest minus "
                f"at the smallest K2)/mean > {FLAT_REL}: {rises:+.2f}",
            )
            errs = []
            for (first, x), v in m.items():
                t = th[(th["first"] == first) & (th["x"] == float(x)) & th["feasible"].astype(bool)]
                if len(t):
                    errs.append(abs(v - t["reno_mbps"].iloc[0]) / t["reno_mbps"].iloc[0])
            e = float(np.mean(errs)) if errs else float("nan")
            out["fig9.theory_matches"] = (
                bool(errs) and e <= 0.15,
                f"primary runs: mean |simulated - model| / model Reno throughput <= 0.15 over "
                f"the {len(errs)} (order, K2) points with a model equilibrium (constant T): "
                f"{e:.2f}",
            )
        else:
            flat = float((vf.max() - vf.min()) / vf.mean())
            dep = float((rf.iloc[-1] - rf.iloc[0]) / rf.mean())
            out["fig10.vegas_first_independent_of_k1"] = (
                flat <= FLAT_REL and abs(dep) > FLAT_REL,
                f"primary runs: Vegas first, (max - min)/mean of Reno throughput over K1 <= "
                f"{FLAT_REL}: {flat:.2f}; Reno first, relative change from the smallest to the "
                f"largest K1 > {FLAT_REL}: {dep:+.2f}",
            )
            above = []
            for x, v in rf.items():
                t = th[
                    (th["first"] == "long") & (th["x"] == float(x)) & th["feasible"].astype(bool)
                ]
                if len(t):
                    above.append(t["reno_mbps"].iloc[0] > v)
            k0 = float(rf.index.min())
            models_k0 = "; ".join(
                f"{lab}: {_model_at(tw[~tw['queueing'].astype(bool)], 'long', k0)}"
                for lab, tw in (
                    ("primary", primary(fig, tidy[f"{fig}_theory"])),
                    (
                        sensitivity_label(fig),
                        sensitivity(fig, tidy[f"{fig}_theory"]),
                    ),
                )
                if len(tw)
            )
            out["fig10.theory_vs_data_reno_first"] = (
                bool(above) and sum(above) > len(above) / 2,
                f"primary runs: Reno first, model Reno throughput above the simulated at most K1 "
                f"with a model equilibrium: {sum(above)} of {len(above)}; the constant-T model's "
                f"Reno-first equilibrium at K1 = {k0:g}: {models_k0}",
            )
    if "fig11_traces" in tidy:
        frac, switches = shifting(tidy["fig11_traces"])
        extra = "".join(
            "; extension, {}: fraction {:.2f}, {} switches".format(
                what, *shifting(tidy[f"{e}_traces"])
            )
            for e, what in SHIFT_EXTENSIONS.items()
            if f"{e}_traces" in tidy
        )
        out["fig11.shifting_equilibria"] = (
            SHIFT_FRACTION[0] <= frac <= SHIFT_FRACTION[1] and switches >= SHIFT_MIN_SWITCHES,
            "after the first 10 % of the run the link-1 queue leads the link-2 queue (each "
            f"scaled by its RED ramp) for a fraction in {list(SHIFT_FRACTION)} of the time, with "
            f">= {SHIFT_MIN_SWITCHES} switches: fraction {frac:.2f}, {switches} switches{extra}",
        )
    if "fig12" in tidy:
        f13, f14 = fig12_comparison(tidy["fig12"])
        e13 = float(np.mean(np.abs(f13["measured"] - f13["prop2"]) / f13["prop2"]))
        out["fig13.prop2_agreement"] = (
            bool(np.isfinite(e13)) and e13 <= PROP2_REL,
            "mean |measured - Prop 2| / Prop 2 over the Vegas groups and alpha2 <= "
            f"{PROP2_REL}, Prop 2's rates from its optimality condition with the measured "
            "prices: alpha_i / (sum of the mean queueing delays on the path), times the group's "
            f"flows: {e13:.3f}",
        )
        e14 = float(np.nanmean(np.abs(f14["measured"] - f14["model"]) / f14["model"]))
        out["fig14.prop3_agreement"] = (
            e14 <= 0.2,
            "mean |measured - model| / model link-2 throughput of Vegas and Reno over alpha2 "
            f"<= 0.2: {e14:.3f}",
        )
    out.update(model_claims())
    return {}, out


def model_claims() -> dict[str, tuple[bool, str]]:
    """Claims about the model, checked on the model (analysis/models/tang/)."""
    out: dict[str, tuple[bool, str]] = {}
    eqs = find_equilibria(fig1_setup("packets", False).network(3500.0, 500.0))
    sets = sorted("+".join(str(s + 1) for s in e.saturated) for e in eqs)
    out["prop1.two_equilibria"] = (
        {"1+3", "2"} <= set(sets),
        "the Fig 1 network of Exp 5 (K1 = 3500, K2 = 500, reading II, constant T) has "
        f"equilibria with saturated links {{1, 3}} and {{2}}: found {sets} (the all-links one "
        "is the presumably unstable third)",
    )
    c = theory_numbers()["prop1.k2_over_k1_min"]
    out["prop1.linear_maps"] = (
        abs(c - 2.0) < 1e-9,
        f"k2 lower bound / k1 upper bound of the linear-map condition = {c:.6f} (2 expected)",
    )
    pf = dummynet_pf_prediction()
    c13 = fig13_curves([4.0, 8.0, 12.0, 16.0, 20.0])
    gap = float(np.nanmax(np.abs(c13.prop2 - c13.model) / c13.model))
    out["prop2.intra_protocol"] = (
        gap < 1e-6,
        "Fig 12 network, alpha2 = 4..20: Vegas group rates of the full equilibrium vs Prop 2 on "
        f"their own per-link load: max rel. gap {gap:.1e} (all-FAST Dummynet weighted-PF "
        f"prediction {pf.round(1).tolist()} Mbps)",
    )
    net = Fig12Setup(reno_rtt_includes_queueing=False).network(10.0)
    eq = find_equilibria(net)[0]
    vegas = ~net.is_reno
    target = eq.rate[vegas]
    a = prop3_alpha(net, target)
    got = net.alpha_packets[vegas]
    gap3 = float(np.max(np.abs(a - got) / got))
    out["prop3.inter_protocol"] = (
        gap3 < 1e-4,
        "Fig 12 network (alpha2 = 10, constant T): Prop 3's alpha for the equilibrium's own Vegas "
        f"rates returns the alpha used: max rel. "
        f"gap {gap3:.1e}",
    )
    return out


def fig12_comparison(w: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Figs 13-14: measured Vegas group rates (pkts/s, mean over seeds) vs Prop 2, and link-2
    Vegas/Reno throughput vs the full model.

    Prop 2's rates solve (15); they are the measured ones exactly when the measured prices
    (each link's queueing delay, mean queue over capacity) satisfy its optimality condition
    alpha_i / x_i = sum_l R_li p_l (proof of Prop 2). So the prediction of a group of n flows
    is n alpha_i / (sum of the measured queueing delays on its path): it can differ from the
    measured rate (NaN without queue samples)."""
    g = w[w["what"] == "group"].groupby(["alpha", "idx"])["pkts"].mean().unstack()
    lk = w[w["what"] == "link"].groupby(["alpha", "idx"])["qmean"].mean().unstack()
    r13, r14 = [], []
    setup = Fig12Setup()
    for a2, row in g.iterrows():
        net = setup.network(float(a2))
        vegas = ~net.is_reno
        x = row.to_numpy()
        delay = lk.loc[a2].to_numpy() / net.capacity
        path_delay = net.routing[:, vegas].T @ delay
        with np.errstate(divide="ignore", invalid="ignore"):
            p2 = net.counts[vegas] * net.alpha_packets[vegas] / path_delay
        p2 = np.where(path_delay > 0, p2, np.nan)
        for k in range(3):
            r13.append({"alpha": a2, "group": k + 1, "measured": x[k], "prop2": p2[k]})
        eqs = find_equilibria(net)
        mv = float(np.sum(x[vegas][net.routing[1, vegas].astype(bool)]))
        mr = float(np.sum(x[~vegas][net.routing[1, ~vegas].astype(bool)]))
        if eqs:
            r14.append(
                {
                    "alpha": a2,
                    "who": "vegas",
                    "measured": mv,
                    "model": eqs[0].throughput("vegas", 1),
                }
            )
            r14.append(
                {"alpha": a2, "who": "reno", "measured": mr, "model": eqs[0].throughput("reno", 1)}
            )
    return pd.DataFrame(r13), pd.DataFrame(r14)


#: Experiments of the analysis step (``python -m analysis.tang EXP``).
EXPERIMENTS = (*TABLE, "fig09", "fig10", "fig11", "fig12", *EXTENSIONS, *SHIFT_EXTENSIONS)
#: The further tables (in the step's ``extra/`` folder) the claims read, per experiment.
CLAIMS_EXTRA = {
    "exp1": ("traces",),
    "fig11": ("traces",),
    **{e: ("traces",) for e in SHIFT_EXTENSIONS},
    "fig09": ("theory",),
    "fig10": ("theory",),
}


def claims_tables(tidy_paths: Sequence[Path]) -> dict[str, pd.DataFrame]:
    """The tables the claims read: each experiment's tidy table, named by its path
    (results/tang/<experiment>/<fidelity>/tidy.csv), and as ``<experiment>_<table>`` the
    further tables of :data:`CLAIMS_EXTRA` from the ``extra/`` folder next to it."""
    tables = {}
    for p in tidy_paths:
        name = p.parent.parent.name
        tables[name] = pd.read_csv(p)
        for kind in CLAIMS_EXTRA.get(name, ()):
            tables[f"{name}_{kind}"] = pd.read_csv(p.parent / "extra" / f"{kind}.csv")
    return tables


def main(argv: Sequence[str] | None = None) -> int:
    ap = analysis_parser(
        "python -m analysis.tang", "Tang et al. 2005 analysis", [*EXPERIMENTS, "theory", "claims"]
    )
    a = parse(ap, argv)
    need(ap, a, "--tidy", "--numbers", "--extra")
    numbers: dict[str, float | bool]
    if a.step == "theory":
        extra_dir(ap, a)
        tidy, nums = theory()
        numbers = dict(nums)
    elif a.step == "claims":
        need(ap, a, "--inputs", "--claims")
        extra_dir(ap, a)
        bools, checks = claims(claims_tables(a.inputs))
        tidy, numbers = pd.DataFrame({"key": sorted(checks)}), dict(bools)
        write_claims(checks, a.claims)
    else:
        need(ap, a, "--runs")
        dirs = run_dirs(a.runs)
        extra = extra_dir(ap, a)
        pub = {p.key: p.published for p in load_originals(a.originals)} if a.originals else None
        tidy, nums = analyse(a.step, dirs, pub)
        numbers = dict(nums)
        write_tidy(traces(dirs), extra / "traces.csv")
        th = (
            theory_for_runs(a.step, tidy)
            if a.step in ("fig09", "fig10")
            else pd.DataFrame(columns=["x"])
        )
        write_tidy(th, extra / "theory.csv")
    write_tidy(tidy, a.tidy)
    write_numbers(numbers, a.numbers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
