"""The scheduler workaround: at most one wake-up pending, against Snakemake's one per pass."""

from __future__ import annotations

import threading
import time

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
