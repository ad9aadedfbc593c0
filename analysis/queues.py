"""Today's queues, as the experiments beyond the papers name them (config gateway/queue
values; tcl/lib/topology.tcl): their labels, in the order tables and figures list them, and
which of them schedule per flow."""

from __future__ import annotations

#: name -> label, in the order tables and figures list them
LABELS = {
    "droptail": "Drop Tail",
    "red": "RED",
    "choke": "CHOKe",
    "chokeplus": "CHOKe+",
    "codel": "CoDel",
    "pie": "PIE",
    "sfq": "SFQ",
    "drr": "DRR",
    "fqcodel": "FQ-CoDel",
}
#: per-flow schedulers: a queue per flow (or hash bucket), served in turn
PER_FLOW = ("sfq", "drr", "fqcodel")
#: one FIFO queue that drops by its delay (RFC 8289, RFC 8033)
DELAY_AQM = ("codel", "pie")
