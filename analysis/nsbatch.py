"""Make many ns runs in one process, and keep an experiment's index of its runs.

One Snakemake job makes every run of one experiment (rule ``runs``, rules/common.smk), and
a best-response search makes each stage's runs the same way (analysis.akella2002_search):

* the runs go through :func:`analysis.nsrun.run`, ``threads`` at a time (threads of this
  process, each waiting on its ns), so each keeps nsrun's atomic write, lock, time limit,
  parent-death handling and run store;
* a run already complete and made from the same inputs is reused, never made again
  (:func:`analysis.nsrun.reusable_run`: the same ns, Tcl files, nsrun, folder and
  arguments; a run that another process is making is waited for, then reused). A killed
  job resumes from its finished runs, and a changed parameter remakes only the runs whose
  arguments it changes;
* the first failure stops the batch once the runs already started have ended (no finished
  run is lost), and is raised;
* the experiment's index (``runs.json``, the job's one output) is written last, when every
  run is complete: each run's folder, its parameters and the sha256 of its summary.json.
  An analysis step reads the runs the index lists.

Usage::

    python -m analysis.nsbatch --ns NS --script S --runs RUNS.json --threads N \\
        --index results/PAPER/EXP/FIDELITY/runs.json [--cpu-log C] [--lock-wait S]

where RUNS.json holds ``[{"out": DIR, "params": {key: value, ...}}, ...]`` (a file: an
experiment's runs at paper fidelity are more than a command-line argument may hold).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from pathlib import Path

from analysis import nsio, nsrun

#: one run of a batch: its folder and its ns parameters (key -> command-line value)
Run = tuple[Path, Mapping[str, str]]


def pending(ns: Path, script: Path, runs: Sequence[Run]) -> list[Run]:
    """The runs of ``runs`` not yet complete from these inputs (each folder once, the last
    parameters given for it)."""
    todo = dict(runs)
    return [(out, p) for out, p in todo.items() if nsrun.reusable_run(ns, script, out, p) is None]


def run_pool(
    ns: Path,
    script: Path,
    runs: Sequence[Run],
    threads: int = 1,
    timeout: float | None = None,
    cpu_log: Path | None = None,
    lock_wait: float | None = None,
) -> int:
    """Make the runs of ``runs`` that are not complete yet, ``threads`` at a time; the number
    made. ``lock_wait``: seconds to wait for a run another process holds (then reused; None:
    nsrun's default, after which the run is refused)."""
    todo = pending(ns, script, runs)
    if not todo:
        return 0

    failed = threading.Event()  # after a failure, no run starts

    def one(out: Path, params: Mapping[str, str]) -> None:
        if failed.is_set():
            return
        try:
            nsrun.run(ns, script, out, params, timeout, cpu_log, reuse=True, lock_wait=lock_wait)
        except BaseException:
            failed.set()
            raise

    with ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
        futures = [pool.submit(one, out, p) for out, p in todo]
        _, not_started = wait(futures, return_when=FIRST_EXCEPTION)
        for f in not_started:
            f.cancel()
    for f in futures:
        if f.done() and not f.cancelled() and f.exception() is not None:
            raise f.exception()  # type: ignore[misc]
    return len(todo)


def index_doc(runs: Sequence[Run]) -> dict:
    """The index of complete runs, in the order given."""
    return {
        "runs": [
            {
                "out": str(out),
                "params": dict(p),
                "summary_sha256": nsio.sha256(out / "summary.json"),
            }
            for out, p in runs
        ]
    }


def write_index(path: Path, runs: Sequence[Run]) -> None:
    """Write the index of ``runs`` (all complete) atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".partial")
    tmp.write_text(json.dumps(index_doc(runs), indent=1, sort_keys=True) + "\n")
    tmp.rename(path)


def read_index(path: Path) -> list[Run]:
    """The runs an index lists (ValueError, naming the file, for one that is not an index)."""
    try:
        doc = json.loads(path.read_text())
        return [(Path(r["out"]), dict(r["params"])) for r in doc["runs"]]
    except (json.JSONDecodeError, KeyError, TypeError) as e:
        raise ValueError(f"{path}: not an index of runs ({e})") from e


def parse_runs(text: str) -> list[Run]:
    """``--runs``: ``[{"out": DIR, "params": {k: v}}, ...]`` with string values."""
    try:
        raw = json.loads(text)
        runs = [(Path(r["out"]), {str(k): str(v) for k, v in r["params"].items()}) for r in raw]
    except (json.JSONDecodeError, KeyError, TypeError, AttributeError) as e:
        raise ValueError(f"--runs is not a list of {{out, params}} ({e})") from e
    outs = [out for out, _ in runs]
    if len(set(outs)) != len(outs):
        raise ValueError("--runs names a run folder twice")
    return runs


def env_timeout() -> float | None:
    """Seconds an ns run may take: ``$CCR_NS_TIMEOUT_S`` (the Snakefile sets it), else none."""
    raw = os.environ.get(nsrun.TIMEOUT_ENV)
    return float(raw) if raw else None


def end_at_once_when_cancelled(prog: str) -> None:
    """On SIGTERM (Snakemake cancelling the job) or SIGINT, end this process at once, not
    after the running ns runs (the pool would wait for them): every ns it started dies with
    it (nsrun's parent-death signal), finished runs stay, the rest are made by the next job."""

    def cancelled(signum: int, frame: object) -> None:
        print(f"{prog}: cancelled (signal {signum})", file=sys.stderr, flush=True)
        os._exit(128 + signum)

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, cancelled)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ns", type=Path, required=True)
    ap.add_argument("--script", type=Path, required=True)
    ap.add_argument(
        "--runs", type=Path, required=True, help='a JSON file: [{"out": DIR, "params": {...}}]'
    )
    ap.add_argument("--threads", type=int, default=1, help="ns runs at a time")
    ap.add_argument("--index", type=Path, required=True, help="the index written at the end")
    ap.add_argument("--cpu-log", type=Path, help="ns's CPU per run (analysis.nsrun.run)")
    ap.add_argument(
        "--lock-wait", type=float, help="seconds to wait for a run another process makes"
    )
    ap.add_argument(
        "--timeout",
        type=float,
        default=env_timeout(),
        help=f"seconds per ns run (default: ${nsrun.TIMEOUT_ENV}, else none)",
    )
    a = ap.parse_args(argv)
    try:
        runs = parse_runs(a.runs.read_text())
    except (OSError, ValueError) as e:
        ap.error(f"{a.runs}: {e}")
    if a.threads < 1:
        ap.error(f"--threads must be at least 1, not {a.threads}")
    end_at_once_when_cancelled("nsbatch")
    try:
        made = run_pool(a.ns, a.script, runs, a.threads, a.timeout, a.cpu_log, a.lock_wait)
    except nsrun.NsRunError as e:
        print(f"nsbatch: {e}", file=sys.stderr)
        return 1
    write_index(a.index, runs)
    print(f"nsbatch: {len(runs)} runs, {made} made, {len(runs) - made} reused", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
