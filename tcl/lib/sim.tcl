# sim.tcl -- the simulator and its random numbers.
#
# experiment::sim_new SEED: a Simulator whose every random draw derives from SEED. ns-2's
# defaultRNG (used by RED, overhead_, Random::uniform in C++) and the Tcl-level ns-random
# are both seeded; experiments draw their own variates (start times, ...) from experiment::rng,
# a separate stream of the same seed, so adding a draw in Tcl does not shift the
# simulator's stream.

proc experiment::sim_new {seed} {
    if {![string is integer -strict $seed] || $seed < 1} {
        experiment::_fail "seed must be an integer >= 1 (got '$seed')"
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
