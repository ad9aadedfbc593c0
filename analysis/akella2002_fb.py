"""Akella et al., Sec 5.1's F_b for SACK under CHOKe+ with and without timeouts: the analysis
step ``fig06_fb`` (``python -m analysis.akella2002_fb fig06_fb``, analysis/cli.py's flags),
read from the step ``fig05``'s tidy table.

Sec 5.1 plots F_b for SACK (Gentle) flows under CHOKe+ (Figure 6(b)) and finds it positive
throughout, "implying that at the respective Nash equilibria ... beta_E -> 1". It then sets the
figure aside: "TCP SACK flows tend to time-out occasionally when CHOKe+ buffers are used ...
The goodput equation for Gentle flows (Equation 24) does not capture this time out behavior.
Hence, Figures 6(a) and (b) do not correctly represent the behavior of CHOKe+", and reports a
simulated beta_E well below 1 (Figure 11(b)). The paper's only goodput model with timeouts is
eq (25) (Reno, Sec 4.3.3, after Padhye et al.), whose T_0 is the retransmission timeout.

This step computes F_b from our Figure 5(c), (d) measurements of SACK under CHOKe+ (p_b,
F_n's own loss slope P_b, the mean smoothed RTT and RTO at each beta) under both models:
eq (24), Figure 6(b)'s, and eq (25) with T_0 the measured RTO, i.e. with the timeouts the
paper names. P_b(beta) is estimated by the running line of Figure 6(a)'s crossing
(:func:`analysis.akella2002.running_line_se`, halfwidth :data:`FB_FIT_HALFWIDTH`), and each
model's check is the fraction of the measured betas at which F_b is not significantly
negative (its one-sided 95 % upper bound, the fitted slope less 1.645 standard errors, is
positive; as :func:`analysis.akella2002.fa_not_negative_fraction` does for F_a). The check
of the diagnosis of ``fig11b.sack_chokeplus.beta_e`` is the smaller of the two fractions
(:data:`CHECK`): 1 when neither model, on our measurements, gives a finite beta_E below the
top of the range (docs/akella2002.md A26).

A module of its own, apart from analysis/akella2002.py, so that its code inputs are this
step's (rules/common.smk step_module).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import numpy as np
import pandas as pd

from analysis import akella2002 as ak
from analysis.cli import analysis_parser, extra_dir, need, parse
from analysis.models import akella2002 as models
from analysis.outputs import write_numbers, write_tidy

#: the step this module makes and the step whose tidy table it reads
STEP = "fig06_fb"
READS = "fig05"
#: the Figure 5 series and the row whose diagnosis this step checks
SERIES = "sack_chokeplus"
ROW = "fig11b.sack_chokeplus.beta_e"
#: the models F_b is computed under: eq (24) (Figure 6(b), Gentle) and eq (25) (with timeouts,
#: T_0 the measured RTO; Hybrid in analysis.models.akella2002)
MODELS = ("gentle", "hybrid")
#: the check value per model, and the diagnosis's check (the smaller of the two)
MODEL_CHECK = "check." + ROW + ".fb_not_negative_fraction_{model}"
CHECK = "check." + ROW + ".fb_not_negative_fraction"
#: halfwidth, in beta, of the running-line fit of P_b(beta): at the paper's beta step of 0.01
#: a fitted slope pools 21 measured slopes, as Figure 6(a)'s alpha fit does at step 1
#: (analysis.akella2002.FA_FIT_HALFWIDTH)
FB_FIT_HALFWIDTH = 0.1


def fb_fitted(
    fig5: pd.DataFrame,
    model: str,
    series: str = SERIES,
    halfwidth: float = FB_FIT_HALFWIDTH,
    z: float = ak.FA_NEGATIVE_Z,
) -> pd.DataFrame:
    """Per measured beta of ``series`` (points with losses and a measured RTT): the fitted
    slope P_b and its standard error, and F_b under ``model`` at the fitted slope (``F``)
    and at the slope less ``z`` standard errors (``F_upper``: every model's F_b falls as P_b
    grows, so this is F_b's one-sided upper bound). T_0 is the measured RTO under
    ``hybrid``. ValueError without usable points. The fit is
    :func:`analysis.akella2002.fa_fitted`'s, for beta and a given model: one function for
    both would change the code input of every Akella step, whose bundle update remakes the
    Figure 5 and CHOKe runs (about 25,000; CHANGELOG, 2026-11-30 evening)."""
    d = fig5[
        (fig5["series"] == series)
        & (fig5["parameter"] == "beta")
        & (fig5["p"] > 0)
        & (fig5["srtt"] > 0)
    ].sort_values("x")
    if d.empty:
        raise ValueError(f"no beta points of {series} with losses in the Figure 5 table")
    x = d["x"].to_numpy(dtype=float)
    h = d["h"].to_numpy(dtype=float)
    fit, se = ak.running_line_se(x, d["P"].to_numpy(dtype=float), h**2, halfwidth)
    t0s = d["rto"] if model == "hybrid" else [None] * len(d)

    def f_b(slopes: np.ndarray) -> np.ndarray:
        return np.array(
            [
                float(models.f_beta(model, xi, pi, di, ri, t0=ti))  # type: ignore[arg-type]
                for xi, pi, di, ri, ti in zip(x, d["p"], slopes, d["srtt"], t0s, strict=True)
            ]
        )

    return pd.DataFrame(
        {
            "model": model,
            "beta": x,
            "p": d["p"].to_numpy(dtype=float),
            "P_fit": fit,
            "P_se": se,
            "rto": d["rto"].to_numpy(dtype=float),
            "F": f_b(fit),
            "F_upper": f_b(fit - z * se),
        }
    )


def fb_checks(fig5: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, float]]:
    """The tidy table of :func:`fb_fitted` under each of :data:`MODELS`, and the check
    values: per model the fraction of the measured betas whose ``F_upper`` is positive, and
    :data:`CHECK`, the smaller fraction."""
    tables = [fb_fitted(fig5, m) for m in MODELS]
    numbers = {
        MODEL_CHECK.format(model=m): float(np.mean(t["F_upper"] > 0))
        for m, t in zip(MODELS, tables, strict=True)
    }
    numbers[CHECK] = min(numbers.values())
    return pd.concat(tables, ignore_index=True), numbers


def main(argv: Sequence[str] | None = None) -> int:
    ap = analysis_parser(
        "python -m analysis.akella2002_fb",
        "Akella et al.: F_b of SACK under CHOKe+ by eq (24) and by eq (25) with timeouts",
        [STEP],
    )
    a = parse(ap, argv)
    need(ap, a, "--tidy", "--numbers", "--extra", "--inputs")
    extra_dir(ap, a)
    tables = [p for p in a.inputs if p.name == "tidy.csv" and p.parent.parent.name == READS]
    if len(tables) != 1:
        ap.error(f"--inputs: give the step {READS}'s tidy.csv once")
    try:
        tidy, numbers = fb_checks(pd.read_csv(tables[0]))
    except ValueError as e:
        ap.error(str(e))
    write_tidy(tidy, a.tidy)
    write_numbers(numbers, a.numbers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
