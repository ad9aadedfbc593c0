# fast-model.tcl -- a plain Tcl model of FAST TCP's window update as the TCP-Linux module
# "fast" (patches 0026, 0027) applies it, written from Jin, Wei, Low, "FAST TCP:
# Motivation, Architecture, Algorithms, Performance" (INFOCOM 2004), the published update
#     w <- min{ 2w, (1 - gamma) w + gamma (baseRTT/RTT w + alpha) }
# once per RTT, with baseRTT = the smallest RTT sample so far and RTT = the mean of the
# samples since the last update, and the module's own bounds: at most the clamp
# (window_), at least 2 packets; the Linux window is the update rounded to the nearest
# integer, the real-valued w is kept for the next update unless loss recovery changed the
# Linux window in between (then the update starts from that window).
#
# fastm::replay FILE ALPHA GAMMA_MILLI CLAMP replays the module's decision trace (module
# parameter trace 1; lines "fast-trace SK TIME EVENT ...", format in tcp/linux/tcp_fast.c),
# one flow per SK: the model takes the samples (the trace's inputs), keeps its own
# baseRTT, sample count and sum, w and last window, and at each update line checks the
# module's state before the update against its own and computes the update itself; the
# result must be the module's to the last bit (the same IEEE double operations in the same
# order). Returns a dict: lines updates samples nosamples restarts skips doubled (updates
# where 2w bound) from_linux (updates that started from a window loss recovery had set)
# mismatches first (the first mismatch, "" if none) base_us (each flow's last baseRTT, in
# the order the flows first appear in the trace).
namespace eval fastm {}

proc fastm::replay {file alpha gamma_milli clamp} {
    set g [expr {$gamma_milli < 1 ? 0.001 : ($gamma_milli > 1000 ? 1.0 : $gamma_milli / 1000.0)}]
    set a [expr {$alpha < 1 ? 1 : $alpha}]
    array set c {lines 0 updates 0 samples 0 nosamples 0 restarts 0 skips 0 doubled 0
        from_linux 0 mismatches 0}
    set first ""
    set flows {}
    array set base {}; array set cnt {}; array set sum {}; array set w {}; array set last {}
    set f [open $file]
    while {[gets $f line] >= 0} {
        if {![string match "fast-trace *" $line]} { continue }
        incr c(lines)
        set rest [lassign $line - sk t ev]
        if {![info exists base($sk)]} {
            set base($sk) 0; set cnt($sk) 0; set sum($sk) 0
            lappend flows $sk
        }
        set bad ""
        switch -- $ev {
            sample {
                incr c(samples)
                set rtt [lindex $rest 0]
                if {$base($sk) == 0 || $rtt < $base($sk)} { set base($sk) $rtt }
                incr cnt($sk)
                incr sum($sk) $rtt
            }
            nosample { incr c(nosamples) }
            restart {
                incr c(restarts)
                set cnt($sk) 0; set sum($sk) 0
            }
            skip {
                incr c(skips)
                if {$cnt($sk) != 0 && $base($sk) != 0} { set bad "the model has $cnt($sk) samples" }
            }
            update {
                incr c(updates)
                lassign $rest cwnd0 w0 last0 base0 cnt0 sum0 arrow w1 cwnd1
                # the state before the update: the module's must be the model's (w and the
                # last window from the model's previous update; the first update starts from
                # the module's initial window)
                if {![info exists w($sk)]} { set w($sk) $w0; set last($sk) $last0 }
                if {$base0 != $base($sk) || $cnt0 != $cnt($sk) || $sum0 != $sum($sk) ||
                    $w0 != $w($sk) || $last0 != $last($sk)} {
                    set bad "state: module base $base0 cnt $cnt0 sum $sum0 w $w0 last $last0,\
                        model base $base($sk) cnt $cnt($sk) sum $sum($sk) w $w($sk) last $last($sk)"
                }
                if {$cnt($sk) == 0} {
                    incr c(mismatches)
                    if {$first eq ""} { set first "line $c(lines) ($line): an update with no sample in the model" }
                    continue
                }
                set avg [expr {double($sum($sk)) / $cnt($sk)}]
                if {$cwnd0 == $last($sk)} {
                    set x $w($sk)
                } else {
                    set x [expr {double($cwnd0)}]
                    incr c(from_linux)
                }
                set target [expr {(1 - $g) * $x + $g * (double($base($sk)) / $avg * $x + $a)}]
                if {$target > 2 * $x} { set target [expr {2 * $x}]; incr c(doubled) }
                if {$target > $clamp} { set target [expr {double($clamp)}] }
                if {$target < 2} { set target 2.0 }
                set cw [expr {int($target + 0.5)}]
                if {$bad eq "" && ($w1 != $target || $cwnd1 != $cw)} {
                    set bad "update: module w $w1 window $cwnd1, model w [format %.17g $target] window $cw"
                }
                set w($sk) $target
                set last($sk) $cw
                # the update restarts the period (the module writes that restart next)
            }
            default { set bad "unknown event" }
        }
        if {$bad ne ""} {
            incr c(mismatches)
            if {$first eq ""} { set first "line $c(lines) ($line): $bad" }
        }
    }
    close $f
    return [dict create {*}[array get c] first $first base_us [lmap sk $flows { set base($sk) }]]
}
