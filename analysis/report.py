"""Generated parts of the report that are not figures: build facts, the assumed
parameters of each paper, and the list of deviations beyond tolerance with their causes.

Usage (called by rules/report.smk)::

    python -m analysis.report --fidelity F --ns-id build/ns2/bin/ns.id \
        --diff paper/generated/diff.csv --out paper/generated PAPER ...
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections.abc import Sequence
from pathlib import Path

from analysis import config as ccr
from analysis.compare import VERDICTS, tex_escape

TITLES = {
    "akella2002": "Akella et al. 2002: selfish behaviour and the TCP game",
    "gao": "Gao, Jain, Schulman: fair and efficient router congestion control",
    "tang": "Tang, Wang, Hegde, Low: networks shared by Reno and Vegas/FAST",
    "misra": "Misra, Baras, Ott: generalized TCP congestion avoidance",
    "floyd1991": "Floyd 1991: connections with multiple congested gateways",
}


def _value_text(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return f"{v:g}" if isinstance(v, (int, float)) else str(v)


def assumptions_tex(config: dict, paper: str) -> str:
    rows = ccr.assumed(config, paper)
    out = [
        r"\begin{longtable}{@{}lrlp{0.5\linewidth}@{}}",
        r"\toprule parameter & value & status & reason \\ \midrule\endhead",
    ]
    for name, value, status, reason in rows:
        out.append(
            f"\\texttt{{{tex_escape(name)}}} & {tex_escape(_value_text(value))} & {status} & "
            f"{tex_escape(reason)} \\\\"
        )
    out += [r"\bottomrule", r"\end{longtable}", ""]
    return "\n".join(out)


def read_diff(path: Path) -> list[dict[str, str]]:
    with path.open() as fh:
        return list(csv.DictReader(fh))


def deviations_tex(config: dict, rows: list[dict[str, str]], papers: Sequence[str]) -> str:
    """Every number beyond tolerance, with the cause recorded in the paper's config."""
    off = [r for r in rows if r["verdict"] == "off" and r["paper"] in papers]
    counts = {v: sum(r["verdict"] == v for r in rows if r["paper"] in papers) for v in VERDICTS}
    out = [
        f"Of {sum(counts.values())} published numbers of the papers in this report, "
        f"{counts['ok']} are reproduced within tolerance, {counts['off']} are off and "
        f"{counts['missing']} are not regenerated yet.",
        "",
    ]
    if not off:
        out.append("No regenerated number is beyond its tolerance.")
        return "\n".join(out) + "\n"
    out += [
        r"\begin{longtable}{@{}p{0.3\linewidth}rrp{0.4\linewidth}@{}}",
        r"\toprule key & published & regenerated & likely cause \\ \midrule\endhead",
    ]
    for r in off:
        cause = config.get(r["paper"], {}).get("deviations", {}).get(r["key"])
        cause_tex = tex_escape(cause) if cause else r"\textit{no cause recorded yet}"
        out.append(
            f"{tex_escape(r['paper'] + ': ' + r['key'])} & {tex_escape(r['published'])} & "
            f"{tex_escape(r['regenerated'])} & {cause_tex} \\\\"
        )
    out += [r"\bottomrule", r"\end{longtable}", ""]
    return "\n".join(out)


def build_tex(fidelity: str, ns_id: str, series: list[str]) -> str:
    patches = ", ".join(f"\\texttt{{{tex_escape(s)}}}" for s in series)
    return (
        f"\\newcommand{{\\ccrFidelity}}{{{tex_escape(fidelity)}}}\n"
        f"\\newcommand{{\\ccrNsId}}{{\\texttt{{{tex_escape(ns_id)}}}}}\n"
        f"\\newcommand{{\\ccrPatches}}{{{patches}}}\n"
    )


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="generated report parts")
    ap.add_argument("--fidelity", required=True)
    ap.add_argument("--ns-id", type=Path, required=True)
    ap.add_argument("--diff", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("papers", nargs="+")
    a = ap.parse_args(argv)
    files = [ccr.ROOT / "config" / "config.yaml"]
    files += sorted((ccr.ROOT / "config" / "experiments").glob("*.yaml"))
    config = ccr.load(files)
    series = [
        line.strip()
        for line in (ccr.ROOT / "ns2-patches" / "series").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    a.out.mkdir(parents=True, exist_ok=True)
    (a.out / "build.tex").write_text(build_tex(a.fidelity, a.ns_id.read_text().strip(), series))
    for paper in a.papers:
        d = a.out / paper
        d.mkdir(parents=True, exist_ok=True)
        (d / "assumptions.tex").write_text(assumptions_tex(config, paper))
    (a.out / "deviations.tex").write_text(deviations_tex(config, read_diff(a.diff), a.papers))
    sections = [
        f"\\section{{{tex_escape(TITLES[p])}}}\\label{{sec:{p}}}\n\\input{{sections/{p}}}\n"
        for p in a.papers
    ]
    (a.out / "papers.tex").write_text("\n".join(sections))
    return 0


if __name__ == "__main__":
    sys.exit(main())
