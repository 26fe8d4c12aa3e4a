from common import R, Q, hdr, colorize
F = "zip-silent-truncation"

R("r-zts-1", "csvmerge", F, hdr("/home/ci/csvmerge", 14) + """
tests/test_rows.py .....F........                                        [100%]

=================================== FAILURES ===================================
______________________ test_extra_value_is_not_dropped _________________________

    def test_extra_value_is_not_dropped():
        header = ["id", "name", "city"]
        raw = ["7", "Ilse", "Gent", "BE"]
>       with pytest.raises(RowShapeError):
E       Failed: DID NOT RAISE <class 'csvmerge.errors.RowShapeError'>

tests/test_rows.py:44: Failed
=========================== short test summary info ============================
FAILED tests/test_rows.py::test_extra_value_is_not_dropped - Failed: DID NOT RAISE <class 'csvmerge.errors.RowShapeError'>
========================= 1 failed, 13 passed in 0.04s =========================
""", "Failed", ["src/csvmerge/rows.py"],
"to_record() built the dict with dict(zip(header, values)); zip stops at the shorter input, so a row with an extra column was silently truncated. Use zip(..., strict=True) and turn the resulting ValueError into RowShapeError with the row number.",
"pytest passed with exit code 0 (14 passed)",
"""--- a/src/csvmerge/rows.py
+++ b/src/csvmerge/rows.py
@@ -14,4 +14,9 @@ class RowShapeError(ValueError):
 
 def to_record(header, values, lineno=None):
-    return dict(zip(header, values))
+    try:
+        return dict(zip(header, values, strict=True))
+    except ValueError:
+        raise RowShapeError(
+            f"line {lineno}: expected {len(header)} fields, got {len(values)}"
+        ) from None
""")

R("r-zts-2", "invoicegen", F, hdr("/srv/invoicegen", 10, py="3.12.2", pytest="8.0.1", pluggy="1.4.0") + """
tests/test_lines.py ..F.......                                           [100%]

=================================== FAILURES ===================================
________________________ test_total_includes_every_line ________________________

    def test_total_includes_every_line():
        inv = Invoice.from_form(
            descriptions=["design", "hosting", "support"],
            amounts_cents=[120000, 4500, 9900],
            quantities=[1, 12],
        )
>       assert inv.total_cents() == 120000 + 12 * 4500 + 9900
E       assert 174000 == 183900
E        +  where 174000 = <bound method Invoice.total_cents of Invoice(lines=2)>()
E        +    where <bound method Invoice.total_cents of Invoice(lines=2)> = Invoice(lines=2).total_cents

tests/test_lines.py:31: AssertionError
=========================== short test summary info ============================
FAILED tests/test_lines.py::test_total_includes_every_line - assert 174000 == 183900
========================= 1 failed, 9 passed in 0.03s ==========================
""", "AssertionError", ["src/invoicegen/invoice.py"],
"from_form() paired descriptions, amounts and quantities with zip(), so a missing quantity silently dropped the whole third line. Quantities now default to 1 via itertools.zip_longest on the quantity column, and mismatched descriptions/amounts raise via zip(strict=True).",
"pytest passed with exit code 0 (10 passed)",
"""--- a/src/invoicegen/invoice.py
+++ b/src/invoicegen/invoice.py
@@ -30,7 +30,10 @@ class Invoice:
     @classmethod
     def from_form(cls, descriptions, amounts_cents, quantities):
+        if len(quantities) < len(descriptions):
+            quantities = list(quantities) + [1] * (len(descriptions) - len(quantities))
         lines = [
             Line(desc, amount, qty)
-            for desc, amount, qty in zip(descriptions, amounts_cents, quantities)
+            for desc, amount, qty in zip(descriptions, amounts_cents, quantities, strict=True)
         ]
         return cls(lines)
""")

Q("q-zts-1", "gradebook", F, """..E...
======================================================================
ERROR: test_every_student_gets_a_grade (tests.test_import.ImportTests.test_every_student_gets_a_grade)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/ms/gradebook/tests/test_import.py", line 44, in test_every_student_gets_a_grade
    self.assertEqual(book["zoe"].letter, "B")
                     ~~~~^^^^^^^
KeyError: 'zoe'

----------------------------------------------------------------------
Ran 6 tests in 0.010s

FAILED (errors=1)
""", "KeyError")

Q("q-zts-2", "vecmath", F, hdr("/home/ci/vecmath", 18, plugins="hypothesis-6.98.0") + """
tests/test_ops.py .......FF.........                                     [100%]

=================================== FAILURES ===================================
_______________________ test_dot_length_mismatch[3-4] __________________________

n = 3, m = 4

    @pytest.mark.parametrize("n,m", [(3, 4), (5, 2)])
    def test_dot_length_mismatch(n, m):
        a = Vector(range(n))
        b = Vector(range(m))
>       with pytest.raises(ValueError, match="dimension"):
E       Failed: DID NOT RAISE <class 'ValueError'>

tests/test_ops.py:51: Failed
_______________________ test_dot_length_mismatch[5-2] __________________________

n = 5, m = 2

    @pytest.mark.parametrize("n,m", [(3, 4), (5, 2)])
    def test_dot_length_mismatch(n, m):
        a = Vector(range(n))
        b = Vector(range(m))
>       with pytest.raises(ValueError, match="dimension"):
E       Failed: DID NOT RAISE <class 'ValueError'>

tests/test_ops.py:51: Failed
=========================== short test summary info ============================
FAILED tests/test_ops.py::test_dot_length_mismatch[3-4] - Failed: DID NOT RAISE <class 'ValueError'>
FAILED tests/test_ops.py::test_dot_length_mismatch[5-2] - Failed: DID NOT RAISE <class 'ValueError'>
========================= 2 failed, 16 passed in 0.88s =========================
""", "Failed")

Q("q-zts-3", "labelsync", F, hdr("/home/dev/labelsync", 8, plugins="vcr-1.0.2") + """
tests/test_sync.py ...F....                                              [100%]

=================================== FAILURES ===================================
_________________________ test_pairs_all_issue_labels __________________________

cassette_client = <labelsync.client.Client base='https://tracker.test/api'>

    def test_pairs_all_issue_labels(cassette_client):
        ids = cassette_client.issue_ids(project="web")
        labels = cassette_client.labels_for(ids)
        result = pair_labels(ids, labels)
>       assert len(result) == len(ids)
E       assert 4 == 5
E        +  where 4 = len([(101, ['bug']), (102, []), (105, ['ui', 'bug']), (108, ['docs'])])
E        +  and   5 = len([101, 102, 105, 108, 113])

tests/test_sync.py:39: AssertionError
=========================== short test summary info ============================
FAILED tests/test_sync.py::test_pairs_all_issue_labels - assert 4 == 5
========================= 1 failed, 7 passed in 0.12s ==========================
""", "AssertionError")

Q("q-zts-4", "sensormerge", F, colorize(hdr("/opt/sensormerge", 12) + """
tests/test_merge.py ......F.....                                         [100%]

=================================== FAILURES ===================================
______________________ test_merge_keeps_trailing_reading _______________________

    def test_merge_keeps_trailing_reading():
        stamps = [1700000000, 1700000060, 1700000120, 1700000180, 1700000240]
        temps = [21.0, 21.1, 21.3, 21.2, 21.4]
        hums = [40, 41, 41, 42]
        merged = merge_channels(stamps, temperature=temps, humidity=hums)
>       assert merged[4].temperature == 21.4
E       IndexError: list index out of range

tests/test_merge.py:66: IndexError
=========================== short test summary info ============================
FAILED tests/test_merge.py::test_merge_keeps_trailing_reading - IndexError: list index out of range
========================= 1 failed, 11 passed in 0.02s =========================
"""), "IndexError")
