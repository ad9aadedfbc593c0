# args.tcl -- key=value command-line parameters.
#
# An experiment declares every parameter it reads with experiment::param; none has a hidden
# default. experiment::parse_args then reads argv: an unknown key, a missing key or a value of
# the wrong type stops the run before anything is simulated, with a message naming the
# key. Values are read back with experiment::p.

namespace eval ::experiment {
    variable spec      ;# name -> {type help}
    variable order {}  ;# declaration order, for the summary
    variable P         ;# name -> value
    array set spec {}
    array set P {}
}

# experiment::param NAME TYPE HELP
#   TYPE: int, posint (> 0), nonneg (number >= 0), number, posnum (> 0), prob ([0,1]),
#         bool (true/false/0/1), or a list of allowed words {enum a b c}, or string.
proc experiment::param {name type help} {
    variable spec
    variable order
    set spec($name) [list $type $help]
    lappend order $name
}

proc experiment::_fail {msg} {
    puts stderr "error: $msg"
    exit 2
}

proc experiment::_check {name type value} {
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
        default { experiment::_fail "parameter '$name' declared with unknown type '$type'" }
    }
    if {!$ok} {
        experiment::_fail "parameter '$name' = '$value' is not $want"
    }
}

# experiment::parse_args ARGV -- fill experiment::P from key=value words; every declared key required.
proc experiment::parse_args {argv} {
    variable spec
    variable order
    variable P
    foreach word $argv {
        set eq [string first = $word]
        if {$eq < 1} {
            experiment::_fail "argument '$word' is not key=value"
        }
        set k [string range $word 0 [expr {$eq - 1}]]
        set v [string range $word [expr {$eq + 1}] end]
        if {![info exists spec($k)]} {
            experiment::_fail "unknown parameter '$k' (known: [join [lsort $order] {, }])"
        }
        if {[info exists P($k)]} {
            experiment::_fail "parameter '$k' given twice"
        }
        experiment::_check $k [lindex $spec($k) 0] $v
        set P($k) $v
    }
    set missing {}
    foreach k $order {
        if {![info exists P($k)]} { lappend missing $k }
    }
    if {[llength $missing] > 0} {
        experiment::_fail "missing parameter(s): [join $missing {, }]"
    }
}

# experiment::p NAME -- the value of a declared, parsed parameter.
proc experiment::p {name} {
    variable P
    if {![info exists P($name)]} {
        experiment::_fail "internal: parameter '$name' read but not declared"
    }
    return $P($name)
}

# experiment::require COND MESSAGE -- a check on values the script computes (a Tcl expr in
# the caller's scope); a limit between parameters alone is an experiment::limit.
proc experiment::require {cond msg} {
    if {![uplevel 1 [list expr $cond]]} {
        experiment::_fail $msg
    }
}

# experiment::limit NAME EXPR MESSAGE -- a limit between parameters, declared once: the
# workflow reads these lines too (analysis/config.py, family_limits) and checks every run
# before any starts. EXPR names parameters bare and uses only numbers, "strings", ( ), int(),
# + - * /, comparisons, && || ! (the same in Tcl and in the workflow's reader); MESSAGE
# names a parameter's value as {name}.
proc experiment::limit {name cond msg} {
    variable P
    set tcl ""
    foreach tok [regexp -all -inline {"[^"]*"|[A-Za-z_][A-Za-z0-9_]*|[^A-Za-z_"]+} $cond] {
        if {[regexp {^[A-Za-z_]} $tok] && $tok ne "int"} {
            experiment::p $tok  ;# a name that is not a parameter fails here
            append tcl "\$::experiment::P($tok)"
        } else {
            append tcl $tok
        }
    }
    if {![expr $tcl]} {
        set values {}
        foreach k [array names P] { lappend values "{$k}" $P($k) }
        experiment::_fail [string map $values $msg]
    }
}

# The parameters as a flat list {k v k v ...} in declaration order.
proc experiment::params {} {
    variable order
    variable P
    set out {}
    foreach k $order { lappend out $k $P($k) }
    return $out
}
