"""Akella et al., Sec 5.1's plain CHOKe with few flows under the tested round-trip times: the
analysis step ``choke_rtt`` (``python -m analysis.akella2002_choke_rtt choke_rtt``,
analysis/cli.py's flags).

Sec 5.1 says plain CHOKe's loss floor of 1/N makes "relatively small number of flows (< 50)"
under-use the link. The paper states no round-trip time for its simulations (ours 120 ms,
docs/akella2002.md A1). The labelled sensitivity experiments ``choke_flows_rtt40`` and
``choke_flows_rtt200`` repeat the plain-CHOKe sweep (the step ``choke``) at the project's
tested round-trip times, with the buffer and RED thresholds that follow from each (the
sensitivity design's ``rtt40`` and ``rtt200``). Under each, the largest under-used N is
:func:`analysis.akella2002.too_few_flows` of the sweep; the row's check value is that number
under the tested round-trip time at which the fewest swept flows under-use the link, nearest
the published bound (:func:`rtt_checks`).

A module of its own, apart from analysis/akella2002.py, so that its code inputs are this
step's (rules/common.smk step_module).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from analysis import akella2002 as ak
from analysis import cli, nsio
from analysis.compare import Published, load_originals
from analysis.outputs import write_numbers, write_tidy

#: the step (its experiments: choke_flows_rtt40, choke_flows_rtt200) this module makes
STEP = "choke_rtt"
#: the check value of the row's diagnosis (config/diagnoses/akella2002.yaml)
CHECK = f"check.{ak.CHOKE_FEW_FLOWS}.rtt"


def rtt_of(point_dir: Path, seed: int) -> float:
    """A point's round-trip propagation time (s), from one run's summary."""
    return float(nsio.read_summary(point_dir / f"s{seed}")["results"]["base_rtt_s"])


def rtt_checks(
    point_dirs: Sequence[Path], seeds: Sequence[int], underuse: float, pub: Published
) -> tuple[pd.DataFrame, dict[str, float]]:
    """The plain-CHOKe sweep per tested round-trip time (:func:`analysis.akella2002.choke_flows`
    of its points, with a column ``rtt_s``) and, per time, its largest under-used N
    (``check.choke.too_few_flows.rtt_<ms>ms``). :data:`CHECK`: of the times at which the fewest
    swept flows under-use the link (the sentence's situation), the value nearest ``pub``; absent
    when there is none. ValueError without points."""
    if not point_dirs:
        raise ValueError("no plain-CHOKe points given")
    groups: dict[float, list[Path]] = {}
    for d in point_dirs:
        groups.setdefault(rtt_of(Path(d), seeds[0]), []).append(Path(d))
    tables, numbers, regime = [], {}, {}
    for rtt, dirs in sorted(groups.items()):
        first = nsio.read_summary(dirs[0] / f"s{seeds[0]}")["params"]
        own = (float(first["red_thresh"]), float(first["red_maxthresh"]))
        tidy, found = ak.choke_flows(dirs, seeds, underuse, own, pub)
        tidy.insert(0, "rtt_s", rtt)
        tables.append(tidy)
        numbers[f"check.{ak.CHOKE_FEW_FLOWS}.rtt_{rtt * 1000:g}ms"] = found[ak.CHOKE_FEW_FLOWS]
        regime[rtt] = bool(tidy["utilisation"].iloc[0] < underuse)  # the fewest flows (sorted)
    tested = [
        numbers[f"check.{ak.CHOKE_FEW_FLOWS}.rtt_{rtt * 1000:g}ms"]
        for rtt, r in regime.items()
        if r
    ]
    if tested:
        numbers[CHECK] = ak._closest_tested(tested, pub)
    return pd.concat(tables, ignore_index=True), {
        k: v for k, v in numbers.items() if not (isinstance(v, float) and math.isnan(v))
    }


def main(argv: Sequence[str] | None = None) -> int:
    ap = cli.analysis_parser(
        "python -m analysis.akella2002_choke_rtt",
        "Akella et al. 2002: plain CHOKe with few flows under the tested round-trip times",
        [STEP],
    )
    a = cli.parse(ap, argv)
    cli.need(ap, a, "--tidy", "--numbers", "--extra", "--runs", "--originals")
    cli.extra_dir(ap, a)
    dirs, seeds = ak._points(a.runs)
    (pub,) = [p for p in load_originals(a.originals) if p.key == ak.CHOKE_FEW_FLOWS]
    underuse = float(cli.param(ap, a, ak.UNDERUSE))  # type: ignore[arg-type]
    tidy, numbers = rtt_checks(dirs, seeds, underuse, pub)
    write_tidy(tidy, a.tidy)
    write_numbers(numbers, a.numbers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
