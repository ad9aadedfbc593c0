# Floyd 1991: multiple congested gateways (tcl/floyd1991/, analysis/floyd1991.py,
# analysis/plots/floyd1991.py). Figures 2-8 and ext01 are simulations, 9-12 reuse the runs
# of 6-8 (floyd1991.items, rules/common.smk); 14-18 draw the paper's heuristic analysis,
# made here without simulation.


rule floyd1991_analysis:
    """The heuristic analysis of Secs 6-7 (Figures 14-18): the model, no runs."""
    input:
        code=code("analysis.floyd1991"),
    output:
        tidy=f"results/floyd1991/analysis/{FIDELITY}/tidy.csv",
        extra=directory(f"results/floyd1991/analysis/{FIDELITY}/extra"),
        numbers="paper/generated/floyd1991/numbers-analysis.csv",
    log:
        f"results/floyd1991/analysis/{FIDELITY}/analyse.log",
    benchmark:
        f"benchmarks/floyd1991/analysis/{FIDELITY}/analyse.tsv"
    shell:
        "python -m analysis.floyd1991 analysis --tidy {output.tidy} --numbers {output.numbers} "
        "--extra {output.extra}" + LOGGED
