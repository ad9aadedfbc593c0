"""Every equilibrium of a network of the model (:mod:`analysis.models.tang.network`).

The solver knows the model only through :class:`~analysis.models.tang.network.Network` and its
evaluation at given link prices; nothing here is about one of the paper's networks. Method:
see :func:`find_equilibria`.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from itertools import combinations, product

import numpy as np
import numpy.typing as npt
from scipy.ndimage import label
from scipy.optimize import brentq, root

from analysis.models.tang.network import Equilibrium, Network, _equilibrium, _Model

__all__ = [
    "DEFAULT_RESOLUTION",
    "MAX_POLISH_STARTS",
    "MAX_SOLUTIONS_PER_SET",
    "find_equilibria",
    "solve_active_set",
]

_EPS = float(np.finfo(float).eps)

#: Default number of grid points per scanned price (see :func:`find_equilibria`).
DEFAULT_RESOLUTION: int = 600

#: Starting points tried per candidate region when |S| >= 3 (see :func:`find_equilibria`).
MAX_POLISH_STARTS: int = 4

#: More distinct solutions than this for one set of priced links means a continuum of equilibria.
MAX_SOLUTIONS_PER_SET: int = 32


def _can_price(model: _Model, active: tuple[int, ...]) -> bool:
    """Necessary condition for finite rates and a root with y_l = c_l on every link of ``active``.

    Every group must cross a priced link (else x = alpha/0 or x(q = 0) is infinite), every Reno
    group a priced link that can mark, and every priced link must carry a flow.
    """
    s = np.zeros(model.L, dtype=bool)
    s[list(active)] = True
    can_mark = np.array([m.max_loss > 0 for m in model.maps])
    for g in range(len(model.n)):
        through = model.R[:, g]
        if not np.any(through & s):
            return False
        if model.reno[g] and not np.any(through & s & can_mark):
            return False
    return bool(np.all(model.R[list(active)].any(axis=1)))


def _elimination_link(model: _Model, active: tuple[int, ...]) -> int:
    """Link of ``active`` whose equation is solved for its own price (most Vegas groups)."""
    vegas = (model.R & ~model.reno[None, :]).sum(axis=1)
    return max(active, key=lambda l_: (vegas[l_], l_))


def _own_floor(model: _Model, delay: npt.NDArray[np.float64], e: int) -> npt.NDArray[np.float64]:
    """Smallest (virtual, possibly negative) price of link e keeping every rate through e finite.

    With the other prices fixed, a Vegas group through e has q^f = p_e + rest > 0 only for
    p_e > -rest (and a Reno group with queueing in T needs p_e > -(d + rest)). Letting p_e go
    below 0 down to this floor makes y_e(p_e) a continuous, non-increasing function that starts
    at +inf, so the root is unique and never clamped at p_e = 0; a root p_e <= 0 means that link e
    is not saturated at these prices (the solution belongs to another set of priced links).
    """
    d = delay.copy()
    d[e] = 0.0
    rest = model.Rf.T @ d  # (G, M)
    through = model.R[e]
    cand = [rest[through & ~model.reno]]
    if model.flag:
        cand.append(rest[through & model.reno] + model.d[through & model.reno, None])
    allc = np.concatenate(cand, axis=0)
    if allc.shape[0] == 0:
        return np.zeros(delay.shape[1])
    return -np.min(allc, axis=0)


def _solve_own_price(
    model: _Model, delay: npt.NDArray[np.float64], e: int, iters: int = 64
) -> npt.NDArray[np.float64]:
    """Vectorised bisection of y_e(p_e) = c_e with the other prices fixed (see :func:`_own_floor`).

    y_e is non-increasing in p_e, so the root is unique; it is clamped to [floor, hi_e].
    Modifies and returns ``delay`` (L, M).
    """
    a = _own_floor(model, delay, e)
    b = np.full(delay.shape[1], model.hi[e])
    floor = a.copy()
    delay[e] = a
    below = model.residual(delay)[e] <= 0  # unsaturated even at the floor price
    delay[e] = b
    above = model.residual(delay)[e] >= 0  # oversubscribed even at the largest price
    for _ in range(iters):
        mid = 0.5 * (a + b)
        delay[e] = mid
        pos = model.residual(delay)[e] > 0
        a = np.where(pos, mid, a)
        b = np.where(pos, b, mid)
    out = 0.5 * (a + b)
    out = np.where(below, floor, out)
    out = np.where(above, model.hi[e], out)
    delay[e] = out
    return delay


def _own_price_scalar(model: _Model, delay: npt.NDArray[np.float64], e: int) -> float:
    """Scalar version of :func:`_solve_own_price` refined with brentq (machine precision)."""
    col = delay.reshape(model.L, 1).copy()

    def f(v: float) -> float:
        col[e, 0] = v
        return float(model.residual(col)[e, 0])

    a, b = float(_own_floor(model, col, e)[0]), float(model.hi[e])
    if f(a) <= 0:
        return a
    if f(b) >= 0:
        return b
    return float(brentq(f, a, b, xtol=1e-300, rtol=4 * _EPS, maxiter=500))


def _grid(model: _Model, link: int, points: int) -> npt.NDArray[np.float64]:
    lo, hi = model.lo[link], model.hi[link]
    g = np.geomspace(lo, hi, points)
    extra = [p for p in model.maps[link].breakpoints(model.c[link]) if lo < p < hi]
    extra += [p * f for p in extra for f in (1 - 1e-6, 1 + 1e-6)]
    return np.unique(np.concatenate([g, extra]))


def _accept(model: _Model, active: tuple[int, ...], delay: npt.NDArray[np.float64]) -> bool:
    d = delay.reshape(model.L, 1)
    y = model.state(d)[-1][:, 0]
    for l_ in active:
        if not model.lo[l_] * (1 + 1e-9) < d[l_, 0] < model.hi[l_] * (1 - 1e-9):
            return False
        if not abs(y[l_] - model.c[l_]) <= 1e-10 * model.c[l_]:
            return False
    return True


def _dedupe(sols: list[npt.NDArray[np.float64]]) -> list[npt.NDArray[np.float64]]:
    out: list[npt.NDArray[np.float64]] = []
    for s in sols:
        if not any(np.all(np.abs(s - o) <= 1e-7 * np.maximum(np.abs(o), 1e-300)) for o in out):
            out.append(s)
    return out


def _polish(
    model: _Model, active: tuple[int, ...], e: int, start: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64] | None:
    """Refine y_S = c_S from ``start`` with scipy ``root`` (hybr, then lm).

    First on the reduced map of the free links' log prices (p_e solved exactly for each
    evaluation, so a start with p_e clamped near 0 is harmless), then on the full system.
    """
    free = [l_ for l_ in active if l_ != e]
    idx = list(active)
    base = np.zeros((model.L, 1))
    lo, hi = np.log(model.lo) - 5, np.log(model.hi) + 5

    def reduced(v: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        base[:, 0] = 0.0
        base[free, 0] = np.exp(np.clip(v, lo[free], hi[free]))
        base[e, 0] = _own_price_scalar(model, base[:, 0], e)
        return model.residual(base)[free, 0]

    def full(v: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        base[:, 0] = 0.0
        base[idx, 0] = np.exp(np.clip(v, lo[idx], hi[idx]))
        return model.residual(base)[idx, 0]

    for fun, coords in ((reduced, free), (full, idx)):
        for method in ("hybr", "lm"):
            opts = {"xtol": 1e-15} if method == "hybr" else {}
            v0 = np.log(np.maximum(start[coords], model.lo[coords]))
            sol = root(fun, v0, method=method, options=opts)
            fun(sol.x)  # leaves the solution (with p_e for the reduced map) in ``base``
            cand = base[:, 0].copy()
            if _accept(model, active, cand):
                return cand
    return None


def _solve_set(model: _Model, active: tuple[int, ...], resolution: int) -> list[Equilibrium]:
    if not _can_price(model, active):
        return []
    e = _elimination_link(model, active)
    free = [l_ for l_ in active if l_ != e]
    sols: list[npt.NDArray[np.float64]] = []
    if not free:
        d = np.zeros(model.L)
        d[e] = _own_price_scalar(model, d, e)
        if _accept(model, active, d):
            sols.append(d)
    elif len(free) == 1:
        a = free[0]
        grid = _grid(model, a, resolution)
        delay = np.zeros((model.L, grid.size))
        delay[a] = grid
        delay = _solve_own_price(model, delay, e)
        g = model.residual(delay)[a]
        work = np.zeros(model.L)

        def reduced(v: float) -> float:
            work[:] = 0.0
            work[a] = math.exp(v)
            work[e] = _own_price_scalar(model, work, e)
            return float(model.residual(work.reshape(-1, 1))[a, 0])

        for i in np.flatnonzero(g[:-1] * g[1:] <= 0):
            lo_v, hi_v = math.log(grid[i]), math.log(grid[i + 1])
            flo, fhi = reduced(lo_v), reduced(hi_v)
            if flo == 0:
                v = lo_v
            elif fhi == 0:
                v = hi_v
            elif flo * fhi > 0:
                continue
            else:
                v = float(brentq(reduced, lo_v, hi_v, xtol=1e-15, rtol=4 * _EPS, maxiter=300))
            reduced(v)
            if _accept(model, active, work):
                sols.append(work.copy())
                if (
                    len(sols) > 2 * MAX_SOLUTIONS_PER_SET
                    and len(_dedupe(sols)) > MAX_SOLUTIONS_PER_SET
                ):
                    break
    else:
        k = len(free)
        pts = int(min(resolution, max(8, round((1.2e4) ** (1.0 / k)))))
        grids = [_grid(model, l_, pts) for l_ in free]
        shape = tuple(g.size for g in grids)
        mesh = np.meshgrid(*grids, indexing="ij")
        delay = np.zeros((model.L, mesh[0].size))
        for l_, m in zip(free, mesh, strict=True):
            delay[l_] = m.ravel()
        delay = _solve_own_price(model, delay, e)
        res = model.residual(delay)
        mask = np.ones(tuple(s - 1 for s in shape), dtype=bool)
        for l_ in free:
            r = res[l_].reshape(shape)
            lo_r, hi_r = r.copy(), r.copy()
            for ax in range(k):
                sl0 = [slice(None)] * k
                sl1 = [slice(None)] * k
                sl0[ax] = slice(0, -1)
                sl1[ax] = slice(1, None)
                lo_r = np.minimum(lo_r[tuple(sl0)], lo_r[tuple(sl1)])
                hi_r = np.maximum(hi_r[tuple(sl0)], hi_r[tuple(sl1)])
            mask &= (lo_r <= 0) & (hi_r >= 0)
        # a cell whose corners all have a virtual own price p_e <= 0 (or p_e at its upper
        # bound) cannot hold a solution with 0 < p_e < hi_e
        own = delay[e].reshape(shape)
        real = (own > 0) & (own < model.hi[e])
        for ax in range(k):
            sl0 = [slice(None)] * k
            sl1 = [slice(None)] * k
            sl0[ax] = slice(0, -1)
            sl1[ax] = slice(1, None)
            real = real[tuple(sl0)] | real[tuple(sl1)]
        mask &= real
        labels, n_comp = label(mask, structure=np.ones((3,) * k))
        worst = np.max(np.abs(res[free]), axis=0).reshape(shape)
        for comp in range(1, n_comp + 1):
            cells = np.argwhere(labels == comp)
            # start from the corners of the component's cells, those with p_e > 0 and the
            # smallest residual of the free links first; stop at the first solution
            corners = {
                tuple(int(i) for i in c + o) for c in cells for o in product((0, 1), repeat=k)
            }
            order = sorted(corners, key=lambda ix: (bool(own[ix] <= 0), float(worst[ix])))
            for ix in order[:MAX_POLISH_STARTS]:
                sol = _polish(model, active, e, delay[:, np.ravel_multi_index(ix, shape)].copy())
                if sol is not None:
                    sols.append(sol)
                    break
    sols = _dedupe(sols)
    if len(sols) > MAX_SOLUTIONS_PER_SET:
        raise RuntimeError(
            f"{len(sols)} solutions with priced links {active}: the equilibria are not isolated "
            "(e.g. links with identical flows and capacities share one constraint)"
        )
    mask = np.isin(np.arange(model.L), active)
    return [_equilibrium(model, np.where(mask, s, 0.0)) for s in sols]


def _check_active(network: Network, links: Iterable[int]) -> tuple[int, ...]:
    try:
        act = tuple(sorted({int(i) for i in links}))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"links must be link indices, got {links!r}") from exc
    if not act:
        raise ValueError("the set of priced links must not be empty")
    if act[0] < 0 or act[-1] >= len(network.links):
        raise ValueError(f"link indices must lie in [0, {len(network.links) - 1}], got {act!r}")
    return act


def _check_resolution(resolution: int) -> int:
    if isinstance(resolution, bool) or not isinstance(resolution, numbers.Integral):
        raise ValueError(f"resolution must be an integer >= 16, got {resolution!r}")
    if resolution < 16:
        raise ValueError(f"resolution must be an integer >= 16, got {resolution!r}")
    return int(resolution)


def solve_active_set(
    network: Network, links: Iterable[int], *, resolution: int = DEFAULT_RESOLUTION
) -> list[Equilibrium]:
    """All solutions with p^f_l > 0 exactly on ``links`` and y_l = c_l there (eq. 10 with equality).

    The capacity constraints of the other links are *not* imposed: check ``Equilibrium.feasible``
    (so a branch of solutions can be followed beyond the point where it stops being an
    equilibrium). Method: see :func:`find_equilibria`.
    """
    return _solve_set(_Model(network), _check_active(network, links), _check_resolution(resolution))


def find_equilibria(network: Network, *, resolution: int = DEFAULT_RESOLUTION) -> list[Equilibrium]:
    """Every equilibrium of ``network``: (1)-(4), (7), the price maps (3) and (10).

    Method (active-set enumeration): every subset S of links is a candidate set of links with a
    positive delay price (the others have p^f = 0 and must satisfy y_l <= c_l). For a given S,
    y_S(p_S) = c_S is solved as follows. Every rate is non-increasing in every link price, so for
    one link e of S (the one carrying most Vegas groups) the equation y_e = c_e has a unique root
    p_e for fixed other prices (bisection, then brentq). p_e may go below 0 down to the price at
    which a rate through e becomes infinite (a continuous "virtual" extension, see
    ``_own_floor``), so this elimination never clamps at p_e = 0 and cannot turn a solution of
    another set S' into a spurious root of the reduced map; roots with p_e <= 0 are discarded.
    This eliminates one dimension:

    * |S| = 1: the root is unique;
    * |S| = 2: the remaining 1-D function of p_a is scanned on ``resolution`` log-spaced points
      (plus the kinks of the price map) and every sign change is refined with brentq -- this
      finds all roots separated by more than one grid step (about 5% in price for 600 points);
    * |S| >= 3: the remaining (|S|-1)-D map is evaluated on a grid (about 1.2e4 points), cells
      where every component changes sign (and some corner has 0 < p_e) are grouped into
      connected components and each is refined with scipy ``root`` (hybr, then lm) on the
      reduced map, then on the full system, from up to ``MAX_POLISH_STARTS`` corners.

    Prices are searched in [1e-8 s_l, 1e4 s_l] with s_l a per-link reference delay (the largest of
    the price map's kinks and (sum of Vegas alpha + Reno rate-at-maximum-loss terms) / c_l).
    Solutions with |y_l - c_l| > 1e-10 c_l on S are rejected; duplicates are removed. Returns the
    feasible solutions (y <= c on the other links), ordered by active-set size, then links.
    Non-isolated equilibria (a continuum) raise RuntimeError.

    A network can have several equilibria, and all of them are returned (e.g. three on the
    Figure 1 network where Proposition 1's condition holds, see
    :func:`analysis.models.tang.recipes.prop1_condition`).
    """
    res = _check_resolution(resolution)
    model = _Model(network)
    out: list[Equilibrium] = []
    for k in range(1, model.L + 1):
        for active in combinations(range(model.L), k):
            out.extend(eq for eq in _solve_set(model, active, res) if eq.feasible)
    return out
