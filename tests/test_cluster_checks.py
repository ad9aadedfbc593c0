"""The comparisons of `make test-cluster` (tests/cluster/slurm_vs_local.py) can fail: a
differing, missing or extra file makes the Slurm run not byte-identical, a search job below
its threads fails, and a runs job's progress comes from its own experiment."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cluster.slurm_vs_local import runs_progress, same, searches_get_their_threads


def test_same_fails_on_any_difference() -> None:
    want = {"a/summary.json": b"1", "b/flows.tsv": b"x"}
    assert same("identical", want, dict(want))
    assert not same("differs", want, {**want, "b/flows.tsv": b"y"})
    assert not same("missing", want, {"a/summary.json": b"1"})
    assert not same("extra", want, {**want, "c/summary.json": b"2"})


def test_a_runs_job_s_progress_is_read_from_its_experiment(tmp_path: Path) -> None:
    """An experiment's runs job (its comment names paper, experiment, fidelity; the
    experiment's name may hold '_') counts its runs with a summary; other jobs: none."""
    exp = tmp_path / "results" / "floyd1991" / "fig02_links" / "smoke"
    runs = [{"out": f"results/floyd1991/fig02_links/smoke/n{i}_s1", "params": {}} for i in (1, 2)]
    exp.mkdir(parents=True)
    (exp / "runs-spec.json").write_text(json.dumps(runs))
    comment = "rule_runs_wildcards_floyd1991_fig02_links_smoke"
    assert runs_progress(tmp_path, comment) == (0, 2)
    (exp / "n2_s1").mkdir()
    (exp / "n2_s1" / "summary.json").write_text("{}")
    assert runs_progress(tmp_path, comment) == (1, 2)
    assert runs_progress(tmp_path, "rule_akella2002_search_wildcards_full_sack_alpha") is None
    assert runs_progress(tmp_path, "rule_analyse_wildcards_floyd1991_analysis") is None


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
