"""bench/ne-search's own logic, without running a search: whether the adaptive method found
the full sweep's equilibrium, which runs a search read, and a run without a CPU record."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import load_script  # one definition, shared by the tests of bench/ scripts

from analysis import akella2002_search as ak

ROOT = Path(__file__).resolve().parent.parent

nes = load_script(ROOT / "bench/ne-search", "ne_search")


def _cand(value: float, mean: float, low: float, high: float) -> dict:
    return {"value": value, "mean": mean, "low": low, "high": high, "runs": 5}


def _full(alpha_e: float, *candidates: dict) -> dict:
    """A full search whose last alpha sweep had these candidates (an earlier one had none)."""
    sweeps = [{"coordinate": "alpha", "candidates": []}]
    sweeps.append({"coordinate": "alpha", "candidates": list(candidates)})
    return {"alpha_e": alpha_e, "beta_e": 0.5, "records": sweeps}


def test_the_same_equilibrium_agrees() -> None:
    assert nes.agreement({"alpha_e": 4.0, "beta_e": 0.5}, _full(4.0)) == "same"


def test_another_alpha_within_the_full_sweeps_interval() -> None:
    full = _full(4.0, _cand(4.0, 10.0, 9.0, 11.0), _cand(5.0, 9.5, 8.5, 10.5))
    assert nes.agreement({"alpha_e": 5.0, "beta_e": 0.5}, full) == "CI overlaps"


@pytest.mark.parametrize(
    "full",
    [
        _full(4.0, _cand(4.0, 10.0, 9.0, 11.0), _cand(5.0, 7.0, 6.0, 8.0)),  # apart
        _full(4.0, _cand(4.0, 10.0, 9.0, 11.0)),  # 5.0 was no candidate of the last sweep
        {"alpha_e": 4.0, "beta_e": 0.5, "records": []},  # no alpha sweep at all
    ],
)
def test_another_alpha_outside_it_differs(full: dict) -> None:
    assert nes.agreement({"alpha_e": 5.0, "beta_e": 0.5}, full) == "differs"


def test_record_runs_are_every_candidate_with_its_seeds() -> None:
    doc = {
        "tcp": "sack",
        "queue": "droptail",
        "records": [
            {
                "coordinate": "alpha",
                "current": {"alpha": 1.0, "beta": 0.5},
                "candidates": [{"value": 2.0, "runs": 2}, {"value": 3.0, "runs": 1}],
            },
            {
                "coordinate": "beta",
                "current": {"alpha": 2.0, "beta": 0.5},
                "candidates": [{"value": 0.8, "runs": 3}],
            },
        ],
    }
    st = SimpleNamespace(seeds=[11, 12, 13])
    a2 = ak.Point("sack", "droptail", 1.0, 0.5, 2.0, 0.5)
    a3 = ak.Point("sack", "droptail", 1.0, 0.5, 3.0, 0.5)
    b8 = ak.Point("sack", "droptail", 2.0, 0.5, 2.0, 0.8)
    want = {(a2, 11), (a2, 12), (a3, 11), (b8, 11), (b8, 12), (b8, 13)}
    assert nes.record_runs(st, doc) == want


def test_a_run_without_a_cpu_record_stops_the_bench(tmp_path: Path) -> None:
    with pytest.raises(nes.BenchError, match="no CPU record"):
        nes.read_cpu(tmp_path / "p-b1.tsv")
    f = tmp_path / "p-b2.tsv"
    f.write_text("s\th:m:s\tcpu_time\n1.5\t0:00:01\t0.75\n")
    assert nes.read_cpu(f) == 0.75
