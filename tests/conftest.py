"""Shared fixtures: the project root and the patched ns binary."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import inspect
import os
import shutil
import signal
import sys
from collections.abc import Callable
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


def sigint_default() -> None:
    """``preexec_fn`` of a Snakemake that a test stops with Ctrl-C (SIGINT): SIGINT's default
    disposition, as from a terminal. A test run from the background of a non-interactive
    shell inherits SIGINT ignored, and a Python started so raises no KeyboardInterrupt: the
    interrupted Snakemake would go on to its end."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def make_project_copy(root: Path, w: Path, report: bool = False) -> Path:
    """Copy the project to the new folder w, sharing build/ (the patched ns) through a link;
    with report, also the report's sources (paper/report.tex, sections/, reference/), for a
    run that ends with the report. Also used by tests/faults/, tests/cluster/ and bench/."""
    if "unit" in _running_tier:
        raise RuntimeError("a unit test made a project copy: mark it workflow (see TIERS)")
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


# ---- test tiers: every test is exactly one of unit, ns, workflow ---------------------------
# make test-fast runs `pytest -m unit`; make test runs them all. A test's tier comes from what
# it uses (assigned here, at collection, so no test file has to say it):
#   workflow  a project copy (the project_copy fixture, or fixtures built on it) or code that
#             makes one or runs Snakemake: WORKFLOW_CODE in the test's function or in one of
#             its fixtures'
#   ns        the patched ns binary (the ns_binary fixture, or fixtures built on it)
#   unit      neither: Python only, no ns, no Snakemake
# A test may also say its tier itself (@pytest.mark.workflow, or a module's pytestmark);
# tests/test_tiers.py fails on a test with no tier or more than one, and on a unit test that
# needs the ns binary or the workflow.
TIERS = ("unit", "ns", "workflow")
TIER_FIXTURES = {"workflow": frozenset({"project_copy"}), "ns": frozenset({"ns_binary"})}
WORKFLOW_CODE = ("make_project_copy(", 'with_name("snakemake")')
ALL_ITEMS = pytest.StashKey[list[pytest.Item]]()
_running_tier: list[str] = []  # the tier of the test being set up or run, if any


def _fixture_functions(item: pytest.Item) -> list[Callable[..., object]]:
    """The functions of every fixture the test uses, its own fixtures' fixtures included."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return []
    return [d.func for defs in info.name2fixturedefs.values() for d in defs]


def _code_of(func: Callable[..., object]) -> str:
    try:
        return inspect.getsource(inspect.unwrap(func))
    except (OSError, TypeError):  # built-in fixtures without Python source
        return ""


def needs(item: pytest.Item) -> set[str]:
    """The tiers above unit that what the test uses calls for ({} for a unit test)."""
    names = set(getattr(item, "fixturenames", ()))
    found = {tier for tier, fixtures in TIER_FIXTURES.items() if names & fixtures}
    funcs = [getattr(item, "function", None), *_fixture_functions(item)]
    if any(code in _code_of(f) for f in funcs if f is not None for code in WORKFLOW_CODE):
        found.add("workflow")
    return found


def tiers_of(item: pytest.Item) -> list[str]:
    """The tier markers on the test (its own, its class's, its module's)."""
    return [m.name for m in item.iter_markers() if m.name in TIERS]


@pytest.hookimpl(tryfirst=True)  # before -m deselects by the markers added here
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if not tiers_of(item):
            found = needs(item)
            item.add_marker("workflow" if "workflow" in found else "ns" if found else "unit")
    config.stash[ALL_ITEMS] = list(items)  # every collected test, for tests/test_tiers.py


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> object:
    _running_tier[:] = tiers_of(item)
    try:
        return (yield)
    finally:
        _running_tier.clear()
