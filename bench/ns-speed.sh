#!/usr/bin/env bash
# Speed of our patched ns against another ns (default Debian's packaged ns2) on the papers'
# own scenarios, as configured (paper fidelity, seed 1, run longer so that each takes >= 10 s
# of wall time and start-up does not dominate):
#   floyd    Floyd 1991 Figure 6, n = 5 congested gateways, all 6 connections, 5000 s
#   akella   Akella et al., SACK over drop-tail, 10 flows, 1500 s, with stock TCP's first
#            decrease (always_decrease false: the configured true needs our patch 0022)
#   chokep   Akella et al., SACK over CHOKe+, 10 flows, 1500 s (needs our patch 0011: skipped
#            when the other binary has no CHOKe+)
# For each: the best-of-R wall time of both, their ratio (> 1: ours is faster), whether both
# wrote identical results, and the instructions each executes (callgrind, 100 s simulated:
# unlike wall time, the count is the same whatever else the machine runs).
# Usage: bench/ns-speed.sh OUR_NS [OTHER_NS] [REPEATS]
# Debian's binary: apt-get install ns2 (root) -> /usr/bin/ns. Not needed by anything else.
# A run that fails (or writes no summary) stops the bench with its output: never timed.
# SCENARIOS="floyd akella" limits the scenarios; CALLGRIND=0 skips the instruction counts.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
ours=${1:?usage: bench/ns-speed.sh OUR_NS [OTHER_NS] [REPEATS]}
theirs=${2:-/usr/bin/ns}
reps=${3:-3}
if [ ! -x "$theirs" ] && [ "$theirs" = /usr/bin/ns ]; then
  if [ "$(id -u)" -eq 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ns2 >/dev/null 2>&1
  else
    echo "bench: Debian's ns not found at $theirs; run as root: apt-get install ns2" >&2; exit 1
  fi
fi
for b in "$ours" "$theirs"; do
  [ -x "$b" ] || { echo "bench: $b is not an executable ns" >&2; exit 1; }
done
py=${PYTHON:-$here/.venv/bin/python}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# scenario NAME -> its Tcl script and arguments, read from the project config (one
# definition): paper, experiment, the point's filter, the simulated seconds
scenario() {
  (cd "$here" && "$py" - "$@" <<'PY'
import sys
from analysis import config as conf
from analysis.nsrun import format_value
paper, exp, key, value, sim_s = sys.argv[1:6]
overrides = dict(a.split("=", 1) for a in sys.argv[6:])
cfg = conf.load(conf.config_files())
runs = [r for r in conf.runs(cfg, paper, exp, "paper") if r.seed == 1]
if key != "-":
    runs = [r for r in runs if str(r.point.get(key)) == value]
run = runs[0]
print(conf.tcl_script(paper, cfg[paper]["experiments"][exp]["family"]))
params = {k: format_value(v) for k, v in run.params.items()}
unknown = sorted(set(overrides) - set(params))
if unknown:
    sys.exit(f"bench: {paper}/{exp} has no parameter {', '.join(unknown)}")
for k, v in {**params, "duration": format_value(float(sim_s)), **overrides}.items():
    print(f"{k}={v}")
print("ns_id=bench")
PY
  )
}

# run BINARY OUT SCRIPT ARGS...: one run; stops the bench when it fails
run() {
  local bin=$1 out=$2; shift 2
  rm -rf "$out"
  if ! "$bin" "$@" out="$out" > "$tmp/ns.log" 2>&1 || [ ! -s "$out/summary.json" ]; then
    echo "bench: $bin failed on the scenario (no summary.json); its output:" >&2
    tail -5 "$tmp/ns.log" >&2
    exit 1
  fi
}

best() {  # best wall time of $reps runs of binary $1 writing to $2; script and args follow
  local bin=$1 out=$2 b=999999 t0 t1 dt; shift 2
  for _ in $(seq "$reps"); do
    t0=$(date +%s.%N)
    run "$bin" "$out" "$@"
    t1=$(date +%s.%N)
    dt=$(echo "$t1 - $t0" | bc -l)
    b=$(echo "if ($dt < $b) $dt else $b" | bc -l)
  done
  printf '%.3f' "$b"
}

count() {  # instructions of one run of binary $1 (callgrind); script and args follow
  local bin=$1 n; shift
  rm -rf "$tmp/cg"
  n=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$@" out="$tmp/cg" 2>&1 \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
  [ -s "$tmp/cg/summary.json" ] && [ -n "$n" ] || { echo "bench: $bin failed under callgrind" >&2; exit 1; }
  echo "$n"
}

has_chokeplus() {  # does binary $1 know the CHOKe+ queue?
  echo 'if {[catch {new Queue/RED/CHOKePlus}]} {exit 1}; exit 0' > "$tmp/probe.tcl"
  "$1" "$tmp/probe.tcl" > /dev/null 2>&1
}

declare -A spec=(
  [floyd]="floyd1991 fig06 n 5 5000"
  [akella]="akella2002 sack_droptail_alpha - - 1500 always_decrease=false"
  [chokep]="akella2002 sack_chokeplus_beta - - 1500"
)
declare -A label=(
  [floyd]="Floyd 1991 Fig. 6, n=5, 6 connections"
  [akella]="Akella et al., SACK/drop-tail, 10 flows"
  [chokep]="Akella et al., SACK/CHOKe+, 10 flows"
)
echo "ours:  $ours"
echo "other: $theirs"
printf '%-40s %9s %9s %7s %9s %15s %15s %7s\n' scenario "ours s" "other s" ratio identical \
  "ours instr" "other instr" ratio
for name in ${SCENARIOS:-floyd akella chokep}; do
  [ -n "${spec[$name]:-}" ] || { echo "bench: unknown scenario $name" >&2; exit 1; }
  if [ "$name" = chokep ] && ! has_chokeplus "$theirs"; then
    echo "${label[$name]}: skipped ($theirs has no CHOKe+)"; continue
  fi
  read -r paper exp key value sim_s extra <<< "${spec[$name]}"
  mapfile -t lines < <(scenario "$paper" "$exp" "$key" "$value" "$sim_s" ${extra:-})
  [ ${#lines[@]} -gt 5 ] || { echo "bench: could not read scenario $name from the config" >&2; exit 1; }
  script=${lines[0]} args=("${lines[@]:1}")
  t_ours=$(best "$ours" "$tmp/ours" "$script" "${args[@]}")
  t_theirs=$(best "$theirs" "$tmp/theirs" "$script" "${args[@]}")
  same=yes
  for f in "$tmp"/ours/*.tsv; do
    cmp -s "$f" "$tmp/theirs/$(basename "$f")" || { same="no:$(basename "$f")"; break; }
  done
  i_ours=- i_theirs=- i_ratio=-
  if [ "${CALLGRIND:-1}" != 0 ] && command -v valgrind > /dev/null; then
    short=("${args[@]/duration=*/duration=100.0}")
    i_ours=$(count "$ours" "$script" "${short[@]}")
    i_theirs=$(count "$theirs" "$script" "${short[@]}")
    i_ratio=$(printf '%.3f' "$(echo "$i_theirs / $i_ours" | bc -l)")
  fi
  printf '%-40s %9s %9s %7.3f %9s %15s %15s %7s\n' "${label[$name]}, ${sim_s} s" "$t_ours" \
    "$t_theirs" "$(echo "$t_theirs / $t_ours" | bc -l)" "$same" "$i_ours" "$i_theirs" "$i_ratio"
done
echo "ratio: other / ours (> 1: ours is faster); wall: best of $reps; instructions: 100 s simulated"
