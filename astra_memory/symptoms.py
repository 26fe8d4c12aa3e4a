"""Turn a failing test run into a failure signature and a memory query.

The query is built from observed symptoms only (error type, the assertion or exception message,
the failing tests' names), never from a guess at the cause: memory is searched before anyone
has diagnosed anything.
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
MAX_MESSAGE_CHARS = 400


@dataclass
class Failure:
    """What a failing run showed: no interpretation, only what was printed."""

    error_type: str
    failing_tests: list[str] = field(default_factory=list)
    message: str = ""
    files: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)


def parse_failure(output: str) -> Failure:
    """Extract error type, failing tests, the first message and traceback files from pytest output."""
    failing: list[str] = []
    error_type = ""
    messages: list[str] = []
    files: list[str] = []
    for line in output.splitlines():
        stripped = line.rstrip()
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
    return Failure(error_type or "Error", _dedupe(failing), message, files)


def _dedupe(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _humanise(test_id: str) -> str:
    name = test_id.split("::")[-1]
    name = re.sub(r"\[.*\]$", "", name)
    if name.startswith("test_"):
        name = name[5:]
    return name.replace("_", " ")


def symptom_query(failure: Failure) -> str:
    """The memory query for a failure: its error type, message and failing tests' names in words.

    Test names are written as words ("second origin gets allow origin header") because they
    describe the expected behaviour in the project's own vocabulary, which is what a fix from
    another project most often shares; file paths are left out: they are project-specific.
    """
    head = failure.message if failure.message.startswith(failure.error_type) else (
        f"{failure.error_type}: {failure.message}")
    parts = [head.strip()]
    if failure.failing_tests:
        names = "; ".join(_humanise(t) for t in failure.failing_tests[:6])
        parts.append(f"failing tests: {names}")
    return "\n".join(p for p in parts if p)
