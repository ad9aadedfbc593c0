"""The step paper_sweep: Akella et al.'s searches made by the paper's own sweep
(analysis/akella2002_paper_sweep.py), and the check of the Figure 11(a) row's diagnosis."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from analysis import akella2002_paper_sweep as ps
from analysis import diagnosis as dg
from tests.test_akella2002_analysis import DIAG, outcome

ROW = "fig11a.sack_chokeplus.alpha_e"


def candidate(value: float, mean: float, half: float = 0.02, runs: int = 20) -> dict:
    return {"value": value, "mean": mean, "low": mean - half, "high": mean + half, "runs": runs}


def record(alpha_e: float, method: str = "full", converged: bool = True) -> dict:
    """A SACK/CHOKe+ alpha search's record, as analysis.akella2002_search writes it: two
    sweeps, the first picks ``alpha_e`` over the start value 1, the second keeps it."""
    first = [candidate(0, 0.1), candidate(1, 0.9), candidate(alpha_e, 1.1), candidate(10, 1.0)]
    second = [candidate(1, 0.6), candidate(alpha_e, 0.9), candidate(10, 0.91, runs=0)]
    return {
        "search": "sack_chokeplus_alpha_fullsweep",
        "tcp": "sack",
        "queue": "chokeplus",
        "mode": "alpha",
        "alpha_e": alpha_e,
        "beta_e": 0.5,
        "converged": converged,
        "spec": {"method": method},
        "records": [
            {
                "iteration": 1,
                "coordinate": "alpha",
                "current": {"alpha": 1, "beta": 0.5},
                "candidates": first,
                "pick": alpha_e,
            },
            {
                "iteration": 2,
                "coordinate": "alpha",
                "current": {"alpha": alpha_e, "beta": 0.5},
                "candidates": second,
                "pick": alpha_e,
            },
        ],
    }


def test_the_check_is_the_paper_sweeps_alpha_e() -> None:
    tidy, numbers = ps.paper_sweep_checks([record(4.0)])
    assert numbers == {f"check.{ROW}.paper_sweep": 4.0}
    # every candidate, sweep by sweep, with the profile the sweep was made at
    assert tidy["iteration"].tolist() == [1, 1, 1, 1, 2, 2, 2]
    assert tidy[tidy["picked"]]["value"].tolist() == [4.0, 4.0]
    assert tidy[tidy["iteration"] == 2]["common_alpha"].tolist() == [4.0, 4.0, 4.0]
    # the published alpha_E is 3 within 1: 4 holds, 10 (the adaptive search's answer) fails
    assert outcome(ROW, numbers[f"check.{ROW}.paper_sweep"]) == dg.HOLDS
    _, far = ps.paper_sweep_checks([record(10.0)])
    assert outcome(ROW, far[f"check.{ROW}.paper_sweep"]) == dg.FAILS


def test_only_a_converged_search_by_the_papers_sweep_counts() -> None:
    with pytest.raises(ValueError, match="made by the adaptive search"):
        ps.paper_sweep_checks([record(4.0, method="adaptive")])
    with pytest.raises(ValueError, match="did not converge"):
        ps.paper_sweep_checks([record(4.0, converged=False)])
    with pytest.raises(ValueError, match="no search records"):
        ps.paper_sweep_checks([])
    odd = record(4.0) | {"queue": "sfq"}
    with pytest.raises(ValueError, match="no figure of the paper has sack over sfq"):
        ps.paper_sweep_checks([odd])


def test_the_diagnosis_names_this_check() -> None:
    assert DIAG[ROW].check == ps.check_key(ROW)
    assert DIAG[ROW].kind == "simulator-gap"


def test_step_from_the_command_line(tmp_path: Path) -> None:
    rec = tmp_path / "search.json"
    rec.write_text(json.dumps(record(3.0)))
    out = tmp_path / "out"
    argv = [
        ps.STEP, "--inputs", str(rec), "--tidy", str(out / "tidy.csv"),
        "--numbers", str(out / "numbers.csv"), "--extra", str(out / "extra"),
    ]  # fmt: skip
    assert ps.main(argv) == 0
    numbers = pd.read_csv(out / "numbers.csv")
    assert dict(zip(numbers["key"], numbers["value"], strict=True)) == {ps.check_key(ROW): 3.0}
    assert len(pd.read_csv(out / "tidy.csv")) == 7
    rec.write_text(json.dumps(record(3.0, method="adaptive")))
    with pytest.raises(SystemExit):
        ps.main(argv)
