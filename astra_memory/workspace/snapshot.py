"""The project as it was when the session started, and fresh copies of it for confirmation.

``take_snapshot`` copies the workspace once, before the first test run touches it, into the run
directory; ``fresh_copy`` builds a new folder from that snapshot plus given file contents (the
session's source edits, nothing else). A fix is confirmed only by a test run in such a copy, so
whatever a test run or a model left in the workspace besides its recorded edits (a generated
``conftest.py``, a cache file a test reads, a planted module) does not count.

Not copied: version control and caches (``.git``, ``__pycache__``, ...). Environments the tests
may need but that are too big to copy (``.venv``, ``node_modules``, ...) are linked from the
workspace, not copied; the agent may not edit them (protected.py).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from astra_memory.errors import WorkspaceError
from astra_memory.workspace.protected import ENVIRONMENT_DIRS as LINKED_ENVIRONMENTS

NOT_COPIED = frozenset({".git", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".astra"})
SNAPSHOT_DIR = "pristine"


def _ignore(root: Path, skip: Path):
    def ignore(folder: str, names: list[str]) -> set[str]:
        ignored = {n for n in names if n in NOT_COPIED or n.endswith(".pyc")}
        if Path(folder) == root:  # top-level environments are linked, not copied
            ignored |= {n for n in names if n in LINKED_ENVIRONMENTS}
        # never copy the run directory itself (ASTRA_HOME inside the project)
        ignored |= {n for n in names if (Path(folder) / n).resolve() in (skip, *skip.parents)}
        return ignored
    return ignore


def take_snapshot(workspace: str | Path, destination: str | Path) -> Path:
    """Copy ``workspace`` to ``destination`` once; a later call (a re-run after a crash) keeps the first.

    The copy is made beside the destination and renamed into place, so a copy cut short by a
    crash is never mistaken for a complete one. Symlinks are copied as links, never followed.
    """
    workspace, destination = Path(workspace).resolve(), Path(destination)
    if destination.is_dir():
        return destination
    partial = destination.with_name(destination.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    destination.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(workspace, partial, symlinks=True, ignore=_ignore(workspace, destination.resolve()))
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
