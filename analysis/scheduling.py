"""How Snakemake schedules this workflow's jobs: one pending scheduler wake-up at a time (a
workaround), job selection over the ready jobs of highest priority (:func:`sample_by_priority`),
one BLAS thread per job (:func:`one_thread_per_job`), and where a run's cores stood idle
(:func:`idle_cores`, for bench/scheduler-overhead).

One pending scheduler wake-up at a time: a workaround for Snakemake's job scheduler.

With a job rate limit (Snakemake's default ``--max-jobs-per-timespan 100/1s``), every pass of
Snakemake's scheduling loop ends by arming a new timer that wakes the loop again one timespan
later (``JobScheduler._schedule_reevalutation``), and every pass a timer starts arms another.
Each finished job starts a pass of its own, so every finished job adds one more chain of
wake-ups: after n jobs, the loop is woken about n times a second, and each pass re-evaluates
the parameters and input sizes of every ready job, so Snakemake's own CPU grows with the
jobs finished (README, "Tests and benchmarks", gives what it cost here).

:func:`coalesce_reevaluations`, called by the Snakefile, keeps at most one wake-up pending per
scheduler. That keeps what the wake-up is for: after any pass, the loop runs again within one
timespan, so a rate-limited submission is retried in time; finished jobs still wake the loop
themselves. The timer is a daemon thread, so it never delays Snakemake's exit.
"""

from __future__ import annotations

import os
import random
import re
import threading
import time
from collections.abc import Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any

#: the attribute of a scheduler that says a wake-up is pending
PENDING = "_artifact_reevaluation_pending"


def coalesced_reevaluation(scheduler: Any, delay: float) -> None:
    """Wake ``scheduler``'s loop (release its ``_open_jobs``) after ``delay`` seconds, unless
    a wake-up is pending already."""
    with _LOCK:
        if getattr(scheduler, PENDING, False):
            return
        setattr(scheduler, PENDING, True)

    def wake() -> None:
        with _LOCK:
            setattr(scheduler, PENDING, False)
        scheduler._open_jobs.release()

    timer = threading.Timer(delay, wake)
    timer.daemon = True
    timer.start()


_LOCK = threading.Lock()


def _scheduler_method(name: str) -> tuple[Any, Any] | None:
    """Snakemake's job scheduler class and its own method ``name``, or None when this
    Snakemake has no such method (a version that schedules otherwise)."""
    try:
        from snakemake.scheduling.job_scheduler import JobScheduler
    except ImportError:
        return None
    own = JobScheduler.__dict__.get(name)
    return None if own is None else (JobScheduler, own)


def coalesce_reevaluations() -> bool:
    """Put :func:`coalesced_reevaluation` in place of Snakemake's. False (and nothing
    changed) when this Snakemake has no such method: a version that schedules otherwise."""
    found = _scheduler_method("_schedule_reevalutation")
    if found is None:
        return False
    JobScheduler, own = found
    if own is not coalesced_reevaluation:
        SNAKEMAKE_OWN.append(own)
    JobScheduler._schedule_reevalutation = coalesced_reevaluation  # type: ignore[method-assign]
    return True


#: Snakemake's own method, once replaced (for the tests that show what it does)
SNAKEMAKE_OWN: list[Any] = []


# --- the sample job selection looks at: highest priority first --------------------------------

#: how many ready jobs a pass of job selection looks at (Snakemake's --scheduler-subsample,
#: which samples at random, is left unset): the profile's greedy selection reads every job it
#: is given, and at quick over a thousand point jobs are ready at once
SAMPLE = 50

_SAMPLE_RNG = random.Random(0)  # ties broken at random, the same way in every run


def by_priority(jobs: Iterable[Any], size: int = SAMPLE, rng: random.Random = _SAMPLE_RNG) -> list:
    """At most ``size`` of the ready ``jobs``: every job of the highest priority first, ties
    (and the rest, down the priorities) at random. A random sample alone, as Snakemake's
    subsample draws it, ignores priorities while over a thousand jobs are ready, so no
    priority could order the run (this workflow's: Akella et al.'s search chains last)."""
    pool = list(jobs)
    if len(pool) <= size:
        return pool
    rng.shuffle(pool)
    pool.sort(key=lambda job: -job.priority)  # stable: the shuffle breaks ties
    return pool[:size]


def sample_by_priority(size: int = SAMPLE) -> bool:
    """Have Snakemake's job selection look at :func:`by_priority`'s sample of the ready jobs.
    False (and nothing changed) when this Snakemake has no such method."""
    found = _scheduler_method("job_selector")
    if found is None:
        return False
    JobScheduler, own = found
    if getattr(own, "_artifact_sample", False):
        return True

    def job_selector(self: Any, jobs: Any) -> Any:
        return own(self, set(by_priority(jobs, size)))

    job_selector._artifact_sample = True  # type: ignore[attr-defined]
    JobScheduler.job_selector = job_selector  # type: ignore[method-assign]
    return True


# --- one thread per job ---------------------------------------------------------------------

#: the thread-pool sizes of the BLAS and OpenMP libraries numpy and scipy load
THREAD_POOLS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def one_thread_per_job(env: MutableMapping[str, str] = os.environ) -> None:
    """Set every job's BLAS/OpenMP thread pools (``THREAD_POOLS``) to one thread, in ``env``
    (the Snakefile: its own environment, which its jobs inherit).

    Snakemake gives each job one core, but numpy's and scipy's OpenBLAS start a thread per
    core when imported, and those threads spin: measured on 2 cores (2026-11-26), importing
    ``analysis.akella2002_search`` 20 times took 15.1 s of CPU (10.2 s wall) with the
    default pools, 8.3 s with one thread each. No analysis step multiplies matrices large
    enough for BLAS to use a second thread, and one thread sums in one fixed order."""
    for name in THREAD_POOLS:
        env[name] = "1"


# --- where a run's cores were idle, from Snakemake's log (bench/scheduler-overhead) --------

_STAMP = re.compile(r"^\[(\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4})\]$")
_START = re.compile(r"^(?:local)?(?:rule|checkpoint) (\S+):$")
_JOBID = re.compile(r"^\s+jobid: (\d+)$")
_FINISHED = re.compile(r"^Finished jobid: (\d+)")


@dataclass(frozen=True)
class Job:
    """One job of a Snakemake run: its rule and when it started and finished (seconds since
    the epoch, to the log's one-second resolution)."""

    rule: str
    start: float
    end: float


def jobs_of_log(text: str) -> list[Job]:
    """The jobs Snakemake's log (its stderr) shows started and finished. A job that never
    finished (a failed or cut run) is left out."""
    started: dict[str, tuple[str, float]] = {}
    jobs: list[Job] = []
    stamp: float | None = None
    rule: str | None = None
    for line in text.splitlines():
        m = _STAMP.match(line.strip())
        if m:
            stamp = time.mktime(time.strptime(m.group(1), "%a %b %d %H:%M:%S %Y"))
            rule = None
            continue
        if stamp is None:
            continue
        if m := _START.match(line):
            rule = m.group(1)
        elif (m := _JOBID.match(line)) and rule is not None:
            started[m.group(1)] = (rule, stamp)
            rule = None
        elif (m := _FINISHED.match(line)) and m.group(1) in started:
            name, t0 = started.pop(m.group(1))
            jobs.append(Job(name, t0, stamp))
    return jobs


@dataclass(frozen=True)
class Idle:
    """Core-seconds left idle over a run of ``cores`` cores: before the first job started,
    after the last one finished, and in between, by how many jobs ran; the rules that ran
    alone (one job on two or more cores) longest."""

    before_first: float
    after_last: float
    by_running: dict[int, float]
    alone: dict[str, float]

    @property
    def total(self) -> float:
        return self.before_first + self.after_last + sum(self.by_running.values())


def idle_cores(jobs: list[Job], cores: int, t_start: float, t_end: float) -> Idle:
    """Where ``cores`` cores stood idle between ``t_start`` and ``t_end`` (Snakemake's start
    and end), counting a core idle while fewer than ``cores`` jobs ran. A job shorter than the
    log's second shows as running for no time."""
    if cores < 1:
        raise ValueError(f"cores must be at least 1, not {cores}")
    if not jobs:
        return Idle(cores * max(0.0, t_end - t_start), 0.0, {}, {})
    first = min(j.start for j in jobs)
    last = max(j.end for j in jobs)
    edges = sorted({*(j.start for j in jobs), *(j.end for j in jobs)})
    starts: dict[float, list[int]] = {}
    ends: dict[float, list[int]] = {}
    for i, j in enumerate(jobs):
        if j.end > j.start:
            starts.setdefault(j.start, []).append(i)
            ends.setdefault(j.end, []).append(i)
    by_running: dict[int, float] = {}
    alone: dict[str, float] = {}
    active: set[int] = set()
    # the jobs running from a to b: started by a, not ended by then
    for a, b in zip(edges, edges[1:], strict=False):
        active.difference_update(ends.get(a, ()))
        active.update(starts.get(a, ()))
        running = [jobs[i] for i in active]
        n = len(running)
        if n < cores:
            by_running[n] = by_running.get(n, 0.0) + (cores - n) * (b - a)
        if n == 1 and cores > 1:
            alone[running[0].rule] = alone.get(running[0].rule, 0.0) + (b - a)
    return Idle(
        cores * max(0.0, first - t_start), cores * max(0.0, t_end - last), by_running, alone
    )
