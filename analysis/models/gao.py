"""Gao, Jain, Schulman, Theorem 4.4: the worst-case history of an increase-by-one /
decrease-by-half flow at a Protocol I router (the paper's Figure 1) and its throughput factor.

The proof's history, one cycle (times in any unit, rates in units of the fair share alpha):
the generation rate climbs linearly from 0 and reaches alpha after T_I (all packets get
through: the delivered, shaded part); the flow becomes the queue's maximal flow at the
earliest at rate alpha (the worst case: between alpha and 2 alpha, since T1 F <= T_I), and from
then on every packet is dropped; the sender backs off to 0 (pessimistically) within T_D; the
queue forgets the flow within T1 F more; after T_W more the rate rises again. The flow
delivers alpha T_I / 2 per cycle of T_I + T_D + T1F + T_W, against alpha per unit time at the
optimum, so

    D = (T_I + T_D + T1F + T_W) / (T_I / 2),

which is 8 under the proof's simplification T_D, T1F, T_W <= T_I (equality: the worst case).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from analysis.models.checks import nonneg, positive


def worst_case_factor(t_inc: float, t_dec: float, t_forget: float, t_wait: float) -> float:
    """D: the optimal throughput over the worst-case history's (optimal / D is guaranteed)."""
    ti = positive(t_inc, "t_inc")
    rest = sum(
        nonneg(v, n) for v, n in ((t_dec, "t_dec"), (t_forget, "t_forget"), (t_wait, "t_wait"))
    )
    return (ti + rest) / (ti / 2.0)


@dataclass(frozen=True)
class History:
    """Piecewise-linear generation rate (t, rate) and the delivered intervals [(t0, t1)]."""

    t: npt.NDArray[np.float64]
    rate: npt.NDArray[np.float64]
    delivered: list[tuple[float, float]]
    cycle: float


def worst_case_history(
    t_inc: float, t_dec: float, t_forget: float, t_wait: float, cycles: int = 2
) -> History:
    """The proof's history over ``cycles`` cycles, rate in units of alpha (Figure 1)."""
    worst_case_factor(t_inc, t_dec, t_forget, t_wait)  # checks the arguments
    if isinstance(cycles, bool) or not isinstance(cycles, int) or cycles < 1:
        raise ValueError(f"cycles must be an integer >= 1, got {cycles!r}")
    cycle = t_inc + t_dec + t_forget + t_wait
    ts: list[float] = []
    rs: list[float] = []
    delivered = []
    for k in range(cycles):
        t0 = k * cycle
        ts += [t0, t0 + t_inc, t0 + t_inc + t_dec, t0 + cycle]
        rs += [0.0, 1.0, 0.0, 0.0]
        delivered.append((t0, t0 + t_inc))
    return History(np.array(ts), np.array(rs), delivered, cycle)


def delivered_per_cycle(h: History) -> float:
    """Area under the rate curve over the delivered intervals of one cycle (alpha x time)."""
    t0, t1 = h.delivered[0]
    m = (h.t >= t0) & (h.t <= t1)
    return float(np.trapezoid(h.rate[m], h.t[m]))
