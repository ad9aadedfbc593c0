# Agent/TCP/Generalized (patch 0021): the generalized window rule of Misra, Baras and
# Ott (eqs 1-2, Sec II): per new ACK W += c1 W^alpha, per ECN-marked ACK
# W -= c2 W^beta (every marked ACK, not once per window), W >= 1.
source [file join [file dirname [info script]] testlib.tcl]

# One flow over an uncongested path; an ErrorModel/List with markecn_ at the head of the
# r -> d link sets CE on the listed packets (0 = the SYN, k = data packet k). The stock
# TCPSink acknowledges each packet. Every 2 ms the test records (ack_, cwnd_).
# Prints {ack cwnd ...} then necnresponses_ and nrexmitpack_.
proc run_flow {alpha beta c1 c2 marks tend} {
    set ns [experiment::sim_new 1]
    set s [$ns node]; set r [$ns node]; set d [$ns node]
    experiment::duplex $s $r 100Mb 1ms DropTail 10000
    experiment::duplex $r $d 10Mb 10ms DropTail 10000
    set em [new ErrorModel/List]
    $em set markecn_ true
    $em droplist $marks
    $ns lossmodel $em $r $d
    lassign [experiment::tcp_flow $s $d gaimd 1 [list g_alpha_ $alpha g_beta_ $beta g_c1_ $c1 \
        g_c2_ $c2 window_ 10000 packetSize_ 512]] tcp sink ftp
    $tcp check
    set ::samples {}
    experiment::every 0.002 $tend "lappend ::samples \[$tcp set ack_\] \[$tcp set cwnd_\]"
    $ns at 0.0 "$ftp start"
    $ns at [expr {$tend + 0.001}] "$ns halt"
    $ns run
    return [list $::samples [$tcp set necnresponses_] [$tcp set nrexmitpack_]]
}

# The rule replayed in Tcl: cwnd after ACK k, k = 0..n (ns-2's TCP starts at 1 with
# syn_ and delay_growth_, and sets windowInit_ (2) after the ACK of the SYN; slow
# start until the first mark).
proc replay {alpha beta c1 c2 marks n} {
    array set m {}
    foreach k $marks { set m($k) 1 }
    set w 1.0
    set ss 10000
    set out {}
    for {set k 0} {$k <= $n} {incr k} {
        if {$k > 0 && [info exists m($k)]} {
            set w [expr {$w - $c2 * pow($w, $beta)}]
            if {$w < 1.0} { set w 1.0 }
            set ss 0
        } elseif {$w < $ss} {
            set w [expr {$w + 1}]
        } else {
            set w [expr {$w + $c1 * pow($w, $alpha)}]
        }
        if {$k == 0} { set w 2.0 }
        lappend out $w
    }
    return $out
}

if {[lindex $argv 0] eq "flow"} {
    puts [run_flow {*}[lrange $argv 1 end]]
    exit 0
}

# Marks: the first ends slow start; then isolated and back-to-back marks.
set marks {40 41 90 140 141 142 143 260 400 401 560 700 900 1100 1101 1300}
# Misra et al. Sec. III.C sets 1-4 (set 2 with beta = 1, docs/misra.md M1), set 2 as printed
# (beta = -1), and a run of 12 marks that drives W to the floor of 1.
set cases [list \
    set1 {-1 1 1 0.5} $marks \
    set2 {0 1 0.2 0.1} $marks \
    set3 {-1 1 0.5 0.1} $marks \
    set4 {0 1 0.4 0.2} $marks \
    set2-printed-beta {0 -1 0.2 0.1} $marks \
    floor {0 1 0.2 0.5} {40 41 42 43 44 45 46 47 48 49 50 51 300}]
foreach {name params mk} $cases {
    lassign $params a b c1 c2
    lassign [t::subrun flow $a $b $c1 $c2 $mk 3.0] samples necn nrexmit
    set maxack 0
    foreach {ack w} $samples { if {$ack > $maxack} { set maxack $ack } }
    set want [replay $a $b $c1 $c2 $mk $maxack]
    # cwnd_ is read back with 6 significant digits: compare to that precision
    set worst 0.0
    set n 0
    foreach {ack w} $samples {
        if {$ack < 0} { continue }
        set e [expr {abs($w - [lindex $want $ack]) / [lindex $want $ack]}]
        if {$e > $worst} { set worst $e; set at "ack $ack: $w vs [lindex $want $ack]" }
        incr n
    }
    t::check {$maxack > [lindex $mk end] + 50} "$name: the flow got past the last mark (ack $maxack)"
    t::check {$worst <= 5.000001e-6} "$name (alpha $a beta $b c1 $c1 c2 $c2): cwnd follows the rule at all $n samples (worst relative error $worst)"
    set nmarks 0
    foreach k $mk { if {$k <= $maxack} { incr nmarks } }
    t::check {$necn == $nmarks} "$name: one decrease per marked ACK ($necn decreases, $nmarks marks acknowledged)"
    t::check {$nrexmit == 0} "$name: no loss ($nrexmit retransmissions)"
}
# the floor case reaches W = 1 (checked above through the replay); show that it does
set fl [replay 0 1 0.2 0.5 {40 41 42 43 44 45 46 47 48 49 50 51 300} 52]
t::check {[lindex $fl 51] == 1.0} "floor: 12 marks in a row take W to the floor of 1 ([lindex $fl 51])"

# --- bad parameters -------------------------------------------------------------------
set ns [new Simulator]
set tcp [new Agent/TCP/Generalized]
$tcp set g_c2_ 1.0
t::error_like {$tcp check} "*g_c2_ must be < 1 when g_beta_ is 1*" "c2 = 1 with beta = 1 is refused"
$tcp set g_c2_ 1.5
t::error_like {$tcp check} "*g_c2_ must be < 1*" "c2 = 1.5 with beta = 1 is refused"
$tcp set g_beta_ 0.5
t::check {[catch {$tcp check}] == 0} "c2 = 1.5 with beta = 0.5 is accepted (the floor W >= 1 applies)"
$tcp set g_c1_ 0
t::error_like {$tcp check} "*g_c1_ must be > 0*" "c1 = 0 is refused"
$tcp set g_c1_ 1; $tcp set g_c2_ -0.1
t::error_like {$tcp check} "*g_c2_ must be > 0*" "a negative c2 is refused"
# "$ns run" resets every attached agent: the error stops the run before any event
set a [$ns node]; set b [$ns node]
$ns duplex-link $a $b 10Mb 1ms DropTail
$tcp set g_beta_ 1; $tcp set g_c2_ 1
set sink [new Agent/TCPSink]
$ns attach-agent $a $tcp; $ns attach-agent $b $sink; $ns connect $tcp $sink
set ::reached 0
$ns at 0.5 "set ::reached 1"
t::error_like {$ns run} "*Agent/TCP/Generalized*g_c2_ must be < 1*" "\$ns run stops with the parameter error"
t::check {$::reached == 0} "no event ran"
t::done
