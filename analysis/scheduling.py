"""How this workflow's jobs use the cores: one BLAS thread per job
(:func:`one_thread_per_job`), and where a run's cores stood idle (:func:`idle_cores`, from
Snakemake's log, for bench/scheduler-overhead). Snakemake itself is used as it is: its job
selection is the profile's (profiles/default), nothing of it is replaced.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import MutableMapping
from dataclasses import dataclass

# --- one thread per job ---------------------------------------------------------------------

#: the thread-pool sizes of the BLAS and OpenMP libraries numpy and scipy load
THREAD_POOLS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def one_thread_per_job(env: MutableMapping[str, str] = os.environ) -> None:
    """Set every job's BLAS/OpenMP thread pools (``THREAD_POOLS``) to one thread, in ``env``
    (the Snakefile: its own environment, which its jobs inherit).

    Snakemake gives each job one core, but numpy's and scipy's OpenBLAS start a thread per
    core when imported, and those threads spin (an import of numpy and scipy cost about
    twice the CPU with the default pools on 2 cores: CHANGELOG.md). No analysis step
    multiplies matrices large enough for BLAS to use a second thread, and one thread sums in
    one fixed order."""
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
