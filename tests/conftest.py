"""Shared fixtures: the project root and the patched ns binary."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

from analysis import config as conf

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def ns_binary() -> Path:
    """The patched ns (make test builds it first). Missing is an error, not a skip."""
    ns = Path(os.environ.get("CCR_NS", ROOT / "build" / "ns2" / "bin" / "ns"))
    if not ns.is_file():
        pytest.fail(f"{ns} not built: run 'make ns' (or snakemake build_ns) first")
    return ns


@pytest.fixture(scope="session")
def cfg(root: Path) -> dict:
    """The project's configuration as Snakemake merges it (config.yaml, then every paper's
    file). Shared by all tests: a test that changes it works on a copy.deepcopy."""
    return conf.load(conf.config_files(root))


# what a copy of the project needs to run the workflow (build/ is linked, not copied)
PROJECT_FILES = [
    "Snakefile",
    "rules",
    "config",
    "tcl",
    "analysis",
    "scripts",
    "ns2-patches",
    "profiles",
    "report",
]


def make_project_copy(root: Path, w: Path, report: bool = False) -> Path:
    """Copy the project to the new folder w, sharing build/ (the patched ns) through a link;
    with report, also the report's sources (paper/report.tex, sections/, reference/), for a
    run that ends with the report. Also used by tests/faults/, tests/cluster/ and bench/."""
    w.mkdir()
    for name in PROJECT_FILES:
        src = root / name
        if src.is_dir():
            shutil.copytree(src, w / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(src, w / name)
    (w / "build").symlink_to(root / "build")
    # the copy must never rebuild the shared ns: its build inputs date from before the build
    tarball = sorted((root / "build" / "download").glob("*.tar.*"))
    if tarball:
        t = tarball[0].stat().st_mtime - 1
        for f in [*(w / "ns2-patches").iterdir(), *(w / "scripts").iterdir()]:
            os.utime(f, (t, t))
    if report:
        copy_report_sources(root, w)
    return w


def copy_report_sources(root: Path, w: Path) -> None:
    """The report's sources into a project copy (which holds no paper/ folder): report.tex,
    sections/ and the recorded references."""
    (w / "paper").mkdir()
    shutil.copy2(root / "paper" / "report.tex", w / "paper")
    for d in ("sections", "reference"):
        if (root / "paper" / d).is_dir():
            shutil.copytree(root / "paper" / d, w / "paper" / d)


def load_script(path: Path, name: str) -> ModuleType:
    """A script without the .py suffix (bench/fidelity-cost, bench/scheduler-overhead) loaded
    as module ``name``, registered in sys.modules (its dataclasses look their module up)."""
    loader = importlib.machinery.SourceFileLoader(name, str(path))
    spec = importlib.util.spec_from_loader(name, loader)
    assert spec is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    loader.exec_module(mod)
    return mod


@pytest.fixture()
def project_copy(root: Path, tmp_path: Path, ns_binary: Path) -> Path:
    """A copy of the project in a scratch folder sharing build/ (the patched ns), for
    workflow tests that interrupt, delete and rerun."""
    return make_project_copy(root, tmp_path / "w")
