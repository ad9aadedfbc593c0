# CHOKe (Queue/RED/CHOKe, patch 0010; experiment::gateway_setup ... choke). Pan, Prabhakar,
# Psounis 2000 (Akella et al. Sec 5.1; docs/akella2002.md A10): once RED's average reaches
# min_th, each arrival P is compared with k packets drawn at random from the queue; a
# match drops P and the matching candidates, a mismatch leaves them and RED decides on P.
#
# The checks read ns-2's own queue trace ("+" arrival, "-" departure, "d" drop) and
# rebuild the queue's content from it, so they observe the queue from outside:
#   - every drop belongs to an arrival, and comes as P plus its matching candidates,
#     all of P's flow, all waiting in the queue (never the packet in transmission);
#   - the number of CHOKe events and victims agrees with the sampling law computed from
#     the rebuilt queue (k = 1: P(match) = n_f/q; k = 3: hypergeometric), so candidates
#     are drawn uniformly and without replacement;
#   - the flow monitor charges every drop to the right flow, and packets are conserved;
#   - with no possible match (every packet its own flow, k >= buffer: no random draw)
#     CHOKe makes exactly Queue/RED's decisions;
#   - one UDP flow among TCP flows gets far less under CHOKe than under DropTail;
#   - same seed -> identical counters; bad parameters -> a Tcl error.
source [file join [file dirname [info script]] testlib.tcl]

# (dumbbell, udp_flow, analyse_trace, lnchoose, ect_cbr: testlib.tcl)

# --- scenarios (each in its own ns process) -----------------------------------------------

# Three CBR flows (250, 500, 750 kb/s) on a 1 Mb/s link. RED never drops (max_p 1e-12,
# max_th out of reach), the buffer never fills, q_weight 1: avg = the queue seen by the
# arrival, so CHOKe samples exactly when q >= thresh. Sources stop at 20 s, the queue
# drains by 25 s. Prints the trace analysis and the flow monitor's counters.
proc scenario_sampling {seed k} {
    lassign [dumbbell $seed [experiment::gateway_class choke] 10000 1Mb] ns a b c
    set q [experiment::queue $b $c]
    experiment::gateway_setup $q choke [list thresh 5 maxthresh 1e6 q_weight 1 linterm 1e12 \
        wait false gentle false mean_pktsize 1000 k $k]
    set tf [open trace.tr w]
    $ns trace-queue $b $c $tf
    set fm [experiment::flowmon $b $c]
    set sinks {}
    foreach {fid rate} {1 250k 2 500k 3 750k} {
        lassign [udp_flow $a $c $fid $rate] cbr s
        lappend sinks $s
        $ns at 0.0 "$cbr start"
        $ns at 20.0 "$cbr stop"
    }
    set ::out {}
    $ns at 25.0 [list apply {{fm sinks tf} {
        close $tf
        set rcv 0
        foreach s $sinks { incr rcv [$s set npkts_] }
        set ::out [list fm [experiment::flow_counts $fm {1 2 3}] queued [$fm set pkts_] \
            arr [$fm set parrivals_] dep [$fm set pdepartures_] drp [$fm set pdrops_] rcv $rcv \
            trace [analyse_trace trace.tr]]
    }} $fm $sinks $tf]
    $ns at 25.0 "$ns halt"
    $ns run
    return $::out
}

# No match is possible: every packet is its own flow (one UDP agent whose fid_ changes
# before each send), and k >= buffer, so CHOKe "draws" the whole queue without touching
# the random stream. It must then make exactly Queue/RED's decisions (early and forced
# drops, overflow). Arrivals at 2x the link rate at random times. Prints the dropped uids.
proc scenario_red_equiv {cls} {
    set knobs {thresh 5 maxthresh 15 q_weight 0.02 linterm 10 wait true gentle true mean_pktsize 1000}
    if {$cls eq "red"} { lappend knobs drop_rand false } else { lappend knobs k 30 }
    return [red_equiv_drops $cls $knobs]
}

# One UDP flow at 3 Mb/s and 8 SACK flows on a 2 Mb/s link (Gao Sim 2.1 in small);
# prints the UDP flow's and the TCP flows' departures over [10, 40] s.
proc scenario_udp {cls seed} {
    return [udp_vs_tcp $cls $seed 100 {thresh 20 maxthresh 60 q_weight 0.002 linterm 50
        wait true gentle true mean_pktsize 1000 k 1 drop_rand false}]
}

# Bad parameters: prints {rc message} of "check", then of "$ns run".
proc scenario_bad {knob value} {
    lassign [dumbbell 1 [experiment::gateway_class choke] 100 1Mb] ns a b c
    set q [experiment::queue $b $c]
    $q set $knob $value
    set rc1 [catch {$q check} m1]
    set rc2 [catch {$ns run} m2]
    return [list $rc1 $m1 $rc2 $m2]
}

switch -- [lindex $argv 0] {
    sampling  { puts [scenario_sampling [lindex $argv 1] [lindex $argv 2]]; exit 0 }
    red_equiv { puts [scenario_red_equiv [lindex $argv 1]]; exit 0 }
    udp       { puts [scenario_udp [lindex $argv 1] [lindex $argv 2]]; exit 0 }
    bad       { puts [list [scenario_bad [lindex $argv 1] [lindex $argv 2]]]; exit 0 }
}

# --- checks ----------------------------------------------------------------------------

# The events of a sampling run against the sampling law for k candidates.
proc check_sampling {res k label} {
    set tr [dict get $res trace]
    set ev [dict get $tr events]
    set nevents 0; set nvict 0; set bad 0; set below 0
    set e_events 0.0; set v_events 0.0; set e_vict 0.0; set v_vict 0.0
    foreach e $ev {
        lassign $e fid q n ok nv pd
        if {$pd > 1 || ($pd == 0 && $nv > 0) || !$ok} { incr bad }
        if {$pd == 1} {
            incr nevents
            incr nvict $nv
            if {$q < 5} { incr below }
        }
        if {$q >= 5} {
            # P(m >= 1) and E[m], Var[m] for min(k, q) candidates among q, n of P's flow
            if {$q <= $k} {
                set p [expr {$n > 0 ? 1.0 : 0.0}]; set em [expr {double($n)}]; set vm 0.0
            } else {
                set p [expr {1.0 - exp([lnchoose [expr {$q - $n}] $k] - [lnchoose $q $k])}]
                set f [expr {double($n) / $q}]
                set em [expr {$k * $f}]
                set vm [expr {$k * $f * (1 - $f) * ($q - $k) / ($q - 1.0)}]
            }
            set e_events [expr {$e_events + $p}]
            set v_events [expr {$v_events + $p * (1 - $p)}]
            set e_vict [expr {$e_vict + $em}]
            set v_vict [expr {$v_vict + $vm}]
        }
    }
    t::check {[dict get $tr stray] == 0} "$label: every drop follows an arrival ([dict get $tr stray] stray)"
    t::check {$nevents > 300} "$label: CHOKe events happened ($nevents)"
    t::check {$bad == 0} "$label: every event drops P and only waiting packets of P's flow ($bad bad of [llength $ev] arrivals)"
    t::check {$below == 0} "$label: no drop while the queue is below min_th ($below)"
    set zs [expr {($nevents - $e_events) / sqrt($v_events)}]
    t::between $zs -4 4 "$label: events $nevents vs sampling law [format %.1f $e_events] (z)"
    if {$k > 1} {
        # every match is dropped, so victims = sum of m over the events
        set zv [expr {($nvict - $e_vict) / sqrt($v_vict)}]
        t::between $zv -4 4 "$label: victims $nvict vs hypergeometric mean [format %.1f $e_vict] (z)"
    } else {
        t::check {$nvict == $nevents} "$label: exactly one victim per event ($nvict victims, $nevents events)"
    }
    # flow monitor vs trace, per flow; conservation
    array set dt [dict get $tr drops_by_fid]
    set same 1
    foreach {fid c} [dict get $res fm] {
        set d [expr {[info exists dt($fid)] ? $dt($fid) : 0}]
        if {[lindex $c 2] != $d} { set same 0 }
        if {$k == 1 && [lindex $c 2] % 2 != 0} { set same 0 }
    }
    t::check {$same} "$label: flow monitor drops per flow = trace drops per flow[expr {$k == 1 ? { (all even: pairs)} : {}}] ([dict get $res fm])"
    dict with res {
        t::check {$arr == $dep + $drp + $queued && $queued == 0 && $rcv == $dep && $arr == [dict get $tr arrivals]} \
            "$label: conservation: arrivals $arr = departures $dep + drops $drp + queued $queued; received $rcv"
    }
}

set r1 [t::subrun sampling 1 1]
check_sampling $r1 1 "k=1"
set r3 [t::subrun sampling 2 3]
check_sampling $r3 3 "k=3"

# heavier flows lose a larger fraction (CHOKe's point)
set fr {}
foreach {fid c} [dict get $r1 fm] { lappend fr [expr {double([lindex $c 2]) / [lindex $c 0]}] }
t::check {[lindex $fr 0] < [lindex $fr 1] && [lindex $fr 1] < [lindex $fr 2]} \
    "k=1: drop fraction grows with the rate (250k/500k/750k: [lmap x $fr {format %.3f $x}])"

# RED part: identical decisions when no match can happen
set dr [t::subrun red_equiv red]
set dc [t::subrun red_equiv choke]
t::check {[llength $dr] > 100} "RED drops in the no-match scenario ([llength $dr])"
t::check {$dr eq $dc} "no possible match: CHOKe drops exactly the packets RED drops ([llength $dc] vs [llength $dr])"

# one unresponsive UDP flow among 8 TCP flows
lassign [t::subrun udp droptail 1] udp_dt tcp_dt
lassign [t::subrun udp choke 1] udp_ch tcp_ch
set sh_dt [expr {double($udp_dt) / ($udp_dt + $tcp_dt)}]
set sh_ch [expr {double($udp_ch) / ($udp_ch + $tcp_ch)}]
t::check {$sh_ch < 0.5 * $sh_dt} "UDP share of the link: CHOKe [format %.3f $sh_ch] < half of DropTail's [format %.3f $sh_dt]"
t::check {$tcp_ch > 2 * $tcp_dt} "TCP flows get more under CHOKe ($tcp_ch vs $tcp_dt packets in 30 s)"

# determinism
set a1 [t::subrun sampling 7 1]
set a2 [t::subrun sampling 7 1]
set a3 [t::subrun sampling 8 1]
t::check {$a1 eq $a2} "same seed: identical counters and trace analysis"
t::check {$a1 ne $a3} "another seed: different draws"

# bad parameters: "check" and "$ns run" fail with a message naming the parameter
foreach {knob value pat} {
    k_ 0 {*k_ (candidates per arrival) must be >= 1, got 0*}
    k_ -2 {*k_ (candidates per arrival) must be >= 1*}
    thresh_ -1 {*thresholds must not be negative*}
    maxthresh_ 3 {*maxthresh_ (3) must be above thresh_ (5)*}
    drop_rand_ true {*drop_rand_ are not supported*}
} {
    lassign [lindex [t::subrun bad $knob $value] 0] rc1 m1 rc2 m2
    t::check {$rc1 == 1 && [string match $pat $m1]} "$knob $value: check raises \"$m1\""
    t::check {$rc2 == 1 && [string match $pat $m2]} "$knob $value: \$ns run raises it before the first event"
}
# through the library: experiment::gateway_setup stops the experiment with the message
set fh [open bad-setup.tcl w]
puts $fh [string map [list @LIB@ [file join $::experiment::libdir experiment.tcl]] {
    source @LIB@
    set ns [experiment::sim_new 1]
    set a [$ns node]; set b [$ns node]
    experiment::duplex $a $b 1Mb 1ms [experiment::gateway_class choke] 100
    experiment::gateway_setup [experiment::queue $a $b] choke {thresh 5 maxthresh 15 q_weight 0.002 linterm 10 wait true gentle true mean_pktsize 1000 k 0}
    puts reached
}]
close $fh
set rc [catch {exec [info nameofexecutable] bad-setup.tcl 2>@1} msg]
t::check {$rc == 1 && [string match "*gateway choke:*k_ (candidates per arrival) must be >= 1*" $msg] && ![string match *reached* $msg]} \
    "experiment::gateway_setup choke with k 0 stops the run: $msg"
t::done
