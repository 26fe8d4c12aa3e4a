"""Validates and classifies webhooks sent by the ticketing system."""

import hashlib
import hmac

from app.headers import header_value


def signature_ok(secret: bytes, body: bytes, headers: dict[str, str]) -> bool:
    """True if the X-Queue-Signature header is the HMAC-SHA256 of the body."""
    sent = header_value(headers, "X-Queue-Signature", "") or ""
    expected = hmac.new(secret, body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(sent, expected)


def event_kind(headers: dict[str, str]) -> str:
    """Kind of ticket event, e.g. "ticket.created"."""
    return header_value(headers, "X-Queue-Event", "unknown")
