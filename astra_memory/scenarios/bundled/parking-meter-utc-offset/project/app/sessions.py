"""Durations and charges of parking sessions."""

import math

from app.clock import to_utc

RATE_PER_STARTED_HALF_HOUR_CENTS = 150


def minutes_parked(start: str, end: str) -> int:
    """Whole minutes between the start and end stamps of a session."""
    return int((to_utc(end) - to_utc(start)).total_seconds() // 60)


def charge_cents(start: str, end: str) -> int:
    """Price of a session: every started half hour costs the same."""
    return math.ceil(minutes_parked(start, end) / 30) * RATE_PER_STARTED_HALF_HOUR_CENTS
