"""analysis.imports: the project modules a step's module runs (its code inputs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis import imports


def _package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        f = root / name
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text)
    return root


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    """analysis/{a,b,c,d}.py and analysis/sub/{e,f}.py: a imports b (plain), b imports sub.e
    (from-import of a module), sub.e imports f relatively, c imports numpy only, d is never
    imported; sub/__init__ is empty."""
    return _package(
        tmp_path,
        {
            "analysis/__init__.py": "",
            "analysis/a.py": "import analysis.b\nimport json\n",
            "analysis/b.py": "from analysis.sub import e\n",
            "analysis/c.py": "import numpy as np\n",
            "analysis/d.py": "",
            "analysis/sub/__init__.py": "",
            "analysis/sub/e.py": "from .f import thing\n",
            "analysis/sub/f.py": "thing = 1\n",
        },
    )


def test_closure_follows_every_kind_of_import(tree: Path) -> None:
    assert imports.closure("analysis.a", tree) == [
        "analysis/__init__.py",
        "analysis/a.py",
        "analysis/b.py",
        "analysis/sub/__init__.py",
        "analysis/sub/e.py",
        "analysis/sub/f.py",
    ]


def test_closure_leaves_out_what_is_not_imported(tree: Path) -> None:
    # c imports only a third-party package; d is imported by nobody
    assert imports.closure("analysis.c", tree) == ["analysis/__init__.py", "analysis/c.py"]
    assert "analysis/d.py" not in imports.closure("analysis.a", tree)


def test_a_package_run_with_python_m_includes_its_main(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "analysis/__init__.py": "",
            "analysis/p/__init__.py": "",
            "analysis/p/__main__.py": "from analysis.p import cli\n",
            "analysis/p/cli.py": "",
        },
    )
    assert imports.closure("analysis.p", root) == [
        "analysis/__init__.py",
        "analysis/p/__init__.py",
        "analysis/p/__main__.py",
        "analysis/p/cli.py",
    ]


def test_unknown_module_is_an_error(tree: Path) -> None:
    with pytest.raises(ValueError, match="not a module of the project"):
        imports.closure("analysis.nothere", tree)
    with pytest.raises(ValueError, match="not a module"):
        imports.closure("json", tree)


def test_real_modules() -> None:
    """The plot module of a paper runs its analysis module and the models it imports; the ns
    runner imports no other project module but the run formats' (nsio: the manifest it
    writes), and nsio none but the runner and the runs' pool (nsbatch: an index's runs)."""
    plot = imports.closure("analysis.plots.floyd1991")
    assert {"analysis/floyd1991.py", "analysis/models/floyd1991.py", "analysis/cli.py"} <= set(plot)
    assert "analysis/gao.py" not in plot
    assert imports.closure("analysis.nsrun") == [
        "analysis/__init__.py",
        "analysis/nsbatch.py",
        "analysis/nsio.py",
        "analysis/nsrun.py",
    ]
    # nsio remakes a corrupt run through nsrun (imported where it is needed)
    assert imports.closure("analysis.nsio") == imports.closure("analysis.nsrun")
    # a step in a module of its own (tang's table3_buffer) reads the paper's module, never the
    # other way round: editing it leaves the paper's other steps as they are
    assert "analysis/tang.py" in imports.closure("analysis.tang_buffer")
    assert "analysis/tang_buffer.py" not in imports.closure("analysis.tang")
