# Akella, Seshan, Karp, Shenker, Papadimitriou 2002, "Selfish Behavior and Stability of the
# Internet: A Game-Theoretic Analysis of TCP": the single-bottleneck dumbbell of Figure 1.
# n long-lived FTP flows F_1..F_n, flow i from S_i through R1 -> R2 to D_i. F_1..F_{n-1}
# play the common AIMD(alpha, beta); F_n (the deviating flow of the TCP game) plays
# (alpha_n, beta_n). AIMD via Agent/TCP increase_num_ (alpha packets per RTT) and
# decrease_num_ (beta); always_decrease applies beta on every decrease (patch 0022).
#
#   S_i --access-- R1 ==bottleneck (queue: droptail | red | chokeplus, or beyond the paper
#                        sfq | drr | codel | fqcodel | pie)==> R2 --access-- D_i
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
source [file join [file dirname [info script]] .. lib experiment.tcl]

experiment::param n             posint "number of flows (>= 2); flow n is the deviating flow F_n"
experiment::param tcp           {enum tahoe reno newreno sack} "loss recovery of every flow (sack = Sack1 + SACK sink)"
experiment::param queue         {enum droptail red chokeplus sfq drr codel fqcodel pie} "bottleneck queue discipline (sfq and the rest: beyond the paper)"
experiment::param alpha         nonneg "increase parameter of F_1..F_{n-1} (packets per RTT)"
experiment::param beta          posnum "decrease parameter of F_1..F_{n-1}, in (0, 1)"
experiment::param alpha_n       nonneg "increase parameter of F_n"
experiment::param beta_n        posnum "decrease parameter of F_n, in (0, 1)"
experiment::param always_decrease bool "multiply by beta on every decrease, also the first and in slow start (Agent/TCP always_decrease_num_, patch 0022)"
experiment::param bw            posnum "bottleneck rate C (bit/s)"
experiment::param delay         nonneg "bottleneck one-way propagation delay (s)"
experiment::param access_bw     posnum "access link rate (bit/s)"
experiment::param access_delay  nonneg "access link one-way propagation delay (s)"
experiment::param buffer        posint "bottleneck buffer (packets)"
experiment::param other_buffer  posint "buffer of every other queue (packets)"
experiment::param pkt_size      posint "data packet size (bytes)"
experiment::param ack_size      posint "ACK size (bytes)"
experiment::param window        posint "receiver window window_ (packets)"
experiment::param window_init   posint "initial congestion window windowInit_ (packets)"
experiment::param tcp_tick      posnum "TCP clock granularity tcpTick_ (s)"
experiment::param min_rto       posnum "minimum retransmission timeout minrto_ (s)"
experiment::param red_thresh    posnum "RED (and CHOKe+) min threshold (packets)"
experiment::param red_maxthresh posnum "RED (and CHOKe+) max threshold (packets)"
experiment::param red_q_weight  posnum "RED EWMA weight w_q"
experiment::param red_linterm   posnum "RED 1/max_p"
experiment::param red_wait      bool   "RED wait_ between drops"
experiment::param red_gentle    bool   "RED gentle_ (drop probability ramps to 1 at 2 max_th)"
experiment::param choke_k       posint "CHOKe+ candidates drawn per arrival (k)"
experiment::param choke_gamma1  prob   "CHOKe+ gamma1: m >= gamma1 k matches drop the arrival and the matches"
experiment::param choke_gamma2  prob   "CHOKe+ gamma2: with RED's drop, gamma2 k <= m < gamma1 k matches go too"
experiment::param duration      posnum "simulated time (s)"
experiment::param warmup        nonneg "start of the measurement window (s); earlier data are discarded"
experiment::param start_max     nonneg {flows start at independent U[0, start_max] s}
experiment::param sample_interval posnum "sampling interval of srtt/rttvar in the window (s)"
experiment::queue_params
experiment::parse_args $argv
experiment::limit n>=2 {n >= 2} {n = {n}: the TCP game needs at least 2 flows}
foreach v {beta beta_n} {
    experiment::require {[experiment::p $v] > 0 && [experiment::p $v] < 1} "$v = [experiment::p $v] must lie in (0, 1)"
}
experiment::limit warmup<duration {warmup < duration} \
    {warmup ({warmup}) must be below duration ({duration})}
experiment::limit sample_interval<=window {sample_interval <= duration - warmup} \
    {sample_interval ({sample_interval}) must not exceed the window duration - warmup ({duration} - {warmup})}
experiment::limit start_max<warmup {start_max < warmup} \
    {start_max ({start_max}) must be below warmup ({warmup}): every flow must run in the whole window}

set ns [experiment::sim_new [experiment::p seed]]
set n [experiment::p n]

# ---- topology ----
set r1 [$ns node]
set r2 [$ns node]
experiment::simplex $r1 $r2 [experiment::p bw] [experiment::p delay] [experiment::gateway_class [experiment::p queue]] [experiment::p buffer]
experiment::gateway_setup [experiment::queue $r1 $r2] [experiment::p queue] [list thresh [experiment::p red_thresh] \
    maxthresh [experiment::p red_maxthresh] q_weight [experiment::p red_q_weight] linterm [experiment::p red_linterm] \
    wait [experiment::p red_wait] gentle [experiment::p red_gentle] drop_rand false \
    mean_pktsize [experiment::p pkt_size] k [experiment::p choke_k] gamma1 [experiment::p choke_gamma1] \
    gamma2 [experiment::p choke_gamma2] {*}[experiment::queue_knobs [experiment::p buffer] [experiment::p pkt_size]]]
# the reverse direction carries the ACKs only
experiment::simplex $r2 $r1 [experiment::p bw] [experiment::p delay] DropTail [experiment::p other_buffer]
for {set i 1} {$i <= $n} {incr i} {
    set src($i) [$ns node]
    set dst($i) [$ns node]
    experiment::duplex $src($i) $r1 [experiment::p access_bw] [experiment::p access_delay] DropTail [experiment::p other_buffer]
    experiment::duplex $r2 $dst($i) [experiment::p access_bw] [experiment::p access_delay] DropTail [experiment::p other_buffer]
}
# DRR tells flows apart by source node: no two sources may share a bucket
if {[experiment::p queue] eq "drr"} {
    experiment::drr_distinct 1024 [lmap i [lsort -integer [array names src]] {set src($i)}]
}
set base_rtt [expr {2.0 * ([experiment::p delay] + 2.0 * [experiment::p access_delay])}]

# ---- flows ----
set probe [new [lindex [experiment::tcp_classes [experiment::p tcp]] 0]]
if {[catch {$probe set always_decrease_num_}]} {
    if {[experiment::p always_decrease]} {
        experiment::_fail "always_decrease true needs Agent/TCP always_decrease_num_ (ns-2 patch 0022), which this ns binary lacks"
    }
    set have_always 0
} else {
    set have_always 1
}
delete $probe
for {set i 1} {$i <= $n} {incr i} {
    if {$i < $n} {
        set fa($i) [experiment::p alpha]; set fb($i) [experiment::p beta]
    } else {
        set fa($i) [experiment::p alpha_n]; set fb($i) [experiment::p beta_n]
    }
    set knobs [list packetSize_ [experiment::p pkt_size] window_ [experiment::p window] \
        windowInit_ [experiment::p window_init] maxburst_ 0 tcpTick_ [experiment::p tcp_tick] \
        minrto_ [experiment::p min_rto] windowOption_ 1 increase_num_ $fa($i) decrease_num_ $fb($i)]
    if {$have_always} { lappend knobs always_decrease_num_ [experiment::p always_decrease] }
    lassign [experiment::tcp_flow $src($i) $dst($i) [experiment::p tcp] $i $knobs] tcp($i) sink($i) ftp($i)
    $sink($i) set packetSize_ [experiment::p ack_size]
    set start($i) [experiment::uniform 0 [experiment::p start_max]]
    $ns at $start($i) "$ftp($i) start"
}

# ---- measurement window ----
set fm [experiment::flowmon $r1 $r2]
set fids {}
for {set i 1} {$i <= $n} {incr i} { lappend fids $i }

# per flow {ack arrivals drops timeouts}
proc snapshot {} {
    global n tcp fm fids
    array set c [experiment::flow_counts $fm $fids]
    set out {}
    for {set i 1} {$i <= $n} {incr i} {
        lassign $c($i) arr dep drp
        lappend out [list [$tcp($i) set ack_] $arr $drp [$tcp($i) set nrexmit_]]
    }
    return $out
}
proc begin_window {} { set ::at_warmup [snapshot] }
$ns at [experiment::p warmup] begin_window

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
set dt [experiment::p sample_interval]
set k 1
while {[experiment::p warmup] + $k * $dt <= [experiment::p duration] + 1e-9} {
    $ns at [expr {[experiment::p warmup] + $k * $dt}] sample_rtt
    incr k
}

proc finish {} {
    global ns n fa fb start rtt_sum var_sum base_rtt have_always
    set end [snapshot]
    experiment::table_open flows {flow alpha beta start delivered arrivals drops timeouts srtt rttvar}
    set window [expr {[experiment::p duration] - [experiment::p warmup]}]
    for {set i 1} {$i <= $n} {incr i} {
        set d {}
        foreach x [lindex $end [expr {$i - 1}]] y [lindex $::at_warmup [expr {$i - 1}]] {
            lappend d [expr {$x - $y}]
        }
        lassign $d dack darr ddrp dto
        set ns_ [expr {max($::nsamples, 1)}]
        experiment::row flows [list $i $fa($i) $fb($i) [format %.6f $start($i)] $dack $darr $ddrp $dto \
            [format %.6f [expr {$rtt_sum($i) / $ns_}]] [format %.6f [expr {$var_sum($i) / $ns_}]]]
    }
    experiment::finish akella2002/dumbbell.tcl [list window_s $window base_rtt_s [format %.6f $base_rtt] \
        capacity_pkts_per_s [expr {[experiment::p bw] / (8.0 * [experiment::p pkt_size])}] \
        always_decrease_supported $have_always numdupacks [$::tcp(1) set numdupacks_]]
    exit 0
}
$ns at [expr {[experiment::p duration] + 1e-6}] finish
$ns run
