"""The joint NE at the paper's own NE profile: its goodput and loss (docs/akella2002.md A22),
and whether the paper's beta_E is an equilibrium of our network (A23).

Sec 4.2.1, 4.3.1-4.3.3 and 5.1 give each joint equilibrium as a profile (alpha_E, beta_E)
with the goodput and loss rate at it. A regenerated row can differ because our search stops at
another profile, or because our network gives the same profile another goodput or loss. The
experiments ``<search>_published_ne`` (:func:`published_profile_experiments`; the workflow adds
them, rules/akella2002.smk, from the originals: no published number is typed into the config)
run the joint search's set-up with every flow at the paper's (alpha_E, beta_E);
:func:`profile_checks` gives their per-flow goodput and loss as ``check.<key>.published_profile``
(rule akella2002_profiles, one job, bundled: numbers-profiles.csv).

A joint search can also stop at another beta_E than the paper's when both pass the paper's stop
rule (Sec 4.1: the search stops when the best reply is the current value). The searches
``<tcp>_<queue>_beta_at_ne`` (:func:`published_start_experiments`, made by the workflow for the
rows whose diagnosis names the check, :func:`start_joints`) are beta best-response searches
with every flow's alpha at the paper's alpha_E, started at its beta_E; :func:`start_checks`
gives their beta_E as ``check.<key>.published_start``. For the rows whose diagnosis names an
unstated parameter instead (check ``check.<key>.published_start_tested``), the workflow also
reruns that search under every tested value of config ``akella2002.sensitivity``
(:func:`tested_start_searches`: the searches ``<tcp>_<queue>_beta_at_ne@<value>``), and
:func:`start_checks` gives the beta_E nearest the paper's of those that stop.

The alpha searches whose NE goodput and loss the paper gives (Sec 4.3.2-4.3.3) get the same
experiment, every flow at the paper's alpha_E and the alpha searches' beta (Sec 4.1), when
given that beta (``alpha_beta``; the workflow gives it from the config).

The profile runs are also made under tested values of parameters the paper does not state
(config ``akella2002.profiles``, :func:`tested_values`; experiments
``<search>_published_ne_<value>``); :func:`tested_checks` gives, for each parameter, the row's
value under the tested value nearest the paper's as ``check.<key>.published_profile_<parameter>``,
and where the paper's value lies in the range of the row's values under the default and the
tested values as ``check.<key>.published_profile_<parameter>_between``.

    python -m analysis.akella2002_profiles --figures fig07 ... --runs <summary.json> ... \
        [--searches <search.json> ...] [--tested <summary.json> ... --values <json>] \
        --originals config/originals/akella2002.yaml --numbers numbers-profiles.csv

Apart from analysis.akella2002, whose every analysis step the bundle pins by its code: a check
added here leaves them, and the searches, as they are.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from analysis import config as conf
from analysis import nsio
from analysis.akella2002 import PUBLISHED, number_key
from analysis.akella2002 import _closest_tested as closest_tested
from analysis.akella2002 import _points as points_of_runs
from analysis.akella2002_search import (
    NE_FIGURES,
    PAPER,
    VARIANT_SEP,
    SensValue,
    profile_metrics,
    read_point_rows,
    sensitivity,
)
from analysis.compare import Published, load_originals, verdict
from analysis.diagnosis import CHECK_PREFIX, Diagnosis
from analysis.outputs import write_numbers

#: The check of a joint NE's published goodput and loss at the paper's own NE profile: the same
#: metric of our runs with every flow at the published (alpha_E, beta_E), ``check.<key>.<this>``
PROFILE_CHECK = "published_profile"
#: The experiment that simulates a joint search's published NE profile (made by the workflow,
#: rules/akella2002.smk, from the search's experiment and the originals: never typed)
PROFILE_EXPERIMENT = "{search}_published_ne"
#: The config (under the paper) of the tested values the profiles are also simulated under
TESTED_CONFIG = "profiles"
#: A profile experiment under one tested value (``value``: its name in the config)
TESTED_EXPERIMENT = PROFILE_EXPERIMENT + "_{value}"
#: The check of a joint NE's goodput or loss at the paper's profile under the tested values of
#: one parameter: the value nearest the published one, ``check.<key>.<this>``
TESTED_CHECK = PROFILE_CHECK + "_{parameter}"
#: The check of a joint NE's goodput or loss against our runs at the paper's profile under the
#: default and every tested value of one parameter: where the published number lies in the
#: range of those values (:func:`position_in_range`: 0 to 1 inside it), ``check.<key>.<this>``
BETWEEN_CHECK = TESTED_CHECK + "_between"
#: The row's value at the paper's profile under one tested value (``value``: its name in the
#: config), every one of them in the numbers, so a reader sees each size's goodput and loss
#: beside the nearest: ``check.<key>.<this>``
UNDER_VALUE = PROFILE_CHECK + "_under_{value}"
#: The check of a joint NE's published beta_E: the beta_E of our beta best-response search with
#: every flow's alpha at the published alpha_E, started at the published beta_E,
#: ``check.<key>.<this>``
START_CHECK = "published_start"
#: That search's experiment (made by the workflow from the joint search's experiment and the
#: originals, for the rows whose diagnosis names the check: never typed)
START_SEARCH = "{tcp}_{queue}_beta_at_ne"
#: The check of a joint NE's published beta_E under the tested values of the parameters the
#: paper does not state (config ``akella2002.sensitivity``, whose every value the workflow
#: reruns the :data:`START_SEARCH` search under): of those searches that stop, the beta_E
#: nearest the published one, ``check.<key>.<this>``
START_TESTED_CHECK = START_CHECK + "_tested"


def published_ne(published: Mapping[str, Published]) -> dict[str, tuple[float, float]]:
    """{joint search: (alpha_E, beta_E) the paper reports} for every joint search whose NE the
    paper gives (both numbers); ``published`` by key, as in the originals."""
    out: dict[str, tuple[float, float]] = {}
    for figure, (tcp, queue) in NE_FIGURES.items():
        keys = [number_key(figure, "joint", m) for m in ("alpha_e", "beta_e")]
        if all(k in published for k in keys):
            a, b = (float(published[k].published) for k in keys)  # type: ignore[arg-type]
            out[f"{tcp}_{queue}_joint"] = (a, b)
    return out


def published_profiles(
    published: Mapping[str, Published], alpha_beta: float | None = None
) -> dict[str, tuple[float, float]]:
    """:func:`published_ne` of every joint search whose NE goodput and loss the paper gives
    (:data:`PUBLISHED`), and, given ``alpha_beta`` (the beta every flow keeps in an alpha
    search, Sec 4.1), (alpha_E, alpha_beta) of every alpha search whose NE goodput and loss it
    gives. ValueError when the paper gives that goodput but not the profile."""
    ne = published_ne(published)
    out: dict[str, tuple[float, float]] = {}
    for figure, modes in PUBLISHED.items():
        tcp, queue = NE_FIGURES[figure]
        if "ne_goodput" in modes["joint"]:
            search = f"{tcp}_{queue}_joint"
            if search not in ne:
                for metric in ("alpha_e", "beta_e"):
                    key = number_key(figure, "joint", metric)
                    if key not in published:
                        raise ValueError(
                            f"{key}: the joint NE's goodput is published, its {metric} not"
                        )
            out[search] = ne[search]
        if alpha_beta is not None and "ne_goodput" in modes["alpha"]:
            key = number_key(figure, "alpha", "alpha_e")
            if key not in published:
                raise ValueError(f"{key}: the alpha NE's goodput is published, its alpha_e not")
            out[f"{tcp}_{queue}_alpha"] = (float(published[key].published), alpha_beta)  # type: ignore[arg-type]
    return out


def figure_profiles(
    figure: str, published: Mapping[str, Published], alpha_beta: float | None
) -> list[tuple[str, dict[str, object]]]:
    """(mode, the point's coordinates) of each of ``figure``'s searches whose NE goodput and
    loss the paper gives (:func:`published_profiles`), every flow at the paper's NE."""
    tcp, queue = NE_FIGURES[figure]
    profiles = published_profiles(published, alpha_beta)
    out: list[tuple[str, dict[str, object]]] = []
    for mode in ("alpha", "joint"):
        if f"{tcp}_{queue}_{mode}" in profiles:
            a, b = profiles[f"{tcp}_{queue}_{mode}"]
            point = {"tcp": tcp, "queue": queue, "alpha": a, "beta": b, "alpha_n": a, "beta_n": b}
            out.append((mode, point))
    return out


def tested_values(config: Mapping) -> tuple[SensValue, ...]:
    """The tested values of config ``akella2002.profiles`` (none without it), checked as a
    sensitivity parameter's values are (:func:`analysis.akella2002_search.sensitivity`: only
    parameters the paper does not state, of their type). ConfigError naming the key."""
    pconf = config[PAPER]
    params = pconf.get(TESTED_CONFIG)
    if params is None:
        return ()
    if not isinstance(params, Mapping) or not params:
        raise conf.ConfigError(f"config: '{PAPER}.{TESTED_CONFIG}' must name a parameter")
    searches = [n for n, e in pconf["experiments"].items() if "search" in e.get("design", {})]
    probe = {"searches": searches[:1], "parameters": params}
    try:
        sens = sensitivity({PAPER: {**pconf, "sensitivity": probe}}, "paper")
    except conf.ConfigError as e:
        where = f"{PAPER}.{TESTED_CONFIG}"
        raise conf.ConfigError(str(e).replace(f"{PAPER}.sensitivity.parameters", where)) from None
    assert sens is not None
    return sens.values


def values_arg(values: Sequence[SensValue]) -> str:
    """The tested values as the command line's ``--values`` takes them (JSON)."""
    return json.dumps([[v.parameter, v.name, v.label, dict(v.set)] for v in values])


def published_profile_experiments(
    experiments: Mapping[str, Mapping],
    published: Mapping[str, Published],
    values: Sequence[SensValue] = (),
    alpha_beta: float | None = None,
) -> dict[str, dict]:
    """The experiments that simulate the published NE profiles (:func:`published_profiles`):
    each search's experiment (family, set-up, seeds and per-fidelity settings) with every flow
    at the paper's (alpha_E, beta_E), one point, and the same under each of the tested
    ``values`` (:func:`tested_values`). The runs are the check of the NE goodput and loss rows
    (:func:`profile_checks`, :func:`tested_checks`)."""
    out: dict[str, dict] = {}
    for search, (a, b) in published_profiles(published, alpha_beta).items():
        exp = experiments[search]
        pinned = {"alpha": [a], "beta": [b], "alpha_n": [a], "beta_n": [b]}
        title = f"{exp['title']}: every flow at the paper's NE (alpha, beta) = ({a:g}, {b:g})"
        levels = {
            fid: {**{k: v for k, v in lv.items() if k != "sweep"}, "sweep": pinned}
            for fid, lv in exp["fidelity"].items()
        }
        base = dict(exp.get("set", {}))
        out[PROFILE_EXPERIMENT.format(search=search)] = {
            "family": exp["family"], "title": title, "set": base, "fidelity": levels
        }  # fmt: skip
        for v in values:
            out[TESTED_EXPERIMENT.format(search=search, value=v.name)] = {
                "family": exp["family"],
                "title": f"{title}, {v.parameter} {v.label} (tested value)",
                "set": {**base, **dict(v.set)},
                "fidelity": levels,
            }
    return out


def _start_row(d: Diagnosis, suffixes: Sequence[str]) -> str | None:
    """The row a diagnosis's published-start check (one of ``suffixes``) is computed for, None
    when its check is another."""
    for suffix in suffixes:
        if d.check.endswith(f".{suffix}"):
            return d.check[len(CHECK_PREFIX) : -len(suffix) - 1]
    return None


def start_joints(diagnoses: Iterable[Diagnosis]) -> list[str]:
    """The joint searches whose beta_E row has a diagnosis that names a published-start check
    (``check.text.<joint>.beta_e.published_start``, or ``..._tested``): the searches
    :func:`published_start_experiments` makes. ValueError for the check named on another row."""
    out: set[str] = set()
    for d in diagnoses:
        row = _start_row(d, (START_CHECK, START_TESTED_CHECK))
        if row is None:
            continue
        parts = row.split(".")
        if row != d.key or len(parts) != 3 or parts[0] != "text" or parts[2] != "beta_e":
            raise ValueError(
                f"{d.key}: the check {d.check} is a joint NE's beta_E at the paper's NE "
                "(check.text.<joint search>.beta_e.published_start, on that row)"
            )
        out.add(parts[1])
    return sorted(out)


def tested_start_searches(diagnoses: Iterable[Diagnosis]) -> list[str]:
    """The :data:`START_SEARCH` searches of the joint beta_E rows whose diagnosis names
    :data:`START_TESTED_CHECK`: the workflow adds them to the searches config
    ``akella2002.sensitivity`` reruns under its tested values."""
    joints = start_joints(d for d in diagnoses if _start_row(d, (START_TESTED_CHECK,)))
    return [START_SEARCH.format(tcp=j.split("_")[0], queue=j.split("_")[1]) for j in joints]


def published_start_experiments(
    experiments: Mapping[str, Mapping],
    published: Mapping[str, Published],
    joints: Iterable[str],
) -> dict[str, dict]:
    """For each of ``joints`` (joint searches with a published NE profile), a beta
    best-response search (Sec 4.1's beta set-up, the joint search's settings, grids, seeds and
    runs) with every flow's alpha at the paper's alpha_E, started with every flow at its
    beta_E. ValueError for a joint search the paper gives no NE profile of."""
    profiles = published_ne(published)
    out: dict[str, dict] = {}
    for search in joints:
        if search not in profiles:
            raise ValueError(f"{search}: the paper gives no joint NE profile of this search")
        a, b = profiles[search]
        exp = experiments[search]
        tcp, queue = exp["set"]["tcp"], exp["set"]["queue"]
        out[START_SEARCH.format(tcp=tcp, queue=queue)] = {
            "family": exp["family"],
            "title": f"{exp['title']}: beta search from the paper's NE (alpha, beta) = "
            f"({a:g}, {b:g}), every flow's alpha at {a:g}",
            "set": {**exp["set"], "alpha": a, "beta": b, "alpha_n": a, "beta_n": b},
            "design": {**exp["design"], "search": "beta"},
            "fidelity": exp["fidelity"],
        }
    return out


def start_checks(
    records: Sequence[Mapping], published: Mapping[str, Published]
) -> dict[str, float]:
    """``check.text.<joint>.beta_e.published_start``: the beta_E of each record, a finished
    :data:`START_SEARCH` search (none for one that did not converge: its last pick is no
    equilibrium). The records of that search under tested values (``<search>@<value>``) give
    ``check.text.<joint>.beta_e.published_start_tested`` instead: of those that converged,
    the beta_E nearest the published one. It is nan when none did, and when the search under
    our defaults (given) already stops within the published tolerance: then the paper's
    profile is an equilibrium of our network as it is, and no tested value is what separates
    the row from the paper's. ValueError for a record of any other search or start."""
    profiles = published_ne(published)
    out: dict[str, float] = {}
    tested: dict[str, list[float]] = {}
    default_holds: set[str] = set()
    for r in records:
        tcp, queue, name = str(r["tcp"]), str(r["queue"]), str(r["search"])
        joint = f"{tcp}_{queue}_joint"
        base, _, variant = name.partition(VARIANT_SEP)
        if base != START_SEARCH.format(tcp=tcp, queue=queue) or r["mode"] != "beta":
            raise ValueError(f"{name}: not a beta search from the paper's joint NE")
        if joint not in profiles or tuple(map(float, r["spec"]["start"])) != profiles[joint]:
            raise ValueError(f"{name}: not started at the paper's joint NE profile of {joint}")
        if variant:
            got = tested.setdefault(joint, [])
            if r["converged"]:
                got.append(float(r["beta_e"]))
        elif r["converged"]:
            out[f"check.text.{joint}.beta_e.{START_CHECK}"] = float(r["beta_e"])
            if verdict(published[f"text.{joint}.beta_e"], repr(float(r["beta_e"]))) == "ok":
                default_holds.add(joint)
    for joint, got in tested.items():
        key = f"text.{joint}.beta_e"
        out[f"check.{key}.{START_TESTED_CHECK}"] = (
            math.nan if joint in default_holds else closest_tested(got, published[key])
        )
    return out


def profile_checks(
    figure: str,
    point_dirs: Sequence[Path],
    seeds: Sequence[int],
    published: Mapping[str, Published],
    alpha_beta: float | None = None,
) -> dict[str, float]:
    """``check.<key>.published_profile`` of ``figure``'s NE goodput and loss
    (:func:`figure_profiles`): the per-flow goodput and loss (:func:`profile_metrics`, as the
    search's NE) of the runs of the point with every flow at the paper's (alpha_E, beta_E).
    ValueError when no point given is it."""
    out: dict[str, float] = {}
    for mode, want in figure_profiles(figure, published, alpha_beta):
        m = _metrics_at(point_dirs, seeds, want, f"{figure}: no run of the published NE profile")
        out |= {
            f"check.{number_key(figure, mode, metric)}.{PROFILE_CHECK}": m[metric[3:]]
            for metric in ("ne_goodput", "ne_loss")
        }
    return out


def _same(got: object, want: object) -> bool:
    """A run's parameter (as its summary.json gives it; None when it has none) equals a
    configured value."""
    if got is None:
        return False
    if isinstance(want, (int, float)) and not isinstance(want, bool):
        return float(got) == float(want)  # type: ignore[arg-type]
    return str(got).lower() == str(want).lower()


def _metrics_at(
    point_dirs: Sequence[Path], seeds: Sequence[int], wanted: Mapping[str, object], missing: str
) -> dict[str, float]:
    """:func:`profile_metrics` of the first of ``point_dirs`` whose runs have every parameter
    of ``wanted``. ValueError (``missing``, then ``wanted``) when none has."""
    for d in point_dirs:
        got = nsio.read_summary(Path(d) / f"s{seeds[0]}")["params"]
        if all(_same(got.get(k), x) for k, x in wanted.items()):
            return profile_metrics(read_point_rows(d, seeds))
    raise ValueError(f"{missing} {dict(wanted)} among the points given")


def position_in_range(values: Sequence[float], published: float) -> float:
    """Where ``published`` lies in the range of ``values``: (published - min) / (max - min),
    0 to 1 inside it, below 0 or above 1 outside it; nan without two distinct finite values.
    Inside, a metric continuous in a scalar parameter takes the published number at some
    value of the parameter between two of those it was measured at."""
    finite = [v for v in values if math.isfinite(v)]
    if len(finite) < 2 or min(finite) == max(finite):
        return math.nan
    lo, hi = min(finite), max(finite)
    return (published - lo) / (hi - lo)


def tested_checks(
    figure: str,
    point_dirs: Sequence[Path],
    seeds: Sequence[int],
    published: Mapping[str, Published],
    values: Sequence[SensValue],
    alpha_beta: float | None = None,
    defaults: Mapping[str, float] | None = None,
) -> dict[str, float]:
    """``check.<key>.published_profile_<parameter>`` of ``figure``'s NE goodput and loss
    (:func:`figure_profiles`), for each parameter of ``values``: the per-flow goodput or loss
    (as :func:`profile_checks`) with every flow at the paper's (alpha_E, beta_E) under each
    tested value of it, the one nearest the published number, and each tested value's as
    ``check.<key>.published_profile_under_<value>``. With ``defaults`` (the
    :func:`profile_checks` of the figure), also ``check.<key>.published_profile_<parameter>_
    between``: :func:`position_in_range` of the published number among the default's value and
    the tested values' (a published range or bound has none). ValueError when no point given
    is that profile under one of the values."""
    out: dict[str, float] = {}
    for mode, want in figure_profiles(figure, published, alpha_beta):
        under: dict[str, list[dict[str, float]]] = {}
        for v in values:
            missing = f"{figure}: no run of the published NE profile under {v.parameter} {v.label}"
            m = _metrics_at(point_dirs, seeds, want | dict(v.set), missing)
            under.setdefault(v.parameter, []).append(m)
            for metric in ("ne_goodput", "ne_loss"):
                key = number_key(figure, mode, metric)
                out[f"check.{key}.{UNDER_VALUE.format(value=v.name)}"] = m[metric[3:]]
        for parameter, metrics in under.items():
            for metric in ("ne_goodput", "ne_loss"):
                key = number_key(figure, mode, metric)
                got = [m[metric[3:]] for m in metrics]
                out[f"check.{key}.{TESTED_CHECK.format(parameter=parameter)}"] = closest_tested(
                    got, published[key]
                )
                pub = published[key]
                default = (defaults or {}).get(f"check.{key}.{PROFILE_CHECK}")
                if default is not None and pub.kind == "value":
                    out[f"check.{key}.{BETWEEN_CHECK.format(parameter=parameter)}"] = (
                        position_in_range([default, *got], float(pub.published))  # type: ignore[arg-type]
                    )
    return out


def checks_of_runs(
    figures: Sequence[str],
    summaries: Sequence[Path],
    published: Mapping[str, Published],
    alpha_beta: float | None = None,
) -> dict[str, float]:
    """:func:`profile_checks` of each of ``figures`` (those whose searches were made), from
    the summary.json of the profile experiments' runs (``<point>/s<seed>/summary.json``)."""
    dirs, seeds = points_of_runs(summaries)
    out: dict[str, float] = {}
    for figure in figures:
        out.update(profile_checks(figure, dirs, seeds, published, alpha_beta))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m analysis.akella2002_profiles",
        description="the NE at the paper's own NE profiles: check.<key>.published_profile "
        "of each figure given, from the runs at those profiles, and "
        "check.<key>.published_start of each beta search from them given",
    )
    ap.add_argument("--figures", nargs="+", required=True, choices=sorted(NE_FIGURES))
    ap.add_argument("--runs", type=Path, nargs="+", required=True, help="the runs' summary.json")
    ap.add_argument(
        "--searches", type=Path, nargs="*", default=[], help="the beta_at_ne searches' records"
    )
    ap.add_argument(
        "--tested", type=Path, nargs="*", default=[], help="summary.json of the tested values' runs"
    )
    ap.add_argument(
        "--values",
        default="[]",
        help="the tested values, JSON: [[parameter, name, label, {parameter: value}], ...]",
    )
    ap.add_argument(
        "--alpha-beta",
        type=float,
        default=None,
        help="the beta of every flow in an alpha search (Sec 4.1): the alpha searches' NE "
        "profiles are checked too",
    )
    ap.add_argument("--originals", type=Path, required=True)
    ap.add_argument("--numbers", type=Path, required=True)
    a = ap.parse_args(argv)
    published = {p.key: p for p in load_originals(a.originals)}
    try:
        checks = checks_of_runs(a.figures, a.runs, published, a.alpha_beta)
        values = [
            SensValue(str(p), str(n), str(lb), tuple(sorted(st.items())), "")
            for p, n, lb, st in json.loads(a.values)
        ]
        if values:
            dirs, seeds = points_of_runs(a.tested)
            for figure in a.figures:
                checks.update(
                    tested_checks(figure, dirs, seeds, published, values, a.alpha_beta, checks)
                )
        records = [json.loads(p.read_text()) for p in a.searches]
        checks.update(start_checks(records, published))
    except ValueError as e:
        ap.error(str(e))
    write_numbers(checks, a.numbers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
