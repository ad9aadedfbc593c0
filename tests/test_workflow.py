"""The workflow resumes: a finished run is never recomputed, a killed one is redone.

Works on a copy of the project in a temporary folder (same file times, the same ns build
through a link), so the real results/ are not touched.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

RUNS = ["n1_s1", "n10_s1"]


def _summary(w: Path, run: str) -> Path:
    return w / "results" / "floyd1991" / "fig02" / "smoke" / run / "summary.json"


def _snakemake(
    w: Path, *args: str, wait: bool = True
) -> subprocess.CompletedProcess | subprocess.Popen:
    smk = Path(sys.executable).with_name("snakemake")
    targets = [str(_summary(w, r).relative_to(w)) for r in RUNS]
    cmd = [
        str(smk),
        "--cores",
        "1",
        "--rerun-triggers",
        "mtime",
        *args,
        "--config",
        "fidelity=smoke",
        "--",
        *targets,
    ]
    if not wait:
        return subprocess.Popen(
            cmd, cwd=w, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
    return subprocess.run(cmd, cwd=w, capture_output=True, text=True, timeout=300)


@pytest.fixture()
def work(project_copy: Path) -> Path:
    return project_copy


def _planned_sims(w: Path) -> int:
    p = _snakemake(w, "-n")
    assert p.returncode == 0, p.stderr
    for line in p.stdout.splitlines():
        parts = line.split()
        if parts[:1] == ["floyd1991_sim"]:
            return int(parts[1])
    return 0


def test_resume_and_kill(work: Path) -> None:
    first = _snakemake(work)
    assert first.returncode == 0, first.stderr
    done = _summary(work, "n1_s1")
    stamp = done.stat().st_mtime_ns
    assert _planned_sims(work) == 0

    # a deleted run is the only one redone
    _summary(work, "n10_s1").unlink()
    assert _planned_sims(work) == 1

    # kill snakemake (and ns) in the middle of a long run
    cfg = work / "config" / "experiments" / "floyd1991.yaml"
    original = cfg.read_text()
    cfg.write_text(original.replace("set: {duration: 100}", "set: {duration: 1000000}"))
    proc = _snakemake(work, wait=False)
    run_dir = _summary(work, "n10_s1").parent
    deadline = time.time() + 60
    while not list(run_dir.glob("*.partial")) and time.time() < deadline:
        time.sleep(0.2)
    time.sleep(0.5)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert not _summary(work, "n10_s1").exists(), "a killed run must not look complete"
    assert list(run_dir.glob("*.partial"))

    # rerun (after the --unlock a hard kill requires): the killed run is redone, the
    # finished one is not touched
    cfg.write_text(original)
    assert _snakemake(work, "--unlock").returncode == 0
    again = _snakemake(work)
    assert again.returncode == 0, again.stderr
    assert _summary(work, "n10_s1").is_file()
    assert done.stat().st_mtime_ns == stamp


@pytest.mark.parametrize("fidelity", ["smoke", "quick"])
def test_fresh_plan_reaches_the_report(project_copy: Path, root: Path, fidelity: str) -> None:
    """On a tree without results the job graph (snakemake --dag) holds every job, down to the
    report and every diagram. (On a tree whose report exists Snakemake 9 answers "Nothing to be
    done" with exit 0 even when an input function fails, so this is checked on a fresh copy;
    --dag because a dry run that prints jobs fails on Akella's checkpoint placeholders.)"""
    import re
    import shutil
    from collections import Counter

    import yaml

    # the report's sources (the copy holds no paper/ folder: nothing generated comes along)
    (project_copy / "paper").mkdir()
    shutil.copy2(root / "paper" / "report.tex", project_copy / "paper")
    shutil.copytree(root / "paper" / "sections", project_copy / "paper" / "sections")
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
    cfg = yaml.safe_load((project_copy / "config" / "config.yaml").read_text())
    diagrams = 0
    for paper in cfg["papers"]:
        pc = yaml.safe_load((project_copy / "config" / "experiments" / f"{paper}.yaml").read_text())
        diagrams += len(pc[paper].get("diagrams", {}))
    assert jobs["report"] == 1 and jobs["diff_tables"] == 1
    assert jobs["diagram"] == diagrams == 7
    assert all(jobs[f"{p}_plot"] > 0 for p in ("akella2002", "floyd1991", "misra", "tang"))
