"""The joint NE's goodput and loss at the paper's own NE profile (docs/akella2002.md A22).

Sec 4.2.1, 4.3.1-4.3.3 and 5.1 give each joint equilibrium as a profile (alpha_E, beta_E)
with the goodput and loss rate at it. A regenerated row can differ because our search stops at
another profile, or because our network gives the same profile another goodput or loss. The
experiments ``<search>_published_ne`` (:func:`published_profile_experiments`; the workflow adds
them, rules/akella2002.smk, from the originals: no published number is typed into the config)
run the joint search's set-up with every flow at the paper's (alpha_E, beta_E);
:func:`profile_checks` gives their per-flow goodput and loss as ``check.<key>.published_profile``
(rule akella2002_profiles, one job, bundled: numbers-profiles.csv).

    python -m analysis.akella2002_profiles --figures fig07 ... --runs <summary.json> ... \
        --originals config/originals/akella2002.yaml --numbers numbers-profiles.csv

Apart from analysis.akella2002, whose every analysis step the bundle pins by its code: a check
added here leaves them, and the searches, as they are.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from analysis.akella2002 import PUBLISHED, number_key
from analysis.akella2002 import _points as points_of_runs
from analysis.akella2002_search import NE_FIGURES, profile_metrics, read_point_rows
from analysis.compare import Published, load_originals
from analysis.outputs import write_numbers

#: The check of a joint NE's published goodput and loss at the paper's own NE profile: the same
#: metric of our runs with every flow at the published (alpha_E, beta_E), ``check.<key>.<this>``
PROFILE_CHECK = "published_profile"
#: The experiment that simulates a joint search's published NE profile (made by the workflow,
#: rules/akella2002.smk, from the search's experiment and the originals: never typed)
PROFILE_EXPERIMENT = "{search}_published_ne"


def published_profiles(published: Mapping[str, Published]) -> dict[str, tuple[float, float]]:
    """{joint search: (alpha_E, beta_E) the paper reports} for every joint search whose NE
    goodput and loss the paper gives (:data:`PUBLISHED`); ``published`` by key, as in the
    originals."""
    out: dict[str, tuple[float, float]] = {}
    for figure, modes in PUBLISHED.items():
        if "ne_goodput" not in modes["joint"]:
            continue
        tcp, queue = NE_FIGURES[figure]
        ab = []
        for metric in ("alpha_e", "beta_e"):
            key = number_key(figure, "joint", metric)
            if key not in published:
                raise ValueError(f"{key}: the joint NE's goodput is published, its {metric} not")
            ab.append(float(published[key].published))  # type: ignore[arg-type]
        out[f"{tcp}_{queue}_joint"] = (ab[0], ab[1])
    return out


def published_profile_experiments(
    experiments: Mapping[str, Mapping], published: Mapping[str, Published]
) -> dict[str, dict]:
    """The experiments that simulate the published joint NE profiles: each joint search's
    experiment (family, set-up, seeds and per-fidelity settings) with every flow at the
    paper's (alpha_E, beta_E), one point. The runs are the check of the NE goodput and loss
    rows (:func:`profile_checks`)."""
    out: dict[str, dict] = {}
    for search, (a, b) in published_profiles(published).items():
        exp = experiments[search]
        pinned = {"alpha": [a], "beta": [b], "alpha_n": [a], "beta_n": [b]}
        out[PROFILE_EXPERIMENT.format(search=search)] = {
            "family": exp["family"],
            "title": f"{exp['title']}: every flow at the paper's NE (alpha, beta) = ({a:g}, {b:g})",
            "set": dict(exp.get("set", {})),
            "fidelity": {
                fid: {**{k: v for k, v in lv.items() if k != "sweep"}, "sweep": pinned}
                for fid, lv in exp["fidelity"].items()
            },
        }
    return out


def profile_checks(
    figure: str,
    point_dirs: Sequence[Path],
    seeds: Sequence[int],
    published: Mapping[str, Published],
) -> dict[str, float]:
    """``check.<key>.published_profile`` of ``figure``'s joint NE goodput and loss: the per-flow
    goodput and loss (:func:`profile_metrics`, as the search's NE) of the runs of the point
    with every flow at the paper's (alpha_E, beta_E). ValueError when no point given is it."""
    tcp, queue = NE_FIGURES[figure]
    if "ne_goodput" not in PUBLISHED[figure]["joint"]:
        return {}
    a, b = published_profiles(published)[f"{tcp}_{queue}_joint"]
    want = {"tcp": tcp, "queue": queue, "alpha": a, "beta": b, "alpha_n": a, "beta_n": b}
    for d in point_dirs:
        rows = read_point_rows(d, seeds)
        got = {k: rows[0][f"p_{k}"] for k in want}
        if all(got[k] == v if isinstance(v, str) else float(got[k]) == v for k, v in want.items()):
            m = profile_metrics(rows)
            return {
                f"check.{number_key(figure, 'joint', metric)}.{PROFILE_CHECK}": m[metric[3:]]
                for metric in ("ne_goodput", "ne_loss")
            }
    raise ValueError(f"{figure}: no run of the published NE profile {want} among the points given")


def checks_of_runs(
    figures: Sequence[str], summaries: Sequence[Path], published: Mapping[str, Published]
) -> dict[str, float]:
    """:func:`profile_checks` of each of ``figures`` (those whose joint search was made), from
    the summary.json of the profile experiments' runs (``<point>/s<seed>/summary.json``)."""
    dirs, seeds = points_of_runs(summaries)
    out: dict[str, float] = {}
    for figure in figures:
        out.update(profile_checks(figure, dirs, seeds, published))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m analysis.akella2002_profiles",
        description="the joint NE's goodput and loss at the paper's own NE profiles: "
        "check.<key>.published_profile of each figure given, from the runs at those profiles",
    )
    ap.add_argument("--figures", nargs="+", required=True, choices=sorted(NE_FIGURES))
    ap.add_argument("--runs", type=Path, nargs="+", required=True, help="the runs' summary.json")
    ap.add_argument("--originals", type=Path, required=True)
    ap.add_argument("--numbers", type=Path, required=True)
    a = ap.parse_args(argv)
    published = {p.key: p for p in load_originals(a.originals)}
    try:
        checks = checks_of_runs(a.figures, a.runs, published)
    except ValueError as e:
        ap.error(str(e))
    write_numbers(checks, a.numbers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
