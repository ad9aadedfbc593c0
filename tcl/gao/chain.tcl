# Gao, Jain, Schulman, "Fair and efficient router congestion control", Simulations 2 and 3:
# unresponsive UDP (CBR) flows and TCP flows on a chain of congested links.
#
#   R1 --link 1--> R2 --link 2--> ... --link n--> R(n+1)
#
# Every UDP flow and every "long" TCP flow enters at R1 and crosses all n links; every
# "cross" TCP flow enters at Rn and crosses only the last link. Each flow has its own
# source and sink node (DRR tells flows apart by source address) on access links whose
# delay makes every flow's one-way propagation delay path_delay. The congested queues are
# the R_l -> R_(l+1) queues, all of one discipline; the reverse direction carries ACKs.
#   Figure 3 (Sim 2.1): links=1, 1 UDP at 3 Mb/s, 32 TCP, 2 Mb/s
#   Table 1  (Sim 2.2): links=1, 10 UDP at 0.5 Mb/s, 10 TCP, 1.5 Mb/s
#   Table 2  (Sim 3):   links=2, 1 UDP at 10 Mb/s, 1 long TCP, 1 cross TCP, 10 Mb/s
# Flow ids: UDP 1..n_udp, then the long TCP flows, then the cross TCP flows.
#
# Writes:
#   flows.tsv   fid kind first_link last_link        (kind udp or tcp; links crossed)
#   counts.tsv  t link fid arrivals departures drops  (cumulative packets at each congested
#               queue, sampled at t = warmup and t = duration)
source [file join [file dirname [info script]] .. lib ccr.tcl]

ccr::param links          posint "number of congested links in the chain"
ccr::param gateway        {enum protocol1 protocol2 choke droptail red drr} "discipline of the congested queues"
ccr::param tcp            {enum tahoe reno newreno sack} "TCP sender/sink variant (sack = Sack1 + SACK sink)"
ccr::param n_udp          int    "UDP (CBR) flows over every link"
ccr::param n_tcp          int    "TCP flows over every link"
ccr::param n_cross        int    "TCP flows over the last link only"
ccr::param udp_rate       posnum "sending rate of each UDP flow (bit/s)"
ccr::param udp_random     bool   "CBR random_: jitter the UDP sending times"
ccr::param link_bw        posnum "congested link rate (bit/s)"
ccr::param link_delay     nonneg "congested link one-way delay (s)"
ccr::param access_bw      posnum "access link rate (bit/s)"
ccr::param path_delay     nonneg "one-way propagation delay of every flow (s); access delays follow"
ccr::param pkt_size       posint "packet size on the wire (bytes), UDP and TCP data alike"
ccr::param ack_size       posint "TCP ACK size (bytes)"
ccr::param window         posint "TCP maximum window (packets)"
ccr::param buffer         posint "Protocol I/II buffer F (packets)"
ccr::param high           posint "Protocol I/II high marker H (packets)"
ccr::param low            int    "Protocol I/II low marker L (packets)"
ccr::param limit          posint "buffer of the CHOKe, RED, DropTail and DRR queues (packets)"
ccr::param red_thresh     posnum "CHOKe/RED min threshold (packets)"
ccr::param red_maxthresh  posnum "CHOKe/RED max threshold (packets)"
ccr::param red_q_weight   posnum "CHOKe/RED EWMA weight"
ccr::param red_linterm    posnum "CHOKe/RED 1/max_p"
ccr::param red_wait       bool   "CHOKe/RED wait_ between drops"
ccr::param red_gentle     bool   "CHOKe/RED gentle_"
ccr::param choke_k        posint "CHOKe candidates drawn per arrival"
ccr::param drr_quantum    posint "DRR quantum (bytes per round)"
ccr::param other_buffer   posint "buffer of every uncongested queue (packets)"
ccr::param duration       posnum "simulated time (s)"
ccr::param warmup         nonneg "measurement starts here (s); ends at duration"
ccr::param start_max      nonneg {TCP flows start at U[0, start_max] s; UDP at 0}
ccr::parse_args $argv

foreach k {n_udp n_tcp n_cross low} {
    ccr::require {[ccr::p $k] >= 0} "$k must be >= 0 (got [ccr::p $k])"
}
ccr::require {[ccr::p n_udp] + [ccr::p n_tcp] + [ccr::p n_cross] > 0} "no flows: n_udp + n_tcp + n_cross = 0"
ccr::require {[ccr::p low] < [ccr::p high] && [ccr::p high] < [ccr::p buffer]} \
    "Protocol I/II markers: need 0 <= low < high < buffer (got low [ccr::p low], high [ccr::p high], buffer [ccr::p buffer])"
ccr::require {[ccr::p red_thresh] < [ccr::p red_maxthresh]} \
    "red_thresh ([ccr::p red_thresh]) must be below red_maxthresh ([ccr::p red_maxthresh])"
ccr::require {[ccr::p warmup] < [ccr::p duration]} "warmup ([ccr::p warmup]) must be below duration ([ccr::p duration])"
ccr::require {[ccr::p pkt_size] > 40} "pkt_size must exceed the 40-byte TCP/IP header (got [ccr::p pkt_size])"
set nl [ccr::p links]
ccr::require {[ccr::p path_delay] >= $nl * [ccr::p link_delay]} \
    "path_delay ([ccr::p path_delay]) is shorter than the $nl congested links' delay ($nl x [ccr::p link_delay])"

set ns [ccr::sim_new [ccr::p seed]]
set gw [ccr::p gateway]
set qlimit [expr {$gw in {protocol1 protocol2} ? [ccr::p buffer] : [ccr::p limit]}]
set knobs [list H [ccr::p high] L [ccr::p low] \
    thresh [ccr::p red_thresh] maxthresh [ccr::p red_maxthresh] q_weight [ccr::p red_q_weight] \
    linterm [ccr::p red_linterm] wait [ccr::p red_wait] gentle [ccr::p red_gentle] \
    mean_pktsize [ccr::p pkt_size] drop_rand 0 k [ccr::p choke_k] \
    blimit [expr {[ccr::p limit] * [ccr::p pkt_size]}] quantum [ccr::p drr_quantum] buckets 1024]

# ---- routers and congested links ----
for {set r 1} {$r <= $nl + 1} {incr r} { set R($r) [$ns node] }
for {set l 1} {$l <= $nl} {incr l} {
    set a $R($l); set b $R([expr {$l + 1}])
    ccr::simplex $a $b [ccr::p link_bw] [ccr::p link_delay] [ccr::gateway_class $gw] $qlimit
    ccr::gateway_setup [ccr::queue $a $b] $gw $knobs
    ccr::simplex $b $a [ccr::p link_bw] [ccr::p link_delay] DropTail [ccr::p other_buffer]
}

# ---- flows: {fid kind first_link} ----
set flows {}
set fid 0
for {set i 0} {$i < [ccr::p n_udp]} {incr i} { lappend flows [list [incr fid] udp 1] }
for {set i 0} {$i < [ccr::p n_tcp]} {incr i} { lappend flows [list [incr fid] tcp 1] }
for {set i 0} {$i < [ccr::p n_cross]} {incr i} { lappend flows [list [incr fid] tcp $nl] }

set srcs {}
set tcp_size [expr {[ccr::p pkt_size] - 40}]
ccr::table_open flows {fid kind first_link last_link}
foreach f $flows {
    lassign $f fid kind first
    # source and sink nodes alternate, so DRR's hash keeps sources apart (checked below)
    set src [$ns node]; set dst [$ns node]
    lappend srcs $src
    set hops [expr {$nl - $first + 1}]
    set acc [expr {([ccr::p path_delay] - $hops * [ccr::p link_delay]) / 2.0}]
    ccr::duplex $src $R($first) [ccr::p access_bw] $acc DropTail [ccr::p other_buffer]
    ccr::duplex $R([expr {$nl + 1}]) $dst [ccr::p access_bw] $acc DropTail [ccr::p other_buffer]
    if {$kind eq "udp"} {
        set u [new Agent/UDP]
        $u set fid_ $fid
        $u set packetSize_ [ccr::p pkt_size]
        set sink [new Agent/Null]
        $ns attach-agent $src $u; $ns attach-agent $dst $sink; $ns connect $u $sink
        set cbr [new Application/Traffic/CBR]
        $cbr attach-agent $u
        ccr::set_knobs $cbr [list packetSize_ [ccr::p pkt_size] rate_ [ccr::p udp_rate] \
            random_ [expr {[ccr::p udp_random] ? 1 : 0}]]
        $ns at 0.0 "$cbr start"
    } else {
        # ns-2 TCP adds its 40-byte header to packetSize_: the wire size is pkt_size
        lassign [ccr::tcp_flow $src $dst [ccr::p tcp] $fid \
            [list packetSize_ $tcp_size window_ [ccr::p window]]] tcp sink ftp
        $sink set packetSize_ [ccr::p ack_size]
        $ns at [ccr::uniform 0 [ccr::p start_max]] "$ftp start"
    }
    ccr::row flows [list $fid $kind $first $nl]
}
if {$gw eq "drr"} { ccr::drr_distinct 1024 $srcs }

# ---- monitors: cumulative counts at the congested queues ----
set fids [lmap f $flows {lindex $f 0}]
for {set l 1} {$l <= $nl} {incr l} { set fm($l) [ccr::flowmon $R($l) $R([expr {$l + 1}])] }
ccr::table_open counts {t link fid arrivals departures drops}
proc sample {} {
    global ns nl fm fids
    for {set l 1} {$l <= $nl} {incr l} {
        foreach {fid c} [ccr::flow_counts $fm($l) $fids] {
            ccr::row counts [concat [list [$ns now] $l $fid] $c]
        }
    }
}
$ns at [ccr::p warmup] sample
$ns at [ccr::p duration] sample

proc finish {} {
    global ns nl R gw
    set res {}
    for {set l 1} {$l <= $nl} {incr l} {
        set q [ccr::queue $R($l) $R([expr {$l + 1}])]
        if {$gw in {protocol1 protocol2}} {
            lappend res overflow_drops_$l [$q set overflow_drops_] stamp_drops_$l [$q set stamp_drops_]
        }
    }
    ccr::finish gao/chain.tcl $res
    exit 0
}
$ns at [expr {[ccr::p duration] + 1e-6}] finish
$ns run
