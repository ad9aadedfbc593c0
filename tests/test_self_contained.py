"""The repository explains itself: no committed file points to files outside it.

Every git-tracked text file is scanned for paths into a sibling ``shared`` directory (the
experiment notes and paper copies the artifact was first written from, which a clone does not
have) and for the word that named those notes. Reasons, corrections and assumptions belong in
the config reasons or in ``docs/<paper>.md``; a second test checks that every label a file
cites there (``docs/gao.md A1``) exists in that doc.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterable
from pathlib import Path

import pytest

from analysis import config as conf

ROOT = Path(__file__).resolve().parent.parent

# The forbidden strings are assembled from pieces so that this file does not contain them.
_WORD = "cata" + "log"
FORBIDDEN = re.compile(
    "|".join(
        [
            re.escape("../" + "shared"),
            re.escape("shared/" + "experiments"),
            re.escape("shared/" + "papers"),
            _WORD,
        ]
    ),
    re.IGNORECASE,
)

#: A citation of our own docs: "docs/gao.md A1", "docs/gao.md A1, A2, A11", "docs/tang.md T5:".
CITATION = re.compile(r"docs/(\w+)\.md ((?:[A-Z]+\d+)(?:(?:, | and )[A-Z]+\d+)*)\b")
#: A label's definition in a doc: a bold item "- **A1** ...".
DEFINITION = re.compile(r"\*\*([A-Z]+\d+)\*\*")


def tracked_text_files() -> dict[str, str]:
    """Path (relative to the repository) -> text of every git-tracked file that is not binary."""
    names = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True
    ).stdout.split(b"\0")
    files = {}
    for raw in names:
        if not raw:
            continue
        name = raw.decode()
        path = ROOT / name
        if not path.is_file():  # deleted in the working tree, not yet committed
            continue
        data = path.read_bytes()
        if b"\0" in data[:8192]:
            continue
        files[name] = data.decode("utf-8", errors="replace")
    return files


def outside_references(name: str, text: str) -> list[str]:
    """'file:line: text' for every line of ``text`` that points outside the repository."""
    return [
        f"{name}:{i}: {line.strip()}"
        for i, line in enumerate(text.splitlines(), start=1)
        if FORBIDDEN.search(line)
    ]


def cited_labels(text: str) -> Iterable[tuple[str, str]]:
    """(paper, label) for every citation of a docs/<paper>.md label in ``text``."""
    for m in CITATION.finditer(text):
        for label in re.split(r", | and ", m.group(2)):
            yield m.group(1), label


def missing_labels(files: dict[str, str], docs: dict[str, str]) -> list[str]:
    """'file: docs/<paper>.md <label>' for every cited label its doc does not define."""
    defined = {paper: set(DEFINITION.findall(text)) for paper, text in docs.items()}
    return [
        f"{name}: docs/{paper}.md {label}"
        for name, text in sorted(files.items())
        for paper, label in cited_labels(text)
        if label not in defined.get(paper, set())
    ]


def test_scanner_reports_an_outside_reference() -> None:
    text = "first line\nfor the details see the " + _WORD.upper() + " entry\nlast line"
    assert outside_references("x.md", text) == [
        f"x.md:2: for the details see the {_WORD.upper()} entry"
    ]
    assert outside_references("y.yaml", "notes: ../" + "shared/" + "papers/p.txt") != []
    assert outside_references("z.py", "nothing to report here") == []


def test_label_check_reports_a_missing_label() -> None:
    docs = {"gao": "- **A1** F, H, L\n- **A2** CHOKe\n"}
    files = {"c.yaml": 'reason: "unstated (docs/gao.md A1, A2, A11)"\nx: "(docs/misra.md M1)"'}
    assert missing_labels(files, docs) == ["c.yaml: docs/gao.md A11", "c.yaml: docs/misra.md M1"]
    assert missing_labels({"d.yaml": "(docs/gao.md A2)"}, docs) == []


def test_no_tracked_file_points_outside_the_repository() -> None:
    hits = [
        hit
        for name, text in sorted(tracked_text_files().items())
        for hit in outside_references(name, text)
    ]
    assert not hits, "references to files outside the repository:\n" + "\n".join(hits)


@pytest.mark.parametrize("paper", conf.paper_keys())
def test_every_paper_has_its_doc(paper: str) -> None:
    text = (ROOT / "docs" / f"{paper}.md").read_text()
    for heading in ("Ambiguities and what we assume", "Typos and corrections", "Derived values"):
        assert heading in text, f"docs/{paper}.md lacks the section '{heading}'"


def test_every_cited_doc_label_exists() -> None:
    files = tracked_text_files()
    docs = {
        Path(name).stem: text for name, text in files.items() if re.fullmatch(r"docs/\w+\.md", name)
    }
    cited = [c for text in files.values() for c in cited_labels(text)]
    assert len(cited) > 50, "the citation pattern no longer finds the config's citations"
    missing = missing_labels(files, docs)
    assert not missing, "labels cited but not defined in their doc:\n" + "\n".join(missing)
