import csv
from pathlib import Path

import pytest

from analysis import compare, latex
from analysis.compare import Published


def pub(kind: str, published: object, tol: dict | None = None, strict: bool = False) -> Published:
    return Published("floyd1991", "k", published, "u", "Sec 1", kind, tol or {}, strict=strict)


@pytest.mark.parametrize(
    ("kind", "published", "tol", "value", "expect"),
    [
        ("value", 100, {"rel": 0.1}, "110", "ok"),  # |110-100| = 10 <= 10
        ("value", 100, {"rel": 0.1}, "110.5", "off"),
        ("value", -2, {"rel": 0.5}, "-1", "ok"),  # allowance uses |published|
        ("value", 0.5, {"abs": 0.001}, "0.4995", "ok"),
        ("value", 0.5, {"abs": 0.001}, "0.502", "off"),
        # a stated bound is never widened: a tolerance given anyway is ignored
        ("lower_bound", 5000, {"rel": 0.1}, "4500", "off"),
        ("lower_bound", 5000, {}, "4999.9", "off"),
        ("lower_bound", 5000, {}, "5000", "ok"),  # 'at least 5000'
        ("lower_bound", 5000, {}, "90000", "ok"),
        ("upper_bound", 10, {"abs": 1}, "10.5", "off"),
        ("upper_bound", 10, {}, "10", "ok"),  # 'at most 10'
        ("upper_bound", 0.05, {}, "0.06", "off"),  # 'within 5 %' fails at 6 %
        ("upper_bound", 0.03, {}, str(0.01 + 0.02), "ok"),  # float slack at the bound
        ("range", [11, 25], {"abs": 1}, "10", "off"),
        ("range", [11, 25], {}, "11", "ok"),
        ("range", [11, 25], {}, "25.5", "off"),
        ("bool", True, None, "true", "ok"),
        ("bool", True, None, "false", "off"),
        ("value", 1, {"abs": 0}, "", "missing"),
        ("value", 1, {"abs": 0}, None, "missing"),
        ("value", 1, {"abs": 0}, "nan", "missing"),
    ],
)
def test_verdict(kind: str, published: object, tol: dict, value: str | None, expect: str) -> None:
    assert compare.verdict(pub(kind, published, tol), value) == expect


@pytest.mark.parametrize(
    ("kind", "published", "value", "expect"),
    [
        ("lower_bound", 0.95, "0.95", "off"),  # 'more than 95 %' fails at 95 %
        ("lower_bound", 0.95, "0.94", "off"),
        ("lower_bound", 0.95, "0.9501", "ok"),
        ("lower_bound", 5000, "5000", "off"),  # 'more than 5000 packets'
        ("upper_bound", 1.0, "1.0", "off"),  # 'below r' fails at r
        ("upper_bound", 1.0, "0.999", "ok"),
    ],
)
def test_strict_bound(kind: str, published: float, value: str, expect: str) -> None:
    assert compare.verdict(pub(kind, published, strict=True), value) == expect
    assert pub(kind, published, strict=True).tolerance_text() == "strict bound"


def test_class_counts_count_every_class() -> None:
    def row(cls: str, verdict: str) -> compare.Row:
        return compare.Row("gao", "k", "s", "1", "1", "", "abs 0", verdict, cls)

    rows = [
        row("published-result", "ok"),
        row("published-result", "off"),
        row("published-analytical", "missing"),
        row("stated-parameter", "ok"),
        row("derived", "ok"),
        row("calibrated", "ok"),
    ]
    counts = compare.class_counts(rows)
    assert counts["published-result"] == {"ok": 1, "off": 1, "missing": 0}
    assert counts["published-analytical"] == {"ok": 0, "off": 0, "missing": 1}
    assert counts["calibrated"]["ok"] == 1
    # the counted classes are only the papers' own results
    assert sum(counts[c]["ok"] for c in compare.COUNTED) == 1
    tex = latex.tex_summary(rows)
    assert "published-result (counted) & 1 & 1 & 0" in tex
    assert "calibrated & 1 & 0 & 0" in tex


def test_load_originals_requires_a_class(tmp_path: Path) -> None:
    f = tmp_path / "gao.yaml"
    f.write_text(
        "paper: gao\nnumbers:\n  - {key: a, published: 1, unit: '', source: s, kind: value,"
        " tolerance: {abs: 0}, tolerance_reason: r}\n"
    )
    with pytest.raises(ValueError, match="class"):
        compare.load_originals(f)


def test_rows_csv_and_unknown_keys(tmp_path: Path) -> None:
    originals = [
        Published("floyd1991", "a", 24, "packets", "Sec 4", "value", {"abs": 1}),
        Published("floyd1991", "b", 5000, "packets", "Sec 4", "lower_bound", {}, strict=True),
    ]
    numbers = {("floyd1991", "a"): "24", ("floyd1991", "zzz"): "1"}
    rows = compare.diff_rows(originals, numbers)
    assert [r.verdict for r in rows] == ["ok", "missing"]
    assert rows[1].published == ">5000"
    assert compare.unknown_numbers(originals, numbers) == [("floyd1991", "zzz")]
    out = tmp_path / "diff.csv"
    compare.write_csv(rows, out)
    with out.open() as fh:
        recs = list(csv.DictReader(fh))
    assert list(recs[0]) == compare.DIFF_COLUMNS
    assert recs[0]["tolerance"] == "abs 1" and recs[1]["regenerated"] == ""
    assert recs[0]["class"] == "published-result"
    assert compare.read_csv(out) == rows
    assert compare.console_table(rows).splitlines()[-2:] == [
        "diff by class: published-result: 1 ok, 0 off, 1 missing",
        "papers' results: 1 reproduced, 0 explained, 1 unexplained",
    ]


def test_load_numbers_rejects_duplicates(tmp_path: Path) -> None:
    d = tmp_path / "floyd1991"
    d.mkdir()
    (d / "numbers-a.csv").write_text("key,value\nx,1\n")
    (d / "numbers-b.csv").write_text("key,value\nx,2\n")
    with pytest.raises(ValueError, match="twice"):
        compare.load_numbers(sorted(d.glob("*.csv")))


def test_tex_escape() -> None:
    assert latex.tex_escape("a_b & 5% #1 >2") == r"a\_b \& 5\% \#1 \textgreater{}2"


def test_real_originals_pass_against_themselves(root: Path) -> None:
    """Each published number, fed back as the regenerated one, is ok (tolerances sane)."""
    for f in sorted((root / "config" / "originals").glob("*.yaml")):
        for p in compare.load_originals(f):
            v = p.published
            if p.kind == "range":
                v = v[0]  # type: ignore[index]
            if p.strict:  # 'more than X' holds just beyond X, not at it
                v = v + 1e-6 * max(1, abs(v)) * (1 if p.kind == "lower_bound" else -1)  # type: ignore[operator]
            text = ("true" if v else "false") if isinstance(v, bool) else str(v)
            assert compare.verdict(p, text) == "ok", (f.name, p.key)


def test_claims_table(tmp_path: Path) -> None:
    d = tmp_path / "floyd1991"
    d.mkdir()
    (d / "claims-checks.csv").write_text('key,holds,detail\na,true,"x = 1"\nb,false,y\n')
    res = compare.load_claim_results([d / "claims-checks.csv"])
    assert res[("floyd1991", "a")] == (True, "x = 1")
    claims = [compare.Claim("floyd1991", k, f"statement {k}", "Sec 1") for k in ("a", "b", "c")]
    tex = latex.claims_tex(claims, res)
    assert tex.count(r"\textsc{holds}") == 1
    assert tex.count(r"\textbf{fails}") == 1
    assert tex.count(r"\textit{not checked}") == 1
    assert "\f" not in tex


def test_prose_rounds_ours_to_the_published_precision() -> None:
    """The report's \\regen values: the published value's decimal places (a range's most
    precise end), at least two significant digits, a non-number as it is."""
    assert [compare.decimals(x) for x in (0.95, 400, 400.0, 1e-05, 0.125)] == [2, 0, 0, 5, 3]
    assert compare.fmt_beside("0.907512", pub("value", 0.95, {"abs": 0.05})) == "0.91"
    assert compare.fmt_beside("328.4", pub("value", 400, {"abs": 1})) == "328"
    assert compare.fmt_beside("0.0499736", pub("value", 1, {"rel": 0.5})) == "0.050"
    assert compare.fmt_beside("5.99", pub("range", [0.5, 9.25])) == "5.99"
    assert compare.fmt_beside("0", pub("lower_bound", 2)) == "0"
    assert compare.fmt_beside("true", pub("bool", True)) == "true"
    assert compare.fmt_beside("1.2345678", pub("bool", True)) == "1.23457"
    assert compare.fmt_beside(None, pub("value", 1, {"abs": 1})) == ""
    macros = latex.tex_macros([pub("value", 0.95, {"abs": 0.05})], {("floyd1991", "k"): "0.907512"})
    assert "reportreg@floyd1991@k\\endcsname{0.91}" in macros
