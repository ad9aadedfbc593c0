"""bench/scheduler-overhead --per-process: what each probed Python process ran, and the sums by
program, against lines written by hand; and the probe itself, in a real Python process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import load_script  # one definition, shared by the tests of bench/ scripts

ROOT = Path(__file__).resolve().parent.parent


so = load_script(ROOT / "bench/scheduler-overhead", "scheduler_overhead")


def test_program_of_names_module_and_step(tmp_path: Path) -> None:
    for pkg in ("analysis", "analysis/plots", "analysis/misra"):
        (tmp_path / pkg).mkdir()
        (tmp_path / pkg / "__init__.py").touch()
    a = tmp_path / "analysis"
    assert so.program_of([str(a / "nsrun.py"), "--ns", "x"]) == "analysis.nsrun"
    assert so.program_of([str(a / "gao.py"), "fig03"]) == "analysis.gao fig03"
    assert so.program_of([str(a / "plots/gao.py"), "fig03"]) == "analysis.plots.gao fig03"
    assert so.program_of([str(a / "misra/__main__.py"), "theory"]) == "analysis.misra theory"
    # a path or a key=value is no step
    assert so.program_of([str(a / "plots/topology.py"), "results/a/b"]) == "analysis.plots.topology"
    assert so.program_of([str(a / "nsrun.py"), "k=v"]) == "analysis.nsrun"
    # outside a package: the file's name
    assert so.program_of(["/nowhere/tool.py", "x"]) == "tool x"
    assert so.program_of(["snakemake", "--cores", "2"]) == "snakemake"
    assert so.program_of([]) == "?"


def test_by_program_counts_and_sums() -> None:
    lines = [
        {"argv": ["/w/nsrun.py", "--ns"], "cpu": 0.25},
        {"argv": ["/w/nsrun.py", "--ns"], "cpu": 0.5},
        {"argv": ["/w/gao.py", "fig02"], "cpu": 1.0},
    ]
    got = so.by_program("\n".join(json.dumps(x) for x in lines) + "\n")
    assert got == {"nsrun": (2, 0.75), "gao fig02": (1, 1.0)}


def test_the_probe_records_a_process_at_exit(tmp_path: Path) -> None:
    (tmp_path / "probe").mkdir()
    (tmp_path / "probe" / "sitecustomize.py").write_text(so.PROBE)
    log = tmp_path / "probe.jsonl"
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "probe"), so.PROBE_ENV: str(log)}
    code = "import sys; sys.argv[1:] = ['fig02']; sum(i * i for i in range(10**6))"
    subprocess.run([sys.executable, "-c", code], env=env, check=True)
    ((name, (n, cpu)),) = so.by_program(log.read_text()).items()
    assert (name, n) == ("-c fig02", 1) and cpu > 0
    # without the variable, the probe writes nothing
    del env[so.PROBE_ENV]
    subprocess.run([sys.executable, "-c", "pass"], env=env, check=True)
    assert len(log.read_text().splitlines()) == 1
