"""The first process of a test step: runs the test command, and kills everything it started.

Run by testrun/isolation.py (start_step) as ``python -I -S reaper.py CONTROL_FD [--read-only PATH]... [--private-root
FOLDER [--keep PATH]... [--hide PATH]...] [--private-proc] -- COMMAND...`` (``--private-proc``: a ``/proc`` of the
step's own PID namespace, testrun/private_root.py)
(standard library only, isolated from the workspace's PYTHONPATH). Inside its own mount namespace
(``unshare --mount``) it first bind-mounts each ``--read-only`` PATH read-only onto itself (a
failure ends the step with ``READ_ONLY_FAILED`` before COMMAND starts); with ``--private-root`` it
then enters testrun/private_root.py's private root (``PRIVATE_ROOT_FAILED``). It starts COMMAND and
ends, killing every process the step started, when

- COMMAND exits (leftovers it detached are killed; the exit code is COMMAND's),
- the control pipe closes: the agent stopped the step (timeout, output bound) or died, by any
  signal including SIGKILL, since the kernel closes a dead process's pipe ends,
- it gets SIGTERM, SIGHUP or SIGINT (also its parent-death signal).

Which processes are "every process the step started": inside a PID namespace (``unshare --pid``)
this is PID 1, and ``kill(-1)`` reaches exactly the namespace; a process cannot leave it. Without
one it is a Linux child subreaper: every orphaned descendant, double-forked and ``setsid`` ones
included, is re-parented to it, so its descendants in /proc are the step's processes.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import select
import signal
import sys
import time

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
KILL_DEADLINE_S = 5.0
READ_ONLY_FAILED = 71
READ_ONLY_MESSAGE = "astra: could not make the test environment read-only"
MS_RDONLY, MS_REMOUNT, MS_BIND, MS_REC = 1, 32, 4096, 16384
# statvfs flags a remount inside a user namespace must keep (the kernel locks them), as mount flags
_KEPT_FLAGS = {2: 2, 4: 4, 8: 8, 1024: 1024, 2048: 2048, 4096: 1 << 21}  # nosuid nodev noexec noatime nodiratime relatime


def _prctl(option: int, value: int) -> bool:
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _children_map() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(b")") + 2:].split()[1])  # the name may hold spaces and parentheses
        children.setdefault(ppid, []).append(int(entry))
    return children


def _descendants(root: int) -> list[int]:
    tree, found, todo = _children_map(), [], [root]
    while todo:
        for child in tree.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _reap() -> tuple[list[tuple[int, int]], bool]:
    """(pid, wait status) of every child that ended; True once no child is left."""
    ended = []
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return ended, True
        if pid == 0:
            return ended, False
        ended.append((pid, status))


def kill_everything() -> None:
    """SIGKILL every process of the step but this one, until none is left (or the deadline)."""
    deadline = time.monotonic() + KILL_DEADLINE_S
    while time.monotonic() < deadline:
        if os.getpid() == 1:  # the namespace's init: -1 is exactly the namespace
            try:
                os.kill(-1, signal.SIGKILL)
            except ProcessLookupError:
                pass
        elif os.path.isdir("/proc"):
            for pid in _descendants(os.getpid()):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        else:  # no /proc: only our own process group can be found
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            os.killpg(os.getpgid(0), signal.SIGTERM)
        _, none_left = _reap()
        if none_left:
            return
        time.sleep(0.01)


def _stop(signum, frame) -> None:  # noqa: ARG001
    kill_everything()
    os._exit(128 + signum)


def make_read_only(paths: list[str]) -> None:
    """Bind-mount each path read-only onto itself (in this process's mount namespace)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mount.argtypes = (ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_void_p)
    for path in paths:
        target = os.fsencode(path)
        if libc.mount(target, target, None, MS_BIND | MS_REC, None) != 0:
            raise OSError(ctypes.get_errno(), f"bind-mounting {path}: {os.strerror(ctypes.get_errno())}")
        kept = os.statvfs(path).f_flag
        flags = MS_REMOUNT | MS_BIND | MS_RDONLY | sum(ms for st, ms in _KEPT_FLAGS.items() if kept & st)
        if libc.mount(None, target, None, flags, None) != 0:
            raise OSError(ctypes.get_errno(), f"remounting {path} read-only: {os.strerror(ctypes.get_errno())}")


def _private_root_module():
    """testrun/private_root.py, loaded by path (this script runs isolated: no package on sys.path)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "private_root.py")
    spec = importlib.util.spec_from_file_location("astra_private_root", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv: list[str]) -> int:
    control_fd, rest = int(argv[1]), argv[2:]
    options: dict[str, list[str]] = {"--read-only": [], "--private-root": [], "--keep": [], "--hide": []}
    private_proc = False
    while rest and (rest[0] in options or rest[0] == "--private-proc"):
        if rest[0] == "--private-proc":
            private_proc, rest = True, rest[1:]
            continue
        options[rest[0]].append(rest[1])
        rest = rest[2:]
    if private_proc:
        _private_root_module().private_proc()
    command = rest[1:]  # after "--"
    read_only, private_root = options["--read-only"], options["--private-root"]
    if read_only:
        try:
            make_read_only(read_only)
        except OSError as exc:
            print(f"{READ_ONLY_MESSAGE}: {exc.strerror or exc}", flush=True)
            return READ_ONLY_FAILED
    if private_root:
        module = _private_root_module()
        try:
            module.enter(private_root[0], options["--keep"], options["--hide"])
        except OSError as exc:
            print(f"{module.PRIVATE_ROOT_MESSAGE}: {exc.strerror or exc}", flush=True)
            return module.PRIVATE_ROOT_FAILED
    os.set_inheritable(control_fd, False)  # the tests must not hold the agent's lifeline
    if os.getpid() != 1:
        _prctl(PR_SET_CHILD_SUBREAPER, 1)
        _prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(signum, _stop)
    wake, waker = os.pipe()  # SIGCHLD writes here, so a child's end wakes the loop at once
    os.set_blocking(waker, False)
    signal.set_wakeup_fd(waker)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)
    try:
        child = os.posix_spawnp(command[0], command, dict(os.environ))
    except OSError as exc:
        print(f"could not start the test command {command[0]!r}: {exc.strerror or exc}", flush=True)
        return 126 if isinstance(exc, PermissionError) else 127
    while True:
        readable, _, _ = select.select([control_fd, wake], [], [], 1.0)
        if control_fd in readable and not os.read(control_fd, 1):  # EOF: the agent stopped the step, or died
            kill_everything()
            return 137
        if wake in readable:
            os.read(wake, 512)
        ended, _ = _reap()
        for pid, status in ended:
            if pid == child:
                kill_everything()  # what the command left behind dies with the step
                code = os.waitstatus_to_exitcode(status)
                return code if code >= 0 else 128 - code  # killed by a signal: 128 + its number, as a shell says


if __name__ == "__main__":
    sys.exit(main(sys.argv))
