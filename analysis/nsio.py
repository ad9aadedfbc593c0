"""Reading ns outputs into pandas: the only module that knows the run formats.

A run folder (written by tcl/lib/results.tcl) holds ``summary.json`` and whitespace
tables ``<name>.tsv`` whose first line is ``# col col ...``. analysis.nsrun adds, once the
run has finished, ``run.sha256``: the digest of every output file (``sha256sum`` format),
against which a read summary and ``python -m analysis.nsio verify`` check the run.

Usage (``make verify``)::

    python -m analysis.nsio verify [--results results]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pandas is imported where a DataFrame is made: short jobs start fast
    import pandas as pd

#: a finished run's outputs and their sha256 (written by analysis.nsrun, last)
MANIFEST = "run.sha256"
#: files of a run folder the manifest does not cover: ns's own log, nsrun's records
UNLISTED = ("ns.log", "run.key", "run.args", MANIFEST)
#: what every summary.json holds (tcl/lib/results.tcl)
SUMMARY_FIELDS = ("complete", "params", "results", "tables")


class IncompleteRun(RuntimeError):
    """A run folder without a complete summary.json."""


class CorruptRun(IncompleteRun):
    """A run whose files are not what it wrote, which could not be made again."""


def sha256(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def write_manifest(run_dir: Path) -> None:
    """Write ``run.sha256`` for a finished run (made aside, then renamed into place)."""
    files = sorted(f for f in run_dir.iterdir() if f.is_file() and f.name not in UNLISTED)
    tmp = run_dir / f".{MANIFEST}.tmp"
    tmp.write_text("".join(f"{sha256(f)}  {f.name}\n" for f in files))
    tmp.rename(run_dir / MANIFEST)


def manifest_problems(run_dir: Path, only: Sequence[str] | None = None) -> list[str]:
    """What is wrong with a run's files against its manifest (empty: nothing; a run made
    before manifests has none to check). ``only``: check just these files (a read checks
    summary.json, a small file; ``verify`` checks all)."""
    m = run_dir / MANIFEST
    if not m.is_file():
        return []
    listed = {}
    for line in m.read_text().splitlines():
        digest, _, name = line.partition("  ")
        listed[name] = digest
    problems = []
    for name in only if only is not None else sorted(listed):
        f = run_dir / name
        if name not in listed:
            problems.append(f"{name} is not in {MANIFEST}")
        elif not f.is_file():
            problems.append(f"{name} is missing")
        elif sha256(f) != listed[name]:
            problems.append(f"{name} is not the file the run wrote (sha256 differs)")
    return problems


def quarantine(run_dir: Path, why: str) -> Path:
    """Move a corrupt run aside (``<run>.corrupt``, replacing an older one) and return where;
    the next plain ``snakemake`` makes the run again."""
    aside = run_dir.with_name(run_dir.name + ".corrupt")
    if aside.exists():
        shutil.rmtree(aside)
    os.rename(run_dir, aside)
    (aside / "CORRUPT.txt").write_text(why + "\n")
    return aside


def _remade(run_dir: Path, why: str) -> dict:
    """A corrupt run, moved aside and made again as it was made (analysis.nsrun.remake: the
    same bytes, runs being deterministic), said on stderr; CorruptRun if it cannot be made
    again (a run from before run.args). Made here, by the step that read it, because Snakemake
    does not remake a missing run whose readers' outputs are up to date."""
    from analysis import nsrun  # nsrun imports this module

    aside = quarantine(run_dir, why)
    print(f"nsio: {why}; moved aside to {aside}, made again", file=sys.stderr, flush=True)
    try:
        nsrun.remake(run_dir)
    except nsrun.NsRunError as e:
        raise CorruptRun(f"{why}; moved aside to {aside}; {e}") from None
    return read_summary(run_dir)


def read_summary(path: Path | str) -> dict:
    """Parse a run's summary.json; refuse one that is not marked complete. A summary that is
    unparsable, lacks a field or differs from what the run wrote (its manifest) is corrupt:
    the run is named, moved aside and made again (:func:`_remade`)."""
    p = Path(path)
    if p.is_dir():
        p = p / "summary.json"
    if not p.is_file():
        raise IncompleteRun(f"{p}: missing (the run did not finish)")
    problems = manifest_problems(p.parent, ["summary.json"])
    summary = None
    if not problems:
        try:
            summary = json.loads(p.read_text())
        except json.JSONDecodeError as e:
            problems = [f"summary.json is not JSON ({e})"]
    if summary is not None and not problems:
        if not isinstance(summary, dict):
            problems = ["summary.json is not a JSON object"]
        else:
            missing = [k for k in SUMMARY_FIELDS if k not in summary]
            if missing:
                problems = [f"summary.json lacks {', '.join(missing)}"]
    if problems:
        return _remade(p.parent, f"{p.parent}: corrupt run: {'; '.join(problems)}")
    assert summary is not None
    if summary.get("complete") is not True:
        raise IncompleteRun(f"{p}: not marked complete")
    return summary


def _columns(p: Path) -> list[str]:
    with p.open() as fh:
        header = fh.readline()
    if not header.startswith("#"):
        raise ValueError(f"{p}: first line must be '# column names'")
    return header[1:].split()


def read_table(path: Path | str) -> pd.DataFrame:
    """A whitespace table with a '# col col ...' header line."""
    import pandas as pd

    p = Path(path)
    cols = _columns(p)
    df = pd.read_csv(p, sep=r"\s+", comment="#", header=None, names=cols)
    return df


def read_rows(path: Path | str) -> list[dict[str, float]]:
    """The same table as a list of {column: number} rows, without pandas."""
    p = Path(path)
    cols = _columns(p)
    rows = []
    with p.open() as fh:
        for line in fh:
            if line.startswith("#") or not line.strip():
                continue
            words = line.split()
            if len(words) != len(cols):
                raise ValueError(
                    f"{p}: row '{line.strip()}' has {len(words)} values, not {len(cols)}"
                )
            rows.append({c: float(w) for c, w in zip(cols, words, strict=True)})
    return rows


def read_run(run_dir: Path | str) -> tuple[dict, dict[str, pd.DataFrame]]:
    """(summary, {table name: DataFrame}) of one complete run."""
    d = Path(run_dir)
    summary = read_summary(d)
    tables = {name: read_table(d / f"{name}.tsv") for name in summary.get("tables", [])}
    return summary, tables


def collect(run_dirs: Iterable[Path | str], table: str, keys: Iterable[str]) -> pd.DataFrame:
    """Concatenate one table of many runs, adding the run parameters named in ``keys``."""
    frames = []
    keys = list(keys)
    for d in run_dirs:
        summary, tables = read_run(Path(d).parent if Path(d).name == "summary.json" else d)
        if table not in tables:
            raise KeyError(f"{d}: run has no table '{table}'")
        df = tables[table].copy()
        for k in keys:
            df[k] = summary["params"][k]
        frames.append(df)
    if not frames:
        raise ValueError("no runs given")
    import pandas as pd

    return pd.concat(frames, ignore_index=True)


def verify(results: Path) -> tuple[int, int, list[str]]:
    """Check every finished run under ``results`` against its manifest, and every index of
    runs against the runs it lists: (runs checked, runs without a manifest, the problems:
    each corrupt run named with what is wrong, moved aside and made again, newer than what
    read it, so the next snakemake remakes what depends on it; each index that lists a
    missing run, removed: :func:`drop_incomplete_indexes`)."""
    checked, unlisted, bad = 0, 0, []
    for summary in sorted(results.rglob("summary.json")):
        run_dir = summary.parent
        if run_dir.name.endswith((".failed", ".corrupt")) or ".runstore" in run_dir.parts:
            continue
        if not (run_dir / MANIFEST).is_file():
            unlisted += 1
            continue
        checked += 1
        problems = manifest_problems(run_dir)
        if problems:
            why = f"{run_dir}: corrupt run: {'; '.join(problems)}"
            try:
                _remade(run_dir, why)
                bad.append(f"{why}; moved aside and made again")
            except CorruptRun as e:
                bad.append(str(e))
    bad += drop_incomplete_indexes(results)
    return checked, unlisted, bad


def drop_incomplete_indexes(results: Path) -> list[str]:
    """Remove every index of an experiment's runs (``runs.json``, analysis.nsbatch) under
    ``results`` that lists a run no longer complete (deleted, say) or that is not an index;
    each named. Snakemake tracks the index, not each run: without it, the experiment's job
    is planned again, and it makes the missing runs only."""
    from analysis import nsbatch, nsrun  # they import this module

    bad = []
    for index in sorted(results.rglob("runs.json")):
        if ".runstore" in index.parts:
            continue
        try:
            missing = [
                out for out, _ in nsbatch.read_index(index) if nsrun.complete_summary(out) is None
            ]
        except ValueError as e:
            missing, problem = [], str(e)
        else:
            if not missing:
                continue
            problem = "; ".join(f"{out}: missing run (listed in {index})" for out in missing)
        index.unlink()
        bad.append(f"{problem}; {index} removed: the next snakemake makes its runs again")
    return bad


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="check every run against what it wrote")
    ap.add_argument("what", choices=["verify"])
    ap.add_argument("--results", type=Path, default=Path("results"))
    a = ap.parse_args(argv)
    checked, unlisted, bad = verify(a.results)
    for line in bad:
        print(line, file=sys.stderr)
    print(
        f"verify: {checked} runs checked, {len(bad)} problems (a corrupt run is moved aside and "
        "made again, an index listing a missing run is removed: the next snakemake remakes "
        f"what they feed), {unlisted} made before manifests (not checked)"
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
