"""Misra, Baras, Ott: from ns runs to tidy tables, regenerated numbers and checked claims.

The simulations are runs of ``tcl/misra/dumbbell.tcl`` (one experiment family); the theory is
``analysis/models/misra.py``, evaluated with the parameters each run echoed. One module per
job; import each name from the module that defines it:

* :mod:`analysis.misra.setup` -- a run's parameters as the model's set-up, the figure steps
  (:data:`~analysis.misra.setup.FIGURES`; which runs each reads is ``misra.items`` in the
  config) and :func:`~analysis.misra.setup.check_config` (the model's requirements on every
  run of every fidelity, for the workflow's config validation);
* :mod:`analysis.misra.tidy` -- run folders -> the tidy table and numbers of one figure;
* :mod:`analysis.misra.theory` -- the model's values and analytical statements (no
  simulation);
* :mod:`analysis.misra.claims` -- the paper's statements about its simulations, checked on
  the figures' tidy tables, and the simulation-vs-theory errors;
* :mod:`analysis.misra.__main__` -- the command line, ``python -m analysis.misra STEP``.

Figures 1-5 are capacity sweeps of two flows (Experiment A: profiles 1.5 and 3 Mb/s, equal
RTTs; Experiment B: 1.5 Mb/s each, RTTs 20 and 100 ms) against the fixed point of Sec III;
Figures 6-7 the window of a single flow against the distribution of Sec IV; ``ext01`` (beyond
the paper) N = 2..20 flows against the fixed point.

Units of the tidy tables: capacities and throughputs in Mb/s (10^6 bit/s), windows and queues
in packets, RTTs in ms.
"""
