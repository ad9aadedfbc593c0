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
    python -m analysis.reference make PAPER --steps S [S ...]: a batch of PAPER's analysis
        steps only (their figures, tables and numbers), recorded as a part,
        paper/reference/parts/PAPER-FIDELITY.S+S.csv, with the rows their numbers decide; then
        the parts are assembled into paper/reference/PAPER-FIDELITY.csv (as ``assemble``)
    python -m analysis.reference assemble PAPER [--fidelity paper]
    python -m analysis.reference record --paper P --fidelity F --diff paper/generated/F/diff.csv \\
        --commit SHA --ns-id build/ns2/bin/ns.id --wall-s W --cpu-s C --jobs N --date D \\
        [--attempts K] --out CSV

Batches: a paper whose run takes longer than a session (or than one machine lasts) is made a
few steps at a time, each batch within a couple of hours. Each part names its own commit, ns
identity and times; the assembled reference adds them up and says which steps it does not
hold yet (their rows are not recorded, not "missing"). The best-response searches a batch
reads are jobs of the same Snakemake run (one job per search). Only when every step is
recorded does a published number that no step writes count as missing. Parts made by
different ns binaries are not assembled.

A make cut off (a session's end, Ctrl-C, a failed job) records nothing but its attempt, in
``logs/paper-fidelity-PAPER-FIDELITY.attempts.tsv``; the next make resumes, and the
reference's wall and CPU times are the sums over all attempts (its ``attempts`` field).
"""

from __future__ import annotations

import argparse
import re
import resource
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from analysis import config as conf
from analysis import diagnosis as dg
from analysis.compare import (
    VERDICTS,
    Row,
    counted_verdicts,
    csv_text,
    diff_rows,
    gather,
    load_originals,
    parse_csv,
    read_csv,
)

REFERENCE_DIR = "paper/reference"
#: one file per batch of steps of a paper made at a fidelity (``make --steps``)
PARTS_DIR = f"{REFERENCE_DIR}/parts"
#: the provenance every reference records, in this order
META = ("paper", "fidelity", "commit", "ns_id", "wall_s", "cpu_s", "jobs", "date")
#: recorded when known: how many Snakemake runs (attempts) the wall and CPU times add up; for
#: a run made in batches: the steps it holds, those it does not hold yet, and how many parts
OPTIONAL_META = ("attempts", "steps", "steps_missing", "parts", "runs_from")
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


#: which recorded run a report shows beside its own verdicts, the first one recorded: the run
#: at paper fidelity (the papers' own run counts) for a build at any other fidelity
SHOWN_ORDER = ("paper", "quick", "smoke")


def shown_reference(root: Path, paper: str, fidelity: str) -> str | None:
    """The reference (its path relative to ``root``) that a report built at ``fidelity`` sets
    beside its own verdicts for ``paper``: the first of :data:`SHOWN_ORDER` at another
    fidelity that is recorded; None when no other fidelity is."""
    for fid in SHOWN_ORDER:
        path = reference_path(paper, fid)
        if fid != fidelity and (root / path).is_file():
            return path
    return None


def write(ref: Reference, out: Path) -> None:
    missing = [k for k in META if not str(ref.meta.get(k, "")).strip()]
    if missing:
        raise ValueError(f"reference: no {', '.join(missing)}")
    others = sorted({r.paper for r in ref.rows} - {ref.meta["paper"]})
    if others:
        raise ValueError(f"reference of {ref.meta['paper']}: rows of {', '.join(others)}")
    if not ref.rows and "steps" not in ref.meta:  # a batch's steps may decide no number
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


def _record(a: argparse.Namespace, log: str | None = None, root: Path | None = None) -> int:
    """Write the reference of ``a.paper`` from the diff; given the run's ``log`` (its jobs'
    own logs under ``root``), a run that reuses the runs of the reference it replaces keeps
    their cost (:func:`with_reused_runs`)."""
    rows = [r for r in read_csv(a.diff) if r.paper == a.paper]
    meta = _provenance(a)
    if log is not None and a.out.exists() and reuses_runs(log, root):
        earlier = read(a.out).meta
        if "parts" not in earlier:
            meta = with_reused_runs(earlier, meta)
    _write(Reference(meta, rows), a.out)
    return 0


def _provenance(a: argparse.Namespace) -> dict[str, str]:
    return {
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


def _write(ref: Reference, out: Path) -> None:
    """Write a reference and say what it holds."""
    out.parent.mkdir(parents=True, exist_ok=True)
    write(ref, out)
    counts = counted_verdicts(ref.rows)
    held = f" (steps {ref.meta['steps']})" if "steps" in ref.meta else ""
    sys.stdout.write(
        f"{out}: {len(ref.rows)} rows{held}; published results ok/off/missing = "
        + " / ".join(str(counts[v]) for v in VERDICTS)
        + "\n"
    )


# ---------------------------------------------------------------------------------------------
# batches: a paper made a few steps at a time
# ---------------------------------------------------------------------------------------------


def paper_steps(root: Path, paper: str, fidelity: str) -> list[str]:
    """The analysis steps of PAPER's items made at FIDELITY, in config order: a step whose
    item reads an experiment without that fidelity level is not made there."""
    cfg = conf.load(conf.config_files(root))
    if paper not in conf.papers(cfg):
        raise ValueError(f"no paper {paper!r}; one of {', '.join(conf.papers(cfg))}")
    exps = cfg[paper].get("experiments", {})

    def made(e: str) -> bool:
        levels = exps.get(e, {}).get("fidelity")
        return not isinstance(levels, dict) or fidelity in levels

    items = conf.items(cfg, paper).values()
    return list(dict.fromkeys(it.step for it in items if all(map(made, it.experiments))))


def step_targets(root: Path, paper: str, steps: Sequence[str], fidelity: str) -> list[str]:
    """The files a batch of steps makes at a fidelity: its items' figures, tables, numbers."""
    cfg = conf.load(conf.config_files(root))
    items = [it for it in conf.items(cfg, paper).values() if it.step in steps]
    return list(dict.fromkeys(f for it in items for f in conf.item_files(it, fidelity)))


def completes(root: Path, paper: str, fidelity: str, steps: Sequence[str]) -> bool:
    """Whether a batch of ``steps`` leaves no step of PAPER unrecorded at FIDELITY: with the
    other parts in the checkout it holds every step."""
    mine = part_path(paper, fidelity, steps)
    held = set(steps)
    for f in (root / PARTS_DIR).glob(f"{paper}-{fidelity}.*.csv"):
        if f.relative_to(root).as_posix() != mine:
            held |= set(read(f).meta.get("steps", "").split())
    return set(paper_steps(root, paper, fidelity)) <= held


def part_path(paper: str, fidelity: str, steps: Sequence[str]) -> str:
    return f"{PARTS_DIR}/{paper}-{fidelity}.{'+'.join(steps)}.csv"


def part_rows(root: Path, paper: str, steps: Sequence[str], fidelity: str) -> list[Row]:
    """The diff rows of PAPER that the numbers of STEPS decide (numbers-<step>.csv). A row's
    diagnosis may name a check another step writes (Akella et al.'s Reno/RED rows: Figure
    6's analysis), or a rule of the paper's own: every numbers file of PAPER at FIDELITY in
    this checkout resolves the checks (a paper's batches are made in one checkout)."""
    gen = root / conf.generated_dir(fidelity) / paper
    own = [gen / f"numbers-{s}.csv" for s in steps]
    others = [f for f in sorted(gen.glob("numbers-*.csv")) if f not in own]
    g = gather(root / "config" / "originals", [*own, *others], [paper])
    return [r for r in g.rows() if g.steps.get((paper, r.key)) in steps]


def assemble(root: Path, paper: str, fidelity: str) -> Reference:
    """One reference from the parts of PAPER at FIDELITY: their rows, their times added up,
    their commits; the steps not recorded yet in ``steps_missing``. When every step is
    recorded, a published number that none writes is a missing row. ValueError when there is
    no part, a step is in two parts, or the parts were made by different ns binaries."""
    files = sorted((root / PARTS_DIR).glob(f"{paper}-{fidelity}.*.csv"))
    if not files:
        raise ValueError(f"no parts of {paper} at {fidelity} fidelity in {PARTS_DIR}/")
    steps = paper_steps(root, paper, fidelity)

    def first_step(ref: Reference) -> int:  # parts in the order of their steps in the config
        held = ref.meta.get("steps", "").split()
        return min((steps.index(st) for st in held if st in steps), default=len(steps))

    pairs = sorted(((f, read(f)) for f in files), key=lambda fr: first_step(fr[1]))
    files, parts = [f for f, _ in pairs], [r for _, r in pairs]
    where: dict[str, Path] = {}
    for f, ref in zip(files, parts, strict=True):
        for st in ref.meta.get("steps", "").split():
            if st not in steps:
                raise ValueError(f"{f}: {paper} has no step {st!r} at {fidelity} fidelity")
            if st in where:
                raise ValueError(f"step {st} is in two parts: {where[st].name} and {f.name}")
            where[st] = f
    ns = sorted({ref.meta["ns_id"] for ref in parts})
    if len(ns) > 1:
        raise ValueError(
            f"the parts of {paper} at {fidelity} were made by different ns binaries "
            f"({', '.join(ns)}): make them again with one"
        )
    originals = load_originals(root / "config" / "originals" / f"{paper}.yaml")
    rows = {r.key: r for ref in parts for r in ref.rows}
    not_yet = [st for st in steps if st not in where]
    if not not_yet:  # every step recorded: what none of them wrote is missing
        diagnoses = dg.load_dir(
            root / "config" / "diagnoses", [paper], {paper: [p.key for p in originals]}
        )
        missing = diff_rows(originals, {}, diagnoses)
        rows.update({r.key: r for r in missing if r.key not in rows})
    order = {p.key: k for k, p in enumerate(originals)}
    meta = {
        "paper": paper,
        "fidelity": fidelity,
        "commit": " ".join(dict.fromkeys(c for ref in parts for c in ref.meta["commit"].split())),
        "ns_id": ns[0],
        "wall_s": f"{sum(float(ref.meta['wall_s']) for ref in parts):.0f}",
        "cpu_s": f"{sum(float(ref.meta['cpu_s']) for ref in parts):.0f}",
        "jobs": str(sum(int(ref.meta["jobs"]) for ref in parts)),
        "date": max(ref.meta["date"] for ref in parts),
        "attempts": str(sum(int(ref.meta.get("attempts", "1")) for ref in parts)),
        "steps": " ".join(st for st in steps if st in where),
        **({"steps_missing": " ".join(not_yet)} if not_yet else {}),
        "parts": str(len(parts)),
    }
    return Reference(meta, sorted(rows.values(), key=lambda r: order.get(r.key, len(order))))


def _assemble(root: Path, paper: str, fidelity: str) -> int:
    out = root / reference_path(paper, fidelity)
    if out.exists() and "parts" not in read(out).meta:
        raise ValueError(
            f"{out.relative_to(root)} records a whole run, which parts do not replace: "
            "remove it first to record this paper in batches"
        )
    _write(assemble(root, paper, fidelity), out)
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


def run_name(paper: str, fidelity: str, steps: Sequence[str] = ()) -> str:
    """paper-fidelity-PAPER-FIDELITY[.S+S]: the name of one run's log and ledger in logs/"""
    return f"paper-fidelity-{paper}-{fidelity}" + (f".{'+'.join(steps)}" if steps else "")


def ledger_path(root: Path, paper: str, fidelity: str, steps: Sequence[str] = ()) -> Path:
    return root / "logs" / f"{run_name(paper, fidelity, steps)}.attempts.tsv"


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


def snakemake_config(paper: str, fidelity: str) -> list[str]:
    """The ``--config`` of a reference's Snakemake run: one paper at one fidelity, every job
    made from runs (``bundle=off``): a reference measures a run, and a job restored from the
    paper-fidelity bundle (rules/bundle.smk) neither costs what it cost nor logs the runs it
    made or reused (``nsbatch:`` lines, :func:`runs_counts`)."""
    return ["--config", f"fidelity={fidelity}", f"papers=[{paper}]", "bundle=off"]


def _make(a: argparse.Namespace) -> int:
    root = Path(__file__).resolve().parent.parent
    steps: list[str] = list(dict.fromkeys(a.steps or []))
    if steps:  # bad input stops before any run
        known = paper_steps(root, a.paper, a.fidelity)
        unknown = [st for st in steps if st not in known]
        if unknown:
            raise ValueError(
                f"{a.paper} has no step {', '.join(unknown)} at {a.fidelity} fidelity; "
                f"its steps: {' '.join(known)}"
            )
        steps = [st for st in known if st in steps]  # one name per batch, in config order
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
    log = root / "logs" / f"{run_name(a.paper, a.fidelity, steps)}.log"
    ledger = ledger_path(root, a.paper, a.fidelity, steps)
    earlier = read_ledger(ledger)
    log.parent.mkdir(parents=True, exist_ok=True)
    smk = Path(sys.executable).with_name("snakemake")
    # one Snakemake run for the batch's steps (a search is one job of it); the targets
    # before --config, which takes every word after it
    targets = [step_targets(root, a.paper, steps, a.fidelity)]
    if steps and completes(root, a.paper, a.fidelity, steps):
        # the last batch also makes what the paper's own rules compute from every step (the
        # diff's inputs beyond the steps' numbers): their checks resolve the parts' rows
        targets[0].append(f"{conf.generated_dir(a.fidelity)}/diff.csv")
    smk_config = snakemake_config(a.paper, a.fidelity)
    what = f"{a.paper} (steps {' '.join(steps)})" if steps else a.paper
    print(f"making {what} at {a.fidelity} on {a.cores} cores (log: {log}) ...", flush=True)
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
            for i, tg in enumerate(targets):
                if len(targets) > 1:  # a run of its own within the attempt
                    fh.write(f"=== snakemake {i + 1} of {len(targets)}: {' '.join(tg[:3])}\n")
                fh.flush()
                cmd = [str(smk), "--cores", str(a.cores), *tg, *smk_config]
                rc = subprocess.run(cmd, cwd=root, stdout=fh, stderr=subprocess.STDOUT).returncode
                if rc != 0:
                    break
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
    # this attempt's jobs, and those earlier attempts finished (they are not made again)
    jobs = jobs_done(text)
    run = argparse.Namespace(
        paper=a.paper,
        fidelity=a.fidelity,
        diff=root / conf.generated_dir(a.fidelity) / "diff.csv",
        commit=commit,
        ns_id=root / "build" / "ns2" / "bin" / "ns.id",
        wall_s=wall,
        cpu_s=cpu_s,
        jobs=jobs,
        date=time.strftime("%Y-%m-%d", time.gmtime()),
        attempts=len(attempts),
        out=root / reference_path(a.paper, a.fidelity),
    )
    if steps:
        meta = {**_provenance(run), "steps": " ".join(steps)}
        earlier_part = root / part_path(a.paper, a.fidelity, steps)
        if earlier_part.exists() and reuses_runs(text, root):
            meta = with_reused_runs(read(earlier_part).meta, meta)
        part = Reference(meta, part_rows(root, a.paper, steps, a.fidelity))
        _write(part, root / part_path(a.paper, a.fidelity, steps))
        rc = _assemble(root, a.paper, a.fidelity)
    else:
        rc = _record(run, text, root)
    # the next make of this paper and fidelity starts a ledger of its own
    ledger.rename(ledger.with_name(f"{ledger.stem}.{started[:10]}.tsv"))
    return rc


_COUNTS = re.compile(r"^nsbatch: \d+ runs, (\d+) made, (\d+) reused", re.MULTILINE)
_SEARCH_JOB = re.compile(r"^(?:local)?rule \S*search\S*:\n((?:[ \t]+.*\n)*)", re.MULTILINE)


def runs_counts(log: str, root: Path | None = None) -> tuple[int, int] | None:
    """(made, reused): the ns runs the jobs of a log made and reused (``nsbatch: N runs, M
    made, K reused`` lines; (0, 0) when no job made runs). A search job writes its line to its
    own log (the ``log:`` of its job in the Snakemake log, read under ``root``); None when a
    search ran whose log has no such line (or no ``root`` is given), as its runs are then not
    counted."""
    pairs = [(int(m), int(r)) for m, r in _COUNTS.findall(log)]
    for job in _SEARCH_JOB.findall(log):
        found = re.search(r"^\s+log: (\S+)", job, re.MULTILINE)
        path = root / found.group(1) if root is not None and found else None
        own = _COUNTS.findall(path.read_text()) if path is not None and path.is_file() else []
        if not own:
            return None
        pairs += [(int(m), int(r)) for m, r in own[-1:]]
    return sum(m for m, _ in pairs), sum(r for _, r in pairs)


def reuses_runs(log: str, root: Path | None = None) -> bool:
    """Whether a batch's numbers rest on runs an earlier batch made: it reused some, or made
    none (a batch of analysis only)."""
    c = runs_counts(log, root)
    return c is not None and (c[1] > 0 or c[0] == 0)


def with_reused_runs(earlier: Mapping[str, str], meta: Mapping[str, str]) -> dict[str, str]:
    """A batch's provenance when it reuses runs of the part it replaces (``earlier``): the
    cost of making them stays counted. Wall and CPU time, jobs and attempts add up, the
    commits are the earlier part's then this one's, and ``runs_from`` names the date of the
    batch that made them."""
    out = dict(meta)
    for k in ("wall_s", "cpu_s", "jobs"):
        out[k] = f"{float(earlier[k]) + float(meta[k]):.0f}"
    att = int(earlier.get("attempts", "1")) + int(meta.get("attempts", "1"))
    out["attempts"] = str(att)
    commits = [*earlier["commit"].split(), *meta["commit"].split()]
    out["commit"] = " ".join(dict.fromkeys(commits))
    out["runs_from"] = earlier.get("runs_from", earlier["date"])
    return out


def jobs_done(log: str) -> int:
    """Jobs finished by the Snakemake runs a log holds (each run's last "N of M steps" line;
    runs separated by ``=== attempt started`` or ``=== snakemake`` lines, or a log of one)."""
    done = 0
    for part in re.split(r"^=== (?:attempt started|snakemake) ", log, flags=re.MULTILINE):
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
    m.add_argument(
        "--steps",
        nargs="+",
        metavar="STEP",
        help="only these analysis steps (a batch), recorded as a part and assembled",
    )
    s_ = sub.add_parser("assemble", help="assemble a paper's parts into its reference")
    s_.add_argument("paper")
    s_.add_argument("--fidelity", default="paper")
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
        if a.what == "assemble":
            return _assemble(Path.cwd(), a.paper, a.fidelity)
        return _make(a) if a.what == "make" else _record(a)
    except ValueError as e:
        ap.error(str(e))
    return 2


if __name__ == "__main__":
    sys.exit(main())
