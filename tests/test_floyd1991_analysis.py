"""The Floyd 1991 analysis on real (short) ns runs: per-period differences, shares, ratio."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis import config as conf
from analysis import floyd1991, nsio, nsrun
from analysis.models import floyd1991 as models


@pytest.fixture(scope="module")
def runs(cfg: dict, ns_binary: Path, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    base = dict(conf.runs(cfg, "floyd1991", "fig08", "smoke")[0].params)
    out = []
    for n in (2, 3):
        d = tmp_path_factory.mktemp("floyd") / f"n{n}"
        nsrun.run(
            ns_binary,
            conf.tcl_script("floyd1991", "gateways"),
            d,
            {**base, "n": n, "duration": 150},
        )
        out.append(d)
    return out


def test_period_differences_add_up(runs: list[Path]) -> None:
    t = floyd1991.period_throughput(runs)
    for d in runs:
        s, tables = nsio.read_run(d)
        g = tables["goodput"]
        last = g[g["period"] == g["period"].max()].set_index("conn")["delivered"]
        per = t[t["n"] == s["params"]["n"]].groupby("conn")["delivered"].sum()
        assert (per == last).all()
    rate = 1.5e6 / 8000
    row = t.iloc[0]
    assert row["pct"] == pytest.approx(100 * row["delivered"] / (rate * 50))


def test_timeouts_are_the_sender_s_retransmission_timeouts(
    cfg: dict, ns_binary: Path, tmp_path: Path
) -> None:
    """goodput.tsv's timeouts column counts connection 0's retransmission timeouts: none when
    its gateway never drops (a buffer far above its window), some when a 2-packet buffer
    drops most of each slow-start burst, so that no duplicate ACK comes back."""
    base = dict(conf.runs(cfg, "floyd1991", "fig08", "smoke")[0].params)
    got = {}
    for buffer in (2, 1000):
        d = tmp_path / f"b{buffer}"
        params = {**base, "n": 1, "active": "conn0", "duration": 60, "gw_buffer": buffer}
        nsrun.run(ns_binary, conf.tcl_script("floyd1991", "gateways"), d, params)
        t = floyd1991.period_throughput([d])
        got[buffer] = int(t[t["conn"] == 0]["timeouts"].sum())
    assert got[1000] == 0
    assert got[2] > 0


def test_gateway_shares(runs: list[Path]) -> None:
    w = floyd1991.gateway_shares(runs)
    assert set(w["n"]) == {2, 3}
    assert len(w[w["n"] == 3]) == 3 * 3  # 3 gateways x 3 periods
    assert ((w["s_t"] >= 0) & (w["s_t"] <= 1)).all()
    has = w["drops"] >= 1
    expect = (w["drops_c0"] / w["drops"]) / w["s_t"]
    assert np.allclose(w.loc[has, "ratio"], expect[has], equal_nan=True)
    assert w.loc[~has, "ratio"].isna().all()


def test_throughput_analysis_line(runs: list[Path]) -> None:
    t = floyd1991.throughput(runs, "fig08")
    for n, g in t.groupby("n"):
        p = float(floyd1991.models.cor7_constant_rate(n))
        a0 = g[g["conn"] == 0]["analysis_pct"].iloc[0]
        a1 = g[g["conn"] == 1]["analysis_pct"].iloc[0]
        assert a0 / (a0 + a1) == pytest.approx(p)  # conn 0 : conn 1 = p : 1 - p


def test_extension_means_skip_the_first_period(runs: list[Path]) -> None:
    e = floyd1991.extension(runs)
    assert list(e["n"]) == [2, 3]
    t = floyd1991.period_throughput(runs)
    for _, row in e.iterrows():
        d = t[(t["n"] == row["n"]) & (t["period"] > 1)]
        assert row["conn0_pct"] == pytest.approx(d[d["conn"] == 0]["pct"].mean())
        assert row["conn1_pct"] == pytest.approx(d[d["conn"] == 1]["pct"].mean())
        # both connections cross gateway 1: together at most its capacity
        assert 0 < row["conn0_pct"] + row["conn1_pct"] <= 100.0
    assert set(e["gateway"]) == {"droptail"} and set(e["tcp"]) == {"sack"}


# ---- every criterion on hand-made inputs: one that holds, one that must fail --------------


def _thr(
    conn0: dict[int, float],
    conn1: dict[int, float],
    gap: float = 0.0,
    timeouts: dict[int, int] | None = None,
) -> pd.DataFrame:
    """A Figures 3-8 tidy table: ten periods per n, connection 0 and 1 at the given % of M,
    the analytical line ``gap`` points below the simulation; connection 0's sender times out
    ``timeouts[n]`` times in the run (in its first periods), connection 1's never."""
    rows = []
    for n in conn0:
        for period in range(1, 11):
            for conn, v in ((0, conn0[n]), (1, conn1[n])):
                stalls = (timeouts or {}).get(n, 0) if conn == 0 else 0
                rows.append(
                    {
                        "n": n,
                        "seed": 1,
                        "period": period,
                        "conn": conn,
                        "pct": v,
                        "timeouts": 1 if period <= stalls else 0,
                        "analysis_pct": v - gap if conn == 0 else v + gap,
                    }
                )
    return pd.DataFrame(rows)


def test_one_over_n_is_against_connection_1() -> None:
    # the paper's Cor 7 (Constant-Rate) shares: 50/50 at n = 1, a third at n = 2, 13 % at 10
    ok = _thr({1: 49.0, 2: 31.0, 10: 12.0}, {1: 49.0, 2: 62.0, 10: 86.0})
    b = floyd1991.one_over_n(ok)
    assert b["bound"].to_dict() == pytest.approx({1: 49.0, 2: 31.0, 10: 8.6})
    nums, _ = floyd1991.claims({"fig07": ok, "fig08": ok})
    assert nums["figs7_8.conn0_at_least_one_over_n"] is True
    # below 1/n of connection 1 at n = 10 in one figure only: fails
    low = _thr({1: 49.0, 2: 31.0, 10: 8.0}, {1: 49.0, 2: 62.0, 10: 90.0})
    assert not floyd1991.one_over_n(low).loc[10, "holds"]
    nums, _ = floyd1991.claims({"fig07": ok, "fig08": low})
    assert nums["figs7_8.conn0_at_least_one_over_n"] is False


def _stalled(calm: float, stalled: float, stalls: int) -> pd.DataFrame:
    """Figure 8 at n = 10 (one seed, ten periods): connection 1 at 86 % of M, connection 0 at
    ``stalled`` % in the ``stalls`` periods in which its sender times out, ``calm`` in the
    others; n = 1 and 2 meet the bound."""
    rows = []
    base = _thr({1: 49.0, 2: 31.0}, {1: 49.0, 2: 62.0})
    for period in range(1, 11):
        out = period <= stalls
        rows.append({"n": 10, "seed": 1, "period": period, "conn": 0, "timeouts": int(out),
                     "pct": stalled + 0.1 * period if out else calm + 0.1 * period,
                     "analysis_pct": 12.0})  # fmt: skip
        rows.append({"n": 10, "seed": 1, "period": period, "conn": 1, "timeouts": 0,
                     "pct": 86.0, "analysis_pct": 86.0})  # fmt: skip
    return pd.concat([base, pd.DataFrame(rows)], ignore_index=True)


def test_the_shortfall_is_met_without_connection_0_s_timeouts() -> None:
    """The check of the 1/n row's diagnosis: connection 0 short of 1/n at n = 10 (mean 3.0
    against 8.6), at 13 % of M in the two periods without a timeout: the bound holds there
    (true). Short in its calm periods too (6 %): false. A cell whose every period has a
    timeout: false. Nothing short: not computed (NaN)."""
    ok = _thr({1: 49.0, 2: 31.0, 10: 12.0}, {1: 49.0, 2: 62.0, 10: 86.0})
    stalls = _stalled(calm=12.0, stalled=0.0, stalls=8)
    assert not floyd1991.one_over_n(stalls).loc[10, "holds"]
    assert floyd1991.met_without_timeouts([ok, stalls]) is True
    nums, _ = floyd1991.claims({"fig07": ok, "fig08": stalls})
    assert nums[floyd1991.STALL_CHECK] is True
    assert nums["figs7_8.conn0_at_least_one_over_n"] is False
    short_anyway = _stalled(calm=6.0, stalled=0.0, stalls=8)
    assert floyd1991.met_without_timeouts([ok, short_anyway]) is False
    never_calm = _stalled(calm=12.0, stalled=0.0, stalls=10)
    assert floyd1991.met_without_timeouts([ok, never_calm]) is False
    assert np.isnan(floyd1991.met_without_timeouts([ok, ok]))


def test_one_over_n_at_n1_is_not_a_coin_flip() -> None:
    """At n = 1 connections 0 and 1 share one path: a connection 0 just below connection 1
    on average, within the periods' noise, reaches 1/1 of it; a shortfall far beyond the
    noise does not. Comparing the means alone (the old criterion) failed the first."""
    rows = []
    for period, (c0, c1) in enumerate([(45.0, 55.0), (55.0, 45.0), (48.0, 52.0), (50.0, 50.5)]):
        rows += [
            {"n": 1, "seed": 1, "period": period + 1, "conn": 0, "pct": c0, "analysis_pct": 0.0},
            {"n": 1, "seed": 1, "period": period + 1, "conn": 1, "pct": c1, "analysis_pct": 0.0},
        ]
    near = pd.DataFrame(rows)
    b = floyd1991.one_over_n(near)
    assert b.loc[1, "conn0"] < b.loc[1, "bound"]  # below on average: the old check failed
    # differences -10, 10, -4, -0.5: mean -1.125, sd 8.390, t(0.95, 3 df) = 2.3534; upper
    # bound -1.125 + 2.3534 x 8.390 / 2 = 8.748 > 0
    assert b.loc[1, "upper"] == pytest.approx(8.748, abs=1e-3)
    assert b.loc[1, "holds"]
    far = near.assign(pct=np.where(near["conn"] == 0, near["pct"] - 20.0, near["pct"]))
    assert not floyd1991.one_over_n(far).loc[1, "holds"]


def _ratios(per_n: dict[int, list[float]]) -> pd.DataFrame:
    rows = [
        {"n": n, "seed": 1, "gw": g, "period": 1, "ratio": r, "s_t": 0.3, "drops": 3}
        for n, rs in per_n.items()
        for g, r in enumerate(rs)
    ]
    return pd.DataFrame(rows)


def test_avg_ratio_is_checked_for_each_n() -> None:
    # pooled over n the mean is 1.0, but n = 2 averages 1.6: the number is n = 2's
    t = _ratios({1: [0.4, 0.4], 2: [1.6, 1.6], 3: [1.0, 1.0]})
    assert floyd1991.farthest_from_one(floyd1991.avg_ratio_per_n(t)) == pytest.approx(1.6)
    good = _ratios({1: [0.9, 1.1], 2: [1.2, 1.0]})
    assert floyd1991.farthest_from_one(floyd1991.avg_ratio_per_n(good)) == pytest.approx(1.1)
    assert np.isnan(floyd1991.farthest_from_one(pd.Series(dtype=float)))


def test_ratio_at_n10() -> None:
    more = _ratios({9: [0.5], 10: [1.5, 2.0]})
    nums, _ = floyd1991.claims({"fig10": more, "fig11": more})
    assert nums["fig10_11.avg_ratio_n10_gt_1"] is True
    less = _ratios({9: [3.0], 10: [0.5, 1.0]})
    nums, _ = floyd1991.claims({"fig10": more, "fig11": less})
    assert nums["fig10_11.avg_ratio_n10_gt_1"] is False
    # no n = 10 run: nothing to compare (missing), not the largest n's value
    nums, _ = floyd1991.claims({"fig10": _ratios({9: [3.0]}), "fig11": more})
    assert "fig10_11.avg_ratio_n10_gt_1" not in nums


def test_claims_of_figures_3_to_8() -> None:
    falling = _thr({1: 45.0, 2: 30.0, 3: 20.0}, {1: 50.0, 2: 65.0, 3: 75.0}, gap=2.0)
    rising = _thr({1: 20.0, 2: 30.0, 3: 45.0}, {1: 75.0, 2: 65.0, 3: 50.0}, gap=2.0)
    far = _thr({1: 45.0, 2: 30.0, 3: 20.0}, {1: 50.0, 2: 65.0, 3: 75.0}, gap=8.0)
    under = _thr({1: 45.0, 2: 30.0, 3: 20.0}, {1: 50.0, 2: 65.0, 3: 75.0}, gap=-2.0)
    _, out = floyd1991.claims({"fig03": falling, "fig04": far, "fig05": far})
    assert out["figs3_5.conn0_falls_with_n"][0]
    assert out["fig3.reasonable_agreement"][0]
    assert out["figs4_5.some_discrepancy"][0]
    _, out = floyd1991.claims({"fig03": far, "fig04": falling, "fig05": rising})
    assert not out["figs3_5.conn0_falls_with_n"][0]
    assert not out["fig3.reasonable_agreement"][0]
    assert not out["figs4_5.some_discrepancy"][0]
    # Figs 7-8: the analysis below the simulation; Random Drop and Drop Tail alike
    _, out = floyd1991.claims({"fig07": falling, "fig08": falling})
    assert out["figs7_8.analysis_overstates_bias"][0]
    assert out["sec4_5.droptail_randomdrop_similar"][0]
    _, out = floyd1991.claims({"fig07": falling, "fig08": under})
    assert not out["figs7_8.analysis_overstates_bias"][0]
    apart = _thr({1: 20.0, 2: 15.0, 3: 5.0}, {1: 75.0, 2: 80.0, 3: 90.0})
    _, out = floyd1991.claims({"fig07": falling, "fig08": apart})
    assert not out["sec4_5.droptail_randomdrop_similar"][0]
    # Fig 6: close to Claim 1 and connection 0 keeps >= 10 % at the largest n
    _, out = floyd1991.claims({"fig06": falling})
    assert out["fig6.close_agreement"][0]
    _, out = floyd1991.claims({"fig06": far})
    assert not out["fig6.close_agreement"][0]
    starved = _thr({1: 45.0, 2: 20.0, 3: 8.0}, {1: 50.0, 2: 75.0, 3: 88.0})
    assert not floyd1991.claims({"fig06": starved})[1]["fig6.close_agreement"][0]


def test_claim_fig2_and_fig12() -> None:
    t = _thr({5: 10.0}, {5: 0.0})
    t.loc[t["conn"] == 0, "pct"] = np.arange(10, 110, 10.0)  # rises every period
    assert floyd1991.claims({"fig02": t})[1]["fig2.throughput_rises_each_period"][0]
    t.loc[(t["conn"] == 0) & (t["period"] == 6), "pct"] = 30.0
    assert not floyd1991.claims({"fig02": t})[1]["fig2.throughput_rises_each_period"][0]
    share = np.linspace(0.02, 0.5, 40)
    burst = pd.DataFrame({"n": 10, "s_t": share, "ratio": 0.6 + 5 * np.exp(-5 * share)})
    assert floyd1991.claims({"fig12": burst})[1]["fig12.ratio_rises_as_share_falls"][0]
    flat = burst.assign(ratio=np.random.default_rng(1).uniform(0.5, 1.5, len(share)))
    assert not floyd1991.claims({"fig12": flat})[1]["fig12.ratio_rises_as_share_falls"][0]


def test_analytical_claims_fail_on_wrong_formulas() -> None:
    assert all(h for h, _ in floyd1991.analytical_claims().values())

    class Wrong:
        """The paper's closed forms with each one off."""

        def __getattr__(self, name: str) -> object:
            return getattr(models, name)

        @staticmethod
        def claim1_share(n: object) -> object:
            return 1.0 / (1.0 + np.asarray(n, dtype=float))  # 1/(1+n), not 1/(1+sqrt n)

        @staticmethod
        def cor3_share(r: object) -> object:
            return 1.0 / (1.0 + np.asarray(r, dtype=float) ** 2)

        @staticmethod
        def cor4_share(r0: float, r1: float) -> float:
            return r0 / (r0 + r1)

        @staticmethod
        def cor6_share(n: object) -> object:
            return 1.0 / (2.0 * np.asarray(n, dtype=float))

        @staticmethod
        def cor7_constant_rate(n: int) -> float:
            return 1.0 / (1.0 + n)

        @staticmethod
        def product_measure(p: object, n: int) -> object:
            return np.asarray(p) * (1 - np.asarray(p)) ** (2 * n)

        @staticmethod
        def jain_gateways(p: object, n: int) -> object:
            return -((np.asarray(p) - 0.5) ** 2)

    out = floyd1991.analytical_claims(Wrong())  # type: ignore[arg-type]
    assert not any(h for h, _ in out.values()), out


def test_paper_f_excess_is_positive_only_where_f_overstates() -> None:
    """f(0.4) = 0.59 + 5 e^{-2} = 1.2667; f(0.1) is not counted (s_t < 1/4)."""
    t = pd.DataFrame({"s_t": [0.4, 0.4, 0.1], "ratio": [1.0, 0.9, 50.0]})
    # (1.2667 - 1.0 + 1.2667 - 0.9) / 2 = 0.3167: the function overstates
    assert floyd1991.paper_f_excess(t) == pytest.approx(0.59 + 5 * np.exp(-2) - 0.95)
    high = t.assign(ratio=[2.0, 2.0, 50.0])
    assert floyd1991.paper_f_excess(high) < 0  # understates: the check fails
    assert np.isnan(floyd1991.paper_f_excess(t[t["s_t"] < 0.25]))


def test_most_common_drops_is_the_mode_not_the_median() -> None:
    t = pd.DataFrame({"drops": [3, 3, 3, 4, 5, 6, 7]})
    assert floyd1991.most_common_drops(t) == 3.0  # the median is 4
    assert float(t["drops"].median()) == 4.0
    assert floyd1991.most_common_drops(pd.DataFrame({"drops": [2, 2, 5, 5]})) == 2.0
    assert np.isnan(floyd1991.most_common_drops(pd.DataFrame({"drops": []})))


def test_ratio_bins_give_each_bins_mean_and_median() -> None:
    """Figure 12's bins: 0.025 wide, centred, bins of fewer than 3 points left out; one period
    where connection 0 sent almost nothing moves its bin's mean (101), not its median (2)."""
    t = pd.DataFrame(
        {
            "s_t": [0.01, 0.012, 0.02, 0.305, 0.31, 0.32, 0.6, 0.0, 0.5],
            "ratio": [1.0, 2.0, 300.0, 1.0, 1.5, 2.0, 7.0, 9.0, np.nan],
        }
    )
    b = floyd1991.ratio_bins(t)
    assert b.index.tolist() == pytest.approx([0.0125, 0.3125])
    assert b["mean"].tolist() == pytest.approx([101.0, 1.5])
    assert b["median"].tolist() == pytest.approx([2.0, 1.5])
    assert b["size"].tolist() == [3, 3]


def test_the_median_fit_check_recovers_a_curve_the_means_miss() -> None:
    """Points on y = -1.19 + 1.548 / sqrt(x) in five bins, each bin with one outlier period:
    the fit to the medians (the diagnosis's check) gives the curve back; the fit to the means
    (our rows) does not."""
    centres = np.array([0.0625, 0.1125, 0.2125, 0.3125, 0.4125])
    y = -1.19 + 1.548 / np.sqrt(centres)
    s_t = np.repeat(centres, 3)
    ratio = np.repeat(y, 3)
    ratio[::3] += 40.0 * np.arange(1, 6)  # one outlier per bin, larger in each
    b = floyd1991.ratio_bins(pd.DataFrame({"s_t": s_t, "ratio": ratio}))
    m = floyd1991.models.fit_inverse_sqrt(b.index.to_numpy(), b["median"].to_numpy())
    q = floyd1991.models.fit_inverse_sqrt(b.index.to_numpy(), b["mean"].to_numpy())
    numbers = {"a": m.a, "b": m.b}
    assert numbers == pytest.approx({"a": -1.19, "b": 1.548})
    assert abs(q.a + 1.19) > 0.3 * 1.19
