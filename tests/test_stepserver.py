"""The step server (analysis/stepserver.py) and its client (analysis/stepclient.py, run by
scripts/launcher/python): a step runs through it as it would in a new interpreter (its
arguments, directory, environment, descriptors, exit status, signals), anything else and
every call without a server execs the real interpreter, and the workflow's results are the
same byte for byte with and without it."""

from __future__ import annotations

import filecmp
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from analysis import stepclient, stepserver

ROOT = Path(__file__).resolve().parent.parent
LAUNCHER = ROOT / "scripts" / "launcher" / "python"

# a toy project: the worker imports analysis.* from the job's directory, not the server's
TOY = {
    "analysis/__init__.py": "",
    "analysis/echo.py": """
import os, sys
data = sys.stdin.read()
print("argv", sys.argv[1:], "cwd", os.getcwd(), "env", os.environ.get("TOY_VALUE"))
print("stdin", data.strip())
print("to stderr", file=sys.stderr)
print("main", __name__, "file", os.path.basename(sys.argv[0]))
sys.exit(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
""",
    "analysis/boom.py": "raise RuntimeError('boom in the step')\n",
    "analysis/sleeper.py": """
import os, sys, time
open(sys.argv[1], "w").write(str(os.getpid()))
time.sleep(60)
""",
}


def test_only_project_modules_are_served() -> None:
    assert stepclient.served_module(["-m", "analysis.plots.gao", "fig03"]) == "analysis.plots.gao"
    assert stepclient.served_module(["-m", "snakemake"]) is None
    assert stepclient.served_module(["-c", "-m analysis.x"]) is None
    assert stepclient.served_module(["script.py", "-m", "analysis.x"]) is None
    assert stepclient.served_module(["-m"]) is None


def test_the_matplotlib_warm_up_leaves_no_trace() -> None:
    """The server's warm-up figure changes none of matplotlib's settings and leaves no figure
    open (what it loads is measured in its docstring; figure bytes: the workflow test below)."""
    import matplotlib
    import matplotlib.pyplot as plt

    before, open_before = dict(matplotlib.rcParams), plt.get_fignums()
    stepserver.warm_up_matplotlib()
    # Figures other tests of this process left open are theirs: the warm-up adds none.
    assert dict(matplotlib.rcParams) == before
    assert plt.get_fignums() == open_before


def test_request_round_trip() -> None:
    argv = ["-m", "analysis.x", "--params", '{"a": "b=c"}', "é"]
    env = {"A": "1", "EQ": "x=y=z", "EMPTY": "", "UNI": "ü"}
    request = stepclient.encode_request(argv, "/some/dir", env)
    (n,) = stepclient.HEAD.unpack(request[: stepclient.HEAD.size])
    body = request[stepclient.HEAD.size :]
    assert n == len(body)
    assert stepclient.decode_request(body) == (argv, "/some/dir", env)


@pytest.fixture(scope="module")
def toy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("toy")
    for name, text in TOY.items():
        (d / name).parent.mkdir(parents=True, exist_ok=True)
        (d / name).write_text(text)
    return d


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, subprocess.Popen]]:
    """A server as the Snakefile starts it (from the project's root, its stdin a pipe)."""
    path = str(tmp_path_factory.mktemp("srv") / "socket")
    proc = subprocess.Popen(
        [sys.executable, "-m", "analysis.stepserver", stepserver.SERVE, path],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        start_new_session=True,
    )
    for _ in range(600):
        if os.path.exists(path):
            break
        time.sleep(0.05)
    assert os.path.exists(path), "the server never bound its socket"
    yield path, proc
    assert proc.stdin is not None
    proc.stdin.close()  # the parent went away: the server stops by itself
    assert proc.wait(30) == 0
    assert not os.path.exists(path), "the socket outlived the server"


def _env(socket_path: str | None, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != stepclient.SOCKET_ENV}
    env[stepclient.PYTHON_ENV] = sys.executable
    if socket_path:
        env[stepclient.SOCKET_ENV] = socket_path
    env.update(extra)
    return env


def _launch(
    toy: Path, socket_path: str | None, *args: str, stdin: str = ""
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(LAUNCHER), *args],
        cwd=toy,
        env=_env(socket_path, TOY_VALUE="from the job"),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def _server_children(proc: subprocess.Popen) -> set[int]:
    out = subprocess.run(
        ["ps", "-o", "pid=", "--ppid", str(proc.pid)], capture_output=True, text=True
    ).stdout
    return {int(x) for x in out.split()}


def test_a_step_runs_in_the_server_as_in_a_new_interpreter(server, toy: Path) -> None:
    path, proc = server
    served = _launch(toy, path, "-m", "analysis.echo", "3", stdin="hello\n")
    alone = _launch(toy, None, "-m", "analysis.echo", "3", stdin="hello\n")
    assert served.returncode == alone.returncode == 3
    assert served.stdout == alone.stdout
    assert served.stderr == alone.stderr == "to stderr\n"
    assert "argv ['3'] cwd " + str(toy) + " env from the job" in served.stdout
    assert "stdin hello" in served.stdout and "main __main__ file echo.py" in served.stdout


def _sleeping_step(path: str, toy: Path, pidfile: Path) -> tuple[subprocess.Popen, int]:
    """A step that sleeps, started through the server: its client and its worker's pid."""
    job = subprocess.Popen(
        [str(LAUNCHER), "-m", "analysis.sleeper", str(pidfile)], cwd=toy, env=_env(path)
    )
    for _ in range(200):
        if pidfile.is_file() and pidfile.read_text():
            break
        time.sleep(0.05)
    return job, int(pidfile.read_text())


def _gone(worker: int, proc: subprocess.Popen) -> bool:
    for _ in range(100):
        if worker not in _server_children(proc):
            return True
        time.sleep(0.05)
    return False


def test_the_step_really_ran_in_a_worker_of_the_server(server, toy: Path, tmp_path: Path) -> None:
    path, proc = server
    job, worker = _sleeping_step(path, toy, tmp_path / "pid")
    assert worker in _server_children(proc)
    job.kill()  # a client killed outright: its worker goes too
    job.wait()
    assert _gone(worker, proc)


def test_an_uncaught_exception_is_status_1_with_its_traceback(server, toy: Path) -> None:
    path, _ = server
    p = _launch(toy, path, "-m", "analysis.boom")
    assert p.returncode == 1
    assert "RuntimeError: boom in the step" in p.stderr and "Traceback" in p.stderr


def test_signals_reach_the_worker_and_the_client_ends_the_same_way(
    server, toy: Path, tmp_path: Path
) -> None:
    path, proc = server
    job, worker = _sleeping_step(path, toy, tmp_path / "pid")
    job.send_signal(signal.SIGTERM)
    assert job.wait(30) == -signal.SIGTERM
    assert _gone(worker, proc)


def test_without_a_server_the_real_interpreter_runs(toy: Path, tmp_path: Path) -> None:
    # no socket named, and a socket named that nobody serves: the same as python itself
    for socket_path in (None, str(tmp_path / "nobody")):
        p = _launch(toy, socket_path, "-m", "analysis.echo", "0", stdin="x\n")
        assert p.returncode == 0 and "stdin x" in p.stdout
    p = _launch(toy, None, "-c", "import sys; print(sys.flags.no_site, sys.argv)")
    assert p.stdout.strip() == "0 ['-c']"  # with site: the real interpreter, not the client's


def test_anything_but_a_project_module_is_not_served(server, toy: Path) -> None:
    path, proc = server
    p = _launch(toy, path, "-c", "import os; print(os.getppid())")
    assert p.returncode == 0
    assert int(p.stdout) != proc.pid


def test_the_launcher_needs_the_real_interpreter(toy: Path) -> None:
    env = _env(None)
    del env[stepclient.PYTHON_ENV]
    p = subprocess.run(
        [str(LAUNCHER), "-c", "pass"], cwd=toy, env=env, capture_output=True, text=True
    )
    assert p.returncode != 0 and stepclient.PYTHON_ENV in p.stderr


def test_the_snakefile_starts_and_stops_the_server_for_local_runs() -> None:
    text = (ROOT / "Snakefile").read_text()
    assert "stepserver.start()" in text.split("onstart:")[1].split("onsuccess:")[0]
    assert "stepserver.stop()" in text.split("onsuccess:")[1].split("onerror:")[0]
    assert "stepserver.stop()" in text.split("onerror:")[1]
    assert 'scripts" / "launcher"' in text and "workflow.local_exec" in text


# --- the workflow's results, with and without the server --------------------------------------


def _tree(d: Path) -> list[str]:
    """Every file under d but ns's log (it ends with the run's wall time)."""
    return sorted(str(p.relative_to(d)) for p in d.rglob("*") if p.is_file() and p.name != "ns.log")


def test_workflow_results_are_byte_identical_with_and_without_the_server(
    root: Path, tmp_path: Path
) -> None:
    """Floyd 1991 at smoke (its runs, analysis, figures and tables) in two copies: one with the
    step server (a normal run), one without (``--no-hooks``: onstart never starts it)."""
    from tests.conftest import make_project_copy

    made = {}
    for name, extra in (("served", []), ("alone", ["--no-hooks"])):
        w = make_project_copy(root, tmp_path / name)
        smk = Path(sys.executable).with_name("snakemake")
        p = subprocess.run(
            [
                str(smk),
                "--cores",
                "2",
                *extra,
                "--config",
                "fidelity=smoke",
                'papers=["floyd1991"]',
                "--",
                "diff_tables",
            ],
            cwd=w,
            capture_output=True,
            text=True,
            timeout=900,
        )
        assert p.returncode == 0, p.stderr[-3000:]
        # the server says how many steps it ran when it stops: every step, or none at all
        served = re.findall(r"step server: (\d+) steps run", p.stderr)
        assert (int(served[0]) > 10) if name == "served" else not served, served
        made[name] = w
    for part in ("results/floyd1991", "figures/floyd1991", "paper/generated/floyd1991"):
        a, b = made["served"] / part, made["alone"] / part
        files = _tree(a)
        assert files and files == _tree(b), part
        _, mismatch, errors = filecmp.cmpfiles(a, b, files, shallow=False)
        assert not mismatch and not errors, (part, mismatch[:10], errors[:10])
