"""Replaying a stored diff on a workspace: plan it exactly, write it journaled, undo it byte for byte.

- ``plan_patch``: every hunk of the diff (``diffs.hunk_edits``) must be found exactly once in its
  file, context lines included, wherever it now is (other line offsets are fine; a line that
  differs is not). The result is computed in memory first, so a diff that does not apply writes
  nothing. Files are read and written through ``Workspace.read_bytes``/``write_bytes``/``apply_edit``: confinement and the protected
  test paths apply as for the model's edits.
- ``ReplayJournal``: before the first write, the original bytes of every file the replay will
  write are journaled (``<run_dir>/replay/<sha256 of the memory id>.json``: a file is named by
  a hash of the id, never by the id, so no id can name a path). ``restore`` puts them back exactly
  (byte-identical, mode kept); ``recover`` does so for a replay a crash interrupted, so a resumed
  session starts again from the untouched workspace and never applies a diff on top of itself.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

from astra_memory.errors import WorkspaceError
from astra_memory.workspace.diffs import DiffError, hunk_edits
from astra_memory.workspace.files import EditRecord, Workspace, sha256_bytes, sha256_text
from astra_memory.workspace.line_ends import in_file_style


class ReplayRefused(Exception):
    """The diff does not apply to this workspace (the message says where and why)."""


@dataclass(frozen=True)
class FilePatch:
    path: str
    before: str
    after: str


def plan_patch(workspace: Workspace, diff: str) -> list[FilePatch]:
    """The files a diff would change and their new text, or ReplayRefused naming the first misfit."""
    try:
        hunks = hunk_edits(diff)
    except DiffError as exc:
        raise ReplayRefused(str(exc)) from None
    texts: dict[str, str] = {}
    originals: dict[str, str] = {}
    for hunk in hunks:
        try:
            rel, data = workspace.read_bytes(hunk.path)
        except WorkspaceError as exc:  # missing, protected, a symlink, too large ...
            raise ReplayRefused(str(exc)) from None
        if rel not in texts:
            try:
                originals[rel] = texts[rel] = data.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ReplayRefused(f"{rel} cannot be read as UTF-8 text: {exc}") from None
        # byte for byte; a diff stored with LF lines (before line ends were kept) meets a CRLF file
        old_text, new_text = in_file_style(texts[rel], hunk.old_text, hunk.new_text)
        found = texts[rel].count(old_text)
        if found != 1:
            where = "its lines are not in the file (they differ or are gone)" if found == 0 else \
                f"its lines occur {found} times"
            raise ReplayRefused(f"{rel}: the hunk from line {hunk.source_start} does not apply: {where}")
        texts[rel] = texts[rel].replace(old_text, new_text, 1)
    patches = [FilePatch(rel, originals[rel], texts[rel]) for rel in texts if texts[rel] != originals[rel]]
    for planned in patches:  # refused before anyone is asked to approve it
        try:
            workspace.refuse_test_change(planned.path, planned.before, planned.after)
        except WorkspaceError as exc:
            raise ReplayRefused(str(exc)) from None
    return patches


@dataclass
class JournaledFile:
    path: str
    original_sha256: str  # of the original bytes
    after_sha256: str  # of the replayed text (as Workspace.apply_edit hashes it)
    original_b64: str


@dataclass
class ReplayJournal:
    memory_id: str
    state: str = "applying"  # applying -> applied | restored
    files: list[JournaledFile] = field(default_factory=list)
    path: Path | None = None  # None: no run directory, nothing survives a crash

    def save(self) -> None:
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = {k: v for k, v in asdict(self).items() if k != "path"}
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(data), encoding="utf-8")
        with open(tmp, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, self.path)

    @classmethod
    def load(cls, path: Path) -> "ReplayJournal":
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(memory_id=data["memory_id"], state=data["state"],
                   files=[JournaledFile(**f) for f in data["files"]], path=path)


def journal_name(memory_id: str) -> str:
    """The journal's file name for a memory id: a hash of it (the id itself is data, never a path)."""
    return hashlib.sha256(memory_id.encode("utf-8")).hexdigest()[:32] + ".json"


def begin(workspace: Workspace, memory_id: str, patches: list[FilePatch], journal_dir: Path | None) -> ReplayJournal:
    """Journal the original bytes of every file about to be written (before any write)."""
    files = []
    for patch in patches:
        original = workspace.read_bytes(patch.path)[1]
        files.append(JournaledFile(patch.path, sha256_bytes(original), sha256_text(patch.after),
                                   base64.b64encode(original).decode("ascii")))
    journal = ReplayJournal(memory_id, "applying", files,
                            journal_dir / journal_name(memory_id) if journal_dir is not None else None)
    journal.save()
    return journal


def apply(workspace: Workspace, patches: list[FilePatch]) -> list[EditRecord]:
    """Write the planned files through the workspace's edit path (one whole-file edit per file)."""
    return [workspace.apply_edit(p.path, p.before, p.after) for p in patches]


def restore(workspace: Workspace, journal: ReplayJournal) -> None:
    """Put every journaled file back to its original bytes; refuse a file changed by someone else."""
    for entry in journal.files:
        current = workspace.read_bytes(entry.path)[1]
        if sha256_bytes(current) == entry.original_sha256:
            continue
        if sha256_bytes(current) != entry.after_sha256:
            raise WorkspaceError(f"{entry.path} changed since the replay of {journal.memory_id} was journaled; "
                                 "refusing to guess (restore it by hand)")
        workspace.write_bytes(entry.path, base64.b64decode(entry.original_b64))
    journal.state = "restored"
    journal.save()


def recover(workspace: Workspace, journal_dir: Path | None) -> list[str]:
    """Undo every replay a crash left applied (journal not ``restored``); returns their memory ids."""
    if journal_dir is None or not journal_dir.is_dir():
        return []
    undone = []
    for path in sorted(journal_dir.glob("*.json")):
        journal = ReplayJournal.load(path)
        if journal.state != "restored":
            restore(workspace, journal)
            undone.append(journal.memory_id)
    return undone
