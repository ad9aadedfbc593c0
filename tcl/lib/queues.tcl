# Today's queues as a parameter set: the parameters of SFQ, DRR, CoDel, FQ-CoDel and PIE that a
# family offering them takes (config: parameter_sets: [queues], values in config/config.yaml).
# A family calls experiment::queue_params before experiment::parse_args and adds
# [experiment::queue_knobs] to the knobs it gives experiment::gateway_setup.
# analysis/config.py reads the declarations in this proc for every family that calls it
# (and only for those): keep one experiment::param per line.

proc experiment::queue_params {} {
    experiment::param sfq_buckets     posint "SFQ: hash buckets (flow queues)"
    experiment::param drr_quantum     posint "DRR: quantum (bytes per round)"
    experiment::param codel_target    posnum "CoDel and FQ-CoDel: target sojourn time (s), RFC 8289"
    experiment::param codel_interval  posnum "CoDel and FQ-CoDel: interval (s), RFC 8289"
    experiment::param fq_quantum      posint "FQ-CoDel: DRR quantum (bytes), RFC 8290"
    experiment::param fq_flows        posint "FQ-CoDel: flow queues, RFC 8290"
    experiment::param pie_qdelay_ref  posnum "PIE: target queueing delay (s), RFC 8033"
    experiment::param pie_tupdate     posnum "PIE: drop-probability update period (s), RFC 8033"
    experiment::param pie_max_burst   nonneg "PIE: burst allowance (s), RFC 8033"
    experiment::param pie_alpha       nonneg "PIE: weight of the delay error (Hz), RFC 8033"
    experiment::param pie_beta        nonneg "PIE: weight of the delay trend (Hz), RFC 8033"
}

# The knobs of experiment::gateway_setup for sfq, drr, codel, fqcodel and pie from this run's
# parameters, for a queue of BUFFER packets of PKT_SIZE bytes (DRR's buffer is in bytes; it
# has 1024 hash buckets: check the sources with experiment::drr_distinct). PIE's
# mean_pktsize is the family's own: give it with the RED knobs.
proc experiment::queue_knobs {buffer pkt_size} {
    return [list sfq_buckets [experiment::p sfq_buckets] \
        blimit [expr {$buffer * $pkt_size}] quantum [experiment::p drr_quantum] buckets 1024 \
        target [experiment::p codel_target] interval [experiment::p codel_interval] \
        fq_quantum [experiment::p fq_quantum] fq_flows [experiment::p fq_flows] \
        qdelay_ref [experiment::p pie_qdelay_ref] tupdate [experiment::p pie_tupdate] \
        max_burst [experiment::p pie_max_burst] pie_alpha [experiment::p pie_alpha] \
        pie_beta [experiment::p pie_beta]]
}
