# FAST TCP with SACK loss recovery: TCP-Linux's congestion module "fast" (patch 0026) on
# Agent/TCP/Linux, the variant fast_sack of experiment::tcp_flow (tcl/lib/topology.tcl),
# with its RTT samples from echoed timestamps and its decision trace (patch 0027). Checks:
#   - the window update replayed against a plain model of Jin, Wei, Low 2004's update
#     (fast-model.tcl): two flows, one keeping its window on loss (halve 0, Tang et al.'s
#     FAST) and one halving it, a second flow joining, forced losses; every update of the
#     trace must be the model's, to the last bit;
#   - RTT samples under retransmissions: a flow that keeps more than the buffer queued
#     (alpha 50, buffer 20: every window overflows, thousands of retransmissions) must keep
#     its baseRTT at the propagation RTT, and go on sampling, and once the buffer is large
#     enough again keep alpha packets queued; the samples come from the timestamps the ACKs
#     echo, while the send time of the ACKed segment, overwritten by its retransmission,
#     made samples of a few ms, baseRTT fell to them and the flow then kept 20 packets
#     queued instead of 50;
#   - SACK recovery: two and three losses in one window are repaired without a timeout
#     and without a window cut (halve 0); Reno recovery (Agent/TCP/Fast, patch 0024) needs a
#     timeout for them;
#   - equilibrium: on a link not congested by loss, each of three flows keeps about its own
#     alpha packets in the queue (x_i q_i = alpha_i, Tang et al. 2005 eq. (7)).
source [file join [file dirname [info script]] testlib.tcl]
source [file join [file dirname [info script]] fast-model.tcl]

# s -(10 Gb/s, 1 ms)-> r -(BW, 20 ms, DropTail BUF)-> d, ACKs back d -> r -> s: propagation
# RTT 42 ms. Optional ErrorModel/List dropping the LOST-th packets (a list) on r -> d.
proc fast_net {bw buf lost} {
    set ns [experiment::sim_new 1]
    set s [$ns node]; set r [$ns node]; set d [$ns node]
    experiment::duplex $s $r 10Gb 1ms DropTail 10000
    experiment::simplex $r $d $bw 20ms DropTail $buf
    experiment::simplex $d $r $bw 20ms DropTail 10000
    if {[llength $lost] > 0} {
        set em [new ErrorModel/List]
        $em droplist $lost
        $ns lossmodel $em $r $d
    }
    return [list $ns $s $r $d]
}

# a fast_sack flow (or VARIANT) with FAST knobs, and with its module's trace on stdout if
# TRACE; returns the TCP. (Scenarios print their result on stderr: the module's trace is C's
# stdout, whose buffer Tcl's own stdout does not share.)
proc fast_flow {ns s d fid start alpha halve {variant fast_sack} {trace 0}} {
    lassign [experiment::tcp_flow $s $d $variant $fid [list fast_alpha_ $alpha fast_gamma_ 0.5 \
        fast_halve_ $halve window_ 100000 packetSize_ 1000]] tcp sink ftp
    if {$trace} { $tcp set_ca_param fast trace 1 }
    $ns at $start "$ftp start"
    return $tcp
}

switch -- [lindex $argv 0] {
    replay {
        # flow 1 keeps its window on loss, flow 2 (from 4 s) halves it; drops in both
        lassign [fast_net 10Mb 200 {1500 1503 1506 4000 4001 4002 4003 7000 7010 9000}] ns s r d
        fast_flow $ns $s $d 1 0.0 20 false fast_sack 1
        fast_flow $ns $s $d 2 4.0 20 true fast_sack 1
        $ns at 12.0 "puts stderr result; exit 0"
        $ns run
    }
    rtt {
        # alpha 50 over a 20-packet buffer for 5 s, then a 1000-packet buffer: the queue
        # (all this flow's) sampled every 10 ms over [10, 20] s
        lassign [fast_net 10Mb 20 {}] ns s r d
        set fm [experiment::flowmon $r $d]
        set tcp [fast_flow $ns $s $d 1 0.0 50 false fast_sack 1]
        $ns at 5.0 [list apply {{tcp} { set ::n5 [$tcp set nrexmitpack_] }} $tcp]
        $ns at 5.0 "[experiment::queue $r $d] set limit_ 1000"
        set ::q 0.0; set ::nq 0
        for {set i 1000} {$i <= 2000} {incr i} {
            $ns at [expr {$i * 0.01}] "set ::q \[expr {\$::q + \[$fm set pkts_\]}\]; incr ::nq"
        }
        $ns at 20.0 [list apply {{tcp} {
            puts stderr "result [list $::n5 [$tcp set nrexmit_] [expr {$::q / $::nq}] [$tcp set nrexmitpack_]]"
            exit 0
        }} $tcp]
        $ns run
    }
    loss {
        # one flow, alpha 10, no window cut; the packets LOST of one window are dropped
        lassign $argv - variant lost
        lassign [fast_net 10Mb 10000 $lost] ns s r d
        set tcp [fast_flow $ns $s $d 1 0.0 10 false $variant]
        set ::w {}
        for {set i 1} {$i <= 1000} {incr i} {
            $ns at [expr {$i * 0.01}] "lappend ::w \[$tcp set cwnd_\] \[$tcp set nrexmitpack_\]"
        }
        $ns at 10.001 [list apply {{tcp} {
            # the window before the first retransmission and its minimum in the 2 s after
            set before 0; set min 1e9; set k -1
            foreach {w n} $::w {
                incr k
                if {$n == 0} { set before $w; set k0 $k; continue }
                if {$k <= $k0 + 200 && $w < $min} { set min $w }
            }
            puts "result [list $before $min [$tcp set nrexmitpack_] [$tcp set nrexmit_]]"
            exit 0
        }} $tcp]
        $ns run
    }
    eq {
        # three flows, alpha 10, 15, 20, starting 10 ms apart (each sees the empty queue,
        # so measures the propagation RTT: a flow that joins a standing queue counts it in
        # its baseRTT), a 1000-packet buffer: no loss; each flow's packets in the queue
        # sampled every 10 ms over [15, 30] s
        lassign [fast_net 10Mb 1000 {}] ns s r d
        set fm [experiment::flowmon $r $d]
        foreach fid {1 2 3} alpha {10 15 20} { set tcp($fid) [fast_flow $ns $s $d $fid [expr {$fid * 0.01}] $alpha false] }
        array set ::sum {1 0 2 0 3 0}
        set ::n 0
        for {set i 1500} {$i <= 3000} {incr i} {
            $ns at [expr {$i * 0.01}] [list apply {{fm} {
                foreach f [$fm flows] { set ::sum([$f set flowid_]) [expr {$::sum([$f set flowid_]) + [$f set pkts_]}] }
                incr ::n
            }} $fm]
        }
        $ns at 30.001 [list apply {{t1 t2 t3} {
            puts "result [list [expr {$::sum(1) / double($::n)}] [expr {$::sum(2) / double($::n)}] \
                [expr {$::sum(3) / double($::n)}] [$t1 set nrexmitpack_] [$t2 set nrexmitpack_] [$t3 set nrexmitpack_]]"
            exit 0
        }} $tcp(1) $tcp(2) $tcp(3)]
        $ns run
    }
    default {
        if {[llength $argv] > 0} { puts stderr "test-fast-sack: no scenario '[lindex $argv 0]'"; exit 2 }
    }
}

# the child's stdout (where the module writes its trace) to FILE; returns the child's
# "result" line (on its stderr)
proc trace_run {file args} {
    if {[catch {exec [info nameofexecutable] $::t::script {*}$args > $file 2> $file.err} err]} {
        puts "trace_run $args: $err"
    }
    set f [open $file.err]
    set r ""
    while {[gets $f line] >= 0} {
        if {[string match "result*" $line]} { set r [string range $line 7 end] }
    }
    close $f
    return $r
}

# --- the window update, replayed -----------------------------------------------------------
trace_run replay.tr replay
set r [fastm::replay replay.tr 20 500 100000]
puts "replay: $r"
dict with r {
    t::check {$mismatches == 0 && $first eq ""} \
        "replay: the model of w <- min(2w, (1-g) w + g (baseRTT/RTT w + alpha)) gives every one of the $updates updates, to the last bit $first"
    t::check {$updates >= 200 && $samples >= 5000} "replay: $updates updates from $samples RTT samples"
    t::check {$doubled >= 6} "replay: updates bounded by 2w (the start of each flow) ($doubled)"
    t::check {$from_linux >= 2} "replay: updates that start from the window loss recovery set (the halving flow) ($from_linux)"
    # flow 1 starts alone: its baseRTT is the propagation RTT (42 ms and a packet's 0.83-ms
    # transmission); flow 2 joins a queue holding flow 1's 20 packets (16.6 ms) and never
    # sees it empty, so its baseRTT includes them (the known baseRTT error of a late
    # joiner); bound: flow 1's baseRTT and 25 packets
    lassign $base_us b1 b2
    t::check {[llength $base_us] == 2 && $b1 >= 42000 && $b1 <= 43000 && $b2 >= $b1 && $b2 <= $b1 + 25 * 832} \
        "replay: baseRTT of flow 1 at the 42-ms propagation RTT, of flow 2 at most that plus flow 1's queue ($b1, $b2 us)"
}

# --- RTT samples under retransmissions -------------------------------------------------------
lassign [trace_run rtt.tr rtt] nre nto qmean nre20
set r [fastm::replay rtt.tr 50 500 100000]
set min 1e9
set f [open rtt.tr]
while {[gets $f line] >= 0} {
    if {[lindex $line 3] eq "sample" && [lindex $line 4] < $min} { set min [lindex $line 4] }
}
close $f
set base [lindex [dict get $r base_us] 0]
t::check {$nre >= 1000} "rtt: alpha 50 over a 20-packet buffer forces retransmissions ($nre in 5 s, $nto timeouts)"
# with its baseRTT right the flow keeps alpha = 50 packets queued once the buffer allows it
# (a baseRTT b below the propagation RTT d would keep fewer: x (RTT - b) = alpha, so
# q = alpha - x (d - b))
t::check {abs($qmean - 50) <= 5} \
    "rtt: after the overflow (buffer 1000 from 5 s) the flow keeps alpha = 50 packets queued again (mean [format %.1f $qmean] over \[10, 20\] s, [expr {$nre20 - $nre}] retransmissions after 5 s)"
t::check {$min >= 42000 && $base >= 42000 && $base <= 43000} \
    "rtt: every RTT sample and baseRTT stay at the 42-ms propagation RTT (smallest sample $min us, baseRTT $base us)"
t::check {[dict get $r mismatches] == 0 && [dict get $r updates] >= 10 && [dict get $r samples] >= 100} \
    "rtt: samples go on through the recoveries and the updates replay ([dict get $r samples] samples, [dict get $r updates] updates) [dict get $r first]"

# --- SACK recovery -------------------------------------------------------------------------
foreach lost {{3000 3003} {3000 3003 3006}} {
    set k [llength $lost]
    lassign [t::subrun loss fast_sack $lost] before min nre nto
    t::check {$nre == $k && $nto == 0 && $min >= 0.9 * $before} \
        "fast_sack, $k losses in one window: $k retransmissions, no timeout, no window cut ($before -> min $min; $nre retransmissions, $nto timeouts)"
    lassign [t::subrun loss fast $lost] before min nre nto
    t::check {$nto >= 1} "the same with Reno recovery (Agent/TCP/Fast): a timeout ($nre retransmissions, $nto timeouts) -- what the test tells apart"
}

# --- equilibrium ---------------------------------------------------------------------------
lassign [t::subrun eq] q1 q2 q3 n1 n2 n3
foreach q [list $q1 $q2 $q3] alpha {10 15 20} fid {1 2 3} {
    t::near [format %.2f $q] $alpha [expr {0.1 * $alpha}] "equilibrium: flow $fid keeps about alpha = $alpha packets queued"
}
t::check {$n1 + $n2 + $n3 == 0} "equilibrium: no loss on the link ($n1 $n2 $n3 retransmissions)"
t::done
