"""Our Simulators register only the packet headers our components read
(tcl/lib/sim.tcl, experiment::headers): every packet's headers are zeroed when it is made, so
ns-2's ~70 default headers cost up to a third of a run's CPU. Leaving one out that a
component reads would make it read and write another header's bytes: every kind of run of
the five papers (each family with each TCP, queue and gateway it is configured with, smoke
fidelity) must write the same files, byte for byte, with the pruned set as with ns-2's full
default set (experiment::all_headers 1). The second test shows the comparison can fail: a
set without the TCP header does not give the same results."""

from __future__ import annotations

import subprocess
from pathlib import Path

from analysis import config as conf
from analysis.nsrun import format_value


def scenarios(cfg: dict) -> list[tuple[str, Path, list[str]]]:
    """(label, Tcl script, arguments) of the first smoke run of each kind of run: each
    family with each combination of its text-valued parameters (they choose the agents,
    queues, gateways and sources a run builds: tcp, queue, short_tcp, aqm, ...)."""
    seen: set[tuple] = set()
    out = []
    for paper in conf.papers(cfg):
        for exp, e in cfg[paper]["experiments"].items():
            if "smoke" not in e["fidelity"]:
                continue
            for run in conf.runs(cfg, paper, exp, "smoke"):
                chosen = sorted((k, v) for k, v in run.params.items() if isinstance(v, str))
                kind = (paper, e["family"], *chosen)
                if kind in seen:
                    continue
                seen.add(kind)
                args = [f"{k}={format_value(v)}" for k, v in run.params.items()]
                script = conf.tcl_script(paper, e["family"])
                out.append((f"{paper}/{exp}/{run.run_id}", Path(script), [*args, "ns_id=t"]))
    return out


def _run(ns: Path, wrapper: Path, script: Path, args: list[str], out: Path) -> dict[str, bytes]:
    r = subprocess.run(
        [str(ns), str(wrapper), str(script), *args, f"out={out}"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert r.returncode == 0 and (out / "summary.json").is_file(), r.stderr[-2000:]
    return {f.name: f.read_bytes() for f in sorted(out.glob("*.tsv"))}


def _wrapper(tmp: Path, name: str, before: str) -> Path:
    """A Tcl file that sets things up, then sources the experiment named by its first
    argument with the others."""
    w = tmp / f"{name}.tcl"
    w.write_text(
        f"{before}\n"
        "set script [lindex $argv 0]\nset argv [lrange $argv 1 end]\n"
        "set argc [llength $argv]\nsource $script\n"
    )
    return w


def test_pruned_headers_change_no_result(cfg: dict, ns_binary: Path, tmp_path: Path) -> None:
    pruned = _wrapper(tmp_path, "pruned", "")
    full = _wrapper(tmp_path, "full", "namespace eval experiment { variable all_headers 1 }")
    runs = scenarios(cfg)
    assert len(runs) >= 20  # every family, TCP, queue and gateway of the five papers
    differ = []
    for k, (label, script, args) in enumerate(runs):
        a = _run(ns_binary, pruned, script, args, tmp_path / f"p{k}")
        b = _run(ns_binary, full, script, args, tmp_path / f"f{k}")
        assert a, f"{label}: no result files"
        differ += [f"{label}: {name}" for name in a if a[name] != b.get(name)]
    assert not differ, "results differ with ns-2's full header set:\n" + "\n".join(differ)


def test_a_missing_header_is_caught(cfg: dict, ns_binary: Path, tmp_path: Path) -> None:
    label, script, args = next(s for s in scenarios(cfg) if "/dumbbell" in str(s[1]))
    full = _wrapper(tmp_path, "full", "namespace eval experiment { variable all_headers 1 }")
    # no TCP header: TCP reads and writes its sequence numbers over another header's bytes
    broken = _wrapper(
        tmp_path, "broken", "namespace eval experiment { variable headers {IP Flags RTP QS NV} }"
    )
    b = _run(ns_binary, full, script, args, tmp_path / "full")
    try:
        a = _run(ns_binary, broken, script, args, tmp_path / "broken")
    except AssertionError:
        return  # the run failed outright: caught too
    assert any(a[name] != b.get(name) for name in a), f"{label}: same results without TCP"
