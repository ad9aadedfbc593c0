# Random Drop (experiment::gateway_setup ... randomdrop: stock Queue/RED with drop_rand_ and
# thresholds above the buffer). Floyd 1991 Sec 3 (docs/floyd1991.md A5): on overflow the arrival is
# enqueued and one packet chosen uniformly among all queued ones is dropped.
source [file join [file dirname [info script]] testlib.tcl]

# Flow 1 puts 10 packets on a slow link at t = 0 (one in transmission, 9 queued). Flow 2
# then sends 20 packets. ns-2's DropTail with limit_ L keeps at most L - 1 waiting (it drops
# when length + 1 >= L); RED keeps L. So Drop Tail drops all 20 of flow 2's arrivals and
# none of flow 1's; Random Drop accepts one more and then, at each of the 19 overflows, picks
# its victim among the 10 queued + the arrival, so flow 1 loses packets it sent before the
# queue was ever full. Returns {drops1 drops2 arrivals departures drops queued}.
proc scenario {kind seed} {
    set ns [experiment::sim_new $seed]
    set a [$ns node]; set b [$ns node]; set c [$ns node]
    experiment::duplex $a $b 100Mb 1ms DropTail 1000
    experiment::simplex $b $c 80Kb 1ms [experiment::gateway_class $kind] 10
    experiment::simplex $c $b 80Kb 1ms DropTail 10
    experiment::gateway_setup [experiment::queue $b $c] $kind {thresh 5 maxthresh 15 q_weight 0.002 linterm 10 wait false gentle false drop_rand true mean_pktsize 1000}
    set fm [experiment::flowmon $b $c]
    foreach {fid n start} {1 10 0.0 2 20 0.05} {
        set u($fid) [new Agent/UDP]; $u($fid) set fid_ $fid; $u($fid) set packetSize_ 1000
        set s($fid) [new Agent/Null]
        $ns attach-agent $a $u($fid); $ns attach-agent $c $s($fid); $ns connect $u($fid) $s($fid)
        set cbr($fid) [new Application/Traffic/CBR]
        $cbr($fid) attach-agent $u($fid)
        $cbr($fid) set packetSize_ 1000
        $cbr($fid) set interval_ 0.0001
        $cbr($fid) set maxpkts_ $n
        $ns at $start "$cbr($fid) start"
    }
    set ::res {}
    $ns at 0.5 [list apply {{fm} {
        array set c [experiment::flow_counts $fm {1 2}]
        set arr [expr {[lindex $c(1) 0] + [lindex $c(2) 0]}]
        set dep [expr {[lindex $c(1) 1] + [lindex $c(2) 1]}]
        set drp [expr {[lindex $c(1) 2] + [lindex $c(2) 2]}]
        set ::res [list [lindex $c(1) 2] [lindex $c(2) 2] $arr $dep $drp [$fm set pkts_]]
    }} $fm]
    $ns at 0.6 "$ns halt"
    $ns run
    return $::res
}

if {[lindex $argv 0] eq "scenario"} {
    puts [scenario [lindex $argv 1] [lindex $argv 2]]
    exit 0
}

lassign [t::subrun scenario droptail 1] d1 d2 arr dep drp q
t::check {$d1 == 0 && $d2 == 20} "drop tail: only the arrivals at the full queue are dropped (flow 1: $d1, flow 2: $d2)"

set total1 0
set total2 0
for {set seed 1} {$seed <= 20} {incr seed} {
    lassign [t::subrun scenario randomdrop $seed] d1 d2 arr dep drp q
    t::check {$arr == $dep + $drp + $q} "random drop seed $seed: conservation (arrivals $arr = departures $dep + drops $drp + queued $q)"
    t::check {$d1 + $d2 == 19} "random drop seed $seed: one drop per arrival at a full queue ($d1 + $d2)"
    incr total1 $d1
    incr total2 $d2
}
# A victim is not always the arrival:
t::check {$total1 > 0} "random drop: packets queued before overflow are dropped too (flow 1 lost $total1 over 20 seeds)"
t::check {$total2 > 0} "random drop: arrivals are dropped too (flow 2 lost $total2 over 20 seeds)"
# Expected number of flow-1 victims: an urn. At the first overflow 9 of flow 1 and 2 of
# flow 2 are in the urn (11 = 10 queued + arrival); each overflow removes one of 11
# uniformly and an arrival of flow 2 refills it. Arrivals are 100 us apart and the 80 kb/s
# link needs 100 ms per packet, so nothing departs meanwhile and the urn is exact:
# E[k_{i+1}] = E[k_i] * 10/11, E[drops of flow 1] = sum_i E[k_i] / 11 over 19 overflows.
set ek 9.0
set expect1 0.0
for {set i 0} {$i < 19} {incr i} {
    set expect1 [expr {$expect1 + $ek / 11.0}]
    set ek [expr {$ek * 10.0 / 11.0}]
}
set mean1 [expr {$total1 / 20.0}]
# binomial-like spread: sd of a single run <= sqrt(20 * 0.25) ~ 2.2; of the mean of 20 ~ 0.5
t::near $mean1 $expect1 1.5 "random drop: mean flow-1 drops per run matches the urn model"
t::done
