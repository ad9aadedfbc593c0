"""Akella et al. 2002 (the TCP game): the run design and the best-response search.

The simulations are points of one dumbbell family (tcl/akella2002/dumbbell.tcl): a point is
(tcp, queue, alpha, beta, alpha_n, beta_n), F_1..F_{n-1} at (alpha, beta) and the deviating
flow F_n at (alpha_n, beta_n); R runs (seeds) per point. Every experiment of one fidelity
shares all other parameters and the seeds (checked by :func:`study`), so a point's runs are
made once and reused by every search and figure that needs them.

Best-response search (docs/akella2002.md A6, A7): iteration j sweeps F_n's parameter over the
candidates around the current common value x_j, picks with rule R1 on 85 % confidence
intervals of F_n's mean goodput (:func:`pick_r1`) and stops when the pick equals x_j. The
joint search alternates alpha and beta sweeps and stops when two consecutive sweeps leave the
point unchanged.

Which runs a sweep makes is the search method (:func:`stage_plan`): ``full``, the paper's
(every candidate, R runs each), or ``adaptive`` (a coarse pass, the paper's step near its
best, then more runs only for candidates whose CI still overlaps the best's; the same
candidates, seeds and pick rule, never more than R runs a point). An adaptive sweep is made
in stages: a stage's plan depends on the runs of the stages before it.

A search is one workflow job (rules/akella2002.smk): :func:`run_search` runs its stages and
iterations in this process and makes each stage's point runs through analysis.nsrun in a
pool of the job's threads (:class:`PointRunner`), into the run folders every search and
figure shares; a search job that was killed resumes from the runs it finished.

This module imports neither pandas nor the models. Usage (called by rules/akella2002.smk)::

    python -m analysis.akella2002_search --params JSON --ns NS --script TCL \
        [--threads N] [--cpu-log FILE] --out SEARCH.json
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np

from analysis import config as conf
from analysis import nsbatch, nsio, nsrun
from analysis.cli import params_json
from analysis.nsrun import format_value
from analysis.stats import Interval, intervals_overlap, mean_ci, paired_below

PAPER = "akella2002"
FAMILY = "dumbbell"
COORDS = ("tcp", "queue", "alpha", "beta", "alpha_n", "beta_n")
#: a point's folder under the fidelity's, from its coordinates (canonical numbers, fmt)
KEY_PATTERN = "{tcp}_{queue}/a{alpha}_b{beta}/an{alpha_n}_bn{beta_n}"
MODES = ("alpha", "beta", "joint")
FIDELITIES = ("smoke", "quick", "paper")
POINTS_ROOT = "results/akella2002/points"
#: a sensitivity variant's points: under the fidelity's folder, var/<variant>/<point key>
VARIANT_DIR = "var/{variant}/"
SEARCH_ROOT = "results/akella2002/search"
#: the bottleneck queues of the paper; searches behind any other queue are beyond the paper
#: (the report's chapter on today's queues, analysis/beyond.py), not in its tables
PAPER_QUEUES = ("droptail", "red", "chokeplus")
#: The figures of the best-response searches and the TCP and queue each shows (for its captions
#: and claims; which searches a figure reads is akella2002.items in the config).
NE_FIGURES = {
    "fig02": ("sack", "droptail"),
    "fig03": ("tahoe", "droptail"),
    "fig04": ("reno", "droptail"),
    "fig07": ("tahoe", "red"),
    "fig08": ("sack", "red"),
    "fig09": ("reno", "red"),
    "fig11": ("sack", "chokeplus"),
}
#: Figure 5/6 series: (tcp, queue) -> penalty model of Sec 3.3.
FIG5_SERIES = {
    ("tahoe", "red"): "severe",
    ("reno", "red"): "hybrid",
    ("sack", "red"): "gentle",
    ("sack", "chokeplus"): "gentle",
}
SEARCH_SETTINGS = (
    "ci_level",
    "alpha_halfwidth",
    "alpha_low",
    "beta_low",
    "beta_high",
    "pick",
    "joint",
    "joint_order",
    "adaptive_coarse_alpha",
    "adaptive_coarse_beta",
    "adaptive_round_runs",
)
#: How a sweep chooses its runs: the paper's (every candidate, every seed) or adaptive (a coarse
#: pass, the paper's step near its best, more seeds only while a comparison is undecided).
SEARCH_METHODS = ("full", "adaptive")
#: The joint search's first sweep: alpha_first (the primary order) or beta_first (sensitivity).
JOINT_ORDERS = ("alpha_first", "beta_first")
DERIVATIVE_SETTINGS = ("step", "tau_s", "tau_s_tested")


def fmt(x: float) -> str:
    """Canonical spelling of a strategy value in paths and on the ns command line (no
    exponent, at most 6 decimals, no trailing zeros): 15 -> '15', 0.98 -> '0.98'."""
    s = f"{round(float(x), 6):.6f}".rstrip("0").rstrip(".")
    return "0" if s in ("", "-0") else s


def canon(x: float) -> float:
    return float(fmt(x))


# --------------------------------------------------------------------------------------------
# points and the run design
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Point:
    """One simulated profile: F_1..F_{n-1} at (alpha, beta), F_n at (alpha_n, beta_n)."""

    tcp: str
    queue: str
    alpha: float
    beta: float
    alpha_n: float
    beta_n: float
    #: a sensitivity variant of the base parameters ("": the paper's set-up as configured)
    variant: str = ""

    def __post_init__(self) -> None:
        for k in ("alpha", "beta", "alpha_n", "beta_n"):
            object.__setattr__(self, k, canon(getattr(self, k)))

    @property
    def key(self) -> str:
        prefix = VARIANT_DIR.format(variant=self.variant) if self.variant else ""
        return prefix + KEY_PATTERN.format(**self.words())

    def words(self) -> dict[str, str]:
        """The coordinates as written in folder names and on the ns command line."""
        return {k: v if isinstance(v, str) else fmt(v) for k, v in self.params().items()}

    def symmetric(self) -> bool:
        return self.alpha == self.alpha_n and self.beta == self.beta_n

    def params(self) -> dict[str, object]:
        return {k: getattr(self, k) for k in COORDS}


def symmetric_point(tcp: str, queue: str, alpha: float, beta: float, variant: str = "") -> Point:
    return Point(tcp, queue, alpha, beta, alpha, beta, variant)


@dataclass(frozen=True)
class SearchSpec:
    """One best-response search at one fidelity (docs/akella2002.md A6, A7)."""

    name: str
    mode: str
    tcp: str
    queue: str
    start: tuple[float, float]
    ci_level: float
    alpha_halfwidth: float
    alpha_low: float
    beta_low: float
    beta_high: float
    pick: str
    max_iterations: int
    alpha_grid: tuple[float, ...] | None = None
    alpha_step: float | None = None
    beta_grid: tuple[float, ...] | None = None
    beta_step: float | None = None
    joint_order: str = "alpha_first"
    method: str = "full"
    coarse_alpha: float = 0.0
    coarse_beta: float = 0.0
    round_runs: int = 0
    #: the sensitivity variant the search runs under ("": the base parameters)
    variant: str = ""

    @property
    def max_sweeps(self) -> int:
        """The iteration cap in sweeps: an iteration of the joint search is an alpha sweep and
        a beta sweep (docs/akella2002.md A6: cap 10 outer iterations), of the others one sweep."""
        return self.max_iterations * (2 if self.mode == "joint" else 1)

    def coordinate(self, iteration: int) -> str:
        """The parameter F_n varies in this iteration (joint, ``joint_order`` alpha_first:
        alpha, beta, alpha, ...; beta_first: beta, alpha, beta, ...)."""
        if iteration < 1:
            raise ValueError(f"{self.name}: iterations count from 1, got {iteration}")
        if self.mode != "joint":
            return self.mode
        first, second = (
            ("alpha", "beta") if self.joint_order == "alpha_first" else ("beta", "alpha")
        )
        return first if iteration % 2 == 1 else second

    def candidates(self, coordinate: str, current: float) -> list[float]:
        """F_n's values in one sweep around the current common value (always included)."""
        cur = canon(current)
        if coordinate == "alpha":
            lo, hi = max(self.alpha_low, cur - self.alpha_halfwidth), cur + self.alpha_halfwidth
            grid, step = self.alpha_grid, self.alpha_step
        elif coordinate == "beta":
            lo, hi = self.beta_low, self.beta_high
            grid, step = self.beta_grid, self.beta_step
        else:
            raise ValueError(f"unknown coordinate '{coordinate}'")
        if grid is not None:
            vals = {canon(v) for v in grid if lo - 1e-9 <= v <= hi + 1e-9}
        else:
            assert step is not None
            k0, k1 = math.ceil(lo / step - 1e-9), math.floor(hi / step + 1e-9)
            vals = {canon(k * step) for k in range(k0, k1 + 1)}
        vals.add(cur)
        return sorted(vals)

    def points(self, iteration: int, current: tuple[float, float]) -> list[tuple[float, Point]]:
        """(F_n's value, point) of every candidate of one iteration."""
        a, b = canon(current[0]), canon(current[1])
        coord = self.coordinate(iteration)
        out = []
        for v in self.candidates(coord, a if coord == "alpha" else b):
            an, bn = (v, b) if coord == "alpha" else (a, v)
            out.append((v, Point(self.tcp, self.queue, a, b, an, bn, self.variant)))
        return out


@dataclass(frozen=True)
class DerivativeSpec:
    """A Figure 5 series: symmetric points at each x and F_n at x -+ step."""

    name: str
    parameter: str
    step: float
    tau_s: float
    points: tuple[Point, ...]


@dataclass(frozen=True)
class Study:
    """The resolved run design of the paper at one fidelity."""

    fidelity: str
    base: dict = field(hash=False)
    seeds: tuple[int, ...]
    searches: dict = field(hash=False)  # name -> SearchSpec
    derivatives: dict = field(hash=False)  # name -> DerivativeSpec
    sweeps: dict = field(hash=False)  # name -> tuple[Point, ...] (Figure 10)
    #: seeds per point job (the adaptive searches' round of runs; 0: all seeds in one job)
    batch: int = 0
    #: sensitivity variants: name -> the base parameters it changes (:func:`sensitivity`)
    variants: dict = field(default_factory=dict, hash=False)

    @property
    def seed_batches(self) -> list[tuple[int, ...]]:
        """The seeds of each job of a point: a point's runs are made batch by batch, so an
        adaptive search asks for a point's first k batches only."""
        b = self.batch if 0 < self.batch < len(self.seeds) else len(self.seeds)
        return [tuple(self.seeds[i : i + b]) for i in range(0, len(self.seeds), b)]

    def search(self, name: str, method: str | None = None) -> SearchSpec:
        """A search as configured, or made with the other method (``method``)."""
        spec = self.searches[name]
        if method is None or method == spec.method:
            return spec
        if method not in SEARCH_METHODS:
            raise ValueError(f"unknown search method '{method}'")
        return replace(spec, method=method)

    def point_dir(self, point: Point) -> str:
        return f"{POINTS_ROOT}/{self.fidelity}/{point.key}"

    def summaries(self, point: Point, runs: int | None = None) -> list[str]:
        """The runs of one point: all, or its first ``runs`` seeds."""
        seeds = self.seeds if runs is None else self.seeds[:runs]
        return [f"{self.point_dir(point)}/s{s}/summary.json" for s in seeds]

    def variant_base(self, variant: str = "") -> dict[str, object]:
        """The base parameters under a sensitivity variant ("": as configured)."""
        if not variant:
            return dict(self.base)
        if variant not in self.variants:
            raise ValueError(f"unknown sensitivity variant '{variant}'")
        return {**self.base, **self.variants[variant]}

    def point_params(self, point: Point) -> dict[str, object]:
        """Every parameter of one run but the seed, in the experiment script's terms."""
        return {**self.variant_base(point.variant), **point.params()}

    def run_params(self, point: Point, seed: int) -> dict[str, str]:
        """One run's ns parameters: the words of :meth:`point_args`, then the seed."""
        words = self.point_args(point).split(" ")
        params = dict(w.split("=", 1) for w in words)
        if len(params) != len(words) or "seed" in params:
            raise ValueError(f"{point.key}: ns arguments not one key=value each: {words}")
        return {**params, "seed": str(seed)}

    def runs(self, points: Sequence[Point]) -> list[tuple[Path, dict[str, str]]]:
        """Every run of ``points`` (all seeds), as :func:`analysis.nsbatch.run_pool` takes them."""
        return [
            (Path(self.point_dir(p)) / f"s{s}", self.run_params(p, s))
            for p in points
            for s in self.seeds
        ]

    def point_args(self, point: Point) -> str:
        """The ns command line (key=value words, no seed) of one point's runs: the base values
        of its variant, then its coordinates (canonical numbers, as in its folder)."""
        words = [f"{k}={format_value(v)}" for k, v in self.variant_base(point.variant).items()]
        words += [f"{k}={v}" for k, v in point.words().items()]
        return " ".join(words)

    def search_dir(self, name: str, method: str | None = None) -> str:
        """A search's records: per fidelity and method (both can be kept side by side)."""
        return f"{SEARCH_ROOT}/{self.fidelity}/{self.search(name, method).method}/{name}"

    def figure_points(self, names: Sequence[str]) -> list[Point]:
        out: list[Point] = []
        for name in names:
            if name in self.derivatives:
                out += list(self.derivatives[name].points)
            else:
                out += list(self.sweeps[name])
        return sorted(set(out), key=lambda p: p.key)


def _setting(design: Mapping, name: str, where: str) -> object:
    s = design.get("settings", {}).get(name)
    if not isinstance(s, Mapping) or "value" not in s or "status" not in s:
        raise conf.ConfigError(
            f"config: '{where}.settings.{name}' must be "
            f"{{value: ..., status: ..., reason|source: ...}}"
        )
    if s["status"] not in ("stated", "assumed", "reconstructed", "derived"):
        raise conf.ConfigError(
            f"config: '{where}.settings.{name}.status' = {s['status']!r} is not allowed"
        )
    if s["status"] != "stated" and not s.get("reason"):
        raise conf.ConfigError(f"config: '{where}.settings.{name}' is {s['status']}: give a reason")
    return s["value"]


def _num(
    v: object, where: str, lo: float, hi: float, *, open_lo: bool = False, open_hi: bool = False
) -> float:
    ok = isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(float(v))
    x = float(v) if ok else math.nan  # type: ignore[arg-type]
    if ok:
        ok = (x > lo if open_lo else x >= lo) and (x < hi if open_hi else x <= hi)
    if not ok:
        lb = "(" if open_lo else "["
        rb = ")" if open_hi else "]"
        raise conf.ConfigError(
            f"config: '{where}' = {v!r} must be a number in {lb}{lo:g}, {hi:g}{rb}"
        )
    return x


def check_run_params(params: Mapping[str, object], where: str) -> None:
    """Constraints of the TCP game the parameter types cannot express."""
    n = params.get("n")
    if not isinstance(n, int) or isinstance(n, bool) or n < 2:
        raise conf.ConfigError(f"config: '{where}': n = {n!r}; the TCP game needs n >= 2 flows")
    for k in ("alpha", "alpha_n"):
        _num(params.get(k), f"{where}: {k}", 0.0, math.inf)
    for k in ("beta", "beta_n"):
        _num(params.get(k), f"{where}: {k}", 0.0, 1.0, open_lo=True, open_hi=True)
    if not float(params["warmup"]) < float(params["duration"]):  # type: ignore[arg-type]
        raise conf.ConfigError(f"config: '{where}': warmup must be shorter than duration")
    if not float(params["start_max"]) < float(params["warmup"]):  # type: ignore[arg-type]
        raise conf.ConfigError(f"config: '{where}': start_max must be below warmup")


def check_values(config: Mapping) -> None:
    """The game's constraints on every value the config writes for n, alpha, beta, alpha_n,
    beta_n (paper defaults, experiment and fidelity sets, sweeps), at every fidelity, so a
    bad value stops the workflow whatever fidelity is chosen."""
    pconf = config[PAPER]
    found: list[tuple[str, str, object]] = [
        (f"{PAPER}.parameters.{k}", k, p["value"]) for k, p in pconf["parameters"].items()
    ]
    for name, exp in pconf["experiments"].items():
        e = f"{PAPER}.experiments.{name}"
        found += [(f"{e}.set.{k}", k, v) for k, v in exp.get("set", {}).items()]
        for fid, level in exp["fidelity"].items():
            w = f"{e}.fidelity.{fid}"
            found += [(f"{w}.set.{k}", k, v) for k, v in level.get("set", {}).items()]
            found += [
                (f"{w}.sweep.{k}", k, v) for k, vs in level.get("sweep", {}).items() for v in vs
            ]
    for where, k, v in found:
        if k == "n" and (not isinstance(v, int) or isinstance(v, bool) or v < 2):
            raise conf.ConfigError(f"config: '{where}' = {v!r}: the TCP game needs n >= 2 flows")
        if k in ("alpha", "alpha_n"):
            _num(v, where, 0.0, math.inf)
        if k in ("beta", "beta_n"):
            _num(v, where, 0.0, 1.0, open_lo=True, open_hi=True)


def _grid(
    level: Mapping, name: str, where: str, lo: float, hi: float, open_: bool
) -> tuple[tuple[float, ...] | None, float | None]:
    g, s = level.get(f"{name}_grid"), level.get(f"{name}_step")
    if (g is None) == (s is None):
        raise conf.ConfigError(
            f"config: '{where}': give exactly one of {name}_grid and {name}_step"
        )
    if g is not None:
        if not isinstance(g, list) or not g:
            raise conf.ConfigError(f"config: '{where}.{name}_grid' must be a non-empty list")
        vals = tuple(
            _num(v, f"{where}.{name}_grid", lo, hi, open_lo=open_, open_hi=open_) for v in g
        )
        return vals, None
    return None, _num(s, f"{where}.{name}_step", 0.0, math.inf, open_lo=True)


def search_spec(
    config: Mapping, name: str, fidelity: str, start: Mapping[str, object]
) -> SearchSpec | None:
    """Resolve and check the search of experiment ``name`` at ``fidelity`` (None: the
    search is not made at this fidelity, ``skip: true``)."""
    where = f"{PAPER}.experiments.{name}.design"
    d = config[PAPER]["experiments"][name]["design"]
    mode = d.get("search")
    if mode not in MODES:
        raise conf.ConfigError(f"config: '{where}.search' = {mode!r}; allowed: {', '.join(MODES)}")
    unknown = set(d) - {"search", "settings", "fidelity"}
    unknown |= set(d.get("settings", {})) - set(SEARCH_SETTINGS)
    adaptive_extra = sorted(k for k in unknown if k.startswith("adaptive_"))
    if adaptive_extra:
        raise conf.ConfigError(
            f"config: '{where}.settings.{adaptive_extra[0]}': the adaptive search has no such "
            "setting; it changes only which runs are made (adaptive_coarse_alpha, "
            "adaptive_coarse_beta, adaptive_round_runs), never the paper's decision rule "
            "(settings.ci_level, settings.pick) or its runs per point (the fidelity's seeds)"
        )
    if unknown:
        raise conf.ConfigError(
            f"config: unknown key(s) {', '.join(sorted(unknown))} under '{where}'"
        )
    vals = {k: _setting(d, k, where) for k in SEARCH_SETTINGS}
    ci = _num(vals["ci_level"], f"{where}.settings.ci_level", 0, 1, open_lo=True, open_hi=True)
    half = _num(
        vals["alpha_halfwidth"], f"{where}.settings.alpha_halfwidth", 0, math.inf, open_lo=True
    )
    alow = _num(vals["alpha_low"], f"{where}.settings.alpha_low", 0, math.inf)
    blo = _num(vals["beta_low"], f"{where}.settings.beta_low", 0, 1, open_lo=True, open_hi=True)
    bhi = _num(vals["beta_high"], f"{where}.settings.beta_high", 0, 1, open_lo=True, open_hi=True)
    if not blo < bhi:
        raise conf.ConfigError(f"config: '{where}.settings': beta_low must be below beta_high")
    if vals["pick"] != "r1":
        raise conf.ConfigError(f"config: '{where}.settings.pick' = {vals['pick']!r}; allowed: r1")
    if vals["joint"] != "coordinate":
        raise conf.ConfigError(
            f"config: '{where}.settings.joint' = {vals['joint']!r}; allowed: coordinate"
        )
    if vals["joint_order"] not in JOINT_ORDERS:
        raise conf.ConfigError(
            f"config: '{where}.settings.joint_order' = {vals['joint_order']!r}; allowed: "
            + ", ".join(JOINT_ORDERS)
        )
    coarse_a = _num(
        vals["adaptive_coarse_alpha"],
        f"{where}.settings.adaptive_coarse_alpha",
        0,
        math.inf,
        open_lo=True,
    )
    coarse_b = _num(
        vals["adaptive_coarse_beta"],
        f"{where}.settings.adaptive_coarse_beta",
        0,
        1,
        open_lo=True,
        open_hi=True,
    )
    rr = vals["adaptive_round_runs"]
    if not isinstance(rr, int) or isinstance(rr, bool) or rr < 2:
        raise conf.ConfigError(
            f"config: '{where}.settings.adaptive_round_runs' = {rr!r} must be an integer >= 2 "
            "(a confidence interval needs two runs)"
        )
    levels = d.get("fidelity", {})
    if set(levels) != set(FIDELITIES):
        raise conf.ConfigError(f"config: '{where}.fidelity' must have exactly smoke, quick, paper")
    lw = f"{where}.fidelity.{fidelity}"
    level = levels[fidelity]
    if level.get("skip") is not None:
        if level != {"skip": True}:
            raise conf.ConfigError(f"config: '{lw}': a skipped level has only 'skip: true'")
        return None
    extra = set(level) - {
        "alpha_grid",
        "alpha_step",
        "beta_grid",
        "beta_step",
        "max_iterations",
        "search_method",
    }
    if extra:
        raise conf.ConfigError(f"config: unknown key(s) {', '.join(sorted(extra))} under '{lw}'")
    ag, astep = _grid(level, "alpha", lw, 0.0, math.inf, False)
    bg, bstep = _grid(level, "beta", lw, 0.0, 1.0, True)
    mi = level.get("max_iterations")
    if not isinstance(mi, int) or isinstance(mi, bool) or mi < 1:
        raise conf.ConfigError(f"config: '{lw}.max_iterations' = {mi!r} must be an integer >= 1")
    method = level.get("search_method")
    if method not in SEARCH_METHODS:
        raise conf.ConfigError(
            f"config: '{lw}.search_method' = {method!r}; allowed: {', '.join(SEARCH_METHODS)}"
        )
    a0, b0 = float(start["alpha"]), float(start["beta"])  # type: ignore[arg-type]
    if not blo <= b0 <= bhi:
        raise conf.ConfigError(
            f"config: '{where}': start beta {b0:g} is outside [beta_low, beta_high]"
        )
    return SearchSpec(
        name=name,
        mode=str(mode),
        tcp=str(start["tcp"]),
        queue=str(start["queue"]),
        start=(canon(a0), canon(b0)),
        ci_level=ci,
        alpha_halfwidth=half,
        alpha_low=alow,
        beta_low=blo,
        beta_high=bhi,
        pick="r1",
        max_iterations=mi,
        alpha_grid=ag,
        alpha_step=astep,
        beta_grid=bg,
        beta_step=bstep,
        joint_order=str(vals["joint_order"]),
        method=str(method),
        coarse_alpha=coarse_a,
        coarse_beta=coarse_b,
        round_runs=rr,
    )


def _derivative_points(
    parameter: str, step: float, p: Mapping[str, object], lo: float, hi: float
) -> list[Point]:
    tcp, queue = str(p["tcp"]), str(p["queue"])
    a, b = float(p["alpha"]), float(p["beta"])  # type: ignore[arg-type]
    x = a if parameter == "alpha" else b
    xs = [x] + [v for v in (x - step, x + step) if lo - 1e-9 <= v <= hi + 1e-9]
    out = []
    for v in xs:
        an, bn = (v, b) if parameter == "alpha" else (a, v)
        out.append(Point(tcp, queue, a, b, an, bn))
    return out


# --------------------------------------------------------------------------------------------
# sensitivity to the parameters the paper does not state (config akella2002.sensitivity)
# --------------------------------------------------------------------------------------------

#: a variant's name: a folder name and the suffix of its searches' names (search@variant)
VARIANT_NAME = re.compile(r"^[a-z][a-z0-9]*$")
VARIANT_SEP = "@"


@dataclass(frozen=True)
class SensValue:
    """One tested value of an unstated parameter: the base parameters it changes."""

    parameter: str  # the sensitivity parameter (rtt, buffer, ...), not an ns parameter
    name: str  # the variant's name
    label: str
    set: tuple[tuple[str, object], ...]
    reason: str


@dataclass(frozen=True)
class Sensitivity:
    """The sensitivity design at one fidelity: the searches rerun, the tested values of each
    parameter, and the off rows each parameter is blamed for (``explains``)."""

    searches: tuple[str, ...]
    parameters: dict = field(hash=False)  # parameter -> (title, default label, queues, modes)
    values: tuple[SensValue, ...]  # the values made at this fidelity
    explains: dict = field(hash=False)  # published key -> tuple of parameters

    def variants(self) -> dict[str, dict[str, object]]:
        return {v.name: dict(v.set) for v in self.values}

    def applies(self, value: SensValue, spec: SearchSpec) -> bool:
        _, _, queues, modes = self.parameters[value.parameter]
        return spec.queue in queues and spec.mode in modes


def _is_sweep(exp: Mapping) -> bool:
    """A sweep: no design, or a design of settings only (read by its analysis step)."""
    design = exp.get("design")
    return design is None or set(design) == {"settings"}


def sweep_variant(diff: Mapping[str, object]) -> str:
    """The name (and folder, VARIANT_DIR) of a sweep's point whose base parameters differ from
    the searches' by ``diff``: each parameter, '-', its value, in name order, joined by '__'
    ({'n': 20, 'choke_k': 1} -> 'choke_k-1__n-20')."""
    if not diff:
        raise ValueError("a sweep variant changes at least one base parameter")
    words = []
    for k in sorted(diff):
        v = diff[k]
        word = (
            fmt(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else format_value(v)
        )
        if not re.fullmatch(r"[a-z0-9_]+-[a-z0-9.]+", f"{k}-{word}"):
            raise conf.ConfigError(
                f"config: {PAPER}: a swept base parameter {k} = {v!r} cannot name a folder"
            )
        words.append(f"{k}-{word}")
    return "__".join(words)


def _base_diff(params: Mapping[str, object], base: Mapping[str, object]) -> dict[str, object]:
    """The base parameters a sweep run sets otherwise (its coordinates and seed aside)."""
    return {k: v for k, v in params.items() if k not in (*COORDS, "seed") and base.get(k) != v}


def variant_search(name: str, variant: str) -> str:
    return f"{name}{VARIANT_SEP}{variant}"


def sensitivity(config: Mapping, fidelity: str) -> Sensitivity | None:
    """Resolve and check ``akella2002.sensitivity`` (None when the config has none). A
    variant may change only parameters the paper does not state (status assumed or derived):
    a stated value is used as stated."""
    pconf = config[PAPER]
    sc = pconf.get("sensitivity")
    if sc is None:
        return None
    where = f"{PAPER}.sensitivity"
    if not isinstance(sc, Mapping):
        raise conf.ConfigError(f"config: '{where}' must be a mapping")
    unknown = set(sc) - {"searches", "parameters", "explains", "fidelity"}
    if unknown:
        raise conf.ConfigError(
            f"config: unknown key(s) {', '.join(sorted(unknown))} under '{where}'"
        )
    exps = pconf["experiments"]
    searches = sc.get("searches")
    if not isinstance(searches, list) or not searches:
        raise conf.ConfigError(f"config: '{where}.searches' must be a non-empty list")
    for n in searches:
        if n not in exps or "search" not in exps[n].get("design", {}):
            raise conf.ConfigError(f"config: '{where}.searches' names '{n}', which is no search")
    known = pconf["parameters"]
    all_queues = sorted(
        {str(e["set"]["queue"]) for e in exps.values() if "queue" in e.get("set", {})}
    )
    params: dict[str, tuple[str, str, tuple[str, ...], tuple[str, ...]]] = {}
    values: list[SensValue] = []
    for prm, d in (sc.get("parameters") or {}).items():
        pw = f"{where}.parameters.{prm}"
        extra = set(d) - {"title", "default", "queues", "modes", "values"}
        if extra:
            raise conf.ConfigError(
                f"config: unknown key(s) {', '.join(sorted(extra))} under '{pw}'"
            )
        queues = tuple(d.get("queues", all_queues))
        # the searches a parameter can change: e.g. not the alpha searches (beta = 0.5) for
        # how the decrease by beta is applied, where halving is multiplying by beta
        modes = tuple(d.get("modes", MODES))
        if not modes or set(modes) - set(MODES):
            raise conf.ConfigError(
                f"config: '{pw}.modes' = {list(modes)!r}: a non-empty list of {', '.join(MODES)}"
            )
        params[prm] = (str(d.get("title", prm)), str(d.get("default", "")), queues, modes)
        vals = d.get("values")
        if not isinstance(vals, Mapping) or not vals:
            raise conf.ConfigError(f"config: '{pw}.values' must name at least one value")
        for vname, v in vals.items():
            vw = f"{pw}.values.{vname}"
            if not VARIANT_NAME.match(str(vname)):
                raise conf.ConfigError(
                    f"config: '{vw}': a value's name must be lower-case letters and digits"
                )
            if set(v) - {"label", "set", "reason"} or not v.get("set") or not v.get("reason"):
                raise conf.ConfigError(f"config: '{vw}' must be {{label, set: {{...}}, reason}}")
            for k, x in v["set"].items():
                if k not in known:
                    raise conf.ConfigError(f"config: '{vw}.set.{k}': no such parameter")
                if known[k]["status"] == "stated" or k in COORDS:
                    raise conf.ConfigError(
                        f"config: '{vw}.set.{k}': {k} is stated by the paper; a sensitivity "
                        "value varies only parameters the paper does not state"
                    )
                if type(x) is not type(known[k]["value"]) and not (
                    isinstance(x, (int, float)) and isinstance(known[k]["value"], (int, float))
                ):
                    raise conf.ConfigError(f"config: '{vw}.set.{k}' = {x!r} has the wrong type")
            if any(w.name == vname for w in values):
                raise conf.ConfigError(f"config: '{vw}': the value name is used twice")
            values.append(
                SensValue(
                    prm,
                    str(vname),
                    str(v.get("label", vname)),
                    tuple(sorted(v["set"].items())),
                    str(v["reason"]),
                )
            )
    if not values:
        raise conf.ConfigError(f"config: '{where}.parameters' must name at least one parameter")
    explains: dict[str, tuple[str, ...]] = {}
    for key, prms in (sc.get("explains") or {}).items():
        bad = [x for x in prms if x not in params]
        if bad:
            raise conf.ConfigError(
                f"config: '{where}.explains.{key}' names '{bad[0]}', which is no sensitivity "
                "parameter"
            )
        explains[str(key)] = tuple(prms)
    levels = sc.get("fidelity") or {}
    if set(levels) - set(FIDELITIES):
        raise conf.ConfigError(f"config: '{where}.fidelity' has only smoke, quick, paper")
    names = {v.name for v in values}
    for fid, lv in levels.items():  # every fidelity's level is checked, whichever runs
        if set(lv or {}) - {"values"}:
            raise conf.ConfigError(f"config: '{where}.fidelity.{fid}': only 'values' allowed")
        bad = [x for x in (lv or {}).get("values", []) if x not in names]
        if bad:
            raise conf.ConfigError(
                f"config: '{where}.fidelity.{fid}.values' names '{bad[0]}', no such value"
            )
    level = levels.get(fidelity) or {}
    if "values" in level:
        values = [v for v in values if v.name in level["values"]]
    return Sensitivity(tuple(searches), params, tuple(values), explains)


def study(config: Mapping, fidelity: str) -> Study:
    """The run design at ``fidelity``; raises ConfigError naming the key for anything that
    must not run (also for the other fidelities' search settings)."""
    check_values(config)
    pconf = config[PAPER]
    exps = pconf["experiments"]
    base: dict | None = None
    seeds: tuple[int, ...] | None = None
    first = ""
    searches: dict[str, SearchSpec] = {}
    derivs: dict[str, DerivativeSpec] = {}
    sweeps: dict[str, tuple[Point, ...]] = {}
    # a sweep may set or sweep other parameters than the coordinates (n, say): its points are
    # then variants of the base (sweep_variant), so the searches and derivative sets, which
    # fix the base, come first
    swept: dict[str, dict[str, object]] = {}
    ordered = sorted(exps.items(), key=lambda e: _is_sweep(e[1]))
    for name, exp in ordered:
        if exp["family"] != FAMILY:
            raise conf.ConfigError(f"config: '{PAPER}.experiments.{name}.family' must be {FAMILY}")
        runs = conf.runs(config, PAPER, name, fidelity)
        for r in runs:
            check_run_params(r.params, f"{PAPER}.experiments.{name} at {fidelity}")
            b = {k: v for k, v in r.params.items() if k not in (*COORDS, "seed")}
            if base is None:
                base, first = b, name
            elif b != base and not _is_sweep(exp):
                diff = sorted(k for k in set(b) | set(base) if b.get(k) != base.get(k))
                raise conf.ConfigError(
                    f"config: '{PAPER}.experiments.{name}' at {fidelity}: parameter(s) "
                    f"{', '.join(diff)} differ from '{first}'; every experiment of {PAPER} must "
                    "share all parameters but tcp, queue, alpha, beta, alpha_n, beta_n (runs "
                    "are shared between figures)"
                )
        s = tuple(sorted({r.seed for r in runs}))
        if seeds is None:
            seeds = s
        elif s != seeds:
            raise conf.ConfigError(
                f"config: '{PAPER}.experiments.{name}.fidelity.{fidelity}.seeds' must equal "
                f"'{first}''s seeds {list(seeds)} (runs are shared between figures)"
            )
        design = exp.get("design")
        where = f"{PAPER}.experiments.{name}.design"
        if _is_sweep(exp):
            for k in (design or {}).get("settings", {}):
                _setting(design, k, where)  # a sweep's own settings: for its analysis step
            pts = []
            for r in runs:
                if r.seed != s[0]:
                    continue
                diff = _base_diff(r.params, base)
                variant = sweep_variant(diff) if diff else ""
                if variant:
                    swept[variant] = diff
                pts.append(Point(**{k: r.params[k] for k in COORDS}, variant=variant))
            sweeps[name] = tuple(pts)
        elif "search" in design:
            if exp["fidelity"][fidelity].get("sweep"):
                raise conf.ConfigError(
                    f"config: '{PAPER}.experiments.{name}': a search has no sweep"
                )
            for fid in FIDELITIES:  # check every fidelity's search settings now
                other = search_spec(config, name, fid, runs[0].params)
                n_fid = len(exp["fidelity"][fid]["seeds"])
                if other is not None and other.method == "adaptive" and other.round_runs > n_fid:
                    raise conf.ConfigError(
                        f"config: '{where}.settings.adaptive_round_runs' = {other.round_runs}: "
                        f"more runs per round than the {n_fid} runs per point at {fid} (the "
                        "adaptive search never makes more runs per point than the full one)"
                    )
            spec = search_spec(config, name, fidelity, runs[0].params)
            if spec is not None:
                searches[name] = spec
        elif "derivative" in design:
            prm = design["derivative"]
            if prm not in ("alpha", "beta"):
                raise conf.ConfigError(
                    f"config: '{where}.derivative' = {prm!r}; allowed: alpha, beta"
                )
            unknown = (set(design) - {"derivative", "settings", "fidelity"}) | (
                set(design.get("settings", {})) - set(DERIVATIVE_SETTINGS)
            )
            if unknown:
                raise conf.ConfigError(
                    f"config: unknown key(s) {', '.join(sorted(unknown))} under '{where}'"
                )
            step = _num(
                _setting(design, "step", where), f"{where}.settings.step", 0, math.inf, open_lo=True
            )
            # a fidelity may use a coarser step (noisier runs need a wider difference)
            for fid, lv in design.get("fidelity", {}).items():
                if fid not in FIDELITIES or set(lv) - {"step"}:
                    raise conf.ConfigError(f"config: '{where}.fidelity.{fid}': only 'step' allowed")
                v = _num(lv.get("step"), f"{where}.fidelity.{fid}.step", 0, math.inf, open_lo=True)
                if fid == fidelity:
                    step = v
            tau_s = _num(_setting(design, "tau_s", where), f"{where}.settings.tau_s", 0, math.inf)
            # the tau_S values Figure 6(a)'s crossing is also read under (alpha series only)
            if "tau_s_tested" in design.get("settings", {}):
                tested = _setting(design, "tau_s_tested", where)
                if not isinstance(tested, list) or not tested:
                    raise conf.ConfigError(
                        f"config: '{where}.settings.tau_s_tested' must be a list of tau_S values"
                    )
                for i, t in enumerate(tested):
                    _num(t, f"{where}.settings.tau_s_tested[{i}]", 0, math.inf)
            # neighbours stay inside the game's strategies: alpha >= 1 (Sec 3.1), 0 < beta < 1
            lo, hi = (1.0, math.inf) if prm == "alpha" else (1e-6, 1 - 1e-6)
            pts: list[Point] = []
            for r in runs:
                if r.seed == s[0]:
                    pts += _derivative_points(prm, step, r.params, lo, hi)
            derivs[name] = DerivativeSpec(
                name, prm, step, tau_s, tuple(sorted(set(pts), key=lambda p: p.key))
            )
        else:
            raise conf.ConfigError(f"config: '{where}' needs 'search' or 'derivative'")
    if base is None or seeds is None:
        raise conf.ConfigError(f"config: '{PAPER}.experiments' is empty")
    rounds = {s.round_runs for s in searches.values()}
    if len(rounds) > 1:
        raise conf.ConfigError(
            f"config: '{PAPER}': every search's adaptive_round_runs must be equal at {fidelity} "
            f"(got {sorted(rounds)}): a point's runs are made in batches of that many seeds, "
            "shared by every search and figure"
        )
    batch = rounds.pop() if rounds else 0
    sens = sensitivity(config, fidelity)
    variants: dict[str, dict[str, object]] = dict(swept)
    if sens is not None:
        clash = sorted(set(variants) & set(sens.variants()))
        if clash:
            raise conf.ConfigError(
                f"config: '{PAPER}.sensitivity': value(s) {', '.join(clash)} are named as a "
                "sweep's variant of the base parameters; rename them"
            )
        variants.update(sens.variants())
        for name in sens.searches:
            spec = searches.get(name)
            if spec is None:  # not made at this fidelity
                continue
            for v in sens.values:
                if sens.applies(v, spec):
                    vs = variant_search(name, v.name)
                    searches[vs] = replace(spec, name=vs, variant=v.name)
    return Study(fidelity, base, seeds, searches, derivs, sweeps, batch, variants)


# --------------------------------------------------------------------------------------------
# reading runs
# --------------------------------------------------------------------------------------------


def read_point_rows(point_dir: Path | str, seeds: Sequence[int]) -> list[dict]:
    """Per-flow window metrics of every run of one point, one dict per flow and run: seed,
    flow, n, goodput (Mbps), loss (drops/arrivals at the bottleneck; nan without arrivals),
    delivered, arrivals, drops, timeouts, srtt and rto (s: max(min_rto, srtt + 4 rttvar)),
    fair_share (C/n, Mbps) and the point's coordinates as p_<name>."""
    rows: list[dict] = []
    for s in seeds:
        d = Path(point_dir) / f"s{s}"
        summary = nsio.read_summary(d)
        p = summary["params"]
        window = float(summary["results"]["window_s"])
        n = int(p["n"])
        for f in nsio.read_rows(d / "flows.tsv"):
            rows.append(
                {
                    **f,
                    "flow": int(f["flow"]),
                    "goodput": f["delivered"] * float(p["pkt_size"]) * 8.0 / window / 1e6,
                    "loss": f["drops"] / f["arrivals"] if f["arrivals"] > 0 else math.nan,
                    "rto": max(float(p["min_rto"]), f["srtt"] + 4.0 * f["rttvar"]),
                    "seed": int(p["seed"]),
                    "n": n,
                    "fair_share": float(p["bw"]) / 1e6 / n,
                    **{f"p_{k}": p[k] for k in COORDS},
                }
            )
    if not rows:
        raise ValueError(f"{point_dir}: no seeds given")
    return rows


def fn_goodputs(rows: Sequence[Mapping]) -> np.ndarray:
    """F_n's goodput (Mbps) in each run of a point (ordered by seed)."""
    fn = sorted((r for r in rows if r["flow"] == r["n"]), key=lambda r: r["seed"])
    return np.array([r["goodput"] for r in fn], dtype=float)


def profile_metrics(rows: Sequence[Mapping]) -> dict[str, float]:
    """Average per-flow goodput (Mbps) and per-flow loss rate over all flows and runs, the
    aggregate loss rate, F_n's and F_1..F_{n-1}'s means, and the fair share C/n."""

    def mean(key: str, sel: Sequence[Mapping]) -> float:
        v = np.array([r[key] for r in sel], dtype=float)
        v = v[~np.isnan(v)]
        return float(v.mean()) if v.size else math.nan

    fn = [r for r in rows if r["flow"] == r["n"]]
    others = [r for r in rows if r["flow"] != r["n"]]
    arrivals = sum(r["arrivals"] for r in rows)
    return {
        "goodput": mean("goodput", rows),
        "loss": mean("loss", rows),
        "aggregate_loss": sum(r["drops"] for r in rows) / max(arrivals, 1.0),
        "goodput_fn": mean("goodput", fn),
        "loss_fn": mean("loss", fn),
        "goodput_others": mean("goodput", others),
        "loss_others": mean("loss", others),
        "srtt": mean("srtt", rows),
        "rto": mean("rto", rows),
        "timeouts_per_flow": mean("timeouts", rows),
        "fair_share": float(rows[0]["fair_share"]),
    }


# --------------------------------------------------------------------------------------------
# the best-response search
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    value: float
    ci: Interval


def pick_r1(candidates: Sequence[Candidate], current: float) -> float:
    """Rule R1 (docs/akella2002.md A6): x* = the candidate with the highest mean goodput (ties:
    the one closest to the current value, then the smaller); keep the current value unless x*'s CI
    lies entirely above the current value's (the paper's 85 % non-overlap relation)."""
    if not candidates:
        raise ValueError("pick_r1: no candidates")
    cur = [c for c in candidates if c.value == canon(current)]
    if not cur:
        raise ValueError(f"pick_r1: the current value {current:g} is not among the candidates")
    best = max(candidates, key=lambda c: (c.ci.mean, -abs(c.value - current), -c.value))
    if best.value == cur[0].value or intervals_overlap(best.ci, cur[0].ci):
        return cur[0].value
    return best.value


#: A sweep's plan for one stage: F_n's value -> the number of runs (its first seeds) it needs.
Plan = dict[float, int]


def _best(cis: Mapping[float, Interval], current: float) -> float:
    """The candidate with the highest mean (ties as in :func:`pick_r1`)."""
    return max(cis, key=lambda v: (cis[v].mean, -abs(v - current), -v))


def fine_candidates(
    spec: SearchSpec,
    coord: str,
    cands: Sequence[float],
    cis: Mapping[float, Interval],
    best: float,
) -> list[float]:
    """The adaptive sweep's fine pass around the best coarse candidate ``best``: the
    candidates within one coarse step of it on the side of the better of its two coarse
    neighbours (one coarse step away; the higher mean: a concave curve peaks on that side),
    both sides when the two tie or one was not run (an end of the range, or a best off the
    coarse grid: the current value), and the next candidate on the other side (a peak just
    past the best coarse value)."""
    coarse = spec.coarse_alpha if coord == "alpha" else spec.coarse_beta
    lo, hi = canon(best - coarse), canon(best + coarse)
    near = [v for v in cands if abs(v - best) < coarse - 1e-9]
    if lo not in cis or hi not in cis or cis[lo].mean == cis[hi].mean:
        return near
    side = 1.0 if cis[hi].mean > cis[lo].mean else -1.0
    other = sorted((v for v in near if (v - best) * side < 0), key=lambda v: abs(v - best))
    return [v for v in near if (v - best) * side >= 0 or v in other[:1]]


def stage_plan(
    spec: SearchSpec,
    coord: str,
    current: float,
    stage: int,
    evaluated: Mapping[float, Sequence[float]],
    max_runs: int,
) -> Plan | None:
    """The runs stage ``stage`` of one sweep adds, given F_n's goodputs so far (``evaluated``:
    value -> its runs' goodputs); None when the sweep is decided.

    full (the paper's sweep): stage 1 is every candidate at ``max_runs`` runs; then done.
    adaptive (the same candidates, runs and pick rule, fewer runs made):
      stage 1, coarse: the candidates on multiples of the coarse step, the ends of the range
        and the current value, ``round_runs`` runs each (the same seeds at every candidate:
        common random numbers);
      stage 2, fine: the candidates within one coarse step of the best coarse one on the side
        of its better coarse neighbour (both sides when they tie or one was not run), and the
        next candidate on the other side, at ``round_runs`` runs (:func:`fine_candidates`);
      stage 3 on, race: a candidate is out once its CI lies entirely below the best one's, or
        once its runs' differences from the best one's over their common seeds have a CI (at
        the same level) entirely below 0 (:func:`analysis.stats.paired_below`; not the
        current value: R1 weighs the best against it by their CIs alone); while more
        than one is in, each in with fewer than ``max_runs`` runs gets ``round_runs`` more.
        Done when one is left or all left have ``max_runs`` runs; the pick is then rule R1
        on the runs made (:func:`pick_r1`)."""
    cur = canon(current)
    cands = spec.candidates(coord, cur)
    if spec.method == "full":
        return {v: max_runs for v in cands} if stage == 1 else None
    if spec.method != "adaptive":
        raise ValueError(f"{spec.name}: unknown search method '{spec.method}'")
    r0 = min(spec.round_runs, max_runs)
    coarse = spec.coarse_alpha if coord == "alpha" else spec.coarse_beta
    if stage == 1:
        on_grid = [v for v in cands if abs(v / coarse - round(v / coarse)) < 1e-6]
        return {v: r0 for v in sorted({*on_grid, cands[0], cands[-1], cur})}
    if not evaluated:
        raise ValueError(f"{spec.name}: stage {stage} needs the runs of the stages before it")
    cis = {v: mean_ci(g, spec.ci_level) for v, g in evaluated.items()}
    best = _best(cis, cur)
    if stage == 2:
        fine = {v: r0 for v in fine_candidates(spec, coord, cands, cis, best) if v not in evaluated}
        if fine:
            return fine
    alive = [
        v
        for v in cis
        if cis[v].high >= cis[best].low
        and (v == cur or not paired_below(evaluated[v], evaluated[best], spec.ci_level))
    ]
    if len(alive) <= 1:
        return None
    more = {v: min(len(evaluated[v]) + r0, max_runs) for v in alive if len(evaluated[v]) < max_runs}
    return more or None


def run_sweep(
    spec: SearchSpec,
    coord: str,
    current: float,
    goodputs_of: Callable[[float, int], Sequence[float]],
    max_runs: int,
    prepare: Callable[[Plan], None] | None = None,
) -> tuple[dict[float, Sequence[float]], list[Plan]]:
    """Make one sweep's stages in order: (goodputs per candidate, the plans made).
    ``goodputs_of(value, runs)`` gives F_n's goodput in the first ``runs`` seeds of a
    candidate; ``prepare(plan)``, when given, first makes the runs a stage's plan reads (all
    of a stage's runs at once: they are independent)."""
    evaluated: dict[float, Sequence[float]] = {}
    plans: list[Plan] = []
    # the race adds runs until each candidate left has max_runs: bounded
    for stage in range(1, max_runs + 4):
        plan = stage_plan(spec, coord, current, stage, evaluated, max_runs)
        if plan is None:
            return evaluated, plans
        if prepare is not None:
            prepare(plan)
        for v, n in plan.items():
            evaluated[v] = goodputs_of(v, n)
        plans.append(plan)
    raise RuntimeError(f"{spec.name}: the sweep did not decide in {max_runs + 3} stages")


def iteration_record(
    spec: SearchSpec,
    iteration: int,
    current: tuple[float, float],
    goodputs: Mapping[float, Sequence[float]],
    previous: Mapping | None,
) -> dict:
    """One iteration: CIs of F_n's goodput per candidate, the pick, and whether to stop.

    ``goodputs`` maps each candidate value of F_n to its per-run goodputs: every candidate
    (full), the candidates the adaptive sweep ran (adaptive; the current value among them)."""
    coord = spec.coordinate(iteration)
    a, b = canon(current[0]), canon(current[1])
    cur = a if coord == "alpha" else b
    allowed = spec.candidates(coord, cur)
    need = allowed if spec.method == "full" else [cur]
    for v in need:
        if v not in goodputs:
            raise ValueError(f"{spec.name} iteration {iteration}: no runs for {coord} = {v:g}")
    stray = sorted(set(goodputs) - set(allowed))
    if stray:
        raise ValueError(f"{spec.name} iteration {iteration}: {stray[0]:g} is not a candidate")
    cands = [Candidate(v, mean_ci(goodputs[v], spec.ci_level)) for v in sorted(goodputs)]
    pick = pick_r1(cands, cur)
    changed = pick != cur
    if spec.mode == "joint":
        converged = not changed and previous is not None and not previous["changed"]
    else:
        converged = not changed
    nxt = {"alpha": pick if coord == "alpha" else a, "beta": pick if coord == "beta" else b}
    return {
        "search": spec.name,
        "method": spec.method,
        "iteration": iteration,
        "coordinate": coord,
        "current": {"alpha": a, "beta": b},
        "candidates": [
            {
                "value": c.value,
                "mean": c.ci.mean,
                "low": c.ci.low,
                "high": c.ci.high,
                "runs": c.ci.n,
            }
            for c in cands
        ],
        "pick": pick,
        "changed": changed,
        "converged": converged,
        "stop": converged or iteration >= spec.max_sweeps,
        "next": nxt,
    }


def read_record(path: Path | str) -> dict:
    return json.loads(Path(path).read_text())


def _sweep(spec: SearchSpec, iteration: int, current: tuple[float, float]) -> tuple[str, float]:
    """The coordinate F_n varies in an iteration and the current value of it."""
    coord = spec.coordinate(iteration)
    return coord, canon(current[0] if coord == "alpha" else current[1])


#: makes the runs of the given points, each for the given seeds (:class:`PointRunner`)
Runner = Callable[[Sequence[tuple[Point, Sequence[int]]]], None]


def run_search(st: Study, name: str, runner: Runner) -> dict:
    """One best-response search from start to end, in this process: each iteration's sweep
    stage by stage (each stage's runs made by ``runner``, then read), the pick (rule R1) and
    the stop rule; then the NE and start profiles' runs. Returns the search's record
    (:func:`search_doc`). Every run is read from the run folders, so a search whose runs
    exist already (made by an earlier, interrupted search job, or by any other search or
    figure) makes no run again."""
    spec = st.searches[name]
    records: list[dict] = []
    prev: dict | None = None
    for j in range(1, spec.max_sweeps + 1):
        current = spec.start if prev is None else (prev["next"]["alpha"], prev["next"]["beta"])
        coord, cur = _sweep(spec, j, current)
        points = dict(spec.points(j, current))

        def goodputs_of(value: float, runs: int, points: Mapping = points) -> Sequence[float]:
            return fn_goodputs(read_point_rows(st.point_dir(points[value]), st.seeds[:runs]))

        def prepare(plan: Plan, points: Mapping = points) -> None:
            runner([(points[v], st.seeds[:n]) for v, n in sorted(plan.items())])

        goodputs, plans = run_sweep(spec, coord, cur, goodputs_of, len(st.seeds), prepare)
        rec = iteration_record(spec, j, current, goodputs, prev)
        rec["stages"] = len(plans)
        rec["runs"] = sum(len(g) for g in goodputs.values())
        records.append(rec)
        prev = rec
        if rec["stop"]:
            break
    ae, be = ne_of(records)
    runner(
        [
            (symmetric_point(spec.tcp, spec.queue, ae, be, spec.variant), st.seeds),
            (symmetric_point(spec.tcp, spec.queue, *spec.start, spec.variant), st.seeds),
        ]
    )
    return search_doc(st, name, records)


def ne_of(records: Sequence[Mapping]) -> tuple[float, float]:
    """The search's outcome (alpha_E, beta_E): the last iteration's resulting profile."""
    last = records[-1]
    if not last["stop"]:
        raise ValueError(f"{last['search']}: the last iteration given did not stop the search")
    return last["next"]["alpha"], last["next"]["beta"]


def search_doc(st: Study, name: str, records: Sequence[Mapping]) -> dict:
    """Summary of a finished search: NE, convergence, the NE and start profiles' metrics and
    every iteration's record (its curve)."""
    spec = st.searches[name]
    if [r["iteration"] for r in records] != list(range(1, len(records) + 1)):
        raise ValueError(f"{name}: iterations must be 1..k in order")
    ae, be = ne_of(records)
    v = spec.variant
    ne = profile_metrics(
        read_point_rows(st.point_dir(symmetric_point(spec.tcp, spec.queue, ae, be, v)), st.seeds)
    )
    start_dir = st.point_dir(symmetric_point(spec.tcp, spec.queue, *spec.start, v))
    start = profile_metrics(read_point_rows(start_dir, st.seeds))
    return {
        "search": name,
        "fidelity": st.fidelity,
        "mode": spec.mode,
        "tcp": spec.tcp,
        "queue": spec.queue,
        "spec": spec_json(spec),
        "params": st.base,
        "seeds": list(st.seeds),
        "converged": bool(records[-1]["converged"]),
        "iterations": len(records),
        "alpha_e": ae,
        "beta_e": be,
        "ne": ne,
        "start_profile": start,
        "points": sum(len(r["candidates"]) for r in records),
        "runs": sum(c["runs"] for r in records for c in r["candidates"]),
        "numdupacks": _numdupacks(start_dir, st.seeds[0]),
        "records": list(records),
    }


@dataclass
class PointRunner:
    """Makes point runs for a search, ``threads`` at a time (:func:`analysis.nsbatch.run_pool`:
    the runs of one call are independent, so they go in parallel; a run already complete
    from the same inputs is reused, one another job is making is waited for, then reused).
    The first failure stops the call once the runs already started have ended (no finished
    run is lost), and is raised."""

    st: Study
    ns: Path
    script: Path
    threads: int = 1
    cpu_log: Path | None = None
    timeout: float | None = None
    #: seconds to wait for a run that another process is making (then reused)
    lock_wait: float = 3600.0
    #: runs asked for and runs made so far (the rest were complete already: reused)
    asked: int = 0
    made: int = 0

    def __call__(self, tasks: Sequence[tuple[Point, Sequence[int]]]) -> None:
        runs = [
            (Path(self.st.point_dir(p)) / f"s{s}", self.st.run_params(p, s))
            for p, seeds in tasks
            for s in seeds
        ]
        self.asked += len(runs)
        self.made += nsbatch.run_pool(
            self.ns, self.script, runs, self.threads, self.timeout, self.cpu_log, self.lock_wait
        )

    def counts_line(self) -> str:
        """The line analysis.nsbatch prints for a runs job, for the search's log: how many of
        its runs it made and how many an earlier job had made (analysis.reference reads it)."""
        return f"nsbatch: {self.asked} runs, {self.made} made, {self.asked - self.made} reused"


def _numdupacks(point_dir: str, seed: int) -> int:
    """The senders' duplicate-ACK threshold (ns-2 numdupacks_) as the run recorded it."""
    return int(nsio.read_summary(Path(point_dir) / f"s{seed}")["results"]["numdupacks"])


def _write_json(doc: Mapping, out: Path | str) -> None:
    p = Path(out)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(p.name + ".partial")
    tmp.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    tmp.rename(p)


def full_sweep_runs(search: Mapping) -> int:
    """Runs the paper's sweep (every candidate, every seed) would make over the iterations
    the search made: equal to the search's own runs when it is the full method."""
    spec = spec_of(search["spec"])
    total = 0
    for r in search["records"]:
        cur = r["current"][r["coordinate"]]
        total += len(spec.candidates(r["coordinate"], cur)) * len(search["seeds"])
    return total


def exhaustive_grid_runs(search: Mapping) -> int:
    """Runs an exhaustive grid over the strategy range the search explored would need: the
    union of all candidate values of each coordinate (joint: their product), every point with
    every common value in that range (the full best-response table), R runs each."""
    alphas: set[float] = set()
    betas: set[float] = set()
    for r in search["records"]:
        target = alphas if r["coordinate"] == "alpha" else betas
        target.update(c["value"] for c in r["candidates"])
    seeds = len(search["seeds"])
    if search["mode"] == "alpha":
        return len(alphas) ** 2 * seeds
    if search["mode"] == "beta":
        return len(betas) ** 2 * seeds
    k = max(len(alphas), 1) * max(len(betas), 1)
    return k * k * seeds


# --------------------------------------------------------------------------------------------
# command line
# --------------------------------------------------------------------------------------------


def search_params(st: Study, name: str, method: str | None = None) -> dict:
    """What one search's steps need of the study (``--params``): the fidelity, the base
    parameters, the seeds and the search's settings (made with ``method``, else as
    configured)."""
    spec = spec_json(st.search(name, method))
    return {
        "fidelity": st.fidelity,
        "base": st.variant_base(spec.get("variant", "")),
        "seeds": list(st.seeds),
        "spec": spec,
    }


def spec_json(spec: SearchSpec) -> dict:
    """A search's settings in JSON form, as its params and record hold them (``asdict``; a
    base search's without the empty variant, as before sensitivity variants existed: adding
    them changed no existing search's params)."""
    d = asdict(spec)
    if not d["variant"]:
        del d["variant"]
    return json.loads(json.dumps(d))


def spec_of(d: Mapping) -> SearchSpec:
    """A search's settings from their JSON form (``asdict``: lists for tuples)."""
    spec = dict(d)
    for k in ("start", "alpha_grid", "beta_grid"):
        if spec.get(k) is not None:
            spec[k] = tuple(spec[k])
    return SearchSpec(**spec)


def study_of_params(params: Mapping) -> Study:
    """The one-search study :func:`search_params` describes."""
    s = spec_of(params["spec"])
    # the base parameters are the search's variant's already (search_params)
    variants = {s.variant: {}} if s.variant else {}
    return Study(
        params["fidelity"],
        dict(params["base"]),
        tuple(params["seeds"]),
        {s.name: s},
        {},
        {},
        variants=variants,
    )


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description="Akella et al. 2002: one best-response search, start to end"
    )
    ap.add_argument("--params", type=params_json, required=True, help="see search_params")
    ap.add_argument("--ns", type=Path, required=True, help="the ns binary")
    ap.add_argument("--script", type=Path, required=True, help="tcl/akella2002/dumbbell.tcl")
    ap.add_argument("--threads", type=int, default=1, help="ns runs at a time")
    ap.add_argument("--cpu-log", type=Path, help="ns's CPU per run made (analysis.nsrun)")
    ap.add_argument(
        "--timeout",
        type=float,
        default=nsbatch.env_timeout(),
        help=f"seconds per ns run (default: ${nsrun.TIMEOUT_ENV}, else none)",
    )
    ap.add_argument("--out", type=Path, required=True, help="the search's record (JSON)")
    a = ap.parse_args(argv)
    if a.threads < 1:
        ap.error(f"--threads must be at least 1, not {a.threads}")
    try:
        st = study_of_params(a.params)
    except (KeyError, TypeError) as e:
        ap.error(f"--params does not describe a search: {e}")
    (name,) = st.searches
    runner = PointRunner(st, a.ns, a.script, a.threads, a.cpu_log, a.timeout)
    nsbatch.end_at_once_when_cancelled("akella2002_search")
    try:
        doc = run_search(st, name, runner)
    except nsrun.NsRunError as e:
        print(f"{name}: {e}", file=sys.stderr)
        return 1
    _write_json(doc, a.out)
    print(runner.counts_line(), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
