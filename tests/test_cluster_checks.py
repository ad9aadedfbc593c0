"""The comparisons of `make test-cluster` (tests/cluster/slurm_vs_local.py) can fail: a
differing, missing or extra file makes the Slurm run not byte-identical, and only runs the
job logs say were restored from the run store count as restored."""

from __future__ import annotations

from pathlib import Path

from tests.cluster.slurm_vs_local import makes_runs, same, searches_get_their_threads


def test_same_fails_on_any_difference() -> None:
    want = {"a/summary.json": b"1", "b/flows.tsv": b"x"}
    assert same("identical", want, dict(want))
    assert not same("differs", want, {**want, "b/flows.tsv": b"y"})
    assert not same("missing", want, {"a/summary.json": b"1"})
    assert not same("extra", want, {**want, "c/summary.json": b"2"})


def test_jobs_that_make_runs_are_told_by_their_comment() -> None:
    assert makes_runs("rule_runs_wildcards_floyd1991_fig04_smoke")
    assert makes_runs("rule_akella2002_search_wildcards_full_sack_droptail_alpha")
    assert not makes_runs("rule_steps_figure_table")
    assert not makes_runs("rule_analyse_wildcards_floyd1991_analysis")


def test_a_search_job_that_ran_with_fewer_threads_fails_the_check(tmp_path: Path) -> None:
    """Each search job's Slurm log says its threads (Snakemake prints none for 1): every one
    at ns.job_threads passes, one below fails, none found fails."""
    logs = tmp_path / ".snakemake" / "slurm_logs" / "rule_akella2002_search"
    assert not searches_get_their_threads(tmp_path, 2)  # no search ran through Slurm
    (logs / "a").mkdir(parents=True)
    (logs / "a" / "11.log").write_text("rule akella2002_search:\n    threads: 2\n")
    (logs / "b").mkdir()
    (logs / "b" / "12.log").write_text("rule akella2002_search:\n    threads: 2\n")
    assert searches_get_their_threads(tmp_path, 2)
    (logs / "b" / "12.log").write_text("rule akella2002_search:\n    jobid: 5\n")  # 1 thread
    assert not searches_get_their_threads(tmp_path, 2)
