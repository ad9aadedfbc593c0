# The shared library's names for today's queues (tcl/lib/topology.tcl: experiment::gateway_class
# and experiment::gateway_setup for sfq, codel, fqcodel, pie). Checks:
#   - each name makes its ns-2 class, every knob reaches the queue, and the queue limit is
#     the link's buffer;
#   - a short run of two TCP flows and a UDP flood through each passes packets and drops
#     some (the buffer is small against the flood);
#   - a missing knob and a bad value stop the experiment with a message naming it, before
#     the simulation starts.
source [file join [file dirname [info script]] testlib.tcl]

set cases {
    sfq     SFQ     {sfq_buckets 32}                                   {buckets_ 32}
    codel   CoDel   {target 0.004 interval 0.08}                      {target_ 0.004 interval_ 0.08}
    fqcodel FQCoDel {target 0.004 interval 0.08 fq_quantum 1000 fq_flows 64} {target_ 0.004 interval_ 0.08 quantum_ 1000 flows_ 64}
    pie     PIE     {qdelay_ref 0.02 tupdate 0.03 max_burst 0.1 pie_alpha 0.1 pie_beta 1.5 mean_pktsize 500} {qdelay_ref_ 0.02 tupdate_ 0.03 max_burst_ 0.1 alpha_ 0.1 beta_ 1.5 mean_pktsize_ 500}
}

# one simulation per process: "run NAME KNOBS" in a child prints the class, the knobs read
# back, the limit, and packets delivered and dropped at the queue
if {[lindex $argv 0] eq "run"} {
    lassign $argv - name knobs
    lassign [dumbbell 1 [experiment::gateway_class $name] 30 1Mb] ns a b c
    set q [experiment::queue $b $c]
    experiment::gateway_setup $q $name $knobs
    set got {}
    foreach {k v} [lindex $argv 3] { lappend got $k [$q set $k] }
    set mon [$ns monitor-queue $b $c ""]
    foreach fid {1 2} {
        set tcp [$ns create-connection TCP/Sack1 $a TCPSink/Sack1 $c $fid]
        set ftp [$tcp attach-app FTP]
        $ns at 0.[expr {$fid}] "$ftp start"
    }
    lassign [udp_flow $a $c 3 0.8Mb] cbr sink
    $ns at 1.0 "$cbr start"
    $ns at 5.0 "$ns halt"
    $ns run
    puts "result [list [$q info class] $got [$q set limit_] [$mon set pdepartures_] [$mon set pdrops_]]"
    exit 0
}

foreach {name cls knobs want} $cases {
    lassign [t::subrun run $name $knobs $want] class got limit departed dropped
    t::check {$class eq "Queue/$cls"} "$name makes Queue/$cls (got $class)"
    set same 1
    foreach {k v} $want { if {[dict get $got $k] != $v} { set same 0 } }
    t::check {$same} "$name: every knob reaches the queue ($got)"
    t::check {$limit == 30} "$name: the queue limit is the link's buffer (limit_ $limit)"
    t::check {$departed > 300 && $dropped > 0} "$name: 5 s of 2 TCP flows and a UDP flood pass packets and drop some ($departed sent, $dropped dropped)"
}

# a bad setup stops the experiment (exit 2) with the message, before any event
proc bad_setup {name knobs} {
    set fh [open bad-$name.tcl w]
    puts $fh [string map [list @LIB@ [file join $::experiment::libdir experiment.tcl] @N@ $name @K@ $knobs] {
        source @LIB@
        set ns [experiment::sim_new 1]
        set a [$ns node]; set b [$ns node]
        experiment::duplex $a $b 1Mb 1ms [experiment::gateway_class @N@] 100
        experiment::gateway_setup [experiment::queue $a $b] @N@ {@K@}
        puts reached
    }]
    close $fh
    catch {exec [info nameofexecutable] bad-$name.tcl 2>@1} msg opts
    set rc [lindex [dict get $opts -errorcode] end]
    return [list $rc $msg]
}
foreach {name knobs pattern} {
    codel   {target 0 interval 0.1}                                  "*gateway codel:*target_ must be a time > 0*got '0'*"
    codel   {target 0.1 interval 0.05}                               "*gateway codel:*interval_ must be > target_*"
    codel   {target 0.005}                                           "*internal: codel knob 'interval' missing*"
    fqcodel {target 0.005 interval 0.1 fq_quantum 0 fq_flows 64}     "*gateway fqcodel:*quantum_ must be an integer >= 1 (bytes), got '0'*"
    fqcodel {target 0.005 interval 0.1 fq_quantum 1514 fq_flows 0}   "*gateway fqcodel:*flows_ must be an integer >= 1*got '0'*"
    pie     {qdelay_ref 0 tupdate 0.015 max_burst 0.15 pie_alpha 0.125 pie_beta 1.25 mean_pktsize 1000} "*gateway pie:*qdelay_ref_ must be a time > 0*got '0'*"
    sfq     {sfq_buckets 0}                                          "*sfq: sfq_buckets must be an integer >= 1*"
} {
    lassign [bad_setup $name $knobs] rc msg
    t::check {$rc == 2 && [string match $pattern $msg] && ![string match *reached* $msg]} \
        "$name {$knobs} stops the experiment: [string trim $msg]"
}
t::done
