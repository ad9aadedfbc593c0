# PIE (Queue/PIE, patch 0016; RFC 8033). The queue writes a decision trace
# ("$q trace-decisions CHANNEL", format in queue/pie.h):
#   time event uid fid size ect qlen qbytes drop_prob qdelay qdelay_old burst accu u
# and the checks are:
#   - decision replay: TCP and UDP flows drive PIE through every state (drop_prob in every
#     range of the auto-tuning table, the 2 % cap, the idle decay, burst allowance used up
#     and restored, the safeguards, overflow, ECN marks, de-randomization); a plain Tcl
#     model of the RFC's pseudocode below (independent of the C++) replays the trace and
#     must reach the same state at every update and the same decision at every arrival;
#   - long-lived TCP: PIE holds the mean queueing delay near the 15-ms target where
#     DropTail with the same (large) buffer does not;
#   - light CBR load: drop_prob stays 0; unresponsive overload: drop_prob rises to about
#     the excess fraction and the delay settles near the target;
#   - same seed -> byte-identical trace, another seed -> another trace;
#   - bad parameters refused with a Tcl error naming the parameter and the value as typed,
#     where they are written, before and during the run (checked knobs, patch 0017).
source [file join [file dirname [info script]] testlib.tcl]

# --- scenarios (run in child processes: one Simulator per process) --------------------

# s -(100 Mb/s, 5 ms)-> r -(10 Mb/s, 20 ms, QCLS, LIMIT packets)-> d; base RTT 50 ms.
# Returns {ns s r d q}.
proc pie_net {seed qcls limit} {
    set ns [experiment::sim_new $seed]
    set s [$ns node]; set r [$ns node]; set d [$ns node]
    experiment::duplex $s $r 100Mb 5ms DropTail 10000
    experiment::simplex $r $d 10Mb 20ms $qcls $limit
    experiment::simplex $d $r 10Mb 20ms DropTail 10000
    return [list $ns $s $r $d [experiment::queue $r $d]]
}

# SACK/FTP flows fids FID0.. from s to d, started uniformly in [T0, T0 + 0.5] s.
proc pie_tcps {s d n fid0 t0 t1 ecn} {
    set ns $::experiment::ns_
    for {set i 0} {$i < $n} {incr i} {
        lassign [experiment::tcp_flow $s $d sack [expr {$fid0 + $i}] \
            [list window_ 1000 packetSize_ 1000 ecn_ $ecn]] tcp sink ftp
        $ns at [expr {$t0 + [experiment::uniform 0 0.5]}] "$ftp start"
        if {$t1 > 0} { $ns at $t1 "$ftp stop" }
    }
}

# The replay scenario (limit 200): 5 TCP flows from 0 s; a 15 Mb/s UDP flow (1.5x the
# link) over [8, 14] s; everything stops at 14 s (idle: decay, burst allowance restored);
# 3 new TCP flows over [17, 22] s; a 13 Mb/s UDP flow alone over [22, 30] s (drop_prob
# settles near 0.23, so arrivals meet 0.2 <= drop_prob < 0.3 at a small delay); end 30 s.
# MODE basic = the defaults; MODE derand_ecn = derandomize_ and ecn_ on, ECN-capable
# TCP; MODE rate = the departure-rate delay estimate (dq_rate_estimator_). Writes the
# decision trace to FILE and prints the queue's counters.
proc scenario_replay {mode seed file} {
    lassign [pie_net $seed PIE 200] ns s r d q
    set ecn 0
    if {$mode eq "derand_ecn"} {
        experiment::set_knobs $q {derandomize_ true ecn_ true}
        set ecn 1
    } elseif {$mode eq "rate"} {
        $q set dq_rate_estimator_ true
    }
    set f [open $file w]
    $q trace-decisions $f
    pie_tcps $s $d 5 1 0.0 14.0 $ecn
    lassign [udp_flow $s $d 9 15Mb] cbr sink
    $ns at 8.0 "$cbr start"
    $ns at 14.0 "$cbr stop"
    pie_tcps $s $d 3 11 17.0 22.0 $ecn
    lassign [udp_flow $s $d 10 13Mb] cbr2 sink2
    $ns at 22.0 "$cbr2 start"
    $ns at 30.0 "$ns halt"
    $ns run
    close $f
    return [list early_drops [$q set early_drops_] marks [$q set marks_] \
        overflow_drops [$q set overflow_drops_]]
}

# Time-average queueing delay (bytes queued / link rate, sampled every 5 ms) and link
# utilisation over [T/2, T]; PIE also: mean and max drop_prob over [T/2, T], max
# drop_prob over the whole run, early drops.
proc measure {ns q fm T cls} {
    set ::samples {}
    set ::dps {}
    set ::dpmax_all 0.0
    for {set t 0.005} {$t <= $T + 1e-9} {set t [expr {$t + 0.005}]} {
        set script {}
        if {$cls eq "PIE"} {
            append script "set ::dp \[$q set drop_prob_\]; if {\$::dp > \$::dpmax_all} {set ::dpmax_all \$::dp}; "
            if {$t >= $T / 2} { append script "lappend ::dps \$::dp; " }
        }
        if {$t >= $T / 2} { append script "lappend ::samples \[$fm set size_\]" }
        if {$script ne ""} { $ns at $t $script }
    }
    $ns at [expr {$T / 2}] "set ::b0 \[$fm set bdepartures_\]"
    $ns at $T "set ::b1 \[$fm set bdepartures_\]"
    $ns at $T "$ns halt"
    $ns run
    set n [llength $::samples]
    set delay_ms [expr {[tcl::mathop::+ {*}$::samples] / double($n) * 8 / 10e6 * 1000}]
    set util [expr {($::b1 - $::b0) * 8.0 / (10e6 * $T / 2)}]
    set out [list delay_ms $delay_ms util $util]
    if {$cls eq "PIE"} {
        set dpm [expr {[tcl::mathop::+ {*}$::dps] / double([llength $::dps])}]
        lappend out dp_mean $dpm dp_max_half [lindex [lsort -real $::dps] end] \
            dp_max_all $::dpmax_all early_drops [$q set early_drops_]
    }
    return $out
}

# 6 long-lived SACK flows through CLS (PIE, PIE-rate = PIE with the departure-rate
# estimate, or DropTail) with a 1000-packet buffer, 40 s.
proc scenario_tcp {cls seed} {
    set rate [expr {$cls eq "PIE-rate"}]
    if {$rate} { set cls PIE }
    lassign [pie_net $seed $cls 1000] ns s r d q
    if {$rate} { $q set dq_rate_estimator_ true }
    set fm [experiment::flowmon $r $d]
    pie_tcps $s $d 6 1 0.0 0 0
    return [measure $ns $q $fm 40.0 $cls]
}

# One CBR/UDP flow at RATE through PIE (1000-packet buffer), 30 s.
proc scenario_udp {rate seed} {
    lassign [pie_net $seed PIE 1000] ns s r d q
    set fm [experiment::flowmon $r $d]
    lassign [udp_flow $s $d 1 $rate] cbr sink
    $ns at 0.0 "$cbr start"
    return [measure $ns $q $fm 30.0 PIE]
}

switch -- [lindex $argv 0] {
    replay  { puts "result [scenario_replay {*}[lrange $argv 1 3]]"; exit 0 }
    tcp     { puts "result [scenario_tcp {*}[lrange $argv 1 2]]"; exit 0 }
    udp     { puts "result [scenario_udp {*}[lrange $argv 1 2]]"; exit 0 }
}

# --- the model: RFC 8033 Sec. 4.1-4.4, 5.1, 5.4, 5.5 in plain Tcl --------------------
#
# Parameters: a dict with ref tupdate alpha beta max_burst mps limit cap derand ecn ecnth
# rate dqth. The model keeps its own FIFO (uid, arrival time, size) from the trace's
# enque/mark and deque events, computes the delay sample (age of the head packet at each
# update, or with rate 1 the departure-rate estimate of Sec. 5.2) and
# every state variable itself, and compares them with the C++ state printed on each
# line. At an arrival it decides overflow / burst bypass / safeguard / coin itself; the
# trace supplies only the uniform variate u the queue drew (the model checks that a draw
# happened exactly when the RFC needs one) and whether the packet was ECN-capable.
proc model_replay {file par} {
    dict with par {}
    set half [expr {$ref / 2.0}]
    set fifo {}; set head 0; set nq 0; set qb 0
    set dp 0.0; set qdo 0.0; set burst $max_burst; set accu 0.0
    set avg 0.0; set inm 0; set dqc 0; set mstart 0.0
    array set n {lines 0 updates 0 arrivals 0 mismatches 0 drops 0 marks 0 overflow 0
        deques 0 decay 0 cap 0 burst_out 0 burst_reset 0 burst_bypass 0 safe_delay 0
        safe_bytes 0 safe_delay_dp10 0 cycles 0 derand_low 0 derand_high 0 draws 0 dp_above_02 0}
    array set range {}
    set msgs {}
    set dpmax 0.0
    set fh [open $file]
    while {[gets $fh line] >= 0} {
        incr n(lines)
        lassign $line t ev uid fid size ect qlen qbytes cdp cqd cqdo cburst caccu u
        set bad {}
        switch -- $ev {
            update {
                incr n(updates)
                if {$rate} {
                    # Sec. 5.2: Little's law with the averaged departure time
                    set qd [expr {$qb * $avg / $dqth}]
                } else {
                    # Sec. 4.3 with timestamps: the age of the head packet
                    set qd [expr {$nq == 0 ? 0.0 : $t - [lindex $fifo $head 1]}]
                }
                set p [expr {$alpha * ($qd - $ref) + $beta * ($qd - $qdo)}]
                # Sec. 4.2: auto-tuning of alpha and beta by the range of drop_prob
                if {$dp < 0.000001} {
                    set p [expr {$p / 2048}]; set rg 0
                } elseif {$dp < 0.00001} {
                    set p [expr {$p / 512}]; set rg 1
                } elseif {$dp < 0.0001} {
                    set p [expr {$p / 128}]; set rg 2
                } elseif {$dp < 0.001} {
                    set p [expr {$p / 32}]; set rg 3
                } elseif {$dp < 0.01} {
                    set p [expr {$p / 8}]; set rg 4
                } elseif {$dp < 0.1} {
                    set p [expr {$p / 2}]; set rg 5
                } else {
                    set rg 6
                }
                if {$p != 0} { set range($rg) 1 }
                # Sec. 5.5: at most +2 % per update once drop_prob >= 10 %
                if {$cap && $dp >= 0.1 && $p > 0.02} { set p 0.02; incr n(cap) }
                set dp [expr {$dp + $p}]
                # Sec. 4.2: exponential decay when the queue stays empty
                if {$qd == 0 && $qdo == 0} {
                    if {$dp > 0} { incr n(decay) }
                    set dp [expr {$dp * 0.98}]
                }
                if {$dp < 0} { set dp 0.0 }
                if {$dp > 1} { set dp 1.0 }
                # Sec. 4.4: burst allowance
                set b0 $burst
                set burst [expr {$burst - $tupdate}]
                if {$burst < 0} { set burst 0.0 }
                if {$dp == 0 && $qd < $half && $qdo < $half} { set burst $max_burst }
                if {$b0 > 0 && $burst == 0} { incr n(burst_out) }
                if {$b0 < $max_burst && $burst == $max_burst} { incr n(burst_reset) }
                set qdo $qd
                if {$dp > $dpmax} { set dpmax $dp }
                if {$cdp != $dp || $cqd != $qd || $cqdo != $qdo || $cburst != $burst} {
                    set bad "update: model dp $dp qdelay $qd qdelay_old $qdo burst $burst"
                }
            }
            deque {
                incr n(deques)
                if {$nq == 0} {
                    set bad "deque from an empty model queue"
                } else {
                    lassign [lindex $fifo $head] huid ht hsize
                    if {$huid != $uid} { set bad "deque: model head is uid $huid" }
                    incr head; incr nq -1; incr qb -$hsize
                    if {$head > 4096} { set fifo [lrange $fifo $head end]; set head 0 }
                    if {$rate} {
                        # Sec. 5.2: departure-rate measurement cycles
                        if {$inm} {
                            incr dqc $hsize
                            if {$dqc >= $dqth} {
                                set dqt [expr {$t - $mstart}]
                                if {$avg == 0} {
                                    set avg $dqt
                                } else {
                                    set w [expr {$dqth / 65536.0}]
                                    set avg [expr {$dqt * $w + $avg * (1 - $w)}]
                                }
                                set inm 0
                                incr n(cycles)
                            }
                        }
                        if {$qb >= $dqth && !$inm} {
                            set inm 1; set mstart $t; set dqc 0
                        }
                    }
                }
            }
            enque - drop - mark - overflow {
                incr n(arrivals)
                set drew 0
                set want enque
                if {$nq >= $limit} {
                    set want overflow
                    set accu 0.0
                } elseif {$burst > 0} {
                    incr n(burst_bypass)
                } elseif {$qdo < $half && $dp < 0.2} {
                    incr n(safe_delay)
                    if {$dp >= 0.1} { incr n(safe_delay_dp10) }
                } elseif {$qb <= 2 * $mps} {
                    incr n(safe_bytes)
                } else {
                    if {$dp >= 0.2 && $qdo < $half} { incr n(dp_above_02) }
                    set dropit -1
                    if {$derand} {
                        if {$dp == 0} { set accu 0.0 }
                        set accu [expr {$accu + $dp}]
                        if {$accu < 0.85} {
                            set dropit 0; incr n(derand_low)
                        } elseif {$accu >= 8.5} {
                            set dropit 1; set accu 0.0; incr n(derand_high)
                        }
                    }
                    if {$dropit < 0} {
                        set drew 1
                        incr n(draws)
                        if {$u == -1} {
                            set bad "arrival: the model needs a draw, the queue drew none"
                            set dropit 0
                        } elseif {$u < $dp} {
                            set dropit 1; set accu 0.0
                        } else {
                            set dropit 0
                        }
                    }
                    if {$dropit} {
                        # Sec. 5.1: mark an ECN-capable packet while drop_prob <= mark_ecnth
                        set want [expr {$ecn && $ect && $dp <= $ecnth ? "mark" : "drop"}]
                    }
                }
                if {!$drew && $u != -1} { set bad "arrival: the queue drew u $u, the model no draw" }
                if {$want ne $ev} { set bad "arrival: model decides $want" }
                switch -- $want {
                    enque - mark {
                        lappend fifo [list $uid $t $size]; incr nq; incr qb $size
                        if {$want eq "mark"} { incr n(marks) }
                    }
                    drop { incr n(drops) }
                    overflow { incr n(overflow) }
                }
                if {$cdp != $dp || $caccu != $accu || $cburst != $burst} {
                    append bad " (state: model dp $dp accu $accu burst $burst)"
                }
            }
            default { set bad "unknown event" }
        }
        if {$bad eq "" && ($qlen != $nq || $qbytes != $qb)} {
            set bad "queue: model $nq packets $qb bytes"
        }
        if {$bad ne ""} {
            incr n(mismatches)
            if {[llength $msgs] < 5} { lappend msgs "line $n(lines) '$line': $bad" }
        }
    }
    close $fh
    set n(ranges) [llength [array names range]]
    set n(dpmax) $dpmax
    return [list [array get n] $msgs]
}

proc pie_params {derand ecn rate} {
    return [dict create ref 0.015 tupdate 0.015 alpha 0.125 beta 1.25 max_burst 0.150 \
        mps 1000 limit 200 cap 1 derand $derand ecn $ecn ecnth 0.1 rate $rate dqth 16384]
}

# --- checks ----------------------------------------------------------------------------

# (1) decision replay, three modes
foreach {mode derand ecn rate} {basic 0 0 0 derand_ecn 1 1 0 rate 0 0 1} {
    set cnt [t::subrun replay $mode 3 trace-$mode.tr]
    lassign [model_replay trace-$mode.tr [pie_params $derand $ecn $rate]] nl msgs
    array unset n; array set n $nl
    puts "   $mode: $n(lines) events: $n(arrivals) arrivals, $n(deques) deques, $n(updates) updates;\
        $n(drops) early drops, $n(marks) marks, $n(overflow) overflows; queue's counters: $cnt"
    puts "   $mode: burst allowance used up $n(burst_out)x, restored $n(burst_reset)x;\
        $n(decay) decays, $n(cap) capped steps, $n(ranges) of 7 table ranges, max drop_prob [format %.3f $n(dpmax)];\
        bypass: burst $n(burst_bypass), delay safeguard $n(safe_delay), byte safeguard $n(safe_bytes);\
        $n(draws) draws, derand <0.85 $n(derand_low), >=8.5 $n(derand_high)"
    foreach m $msgs { puts "   $m" }
    t::check {$n(mismatches) == 0} "$mode: the RFC model reproduces every state and decision ($n(mismatches) mismatches in $n(lines) events)"
    array set c $cnt
    t::check {$c(early_drops) == $n(drops) && $c(marks) == $n(marks) && $c(overflow_drops) == $n(overflow)} \
        "$mode: the queue's counters agree with the trace ($cnt)"
    t::check {$n(updates) >= 1990 && $n(arrivals) > 30000} "$mode: the whole run is traced ($n(updates) updates, $n(arrivals) arrivals)"
    t::check {$n(drops) >= 20} "$mode: random early drops happened ($n(drops))"
    t::check {$n(burst_out) >= 2 && $n(burst_reset) >= 2} "$mode: burst allowance used up ($n(burst_out)) and restored ($n(burst_reset)) at least twice"
    t::check {$n(decay) >= 10} "$mode: idle decay of a positive drop_prob ($n(decay) updates)"
    t::check {$n(cap) >= 3 && $n(dpmax) > 0.2} "$mode: the 2 % cap applied ($n(cap)) and drop_prob exceeded 20 % ([format %.3f $n(dpmax)])"
    t::check {$n(ranges) == 7} "$mode: every range of the auto-tuning table used ($n(ranges) of 7)"
    t::check {$n(burst_bypass) >= 20 && $n(safe_delay) >= 20 && $n(safe_bytes) >= 20 && $n(draws) >= 100} \
        "$mode: every arrival path taken (burst $n(burst_bypass), delay safeguard $n(safe_delay), bytes $n(safe_bytes), coin $n(draws))"
    t::check {$n(overflow) >= 1} "$mode: overflow drops at the limit ($n(overflow))"
    t::check {$n(dp_above_02) >= 20 && $n(safe_delay_dp10) >= 20} \
        "$mode: the 20 % bound of the delay safeguard decided arrivals on both sides (coin at drop_prob >= 0.2: $n(dp_above_02), bypass at 0.1 <= drop_prob < 0.2: $n(safe_delay_dp10))"
    if {$ecn} {
        t::check {$n(marks) >= 20} "$mode: ECN marks while drop_prob <= 10 % ($n(marks)), drops above ($n(drops))"
        t::check {$n(derand_low) >= 100} "$mode: de-randomization skipped the coin below 0.85 ($n(derand_low))"
    } else {
        t::check {$n(marks) == 0} "$mode: no marks with ecn_ off"
    }
    if {$rate} {
        t::check {$n(cycles) >= 100} "$mode: departure-rate measurement cycles completed ($n(cycles))"
    }
}

# determinism: byte-identical trace with the same seed, another trace with another seed
t::subrun replay basic 3 again.tr
t::subrun replay basic 4 other.tr
set f [open trace-basic.tr]; set tr1 [read $f]; close $f
set f [open again.tr]; set tr2 [read $f]; close $f
set f [open other.tr]; set tr3 [read $f]; close $f
t::check {$tr1 eq $tr2} "same seed: byte-identical decision trace ([string length $tr1] bytes)"
t::check {$tr1 ne $tr3} "another seed: another trace"

# (2) long-lived TCP: 6 SACK flows, 10 Mb/s, base RTT 50 ms, 1000-packet buffer, 40 s.
# PIE's integral term moves drop_prob until the delay averages QDELAY_REF, so the
# time-average delay over [20, 40] s should be near 15 ms; TCP's sawtooth and the
# clamp of drop_prob at 0 (which keeps the integral from pulling below the target
# when the queue drains) bias it, so the band is a factor of 2 each way, [7.5, 30] ms.
# DropTail lets the flows fill the 1000 packets (up to 800 ms).
array set pie [t::subrun tcp PIE 5]
array set dt [t::subrun tcp DropTail 5]
array set pr [t::subrun tcp PIE-rate 5]
puts "   TCP: PIE mean delay [format %.2f $pie(delay_ms)] ms, utilisation [format %.3f $pie(util)],\
    mean drop_prob [format %.4f $pie(dp_mean)], early drops $pie(early_drops);\
    DropTail mean delay [format %.1f $dt(delay_ms)] ms, utilisation [format %.3f $dt(util)]"
t::between $pie(delay_ms) 7.5 30 "TCP: PIE mean queueing delay over \[20, 40\] s near the 15-ms target (ms)"
puts "   TCP, departure-rate estimate: mean delay [format %.2f $pr(delay_ms)] ms, utilisation [format %.3f $pr(util)]"
t::between $pr(delay_ms) 7.5 30 "TCP: PIE with the departure-rate estimate, mean delay near the target too (ms)"
t::check {$dt(delay_ms) > 100} "TCP: DropTail with the same buffer does not control the delay ([format %.1f $dt(delay_ms)] ms > 100 ms)"
t::check {$pie(util) > 0.9} "TCP: PIE keeps the link busy (utilisation [format %.3f $pie(util)] > 0.9)"

# (3) light load: one CBR flow at 50 % of the link never makes PIE drop
array set lo [t::subrun udp 5Mb 5]
puts "   CBR 5 Mb/s: max drop_prob $lo(dp_max_all), early drops $lo(early_drops),\
    mean delay [format %.3f $lo(delay_ms)] ms"
t::check {$lo(dp_max_all) == 0 && $lo(early_drops) == 0} "light load: drop_prob stays 0 (max $lo(dp_max_all)), no drops ($lo(early_drops))"
# unresponsive overload: 15 Mb/s on 10 Mb/s; to pass 10 Mb/s PIE must drop about 1/3 of
# the arrivals, and the integral term settles the delay near QDELAY_REF. The mean
# drop_prob must lie within [0.25, 0.45] (the excess fraction 1/3, plus the random
# fluctuation of a 15-ms control loop); the delay within the band of (2).
array set hi [t::subrun udp 15Mb 5]
puts "   UDP 15 Mb/s: mean drop_prob [format %.4f $hi(dp_mean)] (max [format %.3f $hi(dp_max_half)]),\
    mean delay [format %.2f $hi(delay_ms)] ms, utilisation [format %.3f $hi(util)], early drops $hi(early_drops)"
t::between $hi(dp_mean) 0.25 0.45 "overload: mean drop_prob over \[15, 30\] s near the excess fraction 1/3"
t::between $hi(delay_ms) 7.5 30 "overload: mean queueing delay over \[15, 30\] s near the 15-ms target (ms)"
t::check {$hi(util) > 0.95} "overload: the link stays busy ([format %.3f $hi(util)])"

# (4) bad parameters: every knob is a checked knob (patch 0017): a value that is not a number
# of the knob's kind (a time for qdelay_ref_, tupdate_, max_burst_, which take ns-2's time
# units) or is out of range is refused where it is written, with an error naming the knob and
# the value as typed -- before the run and during it. limit_ 0 is refused too.
set q [new Queue/PIE]
t::check {[catch {$q check} m] == 0} "defaults are valid"
t::knob_tests PIE {
    qdelay_ref_ 0  qdelay_ref_ -0.01  qdelay_ref_ abc  qdelay_ref_ 15x  qdelay_ref_ 15m
    tupdate_ 0  tupdate_ -1  tupdate_ -1ms  tupdate_ abc
    limit_ 0  limit_ -1  limit_ abc
    alpha_ -0.125  alpha_ abc  beta_ -1.25
    max_burst_ -0.1  max_burst_ abc
    mean_pktsize_ 0  mean_pktsize_ abc
    mark_ecnth_ 1.5  dq_threshold_ 0  dq_threshold_ 65537
    ecn_ maybe  cap_drop_ 2  derandomize_ abc  dq_rate_estimator_ x
} {
    qdelay_ref_ 0  qdelay_ref_ abc  tupdate_ 0  tupdate_ abc  limit_ 0  limit_ abc  max_burst_ -1
} {tupdate_ 0}
foreach {knob value} {alpha_ 0 beta_ 0 max_burst_ 0} {
    set old [$q set $knob]
    $q set $knob $value
    t::check {[catch {$q check} m] == 0} "$knob $value is valid"
    $q set $knob $old
}
set q [new Queue/PIE]
$q set qdelay_ref_ 15ms
$q set tupdate_ 30ms
$q set max_burst_ 150ms
t::check {[$q set qdelay_ref_] == 0.015 && [$q set tupdate_] == 0.03 && [$q set max_burst_] == 0.15} \
    "time knobs take ns-2's time units: qdelay_ref_ 15ms, tupdate_ 30ms, max_burst_ 150ms -> [$q set qdelay_ref_] [$q set tupdate_] [$q set max_burst_] s"
$q set dq_threshold_ 1.6384e4
$q set ecn_ true
t::check {[$q set dq_threshold_] == 16384 && [$q set ecn_] == 1} \
    "whole numbers and booleans are read exactly: dq_threshold_ 1.6384e4, ecn_ true -> [$q set dq_threshold_] [$q set ecn_]"
Queue/PIE set tupdate_ 15x
t::error_like {new Queue/PIE} "*(Queue/PIE): tupdate_ must be *, got '15x'*" "a bad class default is refused by new"
Queue/PIE set tupdate_ 0.015
t::error_like {$q use-rng $q} {*use-rng needs an RNG object*} "use-rng refuses a non-RNG"
t::error_like {$q trace-decisions nosuchchannel} {*trace-decisions needs a channel open for writing*} \
    "trace-decisions refuses a bad channel"
t::done
