# FQ-CoDel (Queue/FQCoDel, patch 0015; RFC 8290). Checks:
#   - decision replay: a real scenario (4 SACK flows, on/off UDP floods, a sparse flow
#     and a small-packet UDP flow through a 4 Mb/s FQ-CoDel bottleneck, limit 200
#     packets: see scenario_replay) writes the queue's decision trace ("$q trace-decisions CHANNEL", format in
#     queue/fq-codel.cc); a plain Tcl model of RFC 8290 Sec. 4 (new/old lists, DRR
#     credits, overflow drop at the fattest queue) with the RFC 8289 model of
#     codel-model.tcl for each flow queue replays the arrivals and dequeue calls and must
#     produce every line of the trace: the same decisions and the same state (queue,
#     credits, list, CoDel state) at every event; every kind of decision must occur
#     often enough to matter; the trace's drops are ns-2's drops;
#   - a sparse flow sees almost no queueing delay while 4 bulk TCP flows saturate the link;
#   - 4 TCP flows against a UDP flood at 2x the link rate each get about 1/5 of the link;
#   - bad parameters refused with a Tcl error naming the parameter and the value as typed,
#     where they are written, before and during the run (checked knobs, patch 0017).
source [file join [file dirname [info script]] testlib.tcl]
source [file join [file dirname [info script]] codel-model.tcl]

# s -(100 Mb/s, D1)-> r -(BW, D2, QCLASS, LIMIT)-> d, and back d -> r -> s.
proc fq_net {seed qclass limit bw d1 d2} {
    set ns [experiment::sim_new $seed]
    set s [$ns node]; set r [$ns node]; set d [$ns node]
    experiment::duplex $s $r 100Mb $d1 DropTail 10000
    experiment::simplex $r $d $bw $d2 $qclass $limit
    experiment::simplex $d $r $bw $d2 DropTail 10000
    return [list $ns $s $r $d [experiment::queue $r $d]]
}

proc sack_flows {s d fids {stop 0}} {
    set ns $::experiment::ns_
    set out {}
    foreach fid $fids {
        lassign [experiment::tcp_flow $s $d sack $fid {window_ 10000 packetSize_ 1000}] tcp sink ftp
        $ns at [experiment::uniform 0 1] "$ftp start"
        if {$stop > 0} { $ns at $stop "$ftp stop" }
        lappend out $tcp
    }
    return $out
}

# the flow queues of the agents (flow-index), to check that no two share one
proc agent_queues {q agents} {
    set out {}
    foreach a $agents {
        lappend out [$q flow-index [$a set fid_] [$a set agent_addr_] [$a set agent_port_] \
            [$a set dst_addr_] [$a set dst_port_]]
    }
    return $out
}

# Replay scenario: 4 SACK flows over [0, 24] s on a 4 Mb/s bottleneck of 200 packets;
# two UDP floods of 1514-byte packets (= quantum_: credits reach exactly 0) at 6 Mb/s
# each, on and off together (equal byte backlogs: ties for the fattest queue); a flood of
# 300-byte packets at 3 Mb/s (more packets but fewer bytes than the big floods: the
# fattest queue is chosen by bytes); a sparse flow (200 bytes, ~20 ms apart) and a
# small-packet flow below its share. Writes fq-decisions.tr and fq-queue.tr (ns-2's
# queue trace of the bottleneck).
proc scenario_replay {seed} {
    lassign [fq_net $seed FQCoDel 200 4Mb 5ms 10ms] ns s r d q
    set tcps [sack_flows $s $d {1 2 3 4} 24]
    lassign [udp_flow $s $d 5 6Mb 1514] flood1 -
    lassign [udp_flow $s $d 8 6Mb 1514] flood2 -
    foreach {on off} {5 12  16 22  25 26.5} {
        foreach fl [list $flood1 $flood2] {
            $ns at $on "$fl start"
            $ns at $off "$fl stop"
        }
    }
    lassign [udp_flow $s $d 7 3Mb 300] flood3 -
    $ns at 8 "$flood3 start"
    $ns at 20 "$flood3 stop"
    lassign [udp_flow $s $d 6 80kb 200] sparse -
    lassign [udp_flow $s $d 9 400kb 300] small -
    $ns at 0.1 "$sparse start"
    $ns at 0.2 "$small start"
    t::run_traced $ns $q $r $d fq-decisions.tr fq-queue.tr 30.0
    return [list target [$q set target_] interval [$q set interval_] \
        maxpacket [$q set maxpacket_] limit [$q set limit_] quantum [$q set quantum_] \
        codel_drops [$q set codel_drops_] overflow_drops [$q set overflow_drops_]]
}

# Sparse flow: 4 SACK flows (bulk) and a ping-like flow (fid 9: 200-byte packets every
# 10 ms = 160 kb/s) on 10 Mb/s, RTT ~40 ms, 1000-packet buffer, 30 s. From ns-2's queue
# trace over [10, 30] s: {sparse mean, sparse max, bulk mean (s), link utilization,
# distinct flow queues}.
proc scenario_sparse {qclass seed} {
    lassign [fq_net $seed $qclass 1000 10Mb 10ms 9ms] ns s r d q
    set tcps [sack_flows $s $d {1 2 3 4}]
    set u [new Agent/UDP]; $u set fid_ 9
    set null [new Agent/Null]
    $ns attach-agent $s $u; $ns attach-agent $d $null; $ns connect $u $null
    set cbr [new Application/Traffic/CBR]
    $cbr attach-agent $u
    $cbr set packetSize_ 200
    $cbr set interval_ 0.01
    $cbr set random_ 1
    $ns at 0.05 "$cbr start"
    set distinct -1
    if {$qclass eq "FQCoDel"} {
        set distinct [llength [lsort -unique [agent_queues $q [concat $tcps $u]]]]
    }
    t::run_queue_traced $ns $r $d sparse-queue.tr 30.0
    set ns_ 0; set ss 0.0; set smax 0.0; set nb 0; set sb 0.0; set bytes 0
    foreach dep [lindex [t::queue_waits sparse-queue.tr 10.0] 0] {
        lassign $dep fid size w
        if {$fid == 9} {
            incr ns_; set ss [expr {$ss + $w}]
            if {$w > $smax} { set smax $w }
        } else {
            incr nb; set sb [expr {$sb + $w}]
        }
        incr bytes $size
    }
    return [list [expr {$ss / $ns_}] $smax [expr {$sb / $nb}] [expr {$bytes * 8 / 20.0 / 10e6}] $ns_ $distinct]
}

# 4 SACK flows (fids 1-4) and a UDP flood (fid 5, 20 Mb/s = 2x the link, 1040-byte
# packets = the TCP packets' size) on 10 Mb/s, RTT ~40 ms, 30 s. Returns {queues
# {fid departures ...}}: packets leaving the queue over [10, 30] s, per flow.
proc scenario_share {qclass seed limit} {
    lassign [fq_net $seed $qclass $limit 10Mb 10ms 9ms] ns s r d q
    set tcps [sack_flows $s $d {1 2 3 4}]
    set u [new Agent/UDP]; $u set fid_ 5; $u set packetSize_ 1040
    set null [new Agent/Null]
    $ns attach-agent $s $u; $ns attach-agent $d $null; $ns connect $u $null
    set cbr [new Application/Traffic/CBR]
    $cbr attach-agent $u
    $cbr set packetSize_ 1040
    $cbr set rate_ 20Mb
    $cbr set random_ 1
    $ns at 0.0 "$cbr start"
    set distinct -1
    if {$qclass eq "FQCoDel"} {
        set distinct [llength [lsort -unique [agent_queues $q [concat $tcps $u]]]]
    }
    set fm [experiment::flowmon $r $d]
    set ::mark {}
    $ns at 10.0 [list apply {{fm} { set ::mark [experiment::flow_counts $fm {1 2 3 4 5}] }} $fm]
    $ns at 30.0 [list apply {{fm} {
        array set m0 $::mark
        set ::out {}
        foreach {fid c} [experiment::flow_counts $fm {1 2 3 4 5}] {
            lappend ::out $fid [expr {[lindex $c 1] - [lindex $m0($fid) 1]}]
        }
    }} $fm]
    $ns at 30.0 "$ns halt"
    $ns run
    return [list $distinct $::out]
}

proc scenario_bad {args} {
    lassign [fq_net 1 FQCoDel 100 1Mb 1ms 1ms] ns s r d q
    foreach {knob value} $args { $q set $knob $value }
    set rc1 [catch {$q check} m1]
    set rc2 [catch {$ns run} m2]
    return [list $rc1 $m1 $rc2 $m2]
}

switch -- [lindex $argv 0] {
    replay { puts "result [scenario_replay [lindex $argv 1]]"; exit 0 }
    sparse { puts "result [scenario_sparse [lindex $argv 1] [lindex $argv 2]]"; exit 0 }
    share  { puts "result [scenario_share {*}[lrange $argv 1 3]]"; exit 0 }
    bad    { puts "result [list [scenario_bad {*}[lrange $argv 1 end]]]"; exit 0 }
}

# --- the FQ-CoDel model (RFC 8290 Sec. 4) ---------------------------------------------------
# Flow queue Q: codelm queue Q (FIFO and CoDel state), credits fqm::D(Q), list fqm::L(Q)
# (0 none, 1 new, 2 old); lists fqm::new and fqm::old of queue ids; fqm::total packets.
namespace eval fqm {
    variable new {}
    variable old {}
    variable total 0
    variable quantum 1514
    variable limit 10240
    variable D
    variable L
    variable entries 0
    variable ties 0         ;# overflows with several fattest queues (lowest index)
    variable by_bytes 0     ;# overflows where the most packets is not the most bytes
    variable zero_credit 0  ;# queues at the head with credits exactly 0
}

proc fqm::touch {q} {
    variable D; variable L
    if {![info exists L($q)]} { codelm::init $q; set D($q) 0; set L($q) 0 }
}

# a trace line's fields after "time ev" for queue q
proc fqm::fields {uid fid size q sojourn} {
    variable D; variable L
    return [list $uid $fid $size $q [codelm::len $q] [codelm::bytes $q] $fqm::total $sojourn \
        {*}[codelm::state $q] $D($q) $L($q)]
}

# Sec. 4.1: the lines of one arrival of packet {uid fid size} to queue q at time t
proc fqm::enqueue {t uid fid size q} {
    variable D; variable L
    fqm::touch $q
    codelm::push $q $uid $fid $size $t
    incr fqm::total
    if {$L($q) == 0} {
        set D($q) $fqm::quantum
        set L($q) 1
        lappend fqm::new $q
    }
    set out [list [list enq {*}[fqm::fields $uid $fid $size $q -1]]]
    if {$fqm::total > $fqm::limit} {
        # the queue with the most bytes (ties: the lowest index) loses its head
        set fat -1; set fb -1; set ties 0; set fl -1; set fn -1
        foreach k [lsort -integer [array names L]] {
            if {[codelm::len $k] == 0} { continue }
            if {[codelm::bytes $k] > $fb} {
                set fat $k; set fb [codelm::bytes $k]; set ties 0
            } elseif {[codelm::bytes $k] == $fb} {
                incr ties
            }
            if {[codelm::len $k] > $fn} { set fl $k; set fn [codelm::len $k] }
        }
        if {$ties} { incr fqm::ties }
        if {$fl != $fat} { incr fqm::by_bytes }
        lassign [codelm::pop $fat] duid dfid dsize dts
        incr fqm::total -1
        lappend out [list over {*}[fqm::fields $duid $dfid $dsize $fat [expr {$t - $dts}]]]
    }
    return $out
}

# Sec. 4.2: the lines of one dequeue call at time t
proc fqm::dequeue {t} {
    variable D; variable L
    set out {}
    while 1 {
        if {[llength $fqm::new]} {
            set which new
        } elseif {[llength $fqm::old]} {
            set which old
        } else {
            lappend out [list empty -1 -1 0 -1 0 0 $fqm::total -1 0 0 0 0 0 0 0]
            return $out
        }
        set q [lindex [set fqm::$which] 0]
        if {$D($q) <= 0} {
            if {$D($q) == 0} { incr fqm::zero_credit }
            incr D($q) $fqm::quantum
            set fqm::$which [lrange [set fqm::$which] 1 end]
            set L($q) 2
            lappend fqm::old $q
            lappend out [list credit {*}[fqm::fields -1 -1 0 $q -1]]
            continue
        }
        set d0 [lindex [codelm::state $q] 0]
        set cev [codelm::dequeue $q $t]
        if {!$d0 && [lindex [codelm::state $q] 0]} { incr fqm::entries }
        # CoDel's events: {kind uid fid size qlen qbytes sojourn dropping count lastcount
        # drop_next first_above}
        foreach e $cev {
            lassign $e kind uid fid size qlen qbytes sojourn
            if {$kind eq "drop"} {
                incr fqm::total -1
                lappend out [list drop $uid $fid $size $q $qlen $qbytes $fqm::total $sojourn \
                    {*}[lrange $e 7 end] $D($q) $L($q)]
            }
        }
        lassign [lindex $cev end] kind uid fid size qlen qbytes sojourn
        if {$kind eq "empty"} {
            set fqm::$which [lrange [set fqm::$which] 1 end]
            if {$which eq "new"} {
                set L($q) 2
                lappend fqm::old $q
                lappend out [list newidle {*}[fqm::fields -1 -1 0 $q -1]]
            } else {
                set L($q) 0
                lappend out [list remove {*}[fqm::fields -1 -1 0 $q -1]]
            }
            continue
        }
        incr fqm::total -1
        incr D($q) -$size
        lappend out [list deq {*}[fqm::fields $uid $fid $size $q $sojourn]]
        return $out
    }
}

# Replays FILE: the model must produce every line. Returns a dict of counts.
proc replay {file par} {
    codelm::configure [dict get $par target] [dict get $par interval] [dict get $par maxpacket]
    set fqm::quantum [dict get $par quantum]
    set fqm::limit [dict get $par limit]
    set f [open $file]
    set lines [split [string trim [read $f]] \n]
    close $f
    array set c {enq 0 over 0 credit 0 drop 0 newidle 0 remove 0 deq 0 empty 0 calls 0
        mismatch 0 multiq 0}
    array set qof {}
    set first ""
    set i 0
    set n [llength $lines]
    while {$i < $n} {
        set line [lindex $lines $i]
        set t [lindex $line 0]
        set ev [lindex $line 1]
        if {$ev eq "enq"} {
            lassign [lrange $line 2 5] uid fid size q
            # classification: a flow's packets always go to one queue
            if {[info exists qof($fid)] && $qof($fid) != $q} { incr c(multiq) }
            set qof($fid) $q
            set model [fqm::enqueue $t $uid $fid $size $q]
        } else {
            incr c(calls)
            set model [fqm::dequeue $t]
        }
        foreach m $model {
            set line [lindex $lines $i]
            incr c([lindex $m 0])
            if {[lindex $line 0] != $t || ![codelm::same $m [lrange $line 1 end]]} {
                incr c(mismatch)
                if {$first eq ""} { set first "line [expr {$i + 1}]: trace {$line} model {$m}" }
            }
            incr i
        }
        if {$c(mismatch) > 50} { break }
    }
    return [dict create {*}[array get c] entries $fqm::entries ties $fqm::ties \
        by_bytes $fqm::by_bytes zero_credit $fqm::zero_credit queues [array size fqm::L] \
        flows [array size qof] first $first]
}

set par [t::subrun replay 1]
set r [replay fq-decisions.tr $par]
puts "replay counts: $r"
dict with r {
    t::check {$mismatch == 0 && $first eq ""} \
        "replay: the RFC 8290 model produces every line of the trace ($enq arrivals, $calls dequeue calls; mismatches $mismatch) $first"
    t::check {$ties >= 5 && $by_bytes >= 5} "replay: overflows with tied fattest queues ($ties) and with the most bytes not in the longest queue ($by_bytes)"
    t::check {$zero_credit >= 20} "replay: queues with credits exactly 0 get a quantum (credits <= 0) ($zero_credit)"
    t::check {$multiq == 0 && $flows >= 9 && $queues >= 9} "replay: each of the $flows flows hashed to one queue ($queues queues used)"
    t::check {$over >= 20} "replay: overflow drops at the head of the fattest queue ($over)"
    t::check {$drop >= 50} "replay: CoDel drops in the flow queues ($drop)"
    t::check {$entries >= 5} "replay: entries of flow queues into CoDel's dropping state ($entries)"
    t::check {$credit >= 1000} "replay: queues out of credits given a quantum and moved to old_flows ($credit)"
    t::check {$newidle >= 100 && $remove >= 100} "replay: empty new queues moved to old_flows ($newidle), empty old queues removed ($remove)"
    t::check {$deq >= 5000 && $empty >= 10} "replay: $deq packets sent, $empty dequeues found no packet"
    t::check {$drop == [dict get $par codel_drops] && $over == [dict get $par overflow_drops]} \
        "replay: trace drops = the queue's counters codel_drops_ [dict get $par codel_drops], overflow_drops_ [dict get $par overflow_drops]"
}
lassign [t::drop_uids fq-decisions.tr {drop over} fq-queue.tr] d1 d2
t::check {$d1 eq $d2 && [llength $d1] > 0} \
    "replay: the decision trace's [llength $d1] drops are the [llength $d2] drops of ns-2's queue trace (same uids, same order)"

# --- a sparse flow among bulk flows -----------------------------------------------------
# The sparse flow's queue is usually empty and off the lists when its next packet comes
# (10 ms apart on average): the packet joins new_flows and leaves after the packet in
# transmission (at most 1040 bytes at 10 Mb/s = 0.83 ms; "+" to "-" in ns-2's queue
# trace excludes the transmission) and the quanta of other new flows ahead of it (a bulk
# queue that emptied after CoDel's drops is new again: 1-2 packets of 0.83 ms); when a
# packet comes before its empty queue has left old_flows (CBR random_ 1: gaps down to
# 5 ms, a DRR round of the 4 bulk queues takes ~5 ms) it waits for its turn in that
# round. Bounds: mean below 1 ms, max below CoDel's 5 ms target (the bulk flows' own
# queues sit near or above the target); and the link stays busy.
lassign [t::subrun sparse FQCoDel 3] smean smax bmean util nsp distinct
lassign [t::subrun sparse CoDel 3] csmean csmax cbmean cutil
puts [format "sparse flow: FQ-CoDel mean %.3f ms, max %.3f ms (%d packets); bulk mean %.2f ms; utilization %.3f. Single CoDel queue: sparse mean %.2f ms, bulk mean %.2f ms" \
    [expr {$smean * 1000}] [expr {$smax * 1000}] $nsp [expr {$bmean * 1000}] $util [expr {$csmean * 1000}] [expr {$cbmean * 1000}]]
t::check {$distinct == 5} "sparse: the 5 flows have 5 distinct flow queues ($distinct)"
t::check {$smean < 0.001} "sparse: mean queueing delay of the sparse flow [format %.3f [expr {$smean * 1000}]] ms < 1 ms"
t::check {$smax < 0.005} "sparse: max queueing delay of the sparse flow [format %.3f [expr {$smax * 1000}]] ms < 5 ms"
t::check {$util > 0.95} "sparse: bulk flows saturate the link (utilization [format %.3f $util] > 0.95)"
t::check {$csmean > 3 * $smean} "sparse: with one CoDel queue the sparse flow waits with the bulk ([format %.2f [expr {$csmean * 1000}]] ms > 3 x [format %.3f [expr {$smean * 1000}]] ms)"

# --- N = 4 TCP flows against a UDP flood at 2x the link rate -------------------------------
# DRR gives every backlogged queue the same bytes per round: 1/(N+1) = 0.2 of the link
# each. Tolerance +-30 % for a TCP flow (a TCP flow's queue empties now and then after
# CoDel's drops, and it cannot claim the credit it misses) and at most 1.3/(N+1) for the
# flood (what the TCP flows leave unused goes to it).
lassign [t::subrun share FQCoDel 4 10240] distinct counts
set tot 0
foreach {fid n} $counts { incr tot $n }
set shares {}
foreach {fid n} $counts { lappend shares $fid [format %.3f [expr {double($n) / $tot}]] }
puts "shares over \[10, 30\] s, FQ-CoDel ($tot packets): $shares"
lassign [t::subrun share DropTail 4 1000] - dcounts
set dtot 0
foreach {fid n} $dcounts { incr dtot $n }
set dsh {}
foreach {fid n} $dcounts { lappend dsh $fid [format %.3f [expr {double($n) / $dtot}]] }
puts "shares over \[10, 30\] s, DropTail 1000 packets ($dtot packets): $dsh"
t::check {$distinct == 5} "share: the 5 flows have 5 distinct flow queues ($distinct)"
foreach {fid sh} $shares {
    if {$fid == 5} {
        t::check {$sh <= 1.3 / 5} "share: the UDP flood gets $sh <= 1.3/5 = 0.26 of the link"
    } else {
        t::between $sh [expr {0.7 / 5}] [expr {1.3 / 5}] "share: TCP flow $fid gets about 1/5 of the link"
    }
}
t::check {$tot > 0.95 * 20 * 10e6 / 8 / 1040} "share: the link is busy ($tot packets of 1040 bytes in 20 s)"

# --- bad parameters ----------------------------------------------------------------------
# Every knob is a checked knob (patch 0017): a value that is not a number (a time for
# target_ and interval_) or is out of range is refused where it is written, with an error
# naming the knob and the value as typed -- before the run and during it. A quantum_ of 0
# taken during the run would loop forever in the DRR (no queue ever earns credits), a
# negative one until its credits wrap around.
t::knob_tests FQCoDel {
    quantum_ 0  quantum_ -1514  quantum_ abc  quantum_ 1.5
    flows_ 0  flows_ -3  flows_ abc
    perturb_ abc
    limit_ 0  limit_ -1  limit_ abc
    target_ 0  target_ abc  interval_ 0  interval_ -1ms  interval_ abc
    maxpacket_ -1
} {
    quantum_ 0  quantum_ -1514  quantum_ abc  flows_ 0  limit_ 0  limit_ abc  target_ abc  interval_ 0
} {quantum_ 0}
set q [new Queue/FQCoDel]
$q set target_ 15ms
$q set interval_ 200ms
$q set quantum_ 3e2
t::check {[$q set target_] == 0.015 && [$q set interval_] == 0.2 && [$q set quantum_] == 300} \
    "ns-2 time units and whole numbers are read exactly: target_ 15ms, interval_ 200ms, quantum_ 3e2 -> [$q set target_] [$q set interval_] [$q set quantum_]"
Queue/FQCoDel set quantum_ 1514x
t::error_like {new Queue/FQCoDel} "*(Queue/FQCoDel): quantum_ must be *, got '1514x'*" "a bad class default is refused by new"
Queue/FQCoDel set quantum_ 1514
# interval_ > target_ joins two knobs: checked at "check" and "$ns run"
foreach {settings pat} {
    {interval_ 0.005} {*interval_ must be > target_, got interval_ 0.005, target_ 0.005*}
    {interval_ 0.001} {*interval_ must be > target_*}
} {
    lassign [lindex [t::subrun bad {*}$settings] 0] rc1 m1 rc2 m2
    t::check {$rc1 == 1 && [string match $pat $m1] && [string match *Queue/FQCoDel* $m1]} "$settings: check raises \"$m1\""
    t::check {$rc2 == 1 && [string match $pat $m2]} "$settings: \$ns run raises it before the first event"
}
lassign [lindex [t::subrun bad flows_ 1 quantum_ 1] 0] rc1 m1 rc2 m2
t::check {$rc1 == 0 && $rc2 == 0} "flows_ 1, quantum_ 1 are valid ($m1)"
t::done
