# Floyd 1991: multiple congested gateways (tcl/floyd1991/, analysis/floyd1991.py,
# analysis/plots/floyd1991.py). Figures 2-8 have their own runs; 9-12 reuse the runs of
# 6-8; 14-18 are the heuristic analysis (no simulation).
FLOYD_SIM_FIGURES = sorted(config["floyd1991"]["experiments"])  # fig02 ... fig08
FLOYD_RATIO_SOURCE = {"fig09": "fig06", "fig10": "fig07", "fig11": "fig08", "fig12": "fig08"}
FLOYD_ANALYTICAL_FIGURES = ["fig14", "fig15", "fig16", "fig17", "fig18"]
FLOYD_FIGURES = FLOYD_SIM_FIGURES + sorted(FLOYD_RATIO_SOURCE) + FLOYD_ANALYTICAL_FIGURES
FLOYD_ANALYSIS = [
    "analysis/floyd1991.py",
    "analysis/models/floyd1991.py",
    "analysis/nsio.py",
    "analysis/numbers.py",
]
# the plot imports the analysis module, its closed forms and the originals reader
FLOYD_PLOT = ["analysis/plots/floyd1991.py", "analysis/plots/common.py", *FLOYD_ANALYSIS, "analysis/compare.py"]
FLOYD_NUMBERS = [
    *(f"paper/generated/floyd1991/numbers-{f}.csv" for f in FLOYD_SIM_FIGURES),
    *(f"paper/generated/floyd1991/numbers-{f}.csv" for f in sorted(FLOYD_RATIO_SOURCE)),
    "paper/generated/floyd1991/numbers-analysis.csv",
    "paper/generated/floyd1991/numbers-claims.csv",
    "paper/generated/floyd1991/claims-checks.csv",
]

REPORT_PARTS["floyd1991"] = [
    *(f"figures/floyd1991/{f}.pdf" for f in FLOYD_FIGURES),
    *(f"paper/generated/floyd1991/{f}.tex" for f in FLOYD_FIGURES),
    *FLOYD_NUMBERS,
]


def floyd_tidy(fig: str) -> str:
    if fig in FLOYD_ANALYTICAL_FIGURES:
        return "results/floyd1991/analysis/tidy.csv"
    return f"results/floyd1991/{fig}/{FIDELITY}/tidy.csv"


def floyd_runs(fig: str) -> list[str]:
    return run_summaries("floyd1991", FLOYD_RATIO_SOURCE.get(fig, fig))


rule floyd1991_sim:
    input:
        ns=NS_INPUT,
        nsid=ns_id,
        script=lambda w: f"tcl/floyd1991/{config['floyd1991']['experiments'][w.exp]['family']}.tcl",
        lib=TCL_LIB,
        runner=NSRUN,
    output:
        "results/floyd1991/{exp}/{fidelity}/{run}/summary.json",
    params:
        args=lambda w: run_args("floyd1991", w.exp, w.run),
    wildcard_constraints:
        fidelity="smoke|quick|paper",
    shell:
        "python -m analysis.nsrun --ns {input.ns} --script {input.script} "
        "--out $(dirname {output}) {params.args}"


rule floyd1991_analyse:
    input:
        runs=lambda w: floyd_runs(w.fig),
        code=FLOYD_ANALYSIS,
    output:
        tidy=f"results/floyd1991/{{fig}}/{FIDELITY}/tidy.csv",
        numbers="paper/generated/floyd1991/numbers-{fig}.csv",
    params:
        pin=lambda w: runs_pin(floyd_runs(w.fig)),  # the parameters of the runs it reads (of wildcards only: a
        # param computed from input is not compared while the input is missing)
    wildcard_constraints:
        fig="fig(0[2-9]|1[0-2])|ext01",
    shell:
        "python -m analysis.floyd1991 {wildcards.fig} --tidy {output.tidy} "
        "--numbers {output.numbers} {input.runs}"


rule floyd1991_analytical:
    input:
        code=FLOYD_ANALYSIS,
    output:
        tidy="results/floyd1991/analysis/tidy.csv",
        numbers="paper/generated/floyd1991/numbers-analysis.csv",
    shell:
        "python -m analysis.floyd1991 analysis --tidy {output.tidy} --numbers {output.numbers}"


rule floyd1991_claims:
    input:
        tidy=[
            floyd_tidy(f)
            for f in FLOYD_SIM_FIGURES + sorted(FLOYD_RATIO_SOURCE)
            if not f.startswith("ext")
        ],
        code=FLOYD_ANALYSIS,
    output:
        tidy=f"results/floyd1991/claims/{FIDELITY}/tidy.csv",
        numbers="paper/generated/floyd1991/numbers-claims.csv",
        checks="paper/generated/floyd1991/claims-checks.csv",
    shell:
        "python -m analysis.floyd1991 claims --tidy {output.tidy} --numbers {output.numbers} "
        "{input.tidy}"


rule floyd1991_plot:
    input:
        tidy=lambda w: floyd_tidy(w.fig),
        numbers=lambda w: (
            "paper/generated/floyd1991/numbers-analysis.csv"
            if w.fig in FLOYD_ANALYTICAL_FIGURES
            else f"paper/generated/floyd1991/numbers-{w.fig}.csv"
        ),
        originals="config/originals/floyd1991.yaml",
        code=FLOYD_PLOT,
    output:
        pdf="figures/floyd1991/{fig}.pdf",
        png="figures/floyd1991/{fig}.png",
        tex="paper/generated/floyd1991/{fig}.tex",
    shell:
        "python -m analysis.plots.floyd1991 {wildcards.fig} --tidy {input.tidy} "
        "--numbers {input.numbers} --originals {input.originals} --pdf {output.pdf} "
        "--tex {output.tex}"
