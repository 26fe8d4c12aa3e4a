from datetime import datetime, timedelta, timezone

from app.maildates import parse_mail_date
from app.sightings import SightingLog


def test_minus_zero_date_is_utc():
    gap = parse_mail_date("Sat, 11 May 2024 06:40:00 +0200") - parse_mail_date("Fri, 10 May 2024 22:40:00 -0000")
    assert gap == timedelta(hours=6)


def test_reports_from_different_mail_clients_sort_latest_first():
    log = SightingLog()
    log.record("Hoopoe", "Fri, 10 May 2024 22:40:00 -0000")
    log.record("Bee-eater", "Sat, 11 May 2024 07:15:00 +0200")
    log.record("Golden oriole", "Sun, 12 May 2024 05:05:00 -0000")
    assert log.latest_first() == ["Golden oriole", "Bee-eater", "Hoopoe"]


def test_reported_since_a_moment():
    log = SightingLog()
    log.record("Wryneck", "Wed, 01 May 2024 05:30:00 -0000")
    log.record("Nightjar", "Wed, 08 May 2024 21:10:00 -0000")
    assert log.reported_since(datetime(2024, 5, 5, tzinfo=timezone.utc)) == ["Nightjar"]


def test_reported_since_a_moment_given_in_another_offset():
    log = SightingLog()
    log.record("Barn owl", "Fri, 10 May 2024 23:30:00 -0000")
    vienna = timezone(timedelta(hours=2))
    assert log.reported_since(datetime(2024, 5, 11, 1, 0, tzinfo=vienna)) == ["Barn owl"]
