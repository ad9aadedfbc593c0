# FAST TCP with SACK loss recovery (variant fast_sack: TCP-Linux's module "fast", patches
# 0026-0028) fills a single bottleneck, at Tang et al.'s sizes (100 Mb/s, 50 ms one way,
# 1500-byte packets, alpha 50, no window cut on loss: docs/tang.md T7):
#   - fill: one flow, a buffer far above alpha: the link runs full (>= 90 % of its
#     capacity in goodput) and the flow keeps about alpha packets queued (Tang et al. eq. 7);
#     10 flows keep about 10 alpha.
#   - overflow: 4 flows whose summed alpha (200) exceeds the buffer (150 packets), the regime
#     of link 2 in Experiment 1 (Sec 5.2: 4 FAST flows of alpha 50, a 150-packet buffer):
#     the flows never cut their windows, so the buffer overflows every RTT and the flows
#     live in loss recovery. They must still fill the link with new data (goodput >= 90 %)
#     and offer the bottleneck little more than it carries. Before patch 0028 TCP-Linux
#     cleared its SACK scoreboard whenever a flow left a recovery, the flows resent what
#     the receiver already held, the scoreboard's rule for lost retransmissions then
#     declared retransmissions still in flight lost, and the senders sent at their access
#     link's rate (1 Gb/s, 10 times the bottleneck) for a goodput of a third of the link.
source [file join [file dirname [info script]] testlib.tcl]

# s -(1 Gb/s, 0)-> r -(100 Mb/s, 50 ms, DropTail BUF)-> d, ACKs back d -> r -> s;
# N fast_sack flows (alpha 50, gamma 0.5, no cut), starting 10 ms apart; flows, link and
# queue sampled every 10 ms over [10, 30] s. Prints on stderr: the link's capacity in
# packets/s, then over [10, 30] s: departures/s, drops/s, packets/s offered to the link,
# goodput (packets/s acknowledged, all flows), mean queue (packets), retransmissions/s.
proc fill_run {n buf} {
    set ns [experiment::sim_new 1]
    set s [$ns node]; set r [$ns node]; set d [$ns node]
    experiment::duplex $s $r 1Gb 0ms DropTail 100000
    experiment::simplex $r $d 100Mb 50ms DropTail $buf
    experiment::simplex $d $r 100Mb 50ms DropTail 100000
    set fm [experiment::flowmon $r $d]
    set ::tcps {}
    for {set i 1} {$i <= $n} {incr i} {
        lassign [experiment::tcp_flow $s $d fast_sack $i [list fast_alpha_ 50 fast_gamma_ 0.5 \
            fast_halve_ false fast_period_ 0 window_ 100000 packetSize_ 1500 windowInit_ 1 \
            maxburst_ 0 tcpTick_ 0.01]] tcp sink ftp
        lappend ::tcps $tcp
        $ns at [expr {($i - 1) * 0.01}] "$ftp start"
    }
    # a 1500-byte packet is 1540 bytes on the link (40 bytes of headers)
    set ::cap [expr {100e6 / (1540 * 8)}]
    proc snap {fm} {
        set acked 0; set rex 0
        foreach tcp $::tcps {
            incr acked [expr {max(0, [$tcp set ack_] + 1)}]
            incr rex [$tcp set nrexmitpack_]
        }
        return [list [$fm set pdepartures_] [$fm set pdrops_] [$fm set parrivals_] $acked $rex]
    }
    set ::q 0.0; set ::nq 0
    for {set i 1001} {$i <= 3000} {incr i} {
        $ns at [expr {$i * 0.01}] "set ::q \[expr {\$::q + \[$fm set pkts_\]}\]; incr ::nq"
    }
    $ns at 10.0 [list apply {{fm} { set ::s10 [snap $fm] }} $fm]
    $ns at 30.0 [list apply {{fm} {
        set res [list [format %.1f $::cap]]
        foreach a $::s10 b [snap $fm] { lappend res [format %.1f [expr {($b - $a) / 20.0}]] }
        # departures drops arrivals goodput retransmissions, per s; the mean queue before the
        # retransmissions
        set res [linsert $res 5 [format %.1f [expr {$::q / $::nq}]]]
        puts stderr "result $res"
        exit 0
    }} $fm]
    $ns run
}

switch -- [lindex $argv 0] {
    run { fill_run [lindex $argv 1] [lindex $argv 2] }
    default {
        if {[llength $argv] > 0} { puts stderr "test-fast-sack-fill: no scenario '[lindex $argv 0]'"; exit 2 }
    }
}

# --- fill: the buffer holds the backlog ------------------------------------------------------
foreach n {1 10} {
    lassign [t::subrun run $n 3000] cap dep drop arr good q rex
    t::check {$good >= 0.9 * $cap} \
        "fill, $n flow(s): the link runs full (goodput $good of $cap packets/s over \[10, 30\] s)"
    t::near $q [expr {50 * $n}] [expr {5 * $n}] "fill, $n flow(s): about alpha = 50 packets queued per flow (mean queue)"
    t::check {$drop == 0 && $rex == 0} "fill, $n flow(s): no loss ($drop drops/s, $rex retransmissions/s)"
}

# --- overflow: 4 x alpha 50 over a 150-packet buffer ------------------------------------------
lassign [t::subrun run 4 150] cap dep drop arr good q rex
t::check {$drop > 0} "overflow: the summed alpha (200) overflows the 150-packet buffer ($drop drops/s)"
t::check {$good >= 0.9 * $cap} \
    "overflow: the link still runs full of new data (goodput $good of $cap packets/s, departures $dep)"
t::check {$arr <= 1.5 * $cap} \
    "overflow: the senders offer the bottleneck at most 1.5 times its capacity ($arr packets/s, $drop dropped)"
t::check {$rex <= 1.05 * $drop + 10} \
    "overflow: every retransmission replaces a dropped packet, none resends what the receiver holds ($rex retransmissions/s, $drop drops/s)"
t::done
