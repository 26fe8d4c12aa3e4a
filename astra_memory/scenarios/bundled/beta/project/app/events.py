"""Audit events built from request headers."""

from app.fields import normalize_field_name

STORED_FIELDS = {"audit_log", "request_id", "actor"}


def event_from_headers(headers: dict[str, str]) -> dict[str, str]:
    """Keep the audit-relevant headers, keyed by their canonical field names."""
    event = {}
    for name, value in headers.items():
        key = normalize_field_name(name)
        if key in STORED_FIELDS:
            event[key] = value
    return event
