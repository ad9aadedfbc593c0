#!/usr/bin/env bash
# Per-packet CPU cost of the router queues of patches 0010-0012 (CHOKe, CHOKe+, Protocol I,
# Protocol II) and of DropTail, in ns, as the number of active flows grows.
# Usage: bench/router-cost.sh NS_BINARY [PACKETS] [REPEATS] [FLOWS...]
#   PACKETS  offered packets per point, the same at every flow count (default 1000000)
#   REPEATS  runs per point; the smallest CPU time counts (default 5)
#   FLOWS    flow counts (default 10 100 1000 10000)
# Each point is one ns process (bench/router-cost.tcl): FLOWS CBR/UDP sources, each sending
# PACKETS/FLOWS packets, together at 1.2x a 10 Mb/s bottleneck with a 500-packet buffer
# (RED part 100/300/0.1/0.002 gentle; CHOKe k 1; CHOKe+ k 5, 0.95, 0.80; Protocols H 100,
# L 50). Only the CPU time of "$ns run" counts (creating 10,000 agents takes seconds and is
# excluded). The cost of the simulation itself (sources, scheduler, links: it grows with
# the number of flows) is the DropTail run at the same flow count: the table gives each
# queue's cost per packet, its ratio to DropTail, and the extra cost over DropTail; the
# last column is the growth of that ratio from the first to the last flow count.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
ns=${1:?usage: bench/router-cost.sh NS_BINARY [PACKETS] [REPEATS] [FLOWS...]}
packets=${2:-1000000}
reps=${3:-5}
shift $(( $# < 3 ? $# : 3 ))
flows=("$@"); [ ${#flows[@]} -gt 0 ] || flows=(10 100 1000 10000)
classes=(droptail protocol1 protocol2 choke chokeplus)
[ -x "$ns" ] || { echo "router-cost: no ns binary at $ns" >&2; exit 1; }

# The classes take turns within each repeat, so a burst of load from another process
# hits them alike; the smallest CPU time of the repeats counts.
declare -A cpu all
for n in "${flows[@]}"; do
  for r in $(seq "$reps"); do
    for c in "${classes[@]}"; do
      out=$("$ns" "$here/bench/router-cost.tcl" "$c" "$n" "$packets" "$r")
      read -r t _ _ sent arr dep drp <<< "$out"
      [ "$arr" -eq "$sent" ] || { echo "router-cost: $c $n: $arr of $sent packets arrived" >&2; exit 1; }
      if [ -z "${cpu[$c,$n]:-}" ] || awk -v a="$t" -v b="${cpu[$c,$n]}" 'BEGIN{exit !(a < b)}'; then cpu[$c,$n]=$t; fi
      all[$c,$n]="${all[$c,$n]:-}$t "
    done
  done
  for c in "${classes[@]}"; do
    printf 'router-cost: %-9s %6d flows: CPU s per run: %s-> best %s\n' "$c" "$n" "${all[$c,$n]}" "${cpu[$c,$n]}" >&2
  done
done

echo "Per-packet CPU cost in ns: $packets packets per point, best of $reps runs, \$ns run only"
printf '%-10s' "queue"; for n in "${flows[@]}"; do printf ' %18s' "$n flows"; done; printf ' %12s\n' "ratio growth"
for c in "${classes[@]}"; do
  printf '%-10s' "$c"
  first=; last=
  for n in "${flows[@]}"; do
    read -r ns_pkt ratio <<< "$(awk -v t="${cpu[$c,$n]}" -v d="${cpu[droptail,$n]}" -v p="$packets" \
      'BEGIN{printf "%.0f %.2f", t/p*1e9, t/d}')"
    printf ' %9s (%5sx)' "$ns_pkt" "$ratio"
    [ -n "$first" ] || first=$ratio
    last=$ratio
  done
  awk -v a="$first" -v b="$last" 'BEGIN{printf " %11.2fx\n", b/a}'
done
echo
echo "Extra cost over DropTail (ns per packet, the queue's own work beyond a FIFO):"
printf '%-10s' "queue"; for n in "${flows[@]}"; do printf ' %12s' "$n flows"; done; echo
for c in "${classes[@]}"; do
  [ "$c" = droptail ] && continue
  printf '%-10s' "$c"
  for n in "${flows[@]}"; do
    awk -v t="${cpu[$c,$n]}" -v d="${cpu[droptail,$n]}" -v p="$packets" 'BEGIN{printf " %12.0f", (t-d)/p*1e9}'
  done
  echo
done
echo
echo "Baseline (DropTail, the simulation itself) grows $(awk -v a="${cpu[droptail,${flows[0]}]}" -v b="${cpu[droptail,${flows[-1]}]}" 'BEGIN{printf "%.2fx", b/a}') from ${flows[0]} to ${flows[-1]} flows."
