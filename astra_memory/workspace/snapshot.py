"""The project as it was when the session started, and fresh copies of it for confirmation.

``take_snapshot`` copies the workspace once, before the first test run touches it, into the run
directory; ``fresh_copy`` builds a new folder from that snapshot plus given file contents (the
session's source edits, nothing else). A fix is confirmed only by a test run in such a copy, so
whatever a test run or a model left in the workspace besides its recorded edits (a generated
``conftest.py``, a cache file a test reads, a planted module) does not count.

Not copied: version control and caches (``.git``, ``__pycache__``, ...). Environments the tests
may need but that are too big to copy (``.venv``, ``node_modules``, ...) are linked from the
workspace, not copied; the agent may not edit them (protected.py).

A project that cannot be copied faithfully is refused with a ``SnapshotError`` naming the path: a
symlink loop, a named pipe, socket or device (never opened: reading ``/dev/zero``'s twin would never
end), a file or folder that cannot be read. The observe node ends the session ``failed`` with that
message (a SnapshotError is an OSError), and the thread stays resumable: resuming it reports the same.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
from pathlib import Path

from astra_memory.errors import WorkspaceError
from astra_memory.workspace.protected import ENVIRONMENT_DIRS as LINKED_ENVIRONMENTS

NOT_COPIED = frozenset({".git", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".astra"})
SNAPSHOT_DIR = "pristine"
SPECIAL_FILES = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"),
                 (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))


class SnapshotError(WorkspaceError, OSError):
    """The project cannot be copied as it is; the message names the path and what to do.

    An OSError too: what refused is the file system, and the callers that copy (observe, confirm)
    already end the session on one."""


class _Refused(Exception):
    """Raised inside copytree's ignore callback. Not an OSError: copytree collects those and copies
    on through the rest of a tree that is refused anyway; this one it lets through at once."""


def _refusal(root: Path, path: str, why: str) -> str:
    rel = os.path.relpath(path, root)
    return f"{rel!r} in the project {root} {why}"


def _check_entry(root: Path, path: str) -> None:
    """Refuse what copytree cannot copy faithfully, before it tries (a device would be read forever)."""
    try:
        mode = os.lstat(path).st_mode
    except OSError as exc:
        raise _Refused(_refusal(root, path, f"cannot be read ({exc.strerror or exc})")) from None
    if stat.S_ISLNK(mode):
        try:
            os.stat(path)  # copied as a link, never followed; only asked whether it ever ends
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                target = os.readlink(path)
                raise _Refused(_refusal(root, path, f"is a symlink loop (it points to {target!r}, and following "
                                                    "the links never ends); remove or repair the link")) from None
        return
    for test, kind in SPECIAL_FILES:
        if test(mode):
            raise _Refused(_refusal(root, path, f"is {kind}, not a file that can be copied; remove it from the "
                                                "project, or move it out of the workspace"))


def _ignore(root: Path, skip: Path):
    skipped = (skip, *skip.parents)

    def ignore(folder: str, names: list[str]) -> set[str]:
        ignored = {n for n in names if n in NOT_COPIED or n.endswith(".pyc")}
        if Path(folder) == root:  # top-level environments are linked, not copied
            ignored |= {n for n in names if n in LINKED_ENVIRONMENTS}
        # never copy the run directory itself (ASTRA_HOME inside the project). ``folder`` is a real
        # folder (copytree does not enter links), so its entries' paths need no resolving: a link
        # is copied as a link, whatever it points at (resolving one in a loop raised RuntimeError).
        ignored |= {n for n in names if Path(folder) / n in skipped}
        for name in sorted(names):  # the first refusal named is the same on every run
            if name not in ignored:
                _check_entry(root, os.path.join(folder, name))
        return ignored
    return ignore


def _copy_error(root: Path, exc: shutil.Error) -> str:
    """copytree's collected (source, destination, reason) rows as one line naming the first path."""
    rows = [row for row in exc.args[0] if isinstance(row, tuple) and len(row) == 3] if exc.args else []
    if not rows:
        return f"could not be copied: {exc}"
    source, _, reason = rows[0]
    more = f" (and {len(rows) - 1} more)" if len(rows) > 1 else ""
    return _refusal(root, str(source), f"cannot be copied: {reason}{more}")


def take_snapshot(workspace: str | Path, destination: str | Path) -> Path:
    """Copy ``workspace`` to ``destination`` once; a later call (a re-run after a crash) keeps the first.

    The copy is made beside the destination and renamed into place, so a copy cut short by a
    crash is never mistaken for a complete one. Symlinks are copied as links, never followed.
    A project that cannot be copied raises SnapshotError (module docstring), leaving no copy behind.
    """
    workspace, destination = Path(workspace).resolve(), Path(destination)
    if destination.is_dir():
        return destination
    partial = destination.with_name(destination.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    destination.parent.mkdir(parents=True, exist_ok=True)
    try:
        shutil.copytree(workspace, partial, symlinks=True, ignore=_ignore(workspace, destination.resolve()))
    except (_Refused, shutil.Error, OSError, RuntimeError) as exc:
        shutil.rmtree(partial, ignore_errors=True)
        if isinstance(exc, _Refused):
            raise SnapshotError(str(exc)) from None
        if isinstance(exc, shutil.Error):
            raise SnapshotError(_copy_error(workspace, exc)) from None
        where = getattr(exc, "filename", None)
        inside = isinstance(where, str) and (where + "/").startswith(str(workspace).rstrip("/") + "/")
        raise SnapshotError(_refusal(workspace, where, f"cannot be copied: {exc}") if inside
                            else f"the project {workspace} cannot be copied: {exc}") from None
    links = sorted(n for n in os.listdir(workspace) if n in LINKED_ENVIRONMENTS)
    if links:
        (partial / ".astra-linked").write_text("\n".join(links), encoding="utf-8")
    os.rename(partial, destination)
    return destination


def _refuse_symlinks(root: Path, rel: str) -> Path:
    target = root
    for part in Path(rel).parts:
        target = target / part
        if target.is_symlink():
            raise WorkspaceError(f"{rel}: {target.relative_to(root)} is a symlink in the snapshot; "
                                 "refusing to write through it")
    return target


def fresh_copy(snapshot: str | Path, destination: str | Path, files: dict[str, bytes], *,
               workspace: str | Path | None = None) -> Path:
    """A new folder: the snapshot, with ``files`` (workspace-relative path -> content) written over it.

    ``destination`` is emptied first (a re-run after a crash starts from a clean copy). Each
    environment folder the snapshot left out is linked to the workspace's own.
    """
    snapshot, destination = Path(snapshot), Path(destination)
    shutil.rmtree(destination, ignore_errors=True)
    shutil.copytree(snapshot, destination, symlinks=True)
    marker = destination / ".astra-linked"
    if marker.exists():
        names = marker.read_text(encoding="utf-8").split()
        marker.unlink()
        for name in names:
            if workspace is not None and (Path(workspace) / name).exists() and name in LINKED_ENVIRONMENTS:
                os.symlink(Path(workspace).resolve() / name, destination / name)
    for rel, content in files.items():
        target = _refuse_symlinks(destination, rel)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
    return destination
