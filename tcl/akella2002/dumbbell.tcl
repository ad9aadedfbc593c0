# Akella, Seshan, Karp, Shenker, Papadimitriou 2002, "Selfish Behavior and Stability of the
# Internet: A Game-Theoretic Analysis of TCP": the single-bottleneck dumbbell of Figure 1.
# n long-lived FTP flows F_1..F_n, flow i from S_i through R1 -> R2 to D_i. F_1..F_{n-1}
# play the common AIMD(alpha, beta); F_n (the deviating flow of the TCP game) plays
# (alpha_n, beta_n). AIMD via Agent/TCP increase_num_ (alpha packets per RTT) and
# decrease_num_ (beta); always_decrease applies beta on every decrease (patch 0022).
#
#   S_i --access-- R1 ==bottleneck (queue: droptail | red | chokeplus)==> R2 --access-- D_i
#
# Everything is measured over the window [warmup, duration] (the paper discards the first
# 50 s of 100 s). Writes:
#   flows.tsv  flow alpha beta start delivered arrivals drops timeouts srtt rttvar
#     delivered  distinct packets delivered in the window (growth of the sender's
#                cumulative ACK ack_: goodput counts each packet once, Sec 3.1)
#     arrivals, drops  the flow's packets arriving at / dropped by the bottleneck queue in
#                the window (drops include RED early drops and CHOKe+ victims)
#     timeouts   retransmission timeouts in the window (nrexmit_)
#     srtt, rttvar  means of the sender's smoothed RTT and RTT variation (s), sampled every
#                sample_interval s in the window
source [file join [file dirname [info script]] .. lib ccr.tcl]

ccr::param n             posint "number of flows (>= 2); flow n is the deviating flow F_n"
ccr::param tcp           {enum tahoe reno newreno sack} "loss recovery of every flow (sack = Sack1 + SACK sink)"
ccr::param queue         {enum droptail red chokeplus} "bottleneck queue discipline"
ccr::param alpha         nonneg "increase parameter of F_1..F_{n-1} (packets per RTT)"
ccr::param beta          posnum "decrease parameter of F_1..F_{n-1}, in (0, 1)"
ccr::param alpha_n       nonneg "increase parameter of F_n"
ccr::param beta_n        posnum "decrease parameter of F_n, in (0, 1)"
ccr::param always_decrease bool "multiply by beta on every decrease, also the first and in slow start (Agent/TCP always_decrease_num_, patch 0022)"
ccr::param bw            posnum "bottleneck rate C (bit/s)"
ccr::param delay         nonneg "bottleneck one-way propagation delay (s)"
ccr::param access_bw     posnum "access link rate (bit/s)"
ccr::param access_delay  nonneg "access link one-way propagation delay (s)"
ccr::param buffer        posint "bottleneck buffer (packets)"
ccr::param other_buffer  posint "buffer of every other queue (packets)"
ccr::param pkt_size      posint "data packet size (bytes)"
ccr::param ack_size      posint "ACK size (bytes)"
ccr::param window        posint "receiver window window_ (packets)"
ccr::param window_init   posint "initial congestion window windowInit_ (packets)"
ccr::param tcp_tick      posnum "TCP clock granularity tcpTick_ (s)"
ccr::param min_rto       posnum "minimum retransmission timeout minrto_ (s)"
ccr::param red_thresh    posnum "RED (and CHOKe+) min threshold (packets)"
ccr::param red_maxthresh posnum "RED (and CHOKe+) max threshold (packets)"
ccr::param red_q_weight  posnum "RED EWMA weight w_q"
ccr::param red_linterm   posnum "RED 1/max_p"
ccr::param red_wait      bool   "RED wait_ between drops"
ccr::param red_gentle    bool   "RED gentle_ (drop probability ramps to 1 at 2 max_th)"
ccr::param choke_k       posint "CHOKe+ candidates drawn per arrival (k)"
ccr::param choke_gamma1  prob   "CHOKe+ gamma1: m >= gamma1 k matches drop the arrival and the matches"
ccr::param choke_gamma2  prob   "CHOKe+ gamma2: with RED's drop, gamma2 k <= m < gamma1 k matches go too"
ccr::param duration      posnum "simulated time (s)"
ccr::param warmup        nonneg "start of the measurement window (s); earlier data are discarded"
ccr::param start_max     nonneg {flows start at independent U[0, start_max] s}
ccr::param sample_interval posnum "sampling interval of srtt/rttvar in the window (s)"
ccr::parse_args $argv
ccr::require {[ccr::p n] >= 2} "n = [ccr::p n]: the TCP game needs at least 2 flows"
foreach v {beta beta_n} {
    ccr::require {[ccr::p $v] > 0 && [ccr::p $v] < 1} "$v = [ccr::p $v] must lie in (0, 1)"
}
ccr::require {[ccr::p warmup] < [ccr::p duration]} \
    "warmup ([ccr::p warmup]) must be shorter than duration ([ccr::p duration])"
ccr::require {[ccr::p sample_interval] <= [ccr::p duration] - [ccr::p warmup]} \
    "sample_interval ([ccr::p sample_interval]) must not exceed the window duration - warmup"
ccr::require {[ccr::p start_max] < [ccr::p warmup]} \
    "start_max ([ccr::p start_max]) must be below warmup ([ccr::p warmup]): every flow must run in the whole window"

set ns [ccr::sim_new [ccr::p seed]]
set n [ccr::p n]

# ---- topology ----
set r1 [$ns node]
set r2 [$ns node]
ccr::simplex $r1 $r2 [ccr::p bw] [ccr::p delay] [ccr::gateway_class [ccr::p queue]] [ccr::p buffer]
ccr::gateway_setup [ccr::queue $r1 $r2] [ccr::p queue] [list thresh [ccr::p red_thresh] \
    maxthresh [ccr::p red_maxthresh] q_weight [ccr::p red_q_weight] linterm [ccr::p red_linterm] \
    wait [ccr::p red_wait] gentle [ccr::p red_gentle] drop_rand false \
    mean_pktsize [ccr::p pkt_size] k [ccr::p choke_k] gamma1 [ccr::p choke_gamma1] \
    gamma2 [ccr::p choke_gamma2]]
# the reverse direction carries the ACKs only
ccr::simplex $r2 $r1 [ccr::p bw] [ccr::p delay] DropTail [ccr::p other_buffer]
for {set i 1} {$i <= $n} {incr i} {
    set src($i) [$ns node]
    set dst($i) [$ns node]
    ccr::duplex $src($i) $r1 [ccr::p access_bw] [ccr::p access_delay] DropTail [ccr::p other_buffer]
    ccr::duplex $r2 $dst($i) [ccr::p access_bw] [ccr::p access_delay] DropTail [ccr::p other_buffer]
}
set base_rtt [expr {2.0 * ([ccr::p delay] + 2.0 * [ccr::p access_delay])}]

# ---- flows ----
set probe [new [lindex [ccr::tcp_classes [ccr::p tcp]] 0]]
if {[catch {$probe set always_decrease_num_}]} {
    if {[ccr::p always_decrease]} {
        ccr::_fail "always_decrease true needs Agent/TCP always_decrease_num_ (ns-2 patch 0022), which this ns binary lacks"
    }
    set have_always 0
} else {
    set have_always 1
}
delete $probe
for {set i 1} {$i <= $n} {incr i} {
    if {$i < $n} {
        set fa($i) [ccr::p alpha]; set fb($i) [ccr::p beta]
    } else {
        set fa($i) [ccr::p alpha_n]; set fb($i) [ccr::p beta_n]
    }
    set knobs [list packetSize_ [ccr::p pkt_size] window_ [ccr::p window] \
        windowInit_ [ccr::p window_init] maxburst_ 0 tcpTick_ [ccr::p tcp_tick] \
        minrto_ [ccr::p min_rto] windowOption_ 1 increase_num_ $fa($i) decrease_num_ $fb($i)]
    if {$have_always} { lappend knobs always_decrease_num_ [ccr::p always_decrease] }
    lassign [ccr::tcp_flow $src($i) $dst($i) [ccr::p tcp] $i $knobs] tcp($i) sink($i) ftp($i)
    $sink($i) set packetSize_ [ccr::p ack_size]
    set start($i) [ccr::uniform 0 [ccr::p start_max]]
    $ns at $start($i) "$ftp($i) start"
}

# ---- measurement window ----
set fm [ccr::flowmon $r1 $r2]
set fids {}
for {set i 1} {$i <= $n} {incr i} { lappend fids $i }

# per flow {ack arrivals drops timeouts}
proc snapshot {} {
    global n tcp fm fids
    array set c [ccr::flow_counts $fm $fids]
    set out {}
    for {set i 1} {$i <= $n} {incr i} {
        lassign $c($i) arr dep drp
        lappend out [list [$tcp($i) set ack_] $arr $drp [$tcp($i) set nrexmit_]]
    }
    return $out
}
proc begin_window {} { set ::at_warmup [snapshot] }
$ns at [ccr::p warmup] begin_window

# srtt_ is kept in ticks << T_SRTT_BITS, rttvar_ in ticks << T_RTTVAR_BITS
array set rtt_sum {}
array set var_sum {}
set ::nsamples 0
proc sample_rtt {} {
    global n tcp rtt_sum var_sum
    for {set i 1} {$i <= $n} {incr i} {
        set tick [$tcp($i) set tcpTick_]
        set s [expr {[$tcp($i) set srtt_] * $tick / double(1 << [$tcp($i) set T_SRTT_BITS])}]
        set v [expr {[$tcp($i) set rttvar_] * $tick / double(1 << [$tcp($i) set T_RTTVAR_BITS])}]
        set rtt_sum($i) [expr {([info exists rtt_sum($i)] ? $rtt_sum($i) : 0.0) + $s}]
        set var_sum($i) [expr {([info exists var_sum($i)] ? $var_sum($i) : 0.0) + $v}]
    }
    incr ::nsamples
}
set dt [ccr::p sample_interval]
set k 1
while {[ccr::p warmup] + $k * $dt <= [ccr::p duration] + 1e-9} {
    $ns at [expr {[ccr::p warmup] + $k * $dt}] sample_rtt
    incr k
}

proc finish {} {
    global ns n fa fb start rtt_sum var_sum base_rtt have_always
    set end [snapshot]
    ccr::table_open flows {flow alpha beta start delivered arrivals drops timeouts srtt rttvar}
    set window [expr {[ccr::p duration] - [ccr::p warmup]}]
    for {set i 1} {$i <= $n} {incr i} {
        set d {}
        foreach x [lindex $end [expr {$i - 1}]] y [lindex $::at_warmup [expr {$i - 1}]] {
            lappend d [expr {$x - $y}]
        }
        lassign $d dack darr ddrp dto
        set ns_ [expr {max($::nsamples, 1)}]
        ccr::row flows [list $i $fa($i) $fb($i) [format %.6f $start($i)] $dack $darr $ddrp $dto \
            [format %.6f [expr {$rtt_sum($i) / $ns_}]] [format %.6f [expr {$var_sum($i) / $ns_}]]]
    }
    ccr::finish akella2002/dumbbell.tcl [list window_s $window base_rtt_s [format %.6f $base_rtt] \
        capacity_pkts_per_s [expr {[ccr::p bw] / (8.0 * [ccr::p pkt_size])}] \
        always_decrease_supported $have_always numdupacks [$::tcp(1) set numdupacks_]]
    exit 0
}
$ns at [expr {[ccr::p duration] + 1e-6}] finish
$ns run
