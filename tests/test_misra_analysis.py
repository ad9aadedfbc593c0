"""The Misra et al. pipeline: run parameters -> model inputs, the checks before any run,
the simulation-vs-theory tables on hand-made data, and the analysis of short real ns runs."""

from __future__ import annotations

import copy
import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from analysis import config as conf
from analysis import nsio, nsrun
from analysis.misra.claims import sim_claims
from analysis.misra.setup import (
    capacity_bps,
    check_config,
    per_flow,
    reference_params,
    set_of,
    setup_of,
    thresholds_pkts,
)
from analysis.misra.theory import (
    CDF_RESIDUAL_OK,
    _cdf_residual,
    cov_law_claim,
    fixed_point_holds,
    limit_process_holds,
    mean_and_cov_rise,
    num_key,
    same_curves,
    theory_claims,
    theory_numbers,
    unique_root_holds,
)
from analysis.misra.tidy import (
    capacity_errors,
    capacity_tidy,
    flows_table,
    prediction_error,
    ratios,
    window_stats,
    window_tidy,
)
from analysis.models import misra as models


@pytest.fixture(scope="module")
def base(cfg: dict) -> dict:
    """Experiment A, set 1, as the paper fidelity runs it (C = 5 Mb/s)."""
    return dict(conf.runs(cfg, "misra", "expa_s1", "paper")[0].params)


# ------------------------------------------------------------------------------------------
# parameters and the checks before a run
# ------------------------------------------------------------------------------------------


def test_per_flow_values_repeat_over_the_flows() -> None:
    assert per_flow("1500000,3000000", 4, "p") == [1.5e6, 3e6, 1.5e6, 3e6]
    assert per_flow(0.02, 3, "rtts") == [0.02, 0.02, 0.02]
    with pytest.raises(ValueError, match="3 values for 2 flows"):
        per_flow("1,2,3", 2, "profiles")


def test_setup_units(base: dict) -> None:
    s = setup_of(base)
    assert s.capacity == pytest.approx(5e6 / 8)  # bytes/s
    assert [f.profile for f in s.flows] == [1.5e6 / 8, 3e6 / 8]
    assert [f.rtt for f in s.flows] == [0.02, 0.02]
    assert (s.ored.min_th, s.ored.max_th) == (20 * 512, 100 * 512)  # bytes
    assert (s.tcp.alpha, s.tcp.beta, s.tcp.c1, s.tcp.c2) == (-1, 1, 1, 0.5)
    # Sec IV: 3 Mb/s = 732.42 segments/s of 512 B; C RTT = 10.0 segments (docs/misra.md M8)
    sec4 = dict(
        base,
        flows=1,
        profiles="750000",
        rtts="0.01366",
        capacity=3e6,
        min_th=15,
        max_th=95,
        p_max=0.02,
    )
    sf = setup_of(sec4).single_flow()
    assert sf.capacity == pytest.approx(3e6 / 8 / 512)
    assert sf.bdp == pytest.approx(3e6 / 4096 * 0.01366)
    assert sf.gamma == pytest.approx(0.75)
    assert (sf.ored.min_th, sf.ored.max_th) == pytest.approx((15, 95))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"c2": 1.0}, r"c2 \(1.0\) must be below 1 when beta = 1"),
        ({"alpha": 1.0}, r"alpha \(1.0\) must be below beta \(1\)"),
        (
            {"min_th": 100, "max_th": 20},
            r"ORED thresholds need 0 < min_th .* \(flows 2: min 100 \+ 0, max 20 \+ 0\)",
        ),
    ],
)
def test_bad_input_stops_the_workflow(cfg: dict, change: dict, message: str) -> None:
    c = copy.deepcopy(cfg)
    c["misra"]["experiments"]["expb_s3"]["set"].update(change)
    with pytest.raises(conf.ConfigError, match=message) as e:
        check_config(c)
    assert "misra.experiments.expb_s3" in str(e.value)


def test_capacity_below_the_profiles_stops_the_workflow(cfg: dict) -> None:
    c = copy.deepcopy(cfg)
    # Exp B: profiles 1.5 + 1.5 Mb/s; C = 3 Mb/s only at the quick fidelity (the YAML anchor
    # shares the fidelity block between the sets: give set 2 its own)
    e2 = c["misra"]["experiments"]["expb_s2"]
    e2["fidelity"] = copy.deepcopy(e2["fidelity"])
    e2["fidelity"]["quick"]["sweep"]["capacity"] = [3000000]
    with pytest.raises(conf.ConfigError) as e:
        check_config(c)
    msg = str(e.value)
    assert "misra.experiments.expb_s2' (fidelity quick, run capacity3000000_s1)" in msg
    assert "C = 3e+06 bit/s must exceed the sum of the assured rates 3e+06 bit/s (eq 3)" in msg


def test_shipped_config_passes(cfg: dict) -> None:
    check_config(cfg)
    conf.validate(cfg)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"c2": 1.0}, "c2 (1.0) must be below 1 when beta = 1"),
        ({"alpha": 1, "beta": 1}, "alpha (1) must be below beta (1)"),
        ({"capacity": 4500000}, "must exceed the sum of the assured rates 4500000"),
        ({"rtts": "0.002"}, "rtt 0.002 s is below the fixed part of the path"),
        ({"profiles": "1,2,3"}, "profiles: 3 values for 2 flows"),
    ],
)
def test_tcl_refuses_bad_input_before_simulating(
    ns_binary: Path, base: dict, tmp_path: Path, change: dict, message: str
) -> None:
    with pytest.raises(nsrun.NsRunError) as e:
        nsrun.run(
            ns_binary,
            conf.tcl_script("misra", "dumbbell"),
            tmp_path / "r",
            {**base, **change},
        )
    assert message in str(e.value)
    assert not (tmp_path / "r" / "summary.json").exists()


def test_nflows_scales_capacity_and_thresholds(cfg: dict) -> None:
    runs = {r.params["flows"]: r.params for r in conf.runs(cfg, "misra", "nflows", "quick")}
    assert thresholds_pkts(runs[2]) == (20, 100)  # N = 2 is Experiment A at 6 Mb/s
    assert thresholds_pkts(runs[20]) == (200, 1000)
    assert capacity_bps(runs[20]) == 60e6
    # everything scales with N: the fixed point's queue scales too, windows and rates do not
    fp = {}
    for n in (2, 20):
        s = setup_of(runs[n])
        fp[n] = models.fixed_point(s.flows, s.capacity, s.ored, s.tcp)
    assert fp[20].queue == pytest.approx(10 * fp[2].queue, rel=1e-9)
    assert fp[20].windows[:2] == pytest.approx(fp[2].windows, rel=1e-9)
    assert fp[20].throughputs[:2] == pytest.approx(fp[2].throughputs, rel=1e-9)
    # the fixed thresholds of the paper's experiments
    assert thresholds_pkts(conf.runs(cfg, "misra", "expa_s1", "quick")[0].params) == (
        20,
        100,
    )


def test_num_key_spelling() -> None:
    assert [num_key(v) for v in (-1, -0.75, 0, 0.1, 0.5)] == [
        "m1",
        "m0_75",
        "0",
        "0_1",
        "0_5",
    ]


def test_theory_numbers_are_published_keys(root: Path, cfg: dict) -> None:
    doc = yaml.safe_load((root / "config" / "originals" / "misra.yaml").read_text())
    keys = {e["key"] for e in doc["numbers"]}
    claims = {c["key"] for c in doc["claims"]}
    nums = theory_numbers(cfg)
    assert set(nums) <= keys
    assert nums["derived.fig2.set2.c5.qstar"] == pytest.approx(371.2, abs=0.05)
    # set 1, C = 5 Mb/s, equal RTTs: the two throughputs add up to C (eq 9)
    total = nums["derived.fig1.set1.c5.rho.tcp1"] + nums["derived.fig1.set1.c5.rho.tcp2"]
    assert total == pytest.approx(5.0, rel=1e-12)
    assert nums["fig4.theory_depends_only_on_c2_over_c1"] is True
    assert set(theory_claims(cfg)) <= claims


def test_cited_cov_law_is_not_the_model() -> None:
    holds, detail = cov_law_claim()
    assert holds is False
    # alpha = 0: CV(W) = sqrt(c2/(2 - c2)); divided by sqrt(1/(1 - c2)):
    # c2 = 0.1: sqrt(0.1/1.9 * 0.9) = 0.2176, c2 = 0.5: sqrt(0.5/1.5 * 0.5) = 0.4082
    assert "alpha 0: 0.218 to 0.408" in detail


# ------------------------------------------------------------------------------------------
# the tables, on hand-made data
# ------------------------------------------------------------------------------------------


def _cap_rows(exp: str, source: str, cap: float, thr: tuple[float, float], win: tuple) -> list:
    return [
        {
            "experiment": exp,
            "set": set_of(exp),
            "source": source,
            "seed": 1 if source == "sim" else np.nan,
            "capacity_mbps": cap,
            "n_flows": 2,
            "flow": i,
            "profile_mbps": 1.5,
            "rtt_ms": 20.0,
            "window": win[i],
            "throughput_mbps": thr[i],
            "queue_pkts": 50.0,
            "decreases": 500,
            "marks": 1000,
            "rexmits": 0,
            "drops": 0,
            "early_drops": 0,
            "out_fraction": 0.3,
        }
        for i in (0, 1)
    ]


def test_ratio_orientation_and_errors() -> None:
    rows = _cap_rows("expa_s1", "sim", 6.0, (2.0, 4.0), (30.0, 50.0))
    rows += _cap_rows("expa_s1", "theory", 6.0, (2.5, 3.5), (40.0, 50.0))
    rows += _cap_rows("expb_s1", "sim", 6.0, (4.0, 2.0), (30.0, 50.0))
    rows += _cap_rows("expb_s1", "theory", 6.0, (4.0, 2.0), (30.0, 50.0))
    t = pd.DataFrame(rows)
    r = ratios(t, "sim").set_index("experiment")["ratio"]
    assert r["expa_s1"] == 2.0  # Exp A: rho2/rho1 = 4/2
    assert r["expb_s1"] == 2.0  # Exp B: rho1/rho2 = 4/2
    e = capacity_errors(t).set_index(["experiment", "flow"])
    assert e.loc[("expa_s1", 0), "window_err"] == pytest.approx(30 / 40 - 1)
    assert e.loc[("expa_s1", 1), "throughput_mbps_err"] == pytest.approx(4.0 / 3.5 - 1)
    assert e.loc[("expb_s1", 0), "window_err"] == 0.0


def test_prediction_error_per_design() -> None:
    """The largest |relative error| of windows and throughputs, per experiment: the 20-packet
    design's (the row) and the 200-packet design's (its diagnosis's check) apart."""
    rows = _cap_rows("nflows", "sim", 6.0, (1.6, 3.0), (30.0, 40.0))
    rows += _cap_rows("nflows", "theory", 6.0, (2.0, 3.0), (30.0, 50.0))
    rows += _cap_rows("nflows_deep", "sim", 6.0, (1.98, 3.0), (30.0, 49.0))
    rows += _cap_rows("nflows_deep", "theory", 6.0, (2.0, 3.0), (30.0, 50.0))
    t = pd.DataFrame(rows)
    # nflows: throughput 1.6 / 2 - 1 = -0.2 and window 40 / 50 - 1 = -0.2
    assert prediction_error(t) == pytest.approx(0.2)
    # nflows_deep: window 49 / 50 - 1 = -0.02 beats throughput 1.98 / 2 - 1 = -0.01
    assert prediction_error(t, "nflows_deep") == pytest.approx(0.02)


def test_window_stats_pool_seeds_and_measure_tv() -> None:
    rows = []
    for seed, mean in ((1, 10.0), (2, 12.0)):
        for stat, y in (("mean", mean), ("var", 4.0), ("cov", 2.0 / mean)):
            rows.append({"value": -1.0, "source": "sim", "seed": seed, "stat": stat, "y": y})
        for w, y in ((9.0, 0.5), (10.0, 0.5)):
            rows.append(
                {"value": -1.0, "source": "sim", "seed": seed, "stat": "pmf", "w": w, "y": y}
            )
    for source in ("theory", "theory_finite"):
        for stat, y in (("mean", 10.0), ("var", 5.0), ("cov", math.sqrt(5) / 10)):
            rows.append({"value": -1.0, "source": source, "stat": stat, "y": y})
    for w, y in ((10.0, 0.75), (11.0, 0.25)):
        rows.append({"value": -1.0, "source": "theory", "stat": "pmf", "w": w, "y": y})
    s = window_stats(pd.DataFrame(rows)).iloc[0]
    assert s["mean_sim"] == 11.0
    assert s["var_sim"] == pytest.approx(5.0)  # within-seed 4 + between-seed 1
    assert s["mean_err"] == pytest.approx(0.1)
    # TV = (|0.5 - 0| + |0.5 - 0.75| + |0 - 0.25|) / 2
    assert s["tv"] == pytest.approx(0.5)


def test_sharing_claims_follow_the_ratios() -> None:
    def fig(ratio_by_set: dict[int, float], exp: str) -> pd.DataFrame:
        rows = []
        for k, r in ratio_by_set.items():
            for cap in (6.0, 9.0):
                lo = cap / (1 + r + (cap - 6.0) / 10)  # the ratio falls with C
                hi = cap - lo
                thr = (lo, hi) if exp == "expa" else (hi, lo)
                rows += _cap_rows(f"{exp}_s{k}", "sim", cap, thr, (1.0, 1.0))
        return pd.DataFrame(rows)

    good_a = fig({1: 1.3, 2: 1.6, 3: 1.4, 4: 1.5}, "expa")
    good_b = fig({1: 2.5, 2: 1.4, 3: 2.2, 4: 1.6}, "expb")
    nums, out = sim_claims({"fig04": good_a, "fig05": good_b})
    assert nums["fig4.aimd_closer_to_proportional"] is True
    assert nums["fig4.sim_lower_c2_more_differentiation"] is True
    assert nums["fig5.short_rtt_gets_more"] is True
    assert out["fig5.smaller_c2_closer_to_proportional"][0] is True
    bad_a = fig({1: 1.6, 2: 1.3, 3: 1.4, 4: 1.5}, "expa")
    bad_b = fig({1: 1.4, 2: 2.5, 3: 2.2, 4: 1.6}, "expb")
    nums, out = sim_claims({"fig04": bad_a, "fig05": bad_b})
    assert nums["fig4.aimd_closer_to_proportional"] is False
    assert out["fig5.smaller_c2_closer_to_proportional"][0] is False


# ------------------------------------------------------------------------------------------
# short real runs
# ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def runs(
    cfg: dict, base: dict, ns_binary: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("misra") / "results" / "misra"
    out = {}
    short = {"duration": 40, "warmup": 10}
    a = root / "expa_s1" / "smoke" / "capacity8000000_s1"
    nsrun.run(
        ns_binary,
        conf.tcl_script("misra", "dumbbell"),
        a,
        {**base, **short, "capacity": 8e6},
    )
    out["a"] = a
    sec4 = dict(conf.runs(cfg, "misra", "sec4_alpha", "smoke")[0].params)
    s = root / "sec4_alpha" / "smoke" / "alpha-1_s1"
    nsrun.run(ns_binary, conf.tcl_script("misra", "dumbbell"), s, {**sec4, **short})
    out["sec4"] = s
    return out


def test_access_delays_give_the_nominal_rtt(runs: dict[str, Path]) -> None:
    _, t = nsio.read_run(runs["a"])
    # tx: 512 + 40 bytes on two 100 Mb/s links and on the 8 Mb/s bottleneck;
    # d = (RTT - 2 (1 ms + 1 ms) - tx) / 2
    tx = 2 * 552 * 8 / 1e8 + 552 * 8 / 8e6
    assert t["flows"]["access_delay"].tolist() == pytest.approx([(0.02 - 0.004 - tx) / 2] * 2)


def test_two_flow_run(runs: dict[str, Path]) -> None:
    f = flows_table([runs["a"]])
    assert f["experiment"].unique().tolist() == ["expa_s1"]
    assert f["set"].unique().tolist() == [1]
    total = f["throughput_mbps"].sum()
    assert 0.9 * 8.0 <= total <= 8.0  # the link is full, never above C
    # the tagger: a flow sending rho with profile R has a fraction (rho - R)/rho out
    expect = 1.0 - f["profile_mbps"] / f["throughput_mbps"]
    assert f["out_fraction"].to_numpy() == pytest.approx(expect.to_numpy(), abs=0.02)
    assert (f["drops"] == 0).all() and (f["rexmits"] == 0).all()
    tidy = capacity_tidy([runs["a"]])
    th = tidy[(tidy["source"] == "theory") & (tidy["capacity_mbps"] == 8.0)]
    assert th["throughput_mbps"].sum() == pytest.approx(8.0)  # eq (9) at the simulated C


def test_window_histogram_run(runs: dict[str, Path]) -> None:
    s, t = nsio.read_run(runs["sec4"])
    flows, hist = t["flows"], t["hist"]
    assert int(hist["count"].sum()) == int(flows["samples"].iloc[0])
    # the histogram's mean (bin centres, 1-packet bins) is the sampled mean within half a bin
    mid = ((hist["bin"] + 0.5) * hist["count"]).sum() / hist["count"].sum()
    assert abs(mid - flows["cwnd_mean"].iloc[0]) <= 0.5
    tidy = window_tidy([runs["sec4"]], "alpha")
    for source in ("sim", "theory"):
        pmf = tidy[(tidy["source"] == source) & (tidy["stat"] == "pmf")]["y"]
        assert pmf.sum() == pytest.approx(1.0, abs=1e-6)
    # the pipe is full: the window never falls below C RTT = 10 packets
    assert hist["bin"].min() >= 10
    assert s["params"]["q_weight"] == 1
    assert (s["results"]["min_th_pkts"], s["results"]["max_th_pkts"]) == (15, 95)


def test_same_seed_same_bytes(
    runs: dict[str, Path], base: dict, ns_binary: Path, tmp_path: Path
) -> None:
    again = tmp_path / "again"
    nsrun.run(
        ns_binary,
        conf.tcl_script("misra", "dumbbell"),
        again,
        {**base, "duration": 40, "warmup": 10, "capacity": 8e6},
    )
    for name in ("flows.tsv", "summary.json"):
        assert (again / name).read_bytes() == (runs["a"] / name).read_bytes()


# ------------------------------------------------------------------------------------------
# every criterion on hand-made data: an input that holds and one that must fail
# ------------------------------------------------------------------------------------------


def _win(points: dict[float, tuple[float, float, float]]) -> pd.DataFrame:
    """A Figure 6/7 tidy table: per swept value, (simulated mean, simulated variance,
    theoretical mean); one seed, theory variance = simulated."""
    rows = []
    for v, (mean, var, theory) in points.items():
        for stat, y in (("mean", mean), ("var", var), ("cov", math.sqrt(var) / mean)):
            rows.append({"value": v, "source": "sim", "seed": 1, "stat": stat, "y": y})
        rows.append({"value": v, "source": "sim", "seed": 1, "stat": "pmf", "w": mean, "y": 1.0})
        for source in ("theory", "theory_finite"):
            for stat, y in (("mean", theory), ("var", var), ("cov", math.sqrt(var) / theory)):
                rows.append({"value": v, "source": source, "stat": stat, "y": y})
        rows.append({"value": v, "source": "theory", "stat": "pmf", "w": theory, "y": 1.0})
    return pd.DataFrame(rows)


def test_window_claims_can_fail() -> None:
    # Fig 6 (alpha rising): mean and CoV rise, the theory's error grows
    fig6 = _win({-1.0: (30.0, 60.0, 30.3), -0.5: (50.0, 250.0, 51.0), 0.0: (140.0, 5600.0, 150.0)})
    nums, _ = sim_claims({"fig06": fig6})
    assert nums["fig6.mean_and_cov_increase_with_alpha"] is True
    assert nums["fig6.theory_less_accurate_for_larger_alpha"] is True
    flat = _win({-1.0: (30.0, 60.0, 33.0), -0.5: (50.0, 100.0, 51.0), 0.0: (140.0, 700.0, 141.0)})
    nums, _ = sim_claims({"fig06": flat})
    assert nums["fig6.mean_and_cov_increase_with_alpha"] is False  # CoV falls
    assert nums["fig6.theory_less_accurate_for_larger_alpha"] is False
    # Fig 7 (c2 ascending): the mean falls, variance and CoV rise, the CoV by at least half
    # as much (relative) as c2
    fig7 = _win({0.1: (48.0, 29.0, 48.0), 0.3: (37.0, 48.0, 37.0), 0.5: (33.0, 68.0, 33.0)})
    nums, out = sim_claims({"fig07": fig7})
    assert nums["fig7.c2_down_mean_up_var_down_cov_down"] is True
    assert out["conclusion.decrease_c2"][0] is True
    # the CoV barely changes: the conclusion's 'sharp decrease' fails, so does the order
    same = _win({0.1: (48.0, 500.0, 48.0), 0.3: (37.0, 300.0, 37.0), 0.5: (33.0, 240.0, 33.0)})
    nums, out = sim_claims({"fig07": same})
    assert nums["fig7.c2_down_mean_up_var_down_cov_down"] is False
    assert out["conclusion.decrease_c2"][0] is False


def _pair(exp: str, cap: float, thr: tuple[float, float], **change: float) -> list:
    rows = _cap_rows(exp, "sim", cap, thr, (30.0, 50.0))
    rows += _cap_rows(exp, "theory", cap, thr, (30.0, 50.0))
    return [{**r, **change} if r["source"] == "sim" else r for r in rows]


def test_simulation_checks_can_fail() -> None:
    good = pd.DataFrame(_pair("expa_s1", 6.0, (2.5, 3.5)))
    _, out = sim_claims({"fig01": good, "fig02": good, "fig03": good})
    for key in (
        "figs1_3.close_agreement",
        "sec3.each_flow_gets_assured_rate",
        "model.generalized_tcp",
        "model.ored",
    ):
        assert out[key][0] is True, key
    # simulated windows 10 % off the fixed point
    off = pd.DataFrame(_pair("expa_s1", 6.0, (2.5, 3.5)))
    off.loc[off["source"] == "sim", "window"] *= 1.1
    _, out = sim_claims({"fig01": off, "fig02": good, "fig03": good})
    assert out["figs1_3.close_agreement"][0] is False
    # a flow below its assured rate
    _, out = sim_claims({"fig01": pd.DataFrame(_pair("expa_s1", 6.0, (1.4, 4.6)))})
    assert out["sec3.each_flow_gets_assured_rate"][0] is False
    # half as many window decreases as marks, or a retransmission
    _, out = sim_claims({"fig01": pd.DataFrame(_pair("expa_s1", 6.0, (2.5, 3.5), decreases=250))})
    assert out["model.generalized_tcp"][0] is False
    _, out = sim_claims({"fig01": pd.DataFrame(_pair("expa_s1", 6.0, (2.5, 3.5), rexmits=1))})
    assert out["model.generalized_tcp"][0] is False
    # one packet dropped at the ORED queue
    _, out = sim_claims({"fig01": pd.DataFrame(_pair("expa_s1", 6.0, (2.5, 3.5), drops=1))})
    assert out["model.ored"][0] is False


def test_sharing_numbers_can_fail() -> None:
    def fig(ratio_by_set: dict[int, float], exp: str, slope: float = 0.1) -> pd.DataFrame:
        rows = []
        for k, r in ratio_by_set.items():
            for cap in (6.0, 9.0, 12.0):
                lo = cap / (1 + r - slope * (cap - 6.0))
                thr = (lo, cap - lo) if exp == "expa" else (cap - lo, lo)
                rows += _cap_rows(f"{exp}_s{k}", "sim", cap, thr, (1.0, 1.0))
        return pd.DataFrame(rows)

    good_a = fig({1: 1.3, 2: 1.6, 3: 1.4, 4: 1.5}, "expa")
    nums, out = sim_claims({"fig04": good_a})
    assert nums["fig4.sim_lower_c2_more_differentiation"] is True
    assert out["fig4.excess_not_proportional"][0] is True
    # set 3 (smaller c2) below set 1: lower c2 gives less differentiation
    swap = fig({1: 1.4, 2: 1.6, 3: 1.3, 4: 1.5}, "expa")
    assert sim_claims({"fig04": swap})[0]["fig4.sim_lower_c2_more_differentiation"] is False
    # the ratio rises with the excess (no longer shared more evenly), or reaches 2
    rising = fig({1: 1.3, 2: 1.6, 3: 1.4, 4: 1.5}, "expa", slope=-0.1)
    assert sim_claims({"fig04": rising})[1]["fig4.excess_not_proportional"][0] is False
    prop = fig({1: 2.3, 2: 2.6, 3: 2.4, 4: 2.5}, "expa")
    assert sim_claims({"fig04": prop})[1]["fig4.excess_not_proportional"][0] is False
    # Exp B: the long-RTT flow ahead at one capacity
    good_b = fig({1: 2.5, 2: 1.4, 3: 2.2, 4: 1.6}, "expb", slope=0.05)
    assert sim_claims({"fig05": good_b})[0]["fig5.short_rtt_gets_more"] is True
    long_ahead = fig({1: 2.5, 2: 0.9, 3: 2.2, 4: 1.6}, "expb", slope=0.0)
    assert sim_claims({"fig05": long_ahead})[0]["fig5.short_rtt_gets_more"] is False
    # capacities: one number for the stated range, the end that leaves it
    inside = sim_claims({"fig04": good_a, "fig05": good_b})[0]["params.capacity_range"]
    assert inside == 12.0
    wide = pd.concat([good_a, fig({1: 1.3}, "expa").assign(capacity_mbps=4.0)])
    assert sim_claims({"fig04": wide, "fig05": good_b})[0]["params.capacity_range"] == 4.0


def test_theory_statements_can_fail() -> None:
    caps = [5.0, 8.0, 12.0]
    a = pd.Series([1.8, 1.5, 1.3], index=caps)
    assert same_curves([(a, a.copy())])
    assert not same_curves([(a, a.copy()), (a, a + 1e-6)])

    class D:
        def __init__(self, mean: float, cv: float) -> None:
            self.mean, self.cv = mean, cv

    assert mean_and_cov_rise([D(30, 0.2), D(40, 0.25), D(50, 0.3)])  # type: ignore[list-item]
    # the CoV independent of c1 (as [10] has it for constant marking): fails
    assert not mean_and_cov_rise([D(30, 0.25), D(40, 0.25), D(50, 0.25)])  # type: ignore[list-item]


def test_theory_criteria_can_fail(cfg: dict) -> None:
    """The analytical checks (Sec III fixed point, its uniqueness, Prop 1's limit process, the
    CDF equation of Sec IV.B) each reject an input that breaks them."""
    assert fixed_point_holds(1e-12, 1e-12)
    assert not fixed_point_holds(1e-3, 1e-12)  # a flow still drifts
    assert not fixed_point_holds(1e-12, 0.01)  # the link is not full
    assert unique_root_holds(True, [1, 1, 1])
    assert not unique_root_holds(True, [1, 3, 1])  # three roots in one set-up
    assert not unique_root_holds(False, [1, 1])  # not monotone
    assert not unique_root_holds(True, [0])  # no root at all
    assert limit_process_holds([0.01, -0.02])
    assert not limit_process_holds([0.01, -0.05])
    # the CDF equation: the solver's G satisfies it; a G of the wrong shape does not
    s = setup_of(reference_params(cfg, "sec4_alpha"))
    tcp = s.tcp
    marking = s.single_flow().marking()
    dist = models.window_distribution(tcp, marking)
    assert _cdf_residual(dist, tcp, marking) < CDF_RESIDUAL_OK
    wrong = replace(dist, ccdf=np.exp(-dist.w / dist.mean))
    assert _cdf_residual(wrong, tcp, marking) > CDF_RESIDUAL_OK


def test_errors_table_round_trip(tmp_path: Path) -> None:
    """The claims step's errors table, written and read back, typesets one row per figure and
    quantity: mean and largest |error| and the number of values compared."""
    from analysis.misra.claims import errors_table
    from analysis.outputs import write_tidy
    from analysis.plots.misra import errors_tex

    rows = [
        {
            "experiment": "expa_s1",
            "set": 1,
            "source": src,
            "seed": 1,
            "capacity_mbps": 6.0,
            "n_flows": 2,
            "flow": i,
            "window": w,
            "throughput_mbps": t,
            "queue_pkts": 50.0 if src == "sim" else 40.0,
            "profile_mbps": 1.5,
            "rtt_ms": 20.0,
        }
        for src, ws in (("sim", ((11.0, 2.2), (22.0, 3.3))), ("theory", ((10.0, 2.0), (20.0, 3.0))))
        for i, (w, t) in enumerate(ws)
    ]
    table = errors_table({"fig01": pd.DataFrame(rows)})
    write_tidy(table, tmp_path / "tidy.csv")
    tex = errors_tex(pd.read_csv(tmp_path / "tidy.csv"))
    assert r"fig01 & mean window & 10.0\,\% & 10.0\,\% & 2: C = 6..6 Mb/s \\" in tex
    assert r"fig01 & mean queue & 25.0\,\% & 25.0\,\% & 1: C = 6..6 Mb/s \\" in tex


def test_per_ack_window_mean(runs: dict[str, Path]) -> None:
    """The per-ACK mean window weights each sample interval by the packets acknowledged in it:
    with one flow and the pipe full the rate is C whatever the window, so it equals the time
    average; with two flows a flow's rate grows with its window, so over packets the window is
    larger than over time."""
    s, t = nsio.read_run(runs["sec4"])
    one = t["flows"].iloc[0]
    span = s["params"]["duration"] - s["params"]["warmup"]
    # acked counts the packets acknowledged in the measurement window: the sink's bytes are
    # those packets with ns-2's 40-byte TCP/IP header on each 512-byte segment
    assert one["acked"] == pytest.approx(one["goodput"] * span / 8 / (512 + 40), rel=0.01)
    assert one["cwnd_ack_mean"] == pytest.approx(one["cwnd_mean"], rel=0.01)
    _, t2 = nsio.read_run(runs["a"])
    two = t2["flows"]
    assert (two["cwnd_ack_mean"] > 1.01 * two["cwnd_mean"]).all()
    f = flows_table([runs["a"]])
    assert f["window"].tolist() == two["cwnd_ack_mean"].tolist()
    assert f["window_time"].tolist() == two["cwnd_mean"].tolist()
