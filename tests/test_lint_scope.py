"""make lint covers the Python of bench/ too: its scripts have no .py suffix, so ruff sees
them only through pyproject.toml's extend-include, which must list every one."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path


def _python_scripts(folder: Path) -> set[str]:
    """Files of the folder without a .py suffix whose first line runs Python."""
    out = set()
    for f in folder.iterdir():
        if f.is_file() and f.suffix != ".py":
            with f.open("rb") as fh:
                first = fh.readline()
            if re.match(rb"#!.*\bpython3?\b", first):
                out.add(f"{folder.name}/{f.name}")
    return out


def test_every_python_script_of_bench_is_linted(root: Path) -> None:
    scripts = _python_scripts(root / "bench")
    assert "bench/ne-search" in scripts  # the scan finds them
    ruff = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["ruff"]
    assert set(ruff["extend-include"]) == scripts


def test_make_lint_checks_and_formats_bench(root: Path) -> None:
    recipe = (root / "Makefile").read_text().split("\nlint:", 1)[1].split("\n\n", 1)[0]
    assert re.search(r"ruff check analysis tests bench$", recipe, re.M), recipe
    assert re.search(r"ruff format --check analysis tests bench$", recipe, re.M), recipe
