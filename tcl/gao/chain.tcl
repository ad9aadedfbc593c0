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
source [file join [file dirname [info script]] .. lib experiment.tcl]

experiment::param links          posint "number of congested links in the chain"
experiment::param gateway        {enum protocol1 protocol2 choke droptail red drr sfq codel fqcodel pie} "discipline of the congested queues"
experiment::param tcp            {enum tahoe reno newreno sack} "TCP sender/sink variant (sack = Sack1 + SACK sink)"
experiment::param n_udp          int    "UDP (CBR) flows over every link"
experiment::param n_tcp          int    "TCP flows over every link"
experiment::param n_cross        int    "TCP flows over the last link only"
experiment::param udp_rate       posnum "sending rate of each UDP flow (bit/s)"
experiment::param udp_random     bool   "CBR random_: jitter the UDP sending times"
experiment::param link_bw        posnum "congested link rate (bit/s)"
experiment::param link_delay     nonneg "congested link one-way delay (s)"
experiment::param access_bw      posnum "access link rate (bit/s)"
experiment::param path_delay     nonneg "one-way propagation delay of every flow (s); access delays follow"
experiment::param pkt_size       posint "packet size on the wire (bytes), UDP and TCP data alike"
experiment::param ack_size       posint "TCP ACK size (bytes)"
experiment::param window         posint "TCP maximum window (packets)"
experiment::param buffer         posint "Protocol I/II buffer F (packets)"
experiment::param high           posint "Protocol I/II high marker H (packets)"
experiment::param low            int    "Protocol I/II low marker L (packets)"
experiment::param limit          posint "buffer of every congested queue but Protocol I/II's (packets)"
experiment::param red_thresh     posnum "CHOKe/RED min threshold (packets)"
experiment::param red_maxthresh  posnum "CHOKe/RED max threshold (packets)"
experiment::param red_q_weight   posnum "CHOKe/RED EWMA weight"
experiment::param red_linterm    posnum "CHOKe/RED 1/max_p"
experiment::param red_wait       bool   "CHOKe/RED wait_ between drops"
experiment::param red_gentle     bool   "CHOKe/RED gentle_"
experiment::param choke_k        posint "CHOKe candidates drawn per arrival"
experiment::param other_buffer   posint "buffer of every uncongested queue (packets)"
experiment::param duration       posnum "simulated time (s)"
experiment::param warmup         nonneg "measurement starts here (s); ends at duration"
experiment::param start_max      nonneg {TCP flows start at U[0, start_max] s; UDP at 0}
experiment::queue_params
experiment::parse_args $argv

foreach k {n_udp n_tcp n_cross low} {
    experiment::require {[experiment::p $k] >= 0} "$k must be >= 0 (got [experiment::p $k])"
}
experiment::require {[experiment::p n_udp] + [experiment::p n_tcp] + [experiment::p n_cross] > 0} "no flows: n_udp + n_tcp + n_cross = 0"
experiment::limit red_thresh<red_maxthresh {red_thresh < red_maxthresh} \
    {red_thresh ({red_thresh}) must be below red_maxthresh ({red_maxthresh})}
experiment::limit low<high<buffer {0 <= low && low < high && high < buffer} \
    {Protocol I/II markers need 0 <= low < high < buffer (low {low}, high {high}, buffer {buffer})}
experiment::limit warmup<duration {warmup < duration} \
    {warmup ({warmup}) must be below duration ({duration})}
experiment::limit pkt_size>40 {pkt_size > 40} \
    {pkt_size ({pkt_size}) must exceed the 40-byte TCP/IP header}
experiment::limit path_delay>=links*link_delay {path_delay >= links * link_delay} \
    {path_delay ({path_delay}) is shorter than the delay of the congested links, links x link_delay ({links} x {link_delay})}
set nl [experiment::p links]

set ns [experiment::sim_new [experiment::p seed]]
set gw [experiment::p gateway]
set qlimit [expr {$gw in {protocol1 protocol2} ? [experiment::p buffer] : [experiment::p limit]}]
set knobs [list H [experiment::p high] L [experiment::p low] \
    thresh [experiment::p red_thresh] maxthresh [experiment::p red_maxthresh] q_weight [experiment::p red_q_weight] \
    linterm [experiment::p red_linterm] wait [experiment::p red_wait] gentle [experiment::p red_gentle] \
    mean_pktsize [experiment::p pkt_size] drop_rand 0 k [experiment::p choke_k] \
    {*}[experiment::queue_knobs [experiment::p limit] [experiment::p pkt_size]]]

# ---- routers and congested links ----
for {set r 1} {$r <= $nl + 1} {incr r} { set R($r) [$ns node] }
for {set l 1} {$l <= $nl} {incr l} {
    set a $R($l); set b $R([expr {$l + 1}])
    experiment::simplex $a $b [experiment::p link_bw] [experiment::p link_delay] [experiment::gateway_class $gw] $qlimit
    experiment::gateway_setup [experiment::queue $a $b] $gw $knobs
    experiment::simplex $b $a [experiment::p link_bw] [experiment::p link_delay] DropTail [experiment::p other_buffer]
}

# ---- flows: {fid kind first_link} ----
set flows {}
set fid 0
for {set i 0} {$i < [experiment::p n_udp]} {incr i} { lappend flows [list [incr fid] udp 1] }
for {set i 0} {$i < [experiment::p n_tcp]} {incr i} { lappend flows [list [incr fid] tcp 1] }
for {set i 0} {$i < [experiment::p n_cross]} {incr i} { lappend flows [list [incr fid] tcp $nl] }

set srcs {}
set tcp_size [expr {[experiment::p pkt_size] - 40}]
experiment::table_open flows {fid kind first_link last_link}
foreach f $flows {
    lassign $f fid kind first
    # source and sink nodes alternate, so DRR's hash keeps sources apart (checked below)
    set src [$ns node]; set dst [$ns node]
    lappend srcs $src
    set hops [expr {$nl - $first + 1}]
    set acc [expr {([experiment::p path_delay] - $hops * [experiment::p link_delay]) / 2.0}]
    experiment::duplex $src $R($first) [experiment::p access_bw] $acc DropTail [experiment::p other_buffer]
    experiment::duplex $R([expr {$nl + 1}]) $dst [experiment::p access_bw] $acc DropTail [experiment::p other_buffer]
    if {$kind eq "udp"} {
        set u [new Agent/UDP]
        $u set fid_ $fid
        $u set packetSize_ [experiment::p pkt_size]
        set sink [new Agent/Null]
        $ns attach-agent $src $u; $ns attach-agent $dst $sink; $ns connect $u $sink
        set cbr [new Application/Traffic/CBR]
        $cbr attach-agent $u
        experiment::set_knobs $cbr [list packetSize_ [experiment::p pkt_size] rate_ [experiment::p udp_rate] \
            random_ [expr {[experiment::p udp_random] ? 1 : 0}]]
        $ns at 0.0 "$cbr start"
    } else {
        # ns-2 TCP adds its 40-byte header to packetSize_: the wire size is pkt_size
        lassign [experiment::tcp_flow $src $dst [experiment::p tcp] $fid \
            [list packetSize_ $tcp_size window_ [experiment::p window]]] tcp sink ftp
        $sink set packetSize_ [experiment::p ack_size]
        $ns at [experiment::uniform 0 [experiment::p start_max]] "$ftp start"
    }
    experiment::row flows [list $fid $kind $first $nl]
}
if {$gw eq "drr"} { experiment::drr_distinct 1024 $srcs }

# ---- monitors: cumulative counts at the congested queues ----
set fids [lmap f $flows {lindex $f 0}]
for {set l 1} {$l <= $nl} {incr l} { set fm($l) [experiment::flowmon $R($l) $R([expr {$l + 1}])] }
experiment::table_open counts {t link fid arrivals departures drops}
proc sample {} {
    global ns nl fm fids
    for {set l 1} {$l <= $nl} {incr l} {
        foreach {fid c} [experiment::flow_counts $fm($l) $fids] {
            experiment::row counts [concat [list [$ns now] $l $fid] $c]
        }
    }
}
$ns at [experiment::p warmup] sample
$ns at [experiment::p duration] sample

proc finish {} {
    global ns nl R gw
    set res {}
    for {set l 1} {$l <= $nl} {incr l} {
        set q [experiment::queue $R($l) $R([expr {$l + 1}])]
        if {$gw in {protocol1 protocol2}} {
            lappend res overflow_drops_$l [$q set overflow_drops_] stamp_drops_$l [$q set stamp_drops_]
        }
    }
    experiment::finish gao/chain.tcl $res
    exit 0
}
$ns at [expr {[experiment::p duration] + 1e-6}] finish
$ns run
