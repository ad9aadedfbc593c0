"""The scheduler workaround: at most one wake-up pending, against Snakemake's one per pass;
and where a run's cores stood idle, read from Snakemake's log."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from snakemake.scheduling.job_scheduler import JobScheduler

from analysis import scheduling


class _Loop:
    """What a wake-up touches of Snakemake's scheduler: the semaphore its loop waits on."""

    def __init__(self) -> None:
        self._open_jobs = threading.Semaphore(0)


def _wakeups(loop: _Loop) -> int:
    n = 0
    while loop._open_jobs.acquire(blocking=False):
        n += 1
    return n


def test_wakeups_coalesce_to_one_pending() -> None:
    loop = _Loop()
    before = threading.active_count()
    for _ in range(50):  # fifty passes within one timespan
        scheduling.coalesced_reevaluation(loop, 0.2)
    assert threading.active_count() <= before + 1  # one timer, not fifty
    time.sleep(0.6)
    assert _wakeups(loop) == 1
    # once it has fired, the next pass arms a new one
    scheduling.coalesced_reevaluation(loop, 0.05)
    time.sleep(0.3)
    assert _wakeups(loop) == 1


def test_snakemake_own_wakeups_multiply() -> None:
    """What the workaround is for, in the pinned Snakemake: every pass arms a timer of its
    own (if a Snakemake release stops doing so, this fails and the workaround can go)."""
    original = JobScheduler.__dict__["_schedule_reevalutation"]
    if original is scheduling.coalesced_reevaluation:  # replaced already in this process
        original = scheduling.SNAKEMAKE_OWN[0]
    loop = _Loop()
    for _ in range(20):
        original(loop, 0.1)
    time.sleep(0.5)
    assert _wakeups(loop) == 20


def test_the_snakefile_puts_it_in_place() -> None:
    assert scheduling.coalesce_reevaluations()
    assert JobScheduler._schedule_reevalutation is scheduling.coalesced_reevaluation


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
