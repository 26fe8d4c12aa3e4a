"""Appointment slots of the clinic; the booking form sends ISO timestamps with an offset."""

from datetime import datetime, timedelta, timezone

MIN_NOTICE = timedelta(hours=2)


def current_time() -> datetime:
    """The current time, used to decide whether a slot can still be booked."""
    return datetime.now()


def parse_slot(text: str) -> datetime:
    """Parse a slot such as "2024-05-02T09:30:00+02:00" and store it in UTC."""
    return datetime.fromisoformat(text).astimezone(timezone.utc)


def is_bookable(slot_start: datetime) -> bool:
    """A slot can be booked if it starts at least MIN_NOTICE from now."""
    return slot_start - current_time() >= MIN_NOTICE
