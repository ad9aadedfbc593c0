"""The README's generated tables: results per paper and time per fidelity, never typed.

Both come from the recorded references, ``paper/reference/<paper>-<fidelity>.csv``
(:mod:`analysis.reference`): the results table counts each paper's published results (the
counted classes, :func:`analysis.compare.counted_verdicts`, as the report's headline does) as
ok / off / missing at quick and at paper (a fidelity with no reference: "not recorded"); the
time table gives the wall and CPU time, the jobs and the attempts each recorded run took.
Each table sits in README.md between ``<!-- BEGIN name -->`` and ``<!-- END name -->``.

Usage::

    python -m analysis.readme_table [--readme README.md] [--check]
        rewrite the README's generated blocks from paper/reference/ (--check: write
        nothing, exit 1 if a block differs from what would be written)
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from analysis import reference
from analysis.compare import status_counts
from analysis.config import paper_keys, read_yaml

ROOT = Path(__file__).resolve().parent.parent
#: the fidelities whose recorded diffs the README shows, in its columns' order
FIDELITIES = ("quick", "paper")
NOT_RECORDED = "not recorded"


def ordered_papers(root: Path) -> list[tuple[str, str]]:
    """(key, title) of every paper, in the report's order (each file's ``order``)."""
    found = []
    for key in paper_keys(root):
        spec = read_yaml(root / "config" / "experiments" / f"{key}.yaml")
        entry = spec.get(key, {}) if isinstance(spec, dict) else {}
        found.append((int(entry.get("order", 0)), key, str(entry.get("title", key))))
    return [(key, title) for _, key, title in sorted(found)]


def recorded(root: Path, paper: str, fidelity: str) -> reference.Reference | None:
    path = root / reference.reference_path(paper, fidelity)
    return reference.read(path) if path.is_file() else None


def _counts(ref: reference.Reference | None) -> str:
    if ref is None:
        return NOT_RECORDED
    c = status_counts(ref.rows)
    text = f"{c['reproduced']} / {c['explained']} / {c['unexplained']}"
    missing = ref.meta.get("steps_missing", "").split()
    steps = "step" if len(missing) == 1 else "steps"
    return text + (f" ({len(missing)} {steps} not recorded)" if missing else "")


def results_table(root: Path) -> str:
    cols = "reproduced / explained / unexplained"
    head = "| paper | " + " | ".join(f"at {f}: {cols}" for f in FIDELITIES) + " |"
    lines = [head, "|---|" + "---|" * len(FIDELITIES)]
    for key, title in ordered_papers(root):
        cells = [_counts(recorded(root, key, f)) for f in FIDELITIES]
        lines.append(f"| `{key}`: {title} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _minutes(seconds: str) -> str:
    return f"{float(seconds) / 60:,.1f} min"


def cost_table(root: Path) -> str:
    lines = [
        "| paper | fidelity | wall | CPU | jobs | attempts | date | commit |",
        "|---|---|---:|---:|---:|---:|---|---|",
    ]
    total: dict[str, list[float]] = {}
    for key, _ in ordered_papers(root):
        for f in FIDELITIES:
            ref = recorded(root, key, f)
            if ref is None:  # only recorded runs: "not recorded" is in the results table
                continue
            m = ref.meta
            commits = " ".join(c[:7] for c in m["commit"].split())
            lines.append(
                f"| `{key}` | {f} | {_minutes(m['wall_s'])} | {_minutes(m['cpu_s'])} "
                f"| {int(m['jobs']):,} | {m.get('attempts', '1')} | {m['date']} | {commits} |"
            )
            t = total.setdefault(f, [0.0, 0.0, 0.0, 0.0])
            t[0] += float(m["wall_s"])
            t[1] += float(m["cpu_s"])
            t[2] += int(m["jobs"])
            t[3] += 1
    for f, (wall, cpu, jobs, n) in total.items():
        lines.append(
            f"| all recorded ({int(n)}) | {f} | {wall / 3600:.2f} h | {cpu / 3600:.2f} h "
            f"| {int(jobs):,} | | | |"
        )
    return "\n".join(lines) + "\n"


#: block name -> what writes it
BLOCKS: dict[str, Callable[[Path], str]] = {"results": results_table, "cost": cost_table}


def _block(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- BEGIN {name} [^\n]*-->\n)(.*?)(<!-- END {name} -->)", re.DOTALL)


def render(text: str, root: Path) -> str:
    """``text`` (a README) with every generated block rewritten; ValueError if one is absent."""
    for name, make in BLOCKS.items():
        pattern = _block(name)
        if not pattern.search(text):
            raise ValueError(f"no '<!-- BEGIN {name} ... -->' ... '<!-- END {name} -->' block")
        body = make(root)
        text = pattern.sub(lambda m, body=body: m.group(1) + body + m.group(3), text, count=1)
    return text


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m analysis.readme_table",
        description="rewrite the README's generated tables from paper/reference/",
    )
    ap.add_argument("--readme", type=Path, default=ROOT / "README.md")
    ap.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if a block is stale"
    )
    a = ap.parse_args(argv)
    text = a.readme.read_text()
    try:
        new = render(text, a.readme.resolve().parent)
    except ValueError as e:
        print(f"readme_table: {a.readme}: {e}", file=sys.stderr)
        return 2
    if a.check:
        if new != text:
            print(f"readme_table: {a.readme} is stale: run python -m analysis.readme_table")
            return 1
        return 0
    if new != text:
        a.readme.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
