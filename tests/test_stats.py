import math

import pytest

from analysis.stats import Interval, intervals_overlap, mean_ci


def test_mean_ci_by_hand() -> None:
    # values 1, 2, 3: mean 2, sample sd 1, sem 1/sqrt(3); t(0.975, 2 df) = 4.302653
    ci = mean_ci([1.0, 2.0, 3.0], 0.95)
    h = 4.302652729911275 / math.sqrt(3.0)
    assert ci.mean == pytest.approx(2.0)
    assert ci.low == pytest.approx(2.0 - h, rel=1e-9)
    assert ci.high == pytest.approx(2.0 + h, rel=1e-9)
    assert ci.half_width == pytest.approx(h, rel=1e-9)
    assert ci.n == 3


def test_mean_ci_85_percent_narrower() -> None:
    assert mean_ci([1, 2, 3], 0.85).half_width < mean_ci([1, 2, 3], 0.95).half_width


def test_single_value_has_zero_width() -> None:
    ci = mean_ci([7.5])
    assert (ci.low, ci.mean, ci.high) == (7.5, 7.5, 7.5)


@pytest.mark.parametrize("bad", [[], None])
def test_mean_ci_rejects_empty(bad: list | None) -> None:
    with pytest.raises((ValueError, TypeError)):
        mean_ci(bad)  # type: ignore[arg-type]


def test_mean_ci_rejects_level() -> None:
    with pytest.raises(ValueError, match="level"):
        mean_ci([1, 2], 1.5)


def test_overlap() -> None:
    a = Interval(1.0, 0.0, 2.0, 3)
    assert intervals_overlap(a, Interval(3.0, 2.0, 4.0, 3))  # touching counts
    assert not intervals_overlap(a, Interval(3.5, 2.5, 4.5, 3))
