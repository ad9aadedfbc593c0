#!/usr/bin/env bash
# Speed of our patched ns against Debian's packaged ns2 on the same scenario (Floyd 1991
# topology, n = 5 congested gateways, all 6 connections, RED, SACK, 500 s simulated).
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
args=(n=5 active=all gateway=red tcp=sack increase=one window_const=4 window_extra=61
  ssthresh_half=false gw_bw=1500000 gw_delay=0.05 access_bw=10000000 access_delay=0.005
  gw_buffer=60 other_buffer=1000 pkt_size=1000 ack_size=40 red_thresh=10 red_maxthresh=20
  red_q_weight=0.002 red_linterm=30 red_wait=false red_gentle=false red_drop_rand=true
  overhead=0 duration=500 period=50 start_max=1 tcp_tick=0.01 min_rto=0.2 window_init=1
  cwnd_interval=0 seed=1 ns_id=bench)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
best() {  # best wall time of $reps runs of binary $1 writing to $2
  local b=999999 t0 t1 dt
  for _ in $(seq "$reps"); do
    t0=$(date +%s.%N)
    "$1" "$here/tcl/floyd1991/gateways.tcl" "${args[@]}" out="$2" 2>/dev/null
    t1=$(date +%s.%N)
    dt=$(echo "$t1 - $t0" | bc -l)
    b=$(echo "if ($dt < $b) $dt else $b" | bc -l)
  done
  printf '%.3f' "$b"
}
[ -x "$theirs" ] || { echo "bench: $theirs is not an executable ns" >&2; exit 1; }
t_ours=$(best "$ours" "$tmp/ours")
t_theirs=$(best "$theirs" "$tmp/theirs")
same=no
cmp -s "$tmp/ours/gateways.tsv" "$tmp/theirs/gateways.tsv" && cmp -s "$tmp/ours/goodput.tsv" "$tmp/theirs/goodput.tsv" && same=yes
echo "scenario: Floyd 1991 topology, n=5, 6 connections, RED, SACK, 500 s simulated; best of $reps"
printf '%-28s %8s s\n' "ours ($(basename "$ours"))" "$t_ours" "Debian ns2 ($theirs)" "$t_theirs"
printf 'speed ratio (Debian / ours): %.2f (>= 1.0: ours at least as fast)\n' "$(echo "$t_theirs / $t_ours" | bc -l)"
echo "identical results: $same"
# Wall time is noisy on a shared machine; instruction counts are not (callgrind counts the
# same total for the same binary and input whatever else runs). 100 s simulated.
if command -v valgrind >/dev/null; then
  short=("${args[@]/duration=500/duration=100}")
  count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" "$here/tcl/floyd1991/gateways.tcl" \
      "${short[@]}" out="$tmp/cg" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
  }
  i_ours=$(count "$ours"); i_theirs=$(count "$theirs")
  printf '%-28s %14s instructions (100 s simulated)\n' "ours" "$i_ours" "Debian ns2" "$i_theirs"
  printf 'instruction ratio (Debian / ours): %.4f\n' "$(echo "$i_theirs / $i_ours" | bc -l)"
fi
