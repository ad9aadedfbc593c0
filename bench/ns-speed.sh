#!/usr/bin/env bash
# Speed of our patched ns against Debian's packaged ns2 on the same scenario (Floyd 1991
# Figure 6 as configured: n = 5 congested gateways, all 6 connections; 5000 s simulated).
# Prints the best-of-R wall time of each and the ratio (> 1: ours is faster), and whether
# both wrote identical results.
# Usage: bench/ns-speed.sh OUR_NS [DEBIAN_NS] [REPEATS]
# Debian's binary: apt-get install ns2 (root) -> /usr/bin/ns. Not needed by anything else.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
ours=${1:?usage: bench/ns-speed.sh OUR_NS [DEBIAN_NS] [REPEATS]}
theirs=${2:-/usr/bin/ns}
reps=${3:-5}
if [ ! -x "$theirs" ]; then
  if [ "$(id -u)" -eq 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ns2 >/dev/null 2>&1
  else
    echo "bench: Debian's ns not found at $theirs; run as root: apt-get install ns2" >&2; exit 1
  fi
fi
# The scenario's parameters come from the project config (one definition): Floyd's Figure 6
# experiment at paper fidelity, point n = 5, seed 1, run for $sim_s simulated seconds (long
# enough for >= 10 s of wall time, so start-up does not dominate).
sim_s=${SIM_S:-5000}
py=${PYTHON:-$here/.venv/bin/python}
mapfile -t args < <(cd "$here" && "$py" - "$sim_s" <<'PY'
import sys
from pathlib import Path
from analysis import config as conf
from analysis.nsrun import format_value
cfg = conf.load([Path("config/config.yaml"), *sorted(Path("config/experiments").glob("*.yaml"))])
run = next(r for r in conf.runs(cfg, "floyd1991", "fig06", "paper") if r.point.get("n") == 5 and r.seed == 1)
params = {**run.params, "duration": float(sys.argv[1])}
for k, v in params.items():
    print(f"{k}={format_value(v)}")
print("ns_id=bench")
PY
)
[ ${#args[@]} -gt 5 ] || { echo "bench: could not read the scenario from the config" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
best() {  # best wall time of $reps runs of binary $1 writing to $2
  local b=999999 t0 t1 dt
  for _ in $(seq "$reps"); do
    t0=$(date +%s.%N)
    rm -rf "$2"
    if ! "$1" "$here/tcl/floyd1991/gateways.tcl" "${args[@]}" out="$2" > "$tmp/ns.log" 2>&1 \
        || [ ! -s "$2/summary.json" ]; then
      # a bench never times a failed run
      echo "bench: $1 failed on the scenario (no summary.json); its output:" >&2
      tail -5 "$tmp/ns.log" >&2
      exit 1
    fi
    t1=$(date +%s.%N)
    dt=$(echo "$t1 - $t0" | bc -l)
    b=$(echo "if ($dt < $b) $dt else $b" | bc -l)
  done
  printf '%.3f' "$b"
}
[ -x "$theirs" ] || { echo "bench: $theirs is not an executable ns" >&2; exit 1; }
t_ours=$(best "$ours" "$tmp/ours")
t_theirs=$(best "$theirs" "$tmp/theirs")
same=yes
for f in "$tmp"/ours/*.tsv; do
  cmp -s "$f" "$tmp/theirs/$(basename "$f")" || { same="no ($(basename "$f") differs)"; break; }
done
echo "scenario: Floyd 1991 Figure 6 (config), n=5, 6 connections, $sim_s s simulated; best of $reps"
printf '%-28s %8s s\n' "ours ($(basename "$ours"))" "$t_ours" "Debian ns2 ($theirs)" "$t_theirs"
printf 'speed ratio (Debian / ours): %.2f (>= 1.0: ours at least as fast)\n' "$(echo "$t_theirs / $t_ours" | bc -l)"
echo "identical results: $same"
# Wall time is noisy on a shared machine; instruction counts are not (callgrind counts the
# same total for the same binary and input whatever else runs). 100 s simulated.
if command -v valgrind >/dev/null; then
  short=("${args[@]/duration=*/duration=100.0}")
  count() {
    rm -rf "$tmp/cg"
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" "$here/tcl/floyd1991/gateways.tcl" \
      "${short[@]}" out="$tmp/cg" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
    [ -s "$tmp/cg/summary.json" ] || { echo "bench: $1 failed under callgrind" >&2; exit 1; }
  }
  i_ours=$(count "$ours"); i_theirs=$(count "$theirs")
  printf '%-28s %14s instructions (100 s simulated)\n' "ours" "$i_ours" "Debian ns2" "$i_theirs"
  printf 'instruction ratio (Debian / ours): %.4f\n' "$(echo "$i_theirs / $i_ours" | bc -l)"
fi
