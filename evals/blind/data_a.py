from _fmt import record, query, unified

# ---------------------------------------------------------------------------
# Family: round-half-even
# Built-in round() rounds halves to even (and works on the binary float), so
# x.5 / x.x5 values go down where the domain expects half-up.
# ---------------------------------------------------------------------------

record(
    "r-rhe-gradebook", "gradebook-lite", "round-half-even",
    r"""
==[test session starts]
platform linux -- Python 3.11.4, pytest-7.4.0, pluggy-1.2.0
rootdir: /home/dev/gradebook-lite
configfile: pyproject.toml
collected 14 items

%%tests/test_scales.py ....F..F.. [ 71%]
%%tests/test_export.py .... [100%]

==[FAILURES]
__[test_percent_rounds_half_up]

    def test_percent_rounds_half_up():
        # 169 of 200 points is exactly 84.5 %, which the syllabus rounds up
>       assert percent_score(169, 200) == 85
E       assert 84 == 85
E        +  where 84 = percent_score(169, 200)

tests/test_scales.py:41: AssertionError
__[test_letter_grade_boundary]

    def test_letter_grade_boundary():
        # 88.5 % must land in the B+ band (89-92)
>       assert letter_grade(177, 200) == "B+"
E       AssertionError: assert 'B' == 'B+'
E         - B+
E         + B

tests/test_scales.py:58: AssertionError
==[short test summary info]
FAILED tests/test_scales.py::test_percent_rounds_half_up - assert 84 == 85
FAILED tests/test_scales.py::test_letter_grade_boundary - AssertionError: assert 'B' == 'B+'
==[2 failed, 12 passed in 0.09s]
""",
    "AssertionError",
    ["src/gradebook/scales.py"],
    """percent_score() used the built-in round(), which rounds exact halves to the
    nearest even integer, so 84.5 became 84 and 88.5 became 88 and students fell
    into the lower band. Switched to Decimal arithmetic quantized with
    ROUND_HALF_UP so halves always round up as the syllabus specifies.""",
    "pytest passed with exit code 0 (14 passed)",
    unified("src/gradebook/scales.py", """
from bisect import bisect_right

from .bands import BANDS, LETTERS


def percent_score(points, total):
    \"\"\"Whole-number percentage, rounded half up as in the syllabus.\"\"\"
    return round(points / total * 100)


def letter_grade(points, total):
""", """
from bisect import bisect_right
from decimal import ROUND_HALF_UP, Decimal

from .bands import BANDS, LETTERS


def percent_score(points, total):
    \"\"\"Whole-number percentage, rounded half up as in the syllabus.\"\"\"
    exact = Decimal(points) * 100 / Decimal(total)
    return int(exact.quantize(Decimal("1"), rounding=ROUND_HALF_UP))


def letter_grade(points, total):
""", start=1),
)

record(
    "r-rhe-pixelgrid", "pixelgrid", "round-half-even",
    r"""
==[test session starts]
platform darwin -- Python 3.12.2, pytest-8.1.1, pluggy-1.4.0
rootdir: /Users/mira/src/pixelgrid
configfile: pyproject.toml
plugins: hypothesis-6.98.0
collected 31 items

%%tests/geometry/test_rect.py ........ [ 25%]
%%tests/geometry/test_snap.py .F.F. [ 41%]
%%tests/render/test_raster.py .................. [100%]

==[FAILURES]
__[test_snap_midpoint[12.5-5-15]]

value = 12.5, cell = 5, expected = 15

    @pytest.mark.parametrize(
        "value, cell, expected",
        [(11, 5, 10), (12.5, 5, 15), (13, 5, 15), (22.5, 5, 25), (7.5, 5, 10)],
    )
    def test_snap_midpoint(value, cell, expected):
>       assert snap_to_grid(value, cell) == expected
E       assert 10 == 15
E        +  where 10 = snap_to_grid(12.5, 5)

tests/geometry/test_snap.py:18: AssertionError
__[test_snap_midpoint[22.5-5-25]]

value = 22.5, cell = 5, expected = 25

    @pytest.mark.parametrize(
        "value, cell, expected",
        [(11, 5, 10), (12.5, 5, 15), (13, 5, 15), (22.5, 5, 25), (7.5, 5, 10)],
    )
    def test_snap_midpoint(value, cell, expected):
>       assert snap_to_grid(value, cell) == expected
E       assert 20 == 25
E        +  where 20 = snap_to_grid(22.5, 5)

tests/geometry/test_snap.py:18: AssertionError
==[short test summary info]
FAILED tests/geometry/test_snap.py::test_snap_midpoint[12.5-5-15] - assert 10 == 15
FAILED tests/geometry/test_snap.py::test_snap_midpoint[22.5-5-25] - assert 20 == 25
==[2 failed, 29 passed in 1.42s]
""",
    "AssertionError",
    ["src/pixelgrid/geometry/snap.py"],
    """snap_to_grid() divided by the cell size and called round(), and Python's
    round() uses banker's rounding: 2.5 -> 2 and 4.5 -> 4, so points exactly on a
    midpoint snapped down on every other cell. Replaced it with
    math.floor(value / cell + 0.5) so midpoints consistently snap up.""",
    "pytest passed with exit code 0 (31 passed)",
    unified("src/pixelgrid/geometry/snap.py", """
\"\"\"Grid snapping helpers.\"\"\"

from __future__ import annotations

__all__ = ["snap_to_grid", "snap_point"]


def snap_to_grid(value: float, cell: float) -> float:
    \"\"\"Snap a coordinate to the nearest grid line; midpoints go up.\"\"\"
    return round(value / cell) * cell
""", """
\"\"\"Grid snapping helpers.\"\"\"

from __future__ import annotations

import math

__all__ = ["snap_to_grid", "snap_point"]


def snap_to_grid(value: float, cell: float) -> float:
    \"\"\"Snap a coordinate to the nearest grid line; midpoints go up.\"\"\"
    return math.floor(value / cell + 0.5) * cell
"""),
)

record(
    "r-rhe-tallyho", "tallyho", "round-half-even",
    r"""
F...
======================================================================
FAIL: test_share_rounds_half_up (tests.test_report.ShareFormattingTest.test_share_rounds_half_up)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/srv/ci/tallyho/tests/test_report.py", line 22, in test_share_rounds_half_up
    self.assertEqual(format_share(81, 800), "10.13%")
AssertionError: '10.12%' != '10.13%'
- 10.12%
?     ^
+ 10.13%
?     ^


----------------------------------------------------------------------
Ran 4 tests in 0.002s

FAILED (failures=1)
""",
    "AssertionError",
    ["tallyho/report.py"],
    """format_share() formatted round(votes / total * 100, 2); round() rounds the
    float 10.125 half-to-even, giving 10.12 instead of the 10.13 the electoral
    commission publishes. Now the share is computed with Decimal and quantized to
    0.01 using ROUND_HALF_UP before formatting.""",
    "python -m unittest passed with exit code 0 (Ran 4 tests, OK)",
    unified("tallyho/report.py", """
def format_share(votes, total):
    if total == 0:
        return "0.00%"
    return f"{round(votes / total * 100, 2):.2f}%"
""", """
def format_share(votes, total):
    if total == 0:
        return "0.00%"
    share = (Decimal(votes) * 100 / Decimal(total)).quantize(
        Decimal("0.01"), rounding=ROUND_HALF_UP
    )
    return f"{share}%"
""", start=31),
)

query(
    "q-rhe-sensorhub", "sensorhub", "round-half-even",
    r"""
==[test session starts]
platform linux -- Python 3.12.1, pytest-8.0.2, pluggy-1.4.0
rootdir: /builds/iot/sensorhub
configfile: pytest.ini
plugins: anyio-4.2.0, cov-4.1.0
collected 23 items

%%tests/unit/test_aggregate.py ......F.... [ 47%]
%%tests/unit/test_ingest.py ............ [100%]

==[FAILURES]
__[TestWindowStats.test_mean_is_reported_to_one_decimal]

self = <tests.unit.test_aggregate.TestWindowStats object at 0x7f3a1c2b9d50>
window = Window(sensor='greenhouse-2', readings=[21.0, 21.5, 21.5, 21.0])

    def test_mean_is_reported_to_one_decimal(self, window):
        stats = summarize(window)
>       assert stats.mean == 21.3
E       AssertionError: assert 21.2 == 21.3
E        +  where 21.2 = WindowStats(sensor='greenhouse-2', count=4, mean=21.2, low=21.0, high=21.5).mean

tests/unit/test_aggregate.py:64: AssertionError
==[short test summary info]
FAILED tests/unit/test_aggregate.py::TestWindowStats::test_mean_is_reported_to_one_decimal - AssertionError: assert 21.2 == 21.3
==[1 failed, 22 passed in 0.31s]
""",
    "AssertionError", ["r-rhe-gradebook", "r-rhe-pixelgrid", "r-rhe-tallyho"],
    color=True,
)

query(
    "q-rhe-dosewise", "dosewise", "round-half-even",
    r"""
..F..F..
======================================================================
FAIL: test_paediatric_dose_rounds_to_tenth (test_dosing.DoseCalculatorTest)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/ana/dosewise/test_dosing.py", line 31, in test_paediatric_dose_rounds_to_tenth
    self.assertEqual(calc.volume_ml(weight_kg=15, mg_per_kg=7.5), 2.3)
AssertionError: 2.2 != 2.3

======================================================================
FAIL: test_syringe_label (test_dosing.DoseCalculatorTest)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/ana/dosewise/test_dosing.py", line 47, in test_syringe_label
    self.assertEqual(calc.label(weight_kg=9, mg_per_kg=12.5), "Draw 2.3 mL")
AssertionError: 'Draw 2.2 mL' != 'Draw 2.3 mL'
- Draw 2.2 mL
?       ^
+ Draw 2.3 mL
?       ^


----------------------------------------------------------------------
Ran 8 tests in 0.003s

FAILED (failures=2)
""",
    "AssertionError", ["r-rhe-gradebook", "r-rhe-pixelgrid", "r-rhe-tallyho"],
)

query(
    "q-rhe-thumbnailer", "thumbnailer", "round-half-even",
    r"""
==[test session starts]
platform linux -- Python 3.10.12, pytest-7.2.1, pluggy-1.0.0
rootdir: /work/thumbnailer
collected 12 items

%%tests/test_resize.py .FF......... [100%]

==[FAILURES]
__[test_fit_width_keeps_aspect[200x101-100]]

size = (200, 101), width = 100, expected = (100, 51)

    @pytest.mark.parametrize(
        "size, width, expected",
        [
            ((640, 480), 320, (320, 240)),
            ((200, 101), 100, (100, 51)),
            ((400, 205), 200, (200, 103)),
        ],
        ids=["640x480-320", "200x101-100", "400x205-200"],
    )
    def test_fit_width_keeps_aspect(size, width, expected):
>       assert fit_width(size, width) == expected
E       assert (100, 50) == (100, 51)
E         At index 1 diff: 50 != 51
E         Full diff:
E         - (100, 51)
E         ?         ^
E         + (100, 50)
E         ?         ^

tests/test_resize.py:27: AssertionError
__[test_fit_width_keeps_aspect[400x205-200]]

size = (400, 205), width = 200, expected = (200, 103)

    @pytest.mark.parametrize(
        "size, width, expected",
        [
            ((640, 480), 320, (320, 240)),
            ((200, 101), 100, (100, 51)),
            ((400, 205), 200, (200, 103)),
        ],
        ids=["640x480-320", "200x101-100", "400x205-200"],
    )
    def test_fit_width_keeps_aspect(size, width, expected):
>       assert fit_width(size, width) == expected
E       assert (200, 102) == (200, 103)
E         At index 1 diff: 102 != 103
E         Full diff:
E         - (200, 103)
E         ?          ^
E         + (200, 102)
E         ?          ^

tests/test_resize.py:27: AssertionError
==[short test summary info]
FAILED tests/test_resize.py::test_fit_width_keeps_aspect[200x101-100] - assert (100, 50) == (100, 51)
FAILED tests/test_resize.py::test_fit_width_keeps_aspect[400x205-200] - assert (200, 102) == (200, 103)
==[2 failed, 10 passed in 0.05s]
""",
    "AssertionError", ["r-rhe-gradebook", "r-rhe-pixelgrid", "r-rhe-tallyho"],
)

query(
    "q-rhe-surveykit", "surveykit", "round-half-even",
    r"""
==[test session starts]
platform linux -- Python 3.11.8, pytest-8.0.0, pluggy-1.4.0
rootdir: /home/runner/work/surveykit/surveykit
configfile: pyproject.toml
testpaths: tests
collected 40 items

%%tests/test_histogram.py ..F [  7%]
%%tests/test_io.py ................. [ 50%]
%%tests/test_scoring.py .................... [100%]

==[FAILURES]
__[test_histogram_rounds_respondent_means]

sample_sheet = <surveykit.io.sheet.Sheet 'pilot-wave' rows=3>

    def test_histogram_rounds_respondent_means(sample_sheet):
        # respondent means are 2.5, 2.5 and 3.5 -> bins 3, 3, 4
        counts = score_histogram(sample_sheet, question="q7")
>       assert counts[3] == 2
E       KeyError: 3

tests/test_histogram.py:19: KeyError
==[short test summary info]
FAILED tests/test_histogram.py::test_histogram_rounds_respondent_means - KeyError: 3
==[1 failed, 39 passed in 0.88s]
""",
    "KeyError", ["r-rhe-gradebook", "r-rhe-pixelgrid", "r-rhe-tallyho"],
)

query(
    "q-rhe-nutrilabel", "nutrilabel", "round-half-even",
    r"""
==[test session starts]
platform linux -- Python 3.11.6, pytest-7.4.3, pluggy-1.3.0
rootdir: /app
collected 18 items

%%tests/test_label.py ...FF............. [100%]

==[FAILURES]
__[test_calories_rounding[125-130]]

kcal = 125, shown = 130

    @pytest.mark.parametrize("kcal, shown", [(48, 50), (52, 50), (125, 130), (145, 150), (151, 150)])
    def test_calories_rounding(kcal, shown):
        panel = NutritionPanel(serving_g=40, kcal=kcal, fat_g=3.1, sugar_g=11.0)
>       assert panel.as_label() == {"calories": shown, "fat": "3g", "sugars": "11g"}
E       AssertionError: assert {'calories': 120, 'fat': '3g', 'sugars': '11g'} == {'calories': 130, 'fat': '3g', 'sugars': '11g'}
E         Common items:
E         {'fat': '3g', 'sugars': '11g'}
E         Differing items:
E         {'calories': 120} != {'calories': 130}
E         Use -v to get more diff

tests/test_label.py:22: AssertionError
__[test_calories_rounding[145-150]]

kcal = 145, shown = 150

    @pytest.mark.parametrize("kcal, shown", [(48, 50), (52, 50), (125, 130), (145, 150), (151, 150)])
    def test_calories_rounding(kcal, shown):
        panel = NutritionPanel(serving_g=40, kcal=kcal, fat_g=3.1, sugar_g=11.0)
>       assert panel.as_label() == {"calories": shown, "fat": "3g", "sugars": "11g"}
E       AssertionError: assert {'calories': 140, 'fat': '3g', 'sugars': '11g'} == {'calories': 150, 'fat': '3g', 'sugars': '11g'}
E         Common items:
E         {'fat': '3g', 'sugars': '11g'}
E         Differing items:
E         {'calories': 140} != {'calories': 150}
E         Use -v to get more diff

tests/test_label.py:22: AssertionError
==[short test summary info]
!!FAILED tests/test_label.py::test_calories_rounding[125-130] - AssertionError: assert {'calories': 120, 'fat': '3g', 'sugars': '11g'} == {'calories': 130, 'fat': '3g', 'sugars': '11g'}
!!FAILED tests/test_label.py::test_calories_rounding[145-150] - AssertionError: assert {'calories': 140, 'fat': '3g', 'sugars': '11g'} == {'calories': 150, 'fat': '3g', 'sugars': '11g'}
==[2 failed, 16 passed in 0.07s]
""",
    "AssertionError", ["r-rhe-gradebook", "r-rhe-pixelgrid", "r-rhe-tallyho"],
)

# ---------------------------------------------------------------------------
# Family: dst-wallclock-arithmetic
# Arithmetic / subtraction on aware datetimes in a DST zone is done on wall
# clock time (same tzinfo => naive maths, pytz without normalize), so
# durations and "+N hours" are off by an hour across a DST transition.
# ---------------------------------------------------------------------------

record(
    "r-dst-shiftplanner", "shiftplanner", "dst-wallclock-arithmetic",
    r"""
==[test session starts]
platform linux -- Python 3.11.7, pytest-7.4.4, pluggy-1.3.0
rootdir: /home/ci/shiftplanner
configfile: setup.cfg
plugins: django-4.7.0
collected 52 items

%%tests/test_hours.py .......F.. [ 19%]
%%tests/test_rota.py .......................................... [100%]

==[FAILURES]
__[test_night_shift_over_spring_forward]

    def test_night_shift_over_spring_forward():
        tz = ZoneInfo("Europe/Berlin")
        start = datetime(2025, 3, 29, 22, 0, tzinfo=tz)
        end = datetime(2025, 3, 30, 6, 0, tzinfo=tz)
>       assert shift_hours(start, end) == 7
E       AssertionError: assert 8.0 == 7
E        +  where 8.0 = shift_hours(datetime.datetime(2025, 3, 29, 22, 0, tzinfo=zoneinfo.ZoneInfo(key='Europe/Berlin')), datetime.datetime(2025, 3, 30, 6, 0, tzinfo=zoneinfo.ZoneInfo(key='Europe/Berlin')))

tests/test_hours.py:88: AssertionError
==[short test summary info]
FAILED tests/test_hours.py::test_night_shift_over_spring_forward - AssertionError: assert 8.0 == 7
==[1 failed, 51 passed in 2.17s]
""",
    "AssertionError",
    ["src/shiftplanner/hours.py"],
    """shift_hours() subtracted two aware datetimes that share the same ZoneInfo
    object; Python then ignores the UTC offsets and subtracts wall-clock times, so
    the night of the spring-forward change was paid as 8 hours instead of 7.
    Both ends are now converted to UTC before subtracting.""",
    "pytest passed with exit code 0 (52 passed)",
    unified("src/shiftplanner/hours.py", """
from datetime import datetime


def shift_hours(start: datetime, end: datetime) -> float:
    \"\"\"Paid hours between two aware datetimes in the site's zone.\"\"\"
    return (end - start).total_seconds() / 3600
""", """
from datetime import datetime, timezone


def shift_hours(start: datetime, end: datetime) -> float:
    \"\"\"Paid hours between two aware datetimes in the site's zone.\"\"\"
    elapsed = end.astimezone(timezone.utc) - start.astimezone(timezone.utc)
    return elapsed.total_seconds() / 3600
"""),
)

record(
    "r-dst-cronlite", "cronlite", "dst-wallclock-arithmetic",
    r"""
==[test session starts]
platform linux -- Python 3.9.18, pytest-7.1.3, pluggy-1.0.0
rootdir: /src/cronlite
collected 27 items

%%tests/test_parse.py ............ [ 44%]
%%tests/test_schedule.py ......F........ [100%]

==[FAILURES]
__[TestInterval.test_hourly_job_across_dst_start]

self = <test_schedule.TestInterval object at 0x7f0b4c1e2a90>

    def test_hourly_job_across_dst_start(self):
        paris = pytz.timezone("Europe/Paris")
        last = datetime(2024, 3, 31, 1, 30)
        nxt = next_fire(last, timedelta(hours=1), paris)
>       assert nxt.isoformat() == "2024-03-31T03:30:00+02:00"
E       AssertionError: assert '2024-03-31T02:30:00+01:00' == '2024-03-31T03:30:00+02:00'
E         - 2024-03-31T03:30:00+02:00
E         ?             ^         ^
E         + 2024-03-31T02:30:00+01:00
E         ?             ^         ^

tests/test_schedule.py:71: AssertionError
==[short test summary info]
FAILED tests/test_schedule.py::TestInterval::test_hourly_job_across_dst_start - AssertionError: assert '2024-03-31T02:30:00+01:00' == '2024-03-31T03:30:00+02:00'
==[1 failed, 26 passed in 0.12s]
""",
    "AssertionError",
    ["cronlite/schedule.py"],
    """next_fire() localized the last run with pytz and added the interval directly.
    pytz keeps the old fixed offset after timedelta arithmetic, so the result was
    the non-existent 02:30+01:00 instead of 03:30+02:00. The interval is now added
    in UTC and the result converted back to the job's zone.""",
    "pytest passed with exit code 0 (27 passed)",
    unified("cronlite/schedule.py", """
def next_fire(last, every, tz):
    \"\"\"Return the next fire time for an interval job, aware in *tz*.\"\"\"
    local = tz.localize(last) if last.tzinfo is None else last
    return local + every
""", """
def next_fire(last, every, tz):
    \"\"\"Return the next fire time for an interval job, aware in *tz*.\"\"\"
    local = tz.localize(last) if last.tzinfo is None else last
    return (local.astimezone(pytz.utc) + every).astimezone(tz)
""", start=42),
)

record(
    "r-dst-meterread", "meterread", "dst-wallclock-arithmetic",
    r"""
==[test session starts]
platform linux -- Python 3.12.3, pytest-8.2.0, pluggy-1.5.0
rootdir: /opt/build/meterread
configfile: pyproject.toml
collected 19 items

%%tests/test_buckets.py .FF.. [ 26%]
%%tests/test_readings.py .............. [100%]

==[FAILURES]
__[test_fall_back_day_has_25_buckets]

    def test_fall_back_day_has_25_buckets():
        buckets = hourly_buckets(date(2024, 10, 27), ZoneInfo("Europe/Amsterdam"))
>       assert len(buckets) == 25
E       AssertionError: assert 24 == 25
E        +  where 24 = len([datetime.datetime(2024, 10, 27, 0, 0, tzinfo=zoneinfo.ZoneInfo(key='Europe/Amsterdam')), datetime.datetime(2024, 10, 27, 1, 0, tzinfo=zoneinfo.ZoneInfo(key='Europe/Amsterdam')), ...])

tests/test_buckets.py:21: AssertionError
__[test_spring_forward_day_has_23_buckets]

    def test_spring_forward_day_has_23_buckets():
        buckets = hourly_buckets(date(2024, 3, 31), ZoneInfo("Europe/Amsterdam"))
>       assert len(buckets) == 23
E       AssertionError: assert 24 == 23
E        +  where 24 = len([datetime.datetime(2024, 3, 31, 0, 0, tzinfo=zoneinfo.ZoneInfo(key='Europe/Amsterdam')), datetime.datetime(2024, 3, 31, 1, 0, tzinfo=zoneinfo.ZoneInfo(key='Europe/Amsterdam')), ...])

tests/test_buckets.py:27: AssertionError
==[short test summary info]
FAILED tests/test_buckets.py::test_fall_back_day_has_25_buckets - AssertionError: assert 24 == 25
FAILED tests/test_buckets.py::test_spring_forward_day_has_23_buckets - AssertionError: assert 24 == 23
==[2 failed, 17 passed in 0.40s]
""",
    "AssertionError",
    ["src/meterread/buckets.py"],
    """hourly_buckets() stepped a zone-aware datetime forward with timedelta(hours=1)
    and compared it against local midnight; with a shared ZoneInfo both operations
    are wall-clock arithmetic, so every day produced 24 buckets even on DST change
    days (23/25 real hours). The loop now runs in UTC between the two local
    midnights and converts each bucket start back to the local zone.""",
    "pytest passed with exit code 0 (19 passed)",
    unified("src/meterread/buckets.py", """
def hourly_buckets(day: date, tz: ZoneInfo) -> list[datetime]:
    start = datetime.combine(day, time(0), tzinfo=tz)
    end = start + timedelta(days=1)
    out = []
    cur = start
    while cur < end:
        out.append(cur)
        cur += timedelta(hours=1)
    return out
""", """
def hourly_buckets(day: date, tz: ZoneInfo) -> list[datetime]:
    start = datetime.combine(day, time(0), tzinfo=tz).astimezone(timezone.utc)
    end = datetime.combine(day + timedelta(days=1), time(0), tzinfo=tz).astimezone(timezone.utc)
    out = []
    cur = start
    while cur < end:
        out.append(cur.astimezone(tz))
        cur += timedelta(hours=1)
    return out
""", start=14),
)

DST = ["r-dst-shiftplanner", "r-dst-cronlite", "r-dst-meterread"]

query(
    "q-dst-parkmeter", "parkmeter", "dst-wallclock-arithmetic",
    r"""
==[test session starts]
platform linux -- Python 3.11.9, pytest-8.2.2, pluggy-1.5.0
rootdir: /home/runner/work/parkmeter/parkmeter
configfile: pyproject.toml
plugins: freezegun-0.4.2
collected 33 items

%%tests/billing/test_tariff.py ....F...... [ 33%]
%%tests/billing/test_receipts.py ...................... [100%]

==[FAILURES]
__[test_session_spanning_clock_change_is_charged_real_time]

zone = 'Europe/London'

    def test_session_spanning_clock_change_is_charged_real_time(zone):
        tz = ZoneInfo(zone)
        session = ParkingSession(
            bay="B-114",
            entered=datetime(2024, 10, 27, 0, 30, tzinfo=tz),
            left=datetime(2024, 10, 27, 3, 30, tzinfo=tz),
        )
>       assert charge_for(session, HOURLY_TARIFF) == Decimal("8.00")
E       AssertionError: assert Decimal('6.00') == Decimal('8.00')
E        +  where Decimal('6.00') = charge_for(ParkingSession(bay='B-114', entered=datetime.datetime(2024, 10, 27, 0, 30, tzinfo=zoneinfo.ZoneInfo(key='Europe/London')), left=datetime.datetime(2024, 10, 27, 3, 30, tzinfo=zoneinfo.ZoneInfo(key='Europe/London'))), Tariff(per_hour=Decimal('2.00'), cap=Decimal('20.00')))
E        +  and   Decimal('8.00') = Decimal('8.00')

tests/billing/test_tariff.py:77: AssertionError
==[short test summary info]
FAILED tests/billing/test_tariff.py::test_session_spanning_clock_change_is_charged_real_time - AssertionError: assert Decimal('6.00') == Decimal('8.00')
==[1 failed, 32 passed in 0.53s]
""",
    "AssertionError", DST,
)

query(
    "q-dst-remindme", "remindme", "dst-wallclock-arithmetic",
    r"""
.....F....
======================================================================
FAIL: test_in_24_hours_crosses_dst (tests.test_parse.RelativeReminderTests.test_in_24_hours_crosses_dst)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/sam/code/remindme/tests/test_parse.py", line 58, in test_in_24_hours_crosses_dst
    self.assertEqual(reminder.fire_at, expected)
AssertionError: datetime.datetime(2025, 3, 9, 12, 0, tzinfo=zoneinfo.ZoneInfo(key='America/New_York')) != datetime.datetime(2025, 3, 9, 13, 0, tzinfo=zoneinfo.ZoneInfo(key='America/New_York'))

----------------------------------------------------------------------
Ran 10 tests in 0.011s

FAILED (failures=1)
""",
    "AssertionError", DST,
)

query(
    "q-dst-sleeplog", "sleeplog", "dst-wallclock-arithmetic",
    r"""
==[test session starts]
platform linux -- Python 3.12.0, pytest-7.4.3, pluggy-1.3.0
rootdir: /home/lee/projects/sleeplog
collected 15 items

%%tests/test_sessions.py ...F...F....... [100%]

==[FAILURES]
__[test_duration_over_fall_back]

    def test_duration_over_fall_back():
        chi = ZoneInfo("America/Chicago")
        s = SleepSession.from_clock(
            went_to_bed=datetime(2024, 11, 2, 23, 0, tzinfo=chi),
            woke_up=datetime(2024, 11, 3, 7, 0, tzinfo=chi),
        )
>       assert s.duration == timedelta(hours=9)
E       AssertionError: assert datetime.timedelta(seconds=28800) == datetime.timedelta(seconds=32400)
E        +  where datetime.timedelta(seconds=28800) = SleepSession(went_to_bed=datetime.datetime(2024, 11, 2, 23, 0, tzinfo=zoneinfo.ZoneInfo(key='America/Chicago')), woke_up=datetime.datetime(2024, 11, 3, 7, 0, tzinfo=zoneinfo.ZoneInfo(key='America/Chicago'))).duration
E        +  and   datetime.timedelta(seconds=32400) = timedelta(hours=9)

tests/test_sessions.py:44: AssertionError
__[test_weekly_average_includes_dst_night]

week = [SleepSession(went_to_bed=datetime.datetime(2024, 10, 28, 23, 15, tzinfo=zoneinfo.ZoneInfo(key='America/Chicago')), ...]

    def test_weekly_average_includes_dst_night(week):
>       assert weekly_average(week) == timedelta(hours=7, minutes=40)
E       AssertionError: assert datetime.timedelta(seconds=27257, microseconds=142857) == datetime.timedelta(seconds=27600)
E        +  where datetime.timedelta(seconds=27257, microseconds=142857) = weekly_average([SleepSession(went_to_bed=datetime.datetime(2024, 10, 28, 23, 15, tzinfo=zoneinfo.ZoneInfo(key='America/Chicago')), ...])
E        +  and   datetime.timedelta(seconds=27600) = timedelta(hours=7, minutes=40)

tests/test_sessions.py:61: AssertionError
==[short test summary info]
FAILED tests/test_sessions.py::test_duration_over_fall_back - AssertionError: assert datetime.timedelta(seconds=28800) == datetime.timedelta(seconds=32400)
FAILED tests/test_sessions.py::test_weekly_average_includes_dst_night - AssertionError: assert datetime.timedelta(seconds=27257, microseconds=142857) == datetime.timedelta(seconds=27600)
==[2 failed, 13 passed in 0.06s]
""",
    "AssertionError", DST, color=True,
)

query(
    "q-dst-tariff-engine", "tariff-engine", "dst-wallclock-arithmetic",
    r"""
==[test session starts]
platform linux -- Python 3.11.5, pytest-7.4.2, pluggy-1.3.0
rootdir: /srv/jenkins/workspace/tariff-engine
configfile: tox.ini
collected 61 items

%%tests/test_dayahead.py ......E.............. [ 34%]
%%tests/test_contracts.py ........................................ [100%]

==[ERRORS]
__[ERROR at setup of test_cheapest_window_on_fall_back_day]

dayahead_fixture = {'date': '2024-10-27', 'prices_eur_mwh': [81.2, 79.9, 77.0, 74.3, 73.1, 72.8, ...], 'zone': 'Europe/Amsterdam'}

    @pytest.fixture
    def fall_back_curve(dayahead_fixture):
>       return PriceCurve.from_feed(dayahead_fixture)

tests/test_dayahead.py:33: 
_ _
src/tariff_engine/dayahead.py:61: in from_feed
    slots = price_slots(day, tz, payload["prices_eur_mwh"])
_ _

day = datetime.date(2024, 10, 27), tz = zoneinfo.ZoneInfo(key='Europe/Amsterdam')
prices = [81.2, 79.9, 77.0, 74.3, 73.1, 72.8, ...]

    def price_slots(day, tz, prices):
>       return [Slot(start=s, price=p) for s, p in zip(slot_starts(day, tz), prices, strict=True)]
E       ValueError: zip() argument 2 is longer than argument 1

src/tariff_engine/dayahead.py:48: ValueError
==[short test summary info]
ERROR tests/test_dayahead.py::test_cheapest_window_on_fall_back_day - ValueError: zip() argument 2 is longer than argument 1
==[60 passed, 1 error in 1.03s]
""",
    "ValueError", DST,
)

query(
    "q-dst-bookings-api", "bookings-api", "dst-wallclock-arithmetic",
    r"""
==[test session starts]
platform linux -- Python 3.10.13, pytest-7.4.0, pluggy-1.2.0
django: version: 4.2.7, settings: bookings.settings.test (from ini)
rootdir: /code
configfile: pytest.ini
plugins: django-4.5.2
collected 88 items

%%reservations/tests/test_api.py .........F......................... [ 39%]
%%reservations/tests/test_models.py ....................................... [ 84%]
%%.............. [100%]

==[FAILURES]
__[test_three_hour_slot_ends_after_fall_back]

api_client = <rest_framework.test.APIClient object at 0x7fd1b2a4c6d0>
room = <Room: Boardroom (Chicago HQ)>

    @pytest.mark.django_db
    def test_three_hour_slot_ends_after_fall_back(api_client, room):
        resp = api_client.post(
            "/api/reservations/",
            {"room": room.pk, "starts_at": "2024-11-03T00:30:00", "hours": 3},
            format="json",
        )
        body = resp.json()
>       assert body["ends_at"] == "2024-11-03T02:30:00-06:00"
E       AssertionError: assert '2024-11-03T03:30:00-05:00' == '2024-11-03T02:30:00-06:00'
E         - 2024-11-03T02:30:00-06:00
E         ?             ^         ^
E         + 2024-11-03T03:30:00-05:00
E         ?             ^         ^

reservations/tests/test_api.py:142: AssertionError
==[short test summary info]
FAILED reservations/tests/test_api.py::test_three_hour_slot_ends_after_fall_back - AssertionError: assert '2024-11-03T03:30:00-05:00' == '2024-11-03T02:30:00-06:00'
==[1 failed, 87 passed in 6.71s]
""",
    "AssertionError", DST,
)

# ---------------------------------------------------------------------------
# Family: regex-greedy-quantifier
# A greedy .* / .+ inside delimiters swallows everything up to the LAST
# closing delimiter when a line contains several matches.
# ---------------------------------------------------------------------------

record(
    "r-rgx-mdlinkcheck", "mdlinkcheck", "regex-greedy-quantifier",
    r"""
==[test session starts]
platform linux -- Python 3.11.2, pytest-7.3.1, pluggy-1.0.0
rootdir: /home/build/mdlinkcheck
collected 21 items

%%tests/test_extract.py ..F...... [ 42%]
%%tests/test_http.py ............ [100%]

==[FAILURES]
__[test_two_links_on_one_line]

    def test_two_links_on_one_line():
        line = "See [docs](https://a.io/docs) and [faq](https://a.io/faq)."
>       assert extract_links(line) == [
            ("docs", "https://a.io/docs"),
            ("faq", "https://a.io/faq"),
        ]
E       AssertionError: assert [('docs](https://a.io/docs) and [faq', 'https://a.io/faq')] == [('docs', 'https://a.io/docs'), ('faq', 'https://a.io/faq')]
E         At index 0 diff: ('docs](https://a.io/docs) and [faq', 'https://a.io/faq') != ('docs', 'https://a.io/docs')
E         Right contains one more item: ('faq', 'https://a.io/faq')
E         Use -v to get more diff

tests/test_extract.py:19: AssertionError
==[short test summary info]
FAILED tests/test_extract.py::test_two_links_on_one_line - AssertionError: assert [('docs](https://a.io/docs) and [faq', 'https://a.io/faq')] == [('docs', 'https://a.io/docs'), ('faq', 'https://a.io/faq')]
==[1 failed, 20 passed in 0.33s]
""",
    "AssertionError",
    ["src/mdlinkcheck/extract.py"],
    """LINK_RE used greedy (.*) groups for the link text and target, so on a line with
    two Markdown links the first group ran to the last ']' and the two links were
    merged into one bogus match. The groups now use negated character classes
    ([^\\]]* and [^)\\s]*) so each match stops at its own closing bracket.""",
    "pytest passed with exit code 0 (21 passed)",
    unified("src/mdlinkcheck/extract.py", r"""
import re

LINK_RE = re.compile(r"\[(.*)\]\((.*)\)")


def extract_links(line):
    return LINK_RE.findall(line)
""", r"""
import re

LINK_RE = re.compile(r"\[([^\]]*)\]\(([^)\s]*)\)")


def extract_links(line):
    return LINK_RE.findall(line)
"""),
)

record(
    "r-rgx-logsieve", "logsieve", "regex-greedy-quantifier",
    r"""
==[test session starts]
platform linux -- Python 3.12.4, pytest-8.2.2, pluggy-1.5.0
rootdir: /home/nina/src/logsieve
configfile: pyproject.toml
collected 44 items

%%tests/parsers/test_logfmt.py ....F.F........ [ 34%]
%%tests/test_cli.py ............................. [100%]

==[FAILURES]
__[test_parses_quoted_values]

    def test_parses_quoted_values():
        line = 'ts=1718000000 level="warn" msg="disk almost full" host="db-2"'
>       assert parse_logfmt(line) == {
            "ts": "1718000000",
            "level": "warn",
            "msg": "disk almost full",
            "host": "db-2",
        }
E       AssertionError: assert {'level': 'warn" msg="disk almost full" host="db-2', 'ts': '1718000000'} == {'host': 'db-2', 'level': 'warn', 'msg': 'disk almost full', 'ts': '1718000000'}
E         Omitting 1 identical items, use -vv to show
E         Differing items:
E         {'level': 'warn" msg="disk almost full" host="db-2'} != {'level': 'warn'}
E         Right contains 2 more items:
E         {'host': 'db-2', 'msg': 'disk almost full'}
E         Use -v to get more diff

tests/parsers/test_logfmt.py:27: AssertionError
__[test_level_filter]

sample = PosixPath('/home/runner/work/logsieve/logsieve/tests/data/app.log')

    def test_level_filter(sample):
        hits = list(filter_lines(sample.open(), level="error"))
>       assert len(hits) == 3
E       assert 0 == 3
E        +  where 0 = len([])

tests/parsers/test_logfmt.py:41: AssertionError
==[short test summary info]
!!FAILED tests/parsers/test_logfmt.py::test_parses_quoted_values - AssertionError: assert {'level': 'warn" msg="disk almost full" host="db-2', 'ts': '17...
FAILED tests/parsers/test_logfmt.py::test_level_filter - assert 0 == 3
==[2 failed, 42 passed in 0.61s]
""",
    "AssertionError",
    ["src/logsieve/parsers/logfmt.py"],
    """The logfmt pair pattern captured quoted values with "(.*)", which is greedy and
    ran to the last double quote on the line, so everything after the first quoted
    key became one value and later keys (including level=) were lost. Changed the
    value group to "([^"]*)" so each quoted value ends at its own closing quote.""",
    "pytest passed with exit code 0 (44 passed)",
    unified("src/logsieve/parsers/logfmt.py", r"""
PAIR_RE = re.compile(r'(\w+)=(?:"(.*)"|(\S+))')


def parse_logfmt(line: str) -> dict[str, str]:
""", r"""
PAIR_RE = re.compile(r'(\w+)=(?:"([^"]*)"|(\S+))')


def parse_logfmt(line: str) -> dict[str, str]:
""", start=9),
)

record(
    "r-rgx-templar", "templar", "regex-greedy-quantifier",
    r"""
==[test session starts]
platform win32 -- Python 3.11.9, pytest-8.1.1, pluggy-1.4.0
rootdir: C:\Users\builder\templar
collected 16 items

%%tests\test_render.py ...F............ [100%]

==[FAILURES]
__[test_two_placeholders_same_line]

    def test_two_placeholders_same_line():
        tpl = Template("Dear {{ first }} {{ last }},")
>       assert tpl.render({"first": "Ada", "last": "Lovelace"}) == "Dear Ada Lovelace,"

tests\test_render.py:34: 
_ _
src\templar\template.py:52: in render
    return PLACEHOLDER.sub(lambda m: self._lookup(m, context), self.source)
_ _

self = <Template 'Dear {{ first }} {{ last }},'>
m = <re.Match object; span=(5, 27), match='{{ first }} {{ last }}'>
context = {'first': 'Ada', 'last': 'Lovelace'}

    def _lookup(self, m, context):
        name = m.group(1).strip()
>       return str(context[name])
E       KeyError: 'first }} {{ last'

src\templar\template.py:58: KeyError
==[short test summary info]
FAILED tests/test_render.py::test_two_placeholders_same_line - KeyError: 'first }} {{ last'
==[1 failed, 15 passed in 0.21s]
""",
    "KeyError",
    ["src/templar/template.py"],
    """PLACEHOLDER was compiled as {{(.+)}} and the greedy .+ matched from the first
    '{{' to the last '}}' on the line, so two placeholders were read as one name
    'first }} {{ last' and the context lookup raised KeyError. Made the quantifier
    lazy ({{\\s*(.+?)\\s*}}) so each placeholder is matched separately.""",
    "pytest passed with exit code 0 (16 passed)",
    unified("src/templar/template.py", r"""
PLACEHOLDER = re.compile(r"{{(.+)}}")
""", r"""
PLACEHOLDER = re.compile(r"{{\s*(.+?)\s*}}")
""", start=12),
)

RGX = ["r-rgx-mdlinkcheck", "r-rgx-logsieve", "r-rgx-templar"]

query(
    "q-rgx-htmlstrip", "htmlstrip", "regex-greedy-quantifier",
    r"""
==[test session starts]
platform linux -- Python 3.10.12, pytest-7.4.4, pluggy-1.3.0
rootdir: /home/dev/htmlstrip
collected 9 items

%%tests/test_strip.py .F.F..... [100%]

==[FAILURES]
__[test_strip_nested_tags]

    def test_strip_nested_tags():
>       assert strip_tags("<p>Hello <b>world</b></p>") == "Hello world"
E       AssertionError: assert '' == 'Hello world'
E         - Hello world
E        +  where '' = strip_tags('<p>Hello <b>world</b></p>')

tests/test_strip.py:9: AssertionError
__[test_strip_keeps_text_between_paragraphs]

    def test_strip_keeps_text_between_paragraphs():
        html = "<p>one</p>\n<p>two</p>"
>       assert strip_tags(html).split() == ["one", "two"]
E       AssertionError: assert [] == ['one', 'two']
E         Right contains 2 more items, first extra item: 'one'
E         Full diff:
E         - ['one', 'two']
E         + []

tests/test_strip.py:20: AssertionError
==[short test summary info]
FAILED tests/test_strip.py::test_strip_nested_tags - AssertionError: assert '' == 'Hello world'
FAILED tests/test_strip.py::test_strip_keeps_text_between_paragraphs - AssertionError: assert [] == ['one', 'two']
==[2 failed, 7 passed in 0.02s]
""",
    "AssertionError", RGX,
)

query(
    "q-rgx-sqlsplit", "sqlsplit", "regex-greedy-quantifier",
    r"""
==[test session starts]
platform linux -- Python 3.12.2, pytest-8.0.1, pluggy-1.4.0
rootdir: /workspace/sqlsplit
configfile: pyproject.toml
collected 26 items

%%tests/test_split.py ...........F.............. [100%]

==[FAILURES]
__[test_block_comments_between_statements]

    def test_block_comments_between_statements():
        script = textwrap.dedent(
            '''
            /* seed users */
            INSERT INTO users VALUES (1, 'ann');
            /* seed roles */
            INSERT INTO roles VALUES (1, 'admin');
            SELECT 3;
            '''
        )
        stmts = split_statements(script)
>       assert len(stmts) == 3
E       assert 1 == 3
E        +  where 1 = len(['SELECT 3;'])

tests/test_split.py:118: AssertionError
==[short test summary info]
FAILED tests/test_split.py::test_block_comments_between_statements - assert 1 == 3
==[1 failed, 25 passed in 0.09s]
""",
    "AssertionError", RGX, color=True,
)

query(
    "q-rgx-chatbot-mentions", "chatbot-mentions", "regex-greedy-quantifier",
    r"""
.F.....
======================================================================
FAIL: test_multiple_mentions (tests.test_mentions.MentionParserTest)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/opt/bots/chatbot-mentions/tests/test_mentions.py", line 18, in test_multiple_mentions
    self.assertEqual(find_mentions("ping @alice and @bob"), ["alice", "bob"])
AssertionError: Lists differ: ['alice and @bob'] != ['alice', 'bob']

First differing element 0:
'alice and @bob'
'alice'

Second list contains 1 additional elements.
First extra element 1:
'bob'

- ['alice and @bob']
+ ['alice', 'bob']

----------------------------------------------------------------------
Ran 7 tests in 0.001s

FAILED (failures=1)
""",
    "AssertionError", RGX,
)

query(
    "q-rgx-envsubst", "envsubst-py", "regex-greedy-quantifier",
    r"""
==[test session starts]
platform linux -- Python 3.11.4, pytest-7.4.0, pluggy-1.2.0
rootdir: /home/ops/envsubst-py
collected 13 items

%%tests/test_expand.py ....F........ [100%]

==[FAILURES]
__[test_expand_host_and_port]

monkeypatch = <_pytest.monkeypatch.MonkeyPatch object at 0x7f55e4a3d1d0>

    def test_expand_host_and_port(monkeypatch):
        monkeypatch.setenv("DB_HOST", "db.internal")
        monkeypatch.setenv("DB_PORT", "5432")
>       assert expand("postgres://${DB_HOST}:${DB_PORT}/app") == "postgres://db.internal:5432/app"

tests/test_expand.py:31: 
_ _
src/envsubst/expand.py:22: in expand
    return VAR_RE.sub(_replace, text)
_ _

m = <re.Match object; span=(11, 32), match='${DB_HOST}:${DB_PORT}'>

    def _replace(m):
        name = m.group(1)
>       return os.environ[name]

src/envsubst/expand.py:15: 
_ _

self = environ({'PATH': '/usr/local/bin:/usr/bin:/bin', 'HOME': '/home/ops', 'DB_HOST': 'db.internal', 'DB_PORT': '5432', ...})
key = 'DB_HOST}:${DB_PORT'

    def __getitem__(self, key):
        try:
            value = self._data[self.encodekey(key)]
        except KeyError:
            # raise KeyError with the original key value
>           raise KeyError(key) from None
E           KeyError: 'DB_HOST}:${DB_PORT'

/usr/lib/python3.11/os.py:679: KeyError
==[short test summary info]
FAILED tests/test_expand.py::test_expand_host_and_port - KeyError: 'DB_HOST}:${DB_PORT'
==[1 failed, 12 passed in 0.04s]
""",
    "KeyError", RGX,
)

query(
    "q-rgx-citeparse", "citeparse", "regex-greedy-quantifier",
    r"""
==[test session starts]
platform linux -- Python 3.12.1, pytest-7.4.4, pluggy-1.3.0
rootdir: /home/phd/citeparse
configfile: pyproject.toml
collected 11 items

%%tests/test_refs.py ..FF....... [100%]

==[FAILURES]
__[test_numeric_citations[two-refs]]

text = 'as shown in [3] and later confirmed [7].', expected = [3, 7]

    @pytest.mark.parametrize(
        "text, expected",
        [
            ("see [12].", [12]),
            ("as shown in [3] and later confirmed [7].", [3, 7]),
            ("[1] [2]", [1, 2]),
        ],
        ids=["one-ref", "two-refs", "adjacent"],
    )
    def test_numeric_citations(text, expected):
>       assert cited_numbers(text) == expected

tests/test_refs.py:24: 
_ _
src/citeparse/refs.py:19: in cited_numbers
    return [int(n) for n in CITE_RE.findall(text)]
_ _

.0 = <list_iterator object at 0x7f8e1d2c3a60>

>   return [int(n) for n in CITE_RE.findall(text)]
E   ValueError: invalid literal for int() with base 10: '3] and later confirmed [7'

src/citeparse/refs.py:19: ValueError
__[test_numeric_citations[adjacent]]

text = '[1] [2]', expected = [1, 2]

    @pytest.mark.parametrize(
        "text, expected",
        [
            ("see [12].", [12]),
            ("as shown in [3] and later confirmed [7].", [3, 7]),
            ("[1] [2]", [1, 2]),
        ],
        ids=["one-ref", "two-refs", "adjacent"],
    )
    def test_numeric_citations(text, expected):
>       assert cited_numbers(text) == expected

tests/test_refs.py:24: 
_ _
src/citeparse/refs.py:19: in cited_numbers
    return [int(n) for n in CITE_RE.findall(text)]
_ _

.0 = <list_iterator object at 0x7f8e1d2c3f10>

>   return [int(n) for n in CITE_RE.findall(text)]
E   ValueError: invalid literal for int() with base 10: '1] [2'

src/citeparse/refs.py:19: ValueError
==[short test summary info]
FAILED tests/test_refs.py::test_numeric_citations[two-refs] - ValueError: invalid literal for int() with base 10: '3] and later confirmed [7'
FAILED tests/test_refs.py::test_numeric_citations[adjacent] - ValueError: invalid literal for int() with base 10: '1] [2'
==[2 failed, 9 passed in 0.03s]
""",
    "ValueError", RGX, color=True,
)

# ---------------------------------------------------------------------------
# Family: path-join-absolute
# os.path.join / pathlib "/" with a user-supplied component that starts with
# "/" discards the base directory.
# ---------------------------------------------------------------------------

record(
    "r-pja-staticserve", "staticserve", "path-join-absolute",
    r"""
==[test session starts]
platform linux -- Python 3.11.6, pytest-7.4.3, pluggy-1.3.0
rootdir: /home/ci/staticserve
plugins: asyncio-0.21.1
asyncio: mode=strict
collected 17 items

%%tests/test_handler.py ..F.............. [100%]

==[FAILURES]
__[test_serves_file_from_root]

app_root = PosixPath('/tmp/pytest-of-ci/pytest-12/test_serves_file_from_root0/public')

    def test_serves_file_from_root(app_root):
        (app_root / "css").mkdir()
        (app_root / "css" / "site.css").write_text("body{}")
        handler = StaticHandler(root=str(app_root))
>       resp = handler.get("/css/site.css")

tests/test_handler.py:40: 
_ _
src/staticserve/handler.py:33: in get
    with open(self.resolve(url_path), "rb") as fh:
E   FileNotFoundError: [Errno 2] No such file or directory: '/css/site.css'
==[short test summary info]
FAILED tests/test_handler.py::test_serves_file_from_root - FileNotFoundError: [Errno 2] No such file or directory: '/css/site.css'
==[1 failed, 16 passed in 0.18s]
""",
    "FileNotFoundError",
    ["src/staticserve/handler.py"],
    """resolve() built the filesystem path with os.path.join(self.root, url_path), but
    request paths always start with '/', and os.path.join drops every earlier
    component when a later one is absolute, so files were looked up at the
    filesystem root. The URL path is now stripped of leading slashes before joining
    and the result is checked to stay inside the document root.""",
    "pytest passed with exit code 0 (17 passed)",
    unified("src/staticserve/handler.py", """
    def resolve(self, url_path):
        full = os.path.join(self.root, url_path)
        return full
""", """
    def resolve(self, url_path):
        full = os.path.normpath(os.path.join(self.root, url_path.lstrip("/")))
        if os.path.commonpath([full, self.root]) != self.root:
            raise Forbidden(url_path)
        return full
""", start=24, func="class StaticHandler:"),
)

record(
    "r-pja-bucketsync", "bucketsync", "path-join-absolute",
    r"""
==[test session starts]
platform linux -- Python 3.11.8, pytest-8.0.2, pluggy-1.4.0
rootdir: /home/runner/work/bucketsync/bucketsync
configfile: pyproject.toml
plugins: moto-5.0.2
collected 29 items

%%tests/test_mirror.py .......F..... [ 44%]
%%tests/test_listing.py ................ [100%]

==[FAILURES]
__[test_mirror_keys_with_leading_slash]

s3_bucket = 'bs-test-photos', tmp_path = PosixPath('/tmp/pytest-of-runner/pytest-0/test_mirror_keys_with_leading_0')

    def test_mirror_keys_with_leading_slash(s3_bucket, tmp_path):
        put_object(s3_bucket, "/photos/2021/a.jpg", b"\xff\xd8")
        m = Mirror(bucket=s3_bucket, dest=tmp_path)
>       m.sync()

tests/test_mirror.py:96: 
_ _
src/bucketsync/mirror.py:41: in sync
    self._download(obj)
src/bucketsync/mirror.py:57: in _download
    target.parent.mkdir(parents=True, exist_ok=True)
/opt/hostedtoolcache/Python/3.11.8/x64/lib/python3.11/pathlib.py:1120: in mkdir
    self.parent.mkdir(parents=True, exist_ok=True)
_ _

self = PosixPath('/photos'), mode = 511, parents = True, exist_ok = True

    def mkdir(self, mode=0o777, parents=False, exist_ok=False):
        '''
        Create a new directory at this given path.
        '''
        try:
>           os.mkdir(self, mode)
E           PermissionError: [Errno 13] Permission denied: '/photos'

/opt/hostedtoolcache/Python/3.11.8/x64/lib/python3.11/pathlib.py:1116: PermissionError
==[short test summary info]
FAILED tests/test_mirror.py::test_mirror_keys_with_leading_slash - PermissionError: [Errno 13] Permission denied: '/photos'
==[1 failed, 28 passed in 3.95s]
""",
    "PermissionError",
    ["src/bucketsync/mirror.py"],
    """Object keys that begin with '/' were appended with self.dest / obj.key; pathlib
    treats an absolute right-hand operand as a new root and discards dest, so the
    mirror tried to create /photos on the host. Keys are now made relative
    (lstrip('/')) before joining and the resolved target is verified to be inside
    the destination directory.""",
    "pytest passed with exit code 0 (29 passed)",
    unified("src/bucketsync/mirror.py", """
    def _download(self, obj):
        target = self.dest / obj.key
        target.parent.mkdir(parents=True, exist_ok=True)
        self.client.download_file(self.bucket, obj.key, str(target))
""", """
    def _download(self, obj):
        target = (self.dest / obj.key.lstrip("/")).resolve()
        if not target.is_relative_to(self.dest.resolve()):
            raise UnsafeKey(obj.key)
        target.parent.mkdir(parents=True, exist_ok=True)
        self.client.download_file(self.bucket, obj.key, str(target))
""", start=55, func="class Mirror:"),
)

PJA = ["r-pja-staticserve", "r-pja-bucketsync"]

query(
    "q-pja-wikiexport", "wikiexport", "path-join-absolute",
    r"""
==[test session starts]
platform linux -- Python 3.12.3, pytest-8.1.1, pluggy-1.4.0
rootdir: /home/runner/work/wikiexport/wikiexport
collected 24 items

%%tests/test_export.py ..F..................... [100%]

==[FAILURES]
__[test_export_nested_page]

tmp_path = PosixPath('/tmp/pytest-of-runner/pytest-0/test_export_nested_page0')

    def test_export_nested_page(tmp_path):
        site = tmp_path / "site"
        page = Page(slug="/guides/intro", title="Intro", body="# Intro")
>       assert export_page(page, site) == site / "guides" / "intro.md"
E       AssertionError: assert PosixPath('/guides/intro.md') == ((PosixPath('/tmp/pytest-of-runner/pytest-0/test_export_nested_page0/site') / 'guides') / 'intro.md')
E        +  where PosixPath('/guides/intro.md') = export_page(Page(slug='/guides/intro', title='Intro', body='# Intro'), PosixPath('/tmp/pytest-of-runner/pytest-0/test_export_nested_page0/site'))

tests/test_export.py:15: AssertionError
==[short test summary info]
FAILED tests/test_export.py::test_export_nested_page - AssertionError: assert PosixPath('/guides/intro.md') == ((PosixPath('/tmp/pytest-of-runner/pytest-0/test_export_nested_page0/site') / 'guides') / 'intro.md')
==[1 failed, 23 passed in 0.11s]
""",
    "AssertionError", PJA,
)

query(
    "q-pja-plugin-loader", "plugin-loader", "path-join-absolute",
    r"""
==[test session starts]
platform linux -- Python 3.11.7, pytest-7.4.4, pluggy-1.3.0
rootdir: /srv/src/plugin-loader
collected 8 items

%%tests/test_manifest.py ...F.... [100%]

==[FAILURES]
__[TestManifest.test_config_path_is_relative_to_plugin_dir]

self = <tests.test_manifest.TestManifest object at 0x7fb0c0f1d890>
plugin_dir = '/tmp/pytest-of-build/pytest-4/plugins0/acme-export'

    def test_config_path_is_relative_to_plugin_dir(self, plugin_dir):
        loader = PluginLoader(base_dir=plugin_dir)
>       cfg = loader.load_config({"name": "acme-export", "config": "/plugins/enabled.toml"})

tests/test_manifest.py:52: 
_ _

self = <plugin_loader.core.PluginLoader object at 0x7fb0c0f1e150>
manifest = {'config': '/plugins/enabled.toml', 'name': 'acme-export'}

    def load_config(self, manifest):
        cfg_path = os.path.join(self.base_dir, manifest["config"])
>       with open(cfg_path, "rb") as fh:
E       FileNotFoundError: [Errno 2] No such file or directory: '/plugins/enabled.toml'

src/plugin_loader/core.py:77: FileNotFoundError
==[short test summary info]
!!FAILED tests/test_manifest.py::TestManifest::test_config_path_is_relative_to_plugin_dir - FileNotFoundError: [Errno 2] No such file or directory: '/plugins/enabl...
==[1 failed, 7 passed in 0.03s]
""",
    "FileNotFoundError", PJA,
)

query(
    "q-pja-backupctl", "backupctl", "path-join-absolute",
    r"""
..E....
======================================================================
ERROR: test_restore_into_staging (tests.test_restore.RestoreTest.test_restore_into_staging)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/ops/backupctl/tests/test_restore.py", line 44, in test_restore_into_staging
    restore(self.archive, staging=self.staging)
  File "/home/ops/backupctl/backupctl/restore.py", line 63, in restore
    _place(entry, staging)
  File "/home/ops/backupctl/backupctl/restore.py", line 38, in _place
    shutil.copy2(entry.blob_path, dest)
  File "/usr/lib/python3.11/shutil.py", line 436, in copy2
    copyfile(src, dst, follow_symlinks=follow_symlinks)
  File "/usr/lib/python3.11/shutil.py", line 258, in copyfile
    with open(dst, 'wb') as fdst:
         ^^^^^^^^^^^^^^^
PermissionError: [Errno 13] Permission denied: '/etc/nginx/nginx.conf'

----------------------------------------------------------------------
Ran 7 tests in 0.064s

FAILED (errors=1)
""",
    "PermissionError", PJA,
)

query(
    "q-pja-docsite-builder", "docsite-builder", "path-join-absolute",
    r"""
==[test session starts]
platform linux -- Python 3.10.14, pytest-8.2.1, pluggy-1.5.0
rootdir: /builds/docs/docsite-builder
collected 14 items

%%tests/test_routes.py .F.F.......... [100%]

==[FAILURES]
__[test_output_path[leading-slash]]

route = '/about', expected = 'build/about/index.html'

    @pytest.mark.parametrize(
        "route, expected",
        [
            ("about", "build/about/index.html"),
            ("/about", "build/about/index.html"),
            ("blog/2024/", "build/blog/2024/index.html"),
            ("/blog/2024/", "build/blog/2024/index.html"),
        ],
        ids=["plain", "leading-slash", "nested", "nested-leading-slash"],
    )
    def test_output_path(route, expected):
>       assert output_path("build", route) == expected
E       AssertionError: assert '/about/index.html' == 'build/about/index.html'
E         - build/about/index.html
E         ? -----
E         + /about/index.html

tests/test_routes.py:21: AssertionError
__[test_output_path[nested-leading-slash]]

route = '/blog/2024/', expected = 'build/blog/2024/index.html'

    @pytest.mark.parametrize(
        "route, expected",
        [
            ("about", "build/about/index.html"),
            ("/about", "build/about/index.html"),
            ("blog/2024/", "build/blog/2024/index.html"),
            ("/blog/2024/", "build/blog/2024/index.html"),
        ],
        ids=["plain", "leading-slash", "nested", "nested-leading-slash"],
    )
    def test_output_path(route, expected):
>       assert output_path("build", route) == expected
E       AssertionError: assert '/blog/2024/index.html' == 'build/blog/2024/index.html'
E         - build/blog/2024/index.html
E         ? -----
E         + /blog/2024/index.html

tests/test_routes.py:21: AssertionError
==[short test summary info]
FAILED tests/test_routes.py::test_output_path[leading-slash] - AssertionError: assert '/about/index.html' == 'build/about/index.html'
FAILED tests/test_routes.py::test_output_path[nested-leading-slash] - AssertionError: assert '/blog/2024/index.html' == 'build/blog/2024/index.html'
==[2 failed, 12 passed in 0.04s]
""",
    "AssertionError", PJA, color=True,
)
