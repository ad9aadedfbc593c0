# Gao, Jain, Schulman: Protocols I and II (tcl/gao/, analysis/gao.py, analysis/plots/gao.py).
# Items: fig02 (Sim 1, Poisson flows), fig03 (Sim 2.1), table1 (Sim 2.2), table2 (Sim 3),
# sens_low (ours: the low marker L in the settings of Tables 1 and 2); claims from the tidy
# tables of the four paper items.
GAO_SOURCES = {
    "fig02": ["fig02"],
    "fig03": ["fig03"],
    "table1": ["table1"],
    "table2": ["table2"],
    "sens_low": ["low_table1", "low_table2"],
}
GAO_PAPER_ITEMS = ["fig02", "fig03", "table1", "table2"]
GAO_FIGURES = ["fig01", "fig02", "fig03", "sens_low"]
# the item whose tidy table a figure draws (default: the figure's own name)
GAO_FIGURE_ITEM = {"fig01": "thm44"}
GAO_TABLES = ["table1", "table2"]
GAO_ANALYSIS = ["analysis/gao.py", "analysis/nsio.py", "analysis/numbers.py", "analysis/stats.py"]
GAO_PLOT = ["analysis/plots/gao.py", "analysis/plots/common.py"]
GAO_NUMBERS = [
    *(f"paper/generated/gao/numbers-{i}.csv" for i in GAO_PAPER_ITEMS),
    "paper/generated/gao/claims-checks.csv",
    "paper/generated/gao/numbers-thm44.csv",
    "paper/generated/gao/claims-thm44.csv",
]

REPORT_PARTS["gao"] = [
    *(f"figures/gao/{f}.pdf" for f in GAO_FIGURES),
    *(f"paper/generated/gao/{f}.tex" for f in GAO_FIGURES + GAO_TABLES),
    *GAO_NUMBERS,
]


def gao_tidy(item: str) -> str:
    return f"results/gao/{item}/{FIDELITY}/tidy.csv"


def gao_runs(item: str) -> list[str]:
    return [s for exp in GAO_SOURCES[item] for s in run_summaries("gao", exp)]


rule gao_sim:
    input:
        ns=NS_INPUT,
        nsid=ns_id,
        script=lambda w: f"tcl/gao/{config['gao']['experiments'][w.exp]['family']}.tcl",
        lib=TCL_LIB,
        runner=NSRUN,
    output:
        "results/gao/{exp}/{fidelity}/{run}/summary.json",
    params:
        args=lambda w: run_args("gao", w.exp, w.run),
    wildcard_constraints:
        exp="|".join(sorted(config["gao"]["experiments"])),
        fidelity="smoke|quick|paper",
    shell:
        "python -m analysis.nsrun --ns {input.ns} --script {input.script} "
        "--out $(dirname {output}) {params.args}"


rule gao_analyse:
    input:
        runs=lambda w: gao_runs(w.item),
        code=GAO_ANALYSIS,
    output:
        tidy=f"results/gao/{{item}}/{FIDELITY}/tidy.csv",
        numbers="paper/generated/gao/numbers-{item}.csv",
    params:
        pin=lambda w: runs_pin(gao_runs(w.item)),  # the parameters of the runs it reads (of wildcards only: a
        # param computed from input is not compared while the input is missing)
        primary_f=config["gao"]["parameters"]["F"]["value"],
    wildcard_constraints:
        item="fig02|fig03|table1|table2",
    shell:
        "python -m analysis.gao {wildcards.item} --primary-F {params.primary_f} "
        "--tidy {output.tidy} --numbers {output.numbers} {input.runs}"


rule gao_thm44:
    """Theorem 4.4's worst-case history (Figure 1) and its factor D: the model, no runs."""
    input:
        code=[*GAO_ANALYSIS, "analysis/models/gao.py", "analysis/models/checks.py"],
    output:
        tidy=f"results/gao/thm44/{FIDELITY}/tidy.csv",
        numbers="paper/generated/gao/numbers-thm44.csv",
        checks="paper/generated/gao/claims-thm44.csv",
    shell:
        "python -m analysis.gao thm44 --tidy {output.tidy} --numbers {output.numbers} "
        "--checks {output.checks}"


rule gao_sensitivity:
    input:
        runs=gao_runs("sens_low"),
        code=GAO_ANALYSIS,
    output:
        tidy=f"results/gao/sens_low/{FIDELITY}/tidy.csv",
    params:
        pin=runs_pin(gao_runs("sens_low")),  # the parameters of the runs it reads (of wildcards only: a
        # param computed from input is not compared while the input is missing)
    shell:
        "python -m analysis.gao sens_low --tidy {output.tidy} {input.runs}"


rule gao_claims:
    input:
        tidy=[gao_tidy(i) for i in GAO_PAPER_ITEMS],
        code=GAO_ANALYSIS,
    output:
        tidy=f"results/gao/claims/{FIDELITY}/tidy.csv",
        checks="paper/generated/gao/claims-checks.csv",
    params:
        primary_f=config["gao"]["parameters"]["F"]["value"],
    shell:
        "python -m analysis.gao claims --primary-F {params.primary_f} --tidy {output.tidy} "
        "--checks {output.checks} {input.tidy}"


rule gao_plot:
    input:
        tidy=lambda w: gao_tidy(GAO_FIGURE_ITEM.get(w.fig, w.fig)),
        originals="config/originals/gao.yaml",
        code=GAO_PLOT + GAO_ANALYSIS,
    output:
        pdf="figures/gao/{fig}.pdf",
        png="figures/gao/{fig}.png",
        tex="paper/generated/gao/{fig}.tex",
    params:
        primary_f=config["gao"]["parameters"]["F"]["value"],
        low=config["gao"]["parameters"]["low"]["value"],
    wildcard_constraints:
        fig="|".join(GAO_FIGURES),
    shell:
        "python -m analysis.plots.gao {wildcards.fig} --tidy {input.tidy} "
        "--originals {input.originals} --primary-F {params.primary_f} --low {params.low} "
        "--out {output.pdf} --tex {output.tex}"


rule gao_table:
    input:
        tidy=lambda w: gao_tidy(w.table),
        originals="config/originals/gao.yaml",
        code=GAO_PLOT + GAO_ANALYSIS,
    output:
        tex="paper/generated/gao/{table}.tex",
    wildcard_constraints:
        table="table1|table2",
    shell:
        "python -m analysis.plots.gao {wildcards.table} --tidy {input.tidy} "
        "--originals {input.originals} --tex {output.tex}"
