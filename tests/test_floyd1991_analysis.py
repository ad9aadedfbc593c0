"""The Floyd 1991 analysis on real (short) ns runs: per-period differences, shares, ratio."""

from pathlib import Path

import numpy as np
import pytest

from analysis import config as ccr
from analysis import floyd1991, nsio, nsrun


@pytest.fixture(scope="module")
def runs(cfg: dict, ns_binary: Path, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    base = dict(ccr.runs(cfg, "floyd1991", "fig08", "smoke")[0].params)
    out = []
    for n in (2, 3):
        d = tmp_path_factory.mktemp("floyd") / f"n{n}"
        nsrun.run(
            ns_binary, ccr.tcl_script("floyd1991", "gateways"), d, {**base, "n": n, "duration": 150}
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
