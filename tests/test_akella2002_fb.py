"""The step fig06_fb: Sec 5.1's F_b for SACK under CHOKe+ by eq (24) and by eq (25) with
timeouts (analysis/akella2002_fb.py), and the check of the Figure 11(b) row's diagnosis."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis import akella2002_fb as fb
from analysis import diagnosis as dg
from tests.test_akella2002_analysis import DIAG, outcome

BETAS = np.round(np.arange(0.50, 0.99, 0.02), 2)  # 0.50, 0.52, ..., 0.98: 25 betas


def fig5(slopes: np.ndarray | float, p: float = 0.02, series: str = fb.SERIES) -> pd.DataFrame:
    """A Figure 5 table (the columns of the step fig05's tidy.csv) of one beta series: loss
    rate ``p`` at every beta, measured slopes ``slopes``, RTT 0.1 s, RTO 0.2 s, h = 0.01."""
    n = BETAS.size
    return pd.DataFrame(
        {
            "tcp": "sack",
            "queue": "chokeplus",
            "series": series,
            "parameter": "beta",
            "x": BETAS,
            "p": p,
            "P": np.broadcast_to(slopes, (n,)).astype(float),
            "h": 0.01,
            "srtt": 0.1,
            "rto": 0.2,
        }
    )


def test_small_slope_keeps_fb_positive_under_both_models() -> None:
    """Gentle F_b has the sign of 2p/(1 - beta^2) - P_b: with p = 0.02 that is at least
    0.04/0.75 = 0.0533 > 0.01 at every beta. Eq (25) subtracts 3 T_0 P_b/R (1 + beta)(1.5p +
    112 p^3) <= 3 x 0.2 x 0.01/0.1 x 1.98 x 0.0309 = 0.0037 and adds a positive term: still
    positive. A constant slope is fitted exactly (standard error 0), so the bound is F_b."""
    tidy, numbers = fb.fb_checks(fig5(0.01))
    assert numbers[fb.CHECK] == 1.0
    assert numbers[fb.MODEL_CHECK.format(model="gentle")] == 1.0
    assert numbers[fb.MODEL_CHECK.format(model="hybrid")] == 1.0
    assert set(tidy["model"]) == set(fb.MODELS)
    assert np.allclose(tidy["P_fit"], 0.01) and np.allclose(tidy["P_se"], 0.0)
    assert outcome(fb.ROW, numbers[fb.CHECK]) == dg.HOLDS


def test_steep_slope_makes_fb_negative_below_a_hand_computed_beta() -> None:
    """With P_b = 0.1 and p = 0.02, gentle F_b > 0 iff 0.04/(1 - beta^2) > 0.1, i.e. beta >
    sqrt(0.6) = 0.7746: of the 25 betas 0.50..0.98, the 11 from 0.78 up. Eq (25)'s timeout
    term only lowers F_b further where P_b is large, so the check (the smaller fraction) is at
    most 11/25 and the diagnosis fails."""
    _, numbers = fb.fb_checks(fig5(0.1))
    assert numbers[fb.MODEL_CHECK.format(model="gentle")] == pytest.approx(11 / 25)
    assert numbers[fb.CHECK] <= 11 / 25
    assert outcome(fb.ROW, numbers[fb.CHECK]) == dg.FAILS


def test_noisy_slopes_give_an_upper_bound_above_the_point_estimate() -> None:
    """Noise in the measured slopes widens the fitted slope's standard error; the upper bound
    of F_b (slope less 1.645 standard errors) then lies above F_b at the fitted slope."""
    rng = np.random.default_rng(1)
    t = fb.fb_fitted(fig5(0.05 + rng.normal(0.0, 0.02, BETAS.size)), "gentle")
    assert (t["P_se"] > 0).all()
    assert (t["F_upper"] > t["F"]).all()


def test_no_usable_points_is_an_error() -> None:
    with pytest.raises(ValueError, match="no beta points"):
        fb.fb_fitted(fig5(0.01, p=0.0), "gentle")
    with pytest.raises(ValueError, match="no beta points"):
        fb.fb_fitted(fig5(0.01, series="sack_red"), "gentle")


def test_the_diagnosis_names_this_step_s_check() -> None:
    d = DIAG[fb.ROW]
    assert d.kind == "paper-inconsistent"
    assert d.check == fb.CHECK


def test_main_writes_the_numbers(tmp_path: Path) -> None:
    step = tmp_path / fb.READS / "paper"
    step.mkdir(parents=True)
    fig5(0.01).to_csv(step / "tidy.csv", index=False)
    args = [fb.STEP, "--inputs", str(step / "tidy.csv"), "--tidy", str(tmp_path / "t.csv")]
    args += ["--numbers", str(tmp_path / "n.csv"), "--extra", str(tmp_path / "extra")]
    assert fb.main(args) == 0
    numbers = pd.read_csv(tmp_path / "n.csv").set_index("key")["value"]
    assert numbers[fb.CHECK] == 1.0
