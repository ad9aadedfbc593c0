"""Akella et al. 2002: run design, best-response search, figure analyses, bad input.

The search is exercised on synthetic point folders whose goodputs are chosen so the best
responses are known by hand; the Tcl experiment on short real ns runs.
"""

from __future__ import annotations

import copy
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from analysis import akella2002 as ak
from analysis import akella2002_search as aks
from analysis import config as ccr
from analysis import nsrun
from analysis.stats import mean_ci


def spec(mode: str = "alpha", **kw: object) -> aks.SearchSpec:
    base = dict(
        name=f"sack_droptail_{mode}",
        mode=mode,
        tcp="sack",
        queue="droptail",
        start=(1.0, 0.5),
        ci_level=0.85,
        alpha_halfwidth=50.0,
        alpha_low=0.0,
        beta_low=0.5,
        beta_high=0.99,
        pick="r1",
        max_iterations=10,
        alpha_grid=(0, 1, 2, 4, 10, 40, 60, 100),
        beta_grid=(0.5, 0.7, 0.9, 0.99),
    )
    base.update(kw)
    return aks.SearchSpec(**base)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# design: values, candidates, points
# ---------------------------------------------------------------------------------------------


def test_fmt_is_canonical() -> None:
    assert aks.fmt(15) == "15"
    assert aks.fmt(15.0) == "15"
    assert aks.fmt(0.98) == "0.98"
    assert aks.fmt(0.5 + 7 * 0.01) == "0.57"  # 0.5700000000000001
    assert aks.fmt(0) == "0"
    assert aks.Point("sack", "red", 1, 0.5, 40, 0.5).key == "sack_red/a1_b0.5/an40_bn0.5"


def test_candidates_from_a_grid() -> None:
    s = spec()
    # window [max(0, 1 - 50), 1 + 50] = [0, 51]
    assert s.candidates("alpha", 1) == [0, 1, 2, 4, 10, 40]
    # window [0, 90] from 40; 60 is in, 100 is not
    assert s.candidates("alpha", 40) == [0, 1, 2, 4, 10, 40, 60]
    # window [10, 110] from 60
    assert s.candidates("alpha", 60) == [10, 40, 60, 100]
    # the current value is always a candidate, even off the grid
    assert 7.0 in s.candidates("alpha", 7)
    assert s.candidates("beta", 0.5) == [0.5, 0.7, 0.9, 0.99]


def test_candidates_from_a_step() -> None:
    s = spec(alpha_grid=None, alpha_step=1.0, beta_grid=None, beta_step=0.01)
    assert s.candidates("alpha", 1) == list(range(0, 52))  # the paper's first sweep: 52 points
    assert len(s.candidates("alpha", 40)) == 91  # 0..90
    b = s.candidates("beta", 0.5)
    assert len(b) == 50 and b[0] == 0.5 and b[-1] == 0.99 and 0.57 in b


def test_joint_alternates_and_points_vary_only_fn() -> None:
    s = spec("joint")
    assert [s.coordinate(j) for j in (1, 2, 3, 4)] == ["alpha", "beta", "alpha", "beta"]
    pts = s.points(2, (4, 0.5))  # beta sweep with every flow at alpha 4
    assert [v for v, _ in pts] == [0.5, 0.7, 0.9, 0.99]
    for v, p in pts:
        assert (p.alpha, p.beta, p.alpha_n, p.beta_n) == (4, 0.5, 4, v)
    with pytest.raises(ValueError, match="count from 1"):
        s.coordinate(0)


# ---------------------------------------------------------------------------------------------
# the pick rule and the stopping rule
# ---------------------------------------------------------------------------------------------

LOW = [1.0, 1.2, 0.8, 1.1, 0.9]  # mean 1.0, s = 0.1581, 85% CI half-width 1.778 * 0.0707
HIGH = [1.3, 1.5, 1.1, 1.4, 1.2]  # mean 1.3: CI [1.174, 1.426], no overlap with LOW's
MID = [1.1, 1.3, 0.9, 1.2, 1.0]  # mean 1.1: CI overlaps LOW's


def test_ci_85_by_hand() -> None:
    ci = mean_ci(LOW, 0.85)
    assert ci.mean == pytest.approx(1.0)
    # t_{0.925, 4} = 1.7782 (tables), s / sqrt(5) = 0.070711
    assert ci.half_width == pytest.approx(1.7782 * 0.070711, rel=1e-3)


def test_pick_r1() -> None:
    c = lambda v, xs: aks.Candidate(v, mean_ci(xs, 0.85))  # noqa: E731
    assert aks.pick_r1([c(1, LOW), c(4, HIGH)], 1) == 4  # clear gain: move
    assert aks.pick_r1([c(1, LOW), c(4, MID)], 1) == 1  # overlap: stay
    assert aks.pick_r1([c(1, HIGH), c(4, LOW)], 1) == 1  # current is best
    # equal means: the one closest to the current value
    assert aks.pick_r1([c(1, LOW), c(2, HIGH), c(8, HIGH)], 1) == 2
    with pytest.raises(ValueError, match="not among"):
        aks.pick_r1([c(4, LOW)], 1)


def test_iteration_record_stops() -> None:
    s = spec(max_iterations=3)
    g = {v: LOW for v in s.candidates("alpha", 1)}
    g[4.0] = HIGH
    r1 = aks.iteration_record(s, 1, (1, 0.5), g, None)
    assert r1["pick"] == 4 and r1["changed"] and not r1["stop"]
    assert r1["next"] == {"alpha": 4, "beta": 0.5}
    r2 = aks.iteration_record(s, 2, (4, 0.5), {v: LOW for v in s.candidates("alpha", 4)}, r1)
    assert r2["pick"] == 4 and r2["converged"] and r2["stop"]
    # the cap stops a search that still moves, unconverged
    r3 = aks.iteration_record(s, 3, (1, 0.5), g, r2)
    assert r3["stop"] and not r3["converged"] and r3["pick"] == 4
    # joint: one unchanged sweep is not enough, two in a row are
    j = spec("joint")
    b = {v: LOW for v in j.candidates("beta", 0.5)}
    jr1 = aks.iteration_record(j, 1, (1, 0.5), g, None)
    jr2 = aks.iteration_record(j, 2, (4, 0.5), b, jr1)
    assert not jr2["changed"] and not jr2["converged"]
    jr3 = aks.iteration_record(j, 3, (4, 0.5), {v: LOW for v in j.candidates("alpha", 4)}, jr2)
    assert jr3["converged"] and jr3["stop"] and aks.ne_of([jr1, jr2, jr3]) == (4, 0.5)


# ---------------------------------------------------------------------------------------------
# a whole search on synthetic point folders
# ---------------------------------------------------------------------------------------------


def fake_point(st: aks.Study, p: aks.Point, goodput_fn: float, n: int = 3) -> None:
    """Runs of one point: F_n delivers goodput_fn Mbps (+-0.01 over seeds), the others 1 Mbps,
    1% loss each; 10-s window, 1000-byte packets."""
    for k, s in enumerate(st.seeds):
        d = Path(st.point_dir(p)) / f"s{s}"
        d.mkdir(parents=True)
        params = {**st.base, **p.params(), "seed": s}
        summary = {
            "complete": True,
            "params": params,
            "tables": ["flows"],
            "results": {"window_s": 10, "numdupacks": 3},
        }
        (d / "summary.json").write_text(json.dumps(summary))
        rows = ["# flow alpha beta start delivered arrivals drops timeouts srtt rttvar"]
        for f in range(1, n + 1):
            g = goodput_fn + 0.01 * (k - (len(st.seeds) - 1) / 2) if f == n else 1.0
            delivered = round(g * 1e6 * 10 / 8000)
            rows.append(f"{f} 1 0.5 0.1 {delivered} {delivered + 10} 10 0 0.13 0.01")
        (d / "flows.tsv").write_text("\n".join(rows) + "\n")


def test_search_on_synthetic_points(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """F_n's goodput peaks at alpha_n = 4 whatever the others play: iteration 1 (others at 1)
    moves to 4, iteration 2 (others at 4) keeps 4 -> NE alpha_E = 4 after 2 iterations."""
    monkeypatch.chdir(tmp_path)
    s = spec()
    base = {"n": 3, "pkt_size": 1000, "bw": 3000000, "min_rto": 0.2}
    st = aks.Study("smoke", base, (1, 2, 3), {s.name: s}, {}, {})

    def gfn(alpha_n: float) -> float:
        return 2.0 - 0.1 * abs(alpha_n - 4)

    made = set()
    prev = None
    files = []
    for j in (1, 2):
        cur = aks.current_of(s, j, prev)
        for v, p in s.points(j, cur):
            if p not in made:
                fake_point(st, p, gfn(v))
                made.add(p)
        out = tmp_path / f"iter{j}.json"
        rec = aks.write_iteration(st, s.name, j, prev, out)
        files.append(str(out))
        prev = str(out)
    assert rec["converged"] and rec["iteration"] == 2
    for p in [aks.symmetric_point("sack", "droptail", 4, 0.5)]:
        assert p in made  # the NE profile was a candidate of the last iteration
    doc = aks.write_search(st, s.name, files, tmp_path / "search.json")
    assert (doc["alpha_e"], doc["beta_e"]) == (4, 0.5)
    assert doc["iterations"] == 2 and doc["converged"]
    # NE profile: F_n 2.0 Mbps (+-0.01), the others 1.0: per-flow mean 4/3 Mbps
    assert doc["ne"]["goodput"] == pytest.approx(4.0 / 3.0, rel=1e-3)
    assert doc["ne"]["goodput_fn"] == pytest.approx(2.0, rel=1e-3)
    # per-flow loss 10 / (delivered + 10)
    assert doc["ne"]["loss_others"] == pytest.approx(10 / (1250 + 10))
    # grid values in [0, 51] (iteration 1) and [0, 54] (iteration 2): 0 1 2 4 10 40 each
    assert doc["points"] == 6 + 6
    assert aks.exhaustive_grid_runs(doc) == 6**2 * 3
    with pytest.raises(ValueError, match="stopped"):
        aks.current_of(s, 3, files[-1])


# ---------------------------------------------------------------------------------------------
# the configuration: bad input stops before anything runs
# ---------------------------------------------------------------------------------------------


def test_study_of_the_config(cfg: dict) -> None:
    st = aks.study(cfg, "quick")
    assert len(st.searches) == 21
    assert st.searches["sack_red_beta"].coordinate(1) == "beta"
    assert st.base["n"] == 10 and len(st.seeds) == 5
    # Figure 10's points are the first alpha sweep of SACK-RED where the grids agree
    f10 = set(st.sweeps["fig10a"])
    first = {p for _, p in st.searches["sack_red_alpha"].points(1, (1, 0.5))}
    assert {p for p in f10 if p.queue == "red"} <= first
    # Figure 5 at quick: x and x -+ 5, one-sided where x - 5 < 1 (alpha >= 1 in the game)
    d = st.derivatives["fig05a_red"]
    xs = sorted(p.alpha_n for p in d.points if p.tcp == "tahoe" and p.alpha == 10)
    assert xs == [5, 10, 15]
    assert sorted(p.alpha_n for p in d.points if p.tcp == "tahoe" and p.alpha == 5) == [5, 10]
    smoke = aks.study(cfg, "smoke")
    d = smoke.derivatives["fig05c_red"]  # smoke: the paper's step 0.01 around beta = 0.9
    assert sorted(p.beta_n for p in d.points if p.tcp == "reno") == [0.89, 0.9, 0.91]
    assert smoke.searches["sack_droptail_joint"].max_sweeps == 4  # 2 iterations x 2 sweeps
    assert set(smoke.searches) == {
        f"sack_{q}_{m}" for q in ("droptail", "chokeplus") for m in aks.MODES
    }


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("parameters", "n", "value"), 1, "parameters.n' = 1: the TCP game needs n >= 2"),
        (("parameters", "beta", "value"), 1.0, r"beta.*\(0, 1\)"),
        (("parameters", "alpha", "value"), -1, r"alpha.*>= 0"),
        (("parameters", "tcp", "value"), "cubic", "tcp.*one of: tahoe, reno, newreno, sack"),
        (("parameters", "queue", "value"), "sfq", "queue.*one of: droptail, red, chokeplus"),
    ],
)
def test_bad_parameters(cfg: dict, path: tuple, value: object, message: str) -> None:
    c = copy.deepcopy(cfg)
    d = c["akella2002"]
    for k in path[:-1]:
        d = d[k]
    d[path[-1]] = value
    with pytest.raises(ccr.ConfigError, match=message):
        ccr.validate(c)
        aks.study(c, "smoke")


def test_bad_search_settings(cfg: dict) -> None:
    c = copy.deepcopy(cfg)
    e = c["akella2002"]["experiments"]["sack_droptail_beta"]
    e["design"] = copy.deepcopy(e["design"])
    e["design"]["fidelity"]["quick"]["beta_grid"] = [0.5, 1.0]
    with pytest.raises(ccr.ConfigError, match=r"beta_grid' = 1.0 must be a number in \(0, 1\)"):
        aks.study(c, "smoke")  # every fidelity's settings are checked
    c = copy.deepcopy(cfg)
    c["akella2002"]["experiments"]["sack_droptail_beta"]["design"] = {"search": "gamma"}
    with pytest.raises(ccr.ConfigError, match="search' = 'gamma'"):
        aks.study(c, "smoke")
    c = copy.deepcopy(cfg)
    c["akella2002"]["experiments"]["fig10a"]["set"] = {"tcp": "sack", "min_rto": 1.0}
    with pytest.raises(ccr.ConfigError, match="min_rto differ"):
        aks.study(c, "smoke")


# ---------------------------------------------------------------------------------------------
# the experiment script on real (short) runs
# ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def base_params(cfg: dict) -> dict:
    st = aks.study(cfg, "smoke")
    return {**st.base, "duration": 12, "warmup": 4}


def test_run_measures_the_window(ns_binary: Path, base_params: dict, tmp_path: Path) -> None:
    p = {**base_params, **aks.Point("sack", "red", 1, 0.5, 4, 0.8).params(), "seed": 3}
    nsrun.run(ns_binary, ccr.tcl_script("akella2002", "dumbbell"), tmp_path / "s3", p)
    s = json.loads((tmp_path / "s3" / "summary.json").read_text())
    assert s["results"]["window_s"] == 8 and s["results"]["numdupacks"] == 3
    rows = aks.read_point_rows(tmp_path, [3])
    assert [r["flow"] for r in rows] == [1, 2, 3]
    assert (rows[-1]["alpha"], rows[-1]["beta"]) == (4, 0.8)
    assert (rows[0]["alpha"], rows[0]["beta"]) == (1, 0.5)
    # distinct packets through the 10 Mb/s link (1250 packets/s) in the 8-s window: at most
    # the link's capacity plus one buffer (150 packets) queued at the window's start
    delivered = sum(r["delivered"] for r in rows)
    assert 0.5 * 1250 * 8 < delivered <= 1250 * 8 + 150
    for r in rows:
        assert r["goodput"] == pytest.approx(r["delivered"] * 8000 / 8 / 1e6)
        assert 0 <= r["drops"] <= r["arrivals"]
        assert r["loss"] == pytest.approx(r["drops"] / r["arrivals"])
        # smoothed RTT between the base RTT (120 ms) and base + a full queue (150 / 1250 s)
        assert 0.12 < r["srtt"] < 0.12 + 150 / 1250 + 0.02
        assert r["rto"] >= 0.2


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"tcp": "cubic"}, "parameter 'tcp' = 'cubic' is not one of: tahoe, reno, newreno, sack"),
        ({"queue": "sfq"}, "parameter 'queue' = 'sfq' is not one of: droptail, red, chokeplus"),
        ({"n": 1}, "needs at least 2 flows"),
        ({"beta_n": 1.0}, r"beta_n = 1.0 must lie in \(0, 1\)"),
        ({"alpha": -2}, "parameter 'alpha' = '-2' is not a number >= 0"),
    ],
)
def test_script_rejects_bad_input(
    ns_binary: Path, base_params: dict, tmp_path: Path, override: dict, message: str
) -> None:
    p = {**base_params, **aks.Point("sack", "red", 1, 0.5, 1, 0.5).params(), "seed": 1, **override}
    with pytest.raises(nsrun.NsRunError, match=message):
        nsrun.run(ns_binary, ccr.tcl_script("akella2002", "dumbbell"), tmp_path / "bad", p)
    assert not (tmp_path / "bad" / "summary.json").exists()


# ---------------------------------------------------------------------------------------------
# figure analyses and claims on synthetic tables
# ---------------------------------------------------------------------------------------------


def test_fig05_slopes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """p' is set through the drops: aggregate loss at alpha_n = 9, 10, 11 known by hand."""
    monkeypatch.chdir(tmp_path)
    base = {"n": 3, "pkt_size": 1000, "bw": 3000000, "min_rto": 0.2}
    st = aks.Study("smoke", base, (1,), {}, {}, {})
    dirs = []
    for an, drops in ((9, 10), (10, 20), (11, 40)):
        p = aks.Point("sack", "red", 10, 0.5, an, 0.5)
        fake_point(st, p, 1.0)
        fl = Path(st.point_dir(p)) / "s1" / "flows.tsv"
        text = fl.read_text().replace(" 10 0 0.13", f" {drops} 0 0.13")
        fl.write_text(text)
        dirs.append(Path(st.point_dir(p)))
    tidy, _ = ak.fig05(dirs, [1])
    assert len(tidy) == 1
    r = tidy.iloc[0]
    arrivals = 3 * (1250 + 10)
    assert r["p"] == pytest.approx(3 * 20 / arrivals)
    # central difference over h = 2: (3*40 - 3*10) / arrivals / 2
    assert r["P"] == pytest.approx((3 * 40 - 3 * 10) / arrivals / 2)
    assert r["P"] == pytest.approx(r["P_aggregate"])  # RED: aggregate loss


def test_zero_crossing_bound() -> None:
    x = np.array([1.0, 10.0, 20.0, 30.0])
    assert ak.zero_crossing_bound(x, np.array([3.0, 2.0, 1.0, -1.0])) == pytest.approx(25.0)
    assert ak.zero_crossing_bound(x, np.array([3.0, 2.0, 1.0, 0.5])) == 30.0  # beyond the range
    assert ak.zero_crossing_bound(x, np.array([-1.0, 2.0, 1.0, 0.5])) == 1.0


def test_word_criteria() -> None:
    m = {"goodput": 0.95, "loss": 0.26, "fair_share": 1.0}
    assert ak.word_holds("loss", "extremely high", m)[0]
    assert not ak.word_holds("loss", "low", m)[0]
    assert ak.word_holds("goodput", "reasonable", m)[0]
    assert not ak.word_holds("goodput", "poor", m)[0]
    assert ak.word_holds("goodput", "low", {**m, "goodput": 0.56})[0]


def test_hybrid_numbers_convert_by_hand() -> None:
    table, curves, numbers = ak.hybrid(1000.0)
    t = table.set_index("n")
    # Mbps = packets * 8000 bit / 0.12 s / 1e6; 1500-byte packets: 1.5 x
    for n in (50, 200):
        pk = t.loc[n, "threshold_pkts"]
        assert t.loc[n, "threshold_mbps"] == pytest.approx(pk * 8000 / 0.12 / 1e6)
        assert t.loc[n, "threshold_mbps_1500"] == pytest.approx(1.5 * t.loc[n, "threshold_mbps"])
    assert numbers["analysis.hybrid.small_n.max_c_per_n"] == pytest.approx(1.81, abs=0.01)
    assert numbers["model.hybrid_gentle_loss_threshold"] == 1.0
    assert set(curves["n"]) == {50, 200}
    assert not math.isnan(numbers["analysis.hybrid.alpha_needed_above_threshold"])


# ---------------------------------------------------------------------------------------------
# the workflow: checkpointed iterations are kept and resumed
# ---------------------------------------------------------------------------------------------

SEARCH = "results/akella2002/search/smoke/sack_droptail_joint"


def _smk(w: Path, *args: str) -> subprocess.CompletedProcess:
    smk = Path(sys.executable).with_name("snakemake")
    cmd = [str(smk), "--cores", "1", "--rerun-triggers", "mtime", *args, "--config"]
    cmd += ["papers=[akella2002]", "fidelity=smoke", "--", f"{SEARCH}/search.json"]
    return subprocess.run(cmd, cwd=w, capture_output=True, text=True, timeout=600)


def _jobs(p: subprocess.CompletedProcess, rule: str) -> int:
    for line in p.stdout.splitlines():
        parts = line.split()
        if parts[:1] == [rule]:
            return int(parts[1])
    return 0


def test_search_iterations_resume(project_copy: Path) -> None:
    """The joint search (smoke: an alpha sweep, then a beta sweep) as two checkpoint jobs:
    a finished search plans nothing; with its second iteration gone only that iteration and
    the summary are redone, the first iteration and every run untouched."""
    w = project_copy
    first = _smk(w)
    assert first.returncode == 0, first.stderr[-3000:]
    it1, it2 = w / SEARCH / "iter1.json", w / SEARCH / "iter2.json"
    assert it1.is_file() and it2.is_file()
    assert json.loads(it2.read_text())["stop"]
    runs = sorted((w / "results" / "akella2002" / "points").rglob("summary.json"))
    stamps = {p: p.stat().st_mtime_ns for p in [it1, *runs]}
    again = _smk(w, "-n")
    assert again.returncode == 0 and "Nothing to be done" in again.stdout + again.stderr
    # an interrupted search: the second iteration never finished
    it2.unlink()
    (w / SEARCH / "search.json").unlink()
    plan = _smk(w, "-n")
    assert _jobs(plan, "akella2002_iteration") == 1 and _jobs(plan, "akella2002_point") == 0
    resumed = _smk(w)
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert it2.is_file() and (w / SEARCH / "search.json").is_file()
    assert {p: p.stat().st_mtime_ns for p in stamps} == stamps


def test_grid_step_tolerance_passes_in_floating_point() -> None:
    """A beta one grid step (0.01) from the published one is within 'abs 0.01', although
    0.99 - 0.98 = 0.010000000000000009 (analysis.compare's slack)."""
    from analysis.compare import Published, verdict

    p = Published("akella2002", "k", 0.98, "beta", "", "value", {"abs": 0.01})
    assert (verdict(p, "0.99"), verdict(p, "0.97"), verdict(p, "0.9901")) == ("ok", "ok", "off")
