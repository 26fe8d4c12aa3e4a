"""The calling agent's change to the workspace, as the turns our own model would have sent.

An MCP client (astra_memory/mcp_server/) edits the workspace itself. ``finish_fix`` reads what it
changed since the session's base (observe's snapshot, then what the session's edits wrote:
``client_base`` in the run folder) and turns it into the model turns of a session:
``state_diagnosis`` with the caller's cause, one ``apply_edit`` per changed file (the smallest
block of whole lines that changed, unique in the file), and ``finish``. The graph plays them with
its scripted model and runs them through its own nodes and gates (edit, test, confirm, store).

What no turn can express is refused here, before anything is touched: a new or deleted file that
is protected (a planted ``conftest.py``, a removed test), a change to a protected path (the same
rule the edit node applies: workspace/protected.py), a file that is not UTF-8 text. A new file that
is not protected is named and left out: a fix is confirmed in a fresh copy of the snapshot with
only the session's edits (workspace/snapshot.py), so a fix that needs it is not confirmed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from astra_memory.workspace.files import SKIPPED_DIRS
from astra_memory.workspace.protected import ENVIRONMENT_DIRS, ProtectedPaths
from astra_memory.workspace.snapshot import NOT_COPIED

CLIENT_BASE = "client_base"  # run folder: each file as the session's last applied edit left it
NOT_WALKED = NOT_COPIED | ENVIRONMENT_DIRS | SKIPPED_DIRS


@dataclass
class ChangedFile:
    path: str  # workspace-relative, with "/"
    before: bytes
    after: bytes


@dataclass
class ClientChange:
    changed: list[ChangedFile] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)


def _files(root: Path) -> dict[str, Path]:
    """Every regular file under ``root`` (no symlinks followed, nothing under NOT_WALKED)."""
    found: dict[str, Path] = {}
    for folder, dirs, names in os.walk(root, followlinks=False):
        dirs[:] = sorted(d for d in dirs if d not in NOT_WALKED and not d.endswith((".egg-info", ".dist-info"))
                         and not os.path.islink(os.path.join(folder, d)))
        for name in names:
            path = Path(folder) / name
            if path.is_symlink() or not path.is_file():
                continue
            found[path.relative_to(root).as_posix()] = path
    return found


def base_files(pristine: Path, run_dir: Path) -> dict[str, Path]:
    """The session's base: the snapshot, each file overridden by what the last applied edit left."""
    files = _files(pristine)
    files.update(_files(run_dir / CLIENT_BASE))
    return files


def read_change(workspace: Path, pristine: Path, run_dir: Path) -> ClientChange:
    base, now = base_files(pristine, run_dir), _files(workspace)
    change = ClientChange(added=sorted(set(now) - set(base)), removed=sorted(set(base) - set(now)))
    for rel in sorted(set(base) & set(now)):
        before, after = base[rel].read_bytes(), now[rel].read_bytes()
        if before != after:
            change.changed.append(ChangedFile(rel, before, after))
    return change


def refusals(change: ClientChange, rule: ProtectedPaths) -> list[str]:
    """Why the change cannot go through the session's gates (empty: it can), one line per file."""
    out = []
    for rel in change.added:
        why = rule.why(rel)
        if why:
            out.append(f"new file {rel}: {why}; it is read-only to the agent: fix the source, not the tests")
    for rel in change.removed:
        why = rule.why(rel)
        out.append(f"deleted file {rel}: " + (f"{why}; it is read-only to the agent" if why else
                                              "a fix may only change existing files; put it back"))
    for item in change.changed:
        why = rule.why(item.path)
        if why:
            out.append(f"{why}; it is read-only to the agent: fix the source, not the tests")
            continue
        try:
            before, after = item.before.decode("utf-8"), item.after.decode("utf-8")
        except UnicodeDecodeError:
            out.append(f"{item.path} is not UTF-8 text; only text files can be edited")
            continue
        why = rule.why_changed(item.path, before, after)
        if why:
            out.append(f"{why}; they are read-only to the agent: fix the source, not the tests")
    return out


def smallest_edit(before: str, after: str) -> tuple[str, str]:
    """(old_text, new_text): the whole lines that differ between ``before`` and ``after``, widened by a
    line of context on each side until ``old_text`` is not empty and occurs once in ``before``."""
    old_lines, new_lines = before.splitlines(keepends=True), after.splitlines(keepends=True)
    head = 0
    while head < min(len(old_lines), len(new_lines)) and old_lines[head] == new_lines[head]:
        head += 1
    tail = 0
    while (tail < min(len(old_lines), len(new_lines)) - head
           and old_lines[len(old_lines) - 1 - tail] == new_lines[len(new_lines) - 1 - tail]):
        tail += 1
    start, old_end, new_end = head, len(old_lines) - tail, len(new_lines) - tail
    while True:
        old_text = "".join(old_lines[start:old_end])
        if old_text and before.count(old_text) == 1:
            return old_text, "".join(new_lines[start:new_end])
        if start == 0 and old_end == len(old_lines):
            return before, after  # the whole file (an empty one cannot be edited: the edit node says so)
        start, old_end, new_end = max(0, start - 1), min(len(old_lines), old_end + 1), min(len(new_lines), new_end + 1)


def client_turns(change: ClientChange, *, error_type: str, cause: str, description: str) -> list[dict]:
    """The scripted turns that make the caller's change in a session: diagnosis, edits, finish."""
    paths = [c.path for c in change.changed]
    turns: list[dict] = [{"tool": "state_diagnosis", "args": {"error_type": error_type, "cause": cause,
                                                              "files": paths[:10]}}]
    for item in change.changed:
        old_text, new_text = smallest_edit(item.before.decode("utf-8"), item.after.decode("utf-8"))
        turns.append({"tool": "apply_edit", "args": {"path": item.path, "old_text": old_text, "new_text": new_text}})
    turns.append({"tool": "finish", "args": {"fix_description": description, "error_type": error_type}})
    return turns
