"""Fault injection: the smoke pipeline of one paper survives random kills, byte for byte.

Two copies of the project (sharing the built ns): one runs undisturbed; in the other,
Snakemake is started again and again and, at random moments (fixed seed), either a random
ns process or Snakemake itself (kill -9, Snakemake alone, not its process group) is killed;
after each kill the README's recovery follows at once (``snakemake --unlock``, rerun). Once
the kills are done the pipeline runs to completion. Then diff.csv and every file under
results/ must be byte-identical to the undisturbed copy's, with no file more or less (no
.failed folder, no lock file), and no process may be left working in the copy.

Usage (heavy: minutes of CPU; not part of `make test`):

    flock /tmp/ccr-heavy.lock .venv/bin/python tests/faults/inject.py [--paper floyd1991]
        [--kills 12] [--seed 16] [--keep DIR]

Exit status 0 when the output is byte-identical after at least --kills kills.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from conftest import make_project_copy  # noqa: E402

SMK = Path(sys.executable).with_name("snakemake")
TARGET = "paper/generated/smoke/diff.csv"


def snakemake(w: Path, paper: str, *args: str) -> list[str]:
    return [
        str(SMK),
        "--cores",
        "2",
        "--config",
        "fidelity=smoke",
        f'papers=["{paper}"]',
        *args,
    ]


def processes_in(w: Path) -> dict[int, str]:
    """pid -> command line of every process working in the folder w."""
    out = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            if Path(os.readlink(d / "cwd")) == w:
                out[int(d.name)] = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
    return out


def ns_processes(w: Path) -> list[int]:
    return sorted(
        pid for pid, cmd in processes_in(w).items() if cmd.split(" ", 1)[0].endswith("/ns")
    )


def run_to_end(w: Path, paper: str) -> float:
    t = time.time()
    p = subprocess.run(snakemake(w, paper, "--", TARGET), cwd=w, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"faults: the pipeline failed in {w}:\n{p.stderr[-3000:]}")
    return time.time() - t


# ns.log records the run's wall-clock time: the one line that may differ between two runs
WALL = re.compile(rb"done in [0-9.e+-]+ s wall")


def files(w: Path) -> dict[str, bytes]:
    out = {TARGET: (w / TARGET).read_bytes()}
    for f in sorted((w / "results").rglob("*")):
        if f.is_file() or f.is_symlink():
            data = f.read_bytes()
            out[str(f.relative_to(w))] = (
                WALL.sub(b"done in (t) s wall", data) if (f.name == "ns.log") else data
            )
        elif f.is_dir() and f.name.endswith(".failed"):
            out[str(f.relative_to(w))] = b"(a .failed folder)"
    return out


def compare(want: dict[str, bytes], got: dict[str, bytes]) -> tuple[list, list, list]:
    """(files that differ, files missing, files extra)."""
    differ = sorted(k for k in want.keys() & got.keys() if want[k] != got[k])
    return differ, sorted(want.keys() - got.keys()), sorted(got.keys() - want.keys())


def disturb(w: Path, paper: str, kills: int, rng: random.Random, span: float) -> tuple[int, int]:
    """Start Snakemake until `kills` kills are done; return (ns kills, Snakemake kills)."""
    ns_kills = smk_kills = starts = 0
    while ns_kills + smk_kills < kills:
        starts += 1
        proc = subprocess.Popen(
            snakemake(w, paper, "--", TARGET),
            cwd=w,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        # Snakemake parses for a few seconds before the first job: aim past that
        victim = "ns" if rng.random() < 0.5 else "snakemake"
        # the runs come first in the pipeline: an ns is sought in its first third
        late = span / 3 if victim == "ns" else span
        deadline = time.time() + rng.uniform(5.0, max(6.0, late))
        killed = ""
        while proc.poll() is None and not killed:
            now = time.time()
            if victim == "ns" and now >= deadline:
                running = ns_processes(w)
                if running:
                    pid = rng.choice(running)
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                        killed = f"ns {pid}"
                        ns_kills += 1
                elif now >= deadline + 10:  # no ns ran for 10 s: kill Snakemake instead
                    victim = "snakemake"
            if victim == "snakemake" and now >= deadline:
                os.kill(proc.pid, signal.SIGKILL)
                killed = f"snakemake {proc.pid}"
                smk_kills += 1
            time.sleep(0.02)
        code = proc.wait()
        print(f"faults: start {starts}: killed {killed or 'nothing'} (exit {code})")
        if not killed and code == 0:
            print("faults: the pipeline finished before the kill: start again from nothing")
            for d in ("results", "paper/generated/smoke", "figures/smoke"):
                shutil.rmtree(w / d, ignore_errors=True)
        if killed.startswith("snakemake"):
            u = subprocess.run(snakemake(w, paper, "--unlock"), cwd=w, capture_output=True)
            assert u.returncode == 0, u.stderr
    return ns_kills, smk_kills


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--paper", default="floyd1991")
    ap.add_argument("--kills", type=int, default=12)
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--keep", type=Path, help="make the two copies here and keep them")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    with tempfile.TemporaryDirectory() as tmp:
        base = a.keep or Path(tmp)
        base.mkdir(parents=True, exist_ok=True)
        calm = make_project_copy(ROOT, base / "undisturbed")
        hit = make_project_copy(ROOT, base / "disturbed")
        span = run_to_end(calm, a.paper)
        print(f"faults: undisturbed {a.paper} smoke pipeline: {span:.0f} s")
        ns_kills, smk_kills = disturb(hit, a.paper, a.kills, rng, span)
        run_to_end(hit, a.paper)
        left = processes_in(hit)
        want, got = files(calm), files(hit)
        differ, missing, extra = compare(want, got)
        print(
            f"faults: {ns_kills + smk_kills} kills survived ({ns_kills} of ns, {smk_kills} of "
            f"Snakemake); {len(want)} files compared (diff.csv and results/): "
            f"{len(differ)} differ, {len(missing)} missing, {len(extra)} extra; "
            f"{len(left)} processes left in the copy"
        )
        for name, items in (("differs", differ), ("missing", missing), ("extra", extra)):
            for f in items:
                print(f"  {name}: {f}")
        ok = not (differ or missing or extra or left) and ns_kills + smk_kills >= a.kills
        print("faults: byte-identical" if ok else "faults: FAILED")
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
