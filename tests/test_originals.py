"""config/originals/*.yaml: the published numbers of every paper.

Each file must validate against config/schema/originals.schema.yaml; on top of the schema,
keys are unique within a file, `paper` equals the file name, and ranges have lo <= hi.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from analysis import config as conf

ROOT = Path(__file__).resolve().parents[1]
ORIGINALS = ROOT / "config" / "originals"
SCHEMA = ROOT / "config" / "schema" / "originals.schema.yaml"
PAPERS = tuple(conf.paper_keys())
FILES = sorted(ORIGINALS.glob("*.yaml"))


def _load(path: Path) -> Any:
    with path.open(encoding="utf-8") as fh:
        return yaml.safe_load(fh)


@pytest.fixture(scope="module")
def validator() -> Draft202012Validator:
    schema = _load(SCHEMA)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _errors(validator: Draft202012Validator, doc: Any) -> list[str]:
    return [
        f"{'/'.join(str(p) for p in e.absolute_path)}: {e.message}"
        for e in validator.iter_errors(doc)
    ]


def _keys(doc: dict[str, Any]) -> list[str]:
    return [e["key"] for e in doc["numbers"]] + [c["key"] for c in doc["claims"]]


def test_every_paper_has_a_file() -> None:
    assert sorted(f.stem for f in FILES) == sorted(PAPERS)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_file_matches_schema(path: Path, validator: Draft202012Validator) -> None:
    assert _errors(validator, _load(path)) == []


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_paper_key_is_file_name(path: Path) -> None:
    assert _load(path)["paper"] == path.stem


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_keys_unique(path: Path) -> None:
    keys = _keys(_load(path))
    duplicates = sorted({k for k in keys if keys.count(k) > 1})
    assert duplicates == []


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_ranges_ordered(path: Path) -> None:
    bad = [
        e["key"]
        for e in _load(path)["numbers"]
        if e["kind"] == "range" and not e["published"][0] <= e["published"][1]
    ]
    assert bad == []


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_has_numbers(path: Path) -> None:
    assert len(_load(path)["numbers"]) > 0


def _minimal() -> dict[str, Any]:
    return {
        "paper": "floyd1991",
        "title": "Floyd 1991",
        "numbers": [
            {
                "key": "sim.max_queue",
                "published": 60,
                "unit": "packets",
                "source": "Sec 3",
                "kind": "value",
                "class": "stated-parameter",
                "tolerance": {"abs": 0},
                "tolerance_reason": "stated configuration fact",
            },
            {
                "key": "sec4_5.drops_per_gateway_per_50s",
                "published": [11, 25],
                "unit": "packets",
                "source": "Sec 4.5",
                "kind": "range",
                "class": "published-result",
                "tolerance_reason": "a stated range",
            },
            {
                "key": "fig10_11.avg_ratio_n10_gt_1",
                "published": True,
                "unit": "bool",
                "source": "Figs 10-11",
                "kind": "bool",
                "class": "published-result",
                "tolerance_reason": "boolean claim: exact",
            },
            {
                "key": "fig2.packets_first_50s_n5",
                "published": 5000,
                "unit": "packets",
                "source": "Sec 4.5",
                "kind": "lower_bound",
                "strict": True,
                "class": "published-result",
                "tolerance_reason": "'more than 5000'",
            },
        ],
        "claims": [{"key": "cor4.formula", "statement": "p = 1/2", "source": "Cor 4"}],
    }


def test_minimal_document_is_valid(validator: Draft202012Validator) -> None:
    assert _errors(validator, _minimal()) == []


def _set(doc: dict[str, Any], index: int, field: str, value: Any) -> None:
    doc["numbers"][index][field] = value


def _drop(doc: dict[str, Any], index: int, field: str) -> None:
    del doc["numbers"][index][field]


BROKEN: dict[str, tuple[int, str, Any]] = {
    # name: (entry index, field, new value); value None deletes the field
    "range_with_scalar": (1, "published", 11),
    "range_with_three_items": (1, "published", [11, 18, 25]),
    "range_with_bool_items": (1, "published", [True, False]),
    "value_with_list": (0, "published", [60, 60]),
    "value_with_bool": (0, "published", True),
    "value_without_tolerance": (0, "tolerance", None),
    "bool_with_tolerance": (2, "tolerance", {"abs": 0}),
    "bool_with_number": (2, "published", 1),
    "unknown_kind": (0, "kind", "approx"),
    "two_tolerances": (0, "tolerance", {"abs": 0, "rel": 0.1}),
    "negative_tolerance": (0, "tolerance", {"rel": -0.1}),
    "unknown_tolerance": (0, "tolerance", {"pct": 10}),
    "uppercase_key": (0, "key", "sim.Max_queue"),
    "key_with_dash": (0, "key", "sim.max-queue"),
    "empty_key_part": (0, "key", "sim..max_queue"),
    "missing_reason": (0, "tolerance_reason", None),
    "missing_source": (0, "source", None),
    "extra_field": (0, "value", 60),
    "missing_class": (0, "class", None),
    "unknown_class": (0, "class", "reproduced"),
    "range_with_tolerance": (1, "tolerance", {"abs": 3}),
    "bound_with_tolerance": (3, "tolerance", {"rel": 0.1}),
    "bound_without_strict": (3, "strict", None),
    "strict_on_a_value": (0, "strict", True),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_entry_rejected(name: str, validator: Draft202012Validator) -> None:
    index, field, value = BROKEN[name]
    doc = copy.deepcopy(_minimal())
    if value is None:
        _drop(doc, index, field)
    else:
        _set(doc, index, field, value)
    assert _errors(validator, doc) != []


def test_broken_document_level_rejected(validator: Draft202012Validator) -> None:
    unknown_paper = copy.deepcopy(_minimal())
    unknown_paper["paper"] = "Floyd 1991"  # not a paper key (the files are checked below)
    extra_top = copy.deepcopy(_minimal())
    extra_top["authors"] = "Floyd"
    no_claims = copy.deepcopy(_minimal())
    del no_claims["claims"]
    claim_with_note = copy.deepcopy(_minimal())
    claim_with_note["claims"][0]["note"] = "not allowed"
    for doc in (unknown_paper, extra_top, no_claims, claim_with_note):
        assert _errors(validator, doc) != []


def test_calibrated_rows_match_calibrated_parameters(cfg: dict) -> None:
    """A published number used to choose an unstated parameter is class `calibrated`, and the
    parameter says so: every parameter with status `calibrated` names the rows it was fitted
    to (`calibrated_to`), each of class `calibrated`, and every `calibrated` row is named by
    some parameter."""
    named: set[tuple[str, str]] = set()
    for paper in PAPERS:
        for name, decl in cfg[paper]["parameters"].items():
            if isinstance(decl, dict) and decl.get("status") == "calibrated":
                assert decl.get("calibrated_to"), f"{paper}.{name}: calibrated_to is empty"
                named |= {(paper, k) for k in decl["calibrated_to"]}
    rows = {(p.stem, e["key"]): e["class"] for p in FILES for e in _load(p)["numbers"]}
    unknown = sorted(k for k in named if k not in rows)
    assert unknown == [], "calibrated_to names rows the originals do not have"
    assert sorted(k for k in named if rows[k] != "calibrated") == []
    assert sorted(k for k, c in rows.items() if c == "calibrated" and k not in named) == []
