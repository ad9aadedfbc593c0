import json
from pathlib import Path

import pytest

from analysis import nsio


def _run(d: Path, complete: bool = True) -> Path:
    d.mkdir(parents=True)
    (d / "goodput.tsv").write_text("# period t conn delivered\n1 50 0 10\n2 100 0 25\n")
    summary = {"complete": complete, "params": {"n": 3, "seed": 2}, "tables": ["goodput"]}
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
