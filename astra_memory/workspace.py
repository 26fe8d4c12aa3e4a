"""File tools confined to one workspace folder.

Every path the model gives is relative to the workspace root. Anything that resolves outside it
(``..``, absolute paths, symlinks pointing out) is refused, as is anything inside ``.git``. The
project's acceptance tests and the machinery that runs them are read-only (rules/protected.py):
a fix that edits the tests, or what decides whether they pass, is not a fix.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
from dataclasses import asdict, dataclass
from pathlib import Path, PurePosixPath

from astra_memory.errors import WorkspaceError
from astra_memory.rules.protected import ProtectedPaths

MAX_READ_CHARS = 100_000
MAX_WRITE_BYTES = 1_000_000
MAX_LIST_ENTRIES = 500
MAX_SEARCH_HITS = 100
SKIPPED_DIRS = {".git", "__pycache__", ".pytest_cache", ".venv", "node_modules", ".astra"}


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class EditRecord:
    """One applied edit: what the file was, what it became, and the diff between them."""

    path: str
    before_sha256: str
    after_sha256: str
    diff: str

    def to_dict(self) -> dict:
        return asdict(self)


class Workspace:
    """A project folder the agent may read, and edit outside its protected paths."""

    def __init__(self, root: str | Path, *, protected: ProtectedPaths | tuple[str, ...] = ("tests",)):
        self.root = Path(root).resolve()
        if not self.root.is_dir():
            raise WorkspaceError(f"workspace {self.root} is not a directory")
        self.protected = protected if isinstance(protected, ProtectedPaths) else ProtectedPaths.of(protected)

    # -- path confinement -------------------------------------------------------------------
    def resolve(self, path: str, *, for_write: bool = False) -> Path:
        """Map a workspace-relative path to an absolute one, refusing anything outside."""
        if not isinstance(path, str) or not path.strip():
            raise WorkspaceError("path must be a non-empty workspace-relative string")
        if "\x00" in path:
            raise WorkspaceError("path contains a NUL byte")
        pure = PurePosixPath(path.replace("\\", "/"))
        if pure.is_absolute() or os.path.isabs(path):
            raise WorkspaceError(f"absolute paths are refused: {path!r}; give a path relative to the workspace")
        if ".." in pure.parts:
            raise WorkspaceError(f"'..' is refused in {path!r}: paths must stay inside the workspace")
        if ".git" in pure.parts:
            raise WorkspaceError(f"{path!r} is inside .git, which the agent may not touch")
        resolved = (self.root / pure).resolve()
        if resolved != self.root and self.root not in resolved.parents:
            raise WorkspaceError(f"{path!r} resolves outside the workspace (a symlink?)")
        rel = resolved.relative_to(self.root).as_posix()
        why = self.protected.why(rel) if for_write else None
        if why:
            raise WorkspaceError(f"{why}; it is read-only to the agent: fix the source, not the tests")
        return resolved

    def is_protected(self, rel: str) -> bool:
        return rel in self.protected

    def relative(self, absolute: Path) -> str:
        return absolute.resolve().relative_to(self.root).as_posix()

    # -- read-only tools --------------------------------------------------------------------
    def list_files(self, path: str = ".") -> list[str]:
        base = self.root if path in ("", ".") else self.resolve(path)
        if not base.is_dir():
            raise WorkspaceError(f"{path!r} is not a directory in the workspace")
        found: list[str] = []
        for dirpath, dirnames, filenames in os.walk(base, followlinks=False):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIPPED_DIRS)
            for name in sorted(filenames):
                full = Path(dirpath) / name
                if full.is_symlink():
                    continue
                found.append(full.relative_to(self.root).as_posix())
                if len(found) >= MAX_LIST_ENTRIES:
                    return found
        return found

    def read_file(self, path: str) -> str:
        target = self.resolve(path)
        if not target.is_file():
            raise WorkspaceError(f"{path!r} is not a file in the workspace")
        if target.stat().st_size > MAX_READ_CHARS * 4:
            raise WorkspaceError(f"{path!r} is larger than {MAX_READ_CHARS * 4} bytes; refusing to read it whole")
        text = target.read_text(encoding="utf-8", errors="replace")
        if len(text) > MAX_READ_CHARS:
            text = text[:MAX_READ_CHARS] + f"\n[... truncated at {MAX_READ_CHARS} characters]"
        return text

    def search_code(self, pattern: str) -> list[str]:
        if not pattern:
            raise WorkspaceError("search pattern must not be empty")
        try:
            regex = re.compile(pattern)
        except re.error:
            regex = re.compile(re.escape(pattern))
        hits: list[str] = []
        for rel in self.list_files("."):
            if not rel.endswith((".py", ".toml", ".cfg", ".ini", ".txt", ".md", ".json", ".yaml", ".yml")):
                continue
            try:
                lines = (self.root / rel).read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError:
                continue
            for number, line in enumerate(lines, start=1):
                if regex.search(line):
                    hits.append(f"{rel}:{number}: {line.strip()[:200]}")
                    if len(hits) >= MAX_SEARCH_HITS:
                        return hits
        return hits

    # -- the one write ----------------------------------------------------------------------
    def preview_edit(self, path: str, old_text: str, new_text: str) -> str:
        """The unified diff ``apply_edit`` would write, refused for the same reasons; nothing is written."""
        target = self.resolve(path, for_write=True)
        if len(new_text.encode("utf-8")) > MAX_WRITE_BYTES:
            raise WorkspaceError(f"new_text is larger than {MAX_WRITE_BYTES} bytes; refusing the write")
        if not target.is_file():
            raise WorkspaceError(f"{path!r} is not an existing file in the workspace")
        return _replaced(self.relative(target), target.read_text(encoding="utf-8"), old_text, new_text)[1]

    def apply_edit(self, path: str, old_text: str, new_text: str, *, journal: Path | None = None) -> EditRecord:
        """Replace the single exact occurrence of ``old_text`` with ``new_text``.

        With a ``journal`` file the edit is reconciled across crashes: the intended before/after
        hashes are written before the file is touched, so a re-run after a crash recognises an
        edit that already landed and does not apply it twice.
        """
        target = self.resolve(path, for_write=True)
        if len(new_text.encode("utf-8")) > MAX_WRITE_BYTES:
            raise WorkspaceError(f"new_text is larger than {MAX_WRITE_BYTES} bytes; refusing the write")
        if not target.is_file():
            raise WorkspaceError(f"{path!r} is not an existing file in the workspace")
        rel = self.relative(target)
        current = target.read_text(encoding="utf-8")
        if journal is not None and journal.exists():
            recorded = EditRecord(**json.loads(journal.read_text(encoding="utf-8")))
            now = sha256_text(current)
            if now == recorded.after_sha256:
                return recorded  # applied before a crash; never apply twice
            if now != recorded.before_sha256:
                raise WorkspaceError(
                    f"{rel} changed since this edit was journaled (sha256 {now[:12]}); refusing to guess"
                )
        updated, diff = _replaced(rel, current, old_text, new_text)
        record = EditRecord(rel, sha256_text(current), sha256_text(updated), diff)
        if journal is not None:
            _write_atomic(journal, json.dumps(record.to_dict()))
        _write_atomic(target, updated)
        return record


def _replaced(rel: str, current: str, old_text: str, new_text: str) -> tuple[str, str]:
    """The file with the single exact occurrence of ``old_text`` replaced, and the unified diff."""
    if not old_text:
        raise WorkspaceError("old_text must not be empty")
    count = current.count(old_text)
    if count != 1:
        where = "not found" if count == 0 else f"found {count} times"
        raise WorkspaceError(f"old_text {where} in {rel}; it must match exactly once")
    updated = current.replace(old_text, new_text, 1)
    if len(updated.encode("utf-8")) > MAX_WRITE_BYTES:
        raise WorkspaceError(f"the edited {rel} would exceed {MAX_WRITE_BYTES} bytes; refusing the write")
    diff = "".join(difflib.unified_diff(current.splitlines(keepends=True), updated.splitlines(keepends=True),
                                        fromfile=f"a/{rel}", tofile=f"b/{rel}"))
    return updated, diff


def _write_atomic(target: Path, text: str) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.astra-tmp")
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    mode = target.stat().st_mode if target.exists() else None
    os.replace(tmp, target)
    if mode is not None:
        os.chmod(target, mode)
