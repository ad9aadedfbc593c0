# Floyd 1991: multiple congested gateways (tcl/floyd1991/, analysis/floyd1991.py,
# analysis/plots/floyd1991.py). Every step goes through the shared rules (floyd1991.items,
# rules/common.smk): Figures 2-8 and ext01 are simulations, 9-12 reuse the runs of 6-8, and
# 14-18 draw the paper's heuristic analysis (step 'analysis', no runs).
