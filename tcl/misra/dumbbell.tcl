# Misra, Baras, Ott, "Generalized TCP Congestion Avoidance and its Effect on Bandwidth
# Sharing and Variability": generalised-TCP flows (Agent/TCP/Generalized) through per-flow
# token-bucket taggers (QueueMonitor/ED/ProfileTagger) into one ORED bottleneck
# (Queue/RED/ORED). Experiments A and B (Sec III.C, two flows), the single flow of Sec IV.C
# (flows=1) and the N-flow extension are all this family.
#
#   src_i --(access_bw, d_i)--> R1 ==(C, bottleneck_delay, ORED)==> R2 --(access_bw, sink_delay)--> D
#
# The tagger of flow i sits at the head of src_i's access link (host-side tagging). d_i is
# chosen so that flow i's nominal round-trip time -- propagation plus the transmission of
# one data packet and one ACK on every link, without queueing -- equals rtts[i] (the RTT_i
# of the paper's model). C = capacity + flows x capacity_per_flow. ACKs return over an
# uncongested reverse path. The ORED thresholds may scale with the number of flows like C
# (min_th + flows x min_th_per_flow, likewise max_th).
#
# Writes (measurement window [warmup, duration]):
#   flows.tsv  flow profile rtt access_delay cwnd_mean cwnd_var samples goodput in out
#              decreases rexmits timeouts arrivals drops
#              cwnd_* from cwnd_ sampled every sample_interval s; goodput (bit/s) from the
#              sink's in-order bytes; in/out: packets the tagger tagged; decreases: ECN
#              window decreases (necnresponses_); rexmits/timeouts: retransmitted packets
#              and timeouts; arrivals/drops: at the bottleneck queue
#   hist.tsv   flow bin count     cwnd samples per bin [bin*hist_bin, (bin+1)*hist_bin)
#              (only if hist_bin > 0)
# and in summary.json the bottleneck's mean average queue (ave_) and mean instantaneous
# queue (packets), its marks and early drops, C, and the access delays.
source [file join [file dirname [info script]] .. lib ccr.tcl]

ccr::param flows             posint "number of flows"
ccr::param profiles          string "assured rates (bit/s), comma-separated, repeated over the flows (flow i gets value i mod count)"
ccr::param rtts              string "nominal round-trip times (s), comma-separated, repeated over the flows like profiles"
ccr::param capacity          nonneg "bottleneck rate (bit/s), fixed part"
ccr::param capacity_per_flow nonneg "bottleneck rate added per flow (bit/s): C = capacity + flows x capacity_per_flow"
ccr::param alpha             number "increase exponent: W += c1 W^alpha per unmarked ACK"
ccr::param beta              number "decrease exponent: W -= c2 W^beta per marked ACK"
ccr::param c1                posnum "increase coefficient"
ccr::param c2                posnum "decrease coefficient"
ccr::param min_th            nonneg "ORED min threshold (packets), fixed part"
ccr::param max_th            nonneg "ORED max threshold (packets), fixed part"
ccr::param min_th_per_flow   nonneg "ORED min threshold added per flow (packets): min_th + flows x min_th_per_flow"
ccr::param max_th_per_flow   nonneg "ORED max threshold added per flow (packets): max_th + flows x max_th_per_flow"
ccr::param p_max             prob   "ORED marking probability at max_th and above"
ccr::param q_weight          posnum "ORED EWMA weight of the average queue (1 = instantaneous queue)"
ccr::param buffer            posint "bottleneck buffer (packets)"
ccr::param bucket_depth      posint "token bucket depth of each tagger (packets of pkt_size)"
ccr::param pkt_size          posint "data packet size on the wire (bytes)"
ccr::param ack_size          posint "ACK size (bytes)"
ccr::param access_bw         posnum "access and sink link rate (bit/s)"
ccr::param bottleneck_delay  nonneg "bottleneck one-way propagation delay (s)"
ccr::param sink_delay        nonneg "R2 -> sink one-way propagation delay (s)"
ccr::param window            posint "TCP maximum window window_ (packets); large: never limits"
ccr::param tcp_tick          posnum "TCP clock granularity (s)"
ccr::param min_rto           posnum "minimum retransmission timeout (s)"
ccr::param start_max         nonneg {flows start at U[0, start_max] s}
ccr::param duration          posnum "simulated time (s)"
ccr::param warmup            nonneg "start of the measurement window (s)"
ccr::param sample_interval   posnum "cwnd and queue sampling interval (s)"
ccr::param hist_bin          nonneg "cwnd histogram bin width (packets); 0 = no histogram"
ccr::parse_args $argv

# ---- cross-parameter checks (the model's requirements, Sec II-III) ----
proc flow_values {name} {
    set vals [split [ccr::p $name] ,]
    set n [ccr::p flows]
    if {[llength $vals] == 0 || [llength $vals] > $n} {
        ccr::_fail "$name: [llength $vals] values for $n flows: '[ccr::p $name]'"
    }
    set out {}
    for {set i 0} {$i < $n} {incr i} {
        set v [string trim [lindex $vals [expr {$i % [llength $vals]}]]]
        if {![string is double -strict $v] || $v < 0} {
            ccr::_fail "$name: '$v' is not a number >= 0"
        }
        lappend out $v
    }
    return $out
}
set profile [flow_values profiles]
set rtt [flow_values rtts]
set n [ccr::p flows]
set C [expr {[ccr::p capacity] + $n * [ccr::p capacity_per_flow]}]
set sumR [expr [join $profile +]]
ccr::require {$C > $sumR} \
    "bottleneck rate C = $C bit/s must exceed the sum of the assured rates $sumR bit/s (eq 3)"
ccr::require {[ccr::p alpha] < [ccr::p beta]} \
    "alpha ([ccr::p alpha]) must be < beta ([ccr::p beta]): the decrease must outgrow the increase (Sec II)"
ccr::require {[ccr::p beta] != 1 || [ccr::p c2] < 1} \
    "c2 ([ccr::p c2]) must be < 1 when beta = 1: a marked ACK would set W to (1 - c2) W <= 0"
set minth [expr {[ccr::p min_th] + $n * [ccr::p min_th_per_flow]}]
set maxth [expr {[ccr::p max_th] + $n * [ccr::p max_th_per_flow]}]
ccr::require {$minth > 0} "the ORED min threshold must be > 0 packets (min_th + flows x min_th_per_flow)"
ccr::require {$minth < $maxth} "ORED min threshold ($minth) must be below the max threshold ($maxth)"
ccr::require {$maxth < [ccr::p buffer]} \
    "ORED max threshold ($maxth) must be below the buffer ([ccr::p buffer] packets)"
ccr::require {[ccr::p p_max] > 0} "p_max must be > 0"
ccr::require {[ccr::p q_weight] <= 1} "q_weight ([ccr::p q_weight]) must be <= 1"
ccr::require {[ccr::p warmup] < [ccr::p duration]} "warmup must be shorter than duration"
ccr::require {[ccr::p sample_interval] <= [ccr::p duration] - [ccr::p warmup]} \
    "sample_interval must not exceed the measurement window"

# ---- link delays from the nominal round-trip times ----
set bits_data [expr {8.0 * [ccr::p pkt_size]}]
set bits_ack [expr {8.0 * [ccr::p ack_size]}]
# transmission of one data packet and one ACK on the access, bottleneck and sink links
set tx [expr {2 * ($bits_data + $bits_ack) / [ccr::p access_bw] + ($bits_data + $bits_ack) / $C}]
set fixed [expr {2 * ([ccr::p bottleneck_delay] + [ccr::p sink_delay]) + $tx}]
for {set i 0} {$i < $n} {incr i} {
    set d($i) [expr {([lindex $rtt $i] - $fixed) / 2.0}]
    ccr::require {$d($i) >= 0} \
        "flow $i: rtt [lindex $rtt $i] s is below the fixed part of the path, [format %.6f $fixed] s"
}

# ---- topology ----
set ns [ccr::sim_new [ccr::p seed]]
set r1 [$ns node]; set r2 [$ns node]; set dst [$ns node]
set big [expr {[ccr::p buffer] + 1000}]
ccr::simplex $r1 $r2 $C [ccr::p bottleneck_delay] RED/ORED [ccr::p buffer]
ccr::simplex $r2 $r1 $C [ccr::p bottleneck_delay] DropTail $big
ccr::duplex $r2 $dst [ccr::p access_bw] [ccr::p sink_delay] DropTail $big
set q [ccr::queue $r1 $r2]
ccr::set_knobs $q [list thresh_ $minth maxthresh_ $maxth p_max_ [ccr::p p_max] \
    q_weight_ [ccr::p q_weight] mean_pktsize_ [ccr::p pkt_size] bytes_ false \
    queue_in_bytes_ false gentle_ false]
if {[catch {$q check} err]} { ccr::_fail "ORED: $err" }
set fm [ccr::flowmon $r1 $r2]

set knobs [list g_alpha_ [ccr::p alpha] g_beta_ [ccr::p beta] g_c1_ [ccr::p c1] g_c2_ [ccr::p c2] \
    packetSize_ [ccr::p pkt_size] window_ [ccr::p window] maxcwnd_ [ccr::p window] \
    tcpTick_ [ccr::p tcp_tick] minrto_ [ccr::p min_rto] maxburst_ 0 ecn_ 1]
for {set i 0} {$i < $n} {incr i} {
    set src($i) [$ns node]
    ccr::duplex $src($i) $r1 [ccr::p access_bw] $d($i) DropTail $big
    set tg($i) [new QueueMonitor/ED/ProfileTagger]
    $tg($i) set depth_ [ccr::p bucket_depth]
    $tg($i) set pktsize_ [ccr::p pkt_size]
    if {[catch {$tg($i) check} err]} { ccr::_fail "tagger: $err" }
    $tg($i) profile $i [lindex $profile $i]
    $ns attach-tagger [$ns link $src($i) $r1] $tg($i)
    lassign [ccr::tcp_flow $src($i) $dst gaimd $i $knobs] tcp($i) sink($i) ftp($i)
    if {[catch {$tcp($i) check} err]} { ccr::_fail "TCP: $err" }
    $sink($i) set packetSize_ [ccr::p ack_size]
    set start($i) [ccr::uniform 0 [ccr::p start_max]]
    $ns at $start($i) "$ftp($i) start"
}

# ---- measurement ----
set fids {}
for {set i 0} {$i < $n} {incr i} {
    lappend fids $i
    set s1($i) 0.0; set s2($i) 0.0
}
set nsamples 0
set qave_sum 0.0
set qlen_sum 0.0
array set hist {}
proc snapshot {} {
    global n tcp sink tg fm fids q
    set out {}
    array set c {}
    foreach {fid cnt} [ccr::flow_counts $fm $fids] { set c($fid) $cnt }
    for {set i 0} {$i < $n} {incr i} {
        lassign [$tg($i) counts $i] tin tout
        lassign $c($i) arr dep drp
        lappend out [list [$sink($i) set bytes_] $tin $tout [$tcp($i) set necnresponses_] \
            [$tcp($i) set nrexmitpack_] [$tcp($i) set nrexmit_] $arr $drp]
    }
    return [list $out [$q set marks_] [$q set edrops_]]
}
proc sample {} {
    global ns n tcp s1 s2 nsamples qave_sum qlen_sum q fm hist
    if {[$ns now] < [ccr::p warmup] - 1e-9} { return }
    incr nsamples
    for {set i 0} {$i < $n} {incr i} {
        set w [$tcp($i) set cwnd_]
        set s1($i) [expr {$s1($i) + $w}]
        set s2($i) [expr {$s2($i) + $w * $w}]
        if {[ccr::p hist_bin] > 0} {
            set b [expr {int(floor($w / [ccr::p hist_bin]))}]
            if {[info exists hist($i,$b)]} { incr hist($i,$b) } else { set hist($i,$b) 1 }
        }
    }
    set qave_sum [expr {$qave_sum + [$q set ave_]}]
    set qlen_sum [expr {$qlen_sum + [$fm set pkts_]}]
}
$ns at [ccr::p warmup] "set ::snap0 \[snapshot\]"
ccr::every [ccr::p sample_interval] [ccr::p duration] sample

ccr::table_open flows {flow profile rtt access_delay cwnd_mean cwnd_var samples goodput in out decreases rexmits timeouts arrivals drops}
if {[ccr::p hist_bin] > 0} { ccr::table_open hist {flow bin count} }

proc finish {} {
    global ns n profile rtt d s1 s2 nsamples qave_sum qlen_sum hist C start fixed
    lassign $::snap0 f0 m0 e0
    lassign [snapshot] f1 m1 e1
    set span [expr {[ccr::p duration] - [ccr::p warmup]}]
    for {set i 0} {$i < $n} {incr i} {
        set a [lindex $f0 $i]; set b [lindex $f1 $i]
        set delta {}
        foreach x $a y $b { lappend delta [expr {$y - $x}] }
        lassign $delta bytes tin tout decr rexmit tmo arr drp
        set mean [expr {$s1($i) / $nsamples}]
        set var [expr {max(0.0, $s2($i) / $nsamples - $mean * $mean)}]
        ccr::row flows [list $i [lindex $profile $i] [lindex $rtt $i] [format %.9f $d($i)] \
            [format %.6f $mean] [format %.6f $var] $nsamples [format %.3f [expr {8.0 * $bytes / $span}]] \
            $tin $tout $decr $rexmit $tmo $arr $drp]
    }
    if {[ccr::p hist_bin] > 0} {
        foreach key [lsort -dictionary [array names hist]] {
            lassign [split $key ,] i b
            ccr::row hist [list $i $b $hist($key)]
        }
    }
    set res [list capacity_bps $C min_th_pkts $::minth max_th_pkts $::maxth \
        path_fixed_s [format %.9f $fixed] \
        queue_ave_pkts [format %.6f [expr {$qave_sum / $nsamples}]] \
        queue_len_pkts [format %.6f [expr {$qlen_sum / $nsamples}]] \
        marks [expr {$m1 - $m0}] early_drops [expr {$e1 - $e0}]]
    for {set i 0} {$i < $n} {incr i} { lappend res start_$i [format %.6f $start($i)] }
    ccr::finish misra/dumbbell.tcl $res
    exit 0
}
$ns at [expr {[ccr::p duration] + 1e-6}] finish
$ns run
