"""Distractor records: one stored fix per root cause, no queries of their own.

Each one shares surface features (domain words, error type, function names,
identical error messages) with queries of a different family, but its root
cause is different, so it is never listed as relevant.
"""
from _fmt import record, unified

# shares float/decimal/"assert x.y == x.z" surface with round-half-even queries
record(
    "r-dx-beamcalc", "beamcalc", "float-equality-tolerance",
    r"""
==[test session starts]
platform linux -- Python 3.11.6, pytest-7.4.3, pluggy-1.3.0
rootdir: /home/eng/beamcalc
configfile: pyproject.toml
collected 28 items

%%tests/test_loads.py .........F.................. [100%]

==[FAILURES]
__[test_distribution_factors_three_spans]

    def test_distribution_factors_three_spans():
        beam = ContinuousBeam(spans=[4.0, 6.0, 5.0], stiffness=[0.2, 0.7, 0.1])
>       result = distribute_moment(beam, joint=1, moment_knm=120.0)

tests/test_loads.py:91: 
_ _

beam = ContinuousBeam(spans=[4.0, 6.0, 5.0], stiffness=[0.2, 0.7, 0.1]), joint = 1, moment_knm = 120.0

    def distribute_moment(beam, joint, moment_knm):
        factors = beam.distribution_factors(joint)
        total = sum(factors)
        if total != 1.0:
>           raise ValueError(f"distribution factors must sum to 1.0 (got {total!r})")
E           ValueError: distribution factors must sum to 1.0 (got 0.9999999999999999)

src/beamcalc/loads.py:27: ValueError
==[short test summary info]
FAILED tests/test_loads.py::test_distribution_factors_three_spans - ValueError: distribution factors must sum to 1.0 (got 0.9999999999999999)
==[1 failed, 27 passed in 0.08s]
""",
    "ValueError",
    ["src/beamcalc/loads.py"],
    """distribute_moment() validated the distribution factors with an exact float
    comparison (total != 1.0); factors such as 0.2 + 0.7 + 0.1 sum to
    0.9999999999999999 in binary floating point, so valid beams were rejected. The
    check now uses math.isclose(total, 1.0, abs_tol=1e-9).""",
    "pytest passed with exit code 0 (28 passed)",
    unified("src/beamcalc/loads.py", """
def distribute_moment(beam, joint, moment_knm):
    factors = beam.distribution_factors(joint)
    total = sum(factors)
    if total != 1.0:
        raise ValueError(f"distribution factors must sum to 1.0 (got {total!r})")
""", """
def distribute_moment(beam, joint, moment_knm):
    factors = beam.distribution_factors(joint)
    total = sum(factors)
    if not math.isclose(total, 1.0, abs_tol=1e-9):
        raise ValueError(f"distribution factors must sum to 1.0 (got {total!r})")
""", start=23),
)

# shares datetime/timezone/timestamp surface with dst-wallclock-arithmetic queries
record(
    "r-dx-trackpoint", "trackpoint", "epoch-milliseconds",
    r"""
==[test session starts]
platform linux -- Python 3.12.2, pytest-8.0.2, pluggy-1.4.0
rootdir: /home/runner/work/trackpoint/trackpoint
configfile: pyproject.toml
collected 20 items

%%tests/test_gpx_import.py ...F................ [100%]

==[FAILURES]
__[test_points_have_utc_times]

garmin_json = {'activityId': 9921, 'points': [{'lat': 47.3769, 'lon': 8.5417, 'ts': 1717243200000}, ...]}

    def test_points_have_utc_times(garmin_json):
>       track = Track.from_garmin(garmin_json)

tests/test_gpx_import.py:33: 
_ _
src/trackpoint/importers/garmin.py:21: in from_garmin
    pts = [_point(p) for p in payload["points"]]
_ _

p = {'lat': 47.3769, 'lon': 8.5417, 'ts': 1717243200000}

    def _point(p):
>       at = datetime.fromtimestamp(p["ts"], tz=timezone.utc)
E       ValueError: year 56387 is out of range

src/trackpoint/importers/garmin.py:12: ValueError
==[short test summary info]
FAILED tests/test_gpx_import.py::test_points_have_utc_times - ValueError: year 56387 is out of range
==[1 failed, 19 passed in 0.10s]
""",
    "ValueError",
    ["src/trackpoint/importers/garmin.py"],
    """The Garmin export gives epoch timestamps in milliseconds, but _point() passed the
    value to datetime.fromtimestamp() which expects seconds, producing a date in the
    year 56387. The importer now divides by 1000 before converting.""",
    "pytest passed with exit code 0 (20 passed)",
    unified("src/trackpoint/importers/garmin.py", """
def _point(p):
    at = datetime.fromtimestamp(p["ts"], tz=timezone.utc)
    return TrackPoint(lat=p["lat"], lon=p["lon"], at=at)
""", """
def _point(p):
    at = datetime.fromtimestamp(p["ts"] / 1000, tz=timezone.utc)
    return TrackPoint(lat=p["lat"], lon=p["lon"], at=at)
""", start=11),
)

# shares DST / summer-time / zone surface with dst-wallclock-arithmetic queries
record(
    "r-dx-standupbot", "standup-bot", "fixed-utc-offset",
    r"""
==[test session starts]
platform linux -- Python 3.11.9, pytest-8.2.0, pluggy-1.5.0
rootdir: /home/bot/standup-bot
configfile: pyproject.toml
plugins: freezegun-0.4.2
collected 17 items

%%tests/test_schedule.py ..F.............. [100%]

==[FAILURES]
__[test_summer_standup_posts_at_nine_local]

    @freeze_time("2024-07-15 05:00:00")
    def test_summer_standup_posts_at_nine_local():
        team = Team(name="platform", tz_name="Europe/Berlin", standup=time(9, 0))
>       assert next_post_utc(team) == datetime(2024, 7, 15, 7, 0, tzinfo=timezone.utc)
E       AssertionError: assert datetime.datetime(2024, 7, 15, 8, 0, tzinfo=datetime.timezone.utc) == datetime.datetime(2024, 7, 15, 7, 0, tzinfo=datetime.timezone.utc)
E        +  where datetime.datetime(2024, 7, 15, 8, 0, tzinfo=datetime.timezone.utc) = next_post_utc(Team(name='platform', tz_name='Europe/Berlin', standup=datetime.time(9, 0)))

tests/test_schedule.py:41: AssertionError
==[short test summary info]
FAILED tests/test_schedule.py::test_summer_standup_posts_at_nine_local - AssertionError: assert datetime.datetime(2024, 7, 15, 8, 0, tzinfo=datetime.timezone.utc) == datetime.datetime(2024, 7, 15, 7, 0, tzinfo=datetime.timezone.utc)
==[1 failed, 16 passed in 0.12s]
""",
    "AssertionError",
    ["src/standup_bot/schedule.py"],
    """The team's zone was mapped to a fixed offset from a small table
    (Europe/Berlin -> timezone(timedelta(hours=1))), so in summer, when Berlin is
    UTC+2, stand-ups were posted an hour late. The scheduler now builds the local
    time with zoneinfo.ZoneInfo(team.tz_name) and converts it to UTC.""",
    "pytest passed with exit code 0 (17 passed)",
    unified("src/standup_bot/schedule.py", """
def next_post_utc(team):
    tz = OFFSETS[team.tz_name]
    today = datetime.now(tz).date()
    local = datetime.combine(today, team.standup, tzinfo=tz)
    return local.astimezone(timezone.utc)
""", """
def next_post_utc(team):
    tz = ZoneInfo(team.tz_name)
    today = datetime.now(tz).date()
    local = datetime.combine(today, team.standup, tzinfo=tz)
    return local.astimezone(timezone.utc)
""", start=20),
)

# shares regex + "DID NOT RAISE" surface with regex-greedy / broad-except queries
record(
    "r-dx-slugguard", "slugguard", "regex-missing-anchor",
    r"""
==[test session starts]
platform linux -- Python 3.12.1, pytest-7.4.4, pluggy-1.3.0
rootdir: /home/web/slugguard
collected 15 items

%%tests/test_validate.py ....FF......... [100%]

==[FAILURES]
__[test_rejects_invalid[trailing-junk]]

slug = 'hello-world!!'

    @pytest.mark.parametrize(
        "slug", ["Hello", "hello-world!!", "-x", "a b"], ids=["upper", "trailing-junk", "leading-dash", "space"]
    )
    def test_rejects_invalid(slug):
>       with pytest.raises(InvalidSlug):
E       Failed: DID NOT RAISE <class 'slugguard.errors.InvalidSlug'>

tests/test_validate.py:18: Failed
__[test_rejects_invalid[space]]

slug = 'a b'

    @pytest.mark.parametrize(
        "slug", ["Hello", "hello-world!!", "-x", "a b"], ids=["upper", "trailing-junk", "leading-dash", "space"]
    )
    def test_rejects_invalid(slug):
>       with pytest.raises(InvalidSlug):
E       Failed: DID NOT RAISE <class 'slugguard.errors.InvalidSlug'>

tests/test_validate.py:18: Failed
==[short test summary info]
FAILED tests/test_validate.py::test_rejects_invalid[trailing-junk] - Failed: DID NOT RAISE <class 'slugguard.errors.InvalidSlug'>
FAILED tests/test_validate.py::test_rejects_invalid[space] - Failed: DID NOT RAISE <class 'slugguard.errors.InvalidSlug'>
==[2 failed, 13 passed in 0.02s]
""",
    "Failed",
    ["src/slugguard/validate.py"],
    """validate_slug() used SLUG_RE.match(slug); re.match only anchors at the start of
    the string, so any slug that merely began with valid characters ('hello-world!!',
    'a b') was accepted. Switched to SLUG_RE.fullmatch(slug) so the whole string
    must match.""",
    "pytest passed with exit code 0 (15 passed)",
    unified("src/slugguard/validate.py", r"""
SLUG_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def validate_slug(slug: str) -> str:
    if not SLUG_RE.match(slug):
        raise InvalidSlug(slug)
    return slug
""", r"""
SLUG_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def validate_slug(slug: str) -> str:
    if not SLUG_RE.fullmatch(slug):
        raise InvalidSlug(slug)
    return slug
""", start=5),
)

# shares FileNotFoundError / path building surface with path-join-absolute queries
record(
    "r-dx-fixtureloader", "fixture-loader", "cwd-relative-path",
    r"""
==[test session starts]
platform linux -- Python 3.11.8, pytest-8.0.2, pluggy-1.4.0
rootdir: /home/runner/work/fixture-loader/fixture-loader
configfile: pyproject.toml
collected 11 items

%%tests/test_schema.py F.......... [100%]

==[FAILURES]
__[test_order_schema_loads]

    def test_order_schema_loads():
>       schema = load_schema("order")

tests/test_schema.py:6: 
_ _

name = 'order'

    def load_schema(name):
        path = os.path.join("schemas", f"{name}.json")
>       with open(path, encoding="utf-8") as fh:
E       FileNotFoundError: [Errno 2] No such file or directory: 'schemas/order.json'

src/fixture_loader/schemas.py:14: FileNotFoundError
==[short test summary info]
FAILED tests/test_schema.py::test_order_schema_loads - FileNotFoundError: [Errno 2] No such file or directory: 'schemas/order.json'
==[1 failed, 10 passed in 0.04s]
""",
    "FileNotFoundError",
    ["src/fixture_loader/schemas.py"],
    """load_schema() opened 'schemas/<name>.json' relative to the current working
    directory, which only worked when the process was started from inside the
    package directory; under pytest from the repository root the file was not found.
    Paths are now resolved relative to the module (Path(__file__).parent /
    'schemas').""",
    "pytest passed with exit code 0 (11 passed)",
    unified("src/fixture_loader/schemas.py", """
def load_schema(name):
    path = os.path.join("schemas", f"{name}.json")
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)
""", """
SCHEMA_DIR = Path(__file__).resolve().parent / "schemas"


def load_schema(name):
    path = SCHEMA_DIR / f"{name}.json"
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)
""", start=11),
)

# shares sort / NoneType surface with lexicographic-numeric-sort and broad-except queries
record(
    "r-dx-playlistr", "playlistr", "sort-returns-none",
    r"""
==[test session starts]
platform darwin -- Python 3.12.2, pytest-8.1.1, pluggy-1.4.0
rootdir: /Users/dj/playlistr
collected 19 items

%%tests/test_order.py ..F................ [100%]

==[FAILURES]
__[test_sort_by_track_number]

album = Album(title='Blue Train', tracks=5)

    def test_sort_by_track_number(album):
>       ordered = ordered_tracks(album)

tests/test_order.py:15: 
_ _

album = Album(title='Blue Train', tracks=5)

    def ordered_tracks(album):
        tracks = list(album.tracks)
        tracks = tracks.sort(key=lambda t: t.number)
>       return [t.title for t in tracks]
E       TypeError: 'NoneType' object is not iterable

src/playlistr/order.py:9: TypeError
==[short test summary info]
FAILED tests/test_order.py::test_sort_by_track_number - TypeError: 'NoneType' object is not iterable
==[1 failed, 18 passed in 0.03s]
""",
    "TypeError",
    ["src/playlistr/order.py"],
    """ordered_tracks() assigned the result of list.sort() back to tracks; sort() sorts
    in place and returns None, so the following comprehension iterated over None.
    Replaced it with tracks = sorted(album.tracks, key=...).""",
    "pytest passed with exit code 0 (19 passed)",
    unified("src/playlistr/order.py", """
def ordered_tracks(album):
    tracks = list(album.tracks)
    tracks = tracks.sort(key=lambda t: t.number)
    return [t.title for t in tracks]
""", """
def ordered_tracks(album):
    tracks = sorted(album.tracks, key=lambda t: t.number)
    return [t.title for t in tracks]
""", start=6),
)

# shares closure / nested function / callback surface with late-binding-closure queries
record(
    "r-dx-ratelimiter", "ratelimiter-lite", "missing-nonlocal",
    r"""
==[test session starts]
platform linux -- Python 3.11.7, pytest-7.4.4, pluggy-1.3.0
rootdir: /home/api/ratelimiter-lite
collected 13 items

%%tests/test_decorator.py .F........... [100%]

==[FAILURES]
__[test_limit_per_window]

    def test_limit_per_window():
        @limit(calls=2)
        def ping():
            return "pong"

>       assert ping() == "pong"

tests/test_decorator.py:17: 
_ _

args = (), kwargs = {}

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
>       if used >= calls:
E       UnboundLocalError: cannot access local variable 'used' where it is not associated with a value

src/ratelimiter/decorator.py:12: UnboundLocalError
==[short test summary info]
FAILED tests/test_decorator.py::test_limit_per_window - UnboundLocalError: cannot access local variable 'used' where it is not associated with a value
==[1 failed, 12 passed in 0.02s]
""",
    "UnboundLocalError",
    ["src/ratelimiter/decorator.py"],
    """The wrapper closure incremented the counter with used += 1, which makes used a
    local variable of wrapper, so the earlier read raised UnboundLocalError. Added
    a nonlocal used declaration so the closure updates the enclosing counter.""",
    "pytest passed with exit code 0 (13 passed)",
    unified("src/ratelimiter/decorator.py", """
def limit(calls):
    def decorate(fn):
        used = 0

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            if used >= calls:
                raise RateLimited(fn.__name__)
            used += 1
            return fn(*args, **kwargs)
""", """
def limit(calls):
    def decorate(fn):
        used = 0

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            nonlocal used
            if used >= calls:
                raise RateLimited(fn.__name__)
            used += 1
            return fn(*args, **kwargs)
""", start=5),
)

# shares dict + .items() loop + KeyError surface with mutation-during-iteration / shallow-copy queries
record(
    "r-dx-orderflow", "orderflow", "optional-key-access",
    r"""
...E......
======================================================================
ERROR: test_cart_total_without_discounts (tests.test_cart.CartTotalsTest.test_cart_total_without_discounts)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/srv/orderflow/tests/test_cart.py", line 27, in test_cart_total_without_discounts
    self.assertEqual(cart_total(self.cart), 59)
                     ^^^^^^^^^^^^^^^^^^^^^
  File "/srv/orderflow/orderflow/cart.py", line 19, in cart_total
    price = line["unit"] * line["qty"] - line["discount"]
                                         ~~~~^^^^^^^^^^^^
KeyError: 'discount'

----------------------------------------------------------------------
Ran 10 tests in 0.002s

FAILED (errors=1)
""",
    "KeyError",
    ["orderflow/cart.py"],
    """cart_total() read line["discount"] for every cart line, but the discount key is
    only present on lines that actually have a promotion, so ordinary carts raised
    KeyError. The lookup now uses line.get("discount", 0).""",
    "python -m unittest passed with exit code 0 (Ran 10 tests, OK)",
    unified("orderflow/cart.py", """
    for sku, line in cart.items():
        price = line["unit"] * line["qty"] - line["discount"]
""", """
    for sku, line in cart.items():
        price = line["unit"] * line["qty"] - line.get("discount", 0)
""", start=18),
)

# shares csv / encoding / KeyError surface with csv-naive-split and bytes-str queries
record(
    "r-dx-rosterimport", "roster-import", "utf8-bom-header",
    r"""
==[test session starts]
platform win32 -- Python 3.11.9, pytest-8.2.0, pluggy-1.5.0
rootdir: C:\ci\roster-import
collected 16 items

%%tests\test_excel_export.py .F.............. [100%]

==[FAILURES]
__[test_reads_excel_saved_csv]

excel_csv = WindowsPath('C:/ci/roster-import/tests/data/roster_excel_utf8.csv')

    def test_reads_excel_saved_csv(excel_csv):
>       staff = read_roster(excel_csv)

tests\test_excel_export.py:14: 
_ _
src\roster_import\reader.py:20: in read_roster
    return [Employee(id=row["employee_id"], name=row["name"]) for row in reader]
_ _

.0 = <csv.DictReader object at 0x0000021C7A2B3D90>

>   return [Employee(id=row["employee_id"], name=row["name"]) for row in reader]
E   KeyError: 'employee_id'

src\roster_import\reader.py:20: KeyError
==[short test summary info]
FAILED tests/test_excel_export.py::test_reads_excel_saved_csv - KeyError: 'employee_id'
==[1 failed, 15 passed in 0.09s]
""",
    "KeyError",
    ["src/roster_import/reader.py"],
    """Excel's "CSV UTF-8" format starts the file with a byte-order mark; the file was
    opened with encoding='utf-8', so the first header became '\\ufeffemployee_id' and
    the lookup of 'employee_id' raised KeyError. The file is now opened with
    encoding='utf-8-sig', which strips the BOM.""",
    "pytest passed with exit code 0 (16 passed)",
    unified("src/roster_import/reader.py", """
def read_roster(path):
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        return [Employee(id=row["employee_id"], name=row["name"]) for row in reader]
""", """
def read_roster(path):
    with open(path, encoding="utf-8-sig", newline="") as fh:
        reader = csv.DictReader(fh)
        return [Employee(id=row["employee_id"], name=row["name"]) for row in reader]
""", start=17),
)

# shares number-parsing / "assert 45.0 == 0.45" surface with locale-decimal-separator queries
record(
    "r-dx-kpidash", "kpi-dash", "percent-string-scale",
    r"""
==[test session starts]
platform linux -- Python 3.12.3, pytest-8.2.0, pluggy-1.5.0
rootdir: /home/bi/kpi-dash
configfile: pyproject.toml
collected 25 items

%%tests/test_parse.py ......F.F................ [100%]

==[FAILURES]
__[test_parse_metric_percent]

    def test_parse_metric_percent():
>       assert parse_metric("45%") == 0.45
E       assert 45.0 == 0.45
E        +  where 45.0 = parse_metric('45%')

tests/test_parse.py:40: AssertionError
__[test_conversion_rate_tile]

sheet_row = {'metric': 'conversion', 'value': '3.5%'}

    def test_conversion_rate_tile(sheet_row):
>       assert tile_for(sheet_row).display == "3.5 %"
E       AssertionError: assert '350.0 %' == '3.5 %'
E         - 3.5 %
E         + 350.0 %

tests/test_parse.py:55: AssertionError
==[short test summary info]
FAILED tests/test_parse.py::test_parse_metric_percent - assert 45.0 == 0.45
FAILED tests/test_parse.py::test_conversion_rate_tile - AssertionError: assert '350.0 %' == '3.5 %'
==[2 failed, 23 passed in 0.06s]
""",
    "AssertionError",
    ["src/kpi_dash/parse.py"],
    """parse_metric() stripped a trailing '%' and returned the bare number, so '45%'
    became 45.0 instead of the fraction 0.45 that the rest of the dashboard expects
    (and the tile multiplied by 100 again). Percent strings are now divided by 100
    when the sign is stripped.""",
    "pytest passed with exit code 0 (25 passed)",
    unified("src/kpi_dash/parse.py", """
def parse_metric(raw: str) -> float:
    raw = raw.strip()
    if raw.endswith("%"):
        return float(raw[:-1])
    return float(raw)
""", """
def parse_metric(raw: str) -> float:
    raw = raw.strip()
    if raw.endswith("%"):
        return float(raw[:-1]) / 100
    return float(raw)
""", start=8),
)

# shares ranking / sorted() / leaderboard surface with lexicographic-numeric-sort queries
record(
    "r-dx-ladderrank", "ladder-rank", "reversed-slice-tiebreak",
    r"""
==[test session starts]
platform linux -- Python 3.11.4, pytest-7.4.0, pluggy-1.2.0
rootdir: /home/club/ladder-rank
collected 14 items

%%tests/test_ladder.py ...F.......... [100%]

==[FAILURES]
__[test_ties_keep_signup_order]

    def test_ties_keep_signup_order():
        players = [Player("cole", 1500), Player("dana", 1500), Player("eli", 1620)]
>       assert [p.name for p in ranked(players)] == ["eli", "cole", "dana"]
E       AssertionError: assert ['eli', 'dana', 'cole'] == ['eli', 'cole', 'dana']
E         At index 1 diff: 'dana' != 'cole'
E         Full diff:
E         - ['eli', 'cole', 'dana']
E         + ['eli', 'dana', 'cole']

tests/test_ladder.py:29: AssertionError
==[short test summary info]
FAILED tests/test_ladder.py::test_ties_keep_signup_order - AssertionError: assert ['eli', 'dana', 'cole'] == ['eli', 'cole', 'dana']
==[1 failed, 13 passed in 0.02s]
""",
    "AssertionError",
    ["ladder_rank/ladder.py"],
    """ranked() sorted players by rating ascending and then reversed the list with
    [::-1]; reversing also reverses the relative order of equal ratings, so tied
    players came out in reverse signup order. It now calls sorted(..., reverse=True),
    which keeps the sort stable for ties.""",
    "pytest passed with exit code 0 (14 passed)",
    unified("ladder_rank/ladder.py", """
def ranked(players):
    return sorted(players, key=lambda p: p.rating)[::-1]
""", """
def ranked(players):
    return sorted(players, key=lambda p: p.rating, reverse=True)
""", start=12),
)

# shares exception / KeyError / pytest.raises surface with broad-except-swallow queries
record(
    "r-dx-vaultkv", "vaultkv", "wrong-exception-type",
    r"""
==[test session starts]
platform linux -- Python 3.12.2, pytest-8.0.2, pluggy-1.4.0
rootdir: /home/sec/vaultkv
configfile: pyproject.toml
collected 22 items

%%tests/test_client.py ........F............. [100%]

==[FAILURES]
__[test_missing_secret_raises_not_found]

client = VaultKV(mount='secret', url='http://127.0.0.1:8200')

    def test_missing_secret_raises_not_found(client):
        with pytest.raises(SecretNotFound):
>           client.read("db/password")

tests/test_client.py:88: 
_ _

self = VaultKV(mount='secret', url='http://127.0.0.1:8200'), path = 'db/password'

    def read(self, path):
        data = self._get(f"/v1/{self.mount}/data/{path}")
>       return data["data"]["data"]
E       KeyError: 'data'

src/vaultkv/client.py:47: KeyError
==[short test summary info]
FAILED tests/test_client.py::test_missing_secret_raises_not_found - KeyError: 'data'
==[1 failed, 21 passed in 0.15s]
""",
    "KeyError",
    ["src/vaultkv/client.py"],
    """For a missing secret Vault answers 404 with {"errors": []}, and read() indexed
    data["data"] unconditionally, leaking a KeyError instead of the documented
    SecretNotFound. _get() now checks the status code and raises SecretNotFound(path)
    on 404 before the payload is inspected.""",
    "pytest passed with exit code 0 (22 passed)",
    unified("src/vaultkv/client.py", """
    def _get(self, url_path):
        resp = self.session.get(self.url + url_path, timeout=5)
        return resp.json()
""", """
    def _get(self, url_path):
        resp = self.session.get(self.url + url_path, timeout=5)
        if resp.status_code == 404:
            raise SecretNotFound(url_path)
        resp.raise_for_status()
        return resp.json()
""", start=36, func="class VaultKV:"),
)

# shares "DID NOT RAISE" and generator surface with broad-except-swallow / generator-exhausted queries
record(
    "r-dx-argcheck", "argcheck", "lazy-generator-validation",
    r"""
==[test session starts]
platform linux -- Python 3.10.12, pytest-7.4.0, pluggy-1.2.0
rootdir: /home/dev/argcheck
collected 18 items

%%tests/test_batch.py ..F.F............. [100%]

==[FAILURES]
__[test_batch_rejects_negative_quantity]

    def test_batch_rejects_negative_quantity():
        items = [{"sku": "A1", "qty": 2}, {"sku": "B7", "qty": -1}]
>       with pytest.raises(ValidationError):
E       Failed: DID NOT RAISE <class 'argcheck.errors.ValidationError'>

tests/test_batch.py:22: Failed
__[test_batch_rejects_missing_sku]

    def test_batch_rejects_missing_sku():
>       with pytest.raises(ValidationError, match="sku"):
E       Failed: DID NOT RAISE <class 'argcheck.errors.ValidationError'>

tests/test_batch.py:30: Failed
==[short test summary info]
FAILED tests/test_batch.py::test_batch_rejects_negative_quantity - Failed: DID NOT RAISE <class 'argcheck.errors.ValidationError'>
FAILED tests/test_batch.py::test_batch_rejects_missing_sku - Failed: DID NOT RAISE <class 'argcheck.errors.ValidationError'>
==[2 failed, 16 passed in 0.03s]
""",
    "Failed",
    ["src/argcheck/batch.py"],
    """validate_batch() was written with yield to stream normalised items, which made it
    a generator function: calling it only created a generator, no item was checked,
    and the callers that ignored the return value never saw ValidationError. It is
    now a plain function that validates everything eagerly and returns a list.""",
    "pytest passed with exit code 0 (18 passed)",
    unified("src/argcheck/batch.py", """
def validate_batch(items):
    for i, item in enumerate(items):
        if "sku" not in item:
            raise ValidationError(f"item {i}: sku is required")
        if item["qty"] < 0:
            raise ValidationError(f"item {i}: qty must be >= 0")
        yield normalise(item)
""", """
def validate_batch(items):
    out = []
    for i, item in enumerate(items):
        if "sku" not in item:
            raise ValidationError(f"item {i}: sku is required")
        if item["qty"] < 0:
            raise ValidationError(f"item {i}: qty must be >= 0")
        out.append(normalise(item))
    return out
""", start=9),
)

# shares URL building / 404 surface with url-double-encoding queries
record(
    "r-dx-restwrap", "restwrap", "urljoin-base-without-slash",
    r"""
==[test session starts]
platform linux -- Python 3.11.6, pytest-7.4.3, pluggy-1.3.0
rootdir: /home/api/restwrap
configfile: pyproject.toml
plugins: requests-mock-1.11.0
collected 26 items

%%tests/test_client.py ....F..................... [100%]

==[FAILURES]
__[test_list_users_hits_versioned_path]

requests_mock = <requests_mock.mocker.Mocker object at 0x7f1c2d3e4f50>

    def test_list_users_hits_versioned_path(requests_mock):
        requests_mock.get("https://api.example.io/v2/users", json=[{"id": 1}])
        requests_mock.get("https://api.example.io/users", status_code=404)
        client = ApiClient("https://api.example.io/v2")
>       assert client.get("users").status_code == 200
E       assert 404 == 200
E        +  where 404 = <Response [404]>.status_code
E        +    where <Response [404]> = <bound method ApiClient.get of <restwrap.client.ApiClient object at 0x7f1c2d3e5a10>>('users')
E        +      where <bound method ApiClient.get of <restwrap.client.ApiClient object at 0x7f1c2d3e5a10>> = <restwrap.client.ApiClient object at 0x7f1c2d3e5a10>.get

tests/test_client.py:38: AssertionError
==[short test summary info]
FAILED tests/test_client.py::test_list_users_hits_versioned_path - assert 404 == 200
==[1 failed, 25 passed in 0.11s]
""",
    "AssertionError",
    ["src/restwrap/client.py"],
    """ApiClient.get() built URLs with urljoin(self.base, path); when the base URL has no
    trailing slash, urljoin replaces its last segment, so '.../v2' + 'users' became
    '.../users' and the unversioned endpoint returned 404. The constructor now
    normalises the base to end with '/' and paths are joined without a leading
    slash.""",
    "pytest passed with exit code 0 (26 passed)",
    unified("src/restwrap/client.py", """
    def __init__(self, base, session=None):
        self.base = base
        self.session = session or requests.Session()

    def get(self, path, **params):
        return self.session.get(urljoin(self.base, path), params=params, timeout=10)
""", """
    def __init__(self, base, session=None):
        self.base = base.rstrip("/") + "/"
        self.session = session or requests.Session()

    def get(self, path, **params):
        return self.session.get(urljoin(self.base, path.lstrip("/")), params=params, timeout=10)
""", start=14, func="class ApiClient:"),
)

# shares CSV writing surface with csv-naive-split queries
record(
    "r-dx-exportkit", "exportkit", "csv-newline-translation",
    r"""
==[test session starts]
platform win32 -- Python 3.12.3, pytest-8.2.0, pluggy-1.5.0
rootdir: D:\a\exportkit\exportkit
configfile: pyproject.toml
collected 21 items

%%tests\test_csv_writer.py ..F.................. [100%]

==[FAILURES]
__[test_written_file_has_crlf_rows]

tmp_path = WindowsPath('C:/Users/runneradmin/AppData/Local/Temp/pytest-of-runneradmin/pytest-0/test_written_file_has_crlf_row0')

    def test_written_file_has_crlf_rows(tmp_path):
        out = tmp_path / "people.csv"
        write_rows(out, [("id", "name"), (1, "Ann")])
>       assert out.read_bytes() == b"id,name\r\n1,Ann\r\n"
E       AssertionError: assert b'id,name\r\r\n1,Ann\r\r\n' == b'id,name\r\n1,Ann\r\n'
E         At index 7 diff: b'\r' != b'\n'
E         Full diff:
E         - b'id,name\r\n1,Ann\r\n'
E         + b'id,name\r\r\n1,Ann\r\r\n'
E         ?          ++         ++

tests\test_csv_writer.py:19: AssertionError
==[short test summary info]
FAILED tests/test_csv_writer.py::test_written_file_has_crlf_rows - AssertionError: assert b'id,name\r\r\n1,Ann\r\r\n' == b'id,name\r\n1,Ann\r\n'
==[1 failed, 20 passed in 0.17s]
""",
    "AssertionError",
    ["src/exportkit/csvout.py"],
    """write_rows() opened the output file in text mode without newline='', so on
    Windows the '\\r\\n' row terminator written by csv.writer was translated to
    '\\r\\r\\n' and spreadsheet tools showed blank rows. The file is now opened with
    newline='' as the csv module requires.""",
    "pytest passed with exit code 0 (21 passed)",
    unified("src/exportkit/csvout.py", """
def write_rows(path, rows):
    with open(path, "w", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
""", """
def write_rows(path, rows):
    with open(path, "w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows(rows)
""", start=5),
)

# shares cache / lru_cache / memo surface with cache-key-missing-arg queries
record(
    "r-dx-geomemo", "geo-memo", "cache-unhashable-arg",
    r"""
==[test session starts]
platform linux -- Python 3.12.1, pytest-7.4.4, pluggy-1.3.0
rootdir: /home/gis/geo-memo
collected 12 items

%%tests/test_area.py .F.......... [100%]

==[FAILURES]
__[test_polygon_area_cached]

    def test_polygon_area_cached():
        ring = [(0, 0), (4, 0), (4, 3), (0, 3)]
>       assert polygon_area(ring) == 12.0
E       TypeError: unhashable type: 'list'

tests/test_area.py:9: TypeError
==[short test summary info]
FAILED tests/test_area.py::test_polygon_area_cached - TypeError: unhashable type: 'list'
==[1 failed, 11 passed in 0.02s]
""",
    "TypeError",
    ["src/geo_memo/area.py"],
    """polygon_area() was decorated with functools.lru_cache, which hashes its
    arguments, but callers pass rings as lists of tuples, so every call raised
    TypeError: unhashable type. The public function now converts the ring to a tuple
    and delegates to a cached helper that takes the tuple.""",
    "pytest passed with exit code 0 (12 passed)",
    unified("src/geo_memo/area.py", """
@lru_cache(maxsize=1024)
def polygon_area(ring):
    s = 0.0
    for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1]):
        s += x1 * y2 - x2 * y1
    return abs(s) / 2
""", """
def polygon_area(ring):
    return _polygon_area(tuple(map(tuple, ring)))


@lru_cache(maxsize=1024)
def _polygon_area(ring):
    s = 0.0
    for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1]):
        s += x1 * y2 - x2 * y1
    return abs(s) / 2
""", start=4),
)

# same exception text as leap-day-year-replace queries, different root cause
record(
    "r-dx-cyclecalendar", "cycle-calendar", "month-end-overflow",
    r"""
==[test session starts]
platform linux -- Python 3.11.9, pytest-8.1.1, pluggy-1.4.0
rootdir: /home/runner/work/cycle-calendar/cycle-calendar
configfile: pyproject.toml
collected 27 items

%%tests/test_cycles.py .......F..F................ [100%]

==[FAILURES]
__[test_next_cycle_from_month_end[2025-01-31]]

start = datetime.date(2025, 1, 31), expected = datetime.date(2025, 2, 28)

    @pytest.mark.parametrize(
        "start, expected",
        [(date(2025, 1, 15), date(2025, 2, 15)), (date(2025, 1, 31), date(2025, 2, 28)), (date(2025, 3, 31), date(2025, 4, 30))],
        ids=str,
    )
    def test_next_cycle_from_month_end(start, expected):
>       assert next_cycle(start) == expected

tests/test_cycles.py:22: 
_ _
src/cycle_calendar/cycles.py:11: in next_cycle
    return d.replace(month=d.month + 1) if d.month < 12 else d.replace(year=d.year + 1, month=1)
E   ValueError: day is out of range for month
__[test_next_cycle_from_month_end[2025-03-31]]

start = datetime.date(2025, 3, 31), expected = datetime.date(2025, 4, 30)

    @pytest.mark.parametrize(
        "start, expected",
        [(date(2025, 1, 15), date(2025, 2, 15)), (date(2025, 1, 31), date(2025, 2, 28)), (date(2025, 3, 31), date(2025, 4, 30))],
        ids=str,
    )
    def test_next_cycle_from_month_end(start, expected):
>       assert next_cycle(start) == expected

tests/test_cycles.py:22: 
_ _
src/cycle_calendar/cycles.py:11: in next_cycle
    return d.replace(month=d.month + 1) if d.month < 12 else d.replace(year=d.year + 1, month=1)
E   ValueError: day is out of range for month
==[short test summary info]
FAILED tests/test_cycles.py::test_next_cycle_from_month_end[2025-01-31] - ValueError: day is out of range for month
FAILED tests/test_cycles.py::test_next_cycle_from_month_end[2025-03-31] - ValueError: day is out of range for month
==[2 failed, 25 passed in 0.07s]
""",
    "ValueError",
    ["src/cycle_calendar/cycles.py"],
    """next_cycle() advanced a date by one month with d.replace(month=d.month + 1), which
    fails for days 29-31 whenever the next month is shorter (31 January -> February,
    31 March -> April). The day is now clamped to calendar.monthrange() of the target
    month before building the new date.""",
    "pytest passed with exit code 0 (27 passed)",
    unified("src/cycle_calendar/cycles.py", """
def next_cycle(d: date) -> date:
    return d.replace(month=d.month + 1) if d.month < 12 else d.replace(year=d.year + 1, month=1)
""", """
def next_cycle(d: date) -> date:
    year, month = (d.year, d.month + 1) if d.month < 12 else (d.year + 1, 1)
    day = min(d.day, calendar.monthrange(year, month)[1])
    return date(year, month, day)
""", start=10),
)

# shares struct / bit-width / binary protocol surface with uint32-mask-missing queries
record(
    "r-dx-modbusdecode", "modbus-decode", "signed-struct-format",
    r"""
==[test session starts]
platform linux -- Python 3.10.12, pytest-7.4.0, pluggy-1.2.0
rootdir: /home/plc/modbus-decode
collected 20 items

%%tests/test_registers.py ..F..F.............. [100%]

==[FAILURES]
__[test_holding_register_max_value]

    def test_holding_register_max_value():
>       assert decode_registers(b"\xff\xff", count=1) == [65535]
E       assert [-1] == [65535]
E         At index 0 diff: -1 != 65535
E         Full diff:
E         - [65535]
E         + [-1]

tests/test_registers.py:18: AssertionError
__[test_flow_rate_scaling]

    def test_flow_rate_scaling():
        regs = decode_registers(bytes.fromhex("9c40"), count=1)
>       assert scale(regs[0], factor=0.01) == 400.0
E       assert -255.36 == 400.0
E        +  where -255.36 = scale(-25536, factor=0.01)

tests/test_registers.py:33: AssertionError
==[short test summary info]
FAILED tests/test_registers.py::test_holding_register_max_value - assert [-1] == [65535]
FAILED tests/test_registers.py::test_flow_rate_scaling - assert -255.36 == 400.0
==[2 failed, 18 passed in 0.03s]
""",
    "AssertionError",
    ["src/modbus_decode/registers.py"],
    """decode_registers() unpacked holding registers with the '>h' (signed short) format,
    but these registers are unsigned 16-bit values, so anything above 32767 came out
    negative. The format string is now built with 'H' (unsigned), with a per-register
    signed flag for the few registers documented as int16.""",
    "pytest passed with exit code 0 (20 passed)",
    unified("src/modbus_decode/registers.py", """
def decode_registers(payload: bytes, count: int) -> list[int]:
    return list(struct.unpack(f">{count}h", payload[: 2 * count]))
""", """
def decode_registers(payload: bytes, count: int, signed: bool = False) -> list[int]:
    code = "h" if signed else "H"
    return list(struct.unpack(f">{count}{code}", payload[: 2 * count]))
""", start=7),
)

# shares averaging / rounding surface with round-half-even queries
record(
    "r-dx-fpsmeter", "fpsmeter", "integer-division-truncation",
    r"""
==[test session starts]
platform linux -- Python 3.12.2, pytest-8.0.2, pluggy-1.4.0
rootdir: /home/gfx/fpsmeter
collected 10 items

%%tests/test_stats.py .F.F...... [100%]

==[FAILURES]
__[test_average_frame_time_one_decimal]

    def test_average_frame_time_one_decimal():
        samples = FrameSamples(total_ms=1002, frames=60)
>       assert average_frame_ms(samples) == 16.7
E       assert 16 == 16.7
E        +  where 16 = average_frame_ms(FrameSamples(total_ms=1002, frames=60))

tests/test_stats.py:12: AssertionError
__[test_fps_from_average]

    def test_fps_from_average():
>       assert fps(FrameSamples(total_ms=1002, frames=60)) == 59.9
E       assert 62.5 == 59.9
E        +  where 62.5 = fps(FrameSamples(total_ms=1002, frames=60))

tests/test_stats.py:19: AssertionError
==[short test summary info]
FAILED tests/test_stats.py::test_average_frame_time_one_decimal - assert 16 == 16.7
FAILED tests/test_stats.py::test_fps_from_average - assert 62.5 == 59.9
==[2 failed, 8 passed in 0.02s]
""",
    "AssertionError",
    ["src/fpsmeter/stats.py"],
    """average_frame_ms() used floor division (total_ms // frames), truncating 16.7 ms
    to 16 ms, and fps() inherited the error. It now uses true division and rounds
    only for display, to one decimal.""",
    "pytest passed with exit code 0 (10 passed)",
    unified("src/fpsmeter/stats.py", """
def average_frame_ms(s):
    return s.total_ms // s.frames


def fps(s):
    return round(1000 / average_frame_ms(s), 1)
""", """
def average_frame_ms(s):
    return round(s.total_ms / s.frames, 1)


def fps(s):
    return round(1000 * s.frames / s.total_ms, 1)
""", start=3),
)
