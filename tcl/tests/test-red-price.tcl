# RED price-curve knobs (patch 0013): Queue/RED bernoulli_ (each arrival marked
# independently with RED's p_b, no count spacing) and flat_above_max_ (p_b = max_p, not
# 1, at ave >= maxthresh_). With gentle_ false and both on, the marking probability is
# the price curve of Tang, Wang, Hegde, Low eq. (16)-(17) (docs/tang.md T5):
#   p(b) = 0 (b <= b_min), (1/K)(b - b_min)/(b_max - b_min) (between), 1/K (b >= b_max)
# with b_min = thresh_, b_max = maxthresh_, K = linterm_. Both off: stock RED.
source [file join [file dirname [info script]] testlib.tcl]

# Fixed-queue scenario: a 100 Mb/s RED bottleneck (1040-byte packets, T = 83.2 us) is
# filled by a burst of K packets just before t = 0.1 s, then two ECN-capable streams at
# half the link rate each, interleaved T apart, keep every arrival finding the same
# queue. q_weight_ 1: the average RED uses is the queue each arrival finds. RED in
# packets, thresh_ 5, maxthresh_ 15, linterm_ 2.5 (max_p 0.4), gentle_ false, setbit_
# true, mark_p_ 2.0 (every early drop of an ECT packet is a mark). EXTRA: more knobs.
# Writes red-price.tr (departures of the bottleneck) and prints:
#   qmin qmax n marked drops cv
# over the departures of fids 1 and 2 on [0.2, 1.0] s; cv = coefficient of variation
# of the gaps (in packets) between consecutive marks.
proc price_run {K extra {seed 7}} {
    lassign [fixed_queue_net $seed RED] ns s r d q
    experiment::set_knobs $q {bytes_ false queue_in_bytes_ false thresh_ 5 maxthresh_ 15
        linterm_ 2.5 q_weight_ 1 gentle_ false setbit_ true use_mark_p_ true mark_p_ 2.0}
    experiment::set_knobs $q $extra
    set qs [fixed_queue_run $ns $s $r $d $q $K ect red-price.tr]
    set n 0; set m 0; set drops 0; set gaps {}; set last -1
    set f [open red-price.tr]
    while {[gets $f line] >= 0} {
        lassign $line ev t from to type size flags fid
        if {$t < 0.2 || $fid == 3} { continue }
        if {$ev eq "d"} { incr drops; continue }
        if {$ev ne "-"} { continue }
        if {[string index $flags 4] eq "E"} {
            if {$last >= 0} { lappend gaps [expr {$n - $last}] }
            set last $n
            incr m
        }
        incr n
    }
    close $f
    set cv -1
    if {[llength $gaps] > 1} {
        set mean [expr {[tcl::mathop::+ {*}$gaps] / double([llength $gaps])}]
        set ss 0.0
        foreach g $gaps { set ss [expr {$ss + ($g - $mean) ** 2}] }
        set cv [expr {sqrt($ss / ([llength $gaps] - 1)) / $mean}]
    }
    return [list [lindex $qs 0] [lindex $qs end] $n $m $drops $cv]
}

# flat_above_max_ with gentle_ true is refused when "$ns run" resets the queues.
proc bad_run {} {
    set ns [experiment::sim_new 1]
    set a [$ns node]; set b [$ns node]
    experiment::simplex $a $b 10Mb 1ms RED 100
    experiment::set_knobs [experiment::queue $a $b] {gentle_ true flat_above_max_ true}
    $ns at 1 "puts reached-event"
    if {[catch {$ns run} msg]} { return "error: $msg" }
    return "no error"
}

switch -- [lindex $argv 0] {
    price { puts [price_run {*}[lrange $argv 1 end]]; exit 0 }
    bad   { puts [bad_run]; exit 0 }
}

# The paper's curve, eq. (16), with b_min 5, b_max 15, K 2.5.
proc tang_p {b} {
    set bmin 5.0; set bmax 15.0; set K 2.5
    if {$b <= $bmin} { return 0.0 }
    if {$b >= $bmax} { return [expr {1 / $K}] }
    return [expr {($b - $bmin) / ($bmax - $bmin) / $K}]
}

# The gap G (in arrivals) from one mark to the next when the c-th arrival after a mark
# is marked with probability pa(c). Returns {E[G] Var[G] E[(G - E[G])^4]}.
proc gap_moments {pa_proc p} {
    set surv 1.0; set pr {}
    for {set c 1} {$surv > 1e-15 && $c < 100000} {incr c} {
        set pa [$pa_proc $c $p]
        lappend pr $c [expr {$surv * $pa}]
        set surv [expr {$surv * (1 - $pa)}]
    }
    set mean 0.0
    foreach {c w} $pr { set mean [expr {$mean + $c * $w}] }
    set var 0.0; set m4 0.0
    foreach {c w} $pr {
        set var [expr {$var + $w * ($c - $mean) ** 2}]
        set m4 [expr {$m4 + $w * ($c - $mean) ** 4}]
    }
    return [list $mean $var $m4]
}
# independent marks (bernoulli_): pa = p, geometric gaps
proc pa_bernoulli {c p} { return $p }
# stock RED's count spacing (queue/red.cc modify_p, wait_ true, packets):
# pa = 0 if c p < 1, p / (2 - c p) if c p < 2, else 1
proc pa_stock {c p} {
    set x [expr {$c * $p}]
    return [expr {$x < 1 ? 0.0 : ($x < 2 ? $p / (2 - $x) : 1.0)}]
}
# Statistical bounds (4.5 standard deviations) for a run of n arrivals whose marks are
# a renewal process with these gap moments: the marked fraction (n Var/E^3 is the
# variance of the number of marks) and the CV of the m - 1 observed gaps (delta method
# for s/mean, covariance neglected: conservative). Returns {fraction tol cv tol}.
proc renewal_bounds {moments n m} {
    lassign $moments mu var m4
    set frac [expr {1 / $mu}]
    set ftol [expr {max(0.002, 4.5 * sqrt($var / ($mu ** 3 * $n)))}]
    set cv [expr {sqrt($var) / $mu}]
    set k [expr {$var > 0 ? $m4 / $var ** 2 : 1.0}]
    set g [expr {max($m - 1, 1)}]
    set ctol [expr {max(0.01, 4.5 * $cv * sqrt(($k - 1) / (4.0 * $g) + $cv ** 2 / $g))}]
    return [list $frac $ftol $cv $ctol]
}

set both {bernoulli_ true flat_above_max_ true}

# --- bernoulli_ + flat_above_max_: the marked fraction follows eq. (16) --------------
# The burst size K sets the queue each arrival finds: below b_min, two levels between
# the thresholds, at b_max (about) and above it. (The first packet of each packetizer
# is not ECN-capable: when RED picks it during the burst it is dropped, so a level can
# differ by a packet between runs; each check uses the level the run measured.)
foreach {K label} {4 below 10 middle 16 middle2 19 at-max 26 above} {
    lassign [t::subrun price $K $both] qmin qmax n m drops cv
    t::check {$qmin == $qmax && $n > 9000} "$label: every arrival finds the same queue ($qmin..$qmax, $n packets)"
    set p [tang_p $qmax]
    set frac [expr {double($m) / $n}]
    # binomial: 4.5 standard deviations of the fraction over n packets (at least 0.002)
    set tol [expr {max(0.002, 4.5 * sqrt($p * (1 - $p) / $n))}]
    t::near $frac $p $tol "$label (b = $qmax): marked fraction = p(b) of eq. (16) ($m of $n)"
    t::check {$drops == 0} "$label: ECN-capable packets are marked, never dropped ($drops)"
    lappend levels $qmax
    set res($label) [list $qmax $n $m $cv]
}
t::check {[lindex $levels 0] < 5 && [lindex $levels 1] > 5 && [lindex $levels 2] < 15
    && [lindex $levels end] > 15} "the levels span below b_min, between, and above b_max ($levels)"
# independent marks: gaps between marks are geometric, CV = sqrt(1 - p)
lassign $res(middle) qb nb mb cvb
set pb [tang_p $qb]
lassign [renewal_bounds [gap_moments pa_bernoulli $pb] $nb $mb] - - cv ctol
t::near $cvb $cv $ctol "bernoulli_ (b = $qb, p = $pb): gaps between marks are geometric, CV = sqrt(1-p)"

# --- each knob alone ---------------------------------------------------------------
# without flat_above_max_, non-gentle RED above maxthresh_ marks every arrival
lassign [t::subrun price 26 {bernoulli_ true}] qmin qmax n m drops cv
t::check {$qmin > 15 && $m == $n && $n > 9000} \
    "flat_above_max_ off, b = $qmax > b_max: every arrival marked ($m of $n), as stock RED"
# flat_above_max_ changes nothing below maxthresh_: the identical trace
t::subrun price 10 {bernoulli_ true}
set f [open red-price.tr]; set tr1 [read $f]; close $f
t::subrun price 10 $both
set f [open red-price.tr]; set tr2 [read $f]; close $f
t::check {$tr1 eq $tr2} "flat_above_max_ below b_max: the identical trace ([string length $tr1] bytes)"
# flat_above_max_ without bernoulli_: max_p above maxthresh_ through stock count spacing
# (wait_ true: marks spaced between 1/max_p and 2/max_p arrivals, mean 1.5/max_p)
lassign [t::subrun price 26 {flat_above_max_ true}] qmin qmax n m drops cv
lassign [renewal_bounds [gap_moments pa_stock 0.4] $n $m] frac ftol
t::near [expr {double($m) / $n}] $frac $ftol "flat_above_max_ only, b = $qmax: max_p 0.4 through stock count spacing, fraction 1/E\[gap\] ($m of $n)"

# --- both off: stock RED -------------------------------------------------------------
# count spacing (wait_ true): the gaps between marks are far more regular than geometric
lassign [t::subrun price 10 {}] qmin qs ns ms drops cvs
set ps [tang_p $qs]
lassign [renewal_bounds [gap_moments pa_stock $ps] $ns $ms] frac ftol cv ctol
t::near $cvs $cv $ctol "stock (both off, b = $qs, p_b = $ps): gap CV of count spacing"
t::check {$cvs + $ctol < sqrt(1 - $ps)} \
    "stock: gaps far more regular than geometric (CV $cvs + $ctol < sqrt(1-p) = [expr {sqrt(1 - $ps)}])"
t::near [expr {double($ms) / $ns}] $frac $ftol \
    "stock: marked fraction 1/E\[gap\] of count spacing, not p_b ($ms of $ns)"
# the defaults are off: setting both false explicitly gives the identical trace
t::subrun price 10 {}
set f [open red-price.tr]; set tr1 [read $f]; close $f
t::subrun price 10 {bernoulli_ false flat_above_max_ false}
set f [open red-price.tr]; set tr2 [read $f]; close $f
t::check {$tr1 eq $tr2} "defaults: both knobs false, the identical trace"
# the same trace as an ns without this patch, when one is given (NS_STOCK=path)
if {[info exists env(NS_STOCK)]} {
    exec $env(NS_STOCK) $::t::script price 10 {} 2>@1
    set f [open red-price.tr]; set tr3 [read $f]; close $f
    t::check {$tr1 eq $tr3} "both off: the identical trace to the stock ns $env(NS_STOCK)"
} else {
    puts "note: NS_STOCK not set, no comparison with an unpatched ns"
}

# determinism: the same seed gives the identical trace
t::subrun price 14 $both
set f [open red-price.tr]; set tr1 [read $f]; close $f
t::subrun price 14 $both
set f [open red-price.tr]; set tr2 [read $f]; close $f
t::check {$tr1 eq $tr2} "bernoulli_: the same seed gives the identical trace"

# --- bad parameters -------------------------------------------------------------------
set m [t::subrun bad]
t::check {[string match "error: *flat_above_max_ needs gentle_ false*" $m]} \
    "flat_above_max_ with gentle_ true stops \$ns run before any event ($m)"
t::done
