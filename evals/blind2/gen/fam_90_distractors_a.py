from common import R, Q, hdr, colorize
# Distractor records: families with no queries that share surface words with queried families.

R("r-dx-nan-1", "metricexport", "json-nan-not-compliant", hdr("/home/ci/metricexport", 12) + """
tests/test_payload.py .....F......                                       [100%]

=================================== FAILURES ===================================
________________________ test_payload_with_missing_gauge _______________________

    def test_payload_with_missing_gauge():
        snap = Snapshot(gauges={"cpu": 0.42, "gpu": float("nan")})
>       body = to_json(snap)

tests/test_payload.py:38: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
src/metricexport/payload.py:22: in to_json
    return json.dumps({"gauges": snap.gauges}, allow_nan=False)
/usr/lib/python3.11/json/__init__.py:238: in dumps
    **kw).encode(obj)
/usr/lib/python3.11/json/encoder.py:200: in encode
    chunks = self.iterencode(o, _one_shot=True)
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

self = <json.encoder.JSONEncoder object at 0x7f12c0a4b650>
o = {'gauges': {'cpu': 0.42, 'gpu': nan}}, _one_shot = True

    def iterencode(self, o, _one_shot=False):
        ...
>       return _iterencode(o, 0)
E       ValueError: Out of range float values are not JSON compliant

/usr/lib/python3.11/json/encoder.py:258: ValueError
=========================== short test summary info ============================
FAILED tests/test_payload.py::test_payload_with_missing_gauge - ValueError: Out of range float values are not JSON compliant
========================= 1 failed, 11 passed in 0.03s =========================
""", "ValueError", ["src/metricexport/payload.py"],
"Gauges that have no sample are stored as float('nan'), which strict JSON cannot represent. to_json now maps non-finite values to null before dumping, keeping allow_nan=False so the collector never receives NaN tokens.",
"pytest passed with exit code 0 (12 passed)",
"""--- a/src/metricexport/payload.py
+++ b/src/metricexport/payload.py
@@ -1,4 +1,5 @@
 import json
+import math
 
 from .snapshot import Snapshot
 
@@ -19,4 +20,8 @@ def _finite(v):
 
 def to_json(snap):
-    return json.dumps({"gauges": snap.gauges}, allow_nan=False)
+    gauges = {
+        k: (v if isinstance(v, float) and math.isfinite(v) else None)
+        for k, v in snap.gauges.items()
+    }
+    return json.dumps({"gauges": gauges}, allow_nan=False)
""")

R("r-dx-redir-1", "linkcheckr", "http-redirect-not-followed", hdr("/home/ci/linkcheckr", 15, plugins="responses-0.25.0") + """
tests/test_check.py ........F......                                      [100%]

=================================== FAILURES ===================================
_________________________ test_moved_page_reported_ok __________________________

    @responses.activate
    def test_moved_page_reported_ok():
        responses.head("https://site.test/old", status=301,
                       headers={"Location": "https://site.test/new"})
        responses.head("https://site.test/new", status=200)
        result = check_link("https://site.test/old")
>       assert result.status == 200
E       assert 301 == 200
E        +  where 301 = LinkResult(url='https://site.test/old', status=301, final_url='https://site.test/old').status

tests/test_check.py:71: AssertionError
=========================== short test summary info ============================
FAILED tests/test_check.py::test_moved_page_reported_ok - assert 301 == 200
========================= 1 failed, 14 passed in 0.12s =========================
""", "AssertionError", ["src/linkcheckr/check.py"],
"requests.head() does not follow redirects by default (unlike get), so a moved page was reported with its 301. Pass allow_redirects=True and record resp.url as the final URL.",
"pytest passed with exit code 0 (15 passed)",
"""--- a/src/linkcheckr/check.py
+++ b/src/linkcheckr/check.py
@@ -12,6 +12,6 @@ def check_link(url, session=None, timeout=10):
     session = session or requests.Session()
-    resp = session.head(url, timeout=timeout)
-    return LinkResult(url=url, status=resp.status_code, final_url=url)
+    resp = session.head(url, timeout=timeout, allow_redirects=True)
+    return LinkResult(url=url, status=resp.status_code, final_url=resp.url)
""")

R("r-dx-b64alpha-1", "sharelinks", "base64-standard-alphabet-in-url", hdr("/srv/sharelinks", 9) + """
tests/test_tokens.py ..F......                                           [100%]

=================================== FAILURES ===================================
________________________ test_token_survives_url_path __________________________

    def test_token_survives_url_path():
        token = make_share_token(doc_id=48879, secret=b"k" * 16)
        url = f"https://share.test/d/{token}"
>       assert parse_share_url(url).doc_id == 48879

tests/test_tokens.py:21: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

url = 'https://share.test/d/AAC+7/4vQ9x1mEw='

    def parse_share_url(url):
        path = urlsplit(url).path
        prefix, _, token = path.rpartition("/")
        if prefix != "/d":
>           raise BadShareURL(f"unexpected path {path!r}")
E           sharelinks.errors.BadShareURL: unexpected path '/d/AAC+7/4vQ9x1mEw='

src/sharelinks/tokens.py:33: BadShareURL
=========================== short test summary info ============================
FAILED tests/test_tokens.py::test_token_survives_url_path - sharelinks.errors.BadShareURL: unexpected path '/d/AAC+7/4vQ9x1mEw='
========================= 1 failed, 8 passed in 0.02s ==========================
""", "BadShareURL", ["src/sharelinks/tokens.py"],
"make_share_token() used base64.b64encode, whose alphabet contains '/' and '+', so a token could add a path segment to the share URL. Switched encoding and decoding to urlsafe_b64encode/urlsafe_b64decode.",
"pytest passed with exit code 0 (9 passed)",
"""--- a/src/sharelinks/tokens.py
+++ b/src/sharelinks/tokens.py
@@ -14,11 +14,11 @@ def make_share_token(doc_id, secret):
     raw = doc_id.to_bytes(4, "big") + hmac.new(secret, str(doc_id).encode(), "sha256").digest()[:8]
-    return base64.b64encode(raw).decode("ascii")
+    return base64.urlsafe_b64encode(raw).decode("ascii")
 
 
 def read_share_token(token, secret):
-    raw = base64.b64decode(token)
+    raw = base64.urlsafe_b64decode(token)
     doc_id = int.from_bytes(raw[:4], "big")
""")

R("r-dx-align-1", "sensorpkt", "struct-native-alignment-padding", """..E..
======================================================================
ERROR: test_decode_reading_packet (tests.test_packet.PacketTests.test_decode_reading_packet)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/iot/sensorpkt/tests/test_packet.py", line 24, in test_decode_reading_packet
    reading = decode(bytes.fromhex("01002a00000010270000"))
              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/home/iot/sensorpkt/sensorpkt/packet.py", line 15, in decode
    kind, sensor, value = struct.unpack("BHI", buf[:struct.calcsize("BHI")])
                          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
struct.error: unpack requires a buffer of 8 bytes

----------------------------------------------------------------------
Ran 5 tests in 0.001s

FAILED (errors=1)
""", "struct.error", ["sensorpkt/packet.py"],
"The format 'BHI' without a prefix uses native size and alignment, inserting pad bytes so it needs 8 bytes, while the firmware sends packed 7-byte little-endian records. Use '<BHI' (standard sizes, no padding) for both calcsize and unpack.",
"python -m unittest passed (OK, 5 tests)",
"""--- a/sensorpkt/packet.py
+++ b/sensorpkt/packet.py
@@ -8,10 +8,12 @@ from .model import Reading
 
+PACKET = struct.Struct("<BHI")
+
 
 def decode(buf):
-    kind, sensor, value = struct.unpack("BHI", buf[:struct.calcsize("BHI")])
+    kind, sensor, value = PACKET.unpack(buf[:PACKET.size])
     return Reading(kind=kind, sensor=sensor, value=value)
""")

R("r-dx-commit-1", "notesdb", "sqlite-missing-commit", hdr("/home/dev/notesdb", 11) + """
tests/test_store.py ......F....                                          [100%]

=================================== FAILURES ===================================
________________________ test_note_visible_after_reopen ________________________

tmp_path = PosixPath('/tmp/pytest-of-dev/pytest-5/test_note_visible_after_reopen0')

    def test_note_visible_after_reopen(tmp_path):
        db = tmp_path / "notes.sqlite"
        with NoteStore.open(db) as store:
            store.add("buy milk")
        with NoteStore.open(db) as store:
>           assert [n.text for n in store.all()] == ["buy milk"]
E           AssertionError: assert [] == ['buy milk']
E             Right contains one more item: 'buy milk'
E             Use -v to get more diff

tests/test_store.py:52: AssertionError
=========================== short test summary info ============================
FAILED tests/test_store.py::test_note_visible_after_reopen - AssertionError: assert [] == ['buy milk']
========================= 1 failed, 10 passed in 0.04s =========================
""", "AssertionError", ["src/notesdb/store.py"],
"NoteStore.__exit__ closed the sqlite3 connection without committing; sqlite3 opens an implicit transaction for the INSERT, and closing discards it. __exit__ now commits on success and rolls back when an exception is propagating.",
"pytest passed with exit code 0 (11 passed)",
"""--- a/src/notesdb/store.py
+++ b/src/notesdb/store.py
@@ -20,5 +20,9 @@ class NoteStore:
     def __enter__(self):
         return self
 
     def __exit__(self, exc_type, exc, tb):
+        if exc_type is None:
+            self.conn.commit()
+        else:
+            self.conn.rollback()
         self.conn.close()
""")

R("r-dx-pklfh-1", "workerpool", "pickle-open-file-handle", colorize(hdr("/home/ci/workerpool", 10) + """
tests/test_dispatch.py ...F......                                        [100%]

=================================== FAILURES ===================================
_________________________ test_job_with_logger_dispatch ________________________

tmp_path = PosixPath('/tmp/pytest-of-ci/pytest-3/test_job_with_logger_dispatch0')

    def test_job_with_logger_dispatch(tmp_path):
        job = ExportJob(out_dir=tmp_path, log_path=tmp_path / "job.log")
>       assert run_in_subprocess(job) == "done"

tests/test_dispatch.py:28: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

job = <workerpool.jobs.ExportJob object at 0x7f3c9e1d4b50>, timeout = 60

    def run_in_subprocess(job, timeout=60):
>       payload = pickle.dumps(job)
E       TypeError: cannot pickle '_io.TextIOWrapper' object

src/workerpool/dispatch.py:17: TypeError
=========================== short test summary info ============================
FAILED tests/test_dispatch.py::test_job_with_logger_dispatch - TypeError: cannot pickle '_io.TextIOWrapper' object
========================= 1 failed, 9 passed in 0.05s ==========================
"""), "TypeError", ["src/workerpool/jobs.py"],
"ExportJob opened its log file in __init__ and kept the file object as an attribute, and open file objects cannot be pickled for the worker. Added __getstate__/__setstate__ that drop the handle and reopen the log lazily in the child.",
"pytest passed with exit code 0 (10 passed)",
"""--- a/src/workerpool/jobs.py
+++ b/src/workerpool/jobs.py
@@ -9,7 +9,21 @@ class ExportJob:
     def __init__(self, out_dir, log_path):
         self.out_dir = out_dir
         self.log_path = log_path
-        self.log = open(log_path, "a", encoding="utf-8")
+        self._log = None
+
+    @property
+    def log(self):
+        if self._log is None:
+            self._log = open(self.log_path, "a", encoding="utf-8")
+        return self._log
+
+    def __getstate__(self):
+        state = self.__dict__.copy()
+        state["_log"] = None
+        return state
+
+    def __setstate__(self, state):
+        self.__dict__.update(state)
""")

R("r-dx-sortdir-1", "arcadehi", "sort-direction-inverted", hdr("/home/ci/arcadehi", 8) + """
tests/test_table.py .F......                                             [100%]

=================================== FAILURES ===================================
__________________________ test_high_scores_best_first _________________________

    def test_high_scores_best_first():
        t = ScoreTable()
        for name, pts in [("ann", 900), ("bob", 1500), ("cat", 1200)]:
            t.submit(name, pts)
>       assert [e.name for e in t.top(3)] == ["bob", "cat", "ann"]
E       AssertionError: assert ['ann', 'cat', 'bob'] == ['bob', 'cat', 'ann']
E         At index 0 diff: 'ann' != 'bob'
E         Use -v to get more diff

tests/test_table.py:16: AssertionError
=========================== short test summary info ============================
FAILED tests/test_table.py::test_high_scores_best_first - AssertionError: assert ['ann', 'cat', 'bob'] == ['bob', 'cat', 'ann']
========================= 1 failed, 7 passed in 0.01s ==========================
""", "AssertionError", ["src/arcadehi/table.py"],
"top() sorted entries by points ascending, so the lowest scores were listed first. Sort with reverse=True on points (ties keep submission order because sorted is stable).",
"pytest passed with exit code 0 (8 passed)",
"""--- a/src/arcadehi/table.py
+++ b/src/arcadehi/table.py
@@ -15,4 +15,4 @@ class ScoreTable:
 
     def top(self, n):
-        return sorted(self._entries, key=lambda e: e.points)[:n]
+        return sorted(self._entries, key=lambda e: e.points, reverse=True)[:n]
""")
