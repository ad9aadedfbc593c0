# Agent/TCP always_decrease_num_ (patch 0022): AIMD(a, b) for the TCP game of Akella
# et al. Stock ns-2.35 (TcpAgent::slowdown) uses 1/2 instead of decrease_num_ on a
# connection's first decrease, in slow start and (ssthresh) after a timeout
# (docs/akella2002.md A4); with always_decrease_num_ true every decrease uses decrease_num_. The
# default (false) keeps the stock behaviour.
source [file join [file dirname [info script]] testlib.tcl]

# One flow, window_ 40 (so the window is exactly 40 at a decrease in congestion
# avoidance), decrease_num_ 0.8; an ErrorModel/List on the bottleneck drops (or marks,
# with markecn) the listed packets. From a trace of cwnd_ and ssthresh_, prints one
# {W cwnd_before ssthresh_before ssthresh_after cwnd_after} per decrease, W = the window
# the decrease acted on (min(cwnd_, window_)), then the number of timeouts.
proc run_flow {variant always listed markecn} {
    set ns [experiment::sim_new 1]
    set s [$ns node]; set r [$ns node]; set d [$ns node]
    experiment::duplex $s $r 100Mb 1ms DropTail 1000
    experiment::duplex $r $d 5Mb 10ms DropTail 1000
    set em [new ErrorModel/List]
    $em set markecn_ $markecn
    $em droplist $listed
    $ns lossmodel $em $r $d
    set knobs [list window_ 40 decrease_num_ 0.8 always_decrease_num_ $always packetSize_ 1000]
    if {$markecn} { lappend knobs ecn_ 1 }
    lassign [experiment::tcp_flow $s $d $variant 1 $knobs] tcp sink ftp
    set f [open aimd.tr w]
    $tcp attach $f
    $tcp trace cwnd_
    $tcp trace ssthresh_
    $ns at 0.0 "$ftp start"
    $ns at 8.0 "$ns halt"
    $ns run
    close $f
    # decreases: a drop of cwnd_; ssthresh_ is assigned just before (a trace line only
    # when its value changes)
    set f [open aimd.tr]
    set cwnd 0; set ss 40; set ssold 40; set sstime -1; set out {}
    while {[gets $f line] >= 0} {
        set t [lindex $line 0]; set var [lindex $line 5]; set val [lindex $line 6]
        if {$var eq "ssthresh_"} {
            set ssold $ss; set ss $val; set sstime $t
        } elseif {$var eq "cwnd_"} {
            if {$val < $cwnd} {
                set before [expr {$sstime == $t ? $ssold : $ss}]
                lappend out [list [expr {min($cwnd, 40)}] $cwnd $before $ss $val]
            }
            set cwnd $val
        }
    }
    close $f
    return [list $out [$tcp set nrexmit_]]
}

if {[lindex $argv 0] eq "flow"} {
    puts [run_flow {*}[lrange $argv 1 end]]
    exit 0
}

# Tahoe, three drops: packet 200 (congestion avoidance, W = 40, the first decrease);
# packet 255 (in the slow start that follows); packet 1500 (congestion avoidance again).
# Tahoe sets ssthresh_ and restarts from cwnd 1: the decrease shows in ssthresh_.
foreach always {false true} {
    lassign [t::subrun flow tahoe $always {200 255 1500} false] ev nto
    t::check {[llength $ev] == 3 && $nto == 0} "tahoe always_decrease_num_ $always: three decreases by fast retransmit ([llength $ev], $nto timeouts)"
    lassign $ev e1 e2 e3
    lassign $e1 W1 c1 s1 n1; lassign $e2 W2 c2 s2 n2; lassign $e3 W3 c3 s3 n3
    t::check {$W1 == 40 && $c1 >= $s1} "tahoe $always: decrease 1 in congestion avoidance at W = 40 ($e1)"
    t::check {$c2 < $s2} "tahoe $always: decrease 2 in slow start (cwnd $c2 < ssthresh $s2)"
    t::check {$W3 == 40 && $c3 >= $s3} "tahoe $always: decrease 3 in congestion avoidance at W = 40 ($e3)"
    if {$always} { set f1 0.8; set f2 0.8 } else { set f1 0.5; set f2 0.5 }
    t::check {$n1 == int($f1 * $W1)} "tahoe $always: first decrease ssthresh = int($f1 x $W1) = $n1"
    t::check {$n2 == int($f2 * $W2)} "tahoe $always: slow-start decrease ssthresh = int($f2 x $W2) = $n2"
    t::check {$n3 == int(0.8 * $W3)} "tahoe $always: later decrease ssthresh = int(0.8 x $W3) = $n3 (stock uses decrease_num_ here)"
    set tahoe($always) $ev
}
t::check {$tahoe(false) ne $tahoe(true)} "tahoe: the option changes the run"

# Tahoe, packet 200 dropped, then a whole window (packets 1500-1539): a retransmission
# timeout, not the first decrease, at W = 40. Stock: ssthresh = W/2 after a timeout.
set lost 200
for {set i 1500} {$i < 1540} {incr i} { lappend lost $i }
foreach always {false true} {
    lassign [t::subrun flow tahoe $always $lost false] ev nto
    lassign [lindex $ev 1] W2 c2 s2 n2 cw2
    if {$always} { set f 0.8 } else { set f 0.5 }
    t::check {[llength $ev] == 2 && $nto == 1} "tahoe timeout $always: one fast retransmit, then one timeout ($nto)"
    t::check {$W2 == 40 && $n2 == int($f * 40) && $cw2 == 1} \
        "tahoe timeout always_decrease_num_ $always: ssthresh = int($f x 40) = $n2, cwnd $cw2"
}

# Reno and an ECN mark (TcpAgent::ecn -> slowdown(CLOSE_CWND_HALF|CLOSE_SSTHRESH_HALF)):
# the first decrease, at W = 40, sets cwnd_ and ssthresh_.
foreach always {false true} {
    lassign [t::subrun flow reno $always {200 1500} true] ev nto
    lassign [lindex $ev 0] W1 c1 s1 n1 cw1
    lassign [lindex $ev 1] W2 c2 s2 n2 cw2
    if {$always} { set f 0.8 } else { set f 0.5 }
    t::check {$W1 == 40 && $n1 == int($f * 40) && $cw1 == $f * 40} \
        "reno ECN always_decrease_num_ $always: first decrease W 40 -> cwnd $cw1, ssthresh $n1 (factor $f)"
    t::check {$W2 == 40 && $n2 == 32 && $cw2 == 32} \
        "reno ECN $always: later decrease W 40 -> cwnd $cw2, ssthresh $n2 (factor 0.8 either way)"
}
# the default is off
set ns [new Simulator]
t::check {[[new Agent/TCP] set always_decrease_num_] == 0} "always_decrease_num_ defaults to false"
t::done
