"""Theorem 4.4's worst-case history and factor D (analysis/models/gao.py), checked by hand."""

import math

import numpy as np
import pytest

from analysis import gao
from analysis.models import gao as model


def test_factor_by_hand() -> None:
    # D = (T_I + T_D + T1F + T_W) / (T_I / 2)
    assert model.worst_case_factor(1, 1, 1, 1) == 8.0  # the proof's simplification
    assert model.worst_case_factor(2, 1, 1, 1) == 5.0  # (2 + 3) / 1
    assert model.worst_case_factor(1, 0, 0, 0) == 2.0  # never dropped: half the climb's area
    assert model.worst_case_factor(1, 0.5, 0.25, 0.25) == 4.0


@pytest.mark.parametrize(
    "args, name",
    [((0, 1, 1, 1), "t_inc"), ((1, -1, 1, 1), "t_dec"), ((1, 1, math.nan, 1), "t_forget")],
)
def test_factor_refuses_bad_timings(args: tuple, name: str) -> None:
    with pytest.raises(ValueError, match=name):
        model.worst_case_factor(*args)


def test_history_shape_and_area() -> None:
    h = model.worst_case_history(1.0, 0.5, 0.25, 0.25, cycles=2)
    assert h.cycle == 2.0
    assert list(h.t) == [0.0, 1.0, 1.5, 2.0, 2.0, 3.0, 3.5, 4.0]
    assert list(h.rate) == [0.0, 1.0, 0.0, 0.0] * 2
    assert h.delivered == [(0.0, 1.0), (2.0, 3.0)]
    assert model.delivered_per_cycle(h) == pytest.approx(0.5)  # triangle: 1 x 1 / 2
    assert h.cycle / model.delivered_per_cycle(h) == pytest.approx(
        model.worst_case_factor(1.0, 0.5, 0.25, 0.25)
    )
    with pytest.raises(ValueError, match="cycles"):
        model.worst_case_history(1, 1, 1, 1, cycles=0)


def test_thm44_item() -> None:
    tidy, numbers, checks = gao.thm44()
    assert numbers == {"thm4_4.d_bound": 8.0}
    assert list(tidy.columns) == ["t", "rate"] and len(tidy) == 8
    assert np.array_equal(tidy["rate"].to_numpy(), [0, 1, 0, 0, 0, 1, 0, 0])
    holds, text = checks["thm4_4.tcp_constant_factor"]
    assert holds and "D = 8" in text and "between 3.5 and 8" in text
