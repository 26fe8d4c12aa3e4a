from datetime import datetime, timezone

from app.clock import billing_day, to_utc
from app.sessions import charge_cents, minutes_parked


def test_offset_is_converted_not_replaced():
    assert to_utc("2024-03-01T10:00:00+02:00") == datetime(2024, 3, 1, 8, 0, tzinfo=timezone.utc)


def test_minutes_between_meters_in_different_offsets():
    assert minutes_parked("2024-03-01T10:00:00+02:00", "2024-03-01T09:30:00+00:00") == 90


def test_evening_session_west_of_utc_bills_next_day():
    assert billing_day("2024-03-01T21:15:00-05:00") == "2024-03-02"


def test_charge_for_session_with_offset_stamps():
    assert charge_cents("2024-07-10T08:00:00+01:00", "2024-07-10T07:40:00+00:00") == 300
