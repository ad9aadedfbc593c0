"""Regenerated numbers: the files analysis steps write for analysis.compare."""

from __future__ import annotations

import csv
import math
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd


def write_numbers(numbers: Mapping[str, float | bool], path: Path) -> None:
    """Write ``key,value`` rows (sorted by key; NaN written as empty = missing)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["key", "value"])
        for k in sorted(numbers):
            v = numbers[k]
            if isinstance(v, bool):
                text = "true" if v else "false"
            elif v is None or (isinstance(v, float) and math.isnan(v)):
                text = ""
            else:
                text = f"{float(v):.10g}"
            w.writerow([k, text])


def write_claims(claims: Mapping[str, tuple[bool, str]], path: Path) -> None:
    """Write ``key,holds,detail`` rows: a paper's qualitative claim checked by a computed
    criterion (``detail`` says which, with the measured values)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["key", "holds", "detail"])
        for k in sorted(claims):
            holds, detail = claims[k]
            w.writerow([k, "true" if holds else "false", detail])


def write_tidy(tidy: pd.DataFrame, path: Path) -> None:
    """Write a tidy table as CSV, floats with 6 significant digits (stable across reruns)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tidy.to_csv(path, index=False, float_format="%.6g")
