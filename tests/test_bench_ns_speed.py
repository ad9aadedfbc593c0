"""bench/ns-speed.sh never times a failed run: an ns that fails (or writes no summary)
stops it with the binary's output and a non-zero status, before any time is printed; an
unknown scenario is an error too."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def _bench(root: Path, ours: Path, other: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(root / "bench" / "ns-speed.sh"), str(ours), str(other), "1"],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "CALLGRIND": "0", **env},
    )  # fmt: skip


def test_a_failing_ns_stops_the_bench(root: Path, ns_binary: Path, tmp_path: Path) -> None:
    broken = tmp_path / "ns"
    broken.write_text("#!/bin/sh\necho 'ns: cannot run this' >&2\nexit 3\n")
    broken.chmod(0o755)
    r = _bench(root, broken, ns_binary, SCENARIOS="floyd")
    assert r.returncode == 1
    assert "failed on the scenario" in r.stderr and "ns: cannot run this" in r.stderr
    assert "Floyd 1991" not in r.stdout  # no row: nothing was timed
    # a run that exits 0 without writing its results is a failure too
    broken.write_text("#!/bin/sh\nexit 0\n")
    r = _bench(root, broken, ns_binary, SCENARIOS="floyd")
    assert r.returncode == 1 and "no summary.json" in r.stderr


def test_unknown_scenario_is_an_error(root: Path, ns_binary: Path) -> None:
    r = _bench(root, ns_binary, ns_binary, SCENARIOS="nosuch")
    assert r.returncode == 1 and "unknown scenario nosuch" in r.stderr
