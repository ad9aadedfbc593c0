"""Every command-line module's usage docstring matches its --help.

Each module of ``analysis/`` with a ``main()`` (and the ``analysis.misra`` package) is run as
``python -m MODULE --help``; every flag that the usage lines of its docstring (its first
docstring: the ``python -m MODULE ...`` lines, with their ``\\`` continuations) show must be
one its parser knows. A usage line whose first argument is a sub-command or step the parser
lists (``{make,assemble,record}``) is checked against that sub-command's --help. So a flag
removed from a parser, or a docstring naming one that never existed, fails here.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FLAG = re.compile(r"(?<![\w-])--[A-Za-z][A-Za-z0-9-]*")


def cli_modules(root: Path = ROOT) -> dict[str, Path]:
    """Module name -> the file whose first docstring is its usage."""
    found = {}
    for path in sorted((root / "analysis").rglob("*.py")):
        if path.name == "__init__.py" or "def main(" not in path.read_text():
            continue
        rel = path.relative_to(root).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "__main__" else rel.parts
        found[".".join(parts)] = path
    return found


def usage_lines(module: str, source: str) -> list[str]:
    """The ``python -m module ...`` lines of the source's first docstring, one per command."""
    doc = ast.get_docstring(ast.parse(source), clean=False) or ""
    joined = re.sub(r"\\\n\s*", " ", doc)  # a raw docstring's continuation lines
    return [
        line.strip()
        for line in joined.splitlines()
        if re.search(rf"python -m {re.escape(module)}(\s|$)", line)
    ]


def documented(module: str, line: str) -> tuple[str | None, set[str]]:
    """(first word after the module, or None; the flags) of one usage line."""
    rest = line.split(f"python -m {module}", 1)[1].split()
    first = rest[0] if rest and not rest[0].startswith(("-", "[")) else None
    return first, set(FLAG.findall(" ".join(rest)))


#: run in one interpreter: ``python -m MODULE ARGS --help`` for each (module, args) given as
#: JSON on stdin, through runpy as ``python -m`` does; prints {"MODULE ARGS": [status, stdout]}
HELP_DRIVER = """
import contextlib, io, json, runpy, sys
out = {}
for module, args in json.load(sys.stdin):
    buf, status = io.StringIO(), 0
    sys.argv = [module, *args, "--help"]
    try:
        with contextlib.redirect_stdout(buf):
            runpy.run_module(module, run_name="__main__", alter_sys=True)
    except SystemExit as e:
        status = e.code or 0
    except Exception as e:  # noqa: BLE001 - reported as the module's failure
        status, buf = repr(e), io.StringIO(repr(e))
    out[" ".join([module, *args])] = [status, buf.getvalue()]
print(json.dumps(out))
"""


def help_texts(calls: list[tuple[str, list[str]]], cwd: Path) -> dict[str, str]:
    """The --help output of each (module, args), keyed by "module args"; all run in one
    interpreter (the imports of numpy, pandas and matplotlib once)."""
    done = subprocess.run(
        [sys.executable, "-c", HELP_DRIVER],
        input=json.dumps(calls),
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.splitlines()[-1])
    bad = {k: v for k, v in result.items() if v[0] != 0}
    assert not bad, f"--help failed: {bad}"
    return {k: v[1] for k, v in result.items()}


def choices(help_out: str) -> set[str]:
    """Every {a,b,c} choice the usage of a --help lists (sub-commands, steps, items)."""
    return {c for group in re.findall(r"\{([\w,.-]+)\}", help_out) for c in group.split(",")}


def undocumented_flags(modules: dict[str, Path], cwd: Path = ROOT) -> dict[str, list[str]]:
    """Module -> the flags its usage docstring shows that its --help does not know."""
    lines = {m: usage_lines(m, p.read_text()) for m, p in modules.items()}
    top = help_texts([(m, []) for m in modules], cwd)
    subs = {}
    for m, ls in lines.items():
        for line in ls:
            first, _ = documented(m, line)
            if first in choices(top[m]):
                subs[f"{m} {first}"] = (m, [first])
    helps = {**top, **help_texts(list(subs.values()), cwd)} if subs else top
    bad: dict[str, list[str]] = {}
    for m, ls in lines.items():
        for line in ls:
            first, flags = documented(m, line)
            text = helps.get(f"{m} {first}", "") + top[m]
            missing = sorted(flags - set(FLAG.findall(text)))
            bad.setdefault(m, []).extend(f"{f} (in: {line})" for f in missing)
    return bad


MODULES = cli_modules()


@pytest.fixture(scope="module")
def undocumented() -> dict[str, list[str]]:
    return undocumented_flags(MODULES)


def test_every_cli_module_is_found() -> None:
    assert {"analysis.compare", "analysis.misra", "analysis.plots.topology"} <= set(MODULES)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_usage_docstring_matches_help(module: str, undocumented: dict[str, list[str]]) -> None:
    path = MODULES[module]
    assert usage_lines(module, path.read_text()), f"{path}: no 'python -m {module}' usage line"
    assert not undocumented[module]


def test_a_removed_flag_fails(tmp_path: Path) -> None:
    """A copy of analysis/ whose plot parser lost --tex: the plot modules' usage (which shows
    --tex) no longer matches their --help."""
    shutil.copytree(ROOT / "analysis", tmp_path / "analysis")
    cli = tmp_path / "analysis" / "cli.py"
    text = cli.read_text()
    line = '    ap.add_argument("--tex", type=Path, help="LaTeX of the figure or table")\n'
    assert line in text
    cli.write_text(text.replace(line, ""))
    module = "analysis.plots.floyd1991"
    copy = {module: tmp_path / "analysis" / "plots" / "floyd1991.py"}
    assert any(b.startswith("--tex") for b in undocumented_flags(copy, cwd=tmp_path)[module])
