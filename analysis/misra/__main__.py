r"""``python -m analysis.misra STEP``: the contract of :mod:`analysis.cli`.

    python -m analysis.misra FIG --runs RUN/summary.json ... --tidy T.csv --numbers N.csv \
        --extra DIR                        # FIG: fig01..fig07, ext01 (DIR stays empty)
    python -m analysis.misra theory --params '{"experiments": ..., "parameters": ...}' \
        --numbers N.csv --claims C.csv
    python -m analysis.misra claims --inputs results/misra/FIG/FID/tidy.csv ... --tidy T.csv \
        --numbers N.csv --claims C.csv --extra DIR

Only ``theory`` reads ``--params``: the paper's ``experiments`` and ``parameters`` (config
section ``misra``), whose paper-fidelity runs are the set-ups it evaluates. The figure steps
read everything from their runs; ``claims`` names each input by its path and writes, as its
tidy table, the simulations' errors against the theory
(:func:`analysis.misra.claims.errors_table`), which ``python -m analysis.plots.misra errors``
typesets.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from analysis.cli import analysis_parser, extra_dir, need, param, parse, run_dirs
from analysis.misra.setup import FIGURES, PAPER
from analysis.outputs import write_claims, write_numbers, write_tidy

# Each step imports the module of its job only (theory and claims import tidy in turn).


def main(argv: Sequence[str] | None = None) -> int:
    ap = analysis_parser(
        "python -m analysis.misra",
        "Misra, Baras, Ott analysis",
        [*FIGURES, "theory", "claims"],
    )
    a = parse(ap, argv)
    need(ap, a, "--numbers")
    if a.step == "theory":
        from analysis.misra.theory import theory_claims, theory_numbers

        need(ap, a, "--claims")
        config = {PAPER: {k: param(ap, a, k) for k in ("experiments", "parameters")}}
        write_numbers(theory_numbers(config), a.numbers)
        write_claims(theory_claims(config), a.claims)
        return 0
    need(ap, a, "--tidy", "--extra")
    if a.step == "claims":
        from analysis.misra.claims import errors_table, sim_claims, tables_of

        need(ap, a, "--inputs", "--claims")
        extra_dir(ap, a)
        tables = tables_of(a.inputs)
        numbers, checks = sim_claims(tables)
        write_numbers(numbers, a.numbers)
        write_claims(checks, a.claims)
        write_tidy(errors_table(tables), a.tidy)
        return 0
    from analysis.misra.tidy import analyse

    need(ap, a, "--runs")
    extra_dir(ap, a)
    tidy, numbers = analyse(a.step, run_dirs(a.runs))
    write_tidy(tidy, a.tidy)
    write_numbers(numbers, a.numbers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
