"""Put a project back as it was before a session edited it (``astra-memory undo THREAD``).

A session that ends without a confirmed fix leaves its last edits in a ``--workspace`` project (a
fixed one leaves its fix: that is the point). The snapshot taken before the first test run
(snapshot.py) holds every file as it was. Undo writes those bytes back, all files or none, and only
where each file is still exactly what the session's last edit made of it: a file changed since (by
you, an editor, a later session) is never overwritten, and is named instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from astra_memory.errors import WorkspaceError
from astra_memory.state import EditInfo
from astra_memory.workspace.files import Workspace, sha256_bytes
from astra_memory.workspace.line_ends import unified_diff


@dataclass(frozen=True)
class UndoPlan:
    restore: dict[str, bytes] = field(default_factory=dict)  # path -> the bytes it had before the session
    already: list[str] = field(default_factory=list)  # already as they were before the session
    refused: dict[str, str] = field(default_factory=dict)  # path -> why it is not touched


def plan_undo(workspace: Workspace, pristine: Path, edits: Sequence[EditInfo]) -> UndoPlan:
    """What undo would do for each file the session edited; nothing is written."""
    first: dict[str, EditInfo] = {}
    last: dict[str, EditInfo] = {}
    for edit in edits:
        first.setdefault(edit["path"], edit)
        last[edit["path"]] = edit
    plan = UndoPlan()
    for rel, edit in last.items():
        original = pristine / rel
        if original.is_symlink() or not original.is_file():
            plan.refused[rel] = "it is not in the snapshot taken before the session"
            continue
        before = original.read_bytes()
        if sha256_bytes(before) != first[rel]["before_sha256"]:
            plan.refused[rel] = "the snapshot does not hold what the session's first edit started from"
            continue
        try:
            current = workspace.read_bytes(rel)[1]
        except WorkspaceError as exc:
            plan.refused[rel] = f"it cannot be read: {exc}"
            continue
        if current == before:
            plan.already.append(rel)
        elif sha256_bytes(current) != edit["after_sha256"]:
            plan.refused[rel] = "it changed after the session's last edit of it; not touched"
        else:
            plan.restore[rel] = before
    return plan


def apply_undo(workspace: Workspace, plan: UndoPlan) -> list[str]:
    """Write the plan's files back (each atomically, keeping its mode); refused if any file was refused."""
    if plan.refused:
        raise WorkspaceError("nothing undone: " + "; ".join(f"{rel}: {why}" for rel, why in plan.refused.items()))
    for rel, data in plan.restore.items():
        workspace.write_bytes(rel, data)
    return list(plan.restore)


def left_diff(workspace: Workspace, pristine: Path, paths: Sequence[str]) -> str | None:
    """What a session leaves in the project, one diff per file it edited: from the snapshot taken
    before the session to the file now (not each edit's diff in turn: three tries at one line are
    one change). None when the snapshot is gone or a file cannot be read."""
    if not pristine.is_dir():
        return None
    out: list[str] = []
    for rel in dict.fromkeys(paths):
        original = pristine / rel
        try:
            before = original.read_bytes() if original.is_file() and not original.is_symlink() else b""
            current = workspace.read_bytes(rel)[1]
        except (OSError, WorkspaceError):
            return None
        if current != before:
            out.append(unified_diff(rel, before.decode("utf-8", "replace"), current.decode("utf-8", "replace")))
    return "".join(out)
