"""The report layer: the headline counts only the papers' results, and the per-experiment
overrides (including what a fidelity level shortens) are listed."""

from __future__ import annotations

import copy

from analysis import config as conf
from analysis import latex, report
from analysis.compare import Row


def _tiny() -> dict:
    return {
        "gao": {
            "parameters": {
                "duration": {"value": 100, "status": "stated"},
                "rate": {"value": 2, "status": "assumed", "reason": "not stated"},
            },
            "experiments": {
                "sim1": {
                    "set": {"duration": 5000, "rate": 2},
                    "fidelity": {
                        "paper": {"seeds": [1, 2, 3], "sweep": {"s": [1, 2, 3, 4, 5, 6]}},
                        "quick": {
                            "seeds": [1],
                            "set": {"duration": 500},
                            "sweep": {"s": [2, 4, 6]},
                        },
                    },
                },
                "sim2": {"fidelity": {"paper": {"seeds": [1]}, "quick": {"seeds": [1]}}},
            },
        }
    }


def test_overrides_list_experiment_values_and_what_quick_shortens() -> None:
    got = [
        (o.experiment, o.name, o.default, o.value, o.where)
        for o in conf.overrides(_tiny(), "gao", "quick")
    ]
    assert got == [
        ("sim1", "duration", 100, 5000, "experiment"),  # rate = 2 equals the default: not listed
        ("sim1", "duration", 5000, 500, "quick"),
        ("sim1", "seeds (runs per point)", 3, 1, "quick"),
        ("sim1", "s (sweep)", [1, 2, 3, 4, 5, 6], [2, 4, 6], "quick"),
    ]
    # at paper fidelity only the experiment's own values remain
    assert [o.where for o in conf.overrides(_tiny(), "gao", "paper")] == ["experiment"]
    tex = report.overrides_tex(conf.overrides(_tiny(), "gao", "quick"))
    assert "sim1 & duration & 5000 & 500 & quick fidelity only" in tex
    assert "6 values 1..6" in tex
    same = copy.deepcopy(_tiny())
    del same["gao"]["experiments"]["sim1"]
    assert report.overrides_tex(conf.overrides(same, "gao", "quick")).startswith(
        "No experiment overrides"
    )


def _row(paper: str, cls: str, verdict: str, key: str = "k") -> Row:
    return Row(paper, key, "s", "1", "2", "", "abs 0", verdict, cls)


def test_headline_counts_only_the_papers_results() -> None:
    rows = [
        _row("gao", "published-result", "ok"),
        _row("gao", "published-result", "off", "t1"),
        _row("gao", "published-analytical", "missing"),
        _row("gao", "stated-parameter", "ok"),
        _row("gao", "derived", "ok"),
        _row("gao", "calibrated", "off", "t2"),
        _row("tang", "published-result", "ok"),  # not in this report
    ]
    causes = {"gao": {"t1": "a cause"}}
    tex = report.deviations_tex(causes, rows, ["gao"])
    assert tex.startswith(
        "Of the 3 results the papers in this report publish from their simulations, "
        "measurements and formulas, 1 are reproduced within tolerance, 1 are off and 1 are "
        "not regenerated."
    )
    assert "1 calibrated, 1 stated-parameter, 1 derived rows" in tex
    # the calibrated off row is listed, under its own heading, after the papers' results
    assert tex.index("a cause") < tex.index("Calibrated") < tex.index("gao: t2")
    summary = report.summary_tex(rows, ["gao", "tang"])
    assert r"\texttt{gao} & 1 & 1 & 0 & 0 & 0 & 1 & 3 \\" in summary
    assert r"all & 2 & 1 & 0 & 0 & 0 & 1 & 3 \\" in summary


def test_diff_rows_are_grouped_by_the_items_that_show_them() -> None:
    """A number belongs to the items that draw the step whose numbers file holds it; within a
    class the rows go by item, the numbers not regenerated ('--') last."""
    mine = {
        "items": [
            ["fig11", "figure", "t", "fig11", ["fig08"]],
            ["fig12", "figure", "t", "fig11", ["fig08"]],
            ["fig06", "figure", "t", "fig06", ["fig06"]],
        ]
    }
    steps = {("p", "a"): "fig11", ("p", "b"): "fig06", ("p", "c"): "theory"}
    assert report.row_items(mine, steps) == {
        ("p", "a"): "fig11, fig12",
        ("p", "b"): "fig06",
        ("p", "c"): "theory",  # a step no item draws is named as it is
    }
    rows = [
        Row("p", "z", "s", "1", "", "", "abs 0", "missing", "published-result"),
        Row("p", "a", "s", "1", "1", "", "abs 0", "ok", "published-result"),
        Row("p", "b", "s", "1", "2", "", "abs 0", "off", "published-result"),
    ]
    tex = latex.tex_table(rows, report.row_items(mine, steps))
    body = [line.split(" & ")[:2] for line in tex.splitlines() if line.count(" & ") >= 6]
    assert body[1:] == [["b", "fig06"], ["a", "fig11, fig12"], ["z", "--"]]
