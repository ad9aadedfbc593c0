"""Why a regenerated number differs from the published one: a diagnosis per off or missing
row, each decided by a check the pipeline computes.

``config/diagnoses/<paper>.yaml`` lists, for rows of ``config/originals/<paper>.yaml``, one
diagnosis each, of one kind (``KINDS``):

- ``unstated-parameter``: a parameter the paper does not give (``parameter``) moves the row;
  ``tested`` lists the values tried;
- ``alternative-reading``: a sentence of the paper (``quote``) reads two ways;
- ``paper-inconsistent``: the paper's own formula, analysis or other numbers disagree with it
  (``computation`` says which);
- ``simulator-gap``: what our simulator cannot model (``gap``).

Every diagnosis names a check: a value an analysis step computes (a sensitivity run, a replay
of stored runs, or a formula) and writes among its numbers under a key starting ``check.``,
and the criterion that decides whether the diagnosis holds (``holds_when``). The check value
may also be ``regenerated``: the row's own regenerated value, for a criterion on its
direction. The criteria:

- ``reproduces``: the check value meets the published row's own criterion (kind and
  tolerance): under the tested alternative the published number comes out;
- ``contradicts``: the check value does not meet it: the paper's own formula does not give
  its published number;
- ``below_published``, ``above_published``: the check value lies strictly below (above) the
  published value (a direction the diagnosis predicts, e.g. a simulator without the
  testbed's host noise gives a smaller spread);
- ``{lower_bound: x}``, ``{upper_bound: x}``, ``{above: x}``, ``{below: x}``,
  ``{range: [a, b]}``, ``{equals: true|false}``: a stated bound on the check value.

A row whose verdict is not ``ok`` is *explained* when its diagnosis's check holds, and
*unexplained* when it has no diagnosis, or its check fails or was not computed. Below paper
fidelity, a row left unexplained is ``reduced-fidelity`` (``REDUCED_FIDELITY``) when the
reference recorded at paper fidelity (analysis.reference) reproduces or explains it: that
reference's status is the check (analysis.compare.diff_rows). No cause is a
number typed by hand: a diagnosis's text names what was tried, the check computes it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import yaml

KINDS = ("unstated-parameter", "alternative-reading", "paper-inconsistent", "simulator-gap")
#: the field each kind must fill in, beside ``why`` and ``check``
KIND_FIELDS = {
    "unstated-parameter": ("parameter", "tested"),
    "alternative-reading": ("quote",),
    "paper-inconsistent": ("computation",),
    "simulator-gap": ("gap",),
}
#: the kind the diff gives, below paper fidelity, a row that its own diagnosis (if any) leaves
#: unexplained but that the reference recorded at paper fidelity reproduces or explains, on
#: more or longer runs than this fidelity's. Never written in config.
REDUCED_FIDELITY = "reduced-fidelity"
#: every kind a diff row may carry
ROW_KINDS = (*KINDS, REDUCED_FIDELITY)
CHECK_PREFIX = "check."
#: a check's outcome in diff.csv's ``check`` column
HOLDS, FAILS, NOT_COMPUTED = "holds", "fails", "not computed"
#: a counted row's status in the report
STATUSES = ("reproduced", "explained", "unexplained")
BOUND_CRITERIA = ("lower_bound", "upper_bound", "above", "below", "range", "equals")
ROW_CRITERIA = ("reproduces", "contradicts", "below_published", "above_published")
#: a check value that is the row's own regenerated value
REGENERATED = "regenerated"


@dataclass(frozen=True)
class Diagnosis:
    paper: str
    key: str  # the published row it explains
    kind: str
    why: str
    detail: str  # the parameter and values tested, the quote, the computation or the gap
    check: str  # the check value's key (check.*)
    holds_when: str  # reproduces | contradicts | one of BOUND_CRITERIA
    bound: object  # the bound of a BOUND_CRITERIA criterion (None for the row criteria)
    says: str  # the criterion in words

    def criterion_text(self) -> str:
        if self.holds_when in ROW_CRITERIA:
            return self.holds_when
        if self.holds_when == "range":
            lo, hi = self.bound  # type: ignore[misc]
            return f"in [{lo:g}, {hi:g}]"
        sym = {"lower_bound": ">=", "upper_bound": "<=", "above": ">", "below": "<"}
        if self.holds_when == "equals":
            return f"= {'true' if self.bound else 'false'}"
        return f"{sym[self.holds_when]} {self.bound:g}"


def _fail(path: Path, key: str, msg: str) -> ValueError:
    return ValueError(f"{path}: diagnosis of '{key}': {msg}")


def _criterion(path: Path, key: str, spec: object) -> tuple[str, object]:
    if isinstance(spec, str):
        if spec not in ROW_CRITERIA:
            raise _fail(path, key, f"holds_when '{spec}' is not one of {', '.join(ROW_CRITERIA)}")
        return spec, None
    if not isinstance(spec, dict) or len(spec) != 1:
        raise _fail(path, key, "holds_when is a word or a mapping of one bound")
    ((how, bound),) = spec.items()
    if how not in BOUND_CRITERIA:
        raise _fail(path, key, f"holds_when '{how}' is not one of {', '.join(BOUND_CRITERIA)}")
    if how == "equals":
        if not isinstance(bound, bool):
            raise _fail(path, key, "equals takes true or false")
    elif how == "range":
        ok = isinstance(bound, list) and len(bound) == 2
        if not ok or not all(isinstance(b, (int, float)) for b in bound) or bound[0] > bound[1]:
            raise _fail(path, key, "range takes [lo, hi] with lo <= hi")
        bound = [float(b) for b in bound]
    elif isinstance(bound, bool) or not isinstance(bound, (int, float)):
        raise _fail(path, key, f"{how} takes a number")
    return how, bound


def load(path: Path, published_keys: Iterable[str] | None = None) -> list[Diagnosis]:
    """The diagnoses of one paper's file. ValueError naming the file and row for an unknown
    kind, a missing field, a row listed twice, a check key without the ``check.`` prefix, or
    (given ``published_keys``) a row the paper's originals do not have."""
    doc = yaml.safe_load(path.read_text()) or {}
    paper = doc.get("paper")
    if paper != path.stem:
        raise ValueError(f"{path}: paper '{paper}' is not the file's name")
    known = set(published_keys) if published_keys is not None else None
    out: list[Diagnosis] = []
    seen: set[str] = set()
    for e in doc.get("diagnoses") or []:
        key = e.get("key", "")
        if key in seen:
            raise _fail(path, key, "listed twice")
        seen.add(key)
        if known is not None and key not in known:
            raise _fail(path, key, "no such published number in the paper's originals")
        kind = e.get("kind")
        if kind not in KINDS:
            raise _fail(path, key, f"kind {kind!r} is not one of {', '.join(KINDS)}")
        fields = KIND_FIELDS[kind]
        missing = [f for f in ("why", "check", *fields) if not e.get(f)]
        if missing:
            raise _fail(path, key, f"{kind} needs {', '.join(missing)}")
        extra = set(e) - {"key", "kind", "why", "check", *fields}
        if extra:
            raise _fail(path, key, f"unknown fields {', '.join(sorted(extra))}")
        check = e["check"]
        if not isinstance(check, dict) or set(check) != {"value", "holds_when", "says"}:
            raise _fail(path, key, "check needs exactly value, holds_when and says")
        value = str(check["value"])
        if value != REGENERATED and not value.startswith(CHECK_PREFIX):
            raise _fail(
                path,
                key,
                f"check value '{value}' must start '{CHECK_PREFIX}' or be '{REGENERATED}'",
            )
        how, bound = _criterion(path, key, check["holds_when"])
        detail = "; ".join(
            ", ".join(str(x) for x in e[f]) if isinstance(e[f], list) else str(e[f]) for f in fields
        )
        out.append(
            Diagnosis(
                paper=paper,
                key=key,
                kind=kind,
                why=" ".join(str(e["why"]).split()),
                detail=" ".join(detail.split()),
                check=str(check["value"]),
                holds_when=how,
                bound=bound,
                says=" ".join(str(check["says"]).split()),
            )
        )
    return out


def load_dir(folder: Path, papers: Iterable[str], originals: Mapping[str, Iterable[str]]) -> dict:
    """{(paper, key): Diagnosis} of ``papers`` from ``folder``/<paper>.yaml (a paper without
    a file has none); ``originals``: paper -> its published keys."""
    out: dict[tuple[str, str], Diagnosis] = {}
    for p in papers:
        f = folder / f"{p}.yaml"
        if f.is_file():
            out.update({(d.paper, d.key): d for d in load(f, originals.get(p, ()))})
    return out


def _as_float(text: str) -> float | None:
    try:
        x = float(text)
    except ValueError:
        return None
    return None if math.isnan(x) else x


def check_outcome(
    diag: Diagnosis, row_verdict_of: object, value: str | None, published: object = None
) -> str:
    """holds / fails / not computed for one diagnosis, given its check value (text as
    written, None or empty when no step wrote it). ``row_verdict_of`` maps a value text to
    the published row's verdict on it (analysis.compare.verdict bound to the row);
    ``published`` is the row's published value (for ``below_published`` and
    ``above_published``: not computed unless it is a number)."""
    if value is None or value.strip() == "" or value.strip().lower() == "nan":
        return NOT_COMPUTED
    if diag.holds_when in ("below_published", "above_published"):
        x = _as_float(value)
        if x is None or isinstance(published, bool) or not isinstance(published, (int, float)):
            return NOT_COMPUTED
        below = x < float(published)
        above = x > float(published)
        return HOLDS if (below if diag.holds_when == "below_published" else above) else FAILS
    if diag.holds_when in ROW_CRITERIA:
        v = row_verdict_of(value)  # type: ignore[operator]
        want = "ok" if diag.holds_when == "reproduces" else "off"
        return HOLDS if v == want else FAILS
    if diag.holds_when == "equals":
        t = value.strip().lower()
        if t not in ("true", "false"):
            return NOT_COMPUTED
        return HOLDS if (t == "true") == diag.bound else FAILS
    x = _as_float(value)
    if x is None:
        return NOT_COMPUTED
    b = diag.bound
    ok = {
        "lower_bound": lambda: x >= b,  # type: ignore[operator]
        "upper_bound": lambda: x <= b,  # type: ignore[operator]
        "above": lambda: x > b,  # type: ignore[operator]
        "below": lambda: x < b,  # type: ignore[operator]
        "range": lambda: b[0] <= x <= b[1],  # type: ignore[index]
    }[diag.holds_when]()
    return HOLDS if ok else FAILS


def status(verdict: str, check: str) -> str:
    """A counted row's status: reproduced (ok), explained (its diagnosis's check holds) or
    unexplained."""
    if verdict == "ok":
        return "reproduced"
    return "explained" if check == HOLDS else "unexplained"
