"""One pending scheduler wake-up at a time: a workaround for Snakemake's job scheduler.

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

import threading
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


def coalesce_reevaluations() -> bool:
    """Put :func:`coalesced_reevaluation` in place of Snakemake's. False (and nothing
    changed) when this Snakemake has no such method: a version that schedules otherwise."""
    try:
        from snakemake.scheduling.job_scheduler import JobScheduler
    except ImportError:
        return False
    own = JobScheduler.__dict__.get("_schedule_reevalutation")
    if own is None:
        return False
    if own is not coalesced_reevaluation:
        SNAKEMAKE_OWN.append(own)
    JobScheduler._schedule_reevalutation = coalesced_reevaluation  # type: ignore[method-assign]
    return True


#: Snakemake's own method, once replaced (for the tests that show what it does)
SNAKEMAKE_OWN: list[Any] = []
