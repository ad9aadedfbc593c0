# Floyd 1991, "Connections with Multiple Congested Gateways": the topology family of
# Figure 1. n congested gateways 1a..na; connection 0 crosses all of them
# (src0 -> 1a -> 1b -> 2a -> ... -> nb -> sink0), connection i crosses only ia -> ib
# (src_i -> ia -> ib -> sink_i). The congested queue is ia's, on its link to ib.
#
# Writes (cumulative counts, sampled at the end of every period):
#   goodput.tsv   period t conn delivered timeouts   in-order packets delivered to the sink,
#                 and the sender's retransmission timeouts (nrexmit_)
#   gateways.tsv  period t gw conn arrivals departures drops   at gateway ia (drops incl. early)
#   cwnd.tsv      t conn cwnd                  every cwnd_interval s (if > 0)
source [file join [file dirname [info script]] .. lib experiment.tcl]

experiment::param n             posint "number of congested gateways"
experiment::param active        {enum all conn0} "which connections run: all, or connection 0 alone (Fig 2)"
experiment::param gateway       {enum droptail red randomdrop choke sfq drr codel fqcodel pie} "discipline of the congested gateways (choke and the rest: the extensions)"
experiment::param tcp           {enum tahoe reno newreno sack} "TCP sender/sink variant (sack = Sack1 + SACK sink)"
experiment::param increase      {enum one constant} "window increase: Increase-by-One, or Constant-Rate (windowOption_ 2)"
experiment::param window_const  posnum "Constant-Rate a (packets/s per s), windowConstant_"
experiment::param window_extra  int    "maximum window = round(bandwidth-delay product) + window_extra packets"
experiment::param ssthresh_half bool   "initial ssthresh = half the maximum window (else ns-2's default)"
experiment::param gw_bw         posnum "inter-gateway link rate (bit/s)"
experiment::param gw_delay      nonneg "inter-gateway link one-way delay (s)"
experiment::param access_bw     posnum "access link rate (bit/s)"
experiment::param access_delay  nonneg "access link one-way delay (s)"
experiment::param gw_buffer     posint "buffer of the congested gateways (packets)"
experiment::param other_buffer  posint "buffer of every other queue (packets)"
experiment::param pkt_size      posint "data packet size (bytes)"
experiment::param ack_size      posint "ACK size (bytes)"
experiment::param red_thresh    posnum "RED min threshold (packets)"
experiment::param red_maxthresh posnum "RED max threshold (packets)"
experiment::param red_q_weight  posnum "RED EWMA weight"
experiment::param red_linterm   posnum "RED 1/max_p"
experiment::param red_wait      bool   "RED wait_ between drops"
experiment::param red_gentle    bool   "RED gentle_"
experiment::param red_drop_rand bool   "RED drops a random queued packet on overflow"
experiment::param choke_k       posint "CHOKe: queued candidates compared with each arrival"
experiment::param overhead      nonneg {random send delay U[0, overhead] per packet at the sources (s)}
experiment::param duration      posnum "simulated time (s)"
experiment::param period        posnum "length of one measurement period (s)"
experiment::param start_max     nonneg {connections start at U[0, start_max] s}
experiment::param tcp_tick      posnum "TCP clock granularity (s)"
experiment::param min_rto       posnum "minimum retransmission timeout (s)"
experiment::param window_init   posint "initial window (packets)"
experiment::param cwnd_interval nonneg "cwnd sampling interval (s); 0 = no cwnd table"
experiment::queue_params
experiment::parse_args $argv
experiment::limit red_thresh<red_maxthresh {red_thresh < red_maxthresh} \
    {red_thresh ({red_thresh}) must be below red_maxthresh ({red_maxthresh})}
experiment::limit period<=duration {period <= duration} \
    {period ({period}) must not exceed duration ({duration})}

set ns [experiment::sim_new [experiment::p seed]]
set n [experiment::p n]
set gwq [experiment::gateway_class [experiment::p gateway]]
set gwknobs [list thresh [experiment::p red_thresh] maxthresh [experiment::p red_maxthresh] \
    q_weight [experiment::p red_q_weight] linterm [experiment::p red_linterm] wait [experiment::p red_wait] \
    gentle [experiment::p red_gentle] drop_rand [experiment::p red_drop_rand] mean_pktsize [experiment::p pkt_size] \
    k [experiment::p choke_k] {*}[experiment::queue_knobs [experiment::p gw_buffer] [experiment::p pkt_size]]]

# ---- nodes and links ----
for {set i 1} {$i <= $n} {incr i} {
    set ga($i) [$ns node]
    set gb($i) [$ns node]
    # the congested direction ia -> ib; its reverse carries ACKs only
    experiment::simplex $ga($i) $gb($i) [experiment::p gw_bw] [experiment::p gw_delay] $gwq [experiment::p gw_buffer]
    experiment::gateway_setup [experiment::queue $ga($i) $gb($i)] [experiment::p gateway] $gwknobs
    experiment::simplex $gb($i) $ga($i) [experiment::p gw_bw] [experiment::p gw_delay] DropTail [experiment::p other_buffer]
    if {$i > 1} {
        experiment::duplex $gb([expr {$i - 1}]) $ga($i) [experiment::p gw_bw] [experiment::p gw_delay] DropTail [experiment::p other_buffer]
    }
}
proc access {a b} {
    experiment::duplex $a $b [experiment::p access_bw] [experiment::p access_delay] DropTail [experiment::p other_buffer]
}
set src(0) [$ns node]; set dst(0) [$ns node]
access $src(0) $ga(1)
access $gb($n) $dst(0)
set conns [expr {[experiment::p active] eq "all" ? $n : 0}]
for {set i 1} {$i <= $conns} {incr i} {
    set src($i) [$ns node]; set dst($i) [$ns node]
    access $src($i) $ga($i)
    access $gb($i) $dst($i)
}
# DRR tells flows apart by source node: no two sources may share a bucket
if {[experiment::p gateway] eq "drr"} {
    experiment::drr_distinct 1024 [lmap i [lsort -integer [array names src]] {set src($i)}]
}

# ---- round-trip times without queueing, and the windows ----
proc hop {bw delay} {
    # one link, both directions: propagation + data + ACK transmission
    return [expr {2.0 * $delay + 8.0 * ([experiment::p pkt_size] + [experiment::p ack_size]) / $bw}]
}
set acc [hop [experiment::p access_bw] [experiment::p access_delay]]
set gwl [hop [experiment::p gw_bw] [experiment::p gw_delay]]
set rate_pkts [expr {[experiment::p gw_bw] / (8.0 * [experiment::p pkt_size])}]
set rtt(0) [expr {2 * $acc + (2 * $n - 1) * $gwl}]
for {set i 1} {$i <= $conns} {incr i} { set rtt($i) [expr {2 * $acc + $gwl}] }

# ---- connections ----
set wopt [expr {[experiment::p increase] eq "one" ? 1 : 2}]
for {set i 0} {$i <= $conns} {incr i} {
    set window($i) [expr {int(round($rate_pkts * $rtt($i))) + [experiment::p window_extra]}]
    set knobs [list packetSize_ [experiment::p pkt_size] window_ $window($i) windowInit_ [experiment::p window_init] \
        maxburst_ 0 tcpTick_ [experiment::p tcp_tick] minrto_ [experiment::p min_rto] windowOption_ $wopt \
        windowConstant_ [experiment::p window_const] overhead_ [experiment::p overhead]]
    lassign [experiment::tcp_flow $src($i) $dst($i) [experiment::p tcp] $i $knobs] tcp($i) sink($i) ftp($i)
    if {[experiment::p ssthresh_half]} {
        # $ns run resets every agent (ssthresh_ = window_), so set it just after; not via
        # max_ssthresh_, which would also switch on limited slow start (RFC 3742)
        $ns at 0.0 "$tcp($i) set ssthresh_ [expr {$window($i) / 2}]"
    }
    [set sink($i)] set packetSize_ [experiment::p ack_size]
    set start($i) [experiment::uniform 0 [experiment::p start_max]]
    $ns at $start($i) "$ftp($i) start"
}

# ---- monitors ----
set fids {}
for {set i 0} {$i <= $conns} {incr i} { lappend fids $i }
for {set i 1} {$i <= $n} {incr i} { set fm($i) [experiment::flowmon $ga($i) $gb($i)] }
experiment::table_open goodput {period t conn delivered timeouts}
experiment::table_open gateways {period t gw conn arrivals departures drops}
set ::period_index 0
proc sample_period {} {
    global ns n conns sink tcp fm fids
    incr ::period_index
    set t [$ns now]
    for {set i 0} {$i <= $conns} {incr i} {
        set pk [expr {[$sink($i) set bytes_] / [experiment::p pkt_size]}]
        experiment::row goodput [list $::period_index $t $i $pk [$tcp($i) set nrexmit_]]
    }
    for {set g 1} {$g <= $n} {incr g} {
        foreach {fid c} [experiment::flow_counts $fm($g) $fids] {
            # at gateway g only connections 0 and g pass
            if {$fid == 0 || $fid == $g} {
                experiment::row gateways [concat [list $::period_index $t $g $fid] $c]
            }
        }
    }
}
experiment::every [experiment::p period] [experiment::p duration] sample_period
if {[experiment::p cwnd_interval] > 0} {
    experiment::table_open cwnd {t conn cwnd}
    proc sample_cwnd {} {
        global ns conns tcp
        for {set i 0} {$i <= $conns} {incr i} {
            experiment::row cwnd [list [$ns now] $i [format %.3f [$tcp($i) set cwnd_]]]
        }
    }
    experiment::every [experiment::p cwnd_interval] [experiment::p duration] sample_cwnd
}

proc finish {} {
    global ns conns rtt window start n
    set res [list rate_pkts_per_s $::rate_pkts]
    for {set i 0} {$i <= $conns} {incr i} {
        lappend res rtt_$i [format %.6f $rtt($i)] window_$i $window($i) start_$i [format %.6f $start($i)]
    }
    experiment::finish floyd1991/gateways.tcl $res
    exit 0
}
$ns at [expr {[experiment::p duration] + 1e-6}] finish
$ns run
