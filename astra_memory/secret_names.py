"""What names a secret, and what stands for one: shared by the table (redact.py) and the first pass
(secret_scanner.py), which both read a key beside a value."""

from __future__ import annotations

import re

REDACTED = "[REDACTED]"

MIN_QUOTED_CHARS = 4

SECRET_WORDS = (r"api[_-]?key|access[_-]?key|account[_-]?key|private[_-]?key|secret|token|passw(?:or)?d|passphrase"
                 r"|credentials?|(?<![a-z])pass(?![a-z])")

# The last word of a key that names something about a secret, not the secret (``password_length``,
# ``tokenCount``, ``token_type``, ``secret_name``, ``api_key_env``, ``max_tokens`` is a number).
NOT_SECRET_WORDS = frozenset({
    "length", "len", "count", "counts", "num", "number", "size", "limit", "min", "max", "type", "types", "kind",
    "name", "names", "id", "ids", "url", "uri", "urls", "endpoint", "path", "paths", "file", "files", "dir",
    "env", "var", "field", "fields", "header", "headers", "param", "label", "prompt", "hint", "help", "policy",
    "pattern", "regex", "format", "version", "expiry", "expires", "expiration", "ttl", "timeout", "lifetime",
    "age", "required", "enabled", "disabled", "valid", "validator", "usage", "budget", "index", "idx", "prefix",
    "suffix", "location", "source", "provider", "store", "storage", "class", "method", "scheme", "mode",
    "strength", "rules", "reset", "changed", "expired", "set",
})
_KEY_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_FULL_KEY = re.compile(rf"(?i)[\w\-]{{0,40}}?(?:{SECRET_WORDS})[\w\-]{{0,40}}")


def names_a_secret(key: str) -> bool:
    """Whether ``key`` (a dict key, a variable, an environment variable) names a secret value."""
    if not _FULL_KEY.fullmatch(key):
        return False
    words = _KEY_WORDS.findall(key)
    return not (words and words[-1].lower() in NOT_SECRET_WORDS)
