# Agent/TCP/Fast (patch 0024): FAST TCP from the published update (Jin, Wei, Low,
# Infocom 2004): every update period w <- min{2w, (1-g) w + g (baseRTT/RTT w + alpha)};
# fast_halve_ false = no window cut on loss (Tang et al.'s modified FAST).
source [file join [file dirname [info script]] testlib.tcl]

# One FAST flow, bottleneck BW with 20 ms delay each way (1000-byte packets).
#   eq   : queue (packets waiting) sampled every 10 ms on [5, 20] s -> mean min max
#   seq  : the distinct successive cwnd_ values from a trace (first 4 s)
#   loss : packet LOST dropped; cwnd_ just before the drop is detected and its minimum
#          over the next 2 s -> before min
proc run_flow {mode bw alpha gamma period halve lost} {
    set ns [ccr::sim_new 1]
    set s [$ns node]; set r [$ns node]; set d [$ns node]
    ccr::duplex $s $r 10Gb 1ms DropTail 10000
    ccr::simplex $r $d $bw 20ms DropTail 10000
    ccr::simplex $d $r $bw 20ms DropTail 10000
    if {$lost > 0} {
        set em [new ErrorModel/List]
        $em droplist $lost
        $ns lossmodel $em $r $d
    }
    set fm [ccr::flowmon $r $d]
    lassign [ccr::tcp_flow $s $d fast 1 [list fast_alpha_ $alpha fast_gamma_ $gamma \
        fast_period_ $period fast_halve_ $halve window_ 100000 packetSize_ 1000]] tcp sink ftp
    $tcp check
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
            while {[gets $f line] >= 0} {
                set w [lindex $line 6]
                if {[llength $out] == 0 || $w != [lindex $out end]} { lappend out $w }
            }
            close $f
            return $out
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
            return [list $before $min [$tcp set nrexmitpack_]]
        }
    }
}

if {[lindex $argv 0] eq "flow"} {
    puts [run_flow {*}[lrange $argv 1 end]]
    exit 0
}

# --- the update rule: no queue (10 Gb/s links), so baseRTT = RTT and each per-RTT update
# is w <- min(2w, w + gamma alpha). (Two packets sent back to back wait 0.8 us at the
# access link, so RTT exceeds baseRTT by ~2e-5: checked to 0.01 packet over 12 updates.)
set seq [t::subrun flow seq 10Gb 10 0.5 0 true 0]
set ok 1; set n 0; set bad {}
foreach w [lrange $seq 1 end] prev [lrange $seq 0 end-1] {
    if {$w eq ""} { break }
    if {$prev < 2} { continue }     ;# the ACK of the SYN sets windowInit_ (2)
    set want [expr {min(2 * $prev, $prev + 0.5 * 10)}]
    if {abs($w - $want) > 0.01} { set ok 0; lappend bad "$prev->$w (want $want)" }
    if {[incr n] == 12} { break }
}
t::check {$ok && $n == 12} "FAST update with no queue: w <- min(2w, w + gamma alpha) at each of $n updates ([lrange $seq 0 8] ...) $bad"
set seq2 [t::subrun flow seq 10Gb 40 0.25 0 true 0]
set ok 1; set n 0; set bad {}
foreach w [lrange $seq2 1 end] prev [lrange $seq2 0 end-1] {
    if {$w eq ""} { break }
    if {$prev < 2} { continue }
    set want [expr {min(2 * $prev, $prev + 0.25 * 40)}]
    if {abs($w - $want) > 0.01} { set ok 0; lappend bad "$prev->$w (want $want)" }
    if {[incr n] == 12} { break }
}
t::check {$ok && $n == 12} "FAST update, alpha 40, gamma 0.25: w <- min(2w, w + 10) at each of $n updates ([lrange $seq2 0 8] ...) $bad"

# --- equilibrium: alpha packets queued on a single bottleneck ---------------------------
foreach {alpha period} {10 0 25 0 10 0.02} {
    lassign [t::subrun flow eq 10Mb $alpha 0.5 $period true 0] m lo hi
    t::near $m $alpha 0.5 "FAST alpha $alpha, update period [expr {$period == 0 ? {one RTT} : "$period s"}]: mean queue ~ alpha (range $lo..$hi)"
}

# --- loss: halve or not ---------------------------------------------------------------
lassign [t::subrun flow loss 10Mb 10 0.5 0 true 3000] before min nre
t::check {$nre >= 1 && $min <= 0.55 * $before} "FAST fast_halve_ true: the window is halved after a loss ($before -> min $min, $nre retransmissions)"
lassign [t::subrun flow loss 10Mb 10 0.5 0 false 3000] before min nre
t::check {$nre >= 1 && $min >= 0.9 * $before} "FAST fast_halve_ false: no window cut after a loss ($before -> min $min, $nre retransmissions)"

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
