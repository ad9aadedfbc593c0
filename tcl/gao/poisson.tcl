# Gao, Jain, Schulman, Simulation 1 (Figure 2): one router output link of rate r shared
# by five Poisson flows 0-4. Flows 0-3 send at fixed rates (paper: r, 2r/3, r/2, 2r/5),
# flow 4 at s4 x r. The queue is Protocol I or II with buffer F, H = F / H_div and L
# (paper: H = F/6, L = 0).
#
# The Poisson sources (Application/Traffic/Poisson on Agent/UDP, fixed-size packets,
# exponential gaps, one RNG substream per flow) sit on the router node itself, so the queue sees their Poisson arrival
# times exactly; their sink is the node at the far end of the link.
#
# Writes:
#   flows.tsv   fid rate                             (sending rate, bit/s)
#   counts.tsv  t link fid arrivals departures drops (cumulative packets at the queue,
#               sampled at t = sim1_warmup and t = duration; link is always 1)
source [file join [file dirname [info script]] .. lib experiment.tcl]

experiment::param gateway   {enum protocol1 protocol2} "discipline of the router queue"
experiment::param r         posnum "link rate r (bit/s)"
experiment::param r_delay   nonneg "link one-way delay (s)"
experiment::param rates     string "rates of flows 0-3 in units of r: numbers or fractions a/b, comma-separated"
experiment::param s4        posnum "rate of flow 4 in units of r"
experiment::param pkt_size  posint "packet size (bytes)"
experiment::param F         posint "buffer F (packets)"
experiment::param H_div     posint "high marker H = floor(F / H_div) (packets)"
experiment::param L         int    "low marker L (packets)"
experiment::param duration  posnum "simulated time (s)"
experiment::param sim1_warmup nonneg "measurement starts here (s); ends at duration"
experiment::parse_args $argv

# "1,2/3,0.5" -> {1.0 0.666.. 0.5}; every entry must be a number or a/b, and > 0
proc parse_rates {text} {
    set out {}
    foreach w [split $text ,] {
        set w [string trim $w]
        if {[regexp {^([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)(?:/([0-9]*\.?[0-9]+))?$} $w -> a b]} {
            # (no division by 0: ns traps floating-point exceptions)
            if {$b eq "" || $b > 0} {
                set v [expr {$b eq "" ? double($a) : double($a) / $b}]
                if {$v > 0} { lappend out $v; continue }
            }
        }
        experiment::_fail "rates: '$w' is not a positive number or fraction a/b (rates = '$text')"
    }
    return $out
}
set rel [parse_rates [experiment::p rates]]
experiment::require {[llength $rel] == 4} "rates must list the rates of flows 0-3 (4 values), got [llength $rel]: '[experiment::p rates]'"
lappend rel [experiment::p s4]
experiment::limit L<H<F {0 <= L && L < int(F / H_div) && int(F / H_div) < F} \
    {markers need 0 <= L < H < F with H = floor(F / H_div) (L {L}, F {F}, H_div {H_div})}
experiment::limit sim1_warmup<duration {sim1_warmup < duration} \
    {sim1_warmup ({sim1_warmup}) must be below duration ({duration})}
set H [expr {[experiment::p F] / [experiment::p H_div]}]

set ns [experiment::sim_new [experiment::p seed]]
set gw [experiment::p gateway]
set r1 [$ns node]; set r2 [$ns node]
experiment::simplex $r1 $r2 [experiment::p r] [experiment::p r_delay] [experiment::gateway_class $gw] [experiment::p F]
experiment::gateway_setup [experiment::queue $r1 $r2] $gw [list H $H L [experiment::p L]]
set null [new Agent/Null]
$ns attach-agent $r2 $null

experiment::table_open flows {fid rate}
set fids {}
for {set fid 0} {$fid < 5} {incr fid} {
    set bps [expr {[lindex $rel $fid] * [experiment::p r]}]
    set u [new Agent/UDP]
    $u set fid_ $fid
    $u set packetSize_ [experiment::p pkt_size]
    $ns attach-agent $r1 $u
    $ns connect $u $null
    set src [new Application/Traffic/Poisson]
    $src attach-agent $u
    # each flow draws its gaps from its own substream of the seed's RNG: flows 0-3 send
    # the same packet times whatever flow 4's rate (common random numbers across s4)
    set rng [new RNG]
    $rng seed [experiment::p seed]
    for {set k 0} {$k <= $fid} {incr k} { $rng next-substream }
    $src use-rng $rng
    experiment::set_knobs $src [list rate_ $bps packetSize_ [experiment::p pkt_size]]
    $ns at 0.0 "$src start"
    experiment::row flows [list $fid [format %.10g $bps]]
    lappend fids $fid
}

set fm [experiment::flowmon $r1 $r2]
experiment::table_open counts {t link fid arrivals departures drops}
proc sample {} {
    global ns fm fids
    foreach {fid c} [experiment::flow_counts $fm $fids] {
        experiment::row counts [concat [list [$ns now] 1 $fid] $c]
    }
}
$ns at [experiment::p sim1_warmup] sample
$ns at [experiment::p duration] sample

proc finish {} {
    global ns r1 r2 H
    set q [experiment::queue $r1 $r2]
    experiment::finish gao/poisson.tcl [list H $H overflow_drops [$q set overflow_drops_] \
        stamp_drops [$q set stamp_drops_]]
    exit 0
}
$ns at [expr {[experiment::p duration] + 1e-6}] finish
$ns run
