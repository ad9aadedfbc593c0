"""Reading ns outputs into pandas: the only module that knows the run formats.

A run folder (written by tcl/lib/results.tcl) holds ``summary.json`` and whitespace
tables ``<name>.tsv`` whose first line is ``# col col ...``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import pandas as pd


class IncompleteRun(RuntimeError):
    """A run folder without a complete summary.json."""


def read_summary(path: Path | str) -> dict:
    """Parse a summary.json; refuse one that is not marked complete."""
    p = Path(path)
    if p.is_dir():
        p = p / "summary.json"
    if not p.is_file():
        raise IncompleteRun(f"{p}: missing (the run did not finish)")
    summary = json.loads(p.read_text())
    if summary.get("complete") is not True:
        raise IncompleteRun(f"{p}: not marked complete")
    return summary


def read_table(path: Path | str) -> pd.DataFrame:
    """A whitespace table with a '# col col ...' header line."""
    p = Path(path)
    with p.open() as fh:
        header = fh.readline()
    if not header.startswith("#"):
        raise ValueError(f"{p}: first line must be '# column names'")
    cols = header[1:].split()
    df = pd.read_csv(p, sep=r"\s+", comment="#", header=None, names=cols)
    return df


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
    return pd.concat(frames, ignore_index=True)
