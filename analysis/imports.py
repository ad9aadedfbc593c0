"""The project's own modules a module imports, directly or through others.

The workflow lists these files as a step's code inputs, so a change to any module a step
imports reruns that step, and a change to a module it does not import reruns nothing. The
imports are read from the source (``ast``): nothing is imported, so building the workflow's
job graph never loads pandas or the models.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "analysis"


def module_file(name: str, root: Path = ROOT) -> Path | None:
    """``analysis.plots.gao`` -> analysis/plots/gao.py (or the package's __init__.py); None
    for a name outside the project."""
    if name != PACKAGE and not name.startswith(PACKAGE + "."):
        return None
    base = root.joinpath(*name.split("."))
    for f in (base.with_suffix(".py"), base / "__init__.py"):
        if f.is_file():
            return f
    return None


def _imported(tree: ast.AST, name: str, is_package: bool) -> set[str]:
    """Module names one module's source imports (absolute; relative ones resolved)."""
    here = name if is_package else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = here.split(".")
                stem = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{stem}.{node.module}" if node.module else stem
            else:
                base = node.module or ""
            out.add(base)
            # `from analysis import config` imports the module analysis.config
            out.update(f"{base}.{a.name}" for a in node.names)
    return out


@cache
def _closure(name: str, root: Path) -> tuple[Path, ...]:
    seen: dict[str, Path] = {}
    todo = [name]
    while todo:
        mod = todo.pop()
        if mod in seen:
            continue
        f = module_file(mod, root)
        if f is None:
            continue
        seen[mod] = f
        # a module's package __init__ runs before it
        parent = mod.rpartition(".")[0]
        if parent:
            todo.append(parent)
        tree = ast.parse(f.read_text(), filename=str(f))
        todo.extend(_imported(tree, mod, f.name == "__init__.py"))
    return tuple(sorted(seen.values()))


def closure(name: str, root: Path = ROOT) -> list[str]:
    """Every project source file ``python -m <name>`` runs: the module, the project modules it
    imports at any depth and their packages' __init__.py, as paths relative to ``root``,
    sorted. A name that is not a module of the project is an error."""
    if module_file(name, root) is None:
        raise ValueError(f"'{name}' is not a module of the project (under {root / PACKAGE})")
    main = module_file(name + ".__main__", root)
    files = set(_closure(name, root))
    if main is not None:
        files.update(_closure(name + ".__main__", root))
    return sorted(str(f.relative_to(root)) for f in files)
