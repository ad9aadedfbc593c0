"""The comparisons of `make test-cluster` (tests/cluster/slurm_vs_local.py) can fail: a
differing, missing or extra file makes the Slurm run not byte-identical, and a cancelled
job is matched to its run folder only by its own wildcards."""

from __future__ import annotations

from tests.cluster.slurm_vs_local import same, squash


def test_same_fails_on_any_difference() -> None:
    want = {"a/summary.json": b"1", "b/flows.tsv": b"x"}
    assert same("identical", want, dict(want))
    assert not same("differs", want, {**want, "b/flows.tsv": b"y"})
    assert not same("missing", want, {"a/summary.json": b"1"})
    assert not same("extra", want, {**want, "c/summary.json": b"2"})


def test_a_cancelled_job_matches_only_its_run() -> None:
    # the plugin's comment: rule_sim_wildcards_<wildcard values joined by _>
    victim = squash("floyd1991_fig04_smoke_n3_s1")
    assert victim in squash("results/floyd1991/fig04/smoke/n3_s1/summary.json")
    assert victim not in squash("results/floyd1991/fig04/smoke/n1_s1/summary.json")
