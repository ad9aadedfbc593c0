"""Tang et al., Table 3 against link 2's buffer (docs/tang.md T19): the analysis step
``table3_buffer`` (``python -m analysis.tang_buffer table3_buffer``, analysis/cli.py's flags).

Table 3 (Sec 5.2) runs Experiment 1's network with every flow FAST. Two check values of the
diagnosis of its standard-deviation rows (config/diagnoses/tang.yaml) come from here:

- ``check.table3.link<i>.fast_equilibrium_queue_over_buffer``: the queueing delay FAST's
  equilibrium (Prop 2, eq. 15: weighted proportional fairness; a link's price is its queueing
  delay, eq. 7) puts at link i of the stated network, over the most its stated buffer can hold
  (:func:`fast_queue_over_buffer`; the network of the step's runs with Table 3's configured
  set, ``--params``, over it);
- ``check.<row>.buffer_holds_queue`` and ``check.<row>.cv_ratio_buffer_holds_queue``: Table 3's
  rows from the labelled sensitivity runs with a larger link-2 buffer (experiment
  table3_buffer), and their coefficients of variation over the paper's
  (:func:`sensitivity_table_checks`).

A module of its own, apart from analysis/tang.py, so that its code inputs are this step's:
editing it remakes this step alone (rules/common.smk step_module).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence

import pandas as pd

from analysis import nsio
from analysis.cli import analysis_parser, extra_dir, need, parse, run_dirs
from analysis.compare import load_originals
from analysis.models.tang.network import DropTailPrice, Flow, Link, Network, mbps_to_pkts
from analysis.models.tang.solver import find_equilibria
from analysis.outputs import write_numbers, write_tidy
from analysis.tang import ROUTES, cv_ratio_checks, table_numbers, window_table

#: the step (and its experiment) this module makes
STEP = "table3_buffer"
#: the table whose rows the step's runs check
TABLE = "table3"
#: suffix of the check values of Table 3's rows under the step's runs
SUFFIX = "buffer_holds_queue"
#: suffix of the check values per link (``check.table3.link<i>.<suffix>``)
FAST_QUEUE_CHECK = "fast_equilibrium_queue_over_buffer"
#: the ``--params`` key of Table 3's configured run set
TABLE_SET = "experiments.table3.set"


def all_fast_network(params: Mapping[str, float]) -> Network:
    """The Fig 1 chain with every flow FAST (Table 3) as the model of Sec 2 sees it: link
    capacities ``bw<i>`` (b/s) in packets of ``pkt_size`` bytes, one-way delays ``delay<i>``,
    each link priced by its queueing delay alone (DropTail), ``n_short`` flows of alpha
    ``alpha`` packets on each short path and ``n_long`` of ``alpha_long`` on the long one."""
    pkt = float(params["pkt_size"])
    links = tuple(
        Link(
            float(mbps_to_pkts(float(params[f"bw{i}"]) / 1e6, pkt)),
            DropTailPrice(),
            float(params[f"delay{i}"]),
        )
        for i in (1, 2, 3)
    )
    counts = (int(params["n_short"]), int(params["n_short"]), int(params["n_long"]))
    alphas = (float(params["alpha"]), float(params["alpha"]), float(params["alpha_long"]))
    flows = tuple(
        Flow("fast", route, n, None, a, "packets")
        for route, n, a in zip(ROUTES["fig1"], counts, alphas, strict=True)
    )
    return Network(links, flows, reno_rtt_includes_queueing=False)


def fast_queue_over_buffer(params: Mapping[str, float]) -> dict[int, float]:
    """Per link (1-based) of :func:`all_fast_network` of ``params``: the queueing delay FAST's
    (unique) equilibrium puts at the link, over the largest delay its buffer can give (``buf<i>``
    packets of ``pkt_size`` bytes drained at ``bw<i>``). Above 1 the buffer cannot hold the
    equilibrium's queue: the flows overflow it and lose packets instead of settling with alpha
    packets each queued along their path."""
    eqs = find_equilibria(all_fast_network(params))
    if len(eqs) != 1:
        raise RuntimeError(f"all-FAST network: expected one equilibrium, found {len(eqs)}")
    out: dict[int, float] = {}
    for i, delay in enumerate(eqs[0].delay, start=1):
        held = float(params[f"buf{i}"]) * 8.0 * float(params["pkt_size"]) / float(params[f"bw{i}"])
        out[i] = float(delay) / held
    return out


def stated_network(run: Mapping[str, object], params: Mapping[str, object]) -> dict[str, object]:
    """Table 3's network: the parameters of one of the step's runs (``run``) with Table 3's
    configured set (``--params``) over them, which the step's experiment changes (link 2's
    buffer)."""
    if TABLE_SET not in params:
        raise ValueError(f"{STEP}: --params needs '{TABLE_SET}'")
    table_set = params[TABLE_SET]
    if not isinstance(table_set, Mapping):
        raise ValueError(f"{STEP}: --params '{TABLE_SET}' is not a mapping")
    return {**run, **table_set}


def sensitivity_table_checks(
    w: pd.DataFrame, published: Mapping[str, float] | None, suffix: str = SUFFIX
) -> dict[str, float]:
    """Table 3's rows from a sensitivity step's runs (window table ``w``) as
    ``check.<row>.<suffix>``, and with ``published`` their coefficients of variation over the
    paper's (``check.<row>.cv_ratio_<suffix>``, :func:`analysis.tang.cv_ratio_checks`)."""
    rows = table_numbers(TABLE, w)
    out = {f"check.{k}.{suffix}": v for k, v in rows.items()}
    if published is not None:
        out.update({f"{k}_{suffix}": v for k, v in cv_ratio_checks(rows, published).items()})
    return out


def analyse(
    run: Mapping[str, object],
    params: Mapping[str, object],
    w: pd.DataFrame,
    published: Mapping[str, float] | None,
) -> dict[str, float]:
    """Every number of the step: the stated network's queue over buffer per link
    (:func:`stated_network` of ``run``, one run's parameters), and the step's runs' Table 3
    rows (window table ``w``)."""
    numbers = {
        f"check.{TABLE}.link{i}.{FAST_QUEUE_CHECK}": v
        for i, v in fast_queue_over_buffer(stated_network(run, params)).items()  # type: ignore[arg-type]
    }
    numbers.update(sensitivity_table_checks(w, published))
    return numbers


def main(argv: Sequence[str] | None = None) -> int:
    ap = analysis_parser(
        "python -m analysis.tang_buffer", "Tang et al. 2005: Table 3 and link 2's buffer", [STEP]
    )
    a = parse(ap, argv)
    need(ap, a, "--tidy", "--numbers", "--extra", "--runs")
    extra_dir(ap, a)
    dirs = run_dirs(a.runs)
    w = window_table(dirs)
    pub = {p.key: p.published for p in load_originals(a.originals)} if a.originals else None
    run = nsio.read_summary(dirs[0])["params"]
    write_tidy(w, a.tidy)
    write_numbers(analyse(run, a.params, w, pub), a.numbers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
