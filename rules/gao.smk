# Gao, Jain, Schulman: Protocols I and II (tcl/gao/, analysis/gao.py, analysis/plots/gao.py).
# Every step goes through the shared rules (gao.items, rules/common.smk): Figures 2-3, Tables
# 1-2 and the sensitivity figure sens_low are simulations; Figure 1 draws Theorem 4.4's worst
# case from the model (step thm44, no runs; its claims are checked in the claims step).
