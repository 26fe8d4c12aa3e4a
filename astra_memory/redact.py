"""Scrub secrets from text before it is stored, logged or shown."""

from __future__ import annotations

import re

REDACTED = "[REDACTED]"
_PATTERNS = [
    re.compile(r"\bsk-(?:proj-|ant-)?[A-Za-z0-9_\-]{16,}"),  # OpenAI / Anthropic style keys
    re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}"),  # GitHub tokens
    re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}"),  # Slack tokens
    re.compile(r"\bAKIA[0-9A-Z]{16}\b"),  # AWS access key ids
    re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._~+/=\-]{8,}"),
]
# Bounded and anchored: an unbounded scheme backtracks quadratically over long base64-like runs.
_URL_PASSWORD = re.compile(
    r"(?<![A-Za-z0-9+.\-])(?P<scheme>[a-zA-Z][a-zA-Z0-9+.\-]{0,31}://)(?P<user>[^:/@\s]{1,256}):(?P<pw>[^@/\s]{1,256})@"
)
# `password = "hunter2!"` or `API_KEY=abc123def456ghi7`; a plain identifier (`token: str`) is left alone.
_ASSIGNED = re.compile(
    r"(?i)(?P<key>\b[\w\-]*(?:api[_-]?key|secret|token|password|passwd)[\w\-]*\b\s*[=:]\s*)"
    r"(?:(?P<quote>[\"'])[^\"'\s]{6,}(?P=quote)|(?=[^\s\"',;]*\d)[^\s\"',;]{12,})"
)


def scrub(text: str) -> str:
    """Replace API keys, bearer tokens and passwords in URLs with a marker."""
    if not text:
        return text
    for pattern in _PATTERNS:
        text = pattern.sub(REDACTED, text)
    text = _URL_PASSWORD.sub(lambda m: f"{m['scheme']}{m['user']}:{REDACTED}@", text)
    text = _ASSIGNED.sub(lambda m: f"{m['key']}{m['quote'] or ''}{REDACTED}{m['quote'] or ''}", text)
    return text
