# testlib.tcl -- assertions for the Tcl tests of our ns-2 classes (tcl/tests/test-*.tcl).
# Each test script: source this file, make checks, end with t::done (exit status 0 only
# if every check passed). tcl/tests/run.sh runs them all and counts.
source [file join [file dirname [info script]] .. lib experiment.tcl]

namespace eval ::t {
    variable passed 0
    variable failed 0
    variable lib [file normalize [info script]]
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
    # the last line that starts with "result " (C code may print after Tcl's last puts:
    # TCP-Linux echoes its commands), else the last line
    set lines [split [string trim $out] \n]
    set i [lsearch -all -glob $lines "result *"]
    if {[llength $i] > 0} { return [string range [lindex $lines [lindex $i end]] 7 end] }
    return [lindex $lines end]
}
set ::t::script [file normalize $::argv0]

# t::run_traced NS Q FROM TO DECISIONS QUEUE_TRACE STOP -- run NS until STOP with queue Q's
# decision trace ("$q trace-decisions CHANNEL") in the file DECISIONS and ns-2's queue trace
# of the link FROM -> TO in QUEUE_TRACE
proc t::run_traced {ns q from to decisions queue_trace stop} {
    set tf [open $decisions w]
    $q trace-decisions $tf
    set qf [open $queue_trace w]
    $ns trace-queue $from $to $qf
    $ns at $stop "$ns halt"
    $ns run
    close $tf
    close $qf
}

# t::run_queue_traced NS FROM TO QUEUE_TRACE STOP -- run NS until STOP with ns-2's queue trace
# of the link FROM -> TO in QUEUE_TRACE
proc t::run_queue_traced {ns from to queue_trace stop} {
    set qf [open $queue_trace w]
    $ns trace-queue $from $to $qf
    $ns at $stop "$ns halt"
    $ns run
    close $qf
}

# t::queue_waits QUEUE_TRACE T0 -- from ns-2's queue trace: {fid bytes wait} of every packet
# that left the queue at or after T0 (wait: from its '+' to its '-' line) and the number of
# drops over the whole trace: {departures drops}
proc t::queue_waits {queue_trace t0} {
    set f [open $queue_trace]
    array set in {}
    set out {}; set drops 0
    while {[gets $f line] >= 0} {
        lassign $line ev t from to type size flags fid src dst seq uid
        switch -- $ev {
            + { set in($uid) $t }
            - {
                if {$t >= $t0} { lappend out [list $fid $size [expr {$t - $in($uid)}]] }
                unset in($uid)
            }
            d { incr drops; unset -nocomplain in($uid) }
        }
    }
    close $f
    return [list $out $drops]
}

# t::drop_uids DECISIONS EVENTS QUEUE_TRACE -- the packet uids a queue's decision trace
# drops (lines whose 2nd field is one of EVENTS, uid 3rd) and those ns-2's own queue trace
# drops ('d' lines, uid last), each in order: {decision-uids queue-trace-uids}
proc t::drop_uids {decisions events queue_trace} {
    set out {}
    foreach {file match} [list $decisions {[lindex $line 1] in $events} \
                              $queue_trace {[lindex $line 0] eq "d"}] {
        set uids {}
        set f [open $file]
        while {[gets $f line] >= 0} {
            if $match { lappend uids [expr {$file eq $decisions ? [lindex $line 2] : [lindex $line end]}] }
        }
        close $f
        lappend out $uids
    }
    return $out
}

proc t::done {} {
    puts "[file tail [info script]]: $::t::passed passed, $::t::failed failed"
    exit [expr {$::t::failed > 0 || $::t::passed == 0}]
}

# --- scenario helpers shared by the tests of the queue classes -------------------------

# Three nodes: sources a -> b -> c sinks; the queue under test on b -> c.
proc dumbbell {seed qclass limit bw} {
    set ns [experiment::sim_new $seed]
    set a [$ns node]; set b [$ns node]; set c [$ns node]
    experiment::duplex $a $b 100Mb 1ms DropTail 10000
    experiment::simplex $b $c $bw 1ms $qclass $limit
    experiment::simplex $c $b $bw 1ms DropTail 10000
    return [list $ns $a $b $c]
}

# A CBR/UDP flow a -> c into a LossMonitor; returns {cbr sink}.
proc udp_flow {a c fid rate {size 1000}} {
    set ns $::experiment::ns_
    set u [new Agent/UDP]; $u set fid_ $fid; $u set packetSize_ $size
    set s [new Agent/LossMonitor]
    $ns attach-agent $a $u; $ns attach-agent $c $s; $ns connect $u $s
    set cbr [new Application/Traffic/CBR]
    $cbr attach-agent $u
    $cbr set packetSize_ $size
    $cbr set rate_ $rate
    $cbr set random_ 1
    return [list $cbr $s]
}

# Read a queue trace; rebuild the queue and group every drop with the arrival it follows.
# Returns a dict: arrivals, stray (drops not right after an arrival), events (one per
# arrival: {fid q n_same ok nvictims p_dropped}, q and n_same = packets waiting and those
# of the arrival's flow as it arrived; ok = every other packet dropped with it was waiting
# and of its flow), drops_by_fid.
proc analyse_trace {file} {
    set fh [open $file]
    set queued [dict create]      ;# uid -> fid, packets waiting (not in transmission)
    array set nf {}               ;# fid -> packets of that flow waiting
    set events {}
    set stray 0
    set arrivals 0
    array set dropsf {}
    set cur {}                    ;# the open arrival: {uid fid q n_same ok nvictims p_dropped}
    while {[gets $fh line] >= 0} {
        lassign $line ev t from to type size flags fid src dst seq uid
        if {$ev ne "d" && [llength $cur] > 0} { lappend events [lrange $cur 1 end]; set cur {} }
        switch -- $ev {
            + {
                incr arrivals
                set nsame [expr {[info exists nf($fid)] ? $nf($fid) : 0}]
                set cur [list $uid $fid [dict size $queued] $nsame 1 0 0]
                dict set queued $uid $fid
                incr nf($fid)
            }
            d {
                if {[llength $cur] == 0} {
                    incr stray
                } elseif {$uid == [lindex $cur 0]} {
                    lset cur 6 [expr {[lindex $cur 6] + 1}]
                } else {
                    lset cur 5 [expr {[lindex $cur 5] + 1}]
                    if {$fid != [lindex $cur 1] || ![dict exists $queued $uid]} { lset cur 4 0 }
                }
                if {[dict exists $queued $uid]} { dict unset queued $uid; incr nf($fid) -1 }
                incr dropsf($fid)
            }
            - {
                if {[dict exists $queued $uid]} { dict unset queued $uid; incr nf($fid) -1 }
            }
        }
    }
    if {[llength $cur] > 0} { lappend events [lrange $cur 1 end] }
    close $fh
    return [dict create arrivals $arrivals stray $stray events $events drops_by_fid [array get dropsf]]
}

# ln C(n, k)
proc lnchoose {n k} {
    if {$k < 0 || $k > $n} { return -inf }
    set s 0.0
    for {set i 0} {$i < $k} {incr i} { set s [expr {$s + log(double($n - $i) / ($k - $i))}] }
    return $s
}

# An ECN-capable constant-rate source: a TCP sender used only as a packetizer (no
# ACKs ever come back, the window never limits it) driven by a CBR application, so its
# packets carry ECT and leave at exactly the CBR times. Returns the CBR.
proc ect_cbr {src dst fid interval start} {
    set ns $::experiment::ns_
    set tcp [new Agent/TCP]
    experiment::set_knobs $tcp {ecn_ 1 syn_ false delay_growth_ false windowInit_ 100000
        window_ 100000 packetSize_ 1000 rtxcur_init_ 100 maxrto_ 100}
    $tcp set fid_ $fid
    set null [new Agent/Null]
    $ns attach-agent $src $tcp
    $ns attach-agent $dst $null
    $ns connect $tcp $null
    set cbr [new Application/Traffic/CBR]
    $cbr attach-agent $tcp
    $cbr set packetSize_ 1000
    $cbr set interval_ $interval
    $ns at $start "$cbr start"
    return $cbr
}

# red_equiv_drops CLS KNOBS -- RED-family gateway CLS (experiment::gateway_setup KNOBS) on a 1 Mb/s
# dumbbell with a 30-packet buffer; 2500 arrivals at random times (2x the link rate), every
# packet its own flow (one UDP agent whose fid_ changes before each send). Returns the uids
# of the dropped packets (trace order). With k >= the buffer, CHOKe-like queues can match
# nothing and draw nothing: they must drop exactly what Queue/RED drops.
proc red_equiv_drops {cls knobs} {
    lassign [dumbbell 3 [experiment::gateway_class $cls] 30 1Mb] ns a b c
    experiment::gateway_setup [experiment::queue $b $c] $cls $knobs
    set tf [open trace.tr w]
    $ns trace-queue $b $c $tf
    set u [new Agent/UDP]; set s [new Agent/Null]
    $ns attach-agent $a $u; $ns attach-agent $c $s; $ns connect $u $s
    set t 0.0
    for {set i 1} {$i <= 2500} {incr i} {
        set t [expr {$t + [experiment::uniform 0 0.008]}]
        $ns at $t "$u set fid_ $i; $u send 1000"
    }
    $ns at [expr {$t + 1}] "$ns halt"
    $ns run
    close $tf
    return [trace_drops trace.tr end]
}

# trace_drops FILE FIELDS -- the drop events ("d" lines) of ns-2 queue trace FILE, in trace
# order, each as the list of the given fields (indexes into the line; one field: its value).
proc trace_drops {file fields} {
    set drops {}
    set fh [open $file]
    while {[gets $fh line] >= 0} {
        if {[lindex $line 0] ne "d"} { continue }
        set d [lmap i $fields { lindex $line $i }]
        lappend drops [expr {[llength $fields] == 1 ? [lindex $d 0] : $d}]
    }
    close $fh
    return $drops
}

# udp_tcp_net CLS SEED LIMIT KNOBS -- one UDP flow at 3 Mb/s (fid 1, from t = 0) and 8 SACK
# flows (fids 2-9, starting in U[0, 1] s) through gateway CLS (LIMIT packets,
# experiment::gateway_setup KNOBS) on a 2 Mb/s dumbbell, with a flow monitor on the gateway.
# Returns {ns a b c fm}; the caller schedules the end and runs.
proc udp_tcp_net {cls seed limit knobs} {
    lassign [dumbbell $seed [experiment::gateway_class $cls] $limit 2Mb] ns a b c
    experiment::gateway_setup [experiment::queue $b $c] $cls $knobs
    set fm [experiment::flowmon $b $c]
    lassign [udp_flow $a $c 1 3Mb] cbr s
    $ns at 0.0 "$cbr start"
    for {set i 2} {$i <= 9} {incr i} {
        lassign [experiment::tcp_flow $a $c sack $i {window_ 1000 packetSize_ 1000}] tcp sink ftp
        $ns at [experiment::uniform 0 1] "$ftp start"
    }
    return [list $ns $a $b $c $fm]
}

# udp_vs_tcp CLS SEED LIMIT KNOBS -- udp_tcp_net (Gao's Simulation 2.1 in small). Returns
# {udp tcp}: packets of the UDP flow and of all TCP flows departing the gateway over
# [10, 40] s.
proc udp_vs_tcp {cls seed limit knobs} {
    lassign [udp_tcp_net $cls $seed $limit $knobs] ns a b c fm
    set ::mark {}
    $ns at 10.0 [list apply {{fm} { set ::mark [experiment::flow_counts $fm {1 2 3 4 5 6 7 8 9}] }} $fm]
    $ns at 40.0 [list apply {{fm} {
        array set m0 $::mark
        array set m1 [experiment::flow_counts $fm {1 2 3 4 5 6 7 8 9}]
        set udp [expr {[lindex $m1(1) 1] - [lindex $m0(1) 1]}]
        set tcp 0
        for {set i 2} {$i <= 9} {incr i} { incr tcp [expr {[lindex $m1($i) 1] - [lindex $m0($i) 1]}] }
        set ::out [list $udp $tcp]
    }} $fm]
    $ns at 40.0 "$ns halt"
    $ns run
    return $::out
}

# fixed_queue_net SEED QCLASS -- s -(1 Gb/s)-> r -(100 Mb/s, QCLASS, 1000 pkts)-> d.
# Returns {ns s r d q}, q the bottleneck queue (r -> d), to be configured by the caller.
proc fixed_queue_net {seed qclass} {
    set ns [experiment::sim_new $seed]
    set s [$ns node]; set r [$ns node]; set d [$ns node]
    experiment::duplex $s $r 1Gb 0.1ms DropTail 10000
    experiment::simplex $r $d 100Mb 1ms $qclass 1000
    experiment::simplex $d $r 100Mb 1ms DropTail 1000
    return [list $ns $s $r $d [experiment::queue $r $d]]
}

# fixed_queue_run NS S R D Q K SECOND TRACE -- hold the bottleneck of fixed_queue_net at a
# constant queue and run to t = 1 s: a burst of K packets (fid 3) just before t = 0.1 s,
# then two streams at half the link rate each (1040-byte packets, T = 83.2 us), interleaved
# T apart from t = 0.1 s: fid 1 ECN-capable and the second, SECOND, either "ect" (fid 2,
# ECN-capable) or a proc name called as SECOND S D FID INTERVAL START (fid 4). The
# bottleneck is traced to TRACE. Returns the queue's average (ave_) sampled every 1 ms on
# [0.2, 1) s, sorted.
proc fixed_queue_run {ns s r d q K second trace} {
    set T [expr {1040 * 8 / 100e6}]
    set burst [ect_cbr $s $d 3 0.00001 [expr {0.0999 - $K * 0.00001}]]
    $burst set maxpkts_ $K
    ect_cbr $s $d 1 [expr {2 * $T}] 0.1
    if {$second eq "ect"} {
        ect_cbr $s $d 2 [expr {2 * $T}] [expr {0.1 + $T}]
    } else {
        $second $s $d 4 [expr {2 * $T}] [expr {0.1 + $T}]
    }
    set f [open $trace w]
    $ns trace-queue $r $d $f
    set ::qs {}
    for {set t 0.2} {$t < 1.0} {set t [expr {$t + 0.001}]} {
        $ns at $t "lappend ::qs \[$q set ave_\]"
    }
    $ns at 1.0 "$ns halt"
    $ns run
    close $f
    return [lsort -real $::qs]
}

# --- checked knobs (patch 0017: common/knob.h) ----------------------------------------------
# A knob's bad value must be refused where it is written, with a Tcl error naming the
# object's class, the knob and the value as typed, and the knob must keep its old value.

# t::knob_refused Q KNOB VALUE -- "$Q set KNOB VALUE" is refused so
proc t::knob_refused {q knob value} {
    set before [$q set $knob]
    set rc [catch {$q set $knob $value} msg]
    set after [$q set $knob]
    set cls [$q info class]
    t::check {$rc == 1 && [string match "*($cls): $knob must be *, got '$value'" $msg] && $after eq $before} \
        "$cls $knob '$value' refused where it is written (error: $msg; $knob $before -> $after)"
}

# t::knob_during CLASS KNOB VALUE ?MODE? -- in a child ns: a CLASS queue (limit 50) on a
# 1 Mb/s link kept full by two CBR flows of 1000-byte packets at 0.8 Mb/s each (two flow
# ids, so FQ-CoDel serves two queues), which pause over [0.99, 1.05] s so that a value
# taken at 1 s meets dequeues before the next arrival (FQ-CoDel's quantum_ 0 then looped
# forever); at t = 1 s the child runs "$q set KNOB VALUE", caught
# (MODE caught: the run goes on to t = 2 s) or not (MODE uncaught: an error stops ns). The
# child gets 10 s of real time. Returns a dict: exit (the child's exit status, "timeout" if
# it was killed), out (what it printed); for MODE caught also rc and msg (of the set),
# before and after (the knob's value before it and at t = 2 s) and sent (packets the queue
# sent over [1, 2] s).
proc t::knob_during {cls knob value {mode caught}} {
    set cmd [list timeout 10 [info nameofexecutable] $::t::lib knob-during $cls $knob $value $mode]
    if {[catch {exec {*}$cmd 2>@1} out opts]} {
        set st [lindex [dict get $opts -errorcode] 2]
        if {[lindex [dict get $opts -errorcode] 0] ne "CHILDSTATUS"} { set st ? }
        if {$st == 124} { set st timeout }
    } else {
        set st 0
    }
    set r [dict create exit $st out $out]
    set i [lsearch -glob -inline [split $out \n] "result *"]
    if {$i ne ""} { set r [dict merge $r [string range $i 7 end]] }
    return $r
}

proc t::knob_during_child {cls knob value mode} {
    lassign [dumbbell 1 $cls 50 1Mb] ns a b c
    set q [experiment::queue $b $c]
    set fm [experiment::flowmon $b $c]
    foreach fid {1 2} {
        lassign [udp_flow $a $c $fid 0.8Mb] cbr sink
        $ns at 0.0 "$cbr start"
        $ns at 0.99 "$cbr stop"
        $ns at 1.05 "$cbr start"
    }
    set ::kd [dict create before [$q set $knob]]
    $ns at 0.999 [list apply {{fm} { dict set ::kd sent0 [$fm set pdepartures_] }} $fm]
    if {$mode eq "caught"} {
        $ns at 1.0 [list apply {{q knob value} {
            set rc [catch {$q set $knob $value} msg]
            dict set ::kd rc $rc
            dict set ::kd msg $msg
        }} $q $knob $value]
    } else {
        $ns at 1.0 "$q set $knob $value; puts stderr \[string toupper set-taken\]"
    }
    $ns at 2.0 [list apply {{q fm knob} {
        dict set ::kd after [$q set $knob]
        dict set ::kd sent [expr {[$fm set pdepartures_] - [dict get $::kd sent0]}]
        puts "result $::kd"
        exit 0
    }} $q $fm $knob]
    $ns run
}

if {[lindex $argv 0] eq "knob-during" && [file tail [info script]] eq "testlib.tcl"} {
    t::knob_during_child {*}[lrange $argv 1 4]
}

# t::knob_tests QCLASS REFUSED DURING UNCAUGHT -- the checks of checked knobs for Queue/QCLASS:
#   REFUSED  {knob value ...}: each refused on a new Queue/QCLASS (before any run)
#   DURING   {knob value ...}: each refused when set during a run (t::knob_during, caught):
#            the set fails with the message, the knob keeps its value, the queue goes on
#            sending, ns neither hangs nor exits
#   UNCAUGHT {knob value}: set during a run and not caught: ns stops at once (exit 1) with
#            the message
proc t::knob_tests {qclass refused during uncaught} {
    set cls Queue/$qclass
    foreach {knob value} $refused {
        t::knob_refused [new $cls] $knob $value
    }
    foreach {knob value} $during {
        set r [t::knob_during $qclass $knob $value]
        set ok [expr {[dict get $r exit] == 0 && [dict exists $r rc] && [dict get $r rc] == 1}]
        if {$ok} {
            set ok [expr {[string match "*($cls): $knob must be *, got '$value'" [dict get $r msg]]
                && [dict get $r after] eq [dict get $r before] && [dict get $r sent] > 100}]
        }
        set what [expr {[dict exists $r msg] ? "error: [dict get $r msg]; $knob [dict get $r before] -> [dict get $r after]; [dict get $r sent] packets sent after" \
            : "exit [dict get $r exit]: [string range [dict get $r out] 0 300]"}]
        t::check {$ok} "$cls $knob '$value' set during the run: refused, the run goes on ($what)"
    }
    lassign $uncaught knob value
    set r [t::knob_during $qclass $knob $value uncaught]
    set out [dict get $r out]
    t::check {[dict get $r exit] == 1 && ![dict exists $r after] && ![string match *SET-TAKEN* $out] &&
              [string match "*($cls): $knob must be *, got '$value'*" $out]} \
        "$cls $knob '$value' set (uncaught) during the run: ns stops at once with the error (exit [dict get $r exit]: [string range $out 0 300])"
}
