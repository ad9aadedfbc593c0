"""Akella et al. 2002: the search methods (analysis/akella2002_search.py, stage_plan).

The paper's sweep (``full``) and the adaptive one on synthetic goodput curves whose best
response is known, the stage plans checked by hand, the bad settings refused, and an adaptive
search through the workflow (checkpointed stages, batches of seeds, resumable)."""

from __future__ import annotations

import copy
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from analysis import akella2002_search as aks
from analysis import config as conf
from analysis.stats import intervals_overlap, mean_ci
from tests.conftest import sigint_default
from tests.test_akella2002_analysis import spec as analysis_spec

#: per-run deviations of F_n's goodput (Mbps), the same at every candidate (common random
#: numbers): sd 0.0158 -> 85 % CI half-width over 5 runs 1.7782 * 0.0158 / sqrt(5) = 0.0126
NOISE = np.array([-0.02, -0.01, 0.0, 0.01, 0.02])


def spec(method: str = "adaptive", mode: str = "alpha", **kw: object) -> aks.SearchSpec:
    """The analysis tests' search at the paper's steps (alpha 1 over +-50, beta 0.01), made
    with ``method`` and the config's adaptive settings (coarse 5 / 0.05, rounds of 5)."""
    paper = dict(alpha_grid=None, beta_grid=None, alpha_step=1.0, beta_step=0.01)
    adaptive = dict(method=method, coarse_alpha=5.0, coarse_beta=0.05, round_runs=5)
    return analysis_spec(mode, **{**paper, **adaptive, **kw})


def reader(curve, noise: np.ndarray = NOISE):
    """F_n's goodput in the first ``runs`` seeds: curve(value) + the seeds' deviations."""

    def of(value: float, runs: int) -> np.ndarray:
        return curve(value) + np.resize(noise, runs)

    return of


def peak(at: float, slope: float = 0.05):
    return lambda v: 2.0 - slope * abs(v - at)


def runs_of(goodputs: dict) -> int:
    return sum(len(g) for g in goodputs.values())


def pick(s: aks.SearchSpec, goodputs: dict, current: float) -> float:
    cands = [aks.Candidate(v, mean_ci(g, s.ci_level)) for v, g in goodputs.items()]
    return aks.pick_r1(cands, current)


def test_full_plan_is_the_papers_sweep() -> None:
    s = spec("full")
    plan = aks.stage_plan(s, "alpha", 1, 1, {}, 20)
    assert plan == {float(v): 20 for v in range(0, 52)}  # max(0, 1 - 50) .. 1 + 50, step 1
    g = {v: np.full(20, 1.0) for v in plan}
    assert aks.stage_plan(s, "alpha", 1, 2, g, 20) is None


def test_adaptive_stages_by_hand() -> None:
    """Peak at alpha_n = 23 (2.0 Mbps, -0.05 per unit away), others at alpha = 1.
    Stage 1: 0, 1 (current), 5, ..., 50 and 51 (the range's end), 5 runs each; the coarse
    best is 25 (1.9 Mbps), its coarse neighbours 20 (1.85) and 30 (1.65). Stage 2: 21..24
    (20's side) and 26 (one step on the other). Then 23's CI [1.9874, 2.0126] lies above
    22's and 24's ([1.9374, 1.9626]): decided, pick 23 with (13 + 5) x 5 = 90 runs, against
    52 x 20 = 1040 for the paper's sweep."""
    s = spec()
    of = reader(peak(23))
    p1 = aks.stage_plan(s, "alpha", 1, 1, {}, 20)
    assert p1 == {v: 5 for v in [0.0, 1.0, *map(float, range(5, 51, 5)), 51.0]}
    g = {v: of(v, n) for v, n in p1.items()}
    p2 = aks.stage_plan(s, "alpha", 1, 2, g, 20)
    assert p2 == {float(v): 5 for v in (21, 22, 23, 24, 26)}
    g.update({v: of(v, n) for v, n in p2.items()})
    assert mean_ci(g[23.0], 0.85).low == pytest.approx(2.0 - 1.7782 * 0.0158114 / 5**0.5, abs=1e-4)
    assert aks.stage_plan(s, "alpha", 1, 3, g, 20) is None
    prepared: list = []
    goodputs, plans = aks.run_sweep(s, "alpha", 1, of, 20, prepared.append)
    assert plans == prepared == [p1, p2]
    assert runs_of(goodputs) == 90 and pick(s, goodputs, 1) == 23
    full, _ = aks.run_sweep(spec("full"), "alpha", 1, of, 20)
    assert runs_of(full) == 1040 and pick(spec("full"), full, 1) == 23


def test_the_race_adds_runs_only_where_undecided() -> None:
    """A flat top (22, 23, 24 equal) cannot be told apart: those three get 5 more runs a
    round up to the paper's 20, no other candidate gets any; R1 then keeps the one closest
    to the current value among equal means (22)."""
    s = spec()
    of = reader(lambda v: 2.0 if 22 <= v <= 24 else 2.0 - 0.05 * abs(v - 23))
    goodputs, plans = aks.run_sweep(s, "alpha", 1, of, 20)
    assert plans[2:] == [{v: n for v in (22.0, 23.0, 24.0)} for n in (10, 15, 20)]
    assert {v for v, g in goodputs.items() if len(g) > 5} == {22.0, 23.0, 24.0}
    assert max(len(g) for g in goodputs.values()) == 20
    assert pick(s, goodputs, 1) == 22


def test_the_fine_pass_takes_the_better_neighbours_side() -> None:
    """The fine pass around the best coarse value b: the side of the better of b - 5 and
    b + 5, one step on the other; both sides when they tie, or when one was not run (b at
    an end of the range, or b off the coarse grid, e.g. the current value)."""
    s = spec()
    cands = s.candidates("alpha", 1.0)  # 0 .. 51

    def fine(means: dict[float, float], best: float) -> list[float]:
        cis = {v: mean_ci(m + NOISE, 0.85) for v, m in means.items()}
        return aks.fine_candidates(s, "alpha", cands, cis, best)

    assert fine({20: 1.0, 25: 2.0, 30: 1.5}, 25) == [24, 25, 26, 27, 28, 29]
    assert fine({20: 1.5, 25: 2.0, 30: 1.0}, 25) == [21, 22, 23, 24, 25, 26]
    both = [21, 22, 23, 24, 25, 26, 27, 28, 29]
    assert fine({20: 1.5, 25: 2.0, 30: 1.5}, 25) == both
    assert fine({20: 1.5, 25: 2.0}, 25) == both  # 30 not run
    assert fine({45: 1.5, 50: 2.0, 51: 1.9}, 50) == [46, 47, 48, 49, 50, 51]
    # a grid of uneven steps: the next candidate on the other side, whatever its distance
    grid = [0.0, 2.0, 4.0, 5.0, 6.0, 8.0, 10.0]
    cis = {v: mean_ci(m + NOISE, 0.85) for v, m in {0.0: 1.0, 5.0: 2.0, 10.0: 1.5}.items()}
    assert aks.fine_candidates(s, "alpha", grid, cis, 5.0) == [4.0, 5.0, 6.0, 8.0]
    # beta: neighbours 0.05 away, one step 0.01
    sb = spec(mode="beta")
    cis = {v: mean_ci(m + NOISE, 0.85) for v, m in {0.8: 1.2, 0.85: 2.0, 0.9: 1.9}.items()}
    got = aks.fine_candidates(sb, "beta", sb.candidates("beta", 0.5), cis, 0.85)
    assert got == [0.84, 0.85, 0.86, 0.87, 0.88, 0.89]


def test_the_race_drops_a_candidate_decided_by_paired_runs() -> None:
    """Per-seed noise common to all candidates (sd 0.158; 85 % CI half-width 0.126 over 5
    runs) hides the peak at 23 from the CIs alone (22 and 24: 1.95 against 2.0), but the
    paired differences (0.05 at every seed) decide it: after the fine pass 23 is the only
    candidate left, and the sweep stops with 5 runs each. The current value stays in while
    its CI overlaps the best one's (R1 weighs the two by their CIs alone): from alpha = 22,
    22 and 23 race to the paper's 20 runs, then R1 keeps 22, as the paper's sweep does."""
    s = spec()
    big = NOISE * 10
    of = reader(peak(23), big)
    goodputs, plans = aks.run_sweep(s, "alpha", 1, of, 20)
    assert intervals_overlap(mean_ci(goodputs[22.0], 0.85), mean_ci(goodputs[23.0], 0.85))
    assert len(plans) == 2 and max(len(g) for g in goodputs.values()) == 5
    assert pick(s, goodputs, 1) == 23
    goodputs, plans = aks.run_sweep(s, "alpha", 22, of, 20)
    assert plans[2:] == [{22.0: n, 23.0: n} for n in (10, 15, 20)]
    assert {v for v, g in goodputs.items() if len(g) > 5} == {22.0, 23.0}
    full, _ = aks.run_sweep(spec("full"), "alpha", 22, of, 20)
    assert pick(s, goodputs, 22) == pick(spec("full"), full, 22) == 22


def test_a_stage_needs_the_runs_before_it() -> None:
    with pytest.raises(ValueError, match="needs the runs"):
        aks.stage_plan(spec(), "alpha", 1, 2, {}, 20)
    with pytest.raises(ValueError, match="unknown search method"):
        aks.stage_plan(spec("greedy"), "alpha", 1, 1, {}, 20)


def test_adaptive_record_checks_its_candidates() -> None:
    s = spec()
    ok = {1.0: NOISE + 1, 23.0: NOISE + 2}
    rec = aks.iteration_record(s, 1, (1, 0.5), ok, None)
    assert rec["pick"] == 23 and rec["method"] == "adaptive"
    assert [c["value"] for c in rec["candidates"]] == [1.0, 23.0]
    with pytest.raises(ValueError, match="no runs for alpha = 1"):
        aks.iteration_record(s, 1, (1, 0.5), {23.0: NOISE + 2}, None)
    with pytest.raises(ValueError, match="23.5 is not a candidate"):
        aks.iteration_record(s, 1, (1, 0.5), {**ok, 23.5: NOISE}, None)
    with pytest.raises(ValueError, match="no runs for alpha = 0"):  # full needs every one
        aks.iteration_record(spec("full"), 1, (1, 0.5), ok, None)


@pytest.mark.parametrize("mode", ["alpha", "beta"])
def test_adaptive_finds_the_full_sweeps_pick_with_a_fifth_of_the_runs(mode: str) -> None:
    """Noisy concave curves (random peak, slope and per-run noise, fixed seed): the adaptive
    pick equals the full sweep's or its CI overlaps the full sweep's pick's (the benchmark's
    criterion), and it makes at most 20 % of the full sweep's runs in all."""
    rng = np.random.default_rng(7)
    full_runs = adaptive_runs = 0
    for _ in range(40):
        if mode == "alpha":
            top, slope, cur = rng.uniform(0, 50), rng.uniform(0.005, 0.05), 1.0
        else:
            top, slope, cur = rng.uniform(0.5, 0.99), rng.uniform(0.5, 5.0), 0.5
        noise = rng.normal(0, 0.03, 20)
        of = reader(peak(top, slope), noise)
        f = spec("full", mode)
        a = spec("adaptive", mode)
        fg, _ = aks.run_sweep(f, mode, cur, of, 20)
        ag, _ = aks.run_sweep(a, mode, cur, of, 20)
        fp, ap = pick(f, fg, cur), pick(a, ag, cur)
        assert ap == fp or intervals_overlap(mean_ci(fg[fp], 0.85), mean_ci(fg[ap], 0.85))
        assert all(len(g) <= 20 for g in ag.values())
        full_runs += runs_of(fg)
        adaptive_runs += runs_of(ag)
    assert adaptive_runs <= 0.2 * full_runs


def test_adaptive_search_on_synthetic_points(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stage by stage as the search job makes it: the runner is asked for each stage's plan
    (its first seeds at each candidate) before the stage is read, and the iteration's record
    counts the stages and the runs made (F_n's goodput peaks at alpha_n = 4)."""
    from test_akella2002_analysis import FakeRunner

    monkeypatch.chdir(tmp_path)
    s = spec(alpha_halfwidth=8.0, coarse_alpha=3.0, round_runs=2, max_iterations=1)
    base = {"n": 3, "pkt_size": 1000, "bw": 3000000, "min_rto": 0.2}
    st = aks.Study("smoke", base, (1, 2, 3, 4), {s.name: s}, {}, {}, 2)
    assert st.seed_batches == [(1, 2), (3, 4)]
    runner = FakeRunner(st, lambda p: 2.0 - 0.1 * abs(p.alpha_n - 4))
    doc = aks.run_search(st, s.name, runner)
    (it,) = doc["records"]
    points = dict(s.points(1, s.start))
    first = [(points[v], (1, 2)) for v in (0.0, 1.0, 3.0, 6.0, 9.0)]
    assert runner.asked[0] == first
    stages = runner.asked[:-1]  # then the NE and start profiles, every seed
    assert it["pick"] == 4 and it["stages"] == len(stages) >= 2
    most: dict = {}  # a candidate's runs: the most any stage asked for
    for stage in stages:
        most.update({p: max(len(seeds), most.get(p, 0)) for p, seeds in stage})
    assert it["runs"] == sum(most.values())
    assert runner.asked[-1][0] == (aks.symmetric_point("sack", "droptail", 4, 0.5), st.seeds)


# ---------------------------------------------------------------------------------------------
# settings: bad input stops before any run
# ---------------------------------------------------------------------------------------------


def _design(c: dict, name: str) -> dict:
    e = c["akella2002"]["experiments"][name]
    e["design"] = copy.deepcopy(e["design"])
    return e["design"]


def test_the_configured_methods(cfg: dict) -> None:
    """Adaptive is the method at paper fidelity, the paper's sweep at quick; both can be
    asked for, each under its own folder. At paper only the diagnosis-check searches made by
    the paper's sweep (``<search>_fullsweep``, step paper_sweep) are full."""
    paper, quick = aks.study(cfg, "paper"), aks.study(cfg, "quick")
    by_method = {
        m: {n for n, s in paper.searches.items() if s.method == m} for m in aks.SEARCH_METHODS
    }
    assert by_method["full"] == {"sack_chokeplus_alpha_fullsweep"}
    assert by_method["adaptive"] and not any(
        n.endswith("_fullsweep") for n in by_method["adaptive"]
    )
    assert {s.method for s in quick.searches.values()} == {"full"}
    assert paper.seed_batches == [tuple(range(i, i + 5)) for i in (1, 6, 11, 16)]
    assert quick.seed_batches == [(1, 2, 3, 4, 5)]
    assert paper.search_dir("sack_droptail_alpha", "full").endswith(
        "paper/full/sack_droptail_alpha"
    )
    params = aks.search_params(quick, "sack_droptail_alpha", "adaptive")
    assert aks.study_of_params(params).searches["sack_droptail_alpha"].method == "adaptive"


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d["fidelity"]["paper"].update(search_method="greedy"),
         r"paper.search_method' = 'greedy'; allowed: full, adaptive"),
        (lambda d: d["settings"].update(
            adaptive_ci_level={"value": 0.5, "status": "assumed", "reason": "x"}),
         "adaptive_ci_level': the adaptive search has no such setting"),
        (lambda d: d["settings"].update(
            adaptive_max_runs={"value": 40, "status": "assumed", "reason": "x"}),
         "never the paper's decision rule"),
        (lambda d: d["settings"].update(
            adaptive_round_runs={"value": 25, "status": "assumed", "reason": "x"}),
         "more runs per round than the 20 runs per point at paper"),
        (lambda d: d["settings"].update(
            adaptive_round_runs={"value": 1, "status": "assumed", "reason": "x"}),
         "adaptive_round_runs' = 1 must be an integer >= 2"),
        (lambda d: d["settings"].update(
            adaptive_coarse_beta={"value": 1.5, "status": "assumed", "reason": "x"}),
         r"adaptive_coarse_beta' = 1.5 must be a number in \(0, 1\)"),
    ],
)  # fmt: skip
def test_bad_adaptive_settings(cfg: dict, edit, message: str) -> None:
    c = copy.deepcopy(cfg)
    edit(_design(c, "sack_droptail_alpha"))
    with pytest.raises(conf.ConfigError, match=message):
        aks.study(c, "smoke")  # every fidelity's settings are checked


def test_searches_share_one_round(cfg: dict) -> None:
    c = copy.deepcopy(cfg)
    d = _design(c, "sack_droptail_beta")
    d["settings"] = {
        **d["settings"],
        "adaptive_round_runs": {"value": 4, "status": "assumed", "reason": "x"},
    }
    with pytest.raises(conf.ConfigError, match=r"adaptive_round_runs must be equal .* \[4, 5\]"):
        aks.study(c, "paper")


# ---------------------------------------------------------------------------------------------
# the workflow: an adaptive search, one job, resumable
# ---------------------------------------------------------------------------------------------


def _smk(w: Path, *args: str, targets: list[str] | None = None) -> subprocess.CompletedProcess:
    smk = Path(sys.executable).with_name("snakemake")
    cmd = [str(smk), "--cores", "1", "--rerun-triggers", "mtime", *args, "--config"]
    cmd += ["papers=[akella2002]", "fidelity=smoke", "--"]
    cmd += targets or [f"results/akella2002/search/smoke/{m}/sack_droptail_alpha/search.json"
                       for m in ("full", "adaptive")]  # fmt: skip
    return subprocess.run(cmd, cwd=w, capture_output=True, text=True, timeout=900)


def _jobs(p: subprocess.CompletedProcess, rule: str) -> int:
    """How many jobs of ``rule`` Snakemake's job table (its stdout) lists."""
    for line in (p.stdout + p.stderr).splitlines():
        parts = line.split()
        if parts[:1] == [rule] and len(parts) > 1 and parts[1].isdigit():
            return int(parts[1])
    return 0


def _rounds_of_two(w: Path) -> None:
    """Smoke with 4 runs per point and rounds of 2, so that a sweep takes several stages."""
    y = w / "config" / "experiments" / "akella2002.yaml"
    text = y.read_text()
    for old, new, count in (
        ("smoke: {seeds: [1, 2],", "smoke: {seeds: [1, 2, 3, 4],", 9),
        ("adaptive_round_runs: {value: 5,", "adaptive_round_runs: {value: 2,", 1),
        ("adaptive_coarse_alpha: {value: 5,", "adaptive_coarse_alpha: {value: 4,", 1),
    ):
        assert text.count(old) == count, old
        text = text.replace(old, new)
    y.write_text(text)


def test_adaptive_search_in_the_workflow(project_copy: Path) -> None:
    """Smoke with 4 runs per point and rounds of 2: the adaptive alpha search and the full
    one side by side, one job each; the adaptive one made no run the full one did not
    (common random numbers: the same seeds); rerun without its record it makes no run again
    and writes the same record."""
    w = project_copy
    _rounds_of_two(w)
    done = _smk(w)
    assert done.returncode == 0, done.stderr[-3000:]
    assert _jobs(done, "akella2002_search") == 2 and _jobs(done, "runs") == 0
    root = w / "results" / "akella2002" / "search" / "smoke"
    full = json.loads((root / "full" / "sack_droptail_alpha" / "search.json").read_text())
    ad_file = root / "adaptive" / "sack_droptail_alpha" / "search.json"
    ad = json.loads(ad_file.read_text())
    assert ad["spec"]["method"] == "adaptive" and full["spec"]["method"] == "full"
    assert ad["runs"] <= full["runs"]
    assert all(rec["stages"] >= 1 for rec in ad["records"])
    runs = sorted((w / "results").rglob("summary.json"))
    stamps = {p: p.stat().st_mtime_ns for p in runs}
    before = ad_file.read_bytes()
    ad_file.unlink()
    again = _smk(w)
    assert again.returncode == 0, again.stderr[-3000:]
    assert ad_file.read_bytes() == before
    assert {p: p.stat().st_mtime_ns for p in runs} == stamps
    # the benchmark prints both methods from these records; without a run's CPU it stops
    (w / "bench").mkdir()
    shutil.copy2(conf.ROOT / "bench" / "ne-search", w / "bench")
    bench = [sys.executable, "bench/ne-search", "--fidelity", "smoke", "--cores", "1"]
    bench += ["--searches", "sack_droptail_alpha"]
    out = subprocess.run(bench, cwd=w, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "| sack_droptail_alpha | adaptive | 1 | yes | 8 | 8 |" in out.stdout
    assert "| same |" in out.stdout and "adaptive / full: runs 100.0 %" in out.stdout
    # a run's CPU is ns's own, from the CPU log of the search job that made it (no Snakemake
    # benchmark file); without it, the sampled cpu_time of a point batch's benchmark file
    # from before the logs, said to be a lower bound; without either, the bench stops
    logs = sorted((w / "benchmarks" / "akella2002" / "search" / "smoke").rglob("*.cpu"))
    assert logs  # the first search job made the runs, the other reused them
    for log in logs:
        log.unlink()
    st = aks.study(conf.load(conf.config_files(w)), "smoke")
    points = w / "benchmarks" / "akella2002" / "points" / "smoke"
    for f in runs:
        key = str(f.parent.parent.relative_to(w / aks.POINTS_ROOT / "smoke"))
        seed = int(f.parent.name[1:])
        b = next(k for k, batch in enumerate(st.seed_batches, 1) if seed in batch)
        tsv = points / f"{key}-b{b}.tsv"
        tsv.parent.mkdir(parents=True, exist_ok=True)
        tsv.write_text("s\tcpu_time\n1.0\t0.5\n")
    out = subprocess.run(bench, cwd=w, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "a LOWER BOUND" in out.stdout
    for f in points.rglob("*.tsv"):
        f.unlink()
    out = subprocess.run(bench, cwd=w, capture_output=True, text=True, timeout=900)
    assert out.returncode == 1 and "no CPU record" in out.stderr


def test_a_cancelled_search_job_resumes_to_the_same_record(project_copy: Path) -> None:
    """The adaptive joint search (smoke, 4 runs per point, rounds of 2) cancelled as Ctrl-C
    would, once some of its runs are made: no ns outlives it, no record is left, and the
    rerun makes the rest and writes the record of an uncancelled search byte for byte."""
    w = project_copy
    _rounds_of_two(w)
    d = w / "results" / "akella2002" / "search" / "smoke" / "adaptive" / "sack_droptail_joint"
    target = [str((d / "search.json").relative_to(w))]
    done = _smk(w, targets=target)
    assert done.returncode == 0, done.stderr[-3000:]
    whole = (d / "search.json").read_bytes()
    assert len(json.loads(whole)["records"]) >= 2
    shutil.rmtree(w / "results")
    smk = Path(sys.executable).with_name("snakemake")
    cmd = [str(smk), "--cores", "2", "--config", "papers=[akella2002]", "fidelity=smoke", "--"]
    proc = subprocess.Popen([*cmd, *target], cwd=w, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True,
                            preexec_fn=sigint_default)  # fmt: skip
    points = w / aks.POINTS_ROOT
    deadline = time.monotonic() + 300
    while len(list(points.rglob("summary.json"))) < 6:
        assert proc.poll() is None and time.monotonic() < deadline, "the search ended too soon"
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C: the whole process group
    proc.wait(timeout=120)
    assert not (d / "search.json").exists()
    ns = subprocess.run(["pgrep", "-f", str(w / "build")], capture_output=True, text=True)
    assert ns.stdout.strip() == ""
    made = len(list(points.rglob("summary.json")))
    again = _smk(w, targets=target)
    assert again.returncode == 0, again.stderr[-3000:]
    assert (d / "search.json").read_bytes() == whole
    assert len(list(points.rglob("summary.json"))) > made


def test_full_sweep_runs_of_an_adaptive_search() -> None:
    """Two alpha sweeps at common values 1 and 30 (step 1, +-50): 52 and 81 candidates, 20
    runs each -> 2,660 runs for the paper's sweep, whatever the adaptive search made."""
    s = spec()
    st = aks.Study("paper", {}, tuple(range(1, 21)), {s.name: s}, {}, {}, 5)
    doc = {
        **aks.search_params(st, s.name),
        "search": s.name,
        "records": [
            {"coordinate": "alpha", "current": {"alpha": 1.0, "beta": 0.5}},
            {"coordinate": "alpha", "current": {"alpha": 30.0, "beta": 0.5}},
        ],
    }
    assert aks.full_sweep_runs(doc) == (52 + 81) * 20


def test_a_points_folder_and_arguments(cfg: dict) -> None:
    """A point's folder and ns arguments spell its coordinates the same way; a run's
    parameters are those words and its seed."""
    st = aks.study(cfg, "paper")
    p = aks.Point("reno", "red", 30, 0.5, 31, 0.56)
    assert st.point_dir(p) == "results/akella2002/points/paper/reno_red/a30_b0.5/an31_bn0.56"
    assert st.point_args(p).endswith("tcp=reno queue=red alpha=30 beta=0.5 alpha_n=31 beta_n=0.56")
    assert st.run_params(p, 7) == {
        **dict(w.split("=") for w in st.point_args(p).split()),
        "seed": "7",
    }
    assert st.runs([p])[0] == (Path(st.point_dir(p)) / "s1", st.run_params(p, 1))
