# ORED and the profile tagger (patch 0020): Queue/RED/ORED marks only out-of-profile
# packets, with RED's linear curve (Misra, Baras, Ott Sec. II-III; docs/misra.md M11), and
# QueueMonitor/ED/ProfileTagger tags each flow's packets in/out with a token bucket
# counted in packets (Sec III.C; docs/misra.md M13).
source [file join [file dirname [info script]] testlib.tcl]

# A UDP constant-rate source (not ECN-capable).
proc udp_cbr {src dst fid interval start {maxpkts 268435456}} {
    set ns $::experiment::ns_
    set u [new Agent/UDP]
    $u set fid_ $fid
    $u set packetSize_ 1040
    set null [new Agent/Null]
    $ns attach-agent $src $u
    $ns attach-agent $dst $null
    $ns connect $u $null
    set cbr [new Application/Traffic/CBR]
    $cbr attach-agent $u
    $cbr set packetSize_ 1040
    $cbr set interval_ $interval
    $cbr set maxpkts_ $maxpkts
    $ns at $start "$cbr start"
    return $cbr
}

# ORED scenario. A 100 Mb/s bottleneck (1040-byte packets: T = 83.2 us each) is kept at
# a constant queue: a burst of K packets just before t = 0.1 s, then two streams, each at half
# the link rate, interleaved T apart, from t = 0.1 s: fid 1 tagged in (profile above its
# rate), fid 2 out (profile 0), both ECN-capable; fid 4 (optional) a non-ECT out stream
# replacing fid 2. q_weight_ 1, so the average the curve sees is the queue each arrival
# finds. Departures on [0.2, 1.0] s are read from a trace of the bottleneck.
# Prints: qmin qmax in_pkts in_marked out_pkts out_marked edrops marks_
proc ored_run {K thresh maxthresh pmax ect {seed 7}} {
    lassign [fixed_queue_net $seed RED/ORED] ns s r d q
    experiment::set_knobs $q [list thresh_ $thresh maxthresh_ $maxthresh p_max_ $pmax q_weight_ 1]
    $q check
    set tg [new QueueMonitor/ED/ProfileTagger]
    $tg set pktsize_ 1040
    $tg profile 1 1Gb
    $tg profile 2 0
    $tg profile 4 0
    $tg profile 3 1Gb
    $ns attach-tagger [$ns link $s $r] $tg
    set qs [fixed_queue_run $ns $s $r $d $q $K [expr {$ect ? "ect" : "udp_cbr"}] ored.tr]
    array set n {in 0 inm 0 out 0 outm 0}
    set f [open ored.tr]
    while {[gets $f line] >= 0} {
        lassign $line ev t from to type size flags fid
        if {$ev ne "-" || $t < 0.2 || $fid == 3} { continue }
        set marked [expr {[string index $flags 4] eq "E"}]
        if {[string index $flags 1] eq "P"} {
            incr n(in); incr n(inm) $marked
        } else {
            incr n(out); incr n(outm) $marked
        }
    }
    close $f
    return [list [lindex $qs 0] [lindex $qs end] $n(in) $n(inm) $n(out) $n(outm) \
        [$q set edrops_] [$q set marks_]]
}

# Tagger scenario: UDP CBR flows through a tagger, counts per flow.
# fid 1: 1000 pkt/s, profile 600 pkt/s; fid 2: 1000 pkt/s, profile 250 pkt/s;
# fid 3: 200 pkt/s, profile 600 pkt/s; fid 5: a burst of 30 back-to-back packets,
# profile 1 pkt/s. Bucket depth 20 packets, 1000-byte packets = 1000-byte tokens.
# Prints: {in out} per flow, then the first and last send times of fid 1.
proc tagger_run {} {
    set ns [experiment::sim_new 3]
    set s [$ns node]; set d [$ns node]
    experiment::duplex $s $d 1Gb 1ms DropTail 10000
    set tg [new QueueMonitor/ED/ProfileTagger]
    $tg set depth_ 20
    $tg set pktsize_ 1000
    $tg check
    $tg profile 1 4.8Mb
    $tg profile 2 2Mb
    $tg profile 3 4.8Mb
    $tg profile 5 8kb
    $ns attach-tagger [$ns link $s $d] $tg
    foreach {fid interval n start} {1 0.001 10000 0.5 2 0.001 10000 0.5 3 0.005 2000 0.5 5 0.000001 30 0.2} {
        set u [new Agent/UDP]; $u set fid_ $fid; $u set packetSize_ 1000
        set null [new Agent/Null]
        $ns attach-agent $s $u; $ns attach-agent $d $null; $ns connect $u $null
        set cbr [new Application/Traffic/CBR]
        $cbr attach-agent $u
        $cbr set packetSize_ 1000
        $cbr set interval_ $interval
        $cbr set maxpkts_ $n
        $ns at $start "$cbr start"
    }
    $ns at 12 "$ns halt"
    $ns run
    set out {}
    foreach fid {1 2 3 5} { lappend out [$tg counts $fid] }
    return $out
}

# A configuration error in the queue surfaces as a Tcl error of "$ns run" (which resets
# every link's queue) before any event; prints the caught message.
proc bad_run {knob value} {
    set ns [experiment::sim_new 1]
    set a [$ns node]; set b [$ns node]
    experiment::simplex $a $b 10Mb 1ms RED/ORED 100
    [experiment::queue $a $b] set $knob $value
    $ns at 1 "puts reached-event"
    if {[catch {$ns run} msg]} { return "error: $msg" }
    return "no error"
}

switch -- [lindex $argv 0] {
    ored   { puts [ored_run {*}[lrange $argv 1 end]]; exit 0 }
    tagger { puts [tagger_run]; exit 0 }
    bad    { puts [bad_run {*}[lrange $argv 1 end]]; exit 0 }
}

proc curve {q th mth pmax} {
    if {$q < $th} { return 0.0 }
    if {$q >= $mth} { return $pmax }
    return [expr {$pmax * ($q - $th) / double($mth - $th)}]
}

# --- ORED: the marking curve at fixed queues; in packets never marked ---------------
# thresh 5, maxthresh 15, p_max 0.4. The burst size K sets the queue each arrival finds.
foreach {K label} {4 below 12 middle 16 middle2 26 above} {
    lassign [t::subrun ored $K 5 15 0.4 1] qmin qmax nin ninm nout noutm edrops marks
    t::check {$qmin == $qmax} "ORED $label: the queue seen by arrivals is held constant ($qmin..$qmax)"
    set p [curve $qmax 5 15 0.4]
    set frac [expr {double($noutm) / $nout}]
    # binomial: 4.5 standard deviations of the fraction over nout packets (>= 0.003)
    set tol [expr {max(0.003, 4.5 * sqrt($p * (1 - $p) / $nout))}]
    t::near $frac $p $tol "ORED $label (Q = $qmax): out packets marked with f_mark(Q) ($noutm of $nout)"
    t::check {$ninm == 0 && $nin > 4000} "ORED $label: no in packet marked ($ninm of $nin)"
    t::check {$edrops == 0} "ORED $label: ECN-capable out packets are marked, never dropped ($edrops)"
    lappend qlevels $qmax
}
t::check {[lindex $qlevels 0] < 5 && [lindex $qlevels end] >= 15} "ORED: the levels span below min_th to above max_th ($qlevels)"
# above max_th with p_max 1: every out packet marked, still no in packet
lassign [t::subrun ored 26 5 15 1.0 1] qmin qmax nin ninm nout noutm edrops marks
t::check {$qmin >= 15 && $noutm == $nout && $nout > 4000 && $ninm == 0} \
    "ORED p_max 1 above max_th (Q = $qmax): all $nout out packets marked ($noutm), no in packet ($ninm of $nin)"
t::check {$marks >= $noutm} "ORED: marks_ counts the marks ($marks >= $noutm)"
# a non-ECN-capable out packet chosen by the curve is dropped early instead
lassign [t::subrun ored 16 5 15 0.4 0] qmin qmax nin ninm nout noutm edrops marks
t::check {$edrops > 0 && $noutm == 0 && $marks == 0} \
    "ORED: non-ECT out packets are dropped early, never marked (edrops $edrops, marked $noutm)"

# determinism: the marks come from the seeded RNG -- the same seed gives the identical
# trace, another seed another set of marked packets
set r1 [t::subrun ored 12 5 15 0.4 1]
file copy -force ored.tr ored-1.tr
set r2 [t::subrun ored 12 5 15 0.4 1]
set f [open ored.tr]; set tr2 [read $f]; close $f
set f [open ored-1.tr]; set tr1 [read $f]; close $f
t::check {$r1 eq $r2 && $tr1 eq $tr2} "ORED: the same seed gives the identical trace ([string length $tr1] bytes)"
set r3 [t::subrun ored 12 5 15 0.4 1 8]
file delete ored-1.tr
t::check {$r3 ne $r1} "ORED: another seed marks other packets ([lindex $r1 5] vs [lindex $r3 5] marked)"

# --- tagger --------------------------------------------------------------------------
lassign [t::subrun tagger] c1 c2 c3 c5
lassign $c1 in1 out1; lassign $c2 in2 out2; lassign $c3 in3 out3; lassign $c5 in5 out5
# fid 1: packets at 0.5 + k ms, k = 0..9999; tokens: 20 (full bucket) + 600/s over 9.999 s
set exp1 [expr {int(floor(20 + 600 * 9.999))}]
t::check {$in1 + $out1 == 10000} "tagger: every packet tagged ($in1 + $out1)"
t::near $in1 $exp1 1 "tagger fid 1 (1000 pkt/s, profile 600 pkt/s, depth 20): in = depth + profile x time"
t::near [expr {double($out1) / 10000}] [expr {(1000 - 600) / 1000.0}] 0.0025 "tagger fid 1: out fraction = (rate - profile)/rate"
set exp2 [expr {int(floor(20 + 250 * 9.999))}]
t::near $in2 $exp2 1 "tagger fid 2 (profile 250 pkt/s): in = depth + profile x time"
t::near [expr {double($out2) / 10000}] 0.75 0.0025 "tagger fid 2: out fraction = (rate - profile)/rate"
t::check {$out3 == 0 && $in3 == 2000} "tagger fid 3 (200 pkt/s < profile): all in ($in3 in, $out3 out)"
t::check {$in5 == 20 && $out5 == 10} "tagger: a 30-packet burst on a full 20-packet bucket: 20 in, 10 out ($in5, $out5)"

# --- bad parameters -------------------------------------------------------------------
set ns [new Simulator]
set tg [new QueueMonitor/ED/ProfileTagger]
t::error_like {$tg profile 1 -1Mb} "*profile rate must be >= 0*" "tagger: a negative profile rate is refused"
$tg set depth_ 0
t::error_like {$tg profile 1 1Mb} "*depth_*at least 1 packet*" "tagger: bucket depth 0 is refused by profile"
t::error_like {$tg check} "*depth_*at least 1 packet*" "tagger: bucket depth 0 is refused by check"
set q [new Queue/RED/ORED]
$q set p_max_ 1.5
t::error_like {$q check} "*p_max_ must lie in*" "ORED: p_max 1.5 is refused by check"
$q set p_max_ -0.1
t::error_like {$q check} "*p_max_ must lie in*" "ORED: p_max -0.1 is refused by check"
$q set p_max_ 0.1
$q set maxthresh_ 5
t::error_like {$q check} "*maxthresh_*greater than thresh_*" "ORED: max_th <= min_th is refused"
set m [t::subrun bad p_max_ 1.5]
t::check {[string match "error: *p_max_ must lie in*" $m]} "ORED: p_max 1.5 stops \$ns run before any event ($m)"
set m [t::subrun bad q_weight_ -1]
t::check {[string match "error: *q_weight_*" $m]} "ORED: RED's automatic q_weight -1 is refused at \$ns run ($m)"
t::done
