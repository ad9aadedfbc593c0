"""Gao et al., Table 2's CHOKe rows under CHOKe's EWMA weight: the analysis step
``table2_choke_wq`` (``python -m analysis.gao_choke_weight table2_choke_wq``, analysis/cli.py's
flags).

The paper gives none of CHOKe's parameters (docs/gao.md A2): neither its thresholds nor the
weight w_q of its average queue. The labelled sensitivity experiment ``table2_choke333_wq``
repeats Simulation 3 under CHOKe with the protocols' buffer (thresholds 333 and 666 packets,
buffer 1000, as the step ``table2_choke333``) over a grid of weights. Per weight this step
computes Table 2's CHOKe rows (:func:`analysis.gao.table2`) and counts how many of the
published CHOKe rows they meet (:func:`analysis.compare.verdict`). The check value of each
diagnosed row (``check.<row>.wq``) is its value under the weight at which the most published
CHOKe rows are met at once, the weight nearest the project's assumed one (on a log scale) on a
tie (:func:`best_weight`): one weight for all rows, never a weight per row.

A module of its own, apart from analysis/gao.py, so that its code inputs are this step's
(rules/common.smk step_module).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd

from analysis import cli, gao, nsio
from analysis.compare import Published, load_originals, verdict
from analysis.outputs import write_numbers, write_tidy

#: the step (its experiment: table2_choke333_wq) this module makes
STEP = "table2_choke_wq"
#: the config value (``--params`` key) of the weight every other CHOKe run uses
ASSUMED_WQ = "parameters.red_q_weight.value"
#: the published rows the weight is judged on: every CHOKe row of Table 2
CHOKE_PREFIX = "table2.choke."
#: check keys: the chosen weight and how many published CHOKe rows it meets
WQ_KEY = "check.table2.choke.wq"
MET_KEY = "check.table2.choke.wq_rows_met"


def weight_of(run_dir: Path) -> float:
    """A run's CHOKe weight w_q, from the summary in its folder."""
    return float(nsio.read_summary(Path(run_dir))["params"]["red_q_weight"])


def best_weight(met: Mapping[float, int], assumed: float) -> float:
    """The weight meeting the most published rows; of those, the nearest ``assumed`` by
    |log(w / assumed)| (the smaller weight on an exact tie). ValueError when empty or when a
    weight is not positive."""
    if not met:
        raise ValueError("no weights tested")
    if assumed <= 0 or any(w <= 0 for w in met):
        raise ValueError("weights must be positive")
    return min(met, key=lambda w: (-met[w], abs(math.log(w / assumed)), w))


def weight_checks(
    run_dirs: Sequence[Path], published: Sequence[Published], assumed: float
) -> tuple[pd.DataFrame, dict[str, float]]:
    """Table 2's rows per tested weight (the tidy table of :func:`analysis.gao.table2` with a
    column ``red_q_weight``; the weight's rows met in ``rows_met``) and the check values:
    ``check.<row>.wq`` for each of :data:`analysis.gao.CHOKE_THRESH_ROWS` under
    :func:`best_weight`, that weight (:data:`WQ_KEY`) and its count (:data:`MET_KEY`).
    ValueError without runs or without published CHOKe rows."""
    if not run_dirs:
        raise ValueError("no runs given")
    pubs = [p for p in published if p.key.startswith(CHOKE_PREFIX)]
    if not pubs:
        raise ValueError(f"no published rows starting with '{CHOKE_PREFIX}'")
    groups: dict[float, list[Path]] = {}
    for d in run_dirs:
        groups.setdefault(weight_of(Path(d)), []).append(Path(d))
    tables, made, met = [], {}, {}
    for w, dirs in sorted(groups.items()):
        tidy, numbers = gao.table2(dirs)
        made[w] = numbers
        met[w] = sum(verdict(p, repr(numbers.get(p.key, math.nan))) == "ok" for p in pubs)
        tidy.insert(0, "red_q_weight", w)
        tidy.insert(1, "rows_met", met[w])
        tables.append(tidy)
    best = best_weight(met, assumed)
    checks = {f"check.{k}.wq": made[best][k] for k in gao.CHOKE_THRESH_ROWS if k in made[best]}
    checks[WQ_KEY] = best
    checks[MET_KEY] = float(met[best])
    return pd.concat(tables, ignore_index=True), checks


def main(argv: Sequence[str] | None = None) -> int:
    ap = cli.analysis_parser(
        "python -m analysis.gao_choke_weight",
        "Gao et al.: Table 2's CHOKe rows under CHOKe's EWMA weight",
        [STEP],
    )
    a = cli.parse(ap, argv)
    cli.need(ap, a, "--tidy", "--numbers", "--extra", "--runs", "--originals")
    cli.extra_dir(ap, a)
    assumed = float(cli.param(ap, a, ASSUMED_WQ))  # type: ignore[arg-type]
    tidy, numbers = weight_checks(cli.run_dirs(a.runs), load_originals(a.originals), assumed)
    write_tidy(tidy, a.tidy)
    write_numbers(numbers, a.numbers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
