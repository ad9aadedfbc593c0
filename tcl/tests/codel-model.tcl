# codel-model.tcl -- a plain Tcl model of the CoDel controller of RFC 8289 (Sec. 5, its
# pseudocode), independent of the C++ (queue/codel.cc), for the decision replays of
# test-codel.tcl and test-fqcodel.tcl (sourced by both; not a test itself).
#
# A model queue ID holds a FIFO of {uid fid size tstamp} and the controller state of
# Sec. 5.3: first_above_time, drop_next, count, lastcount, dropping. Parameters:
# codelm::configure TARGET INTERVAL MAXPACKET (seconds, seconds, bytes).
#
# codelm::dequeue ID NOW runs one dequeue (Sec. 5.5) and returns its events, each
#   {kind uid fid size qlen qbytes sojourn dropping count lastcount drop_next first_above}
# kind drop (a packet CoDel drops; the state at the moment of the drop), then one deq
# (the packet sent) or empty (no packet); the state of the last event is the state after
# the call. These are the fields of the C++ decision trace (queue/codel.cc) after "ev".

namespace eval codelm {
    variable target 0.005
    variable interval 0.1
    variable maxpacket 1500
    variable Q                  ;# ID,h ID,t ID,bytes ID,<i> = {uid fid size tstamp}
    variable S                  ;# ID,fat ID,dn ID,count ID,last ID,dropping
}

proc codelm::configure {target interval maxpacket} {
    set codelm::target $target
    set codelm::interval $interval
    set codelm::maxpacket $maxpacket
}

proc codelm::init {id} {
    variable Q; variable S
    set Q($id,h) 0; set Q($id,t) 0; set Q($id,bytes) 0
    set S($id,fat) 0.0; set S($id,dn) 0.0; set S($id,count) 0; set S($id,last) 0
    set S($id,dropping) 0
}

proc codelm::push {id uid fid size now} {
    variable Q
    set Q($id,$Q($id,t)) [list $uid $fid $size $now]
    incr Q($id,t)
    incr Q($id,bytes) $size
}

proc codelm::len {id} { variable Q; return [expr {$Q($id,t) - $Q($id,h)}] }
proc codelm::bytes {id} { variable Q; return $Q($id,bytes) }

# remove and return the head {uid fid size tstamp}, or {} when empty
proc codelm::pop {id} {
    variable Q
    if {$Q($id,h) == $Q($id,t)} { return {} }
    set i $Q($id,h)
    set pkt $Q($id,$i)
    unset Q($id,$i)
    incr Q($id,h)
    incr Q($id,bytes) -[lindex $pkt 2]
    return $pkt
}

proc codelm::state {id} {
    variable S
    return [list $S($id,dropping) $S($id,count) $S($id,last) $S($id,dn) $S($id,fat)]
}

proc codelm::event {id kind pkt sojourn} {
    if {[llength $pkt] == 0} { set pkt {-1 -1 0 0} }
    lassign $pkt uid fid size
    return [list $kind $uid $fid $size [codelm::len $id] [codelm::bytes $id] $sojourn {*}[codelm::state $id]]
}

# Sec. 5.6 dodequeue: {pkt ok_to_drop sojourn}
proc codelm::dodequeue {id now} {
    variable S
    set pkt [codelm::pop $id]
    if {[llength $pkt] == 0} {
        set S($id,fat) 0.0
        return [list {} 0 -1.0]
    }
    set sojourn [expr {$now - [lindex $pkt 3]}]
    set ok 0
    if {$sojourn < $codelm::target || [codelm::bytes $id] <= $codelm::maxpacket} {
        set S($id,fat) 0.0
    } elseif {$S($id,fat) == 0.0} {
        set S($id,fat) [expr {$now + $codelm::interval}]
    } elseif {$now >= $S($id,fat)} {
        set ok 1
    }
    return [list $pkt $ok $sojourn]
}

# Sec. 5.6 control_law: t + INTERVAL / sqrt(count)
proc codelm::control_law {t count} {
    return [expr {$t + $codelm::interval / sqrt(double($count))}]
}

# Sec. 5.5 dequeue
proc codelm::dequeue {id now} {
    variable S
    set ev {}
    lassign [codelm::dodequeue $id $now] pkt ok sojourn
    if {$S($id,dropping)} {
        if {!$ok} { set S($id,dropping) 0 }
        while {$now >= $S($id,dn) && $S($id,dropping)} {
            lappend ev [codelm::event $id drop $pkt $sojourn]
            incr S($id,count)
            lassign [codelm::dodequeue $id $now] pkt ok sojourn
            if {!$ok} {
                set S($id,dropping) 0
            } else {
                set S($id,dn) [codelm::control_law $S($id,dn) $S($id,count)]
            }
        }
    } elseif {$ok} {
        lappend ev [codelm::event $id drop $pkt $sojourn]
        lassign [codelm::dodequeue $id $now] pkt ok sojourn
        set S($id,dropping) 1
        set delta [expr {$S($id,count) - $S($id,last)}]
        set S($id,count) 1
        if {$delta > 1 && $now - $S($id,dn) < 16 * $codelm::interval} {
            set S($id,count) $delta
        }
        set S($id,dn) [codelm::control_law $now $S($id,count)]
        set S($id,last) $S($id,count)
    }
    lappend ev [codelm::event $id [expr {[llength $pkt] ? "deq" : "empty"}] $pkt $sojourn]
    return $ev
}

# codelm::same EV FIELDS -- compare a model event with the trace fields (same layout;
# numbers compared exactly: the trace prints doubles with 17 significant digits)
proc codelm::same {ev fields} {
    if {[llength $ev] != [llength $fields]} { return 0 }
    foreach a $ev b $fields {
        if {$a ne $b && !([string is double -strict $a] && [string is double -strict $b] && $a == $b)} {
            return 0
        }
    }
    return 1
}
