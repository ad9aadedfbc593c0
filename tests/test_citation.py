"""CITATION.cff: valid YAML with the keys CFF 1.2.0 requires, the licence of LICENSE, and the
five papers under references, one for each paper of config/originals/."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from analysis import config as conf

# CFF 1.2.0: the keys a file must have, and every key it may have (its schema allows no other)
REQUIRED = ("cff-version", "message", "title", "authors")
ALLOWED = set(REQUIRED) | {
    "abstract",
    "commit",
    "contact",
    "date-released",
    "doi",
    "identifiers",
    "keywords",
    "license",
    "license-url",
    "preferred-citation",
    "references",
    "repository",
    "repository-artifact",
    "repository-code",
    "type",
    "url",
    "version",
}
PAPERS = tuple(conf.paper_keys())


def _authors_problems(where: str, authors: Any) -> list[str]:
    if not isinstance(authors, list) or not authors:
        return [f"{where}: authors must be a non-empty list"]
    return [
        f"{where}: author {i} has neither family-names (a person) nor name (an entity)"
        for i, a in enumerate(authors)
        if not isinstance(a, dict) or not (a.get("family-names") or a.get("name"))
    ]


def cff_problems(doc: Any, titles: dict[str, str]) -> list[str]:
    """What makes doc no CITATION.cff of this artifact; titles: paper -> its title line in
    config/originals (authors, title, venue), each to be matched by one reference."""
    if not isinstance(doc, dict):
        return ["not a YAML mapping"]
    problems = [f"missing key {k}" for k in REQUIRED if not doc.get(k)]
    problems += [f"key {k} is not in CFF 1.2.0" for k in sorted(set(doc) - ALLOWED)]
    if doc.get("cff-version") != "1.2.0":
        problems.append(f"cff-version {doc.get('cff-version')!r}, not '1.2.0'")
    problems += _authors_problems("artifact", doc.get("authors"))
    refs = doc.get("references")
    if not isinstance(refs, list) or len(refs) != len(titles):
        return [*problems, f"references: {len(titles)} expected"]
    for i, ref in enumerate(refs):
        if not isinstance(ref, dict) or not ref.get("type") or not ref.get("title"):
            problems.append(f"reference {i}: type and title required")
            continue
        problems += _authors_problems(f"reference {i}", ref.get("authors"))
    for paper, line in titles.items():
        found = [
            r
            for r in refs
            if isinstance(r, dict)
            and " ".join(str(r.get("title", "")).split()) in line
            and str((r.get("authors") or [{}])[0].get("family-names")) in line
        ]
        if len(found) != 1:
            problems.append(f"{paper}: {len(found)} references match {line!r}")
    return problems


@pytest.fixture(scope="module")
def titles(root: Path) -> dict[str, str]:
    return {
        p: yaml.safe_load((root / "config" / "originals" / f"{p}.yaml").read_text())["title"]
        for p in PAPERS
    }


@pytest.fixture(scope="module")
def cff(root: Path) -> dict[str, Any]:
    return yaml.safe_load((root / "CITATION.cff").read_text())


def test_citation_cff_is_valid_and_names_the_five_papers(
    cff: dict[str, Any], titles: dict[str, str]
) -> None:
    assert cff_problems(cff, titles) == []


def test_the_licence_is_the_one_of_license(cff: dict[str, Any], root: Path) -> None:
    assert cff["license"] == "BSD-3-Clause"
    assert (root / "LICENSE").read_text().startswith("BSD 3-Clause License\n")


def _drop_key(d: dict[str, Any]) -> None:
    del d["authors"]


def _drop_reference(d: dict[str, Any]) -> None:
    d["references"].pop()


def _retitle(d: dict[str, Any]) -> None:
    d["references"][1]["title"] = "Fair and efficient router control"


def _anonymous(d: dict[str, Any]) -> None:
    d["references"][0]["authors"][0] = {"given-names": "Aditya"}


def _typo(d: dict[str, Any]) -> None:
    d["licence"] = d.pop("license")


def _version(d: dict[str, Any]) -> None:
    d["cff-version"] = 1.2


@pytest.mark.parametrize(
    ("breakage", "problem"),
    [
        (_drop_key, "missing key authors"),
        (_drop_reference, "references: 5 expected"),
        (_retitle, "gao: 0 references match"),
        (_anonymous, "reference 0: author 0 has neither"),
        (_typo, "key licence is not in CFF 1.2.0"),
        (_version, "cff-version 1.2, not '1.2.0'"),
    ],
)
def test_a_broken_citation_is_caught(
    cff: dict[str, Any], titles: dict[str, str], breakage: Any, problem: str
) -> None:
    broken = copy.deepcopy(cff)
    breakage(broken)
    assert any(problem in p for p in cff_problems(broken, titles)), cff_problems(broken, titles)


def test_a_file_that_is_no_mapping_is_caught(titles: dict[str, str]) -> None:
    assert cff_problems(yaml.safe_load("- just\n- a list\n"), titles) == ["not a YAML mapping"]
