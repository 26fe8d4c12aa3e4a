from common import R, Q, hdr, colorize
# Third records for some of the query families.

R("r-idc-3", "quotaguard", "identity-comparison-is", """..F.
======================================================================
FAIL: test_exact_quota_not_exceeded (tests.test_quota.QuotaTests.test_exact_quota_not_exceeded)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/srv/quotaguard/tests/test_quota.py", line 30, in test_exact_quota_not_exceeded
    self.assertFalse(self.guard.exceeded("team-a", used=5000))
AssertionError: True is not false

----------------------------------------------------------------------
Ran 4 tests in 0.001s

FAILED (failures=1)
""", "AssertionError", ["quotaguard/guard.py"],
"exceeded() treated `used is limit` as 'exactly at quota' and otherwise compared with >=; with limits like 5000 loaded from config the two ints are different objects, so the identity test failed and the >= branch reported the team as over quota. Replaced the identity check with a plain `used > limit` comparison.",
"python -m unittest passed (OK, 4 tests)",
"""--- a/quotaguard/guard.py
+++ b/quotaguard/guard.py
@@ -21,8 +21,6 @@ class QuotaGuard:
     def exceeded(self, team, used):
         limit = self.limits[team]
-        if used is limit:
-            return False
-        return used >= limit
+        return used > limit
""")

R("r-hst-3", "artifactpush", "http-status-threshold-boundary", colorize(hdr("/builds/ci/artifactpush", 10, plugins="requests-mock-1.12.1") + """
tests/test_upload.py ......F...                                          [100%]

=================================== FAILURES ===================================
_____________________ test_upload_retries_server_errors ________________________

requests_mock = <requests_mock.mocker.Mocker object at 0x7f9a0e3c1d50>

    def test_upload_retries_server_errors(requests_mock):
        requests_mock.put("https://repo.test/artifacts/app-1.0.tar.gz",
                          [{"status_code": 500}, {"status_code": 500}, {"status_code": 201}])
        upload("https://repo.test/artifacts/app-1.0.tar.gz", b"data", retries=3)
>       assert requests_mock.call_count == 3
E       assert 1 == 3
E        +  where 1 = <requests_mock.mocker.Mocker object at 0x7f9a0e3c1d50>.call_count

tests/test_upload.py:49: AssertionError
=========================== short test summary info ============================
FAILED tests/test_upload.py::test_upload_retries_server_errors - assert 1 == 3
========================= 1 failed, 9 passed in 0.11s ==========================
"""), "AssertionError", ["src/artifactpush/upload.py"],
"The retry loop only retried when `resp.status_code > 500`, so a 500 Internal Server Error was treated as final (and not raised either). Retry on `>= 500` and raise for the remaining 4xx codes.",
"pytest passed with exit code 0 (10 passed)",
"""--- a/src/artifactpush/upload.py
+++ b/src/artifactpush/upload.py
@@ -18,9 +18,10 @@ def upload(url, data, retries=3, session=None):
     for attempt in range(1, retries + 1):
         resp = session.put(url, data=data, timeout=30)
-        if resp.status_code > 500 and attempt < retries:
+        if resp.status_code >= 500 and attempt < retries:
             time.sleep(BACKOFF * attempt)
             continue
+        resp.raise_for_status()
         return resp
""")

R("r-jik-3", "tilecache", "json-int-keys-stringified", """E..
======================================================================
ERROR: test_zoom_levels_after_restart (tests.test_cache.CacheTests.test_zoom_levels_after_restart)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/ci/tilecache/tests/test_cache.py", line 19, in test_zoom_levels_after_restart
    self.assertEqual(cache.count(zoom=3), 64)
                     ^^^^^^^^^^^^^^^^^^^
  File "/home/ci/tilecache/tilecache/cache.py", line 44, in count
    return len(self._index[zoom])
               ~~~~~~~~~~~^^^^^^
KeyError: 3

----------------------------------------------------------------------
Ran 3 tests in 0.007s

FAILED (errors=1)
""", "KeyError", ["tilecache/cache.py"],
"The zoom index was persisted with json.dump and reloaded on start-up; JSON object keys are always strings, so the reloaded index was keyed by '3' while callers look up the int 3. _load_index() now converts keys back to int.",
"python -m unittest passed (OK, 3 tests)",
"""--- a/tilecache/cache.py
+++ b/tilecache/cache.py
@@ -28,7 +28,7 @@ class TileCache:
     def _load_index(self):
         try:
             with open(self._index_path, encoding="utf-8") as fh:
-                self._index = json.load(fh)
+                self._index = {int(z): tiles for z, tiles in json.load(fh).items()}
         except FileNotFoundError:
             self._index = {}
""")

R("r-sql-3", "inventorysql", "sql-built-by-string-formatting", hdr("/srv/inventorysql", 9, verbose=True) + """
tests/test_query.py::test_filter_by_location[Main Hall] PASSED           [ 11%]
tests/test_query.py::test_filter_by_location[Kid's Corner] FAILED        [ 22%]
tests/test_query.py::test_filter_by_location[Annex] PASSED               [ 33%]
tests/test_query.py::test_count PASSED                                   [ 44%]
tests/test_query.py::test_insert PASSED                                  [ 55%]
tests/test_query.py::test_update_qty PASSED                              [ 66%]
tests/test_query.py::test_delete PASSED                                  [ 77%]
tests/test_query.py::test_empty PASSED                                   [ 88%]
tests/test_query.py::test_order PASSED                                   [100%]

=================================== FAILURES ===================================
__________________ test_filter_by_location[Kid's Corner] _______________________

tests/test_query.py:22: in test_filter_by_location
    assert [i.name for i in inv.at(location)] == ["chair"]
src/inventorysql/db.py:47: in at
    rows = self.conn.execute("SELECT name, qty FROM items WHERE location = '%s'" % location)
E   sqlite3.OperationalError: near "s": syntax error
=========================== short test summary info ============================
FAILED tests/test_query.py::test_filter_by_location[Kid's Corner] - sqlite3.OperationalError: near "s": syntax error
========================= 1 failed, 8 passed in 0.02s ==========================
""", "sqlite3.OperationalError", ["src/inventorysql/db.py"],
"Inventory.at() built its SELECT with %-formatting (add() already used placeholders), so a location containing an apostrophe produced invalid SQL. at() now uses a '?' placeholder and passes the location as a parameter.",
"pytest passed with exit code 0 (9 passed)",
"""--- a/src/inventorysql/db.py
+++ b/src/inventorysql/db.py
@@ -44,6 +44,8 @@ class Inventory:
         return cur.fetchone()[0]
 
     def at(self, location):
-        rows = self.conn.execute("SELECT name, qty FROM items WHERE location = '%s'" % location)
+        rows = self.conn.execute(
+            "SELECT name, qty FROM items WHERE location = ?", (location,)
+        )
         return [Item(*r) for r in rows]
""")

R("r-ewh-3", "mlfeatures", "eq-defined-hash-removed", hdr("/home/ds/mlfeatures", 17, plugins="hypothesis-6.100.1") + """
tests/test_registry.py ..............F..                                 [100%]

=================================== FAILURES ===================================
________________________ test_feature_used_as_cache_key ________________________

    def test_feature_used_as_cache_key():
        store = FeatureStore()
        f = FeatureSpec(name="age_bucket", dtype="int8")
>       store.materialize({f: [1, 2, 3]})
E       TypeError: unhashable type: 'FeatureSpec'

tests/test_registry.py:97: TypeError
=========================== short test summary info ============================
FAILED tests/test_registry.py::test_feature_used_as_cache_key - TypeError: unhashable type: 'FeatureSpec'
========================= 1 failed, 16 passed in 0.93s =========================
""", "TypeError", ["src/mlfeatures/spec.py"],
"FeatureSpec overrides __eq__ to compare name and dtype; Python then sets __hash__ to None for the class, so specs could not be dict keys. Added __hash__ returning hash((self.name, self.dtype)), consistent with __eq__.",
"pytest passed with exit code 0 (17 passed)",
"""--- a/src/mlfeatures/spec.py
+++ b/src/mlfeatures/spec.py
@@ -20,5 +20,8 @@ class FeatureSpec:
     def __eq__(self, other):
         if not isinstance(other, FeatureSpec):
             return NotImplemented
         return (self.name, self.dtype) == (other.name, other.dtype)
+
+    def __hash__(self):
+        return hash((self.name, self.dtype))
""")

R("r-scp-3", "certpin", "strip-charset-not-affix", hdr("/home/sec/certpin", 12) + """
tests/test_pins.py .....F......                                          [100%]

=================================== FAILURES ===================================
__________________________ test_pin_from_header_value ___________________________

    def test_pin_from_header_value():
        header = 'pin-sha256="aS5hWDnpk2Cq8r0UmSn1xZ0V3JQ6LqAnhzEQ2tP1Wc4="'
>       assert parse_pin(header) == "aS5hWDnpk2Cq8r0UmSn1xZ0V3JQ6LqAnhzEQ2tP1Wc4="
E       assert 'S5hWDnpk2Cq8...zEQ2tP1Wc4' == 'aS5hWDnpk2Cq...EQ2tP1Wc4='
E         - aS5hWDnpk2Cq8r0UmSn1xZ0V3JQ6LqAnhzEQ2tP1Wc4=
E         ? -                                          -
E         + S5hWDnpk2Cq8r0UmSn1xZ0V3JQ6LqAnhzEQ2tP1Wc4

tests/test_pins.py:33: AssertionError
=========================== short test summary info ============================
FAILED tests/test_pins.py::test_pin_from_header_value - assert 'S5hWDnpk2Cq8...zEQ2tP1Wc4' == 'aS5hWDnpk2Cq...EQ2tP1Wc4='
========================= 1 failed, 11 passed in 0.01s =========================
""", "AssertionError", ["src/certpin/pins.py"],
"parse_pin() used value.strip('pin-sha256=\"'), which removes any of those characters from both ends, eating the leading 'a' and the trailing '=' padding of the base64 digest. Use removeprefix('pin-sha256=') and then strip only the surrounding double quotes.",
"pytest passed with exit code 0 (12 passed)",
"""--- a/src/certpin/pins.py
+++ b/src/certpin/pins.py
@@ -9,4 +9,6 @@ PREFIX = "pin-sha256="
 def parse_pin(value):
-    return value.strip('pin-sha256="')
+    value = value.strip()
+    if not value.startswith(PREFIX):
+        raise ValueError(f"not a sha256 pin: {value!r}")
+    return value.removeprefix(PREFIX).strip('"')
""")
