# testlib.tcl -- assertions for the Tcl tests of our ns-2 classes (tcl/tests/test-*.tcl).
# Each test script: source this file, make checks, end with t::done (exit status 0 only
# if every check passed). tcl/tests/run.sh runs them all and counts.
source [file join [file dirname [info script]] .. lib ccr.tcl]

namespace eval ::t {
    variable passed 0
    variable failed 0
}

proc t::check {cond desc} {
    if {[uplevel 1 [list expr $cond]]} {
        incr ::t::passed
        puts "ok   $desc"
    } else {
        incr ::t::failed
        puts "FAIL $desc"
    }
}

# t::near A B TOL DESC -- |A - B| <= TOL
proc t::near {a b tol desc} {
    set ok [expr {abs($a - $b) <= $tol}]
    t::check $ok "$desc ($a vs $b, tol $tol)"
}

# t::between X LO HI DESC -- LO <= X <= HI
proc t::between {x lo hi desc} {
    t::check [expr {$x >= $lo && $x <= $hi}] "$desc ($x in \[$lo, $hi\])"
}

# t::error_like SCRIPT PATTERN DESC -- SCRIPT raises a Tcl error whose message matches PATTERN
proc t::error_like {script pattern desc} {
    set rc [catch {uplevel 1 $script} msg]
    t::check [expr {$rc == 1 && [string match $pattern $msg]}] "$desc (error: $msg)"
}

# ns-2 supports one Simulator per process: a test that needs several simulations runs
# each in a child ns process. t::subrun ARGS runs this test script again with ARGS (the
# script checks $argv for them first) and returns what the child printed last.
proc t::subrun {args} {
    set out [exec [info nameofexecutable] $::t::script {*}$args 2>@1]
    return [lindex [split [string trim $out] \n] end]
}
set ::t::script [file normalize $::argv0]

proc t::done {} {
    puts "[file tail [info script]]: $::t::passed passed, $::t::failed failed"
    exit [expr {$::t::failed > 0 || $::t::passed == 0}]
}
