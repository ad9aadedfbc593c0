"""Misra, Baras, Ott: a run's parameters as the model's set-up (Sec III units), the figures'
experiments, and the model's requirements on every configured run (:func:`check_config`)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from analysis import config as conf
from analysis.models import misra as models

PAPER = "misra"
#: The parameter sets k of Experiments A and B (expa_s<k>, expb_s<k>, Sec III.C).
SETS = (1, 2, 3, 4)
#: The figure steps (which experiments' runs each reads: misra.items in the config).
FIGURES = ("fig01", "fig02", "fig03", "fig04", "fig05", "fig06", "fig07", "ext01")
#: Figures 1-5: capacity sweeps against the fixed point of Sec III.
CAPACITY_FIGURES = ("fig01", "fig02", "fig03", "fig04", "fig05")
#: Figures 6 and 7: the swept window-rule parameter.
WINDOW_FIGURES = {"fig06": "alpha", "fig07": "c2"}


def per_flow(value: object, flows: int, name: str) -> list[float]:
    """A per-flow parameter as dumbbell.tcl reads it: comma-separated values repeated over the
    flows (flow i gets value i mod count)."""
    vals = [float(v) for v in str(value).split(",")]
    if len(vals) > flows:
        raise ValueError(f"{name}: {len(vals)} values for {flows} flows: {value!r}")
    return [vals[i % len(vals)] for i in range(flows)]


def capacity_bps(params: Mapping[str, object]) -> float:
    """C = capacity + flows x capacity_per_flow (bit/s), as dumbbell.tcl computes it."""
    return float(params["capacity"]) + int(params["flows"]) * float(  # type: ignore[arg-type]
        params["capacity_per_flow"]  # type: ignore[arg-type]
    )


def thresholds_pkts(params: Mapping[str, object]) -> tuple[float, float]:
    """ORED (min, max) thresholds in packets: min_th + flows x min_th_per_flow, likewise max,
    as dumbbell.tcl computes them."""
    n = int(params["flows"])  # type: ignore[arg-type]
    return (
        float(params["min_th"]) + n * float(params["min_th_per_flow"]),  # type: ignore[arg-type]
        float(params["max_th"]) + n * float(params["max_th_per_flow"]),  # type: ignore[arg-type]
    )


@dataclass(frozen=True)
class Setup:
    """The model's view of one run's parameters (Sec III units: bytes, bytes/s, s)."""

    flows: tuple[models.Flow, ...]
    capacity: float
    ored: models.ORED
    tcp: models.GeneralizedTCP
    mss: float

    @property
    def capacity_mbps(self) -> float:
        return self.capacity * 8.0 / 1e6

    def single_flow(self) -> models.SingleFlowSetup:
        """Sec IV units (segments, segments/s) of a one-flow set-up."""
        if len(self.flows) != 1:
            raise ValueError(f"Sec IV needs one flow, got {len(self.flows)}")
        f = self.flows[0]
        pkts = self.ored.scaled(1.0 / self.mss)
        return models.SingleFlowSetup(self.capacity / self.mss, f.profile / self.mss, f.rtt, pkts)


def setup_of(params: Mapping[str, object]) -> Setup:
    """Model inputs from a run's parameters; ValueError (naming the rule broken) for a set-up
    the model cannot describe: alpha >= beta, c2 >= 1 with beta = 1, min_th >= max_th,
    C <= sum of the profiles (eq 3)."""
    n = int(params["flows"])  # type: ignore[arg-type]
    mss = float(params["pkt_size"])  # type: ignore[arg-type]
    profiles = per_flow(params["profiles"], n, "profiles")
    rtts = per_flow(params["rtts"], n, "rtts")
    c = capacity_bps(params)
    if c <= sum(profiles):
        raise ValueError(
            f"bottleneck rate C = {c:g} bit/s must exceed the sum of the assured rates "
            f"{sum(profiles):g} bit/s (eq 3)"
        )
    tcp = models.GeneralizedTCP(
        float(params["alpha"]),  # type: ignore[arg-type]
        float(params["beta"]),  # type: ignore[arg-type]
        float(params["c1"]),  # type: ignore[arg-type]
        float(params["c2"]),  # type: ignore[arg-type]
    )
    ored = models.ORED(*thresholds_pkts(params), float(params["p_max"])).scaled(mss)  # type: ignore[arg-type]
    flows = tuple(models.Flow(r / 8.0, t, mss) for r, t in zip(profiles, rtts, strict=True))
    return Setup(flows, c / 8.0, ored, tcp, mss)


def check_config(config: dict) -> None:
    """Every run of every fidelity must describe a set-up the model accepts (raised as
    ConfigError before anything runs)."""
    exps = config.get(PAPER, {}).get("experiments", {})
    for exp in exps:
        for fid in ("smoke", "quick", "paper"):
            for r in conf.runs(config, PAPER, exp, fid):
                try:
                    s = setup_of(r.params)
                    if len(s.flows) == 1:
                        s.single_flow()
                except ValueError as e:
                    raise conf.ConfigError(
                        f"config: '{PAPER}.experiments.{exp}' (fidelity {fid}, run {r.run_id}): {e}"
                    ) from e


def reference_params(config: dict, experiment: str) -> dict:
    """The parameters of an experiment (its first run at the paper fidelity)."""
    return dict(conf.runs(config, PAPER, experiment, "paper")[0].params)


def experiment_of(run_dir: Path) -> str:
    """results/misra/<experiment>/<fidelity>/<run>/ -> <experiment>."""
    return run_dir.parent.parent.name


def set_of(experiment: str) -> int | float:
    """Parameter set k of experiment exp{a,b}_s<k> (NaN for the others)."""
    m = re.fullmatch(r"exp[ab]_s(\d)", experiment)
    return int(m.group(1)) if m else float("nan")
