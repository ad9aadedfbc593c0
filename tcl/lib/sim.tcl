# sim.tcl -- the simulator and its random numbers.
#
# ccr::sim_new SEED: a Simulator whose every random draw derives from SEED. ns-2's
# defaultRNG (used by RED, overhead_, Random::uniform in C++) and the Tcl-level ns-random
# are both seeded; experiments draw their own variates (start times, ...) from ccr::rng,
# a separate stream of the same seed, so adding a draw in Tcl does not shift the
# simulator's stream.

proc ccr::sim_new {seed} {
    if {![string is integer -strict $seed] || $seed < 1} {
        ccr::_fail "seed must be an integer >= 1 (got '$seed')"
    }
    set ns [new Simulator]
    ns-random $seed
    global defaultRNG
    $defaultRNG seed $seed
    set ::ccr::rng_ [new RNG]
    $::ccr::rng_ seed [expr {($seed * 7919) % 2147483646 + 1}]
    set ::ccr::ns_ $ns
    return $ns
}

proc ccr::rng {} { return $::ccr::rng_ }

# A uniform variate on [lo, hi) from the experiment stream.
proc ccr::uniform {lo hi} {
    return [$::ccr::rng_ uniform $lo $hi]
}
