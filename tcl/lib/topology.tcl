# topology.tcl -- links, gateways and TCP flows, defined once for every experiment.

# experiment::duplex A B BW DELAY QTYPE LIMIT -- a duplex link with LIMIT packets of buffer in
# both directions. QTYPE is an ns-2 Queue class name (DropTail, RED, ...).
proc experiment::duplex {a b bw delay qtype limit} {
    set ns $::experiment::ns_
    $ns duplex-link $a $b $bw $delay $qtype
    $ns queue-limit $a $b $limit
    $ns queue-limit $b $a $limit
}

# experiment::simplex A B BW DELAY QTYPE LIMIT -- one direction only.
proc experiment::simplex {a b bw delay qtype limit} {
    set ns $::experiment::ns_
    $ns simplex-link $a $b $bw $delay $qtype
    $ns queue-limit $a $b $limit
}

# The queue object of link A -> B.
proc experiment::queue {a b} {
    return [[$::experiment::ns_ link $a $b] queue]
}

# experiment::set_knobs OBJ {knob value ...} -- set bound variables explicitly.
proc experiment::set_knobs {obj knobs} {
    foreach {k v} $knobs {
        $obj set $k $v
    }
}

# Gateway disciplines by name. experiment::gateway_class NAME -> the ns-2 class for duplex-link;
# experiment::gateway_setup QUEUE NAME KNOBS configures the queue after the link exists.
#   droptail   : Queue/DropTail
#   red        : Queue/RED in packets, every knob explicit (ns-2.35 defaults differ from
#                older releases: bytes_, automatic thresholds, q_weight_ -1, gentle_)
#   randomdrop : Queue/RED that never drops early (thresholds above the buffer) and, when
#                full, enqueues the arrival and drops a packet chosen uniformly among all
#                queued ones (drop_rand_) -- Random Drop as in Floyd 1991 / Mankin.
#   choke      : Queue/RED/CHOKe (patch 0010): RED in packets plus k candidates drawn
#                from the queue per arrival once avg >= thresh; a match drops both
#   chokeplus  : Queue/RED/CHOKePlus (patch 0011): CHOKe+ of Akella et al. 2002 Sec 5.1
#   protocol1  : Queue/GaoP1 (patch 0012): Protocol I of Gao, Jain, Schulman; the
#                buffer F is the link's queue limit
#   protocol2  : Queue/GaoP2 (patch 0012): Protocol II (sliding rule 2(b)')
#   drr        : stock Queue/DRR (Shreedhar-Varghese deficit round robin): one FIFO per
#                source node (flows are told apart by source address, not fid), a full
#                buffer drops from the longest queue
#   sfq        : stock Queue/SFQ (stochastic fair queueing, McKenney): per-flow FIFOs by
#                hash, round robin one packet per turn
#   codel      : Queue/CoDel (patch 0014, RFC 8289): sojourn-time control with target and
#                interval; the link's queue limit is its buffer
#   fqcodel    : Queue/FQCoDel (patch 0015, RFC 8290): hashed flow queues, DRR with a
#                quantum, new/old lists, CoDel per queue; limit = the link's queue limit
#   pie        : Queue/PIE (patch 0016, RFC 8033): drop probability from the queueing
#                delay (timestamps), updated every tupdate with alpha and beta
proc experiment::gateway_class {name} {
    switch -- $name {
        droptail   { return DropTail }
        red        { return RED }
        randomdrop { return RED }
        choke      { return RED/CHOKe }
        chokeplus  { return RED/CHOKePlus }
        protocol1  { return GaoP1 }
        protocol2  { return GaoP2 }
        drr        { return DRR }
        sfq        { return SFQ }
        codel      { return CoDel }
        fqcodel    { return FQCoDel }
        pie        { return PIE }
        default    { experiment::_fail "unknown gateway discipline '$name' (droptail, red, randomdrop, choke, chokeplus, protocol1, protocol2, drr, sfq, codel, fqcodel, pie)" }
    }
}

# KNOBS for red: thresh maxthresh q_weight linterm (1/max_p) wait gentle drop_rand mean_pktsize
#   choke: the red knobs except drop_rand, plus k (candidates per arrival)
#   chokeplus: as choke, plus gamma1 gamma2
#   protocol1, protocol2: H L (high and low markers, packets; 0 <= L < H < queue limit)
#   drr: blimit (buffer, bytes) quantum (bytes per round) buckets (hash buckets; use
#        experiment::drr_distinct to check that the sources do not share one)
#   sfq: sfq_buckets (hash buckets)
#   codel: target interval (s)
#   fqcodel: target interval (s) fq_quantum (bytes) fq_flows (flow queues)
#   pie: qdelay_ref tupdate max_burst (s) pie_alpha pie_beta (Hz) mean_pktsize (bytes)
#   (experiment::queue_knobs, tcl/lib/queues.tcl, gives all of these from a run's parameters)
# The new classes check their parameters in C++ (as they are set, and "check"); a bad value
# stops the run here.
proc experiment::gateway_setup {q name knobs} {
    switch -- $name {
        droptail { }
        red - choke - chokeplus {
            array set k $knobs
            set need {thresh maxthresh q_weight linterm wait gentle mean_pktsize}
            switch -- $name {
                red       { lappend need drop_rand }
                choke     { lappend need k }
                chokeplus { lappend need k gamma1 gamma2 }
            }
            foreach n $need {
                if {![info exists k($n)]} { experiment::_fail "internal: $name knob '$n' missing" }
            }
            experiment::require {$k(thresh) < $k(maxthresh)} \
                "RED thresholds: min ($k(thresh)) must be below max ($k(maxthresh))"
            if {$name ne "red"} {
                if {[info exists k(drop_rand)] && $k(drop_rand)} {
                    experiment::_fail "$name: drop_rand is not supported (forced drops take the arrival)"
                }
                set k(drop_rand) 0
            }
            experiment::set_knobs $q [list bytes_ false queue_in_bytes_ false \
                thresh_ $k(thresh) maxthresh_ $k(maxthresh) q_weight_ $k(q_weight) \
                linterm_ $k(linterm) use_mark_p_ false wait_ $k(wait) gentle_ $k(gentle) \
                setbit_ false drop_tail_ [expr {$k(drop_rand) ? false : true}] \
                drop_front_ false drop_rand_ $k(drop_rand) adaptive_ 0 cautious_ 0 \
                mean_pktsize_ $k(mean_pktsize) summarystats_ false]
            if {$name ne "red"} { $q set k_ $k(k) }
            if {$name eq "chokeplus"} { experiment::set_knobs $q [list gamma1_ $k(gamma1) gamma2_ $k(gamma2)] }
        }
        randomdrop {
            experiment::set_knobs $q {bytes_ false queue_in_bytes_ false thresh_ 1e9 maxthresh_ 2e9
                q_weight_ 0.002 linterm_ 10 use_mark_p_ false wait_ false gentle_ false
                setbit_ false drop_tail_ false drop_front_ false drop_rand_ true adaptive_ 0
                cautious_ 0 summarystats_ false}
        }
        protocol1 - protocol2 {
            array set k $knobs
            foreach n {H L} {
                if {![info exists k($n)]} { experiment::_fail "internal: $name knob '$n' missing" }
            }
            experiment::set_knobs $q [list H_ $k(H) L_ $k(L)]
        }
        drr {
            array set k $knobs
            foreach n {blimit quantum buckets} {
                if {![info exists k($n)]} { experiment::_fail "internal: drr knob '$n' missing" }
                if {![string is integer -strict $k($n)] || $k($n) < 1} {
                    experiment::_fail "drr: $n must be an integer >= 1 (got '$k($n)')"
                }
            }
            experiment::set_knobs $q [list blimit_ $k(blimit) quantum_ $k(quantum) buckets_ $k(buckets) mask_ 0]
        }
        sfq - codel - fqcodel - pie {
            array set k $knobs
            # knob -> the queue's variable
            set vars [dict get {
                sfq     {sfq_buckets buckets_}
                codel   {target target_ interval interval_}
                fqcodel {target target_ interval interval_ fq_quantum quantum_ fq_flows flows_}
                pie     {qdelay_ref qdelay_ref_ tupdate tupdate_ max_burst max_burst_
                         pie_alpha alpha_ pie_beta beta_ mean_pktsize mean_pktsize_}
            } $name]
            set vals {}
            foreach {n v} $vars {
                if {![info exists k($n)]} { experiment::_fail "internal: $name knob '$n' missing" }
                lappend vals $v $k($n)
            }
            if {$name eq "sfq" && (![string is integer -strict $k(sfq_buckets)] || $k(sfq_buckets) < 1)} {
                experiment::_fail "sfq: sfq_buckets must be an integer >= 1 (got '$k(sfq_buckets)')"
            }
            # codel, fqcodel, pie: checked knobs (patch 0017) refuse a bad value as it is set
            if {[catch {experiment::set_knobs $q $vals} err]} {
                experiment::_fail "gateway $name: $err"
            }
        }
        default { experiment::_fail "unknown gateway discipline '$name'" }
    }
    if {$name in {choke chokeplus protocol1 protocol2 codel fqcodel pie} && [catch {$q check} err]} {
        experiment::_fail "gateway $name: $err"
    }
}

# experiment::drr_distinct BUCKETS NODES -- stop the run if two of NODES (the sources whose
# packets meet at a DRR queue) fall into the same of its BUCKETS: DRR would then serve them
# as one flow. Same hash as queue/drr.cc (mask_ 0): h = (a + (a >> 8) + ~(a >> 4)) mod
# (2^24 - 1) + 1, bucket h mod BUCKETS, a the node address. (Node ids 15 and 16 collide.)
proc experiment::drr_distinct {buckets nodes} {
    array set seen {}
    foreach n $nodes {
        set a [$n id]
        set x [expr {$a + ($a >> 8) + ~($a >> 4)}]
        # C's % keeps the sign: x = -1 (node 0) gives h = 0
        set h [expr {($x < 0 ? $x : $x % ((2 << 23) - 1)) + 1}]
        set b [expr {$h % $buckets}]
        if {[info exists seen($b)]} {
            experiment::_fail "drr: source nodes $seen($b) and $a share hash bucket $b of $buckets; DRR would merge their flows"
        }
        set seen($b) $a
    }
}

# TCP variants by name: sender class and sink class.
#   gaimd : Agent/TCP/Generalized (patch 0021), Misra et al.'s per-ACK rule
#           (g_alpha_, g_beta_, g_c1_, g_c2_; ECN on); the stock sink then echoes
#           each packet's CE bit (no delayed ACKs)
#   vegas : Agent/TCP/Vegas (v_alpha_/v_beta_ may be fractional and v_ignore_ecn_
#           makes it ECN-capable but deaf to marks: patch 0023)
#   fast  : Agent/TCP/Fast (patch 0024), FAST TCP (fast_alpha_, fast_gamma_,
#           fast_period_, fast_halve_) on ns-2's Reno loss recovery
#   fast_sack : the same FAST window rule as TCP-Linux congestion module "fast"
#           (patches 0026-0028) on Agent/TCP/Linux, i.e. on TCP-Linux's SACK loss
#           recovery (the recovery of the Linux hosts FAST was measured on), RTT samples
#           from the echoed timestamps; the same knobs, see experiment::tcp_flow
proc experiment::tcp_classes {variant} {
    switch -- $variant {
        tahoe   { return {Agent/TCP Agent/TCPSink} }
        reno    { return {Agent/TCP/Reno Agent/TCPSink} }
        newreno { return {Agent/TCP/Newreno Agent/TCPSink} }
        sack    { return {Agent/TCP/Sack1 Agent/TCPSink/Sack1} }
        gaimd   { return {Agent/TCP/Generalized Agent/TCPSink} }
        vegas   { return {Agent/TCP/Vegas Agent/TCPSink} }
        fast    { return {Agent/TCP/Fast Agent/TCPSink} }
        fast_sack { return {Agent/TCP/Linux Agent/TCPSink/Sack1} }
        default { experiment::_fail "unknown TCP variant '$variant' (tahoe, reno, newreno, sack, gaimd, vegas, fast, fast_sack)" }
    }
}

# experiment::tcp_flow SRC DST VARIANT FID KNOBS -- an FTP over TCP from node SRC to node DST
# with flow id FID; KNOBS are sender bound variables (window_, packetSize_, ...).
# For fast_sack the FAST knobs of Agent/TCP/Fast (fast_alpha_, fast_gamma_, fast_halve_,
# fast_period_) become the module's parameters (experiment::fast_module_params).
# Returns {tcp sink ftp}.
proc experiment::tcp_flow {src dst variant fid knobs} {
    set ns $::experiment::ns_
    lassign [experiment::tcp_classes $variant] tcls scls
    set tcp [new $tcls]
    set sink [new $scls]
    $tcp set fid_ $fid
    if {$variant eq "fast_sack"} {
        set knobs [experiment::fast_module_params $tcp $knobs]
    }
    experiment::set_knobs $tcp $knobs
    $ns attach-agent $src $tcp
    $ns attach-agent $dst $sink
    $ns connect $tcp $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    return [list $tcp $sink $ftp]
}

# experiment::fast_module_params TCP KNOBS -- select TCP-Linux's "fast" module (patches 0026-0028) for the
# Agent/TCP/Linux TCP and set its per-flow parameters from the Agent/TCP/Fast knobs in
# KNOBS; returns the other knobs. The module takes integers: alpha in whole packets,
# gamma in thousandths, halve 0/1; it updates once per RTT (fast_period_ must be 0) and
# its RTT is the mean of the last RTT's samples (fast_rtt_weight_ is not supported).
# TCP-Linux prints every such command on stdout; a bad value is an error here.
proc experiment::fast_module_params {tcp knobs} {
    array set fast {fast_alpha_ 50 fast_gamma_ 0.5 fast_halve_ true fast_period_ 0}
    set rest {}
    foreach {k v} $knobs {
        if {[string match fast_* $k]} {
            if {![info exists fast($k)]} {
                experiment::_fail "fast_sack: knob $k is not supported (fast_alpha_, fast_gamma_, fast_halve_, fast_period_ 0)"
            }
            set fast($k) $v
        } else {
            lappend rest $k $v
        }
    }
    set a $fast(fast_alpha_)
    if {![string is double -strict $a] || $a < 1 || $a != round($a)} {
        experiment::_fail "fast_sack: fast_alpha_ must be a whole number of packets >= 1 (TCP-Linux module parameters are integers), got '$a'"
    }
    set g $fast(fast_gamma_)
    if {![string is double -strict $g] || $g <= 0 || $g > 1 || abs($g * 1000 - round($g * 1000)) > 1e-9} {
        experiment::_fail "fast_sack: fast_gamma_ must lie in (0, 1] in steps of 0.001, got '$g'"
    }
    if {![string is boolean -strict $fast(fast_halve_)]} {
        experiment::_fail "fast_sack: fast_halve_ must be a boolean, got '$fast(fast_halve_)'"
    }
    if {$fast(fast_period_) != 0} {
        experiment::_fail "fast_sack: the module updates once per RTT; fast_period_ must be 0, got '$fast(fast_period_)'"
    }
    $tcp select_ca fast
    $tcp set_ca_param fast alpha [expr {int(round($a))}]
    $tcp set_ca_param fast gamma_milli [expr {int(round($g * 1000))}]
    $tcp set_ca_param fast halve [expr {$fast(fast_halve_) ? 1 : 0}]
    return $rest
}

# experiment::topology_tables -- write the simulated network as two tables (called by experiment::finish,
# so every run records what it simulated; analysis/plots/topology.py draws it):
#   topology_links   from to bw delay queue limit   every simplex link: bit/s, s, the
#                                                   queue's ns-2 class, its limit (packets)
#   topology_agents  node class fid dst             every agent attached to a node: its
#                                                   class, flow id and peer node
proc experiment::topology_tables {} {
    set ns $::experiment::ns_
    experiment::table_open topology_links {from to bw delay queue limit}
    set rows {}
    foreach k [$ns array names link_] {
        set l [$ns set link_($k)]
        set q [$l queue]
        lappend rows [list [[$l src] id] [[$l dst] id] [[$l link] set bandwidth_] \
            [[$l link] set delay_] [$q info class] [$q set limit_]]
    }
    foreach r [lsort -dictionary $rows] { experiment::row topology_links $r }
    experiment::table_open topology_agents {node class fid dst}
    foreach k [lsort -integer [$ns array names Node_]] {
        set nd [$ns set Node_($k)]
        foreach ag [$nd set agents_] {
            experiment::row topology_agents [list [$nd id] [$ag info class] [$ag set fid_] \
                [$ag set dst_addr_]]
        }
    }
}
