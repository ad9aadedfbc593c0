# sim.tcl -- the simulator and its random numbers.
#
# experiment::sim_new SEED: a Simulator whose every random draw derives from SEED. ns-2's
# defaultRNG (used by RED, overhead_, Random::uniform in C++) and the Tcl-level ns-random
# are both seeded; experiments draw their own variates (start times, ...) from experiment::rng,
# a separate stream of the same seed, so adding a draw in Tcl does not shift the
# simulator's stream.
#
# Packet headers: ns-2 registers ~70 protocols' headers by default and zeroes all of them in
# every packet it allocates (Packet::init), which took 13-37 % of our runs' CPU. A Simulator
# made here registers only those our agents, sinks, sources and queues read
# (experiment::headers; the common header is always there). What a run computes is the same
# (tests/test_headers.py compares the papers' scenarios both ways, byte for byte); a new
# component that reads another header must add it here. experiment::all_headers 1 (set
# before sourcing an experiment) keeps ns-2's default set; experiment::headers set before
# sourcing replaces the list (tests).
namespace eval experiment {
    # IP: addresses, flow ids (queues, monitors); TCP, Flags (ECN): every TCP; RTP: UDP,
    # CBR, Poisson and LossMonitor; QS (Quick-Start) and NV (NixVector): their pointers are
    # taken for every TCP packet even when the feature is off
    if {![info exists headers]} { variable headers {IP TCP Flags RTP QS NV} }
    if {![info exists all_headers]} { variable all_headers 0 }
}

proc experiment::sim_new {seed} {
    if {![string is integer -strict $seed] || $seed < 1} {
        experiment::_fail "seed must be an integer >= 1 (got '$seed')"
    }
    if {!$::experiment::all_headers} {
        remove-all-packet-headers
        add-packet-header {*}$::experiment::headers
    }
    set ns [new Simulator]
    ns-random $seed
    global defaultRNG
    $defaultRNG seed $seed
    set ::experiment::rng_ [new RNG]
    $::experiment::rng_ seed [expr {($seed * 7919) % 2147483646 + 1}]
    set ::experiment::ns_ $ns
    return $ns
}

proc experiment::rng {} { return $::experiment::rng_ }

# A uniform variate on [lo, hi) from the experiment stream.
proc experiment::uniform {lo hi} {
    return [$::experiment::rng_ uniform $lo $hi]
}
