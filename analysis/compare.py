"""Compare regenerated numbers with the published ones (config/originals/<paper>.yaml).

One function computes the verdicts; the same rows feed the console table, the LaTeX
tables of the report and ``paper/generated/diff.csv`` (columns
``paper,key,source,published,regenerated,unit,tolerance,verdict,class``, verdict one of
``ok``, ``off``, ``missing``).

Every published number has a class (``CLASSES``): only ``published-result`` and
``published-analytical`` rows are the papers' results; stated parameters echoed from our
config, values we derived from the papers' equations and numbers used to calibrate an
unstated parameter are shown but never counted as reproduced (``COUNTED``).

A bound the paper states ("more than X", "at most Y") and a stated range are never widened
by a tolerance: a strict bound passes only strictly beyond it.

Regenerated numbers come from ``numbers-*.csv`` files (columns ``key,value``) that the
analysis steps write under ``paper/generated/<paper>/``.

Usage::

    python -m analysis.compare --originals config/originals --numbers paper/generated \
        [--csv paper/generated/diff.csv] [--tex-dir paper/generated] [--quiet]
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

DIFF_COLUMNS = [
    "paper",
    "key",
    "source",
    "published",
    "regenerated",
    "unit",
    "tolerance",
    "verdict",
    "class",
]
VERDICTS = ("ok", "off", "missing")
CLASSES = (
    "published-result",
    "published-analytical",
    "calibrated",
    "stated-parameter",
    "derived",
)
#: the classes that are the papers' own results: the only ones the headline counts
COUNTED = ("published-result", "published-analytical")
BOUNDS = ("lower_bound", "upper_bound")


@dataclass(frozen=True)
class Published:
    paper: str
    key: str
    published: object
    unit: str
    source: str
    kind: str
    tolerance: dict[str, float]
    cls: str = "published-result"
    strict: bool = False

    def tolerance_text(self) -> str:
        if self.kind == "bool":
            return "exact"
        if self.kind in BOUNDS:
            return "strict bound" if self.strict else "bound"
        if self.kind == "range":
            return "range"
        ((how, amount),) = self.tolerance.items()
        return f"{how} {amount:g}"

    def allowance(self, reference: float) -> float:
        if self.kind in ("bool", "range", *BOUNDS):
            return 0.0
        if "abs" in self.tolerance:
            return float(self.tolerance["abs"])
        return float(self.tolerance["rel"]) * abs(reference)


@dataclass(frozen=True)
class Row:
    paper: str
    key: str
    source: str
    published: str
    regenerated: str
    unit: str
    tolerance: str
    verdict: str
    cls: str

    def as_list(self) -> list[str]:
        return [getattr(self, "cls" if c == "class" else c) for c in DIFF_COLUMNS]


def load_originals(path: Path) -> list[Published]:
    doc = yaml.safe_load(path.read_text())
    paper = doc["paper"]
    out = []
    for e in doc.get("numbers", []):
        if e.get("class") not in CLASSES:
            raise ValueError(
                f"{path}: number '{e.get('key')}' has class {e.get('class')!r}; "
                f"one of {', '.join(CLASSES)} is required"
            )
        out.append(
            Published(
                paper=paper,
                key=e["key"],
                published=e["published"],
                unit=str(e.get("unit", "")),
                source=str(e.get("source", "")),
                kind=e.get("kind", "value"),
                tolerance=dict(e.get("tolerance", {})),
                cls=e["class"],
                strict=bool(e.get("strict", False)),
            )
        )
    return out


def load_numbers(paths: Iterable[Path]) -> dict[tuple[str, str], str]:
    """{(paper, key): value text} from numbers-*.csv files under paper folders."""
    values: dict[tuple[str, str], str] = {}
    for p in paths:
        paper = p.parent.name
        with p.open() as fh:
            for rec in csv.DictReader(fh):
                k = (paper, rec["key"])
                if k in values:
                    raise ValueError(f"{p}: number '{rec['key']}' is written twice")
                values[k] = rec["value"]
    return values


def _as_bool(text: str) -> bool:
    t = text.strip().lower()
    if t in ("true", "1", "yes"):
        return True
    if t in ("false", "0", "no"):
        return False
    raise ValueError(f"'{text}' is not a boolean")


def _slack(ref: float) -> float:
    """Floating-point slack on a tolerance: 0.99 - 0.98 is 0.010000000000000009, which must
    pass a tolerance of 0.01."""
    return 1e-9 * max(1.0, abs(ref))


def verdict(pub: Published, regenerated: str | None) -> str:
    """ok / off / missing for one published number."""
    if regenerated is None or regenerated == "" or regenerated.lower() == "nan":
        return "missing"
    if pub.kind == "bool":
        return "ok" if _as_bool(regenerated) == bool(pub.published) else "off"
    x = float(regenerated)
    if math.isnan(x):
        return "missing"
    if pub.kind == "range":
        lo, hi = (float(v) for v in pub.published)  # type: ignore[union-attr]
        tol_lo, tol_hi = pub.allowance(lo) + _slack(lo), pub.allowance(hi) + _slack(hi)
        return "ok" if lo - tol_lo <= x <= hi + tol_hi else "off"
    ref = float(pub.published)  # type: ignore[arg-type]
    tol = pub.allowance(ref) + _slack(ref)
    if pub.kind == "lower_bound":
        return "ok" if (x > ref if pub.strict else x >= ref - tol) else "off"
    if pub.kind == "upper_bound":
        return "ok" if (x < ref if pub.strict else x <= ref + tol) else "off"
    return "ok" if abs(x - ref) <= tol else "off"


def _fmt_published(pub: Published) -> str:
    v = pub.published
    if pub.kind == "range":
        return f"[{v[0]:g}, {v[1]:g}]"  # type: ignore[index]
    if pub.kind == "lower_bound":
        return f">{v:g}" if pub.strict else f">={v:g}"
    if pub.kind == "upper_bound":
        return f"<{v:g}" if pub.strict else f"<={v:g}"
    if isinstance(v, bool):
        return "true" if v else "false"
    return f"{v:g}" if isinstance(v, (int, float)) else str(v)


def _fmt_regen(text: str | None) -> str:
    if text is None:
        return ""
    try:
        x = float(text)
    except ValueError:
        return text
    return f"{x:.6g}"


def diff_rows(originals: Iterable[Published], numbers: dict[tuple[str, str], str]) -> list[Row]:
    rows = []
    for pub in originals:
        reg = numbers.get((pub.paper, pub.key))
        rows.append(
            Row(
                paper=pub.paper,
                key=pub.key,
                source=pub.source,
                published=_fmt_published(pub),
                regenerated=_fmt_regen(reg),
                unit=pub.unit,
                tolerance=pub.tolerance_text(),
                verdict=verdict(pub, reg),
                cls=pub.cls,
            )
        )
    return rows


def class_counts(rows: Iterable[Row]) -> dict[str, dict[str, int]]:
    """{class: {verdict: count}} over ``rows``, every class and verdict present."""
    counts = {c: dict.fromkeys(VERDICTS, 0) for c in CLASSES}
    for r in rows:
        counts[r.cls][r.verdict] += 1
    return counts


def counted_summary(rows: Sequence[Row]) -> str:
    """One line: the papers' results (the counted classes) and what else was compared."""
    counts = class_counts(rows)
    parts = [
        f"{c}: {counts[c]['ok']} ok, {counts[c]['off']} off, {counts[c]['missing']} missing"
        for c in CLASSES
        if sum(counts[c].values())
    ]
    return "; ".join(parts)


def unknown_numbers(
    originals: Iterable[Published], numbers: dict[tuple[str, str], str]
) -> list[tuple[str, str]]:
    """Regenerated keys that match no published number (a typo in an analysis step)."""
    known = {(p.paper, p.key) for p in originals}
    return sorted(k for k in numbers if k not in known)


def read_csv(path: Path) -> list[Row]:
    """The rows of a diff.csv written by ``write_csv``."""
    with path.open() as fh:
        recs = list(csv.DictReader(fh))
    if recs and set(recs[0]) != set(DIFF_COLUMNS):
        raise ValueError(f"{path}: columns {sorted(recs[0])}, expected {DIFF_COLUMNS}")
    return [Row(**{("cls" if k == "class" else k): v for k, v in r.items()}) for r in recs]


def write_csv(rows: Sequence[Row], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(DIFF_COLUMNS)
        for r in rows:
            w.writerow(r.as_list())


def console_table(rows: Sequence[Row]) -> str:
    cols = ["paper", "key", "published", "regenerated", "unit", "tolerance", "verdict", "class"]
    table = [cols] + [[r.as_list()[DIFF_COLUMNS.index(c)] for c in cols] for r in rows]
    widths = [max(len(str(line[i])) for line in table) for i in range(len(cols))]
    lines = [
        "  ".join(str(v).ljust(w) for v, w in zip(line, widths, strict=True)) for line in table
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.append("")
    lines.append("diff by class: " + counted_summary(rows))
    return "\n".join(lines)


def tex_escape(s: str) -> str:
    repl = {
        "\\": r"\textbackslash{}",
        "&": r"\&",
        "%": r"\%",
        "$": r"\$",
        "#": r"\#",
        "_": r"\_",
        "{": r"\{",
        "}": r"\}",
        "~": r"\textasciitilde{}",
        "^": r"\textasciicircum{}",
        "<": r"\textless{}",
        ">": r"\textgreater{}",
    }
    return "".join(repl.get(c, c) for c in s)


#: how each class is headed in the report's tables
CLASS_HEADINGS = {
    "published-result": "Published results (counted)",
    "published-analytical": "Published analytical values (counted)",
    "calibrated": "Calibrated: used to choose an unstated parameter (not counted)",
    "stated-parameter": "Stated parameters echoed from the config (not counted)",
    "derived": "Derived by us from the paper's equations (model checks, not counted)",
}


def by_class(rows: Sequence[Row]) -> list[tuple[str, list[Row]]]:
    """The rows grouped by class, in the order of ``CLASSES`` (counted ones first); classes
    without rows left out."""
    groups = [(c, [r for r in rows if r.cls == c]) for c in CLASSES]
    return [(c, g) for c, g in groups if g]


def tex_table(rows: Sequence[Row]) -> str:
    """A longtable of one paper's rows, grouped by class (the counted classes first)."""
    mark = {"ok": r"\textsc{ok}", "off": r"\textbf{off}", "missing": r"\textit{missing}"}
    out = [
        r"\begin{longtable}{@{}p{0.36\linewidth}rrlll@{}}",
        r"\toprule",
        r"key & published & regenerated & unit & tolerance & verdict \\",
        r"\midrule\endhead",
    ]
    for cls, mine in by_class(rows):
        out.append(f"\\multicolumn{{6}}{{@{{}}l}}{{\\emph{{{CLASS_HEADINGS[cls]}}}}} \\\\")
        for r in mine:
            cells = [r.key, r.published, r.regenerated, r.unit, r.tolerance]
            out.append(" & ".join(tex_escape(c) for c in cells) + f" & {mark[r.verdict]} \\\\")
    out += [r"\bottomrule", r"\end{longtable}", ""]
    return "\n".join(out)


def tex_summary(rows: Sequence[Row]) -> str:
    """A small table: ok / off / missing per class; the counted classes first."""
    counts = class_counts(rows)
    out = [
        r"\begin{tabular}{@{}lrrr@{}}",
        r"\toprule class & ok & off & missing \\ \midrule",
    ]
    for cls in CLASSES:
        c = counts[cls]
        if not sum(c.values()):
            continue
        name = tex_escape(cls) + (" (counted)" if cls in COUNTED else "")
        out.append(f"{name} & {c['ok']} & {c['off']} & {c['missing']} \\\\")
    out += [r"\bottomrule", r"\end{tabular}", ""]
    return "\n".join(out)


def tex_macros(originals: Iterable[Published], numbers: dict[tuple[str, str], str]) -> str:
    """\\regen{paper}{key} and \\published{paper}{key} values for the report text."""
    out = []
    for pub in originals:
        reg = _fmt_regen(numbers.get((pub.paper, pub.key))) or "--"
        cs = f"{pub.paper}@{pub.key}"
        out.append(f"\\expandafter\\def\\csname ccrpub@{cs}\\endcsname{{{_fmt_published(pub)}}}")
        out.append(f"\\expandafter\\def\\csname ccrreg@{cs}\\endcsname{{{tex_escape(reg)}}}")
    return "\n".join(out) + "\n"


@dataclass(frozen=True)
class Claim:
    paper: str
    key: str
    statement: str
    source: str


def load_claims(path: Path) -> list[Claim]:
    doc = yaml.safe_load(path.read_text())
    return [
        Claim(doc["paper"], c["key"], c["statement"], str(c.get("source", "")))
        for c in doc.get("claims", [])
    ]


def load_claim_results(paths: Iterable[Path]) -> dict[tuple[str, str], tuple[bool, str]]:
    """{(paper, key): (holds, detail)} from claims-*.csv files under paper folders."""
    out: dict[tuple[str, str], tuple[bool, str]] = {}
    for p in paths:
        with p.open() as fh:
            for rec in csv.DictReader(fh):
                k = (p.parent.name, rec["key"])
                if k in out:
                    raise ValueError(f"{p}: claim '{rec['key']}' is checked twice")
                out[k] = (_as_bool(rec["holds"]), rec["detail"])
    return out


def claims_tex(claims: Sequence[Claim], results: dict[tuple[str, str], tuple[bool, str]]) -> str:
    """The paper's qualitative claims, each with its computed verdict."""
    out = [
        r"\begin{longtable}{@{}p{0.34\linewidth}p{0.12\linewidth}p{0.46\linewidth}@{}}",
        r"\toprule claim & verdict & criterion and values \\ \midrule\endhead",
    ]
    for c in claims:
        res = results.get((c.paper, c.key))
        if res is None:
            verdict, detail = r"\textit{not checked}", ""
        else:
            verdict = r"\textsc{holds}" if res[0] else r"\textbf{fails}"
            detail = tex_escape(res[1])
        out.append(
            f"{tex_escape(c.statement)} {{\\footnotesize ({tex_escape(c.source)})}} & "
            f"{verdict} & {{\\footnotesize {detail}}} \\\\"
        )
    out += [r"\bottomrule", r"\end{longtable}", ""]
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="diff regenerated numbers against the papers")
    ap.add_argument("--originals", type=Path, default=Path("config/originals"))
    ap.add_argument("--numbers", type=Path, default=Path("paper/generated"))
    ap.add_argument("--csv", type=Path)
    ap.add_argument("--tex-dir", type=Path)
    ap.add_argument("--paper", action="append", help="only these papers (repeatable)")
    ap.add_argument("--quiet", action="store_true", help="no console table, only the counts")
    ap.add_argument(
        "files",
        type=Path,
        nargs="*",
        help="the numbers-*.csv and claims-*.csv to read (the workflow names them, so a file "
        "left from an older layout is never read); default: every one under --numbers",
    )
    a = ap.parse_args(argv)
    originals: list[Published] = []
    claims: list[Claim] = []
    for f in sorted(a.originals.glob("*.yaml")):
        if a.paper and f.stem not in a.paper:
            continue
        originals += load_originals(f)
        claims += load_claims(f)
    # only the chosen papers' folders: other papers' outputs may lie in the same tree
    folders = sorted(d for d in a.numbers.glob("*") if d.is_dir())
    folders = [d for d in folders if not a.paper or d.name in a.paper]
    files = a.files or [p for d in folders for p in sorted(d.glob("*.csv"))]
    claim_files = sorted(p for p in files if p.name.startswith("claims-"))
    number_files = sorted(p for p in files if p.name.startswith("numbers-"))
    claim_results = load_claim_results(claim_files)
    unknown_claims = sorted(set(claim_results) - {(c.paper, c.key) for c in claims})
    if unknown_claims:
        print(
            "compare: checked claims that the originals do not list: "
            + ", ".join(f"{p}:{k}" for p, k in unknown_claims),
            file=sys.stderr,
        )
        return 2
    numbers = load_numbers(number_files)
    unknown = unknown_numbers(originals, numbers)
    if unknown:
        print(
            "compare: regenerated numbers with no published counterpart: "
            + ", ".join(f"{p}:{k}" for p, k in unknown),
            file=sys.stderr,
        )
        return 2
    rows = diff_rows(originals, numbers)
    if a.csv:
        write_csv(rows, a.csv)
    if a.tex_dir:
        for paper in sorted({r.paper for r in rows}):
            d = a.tex_dir / paper
            d.mkdir(parents=True, exist_ok=True)
            (d / "diff.tex").write_text(tex_table([r for r in rows if r.paper == paper]))
            (d / "summary.tex").write_text(tex_summary([r for r in rows if r.paper == paper]))
            mine = [c for c in claims if c.paper == paper]
            (d / "claims.tex").write_text(claims_tex(mine, claim_results))
        (a.tex_dir / "numbers.tex").write_text(tex_macros(originals, numbers))
    text = console_table(rows)
    held = [claim_results.get((c.paper, c.key)) for c in claims]
    text += (
        f"\nclaims: {sum(1 for h in held if h and h[0])} hold, "
        f"{sum(1 for h in held if h and not h[0])} fail, "
        f"{sum(1 for h in held if h is None)} not checked"
    )
    print("\n".join(text.splitlines()[-2:]) if a.quiet else text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
