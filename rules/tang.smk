# Tang, Wang, Hegde, Low 2005: Reno with Vegas/FAST (tcl/tang/chain.tcl, analysis/tang.py,
# analysis/plots/tang.py, model analysis/models/tang/). Every step goes through the shared
# rules (tang.items, rules/common.smk): Experiments 1-2 and the Table 2/3 controls emulate the
# Dummynet testbed with DropTail routers; 3-6 are the ns-2 RED runs; step 'theory' is the
# model's equilibria without simulation.
