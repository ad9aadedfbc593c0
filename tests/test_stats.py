import math

import numpy as np
import pytest

from analysis.stats import Interval, intervals_overlap, mean_ci, paired_below


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


def test_paired_below_compares_runs_seed_by_seed() -> None:
    """x = y - 0.05 + tiny seed-to-seed wobble: the differences (-0.05, -0.04, -0.06) have mean
    -0.05, sd 0.01, an 85 % interval -0.05 +- 2.2819 x 0.01 / sqrt(3) = [-0.0632, -0.0368]:
    below 0. The samples' own intervals overlap widely (y spreads by 1)."""
    y = np.array([1.0, 2.0, 3.0])
    x = y + np.array([-0.05, -0.04, -0.06])
    assert mean_ci(x - y, 0.85).high == pytest.approx(-0.05 + 2.2819 * 0.01 / 3**0.5, abs=1e-4)
    assert intervals_overlap(mean_ci(x, 0.85), mean_ci(y, 0.85))
    assert paired_below(x, y, 0.85)
    assert not paired_below(y, x, 0.85)
    # over the common first samples only; one pair decides nothing
    assert paired_below(x, np.append(y, 100.0), 0.85)
    assert not paired_below(x[:1], y[:1], 0.85)
    # differences that straddle 0 are undecided
    assert not paired_below(y + np.array([-0.1, 0.1, -0.05]), y, 0.85)
