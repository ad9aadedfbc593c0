# Tang, Wang, Hegde, Low 2005: Reno with Vegas/FAST (tcl/tang/chain.tcl, analysis/tang.py,
# analysis/plots/tang.py, model analysis/models/tang.py). Experiments 1-2 and the Table 2/3
# controls emulate the Dummynet testbed with DropTail routers; 3-6 are the ns-2 RED runs.
TANG_EXPERIMENTS = sorted(config["tang"]["experiments"])  # exp1 exp2 fig09 ... table3
# figure -> (experiment whose results it draws)
TANG_FIGURE_SOURCE = {
    "fig03": "exp1",
    "fig04": "exp1",
    "fig06": "exp2",
    "fig07": "exp2",
    "fig08": "exp2",
    "fig09": "fig09",
    "fig10": "fig10",
    "fig11": "fig11",
    "ext3": "ext3",
    "fig13": "fig12",
    "fig14": "fig12",
}
TANG_TABLE_SOURCE = {
    "table1": "exp1",
    "table2": "table2",
    "table3": "table3",
    "table4": "exp2",
    "ext1": "ext1",
    "ext2": "ext2",
}
TANG_ANALYSIS = ["analysis/tang.py", "analysis/models/tang.py", "analysis/nsio.py", "analysis/numbers.py"]
TANG_PLOT = ["analysis/plots/tang.py", "analysis/plots/common.py"]


def tang_res(exp: str, what: str) -> str:
    return f"results/tang/{exp}/{FIDELITY}/{what}.csv"


REPORT_PARTS["tang"] = [
    *(f"figures/tang/{f}.pdf" for f in TANG_FIGURE_SOURCE),
    *(f"paper/generated/tang/{f}.tex" for f in TANG_FIGURE_SOURCE),
    *(f"paper/generated/tang/{t}.tex" for t in TANG_TABLE_SOURCE),
    *(f"paper/generated/tang/numbers-{e}.csv" for e in TANG_EXPERIMENTS),
    "paper/generated/tang/numbers-theory.csv",
    "paper/generated/tang/numbers-claims.csv",
    "paper/generated/tang/claims-checks.csv",
]


rule tang_sim:
    input:
        ns=NS_INPUT,
        nsid=ns_id,
        script=lambda w: f"tcl/tang/{config['tang']['experiments'][w.exp]['family']}.tcl",
        lib=TCL_LIB,
        runner=NSRUN,
    output:
        "results/tang/{exp}/{fidelity}/{run}/summary.json",
    params:
        args=lambda w: run_args("tang", w.exp, w.run),
    wildcard_constraints:
        fidelity="smoke|quick|paper",
    shell:
        "python -m analysis.nsrun --ns {input.ns} --script {input.script} "
        "--out $(dirname {output}) {params.args}"


rule tang_analyse:
    input:
        runs=lambda w: run_summaries("tang", w.exp),
        code=TANG_ANALYSIS,
    output:
        tidy=f"results/tang/{{exp}}/{FIDELITY}/tidy.csv",
        traces=f"results/tang/{{exp}}/{FIDELITY}/traces.csv",
        theory=f"results/tang/{{exp}}/{FIDELITY}/theory.csv",
        numbers="paper/generated/tang/numbers-{exp}.csv",
    params:
        pin=lambda w: runs_pin(run_summaries("tang", w.exp)),  # the parameters of the runs it reads (of wildcards only: a
        # param computed from input is not compared while the input is missing)
    wildcard_constraints:
        exp="|".join(TANG_EXPERIMENTS),
    shell:
        "python -m analysis.tang {wildcards.exp} --tidy {output.tidy} --traces {output.traces} "
        "--theory {output.theory} --numbers {output.numbers} {input.runs}"


rule tang_theory:
    input:
        code=TANG_ANALYSIS,
    output:
        tidy="results/tang/theory/tidy.csv",
        numbers="paper/generated/tang/numbers-theory.csv",
    shell:
        "python -m analysis.tang theory --tidy {output.tidy} --numbers {output.numbers}"


rule tang_claims:
    input:
        tables=[
            *(tang_res(e, "tidy") for e in TANG_EXPERIMENTS),
            tang_res("exp1", "traces"),
            tang_res("fig11", "traces"),
            tang_res("ext3", "traces"),
            tang_res("fig09", "theory"),
            tang_res("fig10", "theory"),
        ],
        code=TANG_ANALYSIS,
    output:
        tidy=f"results/tang/claims/{FIDELITY}/tidy.csv",
        numbers="paper/generated/tang/numbers-claims.csv",
        checks="paper/generated/tang/claims-checks.csv",
    shell:
        "python -m analysis.tang claims --tidy {output.tidy} --numbers {output.numbers} "
        "{input.tables}"


rule tang_plot:
    input:
        tidy=lambda w: tang_res(TANG_FIGURE_SOURCE[w.fig], "tidy"),
        traces=lambda w: tang_res(TANG_FIGURE_SOURCE[w.fig], "traces"),
        theory=lambda w: tang_res(TANG_FIGURE_SOURCE[w.fig], "theory"),
        originals="config/originals/tang.yaml",
        code=TANG_PLOT,
    output:
        pdf="figures/tang/{fig}.pdf",
        png="figures/tang/{fig}.png",
        tex="paper/generated/tang/{fig}.tex",
    wildcard_constraints:
        fig="|".join(TANG_FIGURE_SOURCE),
    shell:
        "python -m analysis.plots.tang {wildcards.fig} --tidy {input.tidy} "
        "--traces {input.traces} --theory {input.theory} --originals {input.originals} "
        "--pdf {output.pdf} --tex {output.tex}"


rule tang_table:
    input:
        tidy=lambda w: tang_res(TANG_TABLE_SOURCE[w.table], "tidy"),
        originals="config/originals/tang.yaml",
        code=TANG_PLOT,
    output:
        tex="paper/generated/tang/{table}.tex",
    wildcard_constraints:
        table="|".join(TANG_TABLE_SOURCE),
    shell:
        "python -m analysis.plots.tang {wildcards.table} --tidy {input.tidy} "
        "--originals {input.originals} --tex {output.tex}"
