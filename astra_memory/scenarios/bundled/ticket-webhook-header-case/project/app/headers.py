"""Access to the HTTP headers of incoming helpdesk webhooks."""


def header_value(headers: dict[str, str], name: str, default: str | None = None) -> str | None:
    """Look a header up by name; HTTP header names are case-insensitive."""
    return headers.get(name, default)
