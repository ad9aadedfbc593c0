"""Generated parts of the report that are not figures: build facts, the assumed
parameters of each paper, and why each number beyond tolerance differs (its diagnosis and
whether the diagnosis's computed check holds).

Usage (called by rules/report.smk, which passes each paper's assumed parameters, overrides
in ``--params``, see :func:`report_params`)::

    python -m analysis.report --fidelity F --ns-id build/ns2/bin/ns.id \
        --diff paper/generated/F/diff.csv --out paper/generated/F --params JSON PAPER ...
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import astuple
from pathlib import Path

from analysis import config as conf
from analysis import diagnosis as dg
from analysis import latex, nsrun, reference
from analysis.cli import params_json
from analysis.compare import (
    CLASSES,
    COUNTED,
    VERDICTS,
    Row,
    by_class,
    class_counts,
    gather,
    read_csv,
    status_counts,
)
from analysis.latex import CLASS_HEADINGS, tex_breakable, tex_escape


def _value_text(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return f"{v:g}" if isinstance(v, (int, float)) else str(v)


def assumptions_tex(rows: Sequence[Sequence]) -> str:
    """The parameters a paper does not state: (name, value, status, reason) rows."""
    out = [
        r"\begin{longtable}{@{}p{0.26\linewidth}p{0.1\linewidth}lp{0.42\linewidth}@{}}",
        r"\toprule parameter & value & status & reason \\ \midrule\endhead",
    ]
    for name, value, status, reason in rows:
        out.append(
            f"\\texttt{{{tex_breakable(name)}}} & {tex_breakable(_value_text(value))} & "
            f"{status} & "
            f"{tex_escape(reason)} \\\\"
        )
    out += [r"\bottomrule", r"\end{longtable}", ""]
    return "\n".join(out)


def _compact(v: object) -> str:
    """A value for a table cell; a long list as its length and range."""
    if isinstance(v, list) and len(v) > 4:
        return f"{len(v)} values {_value_text(v[0])}..{_value_text(v[-1])}"
    if isinstance(v, list):
        return ", ".join(_value_text(x) for x in v)
    return "--" if v is None else _value_text(v)


def overrides_tex(rows: Sequence[conf.Override]) -> str:
    """Every per-experiment value that differs from the paper-wide defaults, and what the
    report's fidelity level changes against the paper's own run counts and durations
    (:func:`analysis.config.overrides`)."""
    if not rows:
        return "No experiment overrides a paper-wide default.\n"
    out = [
        r"\begingroup\footnotesize\setlength{\tabcolsep}{3pt}",
        r"\begin{longtable}{@{}p{0.16\linewidth}p{0.16\linewidth}p{0.22\linewidth}"
        r"p{0.22\linewidth}p{0.18\linewidth}@{}}",
        r"\toprule experiment & parameter & instead of & value & set by \\ \midrule\endhead",
    ]
    for o in rows:
        where = "the experiment" if o.where == "experiment" else f"{o.where} fidelity only"
        cells = [o.experiment, o.name, _compact(o.default), _compact(o.value), where]
        out.append(" & ".join(tex_escape(c) for c in cells) + r" \\")
    out += [r"\bottomrule", r"\end{longtable}", r"\endgroup", ""]
    return "\n".join(out)


def summary_tex(rows: Sequence[Row], papers: Sequence[str]) -> str:
    """The headline: per paper, ok / off / missing of its published results and analytical
    values (the counted classes), and how many other rows were compared but not counted."""
    out = [
        r"\begin{tabular}{@{}l" + "rrr" * len(COUNTED) + r"r@{}}",
        r"\toprule & "
        + " & ".join(f"\\multicolumn{{3}}{{c}}{{{tex_escape(c)}}}" for c in COUNTED)
        + r" & not counted \\",
        "paper & " + " & ".join(["ok & off & missing"] * len(COUNTED)) + r" & rows \\ \midrule",
    ]
    for paper in [*papers, None]:
        mine = [r for r in rows if (r.paper == paper if paper else r.paper in papers)]
        counts = class_counts(mine)
        cells = [str(counts[c][v]) for c in COUNTED for v in VERDICTS]
        other = sum(sum(counts[c].values()) for c in CLASSES if c not in COUNTED)
        name = f"\\texttt{{{tex_escape(paper)}}}" if paper else "all"
        if paper is None:
            out.append(r"\midrule")
        out.append(" & ".join([name, *cells, str(other)]) + r" \\")
    out += [r"\bottomrule", r"\end{tabular}", ""]
    return "\n".join(out)


KIND_SHORT = {
    "unstated-parameter": "parameter",
    "alternative-reading": "reading",
    "paper-inconsistent": "paper",
    "simulator-gap": "simulator",
    dg.REDUCED_FIDELITY: "fidelity",
}


def status_tex(
    rows: Sequence[Row], papers: Sequence[str], refs: Mapping[str, Sequence[Row]] | None = None
) -> str:
    """Per paper, its published results (the counted classes) reproduced, explained by a
    diagnosis whose check holds (by kind) and unexplained; with ``refs`` (paper -> the rows of
    a recorded run at another fidelity), the same counts from that run in a second block."""
    refs = refs or {}
    kinds = list(KIND_SHORT)
    cols = ["reproduced", *(f"explained by {k}" for k in kinds), "unexplained"]
    heads = ["reproduced", *(KIND_SHORT[k] for k in kinds), "unexplained"]
    blocks = [("this build", {p: [r for r in rows if r.paper == p] for p in papers})]
    if refs:
        blocks.append(("recorded at paper fidelity", {p: list(refs.get(p, [])) for p in papers}))
    out = [
        r"\begin{tabular}{@{}l" + "r" * len(cols) + r"@{}}",
        f"\\toprule & & \\multicolumn{{{len(kinds)}}}{{c}}{{explained: "
        r"a computed check holds for its diagnosis} & \\",
        f"\\cmidrule(lr){{3-{2 + len(kinds)}}}",
        "paper & " + " & ".join(heads) + r" \\ \midrule",
    ]
    for name, by_paper in blocks:
        if len(blocks) > 1:
            out.append(f"\\multicolumn{{{len(cols) + 1}}}{{@{{}}l}}{{\\emph{{{name}}}}} \\\\")
        for paper in [*papers, None]:
            mine = [r for p in papers for r in by_paper[p]] if paper is None else by_paper[paper]
            if paper is not None and not mine:
                out.append(
                    f"\\texttt{{{tex_escape(paper)}}} & " + " & ".join(["--"] * len(cols)) + r" \\"
                )
                continue
            c = status_counts(mine)
            label = f"\\texttt{{{tex_escape(paper)}}}" if paper else "all"
            if paper is None:
                out.append(r"\midrule")
            out.append(" & ".join([label, *(str(c[k]) for k in cols)]) + r" \\")
    out += [r"\bottomrule", r"\end{tabular}", ""]
    return "\n".join(out)


def status_sentence(rows: Sequence[Row], where: str) -> str:
    """One sentence: the published results of ``rows`` reproduced, explained (by kind) and
    unexplained, ``where`` naming the build or the recorded run they come from."""
    c = status_counts(rows)
    kinds = [f"{c[f'explained by {k}']} {k}" for k in KIND_SHORT if c[f"explained by {k}"]]
    by = f" ({', '.join(kinds)})" if kinds else ""
    return (
        f"{where}: {c['reproduced']} of its published results reproduced, "
        f"{c['explained']} explained{by}, {c['unexplained']} unexplained."
    )


def reduced_fidelity_text(d: dg.Diagnosis | None, at_paper: Row | None) -> str:
    """What the "Why it differs" table says of a ``reduced-fidelity`` row: its own diagnosis
    does not hold at this fidelity, and the reference at paper fidelity (``at_paper``, its row
    there) reproduces or explains it."""
    own = f"its own diagnosis ({d.kind}) does not hold" if d else "it has no diagnosis"
    if at_paper is None:
        return (
            f"At this fidelity {own}; the reference recorded at paper fidelity reproduces or "
            "explains it, with more or longer runs than this fidelity's."
        )
    if at_paper.status == "reproduced":
        return (
            f"At this fidelity {own}; the reference recorded at paper fidelity reproduces it "
            f"({at_paper.regenerated}): the row differs here only through this fidelity's "
            "fewer or shorter runs."
        )
    return (
        f"At this fidelity {own}; the reference recorded at paper fidelity explains it "
        f"({at_paper.regenerated}; {at_paper.diagnosis}, its check {at_paper.check}): the "
        "diagnosis is decided there, on more or longer runs than this fidelity's."
    )


def why_tex(
    rows: Sequence[Row],
    diagnoses: Mapping[tuple[str, str], dg.Diagnosis],
    at_paper: Mapping[str, Row] | None = None,
) -> str:
    """One paper's "Why it differs" table: every published result not reproduced, with the
    kind of its diagnosis, what it names (the parameter and values tested, the quoted
    sentence, the paper's computation or the simulator's gap), the check that decides it, the
    check's value (the value under the tested alternative) and whether it holds; for a
    ``reduced-fidelity`` row (``at_paper``: key -> the row of the reference recorded at paper
    fidelity), what that reference says. Rows of the classes that are not counted follow,
    under their class."""
    at_paper = at_paper or {}
    off = [r for r in rows if r.verdict != "ok"]
    if not off:
        return "Every number of this paper is within its tolerance.\n"
    out = [
        r"\begingroup\footnotesize\setlength{\tabcolsep}{3pt}",
        r"\begin{longtable}{@{}p{0.3\linewidth}rrp{0.13\linewidth}rl@{}}",
        r"\toprule key & published & ours & diagnosis & check value & check \\ \midrule\endhead",
    ]
    for cls, group in by_class(off):
        out.append(f"\\multicolumn{{6}}{{@{{}}l}}{{\\emph{{{CLASS_HEADINGS[cls]}}}}} \\\\")
        for r in group:
            d = diagnoses.get((r.paper, r.key))
            check = tex_escape(r.check) if r.check else "--"
            if cls in COUNTED and r.status == "unexplained":
                check += r", \textbf{unexplained}"
            out.append(
                " & ".join(
                    [
                        tex_breakable(r.key),
                        tex_escape(r.published),
                        tex_escape(r.regenerated or "--"),
                        tex_breakable(r.diagnosis or "none"),
                    ]
                )
                + f" & {tex_escape(r.check_value or '--')} & {check} \\\\"
            )
            text = ""
            if r.diagnosis == dg.REDUCED_FIDELITY:
                text = reduced_fidelity_text(d, at_paper.get(r.key))
            elif d:
                text = (
                    f"{d.why} [{d.kind}: {d.detail}] Check: {d.says} "
                    f"({d.check} {d.criterion_text()})."
                )
            if text:
                out.append(
                    r"\multicolumn{6}{@{}p{0.95\linewidth}@{}}{\quad "
                    + tex_escape(text)
                    + r"} \\[2pt]"
                )
    out += [r"\bottomrule", r"\end{longtable}", r"\endgroup", ""]
    return "\n".join(out)


def build_tex(fidelity: str, ns_id: str, series: list[str], executor: str) -> str:
    """What the report says of its build: only what the results determine (the same results
    give the same bytes); what the build cost is in the build record (:func:`build_record`)."""
    patches = ", ".join(f"\\texttt{{{tex_escape(s)}}}" for s in series)
    return (
        f"\\newcommand{{\\reportFidelity}}{{{tex_escape(fidelity)}}}\n"
        f"\\newcommand{{\\reportNsId}}{{\\texttt{{{tex_escape(ns_id)}}}}}\n"
        f"\\newcommand{{\\reportPatches}}{{{patches}}}\n"
        f"\\newcommand{{\\reportExecutor}}{{{tex_escape(executor)}}}\n"
    )


def build_record(fidelity: str, executor: str, jobs: int, cpu_s: float) -> str:
    """The build record beside the report (build-cost.txt): measured, so it differs from
    build to build, and kept out of the PDF."""
    return (
        "# build record (measured: differs from build to build; not part of the report)\n"
        f"fidelity\t{fidelity}\nexecutor\t{executor}\njobs\t{jobs}\n"
        f"cpu_hours\t{cpu_hours(cpu_s)}\n"
    )


def cpu_hours(cpu_s: float) -> str:
    """CPU-hours as text: two decimals, or two significant digits below 0.1 h (a smoke build
    takes seconds, which two decimals would show as none)."""
    h = cpu_s / 3600
    return f"{h:.2f}" if h >= 0.1 else f"{h:.2g}"


def build_cost(benchmarks: Path, papers: Sequence[str], fidelity: str) -> tuple[int, float]:
    """The jobs that made this report's results and their CPU seconds, from the records each
    job leaves under ``benchmarks``: the ns fetch and build, and every job of ``papers`` at
    ``fidelity`` (a file under benchmarks/<paper>/ with the fidelity as a folder of its
    path). A job of ns runs logs its runs' own CPU (``<job>.cpu``, analysis.nsrun --cpu-log)
    and has no Snakemake benchmark file (Snakemake's sampling of each job's processes cost
    its main loop CPU, and missed much of short ns runs); every other job has a Snakemake
    benchmark file (``<job>.tsv``: cpu_time). Where a job has both (made before ns jobs
    dropped theirs), the larger counts. ValueError naming a benchmark file without a
    cpu_time column."""
    files = [benchmarks / "ns2_fetch.tsv", benchmarks / "build_ns.tsv"]
    for paper in papers:
        made = [
            f
            for f in (benchmarks / paper).rglob("*")
            if f.suffix in (".tsv", ".cpu") and fidelity in f.parts
        ]
        tsvs = {f.with_suffix("") for f in made if f.suffix == ".tsv"}
        files += [f for f in made if f.suffix == ".tsv" or f.with_suffix("") not in tsvs]
    jobs, cpu = 0, 0.0
    for f in sorted(files):
        if not f.is_file():
            continue
        sampled = nsrun.read_benchmark_cpu(f) if f.suffix == ".tsv" else 0.0
        log = f.with_suffix(".cpu")
        made_cpu = (
            sum(c for c, ran in nsrun.read_cpu_log(log).values() if ran) if log.is_file() else 0.0
        )
        jobs += 1
        cpu += max(sampled, made_cpu)
    return jobs, cpu


def report_params(config: dict, papers: Sequence[str], fidelity: str) -> dict:
    """What the report reads of the configuration, per paper (``--params``): the assumed
    parameters, the overrides at ``fidelity``, and its section title."""
    return {
        p: {
            "title": config[p]["title"],
            "assumed": [list(r) for r in conf.assumed(config, p)],
            "overrides": [list(astuple(o)) for o in conf.overrides(config, p, fidelity)],
            "items": [
                [it.name, it.kind, it.title, it.step, list(it.experiments)]
                for it in conf.items(config, p).values()
            ],
        }
        for p in papers
    }


def row_items(mine: Mapping, steps: Mapping[tuple[str, str], str]) -> dict[tuple[str, str], str]:
    """(paper, key) -> the names of the items that draw the step which wrote the number
    (``mine``: one paper's ``--params`` entry, its items table as rows)."""
    by_step: dict[str, list[str]] = {}
    for name, _kind, _title, step, _exps in mine["items"]:
        by_step.setdefault(step, []).append(name)
    return {k: ", ".join(by_step.get(s, [s])) for k, s in steps.items()}


def read_origins(paths: Sequence[Path]) -> dict[str, dict[str, dict[str, str]]]:
    """paper -> step -> its origin.json (analysis.bundle), each read from
    results/<paper>/<step>/<fidelity>/origin.json."""
    out: dict[str, dict[str, dict[str, str]]] = {}
    for p in paths:
        paper, step = p.parts[-4], p.parts[-3]
        out.setdefault(paper, {})[step] = json.loads(p.read_text())
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="generated report parts")
    ap.add_argument("--fidelity", required=True)
    ap.add_argument("--ns-id", type=Path, required=True)
    ap.add_argument("--executor", default="local", help="Snakemake's executor (local, slurm)")
    ap.add_argument("--benchmarks", type=Path, default=Path("benchmarks"))
    ap.add_argument("--diff", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--params", type=params_json, required=True, help="see report_params")
    ap.add_argument("--originals", type=Path, default=Path("config/originals"))
    ap.add_argument("--diagnoses", type=Path, default=Path("config/diagnoses"))
    ap.add_argument(
        "--files", type=Path, nargs="*", default=[], help="the numbers-*.csv and claims-*.csv"
    )
    ap.add_argument(
        "--references",
        type=Path,
        nargs="*",
        default=[],
        help="paper/reference/<paper>-<fidelity>.csv of other fidelities, shown beside",
    )
    ap.add_argument(
        "--origins",
        type=Path,
        nargs="*",
        default=[],
        help="each step's origin.json (results/<paper>/<step>/<fidelity>/origin.json)",
    )
    ap.add_argument("papers", nargs="+")
    a = ap.parse_intermixed_args(argv)
    missing = [p for p in a.papers if p not in a.params]
    if missing:
        ap.error(f"--params has no entry for {', '.join(missing)}")
    series = [
        line.strip()
        for line in (conf.ROOT / "ns2-patches" / "series").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    a.out.mkdir(parents=True, exist_ok=True)
    origins = read_origins(a.origins)
    try:
        jobs, cpu_s = build_cost(a.benchmarks, a.papers, a.fidelity)
    except ValueError as e:
        ap.error(str(e))
    ns_id = a.ns_id.read_text().strip()
    (a.out / "build.tex").write_text(build_tex(a.fidelity, ns_id, series, a.executor))
    (a.out / "build-cost.txt").write_text(build_record(a.fidelity, a.executor, jobs, cpu_s))
    for paper in a.papers:
        d = a.out / paper
        d.mkdir(parents=True, exist_ok=True)
        mine = a.params[paper]
        (d / "assumptions.tex").write_text(assumptions_tex(mine["assumed"]))
        rows = [conf.Override(*o) for o in mine["overrides"]]
        (d / "overrides.tex").write_text(overrides_tex(rows))
        (d / "items.tex").write_text(latex.items_tex(mine["items"], origins.get(paper, {})))
    rows = read_csv(a.diff)
    try:
        g = gather(a.originals, a.files, a.papers, a.diagnoses)
    except ValueError as e:
        ap.error(str(e))
    refs: dict[str, reference.Reference] = {}
    for f in a.references:
        try:
            ref = reference.read(f)
        except ValueError as e:
            ap.error(str(e))
        if ref.meta["fidelity"] == a.fidelity or ref.meta["paper"] not in a.papers:
            continue
        if ref.meta["paper"] in refs:
            ap.error(f"two references of {ref.meta['paper']} given: choose one fidelity")
        refs[ref.meta["paper"]] = ref
    for paper in a.papers:
        d = a.out / paper
        mine = [r for r in rows if r.paper == paper]
        ref = refs.get(paper)
        items = row_items(a.params[paper], g.steps)
        if ref is None:
            table = latex.tex_table(mine, items)
        else:
            note = latex.reference_note(ref.meta, mine, ref.rows, reference.moved(mine, ref))
            table = note + latex.tex_table(mine, items, ref.by_key(), ref.meta["fidelity"])
        (d / "diff.tex").write_text(table)
        status = status_sentence(mine, f"This build ({a.fidelity} fidelity)")
        if ref is not None:
            ref_fid = ref.meta["fidelity"]
            status += " " + status_sentence(ref.rows, f"The recorded run at {ref_fid} fidelity")
        (d / "summary.tex").write_text(latex.tex_summary(mine) + "\n" + tex_escape(status) + "\n")
        claims = [c for c in g.claims if c.paper == paper]
        (d / "claims.tex").write_text(latex.claims_tex(claims, g.claim_results))
        shown = ref.by_key() if ref is not None and ref.meta["fidelity"] == "paper" else None
        (d / "why.tex").write_text(why_tex(mine, g.diagnoses, shown))
    (a.out / "numbers.tex").write_text(latex.tex_macros(g.originals, g.numbers))
    (a.out / "summary.tex").write_text(summary_tex(rows, a.papers))
    ref_rows = {p: ref.rows for p, ref in refs.items()}
    (a.out / "status.tex").write_text(status_tex(rows, a.papers, ref_rows))
    sections = [
        f"\\section{{{tex_escape(a.params[p]['title'])}}}\\label{{sec:{p}}}\n\\input{{sections/{p}}}\n"
        for p in a.papers
    ]
    (a.out / "papers.tex").write_text("\n".join(sections))
    return 0


if __name__ == "__main__":
    sys.exit(main())
