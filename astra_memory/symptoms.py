"""Turn a failing test run into a failure signature and a memory query.

The query is built from observed symptoms only (error type, the exception's own message, the
failing tests' names, the failing lines of test code), never from a guess at the cause: memory is
searched before anyone has diagnosed anything.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field

_FAILED_LINE = re.compile(r"^(FAILED|ERROR) (\S+?)(?: - (.*))?$")
_E_LINE = re.compile(r"^E\s+(.*)$")
_EXC_NAME = re.compile(r"^((?:[A-Za-z_][\w]*\.)*[A-Z][\w]*(?:Error|Exception|Exit|Warning|Interrupt))\b")
_TRACE_LOC = re.compile(r"^([\w./\\-]+\.py):(\d+): ")
_PY_TRACE = re.compile(r'File "([^"]+\.py)", line (\d+)')
# pytest's diff decorations carry no meaning of their own ("- audit_log", "?   ^", "Use -v ...").
_NOISE = re.compile(r"^([-+?] |[-+?]$|Use -v|Full diff|Omitting \d+ identical|\.\.\.)")
# pytest marks the line that failed in each shown frame with ">" (the test's assert, the raising line).
_CODE_LINE = re.compile(r"^>\s+(\S.*)$")
# pytest's assertion rewriting: "assert 'audit-log' == 'audit_log'", with or without the error name.
_INTROSPECTION = re.compile(r"^(?:AssertionError:\s*)?assert\b")
MAX_MESSAGE_CHARS = 400
MAX_CODE_LINES = 6
MAX_CODE_CHARS = 200


@dataclass
class Failure:
    """What a failing run showed: no interpretation, only what was printed."""

    error_type: str
    failing_tests: list[str] = field(default_factory=list)
    message: str = ""
    files: list[str] = field(default_factory=list)
    failing_code: list[str] = field(default_factory=list)  # the ">" lines pytest printed, in order

    def to_dict(self) -> dict:
        return asdict(self)


def parse_failure(output: str) -> Failure:
    """Extract error type, failing tests, the first message and traceback files from pytest output."""
    failing: list[str] = []
    error_type = ""
    messages: list[str] = []
    files: list[str] = []
    code: list[str] = []
    for line in output.splitlines():
        stripped = line.rstrip()
        code_match = _CODE_LINE.match(stripped)
        if code_match:
            text = code_match.group(1).strip()[:MAX_CODE_CHARS]
            if len(code) < MAX_CODE_LINES and text not in code:
                code.append(text)
            continue
        match = _FAILED_LINE.match(stripped)
        if match:
            failing.append(match.group(2))
            if not error_type and match.group(3):
                exc = _EXC_NAME.match(match.group(3))
                if exc:
                    error_type = exc.group(1)
            continue
        e_match = _E_LINE.match(stripped)
        if e_match:
            text = e_match.group(1).strip()
            if text and len(messages) < 3 and not _NOISE.match(text) and text not in messages:
                messages.append(text)
            exc = _EXC_NAME.match(text)
            if exc and not error_type:
                error_type = exc.group(1)
            continue
        for pattern in (_TRACE_LOC, _PY_TRACE):
            loc = pattern.search(stripped)
            if loc:
                path = loc.group(1).replace("\\", "/")
                if "site-packages" not in path and not path.startswith("/") and path not in files:
                    files.append(path)
    if not error_type:
        joined = " ".join(messages)
        error_type = "AssertionError" if joined.startswith("assert") else ("Error" if failing or messages else "")
    message = " | ".join(messages)[:MAX_MESSAGE_CHARS]
    if not message and not failing:
        tail = [ln for ln in output.strip().splitlines() if ln.strip()][-3:]
        message = " | ".join(tail)[:MAX_MESSAGE_CHARS]
    return Failure(error_type or "Error", _dedupe(failing), message, files, code)


def _dedupe(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _humanise(test_id: str) -> str:
    name = test_id.split("::")[-1]
    name = re.sub(r"\[.*\]$", "", name)
    if name.startswith("test_"):
        name = name[5:]
    return name.replace("_", " ")


def own_message(failure: Failure) -> str:
    """The failure's message without pytest's assertion introspection.

    An exception's own words ("can't compare offset-naive and offset-aware datetimes", an
    assert's explicit message) describe the behaviour. pytest's rewritten assertion ("assert
    'audit-log' == 'audit_log'" and the explanation lines after it) is the failing line again
    with one project's values substituted and truncated: data, not description. The failing
    line itself is kept, in ``failing_code``.
    """
    kept, in_introspection = [], False
    for piece in (p.strip() for p in failure.message.split(" | ")):
        if _INTROSPECTION.match(piece):
            in_introspection = True
            continue
        if in_introspection and not _EXC_NAME.match(piece):
            continue  # "At index 1 diff: ...", "Left contains one more item", ... belong to the assert
        in_introspection = False
        if piece:
            kept.append(piece)
    return " | ".join(kept)


def symptom_query(failure: Failure) -> str:
    """The memory query for a failure: its error type and own message, the failing tests' names in
    words, and the failing lines of test code.

    Test names are written as words ("second origin gets allow origin header") because they
    describe the expected behaviour in the project's own vocabulary, which is what a fix from
    another project most often shares. The failing lines (``assert parse_tags("a, b") == [...]``)
    say which behaviour was exercised with which input. File paths are left out: they are
    project-specific. Measured with ``astra-memory bench retrieval`` (README, Results).
    """
    message = own_message(failure)
    head = message if message.startswith(failure.error_type) else (
        f"{failure.error_type}: {message}" if message else failure.error_type)
    parts = [head.strip()]
    if failure.failing_tests:
        names = "; ".join(_humanise(t) for t in failure.failing_tests[:6])
        parts.append(f"failing tests: {names}")
    if failure.failing_code:
        parts.append("failing code: " + "; ".join(failure.failing_code[:MAX_CODE_LINES]))
    return "\n".join(p for p in parts if p)
