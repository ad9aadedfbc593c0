# monitors.tcl -- per-flow counters on links and periodic sampling.
#
# Counters are cumulative packet counts (ns-2 is built with 32-bit monitor counters, as
# Debian's ns: packet counts do not overflow where byte counts of long fast runs would).

# experiment::flowmon A B -- a per-flow monitor (classified by IP flow id) on link A -> B.
proc experiment::flowmon {a b} {
    set ns $::experiment::ns_
    set fm [$ns makeflowmon Fid]
    $ns attach-fmon [$ns link $a $b] $fm
    return $fm
}

# experiment::flow_counts FM FIDS -- {fid {arrivals departures drops} ...} for each fid in FIDS
# (zeros for a flow the monitor has not seen yet). drops include early (RED) drops.
proc experiment::flow_counts {fm fids} {
    array set seen {}
    foreach f [$fm flows] {
        set seen([$f set flowid_]) [list [$f set parrivals_] [$f set pdepartures_] [$f set pdrops_]]
    }
    set out {}
    foreach fid $fids {
        if {[info exists seen($fid)]} {
            lappend out $fid $seen($fid)
        } else {
            lappend out $fid {0 0 0}
        }
    }
    return $out
}

# experiment::every DT T_END SCRIPT -- evaluate SCRIPT (global level) at DT, 2 DT, ... <= T_END.
proc experiment::every {dt t_end script} {
    set ns $::experiment::ns_
    set n [expr {int(floor($t_end / $dt + 1e-9))}]
    for {set i 1} {$i <= $n} {incr i} {
        $ns at [expr {$i * $dt}] $script
    }
}
