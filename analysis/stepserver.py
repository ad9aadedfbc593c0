"""The step server: the workflow's Python steps forked from one process that has already
imported numpy, pandas, scipy and matplotlib.

Every job of the workflow runs ``python -m analysis.<module> ...``. A new interpreter spends
most of a short step importing its libraries: 2.1 s of CPU to import
``analysis.plots.floyd1991`` (matplotlib, pandas, scipy.stats), 0.5 s for
``analysis.akella2002_search``, 0.05 s for ``analysis.nsrun``, against seconds of real work
or less (measured on 2 cores, 2026-11-26). The step server pays those imports once per
Snakemake run and forks a worker per step.

How a job reaches it (``Snakefile``):

- the Snakefile puts ``scripts/launcher`` first on ``PATH``, so a rule's ``python`` is
  ``scripts/launcher/python``, which runs ``analysis/stepclient.py`` as a script under
  ``python -S`` (no site import, only modules built into the interpreter);
- the Snakefile's ``onstart`` starts the server (:func:`start`) for a local run and puts its
  socket in ``$CCR_STEP_SERVER``; ``onsuccess`` and ``onerror`` stop it (:func:`stop`), and
  it stops by itself when the Snakemake that started it goes away (its stdin closes);
- the client sends its arguments, working directory, environment and its stdin, stdout and
  stderr (the descriptors themselves) to the server, which forks a worker: the worker takes
  them over and runs the module as ``python -m`` would (:func:`run_module`); the client
  forwards the signals it gets (SIGINT, SIGTERM, SIGHUP) to the worker and exits with the
  worker's status; a client that goes away (killed) takes its worker with it.

Anything else a rule's ``python`` is asked to do (another module, a script, ``-c``), and every
call when no server is up (dry runs, ``--no-hooks``, cluster jobs: a job on another host
cannot reach this socket, and the Snakefile clears the variable for every Snakemake process
but the one that started the server), execs the real interpreter (``$CCR_PYTHON``) with the
same arguments: the commands mean what they say, with or without the server.

The project's own modules are never imported by the server, only the libraries: a step
always runs the code on disk. Results do not depend on the server: a worker starts from the
state a new interpreter has after importing the same libraries, with the job's own
environment, directory and descriptors (``tests/test_stepserver.py`` compares a step's
outputs both ways byte for byte).
"""

from __future__ import annotations

import _socket
import os
import signal
import sys

from analysis.stepclient import (
    HEAD,
    PID,
    SOCKET_ENV,
    STATUS,
    decode_request,
    served_module,
)

#: what the server imports once, before it serves: the libraries of the steps
PRELOAD = (
    "numpy",
    "pandas",
    "scipy.special",
    "scipy.optimize",
    "scipy.stats",
    "scipy.ndimage",
    "yaml",
    "matplotlib",
    "matplotlib.pyplot",
)
#: the server's flag (no option of the interpreter's, so never a client's first argument)
SERVE = "--serve"

# --- the worker ------------------------------------------------------------------------------


def run_module(argv: list[str]) -> int:
    """Run ``python argv...`` (``-m MODULE ARGS``) in this process as the interpreter would:
    the module as ``__main__``, ``sys.argv`` its path and arguments, ``sys.path[0]`` the
    working directory. Returns the exit status Python would give (0, ``sys.exit``'s code, 1
    after printing an uncaught exception)."""
    import importlib.util
    import runpy
    import traceback

    module = served_module(argv)
    if module is None:
        raise ValueError(f"not a step the server runs: python {' '.join(argv)}")
    sys.path[0] = os.getcwd()
    # the project's modules the server holds (this one, the client's, the package): imported
    # again from the working directory, as a new interpreter would
    for name in [m for m in sys.modules if m == "analysis" or m.startswith("analysis.")]:
        del sys.modules[name]
    spec = importlib.util.find_spec(module)
    # sys.argv[0] the module's file, as python -m sets it (runpy restores it on return)
    sys.argv = [spec.origin if spec and spec.origin else module, *argv[2:]]
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
        return 0
    except SystemExit as e:
        if e.code is None:
            return 0
        if isinstance(e.code, int):
            return e.code
        print(e.code, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        traceback.print_exc()
        return 128 + signal.SIGINT
    except BaseException:  # noqa: BLE001 - the interpreter's own last resort
        traceback.print_exc()
        return 1


def _worker(
    argv: list[str], cwd: str, env: dict[str, str], fds: list[int], closing: list[int]
) -> None:
    """In the forked child: take over the job's descriptors, directory and environment, run
    its module, end as an interpreter would (exit handlers, threads, flushed streams)."""
    import atexit
    import threading

    code = 1
    try:
        signal.set_wakeup_fd(-1)
        for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGCHLD, signal.SIGPIPE):
            signal.signal(s, signal.SIG_DFL)
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # as Python starts
        signal.signal(signal.SIGINT, signal.default_int_handler)
        for fd in closing:
            os.close(fd)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        sys.stdin = open(0, closefd=False)  # noqa: SIM115
        # the streams a new interpreter would open: stdout line-buffered on a terminal only
        sys.stdout = open(1, "w", buffering=1 if os.isatty(1) else -1, closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", buffering=1, closefd=False, errors="backslashreplace")  # noqa: SIM115
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update(env)
        code = run_module(argv)
        threading._shutdown()  # type: ignore[attr-defined]  # join non-daemon threads
        atexit._run_exitfuncs()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001
                pass
        os._exit(code & 0xFF if code >= 0 else 1)


# --- the server ------------------------------------------------------------------------------


def _recv_request(conn: _socket.socket) -> tuple[list[str], str, dict[str, str], list[int]]:
    import socket

    data, fds, _flags, _addr = socket.recv_fds(conn, 1 << 16, 3)
    if len(data) < HEAD.size:
        raise ConnectionError("short request")
    (n,) = HEAD.unpack(data[: HEAD.size])
    body = data[HEAD.size :]
    while len(body) < n:
        chunk = conn.recv(n - len(body))
        if not chunk:
            raise ConnectionError("request cut short")
        body += chunk
    if len(fds) != 3:
        raise ConnectionError(f"{len(fds)} descriptors sent, 3 expected")
    return (*decode_request(body), fds)


def warm_up_matplotlib() -> None:
    """Draw one small figure and save it as PDF (TrueType fonts, as the figures are) and PNG,
    in memory, so that a forked figure step finds the parts matplotlib loads on first use
    (font files, the mathtext parser, the PDF backend and its font subsetting) loaded:
    measured after the imports (2026-11-27), the first such figure took 1.0 s of CPU, the
    next ones about 0.5 s. Nothing of it stays in matplotlib's settings (``rc_context``),
    and no figure's bytes depend on it (tests/test_stepserver.py compares Floyd's figures
    made with and without the server)."""
    import io

    import matplotlib
    import matplotlib.pyplot as plt

    with matplotlib.rc_context({"pdf.fonttype": 42, "savefig.bbox": "tight"}):
        fig, ax = plt.subplots(figsize=(2.0, 1.5))
        ax.plot([0, 1], [0, 1], label=r"$\alpha_E$")
        ax.set_xlabel(r"$\beta$ (s)")
        ax.legend()
        for fmt in ("pdf", "png"):
            fig.savefig(io.BytesIO(), format=fmt)
        plt.close(fig)


def serve(path: str, preload: tuple[str, ...] = PRELOAD) -> None:
    """Serve steps on the Unix socket ``path`` until stdin closes (the parent went away) or
    SIGTERM. Single-threaded: one loop over the socket, the clients' connections, the
    parent's pipe and a wake-up pipe for SIGCHLD."""
    import importlib
    import selectors
    import socket

    os.environ.setdefault("MPLBACKEND", "Agg")
    for name in preload:
        importlib.import_module(name)
    if "matplotlib" in sys.modules:
        sys.modules["matplotlib"].use("Agg")
    if "matplotlib.pyplot" in preload:
        warm_up_matplotlib()

    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    os.set_blocking(wake_r, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(True))
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the terminal's Ctrl-C is the clients'

    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    sel = selectors.DefaultSelector()
    sel.register(listener, selectors.EVENT_READ, "accept")
    sel.register(wake_r, selectors.EVENT_READ, "wake")
    sel.register(sys.stdin.fileno(), selectors.EVENT_READ, "parent")
    workers: dict[int, _socket.socket] = {}  # pid -> its client's connection
    served = 0
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        while not stop:
            for key, _ in sel.select():
                what = key.data
                if what == "accept":
                    conn, _ = listener.accept()
                    try:
                        conn.settimeout(10)
                        argv, cwd, env, fds = _recv_request(conn)
                    except (OSError, ValueError, IndexError) as e:
                        sys.stderr.write(f"step server: bad request: {e}\n")
                        conn.close()
                        continue
                    closing = [listener.fileno(), wake_r, wake_w, sel.fileno()]
                    closing += [c.fileno() for c in workers.values()]
                    pid = os.fork()
                    if pid == 0:
                        conn.close()
                        _worker(argv, cwd, env, fds, closing)
                    for fd in fds:
                        os.close(fd)
                    try:
                        conn.sendall(PID.pack(pid))
                    except OSError:
                        os.kill(pid, signal.SIGKILL)
                    workers[pid] = conn
                    served += 1
                    sel.register(conn, selectors.EVENT_READ, pid)
                elif what == "wake":
                    try:
                        os.read(wake_r, 512)
                    except BlockingIOError:
                        pass
                    _reap(workers, sel)
                elif what == "parent":
                    if not os.read(sys.stdin.fileno(), 512):
                        stop.append(True)
                else:  # a client's connection: readable only when it went away
                    pid = what
                    sel.unregister(key.fileobj)
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
            _reap(workers, sel)
    finally:
        for pid in workers:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for pid in list(workers):
            os.waitpid(pid, 0)
        listener.close()
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        sys.stderr.write(f"step server: {served} steps run, each in a worker forked from it\n")


def _reap(workers: dict[int, _socket.socket], sel: object) -> None:
    """Collect the workers that ended and tell their clients how (only known workers: one
    that ends before it is registered is collected on the next pass)."""
    for pid in list(workers):
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            done, status = pid, 1 << 8
        if done == 0:
            continue
        conn = workers.pop(pid)
        try:
            sel.unregister(conn)  # type: ignore[attr-defined]
        except (KeyError, ValueError):
            pass
        try:
            conn.sendall(STATUS.pack(os.waitstatus_to_exitcode(status)))
        except OSError:
            pass
        conn.close()


# --- started and stopped by the Snakefile ----------------------------------------------------

_SERVER: list = []  # the running server: (process, its folder)


def start(python: str | None = None) -> str:
    """Start the server for this Snakemake run (its child, in a session of its own: the
    terminal's Ctrl-C reaches the jobs, which pass it on) and put its socket in this
    process's environment, which the jobs inherit. Returns the socket's path."""
    import subprocess
    import tempfile

    folder = tempfile.mkdtemp(prefix="ccr-step-")
    path = os.path.join(folder, "socket")
    proc = subprocess.Popen(
        [python or sys.executable, "-m", "analysis.stepserver", SERVE, path],
        stdin=subprocess.PIPE,
        start_new_session=True,
    )
    _SERVER.append((proc, folder))
    os.environ[SOCKET_ENV] = path
    return path


def stop(timeout: float = 30) -> None:
    """Stop the server :func:`start` started (close its stdin, wait for it) and remove its
    folder. Nothing to do when none runs."""
    import shutil
    import subprocess

    os.environ.pop(SOCKET_ENV, None)
    while _SERVER:
        proc, folder = _SERVER.pop()
        if proc.stdin:
            proc.stdin.close()
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != SERVE:
        sys.exit(f"usage: python -m analysis.stepserver {SERVE} SOCKET")
    serve(sys.argv[2])
