# results.tcl -- the result writer.
#
# A run writes into the folder given by out=: whitespace tables (name.tsv, a '#'-header
# line of column names, then rows) and summary.json, which echoes every parameter, the
# ns binary's identity and the run's own numbers. Everything is written under a
# '.partial' name and renamed only when the run finishes, summary.json last: a killed
# run never leaves a file that looks complete.

namespace eval ::ccr {
    variable tables  ;# name -> channel
    array set tables {}
    variable t0_wall [clock milliseconds]
}

# Parameters every experiment has.
ccr::param seed  posint "seed of every random stream of the run"
ccr::param out   string "output folder"
ccr::param ns_id string "identity of the ns binary (sha256 of ns and of the patch series)"

proc ccr::_outdir {} {
    set d [ccr::p out]
    file mkdir $d
    return $d
}

# ccr::table_open NAME COLUMNS -- start table NAME with the given column names.
proc ccr::table_open {name columns} {
    variable tables
    set path [file join [ccr::_outdir] $name.tsv.partial]
    set ch [open $path w]
    fconfigure $ch -translation lf
    puts $ch "# [join $columns { }]"
    set tables($name) $ch
}

proc ccr::row {name values} {
    variable tables
    puts $tables($name) [join $values " "]
}

proc ccr::_json_value {v} {
    if {[regexp {^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$} $v]} {
        return $v
    }
    if {$v in {true false}} { return $v }
    set s [string map [list \\ \\\\ \" \\\" \n \\n \t \\t \r \\r] $v]
    return "\"$s\""
}

proc ccr::_json_object {kvs indent} {
    set pad [string repeat " " $indent]
    set items {}
    foreach {k v} $kvs {
        lappend items "$pad  [ccr::_json_value $k]: [ccr::_json_value $v]"
    }
    if {[llength $items] == 0} { return "{}" }
    return "\{\n[join $items ",\n"]\n$pad\}"
}

# ccr::finish SCRIPT_NAME RESULTS -- close the tables, write summary.json (RESULTS is a
# flat {key value ...} list of the run's own numbers), rename everything into place.
proc ccr::finish {script results} {
    variable tables
    set d [ccr::_outdir]
    ccr::topology_tables
    set names [lsort [array names tables]]
    foreach name $names {
        close $tables($name)
    }
    set wall [expr {([clock milliseconds] - $::ccr::t0_wall) / 1000.0}]
    set ns_info [list version [ns-version] id [ccr::p ns_id] binary [file tail [info nameofexecutable]]]
    set path [file join $d summary.json.partial]
    set ch [open $path w]
    fconfigure $ch -translation lf
    puts $ch "\{"
    puts $ch "  \"complete\": true,"
    puts $ch "  \"script\": [ccr::_json_value $script],"
    puts $ch "  \"ns\": [ccr::_json_object $ns_info 2],"
    # every parameter but out= (where the summary is): same config and seed, same bytes
    set echoed {}
    foreach {k v} [ccr::params] { if {$k ne "out"} { lappend echoed $k $v } }
    puts $ch "  \"params\": [ccr::_json_object $echoed 2],"
    puts $ch "  \"tables\": \[[join [lmap n $names {ccr::_json_value $n}] {, }]\],"
    puts $ch "  \"results\": [ccr::_json_object $results 2],"
    puts $ch "  \"sim_time_s\": [$::ccr::ns_ now]"
    puts $ch "\}"
    close $ch
    foreach name $names {
        file rename -force [file join $d $name.tsv.partial] [file join $d $name.tsv]
    }
    file rename -force $path [file join $d summary.json]
    # wall-clock time goes to stderr, not into the results: results must be byte-identical
    puts stderr "ccr: $script done in ${wall} s wall, [$::ccr::ns_ now] s simulated"
}
