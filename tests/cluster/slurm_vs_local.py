"""The smoke pipeline of one paper through Slurm, byte for byte against a local run.

Three scratch copies of the project (the patched ns shared through build/, the report's
sources copied): in the first the smoke pipeline of the paper runs locally (--cores 1); in
the second through Slurm with profiles/slurm (every job an sbatch job); every
results/<paper>/**/summary.json and *.tsv, and the paper's rows of paper/generated/diff.csv,
must be byte-identical, with no file more or less. In the third the Slurm run is disturbed:
once some ns runs are done, one running ns run (rule sim) is cancelled with scancel (the run
with --retries 0, so the cancelled job fails the run); then the run is started again: the
runs finished by then must be kept (not rerun: same bytes, same mtime), the
cancelled one redone, and the result byte-identical to the local run's again.

Needs a Slurm whose default partition accepts jobs from here (make test-cluster brings up
a one-node Slurm with scripts/slurm-local.sh and takes it down afterwards):

    .venv/bin/python tests/cluster/slurm_vs_local.py [--paper floyd1991] [--keep DIR]

Exit status 0 when all three agree. Heavy: minutes of CPU; not part of `make test`.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from conftest import make_project_copy  # noqa: E402

SMK = Path(sys.executable).with_name("snakemake")
DIFF = "paper/generated/diff.csv"


def smoke(paper: str, *args: str) -> list[str]:
    return [str(SMK), *args, "--config", "fidelity=smoke", f"papers=[{paper}]"]


def run(cmd: list[str], w: Path, log: Path) -> tuple[float, int]:
    """Run cmd in w (output to log) to its end; (wall seconds, jobs it ran)."""
    t = time.monotonic()
    with log.open("w") as fh:
        p = subprocess.run(cmd, cwd=w, stdout=fh, stderr=subprocess.STDOUT)
    wall = time.monotonic() - t
    if p.returncode != 0:
        sys.exit(f"cluster: failed (exit {p.returncode}) in {w}: {' '.join(cmd)}\n"
                 f"{log.read_text()[-3000:]}")  # fmt: skip
    return wall, jobs_done(log)


def jobs_done(log: Path) -> int:
    done = re.findall(r"(\d+) of (\d+) steps \(100%\) done", log.read_text())
    return int(done[-1][1]) if done else 0


def outputs(w: Path, paper: str) -> dict[str, bytes]:
    """The compared files: the paper's summary.json and *.tsv, its rows of diff.csv."""
    out = {}
    for f in sorted((w / "results" / paper).rglob("*")):
        if f.is_file() and (f.name == "summary.json" or f.suffix == ".tsv"):
            out[str(f.relative_to(w))] = f.read_bytes()
    rows = [r for r in (w / DIFF).read_bytes().splitlines(True) if r.startswith(b"paper,")]
    rows += [
        r for r in (w / DIFF).read_bytes().splitlines(True) if r.startswith(f"{paper},".encode())
    ]
    out[f"{DIFF} ({paper} rows)"] = b"".join(rows)
    return out


def same(name: str, want: dict[str, bytes], got: dict[str, bytes]) -> bool:
    differ = sorted(k for k in want.keys() & got.keys() if want[k] != got[k])
    missing, extra = sorted(want.keys() - got.keys()), sorted(got.keys() - want.keys())
    print(f"cluster: {name}: {len(want)} files compared: {len(differ)} differ, "
          f"{len(missing)} missing, {len(extra)} extra")  # fmt: skip
    for what, items in (("differs", differ), ("missing", missing), ("extra", extra)):
        for f in items:
            print(f"  {what}: {f}")
    return not (differ or missing or extra)


def copy(base: Path, name: str) -> Path:
    return make_project_copy(ROOT, base / name, report=True)


def squash(s: str) -> str:
    """A run's path or wildcards without / and _, to match the one against the other."""
    return re.sub(r"[/_]", "", s)


def slurm_jobs(w: Path, states: str) -> list[tuple[str, str]]:
    """(job id, comment) of the Slurm jobs in these states that work in the folder w."""
    p = subprocess.run(
        ["squeue", "-h", "-t", states, "-o", "%i|%k|%Z"], capture_output=True, text=True
    )
    jobs = []
    for line in p.stdout.splitlines():
        jobid, comment, workdir = line.split("|", 2)
        if Path(workdir) == w:
            jobs.append((jobid, comment))
    return jobs


def summaries(w: Path, paper: str) -> dict[str, int]:
    """Every finished ns run's summary.json -> its mtime (ns)."""
    return {
        str(f.relative_to(w)): f.stat().st_mtime_ns
        for f in (w / "results" / paper).rglob("summary.json")
    }


def disturb(w: Path, paper: str, log: Path, after: int, mid: float, timeout: float) -> str:
    """Start the Slurm run in w; once `after` ns runs are done, scancel an ns run (rule sim)
    that has been running for `mid` seconds; wait for the run to end (it must fail: Snakemake
    waits for its other submitted jobs first, then stops). Returns the cancelled job's
    comment."""
    cmd = smoke(paper, "--profile", "profiles/slurm", "--retries", "0")
    with log.open("w") as fh:
        proc = subprocess.Popen(cmd, cwd=w, stdout=fh, stderr=subprocess.STDOUT)
    victim = ""
    end = time.monotonic() + timeout
    first_seen: dict[str, float] = {}  # running ns job -> when it was first seen running
    while proc.poll() is None and not victim and time.monotonic() < end:
        now = time.monotonic()
        running = [j for j in slurm_jobs(w, "RUNNING") if j[1].startswith("rule_sim")]
        first_seen = {j[0]: first_seen.get(j[0], now) for j in running}
        # a job running for `mid` seconds: cancelled mid-way (ns started), not at its start
        old = [j for j in running if now - first_seen[j[0]] >= mid]
        if old and len(summaries(w, paper)) >= after:
            jobid, victim = old[0]
            subprocess.run(["scancel", jobid], check=True)
            print(f"cluster: cancelled Slurm job {jobid} ({victim}) after {mid:.0f} s of it, "
                  f"{len(summaries(w, paper))} ns runs done", flush=True)  # fmt: skip
        time.sleep(0.5)
    if not victim:
        proc.kill()
        proc.wait()
        sys.exit("cluster: no running ns run to cancel (the run ended or timed out first)")
    code = proc.wait(timeout=timeout)
    print(f"cluster: the disturbed run ended (exit {code})")
    if code == 0:
        sys.exit("cluster: the disturbed run succeeded although one of its jobs was cancelled")
    # Snakemake stops once every job it submitted has ended: none may be left behind
    for _ in range(60):
        if not slurm_jobs(w, "PENDING,RUNNING,COMPLETING"):
            break
        time.sleep(1)
    else:
        sys.exit(f"cluster: Slurm jobs left behind by the failed run: {slurm_jobs(w, 'all')}")
    return victim


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--paper", default="floyd1991")
    ap.add_argument("--after", type=int, default=4, help="ns runs done before the scancel")
    ap.add_argument("--mid", type=float, default=6.0, help="seconds the cancelled job ran")
    ap.add_argument("--keep", type=Path, help="make the copies here and keep them")
    a = ap.parse_args()
    if shutil.which("sbatch") is None:
        sys.exit("cluster: no sbatch: bring a Slurm up first (scripts/slurm-local.sh up)")
    if importlib.util.find_spec("snakemake_executor_plugin_slurm") is None:
        sys.exit("cluster: snakemake-executor-plugin-slurm missing: run make setup")
    # the jobs (local and sbatch's, which inherit this environment) find the venv's python
    os.environ["PATH"] = f"{SMK.parent}{os.pathsep}{os.environ['PATH']}"
    with tempfile.TemporaryDirectory(prefix="cluster-") as tmp:
        base = a.keep or Path(tmp)
        base.mkdir(parents=True, exist_ok=True)
        logs = base / "logs"
        logs.mkdir(exist_ok=True)
        local, slurm, fault = copy(base, "local"), copy(base, "slurm"), copy(base, "fault")

        t, n = run(smoke(a.paper, "--cores", "1"), local, logs / "local.log")
        print(f"cluster: local smoke run of {a.paper}: {n} jobs, {t:.0f} s", flush=True)
        want = outputs(local, a.paper)

        t, n = run(smoke(a.paper, "--profile", "profiles/slurm"), slurm, logs / "slurm.log")
        sbatch = len(re.findall(r"submitted with SLURM jobid", (logs / "slurm.log").read_text()))
        print(f"cluster: Slurm smoke run: {n} jobs ({sbatch} sbatch jobs), {t:.0f} s", flush=True)
        ok = same("Slurm vs local", want, outputs(slurm, a.paper))

        victim = disturb(fault, a.paper, logs / "fault-1.log", a.after, a.mid, timeout=3600)
        before = summaries(fault, a.paper)
        t, n = run(smoke(a.paper, "--profile", "profiles/slurm"), fault, logs / "fault-2.log")
        after = summaries(fault, a.paper)
        kept = [f for f, m in before.items() if after.get(f) == m]
        redone = sorted(set(after) - set(kept))
        print(f"cluster: rerun after the scancel: {n} jobs, {t:.0f} s; ns runs kept "
              f"{len(kept)} of {len(before)} done before it, run now {len(redone)}")  # fmt: skip
        # the plugin's comment: rule_sim_wildcards_<the wildcards' values joined by _>
        victim_run = squash(victim.partition("_wildcards_")[2])
        if not kept or len(kept) < len(before):
            print("cluster: ns runs finished before the rerun were run again")
            ok = False
        if not victim_run or not any(victim_run in squash(r) for r in redone):
            print(f"cluster: the cancelled run ({victim}) was not redone")
            ok = False
        ok = same("Slurm after scancel + rerun vs local", want, outputs(fault, a.paper)) and ok
        print("cluster: byte-identical" if ok else "cluster: FAILED")
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
