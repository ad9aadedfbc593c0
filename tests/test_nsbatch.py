"""An experiment's runs through analysis.nsbatch: a pool that keeps every run complete from
the same inputs, stops at the first failure without losing a finished run, and an index
written only when every run is complete."""

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from analysis import config as conf
from analysis import nsbatch, nsio, nsrun

SCRIPT = conf.tcl_script("floyd1991", "gateways")


@pytest.fixture(autouse=True)
def _no_store(monkeypatch: pytest.MonkeyPatch) -> None:
    """No run store: a restored run would hide whether a run was made or kept."""
    monkeypatch.delenv(nsrun.STORE_ENV, raising=False)
    monkeypatch.delenv("SLURM_JOB_ID", raising=False)


@pytest.fixture(scope="module")
def params(cfg: dict) -> dict[str, str]:
    p = dict(conf.runs(cfg, "floyd1991", "fig02", "smoke")[0].params)
    p.update(duration=20, period=10)
    return {k: nsrun.format_value(v) for k, v in p.items()}


def _runs(tmp_path: Path, params: dict[str, str], seeds: list[int]) -> list[nsbatch.Run]:
    return [(tmp_path / f"s{s}", {**params, "seed": str(s)}) for s in seeds]


def _stamps(runs: list[nsbatch.Run]) -> dict[Path, int]:
    return {out: (out / "summary.json").stat().st_mtime_ns for out, _ in runs}


def test_parse_runs_refuses_what_is_not_a_list_of_runs() -> None:
    good = '[{"out": "a", "params": {"seed": 1, "n": "2"}}]'
    assert nsbatch.parse_runs(good) == [(Path("a"), {"seed": "1", "n": "2"})]
    for bad in ("{", '{"out": "a"}', '[{"out": "a"}]', '[{"params": {}}]', "[1]"):
        with pytest.raises(ValueError, match="not a list of"):
            nsbatch.parse_runs(bad)
    with pytest.raises(ValueError, match="twice"):
        nsbatch.parse_runs('[{"out": "a", "params": {}}, {"out": "a", "params": {}}]')


def test_read_index_names_a_file_that_is_not_one(tmp_path: Path) -> None:
    f = tmp_path / "runs.json"
    f.write_text('{"runs": [{"out": "x"}]}')
    with pytest.raises(ValueError, match=f"{f}: not an index of runs"):
        nsbatch.read_index(f)


def test_pool_keeps_complete_runs_and_makes_only_the_changed(
    ns_binary: Path, params: dict[str, str], tmp_path: Path
) -> None:
    """Two runs made two at a time; again: none made; one seed's parameter changed: that run
    only is made again; the index lists each run with its parameters and summary digest."""
    runs = _runs(tmp_path, params, [1, 2])
    assert nsbatch.run_pool(ns_binary, SCRIPT, runs, threads=2) == 2
    stamps = _stamps(runs)
    assert nsbatch.run_pool(ns_binary, SCRIPT, runs, threads=2) == 0
    assert _stamps(runs) == stamps
    changed = [runs[0], (runs[1][0], {**runs[1][1], "duration": "30"})]
    time.sleep(0.01)
    assert nsbatch.run_pool(ns_binary, SCRIPT, changed, threads=2) == 1
    after = _stamps(changed)
    assert after[runs[0][0]] == stamps[runs[0][0]] and after[runs[1][0]] != stamps[runs[1][0]]
    index = tmp_path / "runs.json"
    nsbatch.write_index(index, changed)
    assert nsbatch.read_index(index) == [(o, dict(p)) for o, p in changed]
    doc = json.loads(index.read_text())
    assert [r["summary_sha256"] for r in doc["runs"]] == [
        nsio.sha256(o / "summary.json") for o, _ in changed
    ]


def test_a_failed_run_stops_the_batch_and_no_finished_run_is_lost(
    ns_binary: Path, params: dict[str, str], tmp_path: Path
) -> None:
    """The first run fails (a queue ns does not know), one at a time: the error is raised, the
    run left as <run>.failed, the runs not started are not made; a run finished before stays
    complete. From the command line: exit 1, and no index."""
    good = _runs(tmp_path, params, [1])
    nsbatch.run_pool(ns_binary, SCRIPT, good)
    bad = (tmp_path / "bad", {**params, "gateway": "wfq"})
    later = _runs(tmp_path, params, [3])
    with pytest.raises(nsrun.NsRunError, match="exit status 2"):
        nsbatch.run_pool(ns_binary, SCRIPT, [*good, bad, *later], threads=1)
    assert nsrun.complete_summary(good[0][0]) is not None
    assert (tmp_path / "bad.failed").is_dir() and not later[0][0].exists()
    index = tmp_path / "runs.json"
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps([{"out": str(o), "params": p} for o, p in [*good, bad]]))
    cli = subprocess.run(
        [sys.executable, "-m", "analysis.nsbatch", "--ns", str(ns_binary), "--script",
         str(SCRIPT), "--runs", str(spec), "--index", str(index)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert cli.returncode == 1 and "nsbatch: ns run" in cli.stderr
    assert not index.exists()


def test_the_command_line_writes_the_index_last(
    ns_binary: Path, params: dict[str, str], tmp_path: Path
) -> None:
    runs = _runs(tmp_path, params, [1, 2])
    index = tmp_path / "exp" / "runs.json"
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps([{"out": str(o), "params": p} for o, p in runs]))
    cli = subprocess.run(
        [sys.executable, "-m", "analysis.nsbatch", "--ns", str(ns_binary), "--script",
         str(SCRIPT), "--runs", str(spec), "--threads", "2", "--index", str(index),
         "--cpu-log", str(tmp_path / "runs.cpu")],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert cli.returncode == 0, cli.stderr
    assert "2 runs, 2 made, 0 reused" in cli.stderr
    assert [o for o, _ in nsbatch.read_index(index)] == [o for o, _ in runs]
    logged = nsrun.read_cpu_log(tmp_path / "runs.cpu")
    assert sorted(logged) == sorted(str(o) for o, _ in runs)


def test_verify_drops_an_index_that_lists_a_missing_run(tmp_path: Path) -> None:
    """An index whose runs are all complete is kept; one listing a deleted run, or one that is
    not an index, is removed and named (Snakemake then plans the experiment's job again)."""
    results = tmp_path / "results"
    done, gone = results / "p" / "e" / "smoke" / "a", results / "p" / "e" / "smoke" / "b"
    done.mkdir(parents=True)
    (done / "summary.json").write_text('{"complete": true}')
    kept = results / "p" / "k" / "smoke" / "runs.json"
    kept.parent.mkdir(parents=True)
    kept.write_text(json.dumps({"runs": [{"out": str(done), "params": {}}]}))
    dropped = results / "p" / "e" / "smoke" / "runs.json"
    dropped.write_text(json.dumps({"runs": [{"out": str(d), "params": {}} for d in (done, gone)]}))
    broken = results / "p" / "x" / "smoke" / "runs.json"
    broken.parent.mkdir(parents=True)
    broken.write_text("[")
    problems = nsio.drop_incomplete_indexes(results)
    assert kept.is_file() and not dropped.exists() and not broken.exists()
    assert len(problems) == 2
    assert f"{gone}: missing run (listed in {dropped})" in problems[0]
    assert f"{broken}: not an index of runs" in problems[1]
    assert nsio.drop_incomplete_indexes(results) == []
