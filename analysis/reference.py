"""Diffs made at another fidelity, kept in the repository as references.

results/ is not committed and a machine may be replaced, so a finished run of one paper at a
fidelity (paper fidelity takes hours) is recorded as ``paper/reference/<paper>-<fidelity>.csv``:
its provenance as ``# key: value`` lines (the commit, the ns identity, the wall and CPU time,
the number of jobs, the date), then that paper's rows of ``diff.csv``. A report built at another
fidelity shows these verdicts next to its own, with that provenance (analysis.report).

Usage::

    python -m analysis.reference make PAPER [--fidelity paper] [--cores 2]
        (scripts/paper-fidelity.sh): make PAPER at the fidelity with Snakemake, timed (wall;
        CPU of every process of the run), and record it as paper/reference/PAPER-FIDELITY.csv
    python -m analysis.reference record --paper P --fidelity F --diff paper/generated/diff.csv \\
        --commit SHA --ns-id build/ns2/bin/ns.id --wall-s W --cpu-s C --jobs N --date D \\
        [--attempts K] --out CSV

A make cut off (a session's end, Ctrl-C, a failed job) records nothing but its attempt, in
``logs/paper-fidelity-PAPER-FIDELITY.attempts.tsv``; the next make resumes, and the
reference's wall and CPU times are the sums over all attempts (its ``attempts`` field).
"""

from __future__ import annotations

import argparse
import io
import re
import resource
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from analysis.compare import VERDICTS, Row, counted_verdicts, csv_text, parse_csv, read_csv

REFERENCE_DIR = "paper/reference"
#: the provenance every reference records, in this order
META = ("paper", "fidelity", "commit", "ns_id", "wall_s", "cpu_s", "jobs", "date")
#: recorded when known: how many Snakemake runs (attempts) the wall and CPU times add up
OPTIONAL_META = ("attempts",)
#: one line per attempt of ``make`` (logs/, not committed): a run cut off resumes in the
#: next attempt, and the reference's times are the sum over all attempts
LEDGER_COLUMNS = ("started", "commit", "wall_s", "cpu_s", "exit", "how")


@dataclass(frozen=True)
class Reference:
    meta: dict[str, str]
    rows: list[Row]

    def by_key(self) -> dict[str, Row]:
        return {r.key: r for r in self.rows}


def reference_path(paper: str, fidelity: str) -> str:
    return f"{REFERENCE_DIR}/{paper}-{fidelity}.csv"


def write(ref: Reference, out: Path) -> None:
    missing = [k for k in META if not str(ref.meta.get(k, "")).strip()]
    if missing:
        raise ValueError(f"reference: no {', '.join(missing)}")
    others = sorted({r.paper for r in ref.rows} - {ref.meta["paper"]})
    if others:
        raise ValueError(f"reference of {ref.meta['paper']}: rows of {', '.join(others)}")
    if not ref.rows:
        raise ValueError(f"reference of {ref.meta['paper']}: no rows")
    keys = [*META, *(k for k in OPTIONAL_META if k in ref.meta)]
    head = "".join(f"# {k}: {ref.meta[k]}\n" for k in keys)
    out.write_text(head + csv_text(ref.rows))


def read(path: Path) -> Reference:
    """A reference file; ValueError naming the file for a malformed one."""
    meta: dict[str, str] = {}
    lines = Path(path).read_text().splitlines(keepends=True)
    k = 0
    while k < len(lines) and lines[k].startswith("# "):
        name, sep, value = lines[k][2:].partition(": ")
        if not sep:
            raise ValueError(f"{path}:{k + 1}: expected '# key: value'")
        meta[name] = value.strip()
        k += 1
    missing = [m for m in META if m not in meta]
    if missing:
        raise ValueError(f"{path}: no {', '.join(missing)} in its header")
    rows = parse_csv("".join(lines[k:]), str(path))
    bad = [r for r in rows if r.paper != meta["paper"] or r.verdict not in VERDICTS]
    if bad:
        raise ValueError(f"{path}: row '{bad[0].key}' is not a {meta['paper']} row of a diff")
    return Reference(meta, rows)


def moved(own: Sequence[Row], ref: Reference) -> list[tuple[Row, Row]]:
    """(own row, reference row) of every key whose verdict differs between the two."""
    theirs = ref.by_key()
    return [
        (r, theirs[r.key]) for r in own if r.key in theirs and theirs[r.key].verdict != r.verdict
    ]


def _record(a: argparse.Namespace) -> int:
    rows = [r for r in read_csv(a.diff) if r.paper == a.paper]
    meta: Mapping[str, str] = {
        "paper": a.paper,
        "fidelity": a.fidelity,
        "commit": a.commit,
        "ns_id": a.ns_id.read_text().strip(),
        "wall_s": f"{a.wall_s:.0f}",
        "cpu_s": f"{a.cpu_s:.0f}",
        "jobs": str(a.jobs),
        "date": a.date,
        **({"attempts": str(a.attempts)} if getattr(a, "attempts", None) else {}),
    }
    a.out.parent.mkdir(parents=True, exist_ok=True)
    write(Reference(dict(meta), rows), a.out)
    buf = io.StringIO()
    counts = counted_verdicts(rows)
    buf.write(f"{a.out}: {len(rows)} rows; published results ok/off/missing = ")
    buf.write(" / ".join(str(counts[v]) for v in VERDICTS) + "\n")
    sys.stdout.write(buf.getvalue())
    return 0


@dataclass(frozen=True)
class Attempt:
    """One run of ``make``: when it started, at which commit, its wall and CPU seconds, its
    exit status, and how the times were measured ("rusage" when ``make`` measured them)."""

    started: str
    commit: str
    wall_s: float
    cpu_s: float
    exit: int
    how: str = "rusage"


def ledger_path(root: Path, paper: str, fidelity: str) -> Path:
    return root / "logs" / f"paper-fidelity-{paper}-{fidelity}.attempts.tsv"


def add_attempt(path: Path, att: Attempt) -> None:
    new = not path.exists()
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as fh:
        if new:
            fh.write("\t".join(LEDGER_COLUMNS) + "\n")
        fields = (att.started, att.commit, f"{att.wall_s:.1f}", f"{att.cpu_s:.1f}", att.exit)
        fh.write("\t".join(map(str, (*fields, att.how))) + "\n")


def read_ledger(path: Path) -> list[Attempt]:
    """The attempts recorded so far (none when there is no ledger); ValueError naming the
    file and line for a malformed one."""
    if not path.exists():
        return []
    lines = path.read_text().splitlines()
    if not lines or tuple(lines[0].split("\t")) != LEDGER_COLUMNS:
        raise ValueError(f"{path}:1: expected the columns {' '.join(LEDGER_COLUMNS)}")
    out = []
    for k, line in enumerate(lines[1:], start=2):
        f = line.split("\t")
        try:
            if len(f) != len(LEDGER_COLUMNS):
                raise ValueError(f"{len(f)} fields")
            out.append(Attempt(f[0], f[1], float(f[2]), float(f[3]), int(f[4]), f[5]))
        except ValueError as e:
            raise ValueError(f"{path}:{k}: not an attempt ({e})") from None
    return out


def totals(attempts: Sequence[Attempt]) -> tuple[float, float]:
    """Wall and CPU seconds of all attempts: what the recorded run took in all."""
    return sum(a.wall_s for a in attempts), sum(a.cpu_s for a in attempts)


#: what a reference's commit must hold unchanged (the code and config that make the numbers)
TRACKED = ("Snakefile", "analysis", "rules", "tcl", "config", "ns2-patches")


def _make(a: argparse.Namespace) -> int:
    root = Path(__file__).resolve().parent.parent
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no", "--", *TRACKED],
        cwd=root, capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    if dirty:
        sys.stderr.write(
            f"reference: uncommitted changes, commit them first (a reference names a commit):\n"
            f"{dirty}\n"
        )
        return 1
    # the commit whose code makes the numbers: the one checked out now, not at the end.
    # Snakemake reruns every job whose code, parameters or inputs changed since an earlier
    # attempt, so the last attempt's commit made every output.
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True
    ).stdout.strip()
    log = root / "logs" / f"paper-fidelity-{a.paper}-{a.fidelity}.log"
    ledger = ledger_path(root, a.paper, a.fidelity)
    earlier = read_ledger(ledger)
    log.parent.mkdir(parents=True, exist_ok=True)
    smk = Path(sys.executable).with_name("snakemake")
    cmd = [str(smk), "--cores", str(a.cores), "--config", f"fidelity={a.fidelity}"]
    cmd.append(f"papers=[{a.paper}]")
    print(f"making {a.paper} at {a.fidelity} on {a.cores} cores (log: {log}) ...", flush=True)
    if earlier:
        w, c = totals(earlier)
        print(f"  resuming after {len(earlier)} attempt(s): {w:.0f} s wall, {c:.0f} s CPU so far")
    started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    rc = 1
    try:
        # a first attempt starts the log anew; a resumed one adds to it
        with log.open("a" if earlier else "w") as fh:
            fh.write(f"=== attempt started {started} at {commit[:12]}\n")
            fh.flush()
            rc = subprocess.run(cmd, cwd=root, stdout=fh, stderr=subprocess.STDOUT).returncode
    finally:  # an attempt cut off (Ctrl-C) still counts its time
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        add_attempt(ledger, Attempt(started, commit, time.monotonic() - t0, cpu, rc))
    text = log.read_text()
    this = text[text.rindex("=== attempt started") :]
    if rc != 0:
        sys.stderr.write(this[-4000:])
        sys.stderr.write(
            f"reference: the run failed (exit {rc}); nothing recorded (rerun: it resumes; "
            f"this attempt's times are kept in {ledger})\n"
        )
        return 1
    attempts = read_ledger(ledger)
    wall, cpu_s = totals(attempts)
    done = re.findall(r"(\d+) of (\d+) steps \(100%\) done", this)
    # this attempt's jobs, and those earlier attempts finished (they are not made again)
    jobs = int(done[-1][1]) if done else 0
    jobs += jobs_done(text[: text.rindex("=== attempt started")])
    rc = _record(
        argparse.Namespace(
            paper=a.paper,
            fidelity=a.fidelity,
            diff=root / "paper" / "generated" / "diff.csv",
            commit=commit,
            ns_id=root / "build" / "ns2" / "bin" / "ns.id",
            wall_s=wall,
            cpu_s=cpu_s,
            jobs=jobs,
            date=time.strftime("%Y-%m-%d", time.gmtime()),
            attempts=len(attempts),
            out=root / reference_path(a.paper, a.fidelity),
        )
    )
    # the next make of this paper and fidelity starts a ledger of its own
    ledger.rename(ledger.with_name(f"{ledger.stem}.{started[:10]}.tsv"))
    return rc


def jobs_done(log: str) -> int:
    """Jobs finished by the attempts a Snakemake log holds (each attempt's last "N of M steps"
    line; attempts separated by ``=== attempt started`` lines, or a log of one attempt)."""
    done = 0
    for part in log.split("=== attempt started"):
        steps = re.findall(r"(\d+) of \d+ steps \(\d+%\) done", part)
        done += int(steps[-1]) if steps else 0
    return done


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="record one paper's diff as a reference")
    sub = ap.add_subparsers(dest="what", required=True)
    m = sub.add_parser("make", help="make one paper at a fidelity and record it")
    m.add_argument("paper")
    m.add_argument("--fidelity", default="paper")
    m.add_argument("--cores", type=int, default=2)
    r = sub.add_parser("record", help="record a finished run's diff")
    r.add_argument("--paper", required=True)
    r.add_argument("--fidelity", required=True)
    r.add_argument("--diff", type=Path, required=True)
    r.add_argument("--commit", required=True)
    r.add_argument("--ns-id", type=Path, required=True)
    r.add_argument("--wall-s", type=float, required=True)
    r.add_argument("--cpu-s", type=float, required=True)
    r.add_argument("--jobs", type=int, required=True)
    r.add_argument("--date", required=True)
    r.add_argument("--attempts", type=int, help="Snakemake runs the times add up (if known)")
    r.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    try:
        return _make(a) if a.what == "make" else _record(a)
    except ValueError as e:
        ap.error(str(e))
    return 2


if __name__ == "__main__":
    sys.exit(main())
