import json
from pathlib import Path

import pytest

from analysis import nsio


def _run(d: Path, complete: bool = True) -> Path:
    d.mkdir(parents=True)
    (d / "goodput.tsv").write_text("# period t conn delivered\n1 50 0 10\n2 100 0 25\n")
    summary = {"complete": complete, "params": {"n": 3, "seed": 2}, "tables": ["goodput"]}
    summary["results"] = {}
    (d / "summary.json").write_text(json.dumps(summary))
    return d


def test_read_table(tmp_path: Path) -> None:
    d = _run(tmp_path / "r")
    df = nsio.read_table(d / "goodput.tsv")
    assert list(df.columns) == ["period", "t", "conn", "delivered"]
    assert df["delivered"].tolist() == [10, 25]


def test_read_table_needs_header(tmp_path: Path) -> None:
    p = tmp_path / "x.tsv"
    p.write_text("1 2 3\n")
    with pytest.raises(ValueError, match="column names"):
        nsio.read_table(p)


def test_incomplete_run_is_refused(tmp_path: Path) -> None:
    d = _run(tmp_path / "r", complete=False)
    with pytest.raises(nsio.IncompleteRun, match="not marked complete"):
        nsio.read_run(d)
    with pytest.raises(nsio.IncompleteRun, match="missing"):
        nsio.read_summary(tmp_path / "nowhere")


def test_collect_adds_parameters(tmp_path: Path) -> None:
    a = _run(tmp_path / "a")
    b = _run(tmp_path / "b")
    df = nsio.collect([a, b / "summary.json"], "goodput", ["n", "seed"])
    assert len(df) == 4
    assert set(df["n"]) == {3} and set(df["seed"]) == {2}
    with pytest.raises(KeyError, match="no table"):
        nsio.collect([a], "cwnd", [])


def _finished_run(root: Path, name: str = "r1") -> Path:
    """A run folder as analysis.nsrun leaves it: summary, a table, ns.log and the manifest."""
    d = root / name
    d.mkdir(parents=True)
    summary = {"complete": True, "params": {"seed": 1}, "results": {"x": 1}, "tables": ["t"]}
    (d / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    (d / "t.tsv").write_text("# a b\n1 2\n")
    (d / "ns.log").write_text("anything\n")
    nsio.write_manifest(d)
    return d


def test_manifest_lists_the_outputs_not_the_log(tmp_path: Path) -> None:
    d = _finished_run(tmp_path)
    names = [line.split("  ")[1] for line in (d / nsio.MANIFEST).read_text().splitlines()]
    assert names == ["summary.json", "t.tsv"]
    assert nsio.manifest_problems(d) == []
    (d / "ns.log").write_text("other\n")  # the log is not a result
    assert nsio.manifest_problems(d) == []


@pytest.mark.parametrize(
    ("damage", "what"),
    [
        (lambda s: s[: len(s) // 2], "sha256 differs"),  # truncated: not JSON either
        (lambda s: s.replace('"x": 1', '"x": 2'), "sha256 differs"),  # valid JSON, other bytes
    ],
)
def test_a_damaged_summary_is_named_and_moved_aside(tmp_path: Path, damage, what: str) -> None:
    """A read of a summary that is not what the run wrote names the run and what is wrong,
    and moves the run aside (the next snakemake makes it again)."""
    d = _finished_run(tmp_path)
    s = d / "summary.json"
    s.write_text(damage(s.read_text()))
    with pytest.raises(nsio.CorruptRun, match=f"{d}: corrupt run: summary.json .*{what}"):
        nsio.read_summary(d)
    assert not d.exists() and (tmp_path / "r1.corrupt" / "CORRUPT.txt").is_file()


def test_a_summary_without_manifest_is_still_checked(tmp_path: Path) -> None:
    """A run made before manifests: an unparsable summary or a missing field is corrupt too,
    named with its path (not a bare JSONDecodeError)."""
    d = _finished_run(tmp_path)
    (d / nsio.MANIFEST).unlink()
    (d / "summary.json").write_text('{"complete": true, "params": {')
    with pytest.raises(nsio.CorruptRun, match="summary.json is not JSON"):
        nsio.read_summary(d)
    d = _finished_run(tmp_path, "r2")
    (d / nsio.MANIFEST).unlink()
    (d / "summary.json").write_text('{"complete": true, "params": {}, "tables": []}')
    with pytest.raises(nsio.CorruptRun, match="summary.json lacks results"):
        nsio.read_summary(d)
    assert nsio.read_summary(_finished_run(tmp_path, "r3"))["results"] == {"x": 1}


def test_verify_finds_a_damaged_table_whatever_its_time(tmp_path: Path) -> None:
    """A corruption no rerun would read (its old time put back): verify checks every file of
    every run, names the damaged run, moves it aside and fails; a clean tree passes."""
    results = tmp_path / "results"
    good = _finished_run(results / "p" / "e" / "smoke", "a")
    bad = _finished_run(results / "p" / "e" / "smoke", "b")
    t = bad / "t.tsv"
    stamp = t.stat()
    t.write_text("# a b\n1 3\n")
    import os

    os.utime(t, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    checked, unlisted, corrupt = nsio.verify(results)
    assert (checked, unlisted, len(corrupt)) == (2, 0, 1)
    assert f"{bad}: corrupt run: t.tsv is not the file the run wrote" in corrupt[0]
    assert good.is_dir() and not bad.exists()
    assert nsio.main(["verify", "--results", str(results)]) == 0
    _finished_run(results / "p" / "e" / "smoke", "c").joinpath("t.tsv").unlink()
    assert nsio.main(["verify", "--results", str(results)]) == 1
