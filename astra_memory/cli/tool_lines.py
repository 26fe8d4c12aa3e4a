"""What a session's progress lines say about the model's tool calls: the call with the argument that
names its target (``read_file toolz/itertoolz.py``), and its result in a few words (``1,058 lines``),
never the workspace text the model was sent: a file read whole is hundreds of escaped lines at 80
columns, and the session's own steps scroll out of sight (issue 36, the new-user run on toolz)."""

from __future__ import annotations

import json
from typing import Any

# The argument a person wants to see beside each tool's name.
TARGET = {"list_files": "path", "read_file": "path", "search_code": "pattern", "search_codebase_memory": "query",
          "state_diagnosis": "cause", "apply_edit": "path", "finish": "fix_description"}
# A result this short (lines and characters) is shown itself, one line each, under its progress line.
SHOWN_LINES, SHOWN_CHARS = 3, 240
COUNTED = {"list_files": "file(s)", "search_code": "matching line(s)", "read_file": "line(s)"}


def call_line(call: dict[str, Any]) -> str:
    """``name target`` for one tool call (the target whole: a path, a pattern, a cause)."""
    target = (call.get("args") or {}).get(TARGET.get(call.get("name") or "", ""))
    return f"{call.get('name')} {target}" if isinstance(target, str) and target.strip() else str(call.get("name"))


def workspace_text(content: str, name: str) -> str | None:
    """The workspace text inside a read tool's observation (``NAME returned (workspace DATA, quoted):
    "..."``, tools.py's ``observation``), or None when the content is not that."""
    prefix = f"{name} returned (workspace DATA, quoted): "
    if not content.startswith(prefix):
        return None
    try:
        text = json.loads(content[len(prefix):])
    except ValueError:
        return None
    return text if isinstance(text, str) else None


def result_lines(content: str, name: str) -> list[str]:
    """A read tool's result for the terminal: short text itself (a match or two), else how much
    came back; any other observation (memory results, a refusal) by its first line."""
    text = workspace_text(content, name)
    if text is None:
        first = content.strip().splitlines()
        return [first[0]] if first else []
    lines = text.splitlines()
    if name != "read_file" and len(lines) <= SHOWN_LINES and len(text) <= SHOWN_CHARS:
        return lines or ["(nothing)"]
    cut = " (cut for the model)" if text.endswith(" characters cut]") else ""
    return [f"{len(lines):,} {COUNTED.get(name, 'line(s)')}, {len(text):,} characters{cut}"]
