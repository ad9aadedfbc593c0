"""ns runs through analysis.nsrun: complete output or none that looks complete;
key=value parsing in the Tcl library; byte-identical results for the same seed."""

import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from analysis import config as conf
from analysis import nsio, nsrun

SCRIPT = conf.tcl_script("floyd1991", "gateways")


@pytest.fixture(autouse=True)
def _no_store(monkeypatch: pytest.MonkeyPatch) -> None:
    """No run store unless a test sets one: a restored run would make the determinism
    tests vacuous."""
    monkeypatch.delenv(nsrun.STORE_ENV, raising=False)
    monkeypatch.delenv("SLURM_JOB_ID", raising=False)


@pytest.fixture(scope="module")
def params(cfg: dict) -> dict:
    p = dict(conf.runs(cfg, "floyd1991", "fig02", "smoke")[0].params)
    p.update(duration=20, period=10)
    return p


def test_complete_run(ns_binary: Path, params: dict, tmp_path: Path) -> None:
    out = tmp_path / "run"
    summary = nsrun.run(ns_binary, SCRIPT, out, params)
    assert summary["complete"] is True
    assert summary["params"]["n"] == params["n"] and "out" not in summary["params"]
    _, tables = nsio.read_run(out)
    assert len(tables["goodput"]) == 2  # two 10-s periods, one connection
    assert not list(tmp_path.glob("*.failed"))


def test_failed_run_leaves_nothing_complete(ns_binary: Path, params: dict, tmp_path: Path) -> None:
    out = tmp_path / "run"
    bad = {**params, "gateway": "wfq"}
    with pytest.raises(nsrun.NsRunError, match="exit status 2"):
        nsrun.run(ns_binary, SCRIPT, out, bad)
    assert not out.exists()
    failed = tmp_path / "run.failed"
    assert not (failed / "summary.json").exists()
    assert "gateway" in (failed / "ns.log").read_text()


def test_killed_run_leaves_nothing_complete(ns_binary: Path, params: dict, tmp_path: Path) -> None:
    out = tmp_path / "run"
    long = {**params, "duration": 100000, "n": 10}
    with pytest.raises(nsrun.NsRunError, match="timeout"):
        # long enough for ns to open its outputs even on a loaded machine
        nsrun.run(ns_binary, SCRIPT, out, long, timeout=3)
    assert not out.exists()
    assert not list((tmp_path / "run.failed").glob("*.tsv"))  # only .partial files
    assert list((tmp_path / "run.failed").glob("*.partial"))
    # rerunning the same folder starts clean and completes
    nsrun.run(ns_binary, SCRIPT, out, params)
    assert (out / "summary.json").is_file() and not (tmp_path / "run.failed").exists()


def test_same_seed_same_bytes(ns_binary: Path, params: dict, tmp_path: Path) -> None:
    p = {**params, "active": "all", "n": 3}
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    nsrun.run(ns_binary, SCRIPT, a, p)
    nsrun.run(ns_binary, SCRIPT, b, p)
    nsrun.run(ns_binary, SCRIPT, c, {**p, "seed": p["seed"] + 1})
    for name in ("summary.json", "goodput.tsv", "gateways.tsv"):
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    assert (a / "gateways.tsv").read_bytes() != (c / "gateways.tsv").read_bytes()


def _ns(ns_binary: Path, args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(ns_binary), str(SCRIPT), *args], capture_output=True, text=True, timeout=60
    )


def _args(params: dict, **change: object) -> list[str]:
    p = {**params, **change, "out": "/nonexistent/never-written", "ns_id": "test"}
    return [f"{k}={nsrun.format_value(v)}" for k, v in p.items()]


def test_tcl_rejects_unknown_parameter(ns_binary: Path, params: dict) -> None:
    r = _ns(ns_binary, [*_args(params), "bogus=1"])
    assert r.returncode == 2 and "unknown parameter 'bogus'" in r.stderr


def test_tcl_rejects_missing_parameter(ns_binary: Path, params: dict) -> None:
    r = _ns(ns_binary, [a for a in _args(params) if not a.startswith("gw_bw=")])
    assert r.returncode == 2 and "missing parameter(s): gw_bw" in r.stderr


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"gw_bw": -1}, "'gw_bw' = '-1' is not a number > 0"),
        ({"tcp": "cubic"}, "is not one of: tahoe, reno, newreno, sack"),
        ({"n": 2.5}, "is not an integer > 0"),
        ({"red_thresh": 30}, "must be below red_maxthresh"),
        ({"seed": 0}, "'seed' = '0' is not an integer > 0"),
    ],
)
def test_tcl_rejects_bad_values(ns_binary: Path, params: dict, change: dict, message: str) -> None:
    r = _ns(ns_binary, _args(params, **change))
    assert r.returncode == 2 and message in r.stderr


# ---- one ns per run folder, no orphans, the time limit from the environment ------------------


def _children(pid: int) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(d.name))
    return out


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _wait_for(cond, what: str, limit: float = 60) -> None:  # type: ignore[no-untyped-def]
    deadline = time.time() + limit
    while not cond():
        assert time.time() < deadline, f"gave up waiting for {what}"
        time.sleep(0.05)


def _nsrun_cli(
    ns_binary: Path, out: Path, params: dict, env: dict | None = None
) -> subprocess.Popen:
    """A long run through the command line (as the rules call it); returns once ns runs."""
    long = {**params, "duration": 100000, "n": 10}
    args = [f"{k}={nsrun.format_value(v)}" for k, v in long.items()]
    p = subprocess.Popen(
        [sys.executable, "-m", "analysis.nsrun", "--ns", str(ns_binary), "--script", str(SCRIPT),
         "--out", str(out), *args],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )  # fmt: skip
    _wait_for(lambda: _children(p.pid), "ns to start")
    return p


def test_second_run_of_a_held_folder_refuses(ns_binary: Path, params: dict, tmp_path: Path) -> None:
    out = tmp_path / "run"
    out.mkdir()
    (out / "ns.log").write_text("the other run's\n")
    with nsrun.run_lock(out):
        with pytest.raises(nsrun.NsRunError, match="held by another live ns run"):
            with _lock_wait(0.2):
                nsrun.run(ns_binary, SCRIPT, out, params)
        assert (out / "ns.log").read_text() == "the other run's\n", "the folder was touched"
    assert not nsrun.lock_path(out).exists()
    nsrun.run(ns_binary, SCRIPT, out, params)  # free again
    assert not nsrun.lock_path(out).exists()


@contextlib.contextmanager
def _lock_wait(seconds: float):  # type: ignore[no-untyped-def]
    saved = nsrun.LOCK_WAIT_S
    nsrun.LOCK_WAIT_S = seconds
    try:
        yield
    finally:
        nsrun.LOCK_WAIT_S = saved


def test_ns_dies_with_nsrun(ns_binary: Path, params: dict, tmp_path: Path) -> None:
    """kill -9 of nsrun takes its ns along (PR_SET_PDEATHSIG): the folder is free at once."""
    out = tmp_path / "run"
    p = _nsrun_cli(ns_binary, out, params)
    (ns,) = _children(p.pid)
    p.kill()
    p.wait()
    _wait_for(lambda: not _alive(ns), "ns to die with nsrun")
    with nsrun.run_lock(out, wait=10):
        pass


# a parent that starts `sleep 600` as nsrun starts ns (SETPRIV None: the preexec_fn way),
# prints the sleep's pid and waits to be killed
_PARENT = """
import os, subprocess, sys
from analysis import nsrun
if sys.argv[1] == "preexec":
    nsrun.SETPRIV = None
argv, preexec = nsrun.die_with_parent(["sleep", "600"], os.getpid())
p = subprocess.Popen(argv, preexec_fn=preexec)
print(p.pid, flush=True)
p.wait()
"""


@pytest.mark.parametrize("way", ["setpriv", "preexec"])
def test_started_process_dies_with_its_parent(way: str) -> None:
    """Both ways of starting ns (setpriv where the machine has it, else a preexec_fn) kill
    it when the process that started it dies by kill -9."""
    if way == "setpriv" and nsrun.SETPRIV is None:
        pytest.skip("no setpriv on this machine")
    parent = subprocess.Popen(
        [sys.executable, "-c", _PARENT, way], stdout=subprocess.PIPE, text=True,
        cwd=conf.ROOT,
    )  # fmt: skip
    child = int(parent.stdout.readline())
    _wait_for(lambda: "sleep" in Path(f"/proc/{child}/cmdline").read_text(), "the sleep")
    assert _alive(child)
    parent.kill()
    parent.wait()
    _wait_for(lambda: not _alive(child), "the started process to die with its parent")


def test_setpriv_start_refuses_when_the_parent_is_gone(tmp_path: Path) -> None:
    """Through setpriv, a start whose parent died before the death signal was set runs
    nothing (exit 126): the check compares the shell's parent with the pid it was given."""
    if nsrun.SETPRIV is None:
        pytest.skip("no setpriv on this machine")
    marker = tmp_path / "started"
    not_parent = os.getpid() + 1  # any pid but this process's (the shell's parent)
    argv, preexec = nsrun.die_with_parent(["touch", str(marker)], not_parent)
    assert preexec is None
    assert subprocess.run(argv).returncode == 126 and not marker.exists()
    argv, _ = nsrun.die_with_parent(["touch", str(marker)], os.getpid())
    assert subprocess.run(argv).returncode == 0 and marker.exists()


def test_ns_killed_when_its_owner_dies(ns_binary: Path, params: dict, tmp_path: Path) -> None:
    """When the process named by $CCR_OWNER_PID (the Snakemake that started the job) dies,
    even by kill -9, nsrun kills ns and gives up: nothing goes on writing in the folder."""
    owner = subprocess.Popen(["sleep", "600"])
    out = tmp_path / "run"
    p = _nsrun_cli(ns_binary, out, params, env={nsrun.OWNER_ENV: str(owner.pid)})
    (ns,) = _children(p.pid)
    owner.kill()
    owner.wait()
    _, err = p.communicate(timeout=60)
    assert p.returncode == 1 and f"(pid {owner.pid}) died" in err, err
    assert not _alive(ns)
    assert (tmp_path / "run.failed").is_dir() and not out.exists()


def test_no_start_for_a_dead_owner(
    ns_binary: Path, params: dict, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    owner = subprocess.Popen(["true"])
    owner.wait()
    monkeypatch.setenv(nsrun.OWNER_ENV, str(owner.pid))
    with pytest.raises(nsrun.NsRunError, match="is gone; not starting"):
        nsrun.run(ns_binary, SCRIPT, tmp_path / "run", params)
    assert not (tmp_path / "run").exists()


def test_wait_for_exit_gives_the_status_or_times_out() -> None:
    """nsrun's wait (a pidfd, no polling): the exit status as Popen.wait gives it, a signal's
    as a negative status, TimeoutExpired while the process still runs."""
    assert nsrun.wait_for_exit(subprocess.Popen(["sh", "-c", "exit 3"]), 60) == 3
    assert nsrun.wait_for_exit(subprocess.Popen(["true"]), None) == 0
    p = subprocess.Popen(["sleep", "600"])
    with pytest.raises(subprocess.TimeoutExpired):
        nsrun.wait_for_exit(p, 0.2)
    assert p.poll() is None  # still running: the wait only timed out
    p.kill()
    assert nsrun.wait_for_exit(p, 60) == -9


def test_each_process_gets_its_own_cpu_when_waited_for_from_threads() -> None:
    """Several ns at once from one process (a search's pool): each wait gives that process's
    own CPU (os.wait4), not the process-wide sum of reaped children: a busy loop of about
    0.5 s and a sleep of as long, waited for at the same time from two threads."""
    from concurrent.futures import ThreadPoolExecutor

    busy = [sys.executable, "-c", "import time\nt = time.process_time()\n"
            "while time.process_time() - t < 0.5: pass"]  # fmt: skip
    with ThreadPoolExecutor(2) as pool:
        got = list(
            pool.map(
                lambda argv: nsrun.wait_for_exit_cpu(subprocess.Popen(argv), 60),
                [busy, ["sleep", "0.6"]],
            )
        )
    (rc_busy, cpu_busy), (rc_sleep, cpu_sleep) = got
    assert rc_busy == rc_sleep == 0
    assert cpu_busy is not None and cpu_sleep is not None
    assert 0.45 <= cpu_busy < 1.5 and cpu_sleep < 0.1


def test_reuse_keeps_only_a_complete_run_of_the_same_inputs(
    tmp_path: Path, ns_binary: Path, params: dict
) -> None:
    """run(reuse=True), as a search's driver calls it: a complete run of the same ns, Tcl
    files and parameters is returned untouched; a run of other parameters, with a wrong or
    missing run.key, or with a summary not marked complete, is made again."""
    out = tmp_path / "r"
    first = nsrun.run(ns_binary, SCRIPT, out, params)
    key = (out / nsrun.KEY_FILE).read_text().strip()
    assert key == nsrun.run_key(ns_binary, SCRIPT, out, nsrun.run_args(params))
    stamp = (out / "summary.json").stat().st_mtime_ns
    assert nsrun.run(ns_binary, SCRIPT, out, params, reuse=True) == first
    assert (out / "summary.json").stat().st_mtime_ns == stamp
    # the same parameters in another order: the same run (ns reads them by name)
    shuffled = dict(reversed(list(params.items())))
    assert nsrun.reusable_run(ns_binary, SCRIPT, out, shuffled) == first

    def remade(change) -> bool:
        change()
        before = (out / "summary.json").stat().st_mtime_ns
        time.sleep(0.01)
        nsrun.run(ns_binary, SCRIPT, out, params, reuse=True)
        return (out / "summary.json").stat().st_mtime_ns != before

    assert remade(lambda: (out / nsrun.KEY_FILE).write_text("0" * 64 + "\n"))
    assert remade(lambda: (out / nsrun.KEY_FILE).unlink())
    summary = out / "summary.json"
    assert remade(
        lambda: summary.write_text(
            summary.read_text().replace('"complete": true', '"complete": false')
        )
    )
    other = {**params, "seed": int(params["seed"]) + 1}
    assert nsrun.reusable_run(ns_binary, SCRIPT, out, other) is None
    assert nsrun.run(ns_binary, SCRIPT, out, other, reuse=True)["params"]["seed"] == other["seed"]


def test_time_limit_from_the_environment(
    ns_binary: Path, params: dict, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv(nsrun.TIMEOUT_ENV, "0.5")
    long = {**params, "duration": 100000, "n": 10}
    argv = ["--ns", str(ns_binary), "--script", str(SCRIPT), "--out", str(tmp_path / "run")]
    assert nsrun.main([*argv, *(f"{k}={nsrun.format_value(v)}" for k, v in long.items())]) == 1
    assert "timeout after 0.5 s" in capsys.readouterr().err


# ---- the run store (batches on a cluster) ----


def test_store_only_in_a_slurm_job_or_when_named(monkeypatch: pytest.MonkeyPatch) -> None:
    assert nsrun.store_dir() is None  # a local run
    monkeypatch.setenv("SLURM_JOB_ID", "17")
    assert nsrun.store_dir() == nsrun.STORE_DEFAULT
    monkeypatch.setenv(nsrun.STORE_ENV, "off")
    assert nsrun.store_dir() is None
    monkeypatch.setenv(nsrun.STORE_ENV, "/somewhere/store")
    assert nsrun.store_dir() == Path("/somewhere/store")
    monkeypatch.delenv("SLURM_JOB_ID")
    monkeypatch.setenv(nsrun.STORE_ENV, "")
    assert nsrun.store_dir() is None


def _fake_ns(tmp_path: Path, ns_binary: Path) -> Path:
    """A 'binary' with the real one's identity that fails if it is ever executed."""
    fake = tmp_path / "bin" / "ns"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\necho executed >&2\nexit 3\n")
    fake.chmod(0o755)
    fake.with_name("ns.id").write_text(nsrun.ns_identity(ns_binary) + "\n")
    return fake


def test_a_kept_run_is_restored_not_simulated(
    ns_binary: Path, params: dict, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(nsrun.STORE_ENV, str(tmp_path / "store"))
    out = tmp_path / "run"
    first = nsrun.run(ns_binary, SCRIPT, out, params)
    files = {f.name: f.read_bytes() for f in out.iterdir()}
    (entry,) = (tmp_path / "store").glob("*/*")
    assert sorted(f.name for f in entry.iterdir()) == sorted(files)
    shutil.rmtree(out)  # what Snakemake does to every output of a failed batch
    fake = _fake_ns(tmp_path, ns_binary)
    again = nsrun.run(fake, SCRIPT, out, params)  # restored: the fake is never executed
    assert again == first
    assert {f.name: f.read_bytes() for f in out.iterdir()} == files
    # another seed has another key: it is simulated, so the fake binary fails it
    with pytest.raises(nsrun.NsRunError, match="exit status 3"):
        nsrun.run(fake, SCRIPT, tmp_path / "other", {**params, "seed": params["seed"] + 1})


def test_a_failed_or_partial_run_is_never_restored(
    ns_binary: Path, params: dict, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = tmp_path / "store"
    monkeypatch.setenv(nsrun.STORE_ENV, str(store))
    out = tmp_path / "run"
    with pytest.raises(nsrun.NsRunError):
        nsrun.run(ns_binary, SCRIPT, out, {**params, "gateway": "wfq"})
    assert not list(store.glob("*/*")), "a failed run was kept"
    # an entry without its summary (a cut restore or copy) is not taken: the run is made
    args = [f"{k}={nsrun.format_value(v)}" for k, v in params.items()]
    key = nsrun.run_key(ns_binary, SCRIPT, out, args)
    assert key is not None
    entry = nsrun.store_entry(store, key)
    entry.mkdir(parents=True)
    (entry / "ns.log").write_text("half\n")
    summary = nsrun.run(ns_binary, SCRIPT, out, params)
    assert summary["complete"] is True and (out / "ns.log").read_text() != "half\n"


def test_the_key_covers_everything_that_makes_a_run(ns_binary: Path, tmp_path: Path) -> None:
    """Folder, binary identity, script, the Tcl files beside it and in lib/, arguments."""
    tcl = tmp_path / "tcl"
    (tcl / "lib").mkdir(parents=True)
    (tcl / "paper").mkdir()
    script = tcl / "paper" / "family.tcl"
    script.write_text("source ../lib/a.tcl\n")
    (tcl / "paper" / "other.tcl").write_text("# beside\n")
    (tcl / "lib" / "a.tcl").write_text("# lib\n")
    ns = _fake_ns(tmp_path, ns_binary)
    out, args = Path("results/x/run"), ["seed=1", "n=2"]
    base = nsrun.run_key(ns, script, out, args)
    assert base == nsrun.run_key(ns, script, out, list(args))  # stable
    assert nsrun.run_key(ns, script, Path("results/x/run2"), args) != base
    assert nsrun.run_key(ns, script, out, ["seed=2", "n=2"]) != base
    for f, text in ((script, "# changed\n"), (tcl / "paper" / "other.tcl", "# b2\n"),
                    (tcl / "lib" / "a.tcl", "# lib 2\n")):  # fmt: skip
        old = f.read_text()
        f.write_text(text)
        assert nsrun.run_key(ns, script, out, args) != base, f
        f.write_text(old)
    assert nsrun.run_key(ns, script, out, args) == base
    ns.with_name("ns.id").write_text("another-binary\n")
    assert nsrun.run_key(ns, script, out, args) != base
    ns.with_name("ns.id").unlink()  # no identity: no key, so no store
    assert nsrun.run_key(ns, script, out, args) is None


def _busy_ns(tmp_path: Path, ns_binary: Path, cpu_s: float) -> Path:
    """A 'binary' with the real one's identity that spends ``cpu_s`` seconds of CPU, then
    writes a complete summary."""
    fake = tmp_path / "busy" / "ns"
    fake.parent.mkdir()
    fake.write_text(
        f"#!{sys.executable}\n"
        "import json, pathlib, sys, time\n"
        f"while time.process_time() < {cpu_s}:\n"
        "    pass\n"
        "out = next(a[4:] for a in sys.argv if a.startswith('out='))\n"
        "pathlib.Path(out, 'summary.json').write_text(json.dumps({'complete': True}))\n"
    )
    fake.chmod(0o755)
    fake.with_name("ns.id").write_text(nsrun.ns_identity(ns_binary) + "\n")
    return fake


def test_cpu_log_has_ns_cpu_time(ns_binary: Path, params: dict, tmp_path: Path) -> None:
    log = tmp_path / "bench" / "run.cpu"
    busy = _busy_ns(tmp_path, ns_binary, 0.6)
    nsrun.run(busy, SCRIPT, tmp_path / "a", params, cpu_log=log)
    nsrun.run(busy, SCRIPT, tmp_path / "b", {**params, "seed": 2}, cpu_log=log)
    lines = [line.split("\t") for line in log.read_text().splitlines()]
    assert [(p, how) for p, _, how in lines] == [
        (str(tmp_path / "a"), "made"),
        (str(tmp_path / "b"), "made"),
    ]
    # 0.6 s spent by the child, plus an interpreter's start-up; not the parent's time
    assert all(0.6 <= float(cpu) < 1.5 for _, cpu, _ in lines)


def test_read_benchmark_cpu(tmp_path: Path) -> None:
    """cpu_time of a Snakemake benchmark file (its columns as Snakemake writes them); NA is
    no record (0.0); a file without the column is an error, not 0."""
    f = tmp_path / "job.tsv"
    f.write_text("s\th:m:s\tmax_rss\tcpu_time\n3.2\t0:00:03\t51.2\t2.75\n")
    assert nsrun.read_benchmark_cpu(f) == 2.75
    f.write_text("s\th:m:s\tmax_rss\tcpu_time\n3.2\t0:00:03\tNA\tNA\n")
    assert nsrun.read_benchmark_cpu(f) == 0.0
    for bad in ("s\tmax_rss\n3.2\t51.2\n", "s\tcpu_time\n", ""):
        f.write_text(bad)
        with pytest.raises(ValueError, match="job.tsv: not a Snakemake benchmark file"):
            nsrun.read_benchmark_cpu(f)


def test_cpu_log_marks_a_restored_run(
    ns_binary: Path, params: dict, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(nsrun.STORE_ENV, str(tmp_path / "store"))
    log = tmp_path / "run.cpu"
    nsrun.run(ns_binary, SCRIPT, tmp_path / "run", params, cpu_log=log)
    shutil.rmtree(tmp_path / "run")
    nsrun.run(ns_binary, SCRIPT, tmp_path / "run", params, cpu_log=log)
    (made, restored) = [line.split("\t") for line in log.read_text().splitlines()]
    assert made[2] == "made" and float(made[1]) > 0
    assert restored[2] == "restored" and float(restored[1]) == 0


def test_cpu_log_from_the_command_line(ns_binary: Path, params: dict, tmp_path: Path) -> None:
    log = tmp_path / "run.cpu"
    args = [f"{k}={nsrun.format_value(v)}" for k, v in params.items()]
    rc = nsrun.main(["--ns", str(ns_binary), "--script", str(SCRIPT), "--out",
                     str(tmp_path / "run"), "--cpu-log", str(log), *args])  # fmt: skip
    assert rc == 0
    ((out, cpu, how),) = [line.split("\t") for line in log.read_text().splitlines()]
    assert out == str(tmp_path / "run") and how == "made" and float(cpu) > 0


def test_read_cpu_log(tmp_path: Path) -> None:
    log = tmp_path / "run.cpu"
    log.write_text("r/s1\t1.500\tmade\nr/s2\t0.000\trestored\nr/s1\t2.250\tmade\n")
    assert nsrun.read_cpu_log(log) == {"r/s1": (2.25, True), "r/s2": (0.0, False)}
    log.write_text("r/s1\t1.5\tguessed\n")
    with pytest.raises(ValueError, match="neither made nor restored"):
        nsrun.read_cpu_log(log)


def test_a_batch_of_seeds_is_the_runs_made_one_by_one(
    ns_binary: Path, params: dict, tmp_path: Path
) -> None:
    """--seeds (a batch of seeds by hand; the workflow makes its runs through analysis.nsbatch):
    one process, one run per seed, each the same bytes as that seed's run made alone, and each
    in the CPU log."""
    base = {k: v for k, v in params.items() if k != "seed"}
    args = [f"{k}={nsrun.format_value(v)}" for k, v in base.items()]
    log = tmp_path / "batch.cpu"
    rc = nsrun.main(["--ns", str(ns_binary), "--script", str(SCRIPT), "--out",
                     str(tmp_path / "batch" / "s{seed}"), "--cpu-log", str(log), *args,
                     "--seeds", "3", "7"])  # fmt: skip
    assert rc == 0
    for seed in (3, 7):
        alone = tmp_path / f"alone{seed}"
        nsrun.run(ns_binary, SCRIPT, alone, {**base, "seed": seed})
        batch = tmp_path / "batch" / f"s{seed}"
        assert json.loads((batch / "summary.json").read_text())["params"]["seed"] == seed
        # every file the same but the key, which names its folder
        for f in sorted(p.name for p in alone.iterdir() if p.name not in ("ns.log", "run.key")):
            assert (batch / f).read_bytes() == (alone / f).read_bytes(), f
        assert nsrun.reusable_run(ns_binary, SCRIPT, batch, {**base, "seed": str(seed)})
    assert sorted(nsrun.read_cpu_log(log)) == [str(tmp_path / "batch" / f"s{s}") for s in (3, 7)]


def test_a_batch_of_seeds_stops_at_the_first_failure(
    ns_binary: Path, params: dict, tmp_path: Path
) -> None:
    base = {k: v for k, v in params.items() if k != "seed"}
    args = [f"{k}={nsrun.format_value(v)}" for k, v in {**base, "gateway": "wfq"}.items()]
    rc = nsrun.main(["--ns", str(ns_binary), "--script", str(SCRIPT), "--out",
                     str(tmp_path / "s{seed}"), *args, "--seeds", "1", "2"])  # fmt: skip
    assert rc == 1
    assert (tmp_path / "s1.failed").is_dir() and not (tmp_path / "s2").exists()


@pytest.mark.parametrize(
    ("out", "params", "seeds", "message"),
    [
        ("r/s1", {}, [1, 2], "pattern with {seed}"),
        ("r/s{seed}", {"seed": "1"}, [1], "both as a parameter"),
        ("r/s{seed}", {}, [1, 1], "repeats a seed"),
        ("r/s{seed}", {}, None, "no --seeds"),
    ],
)
def test_seed_batches_reject_bad_input(
    out: str, params: dict, seeds: list[int] | None, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        nsrun.seed_runs(out, params, seeds)


def test_seed_runs_without_seeds_is_one_run() -> None:
    assert nsrun.seed_runs("r/x", {"a": "1"}, None) == [(Path("r/x"), {"a": "1"})]
    assert nsrun.seed_runs("r/s{seed}", {"a": "1"}, [4]) == [
        (Path("r/s4"), {"a": "1", "seed": "4"})
    ]
