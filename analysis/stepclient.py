"""The client of the step server (analysis/stepserver.py, where the whole arrangement is
described): what a rule's ``python`` runs, through ``scripts/launcher/python``, as
``python -S analysis/stepclient.py ARGS``.

It runs for every job, so it imports only modules built into the interpreter (``_socket``,
``_signal``, ``_struct``): ``socket``, ``signal`` and ``json`` would double its start. It
also holds the protocol both sides speak (:func:`encode_request`, :func:`decode_request`).
"""

from __future__ import annotations

import _signal
import _socket
import _struct
import os
import sys

#: the socket of the running server (set by stepserver.start, read by :func:`client`)
SOCKET_ENV = "CCR_STEP_SERVER"
#: the real interpreter, which the launcher's client execs for anything not served
PYTHON_ENV = "CCR_PYTHON"
#: the modules a worker may run: the project's own
PREFIX = "analysis."
#: the signals a client passes on to its worker
FORWARDED = (_signal.SIGINT, _signal.SIGTERM, _signal.SIGHUP)

HEAD = _struct.Struct("!I")  # request length
PID = _struct.Struct("!q")  # the worker's pid, sent first
STATUS = _struct.Struct("!i")  # its exit code, or -signal


def served_module(argv: list[str]) -> str | None:
    """The module ``python argv...`` runs if it is one the server runs (``-m analysis.X``
    first on the line), else None."""
    if len(argv) >= 2 and argv[0] == "-m" and argv[1].startswith(PREFIX):
        return argv[1]
    return None


def encode_request(argv: list[str], cwd: str, env: dict[str, str]) -> bytes:
    """A job for the server: its arguments, directory and environment, as NUL-separated
    fields after a length (none of them can hold a NUL)."""
    fields = [str(len(argv)), *argv, cwd, *(f"{k}={v}" for k, v in env.items())]
    body = b"\0".join(os.fsencode(f) for f in fields)
    return HEAD.pack(len(body)) + body


def decode_request(body: bytes) -> tuple[list[str], str, dict[str, str]]:
    """What :func:`encode_request` encoded (its body, after the length)."""
    fields = [os.fsdecode(f) for f in body.split(b"\0")]
    n = int(fields[0])
    argv, cwd = fields[1 : n + 1], fields[n + 1]
    env = dict(f.split("=", 1) for f in fields[n + 2 :])
    return argv, cwd, env


def _recv_exact(conn: _socket.socket, n: int) -> bytes | None:
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def _exec_python(argv: list[str]) -> None:
    python = os.environ.get(PYTHON_ENV)
    if not python:
        sys.stderr.write(
            f"scripts/launcher/python: ${PYTHON_ENV} is not set (the Snakefile sets it)\n"
        )
        os._exit(127)
    os.execv(python, [python, *argv])


def client(argv: list[str]) -> int:
    """Run ``python argv...`` through the server when it runs that module and is up; else
    exec the real interpreter. Returns the worker's exit status (raises its signal).

    Passes on SIGINT, SIGTERM and SIGHUP to the worker; a client killed otherwise closes its
    connection, and the server kills the worker."""
    path = os.environ.get(SOCKET_ENV)
    if not path or served_module(argv) is None:
        _exec_python(argv)
    conn = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        conn.connect(path)
        request = encode_request(argv, os.getcwd(), dict(os.environ))
        fds = [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, _struct.pack("3i", 0, 1, 2))]
        sent = conn.sendmsg([request], fds)
        if sent < len(request):
            conn.sendall(request[sent:])
        got = _recv_exact(conn, PID.size)
    except OSError:
        got = None
    if got is None:  # no server, or it took no job: run it here
        conn.close()
        _exec_python(argv)
        return 127  # not reached
    (pid,) = PID.unpack(got)

    def forward(signum: int, _frame: object) -> None:
        try:
            os.kill(pid, signum)
        except ProcessLookupError:
            pass

    for s in FORWARDED:
        _signal.signal(s, forward)
    got = _recv_exact(conn, STATUS.size)  # a forwarded signal's EINTR is retried (PEP 475)
    if got is None:
        sys.stderr.write(
            f"scripts/launcher/python: the step server ({path}) went away while running "
            f"{' '.join(argv)} (worker pid {pid})\n"
        )
        return 1
    (status,) = STATUS.unpack(got)
    if status < 0:  # killed by a signal: end the same way
        _signal.signal(-status, _signal.SIG_DFL)
        os.kill(os.getpid(), -status)
        return 128 - status
    return status


if __name__ == "__main__":  # scripts/launcher/python ARGS
    sys.exit(client(sys.argv[1:]))
