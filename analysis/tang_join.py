"""Tang et al., Table 3's long-first rows against the gap between the groups' starts
(docs/tang.md T20): the analysis step ``table3_join`` (``python -m analysis.tang_join
table3_join``, analysis/cli.py's flags).

Sec 5.2 starts "the long flow" first and the short flows later, and gives no time between the
two. Ours (300 s at paper fidelity, docs/tang.md T6) lets the long flows settle with a
standing queue before the short flows join. The labelled sensitivity experiment
``table3_join`` starts the short flows a few seconds after the long ones instead (its runs'
``offset``). Its Table 3 rows per gap, and their coefficients of variation over the paper's,
are check values of the diagnosis of Table 3's long-first standard deviations
(config/diagnoses/tang.yaml, :func:`join_checks`).

A module of its own, apart from analysis/tang.py, so that its code inputs are this step's
(rules/common.smk step_module).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd

from analysis import nsio
from analysis.cli import analysis_parser, extra_dir, need, parse, run_dirs
from analysis.compare import load_originals
from analysis.outputs import write_numbers, write_tidy
from analysis.tang import window_table
from analysis.tang_buffer import sensitivity_table_checks

#: the step (and its experiment) this module makes
STEP = "table3_join"
#: suffix of the check values over every tested gap: the gap at which the row spreads least
SUFFIX = "joined_before_queue"
#: the cv-ratio check values' prefix of the suffix (analysis.tang_buffer)
CV = "cv_ratio_"


def gap_suffix(gap: float) -> str:
    """Suffix of the check values of Table 3's rows under one tested gap (seconds)."""
    return f"joined_{gap:g}s"


def gap_table(dirs: Sequence[Path]) -> pd.DataFrame:
    """The window table of the step's runs (:func:`analysis.tang.window_table`) with each
    run's gap between the starts (its ``offset``, seconds) as a column ``gap_s``."""
    if not dirs:
        raise ValueError("no runs given")
    parts = []
    for d in dirs:
        w = window_table([d])
        w.insert(0, "gap_s", float(nsio.read_summary(d)["params"]["offset"]))
        parts.append(w)
    return pd.concat(parts, ignore_index=True)


def join_checks(w: pd.DataFrame, published: Mapping[str, float] | None) -> dict[str, float]:
    """Table 3's rows under each tested gap (``check.<row>.joined_<gap>s``, and with
    ``published`` ``check.<row>.cv_ratio_joined_<gap>s``), and per s.d. row the smallest
    coefficient-of-variation ratio over the gaps (``check.<row>.cv_ratio_<SUFFIX>``): the row
    under the tested gap at which our runs spread least, as an unstated parameter's check
    reads the tested value nearest the paper."""
    out: dict[str, float] = {}
    best: dict[str, float] = {}
    for gap, g in w.groupby("gap_s", sort=True):
        sfx = gap_suffix(float(gap))
        nums = sensitivity_table_checks(g.drop(columns="gap_s"), published, sfx)
        out.update(nums)
        for k, v in nums.items():
            if k.endswith(f".{CV}{sfx}") and not math.isnan(v):
                row = k[: -len(f".{CV}{sfx}")]
                best[row] = min(best.get(row, math.inf), v)
    out.update({f"{row}.{CV}{SUFFIX}": v for row, v in best.items()})
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = analysis_parser(
        "python -m analysis.tang_join",
        "Tang et al. 2005: Table 3's long-first rows and the gap between the starts",
        [STEP],
    )
    a = parse(ap, argv)
    need(ap, a, "--tidy", "--numbers", "--extra", "--runs")
    extra_dir(ap, a)
    w = gap_table(run_dirs(a.runs))
    pub = {p.key: p.published for p in load_originals(a.originals)} if a.originals else None
    write_tidy(w, a.tidy)
    write_numbers(join_checks(w, pub), a.numbers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
