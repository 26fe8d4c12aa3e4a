from common import R, Q, hdr, colorize

R("r-dx-b64trunc-1", "qrticket", "base64-token-truncated-by-column-width", hdr("/home/ci/qrticket", 10) + """
tests/test_scan.py ....F.....                                            [100%]

=================================== FAILURES ===================================
________________________ test_scan_ticket_from_db_row __________________________

db_row = {'code': 'eyJldmVudCI6ImNvbmNlcnQtMjAyNiIsInNlYXQiOiJCMTIifQ==', 'id': 7}

    def test_scan_ticket_from_db_row(db_row):
        repo = TicketRepo(FakeDB([db_row]))
>       ticket = repo.load(7)

tests/test_scan.py:36: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
src/qrticket/repo.py:22: in load
    return decode_ticket(row["code"])
src/qrticket/codec.py:10: in decode_ticket
    return json.loads(base64.b64decode(code, validate=True))
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

s = b'eyJldmVudCI6ImNvbmNlcnQtMjAyNiIsInNlYXQiOiJCM', altchars = None, validate = True

    def b64decode(s, altchars=None, validate=False):
        s = _bytes_from_decode_data(s)
        if altchars is not None:
            altchars = _bytes_from_decode_data(altchars)
            assert len(altchars) == 2, repr(altchars)
            s = s.translate(bytes.maketrans(altchars, b'+/'))
>       return binascii.a2b_base64(s, strict_mode=validate)
E       binascii.Error: Invalid base64-encoded string: number of data characters (45) cannot be 1 more than a multiple of 4

/usr/lib/python3.11/base64.py:88: Error
=========================== short test summary info ============================
FAILED tests/test_scan.py::test_scan_ticket_from_db_row - binascii.Error: Invalid base64-encoded string: number of data characters (45) cannot b...
========================= 1 failed, 9 passed in 0.03s ==========================
""", "binascii.Error", ["src/qrticket/repo.py"],
"TicketRepo.load() read the code through a helper that sliced values to the column's declared width of 45 characters, cutting the base64 string in the middle. The code column is TEXT now and the repo returns the stored value unsliced.",
"pytest passed with exit code 0 (10 passed)",
"""--- a/src/qrticket/repo.py
+++ b/src/qrticket/repo.py
@@ -5,7 +5,6 @@ from .codec import decode_ticket
 
 COLUMNS = {"id": int, "code": str}
-CODE_WIDTH = 45
 
 
 class TicketRepo:
@@ -19,4 +18,4 @@ class TicketRepo:
         row = self.db.fetch_one("SELECT id, code FROM tickets WHERE id = ?", (ticket_id,))
         if row is None:
             raise KeyError(ticket_id)
-        return decode_ticket(row["code"][:CODE_WIDTH])
+        return decode_ticket(row["code"])
""")

R("r-dx-getattr-1", "lazyproxy", "getattr-recursion-before-init", hdr("/home/dev/lazyproxy", 8) + """
tests/test_proxy.py .....F..                                             [100%]

=================================== FAILURES ===================================
__________________________ test_proxy_survives_pickle __________________________

    def test_proxy_survives_pickle():
        p = LazyProxy(lambda: {"a": 1})
>       clone = pickle.loads(pickle.dumps(p))

tests/test_proxy.py:40: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
src/lazyproxy/proxy.py:19: in __getattr__
    return getattr(self._target(), name)
src/lazyproxy/proxy.py:19: in __getattr__
    return getattr(self._target(), name)
E   RecursionError: maximum recursion depth exceeded
!!! Recursion detected (same locals & position)
=========================== short test summary info ============================
FAILED tests/test_proxy.py::test_proxy_survives_pickle - RecursionError: maximum recursion depth exceeded
========================= 1 failed, 7 passed in 0.08s ==========================
""", "RecursionError", ["src/lazyproxy/proxy.py"],
"pickle creates the object without calling __init__ and then looks up __setstate__, which went to __getattr__; that accessed self._target, which is missing too, and so re-entered __getattr__ forever. __getattr__ now raises AttributeError for its own private names and dunder lookups, and the factory is resolved at module level for pickling.",
"pytest passed with exit code 0 (8 passed)",
"""--- a/src/lazyproxy/proxy.py
+++ b/src/lazyproxy/proxy.py
@@ -16,4 +16,6 @@ class LazyProxy:
         self._target = factory
 
     def __getattr__(self, name):
+        if name.startswith("_"):
+            raise AttributeError(name)
         return getattr(self._target(), name)
""")

R("r-dx-listkey-1", "coordcache", "list-used-as-dict-key", hdr("/srv/coordcache", 12) + """
tests/test_cache.py ..F.........                                         [100%]

=================================== FAILURES ===================================
__________________________ test_cache_hit_for_same_point _______________________

    def test_cache_hit_for_same_point():
        cache = ElevationCache(source=FakeDEM())
>       cache.get([52.37, 4.89])

tests/test_cache.py:21: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

self = <coordcache.cache.ElevationCache object at 0x7f1e2c3b8a90>, point = [52.37, 4.89]

    def get(self, point):
>       if point in self._store:
E       TypeError: unhashable type: 'list'

src/coordcache/cache.py:14: TypeError
=========================== short test summary info ============================
FAILED tests/test_cache.py::test_cache_hit_for_same_point - TypeError: unhashable type: 'list'
========================= 1 failed, 11 passed in 0.02s =========================
""", "TypeError", ["src/coordcache/cache.py"],
"Callers pass coordinates as [lat, lon] lists (that is what the GeoJSON parser yields) and the cache used them directly as dict keys. get()/put() now normalise the point to a rounded (lat, lon) tuple before touching the store.",
"pytest passed with exit code 0 (12 passed)",
"""--- a/src/coordcache/cache.py
+++ b/src/coordcache/cache.py
@@ -10,9 +10,14 @@ class ElevationCache:
         self._source = source
         self._store = {}
 
+    @staticmethod
+    def _key(point):
+        lat, lon = point
+        return (round(lat, 5), round(lon, 5))
+
     def get(self, point):
-        if point in self._store:
-            return self._store[point]
-        value = self._store[point] = self._source.elevation(*point)
+        key = self._key(point)
+        if key in self._store:
+            return self._store[key]
+        value = self._store[key] = self._source.elevation(*point)
         return value
""")

R("r-dx-locked-1", "kioskdb", "sqlite-connection-left-in-transaction", """.E...
======================================================================
ERROR: test_second_writer_waits (tests.test_concurrency.WriterTests.test_second_writer_waits)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/opt/kioskdb/tests/test_concurrency.py", line 33, in test_second_writer_waits
    other.record_sale("SKU-7", 2)
  File "/opt/kioskdb/kioskdb/sales.py", line 28, in record_sale
    self.conn.execute("INSERT INTO sales (sku, qty) VALUES (?, ?)", (sku, qty))
sqlite3.OperationalError: database is locked

----------------------------------------------------------------------
Ran 5 tests in 5.018s

FAILED (errors=1)
""", "sqlite3.OperationalError", ["kioskdb/sales.py"],
"refresh_totals() ran a SELECT ... then an UPDATE on the shared connection but never committed, leaving a write transaction open that held the database lock, so the second connection timed out. Wrapped the read-modify-write in `with self.conn:` so it commits (or rolls back) immediately.",
"python -m unittest passed (OK, 5 tests)",
"""--- a/kioskdb/sales.py
+++ b/kioskdb/sales.py
@@ -14,10 +14,11 @@ class SalesLedger:
     def refresh_totals(self):
-        cur = self.conn.execute("SELECT sku, SUM(qty) FROM sales GROUP BY sku")
-        for sku, total in cur.fetchall():
-            self.conn.execute("UPDATE totals SET qty = ? WHERE sku = ?", (total, sku))
+        with self.conn:
+            cur = self.conn.execute("SELECT sku, SUM(qty) FROM sales GROUP BY sku")
+            for sku, total in cur.fetchall():
+                self.conn.execute("UPDATE totals SET qty = ? WHERE sku = ?", (total, sku))
 
     def record_sale(self, sku, qty):
-        self.conn.execute("INSERT INTO sales (sku, qty) VALUES (?, ?)", (sku, qty))
-        self.conn.commit()
+        with self.conn:
+            self.conn.execute("INSERT INTO sales (sku, qty) VALUES (?, ?)", (sku, qty))
""")

R("r-dx-f32-1", "rainfall", "numpy-float32-accumulation-error", hdr("/home/ci/rainfall", 9) + """
tests/test_totals.py ..F......                                           [100%]

=================================== FAILURES ===================================
__________________________ test_decade_total_matches __________________________

decade = array([0.1, 0.1, 0.1, ..., 0.1, 0.1, 0.1], dtype=float32)

    def test_decade_total_matches(decade):
>       assert running_total(decade)[-1] == pytest.approx(365.3, rel=1e-6)
E       assert 365.29858 == 365.3 ± 3.7e-04
E         comparison failed
E         Obtained: 365.29858
E         Expected: 365.3 ± 3.7e-04

tests/test_totals.py:17: AssertionError
=========================== short test summary info ============================
FAILED tests/test_totals.py::test_decade_total_matches - assert 365.29858 == 365.3 ± 3.7e-04
========================= 1 failed, 8 passed in 0.12s ==========================
""", "AssertionError", ["src/rainfall/totals.py"],
"running_total() used np.cumsum on the float32 readings, so the accumulator was float32 and rounding error grew over 3653 additions. Accumulate in float64 via cumsum(dtype=np.float64).",
"pytest passed with exit code 0 (9 passed)",
"""--- a/src/rainfall/totals.py
+++ b/src/rainfall/totals.py
@@ -4,4 +4,4 @@ import numpy as np
 def running_total(daily_mm):
-    return np.cumsum(daily_mm)
+    return np.cumsum(daily_mm, dtype=np.float64)
""")

R("r-dx-jsonset-1", "featureflags", "json-set-not-serializable", colorize(hdr("/home/ci/featureflags", 14, py="3.12.4", pytest="8.2.2", pluggy="1.5.0") + """
tests/test_export.py ........F.....                                      [100%]

=================================== FAILURES ===================================
__________________________ test_export_flags_to_json ___________________________

    def test_export_flags_to_json():
        reg = FlagRegistry()
        reg.enable("beta-ui", groups={"staff", "testers"})
>       data = json.loads(reg.export())

tests/test_export.py:61: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
src/featureflags/registry.py:48: in export
    return json.dumps(self._flags, sort_keys=True)
/usr/lib/python3.12/json/__init__.py:238: in dumps
    **kw).encode(obj)
/usr/lib/python3.12/json/encoder.py:200: in encode
    chunks = self.iterencode(o, _one_shot=True)
/usr/lib/python3.12/json/encoder.py:258: in iterencode
    return _iterencode(o, 0)
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

self = <json.encoder.JSONEncoder object at 0x7f6a2d1e0b90>, o = {'staff', 'testers'}

    def default(self, o):
        \"\"\"Implement this method in a subclass such that it returns
        a serializable object for ``o``, or calls the base implementation
        (to raise a ``TypeError``).
        ...
        \"\"\"
>       raise TypeError(f'Object of type {o.__class__.__name__} '
                        f'is not JSON serializable')
E       TypeError: Object of type set is not JSON serializable

/usr/lib/python3.12/json/encoder.py:180: TypeError
=========================== short test summary info ============================
FAILED tests/test_export.py::test_export_flags_to_json - TypeError: Object of type set is not JSON serializable
========================= 1 failed, 13 passed in 0.03s =========================
"""), "TypeError", ["src/featureflags/registry.py"],
"Flag groups are kept as sets, which json.dumps cannot encode. export() now passes a default= hook that turns sets into sorted lists, and import_() converts them back to sets.",
"pytest passed with exit code 0 (14 passed)",
"""--- a/src/featureflags/registry.py
+++ b/src/featureflags/registry.py
@@ -44,8 +44,14 @@ class FlagRegistry:
+    @staticmethod
+    def _encode(obj):
+        if isinstance(obj, (set, frozenset)):
+            return sorted(obj)
+        raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")
+
     def export(self):
-        return json.dumps(self._flags, sort_keys=True)
+        return json.dumps(self._flags, sort_keys=True, default=self._encode)
 
     def import_(self, text):
         raw = json.loads(text)
-        self._flags = raw
+        self._flags = {name: {**f, "groups": set(f.get("groups", ()))} for name, f in raw.items()}
""")
