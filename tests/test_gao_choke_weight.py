"""Table 2's CHOKe rows under CHOKe's EWMA weight (analysis/gao_choke_weight.py): the weight
chosen for the diagnoses' checks, the checks on synthetic rows (one that holds and one that
fails) and the step on real short ns runs from the command line."""

import json
from pathlib import Path

import pandas as pd
import pytest

from analysis import compare, diagnosis, gao, nsrun
from analysis import config as conf
from analysis import gao_choke_weight as wq

ROOT = Path(__file__).resolve().parent.parent
ORIGINALS = ROOT / "config/originals/gao.yaml"
ROWS = gao.CHOKE_THRESH_ROWS


def test_the_weight_meeting_the_most_rows_wins_and_a_tie_goes_to_the_nearest_assumed() -> None:
    assert wq.best_weight({0.001: 3, 0.01: 5, 0.02: 5}, 0.002) == 0.01
    # log distance: 0.001 is a factor 2 from 0.002, 0.005 a factor 2.5
    assert wq.best_weight({0.001: 4, 0.005: 4}, 0.002) == 0.001
    # an exact tie in distance goes to the smaller weight
    assert wq.best_weight({0.001: 4, 0.004: 4}, 0.002) == 0.001
    assert wq.best_weight({0.05: 1}, 0.002) == 0.05
    with pytest.raises(ValueError, match="no weights"):
        wq.best_weight({}, 0.002)
    with pytest.raises(ValueError, match="positive"):
        wq.best_weight({0.0: 2, 0.002: 1}, 0.002)


def _published() -> list[compare.Published]:
    return [p for p in compare.load_originals(ORIGINALS) if p.key.startswith(wq.CHOKE_PREFIX)]


def _fake(monkeypatch: pytest.MonkeyPatch, rows: dict[float, dict[str, float]]) -> list[Path]:
    """Runs named by their weight; gao.table2 gives the rows of the weight's runs."""
    monkeypatch.setattr(wq, "weight_of", lambda d: float(Path(d).name))
    monkeypatch.setattr(
        gao, "table2", lambda dirs: (pd.DataFrame({"x": [1]}), rows[float(dirs[0].name)])
    )
    return [Path(f"{w}") for w in rows]


def _at(scale: float) -> dict[str, float]:
    """Every published CHOKe row times ``scale``."""
    return {p.key: float(p.published) * scale for p in _published()}  # type: ignore[arg-type]


def _check(key: str, numbers: dict[str, float]) -> str:
    """The outcome of the row's diagnosis (config/diagnoses/gao.yaml) on these check values."""
    (d,) = [d for d in diagnosis.load(ROOT / "config/diagnoses/gao.yaml") if d.key == key]
    (pub,) = [p for p in _published() if p.key == key]
    value = repr(numbers[d.check])
    return diagnosis.check_outcome(d, lambda v: compare.verdict(pub, v), value, pub.published)


def test_the_checks_hold_under_a_weight_that_meets_every_row(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    runs = _fake(monkeypatch, {0.002: _at(1.6), 0.005: _at(1.05), 0.02: _at(0.5)})
    tidy, numbers = wq.weight_checks(runs, compare.load_originals(ORIGINALS), 0.002)
    assert numbers[wq.WQ_KEY] == 0.005
    assert numbers[wq.MET_KEY] == len(_published())
    assert set(tidy["red_q_weight"]) == {0.002, 0.005, 0.02}
    for key in ROWS:
        assert numbers[f"check.{key}.wq"] == pytest.approx(_at(1.05)[key])
        assert _check(key, numbers) == "holds"


def test_the_checks_fail_where_no_weight_brings_the_rows_down(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the TCP rows far above the paper's under every weight (UDP rows as published)
    high = {
        w: {**_at(1.0), **{k: v * 1.6 for k, v in _at(1.0).items() if k in ROWS}}
        for w in (0.002, 0.02)
    }
    high[0.02] = {**high[0.02], **{k: v * 1.8 for k, v in _at(1.0).items() if k in ROWS}}
    runs = _fake(monkeypatch, high)
    _, numbers = wq.weight_checks(runs, compare.load_originals(ORIGINALS), 0.002)
    assert numbers[wq.WQ_KEY] == 0.002  # a tie (only the UDP rows met): the assumed weight
    for key in ROWS:
        assert _check(key, numbers) == "fails"


def test_without_runs_or_published_rows_the_step_stops() -> None:
    with pytest.raises(ValueError, match="no runs"):
        wq.weight_checks([], _published(), 0.002)
    with pytest.raises(ValueError, match="no published rows"):
        wq.weight_checks([Path("x")], [], 0.002)


def test_the_step_on_real_runs_from_the_command_line(
    cfg: dict, ns_binary: Path, tmp_path: Path
) -> None:
    runs = conf.runs(cfg, "gao", "table2_choke333_wq", "smoke")
    weights = sorted({float(r.params["red_q_weight"]) for r in runs})
    assert len(weights) >= 2  # the smoke level sweeps the weight too
    summaries = []
    for i, r in enumerate(runs):
        out = tmp_path / f"r{i}"
        nsrun.run(ns_binary, conf.tcl_script("gao", "chain"), out, dict(r.params))
        summaries.append(str(out / "summary.json"))
    out = tmp_path / "out"
    params = json.dumps({wq.ASSUMED_WQ: 0.002})
    argv = [
        wq.STEP, "--params", params, "--runs", *summaries, "--tidy", str(out / "tidy.csv"),
        "--numbers", str(out / "numbers.csv"), "--extra", str(out / "extra"),
        "--originals", str(ORIGINALS),
    ]  # fmt: skip
    assert wq.main(argv) == 0
    tidy = pd.read_csv(out / "tidy.csv")
    assert sorted(tidy["red_q_weight"].unique()) == weights
    numbers = dict(line.split(",") for line in (out / "numbers.csv").read_text().splitlines()[1:])
    assert float(numbers[wq.WQ_KEY]) in weights
    assert {f"check.{k}.wq" for k in ROWS} <= set(numbers)
    with pytest.raises(SystemExit):
        wq.main([wq.STEP, "--params", params])  # no runs, no outputs
