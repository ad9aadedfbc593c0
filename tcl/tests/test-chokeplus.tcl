# CHOKe+ (Queue/RED/CHOKePlus, patch 0011; experiment::gateway_setup ... chokeplus). Akella et
# al. SIGCOMM 2002 Sec 5.1: k candidates drawn at random from the queue once RED's
# average reaches min_th, m of them of the arrival P's flow; m >= gamma1 k: drop P and the
# m matches; otherwise RED decides on P, and when RED drops P and gamma2 k <= m < gamma1 k
# the m matches are dropped too (paper's constants k 5, gamma1 0.95, gamma2 0.80).
#
# The checks read ns-2's queue trace and rebuild the queue from it (see test-choke.tcl):
#   - RED never drops: every drop comes as P plus exactly its 5 matching candidates
#     (m = 5 >= 4.75), all of P's flow and waiting; with m = 4 nothing is dropped; the
#     number of such events agrees with the hypergeometric law from the rebuilt queue;
#   - RED drops every arrival (avg >= max_th, gentle off): groups are P alone (m <= 3),
#     P + 4 (m = 4, the gamma2 band) or P + 5 (m = 5), with the hypergeometric frequencies;
#     gamma2 0.5 widens the band to m = 3;
#   - flow monitor = trace per flow; conservation; CHOKe+ = RED when no match can happen;
#   - one UDP flow among TCP flows gets far less than under DropTail;
#   - same seed -> identical counters; bad parameters -> a Tcl error.
source [file join [file dirname [info script]] testlib.tcl]

# --- helpers (dumbbell, udp_flow, analyse_trace, lnchoose: testlib.tcl) ---------------

# P(m = j) for k candidates drawn without replacement among q waiting, n of P's flow
# (all q of them when q <= k).
proc pmatch {q n k j} {
    if {$q <= $k} { return [expr {$n == $j ? 1.0 : 0.0}] }
    return [expr {exp([lnchoose $n $j] + [lnchoose [expr {$q - $n}] [expr {$k - $j}]] - [lnchoose $q $k])}]
}

# --- scenarios -----------------------------------------------------------------------------

# Two CBR flows, 1.5 and 0.5 Mb/s, on a 1 Mb/s link; q_weight 1 (avg = the queue seen by
# the arrival), min_th 5, max_p 1e-12, gentle off, max_th MAXTH: below it RED never drops,
# at or above it RED drops every arrival. The buffer never fills. Sources stop at 20 s.
proc scenario_groups {seed maxth gamma2} {
    lassign [dumbbell $seed [experiment::gateway_class chokeplus] 10000 1Mb] ns a b c
    set q [experiment::queue $b $c]
    experiment::gateway_setup $q chokeplus [list thresh 5 maxthresh $maxth q_weight 1 linterm 1e12 \
        wait false gentle false mean_pktsize 1000 k 5 gamma1 0.95 gamma2 $gamma2]
    set tf [open trace.tr w]
    $ns trace-queue $b $c $tf
    set fm [experiment::flowmon $b $c]
    set sinks {}
    foreach {fid rate} {1 1.5Mb 2 0.5Mb} {
        lassign [udp_flow $a $c $fid $rate] cbr s
        lappend sinks $s
        $ns at 0.0 "$cbr start"
        $ns at 20.0 "$cbr stop"
    }
    set ::out {}
    $ns at 30.0 [list apply {{fm sinks tf} {
        close $tf
        set rcv 0
        foreach s $sinks { incr rcv [$s set npkts_] }
        set ::out [list fm [experiment::flow_counts $fm {1 2}] queued [$fm set pkts_] \
            arr [$fm set parrivals_] dep [$fm set pdepartures_] drp [$fm set pdrops_] rcv $rcv \
            trace [analyse_trace trace.tr]]
    }} $fm $sinks $tf]
    $ns at 30.0 "$ns halt"
    $ns run
    return $::out
}

# Every packet its own flow, k >= buffer: no match, no random draw -> exactly RED.
proc scenario_red_equiv {cls} {
    set knobs {thresh 5 maxthresh 15 q_weight 0.02 linterm 10 wait true gentle true mean_pktsize 1000}
    if {$cls eq "red"} { lappend knobs drop_rand false } else { lappend knobs k 30 gamma1 0.95 gamma2 0.8 }
    return [red_equiv_drops $cls $knobs]
}

# One UDP flow at 3 Mb/s and 8 SACK flows on a 2 Mb/s link; departures over [10, 40] s.
proc scenario_udp {cls seed} {
    return [udp_vs_tcp $cls $seed 100 {thresh 20 maxthresh 60 q_weight 0.002 linterm 50
        wait true gentle true mean_pktsize 1000 k 5 gamma1 0.95 gamma2 0.8}]
}

# Plain CHOKe as CHOKe+ (the Sec 5.1 sweep of config akella2002 choke_flows): one UDP flow at
# 3 Mb/s and 8 SACK flows on a 2 Mb/s link, 30 s, the queue traced. CLS choke: k 1;
# chokeplus: k 1 and gamma1 1 (a match drops P and it), gamma2 0.5 (no effect at k 1), or
# with GAMMA1/K given, another setting. Returns every drop as {time fid seqno}.
proc scenario_plain {cls {k 1} {gamma1 1}} {
    set knobs [list thresh 20 maxthresh 60 q_weight 0.002 linterm 50 wait true gentle true \
        mean_pktsize 1000 k $k]
    if {$cls eq "chokeplus"} { lappend knobs gamma1 $gamma1 gamma2 0.5 }
    lassign [udp_tcp_net $cls 5 100 $knobs] ns a b c fm
    set tf [open trace.tr w]
    $ns trace-queue $b $c $tf
    $ns at 30.0 "$ns halt"
    $ns run
    close $tf
    return [trace_drops trace.tr {1 7 10}]
}

proc scenario_bad {args} {
    lassign [dumbbell 1 [experiment::gateway_class chokeplus] 100 1Mb] ns a b c
    set q [experiment::queue $b $c]
    foreach {knob value} $args { $q set $knob $value }
    set rc1 [catch {$q check} m1]
    set rc2 [catch {$ns run} m2]
    return [list $rc1 $m1 $rc2 $m2]
}

switch -- [lindex $argv 0] {
    groups    { puts [scenario_groups {*}[lrange $argv 1 3]]; exit 0 }
    red_equiv { puts [scenario_red_equiv [lindex $argv 1]]; exit 0 }
    udp       { puts [scenario_udp [lindex $argv 1] [lindex $argv 2]]; exit 0 }
    bad       { puts [list [scenario_bad {*}[lrange $argv 1 end]]]; exit 0 }
    plain     { puts [scenario_plain {*}[lrange $argv 1 end]]; exit 0 }
}

# --- checks ----------------------------------------------------------------------------

# Common checks of a groups run: no stray drop, every victim waiting and of P's flow,
# flow monitor = trace, conservation.
proc check_common {res label} {
    set tr [dict get $res trace]
    set bad 0
    foreach e [dict get $tr events] {
        lassign $e fid q n ok nv pd
        if {!$ok || $pd > 1 || ($pd == 0 && $nv > 0)} { incr bad }
    }
    t::check {[dict get $tr stray] == 0} "$label: every drop follows an arrival"
    t::check {$bad == 0} "$label: victims are waiting packets of P's flow, dropped with P ($bad bad)"
    array set dt [dict get $tr drops_by_fid]
    set same 1
    foreach {fid c} [dict get $res fm] {
        if {[lindex $c 2] != ([info exists dt($fid)] ? $dt($fid) : 0)} { set same 0 }
    }
    t::check {$same} "$label: flow monitor drops per flow = trace drops per flow ([dict get $res fm])"
    dict with res {
        t::check {$arr == $dep + $drp + $queued && $queued == 0 && $rcv == $dep && $arr == [dict get $tr arrivals]} \
            "$label: conservation: arrivals $arr = departures $dep + drops $drp + queued $queued; received $rcv"
    }
}

# (1) RED never drops (max_th out of reach): only m = 5 drops, P + 5 victims.
set r [t::subrun groups 1 1e6 0.8]
check_common $r "RED off"
array set size {}
set e6 0.0; set v6 0.0
foreach e [dict get $r trace events] {
    lassign $e fid q n ok nv pd
    incr size([expr {$pd + $nv}])
    if {$q >= 5} {
        set p [pmatch $q $n 5 5]
        set e6 [expr {$e6 + $p}]; set v6 [expr {$v6 + $p * (1 - $p)}]
    }
}
set sizes [lsort -integer [array names size]]
t::check {$sizes eq {0 6}} "RED off: every drop group is P + exactly 5 matches (group sizes: [array get size])"
t::between [expr {($size(6) - $e6) / sqrt($v6)}] -4 4 "RED off: $size(6) events with m = 5 vs hypergeometric [format %.1f $e6] (z)"

# (2) RED drops every arrival at q >= 20: sizes 1 (m <= 3), 5 (m = 4), 6 (m = 5).
proc check_band {r gamma2 label} {
    check_common $r $label
    set lo [expr {int(ceil($gamma2 * 5 - 1e-9))}]
    set wrong 0
    array set cnt {1 0 band 0 6 0}
    array set exp {1 0.0 band 0.0 6 0.0}
    array set var {1 0.0 band 0.0 6 0.0}
    foreach e [dict get $r trace events] {
        lassign $e fid q n ok nv pd
        set s [expr {$pd + $nv}]
        if {$q < 20} {
            # below max_th only m = 5 drops (P + 5)
            if {$s != 0 && $s != 6} { incr wrong }
            continue
        }
        # at q >= 20 RED drops P; with m = 5 P + 5, with m in [lo, 4] P + m, else P alone
        if {$pd != 1 || ($nv != 0 && $nv != 5 && ($nv < $lo || $nv > 4))} { incr wrong }
        if {$nv == 5} { incr cnt(6) } elseif {$nv > 0} { incr cnt(band) } else { incr cnt(1) }
        set p6 [pmatch $q $n 5 5]
        set pb 0.0
        for {set j $lo} {$j <= 4} {incr j} { set pb [expr {$pb + [pmatch $q $n 5 $j]}] }
        set p1 [expr {1.0 - $p6 - $pb}]
        foreach {key p} [list 6 $p6 band $pb 1 $p1] {
            set exp($key) [expr {$exp($key) + $p}]
            set var($key) [expr {$var($key) + $p * (1 - $p)}]
        }
    }
    t::check {$wrong == 0} "$label: group sizes follow the rule ($wrong wrong)"
    foreach {key what} [list 6 "m = 5: P + 5" band "m in \[$lo, 4\]: P + m" 1 "m < $lo: P alone"] {
        t::check {$cnt($key) > 20} "$label: arrivals above max_th with $what happened ($cnt($key))"
        t::between [expr {($cnt($key) - $exp($key)) / sqrt($var($key))}] -4 4 \
            "$label: $what: $cnt($key) vs hypergeometric [format %.1f $exp($key)] (z)"
    }
}
check_band [t::subrun groups 2 20 0.8] 0.8 "RED drops (gamma2 0.8)"
check_band [t::subrun groups 3 20 0.5] 0.5 "RED drops (gamma2 0.5)"

# CHOKe+ = RED when no match can happen
set dr [t::subrun red_equiv red]
set dc [t::subrun red_equiv chokeplus]
t::check {[llength $dr] > 100} "RED drops in the no-match scenario ([llength $dr])"
t::check {$dr eq $dc} "no possible match: CHOKe+ drops exactly the packets RED drops ([llength $dc] vs [llength $dr])"

# one unresponsive UDP flow among 8 TCP flows
lassign [t::subrun udp droptail 1] udp_dt tcp_dt
lassign [t::subrun udp chokeplus 1] udp_cp tcp_cp
set sh_dt [expr {double($udp_dt) / ($udp_dt + $tcp_dt)}]
set sh_cp [expr {double($udp_cp) / ($udp_cp + $tcp_cp)}]
# CHOKe+ needs all 5 candidates to match before it drops without RED, so it is milder
# than CHOKe against one unresponsive flow (about half the DropTail rate here, CHOKe a
# quarter): the bound is 0.6 of DropTail's share.
t::check {$sh_cp < 0.6 * $sh_dt} "UDP share of the link: CHOKe+ [format %.3f $sh_cp] < 0.6 of DropTail's [format %.3f $sh_dt]"
t::check {$tcp_cp > 2 * $tcp_dt} "TCP flows get more under CHOKe+ ($tcp_cp vs $tcp_dt packets in 30 s)"

# plain CHOKe (k 1) is CHOKe+ with k 1, gamma1 1: drop for drop, with the same draws
set pc [t::subrun plain choke]
set pp [t::subrun plain chokeplus]
set pk [t::subrun plain chokeplus 5 0.95]
set same_fid 0
foreach d1 [lrange $pc 0 end-1] d2 [lrange $pc 1 end] {
    if {[lindex $d1 0] == [lindex $d2 0] && [lindex $d1 1] == [lindex $d2 1]} { incr same_fid }
}
t::check {[llength $pc] > 100 && $same_fid > 20} "plain CHOKe drops, pairs of one flow at one instant among them ([llength $pc] drops, $same_fid pairs)"
t::check {$pp eq $pc} "CHOKe+ with k 1, gamma1 1 drops exactly what CHOKe with k 1 drops ([llength $pp] vs [llength $pc])"
t::check {$pk ne $pc} "CHOKe+ at the paper's k 5, gamma1 0.95 drops otherwise ([llength $pk] drops)"

# determinism
set a1 [t::subrun groups 7 20 0.8]
set a2 [t::subrun groups 7 20 0.8]
set a3 [t::subrun groups 8 20 0.8]
t::check {$a1 eq $a2} "same seed: identical counters and trace analysis"
t::check {$a1 ne $a3} "another seed: different draws"

# bad parameters
foreach {settings pat} {
    {k_ 0} {*k_ (candidates per arrival) must be >= 1, got 0*}
    {gamma2_ 0.96} {*need 0 <= gamma2_ < gamma1_ <= 1, got gamma1_ 0.95, gamma2_ 0.96*}
    {gamma1_ 0.8} {*need 0 <= gamma2_ < gamma1_ <= 1*}
    {gamma1_ 1.5} {*need 0 <= gamma2_ < gamma1_ <= 1*}
    {gamma2_ -0.1} {*need 0 <= gamma2_ < gamma1_ <= 1*}
    {thresh_ -5} {*thresholds must not be negative*}
} {
    lassign [lindex [t::subrun bad {*}$settings] 0] rc1 m1 rc2 m2
    t::check {$rc1 == 1 && [string match $pat $m1]} "$settings: check raises \"$m1\""
    t::check {$rc2 == 1 && [string match $pat $m2]} "$settings: \$ns run raises it before the first event"
}
lassign [lindex [t::subrun bad gamma1_ 1 gamma2_ 0] 0] rc1 m1
t::check {$rc1 == 0} "gamma1_ 1, gamma2_ 0 are valid"
t::done
