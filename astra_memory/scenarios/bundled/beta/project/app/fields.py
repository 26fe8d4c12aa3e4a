"""Field names of audit events, as they arrive from HTTP headers and forms."""


def normalize_field_name(name: str) -> str:
    """Return the canonical storage key for an incoming field name."""
    return name.lower()
