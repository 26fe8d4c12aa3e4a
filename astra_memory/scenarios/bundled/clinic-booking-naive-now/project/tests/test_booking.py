from datetime import datetime, timezone

from app.booking import Clinic
from app.slots import is_bookable, parse_slot


def test_far_future_slot_is_bookable():
    assert is_bookable(parse_slot("2999-01-04T09:30:00+01:00")) is True


def test_past_slot_is_not_bookable():
    assert is_bookable(parse_slot("2001-03-05T10:00:00+00:00")) is False


def test_booking_is_stored_in_utc():
    booking = Clinic().book("M. Curie", "2999-01-04T09:30:00+01:00")
    assert booking["start"] == datetime(2999, 1, 4, 8, 30, tzinfo=timezone.utc)


def test_upcoming_lists_earliest_first():
    clinic = Clinic()
    clinic.book("L. Pasteur", "2999-02-01T11:00:00+00:00")
    clinic.book("R. Koch", "2999-01-15T08:00:00-05:00")
    clinic.bookings.append({"patient": "old", "start": datetime(2000, 1, 1, tzinfo=timezone.utc)})
    assert clinic.upcoming() == ["R. Koch", "L. Pasteur"]
