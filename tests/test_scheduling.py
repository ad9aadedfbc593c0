"""The scheduler workaround: at most one wake-up pending, against Snakemake's one per pass;
and where a run's cores stood idle, read from Snakemake's log."""

from __future__ import annotations

import re
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


# --- the sample job selection looks at ----------------------------------------------------------


class _Job:
    def __init__(self, name: str, priority: int) -> None:
        self.name, self.priority = name, priority

    def __repr__(self) -> str:
        return self.name


def _ready(n_low: int, n_high: int) -> list[_Job]:
    return [_Job(f"low{i}", 0) for i in range(n_low)] + [_Job(f"high{i}", 1) for i in range(n_high)]


def test_by_priority_takes_every_job_of_the_highest_priority_first() -> None:
    import random

    jobs = _ready(1000, 3)
    for seed in range(20):
        sample = scheduling.by_priority(jobs, 50, random.Random(seed))
        assert len(sample) == 50 and len(set(sample)) == 50
        assert {j.name for j in sample if j.priority == 1} == {"high0", "high1", "high2"}
    # what it replaces: a random sample of 50 misses a given job out of 1,003 19 times in 20
    missed = sum("high0" not in map(repr, random.Random(s).sample(jobs, 50)) for s in range(200))
    assert missed > 150


def test_by_priority_keeps_a_small_set_and_breaks_ties_the_same_way() -> None:
    import random

    few = _ready(10, 2)
    assert scheduling.by_priority(few, 50) == few
    jobs = _ready(300, 0)
    a = scheduling.by_priority(jobs, 50, random.Random(7))
    b = scheduling.by_priority(jobs, 50, random.Random(7))
    assert a == b and len(a) == 50


def test_job_selection_is_given_the_priority_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[set] = []

    def recorder(self: object, jobs: set) -> set:
        seen.append(set(jobs))
        return set()

    monkeypatch.setattr(JobScheduler, "job_selector", recorder)
    assert scheduling.sample_by_priority(50)
    assert JobScheduler.job_selector is not recorder
    assert scheduling.sample_by_priority(50)  # in place once, not wrapped twice
    JobScheduler.job_selector(object(), set(_ready(1000, 2)))
    assert len(seen) == 1 and len(seen[0]) == 50
    assert {j.name for j in seen[0] if j.priority == 1} == {"high0", "high1"}


def test_the_snakefile_samples_by_priority_and_akella_searches_go_last() -> None:
    root = Path(__file__).resolve().parent.parent
    assert "\nscheduling.sample_by_priority()\n" in (root / "Snakefile").read_text()
    rules = (root / "rules" / "akella2002.smk").read_text()
    # the point batches, the stages, the iterations and the searches
    assert rules.count("priority: AK_PRIORITY") == 4 and "AK_PRIORITY = -1" in rules
    profile = (root / "profiles" / "default" / "config.yaml").read_text()
    # no Snakemake subsample: its random sample would come first
    assert not re.search(r"^scheduler-subsample:", profile, re.M)


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
