"""``run_cli``'s launcher: each CLI command of the suite still runs as a process of its own (its own
environment, folder, streams, exit status, signals, interpreter exit), forked from one warm process per
test worker instead of started cold.

A cold ``python -m astra_memory run`` spends most of its CPU importing LangGraph, langchain-core,
langsmith, pydantic, sqlite-vec and detect-secrets; the suite starts a few hundred. The warm process
(this file run as a script) imports those third-party libraries once, never ``astra_memory`` (whose
consoles read the command's environment when they are made), and reads nothing of a command's
environment. For each command it forks a monitor, which forks the command's process and reports its
wait status; the command's process takes the test's environment, folder and output files and runs
``astra_memory`` as ``-m`` does, to the interpreter's own exit (atexit, thread joins, flushes).
``ASTRA_TEST_CLI_FORK=0`` starts every command cold instead.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

# The heavy third-party imports of the CLI's commands (python -X importtime -m astra_memory run ...),
# none of which reads the environment when imported. Not torch, transformers or huggingface_hub
# (their settings are read at import), not typer or rich (their consoles and help read it).
PRELOAD = ("langgraph.graph", "langgraph.types", "langgraph.store.base", "langgraph.store.sqlite",
           "langgraph.checkpoint.sqlite", "langchain_core.runnables", "pydantic", "detect_secrets.plugins.base",
           "detect_secrets.filters.heuristic", "detect_secrets.plugins.keyword")

_lock = threading.Lock()
_launcher: dict = {}


def _decoded(data: bytes) -> str:
    """As ``subprocess.run(text=True)`` decodes a stream: the locale's encoding, universal newlines."""
    import locale

    return data.decode(locale.getpreferredencoding(False)).replace("\r\n", "\n").replace("\r", "\n")


def _socket_path() -> str | None:
    """This process's warm launcher (started at its first command), or None when it is turned off."""
    if os.environ.get("ASTRA_TEST_CLI_FORK", "1") == "0":
        return None
    with _lock:
        if _launcher.get("pid") != os.getpid():
            # A socket's path is at most 107 bytes: under /tmp, whatever TMPDIR is.
            folder = tempfile.mkdtemp(prefix="astra-cli-launcher-", dir="/tmp" if os.path.isdir("/tmp") else None)
            path = os.path.join(folder, "socket")
            ready = os.path.join(folder, "ready")
            server = subprocess.Popen([sys.executable, __file__, path, ready], stdin=subprocess.DEVNULL)
            while not os.path.exists(ready):
                if server.poll() is not None:
                    raise RuntimeError(f"the CLI launcher exited with {server.returncode}")
                threading.Event().wait(0.02)
            _launcher.update(pid=os.getpid(), path=path, server=server)
            atexit.register(_stop, server, folder)
        return _launcher["path"]


def _stop(server: subprocess.Popen, folder: str) -> None:
    """At this process's exit: the launcher ends, and is waited for (its commands' CPU is counted)."""
    server.terminate()
    server.wait()
    shutil.rmtree(folder, ignore_errors=True)


def attached(argv: list[str]) -> list[str]:
    """A command line that runs ``python -m astra_memory ARGV`` forked from this process's warm launcher on
    the streams, environment and folder it is started with (tests/cli_attach.py hands them over and ends as
    the command ends); a cold ``python -m astra_memory ARGV`` when the launcher is turned off. For commands
    a client starts itself and talks to on their pipes (an MCP stdio server)."""
    path = _socket_path()
    if path is None:
        return [sys.executable, "-m", "astra_memory", *argv]
    return [sys.executable, "-S", "-E", str(Path(__file__).with_name("cli_attach.py")), path, *argv]


def run(argv: list[str], *, env: dict[str, str], cwd: Path, timeout: float) -> subprocess.CompletedProcess:
    """``subprocess.run([sys.executable, "-m", "astra_memory", *argv], capture_output=True, text=True, ...)``."""
    args = [sys.executable, "-m", "astra_memory", *argv]
    path = _socket_path()
    if path is None:
        return subprocess.run(args, capture_output=True, text=True, env=env, timeout=timeout, cwd=cwd)
    with tempfile.TemporaryDirectory(prefix="astra-cli-") as folder, socket.socket(socket.AF_UNIX) as conn:
        out, err = os.path.join(folder, "out"), os.path.join(folder, "err")
        conn.connect(path)
        request = {"argv": argv, "env": env, "cwd": str(cwd), "stdout": out, "stderr": err}
        conn.sendall(json.dumps(request).encode() + b"\n")
        replies = conn.makefile("r")
        pid = json.loads(replies.readline())["pid"]
        conn.settimeout(timeout)
        try:
            line = replies.readline()
        except TimeoutError:
            os.kill(pid, signal.SIGKILL)
            raise subprocess.TimeoutExpired(args, timeout) from None
        code = os.waitstatus_to_exitcode(json.loads(line)["status"])
        return subprocess.CompletedProcess(args, code, _decoded(Path(out).read_bytes()),
                                           _decoded(Path(err).read_bytes()))


# -- the warm process ------------------------------------------------------------------------------

def _serve(path: str, ready: str) -> dict:
    """Forks a monitor per command; returns only in a command's own process, with its request."""
    parent = os.getppid()
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(path)
    listener.listen(64)
    listener.settimeout(1.0)
    stop: list[int] = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))  # _stop: ends after the running commands
    Path(ready).touch()
    while os.getppid() == parent and not stop:  # the test worker is gone: so is its launcher
        _reap()
        try:
            conn, _ = listener.accept()
        except TimeoutError:
            continue
        if os.fork() == 0:
            listener.close()
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            # An attached command (tests/cli_attach.py) sends its streams with its first byte.
            first, fds, _, _ = socket.recv_fds(conn, 1, 3)
            request = json.loads(first + conn.makefile("rb").readline())
            if fds:
                request["fds"] = fds
            pid = os.fork()
            if pid == 0:
                conn.close()
                return request
            for fd in fds:  # the command's now: its pipes end when it does
                os.close(fd)
            conn.sendall(json.dumps({"pid": pid}).encode() + b"\n")
            _, status = os.waitpid(pid, 0)
            conn.sendall(json.dumps({"status": status}).encode() + b"\n")
            os._exit(0)
        conn.close()
    while True:  # every monitor waited for
        try:
            os.wait()
        except ChildProcessError:
            sys.exit(0)


def _reap() -> None:
    """Waits for the monitors that have ended (so their commands' CPU adds up in this process)."""
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:
        pass


def _become(request: dict, sigint) -> None:
    """This process takes the command's environment, folder and streams, as a fresh interpreter would."""
    import io
    import random

    os.environ.clear()
    os.environ.update(request["env"])
    os.chdir(request["cwd"])
    sys.path.insert(0, os.getcwd())  # as -m puts it
    signal.signal(signal.SIGINT, sigint)
    random.seed()  # not the launcher's sequence
    if "fds" in request:  # an attached command: the streams it was started with
        opened_fds = request["fds"]
    else:
        opened_fds = [os.open(name, flags, 0o600) for name, flags in (
            (os.devnull, os.O_RDONLY), (request["stdout"], os.O_WRONLY | os.O_CREAT),
            (request["stderr"], os.O_WRONLY | os.O_CREAT))]
    for fd, opened in enumerate(opened_fds):
        os.dup2(opened, fd)
    for opened in set(opened_fds) - {0, 1, 2}:
        os.close(opened)
    unbuffered = bool(os.environ.get("PYTHONUNBUFFERED"))
    sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False))
    sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), line_buffering=False, write_through=unbuffered)
    sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), errors="backslashreplace",
                                  line_buffering=True)
    sys.argv = [sys.argv[0]] + request["argv"]


if __name__ == "__main__":
    import importlib
    import runpy

    # A fresh interpreter keeps an ignored SIGINT ignored, else installs its KeyboardInterrupt handler.
    first_sigint = signal.getsignal(signal.SIGINT)
    sigint = signal.SIG_IGN if first_sigint is signal.SIG_IGN else signal.default_int_handler
    sys.path.pop(0)  # this file's folder (tests/) is no path of the command's
    for name in PRELOAD:
        importlib.import_module(name)
    _become(_serve(sys.argv[1], sys.argv[2]), sigint)
    runpy.run_module("astra_memory", run_name="__main__", alter_sys=True)
