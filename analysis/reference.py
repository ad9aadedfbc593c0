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
        --commit SHA --ns-id build/ns2/bin/ns.id --wall-s W --cpu-s C --jobs N --date D --out CSV
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
    head = "".join(f"# {k}: {ref.meta[k]}\n" for k in META)
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
    }
    a.out.parent.mkdir(parents=True, exist_ok=True)
    write(Reference(dict(meta), rows), a.out)
    buf = io.StringIO()
    counts = counted_verdicts(rows)
    buf.write(f"{a.out}: {len(rows)} rows; published results ok/off/missing = ")
    buf.write(" / ".join(str(counts[v]) for v in VERDICTS) + "\n")
    sys.stdout.write(buf.getvalue())
    return 0


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
    # the commit whose code makes the numbers: the one checked out now, not at the end
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True
    ).stdout.strip()
    log = root / "logs" / f"paper-fidelity-{a.paper}-{a.fidelity}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    smk = Path(sys.executable).with_name("snakemake")
    cmd = [str(smk), "--cores", str(a.cores), "--config", f"fidelity={a.fidelity}"]
    cmd.append(f"papers=[{a.paper}]")
    print(f"making {a.paper} at {a.fidelity} on {a.cores} cores (log: {log}) ...", flush=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    with log.open("w") as fh:
        rc = subprocess.run(cmd, cwd=root, stdout=fh, stderr=subprocess.STDOUT).returncode
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    text = log.read_text()
    if rc != 0:
        sys.stderr.write(text[-4000:])
        sys.stderr.write(
            f"reference: the run failed (exit {rc}); nothing recorded (rerun: it resumes)\n"
        )
        return 1
    done = re.findall(r"(\d+) of (\d+) steps \(100%\) done", text)
    return _record(
        argparse.Namespace(
            paper=a.paper,
            fidelity=a.fidelity,
            diff=root / "paper" / "generated" / "diff.csv",
            commit=commit,
            ns_id=root / "build" / "ns2" / "bin" / "ns.id",
            wall_s=wall,
            cpu_s=(after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
            jobs=int(done[-1][1]) if done else 0,
            date=time.strftime("%Y-%m-%d", time.gmtime()),
            out=root / reference_path(a.paper, a.fidelity),
        )
    )


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
    r.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    try:
        return _make(a) if a.what == "make" else _record(a)
    except ValueError as e:
        ap.error(str(e))
    return 2


if __name__ == "__main__":
    sys.exit(main())
