"""Reading ns outputs into pandas: the only module that knows the run formats.

A run folder (written by tcl/lib/results.tcl) holds ``summary.json`` and whitespace
tables ``<name>.tsv`` whose first line is ``# col col ...``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pandas is imported where a DataFrame is made: short jobs start fast
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
