# Agent/TCP/Fast (patch 0024): FAST TCP from the published update (Jin, Wei, Low,
# Infocom 2004): every update period w <- min{2w, (1-g) w + g (baseRTT/RTT w + alpha)};
# fast_halve_ false = no window cut on loss (Tang et al.'s modified FAST).
# And variant fast_sack: the same rule as TCP-Linux module "fast" (patch 0026) on
# Agent/TCP/Linux's SACK recovery, set through the same knobs (experiment::tcp_flow).
source [file join [file dirname [info script]] testlib.tcl]

# One FAST flow, bottleneck BW with 20 ms delay each way (1000-byte packets).
#   eq   : queue (packets waiting) sampled every 10 ms on [5, 20] s -> mean min max
#   seq  : the distinct successive cwnd_ values from a trace (first 4 s)
#   loss : packets LOST (a list) dropped; cwnd_ just before the drop is detected and its
#          minimum over the next 2 s, retransmissions, timeouts -> before min nrexmit ntimeouts
proc run_flow {variant mode bw alpha gamma period halve lost} {
    set ns [experiment::sim_new 1]
    set s [$ns node]; set r [$ns node]; set d [$ns node]
    experiment::duplex $s $r 10Gb 1ms DropTail 10000
    experiment::simplex $r $d $bw 20ms DropTail 10000
    experiment::simplex $d $r $bw 20ms DropTail 10000
    if {$lost ne "0"} {
        set em [new ErrorModel/List]
        $em droplist $lost
        $ns lossmodel $em $r $d
    }
    set fm [experiment::flowmon $r $d]
    lassign [experiment::tcp_flow $s $d $variant 1 [list fast_alpha_ $alpha fast_gamma_ $gamma \
        fast_period_ $period fast_halve_ $halve window_ 100000 packetSize_ 1000]] tcp sink ftp
    if {$variant eq "fast"} { $tcp check }
    $ns at 0.0 "$ftp start"
    switch -- $mode {
        eq {
            set ::q {}
            for {set i 500} {$i <= 2000} {incr i} {
                $ns at [expr {$i * 0.01}] "lappend ::q \[$fm set pkts_\]"
            }
            $ns at 20.001 "$ns halt"
            $ns run
            set sum 0
            foreach x $::q { set sum [expr {$sum + $x}] }
            set q [lsort -integer $::q]
            return [list [expr {double($sum) / [llength $::q]}] [lindex $q 0] [lindex $q end]]
        }
        seq {
            set f [open fast.tr w]
            $tcp attach $f
            $tcp trace cwnd_
            $ns at 4.0 "$ns halt"
            $ns run
            close $f
            set f [open fast.tr]
            set out {}
            set times {}
            while {[gets $f line] >= 0} {
                set w [lindex $line 6]
                if {[llength $out] == 0 || $w != [lindex $out end]} {
                    lappend out $w
                    lappend times [lindex $line 0]
                }
            }
            close $f
            # the shortest gap between window changes from the third change on (after the
            # SYN's ACK and the first update), seconds
            set gap 1e9
            foreach a [lrange $times 2 end-1] b [lrange $times 3 end] {
                if {$b ne "" && $b - $a < $gap} { set gap [expr {$b - $a}] }
            }
            return [list $gap {*}$out]
        }
        loss {
            set ::w {}
            for {set i 1} {$i <= 1000} {incr i} {
                $ns at [expr {$i * 0.01}] "lappend ::w \[$ns now\] \[$tcp set cwnd_\] \[$tcp set nrexmitpack_\]"
            }
            $ns at 10.001 "$ns halt"
            $ns run
            # the last sample before the retransmission, the minimum in the 2 s after
            set before 0; set tre -1; set min 1e9
            foreach {t w n} $::w {
                if {$n == 0} { set before $w; continue }
                if {$tre < 0} { set tre $t }
                if {$t <= $tre + 2.0 && $w < $min} { set min $w }
            }
            return [list $before $min [$tcp set nrexmitpack_] [$tcp set nrexmit_]]
        }
    }
}

# knobs K V ...: a fast_sack flow with these knobs -> alpha gamma_milli halve window_
if {[lindex $argv 0] eq "knobs"} {
    set ns [experiment::sim_new 1]
    set a [$ns node]; set b [$ns node]
    experiment::duplex $a $b 10Mb 1ms DropTail 100
    lassign [experiment::tcp_flow $a $b fast_sack 1 [lrange $argv 1 end]] tcp
    foreach n {alpha gamma_milli halve} {
        # get_ca_param prints "tcp_fast.NAME = VALUE" on C's stdout
        $tcp get_ca_param fast $n
    }
    flush stdout
    puts "result [$tcp set window_]"
    exit 0
}
if {[lindex $argv 0] eq "flow"} {
    puts "result [run_flow {*}[lrange $argv 1 end]]"
    exit 0
}

# --- the update rule: no queue (10 Gb/s links), so baseRTT = RTT and each per-RTT update
# is w <- min(2w, w + gamma alpha). (Two packets sent back to back wait 0.8 us at the
# access link, so RTT exceeds baseRTT by ~2e-5: checked to 0.01 packet over 12 updates;
# fast_sack's window is the rounded rule, an integer here.)
foreach variant {fast fast_sack} {
    foreach {alpha gamma} {10 0.5 40 0.25} {
        set seq [lassign [t::subrun flow $variant seq 10Gb $alpha $gamma 0 true 0] gap]
        # one update per RTT: 2 x (20 + 1) ms propagation
        t::check {$gap >= 0.9 * 0.042} "$variant alpha $alpha: one window update per RTT (shortest gap between updates $gap s, RTT 0.042 s)"
        set ok 1; set n 0; set bad {}
        foreach w [lrange $seq 1 end] prev [lrange $seq 0 end-1] {
            if {$w eq ""} { break }
            if {$prev < 2} { continue }     ;# the ACK of the SYN sets windowInit_ (2)
            set want [expr {min(2 * $prev, $prev + $gamma * $alpha)}]
            if {abs($w - $want) > 0.01} { set ok 0; lappend bad "$prev->$w (want $want)" }
            if {[incr n] == 12} { break }
        }
        t::check {$ok && $n == 12} "$variant update with no queue, alpha $alpha, gamma $gamma: w <- min(2w, w + gamma alpha) at each of $n updates ([lrange $seq 0 8] ...) $bad"
    }
}

# --- equilibrium: alpha packets queued on a single bottleneck ---------------------------
foreach {variant alpha period} {fast 10 0 fast 25 0 fast 10 0.02 fast_sack 10 0 fast_sack 25 0} {
    lassign [t::subrun flow $variant eq 10Mb $alpha 0.5 $period true 0] m lo hi
    t::near $m $alpha 0.5 "$variant alpha $alpha, update period [expr {$period == 0 ? {one RTT} : "$period s"}]: mean queue ~ alpha (range $lo..$hi)"
}

# --- loss: halve or not -----------------------------------------------------------------
foreach variant {fast fast_sack} {
    lassign [t::subrun flow $variant loss 10Mb 10 0.5 0 true 3000] before min nre nto
    t::check {$nre >= 1 && $min <= 0.55 * $before} "$variant fast_halve_ true: the window is halved after a loss ($before -> min $min, $nre retransmissions)"
    lassign [t::subrun flow $variant loss 10Mb 10 0.5 0 false 3000] before min nre nto
    t::check {$nre >= 1 && $min >= 0.9 * $before} "$variant fast_halve_ false: no window cut after a loss ($before -> min $min, $nre retransmissions)"
}
# Four losses in one window without halving: SACK recovers all four in one recovery and
# keeps the window; ns-2's Reno recovery (Agent/TCP/Fast) retransmits one per recovery and
# ends in a timeout, window 1 -- the stall that made us add fast_sack (Tang Experiment 1).
set four {3000 3003 3006 3009}
lassign [t::subrun flow fast_sack loss 10Mb 10 0.5 0 false $four] before min nre nto
t::check {$nre == 4 && $nto == 0 && $min >= 0.9 * $before} "fast_sack, 4 losses in a window, no halving: 4 retransmissions, no timeout, window kept ($before -> min $min; $nre retransmissions, $nto timeouts)"
lassign [t::subrun flow fast loss 10Mb 10 0.5 0 false $four] before min nre nto
t::check {$nto >= 1 && $min <= 1} "fast (Reno recovery), 4 losses in a window: a timeout, window 1 ($before -> min $min; $nre retransmissions, $nto timeouts)"

# --- fast_sack knobs: a bad value stops the run (experiment::_fail, exit 2) ---------------------
foreach {knobs pattern} {
    {fast_alpha_ 10.5} "*fast_alpha_ must be a whole number*"
    {fast_alpha_ 0} "*fast_alpha_ must be a whole number*"
    {fast_gamma_ 0} "*fast_gamma_ must lie in (0, 1]*"
    {fast_gamma_ 0.0005} "*fast_gamma_ must lie in (0, 1] in steps of 0.001*"
    {fast_halve_ maybe} "*fast_halve_ must be a boolean*"
    {fast_period_ 0.1} "*fast_period_ must be 0*"
    {fast_rtt_weight_ 0.5} "*fast_rtt_weight_ is not supported*"
} {
    t::error_like {t::subrun knobs {*}$knobs} $pattern "fast_sack: $knobs is refused"
}
set out [exec [info nameofexecutable] $::t::script knobs fast_alpha_ 30 window_ 7 2>@1]
set got {}
foreach n {alpha gamma_milli halve} {
    regexp "tcp_fast\\.$n = (\\d+)" $out -> v
    lappend got $v
}
regexp {result (\S+)} $out -> w
lappend got $w
t::check {$got eq {30 500 1 7}} "fast_sack: the FAST knobs become module parameters (alpha 30, gamma 500/1000, halve 1), the others stay agent knobs (window_ 7): got $got"

# --- bad parameters ---------------------------------------------------------------------
set ns [new Simulator]
set tcp [new Agent/TCP/Fast]
foreach {knob value pattern} {
    fast_gamma_ 0 "*fast_gamma_ must lie in (0, 1]*"
    fast_gamma_ 1.5 "*fast_gamma_ must lie in (0, 1]*"
    fast_alpha_ -1 "*fast_alpha_ must be > 0*"
    fast_period_ -0.1 "*fast_period_ must be >= 0*"
    fast_rtt_weight_ 2 "*fast_rtt_weight_ must lie in*"
} {
    set t [new Agent/TCP/Fast]
    $t set $knob $value
    t::error_like {$t check} $pattern "FAST: $knob $value is refused"
}
$tcp set fast_gamma_ 1.0
t::check {[catch {$tcp check}] == 0} "FAST: gamma 1 is accepted"
set a [$ns node]; set b [$ns node]
$ns duplex-link $a $b 10Mb 1ms DropTail
$tcp set fast_gamma_ 0
set sink [new Agent/TCPSink]
$ns attach-agent $a $tcp; $ns attach-agent $b $sink; $ns connect $tcp $sink
t::error_like {$ns run} "*Agent/TCP/Fast*fast_gamma_ must lie in*" "FAST: \$ns run stops with the parameter error"
t::done
