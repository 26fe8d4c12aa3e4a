"""A test step's processes live and die with the step.

The command runs under reaper.py, which starts it and kills everything it started when it ends or
when its control pipe closes. The agent holds that pipe's write end: closing it stops the step, and
the kernel closes it when the agent dies by any signal, SIGKILL included. Which processes "everything"
is depends on the mode, picked once per process (``isolation_mode``):

- ``pid-namespace`` (Linux with util-linux ``unshare`` allowed here, as root, or unprivileged through
  a user namespace that keeps the caller's uid): the step is a PID namespace whose first process is
  the reaper. Nothing inside can leave it; when the reaper ends the kernel kills what is left; a
  SIGKILL of ``unshare`` kills the reaper (``--kill-child``).
- ``subreaper`` (Linux otherwise): the reaper is a child subreaper, so orphaned descendants
  (double-forked, ``setsid``) become its children and it kills its descendants. A test that kills the
  reaper itself, or hands work to an outside service (systemd, cron, ssh), escapes it.
- ``process-group`` (elsewhere): only the step's process group is killed; ``setsid`` escapes it.

In ``pid-namespace`` mode a step also gets its own mount namespace (``unshare --mount``), with a
``/proc`` of its own PID namespace (it cannot see the agent's process, ``/proc/<pid>/environ``), in
which the reaper bind-mounts given folders read-only before it starts the command: the environment
the tests import from (testrun/manifest.py) cannot be written by anything the step starts
(``read_only_supported`` says whether that works here).

Output is read from a pipe into memory, at most the bound plus one read; nothing is spooled to disk.
"""

from __future__ import annotations

import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Literal

from astra_memory.testrun.private_root import interpreter_paths, network_allowed, reaper_options, unshare_options

REAPER = Path(__file__).with_name("reaper.py")
EXIT_GRACE_S = 2.0  # after the command ended, how long a leftover holding the pipe may delay the end
STOP_GRACE_S = 10.0  # how long the reaper may take to kill everything before it is killed itself
Ending = Literal["exited", "timeout", "overflow"]
_UNSHARE = ("--pid", "--fork", "--kill-child")


@lru_cache(maxsize=1)
def namespace_prefix() -> tuple[str, ...] | None:
    """The ``unshare`` command line that gives a step its own PID namespace here, or None."""
    unshare = shutil.which("unshare") or shutil.which("unshare", path="/usr/bin:/bin")
    if not unshare or not sys.platform.startswith("linux"):
        return None
    for extra in ((), ("--user", "--map-current-user"), ("--user", "--map-root-user")):
        prefix = (unshare, *extra, *_UNSHARE)
        try:
            probe = subprocess.run([*prefix, "true"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if probe.returncode == 0:
            return prefix
    return None


@lru_cache(maxsize=1)
def read_only_supported() -> bool:
    """Whether a step here can mount folders read-only in its own mount namespace (tried once)."""
    if namespace_prefix() is None:
        return False
    with tempfile.TemporaryDirectory(prefix="astra-ro-probe-") as folder:
        target = Path(folder) / "written"
        try:
            step = start_step([sys.executable, "-I", "-S", "-c", f"open({str(target)!r}, 'w').close()"],
                              cwd=Path(folder), env={"PATH": "/usr/bin:/bin"}, isolation="pid-namespace",
                              read_only=[folder])
        except OSError:
            return False
        with step:
            step.collect(timeout_s=30, max_bytes=10_000)
        return step.exit_code not in (0, None) and not target.exists()


def isolation_mode() -> str:
    """``pid-namespace``, ``subreaper`` or ``process-group``: how test steps are contained here."""
    if namespace_prefix() is not None:
        return "pid-namespace"
    return "subreaper" if sys.platform.startswith("linux") else "process-group"


class Step:
    """One running test command under its reaper; use as a context manager so it always ends."""

    def __init__(self, proc: subprocess.Popen, control: int):
        self.proc, self._control = proc, control
        self.exit_code: int | None = None

    def collect(self, *, timeout_s: float, max_bytes: int) -> tuple[bytes, Ending]:
        """Read the output until the command ends, the timeout passes or the output passes ``max_bytes``."""
        fd = self.proc.stdout.fileno()
        os.set_blocking(fd, False)
        out, deadline, exited_at = bytearray(), time.monotonic() + timeout_s, None
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while True:
                now = time.monotonic()
                if now >= deadline:
                    return bytes(out), "timeout"
                if exited_at is None and self.proc.poll() is not None:
                    exited_at = now
                if exited_at is not None and now - exited_at > EXIT_GRACE_S:
                    return bytes(out), "exited"  # something outside the step still holds the pipe
                if not selector.select(min(deadline - now, 0.2)):
                    continue
                try:
                    chunk = os.read(fd, 65536)
                except BlockingIOError:
                    continue
                if not chunk:
                    return bytes(out), "exited"
                out += chunk
                if len(out) > max_bytes:
                    return bytes(out), "overflow"

    def stop(self) -> None:
        """End the step: the reaper kills everything it started; if it cannot, it is killed itself."""
        if self._control >= 0:
            os.close(self._control)
            self._control = -1
        try:
            self.proc.wait(timeout=STOP_GRACE_S)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            try:  # before reaping, so the group id cannot have been reused
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self.proc.wait()
        self.proc.stdout.close()
        if self.exit_code is None:
            self.exit_code = self.proc.returncode

    def __enter__(self) -> "Step":
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()


def start_step(argv: list[str], *, cwd: Path, env: dict[str, str], isolation: str | None = None,
               read_only: Sequence[str] = (), private_root: Sequence[str] | None = None,
               hide: Sequence[str] = (), pass_fds: Sequence[int] = ()) -> Step:
    """Start ``argv`` under the reaper (in a PID namespace where ``isolation`` allows it), with
    ``read_only`` folders (or files) mounted read-only for it (a mount namespace; raises OSError
    where there is none). ``private_root`` (the paths to keep besides ``cwd``) runs it in a private
    root for ``cwd`` (testrun/private_root.py; raises OSError where there is no namespace), in which
    the ``hide`` folders are empty too. ``pass_fds`` are inherited by the command."""
    mode = isolation or isolation_mode()
    prefix = list(namespace_prefix() or ()) if mode == "pid-namespace" else []
    if mode == "pid-namespace" and not prefix:
        raise OSError(f"a PID namespace is not available here (isolation modes: {isolation_mode()})")
    options: list[str] = []
    if (read_only or private_root is not None) and not prefix:
        raise OSError(f"read-only environments and private roots need a mount namespace, and isolation mode "
                      f"{mode} has none")
    if private_root is not None:
        prefix += unshare_options(network_allowed())
        options += reaper_options(cwd, list(private_root), list(hide))
    elif prefix:  # its own /proc at least: the step sees its own processes, not the agent's
        prefix.append("--mount")
        options.append("--private-proc")
    for path in read_only:
        options += ["--read-only", str(path)]
    control, lifeline = os.pipe()  # the reaper reads EOF on `control` once `lifeline` is closed
    try:
        proc = subprocess.Popen(
            [*prefix, sys.executable, "-I", "-S", str(REAPER), str(control), *options, "--", *argv],
            cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            pass_fds=(control, *pass_fds), start_new_session=True)
    except BaseException:
        os.close(lifeline)
        raise
    finally:
        os.close(control)
    return Step(proc, lifeline)


@lru_cache(maxsize=1)
def degraded_reason() -> str:
    """"" where a step here can run in a private root (tried once); else why it cannot."""
    if namespace_prefix() is None:
        return "no PID and mount namespace here (unshare is missing or not allowed)"
    with tempfile.TemporaryDirectory(prefix="astra-private-probe-") as parent:
        folder = Path(parent) / "project"
        folder.mkdir()
        (Path(parent) / "planted").write_text("")
        probe = ("import os, sys; open('written', 'w').close(); "
                 "sys.exit(0 if not os.path.exists(os.path.join('..', 'planted')) else 3)")
        try:
            step = start_step([sys.executable, "-I", "-S", "-c", probe], cwd=folder,
                              env={"PATH": "/usr/bin:/bin"}, private_root=interpreter_paths())
        except OSError as exc:
            return f"the private root could not start: {exc}"
        with step:
            output, _ = step.collect(timeout_s=30, max_bytes=10_000)
        if step.exit_code != 0 or not (folder / "written").exists():
            text = output.decode("utf-8", errors="replace").strip().splitlines()
            return f"the private root did not work here ({text[0] if text else f'exit code {step.exit_code}'})"
    return ""
