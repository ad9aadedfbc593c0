# Tang, Wang, Hegde, Low 2005: every network of the paper is a chain of three links
# R1 -link 1-> R2 -link 2-> R3 -link 3-> R4 crossed by flow groups on contiguous runs of
# links. Groups by topology (fid = group number):
#   fig1   : g1 links {1,2}, g2 {2,3} (short, delay-based), g3 {1,2,3} (long)
#            -- Figure 1: Experiments 1, 3, 4, 5 and the Table 2/3 controls
#   linear : g1 {1}, g2 {2}, g3 {3} (short), g4 {1,2,3} (long) -- Figure 5, Experiment 2
#   fig12  : g1 {1,2}, g2 {2,3}, g3 {2} (short), g4 {1,2,3} (long) -- Figure 12 as the
#            assumption of docs/tang.md T11, Experiment 6
# Short groups run short_tcp (n_short flows each), the long group long_tcp (n_long flows).
# Delay-based alpha: groups g1, g2 alpha * alpha_ratio, the third short group alpha, the
# long group alpha_long; in packets, or (alpha_unit per_second, Sec 6.1's reading I) in 1/s
# times the path's propagation RTT.
# Start order (first): short groups at 0 and the long group at offset, or the reverse, or
# all at 0; every flow adds U[0, jitter].
#
# Writes (cumulative packet counts, 32-bit safe):
#   groups.tsv  t group acked           every sample s: packets acknowledged by the group
#   links.tsv   t link departures drops marks   every sample s, all flows at each link
#   queue.tsv   t link qlen avg         every qsample s (if > 0): instantaneous queue
#                                       (packets) and RED's average (0 for DropTail)
source [file join [file dirname [info script]] .. lib experiment.tcl]

experiment::param topology    {enum fig1 linear fig12} "which chain of groups (see the header)"
experiment::param short_tcp   {enum reno sack vegas fast} "TCP of the short-path groups"
experiment::param long_tcp    {enum reno sack vegas fast} "TCP of the long-path group"
experiment::param n_short     posint "flows in each short-path group"
experiment::param n_long      posint "flows in the long-path group"
experiment::param alpha       posnum "delay-based alpha of the third short group (and base of g1, g2)"
experiment::param alpha_ratio posnum "alpha of groups g1, g2 = alpha_ratio * alpha"
experiment::param alpha_long  posnum "delay-based alpha of the long group"
experiment::param alpha_unit  {enum packets per_second} "alpha in packets, or in 1/s times the propagation RTT"
experiment::param fast_gamma  posnum "FAST gamma"
experiment::param fast_period nonneg "FAST update period (s); 0 = once per RTT"
experiment::param fast_recovery {enum sack reno} "FAST's loss recovery: sack = TCP-Linux's SACK recovery (variant fast_sack, patch 0026; alpha in whole packets, one update per RTT), reno = ns-2's Reno recovery (Agent/TCP/Fast, patch 0024)"
experiment::param bw1         posnum "link 1 rate (bit/s)"
experiment::param bw2         posnum "link 2 rate (bit/s)"
experiment::param bw3         posnum "link 3 rate (bit/s)"
experiment::param delay1      nonneg "link 1 one-way delay (s)"
experiment::param delay2      nonneg "link 2 one-way delay (s)"
experiment::param delay3      nonneg "link 3 one-way delay (s)"
experiment::param buf1        posint "link 1 buffer (packets)"
experiment::param buf2        posint "link 2 buffer (packets)"
experiment::param buf3        posint "link 3 buffer (packets)"
experiment::param aqm         {enum red droptail} "queue of links 1-3: RED marking (ECN) or DropTail"
experiment::param bmin13      nonneg "RED b_min of links 1 and 3 (packets)"
experiment::param bmax13      posnum "RED b_max of links 1 and 3 (packets)"
experiment::param k13         posnum "RED K of links 1 and 3 (max marking probability 1/K)"
experiment::param bmin2       nonneg "RED b_min of link 2 (packets)"
experiment::param bmax2       posnum "RED b_max of link 2 (packets)"
experiment::param k2          posnum "RED K of link 2"
experiment::param q_weight    posnum "RED EWMA weight"
experiment::param red_curve   {enum paper ns2} "RED marking: paper = eq (16)-(17) (independent marks with p(b), 1/K above b_max; patch 0013), ns2 = stock count-spaced RED"
experiment::param access_bw   posnum "host access link rate (bit/s)"
experiment::param access_delay nonneg "host access link one-way delay (s)"
experiment::param pkt_size    posint "data packet size (bytes)"
experiment::param first       {enum short long all} "which groups start first"
experiment::param offset      nonneg "start of the second groups (s)"
experiment::param jitter      nonneg {each flow starts U[0, jitter] s after its group}
experiment::param duration    posnum "simulated time (s)"
experiment::param measure_from nonneg {start of the averaging window up to duration (s; for the analysis)}
experiment::param sample      posnum "group/link counter sampling interval (s)"
experiment::param qsample     nonneg "queue sampling interval (s); 0 = no queue table"
experiment::param tcp_tick    posnum "TCP clock granularity (s)"
experiment::param window_init posint "initial window (packets)"
experiment::param max_window  posint "receiver window (packets), never limiting"
experiment::parse_args $argv
experiment::limit bmin13<bmax13 {bmin13 < bmax13} \
    {bmin13 ({bmin13}) must be below bmax13 ({bmax13}) (RED, links 1 and 3)}
experiment::limit bmin2<bmax2 {bmin2 < bmax2} \
    {bmin2 ({bmin2}) must be below bmax2 ({bmax2}) (RED, link 2)}
experiment::limit offset<duration {offset < duration} \
    {offset ({offset}) must be below duration ({duration})}
experiment::limit measure_from<duration {measure_from < duration} \
    {measure_from ({measure_from}) must be below duration ({duration})}
experiment::limit sample<=duration {sample <= duration} \
    {sample ({sample}) must not exceed duration ({duration})}
experiment::limit fast_gamma<=1 {fast_gamma <= 1} {fast_gamma ({fast_gamma}) must be <= 1}
experiment::limit red:buffer>b_max {aqm != "red" || (buf1 > bmax13 && buf2 > bmax2 && buf3 > bmax13)} \
    {with aqm = red every buffer must exceed its link's b_max (buf1 {buf1}, buf3 {buf3} vs bmax13 {bmax13}; buf2 {buf2} vs bmax2 {bmax2})}

set ns [experiment::sim_new [experiment::p seed]]

# ---- chain ----
for {set i 1} {$i <= 4} {incr i} { set r($i) [$ns node] }
for {set l 1} {$l <= 3} {incr l} {
    set a $r($l); set b $r([expr {$l + 1}])
    set qt [expr {[experiment::p aqm] eq "red" ? "RED" : "DropTail"}]
    experiment::simplex $a $b [experiment::p bw$l] [experiment::p delay$l] $qt [experiment::p buf$l]
    # reverse direction: ACKs only, never congested
    experiment::simplex $b $a [experiment::p bw$l] [experiment::p delay$l] DropTail [experiment::p buf$l]
    set q($l) [experiment::queue $a $b]
    if {[experiment::p aqm] eq "red"} {
        set s [expr {$l == 2 ? 2 : 13}]
        # Sec 6 eq (16): p(b) = (b - b_min)/(b_max - b_min)/K, marking (ECN) not dropping.
        # thresh_ 0 would make ns-2 choose its own threshold: b_min = 0 becomes 1e-6.
        set bmin [expr {[experiment::p bmin$s] > 0 ? [experiment::p bmin$s] : 1e-6}]
        experiment::set_knobs $q($l) [list bytes_ false queue_in_bytes_ false thresh_ $bmin \
            maxthresh_ [experiment::p bmax$s] linterm_ [experiment::p k$s] setbit_ true gentle_ false \
            use_mark_p_ true mark_p_ 2.0 q_weight_ [experiment::p q_weight] wait_ false \
            drop_tail_ true drop_front_ false drop_rand_ false adaptive_ 0 cautious_ 0 \
            mean_pktsize_ [experiment::p pkt_size] summarystats_ false]
        set paper [expr {[experiment::p red_curve] eq "paper"}]
        experiment::set_knobs $q($l) [list bernoulli_ $paper flat_above_max_ $paper]
    }
    set fm($l) [experiment::flowmon $a $b]
}

# ---- groups: {first_link last_link short?} ----
switch -- [experiment::p topology] {
    fig1   { set routes {{1 2 1} {2 3 1} {1 3 0}} }
    linear { set routes {{1 1 1} {2 2 1} {3 3 1} {1 3 0}} }
    fig12  { set routes {{1 2 1} {2 3 1} {2 2 1} {1 3 0}} }
}
set ngroups [llength $routes]
set fids {}
set nflows 0
for {set g 1} {$g <= $ngroups} {incr g} {
    lassign [lindex $routes [expr {$g - 1}]] lo hi short
    lappend fids $g
    set tcp_name [experiment::p [expr {$short ? "short_tcp" : "long_tcp"}]]
    set count [experiment::p [expr {$short ? "n_short" : "n_long"}]]
    set d 0.0
    for {set l $lo} {$l <= $hi} {incr l} { set d [expr {$d + [experiment::p delay$l]}] }
    set prop($g) [expr {2.0 * ($d + 2 * [experiment::p access_delay])}]
    if {!$short} {
        set a [experiment::p alpha_long]
    } elseif {$g <= 2} {
        set a [expr {[experiment::p alpha] * [experiment::p alpha_ratio]}]
    } else {
        set a [experiment::p alpha]
    }
    set apk($g) [expr {[experiment::p alpha_unit] eq "packets" ? $a : $a * $prop($g)}]
    set proto($g) $tcp_name
    # the ns-2 variant behind the paper's protocol name
    set variant $tcp_name
    if {$tcp_name eq "fast" && [experiment::p fast_recovery] eq "sack"} { set variant fast_sack }
    switch -- [experiment::p first] {
        short { set t0 [expr {$short ? 0.0 : [experiment::p offset]}] }
        long  { set t0 [expr {$short ? [experiment::p offset] : 0.0}] }
        all   { set t0 0.0 }
    }
    set knobs [list packetSize_ [experiment::p pkt_size] window_ [experiment::p max_window] \
        windowInit_ [experiment::p window_init] maxburst_ 0 tcpTick_ [experiment::p tcp_tick]]
    set ecn [expr {[experiment::p aqm] eq "red" ? 1 : 0}]
    switch -- $tcp_name {
        reno - sack { lappend knobs ecn_ $ecn }
        vegas {
            # alpha = beta: the backlog is held at one point (x = alpha/q, eq 7); the
            # unrounded estimate; ECN-capable but deaf to marks (RED prices only Reno)
            lappend knobs v_alpha_ $apk($g) v_beta_ $apk($g) v_round_delta_ false \
                v_ignore_ecn_ true ecn_ $ecn
        }
        fast {
            # Tang et al.'s FAST: no window halving on loss, delay-only
            lappend knobs fast_alpha_ $apk($g) fast_gamma_ [experiment::p fast_gamma] \
                fast_period_ [experiment::p fast_period] fast_halve_ false ecn_ 0
        }
    }
    for {set i 0} {$i < $count} {incr i} {
        set src [$ns node]; set dst [$ns node]
        experiment::duplex $src $r($lo) [experiment::p access_bw] [experiment::p access_delay] DropTail 100000
        experiment::duplex $r([expr {$hi + 1}]) $dst [experiment::p access_bw] [experiment::p access_delay] DropTail 100000
        lassign [experiment::tcp_flow $src $dst $variant $g $knobs] tcp sink ftp
        lappend agents($g) $tcp
        $ns at [expr {$t0 + [experiment::uniform 0 [experiment::p jitter]]}] "$ftp start"
        incr nflows
    }
}

# ---- monitors ----
experiment::table_open groups {t group acked}
experiment::table_open links {t link departures drops marks}
proc sample_counts {} {
    global ns ngroups agents fm
    set t [$ns now]
    for {set g 1} {$g <= $ngroups} {incr g} {
        set s 0
        # ack_ = highest in-order packet acknowledged (-1 before the first); packets, so no
        # 32-bit byte-counter overflow in long 100+ Mb/s runs
        foreach a $agents($g) { incr s [expr {max(0, [$a set ack_] + 1)}] }
        experiment::row groups [list $t $g $s]
    }
    for {set l 1} {$l <= 3} {incr l} {
        experiment::row links [list $t $l [$fm($l) set pdepartures_] [$fm($l) set pdrops_] \
            [$fm($l) set pmarks_]]
    }
}
experiment::every [experiment::p sample] [experiment::p duration] sample_counts
if {[experiment::p qsample] > 0} {
    experiment::table_open queue {t link qlen avg}
    proc sample_queue {} {
        global ns fm q
        for {set l 1} {$l <= 3} {incr l} {
            set avg 0
            if {[experiment::p aqm] eq "red"} { set avg [format %.2f [$q($l) set ave_]] }
            experiment::row queue [list [$ns now] $l [$fm($l) set pkts_] $avg]
        }
    }
    experiment::every [experiment::p qsample] [experiment::p duration] sample_queue
}

proc finish {} {
    global ngroups prop apk proto nflows
    set res [list groups $ngroups flows $nflows]
    for {set g 1} {$g <= $ngroups} {incr g} {
        lappend res protocol_$g $proto($g) prop_rtt_$g [format %.6f $prop($g)]
        if {$proto($g) in {vegas fast}} { lappend res alpha_pkts_$g [format %.6f $apk($g)] }
    }
    experiment::finish tang/chain.tcl $res
    exit 0
}
$ns at [expr {[experiment::p duration] + 1e-6}] finish
$ns run
