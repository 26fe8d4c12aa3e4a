"""One line of a JSON-lines file that came from outside (a memory import, a bench's case file): its
bytes to one JSON object, or the reason it is not one; never a traceback (outside round 9 case 09: a
line nested too deep for json's decoder; round 10 case 08: a case file of binary bytes, the same
line). Both readers take lines through here, so they refuse the same lines the same way."""

from __future__ import annotations

import json


class BadLine(ValueError):
    """The line is not one JSON object; the message says why (without the line number)."""


def json_line(raw: bytes) -> dict | None:
    """The JSON object on the line ``raw`` (None for a blank line); BadLine when it is not one."""
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadLine(f"not UTF-8 text (byte {exc.start + 1})") from None
    if not line.strip():
        return None
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise BadLine(f"not JSON ({exc.msg})") from None
    except RecursionError:  # json's decoder recurses once per nesting level
        raise BadLine("nested too deep to be a JSON object") from None
    if not isinstance(data, dict):
        raise BadLine("expected a JSON object")
    return data
