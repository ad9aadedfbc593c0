# args.tcl -- key=value command-line parameters.
#
# An experiment declares every parameter it reads with ccr::param; none has a hidden
# default. ccr::parse_args then reads argv: an unknown key, a missing key or a value of
# the wrong type stops the run before anything is simulated, with a message naming the
# key. Values are read back with ccr::p.

namespace eval ::ccr {
    variable spec      ;# name -> {type help}
    variable order {}  ;# declaration order, for the summary
    variable P         ;# name -> value
    array set spec {}
    array set P {}
}

# ccr::param NAME TYPE HELP
#   TYPE: int, posint (> 0), nonneg (number >= 0), number, posnum (> 0), prob ([0,1]),
#         bool (true/false/0/1), or a list of allowed words {enum a b c}, or string.
proc ccr::param {name type help} {
    variable spec
    variable order
    set spec($name) [list $type $help]
    lappend order $name
}

proc ccr::_fail {msg} {
    puts stderr "error: $msg"
    exit 2
}

proc ccr::_check {name type value} {
    switch -- [lindex $type 0] {
        int     { set ok [string is integer -strict $value] ; set want "an integer" }
        posint  { set ok [expr {[string is integer -strict $value] && $value > 0}] ; set want "an integer > 0" }
        number  { set ok [string is double -strict $value] ; set want "a number" }
        nonneg  { set ok [expr {[string is double -strict $value] && $value >= 0}] ; set want "a number >= 0" }
        posnum  { set ok [expr {[string is double -strict $value] && $value > 0}] ; set want "a number > 0" }
        prob    { set ok [expr {[string is double -strict $value] && $value >= 0 && $value <= 1}] ; set want "a number in \[0, 1\]" }
        bool    { set ok [expr {$value in {true false 0 1}}] ; set want "true or false" }
        enum    { set ok [expr {$value in [lrange $type 1 end]}] ; set want "one of: [join [lrange $type 1 end] {, }]" }
        string  { set ok 1 ; set want "" }
        default { ccr::_fail "parameter '$name' declared with unknown type '$type'" }
    }
    if {!$ok} {
        ccr::_fail "parameter '$name' = '$value' is not $want"
    }
}

# ccr::parse_args ARGV -- fill ccr::P from key=value words; every declared key required.
proc ccr::parse_args {argv} {
    variable spec
    variable order
    variable P
    foreach word $argv {
        set eq [string first = $word]
        if {$eq < 1} {
            ccr::_fail "argument '$word' is not key=value"
        }
        set k [string range $word 0 [expr {$eq - 1}]]
        set v [string range $word [expr {$eq + 1}] end]
        if {![info exists spec($k)]} {
            ccr::_fail "unknown parameter '$k' (known: [join [lsort $order] {, }])"
        }
        if {[info exists P($k)]} {
            ccr::_fail "parameter '$k' given twice"
        }
        ccr::_check $k [lindex $spec($k) 0] $v
        set P($k) $v
    }
    set missing {}
    foreach k $order {
        if {![info exists P($k)]} { lappend missing $k }
    }
    if {[llength $missing] > 0} {
        ccr::_fail "missing parameter(s): [join $missing {, }]"
    }
}

# ccr::p NAME -- the value of a declared, parsed parameter.
proc ccr::p {name} {
    variable P
    if {![info exists P($name)]} {
        ccr::_fail "internal: parameter '$name' read but not declared"
    }
    return $P($name)
}

# ccr::require COND MESSAGE -- a cross-parameter check (e.g. minth < maxth).
proc ccr::require {cond msg} {
    if {![uplevel 1 [list expr $cond]]} {
        ccr::_fail $msg
    }
}

# The parameters as a flat list {k v k v ...} in declaration order.
proc ccr::params {} {
    variable order
    variable P
    set out {}
    foreach k $order { lappend out $k $P($k) }
    return $out
}
