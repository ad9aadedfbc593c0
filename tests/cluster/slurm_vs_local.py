"""The smoke pipeline of some papers through Slurm, byte for byte against a local run.

Four scratch copies of the project (the patched ns shared through build/, the report's
sources copied): in the first the smoke pipeline runs locally (--cores 1); in the second
through Slurm with profiles/slurm (one sbatch job per experiment's runs and per search,
the analysis steps in batches of group "steps"); every results/<paper>/**/summary.json and
*.tsv, and the papers' rows of paper/generated/smoke/diff.csv, must be byte-identical, with
no file more or less. In the third the Slurm run is disturbed: once some ns runs are done, an
experiment's runs job with runs still to make (one with some already finished, if any) is
cancelled with scancel (the run with --retries 0, so it fails; Snakemake then deletes the
job's output, the experiment's index). In the fourth the whole Snakemake is stopped with
SIGINT at such a moment. The fault runs use Tang et al. by default: four runs per
experiment at smoke, each longer than a poll, where Floyd's two runs of a tenth of a second
each end before any poll sees them half done. Each is then run again: no
run finished before is simulated again (the cut job's finished runs too: they are not
Snakemake outputs, and the rerun keeps every run complete from the same inputs,
analysis/nsbatch.py), and the result is byte-identical to the local run's again.

Needs a Slurm whose default partition accepts jobs from here (make test-cluster brings up
a one-node Slurm with scripts/slurm-local.sh and takes it down afterwards):

    .venv/bin/python tests/cluster/slurm_vs_local.py [--papers floyd1991 ...] [--keep DIR]

Exit status 0 when all agree. Heavy: minutes of CPU; not part of `make test`.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
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
from conftest import make_project_copy, sigint_default  # noqa: E402

sys.path.insert(0, str(ROOT))
from analysis import config as conf  # noqa: E402
from analysis import nsbatch  # noqa: E402

SMK = Path(sys.executable).with_name("snakemake")
PAPERS = conf.paper_keys()
DIFF = "paper/generated/smoke/diff.csv"


def smoke(papers: list[str], *args: str) -> list[str]:
    return [str(SMK), *args, "--config", "fidelity=smoke", f"papers=[{','.join(papers)}]"]


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


def outputs(w: Path, papers: list[str]) -> dict[str, bytes]:
    """The compared files: the papers' summary.json and *.tsv, their rows of diff.csv."""
    out = {}
    for paper in papers:
        for f in sorted((w / "results" / paper).rglob("*")):
            if f.is_file() and (f.name == "summary.json" or f.suffix == ".tsv"):
                out[str(f.relative_to(w))] = f.read_bytes()
    lines = (w / DIFF).read_bytes().splitlines(True)
    rows = [r for r in lines if r.startswith(b"paper,")]
    rows += [r for r in lines if r.split(b",", 1)[0].decode() in papers]
    out[f"{DIFF} (rows of {', '.join(papers)})"] = b"".join(rows)
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


def search_threads(w: Path) -> dict[str, int]:
    """Each best-response search job's threads, as the Snakemake inside its Slurm job ran it
    (the ``threads: N`` of the job's log; Snakemake prints none for 1): log file -> threads."""
    found = {}
    for f in sorted((w / ".snakemake" / "slurm_logs").rglob("*.log")):
        if "rule_akella2002_search" not in f.parts:
            continue
        m = re.search(r"^\s*threads: (\d+)$", f.read_text(errors="replace"), re.MULTILINE)
        found[str(f.relative_to(w))] = int(m.group(1)) if m else 1
    return found


def searches_get_their_threads(w: Path, want: int) -> bool:
    """Every search job ran with ``want`` threads (ns.job_threads): the profile's cores do
    not cap them. A search's Slurm job asks for as many CPUs (its threads: the plugin's
    default --cpus-per-task)."""
    got = search_threads(w)
    if not got:
        print("cluster: no search job log found: no search ran through Slurm")
        return False
    short = {f: n for f, n in got.items() if n != want}
    for f, n in short.items():
        print(f"cluster: {f}: search ran with {n} threads, not ns.job_threads {want}")
    print(f"cluster: {len(got) - len(short)} of {len(got)} search jobs ran with {want} threads")
    return not short


def summaries(w: Path, papers: list[str]) -> dict[str, int]:
    """Every finished ns run's summary.json -> its mtime (ns); not those of a run folder
    nsrun set aside as failed (<run>.failed: cut after ns wrote its summary)."""
    return {
        str(f.relative_to(w)): f.stat().st_mtime_ns
        for paper in papers
        for f in (w / "results" / paper).rglob("summary.json")
        if not f.parent.name.endswith(".failed")
    }


def runs_progress(w: Path, comment: str) -> tuple[int, int] | None:
    """(runs finished, runs) of the experiment an experiment's runs job makes, by its comment
    ('rule_runs_wildcards_<paper>_<experiment>_<fidelity>') and the experiment's runs-spec.json
    (written before the job starts); None for another job."""
    m = re.fullmatch(r"rule_runs_wildcards_([^_]+)_(.+)_([^_]+)", comment)
    if m is None:
        return None
    spec = w / "results" / m[1] / m[2] / m[3] / "runs-spec.json"
    runs = nsbatch.parse_runs(spec.read_text())
    done = sum((w / out / "summary.json").is_file() for out, _ in runs)
    return done, len(runs)


def no_jobs_left(w: Path) -> None:
    """Snakemake stops once every job it submitted has ended: none may be left behind."""
    for _ in range(120):
        if not slurm_jobs(w, "PENDING,RUNNING,COMPLETING"):
            return
        time.sleep(1)
    sys.exit(f"cluster: Slurm jobs left behind by the stopped run: {slurm_jobs(w, 'all')}")


def disturb(w: Path, paper: list[str], log: Path, after: int, how: str) -> str:
    """Start the Slurm run in w; once `after` ns runs are done and an experiment's runs job is
    running with runs still to make (one with some finished, if any), either cancel it with
    scancel (how='scancel'; the run with --retries 0, so it fails) or stop the whole Snakemake
    with SIGINT, as a user would with Ctrl-C (how='abort'). Wait for the run to end: it must
    fail and leave no job behind. Returns what was done, for the log."""
    cmd = smoke(paper, "--profile", "profiles/slurm", "--retries", "0")
    with log.open("w") as fh:
        proc = subprocess.Popen(
            cmd, cwd=w, stdout=fh, stderr=subprocess.STDOUT, preexec_fn=sigint_default
        )
    done = ""
    end = time.monotonic() + 3600
    while proc.poll() is None and not done and time.monotonic() < end:
        # a job cut before its end, some of its runs left for the rerun to make; one with
        # some runs finished (kept through the cut) first
        unfinished = [
            (jobid, progress)
            for jobid, comment in slurm_jobs(w, "RUNNING")
            if (progress := runs_progress(w, comment)) and progress[0] < progress[1]
        ]
        if unfinished and len(summaries(w, paper)) >= after:
            jobid, (finished, runs) = max(
                unfinished, key=lambda j: (j[1][0] > 0, j[1][1] - j[1][0])
            )
            if how == "scancel":
                subprocess.run(["scancel", jobid], check=True)
                done = f"cancelled job {jobid}"
            else:
                proc.send_signal(signal.SIGINT)
                done = f"stopped Snakemake (SIGINT) while job {jobid} ran"
            print(f"cluster: {done} with {finished} of its {runs} runs finished, "
                  f"{len(summaries(w, paper))} ns runs done", flush=True)  # fmt: skip
        time.sleep(0.2)
    if not done:
        proc.kill()
        proc.wait()
        sys.exit("cluster: no running job to disturb (the run ended or timed out first)")
    code = proc.wait(timeout=3600)
    print(f"cluster: the disturbed run ended (exit {code})")
    if code == 0:
        sys.exit("cluster: the disturbed run succeeded although it was cut")
    no_jobs_left(w)
    return done


def rerun(w: Path, paper: list[str], log: Path, want: dict[str, bytes], name: str) -> bool:
    """Rerun the disturbed project: no run finished before is simulated again (each is kept
    untouched), the result is byte-identical to the local run's. Prints the counts."""
    before = summaries(w, paper)
    t, n = run(smoke(paper, "--profile", "profiles/slurm"), w, log)
    after = summaries(w, paper)
    kept = {f for f, m in before.items() if after.get(f) == m}
    simulated = set(after) - kept
    print(f"cluster: {name}: rerun {n} jobs, {t:.0f} s; of {len(after)} ns runs, "
          f"{len(kept)} kept untouched, {len(simulated)} simulated")  # fmt: skip
    ok = True
    if set(before) - kept:
        print(f"cluster: {name}: runs finished before the rerun were touched: "
              f"{sorted(set(before) - kept)[:5]}")  # fmt: skip
        ok = False
    if not simulated:
        print(f"cluster: {name}: the rerun simulated nothing: the cut left no run to redo")
        ok = False
    return same(f"Slurm after {name} + rerun vs local", want, outputs(w, paper)) and ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--papers", nargs="+", default=PAPERS, help="compared (default: all five)")
    ap.add_argument(
        "--fault-papers",
        nargs="*",
        default=["tang"],
        help="the papers of the scancel and SIGINT runs (a subset of --papers; none: skip)",
    )
    ap.add_argument("--after", type=int, default=4, help="ns runs done before the scancel")
    ap.add_argument("--keep", type=Path, help="make the copies here and keep them")
    a = ap.parse_args()
    if not set(a.fault_papers) <= set(a.papers):
        ap.error(f"--fault-papers {a.fault_papers} must be among --papers {a.papers}")
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
        local, slurm = copy(base, "local"), copy(base, "slurm")
        fault, abort = (copy(base, n) if a.fault_papers else base for n in ("fault", "abort"))

        t, n = run(smoke(a.papers, "--cores", "1"), local, logs / "local.log")
        print(f"cluster: local smoke run of {a.papers}: {n} jobs, {t:.0f} s", flush=True)
        want = outputs(local, a.papers)

        t, n = run(smoke(a.papers, "--profile", "profiles/slurm"), slurm, logs / "slurm.log")
        sbatch = len(re.findall(r"submitted with SLURM jobid", (logs / "slurm.log").read_text()))
        print(f"cluster: Slurm smoke run: {n} jobs ({sbatch} sbatch jobs), {t:.0f} s", flush=True)
        ok = same("Slurm vs local", want, outputs(slurm, a.papers))
        if "akella2002" in a.papers:
            threads = conf.load([ROOT / "config" / "config.yaml"])["ns"]["job_threads"]
            ok = searches_get_their_threads(slurm, threads) and ok

        if not a.fault_papers:
            print("cluster: " + ("byte-identical" if ok else "FAILED") + " (no fault runs)")
            return 0 if ok else 1
        want = outputs(local, a.fault_papers)
        for how in ("scancel", "abort"):
            w = fault if how == "scancel" else abort
            disturb(w, a.fault_papers, logs / f"{how}-1.log", a.after, how)
            ok = rerun(w, a.fault_papers, logs / f"{how}-2.log", want, how) and ok
        print("cluster: byte-identical" if ok else "cluster: FAILED")
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
