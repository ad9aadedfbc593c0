"""Run one ns-2 experiment script safely.

Every simulation rule calls this module, so a run is always executed the same way:

* the output folder is emptied first, so nothing of an earlier run survives;
* the script gets every parameter as ``key=value`` plus ``seed=``, ``out=`` and
  ``ns_id=`` (the identity of the binary, from ``<ns>.id``);
* ns's own output goes to ``<out>/ns.log``;
* the run counts as done only if ns exits 0 and wrote a complete ``summary.json``
  (the Tcl result writer renames it into place last). Otherwise the folder is
  renamed ``<out>.failed`` so no file that looks complete is left behind, and the
  exit status is non-zero.

Usage::

    python -m analysis.nsrun --ns build/ns2/bin/ns --script tcl/x/y.tcl --out DIR k=v ...
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path


class NsRunError(RuntimeError):
    """An ns run failed or produced incomplete output."""


def format_value(value: object) -> str:
    """The command-line spelling of a config value (YAML bools as true/false)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def ns_identity(ns: Path) -> str:
    """The identity recorded next to the binary by the build rule (``<ns>.id``)."""
    id_file = ns.with_name(ns.name + ".id")
    if id_file.is_file():
        return id_file.read_text().strip()
    return "unknown"


def run(
    ns: Path,
    script: Path,
    out: Path,
    params: Mapping[str, object],
    timeout: float | None = None,
) -> dict:
    """Run ``ns script`` with ``params``; return the parsed summary.json."""
    for reserved in ("out", "ns_id"):
        if reserved in params:
            raise ValueError(f"parameter '{reserved}' is set by nsrun, not by the config")
    if not ns.is_file():
        raise NsRunError(f"ns binary {ns} not found: build it with 'snakemake build_ns'")
    failed = out.with_name(out.name + ".failed")
    for d in (out, failed):
        if d.exists():
            shutil.rmtree(d)
    out.mkdir(parents=True)
    args = [f"{k}={format_value(v)}" for k, v in params.items()]
    args += [f"out={out}", f"ns_id={ns_identity(ns)}"]
    log = out / "ns.log"
    try:
        with log.open("w") as fh:
            proc = subprocess.run(
                [str(ns.resolve()), str(script), *args],
                stdout=fh,
                stderr=subprocess.STDOUT,
                timeout=timeout,
                check=False,
            )
        status = f"exit status {proc.returncode}" if proc.returncode else ""
    except subprocess.TimeoutExpired:
        status = f"timeout after {timeout} s"
    summary_path = out / "summary.json"
    if not status:
        if not summary_path.is_file():
            status = "no summary.json written"
        else:
            summary = json.loads(summary_path.read_text())
            if summary.get("complete") is not True:
                status = "summary.json not marked complete"
    if status:
        out.rename(failed)
        tail = (failed / "ns.log").read_text().splitlines()[-15:]
        raise NsRunError(
            f"ns run {script} -> {out} failed ({status}); output kept in {failed}\n"
            + "\n".join("    " + line for line in tail)
        )
    return summary


def _parse_kv(words: Sequence[str]) -> dict[str, str]:
    params: dict[str, str] = {}
    for w in words:
        k, sep, v = w.partition("=")
        if not sep or not k:
            raise SystemExit(f"nsrun: argument '{w}' is not key=value")
        params[k] = v
    return params


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ns", type=Path, required=True)
    ap.add_argument("--script", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--timeout", type=float, default=None)
    ap.add_argument("params", nargs="*", help="key=value")
    a = ap.parse_args(argv)
    try:
        run(a.ns, a.script, a.out, _parse_kv(a.params), a.timeout)
    except NsRunError as e:
        print(f"nsrun: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
