# CoDel (Queue/CoDel, patch 0014; RFC 8289). Checks:
#   - decision replay: a real scenario (2 SACK flows, then on/off UDP floods through a
#     2 Mb/s CoDel bottleneck, limit 100 packets) writes the queue's decision trace
#     ("$q trace-decisions CHANNEL", format in queue/codel.cc); a plain Tcl model of the
#     RFC's pseudocode (codel-model.tcl) replays the arrivals and dequeue calls and must
#     make the same decision and reach the same state (sojourn, dropping, count, lastcount,
#     drop_next, first_above_time) at every event; every kind of decision must occur
#     often enough to matter; the trace's drops are exactly the drops ns-2's own queue
#     trace saw (they go through ns-2's drop path);
#   - standing delay: 6 long-lived SACK flows, 10 Mb/s, RTT ~80 ms, a buffer of 400
#     packets (~4 BDP): CoDel keeps the mean sojourn time over the second half near its
#     5 ms target, DropTail with the same buffer several times higher;
#   - bad parameters refused with a Tcl error naming the parameter and the value as typed,
#     where they are written, before and during the run (checked knobs, patch 0017).
source [file join [file dirname [info script]] testlib.tcl]
source [file join [file dirname [info script]] codel-model.tcl]

# s -(100 Mb/s, D1)-> r -(10 Mb/s, D2, QCLASS, LIMIT)-> d, and back d -> r -> s.
proc codel_net {seed qclass limit d1 d2} {
    set ns [experiment::sim_new $seed]
    set s [$ns node]; set r [$ns node]; set d [$ns node]
    experiment::duplex $s $r 100Mb $d1 DropTail 10000
    experiment::simplex $r $d 10Mb $d2 $qclass $limit
    experiment::simplex $d $r 10Mb $d2 DropTail 10000
    return [list $ns $s $r $d [experiment::queue $r $d]]
}

proc sack_flows {s d fids} {
    foreach fid $fids {
        lassign [experiment::tcp_flow $s $d sack $fid {window_ 10000 packetSize_ 1000}] tcp sink ftp
        $::experiment::ns_ at [experiment::uniform 0 1] "$ftp start"
    }
}

# Replay scenario, a 2 Mb/s CoDel bottleneck of 100 packets: 2 SACK flows over [0, 12] s
# (entries and exits with the TCP sawtooth, re-entries soon after an exit: count
# resumed, also from delta = 2), then floods of a UDP flow at 2x the link rate
# (1500-byte packets) separated by quiet gaps of 0.9 to 3 s, i.e. on both sides of RFC
# 8289's 16 INTERVALs after which a re-entry starts again from count 1; each flood
# starts with tail drops and holds CoDel in dropping state until count is high enough
# for several drops to fall due in one dequeue. Writes codel-decisions.tr (decision
# trace) and codel-queue.tr (ns-2's queue trace of the bottleneck); returns the
# parameters the model needs and the queue's counters.
proc scenario_replay {seed} {
    set ns [experiment::sim_new $seed]
    set s [$ns node]; set r [$ns node]; set d [$ns node]
    experiment::duplex $s $r 100Mb 5ms DropTail 10000
    experiment::simplex $r $d 2Mb 10ms CoDel 100
    experiment::simplex $d $r 2Mb 10ms DropTail 10000
    set q [experiment::queue $r $d]
    foreach fid {1 2} {
        lassign [experiment::tcp_flow $s $d sack $fid {window_ 10000 packetSize_ 1000}] tcp sink ftp
        $ns at [experiment::uniform 0 1] "$ftp start"
        $ns at 12.0 "$ftp stop"
    }
    lassign [udp_flow $s $d 9 4Mb 1500] cbr sink
    foreach {on off} {14 16.5  17.5 19  20.5 23  23.9 26  29 31  32.4 34  36 38} {
        $ns at $on "$cbr start"
        $ns at $off "$cbr stop"
    }
    t::run_traced $ns $q $r $d codel-decisions.tr codel-queue.tr 40.0
    return [list target [$q set target_] interval [$q set interval_] \
        maxpacket [$q set maxpacket_] limit [$q set limit_] \
        codel_drops [$q set codel_drops_] tail_drops [$q set tail_drops_]]
}

# Delay scenario: 6 SACK flows, RTT ~80 ms, 400-packet buffer, 40 s. Returns {mean
# sojourn (s) of the packets leaving the queue in [20, 40] s, their number, link
# utilization over [20, 40] s, drops over the run} measured from ns-2's queue trace
# ("+" to "-" of each packet), the same way for every queue class.
proc scenario_delay {qclass seed} {
    lassign [codel_net $seed $qclass 400 15ms 24ms] ns s r d q
    sack_flows $s $d {1 2 3 4 5 6}
    t::run_queue_traced $ns $r $d delay-queue.tr 40.0
    lassign [t::queue_waits delay-queue.tr 20.0] deps drops
    set n 0; set sum 0.0; set bytes 0
    foreach dep $deps {
        lassign $dep fid size w
        set sum [expr {$sum + $w}]
        incr n
        incr bytes $size
    }
    return [list [expr {$sum / $n}] $n [expr {$bytes * 8 / 20.0 / 10e6}] $drops]
}

proc scenario_bad {args} {
    lassign [codel_net 1 CoDel 100 1ms 1ms] ns s r d q
    foreach {knob value} $args { $q set $knob $value }
    set rc1 [catch {$q check} m1]
    set rc2 [catch {$ns run} m2]
    set rc3 [catch {$q trace-decisions nosuchchannel} m3]
    return [list $rc1 $m1 $rc2 $m2 $rc3 $m3]
}

switch -- [lindex $argv 0] {
    replay { puts "result [scenario_replay [lindex $argv 1]]"; exit 0 }
    delay  { puts "result [scenario_delay [lindex $argv 1] [lindex $argv 2]]"; exit 0 }
    bad    { puts "result [list [scenario_bad {*}[lrange $argv 1 end]]]"; exit 0 }
}

# --- decision replay ---------------------------------------------------------------------

# Replays FILE through the model; returns a dict of counts and the first mismatch.
proc replay {file par} {
    codelm::configure [dict get $par target] [dict get $par interval] [dict get $par maxpacket]
    set limit [dict get $par limit]
    codelm::init 0
    array set c {lines 0 enq 0 tail 0 drop 0 deq 0 empty 0 calls 0 entries 0 resumed 0
        fresh 0 exits 0 multi 0 maxcount 0 mismatch 0 tail_bad 0 small 0 expired 0 late_resumed 0 resumed2 0}
    set first ""
    set group {}
    set f [open $file]
    while {[gets $f line] >= 0} {
        incr c(lines)
        set fields [lassign $line t ev]
        incr c($ev)
        switch -- $ev {
            enq - tail {
                lassign $fields uid fid size
                # the model's buffer decision: tail drop iff limit packets are waiting
                set full [expr {[codelm::len 0] >= $limit}]
                if {$full != ($ev eq "tail")} {
                    incr c(tail_bad)
                    if {$first eq ""} { set first "line $c(lines): $line (model: full $full)" }
                }
                if {$ev eq "enq"} { codelm::push 0 $uid $fid $size $t }
                continue
            }
        }
        # drop/deq/empty: one dequeue call is its drop lines and the deq/empty that ends it
        lappend group [list $t $ev $fields $c(lines)]
        if {$ev eq "drop"} { continue }
        incr c(calls)
        lassign $fields - - - - qbytes sojourn
        if {$ev eq "deq" && $sojourn >= [dict get $par target] && $qbytes <= [dict get $par maxpacket]} { incr c(small) }
        set before [codelm::state 0]
        set model [codelm::dequeue 0 $t]
        set after [codelm::state 0]
        set ok [expr {[llength $model] == [llength $group]}]
        foreach m $model g $group {
            if {!$ok} { break }
            lassign $g gt gev gfields
            if {$gt != $t || ![codelm::same $m [list $gev {*}$gfields]]} { set ok 0 }
        }
        if {!$ok} {
            incr c(mismatch)
            if {$first eq ""} {
                set first "call ending at line $c(lines), t=$t: trace {[lmap g $group {lrange $g 1 2}]} model {$model}"
            }
        }
        # what happened in this call (from the model, = the trace when they agree)
        lassign $before d0 n0 l0 dn0
        lassign $after d1 n1
        if {!$d0 && $d1} {
            incr c(entries)
            # delta = count - lastcount of the last cycle; gap = now - drop_next, INTERVALs
            set delta [expr {$n0 - $l0}]
            set gap [expr {($t - $dn0) / [dict get $par interval]}]
            if {$n1 > 1} {
                incr c(resumed)
                if {$gap >= 10} { incr c(late_resumed) }
                if {$delta == 2} { incr c(resumed2) }
            } elseif {$delta > 1} {
                incr c(expired)
            } else {
                incr c(fresh)
            }
        }
        if {$d0 && !$d1} { incr c(exits) }
        if {[llength $model] > 2} { incr c(multi) }
        if {$n1 > $c(maxcount)} { set c(maxcount) $n1 }
        set group {}
    }
    close $f
    return [dict create {*}[array get c] first $first]
}

set par [t::subrun replay 2]
set r [replay codel-decisions.tr $par]
puts "replay counts: $r"
dict with r {
    t::check {$mismatch == 0 && $tail_bad == 0 && $first eq ""} \
        "replay: the RFC 8289 model makes the same decision and reaches the same state at all $calls dequeue calls and [expr {$enq + $tail}] arrivals (mismatches $mismatch, tail $tail_bad) $first"
    t::check {$drop >= 200} "replay: CoDel drops at dequeue ($drop)"
    t::check {$tail >= 20} "replay: tail drops at a full buffer ($tail)"
    t::check {$entries >= 10} "replay: entries into dropping state ($entries)"
    t::check {$resumed >= 10 && $resumed2 >= 3 && $fresh >= 5} \
        "replay: entries with count resumed from the last cycle ($resumed, from delta = 2: $resumed2) and with count 1 after a cycle of at most one drop ($fresh)"
    t::check {$late_resumed >= 1 && $expired >= 2} \
        "replay: re-entries with delta > 1 on both sides of 16 INTERVALs: resumed at 10-16 ($late_resumed), count 1 at >= 16 ($expired)"
    t::check {$exits >= 10} "replay: exits from dropping state ($exits)"
    t::check {$multi >= 3} "replay: dequeues with more than one drop (the while loop) ($multi)"
    t::check {$maxcount >= 5} "replay: count reached $maxcount (control law with sqrt(count) exercised)"
    t::check {$empty >= 10 && $deq >= 4000} "replay: $deq packets sent, $empty dequeues of an empty queue"
    t::check {$small >= 20} "replay: packets at or above target not counted as above it because at most maxpacket_ bytes stayed behind ($small)"
    t::check {$drop == [dict get $par codel_drops] && $tail == [dict get $par tail_drops]} \
        "replay: trace drops = the queue's counters codel_drops_ [dict get $par codel_drops], tail_drops_ [dict get $par tail_drops]"
}
# the decision trace's drops are ns-2's drops (same packets, same order)
lassign [t::drop_uids codel-decisions.tr {drop tail} codel-queue.tr] d1 d2
t::check {$d1 eq $d2 && [llength $d1] > 0} \
    "replay: the decision trace's [llength $d1] drops are the [llength $d2] drops of ns-2's queue trace (same uids, same order)"

# --- standing delay ----------------------------------------------------------------------
# CoDel's target bounds the sojourn time that persists for an interval (the minimum over
# each interval); the mean over all packets sits above it by the TCP sawtooth and the
# bursts CoDel lets through within an interval: a few ms above 5 ms with 6 flows. 2.5 ms
# is half the target (a queue kept well below target would mean CoDel over-drops and
# loses the link), 15 ms is three times the target (a far weaker control than the RFC's
# "persistent delay near target"). DropTail with a 400-packet buffer (~330 ms when full)
# fills to its limit again after every loss: its mean must be at least 5 times CoDel's.
lassign [t::subrun delay CoDel 2] dc nc uc drc
lassign [t::subrun delay DropTail 2] dd nd ud drd
puts [format "standing delay: CoDel mean sojourn %.2f ms (%d pkts, utilization %.3f, %d drops); DropTail %.2f ms (%d pkts, utilization %.3f, %d drops)" \
    [expr {$dc * 1000}] $nc $uc $drc [expr {$dd * 1000}] $nd $ud $drd]
t::between [format %.5f $dc] 0.0025 0.015 "CoDel: mean sojourn over \[20, 40\] s near the 5 ms target (s)"
t::check {$dd > 5 * $dc} "DropTail, same buffer: mean sojourn [format %.1f [expr {$dd * 1000}]] ms > 5 x CoDel's [format %.1f [expr {$dc * 1000}]] ms"
# CoDel's low delay must not come from an idle link
t::check {$uc > 0.9} "CoDel keeps the link busy (utilization [format %.3f $uc] > 0.9)"

# --- bad parameters ----------------------------------------------------------------------
# Every knob is a checked knob (patch 0017): a value that is not a number (a time for
# target_ and interval_) or is out of range is refused where it is written, with an error
# naming the knob and the value as typed -- before the run and during it.
t::knob_tests CoDel {
    limit_ 0  limit_ -1  limit_ abc  limit_ 1.5
    target_ 0  target_ -5ms  target_ 5x  target_ abc
    interval_ 0  interval_ -0.1  interval_ abc
    maxpacket_ -1  maxpacket_ abc
} {
    limit_ 0  limit_ abc  target_ 0  target_ abc  interval_ 0  interval_ 100x
} {target_ 0}
set q [new Queue/CoDel]
$q set target_ 15ms
$q set interval_ 0.2s
$q set limit_ 1e3
t::check {[$q set target_] == 0.015 && [$q set interval_] == 0.2 && [$q set limit_] == 1000} \
    "ns-2 time units and whole numbers are read exactly: target_ 15ms, interval_ 0.2s, limit_ 1e3 -> [$q set target_] [$q set interval_] [$q set limit_]"
Queue/CoDel set target_ 5x
t::error_like {new Queue/CoDel} "*(Queue/CoDel): target_ must be *, got '5x'*" "a bad class default is refused by new"
Queue/CoDel set target_ 0.005
# interval_ > target_ joins two knobs: checked at "check" and "$ns run" (knobs are set one
# at a time before the run, in any order), and during the run at every write
foreach {settings pat} {
    {interval_ 0.005} {*interval_ must be > target_, got interval_ 0.005, target_ 0.005*}
    {interval_ 0.001} {*interval_ must be > target_*}
} {
    lassign [lindex [t::subrun bad {*}$settings] 0] rc1 m1 rc2 m2
    t::check {$rc1 == 1 && [string match $pat $m1] && [string match *Queue/CoDel* $m1]} "$settings: check raises \"$m1\""
    t::check {$rc2 == 1 && [string match $pat $m2]} "$settings: \$ns run raises it before the first event"
}
set r [t::knob_during CoDel interval_ 0.001]
t::check {[dict get $r exit] == 0 && [dict get $r rc] == 1 && [string match "*interval_ must be > target_*" [dict get $r msg]] && [dict get $r after] == 0.1} \
    "interval_ 0.001 (< target_) set during the run: refused, interval_ kept ([dict get $r out])"
lassign [lindex [t::subrun bad target_ 0.01 interval_ 0.2] 0] rc1 m1 rc2 m2 rc3 m3
t::check {$rc1 == 0 && $rc2 == 0} "target_ 10 ms, interval_ 200 ms are valid ($m1)"
t::check {$rc3 == 1 && [string match "*trace-decisions nosuchchannel*" $m3]} "trace-decisions on a bad channel raises an error ($m3)"
t::done
