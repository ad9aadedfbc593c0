# Tang, Wang, Hegde, Low 2005: Reno with Vegas/FAST (tcl/tang/chain.tcl, analysis/tang.py,
# analysis/plots/tang.py, model analysis/models/tang/). Experiments 1-2 and the Table 2/3
# controls emulate the Dummynet testbed with DropTail routers; 3-6 are the ns-2 RED runs
# (tang.items, rules/common.smk). Here: the model's equilibria without simulation.


rule tang_theory:
    input:
        code=code("analysis.tang"),
    output:
        tidy=f"results/tang/theory/{FIDELITY}/tidy.csv",
        extra=directory(f"results/tang/theory/{FIDELITY}/extra"),
        numbers="paper/generated/tang/numbers-theory.csv",
    log:
        f"results/tang/theory/{FIDELITY}/analyse.log",
    benchmark:
        f"benchmarks/tang/theory/{FIDELITY}/analyse.tsv"
    params:
        json=lambda w: step_params("tang", "theory"),
    shell:
        "python -m analysis.tang theory --params {params.json:q} --tidy {output.tidy} "
        "--numbers {output.numbers} --extra {output.extra}" + LOGGED
