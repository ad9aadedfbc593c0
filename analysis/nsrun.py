"""Run one ns-2 experiment script safely.

Every simulation rule calls this module, so a run is always executed the same way:

* the output folder is emptied first, so nothing of an earlier run survives;
* the script gets every parameter as ``key=value`` plus ``seed=``, ``out=`` and
  ``ns_id=`` (the identity of the binary, from ``<ns>.id``);
* ns's own output goes to ``<out>/ns.log``;
* the run counts as done only if ns exits 0 and wrote a complete ``summary.json``
  (the Tcl result writer renames it into place last). Otherwise the folder is
  renamed ``<out>.failed`` so no file that looks complete is left behind, and the
  exit status is non-zero;
* one ns per run folder: the run holds an exclusive lock (``flock`` on
  ``.<run>.lock`` beside the folder, inherited by ns) from before the folder is emptied
  until it is complete or renamed. A second run of the same folder waits a few seconds
  for the lock (an ns being killed lets go at once), then refuses, naming the holder;
* no orphans: ns is killed when nsrun dies (``PR_SET_PDEATHSIG``, set by util-linux's
  ``setpriv`` where the machine has it), and nsrun kills ns
  and gives up when the process named by ``$CCR_OWNER_PID`` (the Snakemake that started
  the job; the Snakefile sets it) dies, even by ``kill -9``;
* the time limit comes from ``--timeout`` or ``$CCR_NS_TIMEOUT_S`` (the Snakefile sets it
  from ``ns.run_timeout_s``): it is not a rule parameter, so changing it reruns nothing;
* a run store for batches: on a cluster, runs go out in batches (Snakemake group jobs), and
  when one job of a batch fails or the batch is cancelled, Snakemake deletes the outputs of
  every job of that batch, the finished ones too. So inside a Slurm job (``$SLURM_JOB_ID``
  set), or wherever ``$CCR_RUN_STORE`` names a folder, each finished run is also kept in the
  store (hard links, no copy) under a key of everything that makes it: the output folder,
  the ns identity, the Tcl script and every Tcl file beside it and in ``tcl/lib``, this
  module, and the arguments. A later run with the same key is restored from there (the
  summary last, so a cut restore looks incomplete) instead of simulated again. Runs are
  deterministic (same inputs, same bytes), so a restored run is the run a rerun would make.
  Local runs (one job per run) do not use the store unless ``$CCR_RUN_STORE`` says so;
  ``$CCR_RUN_STORE=off`` turns it off everywhere.

Usage::

    python -m analysis.nsrun --ns build/ns2/bin/ns --script tcl/x/y.tcl --out DIR k=v ...
    python -m analysis.nsrun ... --out DIR/s{seed} --seeds 1 2 3 k=v ...   (a batch of seeds)
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import fcntl
import hashlib
import json
import os
import resource
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from analysis import nsio

TIMEOUT_ENV = "CCR_NS_TIMEOUT_S"  # seconds an ns run may take (the Snakefile sets it)
OWNER_ENV = "CCR_OWNER_PID"  # the process whose death ends the run (the Snakefile's)
STORE_ENV = "CCR_RUN_STORE"  # the run store's folder; 'off' or '' for none
STORE_DEFAULT = Path("results/.runstore")  # the store inside a Slurm job, unless set
STORE_FORMAT = b"2"  # part of every key: bump it when the store's layout changes
LOCK_WAIT_S = 10.0  # how long a second run of a folder waits for the first to let go
KEY_FILE = "run.key"  # a finished run's key (run_key), written after its summary.json
ARGS_FILE = "run.args"  # how a finished run was made (ns, script, parameters): remake()
_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


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


def store_dir() -> Path | None:
    """The run store in use: ``$CCR_RUN_STORE`` ('' or 'off': none), else the default one
    inside a Slurm job, else none."""
    raw = os.environ.get(STORE_ENV)
    if raw is None:
        return STORE_DEFAULT if os.environ.get("SLURM_JOB_ID") else None
    raw = raw.strip()
    return None if raw in ("", "off") else Path(raw)


def tcl_sources(script: Path) -> list[Path]:
    """The Tcl files a run may read: the script, the files beside it, the shared library."""
    dirs = {script.parent, script.parent.parent / "lib"}
    return sorted({script, *(f for d in dirs if d.is_dir() for f in d.glob("*.tcl"))})


def run_key(ns: Path, script: Path, out: Path, args: Sequence[str]) -> str | None:
    """The store key of a run: a hash of everything that makes its bytes (None when the
    binary has no recorded identity: then the key could not tell two binaries apart)."""
    ns_id = ns_identity(ns)
    if ns_id == "unknown":
        return None
    h = hashlib.sha256()

    def add(label: str, data: bytes) -> None:
        h.update(label.encode() + b"\0" + len(data).to_bytes(8, "little") + data)

    add("format", STORE_FORMAT)
    add("nsrun", Path(__file__).read_bytes())
    add("ns", ns_id.encode())
    add("out", str(out).encode())
    for f in tcl_sources(script):
        add(f"tcl:{f}", f.read_bytes())
    add("args", "\0".join(sorted(args)).encode())  # ns reads them by name, in any order
    return h.hexdigest()


def store_entry(store: Path, key: str) -> Path:
    return store / key[:2] / key


def _link_tree(src: Path, dst: Path) -> None:
    """Hard-link the files of src into dst (made if missing), summary.json last."""
    files = sorted(f for f in src.rglob("*") if f.is_file())
    files.sort(key=lambda f: f.name == "summary.json")
    for f in files:
        target = dst / f.relative_to(src)
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(f, target)
        except OSError:  # e.g. a store on another file system
            shutil.copy2(f, target)


def keep_in_store(out: Path, entry: Path) -> None:
    """Add a finished run to the store (made aside, then renamed into place: an entry
    exists only complete). An entry already there stays."""
    if entry.exists():
        return
    tmp = entry.with_name(f"{entry.name}.tmp{os.getpid()}")
    if tmp.exists():
        shutil.rmtree(tmp)
    _link_tree(out, tmp)
    try:
        tmp.rename(entry)
    except OSError:  # another run kept the same entry first
        shutil.rmtree(tmp)


def restore_from_store(entry: Path, out: Path) -> dict | None:
    """Restore a kept run into the (empty) folder out; its summary, or None if the store
    has no complete entry."""
    if not (entry / "summary.json").is_file():
        return None
    _link_tree(entry, out)
    summary = json.loads((out / "summary.json").read_text())
    if summary.get("complete") is not True:
        raise NsRunError(f"run store entry {entry} holds an incomplete summary.json")
    return summary


def lock_path(out: Path) -> Path:
    """The lock file of a run folder (beside it: the folder itself is emptied)."""
    return out.with_name(f".{out.name}.lock")


@contextlib.contextmanager
def run_lock(out: Path, wait: float | None = None) -> Iterator[int]:
    """Hold the run folder's lock; yield its file descriptor (for ns to inherit). Wait up
    to ``wait`` seconds (default LOCK_WAIT_S) for another holder to let go.

    The lock file holds the holder's pid (for the message) and is removed on release; a
    waiter that locked a file already removed tries again."""
    path = lock_path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + (LOCK_WAIT_S if wait is None else wait)
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
            os.close(fd)
            if time.monotonic() >= deadline:
                raise NsRunError(
                    f"run folder {out} is held by another live ns run (pid {holder}, lock "
                    f"{path}): wait for it to finish or kill it, then rerun"
                ) from None
            time.sleep(0.1)
            continue
        try:
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)  # the previous holder removed the file between our open and lock
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield fd
    finally:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        os.close(fd)


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _die_with(parent: int, libc: ctypes.CDLL) -> object:
    """A preexec_fn: the child gets SIGKILL when ``parent`` (this process) dies."""

    def preexec() -> None:
        if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
            os._exit(126)
        if os.getppid() != parent:  # died between fork and prctl
            os._exit(126)

    return preexec


#: util-linux's setpriv, which sets its own parent-death signal and execs the rest of its
#: command line (None where it is missing: then the preexec_fn above, which costs more)
SETPRIV = shutil.which("setpriv")
#: run by setpriv: exits 126 if the parent (``$1``) died before setpriv set the signal, else
#: execs the command; so ns is always killed with its parent, as with :func:`_die_with`
_CHECK_PARENT = 'test "$PPID" = "$1" || exit 126; shift; exec "$@"'


def die_with_parent(cmd: Sequence[str], parent: int) -> tuple[list[str], object]:
    """(argv, preexec_fn) for ``subprocess.Popen`` that start ``cmd`` as a process killed
    (SIGKILL) when ``parent`` (this process) dies: through setpriv where the machine has it,
    else with a preexec_fn. A preexec_fn makes Python fork this whole process (its page
    tables copied, then the child's pages copied as it touches them) instead of vfork,
    which costs a large process several times the CPU per start (CHANGELOG.md)."""
    if SETPRIV is None:
        return list(cmd), _die_with(parent, _libc())
    argv = [SETPRIV, "--pdeathsig", "KILL", "/bin/sh", "-c", _CHECK_PARENT, "sh", str(parent)]
    return [*argv, *cmd], None


def _owner_fd() -> tuple[int, int] | None:
    """(pid, pidfd) of the process named by $CCR_OWNER_PID; None when it is not set."""
    raw = os.environ.get(OWNER_ENV, "").strip()
    if not raw:
        return None
    pid = int(raw)
    try:
        return pid, os.pidfd_open(pid)
    except ProcessLookupError:
        raise NsRunError(
            f"the process that started this run (${OWNER_ENV}={pid}) is gone; not starting"
        ) from None


def wait_for_exit(proc: subprocess.Popen, timeout: float | None) -> int:
    """``proc.wait(timeout)`` without its polling (see :func:`wait_for_exit_cpu`)."""
    return wait_for_exit_cpu(proc, timeout)[0]


def wait_for_exit_cpu(proc: subprocess.Popen, timeout: float | None) -> tuple[int, float | None]:
    """(exit status as Popen.returncode, the process's own CPU seconds): ``proc.wait(timeout)``
    without its polling. With a timeout, Popen.wait sleeps and polls, its sleeps growing to
    50 ms, so it notices the end of a short ns run late, its core idle meanwhile; here a
    select on the process's pidfd wakes when it exits, and ``os.wait4`` reaps it with its own
    rusage (exact in a process that runs several ns at once from threads, where the
    process-wide RUSAGE_CHILDREN mixes them). subprocess.TimeoutExpired as Popen.wait;
    Popen.wait itself, and no CPU figure (None), where pidfds are missing (Linux before 5.3)."""
    try:
        fd = os.pidfd_open(proc.pid)
    except (AttributeError, OSError):
        return proc.wait(timeout=timeout), None
    try:
        ready, _, _ = select.select([fd], [], [], timeout)
    finally:
        os.close(fd)
    if not ready:
        raise subprocess.TimeoutExpired(proc.args, timeout)  # type: ignore[arg-type]
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, usage.ru_utime + usage.ru_stime


def _supervise(
    proc: subprocess.Popen, owner: tuple[int, int] | None, timeout: float | None
) -> tuple[str, float | None]:
    """Wait for ns; kill it on timeout, on the owner's death or on an interrupt. Return ''
    or why the run did not finish, and ns's CPU seconds (None where not measured)."""
    died: list[int] = []
    wake_r, wake_w = os.pipe()

    def watch(pid: int, fd: int) -> None:
        ready, _, _ = select.select([fd, wake_r], [], [])
        if fd in ready:
            died.append(pid)
            proc.kill()

    watcher = None
    if owner is not None:
        watcher = threading.Thread(target=watch, args=owner, daemon=True)
        watcher.start()
    cpu: float | None = None
    try:
        rc, cpu = wait_for_exit_cpu(proc, timeout)
        status = f"exit status {rc}" if rc else ""
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        status = f"timeout after {timeout} s"
    except BaseException:  # KeyboardInterrupt, SIGTERM (see main): never leave ns behind
        proc.kill()
        proc.wait()
        status = "interrupted"
    finally:
        os.write(wake_w, b"x")
        if watcher is not None:
            watcher.join()
        os.close(wake_r)
        os.close(wake_w)
    if died:
        status = f"the process that started it (pid {died[0]}) died; ns killed"
    return status, cpu


def run(
    ns: Path,
    script: Path,
    out: Path,
    params: Mapping[str, object],
    timeout: float | None = None,
    cpu_log: Path | None = None,
    reuse: bool = False,
    lock_wait: float | None = None,
) -> dict:
    """Run ``ns script`` with ``params``; return the parsed summary.json.

    ``cpu_log``: append a line ``<out> TAB <CPU s of ns> TAB <made|restored>`` to this file
    (ns's user + system time from the reaped child's rusage; a run restored from the store
    made no ns process). Snakemake's benchmark cpu_time samples the process tree, once a
    second and then every 30 s, so it misses what a short ns run spends between samples;
    this is the exact figure, kept outside results/ (it differs from run to run).

    ``reuse``: a run already complete in ``out`` and made from the same inputs
    (:func:`reusable_run`) is returned as it is, not made again (a search's driver: a run any
    job made is shared); checked once the folder's lock is held, so a run being made by
    another process is waited for (``lock_wait`` seconds; default LOCK_WAIT_S), then reused.
    Without it the folder is always made anew: a Snakemake job runs because its outputs are
    to be remade."""
    for reserved in ("out", "ns_id"):
        if reserved in params:
            raise ValueError(f"parameter '{reserved}' is set by nsrun, not by the config")
    if not ns.is_file():
        raise NsRunError(f"ns binary {ns} not found: build it with 'snakemake build_ns'")
    owner = _owner_fd()
    try:
        with run_lock(out, lock_wait) as lock_fd:
            if reuse:
                done = reusable_run(ns, script, out, params)
                if done is not None:
                    return done
            c0 = _children_cpu()
            summary, how, cpu = _run_locked(ns, script, out, params, timeout, owner, lock_fd)
            if cpu_log is not None:
                if cpu is None:  # not measured per process (no pidfd): this process's children
                    cpu = _children_cpu() - c0
                cpu_log.parent.mkdir(parents=True, exist_ok=True)
                with cpu_log.open("a") as fh:
                    fh.write(f"{out}\t{cpu:.3f}\t{how}\n")
            return summary
    finally:
        if owner is not None:
            os.close(owner[1])


def complete_summary(out: Path) -> dict | None:
    """The summary.json of a finished run in ``out``, or None when it has none or one not
    marked complete (a run cut short: made again)."""
    try:
        summary = json.loads((out / "summary.json").read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        return None
    return summary if isinstance(summary, dict) and summary.get("complete") is True else None


def run_args(params: Mapping[str, object]) -> list[str]:
    """A run's parameters as ns's ``key=value`` words (before nsrun adds out= and ns_id=)."""
    return [f"{k}={format_value(v)}" for k, v in params.items()]


def reusable_run(ns: Path, script: Path, out: Path, params: Mapping[str, object]) -> dict | None:
    """The summary of the run in ``out`` if it is complete and was made from exactly these
    inputs (its ``run.key``, written when it finished, equals :func:`run_key` now: the same
    ns, Tcl files, this module, folder and arguments), else None: a run from another binary,
    script or parameters, or one that never finished, is made again."""
    key = run_key(ns, script, out, run_args(params))
    if key is None:
        return None
    try:
        if (out / KEY_FILE).read_text().strip() != key:
            return None
    except FileNotFoundError:
        return None
    return complete_summary(out)


def _run_locked(
    ns: Path,
    script: Path,
    out: Path,
    params: Mapping[str, object],
    timeout: float | None,
    owner: tuple[int, int] | None,
    lock_fd: int,
) -> tuple[dict, str, float | None]:
    """The run's summary, 'made' or 'restored' (from the store: no ns ran), and ns's CPU
    seconds (0 for a restored run; None where not measured per process)."""
    failed = out.with_name(out.name + ".failed")
    for d in (out, failed):
        if d.exists():
            shutil.rmtree(d)
    out.mkdir(parents=True)
    args = run_args(params)
    store, key = store_dir(), run_key(ns, script, out, args)
    if store is not None and key is not None:
        restored = restore_from_store(store_entry(store, key), out)
        if restored is not None:
            print(f"nsrun: {out} restored from the run store ({key[:12]})", file=sys.stderr)
            return restored, "restored", 0.0
    args += [f"out={out}", f"ns_id={ns_identity(ns)}"]
    log = out / "ns.log"
    with log.open("w") as fh:
        argv, preexec = die_with_parent([str(ns.resolve()), str(script), *args], os.getpid())
        proc = subprocess.Popen(
            argv,
            stdout=fh,
            stderr=subprocess.STDOUT,
            pass_fds=(lock_fd,),  # an ns that outlives nsrun still holds the folder
            preexec_fn=preexec,  # type: ignore[arg-type]  # noqa: PLW1509
        )
        status, cpu = _supervise(proc, owner, timeout)
    summary: dict = {}
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
    words = {k: format_value(v) for k, v in params.items()}
    made = {"ns": str(ns), "script": str(script), "params": words}
    (out / ARGS_FILE).write_text(json.dumps(made, indent=1, sort_keys=True) + "\n")
    nsio.write_manifest(out)  # the outputs' digests, checked where a run is read
    if key is not None:  # after the summary: a run without it is made again (reusable_run)
        (out / KEY_FILE).write_text(key + "\n")
    if store is not None and key is not None:
        entry = store_entry(store, key)
        entry.parent.mkdir(parents=True, exist_ok=True)
        keep_in_store(out, entry)
    return summary, "made", cpu


def remake(out: Path) -> dict:
    """Make the run that was in ``out`` again, as it was made (its ``run.args``, kept where a
    corrupt run was moved aside: :func:`analysis.nsio.quarantine`); its summary. NsRunError
    when nothing says how it was made (a run from before run.args)."""
    aside = out.with_name(out.name + ".corrupt")
    for d in (out, aside):
        if (d / ARGS_FILE).is_file():
            made = json.loads((d / ARGS_FILE).read_text())
            break
    else:
        raise NsRunError(f"{out}: no {ARGS_FILE} says how it was made; rerun its job")
    return run(Path(made["ns"]), Path(made["script"]), out, made["params"])


def read_cpu_log(path: Path) -> dict[str, tuple[float, bool]]:
    """A ``--cpu-log`` file: each run's output folder -> (ns's CPU seconds, made: False for a
    run restored from the store, which made no ns process). A run logged twice keeps its
    last line."""
    out: dict[str, tuple[float, bool]] = {}
    for line in path.read_text().splitlines():
        run_out, cpu, how = line.split("\t")
        if how not in ("made", "restored"):
            raise ValueError(f"{path}: '{how}' is neither made nor restored")
        out[run_out] = (float(cpu), how == "made")
    return out


def read_benchmark_cpu(path: Path) -> float:
    """The CPU seconds (cpu_time) of a Snakemake benchmark file (``benchmark:``; its first
    repeat, the only one the rules make); 0.0 where Snakemake recorded none (NA). Snakemake
    samples the job's process tree, so this misses what a process spends after its last
    sample: a lower bound, far too low for jobs of short ns runs (:func:`read_cpu_log` is the
    exact figure). ValueError for a file without a cpu_time column or row."""
    lines = path.read_text().splitlines()
    head = lines[0].split("\t") if lines else []
    if "cpu_time" not in head or len(lines) < 2:
        raise ValueError(f"{path}: not a Snakemake benchmark file (no cpu_time)")
    value = lines[1].split("\t")[head.index("cpu_time")]
    return float(value) if value not in ("", "NA", "-") else 0.0


def _children_cpu() -> float:
    """User + system CPU seconds of this process's reaped children so far."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def _parse_kv(words: Sequence[str]) -> dict[str, str]:
    params: dict[str, str] = {}
    for w in words:
        k, sep, v = w.partition("=")
        if not sep or not k:
            raise SystemExit(f"nsrun: argument '{w}' is not key=value")
        params[k] = v
    return params


def _interrupted(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ns", type=Path, required=True)
    ap.add_argument("--script", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument(
        "--timeout",
        type=float,
        default=float(os.environ[TIMEOUT_ENV]) if os.environ.get(TIMEOUT_ENV) else None,
        help=f"seconds (default: ${TIMEOUT_ENV}, else none)",
    )
    ap.add_argument(
        "--cpu-log",
        type=Path,
        help="append '<out> TAB <ns CPU s> TAB made|restored' to this file (see run())",
    )
    ap.add_argument(
        "--seeds",
        type=int,
        nargs="+",
        help="one run per seed, one after the other, each with seed=S and its folder the "
        "--out pattern with {seed} replaced by S (one Python process for a batch of seeds); "
        "the first that fails ends the batch",
    )
    ap.add_argument("params", nargs="*", help="key=value")
    a = ap.parse_args(argv)
    params = _parse_kv(a.params)
    try:
        runs = seed_runs(str(a.out), params, a.seeds)
    except ValueError as e:
        ap.error(str(e))
    signal.signal(signal.SIGTERM, _interrupted)
    try:
        for out, p in runs:
            run(a.ns, a.script, out, p, a.timeout, a.cpu_log)
    except NsRunError as e:
        print(f"nsrun: {e}", file=sys.stderr)
        return 1
    return 0


def seed_runs(
    out: str, params: Mapping[str, str], seeds: Sequence[int] | None
) -> list[tuple[Path, dict[str, str]]]:
    """The runs of one nsrun call: ``out`` and ``params`` as given, or with ``seeds``, one run
    per seed: ``params`` and ``seed=S``, in ``out`` with ``{seed}`` replaced by S."""
    if seeds is None:
        if "{seed}" in out:
            raise ValueError(f"--out {out} holds {{seed}}, but no --seeds are given")
        return [(Path(out), dict(params))]
    if "{seed}" not in out:
        raise ValueError(f"--seeds needs an --out pattern with {{seed}}, not {out}")
    if "seed" in params:
        raise ValueError("seed= is given both as a parameter and by --seeds")
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"--seeds repeats a seed: {' '.join(map(str, seeds))}")
    return [(Path(out.replace("{seed}", str(s))), {**params, "seed": str(s)}) for s in seeds]


if __name__ == "__main__":
    sys.exit(main())
