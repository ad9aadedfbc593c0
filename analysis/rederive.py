"""A paper's reference rows derived again from the current build, the recorded run's cost kept.

A reference (analysis.reference) records a run: its rows and what making them cost. A change
that moves analysis steps only (a new check computed from the same runs, say) changes rows
without changing the runs. On a paper whose runs take hours, ``make bundle-update`` rebuilds
such a change at paper fidelity in minutes: the changed jobs made from runs, the unchanged ones
restored from the bundle. This module rewrites the paper's reference (each part of it, for a
paper recorded in batches) with the rows of that build, keeps each part's recorded commit,
times and jobs, appends the build's commit to its commits (the code that made its numbers)
and adds ``# rows_from: <commit> <date>``, the build the rows come from.

    python -m analysis.rederive PAPER [--fidelity paper]

It refuses a checkout with uncommitted changes, and a build that is not current or not the
bundle's: a dry run of the paper's steps with ``bundle=strict`` must have nothing to do. A
later ``reference make --steps`` records its part anew (without ``rows_from``) and assembles
the reference from the parts, so the assembled file names ``rows_from`` only while a part does.

Kept apart from analysis.reference and analysis.latex, which analysis steps and diagrams
import: a change here leaves their provenance, and so the bundle, as it is.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from analysis import config as conf
from analysis import reference as ref_mod
from analysis.compare import gather, paper_rows

#: the header line naming the build a reference's rows were derived again from
ROWS_FROM = "rows_from"


def write(ref: ref_mod.Reference, out: Path) -> None:
    """:func:`analysis.reference.write`, with the ``rows_from`` line at the header's end."""
    ref_mod.write(ref, out)
    stamp = ref.meta.get(ROWS_FROM)
    if stamp:
        lines = out.read_text().splitlines(keepends=True)
        k = next(i for i, line in enumerate(lines) if not line.startswith("# "))
        out.write_text("".join([*lines[:k], f"# {ROWS_FROM}: {stamp}\n", *lines[k:]]))


def _stamped(meta: dict[str, str], stamp: str) -> dict[str, str]:
    """``meta`` with the build's commit (the first word of ``stamp``) last among its commits
    and ``rows_from`` = ``stamp``; times, jobs and the rest as recorded. An earlier
    ``rows_from``'s commit, which made the rows replaced, leaves the list."""
    earlier = meta.get(ROWS_FROM, "").split()[:1]
    commits = [*(c for c in meta["commit"].split() if c not in earlier), stamp.split()[0]]
    return {**meta, "commit": " ".join(dict.fromkeys(commits)), ROWS_FROM: stamp}


def rederive(root: Path, paper: str, fidelity: str, stamp: str) -> ref_mod.Reference:
    """PAPER's reference with its rows derived again from the numbers this checkout's build
    wrote at FIDELITY (``paper/generated/<fidelity>/<paper>/numbers-*.csv``), each part's (or
    the whole run's) cost kept, ``stamp`` (the build's commit and date) added
    (:func:`_stamped`). The parts are rewritten in place; the reference is returned."""
    whole = ref_mod.read(root / ref_mod.reference_path(paper, fidelity))
    # below paper fidelity, a row the paper-fidelity reference reproduces or explains is
    # reduced-fidelity, as in the build's diff.csv (analysis.compare.diff_rows)
    at_paper = (
        None if fidelity == "paper" else paper_rows([root / ref_mod.reference_path(paper, "paper")])
    )
    if "parts" in whole.meta:
        if at_paper is not None:
            raise ValueError(
                f"{paper} at {fidelity}: a reference recorded in parts is derived again only at "
                "paper fidelity; record it again (scripts/paper-fidelity.sh)"
            )
        for f in sorted((root / ref_mod.PARTS_DIR).glob(f"{paper}-{fidelity}.*.csv")):
            part = ref_mod.read(f)
            rows = ref_mod.part_rows(root, paper, part.meta["steps"].split(), fidelity)
            write(ref_mod.Reference(_stamped(part.meta, stamp), rows), f)
        out = ref_mod.assemble(root, paper, fidelity)
        return ref_mod.Reference({**out.meta, ROWS_FROM: stamp}, out.rows)
    gen = root / conf.generated_dir(fidelity) / paper
    g = gather(root / "config" / "originals", sorted(gen.glob("numbers-*.csv")), [paper])
    return ref_mod.Reference(_stamped(whole.meta, stamp), g.rows(at_paper))


def current(root: Path, paper: str, fidelity: str) -> str | None:
    """None when the build of PAPER at FIDELITY is current and the bundle's (a dry run of its
    steps with ``bundle=strict`` has nothing to do), else why not (the dry run's end)."""
    smk = Path(sys.executable).with_name("snakemake")
    steps = ref_mod.paper_steps(root, paper, fidelity)
    # and every numbers file the rows are derived from (a paper's own rules' too, which no
    # step makes: the joint NE profiles' checks, say)
    gen = root / conf.generated_dir(fidelity) / paper
    targets = [
        *ref_mod.step_targets(root, paper, steps, fidelity),
        *(str(f.relative_to(root)) for f in sorted(gen.glob("numbers-*.csv"))),
    ]
    cfg = ["--config", f"fidelity={fidelity}", f"papers=[{paper}]", "bundle=strict"]
    dry = subprocess.run([str(smk), "-n", *targets, *cfg], cwd=root, capture_output=True, text=True)
    said = dry.stdout + dry.stderr
    return None if dry.returncode == 0 and "Nothing to be done" in said else said[-2000:]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m analysis.rederive",
        description="derive a paper's reference rows again from the current build (made with "
        "make bundle-update), keeping the recorded run's cost",
    )
    ap.add_argument("paper")
    ap.add_argument("--fidelity", default="paper")
    a = ap.parse_args(argv)
    root = Path(__file__).resolve().parent.parent
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no", "--", *ref_mod.TRACKED],
        cwd=root, capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    if dirty:
        sys.stderr.write(f"rederive: uncommitted changes, commit them first:\n{dirty}\n")
        return 1
    why = current(root, a.paper, a.fidelity)
    if why is not None:
        sys.stderr.write(
            f"rederive: the {a.fidelity}-fidelity build of {a.paper} is not current or not the "
            f"bundle's (make bundle-update FIDELITY={a.fidelity} first):\n{why}\n"
        )
        return 1
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True
    ).stdout.strip()
    stamp = f"{commit} {time.strftime('%Y-%m-%d', time.gmtime())}"
    out = root / ref_mod.reference_path(a.paper, a.fidelity)
    ref = rederive(root, a.paper, a.fidelity, stamp)
    write(ref, out)
    sys.stdout.write(f"{out.relative_to(root)}: {len(ref.rows)} rows derived again ({stamp})\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
