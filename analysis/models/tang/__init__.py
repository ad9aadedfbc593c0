"""Equilibrium model of Tang, Wang, Hegde, Low, "Equilibrium and Fairness of Networks Shared by
TCP Reno and Vegas/FAST" (2005), in three modules; import each name from the module that
defines it:

* :mod:`analysis.models.tang.network` -- the model of Sec 2: links, price maps (eq. 3 and RED's
  eq. 17), flow groups, the Reno and Vegas/FAST rate functions (eqs 4, 7) and the model
  evaluated at given link prices (:func:`~analysis.models.tang.network.equilibrium_at`).
* :mod:`analysis.models.tang.solver` -- every equilibrium of a network (active-set
  enumeration, :func:`~analysis.models.tang.solver.find_equilibria`); nothing in it is about
  one of the paper's networks.
* :mod:`analysis.models.tang.recipes` -- the paper's propositions and figures built on the
  two: the Figure 1 network and Proposition 1 (Sec 3), Propositions 2 and 3 (Sec 4), the
  theory curves of Figures 9-10 (Sec 6.1) and 13-14 (Sec 6.2).
"""
