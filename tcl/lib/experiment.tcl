# experiment.tcl -- the shared Tcl library of every experiment (tcl/<paper>/<family>.tcl).
# Source it first:  source [file join [file dirname [info script]] .. lib experiment.tcl]
# It loads the other parts: argument parsing, simulator/seed set-up, topology builders,
# monitors and the result writer. Every name lives in the ::experiment namespace.

namespace eval ::experiment {
    variable libdir [file dirname [file normalize [info script]]]
}
foreach part {args sim topology queues monitors results} {
    source [file join $::experiment::libdir $part.tcl]
}
