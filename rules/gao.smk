# Gao, Jain, Schulman: Protocols I and II (tcl/gao/, analysis/gao.py, analysis/plots/gao.py).
# Figures 2-3, Tables 1-2 and the sensitivity figure sens_low are simulations (gao.items,
# rules/common.smk); Figure 1 draws Theorem 4.4's worst case, made here from the model.
REPORT_EXTRA["gao"].append("paper/generated/gao/claims-thm44.csv")


rule gao_thm44:
    """Theorem 4.4's worst-case history (Figure 1) and its factor D: the model, no runs."""
    input:
        code=code("analysis.gao"),
    output:
        tidy=f"results/gao/thm44/{FIDELITY}/tidy.csv",
        extra=directory(f"results/gao/thm44/{FIDELITY}/extra"),
        numbers="paper/generated/gao/numbers-thm44.csv",
        claims="paper/generated/gao/claims-thm44.csv",
    log:
        f"results/gao/thm44/{FIDELITY}/analyse.log",
    benchmark:
        f"benchmarks/gao/thm44/{FIDELITY}/analyse.tsv"
    shell:
        "python -m analysis.gao thm44 --tidy {output.tidy} --numbers {output.numbers} "
        "--claims {output.claims} --extra {output.extra}" + LOGGED
