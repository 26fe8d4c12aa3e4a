"""Describe, in words, how the two operands of a failed equality differ.

pytest prints ``assert 'Audit-Log' == 'audit_log'`` and unittest ``'8' != 8``: the values belong to
one project, but *how* they differ (only in letter case, a trailing newline, a string where a
number was expected, the same items in another order) is what another project's bug with the same
cause shares. The categories are generic properties of two Python values, read with
``ast.literal_eval`` (never evaluated as code); anything that does not parse gives no words.
"""

from __future__ import annotations

import ast
import re
import unicodedata
from typing import Any

_PYTEST_EQ = re.compile(r"^assert (.+?) == (.+)$")
_UNITTEST_NE = re.compile(r"^(?:AssertionError: )?(.+?) != (.+)$")
_MAX_OPERAND = 300


def _literal(text: str) -> tuple[bool, Any]:
    text = text.strip()
    if not text or len(text) > _MAX_OPERAND or "..." in text:
        return False, None
    try:
        return True, ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None


def operands(line: str) -> tuple[Any, Any] | None:
    """The two values of ``assert a == b`` (pytest) or ``a != b`` (unittest), if both are literals."""
    line = line.strip()
    match = _PYTEST_EQ.match(line) or _UNITTEST_NE.match(line)
    if not match:
        return None
    (ok_a, a), (ok_b, b) = _literal(match.group(1)), _literal(match.group(2))
    return (a, b) if ok_a and ok_b else None


def _strings(a: str, b: str) -> list[str]:
    if a.lower() == b.lower() or a.casefold() == b.casefold():
        return ["differ only in letter case"]
    if a.strip() == b.strip():
        edge = "a trailing newline" if a.rstrip(" \t") != a.rstrip() or b.rstrip(" \t") != b.rstrip() else (
            "leading or trailing whitespace")
        return [f"differ only in {edge}"]
    if "".join(a.split()) == "".join(b.split()):
        return ["differ only in whitespace"]
    def fold(s: str) -> str:
        return "".join(c for c in unicodedata.normalize("NFKD", s.casefold()) if c.isalnum())

    if fold(a) == fold(b):
        return ["differ only in punctuation, separators or accents"]
    if a and b and (a.startswith(b) or b.startswith(a) or a.endswith(b) or b.endswith(a)):
        return ["one string is cut or extended version of the other"]
    return []


def _numbers(a: float, b: float) -> list[str]:
    if abs(a - b) == 1:
        return ["numbers differ by one"]
    if a and b and (a < 0) != (b < 0) and abs(a) == abs(b):
        return ["numbers differ in sign"]
    scale = max(abs(a), abs(b))
    if scale and abs(a - b) / scale < 0.01:
        return ["numbers differ slightly (precision or rounding)"]
    if a and b and max(abs(a), abs(b)) / min(abs(a), abs(b)) in (10, 100, 1000, 60, 3600):
        return ["numbers differ by a unit factor"]
    return []


def _sequences(a, b) -> list[str]:
    if len(a) != len(b):
        words = ["different number of items"]
        if set(map(repr, a)) < set(map(repr, b)) or set(map(repr, b)) < set(map(repr, a)):
            words.append("items missing")
        return words
    if sorted(map(repr, a)) == sorted(map(repr, b)):
        return ["same items in a different order"]
    words = []
    for x, y in zip(a, b, strict=True):
        if x != y:
            words = describe(x, y)
            break
    return ["items differ: " + ", ".join(words)] if words else ["items differ"]


def describe(a: Any, b: Any) -> list[str]:
    """Generic words for how ``a`` and ``b`` differ (empty when nothing general can be said)."""
    if a is None or b is None:
        return ["None instead of a value"] if (a is None) != (b is None) else []
    if isinstance(a, bool) or isinstance(b, bool):
        return []
    if isinstance(a, str) and isinstance(b, str):
        return _strings(a, b)
    if isinstance(a, bytes) != isinstance(b, bytes) and isinstance(a, (str, bytes)) and isinstance(b, (str, bytes)):
        return ["bytes compared with text"]
    numeric = (int, float)
    if isinstance(a, str) and isinstance(b, numeric) or isinstance(b, str) and isinstance(a, numeric):
        return ["a string compared with a number"]
    if isinstance(a, numeric) and isinstance(b, numeric):
        return _numbers(float(a), float(b))
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            return ["different keys"]
        for key in a:
            if a[key] != b[key]:
                return ["same keys, values differ: " + ", ".join(describe(a[key], b[key]) or ["other value"])]
        return []
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return _sequences(a, b)
    if isinstance(a, (set, frozenset)) and isinstance(b, (set, frozenset)):
        return ["different items"]
    if type(a) is not type(b):
        return [f"{type(a).__name__} compared with {type(b).__name__}"]
    return []


def describe_line(line: str) -> list[str]:
    pair = operands(line)
    return describe(*pair) if pair else []


_QUOTED = re.compile(r"""(?<![\w])('(?:[^'\\]|\\.){1,200}'|"(?:[^"\\]|\\.){1,200}")""")


def describe_literals(message: str) -> list[str]:
    """Generic words for the quoted values in an exception's message (``KeyError: 'acme\\n'``): the
    features that make a value differ from the one the code expected without looking different."""
    words: list[str] = []
    for match in _QUOTED.finditer(message):
        ok, value = _literal(match.group(1))
        if not ok or not isinstance(value, str) or not value:
            continue
        if value != value.rstrip("\r\n"):
            found = "a value with a trailing newline"
        elif value != value.strip():
            found = "a value with leading or trailing whitespace"
        elif any(ord(c) > 127 for c in value):
            found = "a value with non-ASCII characters"
        else:
            continue
        if found not in words:
            words.append(found)
    return words
