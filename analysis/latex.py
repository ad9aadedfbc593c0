"""Every piece of LaTeX the report's generated parts share: escaping, the diff and claims
tables, the value macros, the figure environment and the trace that ends each caption. The
diff (:mod:`analysis.compare`) and the analysis steps write no LaTeX; the report
(:mod:`analysis.report`) and the plot modules write theirs with these.

The report is built by running pdflatex until its auxiliary files (labels, contents,
bookmarks) no longer change, judged by their content (``latexmk`` judges by time and size first,
and a contents file rewritten within the same second at the same size made it stop one run
early now and then: the same sources gave two PDFs):

    python -m analysis.latex pdf --jobname report-quick --pretex '...' paper/report.tex

The built report's LaTeX log is checked for text that runs into the margin or the next column
(``make smoke`` does this after the smoke report; exit status 1 with each box named):

    python -m analysis.latex overfull paper/report-smoke.log
"""

from __future__ import annotations

import argparse
import hashlib
import re
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from analysis.compare import (
    CLASSES,
    COUNTED,
    Claim,
    Published,
    Row,
    by_class,
    class_counts,
    counted_verdicts,
    fmt_beside,
    fmt_published,
)


def tex_escape(s: str) -> str:
    repl = {
        "\\": r"\textbackslash{}",
        "&": r"\&",
        "%": r"\%",
        "$": r"\$",
        "#": r"\#",
        "_": r"\_",
        "{": r"\{",
        "}": r"\}",
        "~": r"\textasciitilde{}",
        "^": r"\textasciicircum{}",
        "<": r"\textless{}",
        ">": r"\textgreater{}",
    }
    return "".join(repl.get(c, c) for c in s)


def tex_breakable(s: str) -> str:
    """``s`` escaped for a narrow paragraph (p) cell of a table: a line may break after each
    '.' and '/' (and after '_', by the report's \\_), and the cell's first word may
    hyphenate (TeX hyphenates no word that has no glue before it, hence the \\hspace{0pt}).
    Keys such as ``derived.exp3.readingii.b.link1_share`` then wrap instead of running into
    the next column."""
    out = tex_escape(s).replace(".", r".\allowbreak{}").replace("/", r"/\allowbreak{}")
    return r"\hspace{0pt}" + out if out else out


#: how each class is headed in the report's tables
CLASS_HEADINGS = {
    "published-result": "Published results (counted)",
    "published-analytical": "Published analytical values (counted)",
    "calibrated": "Calibrated: used to choose an unstated parameter (not counted)",
    "stated-parameter": "Stated parameters echoed from the config (not counted)",
    "derived": "Derived by us from the paper's equations (model checks, not counted)",
}


MARK = {"ok": r"\textsc{ok}", "off": r"\textbf{off}", "missing": r"\textit{missing}"}


def tex_table(
    rows: Sequence[Row],
    items: Mapping[tuple[str, str], str] | None = None,
    reference: Mapping[str, Row] | None = None,
    reference_fidelity: str = "",
) -> str:
    """A longtable of one paper's rows, grouped by class (the counted classes first) and,
    within a class, by the items that show each number (``items``: (paper, key) -> item
    names, from the items table and the step that wrote the number; '--': not regenerated).
    With ``reference`` (key -> the row of a recorded run at ``reference_fidelity``), its
    regenerated value and verdict in two more columns ('--': the reference has no such row)."""
    items = items or {}
    ref = reference is not None
    cols = 9 if ref else 7
    head = r"key & item & published & regenerated & unit & tolerance & verdict"
    if ref:
        head += f" & at {tex_escape(reference_fidelity)} & verdict"
    out = [
        # a smaller font, narrower gaps and wrapped key, item, unit and tolerance columns keep
        # the table on the page
        r"\begingroup\footnotesize\setlength{\tabcolsep}{3pt}",
        r"\begin{longtable}{@{}p{"
        + ("0.22" if ref else "0.28")
        + r"\linewidth}p{0.09\linewidth}rrp{0.07\linewidth}p{0.09\linewidth}l"
        + ("rl" if ref else "")
        + "@{}}",
        r"\toprule",
        head + r" \\",
        r"\midrule\endhead",
    ]
    for cls, mine in by_class(rows):
        out.append(f"\\multicolumn{{{cols}}}{{@{{}}l}}{{\\emph{{{CLASS_HEADINGS[cls]}}}}} \\\\")
        keyed = [(items.get((r.paper, r.key), "--"), i, r) for i, r in enumerate(mine)]
        for item, _, r in sorted(keyed, key=lambda x: (x[0] == "--", x[0], x[1])):
            line = " & ".join(
                [
                    tex_breakable(r.key),
                    tex_breakable(item),
                    tex_escape(r.published),
                    tex_escape(r.regenerated),
                    tex_breakable(r.unit),
                    tex_breakable(r.tolerance),
                ]
            )
            line += f" & {MARK[r.verdict]}"
            if ref:
                theirs = (reference or {}).get(r.key)
                line += (
                    f" & {tex_escape(theirs.regenerated)} & {MARK[theirs.verdict]}"
                    if theirs
                    else " & -- & --"
                )
            out.append(line + r" \\")
    out += [r"\bottomrule", r"\end{longtable}", r"\endgroup", ""]
    return "\n".join(out)


def reference_note(
    meta: Mapping[str, str], own: Sequence[Row], theirs: Sequence[Row], moved: Sequence
) -> str:
    """Where the reference columns of a diff table come from, and what moved: its fidelity,
    commit, ns identity, wall and CPU time, jobs and date; the published results' ok / off /
    missing here and there; every key whose verdict differs (``moved``: (own, theirs))."""
    here, there = counted_verdicts(own), counted_verdicts(theirs)
    fid, ns = (tex_escape(meta[k]) for k in ("fidelity", "ns_id"))
    commits = meta["commit"].split()  # a run made in batches lists each batch's commit
    commit = ("commits " if len(commits) > 1 else "commit ") + ", ".join(
        f"\\texttt{{{tex_escape(c[:12])}}}" for c in commits
    )
    wall_h, cpu_h = float(meta["wall_s"]) / 3600, float(meta["cpu_s"]) / 3600
    n = int(meta.get("attempts", "1"))
    over = f" in all over {n} runs (resumed)" if n > 1 else ""
    if "parts" in meta:
        over = f" in all over {n} runs in {tex_escape(meta['parts'])} batches of steps"
    not_yet = meta.get("steps_missing", "")
    out = [
        f"\\paragraph{{At {fid} fidelity.}} The last two columns of the table below are a "
        f"recorded run of this paper at {fid} fidelity (\\texttt{{paper/reference/}}), not this "
        f"build: {commit}, ns \\texttt{{{ns}}}, {wall_h:.2f}\\,h wall, "
        f"{cpu_h:.2f}\\,CPU-h{over}, {tex_escape(meta['jobs'])} jobs, {tex_escape(meta['date'])}. ",
        *(
            [
                f"It does not hold every step yet: not recorded at {fid} fidelity are the steps "
                f"{tex_escape(', '.join(not_yet.split()))}, whose rows show --, and its counts are "
                "over the rows it holds. "
            ]
            if not_yet
            else []
        ),
        f"Published results ok / off / missing: {' / '.join(str(here[v]) for v in MARK)} here, "
        f"{' / '.join(str(there[v]) for v in MARK)} there.",
    ]
    if moved:
        keys = ", ".join(
            f"\\texttt{{{tex_escape(o.key)}}} ({o.verdict} $\\to$ {t.verdict})" for o, t in moved
        )
        out.append(f" Verdicts that differ: {keys}.")
    else:
        out.append(" No verdict differs.")
    return "".join(out) + "\n"


def tex_summary(rows: Sequence[Row]) -> str:
    """A small table: ok / off / missing per class; the counted classes first."""
    counts = class_counts(rows)
    out = [
        r"\begin{tabular}{@{}lrrr@{}}",
        r"\toprule class & ok & off & missing \\ \midrule",
    ]
    for cls in CLASSES:
        c = counts[cls]
        if not sum(c.values()):
            continue
        name = tex_escape(cls) + (" (counted)" if cls in COUNTED else "")
        out.append(f"{name} & {c['ok']} & {c['off']} & {c['missing']} \\\\")
    out += [r"\bottomrule", r"\end{tabular}", ""]
    return "\n".join(out)


def tex_macros(originals: Iterable[Published], numbers: dict[tuple[str, str], str]) -> str:
    """\\regen{paper}{key} and \\published{paper}{key} values for the report text."""
    out = []
    for pub in originals:
        # prose sets ours beside the published value: to its precision (compare.fmt_beside)
        reg = fmt_beside(numbers.get((pub.paper, pub.key)), pub) or "--"
        cs = f"{pub.paper}@{pub.key}"
        out.append(f"\\expandafter\\def\\csname reportpub@{cs}\\endcsname{{{fmt_published(pub)}}}")
        out.append(f"\\expandafter\\def\\csname reportreg@{cs}\\endcsname{{{tex_escape(reg)}}}")
    return "\n".join(out) + "\n"


def claims_tex(claims: Sequence[Claim], results: dict[tuple[str, str], tuple[bool, str]]) -> str:
    """The paper's qualitative claims, each with its computed verdict."""
    out = [
        r"\begin{longtable}{@{}p{0.34\linewidth}p{0.12\linewidth}p{0.46\linewidth}@{}}",
        r"\toprule claim & verdict & criterion and values \\ \midrule\endhead",
    ]
    for c in claims:
        res = results.get((c.paper, c.key))
        if res is None:
            verdict, detail = r"\textit{not checked}", ""
        else:
            verdict = r"\textsc{holds}" if res[0] else r"\textbf{fails}"
            detail = tex_escape(res[1])
        out.append(
            f"{tex_escape(c.statement)} {{\\footnotesize ({tex_escape(c.source)})}} & "
            f"{verdict} & {{\\footnotesize {detail}}} \\\\"
        )
    out += [r"\bottomrule", r"\end{longtable}", ""]
    return "\n".join(out)


def trace_tex(trace: Mapping | None, rule: str, script: str) -> str:
    """The end of a caption: where the figure or table comes from. With the workflow's trace
    (``--params`` key ``trace``): the item, the fidelity it was made at, its analysis step,
    the experiments and Tcl scripts of its runs, the rule, the script and the config keys
    that set it."""
    if not trace:
        return (
            f"\\emph{{Made by rule \\texttt{{{tex_escape(rule)}}}, "
            f"script \\texttt{{{tex_escape(script)}}}.}}"
        )

    def tt(values: Sequence[str]) -> str:
        return ", ".join(f"\\texttt{{{tex_escape(v)}}}" for v in values) or "none"

    return (
        f"\\emph{{Item \\texttt{{{tex_escape(trace['item'])}}}, made at "
        f"{tex_escape(trace['fidelity'])} fidelity: step "
        f"\\texttt{{{tex_escape(trace['step'])}}}, experiments {tt(trace['experiments'])} "
        f"(Tcl {tt(trace['tcl'])}); rule \\texttt{{{tex_escape(trace['rule'])}}}, script "
        f"\\texttt{{{tex_escape(script)}}}; config {tt(trace['config'])}.}}"
    )


def figure(rel_pdf: str, caption: str, trace: str, label: str) -> str:
    """A figure environment: the PDF (path relative to paper/), the caption and its trace."""
    return (
        "\\begin{figure}[htbp]\n\\centering\n"
        f"\\includegraphics[width=0.8\\linewidth]{{{rel_pdf}}}\n"
        f"\\caption{{{caption} {trace}}}\n"
        f"\\label{{{label}}}\n\\end{{figure}}\n"
    )


def made_from(origin: Mapping[str, str] | None) -> str:
    """Where a step's outputs come from, in words (its origin.json, analysis.bundle): this
    build's runs, the bundle (restored), or this build from the bundle's outputs of the steps
    it reads; "this build" for a step with no origin (a paper's own rule: a model, or other
    steps' tables)."""
    if not origin:
        return "this build"
    if origin.get("from") == "bundle":
        return f"bundle ({origin.get('commit', '')[:7]}, {origin.get('date', '')})"
    if origin.get("inputs") == "bundle":
        return f"this build, from bundled inputs ({origin.get('commit', '')[:7]})"
    return "this build's runs"


def items_tex(
    items: Sequence[Sequence], origins: Mapping[str, Mapping[str, str]] | None = None
) -> str:
    """What a paper's section regenerates, from its items table: one row per item (name,
    kind, title, the analysis step it draws and the experiments whose runs that step reads;
    a step without runs is the paper's model alone), and where its step's outputs were made
    (``origins``: step -> its origin.json, :func:`made_from`)."""
    origins = origins or {}
    out = [
        "This section regenerates the following items (the paper's items table, "
        "\\texttt{items} in its configuration file). \\emph{Made from}: this build's ns runs, "
        "or the fidelity's bundle of run outputs (\\texttt{paper/bundle}, its commit and date).",
        "",
        # every column wraps, so that long item and step names stay on the page
        r"\begingroup\setlength{\tabcolsep}{4pt}",
        r"\begin{longtable}{@{}p{0.12\linewidth}p{0.07\linewidth}p{0.3\linewidth}"
        r"p{0.11\linewidth}p{0.17\linewidth}p{0.13\linewidth}@{}}",
        r"\toprule item & kind & title & step & experiments & made from \\ \midrule\endhead",
    ]
    for name, kind, title, step, experiments in items:
        if kind == "claims":
            exps = "the other steps' tables"
        else:
            exps = ", ".join(experiments) if experiments else "none: the model only"
        # the title is prose, which wraps at its spaces; the names may need breaks
        cells = [tex_breakable(str(name)), tex_breakable(str(kind)), tex_escape(str(title))]
        cells += [tex_breakable(str(step)), tex_breakable(exps)]
        cells.append(tex_escape(made_from(origins.get(str(step)))))
        out.append(" & ".join(cells) + r" \\")
    out += [r"\bottomrule", r"\end{longtable}", r"\endgroup", ""]
    return "\n".join(out)


#: a box TeX could not fit in its line or column, as the log reports it
OVERFULL = re.compile(r"^Overfull \\[hv]box \(.*$", re.MULTILINE)


def overfull_boxes(log: str) -> list[str]:
    """The log line of every overfull box a LaTeX log reports (its width over and its source
    lines): text that ran into the margin or into the next column of a table."""
    return OVERFULL.findall(log)


#: the files a LaTeX run writes for the next one to read: labels, contents, bookmarks, lists
AUXILIARY = (".aux", ".toc", ".out", ".lof", ".lot")
#: the runs after which a document whose auxiliary files still change is an error
MAX_RUNS = 5


class LatexError(RuntimeError):
    """pdflatex failed, or the document's auxiliary files did not settle."""


def _auxiliary_state(folder: Path, jobname: str) -> dict[str, str]:
    """suffix -> sha256 of each auxiliary file of the job that exists."""
    state = {}
    for suffix in AUXILIARY:
        f = folder / f"{jobname}{suffix}"
        if f.is_file():
            state[suffix] = hashlib.sha256(f.read_bytes()).hexdigest()
    return state


def build_pdf(tex: Path, jobname: str, pretex: str = "", max_runs: int = MAX_RUNS) -> int:
    """Build ``<jobname>.pdf`` beside ``tex`` from scratch: the job's auxiliary files are
    removed, then pdflatex runs until a run leaves them as it found them (by content), so
    the same sources always take the same runs and give the same bytes. ``pretex`` is TeX
    read before the document (e.g. a macro it tests). Returns the number of runs; raises
    :class:`LatexError` with the log's error lines if a run fails, or if the auxiliary files
    still change after ``max_runs`` runs."""
    folder = tex.parent
    for suffix in AUXILIARY:
        (folder / f"{jobname}{suffix}").unlink(missing_ok=True)
    cmd = ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", f"-jobname={jobname}"]
    cmd.append(f"{pretex}\\input{{{tex.name}}}")
    before = _auxiliary_state(folder, jobname)
    for run in range(1, max_runs + 1):
        done = subprocess.run(cmd, cwd=folder, capture_output=True, text=True, errors="replace")
        print(done.stdout, end="")
        if done.returncode != 0:
            log = folder / f"{jobname}.log"
            text = log.read_text(encoding="latin-1") if log.is_file() else done.stdout
            errors = [line for line in text.splitlines() if line.startswith("!")]
            raise LatexError(f"pdflatex run {run} of {tex} failed: " + "; ".join(errors))
        after = _auxiliary_state(folder, jobname)
        if after == before:
            return run
        before = after
    raise LatexError(f"{tex}: its auxiliary files still change after {max_runs} pdflatex runs")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="build the report, or check a built report's log")
    sub = ap.add_subparsers(dest="command", required=True)
    pdf = sub.add_parser("pdf", help="build a PDF with pdflatex until its labels settle")
    pdf.add_argument("tex", type=Path, help="the document (its folder is the working folder)")
    pdf.add_argument("--jobname", required=True, help="the name of the PDF and its files")
    pdf.add_argument("--pretex", default="", help="TeX read before the document")
    ov = sub.add_parser("overfull", help="exit 1 naming every overfull box of the logs")
    ov.add_argument("logs", type=Path, nargs="+")
    a = ap.parse_args(argv)
    if a.command == "pdf":
        if not a.tex.is_file():
            ap.error(f"{a.tex}: no such document")
        try:
            runs = build_pdf(a.tex, a.jobname, a.pretex)
        except LatexError as e:
            print(e, file=sys.stderr)
            return 1
        print(f"{a.tex.parent / a.jobname}.pdf: {runs} pdflatex runs")
        return 0
    found = 0
    for log in a.logs:
        if not log.is_file():
            ap.error(f"{log}: no such LaTeX log (build the report first)")
        # TeX writes its log in the input's bytes, which need not be UTF-8
        for line in overfull_boxes(log.read_text(encoding="latin-1")):
            print(f"{log}: {line}", file=sys.stderr)
            found += 1
    if found:
        print(f"{found} overfull boxes: a table column or a line is too narrow", file=sys.stderr)
        return 1
    print(f"no overfull box in {', '.join(map(str, a.logs))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
