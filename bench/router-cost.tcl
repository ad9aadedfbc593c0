# router-cost.tcl -- one point of bench/router-cost.sh: the CPU cost of pushing a fixed
# number of packets through one congested gateway queue.
#
#   ns bench/router-cost.tcl CLASS FLOWS PACKETS SEED
#
# CLASS is a experiment::gateway_setup name (droptail, choke, chokeplus, protocol1, protocol2).
# FLOWS UDP/CBR sources on node a, each sending exactly PACKETS/FLOWS packets of 1000 B
# (maxpkts_) with random_ jitter, together at 1.2x the 10 Mb/s bottleneck a -> b, whose
# queue (buffer 500 packets) is the one measured. Prints one line:
#   cpu_s run_s setup_s packets arrivals departures drops
# cpu_s is the process CPU time (user + system, /proc/self/stat) spent inside "$ns run";
# setup (creating the agents) is excluded.
set t_start [clock microseconds]
source [file join [file dirname [info script]] .. tcl lib experiment.tcl]

lassign $argv cls nflows npkts seed
set ns [experiment::sim_new $seed]
set a [$ns node]; set b [$ns node]
set bw 10e6
set limit 500
experiment::simplex $a $b $bw 1ms [experiment::gateway_class $cls] $limit
experiment::simplex $b $a $bw 1ms DropTail $limit
set red {thresh 100 maxthresh 300 q_weight 0.002 linterm 10 wait true gentle true mean_pktsize 1000}
switch -- $cls {
    droptail  { set knobs {} }
    choke     { set knobs [concat $red {k 1}] }
    chokeplus { set knobs [concat $red {k 5 gamma1 0.95 gamma2 0.8}] }
    protocol1 - protocol2 { set knobs {H 100 L 50} }
    default   { experiment::_fail "unknown class $cls" }
}
experiment::gateway_setup [experiment::queue $a $b] $cls $knobs
# a QueueMonitor (not per flow) to report what the queue did; the same for every class
set qm [$ns monitor-queue $a $b ""]

set per [expr {$npkts / $nflows}]
set rate [expr {1.2 * $bw / $nflows}]           ;# bit/s per flow
set interval [expr {8000.0 / $rate}]
set null [new Agent/Null]
$ns attach-agent $b $null
for {set i 0} {$i < $nflows} {incr i} {
    set u [new Agent/UDP]
    $u set fid_ $i
    $u set packetSize_ 1000
    $ns attach-agent $a $u
    $ns connect $u $null
    set cbr [new Application/Traffic/CBR]
    $cbr attach-agent $u
    $cbr set packetSize_ 1000
    $cbr set rate_ $rate
    $cbr set random_ 1
    $cbr set maxpkts_ $per
    $ns at [experiment::uniform 0 $interval] "$cbr start"
}
# the jitter of random_ 1 can stretch a flow's schedule; leave room for every packet
set t_end [expr {(1.5 * $per + 2) * $interval + 1.0}]
$ns at $t_end "$ns halt"

proc cpu_ticks {} {
    set fh [open /proc/self/stat]
    set s [read $fh]
    close $fh
    # fields after the ")" of the command name: utime and stime are fields 14 and 15
    set rest [string range $s [expr {[string last ")" $s] + 2}] end]
    return [expr {[lindex $rest 11] + [lindex $rest 12]}]
}
set hz 100
catch { set hz [exec getconf CLK_TCK] }
set t0 [clock microseconds]
set c0 [cpu_ticks]
$ns run
set c1 [cpu_ticks]
set t1 [clock microseconds]
puts [format "%.3f %.3f %.3f %d %d %d %d" [expr {double($c1 - $c0) / $hz}] \
    [expr {($t1 - $t0) / 1e6}] [expr {($t0 - $t_start) / 1e6}] \
    [expr {$per * $nflows}] [$qm set parrivals_] [$qm set pdepartures_] [$qm set pdrops_]]
