"""The workflow resumes: a finished run is never recomputed, a killed one is redone.

Works on a copy of the project in a temporary folder (same file times, the same ns build
through a link), so the real results/ are not touched.
"""

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import copy_report_sources, sigint_default  # shared with bench/, tests/cluster/

from analysis import config as conf
from analysis import latex
from tests.faults.inject import processes_in  # one definition, shared with the fault injection

RUNS = ["n1_s1", "n10_s1"]


def _background(cmd: list[str], w: Path) -> subprocess.Popen:
    """A Snakemake in the copy that the test goes on beside and may stop with Ctrl-C: its own
    process group, SIGINT's default disposition, no output kept."""
    return subprocess.Popen(
        cmd,
        cwd=w,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        preexec_fn=sigint_default,
    )


def _summary(w: Path, run: str) -> Path:
    return w / "results" / "floyd1991" / "fig02" / "smoke" / run / "summary.json"


def _index(w: Path) -> Path:
    """The index of Figure 2's runs: the one output of the job that makes them."""
    return w / "results" / "floyd1991" / "fig02" / "smoke" / "runs.json"


def _snakemake(
    w: Path, *args: str, wait: bool = True
) -> subprocess.CompletedProcess | subprocess.Popen:
    smk = Path(sys.executable).with_name("snakemake")
    targets = [str(_index(w).relative_to(w))]
    cmd = [
        str(smk),
        "--cores",
        "1",
        *args,
        "--config",
        "fidelity=smoke",
        "--",
        *targets,
    ]
    if not wait:
        return _background(cmd, w)
    return subprocess.run(cmd, cwd=w, capture_output=True, text=True, timeout=300)


@pytest.fixture()
def work(project_copy: Path) -> Path:
    return project_copy


def _planned_runs_jobs(w: Path) -> int:
    p = _snakemake(w, "-n")
    assert p.returncode == 0, p.stderr
    for line in p.stdout.splitlines():
        parts = line.split()
        if parts[:1] == ["runs"]:
            return int(parts[1])
    return 0


def test_resume_and_kill(work: Path) -> None:
    first = _snakemake(work)
    assert first.returncode == 0, first.stderr
    done = _summary(work, "n1_s1")
    stamp = done.stat().st_mtime_ns
    made = {r: _summary(work, r).read_bytes() for r in RUNS}
    assert _planned_runs_jobs(work) == 0

    # a deleted run: `python -m analysis.nsio verify` (make verify) names it and drops the
    # index that lists it, so the experiment's job is planned again; it remakes that run
    # only, the finished one untouched
    _summary(work, "n10_s1").unlink()
    assert _planned_runs_jobs(work) == 0, "Snakemake tracks the index, not each run"
    v = subprocess.run(
        [sys.executable, "-m", "analysis.nsio", "verify"], cwd=work, capture_output=True, text=True
    )
    assert v.returncode == 1 and "results/floyd1991/fig02/smoke/n10_s1: missing run" in v.stderr
    assert not _index(work).exists()
    assert _planned_runs_jobs(work) == 1
    again = _snakemake(work)
    assert again.returncode == 0, again.stderr
    assert _summary(work, "n10_s1").read_bytes() == made["n10_s1"]
    assert done.stat().st_mtime_ns == stamp

    # kill snakemake (and ns) in the middle of a long run (the experiment's runs, made one at
    # a time on one core: the first, n1_s1, is the one cut)
    cfg = work / "config" / "experiments" / "floyd1991.yaml"
    original = cfg.read_text()
    cfg.write_text(original.replace("set: {duration: 100}", "set: {duration: 1000000}"))
    proc = _snakemake(work, wait=False)
    run_dir = done.parent
    deadline = time.time() + 60
    while not list(run_dir.glob("*.partial")) and time.time() < deadline:
        time.sleep(0.2)
    time.sleep(0.5)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert not done.exists(), "a killed run must not look complete"
    assert list(run_dir.glob("*.partial"))
    assert not _index(work).exists(), "an index listing a run that is not complete"

    # rerun (after the --unlock a hard kill requires): the killed run is redone, and with the
    # parameters back, every run is the one first made, byte for byte
    cfg.write_text(original)
    assert _snakemake(work, "--unlock").returncode == 0
    again = _snakemake(work)
    assert again.returncode == 0, again.stderr
    assert {r: _summary(work, r).read_bytes() for r in RUNS} == made
    assert _planned_runs_jobs(work) == 0


def test_dry_run_prints_every_job(project_copy: Path, root: Path) -> None:
    """`snakemake -n`, as the README recommends, with all five papers on a fresh copy: every
    job's shell command is formatted (the DAG is static: no checkpoint but the ns build), and
    a step whose item names its own module runs that module (tang's table3_buffer)."""
    copy_report_sources(root, project_copy)
    smk = Path(sys.executable).with_name("snakemake")
    p = subprocess.run(
        [str(smk), "-n", "-p", "--config", "fidelity=smoke"],
        cwd=project_copy,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert p.returncode == 0, p.stderr[-3000:]
    for rule in ("rule runs", "rule akella2002_search", "rule report"):
        assert f"\n{rule}:\n" in p.stdout, rule
    assert "python -m analysis.tang_buffer table3_buffer " in p.stdout
    assert "python -m analysis.tang table3 " in p.stdout
    assert "python -m analysis.tang table3_buffer" not in p.stdout


@pytest.mark.parametrize("fidelity", ["smoke", "quick"])
def test_fresh_plan_reaches_the_report(project_copy: Path, root: Path, fidelity: str) -> None:
    """On a tree without results the job graph (snakemake --dag) holds every job, down to the
    report and every diagram. (On a tree whose report exists Snakemake 9 answers "Nothing to be
    done" with exit 0 even when an input function fails, so this is checked on a fresh copy.)"""
    from collections import Counter

    import yaml

    copy_report_sources(root, project_copy)
    smk = Path(sys.executable).with_name("snakemake")
    p = subprocess.run(
        [str(smk), "--dag", "--config", f"fidelity={fidelity}"],
        cwd=project_copy,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert p.returncode == 0, p.stderr[-3000:]
    jobs = Counter(re.findall(r'label = "([a-z0-9_]+)', p.stdout))
    diagrams = 0
    conf_keys = conf.paper_keys(project_copy)
    for paper in conf_keys:
        pc = yaml.safe_load((project_copy / "config" / "experiments" / f"{paper}.yaml").read_text())
        diagrams += len(pc[paper].get("diagrams", {}))
    assert jobs["report"] == 1 and jobs["diff_tables"] == 1
    assert jobs["diagram"] == diagrams == 7
    # the shared rules: one claims job per paper, figures and tables of every paper
    assert jobs["claims"] == len(conf_keys) == 5
    assert jobs["figure"] > 30 and jobs["table"] > 5 and jobs["analyse"] > 20


# ---- issue 16: nothing stale, nothing orphaned ---------------------------------------------
# Scenarios on Floyd's Figure 2 at smoke fidelity (two runs, n = 1 and n = 10), with only
# floyd1991 in the copy's papers (a faster parse).
FIG02 = "results/floyd1991/fig02/smoke"
FIG02_TARGETS = [f"{FIG02}/tidy.csv", "figures/smoke/floyd1991/fig02.pdf"]
SMOKE_FIG02 = re.compile(r"(sweep: \{n: \[1, 10\]\}, set: \{duration: )([0-9.e+]+)\}")


def _smk(
    w: Path, *args: str, wait: bool = True, cores: int = 1
) -> subprocess.CompletedProcess | subprocess.Popen:
    """snakemake in the copy (default rerun triggers), floyd1991 only, at smoke fidelity;
    args end with the targets (after '--')."""
    smk = Path(sys.executable).with_name("snakemake")
    cmd = [str(smk), f"--cores={cores}", "--config", "fidelity=smoke", 'papers=["floyd1991"]']
    cmd += args
    if not wait:
        return _background(cmd, w)
    return subprocess.run(cmd, cwd=w, capture_output=True, text=True, timeout=600)


def _plan(w: Path, *targets: str) -> dict[str, int]:
    """rule -> jobs that `snakemake -n` plans for the targets."""
    p = _smk(w, "-n", "--", *targets)
    assert p.returncode == 0, p.stderr[-3000:]
    jobs: dict[str, int] = {}
    if "Job stats:" in p.stdout:  # the table: job / count, ending in total
        table = p.stdout.split("Job stats:", 1)[1].split("\ntotal", 1)[0]
        for line in table.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[1].isdigit():
                jobs[parts[0]] = int(parts[1])
    return jobs


def _fig02_duration(w: Path, duration: float) -> None:
    """Set the duration of Figure 2's smoke runs (shipped: 100 s)."""
    cfg = w / "config" / "experiments" / "floyd1991.yaml"
    text, n = SMOKE_FIG02.subn(rf"\g<1>{duration}}}", cfg.read_text())
    assert n == 1
    cfg.write_text(text)


def _wait_for(cond, what: str, limit: float = 120) -> None:  # type: ignore[no-untyped-def]
    deadline = time.time() + limit
    while not cond():
        assert time.time() < deadline, f"gave up waiting for {what}"
        time.sleep(0.05)


def _ns_of_run(w: Path, run: str) -> int | None:
    """The pid of the ns process writing FIG02/run, if any."""
    for pid, cmd in processes_in(w).items():
        if cmd.split(" ", 1)[0].endswith("/ns") and f"out={FIG02}/{run} " in cmd + " ":
            return pid
    return None


@pytest.fixture()
def clean_copy(project_copy: Path):  # type: ignore[no-untyped-def]
    """The project copy; no process left working in it afterwards (whatever the test did)."""
    yield project_copy
    for pid in processes_in(project_copy):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def test_killed_run_is_redone_with_the_new_parameters(clean_copy: Path) -> None:
    """Change a parameter, kill the ns of every run it changes mid-run (here both runs of
    the figure, running side by side), rerun the same command: the runs are simulated again
    and the figure and its table come from the new parameters. (Without the runs' digest
    among the step's params, the rerun said "Nothing to be done": the table was up to date
    with the runs it had read, and Snakemake does not remake a missing input, here the
    experiment's index, of an up-to-date output.)"""
    w = clean_copy
    assert _smk(w, "--", *FIG02_TARGETS).returncode == 0
    old_tidy = (w / FIG02 / "tidy.csv").read_bytes()

    _fig02_duration(w, 2000)
    proc = _smk(w, "--", *FIG02_TARGETS, wait=False, cores=2)
    assert isinstance(proc, subprocess.Popen)
    _wait_for(lambda: _ns_of_run(w, "n1_s1") and _ns_of_run(w, "n10_s1"), "both ns runs")
    for run in RUNS:
        os.kill(_ns_of_run(w, run), signal.SIGKILL)  # type: ignore[arg-type]
    assert proc.wait(timeout=300) != 0
    assert all((w / FIG02 / f"{run}.failed").is_dir() for run in RUNS)
    killed_at = time.time()

    again = _smk(w, "--", *FIG02_TARGETS, cores=2)
    assert again.returncode == 0, again.stderr[-3000:]
    for run in RUNS:
        summary = json.loads((w / FIG02 / run / "summary.json").read_text())
        assert float(summary["params"]["duration"]) == 2000, run
        assert not (w / FIG02 / f"{run}.failed").exists()
    assert (w / FIG02 / "tidy.csv").read_bytes() != old_tidy, "table from the old parameters"
    assert (w / FIG02_TARGETS[1]).stat().st_mtime > killed_at, "figure not redrawn"
    assert _plan(w, *FIG02_TARGETS) == {}


def test_killed_snakemake_leaves_no_ns_behind(clean_copy: Path) -> None:
    """kill -9 on Snakemake alone (not its process group) in the middle of a run, then the
    README's recovery at once (unlock, rerun): no ns of the killed Snakemake goes on writing
    into the run folder, and the rerun completes."""
    w = clean_copy
    _fig02_duration(w, 1000000)
    proc = _smk(w, "--", *FIG02_TARGETS, wait=False)
    assert isinstance(proc, subprocess.Popen)
    _wait_for(lambda: _ns_of_run(w, "n1_s1") or _ns_of_run(w, "n10_s1"), "an ns run")
    old = {pid for pid, cmd in processes_in(w).items() if "duration=1000000" in cmd}
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()

    _fig02_duration(w, 100)  # restores the shipped value
    assert _smk(w, "--unlock").returncode == 0
    again = _smk(w, "--", *FIG02_TARGETS)
    assert again.returncode == 0, again.stderr[-3000:]
    alive = set(processes_in(w)) & old
    assert not alive, f"orphans of the killed Snakemake still running: {alive}"
    for run in ("n1_s1", "n10_s1"):
        summary = json.loads((w / FIG02 / run / "summary.json").read_text())
        assert float(summary["params"]["duration"]) == 100, run


@pytest.fixture()
def own_build(project_copy: Path, ns_binary: Path) -> Path:
    """The project copy with its own build/ folder, its ns made by a stand-in for
    scripts/build-ns2.sh that copies the shared binary (a byte-identical rebuild in a
    second), and the smoke runs of Floyd's Figure 2 made with it."""
    w = project_copy
    (w / "build").unlink()
    (w / "build" / "download").mkdir(parents=True)
    source = dict(
        line.split("=", 1)
        for line in (w / "ns2-patches" / "SOURCE").read_text().splitlines()
        if "=" in line and not line.startswith("#")
    )
    (w / "build" / "download" / source["file"]).write_text("stand-in\n")
    fake = w / "scripts" / "build-ns2.sh"
    fake.write_text(f'#!/bin/sh\ncp "{ns_binary.resolve()}" "$3.tmp" && mv "$3.tmp" "$3"\n')
    fake.chmod(0o755)
    built = _smk(w, "--", "build_ns")
    assert built.returncode == 0, built.stderr[-3000:]
    done = _smk(w, "--", f"{FIG02}/runs.json")
    assert done.returncode == 0, done.stderr[-3000:]
    return w


def test_settings_that_change_no_result_rerun_nothing(own_build: Path) -> None:
    """A new run time limit or number of build jobs plans no simulation and no build."""
    w = own_build
    targets = [f"{FIG02}/runs.json"]
    assert _plan(w, *targets) == {}
    cfg = w / "config" / "config.yaml"
    text = cfg.read_text()
    assert "run_timeout_s: 7200" in text and "build_jobs: 2" in text
    cfg.write_text(text.replace("run_timeout_s: 7200", "run_timeout_s: 3600"))
    assert _plan(w, *targets) == {}, "a new time limit reruns"
    cfg.write_text(text.replace("build_jobs: 2", "build_jobs: 1"))
    assert _plan(w, *targets, "build_ns") == {}, "a new number of build jobs reruns"


def test_identical_ns_rebuild_reruns_nothing(own_build: Path) -> None:
    """Rebuilding ns byte for byte (new file time), even in the same invocation as the
    runs, reruns no simulation: they depend on the binary's identity (ns.id), not on its
    time."""
    w = own_build
    ns = w / "build" / "ns2" / "bin" / "ns"
    targets = [f"{FIG02}/runs.json"]
    made = [*targets, *(f"{FIG02}/{r}/summary.json" for r in RUNS)]
    stamps = {t: (w / t).stat().st_mtime_ns for t in made}
    before = ns.stat().st_mtime_ns
    rebuilt = _smk(w, "--forcerun", "build_ns", "--", *targets)
    assert rebuilt.returncode == 0, rebuilt.stderr[-3000:]
    assert ns.stat().st_mtime_ns > before, "ns was not rebuilt"
    assert {t: (w / t).stat().st_mtime_ns for t in made} == stamps, "runs were redone"
    assert _plan(w, *targets) == {}


# ---- issue 18: a code change reruns exactly the steps that import it -----------------------


@pytest.fixture(scope="module")
def floyd_smoke(root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy with Floyd 1991's whole smoke report made (floyd1991 only)."""
    from tests.conftest import make_project_copy

    w = make_project_copy(root, tmp_path_factory.mktemp("deps") / "w")
    copy_report_sources(root, w)
    done = _smk(w, cores=2)
    assert done.returncode == 0, done.stderr[-3000:]
    assert _plan(w) == {}
    return w


# module edited -> the rules whose jobs must rerun (and no other); the figure and analysis
# counts are Floyd's smoke items
AFTER_REPORT = {"diff_tables", "report_parts", "report", "all"}
DEPENDANTS = {
    # plots layer: its figures and the report (the diff reads numbers, not figures)
    "analysis/plots/floyd1991.py": {"figure", "report", "all"},
    # analysis layer: every Floyd step, its figures, and the chapter beyond the papers (it
    # reads the aqm01 step's table)
    "analysis/floyd1991.py": {"analyse", "claims", "figure", "beyond"} | AFTER_REPORT,
    # models layer: imported by the analysis module only
    "analysis/models/floyd1991.py": {"analyse", "claims", "figure", "beyond"} | AFTER_REPORT,
    # reading ns output: every step that reads runs, the diagram too, but no run
    "analysis/nsio.py": {"analyse", "claims", "figure", "diagram", "beyond"} | AFTER_REPORT,
    # report layer: the report's own parts only
    "analysis/report.py": {"report_parts", "report", "all"},
    # the chapter beyond the papers: itself and the report
    "analysis/beyond.py": {"beyond", "report", "all"},
    # the ns runner: every run and all that follows
    "analysis/nsrun.py": {"runs", "analyse", "claims", "figure", "diagram", "beyond"}
    | AFTER_REPORT,
    # the runs' pool: the experiments' jobs (which keep their runs: a run's key names nsrun,
    # not the pool) and all that reads their indexes
    "analysis/nsbatch.py": {"runs", "analyse", "claims", "figure", "diagram", "beyond"}
    | AFTER_REPORT,
}


@pytest.mark.parametrize("module", sorted(DEPENDANTS))
def test_editing_a_module_reruns_exactly_its_dependants(floyd_smoke: Path, module: str) -> None:
    """Edit one module of each layer (append a comment): `snakemake -n` plans exactly the
    steps that import it and what they feed, nothing else; put back, nothing is planned."""
    w = floyd_smoke
    f = w / module
    text, st = f.read_text(), f.stat()
    try:
        f.write_text(text + "# edited\n")
        plan = _plan(w)
        assert set(plan) == DEPENDANTS[module], plan
    finally:
        f.write_text(text)
        os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert _plan(w) == {}


def test_snakemake_html_report_annotates_every_figure(floyd_smoke: Path) -> None:
    """`snakemake --report` works and captions each figure with its trace."""
    smk = Path(sys.executable).with_name("snakemake")
    out = floyd_smoke / "workflow-report.html"
    p = subprocess.run(
        [str(smk), "--report", str(out), "--config", "fidelity=smoke", 'papers=["floyd1991"]'],
        cwd=floyd_smoke,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert p.returncode == 0, p.stderr[-3000:]
    html = out.read_text(errors="replace")
    for fig in ("fig02", "fig09", "fig14"):
        assert f"floyd1991/{fig}.png" in html, fig
    assert "floyd1991.experiments.fig06" in html  # Figure 9's trace names Figure 6's runs


def test_front_page_names_the_executor_and_the_build_cost(floyd_smoke: Path, cfg: dict) -> None:
    """The report's front page: the executor that ran the workflow (local here); the build
    record beside it: the jobs that made its results (at least one per experiment, for its
    runs, and one per analysis step) and their CPU-hours (measured, so not in the PDF)."""
    gen = floyd_smoke / "paper" / "generated" / "smoke"
    tex = (gen / "build.tex").read_text()
    assert "\\newcommand{\\reportExecutor}{local}" in tex
    record = (gen / "build-cost.txt").read_text()
    jobs = re.search(r"^jobs\t(\d+)$", record, re.M)
    cpu = re.search(r"^cpu_hours\t([\d.e-]+)$", record, re.M)
    assert jobs and cpu, record
    from analysis import config as conf

    exps = cfg["floyd1991"]["experiments"]
    steps = {it.step for it in conf.items(cfg, "floyd1991").values()}
    assert int(jobs.group(1).replace(",", "")) >= len(exps) + len(steps)
    assert float(cpu.group(1)) > 0


def test_every_run_logs_its_ns_cpu(floyd_smoke: Path, cfg: dict) -> None:
    """Each experiment's runs job leaves ns's own CPU time (analysis.nsrun --cpu-log): one
    line per run, made, with some CPU; and no Snakemake benchmark file (rules/common.smk)."""
    from analysis import config as conf
    from analysis import nsrun

    for exp in cfg["floyd1991"]["experiments"]:
        log = floyd_smoke / "benchmarks" / "floyd1991" / exp / "smoke" / "runs.cpu"
        assert not log.with_suffix(".tsv").exists()
        got = nsrun.read_cpu_log(log)
        want = [
            f"results/floyd1991/{exp}/smoke/{r.run_id}"
            for r in conf.runs(cfg, "floyd1991", exp, "smoke")
        ]
        assert sorted(got) == sorted(want), exp
        assert all(made and cpu > 0 for cpu, made in got.values()), exp


# ---- issue 46: a corrupt run is named, moved aside and made again ---------------------------


def _results_and_outputs(w: Path) -> dict[str, bytes]:
    """Every result (tests.faults.inject.files: runs, tables, the diff) and every figure and
    number of the smoke report, but the folders of runs moved aside."""
    from tests.faults.inject import files

    out = {
        k: v for k, v in files(w).items() if ".corrupt/" not in k and k.endswith(".log") is False
    }
    for d in ("figures/smoke", "paper/generated/smoke"):
        for f in sorted((w / d).rglob("*")):
            if f.is_file() and f.suffix in (".pdf", ".png", ".csv") and f.name != "build.tex":
                out[str(f.relative_to(w))] = f.read_bytes()
    return out


def test_a_corrupt_run_is_redone_byte_for_byte(floyd_smoke: Path, tmp_path: Path) -> None:
    """A truncated summary.json after a complete pipeline: the next step that reads it names
    the run (in its log), moves it aside and makes it again, and a second snakemake plans
    nothing; every result, figure and number equals the undisturbed copy's byte for
    byte. A corruption no rerun would read (a table damaged, its old time put back):
    `python -m analysis.nsio verify` (make verify) names it, moves it aside and makes it
    again, and the next snakemake remakes what reads it, byte for byte."""
    import shutil

    want = _results_and_outputs(floyd_smoke)
    w = tmp_path / "w"
    shutil.copytree(floyd_smoke, w, symlinks=True)
    run = w / "results" / "floyd1991" / "fig02" / "smoke" / RUNS[0]
    summary = run / "summary.json"
    summary.write_text(summary.read_text()[:100])
    assert _plan(w) == {}  # Snakemake tracks each experiment's index, not its runs
    fixed = _smk(w, "--forcerun", "analyse")  # the steps read their runs again
    assert fixed.returncode == 0, fixed.stderr[-3000:]
    log = (run.parent / "analyse.log").read_text()
    assert f"{run.relative_to(w)}: corrupt run: summary.json is not the file the run wrote" in log
    assert (run.parent / f"{run.name}.corrupt" / "CORRUPT.txt").is_file()
    assert _plan(w) == {}
    assert _results_and_outputs(w) == want
    # a damaged table with its old time: no rerun reads it, verify finds it
    table = sorted(run.glob("*.tsv"))[0]
    stamp = table.stat()
    table.write_bytes(table.read_bytes()[:-10])
    os.utime(table, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    assert _plan(w) == {}
    v = subprocess.run(
        [sys.executable, "-m", "analysis.nsio", "verify"], cwd=w, capture_output=True, text=True
    )
    assert v.returncode == 1 and f"{run.relative_to(w)}: corrupt run: {table.name}" in v.stderr
    redone = _smk(w)
    assert redone.returncode == 0, redone.stderr[-3000:]
    assert _results_and_outputs(w) == want


def test_the_report_is_byte_reproducible(floyd_smoke: Path) -> None:
    """Two builds of the report from the same results, each from scratch (no LaTeX state
    kept), give the same PDF, byte for byte (its dates and ID from the commit, the measured
    cost in the build record, not the PDF); a build at another SOURCE_DATE_EPOCH differs
    (the check can fail)."""
    pdf = floyd_smoke / "paper" / "report-smoke.pdf"

    def build() -> bytes:
        for f in (floyd_smoke / "paper").glob("report-smoke.*"):
            f.unlink()
        done = _smk(floyd_smoke, "--forcerun", "report_parts", "report")
        assert done.returncode == 0, done.stderr[-3000:]
        return pdf.read_bytes()

    first = build()
    assert build() == first
    other = subprocess.run(
        [sys.executable, "-m", "analysis.latex", "pdf", "--jobname=other",
         "--pretex=\\def\\reportGen{generated/smoke}", "paper/report.tex"],
        cwd=floyd_smoke,
        capture_output=True,
        text=True,
        env={**os.environ, "SOURCE_DATE_EPOCH": "86400", "FORCE_SOURCE_DATE": "1"},
        timeout=300,
    )  # fmt: skip
    assert other.returncode == 0, other.stdout[-2000:]
    assert (floyd_smoke / "paper" / "other.pdf").read_bytes() != first


def test_the_report_has_no_overfull_box(floyd_smoke: Path) -> None:
    """Every table column of the built report holds its cells and no line runs into the
    margin: its LaTeX log reports no overfull box (analysis.latex overfull, which make smoke
    runs on the five papers' report)."""
    log = (floyd_smoke / "paper" / "report-smoke.log").read_text(encoding="latin-1")
    assert latex.overfull_boxes(log) == []


def test_a_second_snakemake_changes_nothing_of_a_running_one(clean_copy: Path) -> None:
    """A second Snakemake on the same folder while the first runs a simulation: without
    --nolock Snakemake refuses the locked folder; with --nolock the run's lock refuses the
    second's job, and the first's run, its ns.log included, is untouched and goes on.
    (Before, the second emptied the running job's ns.log, declared as the job's Snakemake
    log.)"""
    w = clean_copy
    _fig02_duration(w, 1000000)
    target = f"{FIG02}/runs.json"
    first = _smk(w, "--", target, wait=False)
    assert isinstance(first, subprocess.Popen)
    log = w / FIG02 / RUNS[0] / "ns.log"
    _wait_for(lambda: _ns_of_run(w, RUNS[0]) is not None, "the first run's ns")
    _wait_for(log.is_file, "the first run's ns.log")
    ns = _ns_of_run(w, RUNS[0])
    with log.open("a") as fh:  # ns writes its log at the end: a line to find it by
        fh.write("a line the second Snakemake must not remove\n")
    before = log.read_bytes()
    locked = _smk(w, "--", target)
    assert locked.returncode != 0 and "LockException" in locked.stdout + locked.stderr
    second = _smk(w, "--nolock", "--", target)
    assert second.returncode != 0
    assert "held by another live ns run" in second.stdout + second.stderr
    assert log.read_bytes().startswith(before)  # not emptied, not rewritten
    assert first.poll() is None and _ns_of_run(w, RUNS[0]) == ns  # the first goes on
    os.killpg(first.pid, signal.SIGINT)
    first.wait(timeout=120)
