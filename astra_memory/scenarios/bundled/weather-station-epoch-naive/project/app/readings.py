"""Readings uploaded by weather stations, stamped with Unix epoch seconds."""

from datetime import datetime, timezone


def reading_time(epoch_seconds: float) -> datetime:
    """Time of a reading as a UTC datetime."""
    return datetime.utcfromtimestamp(epoch_seconds)


def format_stamp(when: datetime) -> str:
    """Compact label used on charts, always shown in UTC."""
    return when.astimezone(timezone.utc).strftime("%d %b %H:%M")
