"""One BLAS thread per job, Snakemake used unpatched, and where a run's cores stood idle,
read from Snakemake's log."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from analysis import scheduling

# --- one thread per job -----------------------------------------------------------------------


def test_one_thread_per_job_sets_every_pool_and_overrides() -> None:
    env = {"OMP_NUM_THREADS": "8", "PATH": "/bin"}
    scheduling.one_thread_per_job(env)
    assert env == {
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "PATH": "/bin",
    }


def test_the_snakefile_sets_one_thread_per_job() -> None:
    snakefile = (Path(__file__).resolve().parent.parent / "Snakefile").read_text()
    assert "\nscheduling.one_thread_per_job()\n" in snakefile


def test_nothing_of_snakemake_is_replaced() -> None:
    """The workflow touches no private part of Snakemake: no module of the project assigns
    to a Snakemake class or imports its scheduler, and no rule sets a priority to order the
    run (priorities were only needed with the patched job selection)."""
    root = Path(__file__).resolve().parent.parent
    sources = [
        root / "Snakefile",
        *(root / "rules").glob("*.smk"),
        *(root / "analysis").rglob("*.py"),
    ]
    for f in sources:
        text = f.read_text()
        assert "snakemake.scheduling" not in text, f
        assert not re.search(r"JobScheduler\.\w+\s*=", text), f
        assert not re.search(r"^\s+priority:", text, re.M), f


# --- idle cores from Snakemake's log (bench/scheduler-overhead) ------------------------------

LOG = """Building DAG of jobs...
[Thu Nov 26 07:00:10 2026]
rule sim:
    output: results/a/summary.json
    jobid: 3
[Thu Nov 26 07:00:10 2026]
localcheckpoint akella2002_iteration:
    jobid: 7
    reason: Missing output files
DAG of jobs will be updated after completion.
[Thu Nov 26 07:00:14 2026]
Finished jobid: 7 (Rule: akella2002_iteration)
1 of 3 steps (33%) done
[Thu Nov 26 07:00:20 2026]
Finished jobid: 3 (Rule: sim)
[Thu Nov 26 07:00:22 2026]
rule figure:
    jobid: 1
[Thu Nov 26 07:00:25 2026]
Error in rule figure:
"""


def test_jobs_of_log_reads_rule_start_and_end() -> None:
    jobs = scheduling.jobs_of_log(LOG)
    # the figure never finished: left out
    assert [(j.rule, j.end - j.start) for j in jobs] == [
        ("akella2002_iteration", 4.0),
        ("sim", 10.0),
    ]


def test_idle_cores_by_running_jobs() -> None:
    t0 = time.mktime(time.strptime("Thu Nov 26 07:00:10 2026", "%a %b %d %H:%M:%S %Y"))
    jobs = [
        scheduling.Job("sim", t0, t0 + 10),
        scheduling.Job("iteration", t0, t0 + 4),
        scheduling.Job("report", t0 + 12, t0 + 15),
        scheduling.Job("tiny", t0 + 11, t0 + 11),  # under the log's second: no time
    ]
    idle = scheduling.idle_cores(jobs, 2, t0 - 3, t0 + 16)
    # 3 s before the first job on 2 cores; 1 s after the last
    assert idle.before_first == 6.0 and idle.after_last == 2.0
    # 0-4 s: two jobs; 4-10: one (6 core-s); 10-12: none (4); 12-15: one (3)
    assert idle.by_running == {1: 9.0, 0: 4.0}
    assert idle.alone == {"sim": 6.0, "report": 3.0}
    assert idle.total == 21.0


def test_idle_cores_without_jobs_and_bad_cores() -> None:
    assert scheduling.idle_cores([], 2, 0.0, 5.0).total == 10.0
    with pytest.raises(ValueError, match="at least 1"):
        scheduling.idle_cores([], 0, 0.0, 5.0)
