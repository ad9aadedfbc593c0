# Protocol I and Protocol II of Gao, Jain, Schulman (Queue/GaoP1, Queue/GaoP2, patch 0012;
# experiment::gateway_setup ... protocol1 / protocol2). Arrivals are stamped SEND or DROP from Q
# (packets queued, DROP-stamped ones included), the per-flow counts m_i and MAX as they
# are before the arrival: Q > H -> DROP; H >= Q > L and (I) i = MAX, (II) m_i >=
# (H-Q)/(H-L) m_MAX -> DROP; else SEND. DROP-stamped packets are dropped when they reach
# the head. A full buffer (Q >= F = limit) drops the arrival at once.
#
# The checks replay ns-2's queue trace through a plain Tcl model of the paper's rules (no
# count buckets, no hash: scans over flows) and require it to agree with the C++ queue on
# every event: each arrival's stamp (SEND packets must leave through "-", DROP packets
# through "d" at the head, in FIFO order), each overflow drop, MAX after each departure
# (ties: the flow that reached the top count first). Also: flow monitor = trace per flow,
# the queue's own counters, packet conservation, 2000 flows with scattered flow ids (the
# hash table and the count list under churn), Protocol II's proportional drops, one UDP
# flow among TCP flows, determinism, and bad parameters.
source [file join [file dirname [info script]] testlib.tcl]

# --- helpers -----------------------------------------------------------------------------

# The reference model. Replays a queue trace; returns a dict of counters:
#   mismatch (events where ns and the model disagree; first few in 'why'),
#   regime counts: above_H (all must be DROP), band_max / band_other (P1: MAX flow vs
#   others between L and H), band_drop / band_send, below_L, overflow, head_drops,
#   departures.
proc model_replay {file proto F H L} {
    set fifo {}; set head 0           ;# {uid fid stamp} entries, head index
    array set m {}; array set entered {}
    set tick 0; set max ""
    set pending ""                     ;# uid the model expects to overflow
    set c [dict create mismatch 0 why {} above_H 0 band_max 0 band_other 0 band_drop 0 \
        band_send 0 below_L 0 overflow 0 head_drops 0 departures 0]
    set fh [open $file]
    while {[gets $fh line] >= 0} {
        lassign $line ev t from to type size flags fid src dst seq uid
        if {$ev ni {+ - d}} continue
        if {$pending ne ""} {
            if {!($ev eq "d" && $uid == $pending)} {
                dict incr c mismatch
                dict lappend c why "t=$t: expected overflow drop of $pending, got $ev $uid"
            }
            set pending ""
            if {$ev eq "d"} { dict incr c overflow; continue }
        }
        switch -- $ev {
            + {
                set Q [expr {[llength $fifo] - $head}]
                if {$Q >= $F} { set pending $uid; continue }
                set mi [expr {[info exists m($fid)] ? $m($fid) : 0}]
                set mmax [expr {$max eq "" ? 0 : $m($max)}]
                if {$Q > $H} {
                    set stamp DROP; dict incr c above_H
                } elseif {$Q > $L} {
                    if {$proto == 1} {
                        set stamp [expr {$fid eq $max ? "DROP" : "SEND"}]
                        dict incr c [expr {$fid eq $max ? "band_max" : "band_other"}]
                    } else {
                        set stamp [expr {$mi * ($H - $L) >= ($H - $Q) * $mmax ? "DROP" : "SEND"}]
                    }
                    dict incr c [expr {$stamp eq "DROP" ? "band_drop" : "band_send"}]
                } else {
                    set stamp SEND; dict incr c below_L
                }
                lappend fifo [list $uid $fid $stamp]
                set m($fid) [expr {$mi + 1}]
                set entered($fid) [incr tick]
                if {$max eq "" || $m($fid) > $m($max)} { set max $fid }
            }
            - - d {
                lassign [lindex $fifo $head] huid hfid hstamp
                set want [expr {$ev eq "-" ? "SEND" : "DROP"}]
                if {$head >= [llength $fifo] || $huid != $uid || $hstamp ne $want} {
                    dict incr c mismatch
                    if {[llength [dict get $c why]] < 5} {
                        dict lappend c why "t=$t: ns $ev $uid (fid $fid), model head {$huid $hfid $hstamp}"
                    }
                    continue
                }
                incr head
                if {$head > 1000} { set fifo [lrange $fifo $head end]; set head 0 }
                dict incr c [expr {$ev eq "-" ? "departures" : "head_drops"}]
                # departure bookkeeping: m_i -= 1, record gone at 0, MAX reassigned
                incr m($hfid) -1
                set entered($hfid) [incr tick]
                if {$m($hfid) == 0} { unset m($hfid) entered($hfid) }
                if {[array size m] == 0} {
                    set max ""
                } elseif {$hfid eq $max} {
                    set mine [expr {[info exists m($hfid)] ? $m($hfid) : 0}]
                    set best ""
                    foreach f [array names m] {
                        if {$best eq "" || $m($f) > $m($best) ||
                            ($m($f) == $m($best) && $entered($f) < $entered($best))} { set best $f }
                    }
                    if {$m($best) > $mine} { set max $best }
                }
            }
        }
    }
    close $fh
    return $c
}

# --- scenarios ---------------------------------------------------------------------------

# Flows on a 1 Mb/s link (F = limit): four CBR flows (0.2 .. 0.8 Mb/s), two SACK flows, and
# a 20 Mb/s burst of 0.2 s at 5 s that overflows the buffer. Sources stop at 15 s; the
# queue drains by 20 s. Prints the model's verdict and the monitors' counters.
proc scenario_model {cls seed F H L} {
    lassign [dumbbell $seed [experiment::gateway_class $cls] $F 1Mb] ns a b c
    set q [experiment::queue $b $c]
    experiment::gateway_setup $q $cls [list H $H L $L]
    set tf [open trace.tr w]
    $ns trace-queue $b $c $tf
    set fm [experiment::flowmon $b $c]
    set sinks {}
    foreach {fid rate} {1 200k 2 400k 3 600k 4 800k} {
        lassign [udp_flow $a $c $fid $rate] cbr s
        lappend sinks $s
        $ns at [experiment::uniform 0 0.1] "$cbr start"
        $ns at 15.0 "$cbr stop"
    }
    lassign [udp_flow $a $c 9 20Mb] burst s
    lappend sinks $s
    $ns at 5.0 "$burst start"
    $ns at 5.2 "$burst stop"
    set tcps {}
    foreach fid {5 6} {
        lassign [experiment::tcp_flow $a $c sack $fid {window_ 100 packetSize_ 1000}] tcp sink ftp
        lappend tcps $tcp
        $ns at [experiment::uniform 0 1] "$ftp start"
        $ns at 15.0 "$ftp stop"
    }
    set ::out {}
    $ns at 20.0 [list apply {{fm q sinks tcps tf} {
        close $tf
        set rcv 0
        foreach s $sinks { incr rcv [$s set npkts_] }
        set fids {1 2 3 4 5 6 9}
        set ::out [list fm [experiment::flow_counts $fm $fids] queued [$fm set pkts_] \
            arr [$fm set parrivals_] dep [$fm set pdepartures_] drp [$fm set pdrops_] \
            udp_rcv $rcv ovf [$q set overflow_drops_] stamped [$q set stamp_drops_]]
    }} $fm $q $sinks $tcps $tf]
    $ns at 20.0 "$ns halt"
    $ns run
    set proto [expr {$cls eq "protocol1" ? 1 : 2}]
    lappend ::out model [model_replay trace.tr $proto $F $H $L]
    # drops per flow in the trace
    array set d {}
    set fh [open trace.tr]
    while {[gets $fh line] >= 0} {
        if {[lindex $line 0] eq "d"} { incr d([lindex $line 7]) }
    }
    close $fh
    lappend ::out trace_drops [array get d]
    return $::out
}

# 2000 CBR flows with scattered flow ids (fid = 100003 + 7919 i), one packet per 10 s each
# (starts spread over the first 10 s), and 5 heavier ones (fids 1-5, 150 kb/s, often MAX
# and tied): about 1.2x the 2 Mb/s link over 30 s.
proc scenario_many {cls seed} {
    lassign [dumbbell $seed [experiment::gateway_class $cls] 300 2Mb] ns a b c
    set q [experiment::queue $b $c]
    experiment::gateway_setup $q $cls {H 100 L 40}
    set tf [open trace.tr w]
    $ns trace-queue $b $c $tf
    set null [new Agent/Null]
    $ns attach-agent $c $null
    for {set i 0} {$i < 2000} {incr i} {
        set u [new Agent/UDP]; $u set fid_ [expr {100003 + 7919 * $i}]; $u set packetSize_ 1000
        $ns attach-agent $a $u; $ns connect $u $null
        set cbr [new Application/Traffic/CBR]
        $cbr attach-agent $u; $cbr set packetSize_ 1000; $cbr set random_ 1
        $cbr set rate_ 800
        $ns at [experiment::uniform 0 10] "$cbr start"
    }
    for {set fid 1} {$fid <= 5} {incr fid} {
        lassign [udp_flow $a $c $fid 150k] cbr s
        $ns at [experiment::uniform 0 1] "$cbr start"
    }
    $ns at 30.0 "$ns halt"
    $ns run
    close $tf
    return [model_replay trace.tr [expr {$cls eq "protocol1" ? 1 : 2}] 300 100 40]
}

# Four CBR flows at 0.125, 0.25, 0.375, 0.5 Mb/s on a 1 Mb/s link (25 % overload, so the
# queue mostly sits between L and H), F 100, H 40, L 20: per-flow {arrivals departures
# drops} over 30 s.
proc scenario_rates {cls seed} {
    lassign [dumbbell $seed [experiment::gateway_class $cls] 100 1Mb] ns a b c
    experiment::gateway_setup [experiment::queue $b $c] $cls {H 40 L 20}
    set fm [experiment::flowmon $b $c]
    foreach {fid rate} {1 125k 2 250k 3 375k 4 500k} {
        lassign [udp_flow $a $c $fid $rate] cbr s
        $ns at [experiment::uniform 0 0.1] "$cbr start"
    }
    set ::out {}
    $ns at 30.0 [list apply {{fm} { set ::out [experiment::flow_counts $fm {1 2 3 4}] }} $fm]
    $ns at 30.0 "$ns halt"
    $ns run
    return $::out
}

# One UDP flow at 3 Mb/s and 8 SACK flows on 2 Mb/s (Gao Sim 2.1 in small); F 1000,
# H 200, L 100 for the protocols. Departures of UDP and of all TCP over [10, 40] s.
proc scenario_udp {cls seed} {
    return [udp_vs_tcp $cls $seed 1000 {H 200 L 100}]
}

proc scenario_bad {cls limit args} {
    lassign [dumbbell 1 [experiment::gateway_class $cls] $limit 1Mb] ns a b c
    set q [experiment::queue $b $c]
    foreach {knob value} $args { $q set $knob $value }
    set rc1 [catch {$q check} m1]
    set rc2 [catch {$ns run} m2]
    return [list $rc1 $m1 $rc2 $m2]
}

switch -- [lindex $argv 0] {
    model { puts [scenario_model {*}[lrange $argv 1 5]]; exit 0 }
    many  { puts [scenario_many {*}[lrange $argv 1 2]]; exit 0 }
    rates { puts [scenario_rates {*}[lrange $argv 1 2]]; exit 0 }
    udp   { puts [scenario_udp {*}[lrange $argv 1 2]]; exit 0 }
    bad   { puts [list [scenario_bad {*}[lrange $argv 1 end]]]; exit 0 }
}

# --- checks ------------------------------------------------------------------------------

foreach {cls label} {protocol1 "Protocol I" protocol2 "Protocol II"} {
    set r [t::subrun model $cls 1 60 20 10]
    set md [dict get $r model]
    t::check {[dict get $md mismatch] == 0} "$label: the C++ queue and the Tcl model agree on every stamp, head drop and departure ([dict get $md mismatch] mismatches [dict get $md why])"
    dict with md {
        t::check {$above_H > 50} "$label: arrivals with Q > H, all stamped DROP ($above_H)"
        if {$cls eq "protocol1"} {
            t::check {$band_max > 20 && $band_other > 50} \
                "$label: H >= Q > L: the MAX flow's $band_max arrivals all DROP, the other flows' $band_other all SEND"
        } else {
            t::check {$band_drop > 20 && $band_send > 20} \
                "$label: H >= Q > L: rule 2(b)' stamped $band_drop DROP and $band_send SEND"
        }
        t::check {$below_L > 100} "$label: arrivals with Q <= L, all SEND ($below_L)"
        t::check {$overflow > 10} "$label: the burst overflows the buffer ($overflow arrivals dropped at Q >= F)"
        t::check {$head_drops > 100} "$label: DROP-stamped packets dropped at the head ($head_drops)"
    }
    dict with r {
        t::check {$ovf == [dict get $md overflow] && $stamped == [dict get $md head_drops]} \
            "$label: the queue's counters overflow_drops_ $ovf, stamp_drops_ $stamped match the trace"
        t::check {$arr == $dep + $drp + $queued && $queued == 0 && $drp == $ovf + $stamped} \
            "$label: conservation: arrivals $arr = departures $dep + drops $drp + queued $queued"
        array set td $trace_drops
        set same 1; set udpdep 0
        foreach {fid cnt} $fm {
            if {[lindex $cnt 2] != ([info exists td($fid)] ? $td($fid) : 0)} { set same 0 }
            if {$fid ni {5 6}} { incr udpdep [lindex $cnt 1] }
        }
        t::check {$same} "$label: flow monitor drops per flow = trace drops per flow ($fm)"
        t::check {$udp_rcv == $udpdep} "$label: every UDP departure reached its sink ($udp_rcv)"
    }
}

foreach {cls label} {protocol1 "Protocol I" protocol2 "Protocol II"} {
    set md [t::subrun many $cls 4]
    dict with md {
        t::check {$mismatch == 0 && $departures > 5000 && $band_drop > 50 && $band_send > 300 && $above_H > 100} \
            "$label, 2000 flows with scattered ids: model agrees ($mismatch mismatches; $departures departures, [expr {$band_drop + $band_send}] arrivals between L and H ($band_drop DROP), $above_H above H)"
    }
}

# Protocol II: drops in proportion to the senders' share; Protocol I: the MAX sender only
foreach cls {protocol1 protocol2} {
    set fr($cls) {}; set dr($cls) {}
    foreach {fid c} [t::subrun rates $cls 1] {
        lappend fr($cls) [expr {double([lindex $c 2]) / [lindex $c 0]}]
        lappend dr($cls) [lindex $c 2]
    }
    set share4($cls) [expr {double([lindex $dr($cls) 3]) / [tcl::mathop::+ {*}$dr($cls)]}]
}
lassign $fr(protocol2) f1 f2 f3 f4
t::check {$f1 <= $f2 && $f2 < $f3 && $f3 < $f4 && $f3 > 0.02} \
    "Protocol II: the drop fraction grows with the sending rate (0.125/0.25/0.375/0.5 Mb/s: [lmap x $fr(protocol2) {format %.3f $x}])"
t::check {$share4(protocol1) > 0.95} \
    "Protocol I: the largest sender takes [format %.1f [expr {100 * $share4(protocol1)}]] % of the drops (drops per flow $dr(protocol1))"
t::check {$share4(protocol2) < $share4(protocol1) - 0.05 && [lindex $dr(protocol2) 2] > 3 * [lindex $dr(protocol1) 2]} \
    "Protocol II spreads the drops over the larger senders: largest [format %.1f [expr {100 * $share4(protocol2)}]] % (drops per flow $dr(protocol2))"

# one unresponsive UDP flow among 8 TCP flows
lassign [t::subrun udp droptail 1] udp_dt tcp_dt
set sh_dt [expr {double($udp_dt) / ($udp_dt + $tcp_dt)}]
foreach {cls label} {protocol1 "Protocol I" protocol2 "Protocol II"} {
    lassign [t::subrun udp $cls 1] udp tcp
    set sh [expr {double($udp) / ($udp + $tcp)}]
    t::check {$sh < 0.45 * $sh_dt} "$label: UDP share of the link [format %.3f $sh] < 0.45 of DropTail's [format %.3f $sh_dt]"
}

# determinism
foreach cls {protocol1 protocol2} {
    set a1 [t::subrun model $cls 7 60 20 10]
    set a2 [t::subrun model $cls 7 60 20 10]
    set a3 [t::subrun model $cls 8 60 20 10]
    t::check {$a1 eq $a2} "$cls: same seed, identical counters"
    t::check {$a1 ne $a3} "$cls: another seed, different counters"
}

# bad parameters
foreach {cls limit settings pat} {
    protocol1 100 {L_ -1} {*need 0 <= L_ < H_ < limit_ (the buffer F), got L_ -1, H_ 10, limit_ 100*}
    protocol1 100 {H_ 20 L_ 20} {*need 0 <= L_ < H_ < limit_*got L_ 20, H_ 20*}
    protocol2 100 {H_ 10 L_ 30} {*need 0 <= L_ < H_ < limit_*got L_ 30, H_ 10*}
    protocol2 100 {H_ 100 L_ 10} {*need 0 <= L_ < H_ < limit_*got L_ 10, H_ 100, limit_ 100*}
    protocol1 8 {} {*need 0 <= L_ < H_ < limit_*got L_ 5, H_ 10, limit_ 8*}
} {
    lassign [lindex [t::subrun bad $cls $limit {*}$settings] 0] rc1 m1 rc2 m2
    t::check {$rc1 == 1 && [string match $pat $m1]} "$cls limit $limit $settings: check raises \"$m1\""
    t::check {$rc2 == 1 && [string match $pat $m2]} "$cls limit $limit $settings: \$ns run raises it before the first event"
}
lassign [lindex [t::subrun bad protocol1 100 H_ 20 L_ 0] 0] rc1 m1
t::check {$rc1 == 0} "L_ 0 (the paper's Simulation 1) is valid"
set fh [open bad-setup.tcl w]
puts $fh [string map [list @LIB@ [file join $::experiment::libdir experiment.tcl]] {
    source @LIB@
    set ns [experiment::sim_new 1]
    set a [$ns node]; set b [$ns node]
    experiment::duplex $a $b 1Mb 1ms [experiment::gateway_class protocol2] 100
    experiment::gateway_setup [experiment::queue $a $b] protocol2 {H 100 L 50}
    puts reached
}]
close $fh
set rc [catch {exec [info nameofexecutable] bad-setup.tcl 2>@1} msg]
t::check {$rc == 1 && [string match "*gateway protocol2:*need 0 <= L_ < H_ < limit_*" $msg] && ![string match *reached* $msg]} \
    "experiment::gateway_setup protocol2 with H = F stops the run: $msg"
t::done
