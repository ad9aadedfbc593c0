# Floyd 1991: multiple congested gateways (tcl/floyd1991/, analysis/floyd1991.py).
FLOYD_FIGURES = ["fig02"]
FLOYD_ANALYSIS = ["analysis/floyd1991.py", "analysis/nsio.py", "analysis/numbers.py"]
FLOYD_PLOT = ["analysis/plots/floyd1991.py", "analysis/plots/common.py"]

REPORT_PARTS["floyd1991"] = [
    *(f"figures/floyd1991/{f}.pdf" for f in FLOYD_FIGURES),
    *(f"paper/generated/floyd1991/{f}.tex" for f in FLOYD_FIGURES),
    *(f"paper/generated/floyd1991/numbers-{f}.csv" for f in FLOYD_FIGURES),
]


rule floyd1991_sim:
    input:
        ns=NS,
        nsid=NS_ID,
        script=lambda w: f"tcl/floyd1991/{config['floyd1991']['experiments'][w.exp]['family']}.tcl",
        lib=TCL_LIB,
        runner=NSRUN,
    output:
        "results/floyd1991/{exp}/{fidelity}/{run}/summary.json",
    params:
        args=lambda w: run_args("floyd1991", w.exp, w.run),
        timeout=config["ns"]["run_timeout_s"],
    wildcard_constraints:
        fidelity="smoke|quick|paper",
    shell:
        "python -m analysis.nsrun --ns {input.ns} --script {input.script} "
        "--out $(dirname {output}) --timeout {params.timeout} {params.args}"


rule floyd1991_analyse:
    input:
        runs=lambda w: run_summaries("floyd1991", w.exp),
        code=FLOYD_ANALYSIS,
    output:
        tidy=f"results/floyd1991/{{exp}}/{FIDELITY}/tidy.csv",
        numbers="paper/generated/floyd1991/numbers-{exp}.csv",
    shell:
        "python -m analysis.floyd1991 {wildcards.exp} --tidy {output.tidy} "
        "--numbers {output.numbers} {input.runs}"


rule floyd1991_plot:
    input:
        tidy=f"results/floyd1991/{{fig}}/{FIDELITY}/tidy.csv",
        originals="config/originals/floyd1991.yaml",
        code=FLOYD_PLOT,
    output:
        pdf="figures/floyd1991/{fig}.pdf",
        png="figures/floyd1991/{fig}.png",
        tex="paper/generated/floyd1991/{fig}.tex",
    shell:
        "python -m analysis.plots.floyd1991 {wildcards.fig} --tidy {input.tidy} "
        "--originals {input.originals} --pdf {output.pdf} --tex {output.tex}"
