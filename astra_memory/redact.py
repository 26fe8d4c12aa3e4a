"""Scrub secrets from everything that is stored, logged, reported or sent to a model.

One function, ``scrub(text)``, and ``scrub_data(value)``, which applies it to every string in a
nested structure (events, reports, records, task fields). Every path out goes through one of them:
memory records (every string field, stores/record.py), the event log (events.py), the model
transcript (models/transcript.py), ``report.json`` (nodes/report.py), and what enters the
checkpointed conversation and so the prompt: tool observations (file contents, file lists, search
hits, diffs), the memory brief, test output and the task's free text.

Why a pattern list and not ``detect-secrets``: its plugins find the first line of a PEM key but
not the key's body, have no detector for Hugging Face (``hf_``) or Google (``AIza``) keys, and scan
line by line in Python; the formats below are its and the providers' published shapes, each with a
row in tests/test_redact.py. Every pattern is linear (bounded repeats, no nested quantifiers), so
scrubbing a 200 kB test log stays cheap.
"""

from __future__ import annotations

import re
from typing import Any

REDACTED = "[REDACTED]"

# (what it is, pattern), applied in this order (PEM first: its body may hold anything).
SECRET_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple((name, re.compile(pattern)) for name, pattern in (
    # PEM private keys: the whole block; a block cut off before its END line loses everything after BEGIN.
    ("pem private key", r"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----"
                        r"(?:[\s\S]{0,20000}?-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s\\]*)"),
    ("openai / anthropic key", r"\bsk-(?:proj-|ant-|svcacct-|admin-)?[A-Za-z0-9_\-]{16,}"),
    ("stripe key", r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}|\bwhsec_[A-Za-z0-9]{16,}"),
    ("github token", r"\bgh[pousr]_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{22,}"),
    ("gitlab token", r"\bglpat-[A-Za-z0-9_\-]{20,}"),
    ("hugging face token", r"\bhf_[A-Za-z0-9]{30,}"),
    ("slack token", r"\bxox[abeoprs]-[A-Za-z0-9-]{10,}"),
    ("slack webhook", r"https://hooks\.slack\.com/services/[A-Za-z0-9_/]{20,}"),
    ("google api key", r"\bAIza[0-9A-Za-z_\-]{35}"),
    ("aws access key id", r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    ("npm token", r"\bnpm_[A-Za-z0-9]{36}\b"),
    ("pypi token", r"\bpypi-AgE[A-Za-z0-9_\-]{20,}"),
    ("sendgrid key", r"\bSG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}"),
    # header.payload.signature, the first two base64url JSON objects (so they start with "eyJ")
    ("json web token", r"\beyJ[A-Za-z0-9_\-]{5,}\.eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]*"),
    ("bearer token", r"\b(?i:bearer)\s+[A-Za-z0-9._~+/=\-]{8,}"),
    ("basic auth header", r"(?i:(?<=authorization: basic ))[A-Za-z0-9+/=]{8,}"),
))
# user:password@host in a URL (any scheme, or none, as in a bare `user:pass@db.example.com:5432`);
# bounded and anchored: an unbounded scheme backtracks quadratically over long base64-like runs.
_URL_PASSWORD = re.compile(
    r"(?<![A-Za-z0-9+.\-])(?P<scheme>[a-zA-Z][a-zA-Z0-9+.\-]{0,31}://)(?P<user>[^:/@\s]{0,256}):(?P<pw>[^@/\s]{1,256})@"
)
_BARE_PASSWORD = re.compile(
    r"(?<![\w.:/@\-])(?P<user>[A-Za-z0-9_.\-]{1,64}):(?P<pw>[^@/\s:'\"]{3,256})@(?=[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)+)"
)
# `password = "hunter2!"` or `API_KEY=abc123def456ghi7`; a plain identifier (`token: str`) is left alone.
_ASSIGNED = re.compile(
    r"(?i)(?P<key>\b[\w\-]*(?:api[_-]?key|secret|token|password|passwd)[\w\-]*\b\s*[=:]\s*)"
    r"(?:(?P<quote>[\"'])[^\"'\s]{6,}(?P=quote)|(?=[^\s\"',;]*\d)[^\s\"',;]{12,})"
)


def scrub(text: str) -> str:
    """Replace every secret this module knows the shape of with ``[REDACTED]``.

    Keys and tokens of the formats in ``SECRET_PATTERNS``, PEM private keys, bearer and basic
    credentials, passwords in URLs, and values assigned to names like ``password`` or ``api_key``.
    """
    if not text or not isinstance(text, str):
        return text
    for _, pattern in SECRET_PATTERNS:
        text = pattern.sub(REDACTED, text)
    text = _URL_PASSWORD.sub(lambda m: f"{m['scheme']}{m['user']}:{REDACTED}@", text)
    text = _BARE_PASSWORD.sub(lambda m: f"{m['user']}:{REDACTED}@", text)
    text = _ASSIGNED.sub(lambda m: f"{m['key']}{m['quote'] or ''}{REDACTED}{m['quote'] or ''}", text)
    return text


def scrub_data(value: Any) -> Any:
    """``scrub`` applied to every string in ``value`` (dicts, lists and tuples, at any depth; keys too)."""
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, dict):
        return {scrub_data(k): scrub_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(scrub_data(v) for v in value)
    return value
