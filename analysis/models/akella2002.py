"""Analytical models of Akella, Seshan, Karp, Shenker, Papadimitriou, "Selfish Behavior and
Stability of the Internet: A Game-Theoretic Analysis of TCP" (SIGCOMM 2002).

Everything here is a pure function of its arguments (numpy/scipy only). References are to the
paper's sections, tables and numbered equations:

* Table 1 (Sec 3.3) -- the Severe (Tahoe), Gentle (SACK) and Hybrid (Reno) penalty models:
  :class:`PenaltyFlow`, :func:`penalty_trajectory`, and a round-based drop-tail simulation of
  them, :func:`simulate_droptail` (loss assignment L_i = alpha_i at an overflow point, Sec 4.2).
* Sec 4.2.1 (Gentle, drop-tail) -- eqs (1)-(6) and (9)-(13).
* Sec 4.2.2 (Severe, drop-tail) -- eqs (14)-(17) and the unnumbered alpha/beta goodputs.
* Sec 4.2.3 (Hybrid, drop-tail) -- eq (18), G_n(alpha_n) vs G_n(1) and the numerical evaluation
  with tau_S = 20 rounds, R = 0.12 s.
* Sec 4.3 (RED) -- eqs (19)-(25) and the F_a / F_b functions plotted in Figure 6, computed from
  the measured loss functions p_a, P_a, p_b, P_b of Figure 5 (:func:`fig6`).
* Symmetric Nash equilibria of the AIMD(alpha, beta) game under each model
  (:func:`symmetric_ne`, :func:`droptail_symmetric_ne`, :func:`red_symmetric_ne`).

Units: C is the bottleneck capacity in packets (the bandwidth-delay product, Table 2), R a round
trip time in seconds, so goodputs are in packets/s; loss rates p are per-packet fractions.
Strategy sets (Sec 3.1): alpha >= 0 (the paper requires alpha >= 1 but its sweeps start at 0),
0 < beta < 1, n >= 2 flows.

Corrections applied to the printed paper (each also noted where it is used; [k] is item Ek of
"Typos and corrections in the paper" in docs/akella2002.md):

* [1] Eq (13): the middle term is C(1+beta_n)/(nR(1+beta)), without the printed factor 2
  (with it the second ">" would be false).
* [2] Eq (18): the denominator is 2(n-1) + alpha_n (printed "alpha").
* [3] Eq (22) is garbled ("p_R", "p"): it is eq (20) with alpha = 1,
  G_n = 1/(p' Rbar tau_S + Rbar sqrt(2 p' (1-beta')/(1+beta'))).
* [4] Reno F_b (Sec 4.3.3): the last term 3 T_0 (p^2 + 32 p^4) beta / (R (1 - beta)) must also be
  multiplied by C_b (checked by differentiating eq 25); the printed form is ``printed=True``.
* [5] Sec 4.3.1: "N = (tau - tau_S) alpha beta/(beta - 1)" is N = beta tau alpha/(1 - beta) (eq 14);
  only the final approximation S ~ alpha tau^2 (1+beta)/(2(1-beta)) is used here (eq 20).
* [6] Sec 4.2.2: "there always exists beta_n > beta such that G_n(beta_n) < G_n(beta)" must read
  ">".
* [7] Sec 4.2.1: the mean round length is R(1+beta) (as used in T^(i), T^(ii)), not 2 beta R.
* [8] Table 1, Hybrid: the restart row fires for L > 1 (printed ">= 1"; L = 1 is the gentle row).
  The restart window is beta_i N_0 in Table 1 but N_0 = C/n in the Sec 4.2.3 derivation; both are
  available (``hybrid_restart_beta`` / ``n0``).
* [10] Eqs (4), (16) are read with parentheses: S_i = sum_t (N_i + t alpha_i).
* [11]/[12] P_a = dp'/dalpha' and P_b = dp'/dbeta' at the symmetric point (Sec 4.3.3 writes
  d/dalpha, d/dbeta); loss functions are called as ``loss(common, deviant)`` for both games (the
  paper writes p'_a = p_{alpha,alpha'} but p'_b = p_{beta',beta}).

Finding beyond the typos: footnote 6's lemma ("f/g increasing => f/(g + c) increasing") is false
in general, and the Severe drop-tail goodput G_n(alpha_n) of Sec 4.2.2 is *not* increasing in
alpha_n: it decreases for large alpha_n (towards 3C/(R(2 tau_S + 3))). The paper's conclusion
nevertheless holds: dG_n/dalpha_n > 0 at every symmetric profile (:func:`droptail_elasticity`), so
there is no finite symmetric equilibrium.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, cast

import numpy as np
import numpy.typing as npt
from scipy.optimize import brentq, minimize_scalar

from analysis.models.checks import as_array, as_output

__all__ = [
    "ALPHA_BOUNDS",
    "ALPHA_GAME_BETA",
    "BETA_BOUNDS",
    "BETA_GAME_ALPHA",
    "HYBRID_RTT",
    "HYBRID_TAU_S",
    "Model",
    "Parameter",
    "PenaltyFlow",
    "RoundTrace",
    "SymmetricNE",
    "bdp_packets_to_mbps",
    "droptail_elasticity",
    "droptail_symmetric_ne",
    "droptail_tau_o",
    "f_alpha",
    "f_beta",
    "fig6",
    "first_zero_crossing",
    "gentle_alpha_goodput",
    "gentle_beta_goodput",
    "gentle_beta_lower_bound",
    "gentle_beta_tau_o",
    "hybrid_alpha_goodput",
    "hybrid_alpha_needed",
    "hybrid_best_deviation",
    "hybrid_gain",
    "hybrid_tau_o",
    "hybrid_threshold_bdp",
    "mbps_to_bdp_packets",
    "penalty_trajectory",
    "red_deviation_goodput",
    "red_goodput",
    "red_marginal",
    "red_symmetric_ne",
    "severe_alpha_goodput",
    "severe_beta_goodput",
    "simulate_droptail",
    "symmetric_ne",
]

FloatOrArray = float | npt.NDArray[np.float64]
Model = Literal["severe", "gentle", "hybrid"]
Parameter = Literal["alpha", "beta"]
LossFunction = Callable[[float, float], float]

#: tau_S (rounds) and R (s) of the paper's numerical evaluation of the Hybrid model (Sec 4.2.3).
HYBRID_TAU_S: float = 20.0
HYBRID_RTT: float = 0.12

#: Fixed beta of the alpha game and fixed alpha of the beta game (Sec 4.1, eqs 21-22).
ALPHA_GAME_BETA: float = 0.5
BETA_GAME_ALPHA: float = 1.0

#: Default strategy intervals searched by the equilibrium solvers (alpha >= 1 per Sec 3.1).
ALPHA_BOUNDS: tuple[float, float] = (1.0, 100.0)
BETA_BOUNDS: tuple[float, float] = (0.01, 0.999)

_MODELS: tuple[str, ...] = ("severe", "gentle", "hybrid")
_PARAMETERS: tuple[str, ...] = ("alpha", "beta")
_EPS = float(np.finfo(float).eps)

# --------------------------------------------------------------------------------------------
# input validation helpers
# --------------------------------------------------------------------------------------------


def _alpha(x: npt.ArrayLike, name: str, *, positive: bool = False) -> npt.NDArray[np.float64]:
    a = as_array(x, name)
    if np.any(a < 0):
        raise ValueError(f"{name} (increase parameter) must be >= 0, got {x!r}")
    if positive and np.any(a == 0):
        raise ValueError(f"{name} (increase parameter) must be > 0 here, got {x!r}")
    return a


def _beta(x: npt.ArrayLike, name: str) -> npt.NDArray[np.float64]:
    a = as_array(x, name)
    if np.any((a <= 0) | (a >= 1)):
        raise ValueError(f"{name} (decrease parameter) must lie in (0, 1), got {x!r}")
    return a


def _n(n: object, name: str = "n") -> int:
    if isinstance(n, bool) or not isinstance(n, numbers.Real):
        raise ValueError(f"{name} (number of flows) must be an integer >= 2, got {n!r}")
    if not math.isfinite(float(n)) or float(n) != int(n) or int(n) < 2:
        raise ValueError(f"{name} (number of flows) must be an integer >= 2, got {n!r}")
    return int(n)


def _pos(x: npt.ArrayLike, name: str) -> npt.NDArray[np.float64]:
    a = as_array(x, name)
    if np.any(a <= 0):
        raise ValueError(f"{name} must be > 0, got {x!r}")
    return a


def _nonneg(x: npt.ArrayLike, name: str) -> npt.NDArray[np.float64]:
    a = as_array(x, name)
    if np.any(a < 0):
        raise ValueError(f"{name} must be >= 0, got {x!r}")
    return a


def _loss(p: npt.ArrayLike, name: str) -> npt.NDArray[np.float64]:
    a = as_array(p, name)
    if np.any((a <= 0) | (a > 1)):
        raise ValueError(f"{name} (loss rate) must lie in (0, 1], got {p!r}")
    return a


def _model(model: str) -> Model:
    if model not in _MODELS:
        raise ValueError(f"model must be one of {_MODELS}, got {model!r}")
    return cast(Model, model)


def _parameter(parameter: str) -> Parameter:
    if parameter not in _PARAMETERS:
        raise ValueError(f"parameter must be one of {_PARAMETERS}, got {parameter!r}")
    return cast(Parameter, parameter)


# --------------------------------------------------------------------------------------------
# Table 1 -- penalty models
# --------------------------------------------------------------------------------------------


@dataclass
class PenaltyFlow:
    """One flow under a penalty model of Table 1 (Sec 3.3); :meth:`step` maps N^t, L^t to N^{t+1}.

    Rules (Table 1, with the precedence the table leaves implicit):

    * Gentle (SACK): ``N + alpha`` if ``L = 0``, else ``beta N - gamma L`` (clipped at 0).
    * Severe (Tahoe): ``N + alpha`` if ``L = 0``; a loss round t' (L >= 1) is followed by tau_S
      silent rounds (N = 0) and the window ``beta N^{t'}`` in round t' + tau_S + 1.
    * Hybrid (Reno): ``N + alpha`` if ``L = 0``; ``beta N - gamma`` if ``0 < L <= 1``; ``L > 1``
      (correction [8]: printed ">= 1" in the restart row) -> tau_S silent rounds, then the restart
      window ``beta N_0`` (Table 1, ``hybrid_restart_beta=True``) or ``N_0`` (Sec 3.3 prose and
      the Sec 4.2.3 derivation, which takes N_0 = C/n).

    Silent rounds override the additive-increase row (the Hybrid row's "N^t > 0" is read as "not
    within a severe penalty"). A silent flow has no packets in flight, so losses > 0 in a silent
    round raise ValueError. ``window`` is N^t of the current round.
    """

    model: Model
    alpha: float
    beta: float
    window: float
    tau_s: int = 0
    gamma: float = 0.0
    n0: float | None = None
    hybrid_restart_beta: bool = True
    _silent_left: int = field(default=0, init=False, repr=False)
    _restart_to: float = field(default=0.0, init=False, repr=False)

    def __post_init__(self) -> None:
        _model(self.model)
        self.alpha = float(_alpha(self.alpha, "alpha"))
        self.beta = float(_beta(self.beta, "beta"))
        self.window = float(_nonneg(self.window, "window"))
        if isinstance(self.tau_s, bool) or int(self.tau_s) != self.tau_s or self.tau_s < 0:
            raise ValueError(f"tau_s (rounds) must be an integer >= 0, got {self.tau_s!r}")
        self.tau_s = int(self.tau_s)
        self.gamma = float(_nonneg(self.gamma, "gamma"))
        if self.model == "hybrid":
            if self.n0 is None:
                raise ValueError("n0 (Hybrid restart constant N_0) is required for model 'hybrid'")
            self.n0 = float(_nonneg(self.n0, "n0"))

    @property
    def silent(self) -> bool:
        """True while the flow sits out a severe penalty (N = 0 imposed by Table 1)."""
        return self._silent_left > 0

    def _severe(self, restart: float) -> float:
        if self.tau_s == 0:
            return restart
        self._silent_left = self.tau_s
        self._restart_to = restart
        return 0.0

    def step(self, losses: float) -> float:
        """Apply Table 1 to the current round with ``losses`` = L^t; return (and store) N^{t+1}."""
        lt = float(_nonneg(losses, "losses"))
        if self._silent_left > 0:
            if lt > 0:
                raise ValueError("losses must be 0 while the flow is silent (severe penalty)")
            self._silent_left -= 1
            nxt = 0.0 if self._silent_left > 0 else self._restart_to
        elif lt == 0:
            nxt = self.window + self.alpha
        elif self.model == "gentle":
            nxt = max(self.beta * self.window - self.gamma * lt, 0.0)
        elif self.model == "severe":
            nxt = self._severe(self.beta * self.window)
        elif lt <= 1.0:  # hybrid, gentle part
            nxt = max(self.beta * self.window - self.gamma, 0.0)
        else:  # hybrid, severe part
            assert self.n0 is not None
            nxt = self._severe(self.beta * self.n0 if self.hybrid_restart_beta else self.n0)
        self.window = nxt
        return nxt


def penalty_trajectory(
    model: Model,
    losses: Sequence[float] | npt.ArrayLike,
    *,
    alpha: float,
    beta: float,
    window0: float,
    tau_s: int = 0,
    gamma: float = 0.0,
    n0: float | None = None,
    hybrid_restart_beta: bool = True,
) -> npt.NDArray[np.float64]:
    """Window sequence N^0 .. N^T of one flow under Table 1 for a given loss sequence L^0..L^{T-1}.

    See :class:`PenaltyFlow` for the rules. Returns an array of length ``len(losses) + 1``.
    """
    ls = _nonneg(losses, "losses").ravel()
    flow = PenaltyFlow(
        model, alpha, beta, window0, tau_s, gamma, n0, hybrid_restart_beta=hybrid_restart_beta
    )
    out = np.empty(ls.size + 1)
    out[0] = flow.window
    for t, lt in enumerate(ls):
        out[t + 1] = flow.step(float(lt))
    return out


@dataclass(frozen=True)
class RoundTrace:
    """Output of :func:`simulate_droptail`: per-round windows, losses and round lengths."""

    windows: npt.NDArray[np.float64]  # (rounds, n): N_i^t
    losses: npt.NDArray[np.float64]  # (rounds, n): L_i^t
    durations: npt.NDArray[np.float64]  # (rounds,): length of round t in seconds

    def goodput(self, start: int = 0, stop: int | None = None) -> npt.NDArray[np.float64]:
        """Per-flow G_i = S_i / T (eq 1) over rounds [start, stop), packets/s.

        S_i counts every packet sent (sum of N_i^t), as eqs (4), (16) do.
        """
        w = self.windows[start:stop]
        d = self.durations[start:stop]
        if d.size == 0:
            raise ValueError("empty round window [start, stop)")
        return w.sum(axis=0) / d.sum()


def simulate_droptail(
    model: Model,
    alphas: Sequence[float] | npt.ArrayLike,
    betas: Sequence[float] | npt.ArrayLike,
    capacity: float,
    rtt: float,
    rounds: int,
    *,
    tau_s: int = 0,
    gamma: float = 0.0,
    n0: float | None = None,
    hybrid_restart_beta: bool = True,
    init: Sequence[float] | npt.ArrayLike | None = None,
) -> RoundTrace:
    """Round-by-round evaluation of Table 1 with the drop-tail loss assignment of Sec 4.2.

    n flows share a link of ``capacity`` C packets per ``rtt`` R with a buffer of C packets
    (assumption V). In round t the flows send W = sum_i N_i^t; the round lasts R max(1, W/C)
    (queueing delay W - C packets, as in Sec 4.2.1). If W >= 2C (link plus buffer full: overflow
    point) every flow with N_i^t > 0 gets L_i^t = alpha_i losses, otherwise none. ``init`` are the
    windows N_i^0 (default alpha_i). ``n0`` (Hybrid restart constant) defaults to C/n.
    """
    _model(model)
    a = _alpha(alphas, "alphas").ravel()
    b = _beta(betas, "betas").ravel()
    if a.size != b.size:
        raise ValueError(f"alphas and betas must have equal length, got {a.size} and {b.size}")
    n = _n(a.size, "len(alphas)")
    c = float(_pos(capacity, "capacity"))
    r = float(_pos(rtt, "rtt"))
    if isinstance(rounds, bool) or int(rounds) != rounds or rounds < 1:
        raise ValueError(f"rounds must be an integer >= 1, got {rounds!r}")
    w0 = a.copy() if init is None else _nonneg(init, "init").ravel()
    if w0.size != n:
        raise ValueError(f"init must have one window per flow ({n}), got {w0.size}")
    restart = c / n if n0 is None else float(_nonneg(n0, "n0"))
    flows = [
        PenaltyFlow(
            model, float(ai), float(bi), float(wi), tau_s, gamma, restart, hybrid_restart_beta
        )
        for ai, bi, wi in zip(a, b, w0, strict=True)
    ]
    windows = np.empty((int(rounds), n))
    losses = np.zeros((int(rounds), n))
    durations = np.empty(int(rounds))
    for t in range(int(rounds)):
        wt = np.array([f.window for f in flows])
        total = float(wt.sum())
        windows[t] = wt
        durations[t] = r * max(1.0, total / c)
        if total >= 2.0 * c * (1.0 - 1e-12):
            losses[t] = np.where(wt > 0, a, 0.0)
        for i, f in enumerate(flows):
            f.step(float(losses[t, i]))
    return RoundTrace(windows, losses, durations)


# --------------------------------------------------------------------------------------------
# Sec 4.2 -- drop-tail: Gentle (SACK)
# --------------------------------------------------------------------------------------------


def droptail_tau_o(
    alphas: Sequence[float] | npt.ArrayLike,
    betas: Sequence[float] | npt.ArrayLike,
    capacity: float,
) -> float:
    """Rounds between overflow points, eqs (2)-(3) with gamma -> 0 (also tau of eqs 14-15).

    N_i = beta_i tau alpha_i / (1 - beta_i) (eq 2) in sum_i (N_i + tau alpha_i) = 2C (eq 3) gives
    ``tau = 2C / sum_i alpha_i/(1 - beta_i)``; beta = 0.5 gives tau = C / sum alpha_i (Sec 4.2.1).
    """
    a = _alpha(alphas, "alphas").ravel()
    b = _beta(betas, "betas").ravel()
    if a.size != b.size:
        raise ValueError(f"alphas and betas must have equal length, got {a.size} and {b.size}")
    _n(a.size, "len(alphas)")
    c = float(_pos(capacity, "capacity"))
    denom = float(np.sum(a / (1.0 - b)))
    if denom <= 0:
        raise ValueError("alphas must not all be 0 (no flow ever fills the buffer)")
    return 2.0 * c / denom


def gentle_alpha_goodput(
    alpha_n: npt.ArrayLike, alpha: npt.ArrayLike, n: int, capacity: float, rtt: float
) -> FloatOrArray:
    """Eq (6): G_n = alpha_n C / (R (A + alpha_n)), A = (n-1) alpha (others all at ``alpha``).

    Gentle penalty, drop-tail, beta = 0.5 for all flows (Sec 4.2.1). Strictly increasing in
    alpha_n; equals C/(nR) when alpha_n = alpha.
    """
    an = _alpha(alpha_n, "alpha_n")
    ao = _alpha(alpha, "alpha")
    nn = _n(n)
    c = _pos(capacity, "capacity")
    r = _pos(rtt, "rtt")
    tot = (nn - 1) * ao + an
    if np.any(tot <= 0):
        raise ValueError("alpha_n + (n-1) alpha must be > 0")
    return as_output(an * c / (r * tot))


def gentle_beta_tau_o(
    beta_n: npt.ArrayLike, beta: npt.ArrayLike, n: int, capacity: float
) -> FloatOrArray:
    """Eq (11) (eq 12 if beta_n = beta), alpha = 1: tau_O = 2C / ((n-1)/(1-beta) + 1/(1-beta_n))."""
    bn = _beta(beta_n, "beta_n")
    bo = _beta(beta, "beta")
    nn = _n(n)
    c = _pos(capacity, "capacity")
    return as_output(2.0 * c / ((nn - 1) / (1.0 - bo) + 1.0 / (1.0 - bn)))


def gentle_beta_goodput(
    beta_n: npt.ArrayLike, beta: npt.ArrayLike, n: int, capacity: float, rtt: float
) -> FloatOrArray:
    """Eq (9) with tau_O^(i) from eq (11): G_n = tau_O (1+beta_n) / (2R (1-beta_n)(1+beta)).

    Setting (i) of Sec 4.2.1 (F_n at beta_n, the others at beta, all alpha = 1); with
    beta_n = beta this is eq (10) with eq (12), i.e. C/(nR). Rounds last R(1+beta) on average
    (correction [7]: the text's "Rbar ~ 2 beta R" is a typo).
    """
    bn = _beta(beta_n, "beta_n")
    bo = _beta(beta, "beta")
    r = _pos(rtt, "rtt")
    tau = np.asarray(gentle_beta_tau_o(bn, bo, n, capacity))
    return as_output(tau * (1.0 + bn) / (2.0 * r * (1.0 - bn) * (1.0 + bo)))


def gentle_beta_lower_bound(
    beta_n: npt.ArrayLike,
    beta: npt.ArrayLike,
    n: int,
    capacity: float,
    rtt: float,
    *,
    printed: bool = False,
) -> FloatOrArray:
    """Middle term of eq (13): C(1+beta_n) / (nR(1+beta)) (correction [1]).

    From eq (11), tau_O^(i) > 2C(1-beta_n)/n for beta_n > beta, so eq (9) exceeds this bound,
    which exceeds C/(nR) = G_n(beta). ``printed=True`` returns the paper's form with the extra
    factor 2 in the denominator, which is *below* C/(nR) for every beta_n < 1.
    """
    bn = _beta(beta_n, "beta_n")
    bo = _beta(beta, "beta")
    nn = _n(n)
    c = _pos(capacity, "capacity")
    r = _pos(rtt, "rtt")
    val = c * (1.0 + bn) / (nn * r * (1.0 + bo))
    return as_output(val / 2.0 if printed else val)


# --------------------------------------------------------------------------------------------
# Sec 4.2.2 -- drop-tail: Severe (Tahoe)
# --------------------------------------------------------------------------------------------


def severe_alpha_goodput(
    alpha_n: npt.ArrayLike,
    alpha: npt.ArrayLike,
    n: int,
    capacity: float,
    rtt: float,
    tau_s: float,
) -> FloatOrArray:
    """Sec 4.2.2, alpha variation (beta = 0.5):

    G_n = 3 alpha_n tau (tau+1) / (R (2 tau_S + 3(tau+1))).

    tau = C / (alpha_n + (n-1) alpha) (eqs 15, 17); S_n = 3 alpha_n tau (tau+1)/2 (eq 16 with
    correction [10]) and T = R (tau_S + 3(tau+1)/2). Not monotone in alpha_n (see module
    docstring): it tends to 3C/(R(2 tau_S + 3)) as alpha_n -> infinity.
    """
    an = _alpha(alpha_n, "alpha_n")
    ao = _alpha(alpha, "alpha")
    nn = _n(n)
    c = _pos(capacity, "capacity")
    r = _pos(rtt, "rtt")
    ts = _nonneg(tau_s, "tau_s")
    tot = (nn - 1) * ao + an
    if np.any(tot <= 0):
        raise ValueError("alpha_n + (n-1) alpha must be > 0")
    tau = c / tot
    return as_output(3.0 * an * tau * (tau + 1.0) / (r * (2.0 * ts + 3.0 * (tau + 1.0))))


def severe_beta_goodput(
    beta_n: npt.ArrayLike,
    beta: npt.ArrayLike,
    n: int,
    capacity: float,
    rtt: float,
    tau_s: float,
) -> FloatOrArray:
    """Sec 4.2.2, beta variation (alpha = 1), settings (i)/(ii):

    G_n = tau (1+beta_n)(tau+1) / (2R tau_S (1-beta_n) + 2R (1-beta_n)(1+beta)(tau+1)),

    with tau = tau^(i) from the analogue of eq (11) (eq 12 when beta_n = beta); T = R tau_S +
    R(1+beta)(tau+1). The paper's claim (correction [6]) is G_n(beta_n) > G_n(beta) for some
    beta_n > beta.
    """
    bn = _beta(beta_n, "beta_n")
    bo = _beta(beta, "beta")
    r = _pos(rtt, "rtt")
    ts = _nonneg(tau_s, "tau_s")
    tau = np.asarray(gentle_beta_tau_o(bn, bo, n, capacity))
    num = tau * (1.0 + bn) * (tau + 1.0)
    den = 2.0 * r * ts * (1.0 - bn) + 2.0 * r * (1.0 - bn) * (1.0 + bo) * (tau + 1.0)
    return as_output(num / den)


# --------------------------------------------------------------------------------------------
# Sec 4.2.3 -- drop-tail: Hybrid (Reno)
# --------------------------------------------------------------------------------------------


def _hybrid_args(
    n: int, capacity: float, tau_s: float, n0: float | None
) -> tuple[int, float, float, float]:
    nn = _n(n)
    c = float(_pos(capacity, "capacity"))
    ts = float(_nonneg(tau_s, "tau_s"))
    if not c / nn > ts:
        raise ValueError(
            f"capacity/n must exceed tau_s (assumption of Sec 4.2.3), got capacity/n = {c / nn:g}"
            f" and tau_s = {ts:g}"
        )
    restart = c / nn if n0 is None else float(_nonneg(n0, "n0"))
    return nn, c, ts, restart


def hybrid_tau_o(
    alpha_n: npt.ArrayLike,
    n: int,
    capacity: float,
    tau_s: float,
    *,
    n0: float | None = None,
) -> FloatOrArray:
    """Eq (18) (correction [2]): tau_O = (2C - N_0 + tau_S alpha_n) / (2(n-1) + alpha_n).

    Setting (i) of Sec 4.2.3: F_1..F_{n-1} at alpha = 1 stay gentle (N_i ~ tau_O, eq 5); F_n
    (alpha_n > 1 => L_n > 1) times out at every overflow and restarts with N_0 (default C/n,
    giving the printed numerator C(2 - 1/n) + tau_S alpha_n). Requires C/n > tau_S.
    """
    an = _alpha(alpha_n, "alpha_n")
    nn, c, ts, restart = _hybrid_args(n, capacity, tau_s, n0)
    tau = (2.0 * c - restart + ts * an) / (2.0 * (nn - 1) + an)
    if np.any(tau <= ts):
        raise ValueError("tau_O <= tau_s: the greedy flow never restarts (n0 too large)")
    return as_output(tau)


def hybrid_alpha_goodput(
    alpha_n: npt.ArrayLike,
    n: int,
    capacity: float,
    rtt: float,
    tau_s: float,
    *,
    n0: float | None = None,
) -> FloatOrArray:
    """G_n(alpha_n) of Sec 4.2.3 (others at alpha = 1, beta = 0.5):

    G_n = (2/(3R)) (N_0 + alpha_n (tau_O - tau_S)/2) (1 - tau_S/(tau_O + 1)), tau_O from eq (18),
    i.e. S_n / T with S_n = sum_{t=0}^{tau_O - tau_S} (N_0 + t alpha_n) and T = 3R(tau_O + 1)/2.
    For alpha_n <= 1 the flow sees L_n = alpha_n <= 1 losses, stays gentle, and eq (6) applies
    (G_n(1) = C/(nR)). Requires C/n > tau_S.
    """
    an = _alpha(alpha_n, "alpha_n")
    nn, c, ts, restart = _hybrid_args(n, capacity, tau_s, n0)
    r = float(_pos(rtt, "rtt"))
    hi = np.maximum(an, 1.0)
    tau = np.asarray(hybrid_tau_o(hi, nn, c, ts, n0=restart))
    g_to = (2.0 / (3.0 * r)) * (restart + hi * (tau - ts) / 2.0) * (1.0 - ts / (tau + 1.0))
    g_gentle = an * c / (r * (nn - 1 + an))
    return as_output(np.where(an > 1.0, g_to, g_gentle))


def hybrid_gain(
    alpha_n: npt.ArrayLike,
    n: int,
    capacity: float,
    tau_s: float,
    *,
    n0: float | None = None,
) -> FloatOrArray:
    """G_n(alpha_n) / G_n(1) of Sec 4.2.3 (independent of R); < 1 means deviating does not pay."""
    nn = _n(n)
    c = float(_pos(capacity, "capacity"))
    return as_output(np.asarray(hybrid_alpha_goodput(alpha_n, nn, c, 1.0, tau_s, n0=n0)) * nn / c)


def hybrid_best_deviation(
    n: int,
    capacity: float,
    tau_s: float,
    *,
    alpha_max: float = 1e9,
    n0: float | None = None,
) -> tuple[float, float]:
    """Sup over alpha_n in (1, alpha_max] of :func:`hybrid_gain`; returns (alpha_n*, gain*).

    A dense logarithmic grid is refined with a bounded scalar search; ``alpha_max = 1e9`` stands
    for alpha_n -> infinity (the gain has a finite limit there).
    """
    amax = float(_pos(alpha_max, "alpha_max"))
    if amax <= 1.0:
        raise ValueError(f"alpha_max must be > 1, got {alpha_max!r}")
    grid = np.geomspace(1.0 + 1e-9, amax, 3001)
    vals = np.asarray(hybrid_gain(grid, n, capacity, tau_s, n0=n0))
    i = int(np.argmax(vals))
    lo, hi = math.log(grid[max(i - 1, 0)]), math.log(grid[min(i + 1, grid.size - 1)])
    best_a, best_g = float(grid[i]), float(vals[i])
    if hi > lo:
        res = minimize_scalar(
            lambda u: -float(hybrid_gain(math.exp(u), n, capacity, tau_s, n0=n0)),
            bounds=(lo, hi),
            method="bounded",
            options={"xatol": 1e-12},
        )
        if -res.fun > best_g:
            best_a, best_g = float(math.exp(res.x)), float(-res.fun)
    return best_a, best_g


def hybrid_threshold_bdp(
    n: int,
    tau_s: float = HYBRID_TAU_S,
    *,
    alpha_max: float = 1e9,
    restart_beta: float | None = None,
) -> float:
    """Largest per-flow BDP c = C/n (packets) with G_n(alpha_n) < G_n(1) for all alpha_n > 1.

    Numerical evaluation of Sec 4.2.3 (the paper uses tau_S = 20, R = 0.12 s; R cancels). The
    root of sup_alpha gain(c) = 1 is bracketed on a grid of c > tau_S and refined with brentq.
    ``restart_beta`` = b uses the Table 1 restart window b C/n instead of C/n.
    """
    nn = _n(n)
    ts = float(_nonneg(tau_s, "tau_s"))
    scale = 1.0 if restart_beta is None else float(_beta(restart_beta, "restart_beta"))

    def excess(c: float) -> float:
        return hybrid_best_deviation(nn, c * nn, ts, alpha_max=alpha_max, n0=scale * c)[1] - 1.0

    lo = ts * (1.0 + 1e-6) + 1e-9
    if excess(lo) >= 0:
        return lo
    c = lo
    while True:
        nxt = c * 1.25 + 1.0
        if excess(nxt) >= 0:
            return float(brentq(excess, c, nxt, xtol=1e-10, rtol=1e-12))
        c = nxt
        if c > 1e9:
            raise ValueError("no threshold found below C/n = 1e9 packets")


def hybrid_alpha_needed(
    n: int,
    capacity: float,
    tau_s: float = HYBRID_TAU_S,
    *,
    gain: float = 0.0,
    alpha_max: float = 1e9,
    n0: float | None = None,
) -> float:
    """Smallest alpha_n > 1 with G_n(alpha_n) >= (1 + gain) G_n(1) (Sec 4.2.3 item 3), else nan."""
    g = float(_nonneg(gain, "gain"))
    grid = np.geomspace(1.0 + 1e-9, float(_pos(alpha_max, "alpha_max")), 3001)
    vals = np.asarray(hybrid_gain(grid, n, capacity, tau_s, n0=n0)) - (1.0 + g)
    idx = np.flatnonzero(vals >= 0)
    if idx.size == 0:
        return math.nan
    i = int(idx[0])
    if i == 0:
        return float(grid[0])
    return float(
        brentq(
            lambda a: float(hybrid_gain(a, n, capacity, tau_s, n0=n0)) - (1.0 + g),
            grid[i - 1],
            grid[i],
            xtol=1e-12,
            rtol=1e-13,
        )
    )


def bdp_packets_to_mbps(bdp: npt.ArrayLike, rtt: float, packet_bytes: float) -> FloatOrArray:
    """Per-flow rate in Mbps of a bandwidth-delay product ``bdp`` (packets): bdp 8 S / R / 1e6."""
    b = _nonneg(bdp, "bdp")
    r = _pos(rtt, "rtt")
    s = _pos(packet_bytes, "packet_bytes")
    return as_output(b * 8.0 * s / r / 1e6)


def mbps_to_bdp_packets(mbps: npt.ArrayLike, rtt: float, packet_bytes: float) -> FloatOrArray:
    """Inverse of :func:`bdp_packets_to_mbps`: packets in flight of a ``mbps`` flow over ``rtt``."""
    m = _nonneg(mbps, "mbps")
    r = _pos(rtt, "rtt")
    s = _pos(packet_bytes, "packet_bytes")
    return as_output(m * 1e6 * r / (8.0 * s))


# --------------------------------------------------------------------------------------------
# Sec 4.3 -- RED: goodput equations and F_a / F_b (Figure 6)
# --------------------------------------------------------------------------------------------


def _tau_s_for(model: str, tau_s: float | None) -> float:
    if model != "severe":
        return 0.0
    if tau_s is None:
        raise ValueError("tau_s is required for model 'severe'")
    return float(_nonneg(tau_s, "tau_s"))


def _t0_for(model: str, t0: float | None) -> float:
    if model != "hybrid":
        return 0.0
    if t0 is None:
        raise ValueError("t0 (retransmission timeout) is required for model 'hybrid'")
    return float(_nonneg(t0, "t0"))


def red_goodput(
    model: Model,
    p: npt.ArrayLike,
    alpha: npt.ArrayLike,
    beta: npt.ArrayLike,
    rtt: float,
    *,
    tau_s: float | None = None,
    t0: float | None = None,
) -> FloatOrArray:
    """Goodput (packets/s) at a uniform loss rate p (Sec 4.3):

    * severe, eq (20): 1 / (p Rbar tau_S + Rbar sqrt(2 p (1-beta) / (alpha (1+beta)))),
      ``rtt`` = Rbar (mean RTT incl. queueing);
    * gentle, eq (24) (eq 20 with tau_S = 0): (1/R) sqrt(alpha (1+beta) / (2 p (1-beta)));
    * hybrid (Reno), eq (25): 1 / (R sqrt(2p(1-beta)/(alpha(1+beta)))
      + 3 T_0 p (1 + 32 p^2) sqrt(p (1-beta^2) / (2 alpha))).
    """
    m = _model(model)
    pp = _loss(p, "p")
    a = _alpha(alpha, "alpha", positive=True)
    b = _beta(beta, "beta")
    r = float(_pos(rtt, "rtt"))
    ts = _tau_s_for(m, tau_s)
    tt = _t0_for(m, t0)
    base = r * np.sqrt(2.0 * pp * (1.0 - b) / (a * (1.0 + b)))
    if m == "hybrid":
        den = base + 3.0 * tt * pp * (1.0 + 32.0 * pp**2) * np.sqrt(pp * (1.0 - b**2) / (2.0 * a))
    else:
        den = pp * r * ts + base
    return as_output(1.0 / den)


def f_alpha(
    model: Model,
    alpha: npt.ArrayLike,
    p_a: npt.ArrayLike,
    P_a: npt.ArrayLike,
    rtt: float,
    *,
    tau_s: float | None = None,
    t0: float | None = None,
) -> FloatOrArray:
    """F_a of Secs 4.3.1-4.3.3 (Figure 6a), beta = 0.5; zero at a symmetric equilibrium (eq 19).

    With C_a = G_n^2(alpha, p_a) sqrt(alpha/p_a) (G_n from eq 21 / 24 / 25 at p = p_a):

    * severe: C_a ((p_a/alpha - P_a) - tau_S sqrt(6 p_a alpha) P_a);
    * gentle: C_a (p_a/alpha - P_a);
    * hybrid: C_a (p_a/alpha - P_a) - C_a (9 T_0/(2R)) ((1.5 p_a + 112 p_a^3) P_a
      - p_a^2 (1 + 32 p_a^2)/(2 alpha)).

    ``P_a`` = dp'_a/dalpha' at alpha' = alpha (Figure 5b; may be negative in measured data).
    F_a = (sqrt(6) alpha / R) dG_n/dalpha' exactly, so its sign is that of the marginal gain.
    """
    m = _model(model)
    a = _alpha(alpha, "alpha", positive=True)
    p = _loss(p_a, "p_a")
    d = as_array(P_a, "P_a")
    r = float(_pos(rtt, "rtt"))
    ts = _tau_s_for(m, tau_s)
    tt = _t0_for(m, t0)
    g = np.asarray(red_goodput(m, p, a, ALPHA_GAME_BETA, r, tau_s=ts, t0=tt))
    ca = g**2 * np.sqrt(a / p)
    core = p / a - d
    if m == "severe":
        val = ca * (core - ts * np.sqrt(6.0 * p * a) * d)
    elif m == "gentle":
        val = ca * core
    else:
        extra = (1.5 * p + 112.0 * p**3) * d - p**2 * (1.0 + 32.0 * p**2) / (2.0 * a)
        val = ca * core - ca * (9.0 * tt / (2.0 * r)) * extra
    return as_output(val)


def f_beta(
    model: Model,
    beta: npt.ArrayLike,
    p_b: npt.ArrayLike,
    P_b: npt.ArrayLike,
    rtt: float,
    *,
    tau_s: float | None = None,
    t0: float | None = None,
    printed: bool = False,
) -> FloatOrArray:
    """F_b of Secs 4.3.1-4.3.3 (Figure 6b), alpha = 1; zero at a symmetric equilibrium (eq 23).

    With C_b = G_n^2(beta, p_b) sqrt((1-beta)/(p_b (1+beta))) (G_n from eq 22 corrected [3],
    eq 24 or eq 25 at p = p_b):

    * severe: C_b ((2p_b/(1-beta^2) - P_b) - tau_S sqrt(2 p_b (1+beta)/(1-beta)) P_b);
    * gentle: C_b (2p_b/(1-beta^2) - P_b);
    * hybrid (correction [4]): C_b [(2p/(1-beta^2) - P_b) - (3 T_0 P_b/R)(1+beta)(1.5p + 112p^3)
      + 3 T_0 (p^2 + 32 p^4) beta / (R (1-beta))]; ``printed=True`` leaves the last term outside
      C_b as in the paper.

    F_b = (sqrt(2)/R) dG_n/dbeta' exactly (corrected forms).
    """
    m = _model(model)
    b = _beta(beta, "beta")
    p = _loss(p_b, "p_b")
    d = as_array(P_b, "P_b")
    r = float(_pos(rtt, "rtt"))
    ts = _tau_s_for(m, tau_s)
    tt = _t0_for(m, t0)
    g = np.asarray(red_goodput(m, p, BETA_GAME_ALPHA, b, r, tau_s=ts, t0=tt))
    cb = g**2 * np.sqrt((1.0 - b) / (p * (1.0 + b)))
    core = 2.0 * p / (1.0 - b**2) - d
    if m == "severe":
        val = cb * (core - ts * np.sqrt(2.0 * p * (1.0 + b) / (1.0 - b)) * d)
    elif m == "gentle":
        val = cb * core
    else:
        mid = (3.0 * tt * d / r) * (1.0 + b) * (1.5 * p + 112.0 * p**3)
        last = 3.0 * tt * (p**2 + 32.0 * p**4) * b / (r * (1.0 - b))
        val = cb * (core - mid) + (last if printed else cb * last)
    return as_output(val)


def fig6(
    model: Model,
    alpha: npt.ArrayLike,
    p_a: npt.ArrayLike,
    P_a: npt.ArrayLike,
    beta: npt.ArrayLike,
    p_b: npt.ArrayLike,
    P_b: npt.ArrayLike,
    rtt: float,
    *,
    tau_s: float | None = None,
    t0: float | None = None,
) -> tuple[FloatOrArray, FloatOrArray]:
    """Figure 6: (F_a(alpha), F_b(beta)) from the measured Figure 5 series of one TCP variant.

    ``alpha``, ``p_a``, ``P_a`` (Figs 5a, 5b) broadcast together, as do ``beta``, ``p_b``,
    ``P_b`` (Figs 5c, 5d). Tahoe -> "severe" (needs ``tau_s``; ``rtt`` = Rbar), SACK and SACK +
    CHOKe+ -> "gentle", Reno -> "hybrid" (needs ``t0``). See :func:`f_alpha`, :func:`f_beta`.
    """
    fa = f_alpha(model, alpha, p_a, P_a, rtt, tau_s=tau_s, t0=t0)
    fb = f_beta(model, beta, p_b, P_b, rtt, tau_s=tau_s, t0=t0)
    return fa, fb


def first_zero_crossing(x: npt.ArrayLike, f: npt.ArrayLike) -> float:
    """First + to - sign change of f(x) by linear interpolation (nan if there is none).

    Figure 6 reading (Sec 4.3.1): F > 0 for x below the crossing => x_E >= crossing; F > 0
    throughout => alpha_E unbounded / beta_E -> 1. ``x`` must be strictly increasing.
    """
    xs = as_array(x, "x").ravel()
    fs = as_array(f, "f").ravel()
    if xs.size != fs.size:
        raise ValueError(f"x and f must have equal length, got {xs.size} and {fs.size}")
    if xs.size > 1 and np.any(np.diff(xs) <= 0):
        raise ValueError("x must be strictly increasing")
    for i in range(xs.size - 1):
        if fs[i] > 0 and fs[i + 1] <= 0:
            return float(xs[i] + (xs[i + 1] - xs[i]) * fs[i] / (fs[i] - fs[i + 1]))
    return math.nan


def red_marginal(
    model: Model,
    parameter: Parameter,
    x: npt.ArrayLike,
    p: npt.ArrayLike,
    dp: npt.ArrayLike,
    rtt: float,
    *,
    tau_s: float | None = None,
    t0: float | None = None,
) -> FloatOrArray:
    """dG_n/dx' at x' = x (eqs 19, 23): F_a R/(sqrt(6) alpha) for alpha, F_b R/sqrt(2) for beta.

    ``p`` = common loss rate at the symmetric point, ``dp`` = dp'/dx' there (P_a or P_b).
    """
    prm = _parameter(parameter)
    r = float(_pos(rtt, "rtt"))
    if prm == "alpha":
        a = _alpha(x, "alpha", positive=True)
        return as_output(
            np.asarray(f_alpha(model, a, p, dp, r, tau_s=tau_s, t0=t0)) * r / (6**0.5 * a)
        )
    fb = np.asarray(f_beta(model, x, p, dp, r, tau_s=tau_s, t0=t0))
    return as_output(fb * r / 2**0.5)


def red_deviation_goodput(
    model: Model,
    parameter: Parameter,
    x: float,
    x_dev: npt.ArrayLike,
    loss: LossFunction,
    rtt: float,
    *,
    tau_s: float | None = None,
    t0: float | None = None,
) -> FloatOrArray:
    """G_n(x', p'(x, x')): goodput of F_n at x' = ``x_dev`` while F_1..F_{n-1} play ``x``.

    Eq (21) / (22) / (24) / (25) with the loss rate ``loss(x, x_dev)`` (common value first for
    both games, correction [12]). alpha game: beta = 0.5; beta game: alpha = 1.
    """
    prm = _parameter(parameter)
    xd = np.atleast_1d(as_array(x_dev, "x_dev")).ravel()
    if prm == "alpha":
        _alpha(x, "alpha", positive=True)
        _alpha(xd, "x_dev", positive=True)
    else:
        _beta(x, "beta")
        _beta(xd, "x_dev")
    ps = np.array([float(loss(float(x), float(v))) for v in xd])
    if prm == "alpha":
        g = red_goodput(model, ps, xd, ALPHA_GAME_BETA, rtt, tau_s=tau_s, t0=t0)
    else:
        g = red_goodput(model, ps, BETA_GAME_ALPHA, xd, rtt, tau_s=tau_s, t0=t0)
    ga = np.asarray(g)
    return float(ga[0]) if np.ndim(x_dev) == 0 else ga


# --------------------------------------------------------------------------------------------
# Symmetric Nash equilibria
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SymmetricNE:
    """A symmetric equilibrium candidate x_E of the alpha game or the beta game.

    ``kind``: "interior" (root of the first-order condition where the marginal gain changes from
    + to -), "upper_bound" (marginal gain > 0 on the whole interval: alpha_E unbounded / beta_E ->
    1 within the model, ``value`` = upper end of the interval), "lower_bound" (< 0 throughout),
    "corner" (Hybrid alpha game: alpha = 1 is a best response to alpha = 1 although G_n is not
    differentiable there), "none" (no symmetric equilibrium found; ``value`` is nan).
    ``foc`` is the marginal function at ``value`` (an elasticity (x/G) dG_n/dx_n for the
    model-specific solvers).
    """

    value: float
    kind: Literal["interior", "upper_bound", "lower_bound", "corner", "none"]
    foc: float
    lo: float
    hi: float


def symmetric_ne(
    marginal: Callable[[float], float],
    lo: float,
    hi: float,
    *,
    points: int = 2001,
) -> SymmetricNE:
    """Solve the first-order condition marginal(x) = 0 of a symmetric game on [lo, hi].

    ``marginal(x)`` must have the sign of dG_n/dx_n at x_n = x with all other flows at x. The
    interval is scanned on ``points`` equally spaced values; the first + to - sign change is
    refined with brentq (xtol 1e-14 relative). Without one, the result is the upper end (marginal
    > 0 at hi) or the lower end.
    """
    a, b = float(as_array(lo, "lo")), float(as_array(hi, "hi"))
    if not a < b:
        raise ValueError(f"need lo < hi, got lo={lo!r}, hi={hi!r}")
    if points < 2:
        raise ValueError(f"points must be >= 2, got {points!r}")
    grid = np.linspace(a, b, int(points))
    vals = np.array([float(marginal(float(v))) for v in grid])
    if not np.all(np.isfinite(vals)):
        raise ValueError("marginal returned a non-finite value on the scan grid")
    for i in range(grid.size - 1):
        if vals[i] > 0 and vals[i + 1] <= 0:
            if vals[i + 1] == 0:
                root = float(grid[i + 1])
            else:
                root = float(
                    brentq(
                        marginal,
                        grid[i],
                        grid[i + 1],
                        xtol=1e-14 * max(1.0, abs(grid[i])),
                        rtol=4 * _EPS,
                        maxiter=500,
                    )
                )
            return SymmetricNE(root, "interior", float(marginal(root)), a, b)
    if vals[-1] > 0:
        return SymmetricNE(b, "upper_bound", float(vals[-1]), a, b)
    return SymmetricNE(a, "lower_bound", float(vals[0]), a, b)


def droptail_elasticity(
    model: Model,
    parameter: Parameter,
    x: npt.ArrayLike,
    n: int,
    capacity: float,
    *,
    tau_s: float = 0.0,
) -> FloatOrArray:
    """Elasticity (x/G_n) dG_n/dx_n at the symmetric drop-tail profile x_n = x (closed form).

    * gentle, alpha (eq 6): 1 - 1/n.
    * severe, alpha (Sec 4.2.2), tau = C/(n alpha):
      1 - 1/n - (tau/n) [1/(tau+1) - 3/(2 tau_S + 3 tau + 3)].
    * gentle / hybrid, beta (eqs 9, 11; Hybrid with alpha = 1 is gentle):
      beta/(1-beta) [2/(1+beta) - 1/n].
    * severe, beta, tau = 2C(1-beta)/n:
      beta/(1-beta) [2/(1+beta) - (1/n)(1 + tau/(tau+1) - tau(1+beta)/(tau_S + (1+beta)(tau+1)))].

    All are > 0 for n >= 2 (the severe alpha case because 2 tau_S tau < (n-1)(tau+1)(2 tau_S +
    3 tau + 3)), so none of these games has a finite interior symmetric equilibrium. The Hybrid
    alpha game is not differentiable at alpha_n = 1: see :func:`hybrid_best_deviation`.
    """
    m = _model(model)
    prm = _parameter(parameter)
    nn = _n(n)
    c = _pos(capacity, "capacity")
    ts = _nonneg(tau_s, "tau_s")
    if prm == "alpha":
        a = _alpha(x, "alpha", positive=True)
        if m == "gentle":
            return as_output(np.broadcast_to(1.0 - 1.0 / nn, np.broadcast(a, c).shape).copy())
        if m == "hybrid":
            raise ValueError("the Hybrid alpha game has no derivative at alpha_n = 1")
        tau = c / (nn * a)
        br = 1.0 / (tau + 1.0) - 3.0 / (2.0 * ts + 3.0 * tau + 3.0)
        return as_output(1.0 - 1.0 / nn - (tau / nn) * br)
    b = _beta(x, "beta")
    if m in ("gentle", "hybrid"):
        return as_output(b / (1.0 - b) * (2.0 / (1.0 + b) - 1.0 / nn) + 0.0 * c)
    tau = 2.0 * c * (1.0 - b) / nn
    br = 1.0 + tau / (tau + 1.0) - tau * (1.0 + b) / (ts + (1.0 + b) * (tau + 1.0))
    return as_output(b / (1.0 - b) * (2.0 / (1.0 + b) - br / nn))


def droptail_symmetric_ne(
    model: Model,
    parameter: Parameter,
    n: int,
    capacity: float,
    *,
    tau_s: float = 0.0,
    bounds: tuple[float, float] | None = None,
    alpha_max: float = 1e9,
) -> SymmetricNE:
    """Symmetric NE of the drop-tail alpha game (beta = 0.5) or beta game (alpha = 1), Sec 4.2.

    Gentle and Severe: solve :func:`droptail_elasticity` = 0 on ``bounds`` (default
    :data:`ALPHA_BOUNDS` / :data:`BETA_BOUNDS`) -> "upper_bound" (alpha_E unbounded, beta_E -> 1).
    Hybrid beta: as Gentle (Sec 4.2.3). Hybrid alpha: "corner" at alpha = 1 if no alpha_n > 1
    beats G_n(1) (:func:`hybrid_best_deviation`; alpha_n < 1 always loses by eq 6), else "none".
    """
    m = _model(model)
    prm = _parameter(parameter)
    nn = _n(n)
    c = float(_pos(capacity, "capacity"))
    if m == "hybrid" and prm == "alpha":
        ts = float(_nonneg(tau_s, "tau_s"))
        _, g = hybrid_best_deviation(nn, c, ts, alpha_max=alpha_max)
        if g <= 1.0:
            return SymmetricNE(1.0, "corner", math.nan, 1.0, float(alpha_max))
        return SymmetricNE(math.nan, "none", math.nan, 1.0, float(alpha_max))
    lo, hi = bounds if bounds is not None else (ALPHA_BOUNDS if prm == "alpha" else BETA_BOUNDS)
    return symmetric_ne(
        lambda v: float(droptail_elasticity(m, prm, v, nn, c, tau_s=tau_s)),
        lo,
        hi,
    )


def red_symmetric_ne(
    model: Model,
    parameter: Parameter,
    loss: LossFunction,
    rtt: float,
    *,
    dloss: Callable[[float], float] | None = None,
    tau_s: float | None = None,
    t0: float | None = None,
    bounds: tuple[float, float] | None = None,
    h: float = 1e-6,
    points: int = 2001,
) -> SymmetricNE:
    """Symmetric NE of the RED alpha game (beta = 0.5) or beta game (alpha = 1), eqs (19)-(25).

    ``loss(x, x_dev)`` is the common loss rate p' when F_1..F_{n-1} play x and F_n plays x_dev
    (the measured functions of Figure 5); ``dloss(x)`` its derivative in x_dev at x_dev = x
    (P_a / P_b), by default a central difference with step ``h`` max(1, |x|). The first-order
    condition F_a = 0 (resp. F_b = 0) is solved through the elasticity (x/G) dG_n/dx'
    (:func:`red_marginal`), which is returned as ``foc``.
    """
    m = _model(model)
    prm = _parameter(parameter)
    r = float(_pos(rtt, "rtt"))
    step = float(_pos(h, "h"))
    lo, hi = bounds if bounds is not None else (ALPHA_BOUNDS if prm == "alpha" else BETA_BOUNDS)

    def slope(v: float) -> float:
        if dloss is not None:
            return float(dloss(v))
        e = step * max(1.0, abs(v))
        return (float(loss(v, v + e)) - float(loss(v, v - e))) / (2.0 * e)

    def elasticity(v: float) -> float:
        p = float(loss(v, v))
        dg = float(red_marginal(m, prm, v, p, slope(v), r, tau_s=tau_s, t0=t0))
        if prm == "alpha":
            g = float(red_goodput(m, p, v, ALPHA_GAME_BETA, r, tau_s=tau_s, t0=t0))
        else:
            g = float(red_goodput(m, p, BETA_GAME_ALPHA, v, r, tau_s=tau_s, t0=t0))
        return v * dg / g

    return symmetric_ne(elasticity, lo, hi, points=points)
