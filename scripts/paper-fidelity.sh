#!/usr/bin/env bash
# Make one paper at a fidelity (default paper) and record its diff as a reference:
#   scripts/paper-fidelity.sh PAPER [--fidelity F] [--cores N]
# (python -m analysis.reference make): the run is timed (wall, and the CPU of every process
# of it), then paper/reference/PAPER-F.csv is written with the commit, the ns identity, the
# times, the jobs, the date and PAPER's rows of paper/generated/diff.csv. Results are kept per
# fidelity, so an interrupted run resumes; a failed run records nothing. Commit the file.
set -euo pipefail
cd "$(dirname "$0")/.."
py=.venv/bin/python
[ -x "$py" ] || py=python3
exec "$py" -m analysis.reference make "$@"
