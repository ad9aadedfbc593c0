"""Misra, Baras, Ott: run folders -> the tidy table and regenerated numbers of one figure.

Figures 1-5 and ``ext01``: every simulated flow next to the fixed point of Sec III (source
"theory"), at the simulated points and on a grid; Figures 6-7: the window statistics and
distribution of the single flow next to Prop 1's (:func:`window_tidy`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from analysis import nsio
from analysis.misra.setup import (
    CAPACITY_FIGURES,
    FIGURES,
    WINDOW_FIGURES,
    capacity_bps,
    experiment_of,
    per_flow,
    set_of,
    setup_of,
    thresholds_pkts,
)
from analysis.models import misra as models

#: Throughput ratio drawn in Figures 4 and 5 (flow indices from 0): Exp A rho_2/rho_1 (the
#: larger profile over the smaller; proportional sharing = 2), Exp B rho_1/rho_2 (short RTT
#: over long; proportional sharing = 1).
RATIO_FLOWS = {"expa": (1, 0), "expb": (0, 1)}
#: Spacing of the theory lines of Figures 1-5 (Mb/s) and 6-7 (alpha, c2).
LINE_STEP_MBPS = 0.25
WINDOW_LINE_STEP = {"alpha": 0.05, "c2": 0.025}


def flows_table(run_dirs: Sequence[Path]) -> pd.DataFrame:
    """One row per flow per run: the run's set-up and the flow's measured numbers. ``window``
    is the flow's per-ACK mean window, the quantity of Sec III's fixed point (the drift of eq
    (4) is per packet: its zero is the centre of the window chain over packets);
    ``window_time`` and ``window_var`` are the time average and variance of the sampled
    window, which equal the per-ACK ones only when the flow's rate does not vary with its
    window (one flow, the pipe full: Sec IV, Figures 6-7)."""
    frames = []
    for d in run_dirs:
        summary, tables = nsio.read_run(d)
        p, res = summary["params"], summary["results"]
        f = tables["flows"].copy()
        exp = experiment_of(d)
        out = pd.DataFrame(
            {
                "experiment": exp,
                "set": set_of(exp),
                "source": "sim",
                "seed": p["seed"],
                "capacity_mbps": capacity_bps(p) / 1e6,
                "n_flows": p["flows"],
                "alpha": p["alpha"],
                "c1": p["c1"],
                "c2": p["c2"],
                "flow": f["flow"],
                "profile_mbps": f["profile"] / 1e6,
                "rtt_ms": f["rtt"] * 1e3,
                "window": f["cwnd_ack_mean"],
                "window_time": f["cwnd_mean"],
                "window_var": f["cwnd_var"],
                "throughput_mbps": f["goodput"] / 1e6,
                "queue_pkts": res["queue_ave_pkts"],
                "queue_len_pkts": res["queue_len_pkts"],
                "out_fraction": f["out"] / (f["in"] + f["out"]),
                "decreases": f["decreases"],
                "rexmits": f["rexmits"],
                "timeouts": f["timeouts"],
                "drops": f["drops"],
                "marks": res["marks"],
                "early_drops": res["early_drops"],
            }
        )
        frames.append(out)
    if not frames:
        raise ValueError("no runs given")
    return pd.concat(frames, ignore_index=True).sort_values(
        ["experiment", "capacity_mbps", "n_flows", "seed", "flow"], ignore_index=True
    )


def theory_rows(experiment: str, params: Mapping[str, object], caps: Sequence[float]) -> list:
    rows = []
    s0 = setup_of(params)
    for c in caps:
        s = replace(s0, capacity=c * 1e6 / 8.0)
        fp = models.fixed_point(s.flows, s.capacity, s.ored, s.tcp)
        for i, f in enumerate(s.flows):
            rows.append(
                {
                    "experiment": experiment,
                    "set": set_of(experiment),
                    "source": "theory",
                    "capacity_mbps": c,
                    "n_flows": len(s.flows),
                    "alpha": s.tcp.alpha,
                    "c1": s.tcp.c1,
                    "c2": s.tcp.c2,
                    "flow": i,
                    "profile_mbps": f.profile * 8.0 / 1e6,
                    "rtt_ms": f.rtt * 1e3,
                    "window": fp.windows[i],
                    "throughput_mbps": fp.throughputs[i] * 8.0 / 1e6,
                    "queue_pkts": fp.queue_packets(s.mss),
                    "out_fraction": fp.out_fraction[i],
                }
            )
    return rows


def capacity_tidy(run_dirs: Sequence[Path], lines: bool = True) -> pd.DataFrame:
    """Figures 1-5 and the extension: the simulated flows and the fixed point (source
    "theory") at every simulated point -- per experiment, capacity and number of flows -- plus,
    if ``lines``, on a grid of LINE_STEP_MBPS over each experiment's capacity range."""
    sim = flows_table(run_dirs)
    points: dict[tuple[str, float, int], dict] = {}
    for d in run_dirs:  # one theory point per distinct simulated set-up
        p = nsio.read_summary(d)["params"]
        points.setdefault((experiment_of(d), capacity_bps(p), int(p["flows"])), p)
    rows: list = []
    for (exp, c, _), p in sorted(points.items()):
        rows += theory_rows(exp, p, [c / 1e6])
    if lines:
        for exp, g in sim.groupby("experiment"):
            p = next(q for (e, _, _), q in sorted(points.items()) if e == exp)
            lo, hi = g["capacity_mbps"].min(), g["capacity_mbps"].max()
            grid = np.arange(lo, hi + 1e-9, LINE_STEP_MBPS)
            grid = [float(c) for c in grid if not np.isclose(g["capacity_mbps"], c).any()]
            rows += theory_rows(str(exp), p, grid)
    return pd.concat([sim, pd.DataFrame(rows)], ignore_index=True)


def seed_means(tidy: pd.DataFrame) -> pd.DataFrame:
    """Simulated flows averaged over seeds, per experiment, capacity, number of flows, flow."""
    sim = tidy[tidy["source"] == "sim"]
    keys = ["experiment", "set", "capacity_mbps", "n_flows", "flow"]
    cols = ["profile_mbps", "rtt_ms", "window", "throughput_mbps", "queue_pkts"]
    return sim.groupby(keys, dropna=False)[cols].mean().reset_index()


def capacity_errors(tidy: pd.DataFrame) -> pd.DataFrame:
    """Seed-averaged simulation against the fixed point at every simulated point: relative
    errors (sim - theory)/theory of the mean window, the throughput and the mean queue."""
    sim = seed_means(tidy)
    th = tidy[tidy["source"] == "theory"]
    keys = ["experiment", "capacity_mbps", "n_flows", "flow"]
    m = sim.merge(
        th[[*keys, "window", "throughput_mbps", "queue_pkts"]],
        on=keys,
        suffixes=("_sim", "_theory"),
        how="left",
        validate="one_to_one",
    )
    for col in ("window", "throughput_mbps", "queue_pkts"):
        m[f"{col}_err"] = (m[f"{col}_sim"] - m[f"{col}_theory"]) / m[f"{col}_theory"]
    return m


def ratios(tidy: pd.DataFrame, source: str) -> pd.DataFrame:
    """Throughput ratios of Figures 4-5 per experiment and capacity (sim: seed means):
    Exp A rho_2/rho_1, Exp B rho_1/rho_2 (RATIO_FLOWS)."""
    d = seed_means(tidy) if source == "sim" else tidy[tidy["source"] == "theory"]
    rows = []
    for (exp, cap), g in d.groupby(["experiment", "capacity_mbps"]):
        num, den = RATIO_FLOWS[str(exp)[:4]]
        t = g.set_index("flow")["throughput_mbps"]
        rows.append(
            {
                "experiment": exp,
                "set": set_of(str(exp)),
                "capacity_mbps": cap,
                "ratio": t[num] / t[den],
            }
        )
    return pd.DataFrame(rows)


def _params_of(run_dirs: Sequence[Path], experiment: str) -> dict:
    for d in run_dirs:
        if experiment_of(d) == experiment:
            return nsio.read_summary(d)["params"]
    raise ValueError(f"no run of experiment {experiment}")


def config_facts(figure: str, run_dirs: Sequence[Path]) -> dict[str, float]:
    """The stated configuration facts as the runs of ``figure`` used them (echoed params)."""
    out: dict[str, float] = {}
    sets = {"fig01": (1,), "fig02": (2,), "fig04": (3, 4)}.get(figure, ())
    for k in sets:
        p = _params_of(run_dirs, f"expa_s{k}")
        for name in ("alpha", "beta", "c1", "c2"):
            out[f"params.set{k}.{name}"] = float(p[name])
    if figure == "fig01":
        p = _params_of(run_dirs, "expa_s1")
        prof = per_flow(p["profiles"], int(p["flows"]), "profiles")
        out.update(
            {
                "params.segment_size": float(p["pkt_size"]),
                "params.ored.min_th": thresholds_pkts(p)[0],
                "params.ored.max_th": thresholds_pkts(p)[1],
                "params.ored.pmax.sets_1_3": float(p["p_max"]),
                "params.bucket_depth": float(p["bucket_depth"]),
                "params.expa.assured.tcp1": prof[0] / 1e6,
                "params.expa.assured.tcp2": prof[1] / 1e6,
            }
        )
    if figure == "fig02":
        out["params.ored.pmax.sets_2_4"] = float(_params_of(run_dirs, "expa_s2")["p_max"])
    if figure == "fig03":
        p = _params_of(run_dirs, "expb_s1")
        n = int(p["flows"])
        prof, rtt = per_flow(p["profiles"], n, "profiles"), per_flow(p["rtts"], n, "rtts")
        out.update(
            {
                "params.expb.assured.tcp1": prof[0] / 1e6,
                "params.expb.assured.tcp2": prof[1] / 1e6,
                "params.expb.rtt.tcp1": rtt[0] * 1e3,
                "params.expb.rtt.tcp2": rtt[1] * 1e3,
            }
        )
    if figure == "fig06":
        p = _params_of(run_dirs, "sec4_alpha")
        s = setup_of(p).single_flow()
        out.update(
            {
                "params.sec4.rtt": float(per_flow(p["rtts"], 1, "rtts")[0]) * 1e3,
                "params.sec4.assured": per_flow(p["profiles"], 1, "profiles")[0] / 1e6,
                "params.sec4.capacity": capacity_bps(p) / 1e6,
                "params.sec4.bdp_stated": s.bdp,
                "params.sec4.ored.min_th": thresholds_pkts(p)[0],
                "params.sec4.ored.max_th": thresholds_pkts(p)[1],
                "params.sec4.ored.p_max": float(p["p_max"]),
            }
        )
    return out


# --------------------------------------------------------------------------------------------
# Figures 6-7: the single-flow window distribution
# --------------------------------------------------------------------------------------------


def _moments(mean: float, var: float) -> dict[str, float]:
    return {"mean": mean, "var": var, "cov": math.sqrt(var) / mean}


def window_tidy(run_dirs: Sequence[Path], parameter: str) -> pd.DataFrame:
    """Figures 6-7 in long form: per swept value, the simulated (per seed) and theoretical mean,
    variance and coefficient of variation of the window (stat mean/var/cov), and the
    probability of each histogram bin [w, w + bin) (stat pmf). Theory: Prop 1's limit process
    (source "theory", the paper's) and the same with the chain's finite drift (source
    "theory_finite", ours: keeps the factor 1 - p of eq 17)."""
    rows: list[dict] = []
    setups: dict[float, tuple[dict, float]] = {}
    maxw: dict[float, float] = {}
    for d in run_dirs:
        summary, tables = nsio.read_run(d)
        p = summary["params"]
        v = float(p[parameter])
        f = tables["flows"].iloc[0]
        base = {
            "experiment": experiment_of(d),
            "parameter": parameter,
            "value": v,
            "source": "sim",
            "seed": p["seed"],
        }
        for stat, y in _moments(float(f["cwnd_mean"]), float(f["cwnd_var"])).items():
            rows.append({**base, "stat": stat, "w": np.nan, "y": y})
        hb = float(p["hist_bin"])
        if hb <= 0:
            raise ValueError(f"{d}: hist_bin = 0, the run has no window histogram")
        h = tables["hist"]
        h = h[h["flow"] == 0]
        total = float(h["count"].sum())
        for b, cnt in zip(h["bin"], h["count"], strict=True):
            rows.append({**base, "stat": "pmf", "w": b * hb, "y": cnt / total})
        setups[v] = (p, hb)
        maxw[v] = max(maxw.get(v, 0.0), (float(h["bin"].max()) + 1) * hb)
    exp = experiment_of(run_dirs[0])
    for v, (p, hb) in sorted(setups.items()):
        s = setup_of(p)
        sf = s.single_flow()
        base = {"experiment": exp, "parameter": parameter, "value": v}
        for source, drift in (("theory", "limit"), ("theory_finite", "finite")):
            dist = models.window_distribution(s.tcp, sf.marking(), drift=drift)
            for stat, y in _moments(dist.mean, dist.variance).items():
                rows.append({**base, "source": source, "stat": stat, "w": np.nan, "y": y})
            if source == "theory":
                top = max(maxw[v], dist.mean + 10.0 * math.sqrt(dist.variance))
                edges = np.arange(0.0, top + hb, hb)
                for w, y in zip(edges[:-1], dist.pmf(edges), strict=True):
                    rows.append({**base, "source": source, "stat": "pmf", "w": w, "y": y})
    # theory lines between the simulated values (moments only; source "theory_line")
    p0 = next(iter(setups.values()))[0]
    s0 = setup_of(p0)
    lo, hi = min(setups), max(setups)
    grid = np.linspace(lo, hi, 1 + round((hi - lo) / WINDOW_LINE_STEP[parameter]))
    for v, dist in zip(
        grid, models.window_sweep(parameter, grid, base=s0.tcp, setup=s0.single_flow()), strict=True
    ):  # type: ignore[arg-type]
        base = {"experiment": exp, "parameter": parameter, "value": float(v)}
        for stat, y in _moments(dist.mean, dist.variance).items():
            rows.append({**base, "source": "theory_line", "stat": stat, "w": np.nan, "y": y})
    return pd.DataFrame(rows)


def window_stats(tidy: pd.DataFrame) -> pd.DataFrame:
    """Per swept value: simulated moments (pooled over seeds) and theory, with relative
    errors, and the total-variation distance between the simulated and theoretical pmf."""
    out = []
    simulated = tidy[tidy["source"] == "sim"]["value"].unique()
    for v, g in tidy[tidy["value"].isin(simulated)].groupby("value"):
        sim = g[g["source"] == "sim"]
        means = sim[sim["stat"] == "mean"].set_index("seed")["y"]
        vars_ = sim[sim["stat"] == "var"].set_index("seed")["y"]
        mean = float(means.mean())
        var = float((vars_ + means**2).mean() - mean**2)  # pooled, equal sample counts
        row: dict[str, float] = {"value": float(v), "seeds": len(means)}  # type: ignore[arg-type]
        row.update({f"{k}_sim": x for k, x in _moments(mean, var).items()})
        for source in ("theory", "theory_finite"):
            t = g[(g["source"] == source) & (g["stat"] != "pmf")].set_index("stat")["y"]
            for k in ("mean", "var", "cov"):
                row[f"{k}_{source}"] = float(t[k])
        for k in ("mean", "var", "cov"):
            row[f"{k}_err"] = row[f"{k}_sim"] / row[f"{k}_theory"] - 1.0
        ps = sim[sim["stat"] == "pmf"].groupby("w")["y"].mean()
        pt = g[(g["source"] == "theory") & (g["stat"] == "pmf")].set_index("w")["y"]
        both = pd.concat([ps, pt], axis=1, keys=["s", "t"]).fillna(0.0)
        row["tv"] = 0.5 * float((both["s"] - both["t"]).abs().sum())
        out.append(row)
    return pd.DataFrame(out).sort_values("value", ignore_index=True)


# --------------------------------------------------------------------------------------------
# figure analysis
# --------------------------------------------------------------------------------------------


def analyse(figure: str, run_dirs: Sequence[Path]) -> tuple[pd.DataFrame, dict[str, float]]:
    """Tidy table and regenerated numbers of one figure."""
    if figure not in FIGURES:
        raise ValueError(f"unknown Misra figure '{figure}' (known: {', '.join(FIGURES)})")
    numbers: dict[str, float] = config_facts(figure, run_dirs)
    if figure in CAPACITY_FIGURES:
        tidy = capacity_tidy(run_dirs)
        if figure == "fig04":
            r = ratios(tidy, "sim")["ratio"]
            numbers["fig4.ratio_limits.upper"] = float(r.max())
            numbers["fig4.ratio_limits.lower"] = float(r.min())
        return tidy, numbers
    if figure in WINDOW_FIGURES:
        return window_tidy(run_dirs, WINDOW_FIGURES[figure]), numbers
    tidy = capacity_tidy(run_dirs, lines=False)
    numbers["fig1_2.prediction_error_bound_n2_20"] = prediction_error(tidy)
    if DEEP_EXPERIMENT in set(tidy["experiment"]):
        numbers[DEEP_CHECK] = prediction_error(tidy, DEEP_EXPERIMENT)
    return tidy, numbers


#: The extension's design whose error is compared with the paper's 'within 5 %': the paper's
#: 20-packet token buckets (nflows_deep, 200-packet buckets, is the ideal-tagging reference).
PREDICTION_EXPERIMENT = "nflows"
#: the same design with 200-packet buckets, and the check of the row's diagnosis
#: (config/diagnoses/misra.yaml): its prediction error
DEEP_EXPERIMENT = "nflows_deep"
DEEP_CHECK = "check.fig1_2.prediction_error_bound_n2_20.deep_buckets"


def prediction_error(tidy: pd.DataFrame, experiment: str = PREDICTION_EXPERIMENT) -> float:
    """The largest relative error of the fixed point against simulation, over all flows and
    numbers of flows of ``experiment``, of the mean windows and the throughputs (the paper's
    'within 5 %'; Sec III.C's figures show both, "mean window sizes/throughputs")."""
    e = capacity_errors(tidy)
    e = e[e["experiment"] == experiment]
    return float(max(e["window_err"].abs().max(), e["throughput_mbps_err"].abs().max()))


def strictly(values: Sequence[float], up: bool) -> bool:
    """Every step of ``values`` rises (``up``) or falls."""
    d = np.diff(np.asarray(values, dtype=float))
    return bool(np.all(d > 0) if up else np.all(d < 0))
