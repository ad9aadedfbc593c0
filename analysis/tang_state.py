"""Tang et al., Table 1's standard deviations over the runs that end in the state the table
reports: the analysis step ``table1_state`` (``python -m analysis.tang_state table1_state``,
analysis/cli.py's flags), read from the step ``exp1``'s tidy table.

Table 1 reports each start order's equilibrium (Sec 5.2: "the network has reached very
different equilibria depending on which flows start first"): FAST first saturates link 2
only, Reno first links 1 and 3 only (:data:`analysis.tang.FIG1_STATES`). The paper's 30
repetitions of each order all end there, as its standard deviations (a small fraction of the
gap between the states) show. Some of our Reno-first runs end in the other state instead
(docs/tang.md T17). This step keeps each order's runs that end in the order's state, as the
claim ``table1.two_equilibria`` classifies them (:func:`analysis.tang.saturation`), and gives
Table 1's rows over those runs (:func:`analysis.tang.table_numbers`) and their coefficients of
variation over the paper's (:func:`analysis.tang.cv_ratio_checks`) as check values
``check.<row>.in_state`` and ``check.<row>.cv_ratio_in_state``, with the number of runs kept
per order. In the Reno-first state link 1 is saturated and carries paths 1 and 3, so the two
paths trade the same Mb/s from run to run: the s.d. of their sum over the kept runs
(``check.table1.reno_first.path1_path3_sum_sd_in_state``) shows how much of each path's spread
is that trade (docs/tang.md T17).

A module of its own, apart from analysis/tang.py, so that its code inputs are this step's
(rules/common.smk step_module).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence

import pandas as pd

from analysis import tang
from analysis.cli import analysis_parser, extra_dir, need, parse
from analysis.compare import load_originals
from analysis.outputs import write_numbers, write_tidy

#: the step this module makes (it reads the tidy table of the step ``exp1``)
STEP = "table1_state"
#: the experiment and step whose runs it reads
EXPERIMENT = "exp1"
#: suffix of the check values: the cv ratio over the runs in the order's state
SUFFIX = "cv_ratio_in_state"
#: the paths that share the saturated link 1 in the Reno-first state (Fig 1: path 1 crosses
#: links 1-2, path 3 links 1-3) and the check value of the s.d. of their summed rate
SHARED_LINK1 = (1, 3)
SUM_SD = "check.table1.reno_first.path1_path3_sum_sd_in_state"


def summed_rate_sd(kept: pd.DataFrame, first: str, paths: Sequence[int]) -> float:
    """The s.d. over the runs of ``kept`` (a window table) started in order ``first`` of the
    sum of the rates of ``paths`` (group indices); nan with fewer than two runs."""
    g = tang.primary(EXPERIMENT, kept)
    g = g[(g["what"] == "group") & (g["first"] == first) & g["idx"].isin(paths)]
    total = g.groupby("seed")["mbps"].sum()
    return float(total.std(ddof=1)) if len(total) > 1 else float("nan")


def runs_in_state(w: pd.DataFrame) -> pd.DataFrame:
    """The rows of ``w`` (Experiment 1's window table) of the runs that saturate exactly the
    links of their start order's state (:data:`analysis.tang.FIG1_STATES`). ValueError
    without runs."""
    s = tang.saturation(w)
    if s.empty:
        raise ValueError("no runs with link rows in the table")
    keys = [c for c in s.columns if c not in ("saturated", "utils")]
    want = [tuple(tang.FIG1_STATES.get(str(f), ())) for f in s["first"]]
    keep = s[[tuple(got) == w_ for got, w_ in zip(s["saturated"], want, strict=True)]]
    return w.merge(keep[keys], on=keys)


def state_checks(
    w: pd.DataFrame, published: Mapping[str, float]
) -> tuple[pd.DataFrame, dict[str, float]]:
    """Per start order of the FAST runs: how many runs end in its state
    (``check.table1.<order>.runs_in_state``, of ``...runs``) and, over those runs, Table 1's
    rows as check values ``check.<row>.in_state`` and each s.d. row's cv ratio
    ``check.<row>.cv_ratio_in_state``. The tidy table: every run's saturated links and
    whether it is kept."""
    fast = w[w["short_tcp"] == "fast"]
    kept = runs_in_state(fast)
    s = tang.saturation(fast)
    kept_seeds = set(zip(kept["first"], kept["seed"], strict=True))
    s["in_state"] = [(f, sd) in kept_seeds for f, sd in zip(s["first"], s["seed"], strict=True)]
    numbers: dict[str, float] = {}
    for first, scen in tang.SCENARIOS[EXPERIMENT].items():
        d = s[s["first"] == first]
        numbers[f"check.table1.{scen}.runs"] = float(len(d))
        numbers[f"check.table1.{scen}.runs_in_state"] = float(d["in_state"].sum())
    rows = tang.table_numbers(EXPERIMENT, kept)
    numbers.update({f"check.{k}.in_state": v for k, v in rows.items()})
    for key, v in tang.cv_ratio_checks(rows, published).items():
        numbers[key.removesuffix(tang.CV_CHECK) + SUFFIX] = v
    numbers[SUM_SD] = summed_rate_sd(kept, "long", SHARED_LINK1)
    s["saturated"] = s["saturated"].map(lambda t: "+".join(str(i) for i in t))
    return s, numbers


def main(argv: Sequence[str] | None = None) -> int:
    ap = analysis_parser(
        "python -m analysis.tang_state",
        "Tang et al.: Table 1 over the runs that end in the state of their start order",
        [STEP],
    )
    a = parse(ap, argv)
    need(ap, a, "--tidy", "--numbers", "--extra", "--inputs", "--originals")
    extra_dir(ap, a)
    tables = [p for p in a.inputs if p.name == "tidy.csv" and p.parent.parent.name == EXPERIMENT]
    if len(tables) != 1:
        ap.error(f"--inputs: give the step {EXPERIMENT}'s tidy.csv once")
    published = {p.key: p.published for p in load_originals(a.originals)}
    tidy, numbers = state_checks(pd.read_csv(tables[0]), published)  # type: ignore[arg-type]
    write_tidy(tidy, a.tidy)
    write_numbers(numbers, a.numbers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
