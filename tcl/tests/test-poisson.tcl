# The Poisson source (patch 0025): Application/Traffic/Poisson sends fixed-size packets
# with independent exponential gaps (mean interval_, or 8 packetSize_ / rate_), drawn
# from ns-2's defaultRNG (seeded by experiment::sim_new) or from its own RNG (use-rng).
source [file join [file dirname [info script]] testlib.tcl]

# One source on a UDP agent over a 1 Gb/s link with room for every packet; the send
# times are the "+" events of the link (a packet enters the link queue when it is sent).
# MODE rate|interval gives the mean gap MEAN (s) as rate_ or as interval_; RNGSEED > 0
# gives the source its own RNG seeded so. Writes the send times (trace precision, 1 us)
# to FILE and prints: packets, gaps (start -> first packet included), their mean and
# sample variance, the fraction of gaps above MEAN and above 3 MEAN, the smallest and
# largest packet size, the time of the first packet.
proc poisson_run {seed mode mean n rngseed file} {
    set ns [experiment::sim_new $seed]
    set a [$ns node]; set b [$ns node]
    experiment::simplex $a $b 1Gb 1ms DropTail 1000000
    set u [new Agent/UDP]
    $u set packetSize_ 1500
    set null [new Agent/Null]
    $ns attach-agent $a $u; $ns attach-agent $b $null; $ns connect $u $null
    set p [new Application/Traffic/Poisson]
    $p attach-agent $u
    $p set packetSize_ 500
    if {$mode eq "rate"} {
        $p set rate_ [expr {500 * 8 / $mean}]
    } else {
        $p set interval_ $mean
    }
    $p set maxpkts_ $n
    if {$rngseed > 0} {
        set r [new RNG]
        $r seed $rngseed
        $p use-rng $r
    }
    set tr [open $file.tr w]
    $ns trace-queue $a $b $tr
    set start 1.0
    $ns at $start "$p start"
    $ns at [expr {$start + 3 * $n * $mean}] "$ns halt"
    $ns run
    close $tr
    set f [open $file.tr]
    set times {}; set sizes {}
    while {[gets $f line] >= 0} {
        lassign $line ev t from to type size
        if {$ev eq "+"} { lappend times $t; lappend sizes $size }
    }
    close $f
    set f [open $file w]; puts $f $times; close $f
    set prev $start; set sum 0.0; set gaps {}
    foreach t $times { lappend gaps [expr {$t - $prev}]; set prev $t }
    foreach g $gaps { set sum [expr {$sum + $g}] }
    set m [expr {$sum / [llength $gaps]}]
    set ss 0.0; set above 0; set above3 0
    foreach g $gaps {
        set ss [expr {$ss + ($g - $m) ** 2}]
        if {$g > $mean} { incr above }
        if {$g > 3 * $mean} { incr above3 }
    }
    set k [llength $gaps]
    set sizes [lsort -integer $sizes]
    return [list [llength $times] $k $m [expr {$ss / ($k - 1)}] [expr {double($above) / $k}] \
        [expr {double($above3) / $k}] [lindex $sizes 0] [lindex $sizes end] [lindex $times 0]]
}

# A source with bad parameters started by an event: prints what "$ns run" raised.
proc bad_start {knob value} {
    set ns [experiment::sim_new 1]
    set a [$ns node]; set b [$ns node]
    experiment::simplex $a $b 10Mb 1ms DropTail 100
    set u [new Agent/UDP]; set null [new Agent/Null]
    $ns attach-agent $a $u; $ns attach-agent $b $null; $ns connect $u $null
    set p [new Application/Traffic/Poisson]
    $p attach-agent $u
    $p set $knob $value
    $ns at 1 "$p start"
    $ns at 2 "puts reached-event"
    $ns run
    return "no error"
}

switch -- [lindex $argv 0] {
    run { puts [poisson_run {*}[lrange $argv 1 end]]; exit 0 }
    bad { puts [bad_start {*}[lrange $argv 1 end]]; exit 0 }
}

proc slurp {file} {
    set f [open $file]; set s [read $f]; close $f
    return $s
}

# --- statistics of the gaps ----------------------------------------------------------
# n gaps of an exponential law with mean m: the sample mean has standard deviation
# m/sqrt(n); the sample variance (true value m^2) has standard deviation close to
# m^2 sqrt(8/n) (fourth central moment 9 m^4); P(gap > m) = e^-1, P(gap > 3m) = e^-3,
# binomial. Bounds: 4.5 standard deviations.
set n 20000
set mean 0.001
lassign [t::subrun run 5 rate $mean $n 0 a] npk k m v f1 f3 smin smax t0
t::check {$npk == $n} "Poisson: maxpkts_ $n packets sent ($npk)"
t::near $m $mean [expr {4.5 * $mean / sqrt($k)}] "Poisson rate_ 4Mb, 500 B: mean gap 8 packetSize_/rate_"
t::near $v [expr {$mean ** 2}] [expr {4.5 * $mean ** 2 * sqrt(8.0 / $k)}] "Poisson: gap variance = mean^2 (exponential)"
set p1 [expr {exp(-1)}]; set p3 [expr {exp(-3)}]
t::near $f1 $p1 [expr {4.5 * sqrt($p1 * (1 - $p1) / $k)}] "Poisson: P(gap > mean) = e^-1"
t::near $f3 $p3 [expr {4.5 * sqrt($p3 * (1 - $p3) / $k)}] "Poisson: P(gap > 3 mean) = e^-3"
t::check {$smin == 500 && $smax == 500} "Poisson: every packet has packetSize_ 500 bytes ($smin..$smax)"
t::check {$t0 > 1.0} "Poisson: the first packet comes one gap after start, not at start ($t0)"

# a longer mean given as interval_: the statistics scale
lassign [t::subrun run 9 interval 0.02 5000 0 c] npk k m v f1 f3 smin smax
t::near $m 0.02 [expr {4.5 * 0.02 / sqrt($k)}] "Poisson interval_ 20 ms: mean gap = interval_"
t::near $v [expr {0.02 ** 2}] [expr {4.5 * 0.02 ** 2 * sqrt(8.0 / $k)}] "Poisson interval_ 20 ms: gap variance = interval_^2"

# --- seeds -------------------------------------------------------------------------------
t::subrun run 5 rate $mean $n 0 b
t::check {[slurp a] eq [slurp b]} "Poisson: the same seed gives the identical send sequence"
t::subrun run 6 rate $mean $n 0 d
t::check {[slurp a] ne [slurp d]} "Poisson: another seed gives another sequence"
# interval_ 1 ms and rate_ 4 Mb/s with 500-byte packets are the same mean gap exactly
t::subrun run 5 interval $mean $n 0 e
t::check {[slurp a] eq [slurp e]} "Poisson: rate_ and the equivalent interval_ give the same sequence"
# its own RNG: independent of the simulator's seed, different from the default stream
t::subrun run 5 rate $mean 2000 12345 g1
t::subrun run 6 rate $mean 2000 12345 g2
t::subrun run 6 rate $mean 2000 54321 g3
t::check {[slurp g1] eq [slurp g2]} "Poisson use-rng: the source's sequence does not depend on the simulator seed"
t::check {[slurp g2] ne [slurp g3]} "Poisson use-rng: another RNG seed gives another sequence"

# --- bad parameters ----------------------------------------------------------------------
set ns [new Simulator]
set p [new Application/Traffic/Poisson]
t::error_like {$p check} "*rate_ must be > 0*" "Poisson: no rate_ and no interval_ is refused"
$p set rate_ -1Mb
t::error_like {$p check} "*rate_ must be > 0*got -1e+06*" "Poisson: a negative rate_ is refused"
t::error_like {$p start} "*rate_ must be > 0*" "Poisson: start refuses a negative rate_"
$p set rate_ 1Mb
$p set interval_ 10ms
t::error_like {$p check} "*rate_*or interval_*not both*" "Poisson: rate_ and interval_ together are refused"
$p set rate_ 0
$p set interval_ -1
t::error_like {$p check} "*interval_ must be > 0*" "Poisson: a negative interval_ is refused"
$p set interval_ 10ms
$p set packetSize_ 0
t::error_like {$p check} "*packetSize_ must be >= 1*" "Poisson: packetSize_ 0 is refused"
$p set packetSize_ 100
t::check {[catch {$p check}] == 0} "Poisson: interval_ 10ms, packetSize_ 100 accepted"
t::error_like {$p use-rng $ns} "*use-rng needs an RNG object*" "Poisson: use-rng refuses an object that is no RNG"
set rc [catch {t::subrun bad rate_ 0} msg]
t::check {$rc == 1 && [string match "*rate_ must be > 0*" $msg] && ![string match "*reached-event*" $msg]} \
    "Poisson: a zero rate stops \$ns run at start ([lindex [split $msg \n] 0])"
t::done
