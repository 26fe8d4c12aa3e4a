"""Unified diffs of confirmed fixes: what makes two diffs the same fix, and their hunks as exact edits.

Parsing is ``unidiff``'s (a maintained unified-diff parser), not ours. Two uses:

- ``normalized_diff``: the identity of a fix. Only the removed and added lines count, per file and
  per hunk, with runs of whitespace collapsed: hunk headers (line numbers) and context lines are
  left out, so the same change made at other offsets, or next to other unchanged lines, is the
  same fix.
- ``hunk_edits``: each hunk as an exact block replacement (the hunk's source lines -> its target
  lines). Applying one is an exact, unique text match anywhere in the file (workspace.apply_edit),
  so a hunk is found at another line offset but never fuzzily: a context line that differs by one
  character means the block is not found and the diff does not apply.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from unidiff import PatchSet
from unidiff.errors import UnidiffParseError

from astra_memory.workspace.line_ends import has_lone_cr

_HUNK_HEADER = re.compile(r"^@@ [^@]* @@.*$", re.MULTILINE)


class DiffError(ValueError):
    """The text is not a unified diff that can be replayed."""


@dataclass(frozen=True)
class HunkEdit:
    """One hunk as an exact replacement of ``old_text`` by ``new_text`` in ``path``."""

    path: str
    old_text: str
    new_text: str
    source_start: int  # where the hunk was when the fix was made (for messages only)


def _strip_prefix(name: str) -> str:
    name = name.strip()
    return name[2:] if name.startswith(("a/", "b/")) else name


def _parse(diff: str) -> PatchSet:
    try:
        return PatchSet(diff)
    except UnidiffParseError as exc:
        raise DiffError(f"not a unified diff: {exc}") from None


def _squash(text: str) -> str:
    return " ".join(text.split())


def normalized_diff(diff: str) -> str:
    """The fix's identity: files and changed lines, no line numbers, no context, whitespace squashed."""
    if not diff.strip():
        return ""
    try:
        patch = _parse(diff)
    except DiffError:
        patch = None
    if not patch:  # not parseable: the raw text without hunk line numbers
        return "\n".join(_squash(line) for line in _HUNK_HEADER.sub("@@", diff).splitlines() if line.strip())
    out: list[str] = []
    for patched in patch:
        out.append(f"file {_strip_prefix(patched.target_file if patched.target_file != '/dev/null' else patched.source_file)}")
        for hunk in patched:
            out.append("@@")
            out += [f"{line.line_type}{_squash(line.value)}" for line in hunk if line.line_type in "+-"]
    return "\n".join(out)


def diff_problem(diff: str) -> str | None:
    """Why a stored diff cannot be replayed (it does not parse), or None (it parses, or is empty)."""
    if not diff.strip():
        return None
    try:
        _parse(diff)
    except DiffError as exc:
        return str(exc)
    return None


MAX_BLANKS_RESTORED = 20


def repaired_diff(diff: str) -> str | None:
    """A diff damaged by the previous version (every string field stripped of surrounding
    whitespace: its closing blank context lines and final newline gone), restored by appending the
    missing blank context lines (`` ``) until it parses; None when that does not make it parse."""
    if diff_problem(diff) is None:
        return diff
    base = diff.rstrip("\n") + "\n"
    for blanks in range(MAX_BLANKS_RESTORED + 1):
        candidate = base + " \n" * blanks
        if diff_problem(candidate) is None:
            return candidate
    return None


def changed_files(diff: str) -> list[str]:
    """Workspace-relative paths a diff touches, in order."""
    try:
        return [_strip_prefix(p.path) for p in _parse(diff)]
    except DiffError:
        return []


def hunk_edits(diff: str) -> list[HunkEdit]:
    """Every hunk of ``diff`` as an exact block replacement; DiffError for what cannot be replayed."""
    patch = _parse(diff)
    if not patch:
        raise DiffError("the diff has no hunks")
    edits: list[HunkEdit] = []
    for patched in patch:
        if patched.is_added_file or patched.is_removed_file or patched.is_binary_file:
            raise DiffError(f"{patched.path}: only edits of existing text files are replayed")
        if _strip_prefix(patched.source_file) != _strip_prefix(patched.target_file):
            raise DiffError(f"{patched.path}: renames are not replayed")
        for hunk in patched:
            old, new = _sides(hunk)
            if not old:
                raise DiffError(f"{patched.path}: a hunk without source lines cannot be located")
            edits.append(HunkEdit(_strip_prefix(patched.path), old, new, hunk.source_start))
    return edits


def lone_cr_files(diff: str) -> list[str]:
    """The files a hunk of ``diff`` brings a carriage return with no line feed into (its target lines hold
    one, its source lines none): replay applies each hunk through ``apply_edit``, which refuses such a
    ``new_text`` for a file without one (workspace/files.py, line_ends.has_lone_cr). Read from the diff
    alone, so it also names a file that had a lone carriage return outside the hunk (which replay would
    take): the rule errs on the side of not replaying. One rule for every way a diff enters memory
    (``FixRecord``: a session's store, learn, ``memory import``) and for learn's refusal."""
    if "\r" not in diff:
        return []
    try:
        patch = _parse(diff)
    except DiffError:
        return []
    found: list[str] = []
    for patched in patch:
        for hunk in patched:
            old, new = _sides(hunk)
            if has_lone_cr(new) and not has_lone_cr(old):
                found.append(_strip_prefix(patched.path))
                break
    return found


def _sides(hunk) -> tuple[str, str]:
    """(source text, target text) of one hunk, byte for byte: a line followed by ``\\ No newline at
    end of file`` is the file's last, without its ``\\n`` (unidiff keeps the newline in its value)."""
    old: list[str] = []
    new: list[str] = []
    last: list[list[str]] = []  # the sides the previous line went to
    for line in hunk:
        if line.line_type == "\\":
            for side in last:
                side[-1] = side[-1].removesuffix("\n")
            continue
        last = [side for side, kinds in ((old, " -"), (new, " +")) if line.line_type in kinds]
        for side in last:
            side.append(line.value)
    return "".join(old), "".join(new)


def produced_lines(diff: str) -> dict[str, list[str]]:
    """``{path: [added lines]}``: the lines the fix put into each file (for the staleness check)."""
    try:
        patch = _parse(diff)
    except DiffError:
        return {}
    out: dict[str, list[str]] = {}
    for patched in patch:
        lines = [line.value.rstrip("\n") for hunk in patched for line in hunk if line.line_type == "+"]
        if lines:
            out.setdefault(_strip_prefix(patched.path), []).extend(lines)
    return out


def changed_lines(diff: str) -> set[tuple[str, str]]:
    """``{(path, removed line)}`` (whitespace squashed): which existing lines a fix changed.

    Two fixes in one project whose sets meet changed the same lines (the later supersedes).
    """
    try:
        patch = _parse(diff)
    except DiffError:
        return set()
    return {(_strip_prefix(p.path), _squash(line.value)) for p in patch for hunk in p for line in hunk
            if line.line_type == "-" and line.value.strip()}


def diff_summary(diff: str, *, max_lines: int = 6) -> tuple[list[str], list[str]]:
    """(``"path +added -removed"`` per file, the first ``max_lines`` changed lines as ``+``/``-`` text):
    what a failed attempt changed, in a few lines. A diff that does not parse gives ([], [])."""
    try:
        patch = _parse(diff)
    except DiffError:
        return [], []
    files, changed = [], []
    for patched in patch:
        files.append(f"{_strip_prefix(patched.path)} +{patched.added} -{patched.removed}")
        for hunk in patched:
            changed += [f"{line.line_type}{line.value.rstrip()}" for line in hunk if line.is_added or line.is_removed]
    return files, changed[:max_lines]
