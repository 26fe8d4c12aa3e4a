"""Token usage a model server reports: a number from outside, believed only when it can be true.

A server that reports negative, fractional, boolean or absurd token counts would settle a request
below its real cost (a negative total widens every budget); such a report is set aside and the
request counted at its worst case, which the reservation already holds, with a note saying why.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MAX_REPORTED_TOKENS = 100_000_000  # far above any context window: a larger count is not a count


def _count(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_REPORTED_TOKENS:
        return None
    return value


def reported_tokens(usage: Mapping[str, Any]) -> tuple[int, int] | str:
    """(input, output) tokens from a reply's usage, or why they cannot be used (missing, or not a count)."""
    if usage.get("input_tokens") is None or usage.get("output_tokens") is None:
        return "the server reported no token usage: counted at the worst case"
    tokens_in, tokens_out = _count(usage["input_tokens"]), _count(usage["output_tokens"])
    if tokens_in is None or tokens_out is None:
        shown = f"{usage['input_tokens']!r:.40} input, {usage['output_tokens']!r:.40} output"
        return f"the server reported token usage that cannot be true ({shown}): counted at the worst case"
    return tokens_in, tokens_out
