# The diff against the papers and the LaTeX report.
from analysis import reference
from analysis.report import report_params

def report_parts(paper: str) -> list[str]:
    """Every file of one paper the report includes: its items' figures, tables and numbers,
    its claims, its diagrams, and what its own rules add."""
    out: list[str] = []
    for it in ITEMS[paper].values():
        if active(it):
            out += conf.item_files(it, FIDELITY)
    for target in DIAGRAMS:
        if target.startswith(paper + "/"):
            out += [f"{FIG}/{target}.pdf", f"{GEN}/{target}.tex"]
    return list(dict.fromkeys(out + REPORT_EXTRA[paper]))


# every paper's rules file has added its own parts by now
REPORT_PARTS = {p: report_parts(p) for p in PAPERS}


ORIGINALS = [f"config/originals/{p}.yaml" for p in PAPERS]
# why each number beyond tolerance differs (analysis.diagnosis); a paper may have none
DIAGNOSES = [f"config/diagnoses/{p}.yaml" for p in PAPERS if Path(f"config/diagnoses/{p}.yaml").is_file()]
NUMBERS = [
    f for p in PAPERS for f in REPORT_PARTS.get(p, []) if "/numbers-" in f or "/claims-" in f
]
# below paper fidelity, the references recorded at paper fidelity: a row they reproduce or
# explain is reduced-fidelity in this build's diff (analysis.compare.diff_rows)
PAPER_REFERENCES = (
    []
    if FIDELITY == "paper"
    else [
        r
        for r in (reference.reference_path(p, "paper") for p in PAPERS)
        if Path(r).is_file()
    ]
)


rule diff_tables:
    input:
        originals=ORIGINALS,
        diagnoses=DIAGNOSES,
        numbers=NUMBERS,
        references=PAPER_REFERENCES,
        code=code("analysis.compare"),
    output:
        csv=f"{GEN}/diff.csv",
        txt=f"{GEN}/diff.txt",
    log:
        f"logs/{FIDELITY}/diff_tables.log",
    benchmark:
        f"benchmarks/{FIDELITY}/diff_tables.tsv"
    params:
        papers=" ".join(f"--paper {p}" for p in PAPERS),
        references=" ".join(f"--paper-reference {r}" for r in PAPER_REFERENCES),
    shell:
        "python -m analysis.compare {params.papers} {params.references} --csv {output.csv} "
        "{input.numbers} > {output.txt} 2> {log} "
        "&& tail -1 {output.txt} || {{ cat {log} >&2; exit 1; }}"


rule diff:
    """Print the diff of regenerated against published numbers (snakemake diff)."""
    input:
        f"{GEN}/diff.txt",
    log:
        f"logs/{FIDELITY}/diff.log",
    benchmark:
        f"benchmarks/{FIDELITY}/diff.tsv"
    shell:
        "cat {input} | tee {log}"


def references() -> list[str]:
    """The recorded run of each of the report's papers shown beside this build's verdicts: the
    one at paper fidelity, or at quick for a paper-fidelity build (analysis.reference)."""
    shown = (reference.shown_reference(Path("."), p, FIDELITY) for p in PAPERS)
    return [r for r in shown if r]


# The chapter beyond the papers (analysis/beyond.py): the papers' stress tests behind today's
# queues, from the aqm01 step of each paper in the report that has one
BEYOND = {
    p: f"results/{p}/aqm01/{FIDELITY}/tidy.csv"
    for p in ("floyd1991", "gao")
    if p in PAPERS and "aqm01" in ITEMS[p] and active(ITEMS[p]["aqm01"])
}


# Akella et al.'s SACK searches behind every queue (the paper's and today's), none of the
# sensitivity variants
BEYOND_AKELLA = (
    [
        f"{AK.search_dir(s)}/search.json"
        for s, spec in sorted(AK.searches.items())
        if spec.tcp == "sack" and not spec.variant and s.endswith(("_alpha", "_beta", "_joint"))
    ]
    if "akella2002" in PAPERS
    else []
)


rule beyond:
    input:
        tidy=list(BEYOND.values()),
        akella=BEYOND_AKELLA,
        code=code("analysis.beyond"),
    output:
        tex=f"{GEN}/beyond.tex",
        claims=f"{GEN}/beyond-claims.csv",
    log:
        f"logs/{FIDELITY}/beyond.log",
    benchmark:
        f"benchmarks/{FIDELITY}/beyond.tsv"
    params:
        args=" ".join(
            f"--{'floyd' if p == 'floyd1991' else p} {t} --figure {GEN_TEX}/{p}/aqm01.tex"
            for p, t in BEYOND.items()
        ),
    shell:
        "python -m analysis.beyond --fidelity {FIDELITY} {params.args} --tex {output.tex} "
        "--claims {output.claims} --akella {input.akella}" + LOGGED


# Run by the main Snakemake process, whatever the executor: the front page names the executor
# that ran the workflow ({workflow.executor_plugin.name}: local, slurm), not a cluster job's.
localrules:
    report_parts,


rule report_parts:
    input:
        diff=f"{GEN}/diff.csv",
        references=references(),
        originals=ORIGINALS,
        diagnoses=DIAGNOSES,
        numbers=NUMBERS,
        nsid=NS_ID,
        # where each step's outputs were made (runs or the bundle): the items tables say it
        origins=lambda w: REPORT_ORIGINS,
        code=code("analysis.report"),
    output:
        f"{GEN}/build.tex",
        f"{GEN}/build-cost.txt",
        f"{GEN}/status.tex",
        f"{GEN}/papers.tex",
        f"{GEN}/summary.tex",
        expand(f"{GEN}/{{paper}}/assumptions.tex", paper=PAPERS),
        expand(f"{GEN}/{{paper}}/overrides.tex", paper=PAPERS),
        expand(f"{GEN}/{{paper}}/items.tex", paper=PAPERS),
        f"{GEN}/numbers.tex",
        expand(f"{GEN}/{{paper}}/diff.tex", paper=PAPERS),
        expand(f"{GEN}/{{paper}}/claims.tex", paper=PAPERS),
        expand(f"{GEN}/{{paper}}/summary.tex", paper=PAPERS),
        expand(f"{GEN}/{{paper}}/why.tex", paper=PAPERS),
    log:
        f"logs/{FIDELITY}/report_parts.log",
    benchmark:
        f"benchmarks/{FIDELITY}/report_parts.tsv"
    params:
        papers=" ".join(PAPERS),
        # the assumed parameters and overrides (a change reruns this step)
        json=json.dumps(report_params(config, PAPERS, FIDELITY), sort_keys=True),
    shell:
        "python -m analysis.report --fidelity {FIDELITY} --ns-id {input.nsid} "
        "--executor {workflow.executor_plugin.name} "
        "--diff {input.diff} --out {GEN} --params {params.json:q} "
        "--files {input.numbers} --references {input.references} --origins {input.origins} "
        "-- {params.papers}"
        + LOGGED


rule report:
    input:
        tex="paper/report.tex",
        sections=[f"paper/sections/{p}.tex" for p in PAPERS],
        parts=[f for p in PAPERS for f in REPORT_PARTS.get(p, [])],
        generated=rules.report_parts.output,
        diff=rules.diff_tables.output,
        beyond=rules.beyond.output.tex,
        code=code("analysis.latex"),
    output:
        f"{REPORT_PDF}",
    log:
        f"{GEN}/latex.log",
    benchmark:
        f"benchmarks/{FIDELITY}/report.tsv"
    params:
        # the report of this fidelity: its own job name (report-<fidelity>.pdf, .aux, .log)
        # and its generated folder (\reportGen, which report.tex and sections/ \input from)
        job=f"report-{FIDELITY}",
        pretex=f"\\def\\reportGen{{{GEN_TEX}}}",
        # the PDF's dates and ID from the commit, not the clock: the same results give the
        # same bytes (pdfTeX reads SOURCE_DATE_EPOCH; FORCE_SOURCE_DATE makes \today follow)
        date=SOURCE_DATE_EPOCH,
    shell:
        "SOURCE_DATE_EPOCH={params.date} FORCE_SOURCE_DATE=1 "
        "python -m analysis.latex pdf --jobname={params.job} --pretex={params.pretex:q} "
        "paper/report.tex > {log} 2>&1 || {{ tail -3 {log} >&2; exit 1; }}"
