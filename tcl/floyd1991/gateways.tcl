# Floyd 1991, "Connections with Multiple Congested Gateways": the topology family of
# Figure 1. n congested gateways 1a..na; connection 0 crosses all of them
# (src0 -> 1a -> 1b -> 2a -> ... -> nb -> sink0), connection i crosses only ia -> ib
# (src_i -> ia -> ib -> sink_i). The congested queue is ia's, on its link to ib.
#
# Writes (cumulative counts, sampled at the end of every period):
#   goodput.tsv   period t conn delivered      in-order packets delivered to the sink
#   gateways.tsv  period t gw conn arrivals departures drops   at gateway ia (drops incl. early)
#   cwnd.tsv      t conn cwnd                  every cwnd_interval s (if > 0)
source [file join [file dirname [info script]] .. lib ccr.tcl]

ccr::param n             posint "number of congested gateways"
ccr::param active        {enum all conn0} "which connections run: all, or connection 0 alone (Fig 2)"
ccr::param gateway       {enum droptail red randomdrop choke} "discipline of the congested gateways (choke: the extension)"
ccr::param tcp           {enum tahoe reno newreno sack} "TCP sender/sink variant (sack = Sack1 + SACK sink)"
ccr::param increase      {enum one constant} "window increase: Increase-by-One, or Constant-Rate (windowOption_ 2)"
ccr::param window_const  posnum "Constant-Rate a (packets/s per s), windowConstant_"
ccr::param window_extra  int    "maximum window = round(bandwidth-delay product) + window_extra packets"
ccr::param ssthresh_half bool   "initial ssthresh = half the maximum window (else ns-2's default)"
ccr::param gw_bw         posnum "inter-gateway link rate (bit/s)"
ccr::param gw_delay      nonneg "inter-gateway link one-way delay (s)"
ccr::param access_bw     posnum "access link rate (bit/s)"
ccr::param access_delay  nonneg "access link one-way delay (s)"
ccr::param gw_buffer     posint "buffer of the congested gateways (packets)"
ccr::param other_buffer  posint "buffer of every other queue (packets)"
ccr::param pkt_size      posint "data packet size (bytes)"
ccr::param ack_size      posint "ACK size (bytes)"
ccr::param red_thresh    posnum "RED min threshold (packets)"
ccr::param red_maxthresh posnum "RED max threshold (packets)"
ccr::param red_q_weight  posnum "RED EWMA weight"
ccr::param red_linterm   posnum "RED 1/max_p"
ccr::param red_wait      bool   "RED wait_ between drops"
ccr::param red_gentle    bool   "RED gentle_"
ccr::param red_drop_rand bool   "RED drops a random queued packet on overflow"
ccr::param choke_k       posint "CHOKe: queued candidates compared with each arrival"
ccr::param overhead      nonneg {random send delay U[0, overhead] per packet at the sources (s)}
ccr::param duration      posnum "simulated time (s)"
ccr::param period        posnum "length of one measurement period (s)"
ccr::param start_max     nonneg {connections start at U[0, start_max] s}
ccr::param tcp_tick      posnum "TCP clock granularity (s)"
ccr::param min_rto       posnum "minimum retransmission timeout (s)"
ccr::param window_init   posint "initial window (packets)"
ccr::param cwnd_interval nonneg "cwnd sampling interval (s); 0 = no cwnd table"
ccr::parse_args $argv
ccr::require {[ccr::p red_thresh] < [ccr::p red_maxthresh]} \
    "red_thresh ([ccr::p red_thresh]) must be below red_maxthresh ([ccr::p red_maxthresh])"
ccr::require {[ccr::p period] <= [ccr::p duration]} "period must not exceed duration"

set ns [ccr::sim_new [ccr::p seed]]
set n [ccr::p n]
set gwq [ccr::gateway_class [ccr::p gateway]]
set gwknobs [list thresh [ccr::p red_thresh] maxthresh [ccr::p red_maxthresh] \
    q_weight [ccr::p red_q_weight] linterm [ccr::p red_linterm] wait [ccr::p red_wait] \
    gentle [ccr::p red_gentle] drop_rand [ccr::p red_drop_rand] mean_pktsize [ccr::p pkt_size] \
    k [ccr::p choke_k]]

# ---- nodes and links ----
for {set i 1} {$i <= $n} {incr i} {
    set ga($i) [$ns node]
    set gb($i) [$ns node]
    # the congested direction ia -> ib; its reverse carries ACKs only
    ccr::simplex $ga($i) $gb($i) [ccr::p gw_bw] [ccr::p gw_delay] $gwq [ccr::p gw_buffer]
    ccr::gateway_setup [ccr::queue $ga($i) $gb($i)] [ccr::p gateway] $gwknobs
    ccr::simplex $gb($i) $ga($i) [ccr::p gw_bw] [ccr::p gw_delay] DropTail [ccr::p other_buffer]
    if {$i > 1} {
        ccr::duplex $gb([expr {$i - 1}]) $ga($i) [ccr::p gw_bw] [ccr::p gw_delay] DropTail [ccr::p other_buffer]
    }
}
proc access {a b} {
    ccr::duplex $a $b [ccr::p access_bw] [ccr::p access_delay] DropTail [ccr::p other_buffer]
}
set src(0) [$ns node]; set dst(0) [$ns node]
access $src(0) $ga(1)
access $gb($n) $dst(0)
set conns [expr {[ccr::p active] eq "all" ? $n : 0}]
for {set i 1} {$i <= $conns} {incr i} {
    set src($i) [$ns node]; set dst($i) [$ns node]
    access $src($i) $ga($i)
    access $gb($i) $dst($i)
}

# ---- round-trip times without queueing, and the windows ----
proc hop {bw delay} {
    # one link, both directions: propagation + data + ACK transmission
    return [expr {2.0 * $delay + 8.0 * ([ccr::p pkt_size] + [ccr::p ack_size]) / $bw}]
}
set acc [hop [ccr::p access_bw] [ccr::p access_delay]]
set gwl [hop [ccr::p gw_bw] [ccr::p gw_delay]]
set rate_pkts [expr {[ccr::p gw_bw] / (8.0 * [ccr::p pkt_size])}]
set rtt(0) [expr {2 * $acc + (2 * $n - 1) * $gwl}]
for {set i 1} {$i <= $conns} {incr i} { set rtt($i) [expr {2 * $acc + $gwl}] }

# ---- connections ----
set wopt [expr {[ccr::p increase] eq "one" ? 1 : 2}]
for {set i 0} {$i <= $conns} {incr i} {
    set window($i) [expr {int(round($rate_pkts * $rtt($i))) + [ccr::p window_extra]}]
    set knobs [list packetSize_ [ccr::p pkt_size] window_ $window($i) windowInit_ [ccr::p window_init] \
        maxburst_ 0 tcpTick_ [ccr::p tcp_tick] minrto_ [ccr::p min_rto] windowOption_ $wopt \
        windowConstant_ [ccr::p window_const] overhead_ [ccr::p overhead]]
    lassign [ccr::tcp_flow $src($i) $dst($i) [ccr::p tcp] $i $knobs] tcp($i) sink($i) ftp($i)
    if {[ccr::p ssthresh_half]} {
        # $ns run resets every agent (ssthresh_ = window_), so set it just after; not via
        # max_ssthresh_, which would also switch on limited slow start (RFC 3742)
        $ns at 0.0 "$tcp($i) set ssthresh_ [expr {$window($i) / 2}]"
    }
    [set sink($i)] set packetSize_ [ccr::p ack_size]
    set start($i) [ccr::uniform 0 [ccr::p start_max]]
    $ns at $start($i) "$ftp($i) start"
}

# ---- monitors ----
set fids {}
for {set i 0} {$i <= $conns} {incr i} { lappend fids $i }
for {set i 1} {$i <= $n} {incr i} { set fm($i) [ccr::flowmon $ga($i) $gb($i)] }
ccr::table_open goodput {period t conn delivered}
ccr::table_open gateways {period t gw conn arrivals departures drops}
set ::period_index 0
proc sample_period {} {
    global ns n conns sink fm fids
    incr ::period_index
    set t [$ns now]
    for {set i 0} {$i <= $conns} {incr i} {
        set pk [expr {[$sink($i) set bytes_] / [ccr::p pkt_size]}]
        ccr::row goodput [list $::period_index $t $i $pk]
    }
    for {set g 1} {$g <= $n} {incr g} {
        foreach {fid c} [ccr::flow_counts $fm($g) $fids] {
            # at gateway g only connections 0 and g pass
            if {$fid == 0 || $fid == $g} {
                ccr::row gateways [concat [list $::period_index $t $g $fid] $c]
            }
        }
    }
}
ccr::every [ccr::p period] [ccr::p duration] sample_period
if {[ccr::p cwnd_interval] > 0} {
    ccr::table_open cwnd {t conn cwnd}
    proc sample_cwnd {} {
        global ns conns tcp
        for {set i 0} {$i <= $conns} {incr i} {
            ccr::row cwnd [list [$ns now] $i [format %.3f [$tcp($i) set cwnd_]]]
        }
    }
    ccr::every [ccr::p cwnd_interval] [ccr::p duration] sample_cwnd
}

proc finish {} {
    global ns conns rtt window start n
    set res [list rate_pkts_per_s $::rate_pkts]
    for {set i 0} {$i <= $conns} {incr i} {
        lappend res rtt_$i [format %.6f $rtt($i)] window_$i $window($i) start_$i [format %.6f $start($i)]
    }
    ccr::finish floyd1991/gateways.tcl $res
    exit 0
}
$ns at [expr {[ccr::p duration] + 1e-6}] finish
$ns run
