"""The one command-line contract of every paper's analysis and plot module.

An analysis step (``python -m analysis.<paper> STEP ...``) reads runs and tables and writes
a tidy table, the regenerated numbers, the checked claims and further tables; a plot step
(``python -m analysis.plots.<paper> ITEM ...``) reads those and writes a figure and its
LaTeX. Both take the same flags, and every value of the configuration a step needs comes in
through ``--params`` (a JSON object the workflow builds from the merged configuration,
``--config`` overrides included): no module opens ``config/`` behind the workflow's back.

    --params JSON     the configuration values the step reads (default: none)
    --runs P...       run folders or their summary.json (analysis)
    --inputs P...     tables or records other steps made (analysis)
    --tidy P          the tidy table: written by an analysis step, read by a plot step
    --extra DIR       further tables of the step (traces, model curves, ...), same roles
    --numbers P       regenerated numbers (key,value): written / read
    --claims P        the checked claims (key,holds,detail): written
    --originals P     the published numbers, config/originals/<paper>.yaml (plots; analysis
                      steps whose diagnosis checks compute from them)
    --pdf P           the figure (a PNG is written next to it) (plot)
    --tex P           the figure's or table's LaTeX (plot)
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable, Sequence
from pathlib import Path


def params_json(text: str) -> dict:
    """``--params``: a JSON object, inline."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        raise argparse.ArgumentTypeError(f"--params is not JSON: {e}") from e
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("--params must be a JSON object")
    return value


def _common(
    prog: str, description: str, steps: Iterable[str], name: str
) -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog=prog, description=description)
    ap.add_argument(name, choices=sorted(steps))
    ap.add_argument("--params", type=params_json, default={}, help="JSON object of config values")
    ap.add_argument("--tidy", type=Path)
    ap.add_argument("--extra", type=Path, help="folder of the step's further tables")
    ap.add_argument("--numbers", type=Path)
    return ap


def analysis_parser(prog: str, description: str, steps: Iterable[str]) -> argparse.ArgumentParser:
    ap = _common(prog, description, steps, "step")
    ap.add_argument("--runs", type=Path, nargs="*", default=[], help="run folders or summary.json")
    ap.add_argument("--inputs", type=Path, nargs="*", default=[], help="tables of other steps")
    ap.add_argument("--claims", type=Path, help="checked claims (key,holds,detail)")
    ap.add_argument(
        "--originals",
        type=Path,
        help="config/originals/<paper>.yaml (the paper's own numbers, for a step whose "
        "diagnosis check computes from them)",
    )
    return ap


def plot_parser(prog: str, description: str, items: Iterable[str]) -> argparse.ArgumentParser:
    ap = _common(prog, description, items, "item")
    ap.add_argument("--originals", type=Path, help="config/originals/<paper>.yaml")
    ap.add_argument("--pdf", type=Path, help="figure PDF (a PNG is written next to it)")
    ap.add_argument("--tex", type=Path, help="LaTeX of the figure or table")
    return ap


def parse(ap: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    return ap.parse_intermixed_args(argv)


def need(ap: argparse.ArgumentParser, args: argparse.Namespace, *flags: str) -> None:
    """Stop with a usage error naming every flag this step needs and did not get."""
    what = getattr(args, "step", None) or getattr(args, "item", "")
    missing = [f for f in flags if getattr(args, f.lstrip("-").replace("-", "_")) in (None, [])]
    if missing:
        ap.error(f"{what} needs {', '.join(missing)}")


def param(ap: argparse.ArgumentParser, args: argparse.Namespace, key: str) -> object:
    """One value of ``--params``; a usage error names the step and the key when it is absent."""
    if key not in args.params:
        what = getattr(args, "step", None) or getattr(args, "item", "")
        ap.error(f"{what} needs '{key}' in --params")
    return args.params[key]


def run_dirs(paths: Sequence[Path]) -> list[Path]:
    """Run folders from ``--runs`` (a folder or its summary.json)."""
    return [p.parent if p.name == "summary.json" else p for p in paths]


def extra_dir(ap: argparse.ArgumentParser, args: argparse.Namespace) -> Path:
    """``--extra`` as a folder that exists (made if needed)."""
    need(ap, args, "--extra")
    args.extra.mkdir(parents=True, exist_ok=True)
    return args.extra
