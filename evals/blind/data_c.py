from _fmt import record, query, unified

# ---------------------------------------------------------------------------
# Family: locale-decimal-separator
# Numbers written with a comma decimal separator (and '.' thousands
# separator) are parsed with float()/Decimal() or with a naive
# replace(',', '') that assumes the English convention.
# ---------------------------------------------------------------------------

record(
    "r-lds-weatherstation", "weatherstation-de", "locale-decimal-separator",
    r"""
==[test session starts]
platform linux -- Python 3.11.8, pytest-8.0.2, pluggy-1.4.0
rootdir: /home/wetter/weatherstation-de
configfile: pyproject.toml
collected 25 items

%%tests/test_dwd_import.py ..F..................... [ 96%]
%%tests/test_units.py . [100%]

==[FAILURES]
__[test_parse_hourly_row]

    def test_parse_hourly_row():
        row = "10865;2024081014;12,5;87;1013,2"
>       obs = parse_row(row)

tests/test_dwd_import.py:33: 
_ _

line = '10865;2024081014;12,5;87;1013,2'

    def parse_row(line: str) -> Observation:
        station, stamp, temp, humidity, pressure = line.split(";")
        return Observation(
            station=int(station),
            at=datetime.strptime(stamp, "%Y%m%d%H"),
>           temp_c=float(temp),
            humidity=int(humidity),
            pressure_hpa=float(pressure),
        )
E       ValueError: could not convert string to float: '12,5'

src/weatherstation/dwd.py:41: ValueError
==[short test summary info]
FAILED tests/test_dwd_import.py::test_parse_hourly_row - ValueError: could not convert string to float: '12,5'
==[1 failed, 24 passed in 0.12s]
""",
    "ValueError",
    ["src/weatherstation/dwd.py"],
    """The DWD station export writes decimals with a comma ('12,5', '1013,2') because
    it is produced in the German locale, and parse_row() fed those fields straight
    to float(). Added a _de_float() helper that removes '.' thousands separators and
    turns the decimal comma into a point before converting, and used it for all
    measured values.""",
    "pytest passed with exit code 0 (25 passed)",
    unified("src/weatherstation/dwd.py", """
def parse_row(line: str) -> Observation:
    station, stamp, temp, humidity, pressure = line.split(";")
    return Observation(
        station=int(station),
        at=datetime.strptime(stamp, "%Y%m%d%H"),
        temp_c=float(temp),
        humidity=int(humidity),
        pressure_hpa=float(pressure),
    )
""", """
def _de_float(text: str) -> float:
    \"\"\"Parse a German-formatted number such as '1.013,2'.\"\"\"
    return float(text.strip().replace(".", "").replace(",", "."))


def parse_row(line: str) -> Observation:
    station, stamp, temp, humidity, pressure = line.split(";")
    return Observation(
        station=int(station),
        at=datetime.strptime(stamp, "%Y%m%d%H"),
        temp_c=_de_float(temp),
        humidity=int(humidity),
        pressure_hpa=_de_float(pressure),
    )
""", start=33),
)

record(
    "r-lds-recipescaler", "recipe-scaler", "locale-decimal-separator",
    r"""
==[test session starts]
platform linux -- Python 3.12.2, pytest-8.0.2, pluggy-1.4.0
rootdir: /home/chef/recipe-scaler
collected 30 items

%%tests/test_quantities.py .......F..F......... [ 66%]
%%tests/test_scale.py .......... [100%]

==[FAILURES]
__[test_parse_quantity[de-1.500 g]]

locale_name = 'de', text = '1.500 g', grams = 1500.0

    @pytest.mark.parametrize(
        "locale_name, text, grams",
        [("en", "1,500 g", 1500.0), ("en", "1.5 kg", 1500.0), ("de", "1.500 g", 1500.0), ("de", "0,75 kg", 750.0)],
        ids=["en-1,500 g", "en-1.5 kg", "de-1.500 g", "de-0,75 kg"],
    )
    def test_parse_quantity(locale_name, text, grams):
>       assert parse_quantity(text, locale_name).grams == grams
E       AssertionError: assert 1.5 == 1500.0
E        +  where 1.5 = Quantity(amount=1.5, unit='g').grams
E        +    where Quantity(amount=1.5, unit='g') = parse_quantity('1.500 g', 'de')

tests/test_quantities.py:27: AssertionError
__[test_parse_quantity[de-0,75 kg]]

locale_name = 'de', text = '0,75 kg', grams = 750.0

    @pytest.mark.parametrize(
        "locale_name, text, grams",
        [("en", "1,500 g", 1500.0), ("en", "1.5 kg", 1500.0), ("de", "1.500 g", 1500.0), ("de", "0,75 kg", 750.0)],
        ids=["en-1,500 g", "en-1.5 kg", "de-1.500 g", "de-0,75 kg"],
    )
    def test_parse_quantity(locale_name, text, grams):
>       assert parse_quantity(text, locale_name).grams == grams
E       AssertionError: assert 75000.0 == 750.0
E        +  where 75000.0 = Quantity(amount=75.0, unit='kg').grams
E        +    where Quantity(amount=75.0, unit='kg') = parse_quantity('0,75 kg', 'de')

tests/test_quantities.py:27: AssertionError
==[short test summary info]
FAILED tests/test_quantities.py::test_parse_quantity[de-1.500 g] - AssertionError: assert 1.5 == 1500.0
FAILED tests/test_quantities.py::test_parse_quantity[de-0,75 kg] - AssertionError: assert 75000.0 == 750.0
==[2 failed, 28 passed in 0.10s]
""",
    "AssertionError",
    ["src/recipe_scaler/quantities.py"],
    """parse_quantity() ignored the recipe's locale and always removed ',' as a
    thousands separator before calling float(), which is only right for English;
    German recipes use '.' for thousands and ',' for decimals, so '1.500 g' became
    1.5 and '0,75 kg' became 75. The number is now parsed with
    babel.numbers.parse_decimal(text, locale=...) so the separators follow the
    recipe's locale.""",
    "pytest passed with exit code 0 (30 passed)",
    unified("src/recipe_scaler/quantities.py", """
def parse_quantity(text: str, locale_name: str = "en") -> Quantity:
    number, unit = text.strip().split()
    amount = float(number.replace(",", ""))
    return Quantity(amount=amount, unit=unit)
""", """
def parse_quantity(text: str, locale_name: str = "en") -> Quantity:
    number, unit = text.strip().split()
    amount = float(parse_decimal(number, locale=locale_name, strict=True))
    return Quantity(amount=amount, unit=unit)
""", start=22),
)

record(
    "r-lds-erpbridge", "erp-bridge", "locale-decimal-separator",
    r"""
F.......
======================================================================
FAIL: test_import_price_list_row (tests.test_pricelist.PriceListImportTest.test_import_price_list_row)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/erp/erp-bridge/tests/test_pricelist.py", line 26, in test_import_price_list_row
    self.assertEqual(item.unit_price, Decimal("1234.56"))
AssertionError: Decimal('1.23456') != Decimal('1234.56')

----------------------------------------------------------------------
Ran 8 tests in 0.006s

FAILED (failures=1)
""",
    "AssertionError",
    ["erp_bridge/pricelist.py"],
    """The supplier's price list is exported from a German SAP system ('1.234,56'), and
    to_decimal() simply deleted commas, turning '1.234,56' into Decimal('1.23456').
    The importer now reads the decimal and grouping separators from the supplier
    profile and normalises the string (drop grouping, decimal -> '.') before
    building the Decimal.""",
    "python -m unittest passed with exit code 0 (Ran 8 tests, OK)",
    unified("erp_bridge/pricelist.py", """
def to_decimal(raw):
    return Decimal(raw.replace(",", ""))
""", """
def to_decimal(raw, decimal_sep=",", group_sep="."):
    cleaned = raw.strip().replace(group_sep, "").replace(decimal_sep, ".")
    return Decimal(cleaned)
""", start=40),
)

LDS = ["r-lds-weatherstation", "r-lds-recipescaler", "r-lds-erpbridge"]

query(
    "q-lds-fuelprices", "fuelprices-fr", "locale-decimal-separator",
    r"""
==[test session starts]
platform linux -- Python 3.12.3, pytest-8.2.0, pluggy-1.5.0
rootdir: /home/runner/work/fuelprices-fr/fuelprices-fr
configfile: pyproject.toml
collected 12 items

%%tests/test_feed.py ...F........ [100%]

==[FAILURES]
__[test_parse_station_prices]

feed_xml = PosixPath('/home/runner/work/fuelprices-fr/fuelprices-fr/tests/data/PrixCarburants_instantane_extrait.xml')

    def test_parse_station_prices(feed_xml):
>       stations = list(parse_feed(feed_xml.read_bytes()))

tests/test_feed.py:41: 
_ _
src/fuelprices/feed.py:58: in parse_feed
    yield _station(node)
src/fuelprices/feed.py:44: in _station
    prices = {p.get("nom"): float(p.get("valeur")) for p in node.iter("prix")}
_ _

.0 = <_elementtree._element_iterator object at 0x7f3c7a9e1b20>

>   prices = {p.get("nom"): float(p.get("valeur")) for p in node.iter("prix")}
E   ValueError: could not convert string to float: '1,879'

src/fuelprices/feed.py:44: ValueError
==[short test summary info]
FAILED tests/test_feed.py::test_parse_station_prices - ValueError: could not convert string to float: '1,879'
==[1 failed, 11 passed in 0.21s]
""",
    "ValueError", LDS, color=True,
)

query(
    "q-lds-labresults", "labresults", "locale-decimal-separator",
    r"""
...F.F...
======================================================================
FAIL: test_hba1c_value (tests.test_hl7.ObservationParsingTest.test_hba1c_value)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/srv/lab/labresults/tests/test_hl7.py", line 48, in test_hba1c_value
    self.assertEqual(obs.value, 7.2)
AssertionError: 72.0 != 7.2

======================================================================
FAIL: test_reference_range (tests.test_hl7.ObservationParsingTest.test_reference_range)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/srv/lab/labresults/tests/test_hl7.py", line 57, in test_reference_range
    self.assertEqual(obs.reference_range, (4.0, 5.6))
AssertionError: Tuples differ: (40.0, 56.0) != (4.0, 5.6)

First differing element 0:
40.0
4.0

- (40.0, 56.0)
?    -     -

+ (4.0, 5.6)
?     +

----------------------------------------------------------------------
Ran 9 tests in 0.008s

FAILED (failures=2)
""",
    "AssertionError", LDS,
)

query(
    "q-lds-geocoder", "geocoder-eu", "locale-decimal-separator",
    r"""
==[test session starts]
platform linux -- Python 3.11.6, pytest-7.4.3, pluggy-1.3.0
rootdir: /home/gis/geocoder-eu
collected 16 items

%%tests/test_import.py ....F........... [100%]

==[FAILURES]
__[test_import_municipality_centroids]

csv_path = PosixPath('/home/gis/geocoder-eu/tests/fixtures/gemeinden_2024.csv')

    def test_import_municipality_centroids(csv_path):
>       places = load_centroids(csv_path)

tests/test_import.py:52: 
_ _
src/geocoder/loaders/centroids.py:31: in load_centroids
    out.append(Place(name=row["name"], lat=Decimal(row["lat"]), lon=Decimal(row["lon"])))
E   decimal.InvalidOperation: [<class 'decimal.ConversionSyntax'>]
==[short test summary info]
FAILED tests/test_import.py::test_import_municipality_centroids - decimal.InvalidOperation: [<class 'decimal.ConversionSyntax'>]
==[1 failed, 15 passed in 0.18s]
""",
    "decimal.InvalidOperation", LDS,
)

query(
    "q-lds-salesreport", "salesreport-br", "locale-decimal-separator",
    r"""
==[test session starts]
platform linux -- Python 3.10.14, pytest-8.1.1, pluggy-1.4.0
rootdir: /home/runner/work/salesreport-br/salesreport-br
configfile: pytest.ini
collected 34 items

%%tests/test_totals.py ..........F....F.. [ 52%]
%%tests/test_export.py ................ [100%]

==[FAILURES]
__[test_total_from_planilha]

planilha = [{'produto': 'Cadeira', 'valor': 'R$ 2.500,00'}, {'produto': 'Mesa', 'valor': 'R$ 1.150,90'}]

    def test_total_from_planilha(planilha):
>       assert total_vendas(planilha) == pytest.approx(3650.90)
E       assert 3.6509 == 3650.9 ± 3.7e-03
E         comparison failed
E         Obtained: 3.6509
E         Expected: 3650.9 ± 3.7e-03

tests/test_totals.py:58: AssertionError
__[test_valor_unitario]

    def test_valor_unitario():
>       assert parse_valor("R$ 12,90") == 12.90
E       assert 1290.0 == 12.9
E        +  where 1290.0 = parse_valor('R$ 12,90')

tests/test_totals.py:71: AssertionError
==[short test summary info]
FAILED tests/test_totals.py::test_total_from_planilha - assert 3.6509 == 3650.9 ± 3.7e-03
FAILED tests/test_totals.py::test_valor_unitario - assert 1290.0 == 12.9
==[2 failed, 32 passed in 0.27s]
""",
    "AssertionError", LDS,
)

# ---------------------------------------------------------------------------
# Family: lexicographic-numeric-sort
# Numeric identifiers (versions, sequence numbers, scores) are compared as
# strings, so "10" sorts before "9".
# ---------------------------------------------------------------------------

record(
    "r-lns-migrator", "migrator", "lexicographic-numeric-sort",
    r"""
==[test session starts]
platform linux -- Python 3.11.4, pytest-7.4.0, pluggy-1.2.0
rootdir: /home/db/migrator
collected 20 items

%%tests/test_discovery.py ..F................. [100%]

==[FAILURES]
__[test_migrations_applied_in_numeric_order]

mig_dir = PosixPath('/tmp/pytest-of-db/pytest-2/test_migrations_applied_in_nu0/migrations')

    def test_migrations_applied_in_numeric_order(mig_dir):
        for name in ["1_init.sql", "2_users.sql", "10_indexes.sql", "9_orders.sql"]:
            (mig_dir / name).write_text("-- noop")
>       assert [m.name for m in discover(mig_dir)] == ["1_init", "2_users", "9_orders", "10_indexes"]
E       AssertionError: assert ['10_indexes', '1_init', '2_users', '9_orders'] == ['1_init', '2_users', '9_orders', '10_indexes']
E         At index 0 diff: '10_indexes' != '1_init'
E         Full diff:
E         - ['1_init', '2_users', '9_orders', '10_indexes']
E         + ['10_indexes', '1_init', '2_users', '9_orders']

tests/test_discovery.py:19: AssertionError
==[short test summary info]
FAILED tests/test_discovery.py::test_migrations_applied_in_numeric_order - AssertionError: assert ['10_indexes', '1_init', '2_users', '9_orders'] == ['1_init', '2_users', '9_orders', '10_indexes']
==[1 failed, 19 passed in 0.06s]
""",
    "AssertionError",
    ["src/migrator/discovery.py"],
    """discover() returned sorted(paths) on the file names, which orders them as
    strings, so '10_indexes' ran before '1_init' and '9_orders'. The sort key now
    parses the numeric prefix (int(name.split('_', 1)[0])) and sorts on that.""",
    "pytest passed with exit code 0 (20 passed)",
    unified("src/migrator/discovery.py", """
def discover(directory: Path) -> list[Migration]:
    paths = sorted(p for p in directory.glob("*.sql"))
    return [Migration.from_path(p) for p in paths]
""", """
def _sequence(path: Path) -> int:
    return int(path.stem.split("_", 1)[0])


def discover(directory: Path) -> list[Migration]:
    paths = sorted(directory.glob("*.sql"), key=_sequence)
    return [Migration.from_path(p) for p in paths]
""", start=12),
)

record(
    "r-lns-pkgbump", "pkgbump", "lexicographic-numeric-sort",
    r"""
==[test session starts]
platform darwin -- Python 3.12.2, pytest-8.1.1, pluggy-1.4.0
rootdir: /Users/rel/pkgbump
configfile: pyproject.toml
collected 27 items

%%tests/test_tags.py ....F.F.... [ 40%]
%%tests/test_bump.py ................ [100%]

==[FAILURES]
__[test_latest_tag]

    def test_latest_tag():
        tags = ["v0.8.1", "v0.9.0", "v0.10.0", "v0.10.1-rc1"]
>       assert latest_release(tags) == "v0.10.0"
E       AssertionError: assert 'v0.9.0' == 'v0.10.0'
E         - v0.10.0
E         ?    -
E         + v0.9.0
E         ?    ^

tests/test_tags.py:31: AssertionError
__[test_next_minor]

    def test_next_minor():
>       assert next_version(["v0.9.0", "v0.10.0"], part="minor") == "v0.11.0"
E       AssertionError: assert 'v0.10.0' == 'v0.11.0'
E         - v0.11.0
E         ?     ^
E         + v0.10.0
E         ?     ^

tests/test_tags.py:45: AssertionError
==[short test summary info]
FAILED tests/test_tags.py::test_latest_tag - AssertionError: assert 'v0.9.0' == 'v0.10.0'
FAILED tests/test_tags.py::test_next_minor - AssertionError: assert 'v0.10.0' == 'v0.11.0'
==[2 failed, 25 passed in 0.09s]
""",
    "AssertionError",
    ["src/pkgbump/tags.py"],
    """latest_release() took max() over the tag strings, and string comparison puts
    'v0.9.0' above 'v0.10.0'. Tags are now parsed with packaging.version.Version
    (pre-releases filtered out) and the maximum is taken on the parsed versions.""",
    "pytest passed with exit code 0 (27 passed)",
    unified("src/pkgbump/tags.py", """
def latest_release(tags):
    releases = [t for t in tags if "-" not in t]
    return max(releases)
""", """
def latest_release(tags):
    releases = [t for t in tags if not Version(t.lstrip("v")).is_prerelease]
    return max(releases, key=lambda t: Version(t.lstrip("v")))
""", start=8),
)

record(
    "r-lns-photoalbum", "photoalbum", "lexicographic-numeric-sort",
    r"""
==[test session starts]
platform linux -- Python 3.10.12, pytest-7.2.2, pluggy-1.0.0
rootdir: /home/ph/photoalbum
collected 13 items

%%tests/test_pages.py ...F......... [100%]

==[FAILURES]
__[test_pages_follow_camera_sequence]

shoot = PosixPath('/tmp/pytest-of-ph/pytest-0/test_pages_follow_camera_seq0/shoot')

    def test_pages_follow_camera_sequence(shoot):
        album = Album.from_folder(shoot)
>       assert album.page_files(0) == ["IMG_8.jpg", "IMG_9.jpg", "IMG_10.jpg", "IMG_11.jpg"]
E       AssertionError: assert ['IMG_10.jpg', 'IMG_11.jpg', 'IMG_12.jpg', 'IMG_13.jpg'] == ['IMG_8.jpg', 'IMG_9.jpg', 'IMG_10.jpg', 'IMG_11.jpg']
E         At index 0 diff: 'IMG_10.jpg' != 'IMG_8.jpg'
E         Full diff:
E         - ['IMG_8.jpg', 'IMG_9.jpg', 'IMG_10.jpg', 'IMG_11.jpg']
E         + ['IMG_10.jpg', 'IMG_11.jpg', 'IMG_12.jpg', 'IMG_13.jpg']

tests/test_pages.py:22: AssertionError
==[short test summary info]
!!FAILED tests/test_pages.py::test_pages_follow_camera_sequence - AssertionError: assert ['IMG_10.jpg', 'IMG_11.jpg', 'IMG_12.jpg', 'IMG_13.jpg'] == ['IMG_8.j...
==[1 failed, 12 passed in 0.07s]
""",
    "AssertionError",
    ["photoalbum/album.py"],
    """Album.from_folder() ordered pictures with sorted(os.listdir(...)), a plain string
    sort, so IMG_10..IMG_13 came before IMG_8 and IMG_9. Added a natural sort key
    that splits file names into text and integer runs (re.split(r'(\\d+)')) and
    compares the digit runs numerically.""",
    "pytest passed with exit code 0 (13 passed)",
    unified("photoalbum/album.py", """
    @classmethod
    def from_folder(cls, folder):
        names = sorted(n for n in os.listdir(folder) if n.lower().endswith(".jpg"))
        return cls(folder, names)
""", """
    @classmethod
    def from_folder(cls, folder):
        names = sorted(
            (n for n in os.listdir(folder) if n.lower().endswith(".jpg")),
            key=_natural_key,
        )
        return cls(folder, names)
""", start=30, func="class Album:"),
)

LNS = ["r-lns-migrator", "r-lns-pkgbump", "r-lns-photoalbum"]

query(
    "q-lns-release-notes", "release-notes", "lexicographic-numeric-sort",
    r"""
==[test session starts]
platform linux -- Python 3.12.4, pytest-8.2.2, pluggy-1.5.0
rootdir: /home/runner/work/release-notes/release-notes
configfile: pyproject.toml
collected 18 items

%%tests/test_changelog.py .....F............ [100%]

==[FAILURES]
__[test_sections_newest_first]

entries = [Entry(version='1.2.0', date='2023-01-10'), Entry(version='1.9.2', date='2023-09-01'), Entry(version='1.10.0', date='2024-02-14')]

    def test_sections_newest_first(entries):
        md = render_changelog(entries)
        headings = [l for l in md.splitlines() if l.startswith("## ")]
>       assert headings == ["## 1.10.0", "## 1.9.2", "## 1.2.0"]
E       AssertionError: assert ['## 1.9.2', '## 1.2.0', '## 1.10.0'] == ['## 1.10.0', '## 1.9.2', '## 1.2.0']
E         At index 0 diff: '## 1.9.2' != '## 1.10.0'
E         Full diff:
E         - ['## 1.10.0', '## 1.9.2', '## 1.2.0']
E         + ['## 1.9.2', '## 1.2.0', '## 1.10.0']

tests/test_changelog.py:40: AssertionError
==[short test summary info]
FAILED tests/test_changelog.py::test_sections_newest_first - AssertionError: assert ['## 1.9.2', '## 1.2.0', '## 1.10.0'] == ['## 1.10.0', '## 1.9.2', '## 1.2.0']
==[1 failed, 17 passed in 0.08s]
""",
    "AssertionError", LNS, color=True,
)

query(
    "q-lns-chapterize", "chapterize", "lexicographic-numeric-sort",
    r"""
..F....
======================================================================
FAIL: test_spine_order (tests.test_epub.SpineTest.test_spine_order)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/writer/chapterize/tests/test_epub.py", line 37, in test_spine_order
    self.assertEqual(book.spine, ["ch1.xhtml", "ch2.xhtml", "ch3.xhtml", "ch11.xhtml", "ch12.xhtml"])
AssertionError: Lists differ: ['ch1.xhtml', 'ch11.xhtml', 'ch12.xhtml', 'ch2.xhtml', 'ch3.xhtml'] != ['ch1.xhtml', 'ch2.xhtml', 'ch3.xhtml', 'ch11.xhtml', 'ch12.xhtml']

First differing element 1:
'ch11.xhtml'
'ch2.xhtml'

- ['ch1.xhtml', 'ch11.xhtml', 'ch12.xhtml', 'ch2.xhtml', 'ch3.xhtml']
+ ['ch1.xhtml', 'ch2.xhtml', 'ch3.xhtml', 'ch11.xhtml', 'ch12.xhtml']

----------------------------------------------------------------------
Ran 7 tests in 0.012s

FAILED (failures=1)
""",
    "AssertionError", LNS,
)

query(
    "q-lns-leaderboard", "leaderboard-api", "lexicographic-numeric-sort",
    r"""
==[test session starts]
platform linux -- Python 3.11.9, pytest-8.1.1, pluggy-1.4.0
rootdir: /app
configfile: pyproject.toml
plugins: anyio-4.3.0
collected 29 items

%%tests/test_board.py .......F..F.................. [100%]

==[FAILURES]
__[test_top_player]

client = <starlette.testclient.TestClient object at 0x7f1b2c3d4e50>
seeded = {'alice': '87', 'bob': '95', 'carol': '100'}

    def test_top_player(client, seeded):
        resp = client.get("/boards/weekly/top")
>       assert resp.json()["player"] == "carol"
E       AssertionError: assert 'bob' == 'carol'
E         - carol
E         + bob

tests/test_board.py:61: AssertionError
__[test_ranked_listing]

client = <starlette.testclient.TestClient object at 0x7f1b2c3d6b90>
seeded = {'alice': '87', 'bob': '95', 'carol': '100'}

    def test_ranked_listing(client, seeded):
        resp = client.get("/boards/weekly")
>       assert [r["player"] for r in resp.json()["ranks"]] == ["carol", "bob", "alice"]
E       AssertionError: assert ['bob', 'alice', 'carol'] == ['carol', 'bob', 'alice']
E         At index 0 diff: 'bob' != 'carol'
E         Full diff:
E         - ['carol', 'bob', 'alice']
E         + ['bob', 'alice', 'carol']

tests/test_board.py:74: AssertionError
==[short test summary info]
FAILED tests/test_board.py::test_top_player - AssertionError: assert 'bob' == 'carol'
FAILED tests/test_board.py::test_ranked_listing - AssertionError: assert ['bob', 'alice', 'carol'] == ['carol', 'bob', 'alice']
==[2 failed, 27 passed in 0.64s]
""",
    "AssertionError", LNS,
)

query(
    "q-lns-backup-rotate", "backup-rotate", "lexicographic-numeric-sort",
    r"""
==[test session starts]
platform linux -- Python 3.11.2, pytest-7.2.1, pluggy-1.0.0
rootdir: /root/backup-rotate
collected 9 items

%%tests/test_rotate.py ....F.... [100%]

==[FAILURES]
__[test_keep_two_newest_generations]

backup_root = PosixPath('/tmp/pytest-of-root/pytest-5/test_keep_two_newest_generati0')

    def test_keep_two_newest_generations(backup_root):
        for n in (7, 8, 9, 10):
            (backup_root / f"backup-{n}").mkdir()
        rotate(backup_root, keep=2)
>       assert {p.name for p in backup_root.iterdir()} == {"backup-9", "backup-10"}
E       AssertionError: assert {'backup-8', 'backup-9'} == {'backup-10', 'backup-9'}
E         Extra items in the left set:
E         'backup-8'
E         Extra items in the right set:
E         'backup-10'
E         Use -v to get more diff

tests/test_rotate.py:33: AssertionError
==[short test summary info]
FAILED tests/test_rotate.py::test_keep_two_newest_generations - AssertionError: assert {'backup-8', 'backup-9'} == {'backup-10', 'backup-9'}
==[1 failed, 8 passed in 0.02s]
""",
    "AssertionError", LNS,
)

query(
    "q-lns-k8s-rollout", "k8s-rollout", "lexicographic-numeric-sort",
    r"""
==[test session starts]
platform linux -- Python 3.12.1, pytest-7.4.4, pluggy-1.3.0
rootdir: /home/sre/k8s-rollout
collected 23 items

%%tests/test_history.py .........F............. [100%]

==[FAILURES]
__[test_current_revision_from_replicasets]

replicasets = [{'metadata': {'annotations': {'deployment.kubernetes.io/revision': '9'}, 'name': 'web-7d9c'}}, {'metadata': {'annotations': {'deployment.kubernetes.io/revision': '12'}, 'name': 'web-5f2a'}}]

    def test_current_revision_from_replicasets(replicasets):
        hist = RolloutHistory.from_replicasets(replicasets)
>       assert hist.current.name == "web-5f2a"
E       AssertionError: assert 'web-7d9c' == 'web-5f2a'
E         - web-5f2a
E         + web-7d9c

tests/test_history.py:84: AssertionError
==[short test summary info]
!!FAILED tests/test_history.py::test_current_revision_from_replicasets - AssertionError: assert 'web-7d9c' == 'web-5f2a'
==[1 failed, 22 passed in 0.15s]
""",
    "AssertionError", LNS,
)

# ---------------------------------------------------------------------------
# Family: broad-except-swallow
# A bare/broad except catches the real error and returns a default (None,
# {}, "ok"), so callers see a wrong value or an exception never propagates.
# ---------------------------------------------------------------------------

record(
    "r-bes-confload", "confload", "broad-except-swallow",
    r"""
==[test session starts]
platform linux -- Python 3.11.6, pytest-7.4.3, pluggy-1.3.0
rootdir: /home/ci/confload
configfile: pyproject.toml
collected 24 items

%%tests/test_loader.py .....F.F................ [100%]

==[FAILURES]
__[test_malformed_yaml_raises_config_error]

tmp_path = PosixPath('/tmp/pytest-of-ci/pytest-7/test_malformed_yaml_raises_co0')

    def test_malformed_yaml_raises_config_error(tmp_path):
        cfg = tmp_path / "app.yaml"
        cfg.write_text("server:\n  port: [8080\n")
>       with pytest.raises(ConfigError):
E       Failed: DID NOT RAISE <class 'confload.errors.ConfigError'>

tests/test_loader.py:52: Failed
__[test_missing_required_key]

tmp_path = PosixPath('/tmp/pytest-of-ci/pytest-7/test_missing_required_key0')

    def test_missing_required_key(tmp_path):
        cfg = tmp_path / "app.yaml"
        cfg.write_text("server: {}\n")
>       with pytest.raises(ConfigError, match="server.port"):
E       Failed: DID NOT RAISE <class 'confload.errors.ConfigError'>

tests/test_loader.py:61: Failed
==[short test summary info]
FAILED tests/test_loader.py::test_malformed_yaml_raises_config_error - Failed: DID NOT RAISE <class 'confload.errors.ConfigError'>
FAILED tests/test_loader.py::test_missing_required_key - Failed: DID NOT RAISE <class 'confload.errors.ConfigError'>
==[2 failed, 22 passed in 0.19s]
""",
    "Failed",
    ["src/confload/loader.py"],
    """load_config() wrapped parsing and validation in try/except Exception and returned
    an empty dict on any error, so malformed YAML and missing keys were silently
    accepted and ConfigError never reached callers. The handler now catches only
    yaml.YAMLError and re-raises it as ConfigError (raise ... from exc); validation
    errors propagate unchanged.""",
    "pytest passed with exit code 0 (24 passed)",
    unified("src/confload/loader.py", """
def load_config(path):
    try:
        with open(path, encoding="utf-8") as fh:
            data = yaml.safe_load(fh) or {}
        validate(data)
        return data
    except Exception:
        log.warning("could not load %s, using defaults", path)
        return {}
""", """
def load_config(path):
    with open(path, encoding="utf-8") as fh:
        try:
            data = yaml.safe_load(fh) or {}
        except yaml.YAMLError as exc:
            raise ConfigError(f"{path}: invalid YAML: {exc}") from exc
    validate(data)
    return data
""", start=17),
)

record(
    "r-bes-webhookrelay", "webhook-relay", "broad-except-swallow",
    r"""
==[test session starts]
platform linux -- Python 3.12.2, pytest-8.0.2, pluggy-1.4.0
rootdir: /home/runner/work/webhook-relay/webhook-relay
configfile: pyproject.toml
plugins: flask-1.3.0
collected 31 items

%%tests/test_inbound.py ...F........................... [100%]

==[FAILURES]
__[test_bad_signature_rejected]

client = <FlaskClient <Flask 'webhook_relay.app'>>

    def test_bad_signature_rejected(client):
        resp = client.post(
            "/hooks/github",
            data=b'{"action":"opened"}',
            headers={"X-Hub-Signature-256": "sha256=deadbeef", "Content-Type": "application/json"},
        )
>       assert resp.status_code == 401
E       assert 202 == 401
E        +  where 202 = <WrapperTestResponse 9 bytes [202 ACCEPTED]>.status_code

tests/test_inbound.py:48: AssertionError
==[short test summary info]
FAILED tests/test_inbound.py::test_bad_signature_rejected - assert 202 == 401
==[1 failed, 30 passed in 0.58s]
""",
    "AssertionError",
    ["src/webhook_relay/inbound.py"],
    """The signature check was wrapped in a bare except: pass, so the
    InvalidSignature raised by verify_signature() was swallowed and the request
    continued to be queued with 202. The bare except was removed; InvalidSignature
    is now caught explicitly and turned into a 401 response.""",
    "pytest passed with exit code 0 (31 passed)",
    unified("src/webhook_relay/inbound.py", """
@bp.post("/hooks/<source>")
def receive(source):
    body = request.get_data()
    try:
        verify_signature(source, body, request.headers)
    except:
        pass
    queue.put(source, body)
    return "accepted", 202
""", """
@bp.post("/hooks/<source>")
def receive(source):
    body = request.get_data()
    try:
        verify_signature(source, body, request.headers)
    except InvalidSignature:
        return "invalid signature", 401
    queue.put(source, body)
    return "accepted", 202
""", start=21),
)

record(
    "r-bes-thumbcache", "thumbcache", "broad-except-swallow",
    r"""
.E.......
======================================================================
ERROR: test_thumbnail_dimensions (tests.test_cache.ThumbCacheTest.test_thumbnail_dimensions)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/img/thumbcache/tests/test_cache.py", line 29, in test_thumbnail_dimensions
    self.assertEqual(thumb["size"], (128, 96))
                     ~~~~~^^^^^^^^
TypeError: 'NoneType' object is not subscriptable

----------------------------------------------------------------------
Ran 9 tests in 0.093s

FAILED (errors=1)
""",
    "TypeError",
    ["thumbcache/cache.py"],
    """get_thumbnail() wrapped the whole render path in try/except Exception and
    returned None, intending only to handle missing source files; a KeyError from
    an unknown resample filter name was hidden and the caller got None. Narrowed the
    handler to FileNotFoundError and fixed the filter lookup, so unexpected errors
    now surface instead of becoming None.""",
    "python -m unittest passed with exit code 0 (Ran 9 tests, OK)",
    unified("thumbcache/cache.py", """
def get_thumbnail(path, size=(128, 128), resample="lanczos"):
    try:
        img = Image.open(path)
        img.thumbnail(size, FILTERS[resample])
        return {"size": img.size, "data": _encode(img)}
    except Exception:
        return None
""", """
def get_thumbnail(path, size=(128, 128), resample="lanczos"):
    try:
        img = Image.open(path)
    except FileNotFoundError:
        return None
    img.thumbnail(size, FILTERS[resample.upper()])
    return {"size": img.size, "data": _encode(img)}
""", start=33),
)

BES = ["r-bes-confload", "r-bes-webhookrelay", "r-bes-thumbcache"]

query(
    "q-bes-csvvalidator", "csvvalidator", "broad-except-swallow",
    r"""
==[test session starts]
platform linux -- Python 3.11.8, pytest-8.0.2, pluggy-1.4.0
rootdir: /home/data/csvvalidator
configfile: pyproject.toml
collected 38 items

%%tests/test_schema.py .............F........................ [100%]

==[FAILURES]
__[test_unknown_column_type_is_schema_error]

    def test_unknown_column_type_is_schema_error():
        spec = {"columns": [{"name": "age", "type": "integr"}]}
>       with pytest.raises(SchemaError, match="unknown type 'integr'"):
E       Failed: DID NOT RAISE <class 'csvvalidator.errors.SchemaError'>

tests/test_schema.py:97: Failed
==[short test summary info]
FAILED tests/test_schema.py::test_unknown_column_type_is_schema_error - Failed: DID NOT RAISE <class 'csvvalidator.errors.SchemaError'>
==[1 failed, 37 passed in 0.14s]
""",
    "Failed", BES, color=True,
)

query(
    "q-bes-auth-tokens", "auth-tokens", "broad-except-swallow",
    r"""
....F...
======================================================================
FAIL: test_expired_token_rejected (tests.test_verify.VerifyTokenTest.test_expired_token_rejected)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/srv/auth/auth-tokens/tests/test_verify.py", line 44, in test_expired_token_rejected
    with self.assertRaises(TokenExpired):
AssertionError: TokenExpired not raised

----------------------------------------------------------------------
Ran 8 tests in 0.021s

FAILED (failures=1)
""",
    "AssertionError", BES,
)

query(
    "q-bes-scraper-kit", "scraper-kit", "broad-except-swallow",
    r"""
==[test session starts]
platform linux -- Python 3.12.3, pytest-8.2.0, pluggy-1.5.0
rootdir: /home/runner/work/scraper-kit/scraper-kit
configfile: pyproject.toml
plugins: responses-0.5.1
collected 21 items

%%tests/test_listing.py ..F.................. [100%]

==[FAILURES]
__[test_listing_reports_http_errors]

mocked = <responses.RequestsMock object at 0x7f5d3c2b1a90>

    def test_listing_reports_http_errors(mocked):
        mocked.get("https://shop.example/catalog?page=1", status=503)
>       items = scrape_listing("https://shop.example/catalog")

tests/test_listing.py:58: 
_ _

url = 'https://shop.example/catalog'

    def scrape_listing(url):
        soup = fetch_soup(f"{url}?page=1")
>       return [parse_card(c) for c in soup.find_all("div", class_="card")]
E       AttributeError: 'NoneType' object has no attribute 'find_all'

src/scraper_kit/listing.py:24: AttributeError
==[short test summary info]
FAILED tests/test_listing.py::test_listing_reports_http_errors - AttributeError: 'NoneType' object has no attribute 'find_all'
==[1 failed, 20 passed in 0.31s]
""",
    "AttributeError", BES,
)

query(
    "q-bes-jobrunner", "jobrunner", "broad-except-swallow",
    r"""
==[test session starts]
platform linux -- Python 3.10.13, pytest-7.4.2, pluggy-1.3.0
rootdir: /opt/jobrunner
collected 44 items

%%tests/test_executor.py ..............F..F.......... [ 63%]
%%tests/test_queue.py ................ [100%]

==[FAILURES]
__[test_failing_job_marked_failed]

executor = <jobrunner.executor.Executor object at 0x7fe2b1c0d4f0>

    def test_failing_job_marked_failed(executor):
        job = executor.submit(boom, args=("disk full",))
        executor.drain()
>       assert job.status == "failed"
E       AssertionError: assert 'succeeded' == 'failed'
E         - failed
E         + succeeded

tests/test_executor.py:121: AssertionError
__[test_failing_job_keeps_traceback]

executor = <jobrunner.executor.Executor object at 0x7fe2b1c0e9d0>

    def test_failing_job_keeps_traceback(executor):
        job = executor.submit(boom, args=("disk full",))
        executor.drain()
>       assert "OSError: disk full" in job.error
E       TypeError: argument of type 'NoneType' is not iterable

tests/test_executor.py:133: TypeError
==[short test summary info]
FAILED tests/test_executor.py::test_failing_job_marked_failed - AssertionError: assert 'succeeded' == 'failed'
FAILED tests/test_executor.py::test_failing_job_keeps_traceback - TypeError: argument of type 'NoneType' is not iterable
==[2 failed, 42 passed in 0.47s]
""",
    "AssertionError", BES,
)

query(
    "q-bes-ini2json", "ini2json", "broad-except-swallow",
    r"""
==[test session starts]
platform linux -- Python 3.11.5, pytest-7.4.2, pluggy-1.3.0
rootdir: /home/u/ini2json
collected 12 items

%%tests/test_convert.py .......F.... [100%]

==[FAILURES]
__[test_convert_section_with_interpolation]

sample_ini = '[paths]\nbase = /srv\nlogs = %(base)s/logs\n[db]\nurl = %(missing)s/db\n'

    def test_convert_section_with_interpolation(sample_ini):
        out = convert(sample_ini)
>       assert out["paths"]["logs"] == "/srv/logs"
E       TypeError: 'NoneType' object is not subscriptable

tests/test_convert.py:71: TypeError
==[short test summary info]
!!FAILED tests/test_convert.py::test_convert_section_with_interpolation - TypeError: 'NoneType' object is not subscriptable
==[1 failed, 11 passed in 0.03s]
""",
    "TypeError", BES, width=72,
)

# ---------------------------------------------------------------------------
# Family: generator-exhausted
# An iterator/generator (generator expression, map, csv.reader, file, DB
# cursor) is consumed once and then iterated again, yielding nothing.
# ---------------------------------------------------------------------------

record(
    "r-gex-statpack", "statpack", "generator-exhausted",
    r"""
==[test session starts]
platform linux -- Python 3.12.2, pytest-8.0.2, pluggy-1.4.0
rootdir: /home/stats/statpack
configfile: pyproject.toml
collected 26 items

%%tests/test_describe.py ....F..................... [100%]

==[FAILURES]
__[test_describe_from_generator]

    def test_describe_from_generator():
        values = (x * 0.5 for x in range(1, 9))
>       summary = describe(values)

tests/test_describe.py:40: 
_ _
src/statpack/describe.py:22: in describe
    var = variance(data, mu)
_ _

data = <generator object test_describe_from_generator.<locals>.<genexpr> at 0x7f0e2c1d9a80>, mu = 2.25

    def variance(data, mu):
        total = 0.0
        n = 0
        for x in data:
            total += (x - mu) ** 2
            n += 1
>       return total / (n - 1)
E       ZeroDivisionError: float division by zero

src/statpack/describe.py:12: ZeroDivisionError
==[short test summary info]
FAILED tests/test_describe.py::test_describe_from_generator - ZeroDivisionError: float division by zero
==[1 failed, 25 passed in 0.07s]
""",
    "ZeroDivisionError",
    ["src/statpack/describe.py"],
    """describe() passed its input to mean() and then to variance(); when callers gave
    a generator, mean() consumed it and variance() iterated an exhausted generator,
    saw n == 0 and divided by zero (-1). describe() now materialises the input with
    list(data) once before computing the statistics.""",
    "pytest passed with exit code 0 (26 passed)",
    unified("src/statpack/describe.py", """
def describe(data):
    mu = mean(data)
    var = variance(data, mu)
    return Summary(mean=mu, variance=var, stdev=math.sqrt(var))
""", """
def describe(data):
    data = list(data)
    mu = mean(data)
    var = variance(data, mu)
    return Summary(mean=mu, variance=var, stdev=math.sqrt(var))
""", start=20),
)

record(
    "r-gex-csvdiff", "csvdiff", "generator-exhausted",
    r"""
==[test session starts]
platform linux -- Python 3.11.7, pytest-7.4.4, pluggy-1.3.0
rootdir: /home/dev/csvdiff
collected 17 items

%%tests/test_load.py ..F.............. [100%]

==[FAILURES]
__[test_load_detects_dialect_and_reads_all_rows]

sample_csv = PosixPath('/home/dev/csvdiff/tests/data/customers_semicolon.csv')

    def test_load_detects_dialect_and_reads_all_rows(sample_csv):
        table = load_table(sample_csv)
        assert table.header == ["id", "name", "country"]
>       assert len(table.rows) == 12
E       assert 0 == 12
E        +  where 0 = len([])
E        +    where [] = Table(header=['id', 'name', 'country'], rows=[]).rows

tests/test_load.py:27: AssertionError
==[short test summary info]
FAILED tests/test_load.py::test_load_detects_dialect_and_reads_all_rows - assert 0 == 12
==[1 failed, 16 passed in 0.05s]
""",
    "AssertionError",
    ["src/csvdiff/load.py"],
    """load_table() built one csv.reader over the file and passed it first to a helper
    that validated every row's width (looping to the end) and then to the list()
    that collected rows, which was therefore empty. The reader is now turned into
    a list once and both the validation and the Table use that list.""",
    "pytest passed with exit code 0 (17 passed)",
    unified("src/csvdiff/load.py", """
def load_table(path):
    with open(path, newline="", encoding="utf-8") as fh:
        dialect = csv.Sniffer().sniff(fh.read(4096))
        fh.seek(0)
        reader = csv.reader(fh, dialect)
        header = next(reader)
        _check_widths(reader, len(header))
        return Table(header=header, rows=list(reader))
""", """
def load_table(path):
    with open(path, newline="", encoding="utf-8") as fh:
        dialect = csv.Sniffer().sniff(fh.read(4096))
        fh.seek(0)
        reader = csv.reader(fh, dialect)
        header = next(reader)
        rows = list(reader)
    _check_widths(rows, len(header))
    return Table(header=header, rows=rows)
""", start=18),
)

GEX = ["r-gex-statpack", "r-gex-csvdiff"]

query(
    "q-gex-loganalyzer", "loganalyzer", "generator-exhausted",
    r"""
==[test session starts]
platform linux -- Python 3.12.1, pytest-7.4.4, pluggy-1.3.0
rootdir: /home/ops/loganalyzer
collected 14 items

%%tests/test_report.py ...F.......... [100%]

==[FAILURES]
__[test_report_counts_and_lists_errors]

access_log = PosixPath('/home/ops/loganalyzer/tests/fixtures/nginx_error.log')

    def test_report_counts_and_lists_errors(access_log):
        rep = build_report(access_log)
        assert rep.total_lines == 40
>       assert rep.errors == [
            "2024/05/02 10:14:07 [error] upstream timed out",
            "2024/05/02 10:15:31 [error] connect() failed",
        ]
E       AssertionError: assert [] == ['2024/05/02 10:14:07 [error] upstream timed out', '2024/05/02 10:15:31 [error] connect() failed']
E         Right contains 2 more items, first extra item: '2024/05/02 10:14:07 [error] upstream timed out'
E         Full diff:
E         - [
E         -     '2024/05/02 10:14:07 [error] upstream timed out',
E         -     '2024/05/02 10:15:31 [error] connect() failed',
E         - ]
E         + []

tests/test_report.py:30: AssertionError
==[short test summary info]
FAILED tests/test_report.py::test_report_counts_and_lists_errors - AssertionError: assert [] == ['2024/05/02 10:14:07 [error] upstream timed out', '2024/05/02 10:15:31 [error] connect() failed']
==[1 failed, 13 passed in 0.04s]
""",
    "AssertionError", GEX, color=True,
)

query(
    "q-gex-etl-pipe", "etl-pipe", "generator-exhausted",
    r"""
..F.....
======================================================================
FAIL: test_pipeline_loads_all_valid_rows (tests.test_pipeline.PipelineTest)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/etl/etl-pipe/tests/test_pipeline.py", line 52, in test_pipeline_loads_all_valid_rows
    self.assertEqual(self.sink.count(), 3)
AssertionError: 0 != 3

----------------------------------------------------------------------
Ran 8 tests in 0.017s

FAILED (failures=1)
""",
    "AssertionError", GEX,
)

query(
    "q-gex-histogram-cli", "histogram-cli", "generator-exhausted",
    r"""
==[test session starts]
platform linux -- Python 3.11.6, pytest-7.4.3, pluggy-1.3.0
rootdir: /home/me/histogram-cli
collected 10 items

%%tests/test_bins.py .F........ [100%]

==[FAILURES]
__[test_bins_from_stdin_numbers]

monkeypatch = <_pytest.monkeypatch.MonkeyPatch object at 0x7f6d7e8f9a10>

    def test_bins_from_stdin_numbers(monkeypatch):
        monkeypatch.setattr("sys.stdin", io.StringIO("3\n7\n1\n9\n4\n"))
>       assert main(["--bins", "2"]) == 0

tests/test_bins.py:21: 
_ _
src/histogram_cli/__main__.py:34: in main
    edges = bin_edges(values, args.bins)
_ _

values = <map object at 0x7f6d7e8fa2c0>, bins = 2

    def bin_edges(values, bins):
        lo = min(values)
>       hi = max(values)
E       ValueError: max() arg is an empty sequence

src/histogram_cli/bins.py:9: ValueError
==[short test summary info]
FAILED tests/test_bins.py::test_bins_from_stdin_numbers - ValueError: max() arg is an empty sequence
==[1 failed, 9 passed in 0.02s]
""",
    "ValueError", GEX,
)

query(
    "q-gex-recommend-lite", "recommend-lite", "generator-exhausted",
    r"""
==[test session starts]
platform linux -- Python 3.10.12, pytest-7.4.0, pluggy-1.2.0
rootdir: /home/ml/recommend-lite
configfile: setup.cfg
collected 19 items

%%tests/test_rank.py ......F............ [100%]

==[FAILURES]
__[test_best_pick_after_scoring]

catalog = Catalog(n=5)

    def test_best_pick_after_scoring(catalog):
        rec = Recommender(catalog)
>       pick = rec.best_for(user_id=42)

tests/test_rank.py:77: 
_ _

self = <recommend_lite.rank.Recommender object at 0x7f8c9d0e1f20>, user_id = 42

    def best_for(self, user_id):
        candidates = (item for item in self.catalog if item.in_stock)
        self._log_scores(user_id, candidates)
>       return next(iter(sorted(candidates, key=self._score_fn(user_id), reverse=True)))
E       StopIteration

src/recommend_lite/rank.py:51: StopIteration
==[short test summary info]
FAILED tests/test_rank.py::test_best_pick_after_scoring - StopIteration
==[1 failed, 18 passed in 0.12s]
""",
    "StopIteration", GEX,
)

query(
    "q-gex-dbexport", "dbexport", "generator-exhausted",
    r"""
==[test session starts]
platform linux -- Python 3.12.4, pytest-8.2.2, pluggy-1.5.0
rootdir: /home/runner/work/dbexport/dbexport
configfile: pyproject.toml
collected 15 items

%%tests/test_export.py ..F.F.......... [100%]

==[FAILURES]
__[test_export_writes_every_row]

db = <sqlite3.Connection object at 0x7f4e5a6b7c40>, tmp_path = PosixPath('/tmp/pytest-of-runner/pytest-0/test_export_writes_every_row0')

    def test_export_writes_every_row(db, tmp_path):
        out = tmp_path / "orders.jsonl"
        n = export_table(db, "orders", out)
>       assert n == 250
E       assert 0 == 250

tests/test_export.py:33: AssertionError
__[test_export_file_matches_count]

db = <sqlite3.Connection object at 0x7f4e5a6b8e30>, tmp_path = PosixPath('/tmp/pytest-of-runner/pytest-0/test_export_file_matches_count0')

    def test_export_file_matches_count(db, tmp_path):
        out = tmp_path / "orders.jsonl"
        export_table(db, "orders", out)
>       assert len(out.read_text().splitlines()) == 250
E       AssertionError: assert 0 == 250
E        +  where 0 = len([])
E        +    where [] = <built-in method splitlines of str object at 0x7f4e5b9c0030>()
E        +      where <built-in method splitlines of str object at 0x7f4e5b9c0030> = ''.splitlines
E        +        where '' = <bound method Path.read_text of PosixPath('/tmp/pytest-of-runner/pytest-0/test_export_file_matches_count0/orders.jsonl')>()
E        +          where <bound method Path.read_text of PosixPath('/tmp/pytest-of-runner/pytest-0/test_export_file_matches_count0/orders.jsonl')> = PosixPath('/tmp/pytest-of-runner/pytest-0/test_export_file_matches_count0/orders.jsonl').read_text

tests/test_export.py:40: AssertionError
==[short test summary info]
FAILED tests/test_export.py::test_export_writes_every_row - assert 0 == 250
FAILED tests/test_export.py::test_export_file_matches_count - AssertionError: assert 0 == 250
==[2 failed, 13 passed in 0.09s]
""",
    "AssertionError", GEX,
)
