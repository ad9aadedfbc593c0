"""The Gao, Jain, Schulman analysis on real (short) ns runs, the max-min solver, the claims,
and the parameter errors of the two experiment scripts."""

import copy
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from analysis import config as conf
from analysis import gao, nsio, nsrun

PKT_BITS = 8000.0  # 1000-byte packets


def _base(cfg: dict, experiment: str) -> dict:
    return dict(conf.runs(cfg, "gao", experiment, "smoke")[0].params)


def _run(ns: Path, family: str, out: Path, params: dict) -> Path:
    nsrun.run(ns, conf.tcl_script("gao", family), out, params)
    return out


@pytest.fixture(scope="module")
def table1_runs(cfg: dict, ns_binary: Path, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Table 1's setting, 10 s: the three schemes of the paper, Tahoe, seeds 1 and 2."""
    base = _base(cfg, "table1")
    d = tmp_path_factory.mktemp("gao_t1")
    return [
        _run(
            ns_binary,
            "chain",
            d / f"{g}_{s}",
            {**base, "gateway": g, "tcp": "tahoe", "seed": s, "duration": 10},
        )
        for g in gao.PAPER_SCHEMES
        for s in (1, 2)
    ]


@pytest.fixture(scope="module")
def table2_runs(cfg: dict, ns_binary: Path, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    base = _base(cfg, "table2")
    d = tmp_path_factory.mktemp("gao_t2")
    return [
        _run(ns_binary, "chain", d / g, {**base, "gateway": g, "duration": 4})
        for g in gao.PAPER_SCHEMES
    ]


@pytest.fixture(scope="module")
def poisson_runs(
    cfg: dict, ns_binary: Path, tmp_path_factory: pytest.TempPathFactory
) -> list[Path]:
    """Simulation 1, 100 s measured after 10 s: F = 600 with flow 4 at 0.4 r and 1.2 r, and
    F = 1200 with flow 4 at 0.4 r (Protocol I)."""
    base = _base(cfg, "fig02")
    d = tmp_path_factory.mktemp("gao_p")
    points = [(g, s4, 600) for g in ("protocol1", "protocol2") for s4 in (0.4, 1.2)]
    return [
        _run(
            ns_binary,
            "poisson",
            d / f"{g}_{s4}_{f}",
            {**base, "gateway": g, "s4": s4, "F": f, "duration": 110, "sim1_warmup": 10},
        )
        for g, s4, f in [*points, ("protocol1", 0.4, 1200)]
    ]


# ---- max-min fairness by hand ---------------------------------------------------------------


def test_maxmin_single_link() -> None:
    # Simulation 1: demands r, 2r/3, r/2, 2r/5 and an unbounded flow 4 on capacity r: r/5 each
    rates = gao.maxmin(
        {"l": 1.0}, {f: ["l"] for f in "01234"}, {"0": 1, "1": 2 / 3, "2": 0.5, "3": 0.4}
    )
    assert all(v == pytest.approx(0.2) for v in rates.values())
    # a small demand is met, the rest is shared: 0.1, 0.45, 0.45
    rates = gao.maxmin({"l": 1.0}, {f: ["l"] for f in "abc"}, {"a": 0.1})
    assert rates == pytest.approx({"a": 0.1, "b": 0.45, "c": 0.45})
    # Simulation 2.1: 3 Mb/s UDP and 32 TCP on 2 Mb/s: 2/33 each
    flows = {str(i): ["l"] for i in range(33)}
    assert gao.maxmin({"l": 2.0}, flows, {"0": 3.0})["5"] == pytest.approx(2 / 33)


def test_maxmin_network() -> None:
    # Simulation 3: UDP1 and TCP2 over L12 and L23, TCP3 over L23, 10 Mb/s: 10/3 each
    rates = gao.maxmin(
        {"12": 10, "23": 10}, {"u": ["12", "23"], "t2": ["12", "23"], "t3": ["23"]}, {"u": 10}
    )
    assert rates == pytest.approx({"u": 10 / 3, "t2": 10 / 3, "t3": 10 / 3})
    # x alone on a (1), y on a and b, z alone on b (3): a fills first at 0.5, z takes the rest
    rates = gao.maxmin({"a": 1, "b": 3}, {"x": ["a"], "y": ["a", "b"], "z": ["b"]})
    assert rates == pytest.approx({"x": 0.5, "y": 0.5, "z": 2.5})
    with pytest.raises(ValueError, match="capacity of link 'a' must be > 0"):
        gao.maxmin({"a": -1.0}, {"x": ["a"]})
    with pytest.raises(ValueError, match="demand of flow 'x' must be >= 0"):
        gao.maxmin({"a": 1.0}, {"x": ["a"]}, {"x": -0.5})


def test_jain() -> None:
    assert gao.jain([3, 3, 3]) == pytest.approx(1.0)
    assert gao.jain([1, 0, 0, 0]) == pytest.approx(0.25)
    assert gao.jain([1, 2]) == pytest.approx(9 / 10)


# ---- Table 1: one link ----------------------------------------------------------------------


def test_chain_counts_add_up(table1_runs: list[Path]) -> None:
    t = gao.chain_rates(table1_runs)
    assert len(t) == 6 * 20 and set(t["link"]) == {1}
    # throughput is departures x 1000 B over the 10-s window
    assert np.allclose(t["mbps"], t["departures"] * PKT_BITS / 10 / 1e6)
    for d in table1_runs:
        s, tables = nsio.read_run(d)
        run = t[(t["gateway"] == s["params"]["gateway"]) & (t["seed"] == s["params"]["seed"])]
        # a 1.5 Mb/s link sends 1875 packets of 1000 B in 10 s; ns-2 TCP's first packet of
        # each connection is a 40-byte one, so up to 10 more (one per TCP flow)
        assert 1865 <= run["departures"].sum() <= 1875 + 10
        # packets still queued at the end: not negative, within the buffer
        queued = (run["arrivals"] - run["departures"] - run["drops"]).sum()
        limit = (
            s["params"]["buffer"]
            if s["params"]["gateway"].startswith("protocol")
            else s["params"]["limit"]
        )
        assert 0 <= queued <= limit
    # each 0.5 Mb/s CBR flow offers 625 packets in 10 s; random_ 1 stretches each gap by
    # U[-1/2, 1/2] of the interval (sd 0.29), so a count's sd is 0.29 sqrt(625) = 7.2
    udp = t[t["kind"] == "udp"]
    assert (udp["arrivals"] - 625).abs().max() <= 30
    assert abs(udp["arrivals"].mean() - 625) <= 5


def test_table1_numbers(table1_runs: list[Path], root: Path) -> None:
    tidy, numbers = gao.table1(table1_runs)
    runs = gao.per_run_extremes(tidy)
    for g in gao.PAPER_SCHEMES:
        r = runs[runs["gateway"] == g]
        for kind in ("udp", "tcp"):
            per_run_max = [
                tidy[(tidy["gateway"] == g) & (tidy["seed"] == s) & (tidy["kind"] == kind)][
                    "mbps"
                ].max()
                for s in (1, 2)
            ]
            assert r[f"{kind}_max"].tolist() == pytest.approx(per_run_max)
            # a row is one run's statistic, its median over seeds (docs/gao.md A15)
            assert numbers[f"table1.{g}.{kind}_max"] == pytest.approx(np.median(per_run_max))
    assert numbers["derived.sim2_2.fair_share"] == pytest.approx(1.5 / 20)
    published = {
        e["key"]
        for e in yaml.safe_load((root / "config/originals/gao.yaml").read_text())["numbers"]
    }
    assert {k for k in numbers if not k.startswith("check.")} <= published
    assert len([k for k in numbers if k.startswith("table1.")]) == 12
    # the smallest run's CHOKe TCP minimum: the check of that row's diagnosis
    assert set(numbers) - published == {"check.table1.choke.tcp_min.lo"}
    lo = gao.table1_seed_range(tidy)["check.table1.choke.tcp_min.lo"]
    assert numbers["check.table1.choke.tcp_min.lo"] == lo


# ---- Table 2: two links ---------------------------------------------------------------------


def test_table2_links(table2_runs: list[Path]) -> None:
    tidy, numbers = gao.table2(table2_runs)
    # TCP3 enters at router 2: measured on L23 only
    assert set(tidy[tidy["fid"] == 3]["link"]) == {2}
    assert len(tidy) == 3 * 5
    for g in gao.PAPER_SCHEMES:
        t = tidy[tidy["gateway"] == g].set_index(["link", "fid"])
        # what L23 forwards of UDP1 and TCP2 first left L12 (a few packets in flight)
        for f in (1, 2):
            assert t.loc[(2, f), "departures"] <= t.loc[(1, f), "departures"]
            assert t.loc[(2, f), "arrivals"] >= t.loc[(1, f), "departures"] - 10
        # a 10 Mb/s link sends at most 5000 packets in 4 s
        assert t.xs(2, level="link")["departures"].sum() <= 5000
    assert numbers["derived.sim3.maxmin_fair_share"] == pytest.approx(10 / 3)
    share = numbers["sec6_3.protocol1.udp1_share_of_l12"]
    assert share == pytest.approx(numbers["table2.protocol1.udp1.l12"] / 10)


# ---- Simulation 1 ---------------------------------------------------------------------------


def test_poisson_rates(poisson_runs: list[Path]) -> None:
    tidy, numbers = gao.fig02(poisson_runs, primary_f=600)
    assert numbers["sim1.h_over_f"] == pytest.approx(1 / 6)
    assert numbers["sim1.l"] == 0
    assert [numbers[f"sim1.fixed_rates.flow{i}"] for i in range(4)] == pytest.approx(
        [1, 2 / 3, 1 / 2, 2 / 5]
    )
    assert numbers["derived.sim1.maxmin_fair_share"] == pytest.approx(0.2)
    assert len(tidy) == 5 * 5
    for (g, f, s4), run in tidy.groupby(["gateway", "F", "s4"]):
        # Poisson arrivals over 100 s at 125 packets/s per unit of r: within 5 standard deviations
        want = run["rate_r"] * 125 * 100
        assert ((run["arrivals"] - want).abs() <= 5 * np.sqrt(want)).all(), (g, f, s4)
        # offered 2.57 r + s4 > r: the link is busy nearly all the time, and never more
        assert 0.97 <= run["thr_r"].sum() <= 1.0 + 1e-9
        assert run.set_index("fid").loc[4, "rate_r"] == pytest.approx(s4)
        assert (run["H"] == f // 6).all()
    # flows 0-3 draw from their own substreams: the same arrivals whatever flow 4 does
    p1 = tidy[(tidy["gateway"] == "protocol1") & (tidy["F"] == 600)]
    p1 = p1.pivot(index="fid", columns="s4", values="arrivals")
    assert (p1.loc[[0, 1, 2, 3], 0.4] == p1.loc[[0, 1, 2, 3], 1.2]).all()
    curve = gao.fig02_curve(tidy)
    assert len(curve) == 5 and set(curve["s4"]) == {0.4, 1.2}
    # the peak is read from the primary buffer's curve only
    best = curve[curve["F"] == 600].sort_values("mean").iloc[-1]
    assert numbers["fig2.max_flow4_throughput"] == pytest.approx(best["mean"])
    assert numbers["fig2.argmax_sending_rate_upper_bound"] == best["s4"]
    _, other = gao.fig02(poisson_runs, primary_f=1200)
    one = curve[curve["F"] == 1200]["mean"].iloc[0]
    assert other["fig2.max_flow4_throughput"] == pytest.approx(one)
    assert other["fig2.argmax_sending_rate_upper_bound"] == 0.4


# ---- claims ---------------------------------------------------------------------------------


def test_claims_keys_and_criteria(
    table1_runs: list[Path], table2_runs: list[Path], poisson_runs: list[Path], root: Path
) -> None:
    tables = {
        "table1": gao.chain_rates(table1_runs),
        "table2": gao.chain_rates(table2_runs),
        "fig02": gao.poisson_rates(poisson_runs),
    }
    out = gao.claims(tables, primary_f=600)
    listed = {
        c["key"] for c in yaml.safe_load((root / "config/originals/gao.yaml").read_text())["claims"]
    }
    assert set(out) <= listed
    assert {"fig2.drops_at_rate_r", "table1.no_tcp_shutout", "table2.near_fair_on_l23"} <= set(out)
    assert all(isinstance(h, bool) and d for h, d in out.values())
    # the Protocol II criterion flips when TCP is made to lose: swap the kinds of the flows
    t = tables["table1"].copy()
    t["kind"] = t["kind"].map({"udp": "tcp", "tcp": "udp"})
    flipped = gao.claims({"table1": t})["table1.protocol2_tcp_above_udp"][0]
    assert flipped != out["table1.protocol2_tcp_above_udp"][0]


def test_claim_fig3_on_synthetic_rates() -> None:
    """Fig 3 criteria on hand-made throughputs: UDP at 5% of 3 Mb/s and TCP at the fair share
    holds; UDP at 20% fails; CHOKe holds only if every TCP flow is below the UDP flow."""
    fair = 2 / 33

    def tidy(gw: str, udp: float, tcp: list[float]) -> pd.DataFrame:
        rows = [(1, "udp", udp)] + [(i + 2, "tcp", v) for i, v in enumerate(tcp)]
        return pd.DataFrame(
            [
                {
                    "gateway": gw,
                    "tcp": "tahoe",
                    "low": 10,
                    "seed": 1,
                    "link": 1,
                    "fid": f,
                    "kind": k,
                    "mbps": v,
                    "link_bw": 2e6,
                    "udp_rate": 3e6,
                }
                for f, k, v in rows
            ]
        )

    ok = gao.claims({"fig03": tidy("protocol1", 0.15, [fair] * 32)})
    assert ok["fig3.protocol1_penalises_udp"][0]
    bad = gao.claims({"fig03": tidy("protocol1", 0.6, [fair] * 32)})
    assert not bad["fig3.protocol1_penalises_udp"][0]
    assert gao.claims({"fig03": tidy("choke", 0.5, [0.04] * 32)})["fig3.choke_tcp_below_udp"][0]
    assert not gao.claims({"fig03": tidy("choke", 0.5, [0.04] * 31 + [0.6])})[
        "fig3.choke_tcp_below_udp"
    ][0]


# ---- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("family", "experiment", "change", "message"),
    [
        ("chain", "table1", {"low": 200}, "need 0 <= low < high < buffer (low 200, high 200"),
        ("chain", "table1", {"n_udp": -1}, "n_udp must be >= 0"),
        ("chain", "table1", {"udp_rate": -500000}, "'udp_rate' = '-500000' is not a number > 0"),
        (
            "poisson",
            "fig02",
            {"L": 100, "F": 600},
            "need 0 <= L < H < F with H = floor(F / H_div) (L 100, F 600, H_div 6)",
        ),
        ("poisson", "fig02", {"rates": "1,-2/3,1/2,2/5"}, "rates: '-2/3' is not a positive number"),
        ("poisson", "fig02", {"rates": "1,2/0,1/2,2/5"}, "rates: '2/0' is not a positive number"),
        ("poisson", "fig02", {"s4": -0.5}, "'s4' = '-0.5' is not a number > 0"),
    ],
)
def test_bad_parameters_stop_the_run(
    cfg: dict,
    ns_binary: Path,
    tmp_path: Path,
    family: str,
    experiment: str,
    change: dict,
    message: str,
) -> None:
    params = {**_base(cfg, experiment), **change}
    with pytest.raises(nsrun.NsRunError, match="failed") as e:
        nsrun.run(ns_binary, conf.tcl_script("gao", family), tmp_path / "run", params)
    assert message in str(e.value)


def test_config_rejects_negative_rate(cfg: dict) -> None:
    """Before any run: a negative default (even one every experiment overrides) and a
    negative swept rate of flow 4, each named by its config path."""
    bad = copy.deepcopy(cfg)
    bad["gao"]["parameters"]["udp_rate"]["value"] = -3e6
    with pytest.raises(
        conf.ConfigError,
        match=r"gao\.parameters\.udp_rate' = -3000000.0: must be a number > 0",
    ):
        conf.validate(bad)
    bad = copy.deepcopy(cfg)
    bad["gao"]["experiments"]["fig02"]["fidelity"]["paper"]["sweep"]["s4"] = [0.5, -0.1]
    with pytest.raises(
        conf.ConfigError,
        match=r"gao\.experiments\.fig02\.fidelity\.paper\.sweep\.s4' = -0.1",
    ):
        conf.validate(bad)


def test_drr_reference_is_fair(cfg: dict, ns_binary: Path, tmp_path: Path) -> None:
    """DRR (stock ns-2) with one UDP flow at 3 Mb/s and 32 TCP flows on 2 Mb/s gives every
    flow 2/33 Mb/s: the 33 sources sit in distinct hash buckets."""
    base = _base(cfg, "fig03")
    d = _run(
        ns_binary,
        "chain",
        tmp_path / "drr",
        {**base, "gateway": "drr", "duration": 20, "warmup": 5},
    )
    t = gao.chain_rates([d])
    assert t["mbps"].sum() == pytest.approx(2.0, rel=0.01)
    assert ((t["mbps"] - 2 / 33).abs() <= 0.1 * 2 / 33).all(), t["mbps"].describe()


def test_drr_bucket_check(root: Path, ns_binary: Path, tmp_path: Path) -> None:
    """experiment::drr_distinct uses queue/drr.cc's hash: nodes 15 and 16 share a bucket (h = 15 for
    both), nodes 14 and 16 do not; node 0 hashes to 0."""
    lib = (root / "tcl" / "lib" / "experiment.tcl").as_posix()
    script = tmp_path / "drr.tcl"
    script.write_text(
        f"source {{{lib}}}\n"
        "set ns [experiment::sim_new 1]\n"
        "for {set i 0} {$i < 17} {incr i} { set n($i) [$ns node] }\n"
        "experiment::drr_distinct 1024 [list $n(0) $n(14) $n(16)]\n"
        "puts distinct\n"
        "experiment::drr_distinct 1024 [list $n(15) $n(16)]\n"
        "puts reached\n"
    )
    p = subprocess.run([str(ns_binary), str(script)], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2
    assert "distinct" in p.stdout and "reached" not in p.stdout
    assert "drr: source nodes 15 and 16 share hash bucket 15 of 1024" in p.stderr


# ---- every claim criterion on hand-made inputs: one that holds, one that must fail --------


def _chain(rows: list[tuple], link_bw: float = 1.5e6, udp_rate: float = 0.5e6) -> pd.DataFrame:
    """A chain tidy table from (gateway, tcp, seed, link, fid, kind, mbps[, arrivals,
    departures]) rows."""
    out = []
    for r in rows:
        gw, tcp, seed, link, fid, kind, mbps = r[:7]
        arr, dep = r[7:9] if len(r) > 7 else (0, 0)
        out.append(
            {
                "gateway": gw,
                "tcp": tcp,
                "low": 10,
                "seed": seed,
                "link": link,
                "fid": fid,
                "kind": kind,
                "mbps": mbps,
                "arrivals": arr,
                "departures": dep,
                "link_bw": link_bw,
                "udp_rate": udp_rate,
            }
        )
    return pd.DataFrame(out)


def _table1(
    udp: dict[str, float], tcp: dict[str, list[float]], tcps: tuple[str, ...] = ("tahoe",)
) -> pd.DataFrame:
    """Table 1 (10 UDP + 10 TCP on 1.5 Mb/s), two seeds: every UDP flow of a scheme at
    udp[gw], the TCP flows at tcp[gw] (ten values)."""
    rows = []
    for v in tcps:
        for gw in udp:
            for seed in (1, 2):
                rows += [(gw, v, seed, 1, f, "udp", udp[gw]) for f in range(1, 11)]
                rows += [(gw, v, seed, 1, 11 + i, "tcp", x) for i, x in enumerate(tcp[gw])]
    return _chain(rows)


TABLE1_OK = {"choke": 0.145, "protocol1": 0.146, "protocol2": 0.004}
TABLE1_TCP = {"choke": [0.002] * 10, "protocol1": [0.003] * 10, "protocol2": [0.14] * 10}


def _pkts(n: float) -> float:
    """Mb/s of n 1000-byte packets in Table 1's 100-s interval."""
    return n * PKT_BITS / 100 / 1e6


# CHOKe, Tahoe, three seeds (packets in 100 s), chosen so that every candidate statistic of a
# row differs: tcp_min per seed 12, 3, 5 -> median 5 (seed 3), mean 20/3, pooled min 3, seed 1
# 12; tcp_max 40, 33, 50 -> median 40, mean 41; udp_max 1900, 2000, 1850 -> median 1900, mean
# 1916.67; udp_min 1800, 1700, 1790 -> median 1790, mean 1763.33
T1_SEEDS = {
    1: {"udp": [1800, 1900], "tcp": [12, 20, 40]},
    2: {"udp": [1700, 2000], "tcp": [3, 15, 33]},
    3: {"udp": [1790, 1850], "tcp": [5, 9, 50]},
}


def _t1_choke() -> pd.DataFrame:
    rows = []
    for seed, kinds in T1_SEEDS.items():
        fid = 1
        for kind in ("udp", "tcp"):
            for n in kinds[kind]:
                rows.append(("choke", "tahoe", seed, 1, fid, kind, _pkts(n)))
                fid += 1
    return _chain(rows)


def test_table1_rows_are_the_median_over_seeds_of_one_run_statistic() -> None:
    numbers = gao.table1_numbers(_t1_choke())
    expect = {"tcp_min": 5, "tcp_max": 40, "udp_max": 1900, "udp_min": 1790}
    for stat, n in expect.items():
        assert numbers[f"table1.choke.{stat}"] == pytest.approx(_pkts(n)), stat
    # the former statistic, the mean over seeds of each run's minimum (20/3 packets), and the
    # other candidates (the pooled minimum, seed 1 alone) are not what the row gives
    for other in (20 / 3, 3, 12):
        assert numbers["table1.choke.tcp_min"] != pytest.approx(_pkts(other))
    assert numbers["table1.choke.tcp_max"] != pytest.approx(_pkts(41))
    assert numbers["table1.choke.udp_min"] != pytest.approx(_pkts(1763.333333))
    # five flows per run on 1.5 Mb/s, the UDP flows sending 0.5 Mb/s: 1.5/5 each
    assert numbers["derived.sim2_2.fair_share"] == pytest.approx(1.5 / 5)
    # only Table 1's rows and the fair share: the check values are not among them yet
    assert sorted(numbers) == sorted(
        [*(f"table1.choke.{s}" for s in expect), "derived.sim2_2.fair_share"]
    )
    ex = gao.table1_extremes(_t1_choke()).set_index("stat")
    assert ex.loc["tcp_min", "n"] == 3


def test_table1_seed_range_check() -> None:
    t = _t1_choke()
    assert gao.table1_seed_range(t) == {
        "check.table1.choke.tcp_min.lo": pytest.approx(_pkts(3)),
        "check.table1.choke.tcp_min.hi": pytest.approx(_pkts(12)),
    }
    assert gao.table1_seed_range(t, "table1.choke.udp_max") == {
        "check.table1.choke.udp_max.lo": pytest.approx(_pkts(1850)),
        "check.table1.choke.udp_max.hi": pytest.approx(_pkts(2000)),
    }
    with pytest.raises(ValueError, match="not a Table 1 max/min row"):
        gao.table1_seed_range(t, "table1.choke.tcp_mean")
    with pytest.raises(ValueError, match="no Tahoe runs of 'protocol1'"):
        gao.table1_seed_range(t, "table1.protocol1.tcp_min")


def test_claim_no_tcp_shutout_needs_every_tcp_flow() -> None:
    key = "table1.no_tcp_shutout"
    assert gao.claims({"table1": _table1(TABLE1_OK, TABLE1_TCP)})[key][0]
    # one CHOKe TCP flow gets nothing: the TCP flows together still get something, but the
    # claim is about every TCP source
    one_out = {**TABLE1_TCP, "choke": [0.0] + [0.003] * 9}
    holds, detail = gao.claims({"table1": _table1(TABLE1_OK, one_out)})[key]
    assert not holds and "choke 2 of 2" in detail
    # a scheme without runs cannot confirm the claim
    two = {k: v for k, v in TABLE1_OK.items() if k != "protocol2"}
    holds, detail = gao.claims({"table1": _table1(two, TABLE1_TCP)})[key]
    assert not holds and "no runs of protocol2" in detail


def test_claim_udp_above_fair_under_choke_and_protocol1() -> None:
    key = "table1.choke_protocol1_udp_above_fair"
    assert gao.claims({"table1": _table1(TABLE1_OK, TABLE1_TCP)})[key][0]
    # Protocol I's UDP flows at the fair share 0.075 exactly: not 'more than' it
    fair = {**TABLE1_OK, "protocol1": 0.075}
    assert not gao.claims({"table1": _table1(fair, {**TABLE1_TCP, "protocol1": [0.075] * 10})})[
        key
    ][0]


def test_claim_protocol2_tcp_above_udp() -> None:
    key = "table1.protocol2_tcp_above_udp"
    assert gao.claims({"table1": _table1(TABLE1_OK, TABLE1_TCP)})[key][0]
    starved = {**TABLE1_TCP, "protocol2": [0.003] * 10}
    assert not gao.claims({"table1": _table1({**TABLE1_OK, "protocol2": 0.14}, starved)})[key][0]


def test_claim_tcp_variants_similar() -> None:
    key = "table1.tcp_variants_similar"
    both = pd.concat(
        [_table1(TABLE1_OK, TABLE1_TCP), _table1(TABLE1_OK, TABLE1_TCP, ("reno",))],
        ignore_index=True,
    )
    assert gao.claims({"table1": both})[key][0]
    # under Reno, Protocol II lets UDP win: a different winner from Tahoe's
    reno = _table1(
        {**TABLE1_OK, "protocol2": 0.14},
        {**TABLE1_TCP, "protocol2": [0.004] * 10},
        ("reno",),
    )
    diff = pd.concat([_table1(TABLE1_OK, TABLE1_TCP), reno], ignore_index=True)
    assert not gao.claims({"table1": diff})[key][0]


def _table2(rates: dict[str, dict[tuple[int, int], float]], lost: float = 0.0) -> pd.DataFrame:
    """Table 2 (UDP1 and TCP2 over links 1 and 2, TCP3 over link 2, 10 Mb/s): rates[gw]
    maps (link, fid) to Mb/s; arrivals and departures in packets (1000 per Mb/s), UDP1
    losing the fraction ``lost`` of what enters L12 and TCP2 nothing."""
    rows = []
    for gw, r in rates.items():
        for (link, fid), v in r.items():
            kind = "udp" if fid == 1 else "tcp"
            dep = 1000 * v
            arr = dep / (1 - lost) if (fid == 1 and link == 1) else dep
            rows.append((gw, "tahoe", 1, link, fid, kind, v, arr, dep))
    return _chain(rows, link_bw=10e6, udp_rate=10e6)


FAIR3 = {(1, 1): 6.6, (2, 1): 3.4, (1, 2): 3.3, (2, 2): 3.3, (2, 3): 3.3}
CHOKE3 = {(1, 1): 9.5, (2, 1): 9.0, (1, 2): 0.4, (2, 2): 0.4, (2, 3): 0.6}


def test_claims_of_table2() -> None:
    good = _table2({"protocol1": FAIR3, "protocol2": FAIR3, "choke": CHOKE3}, lost=0.4)
    out = gao.claims({"table2": good})
    assert out["table2.near_fair_on_l23"][0]
    assert out["table2.protocol2_comparable_beats_choke"][0]
    assert out["table2.udp_more_loss_multi_link"][0]
    # Protocol I lets UDP1 keep L23: far from the max-min rates
    unfair = {(1, 1): 9.0, (2, 1): 8.0, (1, 2): 1.0, (2, 2): 1.0, (2, 3): 1.0}
    bad = _table2({"protocol1": unfair, "protocol2": FAIR3, "choke": CHOKE3}, lost=0.4)
    out = gao.claims({"table2": bad})
    assert not out["table2.near_fair_on_l23"][0]
    # ... so Protocol II (fair) is no longer comparable with it
    assert not out["table2.protocol2_comparable_beats_choke"][0]
    # Protocol II no better than CHOKe
    worse = _table2({"protocol1": FAIR3, "protocol2": CHOKE3, "choke": CHOKE3}, lost=0.4)
    assert not gao.claims({"table2": worse})["table2.protocol2_comparable_beats_choke"][0]
    # UDP1 delivers on L23 all it sends into L12, as TCP2 does: not 'more' loss
    even = {**FAIR3, (1, 1): 3.3, (2, 1): 3.3}
    assert not gao.claims({"table2": _table2({"protocol1": even})})[
        "table2.udp_more_loss_multi_link"
    ][0]


def _poisson(loss_at_r: float, peak_s4: float) -> pd.DataFrame:
    """Flow 4 of Simulation 1 under both protocols, F = 600: throughput peaks (0.3 r) at
    ``peak_s4`` and flow 4 loses ``loss_at_r`` of its packets at s4 = r."""
    rows = []
    for gw in ("protocol1", "protocol2"):
        for s4 in (0.2, 0.4, 0.6, 0.8, 1.0, 1.2):
            thr = 0.3 - 0.2 * abs(s4 - peak_s4)
            loss = loss_at_r if s4 == 1.0 else max(0.0, 1 - thr / s4)
            rows.append(
                {"gateway": gw, "F": 600, "s4": s4, "seed": 1, "fid": 4, "thr_r": thr, "loss": loss}
            )
    return pd.DataFrame(rows)


def test_claim_fig2_peak_strictly_below_r() -> None:
    key = "fig2.drops_at_rate_r"
    assert gao.claims({"fig02": _poisson(0.7, 0.6)}, primary_f=600)[key][0]
    # the peak at s4 = r exactly is not 'a sending rate less than r'
    assert not gao.claims({"fig02": _poisson(0.7, 1.0)}, primary_f=600)[key][0]
    # at s4 = r only a small fraction is dropped
    assert not gao.claims({"fig02": _poisson(0.1, 0.6)}, primary_f=600)[key][0]


def test_claim_thm44() -> None:
    holds, detail = gao.thm44()[2]["thm4_4.tcp_constant_factor"]
    assert holds and "D = 8" in detail
    # D is largest away from equality: not the proof's worst case
    assert not gao.thm44_claim(8.0, 8.0, 1.0, [6.0, 8.0, 9.0])[0]
    # an unbounded factor somewhere on the grid
    assert not gao.thm44_claim(8.0, 8.0, 1.0, [6.0, 8.0, float("inf")])[0]
    # D is not the cycle over the delivered area
    assert not gao.thm44_claim(8.0, 8.0, 2.0, [6.0, 8.0])[0]


def test_choke_threshold_sensitivity_writes_only_the_diagnosed_rows_as_checks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made = {"table2.choke.tcp2.l12": 0.5, "table2.choke.udp1.l12": 9.0, "derived.x": 1.0}
    monkeypatch.setattr(gao, "table2", lambda runs: (pd.DataFrame(), made))
    _, numbers = gao.table2_choke_thresholds([], "thresh300")
    assert numbers == {"check.table2.choke.tcp2.l12.thresh300": 0.5}
    # every threshold step is a step of the module, with its own suffix
    assert len(set(gao.CHOKE_THRESH_STEPS.values())) == len(gao.CHOKE_THRESH_STEPS)
