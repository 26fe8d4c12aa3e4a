from _fmt import record, query, unified

# ---------------------------------------------------------------------------
# Family: url-double-encoding
# A value is percent-encoded by hand and then encoded again by urlencode /
# requests params / a URL builder, producing %2520, %253A, ...
# ---------------------------------------------------------------------------

record(
    "r-ude-mapsclient", "mapsclient", "url-double-encoding",
    r"""
==[test session starts]
platform linux -- Python 3.11.7, pytest-7.4.4, pluggy-1.3.0
rootdir: /home/geo/mapsclient
configfile: pyproject.toml
plugins: requests-mock-1.11.0
collected 22 items

%%tests/test_geocode.py ...F.................. [100%]

==[FAILURES]
__[test_geocode_builds_query_string]

requests_mock = <requests_mock.mocker.Mocker object at 0x7f8b2e4c1d60>

    def test_geocode_builds_query_string(requests_mock):
        requests_mock.get("https://geo.example.com/v1/search", json={"results": []})
        GeoClient(key="k").geocode("10 Downing St, London")
>       assert requests_mock.last_request.url == (
            "https://geo.example.com/v1/search?q=10+Downing+St%2C+London&key=k"
        )
E       AssertionError: assert 'https://geo.example.com/v1/search?q=10%2520Downing%2520St%252C%2520London&key=k' == 'https://geo.example.com/v1/search?q=10+Downing+St%2C+London&key=k'
E         - https://geo.example.com/v1/search?q=10+Downing+St%2C+London&key=k
E         ?                                      ^       ^  ^  ^
E         + https://geo.example.com/v1/search?q=10%2520Downing%2520St%252C%2520London&key=k
E         ?                                      ^^^^^       ^^^^^  ^^^^  ^^^^^

tests/test_geocode.py:29: AssertionError
==[short test summary info]
FAILED tests/test_geocode.py::test_geocode_builds_query_string - AssertionError: assert 'https://geo.example.com/v1/search?q=10%2520Downing%2520St%252C%2520London&key=k' == 'https://geo.example.com/v1/search?q=10+Downing+St%2C+London&key=k'
==[1 failed, 21 passed in 0.23s]
""",
    "AssertionError",
    ["src/mapsclient/client.py"],
    """geocode() ran the address through urllib.parse.quote() and then passed the result
    in params= to requests, which percent-encodes query values itself, so every '%'
    from the first pass became '%25' (spaces arrived as %2520). The manual quote()
    call was removed; the raw address is handed to requests once.""",
    "pytest passed with exit code 0 (22 passed)",
    unified("src/mapsclient/client.py", """
    def geocode(self, address):
        params = {"q": quote(address), "key": self.key}
        resp = self.session.get(f"{self.base}/v1/search", params=params, timeout=10)
        resp.raise_for_status()
        return [Place.from_json(r) for r in resp.json()["results"]]
""", """
    def geocode(self, address):
        params = {"q": address, "key": self.key}
        resp = self.session.get(f"{self.base}/v1/search", params=params, timeout=10)
        resp.raise_for_status()
        return [Place.from_json(r) for r in resp.json()["results"]]
""", start=41, func="class GeoClient:"),
)

record(
    "r-ude-s3presign", "s3presign-lite", "url-double-encoding",
    r"""
==[test session starts]
platform linux -- Python 3.12.3, pytest-8.2.0, pluggy-1.5.0
rootdir: /home/runner/work/s3presign-lite/s3presign-lite
configfile: pyproject.toml
collected 40 items

%%tests/test_sigv4.py ........F.......F......... [ 65%]
%%tests/test_presign.py .............. [100%]

==[FAILURES]
__[test_canonical_uri_with_space]

    def test_canonical_uri_with_space():
>       assert canonical_uri("my-bucket", "reports/q1 final.pdf") == "/my-bucket/reports/q1%20final.pdf"
E       AssertionError: assert '/my-bucket/reports/q1%2520final.pdf' == '/my-bucket/reports/q1%20final.pdf'
E         - /my-bucket/reports/q1%20final.pdf
E         + /my-bucket/reports/q1%2520final.pdf
E         ?                        ++

tests/test_sigv4.py:88: AssertionError
__[test_signature_matches_aws_vector]

aws_vector = SigV4Vector(name='get-object-space', key='reports/q1 final.pdf', expected_signature='a3f1c9...e07b')

    def test_signature_matches_aws_vector(aws_vector):
        url = presign_get("my-bucket", aws_vector.key, creds=TEST_CREDS, now=FIXED_NOW)
>       assert parse_qs(urlsplit(url).query)["X-Amz-Signature"] == [aws_vector.expected_signature]
E       AssertionError: assert ['5be0d2...41c8'] == ['a3f1c9...e07b']
E         At index 0 diff: '5be0d2...41c8' != 'a3f1c9...e07b'
E         Full diff:
E         - ['a3f1c9...e07b']
E         + ['5be0d2...41c8']

tests/test_sigv4.py:121: AssertionError
==[short test summary info]
FAILED tests/test_sigv4.py::test_canonical_uri_with_space - AssertionError: assert '/my-bucket/reports/q1%2520final.pdf' == '/my-bucket/reports/q1%20final.pdf'
FAILED tests/test_sigv4.py::test_signature_matches_aws_vector - AssertionError: assert ['5be0d2...41c8'] == ['a3f1c9...e07b']
==[2 failed, 38 passed in 0.35s]
""",
    "AssertionError",
    ["src/s3presign/sigv4.py"],
    """canonical_uri() quoted the object key and then passed the already-encoded path
    through _uri_encode() again while building the canonical request, so '%20' became
    '%2520' and the signature no longer matched what S3 computes. The key is now
    encoded exactly once, segment by segment, with quote(segment, safe='-_.~').""",
    "pytest passed with exit code 0 (40 passed)",
    unified("src/s3presign/sigv4.py", """
def canonical_uri(bucket: str, key: str) -> str:
    path = f"/{bucket}/{quote(key)}"
    return _uri_encode(path, keep_slash=True)
""", """
def canonical_uri(bucket: str, key: str) -> str:
    segments = [quote(seg, safe="-_.~") for seg in key.split("/")]
    return f"/{bucket}/" + "/".join(segments)
""", start=57),
)

UDE = ["r-ude-mapsclient", "r-ude-s3presign"]

query(
    "q-ude-searchproxy", "searchproxy", "url-double-encoding",
    r"""
==[test session starts]
platform linux -- Python 3.11.9, pytest-8.1.1, pluggy-1.4.0
rootdir: /srv/searchproxy
configfile: pyproject.toml
plugins: httpx-0.30.0, anyio-4.3.0
collected 27 items

%%tests/test_upstream.py ..F....F................... [100%]

==[FAILURES]
__[test_unicode_query_forwarded[cafe]]

httpx_mock = <pytest_httpx._httpx_mock.HTTPXMock object at 0x7f2e3a4b5c60>, term = 'café'

    @pytest.mark.parametrize("term", ["café", "naïve résumé"], ids=["cafe", "resume"])
    async def test_unicode_query_forwarded(httpx_mock, term):
        httpx_mock.add_response(json={"hits": []})
        await search(term)
        req = httpx_mock.get_request()
>       assert str(req.url) == "https://api.example.com/search?q=" + quote_plus(term)
E       AssertionError: assert 'https://api.example.com/search?q=caf%25C3%25A9' == 'https://api.example.com/search?q=caf%C3%A9'
E         - https://api.example.com/search?q=caf%C3%A9
E         + https://api.example.com/search?q=caf%25C3%25A9
E         ?                                      ++   ++

tests/test_upstream.py:44: AssertionError
__[test_unicode_query_forwarded[resume]]

httpx_mock = <pytest_httpx._httpx_mock.HTTPXMock object at 0x7f2e3a4b7e20>, term = 'naïve résumé'

    @pytest.mark.parametrize("term", ["café", "naïve résumé"], ids=["cafe", "resume"])
    async def test_unicode_query_forwarded(httpx_mock, term):
        httpx_mock.add_response(json={"hits": []})
        await search(term)
        req = httpx_mock.get_request()
>       assert str(req.url) == "https://api.example.com/search?q=" + quote_plus(term)
E       AssertionError: assert 'https://api.example.com/search?q=na%25C3%25AFve%2Br%25C3%25A9sum%25C3%25A9' == 'https://api.example.com/search?q=na%C3%AFve+r%C3%A9sum%C3%A9'
E         - https://api.example.com/search?q=na%C3%AFve+r%C3%A9sum%C3%A9
E         + https://api.example.com/search?q=na%25C3%25AFve%2Br%25C3%25A9sum%25C3%25A9
E         ?                                     ++   ++     ^^^   ++   ++     ++   ++

tests/test_upstream.py:44: AssertionError
==[short test summary info]
FAILED tests/test_upstream.py::test_unicode_query_forwarded[cafe] - AssertionError: assert 'https://api.example.com/search?q=caf%25C3%25A9' == 'https://api.example.com/search?q=caf%C3%A9'
FAILED tests/test_upstream.py::test_unicode_query_forwarded[resume] - AssertionError: assert 'https://api.example.com/search?q=na%25C3%25AFve%2Br%25C3%25A9sum%25C3%25A9' == 'https://api.example.com/search?q=na%C3%AFve+r%C3%A9sum%C3%A9'
==[2 failed, 25 passed in 0.44s]
""",
    "AssertionError", UDE, color=True,
)

query(
    "q-ude-oauth-redirect", "oauth-redirect", "url-double-encoding",
    r"""
.....F..
======================================================================
FAIL: test_authorize_url_contains_redirect_uri (tests.test_flow.AuthorizeUrlTest.test_authorize_url_contains_redirect_uri)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/id/oauth-redirect/tests/test_flow.py", line 39, in test_authorize_url_contains_redirect_uri
    self.assertIn("redirect_uri=https%3A%2F%2Fapp.example.org%2Fcallback", url)
AssertionError: 'redirect_uri=https%3A%2F%2Fapp.example.org%2Fcallback' not found in 'https://id.example.org/authorize?client_id=web&response_type=code&redirect_uri=https%253A%252F%252Fapp.example.org%252Fcallback&state=x1'

----------------------------------------------------------------------
Ran 8 tests in 0.004s

FAILED (failures=1)
""",
    "AssertionError", UDE,
)

query(
    "q-ude-fileshare-links", "fileshare-links", "url-double-encoding",
    r"""
==[test session starts]
platform linux -- Python 3.12.2, pytest-8.0.2, pluggy-1.4.0
django: version: 5.0.2, settings: fileshare.settings.test (from ini)
rootdir: /code
configfile: pytest.ini
plugins: django-4.8.0
collected 53 items

%%shares/tests/test_links.py ...........F......... [ 39%]
%%shares/tests/test_models.py ................................ [100%]

==[FAILURES]
__[test_share_link_for_file_with_spaces_resolves]

client = <django.test.client.Client object at 0x7f0d1e2f3a40>
shared_file = <SharedFile: Quarterly Report (final).pdf>

    @pytest.mark.django_db
    def test_share_link_for_file_with_spaces_resolves(client, shared_file):
        link = build_share_link(shared_file)
        resp = client.get(link)
>       assert resp.status_code == 200
E       assert 404 == 200
E        +  where 404 = <HttpResponseNotFound status_code=404, "text/html; charset=utf-8">.status_code

shares/tests/test_links.py:88: AssertionError
----------------------------- Captured log call ------------------------------
WARNING  django.request:log.py:241 Not Found: /s/7Kq2/Quarterly%2520Report%2520%2528final%2529.pdf
==[short test summary info]
FAILED shares/tests/test_links.py::test_share_link_for_file_with_spaces_resolves - assert 404 == 200
==[1 failed, 52 passed in 2.31s]
""",
    "AssertionError", UDE,
)

query(
    "q-ude-crawler-frontier", "crawler-frontier", "url-double-encoding",
    r"""
==[test session starts]
platform linux -- Python 3.10.14, pytest-8.2.1, pluggy-1.5.0
rootdir: /home/crawl/crawler-frontier
collected 31 items

%%tests/test_normalize.py ......F...F.... [ 48%]
%%tests/test_frontier.py ................ [100%]

==[FAILURES]
__[test_normalize_is_idempotent]

    def test_normalize_is_idempotent():
        u = "https://Example.com/a b/?q=x y"
>       assert normalize(normalize(u)) == normalize(u)
E       AssertionError: assert 'https://example.com/a%2520b/?q=x%2520y' == 'https://example.com/a%20b/?q=x%20y'
E         - https://example.com/a%20b/?q=x%20y
E         + https://example.com/a%2520b/?q=x%2520y
E         ?                        ++          ++

tests/test_normalize.py:51: AssertionError
__[test_seen_set_deduplicates_encoded_variants]

    def test_seen_set_deduplicates_encoded_variants():
        f = Frontier()
        f.add("https://example.com/docs/getting%20started")
        f.add("https://example.com/docs/getting started")
>       assert len(f.seen) == 1
E       AssertionError: assert 2 == 1
E        +  where 2 = len({'https://example.com/docs/getting%20started', 'https://example.com/docs/getting%2520started'})
E        +    where {'https://example.com/docs/getting%20started', 'https://example.com/docs/getting%2520started'} = <crawler_frontier.frontier.Frontier object at 0x7f3b4c5d6e70>.seen

tests/test_normalize.py:77: AssertionError
==[short test summary info]
!!FAILED tests/test_normalize.py::test_normalize_is_idempotent - AssertionError: assert 'https://example.com/a%2520b/?q=x%2520y' == 'https://example.com/a%20b/?q=x%20y'
!!FAILED tests/test_normalize.py::test_seen_set_deduplicates_encoded_variants - AssertionError: assert 2 == 1
==[2 failed, 29 passed in 0.08s]
""",
    "AssertionError", UDE,
)

# ---------------------------------------------------------------------------
# Family: csv-naive-split
# CSV read with line.split(',') / written with ','.join(), so quoted fields
# that contain commas (or quotes) break the column layout.
# ---------------------------------------------------------------------------

record(
    "r-csv-contacts", "contacts-import", "csv-naive-split",
    r"""
==[test session starts]
platform linux -- Python 3.11.5, pytest-7.4.2, pluggy-1.3.0
rootdir: /home/crm/contacts-import
collected 15 items

%%tests/test_reader.py ..F............ [100%]

==[FAILURES]
__[test_reads_quoted_name_with_comma]

tmp_path = PosixPath('/tmp/pytest-of-crm/pytest-1/test_reads_quoted_name_with_c0')

    def test_reads_quoted_name_with_comma(tmp_path):
        f = tmp_path / "contacts.csv"
        f.write_text('name,email,phone\n"Smith, John",js@example.com,555-0100\n')
>       contacts = read_contacts(f)

tests/test_reader.py:21: 
_ _

path = PosixPath('/tmp/pytest-of-crm/pytest-1/test_reads_quoted_name_with_c0/contacts.csv')

    def read_contacts(path):
        out = []
        with open(path, encoding="utf-8") as fh:
            next(fh)
            for line in fh:
>               name, email, phone = line.rstrip("\n").split(",")
E               ValueError: too many values to unpack (expected 3)

src/contacts_import/reader.py:12: ValueError
==[short test summary info]
FAILED tests/test_reader.py::test_reads_quoted_name_with_comma - ValueError: too many values to unpack (expected 3)
==[1 failed, 14 passed in 0.03s]
""",
    "ValueError",
    ["src/contacts_import/reader.py"],
    """read_contacts() split each line on ',' by hand, so a quoted field containing a
    comma ("Smith, John") produced four values and the unpacking failed. Switched
    to csv.DictReader (file opened with newline=''), which honours quoting and
    embedded newlines.""",
    "pytest passed with exit code 0 (15 passed)",
    unified("src/contacts_import/reader.py", """
def read_contacts(path):
    out = []
    with open(path, encoding="utf-8") as fh:
        next(fh)
        for line in fh:
            name, email, phone = line.rstrip("\\n").split(",")
            out.append(Contact(name=name, email=email, phone=phone))
    return out
""", """
def read_contacts(path):
    out = []
    with open(path, encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            out.append(Contact(name=row["name"], email=row["email"], phone=row["phone"]))
    return out
""", start=6),
)

record(
    "r-csv-geonames", "geonames-loader", "csv-naive-split",
    r"""
==[test session starts]
platform linux -- Python 3.12.2, pytest-8.0.2, pluggy-1.4.0
rootdir: /home/runner/work/geonames-loader/geonames-loader
configfile: pyproject.toml
collected 20 items

%%tests/test_roundtrip.py .F.................. [100%]

==[FAILURES]
__[test_export_then_import_roundtrip]

tmp_path = PosixPath('/tmp/pytest-of-runner/pytest-0/test_export_then_import_round0')

    def test_export_then_import_roundtrip(tmp_path):
        places = [Place(name="Paris", admin='Île-de-France, "IDF"', country="FR", population=2102650)]
        out = tmp_path / "places.csv"
        export_places(places, out)
>       assert import_places(out) == places
E       AssertionError: assert [Place(name='Paris', admin='Île-de-France', country=' "IDF"', population='FR')] == [Place(name='Paris', admin='Île-de-France, "IDF"', country='FR', population=2102650)]
E         At index 0 diff: Place(name='Paris', admin='Île-de-France', country=' "IDF"', population='FR') != Place(name='Paris', admin='Île-de-France, "IDF"', country='FR', population=2102650)
E         Full diff:
E         - [Place(name='Paris', admin='Île-de-France, "IDF"', country='FR', population=2102650)]
E         + [Place(name='Paris', admin='Île-de-France', country=' "IDF"', population='FR')]

tests/test_roundtrip.py:27: AssertionError
==[short test summary info]
FAILED tests/test_roundtrip.py::test_export_then_import_roundtrip - AssertionError: assert [Place(name='Paris', admin='Île-de-France', country=' "IDF"', population='FR')] == [Place(name='Paris', admin='Île-de-France, "IDF"', country='FR', population=2102650)]
==[1 failed, 19 passed in 0.06s]
""",
    "AssertionError",
    ["src/geonames_loader/io.py"],
    """export_places() wrote rows with ','.join(...) and import_places() read them back
    with line.split(','), so an admin name containing a comma and quotes was split
    into extra columns and every later field shifted. Both sides now use the csv
    module (csv.writer with QUOTE_MINIMAL and csv.reader), and population is
    converted back to int on import.""",
    "pytest passed with exit code 0 (20 passed)",
    unified("src/geonames_loader/io.py", """
def export_places(places, path):
    with open(path, "w", encoding="utf-8") as fh:
        for p in places:
            fh.write(",".join([p.name, p.admin, p.country, str(p.population)]) + "\\n")


def import_places(path):
    with open(path, encoding="utf-8") as fh:
        return [Place(*line.rstrip("\\n").split(",")[:4]) for line in fh]
""", """
def export_places(places, path):
    with open(path, "w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, quoting=csv.QUOTE_MINIMAL)
        for p in places:
            writer.writerow([p.name, p.admin, p.country, p.population])


def import_places(path):
    with open(path, encoding="utf-8", newline="") as fh:
        return [
            Place(name, admin, country, int(population))
            for name, admin, country, population in csv.reader(fh)
        ]
""", start=9),
)

record(
    "r-csv-surveyexport", "survey-export", "csv-naive-split",
    r"""
......E...
======================================================================
ERROR: test_company_size_column (tests.test_responses.ResponsesParseTest.test_company_size_column)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/srv/survey-export/tests/test_responses.py", line 64, in test_company_size_column
    rows = parse_export(self.fixture("typeform_export.csv"))
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/srv/survey-export/survey_export/parse.py", line 31, in parse_export
    employees=int(cols[4]),
              ^^^^^^^^^^^^
ValueError: invalid literal for int() with base 10: ' Inc."'

----------------------------------------------------------------------
Ran 10 tests in 0.015s

FAILED (errors=1)
""",
    "ValueError",
    ["survey_export/parse.py"],
    """parse_export() split every line with line.split(','), but the survey tool quotes
    free-text answers, and a company name like "Acme, Inc." added a column so
    cols[4] held the tail of the name instead of the employee count. Parsing now
    goes through csv.reader, which keeps quoted commas inside one field.""",
    "python -m unittest passed with exit code 0 (Ran 10 tests, OK)",
    unified("survey_export/parse.py", """
def parse_export(path):
    rows = []
    with open(path, encoding="utf-8") as fh:
        header = fh.readline()
        for line in fh:
            cols = line.rstrip("\\n").split(",")
            rows.append(Response(
""", """
def parse_export(path):
    rows = []
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.reader(fh)
        header = next(reader)
        for cols in reader:
            rows.append(Response(
""", start=20),
)

CSV = ["r-csv-contacts", "r-csv-geonames", "r-csv-surveyexport"]

query(
    "q-csv-crm-dedupe", "crm-dedupe", "csv-naive-split",
    r"""
==[test session starts]
platform linux -- Python 3.12.3, pytest-8.2.0, pluggy-1.5.0
rootdir: /home/sales/crm-dedupe
configfile: pyproject.toml
collected 23 items

%%tests/test_load_accounts.py ...F................... [100%]

==[FAILURES]
__[test_load_accounts_export]

export_file = PosixPath('/home/sales/crm-dedupe/tests/fixtures/hubspot_accounts.csv')

    def test_load_accounts_export(export_file):
>       accounts = load_accounts(export_file)

tests/test_load_accounts.py:19: 
_ _
src/crm_dedupe/load.py:22: in load_accounts
    return [_account(line) for line in lines[1:]]
_ _

line = '1042,"Baker, Hughes & Co",Houston,TX\n'

    def _account(line):
>       acct_id, company, city, state = line.strip().split(",")
E       ValueError: too many values to unpack (expected 4)

src/crm_dedupe/load.py:15: ValueError
==[short test summary info]
FAILED tests/test_load_accounts.py::test_load_accounts_export - ValueError: too many values to unpack (expected 4)
==[1 failed, 22 passed in 0.07s]
""",
    "ValueError", CSV, color=True,
)

query(
    "q-csv-catalog-feed", "catalog-feed", "csv-naive-split",
    r"""
...F.....
======================================================================
FAIL: test_title_with_comma (tests.test_feed.FeedParseTest)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/shop/catalog-feed/tests/test_feed.py", line 41, in test_title_with_comma
    self.assertEqual(item.title, "Widget, large")
AssertionError: '"Widget' != 'Widget, large'
- "Widget
? -
+ Widget, large
?       +++++++


----------------------------------------------------------------------
Ran 9 tests in 0.003s

FAILED (failures=1)
""",
    "AssertionError", CSV,
)

query(
    "q-csv-timesheet", "timesheet-parse", "csv-naive-split",
    r"""
==[test session starts]
platform linux -- Python 3.11.8, pytest-8.0.2, pluggy-1.4.0
rootdir: /home/runner/work/timesheet-parse/timesheet-parse
collected 18 items

%%tests/test_import.py ..F.F............. [100%]

==[FAILURES]
__[test_import_week_with_notes]

week_csv = 'date,project,notes,hours\n2024-04-08,ACME-12,"kickoff, design review",3.5\n2024-04-09,ACME-12,coding,7\n'

    def test_import_week_with_notes(week_csv):
>       entries = import_week(io.StringIO(week_csv))

tests/test_import.py:30: 
_ _
src/timesheet/importer.py:27: in import_week
    entries.append(_entry(raw.split(",")))
_ _

cols = ['2024-04-08', 'ACME-12', '"kickoff', ' design review"', '3.5']

    def _entry(cols):
        return Entry(
            day=date.fromisoformat(cols[0]),
            project=cols[1],
            notes=cols[2],
>           hours=float(cols[3]),
        )
E       ValueError: could not convert string to float: ' design review"'

src/timesheet/importer.py:16: ValueError
__[test_total_hours]

week_csv = 'date,project,notes,hours\n2024-04-08,ACME-12,"kickoff, design review",3.5\n2024-04-09,ACME-12,coding,7\n'

    def test_total_hours(week_csv):
>       assert total_hours(io.StringIO(week_csv)) == 10.5

tests/test_import.py:39: 
_ _
src/timesheet/importer.py:34: in total_hours
    return sum(e.hours for e in import_week(fh))
src/timesheet/importer.py:27: in import_week
    entries.append(_entry(raw.split(",")))
src/timesheet/importer.py:16: in _entry
    hours=float(cols[3]),
E   ValueError: could not convert string to float: ' design review"'
==[short test summary info]
FAILED tests/test_import.py::test_import_week_with_notes - ValueError: could not convert string to float: ' design review"'
FAILED tests/test_import.py::test_total_hours - ValueError: could not convert string to float: ' design review"'
==[2 failed, 16 passed in 0.04s]
""",
    "ValueError", CSV,
)

query(
    "q-csv-addressbook", "addressbook-export", "csv-naive-split",
    r"""
==[test session starts]
platform darwin -- Python 3.12.1, pytest-7.4.4, pluggy-1.3.0
rootdir: /Users/pat/addressbook-export
collected 11 items

%%tests/test_export.py ....F...... [100%]

==[FAILURES]
__[test_export_is_readable_by_csv_module]

tmp_path = PosixPath('/private/var/folders/x1/q9/T/pytest-of-pat/pytest-3/test_export_is_readable_by_csv0')

    def test_export_is_readable_by_csv_module(tmp_path):
        out = tmp_path / "book.csv"
        write_book([Entry("Homer", "742 Evergreen Terrace, Springfield")], out)
        rows = list(csv.DictReader(out.open(newline="")))
>       assert rows == [{"name": "Homer", "address": "742 Evergreen Terrace, Springfield"}]
E       AssertionError: assert [{'name': 'Homer', 'address': '742 Evergreen Terrace', None: [' Springfield']}] == [{'name': 'Homer', 'address': '742 Evergreen Terrace, Springfield'}]
E         At index 0 diff: {'name': 'Homer', 'address': '742 Evergreen Terrace', None: [' Springfield']} != {'name': 'Homer', 'address': '742 Evergreen Terrace, Springfield'}
E         Full diff:
E         - [{'address': '742 Evergreen Terrace, Springfield', 'name': 'Homer'}]
E         + [{None: [' Springfield'], 'address': '742 Evergreen Terrace', 'name': 'Homer'}]

tests/test_export.py:24: AssertionError
==[short test summary info]
!!FAILED tests/test_export.py::test_export_is_readable_by_csv_module - AssertionError: assert [{'name': 'Homer', 'address': '742 Evergreen Terrace', None: [' Springfield']}] == [{'name': 'Homer', 'address': '742 Evergreen Terrace, Springfield'}]
==[1 failed, 10 passed in 0.05s]
""",
    "AssertionError", CSV, width=100,
)

# ---------------------------------------------------------------------------
# Family: cache-key-missing-arg
# A memo/cache is keyed on only some of the arguments that affect the
# result, so calls that differ in the other arguments get a stale answer.
# ---------------------------------------------------------------------------

record(
    "r-ckm-i18nrender", "i18n-render", "cache-key-missing-arg",
    r"""
==[test session starts]
platform linux -- Python 3.11.7, pytest-7.4.4, pluggy-1.3.0
rootdir: /home/web/i18n-render
configfile: pyproject.toml
collected 29 items

%%tests/test_render.py .......F.F................... [100%]

==[FAILURES]
__[test_same_template_two_locales]

renderer = <i18n_render.renderer.Renderer object at 0x7f3e4d5c6b70>

    def test_same_template_two_locales(renderer):
        en = renderer.render("welcome.html", locale="en", name="Ana")
        fr = renderer.render("welcome.html", locale="fr", name="Ana")
>       assert fr == "<h1>Bonjour Ana</h1>"
E       AssertionError: assert '<h1>Hello Ana</h1>' == '<h1>Bonjour Ana</h1>'
E         - <h1>Bonjour Ana</h1>
E         ?     ^^^^ ^^
E         + <h1>Hello Ana</h1>
E         ?     ^ ^^

tests/test_render.py:58: AssertionError
__[test_locale_switch_mid_session]

renderer = <i18n_render.renderer.Renderer object at 0x7f3e4d5c7d90>

    def test_locale_switch_mid_session(renderer):
        renderer.render("footer.html", locale="de")
>       assert "Impressum" not in renderer.render("footer.html", locale="en")
E       AssertionError: assert 'Impressum' not in '<footer>Impressum · Datenschutz</footer>'
E         'Impressum' is contained here:
E           <footer>Impressum · Datenschutz</footer>
E         ?         +++++++++

tests/test_render.py:71: AssertionError
==[short test summary info]
FAILED tests/test_render.py::test_same_template_two_locales - AssertionError: assert '<h1>Hello Ana</h1>' == '<h1>Bonjour Ana</h1>'
FAILED tests/test_render.py::test_locale_switch_mid_session - AssertionError: assert 'Impressum' not in '<footer>Impressum · Datenschutz</footer>'
==[2 failed, 27 passed in 0.21s]
""",
    "AssertionError",
    ["src/i18n_render/renderer.py"],
    """Renderer cached compiled templates in a dict keyed only by template name, but
    compilation bakes in the locale's message catalog, so whichever locale rendered
    a template first was served to every later locale. The cache key is now the
    (template_name, locale) tuple.""",
    "pytest passed with exit code 0 (29 passed)",
    unified("src/i18n_render/renderer.py", """
    def _compiled(self, name, locale):
        if name not in self._cache:
            self._cache[name] = self.env.get_template(name, catalog=self.catalogs[locale])
        return self._cache[name]
""", """
    def _compiled(self, name, locale):
        key = (name, locale)
        if key not in self._cache:
            self._cache[key] = self.env.get_template(name, catalog=self.catalogs[locale])
        return self._cache[key]
""", start=38, func="class Renderer:"),
)

record(
    "r-ckm-tileserver", "tileserver", "cache-key-missing-arg",
    r"""
==[test session starts]
platform linux -- Python 3.12.2, pytest-8.0.2, pluggy-1.4.0
rootdir: /home/runner/work/tileserver/tileserver
configfile: pyproject.toml
collected 46 items

%%tests/test_tiles.py ...............F.............. [ 65%]
%%tests/test_http.py ................ [100%]

==[FAILURES]
__[test_zoom_levels_are_cached_separately]

store = MemoryTileStore(tiles=3)

    def test_zoom_levels_are_cached_separately(store):
        svc = TileService(store)
        svc.get_tile(z=3, x=4, y=2)
        tile = svc.get_tile(z=4, x=4, y=2)
>       assert tile.zoom == 4
E       assert 3 == 4
E        +  where 3 = Tile(zoom=3, x=4, y=2, png=b'\x89PNG\r\n\x1a\n...').zoom

tests/test_tiles.py:133: AssertionError
==[short test summary info]
FAILED tests/test_tiles.py::test_zoom_levels_are_cached_separately - assert 3 == 4
==[1 failed, 45 passed in 0.48s]
""",
    "AssertionError",
    ["src/tileserver/service.py"],
    """get_tile() memoised rendered tiles with a cache keyed on (x, y); the zoom level
    was not part of the key, so after any zoom rendered tile (4, 2) every other zoom
    received that same tile. The key now includes z, and the LRU size was doubled to
    keep the hit rate.""",
    "pytest passed with exit code 0 (46 passed)",
    unified("src/tileserver/service.py", """
    def get_tile(self, z, x, y):
        key = (x, y)
        tile = self._lru.get(key)
        if tile is None:
            tile = self._render(z, x, y)
            self._lru.put(key, tile)
        return tile
""", """
    def get_tile(self, z, x, y):
        key = (z, x, y)
        tile = self._lru.get(key)
        if tile is None:
            tile = self._render(z, x, y)
            self._lru.put(key, tile)
        return tile
""", start=52, func="class TileService:"),
)

record(
    "r-ckm-searchpaginate", "search-paginate", "cache-key-missing-arg",
    r"""
F......
======================================================================
FAIL: test_second_page_differs (tests.test_search.SearchCacheTest.test_second_page_differs)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/app/search-paginate/tests/test_search.py", line 33, in test_second_page_differs
    self.assertEqual([h.id for h in page2], [11, 12, 13, 14, 15, 16, 17, 18, 19, 20])
AssertionError: Lists differ: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] != [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]

First differing element 0:
1
11

- [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
+ [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]

----------------------------------------------------------------------
Ran 7 tests in 0.010s

FAILED (failures=1)
""",
    "AssertionError",
    ["search_paginate/search.py"],
    """search() was decorated with a custom @memoize(key=lambda q, **kw: q.lower()) that
    ignored the page and page_size keyword arguments, so page 2 returned the cached
    page 1. The memo key now includes the normalised query plus page and
    page_size.""",
    "python -m unittest passed with exit code 0 (Ran 7 tests, OK)",
    unified("search_paginate/search.py", """
@memoize(key=lambda query, **kw: query.lower())
def search(query, page=1, page_size=10):
""", """
@memoize(key=lambda query, page=1, page_size=10: (query.lower(), page, page_size))
def search(query, page=1, page_size=10):
""", start=14),
)

CKM = ["r-ckm-i18nrender", "r-ckm-tileserver", "r-ckm-searchpaginate"]

query(
    "q-ckm-weather-widget", "weather-widget", "cache-key-missing-arg",
    r"""
==[test session starts]
platform linux -- Python 3.11.9, pytest-8.2.0, pluggy-1.5.0
rootdir: /home/runner/work/weather-widget/weather-widget
configfile: pyproject.toml
plugins: respx-0.21.1
collected 24 items

%%tests/test_current.py ....F................... [100%]

==[FAILURES]
__[test_celsius_after_fahrenheit]

api = <respx.router.MockRouter object at 0x7f9e8d7c6b50>

    def test_celsius_after_fahrenheit(api):
        w = WeatherService(api_key="test")
        w.current("Lisbon", units="imperial")
        reading = w.current("Lisbon", units="metric")
>       assert reading.temperature == 22.5
E       AssertionError: assert 72.5 == 22.5
E        +  where 72.5 = Reading(city='Lisbon', temperature=72.5, units='metric', fetched_at=datetime.datetime(2024, 6, 1, 12, 0, tzinfo=datetime.timezone.utc)).temperature

tests/test_current.py:47: AssertionError
==[short test summary info]
FAILED tests/test_current.py::test_celsius_after_fahrenheit - AssertionError: assert 72.5 == 22.5
==[1 failed, 23 passed in 0.19s]
""",
    "AssertionError", CKM, color=True,
)

query(
    "q-ckm-permissions", "permissions-svc", "cache-key-missing-arg",
    r"""
......F...F.
======================================================================
FAIL: test_denied_on_other_project (tests.test_checks.PermissionCheckTest.test_denied_on_other_project)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/srv/perm/permissions-svc/tests/test_checks.py", line 71, in test_denied_on_other_project
    self.assertFalse(checker.can(user, "write", project="billing"))
AssertionError: True is not false

======================================================================
FAIL: test_action_specific_grants (tests.test_checks.PermissionCheckTest.test_action_specific_grants)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/srv/perm/permissions-svc/tests/test_checks.py", line 98, in test_action_specific_grants
    self.assertTrue(checker.can(user, "read", project="docs"))
AssertionError: False is not true

----------------------------------------------------------------------
Ran 12 tests in 0.031s

FAILED (failures=2)
""",
    "AssertionError", CKM,
)

query(
    "q-ckm-report-pdf", "report-pdf", "cache-key-missing-arg",
    r"""
==[test session starts]
platform linux -- Python 3.12.1, pytest-7.4.4, pluggy-1.3.0
rootdir: /home/bi/report-pdf
configfile: pyproject.toml
collected 32 items

%%tests/test_exports.py ........F....................... [100%]

==[FAILURES]
__[test_csv_export_after_pdf]

report = Report(id=118, title='Q2 pipeline')

    def test_csv_export_after_pdf(report):
        render_report(report.id, fmt="pdf")
        body = render_report(report.id, fmt="csv")
>       text = body.decode("utf-8")
E       UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe2 in position 10: invalid continuation byte

tests/test_exports.py:64: UnicodeDecodeError
==[short test summary info]
FAILED tests/test_exports.py::test_csv_export_after_pdf - UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe2 in position 10: invalid continuation byte
==[1 failed, 31 passed in 0.92s]
""",
    "UnicodeDecodeError", CKM,
)

query(
    "q-ckm-dataloader", "graphql-dataloader", "cache-key-missing-arg",
    r"""
==[test session starts]
platform linux -- Python 3.11.6, pytest-7.4.3, pluggy-1.3.0
rootdir: /home/api/graphql-dataloader
configfile: pytest.ini
plugins: asyncio-0.21.1
asyncio: mode=auto
collected 37 items

%%tests/test_loader.py ..........F.......................... [100%]

==[FAILURES]
__[test_post_and_user_with_same_id]

schema = <strawberry.schema.schema.Schema object at 0x7f0a1b2c3d40>

    async def test_post_and_user_with_same_id(schema):
        result = await schema.execute('{ user(id: 7) { name } post(id: 7) { title } }')
>       assert result.errors is None
E       assert [GraphQLError("'User' object has no attribute 'title'", locations=[SourceLocation(line=1, column=32)], path=['post', 'title'])] is None
E        +  where [GraphQLError("'User' object has no attribute 'title'", locations=[SourceLocation(line=1, column=32)], path=['post', 'title'])] = ExecutionResult(data=None, errors=[GraphQLError("'User' object has no attribute 'title'", locations=[SourceLocation(line=1, column=32)], path=['post', 'title'])]).errors

tests/test_loader.py:88: AssertionError
------------------------------ Captured log call -------------------------------
ERROR    strawberry.execution:base.py:36 'User' object has no attribute 'title'
Traceback (most recent call last):
  File "/home/api/graphql-dataloader/.venv/lib/python3.11/site-packages/graphql/execution/execute.py", line 528, in await_result
    return_type, field_nodes, info, path, await result
                                          ^^^^^^^^^^^^
  File "/home/api/graphql-dataloader/src/gql_loader/resolvers.py", line 41, in resolve_title
    return post.title
           ^^^^^^^^^^
AttributeError: 'User' object has no attribute 'title'
==[short test summary info]
!!FAILED tests/test_loader.py::test_post_and_user_with_same_id - assert [GraphQLError("'User' object has no attribute 'title'", locations=[SourceLocation(line=1, column=32)], path=['post', 'title'])] is None
==[1 failed, 36 passed in 0.57s]
""",
    "AttributeError", CKM,
)

query(
    "q-ckm-avatar-resizer", "avatar-resizer", "cache-key-missing-arg",
    r"""
==[test session starts]
platform linux -- Python 3.10.13, pytest-7.4.2, pluggy-1.3.0
rootdir: /home/media/avatar-resizer
collected 14 items

%%tests/test_avatars.py ..F.F......... [100%]

==[FAILURES]
__[test_sizes_are_independent[64-256]]

first = 64, second = 256

    @pytest.mark.parametrize("first, second", [(64, 256), (256, 64)], ids=["64-256", "256-64"])
    def test_sizes_are_independent(first, second):
        svc = AvatarService(storage=FakeStorage())
        svc.avatar(user_id=9, size=first)
>       assert svc.avatar(user_id=9, size=second).size == (second, second)
E       assert (64, 64) == (256, 256)
E         At index 0 diff: 64 != 256
E         Full diff:
E         - (256, 256)
E         + (64, 64)

tests/test_avatars.py:19: AssertionError
__[test_sizes_are_independent[256-64]]

first = 256, second = 64

    @pytest.mark.parametrize("first, second", [(64, 256), (256, 64)], ids=["64-256", "256-64"])
    def test_sizes_are_independent(first, second):
        svc = AvatarService(storage=FakeStorage())
        svc.avatar(user_id=9, size=first)
>       assert svc.avatar(user_id=9, size=second).size == (second, second)
E       assert (256, 256) == (64, 64)
E         At index 0 diff: 256 != 64
E         Full diff:
E         - (64, 64)
E         + (256, 256)

tests/test_avatars.py:19: AssertionError
==[short test summary info]
FAILED tests/test_avatars.py::test_sizes_are_independent[64-256] - assert (64, 64) == (256, 256)
FAILED tests/test_avatars.py::test_sizes_are_independent[256-64] - assert (256, 256) == (64, 64)
==[2 failed, 12 passed in 0.33s]
""",
    "AssertionError", CKM,
)

# ---------------------------------------------------------------------------
# Family: leap-day-year-replace
# date.replace(year=...) applied to 29 February lands on a non-leap year.
# ---------------------------------------------------------------------------

record(
    "r-ldr-subscriptions", "subscriptions", "leap-day-year-replace",
    r"""
==[test session starts]
platform linux -- Python 3.11.8, pytest-8.0.2, pluggy-1.4.0
rootdir: /home/runner/work/subscriptions/subscriptions
configfile: pyproject.toml
plugins: freezegun-0.4.2
collected 39 items

%%tests/test_renewal.py ..........F.......... [ 53%]
%%tests/test_plans.py .................. [100%]

==[FAILURES]
__[test_annual_renewal_from_leap_day]

    def test_annual_renewal_from_leap_day():
        sub = Subscription(plan=ANNUAL, started=date(2024, 2, 29))
>       assert sub.next_renewal() == date(2025, 2, 28)

tests/test_renewal.py:77: 
_ _
src/subscriptions/models.py:58: in next_renewal
    return self.started.replace(year=self.started.year + self.plan.years)
E   ValueError: day is out of range for month
==[short test summary info]
FAILED tests/test_renewal.py::test_annual_renewal_from_leap_day - ValueError: day is out of range for month
==[1 failed, 38 passed in 0.29s]
""",
    "ValueError",
    ["src/subscriptions/models.py"],
    """next_renewal() computed the anniversary with started.replace(year=year + n); for a
    subscription started on 29 February the target year has no 29 February and
    date.replace raises ValueError. Added an add_years() helper that falls back to
    28 February when the anniversary does not exist, and used it for renewals.""",
    "pytest passed with exit code 0 (39 passed)",
    unified("src/subscriptions/models.py", """
    def next_renewal(self) -> date:
        return self.started.replace(year=self.started.year + self.plan.years)
""", """
    def next_renewal(self) -> date:
        return add_years(self.started, self.plan.years)
""", start=57, func="class Subscription:"),
)

record(
    "r-ldr-hranniversary", "hr-anniversary", "leap-day-year-replace",
    r"""
.....E...
======================================================================
ERROR: test_upcoming_birthdays_includes_leaplings (tests.test_calendar.BirthdayCalendarTest.test_upcoming_birthdays_includes_leaplings)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/opt/hr/hr-anniversary/tests/test_calendar.py", line 52, in test_upcoming_birthdays_includes_leaplings
    upcoming = cal.upcoming(today=date(2023, 2, 20), days=14)
               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/opt/hr/hr-anniversary/hr_anniversary/calendar.py", line 33, in upcoming
    this_year = emp.birthday.replace(year=today.year)
                ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
ValueError: day is out of range for month

----------------------------------------------------------------------
Ran 9 tests in 0.005s

FAILED (errors=1)
""",
    "ValueError",
    ["hr_anniversary/calendar.py"],
    """upcoming() moved each birthday into the current year with
    birthday.replace(year=today.year), which raises ValueError for employees born on
    29 February whenever the current year is not a leap year. A helper now uses
    1 March (company policy) when the leap-day birthday does not exist in the
    target year.""",
    "python -m unittest passed with exit code 0 (Ran 9 tests, OK)",
    unified("hr_anniversary/calendar.py", """
        for emp in self.employees:
            this_year = emp.birthday.replace(year=today.year)
""", """
        for emp in self.employees:
            this_year = _in_year(emp.birthday, today.year)
""", start=32),
)

LDR = ["r-ldr-subscriptions", "r-ldr-hranniversary"]

query(
    "q-ldr-warranty", "warranty-tracker", "leap-day-year-replace",
    r"""
==[test session starts]
platform linux -- Python 3.12.3, pytest-8.2.0, pluggy-1.5.0
rootdir: /home/support/warranty-tracker
configfile: pyproject.toml
collected 21 items

%%tests/test_expiry.py ...F..F.............. [100%]

==[FAILURES]
__[test_expiry_date[2y-leap-day]]

purchased = datetime.date(2024, 2, 29), years = 2, expected = datetime.date(2026, 2, 28)

    @pytest.mark.parametrize(
        "purchased, years, expected",
        [
            (date(2023, 6, 1), 2, date(2025, 6, 1)),
            (date(2024, 2, 29), 2, date(2026, 2, 28)),
            (date(2024, 2, 29), 4, date(2028, 2, 29)),
        ],
        ids=["2y-plain", "2y-leap-day", "4y-leap-day"],
    )
    def test_expiry_date(purchased, years, expected):
>       assert Warranty(purchased=purchased, years=years).expires == expected

tests/test_expiry.py:24: 
_ _
src/warranty_tracker/model.py:19: in expires
    return self.purchased.replace(year=self.purchased.year + self.years)
E   ValueError: day is out of range for month
__[test_reminder_schedule_leap_purchase]

    def test_reminder_schedule_leap_purchase():
        w = Warranty(purchased=date(2024, 2, 29), years=1)
>       assert reminders(w)[-1] == date(2025, 1, 28)

tests/test_expiry.py:47: 
_ _
src/warranty_tracker/reminders.py:12: in reminders
    end = w.expires
src/warranty_tracker/model.py:19: in expires
    return self.purchased.replace(year=self.purchased.year + self.years)
E   ValueError: day is out of range for month
==[short test summary info]
FAILED tests/test_expiry.py::test_expiry_date[2y-leap-day] - ValueError: day is out of range for month
FAILED tests/test_expiry.py::test_reminder_schedule_leap_purchase - ValueError: day is out of range for month
==[2 failed, 19 passed in 0.06s]
""",
    "ValueError", LDR, color=True,
)

query(
    "q-ldr-agecalc", "agecalc", "leap-day-year-replace",
    r"""
..E..
======================================================================
ERROR: test_age_of_leapling_on_non_leap_year (test_age.AgeTests)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/u/agecalc/test_age.py", line 22, in test_age_of_leapling_on_non_leap_year
    self.assertEqual(age_on(date(2000, 2, 29), date(2023, 3, 1)), 23)
  File "/home/u/agecalc/agecalc.py", line 8, in age_on
    had_birthday = on >= born.replace(year=on.year)
ValueError: day is out of range for month

----------------------------------------------------------------------
Ran 5 tests in 0.001s

FAILED (errors=1)
""",
    "ValueError", LDR,
)

query(
    "q-ldr-license-keys", "license-keys", "leap-day-year-replace",
    r"""
==[test session starts]
platform win32 -- Python 3.11.9, pytest-8.1.1, pluggy-1.4.0
rootdir: C:\Users\dev\license-keys
configfile: pyproject.toml
collected 30 items

%%tests\test_issue.py ............F................. [100%]

==[FAILURES]
__[TestIssue.test_one_year_key_issued_on_feb_29]

self = <tests.test_issue.TestIssue object at 0x000001F2A3B4C5D0>
signer = <license_keys.crypto.Signer object at 0x000001F2A3B4D890>

    def test_one_year_key_issued_on_feb_29(self, signer):
        with freeze_time("2028-02-29 09:00:00"):
>           key = issue_key(customer="ACME-0042", edition="pro", signer=signer)

tests\test_issue.py:112: 
_ _
src\license_keys\issue.py:44: in issue_key
    lic = License(customer=customer, edition=edition, valid_until=_one_year_from(today))
_ _

d = FakeDate(2028, 2, 29)

    def _one_year_from(d):
>       return d.replace(year=d.year + 1)
E       ValueError: day is out of range for month

src\license_keys\issue.py:21: ValueError
==[short test summary info]
!!FAILED tests/test_issue.py::TestIssue::test_one_year_key_issued_on_feb_29 - ValueError: day is out of range for month
==[1 failed, 29 passed in 0.74s]
""",
    "ValueError", LDR,
)

query(
    "q-ldr-fiscal-calendar", "fiscal-calendar", "leap-day-year-replace",
    r"""
==[test session starts]
platform linux -- Python 3.10.12, pytest-7.4.0, pluggy-1.2.0
rootdir: /home/fin/fiscal-calendar
collected 48 items

%%tests/test_yoy.py ..........FF.................. [ 62%]
%%tests/test_periods.py .................. [100%]

==[FAILURES]
__[test_same_day_last_year[2024-02-29]]

day = datetime.date(2024, 2, 29)

    @pytest.mark.parametrize("day", [date(2024, 2, 29), date(2024, 3, 1)], ids=str)
    def test_same_day_last_year(day):
>       prev = comparable_day(day, years_back=1)

tests/test_yoy.py:66: 
_ _

day = datetime.date(2024, 2, 29), years_back = 1

    def comparable_day(day, years_back=1):
        '''Same calendar day N years earlier (used for YoY comparisons).'''
>       return day.replace(year=day.year - years_back)
E       ValueError: day is out of range for month

src/fiscal_calendar/yoy.py:14: ValueError
__[test_yoy_revenue_table_for_february]

ledger = <Ledger entries=731>

    def test_yoy_revenue_table_for_february(ledger):
>       table = yoy_table(ledger, month=date(2024, 2, 1))

tests/test_yoy.py:80: 
_ _
src/fiscal_calendar/yoy.py:31: in yoy_table
    rows.append((d, ledger.total(d), ledger.total(comparable_day(d))))
_ _

day = datetime.date(2024, 2, 29), years_back = 1

    def comparable_day(day, years_back=1):
        '''Same calendar day N years earlier (used for YoY comparisons).'''
>       return day.replace(year=day.year - years_back)
E       ValueError: day is out of range for month

src/fiscal_calendar/yoy.py:14: ValueError
==[short test summary info]
FAILED tests/test_yoy.py::test_same_day_last_year[2024-02-29] - ValueError: day is out of range for month
FAILED tests/test_yoy.py::test_yoy_revenue_table_for_february - ValueError: day is out of range for month
==[2 failed, 46 passed in 0.38s]
""",
    "ValueError", LDR,
)

# ---------------------------------------------------------------------------
# Family: uint32-mask-missing
# A C/Java 32-bit algorithm (hash, checksum, PRNG) is ported to Python
# without masking intermediate results to 32 bits; Python ints just grow.
# ---------------------------------------------------------------------------

record(
    "r-u32-fnvhash", "fnvhash-py", "uint32-mask-missing",
    r"""
==[test session starts]
platform linux -- Python 3.12.2, pytest-8.0.2, pluggy-1.4.0
rootdir: /home/runner/work/fnvhash-py/fnvhash-py
configfile: pyproject.toml
collected 12 items

%%tests/test_vectors.py .FF......... [100%]

==[FAILURES]
__[test_fnv1a_32[a]]

data = b'a', expected = 3826002220

    @pytest.mark.parametrize("data, expected", VECTORS_32, ids=[v[0].decode() or "empty" for v in VECTORS_32])
    def test_fnv1a_32(data, expected):
>       assert fnv1a_32(data) == expected
E       assert 36342608335481132 == 3826002220
E        +  where 36342608335481132 = fnv1a_32(b'a')

tests/test_vectors.py:11: AssertionError
__[test_fnv1a_32[foobar]]

data = b'foobar', expected = 3214735720

    @pytest.mark.parametrize("data, expected", VECTORS_32, ids=[v[0].decode() or "empty" for v in VECTORS_32])
    def test_fnv1a_32(data, expected):
>       assert fnv1a_32(data) == expected
E       assert 48313414602331990265946867274229723216677558095247720 == 3214735720
E        +  where 48313414602331990265946867274229723216677558095247720 = fnv1a_32(b'foobar')

tests/test_vectors.py:11: AssertionError
==[short test summary info]
FAILED tests/test_vectors.py::test_fnv1a_32[a] - assert 36342608335481132 == 3826002220
FAILED tests/test_vectors.py::test_fnv1a_32[foobar] - assert 48313414602331990265946867274229723216677558095247720 == 3214735720
==[2 failed, 10 passed in 0.03s]
""",
    "AssertionError",
    ["src/fnvhash/fnv.py"],
    """fnv1a_32() was transcribed from the C reference, where the multiplication by the
    FNV prime wraps modulo 2**32; in Python the int kept growing, so any input longer
    than one byte produced a huge number instead of the 32-bit reference value. The
    product is now masked with & 0xFFFFFFFF on every iteration.""",
    "pytest passed with exit code 0 (12 passed)",
    unified("src/fnvhash/fnv.py", """
FNV32_OFFSET = 0x811C9DC5
FNV32_PRIME = 0x01000193


def fnv1a_32(data: bytes) -> int:
    h = FNV32_OFFSET
    for byte in data:
        h ^= byte
        h *= FNV32_PRIME
    return h
""", """
FNV32_OFFSET = 0x811C9DC5
FNV32_PRIME = 0x01000193
MASK32 = 0xFFFFFFFF


def fnv1a_32(data: bytes) -> int:
    h = FNV32_OFFSET
    for byte in data:
        h ^= byte
        h = (h * FNV32_PRIME) & MASK32
    return h
"""),
)

record(
    "r-u32-murmurlite", "murmur-lite", "uint32-mask-missing",
    r"""
==[test session starts]
platform linux -- Python 3.11.4, pytest-7.4.0, pluggy-1.2.0
rootdir: /home/dev/murmur-lite
collected 9 items

%%tests/test_murmur3.py ..F...... [100%]

==[FAILURES]
__[test_digest_bytes_little_endian]

    def test_digest_bytes_little_endian():
>       assert murmur3_digest(b"hello", seed=0) == bytes.fromhex("8adfe22f")

tests/test_murmur3.py:25: 
_ _
src/murmur_lite/murmur3.py:58: in murmur3_digest
    return struct.pack("<I", murmur3_32(data, seed))
E   struct.error: 'I' format requires 0 <= number <= 4294967295
==[short test summary info]
FAILED tests/test_murmur3.py::test_digest_bytes_little_endian - struct.error: 'I' format requires 0 <= number <= 4294967295
==[1 failed, 8 passed in 0.02s]
""",
    "struct.error",
    ["src/murmur_lite/murmur3.py"],
    """The MurmurHash3 port rotated and multiplied 32-bit words without masking: rotl32
    returned (x << r) | (x >> (32 - r)) and the k *= c1 / h = h*5 + n steps left
    results wider than 32 bits, so the final value did not fit struct's 'I' format.
    Every multiply, add and rotate now ends with & 0xFFFFFFFF.""",
    "pytest passed with exit code 0 (9 passed)",
    unified("src/murmur_lite/murmur3.py", """
def rotl32(x, r):
    return (x << r) | (x >> (32 - r))


def _mix_k(k):
    k *= C1
    k = rotl32(k, 15)
    k *= C2
    return k
""", """
def rotl32(x, r):
    x &= MASK32
    return ((x << r) | (x >> (32 - r))) & MASK32


def _mix_k(k):
    k = (k * C1) & MASK32
    k = rotl32(k, 15)
    k = (k * C2) & MASK32
    return k
""", start=12),
)

record(
    "r-u32-xorshift", "xorshift-rng", "uint32-mask-missing",
    r"""
F...
======================================================================
FAIL: test_first_values_match_reference (tests.test_xorshift.XorShift32Test.test_first_values_match_reference)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/sim/xorshift-rng/tests/test_xorshift.py", line 14, in test_first_values_match_reference
    self.assertEqual([rng.next_u32() for _ in range(3)], [270369, 67634689, 2647435461])
AssertionError: Lists differ: [270369, 68787111425, 18597760640231621] != [270369, 67634689, 2647435461]

First differing element 1:
68787111425
67634689

- [270369, 68787111425, 18597760640231621]
+ [270369, 67634689, 2647435461]

----------------------------------------------------------------------
Ran 4 tests in 0.001s

FAILED (failures=1)
""",
    "AssertionError",
    ["xorshift/rng.py"],
    """XorShift32.next_u32() applied x ^= x << 13 etc. to a Python int, which never
    overflows, so the left shifts kept bits above position 31 and the sequence
    diverged from the reference after the first value. The state is now masked to
    32 bits after each left shift.""",
    "python -m unittest passed with exit code 0 (Ran 4 tests, OK)",
    unified("xorshift/rng.py", """
    def next_u32(self):
        x = self.state
        x ^= x << 13
        x ^= x >> 17
        x ^= x << 5
        self.state = x
        return x
""", """
    def next_u32(self):
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return x
""", start=9, func="class XorShift32:"),
)

U32 = ["r-u32-fnvhash", "r-u32-murmurlite", "r-u32-xorshift"]

query(
    "q-u32-bloomfilter", "bloomfilter", "uint32-mask-missing",
    r"""
==[test session starts]
platform linux -- Python 3.12.4, pytest-8.2.2, pluggy-1.5.0
rootdir: /home/runner/work/bloomfilter/bloomfilter
configfile: pyproject.toml
collected 19 items

%%tests/test_hashing.py F.F................ [100%]

==[FAILURES]
__[test_djb2_matches_c_reference]

    def test_djb2_matches_c_reference():
        # values produced by the reference C implementation (uint32_t)
>       assert djb2(b"bloom-filter-key") == 2490039463
E       assert 10649614849748477281747795111 == 2490039463
E        +  where 10649614849748477281747795111 = djb2(b'bloom-filter-key')

tests/test_hashing.py:9: AssertionError
__[test_serialized_filter_matches_go_client]

golden = b'BF01\x00\x00\x04\x00\x03\x00\x00\x00\x10\x84 \x02\x00\x01H\x00...'

    def test_serialized_filter_matches_go_client(golden):
        bf = BloomFilter(m=1024, k=3)
        for word in ("alpha", "beta", "gamma"):
            bf.add(word.encode())
>       assert bf.to_bytes() == golden
E       AssertionError: assert b'BF01\x00\x00\x04\x00\x03\x00\x00\x00\x00\x04\x10\x00\x80\x00\x00\x02...' == b'BF01\x00\x00\x04\x00\x03\x00\x00\x00\x10\x84 \x02\x00\x01H\x00...'
E         At index 12 diff: b'\x00' != b'\x10'
E         Use -v to get more diff

tests/test_hashing.py:31: AssertionError
==[short test summary info]
FAILED tests/test_hashing.py::test_djb2_matches_c_reference - assert 10649614849748477281747795111 == 2490039463
FAILED tests/test_hashing.py::test_serialized_filter_matches_go_client - AssertionError: assert b'BF01\x00\x00\x04\x00\x03\x00\x00\x00\x00\x04\x10\x00\x80\x00\x00\x02...' == b'BF01\x00\x00\x04\x00\x03\x00\x00\x00\x10\x84 \x02\x00\x01H\x00...'
==[2 failed, 17 passed in 0.04s]
""",
    "AssertionError", U32, color=True,
)

query(
    "q-u32-jenkins", "jenkins-hash", "uint32-mask-missing",
    r"""
.F.
======================================================================
FAIL: test_one_at_a_time_reference (test_oaat.OneAtATimeTest)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/dev/jenkins-hash/test_oaat.py", line 12, in test_one_at_a_time_reference
    self.assertEqual(one_at_a_time(b"hello"), 0xC8FD181B)
AssertionError: 35113001604820927779915 != 3372029979

----------------------------------------------------------------------
Ran 3 tests in 0.000s

FAILED (failures=1)
""",
    "AssertionError", U32,
)

query(
    "q-u32-packet-crafter", "packet-crafter", "uint32-mask-missing",
    r"""
==[test session starts]
platform linux -- Python 3.11.7, pytest-7.4.4, pluggy-1.3.0
rootdir: /home/net/packet-crafter
configfile: pyproject.toml
collected 33 items

%%tests/test_tcp.py ..........F...................... [100%]

==[FAILURES]
__[test_syn_packet_sequence_wraps]

    def test_syn_packet_sequence_wraps():
        conn = TcpConn(src=("10.0.0.1", 40000), dst=("10.0.0.2", 80), isn=0xFFFFFFF0)
        conn.send(b"x" * 32)
>       pkt = conn.build_segment(flags="A")

tests/test_tcp.py:141: 
_ _
src/packet_crafter/tcp.py:88: in build_segment
    header = struct.pack(
E   struct.error: argument out of range
==[short test summary info]
FAILED tests/test_tcp.py::test_syn_packet_sequence_wraps - struct.error: argument out of range
==[1 failed, 32 passed in 0.06s]
""",
    "struct.error", U32,
)

query(
    "q-u32-seeded-shuffle", "seeded-shuffle", "uint32-mask-missing",
    r"""
==[test session starts]
platform linux -- Python 3.12.2, pytest-8.0.2, pluggy-1.4.0
rootdir: /home/lab/seeded-shuffle
configfile: pyproject.toml
collected 16 items

%%tests/test_lcg.py ....F........... [100%]

==[FAILURES]
__[test_state_array_roundtrip]

    def test_state_array_roundtrip():
        gen = Lcg32(seed=2024)
        for _ in range(5):
            gen.step()
>       arr = gen.state_array()

tests/test_lcg.py:52: 
_ _

self = Lcg32(state=6375129460226318339412213461)

    def state_array(self):
>       return np.array([self.state, self.increment], dtype=np.uint32)
E       OverflowError: Python integer 6375129460226318339412213461 out of bounds for uint32

src/seeded_shuffle/lcg.py:34: OverflowError
==[short test summary info]
FAILED tests/test_lcg.py::test_state_array_roundtrip - OverflowError: Python integer 6375129460226318339412213461 out of bounds for uint32
==[1 failed, 15 passed in 0.18s]
""",
    "OverflowError", U32,
)
