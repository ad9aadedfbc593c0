"""Table 3's long-first rows against the gap between the starts (analysis/tang_join.py,
docs/tang.md T20): the check values by hand, the diagnosis failing and holding on them, and
the experiment the check reads."""

from pathlib import Path

import pandas as pd
import pytest

from analysis import config as conf
from analysis import diagnosis, tang_join
from analysis.compare import load_originals

ROWS = ("table3.long_first.path2.sd", "table3.long_first.path3.sd")


def runs(gap: float, path2: tuple[float, float]) -> list[dict]:
    """Window-table rows of two long-first all-FAST runs at one gap: path 1 at 39, path 2 at
    ``path2`` and path 3 at 146 - 39 - path 2 (link 2 full), as the gap_table column says."""
    rows = []
    for seed, p2 in enumerate(path2, start=1):
        for idx, mbps in ((1, 39.0), (2, p2), (3, 107.0 - p2)):
            rows.append(
                {"gap_s": gap, "what": "group", "short_tcp": "fast", "first": "long",
                 "n_long": 8, "alpha": 50, "idx": idx, "protocol": "fast", "mbps": mbps,
                 "seed": seed}
            )  # fmt: skip
    return rows


@pytest.fixture
def published(root: Path) -> dict[str, float]:
    return {x.key: x.published for x in load_originals(root / "config/originals/tang.yaml")}


@pytest.fixture
def diagnoses(root: Path) -> dict[str, diagnosis.Diagnosis]:
    return {d.key: d for d in diagnosis.load(root / "config/diagnoses/tang.yaml") if d.key in ROWS}


def test_join_checks_by_hand(published: dict, diagnoses: dict) -> None:
    """Gap 1 s: path 2 at 44 and 44.2 (s.d. 0.1414 around 44.1, c.v. 0.321 %) against the
    paper's 1.7 around 72.0 (2.361 %): ratio 0.136. Gap 3 s: 40 and 44 (s.d. 2.828 around 42,
    c.v. 6.73 %): ratio 2.85. The row's check value is the smaller, and the diagnosis holds;
    with the settled gap left out it fails."""
    w = pd.DataFrame(runs(1.0, (44.0, 44.2)) + runs(3.0, (40.0, 44.0)))
    nums = tang_join.join_checks(w, published)
    one = (0.2 / 2**0.5 / 44.1) / (1.7 / 72.0)
    three = (4.0 / 2**0.5 / 42.0) / (1.7 / 72.0)
    key = "check.table3.long_first.path2.sd"
    assert nums[f"{key}.cv_ratio_joined_1s"] == pytest.approx(one, rel=1e-6)
    assert nums[f"{key}.cv_ratio_joined_3s"] == pytest.approx(three, rel=1e-6)
    assert nums["check.table3.long_first.path2.mean.joined_3s"] == pytest.approx(42.0)
    d = diagnoses["table3.long_first.path2.sd"]
    assert d.check == f"{key}.cv_ratio_joined_before_queue"
    assert nums[d.check] == pytest.approx(one, rel=1e-6)
    assert diagnosis.check_outcome(d, None, repr(nums[d.check])) == diagnosis.HOLDS
    spread = tang_join.join_checks(pd.DataFrame(runs(3.0, (40.0, 44.0))), published)
    assert spread[d.check] == pytest.approx(three, rel=1e-6)
    assert diagnosis.check_outcome(d, None, repr(spread[d.check])) == diagnosis.FAILS
    # path 3 (67 - x): 63 and 67 around 65 give 0.0435 / 0.0613 = 0.709, below 1: holds
    d3 = diagnoses["table3.long_first.path3.sd"]
    p3 = spread[d3.check]
    assert p3 == pytest.approx((4.0 / 2**0.5 / 65.0) / (1.0 / 16.3), rel=1e-6)
    assert diagnosis.check_outcome(d3, None, repr(p3)) == diagnosis.HOLDS
    # without the published numbers: the rows only
    assert not [k for k in tang_join.join_checks(w, None) if "cv_ratio" in k]


def test_gap_suffix_and_bad_input(tmp_path: Path) -> None:
    assert tang_join.gap_suffix(1.0) == "joined_1s"
    assert tang_join.gap_suffix(0.5) == "joined_0.5s"
    with pytest.raises(ValueError, match="no runs"):
        tang_join.gap_table([])
    with pytest.raises(SystemExit):
        tang_join.main(["table3", "--tidy", str(tmp_path / "t.csv")])
    with pytest.raises(SystemExit):
        tang_join.main(
            ["table3_join", "--tidy", str(tmp_path / "t.csv"), "--numbers", "n.csv",
             "--extra", str(tmp_path / "x")]
        )  # fmt: skip


def test_experiment_is_table3_long_first_with_short_gaps(cfg: dict) -> None:
    """The step's runs are Table 3's primary long-first runs (n_long 8) but for the gap: one
    gap above the flows' start jitter (every short flow after every long one), one below, and
    both far below the primary's."""
    primary = {
        r.params["seed"]: r.params
        for r in conf.runs(cfg, "tang", "table3", "paper")
        if r.params["first"] == "long" and r.params["n_long"] == 8
    }
    gaps = set()
    for r in conf.runs(cfg, "tang", "table3_join", "paper"):
        p = dict(r.params)
        gaps.add(p.pop("offset"))
        base = dict(primary[p["seed"]])
        assert base.pop("offset") > 10 * max(gaps)
        assert p == base
    assert min(gaps) < primary[1]["jitter"] < max(gaps)
