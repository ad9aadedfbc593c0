"""The README's generated blocks are what analysis.readme_table writes from paper/reference/
now, and the check notices a typed edit or a new reference."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from analysis import readme_table, reference
from analysis.compare import status_counts

ROOT = Path(__file__).resolve().parent.parent


def test_readme_blocks_are_current() -> None:
    text = (ROOT / "README.md").read_text()
    assert readme_table.render(text, ROOT) == text, "run: python -m analysis.readme_table"


def _copy(tmp_path: Path) -> Path:
    for sub in ("config/experiments", "paper/reference"):
        shutil.copytree(ROOT / sub, tmp_path / sub)
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    return tmp_path


def test_check_fails_on_a_typed_count(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    readme = root / "README.md"
    assert readme_table.main(["--readme", str(readme), "--check"]) == 0
    text = readme.read_text()
    start = text.index("<!-- BEGIN results")
    row = text.index("| `gao`", start)
    end = text.index("\n", row)
    # a count typed by hand: the paper column's first number one higher
    cells = text[row:end].split(" | ")
    first, rest = cells[-1].split(" / ", 1)
    typed = " | ".join([*cells[:-1], f"{int(first) + 1} / {rest}"])
    readme.write_text(text[:row] + typed + text[end:])
    assert readme_table.main(["--readme", str(readme), "--check"]) == 1
    assert readme_table.main(["--readme", str(readme)]) == 0
    assert readme.read_text() == text


def test_a_new_reference_changes_the_table(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    ref = root / "paper/reference"
    shutil.copy(ref / "gao-paper.csv", ref / "gao-quick.csv")
    table = readme_table.results_table(root)
    gao = next(line for line in table.splitlines() if line.startswith("| `gao`"))
    c = status_counts(reference.read(ref / "gao-paper.csv").rows)
    cell = f"{c['reproduced']} / {c['explained']} / {c['unexplained']}"
    assert gao.endswith(f"| {cell} | {cell} |")
    assert "| `gao` | quick |" in readme_table.cost_table(root)


def test_a_missing_block_is_refused() -> None:
    with pytest.raises(ValueError, match="BEGIN cost"):
        readme_table.render("<!-- BEGIN results x -->\n<!-- END results -->\n", ROOT)


def test_steps_not_recorded_are_counted_in_words() -> None:
    rows: list = []
    one = reference.Reference({"steps_missing": "choke_rtt"}, rows)
    two = reference.Reference({"steps_missing": "table3_buffer table3_join"}, rows)
    assert readme_table._counts(one).endswith("(1 step not recorded)")
    assert readme_table._counts(two).endswith("(2 steps not recorded)")
    assert "not recorded" not in readme_table._counts(reference.Reference({}, rows))
