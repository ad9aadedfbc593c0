"""Akella et al.'s best-response searches made by the paper's own sweep: the analysis step
``paper_sweep`` (``python -m analysis.akella2002_paper_sweep paper_sweep``, analysis/cli.py's
flags).

At paper fidelity our searches are adaptive (docs/akella2002.md A13), a cost saving of ours:
the same candidates, runs per point, intervals and pick rule as the paper's sweep (Sec 4.1),
but fewer runs where a candidate is already decided. Among candidates whose 85 % intervals
overlap, the two methods can pick different ones, and a search goes on from its pick. The
experiments ``<search>_fullsweep`` make a search again by the paper's sweep (every candidate,
every run: ``search_method: full``), on the same runs. This step reads their records and
gives, for each NE row the search answers, its value under the paper's sweep as
``check.<key>.paper_sweep`` (:func:`paper_sweep_checks`), the check of the rows whose
diagnosis names it (config/diagnoses/akella2002.yaml), and each search's sweeps as its tidy
table.

A module of its own, apart from analysis/akella2002.py, so that its code inputs are this
step's (rules/common.smk step_module).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence

import pandas as pd

from analysis import akella2002 as ak
from analysis import cli
from analysis.outputs import write_numbers, write_tidy

#: the step (its experiments: the ``<search>_fullsweep`` searches) this module makes
STEP = "paper_sweep"
#: the method of the paper's sweep (Sec 4.1: every candidate, every run)
FULL = "full"
#: the suffix of a check value this step gives
SUFFIX = "paper_sweep"


def check_key(key: str) -> str:
    """The check value of the published row ``key`` under the paper's sweep."""
    return f"check.{key}.{SUFFIX}"


def figure_of(search: Mapping) -> str:
    """The figure whose NE rows ``search`` answers (its tcp and queue); ValueError if none."""
    tq = (search["tcp"], search["queue"])
    for figure, pair in ak.NE_FIGURES.items():
        if pair == tq:
            return figure
    raise ValueError(f"{search['search']}: no figure of the paper has {tq[0]} over {tq[1]}")


def paper_sweep_checks(searches: Sequence[Mapping]) -> tuple[pd.DataFrame, dict[str, float]]:
    """The sweeps of each search (one row per candidate of each sweep, as the NE figures'
    tables, the search's name in ``search``) and, per published NE coordinate of its mode
    (alpha_E, beta_E), its value as ``check.<key>.paper_sweep``. ValueError without
    searches, or for a search not made by the paper's sweep (its record's method is not
    ``full``) or not converged (its NE is no answer)."""
    if not searches:
        raise ValueError("no search records given")
    tables, numbers = [], {}
    for s in searches:
        if s["spec"]["method"] != FULL:
            raise ValueError(
                f"{s['search']}: made by the {s['spec']['method']} search, not the paper's sweep"
            )
        if not s["converged"]:
            raise ValueError(f"{s['search']}: did not converge, so it has no NE to check")
        figure = figure_of(s)
        for metric in ak.PUBLISHED[figure][s["mode"]]:
            if metric in ("alpha_e", "beta_e"):
                numbers[check_key(ak.number_key(figure, s["mode"], metric))] = float(s[metric])
        # a candidate's own fields (value, mean, low, high, runs), after its sweep's
        tables.append(
            pd.DataFrame(
                {"search": s["search"], "iteration": r["iteration"], "coordinate": r["coordinate"],
                 "common_alpha": r["current"]["alpha"], "common_beta": r["current"]["beta"],
                 **c, "picked": c["value"] == r["pick"]}
                for r in s["records"]
                for c in r["candidates"]
            )
        )  # fmt: skip
    return pd.concat(tables, ignore_index=True), numbers


def main(argv: Sequence[str] | None = None) -> int:
    ap = cli.analysis_parser(
        "python -m analysis.akella2002_paper_sweep",
        "Akella et al. 2002: searches made by the paper's sweep, the check of the rows they answer",
        [STEP],
    )
    a = cli.parse(ap, argv)
    cli.need(ap, a, "--tidy", "--numbers", "--extra")
    cli.extra_dir(ap, a)
    searches = [json.loads(p.read_text()) for p in a.inputs if p.suffix == ".json"]
    try:
        tidy, numbers = paper_sweep_checks(searches)
    except ValueError as e:
        ap.error(str(e))
    write_tidy(tidy, a.tidy)
    write_numbers(numbers, a.numbers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
