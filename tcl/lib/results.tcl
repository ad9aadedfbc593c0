# results.tcl -- the result writer.
#
# A run writes into the folder given by out=: whitespace tables (name.tsv, a '#'-header
# line of column names, then rows) and summary.json, which echoes every parameter, the
# ns binary's identity and the run's own numbers. Everything is written under a
# '.partial' name and renamed only when the run finishes, summary.json last: a killed
# run never leaves a file that looks complete.

namespace eval ::experiment {
    variable tables  ;# name -> channel
    array set tables {}
    variable t0_wall [clock milliseconds]
}

# Parameters every experiment has.
experiment::param seed  posint "seed of every random stream of the run"
experiment::param out   string "output folder"
experiment::param ns_id string "identity of the ns binary (sha256 of ns and of the patch series)"

proc experiment::_outdir {} {
    set d [experiment::p out]
    file mkdir $d
    return $d
}

# experiment::table_open NAME COLUMNS -- start table NAME with the given column names.
proc experiment::table_open {name columns} {
    variable tables
    set path [file join [experiment::_outdir] $name.tsv.partial]
    set ch [open $path w]
    fconfigure $ch -translation lf
    puts $ch "# [join $columns { }]"
    set tables($name) $ch
}

proc experiment::row {name values} {
    variable tables
    puts $tables($name) [join $values " "]
}

proc experiment::_json_value {v} {
    if {[regexp {^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$} $v]} {
        return $v
    }
    if {$v in {true false}} { return $v }
    set s [string map [list \\ \\\\ \" \\\" \n \\n \t \\t \r \\r] $v]
    return "\"$s\""
}

proc experiment::_json_object {kvs indent} {
    set pad [string repeat " " $indent]
    set items {}
    foreach {k v} $kvs {
        lappend items "$pad  [experiment::_json_value $k]: [experiment::_json_value $v]"
    }
    if {[llength $items] == 0} { return "{}" }
    return "\{\n[join $items ",\n"]\n$pad\}"
}

# experiment::finish SCRIPT_NAME RESULTS -- close the tables, write summary.json (RESULTS is a
# flat {key value ...} list of the run's own numbers), rename everything into place.
proc experiment::finish {script results} {
    variable tables
    set d [experiment::_outdir]
    experiment::topology_tables
    set names [lsort [array names tables]]
    foreach name $names {
        close $tables($name)
    }
    set wall [expr {([clock milliseconds] - $::experiment::t0_wall) / 1000.0}]
    set ns_info [list version [ns-version] id [experiment::p ns_id] binary [file tail [info nameofexecutable]]]
    set path [file join $d summary.json.partial]
    set ch [open $path w]
    fconfigure $ch -translation lf
    puts $ch "\{"
    puts $ch "  \"complete\": true,"
    puts $ch "  \"script\": [experiment::_json_value $script],"
    puts $ch "  \"ns\": [experiment::_json_object $ns_info 2],"
    # every parameter but out= (where the summary is): same config and seed, same bytes
    set echoed {}
    foreach {k v} [experiment::params] { if {$k ne "out"} { lappend echoed $k $v } }
    puts $ch "  \"params\": [experiment::_json_object $echoed 2],"
    puts $ch "  \"tables\": \[[join [lmap n $names {experiment::_json_value $n}] {, }]\],"
    puts $ch "  \"results\": [experiment::_json_object $results 2],"
    puts $ch "  \"sim_time_s\": [$::experiment::ns_ now]"
    puts $ch "\}"
    close $ch
    foreach name $names {
        file rename -force [file join $d $name.tsv.partial] [file join $d $name.tsv]
    }
    file rename -force $path [file join $d summary.json]
    # wall-clock time goes to stderr, not into the results: results must be byte-identical
    puts stderr "experiment: $script done in ${wall} s wall, [$::experiment::ns_ now] s simulated"
}
