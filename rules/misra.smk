# Misra, Baras, Ott: generalised TCP over ORED (tcl/misra/dumbbell.tcl, analysis/misra/,
# analysis/plots/misra.py). Figures 1-5: capacity sweeps of two flows against the fixed point
# of Sec III; 6-7: the single-flow window distribution of Sec IV; ext01: N = 2..20 flows
# (misra.items, rules/common.smk). Here: the model's values and statements without runs.
REPORT_EXTRA["misra"].append(f"{GEN}/misra/claims-theory.csv")


rule misra_theory:
    """The model's values and the analytical statements (no simulation)."""
    input:
        code=code("analysis.misra"),
    output:
        numbers=f"{GEN}/misra/numbers-theory.csv",
        claims=f"{GEN}/misra/claims-theory.csv",
    log:
        f"results/misra/theory/{FIDELITY}/analyse.log",
    benchmark:
        f"benchmarks/misra/theory/{FIDELITY}/analyse.tsv"
    params:
        # the whole paper section: the model is checked against every experiment's runs
        json=lambda w: step_params("misra", "theory"),
    shell:
        "python -m analysis.misra theory --params {params.json:q} --numbers {output.numbers} "
        "--claims {output.claims}" + LOGGED

# the model's requirements on every configured run of every fidelity: a config the model
# cannot take stops here, before any run (analysis.misra.setup; the model, no pandas)
from analysis.misra.setup import check_config as misra_check_config

try:
    misra_check_config(config)
except conf.ConfigError as _e:
    sys.stderr.write(f"\n{_e}\n\n")
    sys.exit(1)
