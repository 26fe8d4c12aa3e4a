"""A test step in a private root: it sees the project folder, the environment it imports from, and
nothing it could have planted anywhere else (issue 32, invariant a).

Where a step gets its own PID namespace (testrun/isolation.py) it can also get its own mount
namespace and, unless ``ASTRA_CONFIRM_NETWORK=1``, its own network namespace (``unshare --mount
--net``). There the reaper (testrun/reaper.py), before it starts the command, calls ``enter``:

- ``/proc`` is mounted anew for the step's PID namespace: the step sees its own processes only,
  not the agent's (``/proc/<agent pid>/environ``);
- every mount is made read-only (``mount_setattr(AT_RECURSIVE)``), so nothing the step writes
  outside the project folder and the private temp folders can land anywhere, let alone survive;
- ``/tmp``, ``/var/tmp`` and ``/dev/shm`` are new, empty ``tmpfs`` mounts, and so is the project
  folder's parent: the folders above the project hold nothing but the path down to it (the
  sibling workspace, a ``tox.ini`` or ``conftest.py`` written beside the copy, are gone); so is
  each ``hide`` folder (every test step of a session hides our data home, the user's home and the
  runs folder; the confirming run also the session's workspace: nodes/common.py ``private_step``);
- the project folder and each ``keep`` path (the environment's folders and our plugin's, read-only)
  that those mounts hid are bind-mounted back at their own paths; the project folder alone is
  writable;
- the network namespace has only a loopback interface, brought up.

The tmpfs mounts and the namespace end with the step, so nothing it wrote outside the project
folder survives it. Standard library only: the reaper loads this file by path.

Where there is no PID namespace (``subreaper``, ``process-group``) or the probe fails, a step runs
in the shared file system: ``degraded_reason`` (testrun/isolation.py, which tries a private root
once) says why, and the run's outcome says so.
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import socket
import struct
import sys
from pathlib import Path

NETWORK_ENV = "ASTRA_CONFIRM_NETWORK"
PRIVATE_ROOT_FAILED = 72
PRIVATE_ROOT_MESSAGE = "astra: could not give the test step a private root"
PRIVATE_TMP = "/tmp"
HIDDEN = ("/tmp", "/var/tmp", "/dev/shm")
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_BIND, MS_REC = 2, 4, 8, 32, 4096, 16384
_KEPT_FLAGS = {2: 2, 4: 4, 8: 8, 1024: 1024, 2048: 2048, 4096: 1 << 21}  # statvfs flag -> mount flag
SYS_MOUNT_SETATTR, AT_FDCWD, AT_RECURSIVE, MOUNT_ATTR_RDONLY = 442, -100, 0x8000, 0x1
SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1


# -- the agent's side ------------------------------------------------------------------------------

def network_allowed(environ=None) -> bool:
    """Whether the user lets test steps reach the network (``ASTRA_CONFIRM_NETWORK=1``)."""
    return (os.environ if environ is None else environ).get(NETWORK_ENV, "") == "1"


def unshare_options(network: bool) -> list[str]:
    """What ``unshare`` adds to a PID namespace for a private root."""
    return ["--mount"] + ([] if network else ["--net"])


def reaper_options(folder: str | Path, keep: list[str], hide: list[str] = ()) -> list[str]:
    """The reaper's command-line options that make it ``enter`` a private root for ``folder``."""
    options = ["--private-root", str(folder)]
    for path in keep:
        options += ["--keep", str(path)]
    for path in hide:
        options += ["--hide", str(path)]
    return options


def interpreter_paths() -> list[str]:
    """Our interpreter's folders, which every private root keeps (the probe's and each run's): its
    venv, the Python it was made from, its ``bin`` (a link there: the venv's ``python``) and the
    executable it resolves to."""
    return [sys.prefix, sys.base_prefix, str(Path(sys.executable).parent), str(Path(sys.executable).resolve())]


# -- the reaper's side (inside the new namespaces) -------------------------------------------------

def _libc():
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mount.argtypes = (ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_void_p)
    return libc


def _mount(libc, source, target: str, fstype, flags: int, data: bytes | None = None) -> None:
    def enc(v):
        return None if v is None else os.fsencode(v)

    if libc.mount(enc(source), enc(target), enc(fstype), flags, data) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"mounting {target}: {os.strerror(errno)}")


class _MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64),
                ("propagation", ctypes.c_uint64), ("userns_fd", ctypes.c_uint64)]


def _read_only_everywhere(libc) -> None:
    attr = _MountAttr(MOUNT_ATTR_RDONLY, 0, 0, 0)
    done = libc.syscall(ctypes.c_long(SYS_MOUNT_SETATTR), ctypes.c_int(AT_FDCWD), ctypes.c_char_p(b"/"),
                        ctypes.c_uint(AT_RECURSIVE), ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr)))
    if done != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"making every mount read-only: {os.strerror(errno)}")


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _bind_back(libc, path: str, fd: int, is_dir: bool) -> None:
    """``path`` (hidden by a tmpfs) bind-mounted back from ``fd``: the mount point is made on the new
    tmpfs, never opened for writing where it already is (a running interpreter: ETXTBSY)."""
    if is_dir:
        os.makedirs(path, exist_ok=True)
    elif not os.path.lexists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        open(path, "a").close()
    _mount(libc, f"/proc/self/fd/{fd}", path, None, MS_BIND | MS_REC)


def _writable(libc, path: str) -> None:
    _mount(libc, path, path, None, MS_BIND | MS_REC)
    kept = os.statvfs(path).f_flag
    _mount(libc, None, path, None, MS_REMOUNT | MS_BIND | sum(ms for st, ms in _KEPT_FLAGS.items() if kept & st))


def _loopback_up() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        request = struct.pack("16sH14s", b"lo", 0, b"")
        flags = struct.unpack("16sH14s", fcntl.ioctl(sock, SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(sock, SIOCSIFFLAGS, struct.pack("16sH14s", b"lo", flags | IFF_UP, b""))


def private_proc() -> bool:
    """Mount a ``/proc`` of this PID namespace over the shared one (every namespaced step, private
    root or not): the step's processes only. False where the kernel refuses (the old one stays)."""
    try:
        _mount(_libc(), "proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    except OSError:
        return False
    return True


def hidden_points(folder: str, keep: list[str], hide: list[str]) -> list[str]:
    """Where ``enter`` mounts an empty tmpfs, outermost first: the temp folders, ``folder``'s parent
    and each ``hide`` folder, except "/", ``folder`` and what is inside it, and a point already under
    another unless a kept path brings that part back."""
    folder = os.path.realpath(folder)
    kept = [os.path.realpath(p) for p in keep]
    candidates = sorted({os.path.realpath(p) for p in (*HIDDEN, os.path.dirname(folder), *hide) if p},
                        key=lambda p: (len(p), p))
    points: list[str] = []
    for point in candidates:
        if point == "/" or _inside(point, folder) or not os.path.isdir(point):
            continue
        if any(_inside(point, h) for h in points) and not any(_inside(point, k) for k in kept):
            continue
        points.append(point)
    return points


def enter(folder: str, keep: list[str], hide: list[str] = ()) -> None:
    """Make this mount namespace the step's private root for ``folder`` (see the module's text)."""
    libc = _libc()
    points = hidden_points(folder, keep, list(hide))
    folder = os.path.realpath(folder)
    paths = {folder: True}
    for path in keep:
        real = os.path.realpath(path)
        if os.path.exists(real) and not _inside(real, folder):
            paths.setdefault(real, False)
    order = sorted(paths, key=len)
    fds = {path: os.open(path, os.O_PATH | os.O_CLOEXEC) for path in order}
    dirs = {path: os.path.isdir(path) for path in order}
    _mount(libc, "proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    _read_only_everywhere(libc)
    for point in points:
        if not os.path.isdir(point):
            continue  # under a point hidden before it, in a part no kept path brought back
        _mount(libc, "tmpfs", point, "tmpfs", MS_NOSUID | MS_NODEV, b"mode=1777")
        for path in order:
            if _inside(path, point) and path != point:
                _bind_back(libc, path, fds[path], dirs[path])
    _writable(libc, folder)
    for fd in fds.values():
        os.close(fd)
    os.chdir(folder)  # the new mount, not the hidden one the step was started in
    try:
        _loopback_up()
    except OSError:
        pass  # the network is shared (ASTRA_CONFIRM_NETWORK=1), or there is no loopback to bring up
