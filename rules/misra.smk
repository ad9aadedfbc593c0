# Misra, Baras, Ott: generalised TCP over ORED (tcl/misra/dumbbell.tcl, analysis/misra.py,
# analysis/plots/misra.py). Figures 1-5: capacity sweeps of two flows against the fixed point
# of Sec III; 6-7: the single-flow window distribution of Sec IV; ext01: N = 2..20 flows.
# Which experiments feed which figure: analysis.misra.FIGURE_EXPERIMENTS.
from analysis import misra as MISRA

try:
    MISRA.check_config(config)  # the model's requirements, for every run of every fidelity
except ccr.ConfigError as _e:
    sys.stderr.write(f"\n{_e}\n\n")
    sys.exit(1)

MISRA_FIGURES = sorted(MISRA.FIGURE_EXPERIMENTS)  # ext01, fig01 ... fig07
MISRA_ANALYSIS = [
    "analysis/misra.py",
    "analysis/models/misra.py",
    "analysis/nsio.py",
    "analysis/numbers.py",
]
MISRA_PLOT = ["analysis/plots/misra.py", "analysis/plots/common.py"]
MISRA_CONFIG = ["config/config.yaml", "config/experiments/misra.yaml"]
MISRA_NUMBERS = [
    *(f"paper/generated/misra/numbers-{f}.csv" for f in MISRA_FIGURES),
    "paper/generated/misra/numbers-theory.csv",
    "paper/generated/misra/claims-theory.csv",
    "paper/generated/misra/numbers-claims.csv",
    "paper/generated/misra/claims-checks.csv",
]

REPORT_PARTS["misra"] = [
    *(f"figures/misra/{f}.pdf" for f in MISRA_FIGURES),
    *(f"paper/generated/misra/{f}.tex" for f in MISRA_FIGURES),
    "paper/generated/misra/errors.tex",
    *MISRA_NUMBERS,
]


def misra_tidy(fig: str) -> str:
    return f"results/misra/{fig}/{FIDELITY}/tidy.csv"


def misra_runs(fig: str) -> list[str]:
    return [s for e in MISRA.FIGURE_EXPERIMENTS[fig] for s in run_summaries("misra", e)]


rule misra_sim:
    input:
        ns=NS_INPUT,
        nsid=ns_id,
        script=lambda w: f"tcl/misra/{config['misra']['experiments'][w.exp]['family']}.tcl",
        lib=TCL_LIB,
        runner=NSRUN,
    output:
        "results/misra/{exp}/{fidelity}/{run}/summary.json",
    params:
        args=lambda w: run_args("misra", w.exp, w.run),
    wildcard_constraints:
        exp="|".join(sorted(config["misra"]["experiments"])),
        fidelity="smoke|quick|paper",
    shell:
        "python -m analysis.nsrun --ns {input.ns} --script {input.script} "
        "--out $(dirname {output}) {params.args}"


rule misra_analyse:
    input:
        runs=lambda w: misra_runs(w.fig),
        code=MISRA_ANALYSIS,
    output:
        tidy=f"results/misra/{{fig}}/{FIDELITY}/tidy.csv",
        numbers="paper/generated/misra/numbers-{fig}.csv",
    params:
        pin=lambda w: runs_pin(misra_runs(w.fig)),  # the parameters of the runs it reads (of wildcards only: a
        # param computed from input is not compared while the input is missing)
    wildcard_constraints:
        fig="|".join(MISRA_FIGURES),
    shell:
        "python -m analysis.misra {wildcards.fig} --tidy {output.tidy} "
        "--numbers {output.numbers} {input.runs}"


rule misra_theory:
    """The derived model values (docs/misra.md) and the analytical statements (no simulation)."""
    input:
        code=MISRA_ANALYSIS,
        config=MISRA_CONFIG,
    output:
        numbers="paper/generated/misra/numbers-theory.csv",
        claims="paper/generated/misra/claims-theory.csv",
    shell:
        "python -m analysis.misra theory --numbers {output.numbers} --claims {output.claims}"


rule misra_claims:
    input:
        tidy=[misra_tidy(f) for f in MISRA_FIGURES],
        code=MISRA_ANALYSIS,
    output:
        numbers="paper/generated/misra/numbers-claims.csv",
        checks="paper/generated/misra/claims-checks.csv",
        errors="paper/generated/misra/errors.tex",
    shell:
        "python -m analysis.misra claims --numbers {output.numbers} --claims {output.checks} "
        "--errors {output.errors} {input.tidy}"


rule misra_plot:
    input:
        tidy=lambda w: misra_tidy(w.fig),
        originals="config/originals/misra.yaml",
        code=[*MISRA_PLOT, "analysis/misra.py", "analysis/models/misra.py"],
    output:
        pdf="figures/misra/{fig}.pdf",
        png="figures/misra/{fig}.png",
        tex="paper/generated/misra/{fig}.tex",
    wildcard_constraints:
        fig="|".join(MISRA_FIGURES),
    shell:
        "python -m analysis.plots.misra {wildcards.fig} --tidy {input.tidy} "
        "--originals {input.originals} --pdf {output.pdf} --tex {output.tex}"
