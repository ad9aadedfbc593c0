# The papers' network diagrams (config: <paper>.diagrams), the diff against the papers and the
# LaTeX report.

# "paper/fig" -> {experiment, caption, prefer}: each drawn from the first run of its experiment
# whose parameters match every value of "prefer" (else its first run; the title names the run)
DIAGRAMS = {f"{p}/{fig}": d for p in PAPERS for fig, d in config[p].get("diagrams", {}).items()}
for _target in DIAGRAMS:
    _p, _fig = _target.split("/")
    REPORT_PARTS.setdefault(_p, []).extend(
        [f"figures/{_target}.pdf", f"paper/generated/{_target}.tex"]
    )


def diagram_run(w) -> str:
    paper, spec = w.target.split("/")[0], DIAGRAMS[w.target]
    exp = spec["experiment"]
    if paper in FIRST_RUN:
        return FIRST_RUN[paper](exp)
    runs = runs_of(paper, exp)
    prefer = spec.get("prefer", {})
    pick = next((r for r in runs if all(r.params.get(k) == v for k, v in prefer.items())), runs[0])
    return f"results/{paper}/{exp}/{FIDELITY}/{pick.run_id}/summary.json"


rule diagram:
    input:
        run=diagram_run,
        code=["analysis/plots/topology.py", "analysis/plots/common.py", "analysis/nsio.py"],
    output:
        pdf="figures/{target}.pdf",
        png="figures/{target}.png",
        tex="paper/generated/{target}.tex",
    params:
        pin=lambda w: runs_pin([diagram_run(w)]),  # the parameters of the run it draws
        caption=lambda w: DIAGRAMS[w.target]["caption"],
        label=lambda w: "fig:" + w.target.replace("/", ":"),
    wildcard_constraints:
        target="|".join(DIAGRAMS) or "none",
    shell:
        "python -m analysis.plots.topology $(dirname {input.run}) --caption {params.caption:q} "
        "--rule 'diagram ({wildcards.target})' --label {params.label} "
        "--pdf {output.pdf} --tex {output.tex}"


ORIGINALS = [f"config/originals/{p}.yaml" for p in PAPERS]
NUMBERS = [
    f for p in PAPERS for f in REPORT_PARTS.get(p, []) if "/numbers-" in f or "/claims-" in f
]


rule diff_tables:
    input:
        originals=ORIGINALS,
        numbers=NUMBERS,
        # every figure too: after a fidelity switch, a numbers file of the other fidelity
        # is not rebuilt for its own sake (its runs' folders are new, and Snakemake does
        # not rerun a job for inputs that only could be made), but a figure is
        parts=[f for p in PAPERS for f in REPORT_PARTS.get(p, []) if f not in NUMBERS],
        code="analysis/compare.py",
    output:
        csv="paper/generated/diff.csv",
        txt="paper/generated/diff.txt",
        macros="paper/generated/numbers.tex",
        tex=expand("paper/generated/{paper}/diff.tex", paper=PAPERS),
        claims=expand("paper/generated/{paper}/claims.tex", paper=PAPERS),
        summary=expand("paper/generated/{paper}/summary.tex", paper=PAPERS),
    params:
        papers=" ".join(f"--paper {p}" for p in PAPERS),
    shell:
        "python -m analysis.compare {params.papers} --csv {output.csv} "
        "--tex-dir paper/generated > {output.txt} && tail -1 {output.txt}"


rule diff:
    """Print the diff of regenerated against published numbers (snakemake diff)."""
    input:
        "paper/generated/diff.txt",
    shell:
        "cat {input}"


rule report_parts:
    input:
        diff="paper/generated/diff.csv",
        nsid=NS_ID,
        config=["config/config.yaml", *sorted(str(p) for p in Path("config/experiments").glob("*.yaml"))],
        code=["analysis/report.py", "analysis/compare.py"],
    output:
        "paper/generated/build.tex",
        "paper/generated/deviations.tex",
        "paper/generated/papers.tex",
        "paper/generated/summary.tex",
        expand("paper/generated/{paper}/assumptions.tex", paper=PAPERS),
        expand("paper/generated/{paper}/overrides.tex", paper=PAPERS),
    params:
        papers=" ".join(PAPERS),
    shell:
        "python -m analysis.report --fidelity {FIDELITY} --ns-id {input.nsid} "
        "--diff {input.diff} --out paper/generated {params.papers}"


rule report:
    input:
        tex="paper/report.tex",
        sections=[f"paper/sections/{p}.tex" for p in PAPERS],
        parts=[f for p in PAPERS for f in REPORT_PARTS.get(p, [])],
        generated=rules.report_parts.output,
        diff=rules.diff_tables.output,
    output:
        "paper/report.pdf",
    log:
        "paper/generated/latexmk.log",
    shell:
        "latexmk -pdf -interaction=nonstopmode -halt-on-error -cd paper/report.tex > {log} 2>&1 "
        "|| {{ grep -A5 '^!' paper/report.log >&2; exit 1; }}"
