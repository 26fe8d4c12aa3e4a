"""Usernames of forum members."""

import unicodedata


def canonical_username(name: str) -> str:
    """Key used to detect duplicate usernames: trimmed and case-insensitive."""
    return name.strip().casefold()


def is_acceptable(name: str) -> bool:
    """Usernames must be 3-24 characters long and contain no control characters."""
    name = name.strip()
    return 3 <= len(name) <= 24 and all(unicodedata.category(ch)[0] != "C" for ch in name)
