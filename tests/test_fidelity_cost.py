"""bench/fidelity-cost's cluster projection: batches of jobs and the wall time they allow,
against numbers checkable by hand."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import load_script  # one definition, shared by the tests of bench/ scripts

ROOT = Path(__file__).resolve().parent.parent


fc = load_script(ROOT / "bench/fidelity-cost", "fidelity_cost")


def test_batches_per_stage_round_up() -> None:
    # 120 jobs: 50 + 50 + 20; then a later stage of 30: one more
    assert fc.batches([120, 30], 50) == 4
    assert fc.batches([50], 50) == 1
    assert fc.batches([51], 50) == 2
    assert fc.batches([], 50) == 0


def test_batch_of_no_jobs_is_an_error() -> None:
    with pytest.raises(ValueError, match="at least one job"):
        fc.batches([3], 0)


def test_profile_batch_reads_group_components(tmp_path: Path) -> None:
    prof = tmp_path / "config.yaml"
    prof.write_text("group-components:\n  - steps=7\n  - sims=40\n")
    assert fc.profile_batch(prof, "sims") == 40
    assert fc.profile_batch(prof, "steps") == 7
    assert fc.profile_batch(prof, "other") == 1  # a group not batched: each job alone


def test_the_slurm_profile_batches_no_job_that_makes_runs() -> None:
    """One Slurm job per experiment's runs and per search (profiles/slurm: no group)."""
    assert fc.profile_batch(fc.PROFILE, "sims") == 1


def row(runs: list[int], cpu: float, runs_per_job: int = 1, control: int = 0, threads: int = 1):
    r = fc.Row("p", "e", "paper", runs=sum(runs), cpu_s_per_run=cpu)
    r.stages = [(n, 0.0) for n in runs]
    r.runs_per_job, r.control_jobs, r.threads = runs_per_job, control, threads
    return r


def test_row_jobs_and_batches() -> None:
    # 200 runs in jobs of 5 seeds: 40 jobs; a second stage of 20 runs: 4 jobs; 3 control jobs
    r = row([200, 20], 1.0, runs_per_job=5, control=3)
    assert r.stage_jobs() == [40, 4]
    assert r.jobs == 47
    assert r.batches(10) == 4 + 1 + 3


def test_batched_wall_is_limited_by_the_number_of_batches() -> None:
    # 100 runs of 2 s: unbatched on 100 cores 2 s; in 2 batches of 50 they run 50 at a time
    # on 2 CPUs: 200 s / 2 = 100 s
    r = row([100], 2.0)
    assert r.wall_s(100) == pytest.approx(2.0)
    assert r.wall_s(100, 50) == pytest.approx(100.0)
    # on 2 cores batching changes nothing: 200 s / 2
    assert r.wall_s(2, 50) == pytest.approx(100.0)


def test_a_job_runs_its_threads_at_a_time() -> None:
    # one job for the experiment's 100 runs of 2 s, 2 at a time: 200 s / 2 on any cluster
    r = row([100], 2.0, runs_per_job=100, threads=2)
    assert r.jobs == 1
    assert r.wall_s(100, 1) == pytest.approx(100.0)
    # a search (one job, stages in turn): 10 runs then 4, 2 at a time: 10 s + 4 s
    s = row([10, 4], 2.0, threads=2, control=1)
    s.one_job = True
    assert s.jobs == 1 and s.wall_s(100, 1) == pytest.approx(14.0)


def test_total_pools_the_first_stage_of_every_experiment() -> None:
    # two experiments of 10 jobs each: one batch of 20, not one each; a later stage of 10
    # jobs is batched on its own
    t = fc.Total("p", "paper", batch=50)
    t.add(row([10], 1.0))
    t.add(row([10, 10], 1.0, control=3))
    assert t.jobs == 33
    assert t.batches == 1 + 1 + 3
    # 30 s of CPU over the 2 batches that make runs is 15 s, but never less than the longest
    # experiment batched: its two stages of 10 s, one after another
    assert t.wall_batched_s() == pytest.approx(20.0)


def _bench_tsv(path: Path, cpu: float) -> Path:
    path.write_text(f"s\tcpu_time\n9.0\t{cpu}\n")
    return path


def test_finished_prefers_ns_cpu_logs(tmp_path: Path) -> None:
    _bench_tsv(tmp_path / "p0.5-b1.tsv", 0.5)
    (tmp_path / "p0.5-b1.cpu").write_text(
        "r/s1\t1.25\tmade\nr/s2\t0.000\trestored\nr/s3\t1.75\tmade\n"
    )
    f = fc.Finished()
    assert f.add(tmp_path / "p0.5-b1", 3)
    assert f.exact == [1.25, 1.75] and f.lower == []  # the restored run made no ns process
    (tmp_path / "p0.5-b1.tsv").unlink()  # a job of ns runs today: its CPU log only
    g = fc.Finished()
    assert g.add(tmp_path / "p0.5-b1", 3) and g.exact == [1.25, 1.75]


def test_finished_without_a_log_is_a_lower_bound(tmp_path: Path) -> None:
    f = fc.Finished()
    assert f.add(_bench_tsv(tmp_path / "p-b1.tsv", 3.0).with_suffix(""), 4)
    assert f.exact == [] and f.lower == [0.75]
    assert not f.add(tmp_path / "q-b1", 4)  # no record of the job: nothing counted
    assert f.exact == [] and f.lower == [0.75]
