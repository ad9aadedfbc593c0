"""The step choke_rtt: Sec 5.1's plain CHOKe with few flows under the tested round-trip times
(analysis/akella2002_choke_rtt.py), and the check of the row's diagnosis."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analysis import akella2002 as ak
from analysis import akella2002_choke_rtt as rtt
from analysis import diagnosis as dg
from tests.test_akella2002_analysis import DIAG, PUB, fake_choke_point, outcome

SEEDS = (1, 2)


def point(d: Path, n: int, utilisation: float, rtt_s: float, th: tuple[float, float]) -> Path:
    """A plain-CHOKe point (tests.test_akella2002_analysis.fake_choke_point) whose runs record
    the round-trip propagation time ``rtt_s``."""
    fake_choke_point(d, n, utilisation, SEEDS, th)  # type: ignore[arg-type]
    for s in SEEDS:
        f = d / f"s{s}" / "summary.json"
        summary = json.loads(f.read_text())
        summary["results"]["base_rtt_s"] = rtt_s
        f.write_text(json.dumps(summary))
    return d


def sweep(root: Path, rtt_s: float, th: tuple[float, float], curve: dict[int, float]) -> list[Path]:
    return [point(root / f"r{rtt_s:g}n{n}", n, u, rtt_s, th) for n, u in curve.items()]


def test_the_check_reads_the_rtt_at_which_few_flows_under_use_the_link(tmp_path: Path) -> None:
    pub = PUB[ak.CHOKE_FEW_FLOWS]
    # 40 ms: 2-10 flows under-use the link, 50 and 100 fill it (the sentence's situation)
    short = sweep(tmp_path, 0.04, (8.33, 25), {2: 0.8, 10: 0.85, 50: 0.95, 100: 0.97})
    # 200 ms: 2 flows fill the link, 50 and 100 under-use it (not the sentence's situation)
    long = sweep(tmp_path, 0.2, (41.67, 125), {2: 0.95, 10: 0.95, 50: 0.85, 100: 0.85})
    tidy, numbers = rtt.rtt_checks([*long, *short], list(SEEDS), 0.9, pub)
    assert sorted(set(tidy["rtt_s"])) == [0.04, 0.2]
    assert tidy[tidy["rtt_s"] == 0.04]["n"].tolist() == [2, 10, 50, 100]
    assert numbers == {
        "check.choke.too_few_flows.rtt_40ms": 10.0,
        "check.choke.too_few_flows.rtt_200ms": 100.0,
        rtt.CHECK: 10.0,  # 200 ms does not count: its 2 flows fill the link
    }
    assert outcome(ak.CHOKE_FEW_FLOWS, numbers[rtt.CHECK]) == dg.HOLDS


def test_the_check_fails_when_no_tested_rtt_shows_the_bound(tmp_path: Path) -> None:
    pub = PUB[ak.CHOKE_FEW_FLOWS]
    # 40 ms: few flows under-use the link, but so do many (up to 100): beyond the bound
    short = sweep(tmp_path, 0.04, (8.33, 25), {2: 0.8, 50: 0.85, 100: 0.85})
    _, numbers = rtt.rtt_checks(short, list(SEEDS), 0.9, pub)
    assert numbers[rtt.CHECK] == 100.0
    assert outcome(ak.CHOKE_FEW_FLOWS, numbers[rtt.CHECK]) == dg.FAILS
    # no tested time under which 2 flows under-use the link: no check value, the row unexplained
    long = sweep(tmp_path, 0.2, (41.67, 125), {2: 0.95, 50: 0.85})
    _, none = rtt.rtt_checks(long, list(SEEDS), 0.9, pub)
    assert rtt.CHECK not in none
    with pytest.raises(ValueError, match="no plain-CHOKe points"):
        rtt.rtt_checks([], list(SEEDS), 0.9, pub)


def test_the_diagnosis_names_this_check() -> None:
    assert DIAG[ak.CHOKE_FEW_FLOWS].check == rtt.CHECK
    assert DIAG[ak.CHOKE_FEW_FLOWS].kind == "unstated-parameter"


def test_step_from_the_command_line(tmp_path: Path) -> None:
    runs = sweep(tmp_path, 0.04, (8.33, 25), {2: 0.8, 50: 0.95})
    summaries = [str(d / f"s{s}" / "summary.json") for d in runs for s in SEEDS]
    params = json.dumps({ak.UNDERUSE: 0.9})
    out = tmp_path / "out"
    argv = [
        rtt.STEP, "--params", params, "--runs", *summaries, "--tidy", str(out / "tidy.csv"),
        "--numbers", str(out / "numbers.csv"), "--extra", str(out / "extra"),
        "--originals", str(Path(ak.__file__).parent.parent / "config/originals/akella2002.yaml"),
    ]  # fmt: skip
    assert rtt.main(argv) == 0
    text = (out / "numbers.csv").read_text()
    assert f"{rtt.CHECK},2" in text
    with pytest.raises(SystemExit):
        rtt.main([rtt.STEP, "--params", params])  # no runs, no outputs
