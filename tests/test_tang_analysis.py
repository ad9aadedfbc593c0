"""The Tang et al. 2005 analysis on real (short) ns runs, and its claims on hand-made tables."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis import config as ccr
from analysis import nsio, nsrun, tang
from analysis.compare import load_originals


@pytest.fixture(scope="module")
def runs(cfg: dict, ns_binary: Path, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Experiment 1 (emulated Dummynet), FAST first and Reno first, 20 s."""
    out = []
    for r in ccr.runs(cfg, "tang", "exp1", "smoke"):
        if r.seed != 1:
            continue
        d = tmp_path_factory.mktemp("tang") / r.run_id
        p = {**r.params, "duration": 20, "offset": 5, "measure_from": 10}
        nsrun.run(ns_binary, ccr.tcl_script("tang", "chain"), d, p)
        out.append(d)
    return out


def test_window_rates_from_counters(runs: list[Path]) -> None:
    w = tang.window_table(runs)
    for d in runs:
        s, t = nsio.read_run(d)
        first = s["params"]["first"]
        g = t["groups"]
        # group 3 (8 Reno flows): packets acknowledged between t = 10 and t = 20, per second
        a = g[(g["group"] == 3) & (g["t"] == 10)]["acked"].iloc[0]
        b = g[(g["group"] == 3) & (g["t"] == 20)]["acked"].iloc[0]
        row = w[(w["first"] == first) & (w["what"] == "group") & (w["idx"] == 3)].iloc[0]
        assert row["pkts"] == pytest.approx((b - a) / 10.0)
        assert row["mbps"] == pytest.approx((b - a) / 10.0 * 1500 * 8 / 1e6)
        lk = w[(w["first"] == first) & (w["what"] == "link")].set_index("idx")
        # link 1 capacity 110 Mb/s = 9166.7 pkts/s; utilisation = departures rate / capacity
        assert lk.loc[1, "util"] == pytest.approx(lk.loc[1, "pkts"] / (110e6 / 12000))
        assert (lk["util"] <= 1.0 + 1e-9).all()
        grp = w[(w["first"] == first) & (w["what"] == "group")].set_index("idx")["pkts"]
        # goodput of the groups crossing link 2 (all three) cannot exceed what link 2 sent
        # by more than the packets in flight at the window edges (here < 3 % of the link)
        assert grp.sum() <= lk.loc[2, "pkts"] * 1.03
    assert set(w[w["what"] == "group"]["protocol"]) == {"fast", "sack"}


def test_table_numbers_use_published_keys(runs: list[Path], root: Path) -> None:
    w = tang.window_table(runs)
    nums = tang.table_numbers("exp1", w)
    known = {p.key for p in load_originals(root / "config" / "originals" / "tang.yaml")}
    assert len(nums) == 12  # 2 scenarios x 3 paths x (mean, sd)
    assert set(nums) <= known
    # one seed: s.d. undefined (NaN = missing), never a fake 0
    assert np.isnan(nums["table1.fast_first.path1_fast.sd"])


def test_traces_ewma(runs: list[Path]) -> None:
    tr = tang.traces(runs)
    q = tr[(tr["kind"] == "queue") & (tr["link"] == 2) & (tr["first"] == "short")]
    w = 1 - np.exp(-0.1 / tang.EWMA_TAU)  # qsample 0.1 s
    expect = q["qlen"].ewm(alpha=w).mean().to_numpy()
    assert np.allclose(q["q_ewma"].to_numpy(), expect)
    assert len(q) == 200  # 20 s sampled every 0.1 s


def test_window_outside_run_is_an_error() -> None:
    t = pd.Series([1.0, 2.0, 3.0])
    c = pd.Series([10, 20, 30])
    assert tang._window_rate(t, c, 1.0, 3.0) == pytest.approx(10.0)
    with pytest.raises(ValueError, match="do not cover"):
        tang._window_rate(t, c, 1.0, 5.0)


def test_bad_red_thresholds_stop_the_run(cfg: dict, ns_binary: Path, tmp_path: Path) -> None:
    p = dict(ccr.runs(cfg, "tang", "fig09", "smoke")[0].params)
    p.update(bmin2=1500, bmax2=100)
    with pytest.raises(nsrun.NsRunError, match="b_min"):
        nsrun.run(ns_binary, ccr.tcl_script("tang", "chain"), tmp_path / "bad", p)


def _table(rates: dict[str, list[float]], sds: float = 1.0) -> pd.DataFrame:
    """A window table: per start order, three paths with given rates and 2 seeds +- sds."""
    rows = []
    for first, xs in rates.items():
        for i, x in enumerate(xs):
            for seed, e in ((1, -sds), (2, sds)):
                rows.append(
                    {
                        "short_tcp": "fast",
                        "first": first,
                        "idx": i + 1,
                        "protocol": "fast",
                        "what": "group",
                        "mbps": x + e,
                        "seed": seed,
                    }
                )
    return pd.DataFrame(rows)


def test_order_distance_by_hand() -> None:
    w = _table({"short": [52.0, 61.1, 26.6], "long": [13.3, 13.4, 92.7]})
    d, _ = tang.order_distance(w)
    # |38.7| + |47.7| + |66.1| = 152.5 over the mean total (139.7 + 119.4) / 2 = 129.55
    assert d == pytest.approx(152.5 / 129.55)


def test_claims_two_vs_one_equilibrium() -> None:
    two = _table({"short": [52.0, 61.1, 26.6], "long": [13.3, 13.4, 92.7]})
    one = _table({"short": [47.2, 72.3, 15.6], "long": [46.8, 72.0, 16.3]})
    _, c = tang.claims({"exp1": two, "exp2": one})
    assert c["table1.two_equilibria"][0]
    assert c["table4.unique_equilibrium"][0]
    _, c = tang.claims({"exp1": one, "exp2": two})
    assert not c["table1.two_equilibria"][0]
    assert not c["table4.unique_equilibrium"][0]
    # gaps within 3 s.d. are not two equilibria even with a large distance
    noisy = _table({"short": [52.0, 61.1, 26.6], "long": [13.3, 13.4, 92.7]}, sds=30.0)
    _, c = tang.claims({"exp1": noisy})
    assert not c["table1.two_equilibria"][0]


def test_theory_numbers_match_the_catalog() -> None:
    n = tang.theory_numbers()
    assert n["derived.exp3.readingi.a.reno_mbps"] == pytest.approx(90.49, abs=0.01)
    assert n["derived.exp3.readingi.b.reno_mbps.k2_10"] == pytest.approx(29.75, abs=0.01)
    assert n["derived.exp3.readingii.b.reno_mbps.k2_600"] == pytest.approx(41.36, abs=0.01)
    assert n["derived.exp3.readingii.b.link1_util.k2_600"] == pytest.approx(0.957, abs=0.001)
    for k, v in ((1, 40.0), (2, 40.0), (3, 70.0)):
        assert n[f"derived.table3.weighted_pf_prediction.path{k}"] == pytest.approx(v, abs=0.05)
    assert n["prop1.k2_over_k1_min"] == pytest.approx(2.0)


def test_shifting_counts_states_and_switches() -> None:
    """100 samples (t = 1..100 s); the first 10 % are left out. Link 1's ramp is 0..1000,
    link 2's 100..1500. Link 1 leads (its queue further up its ramp) at t = 31..50 and
    81..90: 30 of the 91 samples kept (t >= 10 s), 4 switches."""
    t = np.arange(1.0, 101.0)
    lead1 = ((t > 30) & (t <= 50)) | ((t > 80) & (t <= 90))
    q1 = np.where(lead1, 500.0, 50.0)  # 0.5 vs 0.05 of link 1's ramp
    q2 = np.where(lead1, 170.0, 1000.0)  # 0.05 vs 0.64 of link 2's ramp
    rows = [
        {
            "t": x,
            "link": link,
            "kind": "queue",
            "q_ewma": q,
            "bmin13": 0,
            "bmax13": 1000,
            "bmin2": 100,
            "bmax2": 1500,
        }
        for link, qs in ((1, q1), (2, q2))
        for x, q in zip(t, qs, strict=True)
    ]
    frac, switches = tang.shifting(pd.DataFrame(rows))
    assert switches == 4
    assert frac == pytest.approx(30 / 91)


def test_second_half_utilisation() -> None:
    """Link 1 (100 Mb/s) carries 50 Mb/s for t <= 5 s and 90 Mb/s after: the second half of a
    10-s trace (t > 5) averages 90 Mb/s, utilisation 0.9."""
    t = np.arange(1.0, 11.0)
    rows = [
        {
            "t": x,
            "link": 1,
            "kind": "throughput",
            "mbps": 50.0 if x <= 5 else 90.0,
            "bw1": 100e6,
            "bw2": 150e6,
        }
        for x in t
    ]
    assert tang.second_half_utilisation(pd.DataFrame(rows), 1) == pytest.approx(0.9)
