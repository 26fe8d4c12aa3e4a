"""File tools confined to one workspace folder.

Every path the model gives is relative to the workspace root. Anything that leaves it is refused:
``..``, absolute paths, any symlink on the way (confined.py never follows one), ``.git`` in any
case, paths over 500 characters. The project's acceptance tests and the machinery that runs them
are read-only (protected.py): a fix that edits the tests, or what decides whether they
pass, is not a fix. Searches use RE2 (linear time) with bounds on file size, bytes, matches
and time, so no pattern can hang a session.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

import re2

from astra_memory.errors import WorkspaceError
from astra_memory.workspace.confined import (
    check_inside,
    is_git_name,
    open_dir,
    open_regular,
    read_bounded,
    replace_file,
    split_path,
    write_own_file,
)
from astra_memory.workspace.line_ends import has_lone_cr, in_file_style, unified_diff
from astra_memory.workspace.protected import ProtectedPaths

MAX_READ_CHARS = 100_000
MAX_WRITE_BYTES = 1_000_000
MAX_LIST_ENTRIES = 500
MAX_WALK_ENTRIES = 20_000  # directory entries looked at by one listing or search
MAX_SEARCH_HITS = 100
MAX_SEARCH_FILE_BYTES = 1_000_000  # larger files are skipped by search_code
MAX_SEARCH_TOTAL_BYTES = 20_000_000
MAX_SEARCH_SECONDS = 5.0
SEARCHED_SUFFIXES = (".py", ".toml", ".cfg", ".ini", ".txt", ".md", ".json", ".yaml", ".yml")
SKIPPED_DIRS = {"__pycache__", ".pytest_cache", ".venv", "node_modules", ".astra"}


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_text(text: str) -> str:
    """The sha256 of ``text``'s UTF-8 bytes: of an edited file's bytes, which are decoded strictly."""
    return sha256_bytes(text.encode("utf-8"))


def compile_pattern(pattern: str):
    """An RE2 regex (linear time, bounded memory), or WorkspaceError naming what RE2 refused."""
    if not pattern:
        raise WorkspaceError("search pattern must not be empty")
    options = re2.Options()
    options.log_errors = False
    try:
        return re2.compile(pattern, options)
    except re2.error as exc:
        reason = exc.args[0].decode("utf-8", "replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        raise WorkspaceError(
            f"search pattern {pattern[:80]!r} is not an RE2 regular expression ({reason}); backreferences and "
            "lookaround are not supported, and special characters must be escaped to be searched literally"
        ) from None


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
    def parts(self, path: str, *, for_write: bool = False) -> tuple[str, ...]:
        """The checked components of a workspace-relative path (nothing is opened yet)."""
        parts = split_path(path)
        if for_write:
            self.refuse_protected("/".join(parts))
        return parts

    def file_parts(self, path: str, *, for_write: bool = False) -> tuple[str, ...]:
        parts = self.parts(path, for_write=for_write)
        if not parts:
            raise WorkspaceError(f"{path!r} is the workspace folder, not a file; use list_files")
        return parts

    def refuse_protected(self, rel: str) -> None:
        why = self.protected.why(rel)
        if why:
            raise WorkspaceError(f"{why}; it is read-only to the agent: fix the source, not the tests")

    def refuse_test_change(self, rel: str, before: str, after: str) -> None:
        """Refuse a change of an editable file that rewrites a test inside it (a doctest that ran at observe)."""
        why = self.protected.why_changed(rel, before, after)
        if why:
            raise WorkspaceError(f"{why}; they are read-only to the agent: fix the source, not the tests")

    # -- read-only tools --------------------------------------------------------------------
    def _walk(self, parts: tuple[str, ...]) -> Iterator[tuple[str, int, str]]:
        """(relative path, folder descriptor, name) of each regular file below ``parts``, sorted;
        symlinks, .git and SKIPPED_DIRS are not entered; at most MAX_WALK_ENTRIES are looked at."""
        budget = [MAX_WALK_ENTRIES]

        def walk(fd: int, prefix: str):
            with os.scandir(fd) as it:  # a folder of a million entries is not read whole
                entries = sorted(itertools.islice(it, max(budget[0], 0) + 1), key=lambda e: e.name)
            for entry in entries:
                budget[0] -= 1
                if budget[0] < 0:
                    return
                rel = f"{prefix}{entry.name}"
                if entry.is_dir(follow_symlinks=False):
                    if entry.name in SKIPPED_DIRS or is_git_name(entry.name):
                        continue
                    try:
                        child = os.open(entry.name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
                    except OSError:
                        continue
                    try:
                        yield from walk(child, rel + "/")
                    finally:
                        os.close(child)
                elif entry.is_file(follow_symlinks=False):
                    yield rel, fd, entry.name

        with open_dir(self.root, parts) as base:
            yield from walk(base, "/".join(parts) + "/" if parts else "")

    def list_files(self, path: str = ".") -> list[str]:
        parts = () if path in ("", ".") else split_path(path)
        found: list[str] = []
        for rel, _, _ in self._walk(parts):
            found.append(rel)
            if len(found) >= MAX_LIST_ENTRIES:
                break
        return found

    def read_file(self, path: str) -> str:
        parts = self.file_parts(path)
        limit = MAX_READ_CHARS * 4
        with open_dir(self.root, parts[:-1]) as dir_fd, open_regular(dir_fd, parts[-1], path) as (fd, _):
            check_inside(self.root, fd, path)
            data = read_bounded(fd, limit)
        if len(data) > limit:
            raise WorkspaceError(f"{path!r} is larger than {limit} bytes; refusing to read it whole")
        if b"\x00" in data:
            raise WorkspaceError(f"{path!r} looks like a binary file (it holds NUL bytes)")
        text = data.decode("utf-8", errors="replace")
        if len(text) > MAX_READ_CHARS:
            text = text[:MAX_READ_CHARS] + f"\n[... truncated at {MAX_READ_CHARS} characters]"
        return text

    def search_code(self, pattern: str) -> list[str]:
        regex = compile_pattern(pattern)
        hits: list[str] = []
        skipped, scanned, deadline = 0, 0, time.monotonic() + MAX_SEARCH_SECONDS
        for rel, dir_fd, name in self._walk(()):
            if not name.endswith(SEARCHED_SUFFIXES):
                continue
            if time.monotonic() > deadline or scanned > MAX_SEARCH_TOTAL_BYTES:
                hits.append(f"[search stopped after {MAX_SEARCH_SECONDS:.0f}s or {MAX_SEARCH_TOTAL_BYTES} bytes; "
                            "narrow the pattern]")
                break
            try:
                with open_regular(dir_fd, name, rel) as (fd, info):
                    if info.st_size > MAX_SEARCH_FILE_BYTES:
                        skipped += 1
                        continue
                    data = read_bounded(fd, MAX_SEARCH_FILE_BYTES)
            except (WorkspaceError, OSError):
                continue
            scanned += len(data)
            for number, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), start=1):
                if regex.search(line):
                    hits.append(f"{rel}:{number}: {line.strip()[:200]}")
                    if len(hits) >= MAX_SEARCH_HITS:
                        return hits + [f"[stopped at {MAX_SEARCH_HITS} matches]"]
        if skipped:
            hits.append(f"[{skipped} files larger than {MAX_SEARCH_FILE_BYTES} bytes were not searched]")
        return hits

    # -- whole files, for replay and its undo (same no-follow path and protection as an edit) ----
    def read_bytes(self, path: str) -> tuple[str, bytes]:
        """(relative path, bytes) of a file the agent may edit; refused past MAX_WRITE_BYTES."""
        parts = self.file_parts(path, for_write=True)
        with open_dir(self.root, parts[:-1]) as dir_fd, open_regular(dir_fd, parts[-1], path) as (fd, _):
            rel = check_inside(self.root, fd, path) or "/".join(parts)
            self.refuse_protected(rel)
            data = read_bounded(fd, MAX_WRITE_BYTES)
        if len(data) > MAX_WRITE_BYTES:
            raise WorkspaceError(f"{rel} is larger than {MAX_WRITE_BYTES} bytes; refusing to edit it")
        return rel, data

    def write_bytes(self, path: str, data: bytes) -> None:
        """Replace an existing editable file's bytes atomically, keeping its mode."""
        parts = self.file_parts(path, for_write=True)
        if len(data) > MAX_WRITE_BYTES:
            raise WorkspaceError(f"{path!r}: {len(data)} bytes is over the {MAX_WRITE_BYTES}-byte write limit")
        with open_dir(self.root, parts[:-1]) as dir_fd:
            with open_regular(dir_fd, parts[-1], path) as (fd, info):
                self.refuse_protected(check_inside(self.root, fd, path) or "/".join(parts))
            replace_file(dir_fd, parts[-1], data, info.st_mode)

    # -- the one write ----------------------------------------------------------------------
    def preview_edit(self, path: str, old_text: str, new_text: str) -> str:
        """The unified diff ``apply_edit`` would write, refused for the same reasons; nothing is written."""
        return self.preview_record(path, old_text, new_text).diff

    def preview_record(self, path: str, old_text: str, new_text: str) -> EditRecord:
        """The record (path, hashes, diff) ``apply_edit`` would make; nothing is written."""
        parts = self.file_parts(path, for_write=True)
        with open_dir(self.root, parts[:-1]) as dir_fd:
            rel, current, _ = self._editable_text(dir_fd, parts, path, new_text)
        record, updated = self._plan(rel, current, old_text, new_text, None)
        self.refuse_test_change(rel, current, updated if updated is not None else current)
        return record

    def _editable_text(self, dir_fd: int, parts: tuple[str, ...], path: str, new_text: str) -> tuple[str, str, os.stat_result]:
        """(relative path, current text, stat) of a file the agent may edit, or WorkspaceError."""
        if len(new_text.encode("utf-8")) > MAX_WRITE_BYTES:
            raise WorkspaceError(f"new_text is larger than {MAX_WRITE_BYTES} bytes; refusing the write")
        with open_regular(dir_fd, parts[-1], path) as (fd, info):
            rel = check_inside(self.root, fd, path) or "/".join(parts)
            self.refuse_protected(rel)
            data = read_bounded(fd, MAX_WRITE_BYTES)
        if len(data) > MAX_WRITE_BYTES:
            raise WorkspaceError(f"{rel} is larger than {MAX_WRITE_BYTES} bytes; refusing to edit it")
        try:
            current = data.decode("utf-8")
        except UnicodeDecodeError:
            raise WorkspaceError(f"{rel} is not UTF-8 text; only text files can be edited") from None
        if "\x00" in current:
            raise WorkspaceError(f"{rel} looks like a binary file (it holds NUL bytes); refusing to edit it")
        return rel, current, info

    def apply_edit(self, path: str, old_text: str, new_text: str, *, journal: Path | None = None) -> EditRecord:
        """Replace the single exact occurrence of ``old_text`` with ``new_text``.

        With a ``journal`` file the edit is reconciled across crashes: the intended before/after
        hashes are written before the file is touched, so a re-run after a crash recognises an
        edit that already landed and does not apply it twice.
        """
        parts = self.file_parts(path, for_write=True)
        with open_dir(self.root, parts[:-1]) as dir_fd:
            rel, current, info = self._editable_text(dir_fd, parts, path, new_text)
            record, updated = self._plan(rel, current, old_text, new_text, journal)
            if updated is None:  # applied before a crash; never apply twice
                return record
            self.refuse_test_change(rel, current, updated)
            if journal is not None:
                write_own_file(journal, json.dumps(record.to_dict()))
            replace_file(dir_fd, parts[-1], updated.encode("utf-8"), info.st_mode)
        return record

    @staticmethod
    def _plan(rel: str, current: str, old_text: str, new_text: str,
              journal: Path | None) -> tuple[EditRecord, str | None]:
        """The edit to make (record, new text); new text None if the journal shows it already landed."""
        if journal is not None and journal.exists():
            recorded = EditRecord(**json.loads(journal.read_text(encoding="utf-8")))
            now = sha256_text(current)
            if now == recorded.after_sha256:
                return recorded, None
            if now != recorded.before_sha256:
                raise WorkspaceError(
                    f"{rel} changed since this edit was journaled (sha256 {now[:12]}); refusing to guess"
                )
        if not old_text:
            raise WorkspaceError("old_text must not be empty")
        old_text, new_text = in_file_style(current, old_text, new_text)  # CRLF stays CRLF, a BOM stays
        if has_lone_cr(new_text) and not has_lone_cr(current):
            raise WorkspaceError(f"new_text has a carriage return (\\r) with no line feed after it, and {rel} has "
                                 "none: Python reads it as a line break that a diff does not show; end lines "
                                 "with \\n")
        count = current.count(old_text)
        if count != 1:
            where = "not found" if count == 0 else f"found {count} times"
            raise WorkspaceError(f"old_text {where} in {rel}; it must match exactly once")
        updated = current.replace(old_text, new_text, 1)
        if len(updated.encode("utf-8")) > MAX_WRITE_BYTES:
            raise WorkspaceError(f"the edited {rel} would exceed {MAX_WRITE_BYTES} bytes; refusing the write")
        return EditRecord(rel, sha256_text(current), sha256_text(updated), unified_diff(rel, current, updated)), updated
