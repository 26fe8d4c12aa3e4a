from common import R, Q, hdr, colorize
F = "file-written-not-flushed"

R("r-ufw-1", "reportgen", F, hdr("/home/ci/reportgen", 8) + """
tests/test_export.py ...F....                                            [100%]

=================================== FAILURES ===================================
__________________________ test_summary_file_contents __________________________

tmp_path = PosixPath('/tmp/pytest-of-ci/pytest-4/test_summary_file_contents0')

    def test_summary_file_contents(tmp_path):
        path = write_summary(tmp_path, {"open": 3, "closed": 9})
>       assert path.read_text().splitlines() == ["status,count", "open,3", "closed,9"]
E       AssertionError: assert [] == ['status,count', 'open,3', 'closed,9']
E         Right contains 3 more items, first extra item: 'status,count'
E         Use -v to get more diff

tests/test_export.py:30: AssertionError
=========================== short test summary info ============================
FAILED tests/test_export.py::test_summary_file_contents - AssertionError: assert [] == ['status,count', 'open,3', 'closed,9']
========================= 1 failed, 7 passed in 0.02s ==========================
""", "AssertionError", ["src/reportgen/export.py"],
"write_summary() opened the output with open(..., 'w') and returned without closing it, so the rows were still in the userspace buffer when the caller read the file. Write inside a `with` block so the file is flushed and closed before the path is returned.",
"pytest passed with exit code 0 (8 passed)",
"""--- a/src/reportgen/export.py
+++ b/src/reportgen/export.py
@@ -8,9 +8,9 @@ import csv
 def write_summary(out_dir, counts):
     path = out_dir / "summary.csv"
-    fh = open(path, "w", newline="")
-    w = csv.writer(fh)
-    w.writerow(["status", "count"])
-    w.writerows(counts.items())
+    with open(path, "w", newline="") as fh:
+        w = csv.writer(fh)
+        w.writerow(["status", "count"])
+        w.writerows(counts.items())
     return path
""")

R("r-ufw-2", "logship", F, hdr("/srv/logship", 13, py="3.11.6", plugins="mock-3.12.0") + """
tests/test_archive.py .......F.....                                      [100%]

=================================== FAILURES ===================================
__________________________ test_archive_contains_batch _________________________

tmp_path = PosixPath('/tmp/pytest-of-svc/pytest-2/test_archive_contains_batch0')

    def test_archive_contains_batch(tmp_path):
        batch = [b"GET /a 200", b"GET /b 404"]
        archive = ship_batch(batch, dest=tmp_path)
>       assert gzip.decompress(archive.read_bytes()) == b"GET /a 200\\nGET /b 404\\n"
E       AssertionError: assert b'' == b'GET /a 200\\nGET /b 404\\n'
E         Use -v to get more diff

tests/test_archive.py:58: AssertionError
=========================== short test summary info ============================
FAILED tests/test_archive.py::test_archive_contains_batch - AssertionError: assert b'' == b'GET /a 200\\nGET /b 404\\n'
========================= 1 failed, 12 passed in 0.09s =========================
""", "AssertionError", ["src/logship/archive.py"],
"ship_batch() wrote the lines to a NamedTemporaryFile and immediately ran `gzip -c` on tmp.name; the data was still buffered in Python, so gzip compressed an empty file. Call tmp.flush() (and os.fsync) before handing the file name to the subprocess.",
"pytest passed with exit code 0 (13 passed)",
"""--- a/src/logship/archive.py
+++ b/src/logship/archive.py
@@ -21,6 +21,8 @@ def ship_batch(lines, dest):
     with tempfile.NamedTemporaryFile("wb", suffix=".log") as tmp:
         for line in lines:
             tmp.write(line + b"\\n")
+        tmp.flush()
+        os.fsync(tmp.fileno())
         out = dest / f"batch-{uuid.uuid4().hex[:8]}.log.gz"
         with open(out, "wb") as fh:
             subprocess.run(["gzip", "-c", tmp.name], stdout=fh, check=True)
""")

Q("q-ufw-1", "exportcsv", F, """..F.
======================================================================
FAIL: test_export_writes_all_rows (tests.test_export.ExportTests.test_export_writes_all_rows)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/mo/exportcsv/tests/test_export.py", line 31, in test_export_writes_all_rows
    self.assertEqual(len(rows), 3)
AssertionError: 0 != 3

----------------------------------------------------------------------
Ran 4 tests in 0.003s

FAILED (failures=1)
""", "AssertionError")

Q("q-ufw-2", "cfgwriter", F, hdr("/home/dev/cfgwriter", 10) + """
tests/test_save.py ....F.....                                            [100%]

=================================== FAILURES ===================================
___________________________ test_saved_config_reloads __________________________

tmp_path = PosixPath('/tmp/pytest-of-dev/pytest-9/test_saved_config_reloads0')

    def test_saved_config_reloads(tmp_path):
        cfg = Config(name="edge-01", replicas=3)
        path = cfg.save(tmp_path / "edge.json")
>       assert Config.load(path) == cfg

tests/test_save.py:34: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
src/cfgwriter/config.py:41: in load
    data = json.load(fh)
/usr/lib/python3.11/json/__init__.py:293: in load
    return loads(fp.read(),
/usr/lib/python3.11/json/__init__.py:346: in loads
    return _default_decoder.decode(s)
/usr/lib/python3.11/json/decoder.py:337: in decode
    obj, end = self.raw_decode(s, idx=_w(s, 0).end())
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

self = <json.decoder.JSONDecoder object at 0x7f5a1e3c7d90>, s = '', idx = 0

    def raw_decode(self, s, idx=0):
        \"\"\"Decode a JSON document from ``s`` (a ``str`` beginning with
        a JSON document) and return a 2-tuple of the Python
        representation and the index in ``s`` where the document ended.
    
        This can be used to decode a JSON document from a string that may
        have extraneous data at the end.
    
        \"\"\"
        try:
            obj, end = self.scan_once(s, idx)
        except StopIteration as err:
>           raise JSONDecodeError("Expecting value", s, err.value) from None
E           json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)

/usr/lib/python3.11/json/decoder.py:355: JSONDecodeError
=========================== short test summary info ============================
FAILED tests/test_save.py::test_saved_config_reloads - json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)
========================= 1 failed, 9 passed in 0.03s ==========================
""", "JSONDecodeError")

Q("q-ufw-3", "sigfile", F, colorize(hdr("/home/ci/sigfile", 7) + """
tests/test_digest.py .F.....                                             [100%]

=================================== FAILURES ===================================
__________________________ test_digest_of_written_blob _________________________

tmp_path = PosixPath('/tmp/pytest-of-ci/pytest-0/test_digest_of_written_blob0')

    def test_digest_of_written_blob(tmp_path):
        blob = b"release-2.4.1" * 100
        path = store_blob(tmp_path, blob)
>       assert sha256_file(path) == hashlib.sha256(blob).hexdigest()
E       AssertionError: assert 'e3b0c44298fc...7852b855' == '4f1d0b7c9e5a...3c2e91d0'
E         - 4f1d0b7c9e5a8a5f6b2d7e0c1a9f3b4d5e6c7a8b9d0e1f2a3b4c5d6e3c2e91d0
E         + e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855

tests/test_digest.py:15: AssertionError
=========================== short test summary info ============================
FAILED tests/test_digest.py::test_digest_of_written_blob - AssertionError: assert 'e3b0c44298fc...7852b855' == '4f1d0b7c9e5a...3c2e...
========================= 1 failed, 6 passed in 0.01s ==========================
"""), "AssertionError")

Q("q-ufw-4", "tarbuild", F, hdr("/builds/pkg/tarbuild", 12, plugins="cov-5.0.0") + """
tests/test_bundle.py ........F...                                        [100%]

=================================== FAILURES ===================================
__________________________ test_manifest_member_size ___________________________

tmp_path = PosixPath('/tmp/pytest-of-runner/pytest-0/test_manifest_member_size0')

    def test_manifest_member_size(tmp_path):
        bundle = build_bundle(tmp_path, files={"app.py": b"print('hi')"}, version="1.2.0")
        with tarfile.open(bundle) as tar:
            member = tar.getmember("MANIFEST.txt")
>           assert member.size > 0
E           AssertionError: assert 0 > 0
E            +  where 0 = <TarInfo 'MANIFEST.txt' at 0x7f03c1b2e940>.size

tests/test_bundle.py:66: AssertionError
=========================== short test summary info ============================
FAILED tests/test_bundle.py::test_manifest_member_size - AssertionError: assert 0 > 0
========================= 1 failed, 11 passed in 0.05s =========================
""", "AssertionError")
