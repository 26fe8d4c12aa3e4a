"""Keys of adoption-application payloads sent by the shelter's web form."""

import re

_COLUMN = re.compile(r"[a-z][a-z0-9_]*")


def snake_key(key: str) -> str:
    """Convert a camelCase form key (e.g. "petName") to its snake_case column name."""
    return key.replace(" ", "_").lower()


def is_column_name(name: str) -> bool:
    """Column names are lower-case identifiers."""
    return _COLUMN.fullmatch(name) is not None
