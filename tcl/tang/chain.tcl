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
source [file join [file dirname [info script]] .. lib ccr.tcl]

ccr::param topology    {enum fig1 linear fig12} "which chain of groups (see the header)"
ccr::param short_tcp   {enum reno sack vegas fast} "TCP of the short-path groups"
ccr::param long_tcp    {enum reno sack vegas fast} "TCP of the long-path group"
ccr::param n_short     posint "flows in each short-path group"
ccr::param n_long      posint "flows in the long-path group"
ccr::param alpha       posnum "delay-based alpha of the third short group (and base of g1, g2)"
ccr::param alpha_ratio posnum "alpha of groups g1, g2 = alpha_ratio * alpha"
ccr::param alpha_long  posnum "delay-based alpha of the long group"
ccr::param alpha_unit  {enum packets per_second} "alpha in packets, or in 1/s times the propagation RTT"
ccr::param fast_gamma  posnum "FAST gamma"
ccr::param fast_period nonneg "FAST update period (s); 0 = once per RTT"
ccr::param fast_recovery {enum sack reno} "FAST's loss recovery: sack = TCP-Linux's SACK recovery (variant fast_sack, patch 0026; alpha in whole packets, one update per RTT), reno = ns-2's Reno recovery (Agent/TCP/Fast, patch 0024)"
ccr::param bw1         posnum "link 1 rate (bit/s)"
ccr::param bw2         posnum "link 2 rate (bit/s)"
ccr::param bw3         posnum "link 3 rate (bit/s)"
ccr::param delay1      nonneg "link 1 one-way delay (s)"
ccr::param delay2      nonneg "link 2 one-way delay (s)"
ccr::param delay3      nonneg "link 3 one-way delay (s)"
ccr::param buf1        posint "link 1 buffer (packets)"
ccr::param buf2        posint "link 2 buffer (packets)"
ccr::param buf3        posint "link 3 buffer (packets)"
ccr::param aqm         {enum red droptail} "queue of links 1-3: RED marking (ECN) or DropTail"
ccr::param bmin13      nonneg "RED b_min of links 1 and 3 (packets)"
ccr::param bmax13      posnum "RED b_max of links 1 and 3 (packets)"
ccr::param k13         posnum "RED K of links 1 and 3 (max marking probability 1/K)"
ccr::param bmin2       nonneg "RED b_min of link 2 (packets)"
ccr::param bmax2       posnum "RED b_max of link 2 (packets)"
ccr::param k2          posnum "RED K of link 2"
ccr::param q_weight    posnum "RED EWMA weight"
ccr::param red_curve   {enum paper ns2} "RED marking: paper = eq (16)-(17) (independent marks with p(b), 1/K above b_max; patch 0013), ns2 = stock count-spaced RED"
ccr::param access_bw   posnum "host access link rate (bit/s)"
ccr::param access_delay nonneg "host access link one-way delay (s)"
ccr::param pkt_size    posint "data packet size (bytes)"
ccr::param first       {enum short long all} "which groups start first"
ccr::param offset      nonneg "start of the second groups (s)"
ccr::param jitter      nonneg {each flow starts U[0, jitter] s after its group}
ccr::param duration    posnum "simulated time (s)"
ccr::param measure_from nonneg {start of the averaging window up to duration (s; for the analysis)}
ccr::param sample      posnum "group/link counter sampling interval (s)"
ccr::param qsample     nonneg "queue sampling interval (s); 0 = no queue table"
ccr::param tcp_tick    posnum "TCP clock granularity (s)"
ccr::param window_init posint "initial window (packets)"
ccr::param max_window  posint "receiver window (packets), never limiting"
ccr::parse_args $argv
foreach l {13 2} {
    ccr::require {[ccr::p bmin$l] < [ccr::p bmax$l]} \
        "RED b_min ([ccr::p bmin$l]) must be below b_max ([ccr::p bmax$l]) for link(s) $l"
}
ccr::require {[ccr::p offset] < [ccr::p duration]} "offset must be below duration"
ccr::require {[ccr::p measure_from] < [ccr::p duration]} "measure_from must be below duration"
ccr::require {[ccr::p sample] <= [ccr::p duration]} "sample must not exceed duration"
ccr::require {[ccr::p fast_gamma] <= 1} "fast_gamma must be in (0, 1]"
if {[ccr::p aqm] eq "red"} {
    foreach l {1 2 3} {
        set bm [ccr::p [expr {$l == 2 ? "bmax2" : "bmax13"}]]
        ccr::require {[ccr::p buf$l] > $bm} "RED link $l: buffer ([ccr::p buf$l]) must exceed b_max ($bm)"
    }
}

set ns [ccr::sim_new [ccr::p seed]]

# ---- chain ----
for {set i 1} {$i <= 4} {incr i} { set r($i) [$ns node] }
for {set l 1} {$l <= 3} {incr l} {
    set a $r($l); set b $r([expr {$l + 1}])
    set qt [expr {[ccr::p aqm] eq "red" ? "RED" : "DropTail"}]
    ccr::simplex $a $b [ccr::p bw$l] [ccr::p delay$l] $qt [ccr::p buf$l]
    # reverse direction: ACKs only, never congested
    ccr::simplex $b $a [ccr::p bw$l] [ccr::p delay$l] DropTail [ccr::p buf$l]
    set q($l) [ccr::queue $a $b]
    if {[ccr::p aqm] eq "red"} {
        set s [expr {$l == 2 ? 2 : 13}]
        # Sec 6 eq (16): p(b) = (b - b_min)/(b_max - b_min)/K, marking (ECN) not dropping.
        # thresh_ 0 would make ns-2 choose its own threshold: b_min = 0 becomes 1e-6.
        set bmin [expr {[ccr::p bmin$s] > 0 ? [ccr::p bmin$s] : 1e-6}]
        ccr::set_knobs $q($l) [list bytes_ false queue_in_bytes_ false thresh_ $bmin \
            maxthresh_ [ccr::p bmax$s] linterm_ [ccr::p k$s] setbit_ true gentle_ false \
            use_mark_p_ true mark_p_ 2.0 q_weight_ [ccr::p q_weight] wait_ false \
            drop_tail_ true drop_front_ false drop_rand_ false adaptive_ 0 cautious_ 0 \
            mean_pktsize_ [ccr::p pkt_size] summarystats_ false]
        set paper [expr {[ccr::p red_curve] eq "paper"}]
        ccr::set_knobs $q($l) [list bernoulli_ $paper flat_above_max_ $paper]
    }
    set fm($l) [ccr::flowmon $a $b]
}

# ---- groups: {first_link last_link short?} ----
switch -- [ccr::p topology] {
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
    set tcp_name [ccr::p [expr {$short ? "short_tcp" : "long_tcp"}]]
    set count [ccr::p [expr {$short ? "n_short" : "n_long"}]]
    set d 0.0
    for {set l $lo} {$l <= $hi} {incr l} { set d [expr {$d + [ccr::p delay$l]}] }
    set prop($g) [expr {2.0 * ($d + 2 * [ccr::p access_delay])}]
    if {!$short} {
        set a [ccr::p alpha_long]
    } elseif {$g <= 2} {
        set a [expr {[ccr::p alpha] * [ccr::p alpha_ratio]}]
    } else {
        set a [ccr::p alpha]
    }
    set apk($g) [expr {[ccr::p alpha_unit] eq "packets" ? $a : $a * $prop($g)}]
    set proto($g) $tcp_name
    # the ns-2 variant behind the paper's protocol name
    set variant $tcp_name
    if {$tcp_name eq "fast" && [ccr::p fast_recovery] eq "sack"} { set variant fast_sack }
    switch -- [ccr::p first] {
        short { set t0 [expr {$short ? 0.0 : [ccr::p offset]}] }
        long  { set t0 [expr {$short ? [ccr::p offset] : 0.0}] }
        all   { set t0 0.0 }
    }
    set knobs [list packetSize_ [ccr::p pkt_size] window_ [ccr::p max_window] \
        windowInit_ [ccr::p window_init] maxburst_ 0 tcpTick_ [ccr::p tcp_tick]]
    set ecn [expr {[ccr::p aqm] eq "red" ? 1 : 0}]
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
            lappend knobs fast_alpha_ $apk($g) fast_gamma_ [ccr::p fast_gamma] \
                fast_period_ [ccr::p fast_period] fast_halve_ false ecn_ 0
        }
    }
    for {set i 0} {$i < $count} {incr i} {
        set src [$ns node]; set dst [$ns node]
        ccr::duplex $src $r($lo) [ccr::p access_bw] [ccr::p access_delay] DropTail 100000
        ccr::duplex $r([expr {$hi + 1}]) $dst [ccr::p access_bw] [ccr::p access_delay] DropTail 100000
        lassign [ccr::tcp_flow $src $dst $variant $g $knobs] tcp sink ftp
        lappend agents($g) $tcp
        $ns at [expr {$t0 + [ccr::uniform 0 [ccr::p jitter]]}] "$ftp start"
        incr nflows
    }
}

# ---- monitors ----
ccr::table_open groups {t group acked}
ccr::table_open links {t link departures drops marks}
proc sample_counts {} {
    global ns ngroups agents fm
    set t [$ns now]
    for {set g 1} {$g <= $ngroups} {incr g} {
        set s 0
        # ack_ = highest in-order packet acknowledged (-1 before the first); packets, so no
        # 32-bit byte-counter overflow in long 100+ Mb/s runs
        foreach a $agents($g) { incr s [expr {max(0, [$a set ack_] + 1)}] }
        ccr::row groups [list $t $g $s]
    }
    for {set l 1} {$l <= 3} {incr l} {
        ccr::row links [list $t $l [$fm($l) set pdepartures_] [$fm($l) set pdrops_] \
            [$fm($l) set pmarks_]]
    }
}
ccr::every [ccr::p sample] [ccr::p duration] sample_counts
if {[ccr::p qsample] > 0} {
    ccr::table_open queue {t link qlen avg}
    proc sample_queue {} {
        global ns fm q
        for {set l 1} {$l <= 3} {incr l} {
            set avg 0
            if {[ccr::p aqm] eq "red"} { set avg [format %.2f [$q($l) set ave_]] }
            ccr::row queue [list [$ns now] $l [$fm($l) set pkts_] $avg]
        }
    }
    ccr::every [ccr::p qsample] [ccr::p duration] sample_queue
}

proc finish {} {
    global ngroups prop apk proto nflows
    set res [list groups $ngroups flows $nflows]
    for {set g 1} {$g <= $ngroups} {incr g} {
        lappend res protocol_$g $proto($g) prop_rtt_$g [format %.6f $prop($g)]
        if {$proto($g) in {vegas fast}} { lappend res alpha_pkts_$g [format %.6f $apk($g)] }
    }
    ccr::finish tang/chain.tcl $res
    exit 0
}
$ns at [expr {[ccr::p duration] + 1e-6}] finish
$ns run
