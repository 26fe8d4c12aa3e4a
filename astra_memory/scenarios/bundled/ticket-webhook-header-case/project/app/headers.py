"""Access to the HTTP headers of incoming helpdesk webhooks."""


def header_value(headers: dict[str, str], name: str, default: str | None = None) -> str | None:
    """Look a header up by name; HTTP header names are case-insensitive."""
    return headers.get(name, default)


def media_type(headers: dict[str, str]) -> str:
    """Media type of the body without parameters, e.g. "application/json"."""
    value = header_value(headers, "Content-Type", "") or ""
    return value.split(";", 1)[0].strip().lower()
