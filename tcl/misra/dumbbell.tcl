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
#   flows.tsv  flow profile rtt access_delay cwnd_mean cwnd_var samples cwnd_ack_mean acked
#              goodput in out decreases rexmits timeouts arrivals drops
#              cwnd_* from cwnd_ sampled every sample_interval s (time averages);
#              cwnd_ack_mean the per-ACK average: each interval's mean of its two samples
#              weighted by the packets newly acknowledged in it (acked, from ack_), the
#              average over packets of the window chain of Sec III eq (4), which the time
#              average equals only for a flow whose rate does not vary with its window (one
#              flow with the pipe full); goodput (bit/s) from the
#              sink's in-order bytes; in/out: packets the tagger tagged; decreases: ECN
#              window decreases (necnresponses_); rexmits/timeouts: retransmitted packets
#              and timeouts; arrivals/drops: at the bottleneck queue
#   hist.tsv   flow bin count     cwnd samples per bin [bin*hist_bin, (bin+1)*hist_bin)
#              (only if hist_bin > 0)
# and in summary.json the bottleneck's mean average queue (ave_) and mean instantaneous
# queue (packets), its marks and early drops, C, and the access delays.
source [file join [file dirname [info script]] .. lib experiment.tcl]

experiment::param flows             posint "number of flows"
experiment::param profiles          string "assured rates (bit/s), comma-separated, repeated over the flows (flow i gets value i mod count)"
experiment::param rtts              string "nominal round-trip times (s), comma-separated, repeated over the flows like profiles"
experiment::param capacity          nonneg "bottleneck rate (bit/s), fixed part"
experiment::param capacity_per_flow nonneg "bottleneck rate added per flow (bit/s): C = capacity + flows x capacity_per_flow"
experiment::param alpha             number "increase exponent: W += c1 W^alpha per unmarked ACK"
experiment::param beta              number "decrease exponent: W -= c2 W^beta per marked ACK"
experiment::param c1                posnum "increase coefficient"
experiment::param c2                posnum "decrease coefficient"
experiment::param min_th            nonneg "ORED min threshold (packets), fixed part"
experiment::param max_th            nonneg "ORED max threshold (packets), fixed part"
experiment::param min_th_per_flow   nonneg "ORED min threshold added per flow (packets): min_th + flows x min_th_per_flow"
experiment::param max_th_per_flow   nonneg "ORED max threshold added per flow (packets): max_th + flows x max_th_per_flow"
experiment::param p_max             prob   "ORED marking probability at max_th and above"
experiment::param q_weight          posnum "ORED EWMA weight of the average queue (1 = instantaneous queue)"
experiment::param buffer            posint "bottleneck buffer (packets)"
experiment::param bucket_depth      posint "token bucket depth of each tagger (packets of pkt_size)"
experiment::param pkt_size          posint "data packet size on the wire (bytes)"
experiment::param ack_size          posint "ACK size (bytes)"
experiment::param access_bw         posnum "access and sink link rate (bit/s)"
experiment::param bottleneck_delay  nonneg "bottleneck one-way propagation delay (s)"
experiment::param sink_delay        nonneg "R2 -> sink one-way propagation delay (s)"
experiment::param window            posint "TCP maximum window window_ (packets); large: never limits"
experiment::param tcp_tick          posnum "TCP clock granularity (s)"
experiment::param min_rto           posnum "minimum retransmission timeout (s)"
experiment::param start_max         nonneg {flows start at U[0, start_max] s}
experiment::param duration          posnum "simulated time (s)"
experiment::param warmup            nonneg "start of the measurement window (s)"
experiment::param sample_interval   posnum "cwnd and queue sampling interval (s)"
experiment::param hist_bin          nonneg "cwnd histogram bin width (packets); 0 = no histogram"
experiment::parse_args $argv

# ---- cross-parameter checks (the model's requirements, Sec II-III) ----
proc flow_values {name} {
    set vals [split [experiment::p $name] ,]
    set n [experiment::p flows]
    if {[llength $vals] == 0 || [llength $vals] > $n} {
        experiment::_fail "$name: [llength $vals] values for $n flows: '[experiment::p $name]'"
    }
    set out {}
    for {set i 0} {$i < $n} {incr i} {
        set v [string trim [lindex $vals [expr {$i % [llength $vals]}]]]
        if {![string is double -strict $v] || $v < 0} {
            experiment::_fail "$name: '$v' is not a number >= 0"
        }
        lappend out $v
    }
    return $out
}
set profile [flow_values profiles]
set rtt [flow_values rtts]
set n [experiment::p flows]
set C [expr {[experiment::p capacity] + $n * [experiment::p capacity_per_flow]}]
set sumR [expr [join $profile +]]
experiment::require {$C > $sumR} \
    "bottleneck rate C = $C bit/s must exceed the sum of the assured rates $sumR bit/s (eq 3)"
experiment::limit alpha<beta {alpha < beta} \
    {alpha ({alpha}) must be below beta ({beta}): the decrease must outgrow the increase}
experiment::limit beta=1->c2<1 {beta != 1 || c2 < 1} \
    {c2 ({c2}) must be below 1 when beta = 1}
experiment::limit min_th<max_th {0 < min_th + flows * min_th_per_flow && min_th + flows * min_th_per_flow < max_th + flows * max_th_per_flow} \
    {ORED thresholds need 0 < min_th + flows x min_th_per_flow < max_th + flows x max_th_per_flow (flows {flows}: min {min_th} + {min_th_per_flow}, max {max_th} + {max_th_per_flow})}
experiment::limit max_th<buffer {max_th + flows * max_th_per_flow < buffer} \
    {ORED max threshold max_th + flows x max_th_per_flow ({max_th} + {flows} x {max_th_per_flow}) must be below the buffer ({buffer} packets)}
experiment::limit q_weight<=1 {q_weight <= 1} {q_weight ({q_weight}) must be <= 1}
experiment::limit warmup<duration {warmup < duration} \
    {warmup ({warmup}) must be below duration ({duration})}
experiment::limit sample_interval<=window {sample_interval <= duration - warmup} \
    {sample_interval ({sample_interval}) must not exceed the window duration - warmup ({duration} - {warmup})}
set minth [expr {[experiment::p min_th] + $n * [experiment::p min_th_per_flow]}]
set maxth [expr {[experiment::p max_th] + $n * [experiment::p max_th_per_flow]}]
experiment::require {[experiment::p p_max] > 0} "p_max must be > 0"

# ---- link delays from the nominal round-trip times ----
set bits_data [expr {8.0 * [experiment::p pkt_size]}]
set bits_ack [expr {8.0 * [experiment::p ack_size]}]
# transmission of one data packet and one ACK on the access, bottleneck and sink links
set tx [expr {2 * ($bits_data + $bits_ack) / [experiment::p access_bw] + ($bits_data + $bits_ack) / $C}]
set fixed [expr {2 * ([experiment::p bottleneck_delay] + [experiment::p sink_delay]) + $tx}]
for {set i 0} {$i < $n} {incr i} {
    set d($i) [expr {([lindex $rtt $i] - $fixed) / 2.0}]
    experiment::require {$d($i) >= 0} \
        "flow $i: rtt [lindex $rtt $i] s is below the fixed part of the path, [format %.6f $fixed] s"
}

# ---- topology ----
set ns [experiment::sim_new [experiment::p seed]]
set r1 [$ns node]; set r2 [$ns node]; set dst [$ns node]
set big [expr {[experiment::p buffer] + 1000}]
experiment::simplex $r1 $r2 $C [experiment::p bottleneck_delay] RED/ORED [experiment::p buffer]
experiment::simplex $r2 $r1 $C [experiment::p bottleneck_delay] DropTail $big
experiment::duplex $r2 $dst [experiment::p access_bw] [experiment::p sink_delay] DropTail $big
set q [experiment::queue $r1 $r2]
experiment::set_knobs $q [list thresh_ $minth maxthresh_ $maxth p_max_ [experiment::p p_max] \
    q_weight_ [experiment::p q_weight] mean_pktsize_ [experiment::p pkt_size] bytes_ false \
    queue_in_bytes_ false gentle_ false]
if {[catch {$q check} err]} { experiment::_fail "ORED: $err" }
set fm [experiment::flowmon $r1 $r2]

set knobs [list g_alpha_ [experiment::p alpha] g_beta_ [experiment::p beta] g_c1_ [experiment::p c1] g_c2_ [experiment::p c2] \
    packetSize_ [experiment::p pkt_size] window_ [experiment::p window] maxcwnd_ [experiment::p window] \
    tcpTick_ [experiment::p tcp_tick] minrto_ [experiment::p min_rto] maxburst_ 0 ecn_ 1]
for {set i 0} {$i < $n} {incr i} {
    set src($i) [$ns node]
    experiment::duplex $src($i) $r1 [experiment::p access_bw] $d($i) DropTail $big
    set tg($i) [new QueueMonitor/ED/ProfileTagger]
    $tg($i) set depth_ [experiment::p bucket_depth]
    $tg($i) set pktsize_ [experiment::p pkt_size]
    if {[catch {$tg($i) check} err]} { experiment::_fail "tagger: $err" }
    $tg($i) profile $i [lindex $profile $i]
    $ns attach-tagger [$ns link $src($i) $r1] $tg($i)
    lassign [experiment::tcp_flow $src($i) $dst gaimd $i $knobs] tcp($i) sink($i) ftp($i)
    if {[catch {$tcp($i) check} err]} { experiment::_fail "TCP: $err" }
    $sink($i) set packetSize_ [experiment::p ack_size]
    set start($i) [experiment::uniform 0 [experiment::p start_max]]
    $ns at $start($i) "$ftp($i) start"
}

# ---- measurement ----
set fids {}
for {set i 0} {$i < $n} {incr i} {
    lappend fids $i
    set s1($i) 0.0; set s2($i) 0.0
    set sa($i) 0.0; set acked($i) 0
}
set nsamples 0
set qave_sum 0.0
set qlen_sum 0.0
array set hist {}
proc snapshot {} {
    global n tcp sink tg fm fids q
    set out {}
    array set c {}
    foreach {fid cnt} [experiment::flow_counts $fm $fids] { set c($fid) $cnt }
    for {set i 0} {$i < $n} {incr i} {
        lassign [$tg($i) counts $i] tin tout
        lassign $c($i) arr dep drp
        lappend out [list [$sink($i) set bytes_] $tin $tout [$tcp($i) set necnresponses_] \
            [$tcp($i) set nrexmitpack_] [$tcp($i) set nrexmit_] $arr $drp]
    }
    return [list $out [$q set marks_] [$q set edrops_]]
}
proc sample {} {
    global ns n tcp s1 s2 nsamples qave_sum qlen_sum q fm hist sa acked wprev aprev
    if {[$ns now] < [experiment::p warmup] - 1e-9} { return }
    incr nsamples
    for {set i 0} {$i < $n} {incr i} {
        set w [$tcp($i) set cwnd_]
        set a [$tcp($i) set ack_]
        if {[info exists wprev($i)]} {
            set da [expr {$a - $aprev($i)}]
            set sa($i) [expr {$sa($i) + 0.5 * ($wprev($i) + $w) * $da}]
            set acked($i) [expr {$acked($i) + $da}]
        }
        set wprev($i) $w; set aprev($i) $a
        set s1($i) [expr {$s1($i) + $w}]
        set s2($i) [expr {$s2($i) + $w * $w}]
        if {[experiment::p hist_bin] > 0} {
            set b [expr {int(floor($w / [experiment::p hist_bin]))}]
            if {[info exists hist($i,$b)]} { incr hist($i,$b) } else { set hist($i,$b) 1 }
        }
    }
    set qave_sum [expr {$qave_sum + [$q set ave_]}]
    set qlen_sum [expr {$qlen_sum + [$fm set pkts_]}]
}
$ns at [experiment::p warmup] "set ::snap0 \[snapshot\]"
experiment::every [experiment::p sample_interval] [experiment::p duration] sample

experiment::table_open flows {flow profile rtt access_delay cwnd_mean cwnd_var samples cwnd_ack_mean acked goodput in out decreases rexmits timeouts arrivals drops}
if {[experiment::p hist_bin] > 0} { experiment::table_open hist {flow bin count} }

proc finish {} {
    global ns n profile rtt d s1 s2 nsamples qave_sum qlen_sum hist C start fixed sa acked
    lassign $::snap0 f0 m0 e0
    lassign [snapshot] f1 m1 e1
    set span [expr {[experiment::p duration] - [experiment::p warmup]}]
    for {set i 0} {$i < $n} {incr i} {
        set a [lindex $f0 $i]; set b [lindex $f1 $i]
        set delta {}
        foreach x $a y $b { lappend delta [expr {$y - $x}] }
        lassign $delta bytes tin tout decr rexmit tmo arr drp
        set mean [expr {$s1($i) / $nsamples}]
        set var [expr {max(0.0, $s2($i) / $nsamples - $mean * $mean)}]
        experiment::require {$acked($i) > 0} "flow $i: no packet acknowledged in the measurement window"
        set amean [expr {$sa($i) / $acked($i)}]
        experiment::row flows [list $i [lindex $profile $i] [lindex $rtt $i] [format %.9f $d($i)] \
            [format %.6f $mean] [format %.6f $var] $nsamples [format %.6f $amean] $acked($i) \
            [format %.3f [expr {8.0 * $bytes / $span}]] \
            $tin $tout $decr $rexmit $tmo $arr $drp]
    }
    if {[experiment::p hist_bin] > 0} {
        foreach key [lsort -dictionary [array names hist]] {
            lassign [split $key ,] i b
            experiment::row hist [list $i $b $hist($key)]
        }
    }
    set res [list capacity_bps $C min_th_pkts $::minth max_th_pkts $::maxth \
        path_fixed_s [format %.9f $fixed] \
        queue_ave_pkts [format %.6f [expr {$qave_sum / $nsamples}]] \
        queue_len_pkts [format %.6f [expr {$qlen_sum / $nsamples}]] \
        marks [expr {$m1 - $m0}] early_drops [expr {$e1 - $e0}]]
    for {set i 0} {$i < $n} {incr i} { lappend res start_$i [format %.6f $start($i)] }
    experiment::finish misra/dumbbell.tcl $res
    exit 0
}
$ns at [expr {[experiment::p duration] + 1e-6}] finish
$ns run
