"""Timestamps of parking sessions; meters report local time with a UTC offset."""

from datetime import datetime, timezone


def to_utc(stamp: str) -> datetime:
    """Parse a meter timestamp such as "2024-03-01T10:00:00+02:00" and express it in UTC."""
    return datetime.fromisoformat(stamp).replace(tzinfo=timezone.utc)


def billing_day(stamp: str) -> str:
    """Sessions are billed on the UTC calendar day on which they start."""
    return to_utc(stamp).date().isoformat()
