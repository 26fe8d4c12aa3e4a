"""Summaries of a weather station's readings, given as (epoch_seconds, temperature) pairs."""

from datetime import datetime, timedelta

from app.readings import reading_time


def readings_since(readings: list[tuple[float, float]], cutoff: datetime) -> list[float]:
    """Temperatures measured at or after the (aware) cutoff time."""
    return [temp for epoch, temp in readings if reading_time(epoch) >= cutoff]


def is_stale(last_epoch: float, now: datetime, max_age: timedelta = timedelta(hours=1)) -> bool:
    """A station is stale when its last reading is older than max_age."""
    return now - reading_time(last_epoch) > max_age


def warmest_after(readings: list[tuple[float, float]], cutoff: datetime) -> float | None:
    """Highest temperature measured after the cutoff, if any."""
    recent = readings_since(readings, cutoff)
    return max(recent) if recent else None
