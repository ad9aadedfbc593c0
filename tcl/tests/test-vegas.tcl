# Agent/TCP/Vegas options (patch 0023) for Tang, Wang, Hegde, Low: fractional
# v_alpha_/v_beta_ (5.5 packets per flow), v_round_delta_ false (compare the unrounded
# backlog estimate), v_ignore_ecn_ (ECN-capable packets, ECN-Echo ignored, so RED
# marking prices only Reno). Defaults keep stock Vegas.
source [file join [file dirname [info script]] testlib.tcl]

# One Vegas flow over a 10 Mb/s, 20 ms bottleneck (1000-byte packets, propagation RTT
# 44 ms). In equilibrium Vegas keeps between v_alpha_ and v_beta_ of its packets queued.
# The bottleneck queue (packets waiting) is sampled every 10 ms on [20, 40] s.
# aqm: droptail, or red = RED marking (setbit_) with thresholds 1/3 packets and
# max_p 0.5 (every equilibrium queue is marked often).
# Prints: mean_queue min max ecn_responses marks early_drops
proc run_flow {alpha beta round ignore aqm ecn} {
    set ns [experiment::sim_new 1]
    set s [$ns node]; set r [$ns node]; set d [$ns node]
    experiment::duplex $s $r 100Mb 1ms DropTail 1000
    if {$aqm eq "red"} {
        experiment::simplex $r $d 10Mb 20ms RED 1000
        experiment::set_knobs [experiment::queue $r $d] {bytes_ false queue_in_bytes_ false thresh_ 1
            maxthresh_ 3 q_weight_ 1 linterm_ 2 setbit_ true gentle_ false wait_ false
            use_mark_p_ true mark_p_ 2.0 mean_pktsize_ 1040}
    } else {
        experiment::simplex $r $d 10Mb 20ms DropTail 1000
    }
    experiment::simplex $d $r 10Mb 20ms DropTail 1000
    set fm [experiment::flowmon $r $d]
    set knobs [list v_alpha_ $alpha v_beta_ $beta v_round_delta_ $round \
        v_ignore_ecn_ $ignore ecn_ $ecn window_ 10000 packetSize_ 1000]
    lassign [experiment::tcp_flow $s $d vegas 1 $knobs] tcp sink ftp
    $tcp check
    set ::q {}
    for {set i 2000} {$i <= 4000} {incr i} {
        $ns at [expr {$i * 0.01}] "lappend ::q \[$fm set pkts_\]"
    }
    set ::marks 0
    $ns at 0.0 "$ftp start"
    $ns at 40.01 "$ns halt"
    $ns run
    set sum 0
    foreach x $::q { set sum [expr {$sum + $x}] }
    set q [lsort -integer $::q]
    lassign [experiment::flow_counts $fm 1] fid c
    return [list [expr {double($sum) / [llength $::q]}] [lindex $q 0] [lindex $q end] \
        [$tcp set necnresponses_] [$fm set pmarks_] [lindex $c 2]]
}

if {[lindex $argv 0] eq "flow"} {
    puts [run_flow {*}[lrange $argv 1 end]]
    exit 0
}

# stock parameters (1, 3): the queue stays in the band
lassign [t::subrun flow 1 3 true false droptail 0] m lo hi
t::between $m 1.0 3.0 "stock Vegas (alpha 1, beta 3): mean queue between alpha and beta"
# alpha = beta: the backlog is held at alpha (rounded estimate: the crossing is at the
# half-integer). If a fractional alpha were truncated (5.5 -> 5) the mean would be 5.38.
# (For alpha <= 3.5 a single Vegas flow overshoots by about half a packet: 3.03 at 2.5,
# 4.03 at 3.5 -- stock Vegas dynamics, per-RTT steps acting one RTT late.)
foreach a {4.5 5.5 8.5} {
    lassign [t::subrun flow $a $a true false droptail 0] m lo hi
    t::near $m $a 0.1 "Vegas alpha = beta = $a: mean queue ~ alpha (range $lo..$hi)"
    set mean($a) $m
}
# unrounded estimate: targets between half-integers (rounded, both would sit at 4.5)
foreach a {4.2 4.8} {
    lassign [t::subrun flow $a $a false false droptail 0] m lo hi
    t::near $m $a 0.25 "Vegas v_round_delta_ false, alpha = beta = $a: mean queue ~ alpha (range $lo..$hi)"
    set mean($a) $m
}
t::check {$mean(4.8) - $mean(4.2) > 0.4} "Vegas v_round_delta_ false: 0.6 packets more alpha, more queue ($mean(4.2), $mean(4.8))"

# ECN: under RED marking, v_ignore_ecn_ sends ECN-capable packets (marked, not dropped)
# and does not react: the queue is as under drop-tail.
lassign [t::subrun flow 5.5 5.5 true true red 1] m lo hi necn marks edrops
t::check {$marks > 100 && $edrops == 0} "Vegas v_ignore_ecn_ under RED: packets marked ($marks), none dropped early ($edrops)"
t::check {$necn == 0} "Vegas v_ignore_ecn_: no response to ECN ($necn)"
t::near $m $mean(5.5) 0.3 "Vegas v_ignore_ecn_ under RED: same queue as under drop-tail"
# stock Vegas with ecn_ 1 reacts to ECN-Echo (and sends no ECN-capable packets, so RED
# drops instead of marking)
lassign [t::subrun flow 5.5 5.5 true false red 1] m2 lo hi necn2 marks2 edrops2
t::check {$marks2 == 0 && $edrops2 > 0} "stock Vegas under RED: not ECN-capable, dropped ($edrops2 drops, $marks2 marks)"

# bad parameters
set ns [new Simulator]
set tcp [new Agent/TCP/Vegas]
$tcp set v_alpha_ 4; $tcp set v_beta_ 3
t::error_like {$tcp check} "*need 0 <= v_alpha_ <= v_beta_*" "Vegas: alpha > beta is refused"
$tcp set v_alpha_ -1
t::error_like {$tcp check} "*need 0 <= v_alpha_ <= v_beta_*" "Vegas: a negative alpha is refused"
t::done
