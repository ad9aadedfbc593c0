"""Diagnoses of off rows and their checks (analysis.diagnosis, analysis.compare): every
criterion has an input that makes it fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis import compare
from analysis import diagnosis as dg


def _write(tmp_path: Path, body: str, paper: str = "gao") -> Path:
    f = tmp_path / f"{paper}.yaml"
    f.write_text(f"paper: {paper}\ndiagnoses:\n{body}")
    return f


ONE = """  - key: k
    kind: unstated-parameter
    why: the buffer is not stated
    parameter: buffer
    tested: [50, 100]
    check: {{value: check.k.buffer100, holds_when: {how}, says: under 100 packets it comes out}}
"""


def _diag(tmp_path: Path, how: str) -> dg.Diagnosis:
    (d,) = dg.load(_write(tmp_path, ONE.format(how=how)), ["k"])
    return d


def _pub(kind: str = "value", published: object = 10.0) -> compare.Published:
    return compare.Published("gao", "k", published, "", "s", kind, {"rel": 0.1})


def _outcome(d: dg.Diagnosis, pub: compare.Published, value: str | None) -> str:
    return dg.check_outcome(d, lambda t: compare.verdict(pub, t), value)


def test_reproduces_holds_only_when_the_check_value_meets_the_published_criterion(
    tmp_path: Path,
) -> None:
    d = _diag(tmp_path, "reproduces")
    assert _outcome(d, _pub(), "10.5") == dg.HOLDS  # within 10 %
    assert _outcome(d, _pub(), "12") == dg.FAILS
    assert _outcome(d, _pub(), "") == dg.NOT_COMPUTED
    assert _outcome(d, _pub(), None) == dg.NOT_COMPUTED


def test_contradicts_holds_only_when_the_formula_misses_the_published_number(
    tmp_path: Path,
) -> None:
    d = _diag(tmp_path, "contradicts")
    assert _outcome(d, _pub(), "12") == dg.HOLDS
    assert _outcome(d, _pub(), "10.2") == dg.FAILS


@pytest.mark.parametrize(
    ("how", "good", "bad"),
    [
        ("{lower_bound: 2}", "2", "1.99"),
        ("{upper_bound: 2}", "2", "2.01"),
        ("{above: 2}", "2.01", "2"),
        ("{below: 2}", "1.99", "2"),
        ("{range: [1, 3]}", "3", "3.5"),
        ("{equals: true}", "true", "false"),
    ],
)
def test_bounds(tmp_path: Path, how: str, good: str, bad: str) -> None:
    d = _diag(tmp_path, how)
    assert _outcome(d, _pub(), good) == dg.HOLDS
    assert _outcome(d, _pub(), bad) == dg.FAILS


def test_direction_criteria_compare_with_the_published_value(tmp_path: Path) -> None:
    below = _diag(tmp_path, "below_published")
    assert dg.check_outcome(below, None, "0.5", 2.0) == dg.HOLDS
    assert dg.check_outcome(below, None, "2.5", 2.0) == dg.FAILS
    assert dg.check_outcome(below, None, "2.0", 2.0) == dg.FAILS
    assert dg.check_outcome(below, None, "0.5", [1, 2]) == dg.NOT_COMPUTED  # a range
    above = _diag(tmp_path, "above_published")
    assert dg.check_outcome(above, None, "2.5", 2.0) == dg.HOLDS
    assert dg.check_outcome(above, None, "0.5", 2.0) == dg.FAILS


def test_a_check_on_the_regenerated_value(tmp_path: Path) -> None:
    """``value: regenerated`` checks the row's own value: a smaller spread than the paper's."""
    originals = _originals(tmp_path)
    diags = tmp_path / "diagnoses"
    diags.mkdir()
    _write(diags, ONE.format(how="below_published").replace("check.k.buffer100", "regenerated"))
    nums = tmp_path / "gen" / "gao" / "numbers-x.csv"
    nums.parent.mkdir(parents=True)
    nums.write_text("key,value\nk,4\nj,5\n")
    (k,) = [r for r in compare.gather(originals, [nums], ["gao"], diags).rows() if r.key == "k"]
    assert (k.verdict, k.check, k.check_value) == ("off", dg.HOLDS, "4")
    nums.write_text("key,value\nk,20\nj,5\n")
    (k,) = [r for r in compare.gather(originals, [nums], ["gao"], diags).rows() if r.key == "k"]
    assert (k.verdict, k.check) == ("off", dg.FAILS)


def test_status_explained_only_when_the_check_holds() -> None:
    assert dg.status("ok", "") == "reproduced"
    assert dg.status("off", dg.HOLDS) == "explained"
    assert dg.status("missing", dg.HOLDS) == "explained"
    assert dg.status("off", dg.FAILS) == "unexplained"
    assert dg.status("off", dg.NOT_COMPUTED) == "unexplained"
    assert dg.status("off", "") == "unexplained"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (ONE.format(how="reproduces").replace("unstated-parameter", "bad-luck"), "kind"),
        (ONE.format(how="reproduces").replace("    parameter: buffer\n", ""), "needs parameter"),
        (ONE.format(how="maybe"), "holds_when 'maybe'"),
        (ONE.format(how="{range: [3, 1]}"), "lo <= hi"),
        (ONE.format(how="reproduces").replace("check.k", "k"), "must start 'check.'"),
        (ONE.format(how="reproduces") * 2, "listed twice"),
        (ONE.format(how="reproduces") + "    cause: 3\n", "unknown fields"),
    ],
)
def test_bad_diagnoses_are_refused_with_the_row_named(
    tmp_path: Path, body: str, message: str
) -> None:
    with pytest.raises(ValueError, match="diagnosis of 'k'") as e:
        dg.load(_write(tmp_path, body), ["k"])
    assert message in str(e.value)


def test_a_diagnosis_of_a_row_the_paper_does_not_have_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no such published number"):
        dg.load(_write(tmp_path, ONE.format(how="reproduces")), ["other"])


def _originals(tmp_path: Path) -> Path:
    d = tmp_path / "originals"
    d.mkdir()
    (d / "gao.yaml").write_text(
        "paper: gao\ntitle: t\nclaims: []\nnumbers:\n"
        "  - {key: k, published: 10, unit: '', source: s, kind: value, "
        "class: published-result, tolerance: {rel: 0.1}, tolerance_reason: r}\n"
        "  - {key: j, published: 5, unit: '', source: s, kind: value, "
        "class: published-result, tolerance: {rel: 0.1}, tolerance_reason: r}\n"
    )
    return d


def _gathered(tmp_path: Path, check_value: str) -> tuple[Path, Path, Path, compare.Gathered]:
    """Originals k (10) and j (5), k's diagnosis (reproduces under check.k.buffer100), and one
    numbers file: k 20, j 5 and the check value: (originals, diagnoses, numbers, gathered)."""
    originals = _originals(tmp_path)
    diags = tmp_path / "diagnoses"
    diags.mkdir()
    _write(diags, ONE.format(how="reproduces"))
    nums = tmp_path / "gen" / "gao" / "numbers-x.csv"
    nums.parent.mkdir(parents=True)
    nums.write_text(f"key,value\nk,20\nj,5\ncheck.k.buffer100,{check_value}\n")
    return originals, diags, nums, compare.gather(originals, [nums], ["gao"], diags)


def test_diff_rows_carry_the_diagnosis_of_off_rows_only(tmp_path: Path) -> None:
    originals, diags, nums, g = _gathered(tmp_path, "10.4")
    rows = {r.key: r for r in g.rows()}
    assert (rows["k"].diagnosis, rows["k"].check, rows["k"].check_value) == (
        "unstated-parameter",
        dg.HOLDS,
        "10.4",
    )
    assert rows["k"].status == "explained"
    assert (rows["j"].diagnosis, rows["j"].check, rows["j"].status) == ("", "", "reproduced")
    back = compare.parse_csv(compare.csv_text(list(rows.values())), "x")
    assert back == list(rows.values())
    # the same row without its check value: not computed, so unexplained
    nums.write_text("key,value\nk,20\nj,5\n")
    (k,) = [r for r in compare.gather(originals, [nums], ["gao"], diags).rows() if r.key == "k"]
    assert (k.check, k.status) == (dg.NOT_COMPUTED, "unexplained")


def _paper_row(regenerated: str, verdict: str, diagnosis: str = "", check: str = "") -> compare.Row:
    return compare.Row(
        "gao", "k", "s", "10", regenerated, "", "rel 0.1", verdict, "published-result",
        diagnosis, check, "",
    )  # fmt: skip


def test_reduced_fidelity_only_where_the_paper_reference_holds_the_row(tmp_path: Path) -> None:
    """Below paper fidelity an unexplained row is reduced-fidelity when the paper-fidelity
    reference reproduces or explains it; it stays unexplained when that reference leaves it
    unexplained too, and a row its own diagnosis explains keeps that diagnosis."""
    originals, diags, nums, g = _gathered(tmp_path, "14")  # the check fails here

    def row(at_paper: compare.Row | None) -> compare.Row:
        ref = {("gao", "k"): at_paper} if at_paper else None
        return next(r for r in g.rows(ref) if r.key == "k")

    plain = row(None)
    assert (plain.diagnosis, plain.check, plain.status) == (
        "unstated-parameter",
        dg.FAILS,
        "unexplained",
    )
    reproduced = row(_paper_row("10.3", "ok"))
    assert (reproduced.diagnosis, reproduced.check, reproduced.check_value) == (
        dg.REDUCED_FIDELITY,
        dg.HOLDS,
        "10.3",
    )
    assert reproduced.status == "explained"
    explained = row(_paper_row("13", "off", "simulator-gap", dg.HOLDS))
    assert (explained.diagnosis, explained.status) == (dg.REDUCED_FIDELITY, "explained")
    # the failing inputs: at paper the row is unexplained (its check fails, or it has none)
    for bad in (_paper_row("13", "off", "simulator-gap", dg.FAILS), _paper_row("13", "off")):
        r = row(bad)
        assert (r.diagnosis, r.check, r.status) == ("unstated-parameter", dg.FAILS, "unexplained")
    # a row whose own check holds keeps its diagnosis whatever the reference says
    nums.write_text("key,value\nk,20\nj,5\ncheck.k.buffer100,10.4\n")
    g = compare.gather(originals, [nums], ["gao"], diags)
    (k,) = [r for r in g.rows({("gao", "k"): _paper_row("10.3", "ok")}) if r.key == "k"]
    assert (k.diagnosis, k.check_value) == ("unstated-parameter", "10.4")
    counts = compare.status_counts([reproduced, explained])
    assert counts[f"explained by {dg.REDUCED_FIDELITY}"] == 2


def test_paper_rows_read_only_references_at_paper_fidelity(tmp_path: Path) -> None:
    from analysis import reference

    meta = {
        "paper": "gao", "fidelity": "quick", "commit": "c", "ns_id": "n", "wall_s": "1",
        "cpu_s": "1", "jobs": "1", "date": "2026-11-28", "attempts": "1",
    }  # fmt: skip
    f = tmp_path / "gao-quick.csv"
    reference.write(reference.Reference(meta, [_paper_row("10.3", "ok")]), f)
    with pytest.raises(ValueError, match="not at paper"):
        compare.paper_rows([f])
    meta["fidelity"] = "paper"
    reference.write(reference.Reference(meta, [_paper_row("10.3", "ok")]), f)
    assert compare.paper_rows([f])[("gao", "k")].regenerated == "10.3"


def test_a_check_value_no_diagnosis_names_is_listed_not_used(tmp_path: Path) -> None:
    originals = _originals(tmp_path)
    nums = tmp_path / "gen" / "gao" / "numbers-x.csv"
    nums.parent.mkdir(parents=True)
    nums.write_text("key,value\nk,20\ncheck.typo,1\n")
    g = compare.gather(originals, [nums], ["gao"], tmp_path / "none")
    assert g.unused_checks() == ["gao:check.typo"]
    assert all(r.check == "" for r in g.rows())


def test_references_recorded_before_diagnoses_still_read() -> None:
    text = ",".join(compare.BASE_COLUMNS) + "\ngao,k,s,10,20,,rel 0.1,off,published-result\n"
    (r,) = compare.parse_csv(text, "old")
    assert (r.diagnosis, r.check, r.status) == ("", "", "unexplained")
