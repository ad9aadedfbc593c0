"""Every test has exactly one tier (unit, ns, workflow: see TIERS in conftest.py), and no unit
test needs the ns binary or the workflow, so that `make test-fast` (pytest -m unit) runs on
a machine without ns and without Snakemake runs."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import conftest
import pytest
from conftest import ALL_ITEMS, TIERS, needs, tiers_of


def tier_errors(items: Iterable[pytest.Item]) -> list[str]:
    """What is wrong with the tiers of these tests: a test with no tier or several, and a
    test whose tier is below what it uses (a unit test with the ns binary, say)."""
    errors = []
    for item in items:
        tiers = tiers_of(item)
        if len(tiers) != 1:
            errors.append(f"{item.nodeid}: tiers {tiers}, not exactly one of {TIERS}")
            continue
        above = sorted(t for t in needs(item) if TIERS.index(t) > TIERS.index(tiers[0]))
        if above:
            errors.append(f"{item.nodeid}: marked {tiers[0]} but needs {above}")
    return errors


def test_every_collected_test_has_one_tier_it_fits(request: pytest.FixtureRequest) -> None:
    """Over every test of this session (before -m deselects any)."""
    items = request.config.stash[ALL_ITEMS]
    assert request.node in items
    assert tier_errors(items) == []


# ---- the check itself, on stand-ins for collected tests -----------------------------------


@dataclass
class _Mark:
    name: str


@dataclass
class _FixtureDef:
    func: Callable[..., object]


@dataclass
class _FixtureInfo:
    name2fixturedefs: dict[str, list[_FixtureDef]]


@dataclass
class _Item:
    """What tiers_of and needs read of a pytest.Function."""

    function: Callable[..., object]
    marks: list[str]
    fixtures: dict[str, Callable[..., object]] = field(default_factory=dict)
    nodeid: str = "tests/test_x.py::test_x"

    @property
    def fixturenames(self) -> list[str]:
        return list(self.fixtures)

    @property
    def _fixtureinfo(self) -> _FixtureInfo:
        return _FixtureInfo({n: [_FixtureDef(f)] for n, f in self.fixtures.items()})

    def iter_markers(self) -> list[_Mark]:
        return [_Mark(m) for m in ["parametrize", *self.marks]]


def _plain() -> None:
    pass


def _copies(root: Path, w: Path) -> None:
    conftest.make_project_copy(root, w)


def _runs_snakemake() -> None:
    Path("python").with_name("snakemake")


def _fixture_that_copies(root: Path, tmp_path: Path) -> None:
    conftest.make_project_copy(root, tmp_path / "w")


def test_stand_ins_that_fit() -> None:
    ok = [
        _Item(_plain, ["unit"], {"cfg": _plain}),
        _Item(_plain, ["ns"], {"ns_binary": _plain}),
        _Item(_plain, ["workflow"], {"project_copy": _plain, "ns_binary": _plain}),
        _Item(_copies, ["workflow"]),
        _Item(_plain, ["workflow"]),  # a tier above what it uses is allowed
    ]
    assert tier_errors(ok) == []  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("item", "error"),
    [
        (_Item(_plain, []), "tiers [], not exactly one"),
        (_Item(_plain, ["unit", "ns"]), "tiers ['unit', 'ns'], not exactly one"),
        (_Item(_plain, ["unit"], {"ns_binary": _plain}), "marked unit but needs ['ns']"),
        (_Item(_plain, ["unit"], {"project_copy": _plain}), "marked unit but needs ['workflow']"),
        (_Item(_plain, ["ns"], {"project_copy": _plain}), "marked ns but needs ['workflow']"),
        (_Item(_copies, ["unit"]), "marked unit but needs ['workflow']"),
        (_Item(_runs_snakemake, ["unit"]), "marked unit but needs ['workflow']"),
        (_Item(_plain, ["unit"], {"w": _fixture_that_copies}), "marked unit but needs"),
    ],
)
def test_stand_ins_that_do_not_fit(item: _Item, error: str) -> None:
    errors = tier_errors([item])  # type: ignore[list-item]
    assert len(errors) == 1 and error in errors[0], errors


def test_a_unit_test_cannot_copy_the_project(root: Path, tmp_path: Path) -> None:
    """The same rule at run time, for a copy made through a helper the check cannot see."""
    copy = conftest.make_project_copy  # a call in this test's code would make it a workflow test
    with pytest.raises(RuntimeError, match="unit test made a project copy"):
        copy(root, tmp_path / "w")
    assert not (tmp_path / "w").exists()
