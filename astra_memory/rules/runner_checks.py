"""A fix that special-cases the test runner is not a fix: find such checks in a diff's added lines.

Source that asks "am I under pytest?" (``"pytest" in sys.modules``, ``PYTEST_CURRENT_TEST``, a
``PYTEST_*``/``TOX_*`` variable, ``sys.argv``, ``_pytest``, ``conftest``) or "am I in the agent's
fresh copy?" (the snapshot or run folder) can pass every test and the fresh-copy confirmation while
doing something else everywhere else; stored as confirmed it would be replayed into other projects.

A static look at the lines a diff adds (parsed with ``unidiff``, matched with ``re2``: linear time on
any input), comments left out for Python files. It flags; it does not judge: a flagged diff is
``unconfirmed`` and not stored unless a human approved that very edit (nodes/store.py), and a stored
one is replayed only with a human's approval (stores/trust.py).
"""

from __future__ import annotations

import io
import json
import tokenize
from collections.abc import Iterable
from dataclasses import dataclass

import re2
from unidiff import PatchSet
from unidiff.errors import UnidiffParseError

SHOWN_CHARS = 160
MIN_PATH_CHARS = 8  # a run path shorter than this ("/", "/tmp") would match everything

# (pattern, what it does), most specific first; a line is reported once, for its first match.
_RUNNER_ENV = r"(?:_?PYTEST\w*|TOX_?\w*|NOX_?\w*|COV_CORE_\w*|ASTRA_\w*|PYTHONBREAKPOINT|UNITTEST\w*)"
PATTERNS: tuple[tuple[str, str], ...] = (
    (r"sys\s*\.\s*modules.*\b_?(?:pytest|unittest|nose2?|tox)\b|\b_?(?:pytest|unittest|nose2?|tox)\b.*sys\s*\.\s*modules",
     "looks for the test runner in sys.modules"),
    (r"PYTEST_CURRENT_TEST", "reads PYTEST_CURRENT_TEST (set only while pytest runs a test)"),
    (r"(?:environ|getenv|putenv)\b.*['\"]" + _RUNNER_ENV + r"['\"]|['\"]" + _RUNNER_ENV + r"['\"].*\benviron\b",
     "reads a test-runner environment variable"),
    (r"\bPYTEST_\w+", "names a PYTEST_* variable"),
    (r"\bsys\s*\.\s*(?:argv|orig_argv)\b", "reads sys.argv (how the process was started)"),
    (r"\b_pytest\b", "uses pytest's internals (_pytest)"),
    (r"\bconftest\b", "refers to conftest"),
    (r"\bpristine\b|['\"/\\\\]confirm['\"/\\\\]|\.astra\b|\bastra[-_]home\b|\bASTRA_HOME\b",
     "refers to the agent's snapshot or fresh-copy folder"),
    (r"\b(?:import\s+pytest|from\s+pytest\b|pytest\s*\.|['\"]pytest['\"])", "uses or names pytest"),
)
_COMPILED = tuple((re2.compile(pattern), what) for pattern, what in PATTERNS)


@dataclass(frozen=True)
class RunnerCheck:
    """One added line that special-cases the test runner."""

    path: str
    line: int  # in the file after the edit
    text: str  # the added line, trimmed and shortened
    match: str  # the part of it that matched (what a human's approval must have shown)
    what: str

    def describe(self) -> str:
        return f"{self.path}:{self.line} {self.what}: {json.dumps(self.text)}"


def _strip_prefix(name: str) -> str:
    name = name.strip()
    return name[2:] if name.startswith(("a/", "b/")) else name


def code_part(line: str) -> str:
    """A Python line without its comment (the whole line if it does not tokenize on its own)."""
    try:
        for token in tokenize.generate_tokens(io.StringIO(line).readline):
            if token.type == tokenize.COMMENT:
                return line[:token.start[1]]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return line


def added_lines(diff: str) -> list[tuple[str, int, str]]:
    """``(path, line number, text)`` of every line the diff adds; [] if it is not a unified diff."""
    try:
        patch = PatchSet(diff)
    except (UnidiffParseError, ValueError):
        return []
    return [(_strip_prefix(patched.path), line.target_line_no or 0, line.value.rstrip("\r\n"))
            for patched in patch for hunk in patched for line in hunk if line.line_type == "+"]


def runner_checks(diff: str, *, paths: Iterable[str] = ()) -> list[RunnerCheck]:
    """The added lines of ``diff`` that special-case the test runner; ``paths``: this session's run
    folders (snapshot, run directory, workspace), which source has no business naming."""
    if not diff or not diff.strip():
        return []
    folders = sorted({p.rstrip("/") for p in paths if p and len(p.rstrip("/")) >= MIN_PATH_CHARS}, key=len,
                     reverse=True)
    found: list[RunnerCheck] = []
    for path, number, text in added_lines(diff):
        code = code_part(text) if path.endswith((".py", ".pyi", ".pyw")) else text
        hit = next(((m.group(0), what) for pattern, what in _COMPILED if (m := pattern.search(code))), None)
        if hit is None:
            folder = next((f for f in folders if f in code), None)
            hit = (folder, "names this session's run folder (snapshot, fresh copy or workspace)") if folder else None
        if hit is not None:
            shown = text.strip()
            shown = shown if len(shown) <= SHOWN_CHARS else shown[:SHOWN_CHARS] + "..."
            found.append(RunnerCheck(path, number, shown, hit[0], hit[1]))
    return found
