"""File access below one root folder that never follows a symlink.

Every path component is opened relative to its parent's descriptor with ``O_NOFOLLOW``, so a
symlink anywhere on the way (a folder, the file itself, a planted temp name) is refused rather
than followed, whatever the project under repair does to its own tree in between. Writes go to a
fresh temp file created exclusively (``O_CREAT | O_EXCL | O_NOFOLLOW``) in the target's folder and
renamed over the target within that folder, so they land on the workspace's own entry, never on
what a link points at. ``.git`` is refused by name in any letter case (``.GIT`` is the same folder
on a case-insensitive disk), and the real path of every opened file is checked once more.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath

from astra_memory.errors import WorkspaceError

MAX_PATH_CHARS = 500
MAX_NAME_BYTES = 255  # one path component, as most file systems allow
SYMLINK_REFUSAL = "symlinks are never followed, as they can lead outside the workspace"
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW | _CLOEXEC
# O_NONBLOCK: opening a FIFO planted at a file name must not block the session.
_READ_FLAGS = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | _CLOEXEC
_CREATE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC


def is_git_name(name: str) -> bool:
    """``.git`` in any case, with the trailing dots or spaces some file systems ignore."""
    return name.rstrip(" .").casefold() == ".git"


def split_path(path: object) -> tuple[str, ...]:
    """The components of a workspace-relative path, or WorkspaceError saying why it is refused."""
    if not isinstance(path, str) or not path.strip():
        raise WorkspaceError("path must be a non-empty workspace-relative string")
    if len(path) > MAX_PATH_CHARS:
        raise WorkspaceError(f"path is {len(path)} characters long; at most {MAX_PATH_CHARS} are accepted")
    if "\x00" in path:
        raise WorkspaceError("path contains a NUL byte")
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        raise WorkspaceError("path is not valid text (it holds a lone surrogate)") from None
    pure = PurePosixPath(path.replace("\\", "/"))
    if pure.is_absolute() or os.path.isabs(path) or (len(path) > 1 and path[1] == ":"):
        raise WorkspaceError(f"absolute paths are refused: {path!r}; give a path relative to the workspace")
    parts = tuple(p for p in pure.parts if p not in ("", "."))
    if ".." in parts:
        raise WorkspaceError(f"'..' is refused in {path!r}: paths must stay inside the workspace")
    for part in parts:
        if is_git_name(part):
            raise WorkspaceError(f"{path!r} is inside .git, which the agent may not touch")
        if len(part.encode("utf-8")) > MAX_NAME_BYTES:
            raise WorkspaceError(f"a component of {path[:60]!r}... is longer than {MAX_NAME_BYTES} bytes")
    return parts


def _refusal(parent_fd: int, name: str, shown: str, exc: OSError, *, want_dir: bool) -> WorkspaceError:
    try:
        mode = os.lstat(name, dir_fd=parent_fd).st_mode
    except OSError:
        mode = None
    if mode is not None and stat.S_ISLNK(mode):
        return WorkspaceError(f"{shown!r} is a symlink; {SYMLINK_REFUSAL}")
    if mode is None or exc.errno == errno.ENOENT:
        return WorkspaceError(f"{shown!r} does not exist in the workspace")
    if want_dir and not stat.S_ISDIR(mode):
        return WorkspaceError(f"{shown!r} is not a folder")
    return WorkspaceError(f"{shown!r} cannot be opened: {exc.strerror or exc}")


def _real_path(fd: int) -> str | None:
    try:  # Linux; elsewhere the no-follow walk is the whole check
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return None


def check_inside(root: Path, fd: int, shown: str) -> str:
    """The opened file's path relative to ``root``; refuses one that is not (really) inside it."""
    real = _real_path(fd)
    if real is None:
        return ""
    root_text = str(root)
    if real != root_text and not real.startswith(root_text.rstrip("/") + "/"):
        raise WorkspaceError(f"{shown!r} resolves outside the workspace")
    rel = real[len(root_text):].lstrip("/")
    if any(is_git_name(part) for part in rel.split("/")):
        raise WorkspaceError(f"{shown!r} is inside .git, which the agent may not touch")
    return rel


@contextmanager
def open_dir(root: Path, parts: tuple[str, ...]) -> Iterator[int]:
    """A descriptor of the folder ``root/parts``, reached without following any symlink."""
    fd = os.open(root, _DIR_FLAGS)
    try:
        for i, part in enumerate(parts):
            try:
                child = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                raise _refusal(fd, part, "/".join(parts[: i + 1]), exc, want_dir=True) from None
            os.close(fd)
            fd = child
        check_inside(root, fd, "/".join(parts) or ".")
        yield fd
    finally:
        os.close(fd)


@contextmanager
def open_regular(dir_fd: int, name: str, shown: str) -> Iterator[tuple[int, os.stat_result]]:
    """A read descriptor of the regular file ``name`` in ``dir_fd`` (no symlink, FIFO, device, folder)."""
    try:
        fd = os.open(name, _READ_FLAGS, dir_fd=dir_fd)
    except OSError as exc:
        raise _refusal(dir_fd, name, shown, exc, want_dir=False) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise WorkspaceError(f"{shown!r} is a folder, not a file; use list_files")
        if not stat.S_ISREG(info.st_mode):
            raise WorkspaceError(f"{shown!r} is not a regular file")
        if info.st_nlink > 1:  # a hard link may be the same file as one outside the workspace
            raise WorkspaceError(f"{shown!r} has {info.st_nlink} hard links; hard-linked files are refused")
        yield fd, info
    finally:
        os.close(fd)


def read_bounded(fd: int, limit: int) -> bytes:
    """At most ``limit + 1`` bytes, so the caller can tell a file over the limit."""
    chunks, size = [], 0
    while size <= limit:
        chunk = os.read(fd, min(1 << 20, limit + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def replace_file(dir_fd: int, name: str, data: bytes, mode: int = 0o644) -> None:
    """Write ``data`` as ``name`` in ``dir_fd`` atomically: an exclusive temp file, then a rename.

    The temp name is random and created with O_EXCL | O_NOFOLLOW, so nothing planted in the folder
    (a symlink at a predictable name) is ever opened; the rename replaces the folder's entry itself,
    never the target of a symlink standing there.
    """
    for _ in range(16):
        tmp = f".astra-{secrets.token_hex(8)}.tmp"
        try:
            fd = os.open(tmp, _CREATE_FLAGS, 0o600, dir_fd=dir_fd)
            break
        except FileExistsError:
            continue
    else:
        raise WorkspaceError("could not create a temporary file for the write")
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fchmod(fd, stat.S_IMODE(mode))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException:
        try:
            os.unlink(tmp, dir_fd=dir_fd)
        except OSError:
            pass
        raise
    try:
        os.fsync(dir_fd)
    except OSError:
        pass  # some file systems cannot sync a folder; the rename itself is done


def write_own_file(path: Path, text: str) -> None:
    """Atomically write one of our own files (an edit journal in the run folder)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC)
    try:
        replace_file(fd, path.name, text.encode("utf-8"), 0o644)
    finally:
        os.close(fd)
