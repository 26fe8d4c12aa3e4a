from datetime import datetime, timedelta, timezone

from app.readings import reading_time
from app.summary import is_stale, readings_since, warmest_after

READINGS = [(0, 5.0), (3600, 6.5), (7200, 7.0), (10800, 6.0)]


def test_reading_time_is_after_earlier_utc_instant():
    assert reading_time(3600) > datetime(1970, 1, 1, 0, 30, tzinfo=timezone.utc)


def test_readings_since_cutoff():
    cutoff = datetime(1970, 1, 1, 1, 0, tzinfo=timezone.utc)
    assert readings_since(READINGS, cutoff) == [6.5, 7.0, 6.0]


def test_station_without_recent_reading_is_stale():
    now = datetime(1970, 1, 1, 5, 0, tzinfo=timezone.utc)
    assert is_stale(10800, now, max_age=timedelta(hours=1)) is True


def test_warmest_after_cutoff_in_other_offset():
    cutoff = datetime(1970, 1, 1, 3, 30, tzinfo=timezone(timedelta(hours=2)))
    assert warmest_after(READINGS, cutoff) == 7.0
