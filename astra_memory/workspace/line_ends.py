"""A file's line ends and encoding, kept byte for byte through edits, diffs and replay.

Files are edited as the exact text of their bytes (UTF-8, decoded strictly, nothing translated):
CRLF stays CRLF, a UTF-8 byte order mark stays, a last line without a newline stays without one.
Three things need care, and each is done here, once:

- ``split_lines``: lines end at ``\\n`` only. ``str.splitlines`` also splits at a lone ``\\r``, a
  form feed, ``\\x1c``-``\\x1e``, U+2028 and more, which would change the file a diff describes.
- ``unified_diff``: a last line without a newline is followed by ``\\ No newline at end of file``
  (as ``diff`` and ``git`` write it; unidiff reads it back, diffs.hunk_edits honours it). Without
  it ``difflib`` glues that line to the next one of the diff.
- ``has_lone_cr``: an edit may not bring a carriage return without a line feed into a file that
  has none (workspace/files.py refuses it): it would hide code from the diff a human approves.
- ``in_file_style``: the model's text (JSON: its line breaks are ``\\n``) written into a file
  whose every line ends in CRLF gets CRLF line ends; a BOM the model copied from the first line
  of ``old_text`` is kept at the file's start. A file of mixed line ends (some CRLF, some LF) is
  matched exactly as given: there is no one style to write in, so nothing is guessed.
"""

from __future__ import annotations

import difflib
import re

BOM = "\ufeff"
NO_NEWLINE = "\\ No newline at end of file\n"
_LONE_LF = re.compile(r"(?<!\r)\n")
_LONE_CR = re.compile(r"\r(?!\n)")
_LINE = re.compile(r"[^\n]*\n|[^\n]+$")


def split_lines(text: str) -> list[str]:
    """The lines of ``text``, each with its own end (``\\n`` or ``\\r\\n``; the last may have none)."""
    return _LINE.findall(text)


def crlf_only(text: str) -> bool:
    """Every line end of ``text`` is CRLF (and it has at least one)."""
    return "\r\n" in text and _LONE_LF.search(text) is None


def has_lone_cr(text: str) -> bool:
    """``text`` holds a carriage return that no line feed follows: Python reads it as a line break,
    while a diff (split at ``\n``) and a terminal (which returns to the line's start and prints over
    it) do not show one, so code after it can hide in a line that looks harmless."""
    return _LONE_CR.search(text) is not None


def in_file_style(current: str, old_text: str, new_text: str) -> tuple[str, str]:
    """(old_text, new_text) written in the line ends of ``current`` (module docstring)."""
    if crlf_only(current):
        old_text, new_text = _LONE_LF.sub("\r\n", old_text), _LONE_LF.sub("\r\n", new_text)
    if current.startswith(BOM) and old_text.startswith(BOM) and not new_text.startswith(BOM):
        new_text = BOM + new_text
    return old_text, new_text


def unified_diff(rel: str, before: str, after: str) -> str:
    """The unified diff of one file (a/rel -> b/rel), every byte of both versions in it."""
    out: list[str] = []
    for i, line in enumerate(difflib.unified_diff(split_lines(before), split_lines(after),
                                                  fromfile=f"a/{rel}", tofile=f"b/{rel}")):
        out.append(line)
        if i >= 2 and not line.startswith("@@") and not line.endswith("\n"):
            out.append("\n" + NO_NEWLINE)  # a content line (after the two file headers) with no end
    return "".join(out)
