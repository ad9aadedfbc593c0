"""Compare regenerated numbers with the published ones (config/originals/<paper>.yaml).

One function computes the verdicts; the same rows feed the console table,
``paper/generated/<fidelity>/diff.csv`` and the report's tables (written by :mod:`analysis.report`
with :mod:`analysis.latex`: this module writes no LaTeX) (columns
``paper,key,source,published,regenerated,unit,tolerance,verdict,class,diagnosis,check,check_value``,
verdict one of ``ok``, ``off``, ``missing``; for a row not ``ok``, the kind of its diagnosis
(config/diagnoses/<paper>.yaml, :mod:`analysis.diagnosis`), whether its check holds and the
check's value: the value under the tested alternative).

Every published number has a class (``CLASSES``): only ``published-result`` and
``published-analytical`` rows are the papers' results; stated parameters echoed from our
config, values we derived from the papers' equations and numbers used to calibrate an
unstated parameter are shown but never counted as reproduced (``COUNTED``).

A bound the paper states ("more than X", "at most Y") and a stated range are never widened
by a tolerance: a strict bound passes only strictly beyond it.

Regenerated numbers come from ``numbers-*.csv`` files (columns ``key,value``) that the
analysis steps write under ``paper/generated/<fidelity>/<paper>/``; keys starting ``check.``
among them are diagnoses' check values, not published numbers.

Usage::

    python -m analysis.compare --originals config/originals --diagnoses config/diagnoses \
        [--csv paper/generated/quick/diff.csv] [--quiet] [numbers-*.csv claims-*.csv ...]
"""

from __future__ import annotations

import argparse
import csv
import io
import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

import yaml

from analysis import diagnosis as dg

#: the columns of diff.csv before diagnoses (references recorded then still read)
BASE_COLUMNS = [
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
DIAGNOSIS_COLUMNS = ["diagnosis", "check", "check_value"]
DIFF_COLUMNS = BASE_COLUMNS + DIAGNOSIS_COLUMNS
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
    diagnosis: str = ""  # the kind of its diagnosis (rows not ok only)
    check: str = ""  # holds / fails / not computed (rows with a diagnosis only)
    check_value: str = ""  # the diagnosis's check value

    @property
    def status(self) -> str:
        """reproduced / explained / unexplained (analysis.diagnosis.status)."""
        return dg.status(self.verdict, self.check)

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


def number_steps(paths: Iterable[Path]) -> dict[tuple[str, str], str]:
    """{(paper, key): the analysis step that wrote it} (numbers-<step>.csv)."""
    out: dict[tuple[str, str], str] = {}
    for p in paths:
        with p.open() as fh:
            for rec in csv.DictReader(fh):
                out[(p.parent.name, rec["key"])] = p.stem.removeprefix("numbers-")
    return out


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


def fmt_published(pub: Published) -> str:
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


def _number(text: str) -> float | None:
    """A value's text as a number; None for one that is none (a bool, a word)."""
    try:
        return float(text)
    except ValueError:
        return None


def fmt_regen(text: str | None) -> str:
    if text is None:
        return ""
    x = _number(text)
    return text if x is None else f"{x:.6g}"


def decimals(x: float) -> int:
    """The decimal places of a number as the paper's originals hold it (its shortest form
    that reads back as itself: 0.95 -> 2, 400 and 400.0 -> 0, 1e-05 -> 5). YAML keeps no
    trailing zero (9.30 is 9.3), so this is the least precision the paper gave."""
    if float(x).is_integer():
        return 0
    exponent = Decimal(repr(float(x))).as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


def fmt_beside(text: str | None, pub: Published) -> str:
    """Our value as the report's prose prints it beside the published one: to the published
    number's decimal places (a bound's or range's most precise end), with at least two
    significant digits so that a small value does not round to 0. A value that is no number,
    or beside a published value that is none, is printed as the tables print it."""
    if text is None:
        return ""
    x = _number(text)
    if x is None:
        return text
    ends = list(pub.published) if pub.kind == "range" else [pub.published]  # type: ignore[call-overload]
    if not math.isfinite(x) or not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in ends
    ):
        return fmt_regen(text)
    places = max(decimals(v) for v in ends)
    if x != 0:
        places = max(places, 1 - math.floor(math.log10(abs(x))))
    return f"{x:.{min(places, 6)}f}"


#: the statuses at paper fidelity that make a row below it ``reduced-fidelity``
HELD_AT_PAPER = ("reproduced", "explained")


def diff_rows(
    originals: Iterable[Published],
    numbers: dict[tuple[str, str], str],
    diagnoses: dict[tuple[str, str], dg.Diagnosis] | None = None,
    checks: dict[tuple[str, str], str] | None = None,
    at_paper: Mapping[tuple[str, str], Row] | None = None,
) -> list[Row]:
    """One row per published number; a row not ``ok`` carries its diagnosis (``diagnoses``:
    (paper, key) -> Diagnosis) and the outcome of its check (``checks``: (paper, check key)
    -> value text). ``at_paper`` (a build below paper fidelity: (paper, key) -> the row of the
    reference recorded at paper fidelity): a row its own diagnosis leaves unexplained, which
    that reference reproduces or explains, is ``reduced-fidelity``; its check value is the
    value at paper fidelity, and its check holds (analysis.diagnosis.REDUCED_FIDELITY)."""
    diagnoses, checks, at_paper = diagnoses or {}, checks or {}, at_paper or {}
    rows = []
    for pub in originals:
        reg = numbers.get((pub.paper, pub.key))
        v = verdict(pub, reg)
        d = diagnoses.get((pub.paper, pub.key)) if v != "ok" else None
        value = None
        if d:
            value = reg if d.check == dg.REGENERATED else checks.get((pub.paper, d.check))
        outcome = (
            dg.check_outcome(d, lambda t, p=pub: verdict(p, t), value, pub.published) if d else ""
        )
        kind, shown = (d.kind, fmt_regen(value)) if d else ("", "")
        paper_row = at_paper.get((pub.paper, pub.key))
        if (
            dg.status(v, outcome) == "unexplained"
            and paper_row is not None
            and paper_row.status in HELD_AT_PAPER
        ):
            kind, outcome, shown = dg.REDUCED_FIDELITY, dg.HOLDS, paper_row.regenerated
        rows.append(
            Row(
                paper=pub.paper,
                key=pub.key,
                source=pub.source,
                published=fmt_published(pub),
                regenerated=fmt_regen(reg),
                unit=pub.unit,
                tolerance=pub.tolerance_text(),
                verdict=v,
                cls=pub.cls,
                diagnosis=kind,
                check=outcome,
                check_value=shown,
            )
        )
    return rows


def status_counts(rows: Iterable[Row]) -> dict[str, int]:
    """{reproduced, explained, unexplained, explained by <kind>...: count} over the counted
    rows."""
    out = dict.fromkeys(dg.STATUSES, 0) | {f"explained by {k}": 0 for k in dg.ROW_KINDS}
    for r in rows:
        if r.cls not in COUNTED:
            continue
        out[r.status] += 1
        if r.status == "explained":
            out[f"explained by {r.diagnosis}"] += 1
    return out


def class_counts(rows: Iterable[Row]) -> dict[str, dict[str, int]]:
    """{class: {verdict: count}} over ``rows``, every class and verdict present."""
    counts = {c: dict.fromkeys(VERDICTS, 0) for c in CLASSES}
    for r in rows:
        counts[r.cls][r.verdict] += 1
    return counts


def counted_verdicts(rows: Iterable[Row]) -> dict[str, int]:
    """{verdict: count} over the rows of the counted classes (the papers' results)."""
    counts = class_counts(rows)
    return {v: sum(counts[c][v] for c in COUNTED) for v in VERDICTS}


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


def parse_csv(text: str, where: str) -> list[Row]:
    """The rows of a diff in CSV form (``csv_text``); ``where`` names it in errors."""
    recs = list(csv.DictReader(io.StringIO(text)))
    if recs and set(recs[0]) not in (set(DIFF_COLUMNS), set(BASE_COLUMNS)):
        raise ValueError(f"{where}: columns {sorted(recs[0])}, expected {DIFF_COLUMNS}")
    return [Row(**{("cls" if k == "class" else k): v for k, v in r.items()}) for r in recs]


def read_csv(path: Path) -> list[Row]:
    """The rows of a diff.csv written by ``write_csv``."""
    return parse_csv(path.read_text(), str(path))


def csv_text(rows: Sequence[Row]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(DIFF_COLUMNS)
    for r in rows:
        w.writerow(r.as_list())
    return buf.getvalue()


def write_csv(rows: Sequence[Row], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(csv_text(rows))


def console_table(rows: Sequence[Row]) -> str:
    cols = ["paper", "key", "published", "regenerated", "unit", "tolerance", "verdict", "class"]
    cols += ["diagnosis", "check"]
    table = [cols] + [[r.as_list()[DIFF_COLUMNS.index(c)] for c in cols] for r in rows]
    widths = [max(len(str(line[i])) for line in table) for i in range(len(cols))]
    lines = [
        "  ".join(str(v).ljust(w) for v, w in zip(line, widths, strict=True)) for line in table
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.append("")
    lines.append("diff by class: " + counted_summary(rows))
    s = status_counts(rows)
    lines.append(
        f"papers' results: {s['reproduced']} reproduced, {s['explained']} explained, "
        f"{s['unexplained']} unexplained"
    )
    return "\n".join(lines)


def by_class(rows: Sequence[Row]) -> list[tuple[str, list[Row]]]:
    """The rows grouped by class, in the order of ``CLASSES`` (counted ones first); classes
    without rows left out."""
    groups = [(c, [r for r in rows if r.cls == c]) for c in CLASSES]
    return [(c, g) for c, g in groups if g]


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


@dataclass(frozen=True)
class Gathered:
    """Everything the diff compares: the published numbers and claims of the chosen papers,
    the regenerated numbers and the checked claims, the diagnoses and their check values."""

    originals: list[Published]
    claims: list[Claim]
    numbers: dict[tuple[str, str], str]
    claim_results: dict[tuple[str, str], tuple[bool, str]]
    steps: dict[tuple[str, str], str]  # (paper, key) -> the step whose numbers file has it
    diagnoses: dict[tuple[str, str], dg.Diagnosis]
    checks: dict[tuple[str, str], str]  # (paper, check key) -> its value

    def rows(self, at_paper: Mapping[tuple[str, str], Row] | None = None) -> list[Row]:
        return diff_rows(self.originals, self.numbers, self.diagnoses, self.checks, at_paper)

    def unused_checks(self) -> list[str]:
        """The check values no diagnosis names, as paper:key."""
        wanted = {(d.paper, d.check) for d in self.diagnoses.values()}
        return [f"{p}:{k}" for p, k in sorted(self.checks) if (p, k) not in wanted]


def gather(
    originals_dir: Path,
    files: Sequence[Path],
    papers: Sequence[str] | None = None,
    diagnoses_dir: Path | None = None,
) -> Gathered:
    """Read config/originals/<paper>.yaml of ``papers`` (default: all), their diagnoses
    (``diagnoses_dir``/<paper>.yaml, default config/diagnoses beside ``originals_dir``) and the
    given numbers-*.csv and claims-*.csv. A regenerated number or checked claim that the
    originals do not list is an error (ValueError naming them); a check value no diagnosis
    names is kept (a sensitivity step may compute every row under its alternative) and listed
    by :meth:`Gathered.unused_checks`."""
    originals: list[Published] = []
    claims: list[Claim] = []
    for f in sorted(originals_dir.glob("*.yaml")):
        if papers and f.stem not in papers:
            continue
        originals += load_originals(f)
        claims += load_claims(f)
    chosen = sorted({p.paper for p in originals})
    keys: dict[str, list[str]] = {}
    for pub in originals:
        keys.setdefault(pub.paper, []).append(pub.key)
    diagnoses_dir = diagnoses_dir or originals_dir.parent / "diagnoses"
    diagnoses = dg.load_dir(diagnoses_dir, chosen, keys)
    claim_results = load_claim_results(sorted(p for p in files if p.name.startswith("claims-")))
    unknown_claims = sorted(set(claim_results) - {(c.paper, c.key) for c in claims})
    if unknown_claims:
        raise ValueError(
            "checked claims that the originals do not list: "
            + ", ".join(f"{p}:{k}" for p, k in unknown_claims)
        )
    number_files = sorted(p for p in files if p.name.startswith("numbers-"))
    written = load_numbers(number_files)
    numbers = {k: v for k, v in written.items() if not k[1].startswith(dg.CHECK_PREFIX)}
    checks = {k: v for k, v in written.items() if k[1].startswith(dg.CHECK_PREFIX)}
    unknown = unknown_numbers(originals, numbers)
    if unknown:
        raise ValueError(
            "regenerated numbers with no published counterpart: "
            + ", ".join(f"{p}:{k}" for p, k in unknown)
        )
    return Gathered(
        originals, claims, numbers, claim_results, number_steps(number_files), diagnoses, checks
    )


def paper_rows(paths: Iterable[Path]) -> dict[tuple[str, str], Row]:
    """{(paper, key): row} of references recorded at paper fidelity (ValueError for a file
    that is no reference, or one recorded at another fidelity)."""
    from analysis import reference  # it builds on this module

    out: dict[tuple[str, str], Row] = {}
    for path in paths:
        ref = reference.read(path)
        if ref.meta.get("fidelity") != "paper":
            raise ValueError(f"{path}: recorded at {ref.meta.get('fidelity')}, not at paper")
        out.update({(r.paper, r.key): r for r in ref.rows})
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="diff regenerated numbers against the papers")
    ap.add_argument("--originals", type=Path, default=Path("config/originals"))
    ap.add_argument("--diagnoses", type=Path, default=Path("config/diagnoses"))
    ap.add_argument(
        "--numbers",
        type=Path,
        default=Path("paper/generated/quick"),
        help="one fidelity's generated folder (default: paper/generated/quick)",
    )
    ap.add_argument("--csv", type=Path)
    ap.add_argument("--paper", action="append", help="only these papers (repeatable)")
    ap.add_argument("--quiet", action="store_true", help="no console table, only the counts")
    ap.add_argument(
        "--paper-reference",
        type=Path,
        action="append",
        default=[],
        help="a paper's reference recorded at paper fidelity (paper/reference/P-paper.csv), for "
        "a build below it: rows it reproduces or explains are reduced-fidelity (repeatable)",
    )
    ap.add_argument(
        "files",
        type=Path,
        nargs="*",
        help="the numbers-*.csv and claims-*.csv to read (the workflow names them, so a file "
        "left from an older layout is never read); default: every one under --numbers",
    )
    a = ap.parse_args(argv)
    # only the chosen papers' folders: other papers' outputs may lie in the same tree
    folders = sorted(d for d in a.numbers.glob("*") if d.is_dir())
    folders = [d for d in folders if not a.paper or d.name in a.paper]
    files = a.files or [p for d in folders for p in sorted(d.glob("*.csv"))]
    try:
        g = gather(a.originals, files, a.paper, a.diagnoses)
    except ValueError as e:
        print(f"compare: {e}", file=sys.stderr)
        return 2
    try:
        at_paper = paper_rows(a.paper_reference)
    except ValueError as e:
        print(f"compare: {e}", file=sys.stderr)
        return 2
    rows = g.rows(at_paper)
    if a.csv:
        write_csv(rows, a.csv)
    text = console_table(rows)
    held = [g.claim_results.get((c.paper, c.key)) for c in g.claims]
    text += (
        f"\nclaims: {sum(1 for h in held if h and h[0])} hold, "
        f"{sum(1 for h in held if h and not h[0])} fail, "
        f"{sum(1 for h in held if h is None)} not checked"
    )
    unused = g.unused_checks()
    if unused and not a.quiet:
        text += f"\ncheck values no diagnosis names ({len(unused)}): " + ", ".join(unused)
    print("\n".join(text.splitlines()[-3:]) if a.quiet else text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
