"""Untrusted text on a terminal: every character that would drive it or hide what it shows is made visible.

Diffs, memory fields, test output, paths and model text are untrusted: an ESC sequence in them can
recolour, move the cursor, clear the screen or set the window title; a lone carriage return
overwrites the start of the line (an approval prompt that shows ``- ok`` over ``+ evil``); bidi
overrides (U+202E...) and isolates reorder what is read; zero-width characters, a byte order mark
and line separators hide in plain sight. ``visible`` shows each as a Python-style escape
(``\\x1b``, ``\\x0d``, ``\\u202e``), keeping only newlines and tabs: a CRLF line end of a diff shows
as ``\\x0d`` before its newline, which is what the file holds.

``SafeConsole`` applies it to every string printed, markup or not, in one place: the CLI's
consoles (cli/common.py) are SafeConsoles, so no command can print untrusted text raw. Our own
styling is rich's (markup and renderables), which ``visible`` never touches: it adds only
backslash escapes, so ``[bold]`` stays markup and ``lit`` still escapes project text for markup.
JSON output (``--json``) is ``json.dumps`` with ASCII escapes, so it carries no raw control
character either.
"""

from __future__ import annotations

import re
from typing import Any

from rich.console import Console

_HIDDEN = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f"  # C0 (but tab and newline), DEL, C1 (\x9b is a one-byte CSI)
    "\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]"  # bidi, zero-width, separators
)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def visible(value: Any) -> str:
    """``value`` as text safe to print on a terminal (module docstring)."""
    return _HIDDEN.sub(_escape, str(value))


class SafeConsole(Console):
    """A rich Console that prints every string through ``visible``."""

    def print(self, *objects: Any, **kwargs: Any) -> None:  # noqa: A003 -- rich's own name
        super().print(*(visible(o) if isinstance(o, str) else o for o in objects), **kwargs)
