from common import R, Q, hdr, colorize
F = "bool-passes-isinstance-int"

R("r-bii-1", "cfgschema", F, hdr("/home/ci/cfgschema", 27, configfile="pytest.ini") + """
tests/test_types.py ...................F.......                          [100%]

=================================== FAILURES ===================================
_________________________ test_integer_field_rejects_bool ______________________

    def test_integer_field_rejects_bool():
        schema = Schema({"workers": Integer(min=1)})
>       with pytest.raises(SchemaError):
E       Failed: DID NOT RAISE <class 'cfgschema.errors.SchemaError'>

tests/test_types.py:131: Failed
=========================== short test summary info ============================
FAILED tests/test_types.py::test_integer_field_rejects_bool - Failed: DID NOT RAISE <class 'cfgschema.errors.SchemaError'>
========================= 1 failed, 26 passed in 0.10s =========================
""", "Failed", ["src/cfgschema/types.py"],
"Integer.check() used isinstance(value, int), and bool is a subclass of int, so `workers: true` validated as 1. Added an explicit `isinstance(value, bool)` rejection before the int check.",
"pytest passed with exit code 0 (27 passed)",
"""--- a/src/cfgschema/types.py
+++ b/src/cfgschema/types.py
@@ -52,7 +52,7 @@ class Integer(Field):
     def check(self, value, path):
-        if not isinstance(value, int):
+        if isinstance(value, bool) or not isinstance(value, int):
             raise SchemaError(path, f"expected integer, got {type(value).__name__}")
         if self.min is not None and value < self.min:
             raise SchemaError(path, f"must be >= {self.min}")
""")

R("r-bii-2", "querystr", F, hdr("/src/querystr", 18, py="3.12.4", pytest="8.2.2", pluggy="1.5.0") + """
tests/test_encode.py ..........F.......                                  [100%]

=================================== FAILURES ===================================
___________________________ test_encode_bool_lowercase _________________________

    def test_encode_bool_lowercase():
>       assert encode({"draft": True, "page": 2}) == "draft=true&page=2"
E       AssertionError: assert 'draft=1&page=2' == 'draft=true&page=2'
E         - draft=true&page=2
E         ?       ^^^^
E         + draft=1&page=2
E         ?       ^

tests/test_encode.py:58: AssertionError
=========================== short test summary info ============================
FAILED tests/test_encode.py::test_encode_bool_lowercase - AssertionError: assert 'draft=1&page=2' == 'draft=true&page=2'
========================= 1 failed, 17 passed in 0.04s =========================
""", "AssertionError", ["src/querystr/encode.py"],
"_scalar() dispatched on isinstance(v, int) before checking for bool; since True is an int it was rendered with '%d' as 1. Moved the bool branch above the int branch so booleans encode as 'true'/'false'.",
"pytest passed with exit code 0 (18 passed)",
"""--- a/src/querystr/encode.py
+++ b/src/querystr/encode.py
@@ -11,10 +11,10 @@ def _scalar(v):
     if v is None:
         return ""
+    if isinstance(v, bool):
+        return "true" if v else "false"
     if isinstance(v, int):
         return "%d" % v
-    if isinstance(v, bool):
-        return "true" if v else "false"
     if isinstance(v, float):
         return repr(v)
     return str(v)
""")

Q("q-bii-1", "tabstats", F, hdr("/home/dev/tabstats", 15, plugins="hypothesis-6.92.1") + """
tests/test_summary.py .......F.......                                    [100%]

=================================== FAILURES ===================================
___________________ test_bool_columns_reported_as_counts _______________________

    def test_bool_columns_reported_as_counts():
        rows = [{"active": True, "age": 31}, {"active": False, "age": 40},
                {"active": True, "age": 22}]
        summary = summarize(rows)
>       assert summary["active"] == {"true": 2, "false": 1}
E       AssertionError: assert {'max': True,...': 0.6666666666666666, 'min': False} == {'false': 1, 'true': 2}
E         Left contains 3 more items:
E         {'max': True, 'mean': 0.6666666666666666, 'min': False}
E         Right contains 2 more items:
E         {'false': 1, 'true': 2}
E         Use -v to get more diff

tests/test_summary.py:74: AssertionError
=========================== short test summary info ============================
FAILED tests/test_summary.py::test_bool_columns_reported_as_counts - AssertionError: assert {'max': True,...': 0.6666666666666666, 'min': Fal...
========================= 1 failed, 14 passed in 0.61s =========================
""", "AssertionError")

Q("q-bii-2", "argkit", F, """EE.......
======================================================================
ERROR: test_flag_from_env_yes (tests.test_coerce.CoerceTests.test_flag_from_env_yes)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/ci/argkit/tests/test_coerce.py", line 19, in test_flag_from_env_yes
    opts = parse_args([], env={"ARGKIT_VERBOSE": "yes"}, spec=SPEC)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/home/ci/argkit/src/argkit/parse.py", line 64, in parse_args
    values[opt.name] = coerce(raw, opt.default)
                       ^^^^^^^^^^^^^^^^^^^^^^^^
  File "/home/ci/argkit/src/argkit/coerce.py", line 12, in coerce
    return int(raw)
           ^^^^^^^^
ValueError: invalid literal for int() with base 10: 'yes'

======================================================================
ERROR: test_flag_from_env_off (tests.test_coerce.CoerceTests.test_flag_from_env_off)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/ci/argkit/tests/test_coerce.py", line 25, in test_flag_from_env_off
    opts = parse_args([], env={"ARGKIT_VERBOSE": "off"}, spec=SPEC)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/home/ci/argkit/src/argkit/parse.py", line 64, in parse_args
    values[opt.name] = coerce(raw, opt.default)
                       ^^^^^^^^^^^^^^^^^^^^^^^^
  File "/home/ci/argkit/src/argkit/coerce.py", line 12, in coerce
    return int(raw)
           ^^^^^^^^
ValueError: invalid literal for int() with base 10: 'off'

----------------------------------------------------------------------
Ran 9 tests in 0.004s

FAILED (errors=2)
""", "ValueError")

Q("q-bii-3", "sheetcalc", F, hdr("/home/ci/sheetcalc", 10) + """
tests/test_functions.py ...F......                                       [100%]

=================================== FAILURES ===================================
_________________________ test_sum_skips_non_numeric[with-bools] _______________

cells = [Cell('A1', 2), Cell('A2', True), Cell('A3', 3), Cell('A4', 'n/a'), Cell('A5', True)]
expected = 5

    @pytest.mark.parametrize("cells,expected", [
        pytest.param([Cell("A1", 2), Cell("A2", "x"), Cell("A3", 3)], 5, id="with-text"),
        pytest.param([Cell("A1", 2), Cell("A2", True), Cell("A3", 3),
                      Cell("A4", "n/a"), Cell("A5", True)], 5, id="with-bools"),
    ])
    def test_sum_skips_non_numeric(cells, expected):
>       assert fn_sum(cells) == expected
E       assert 7 == 5
E        +  where 7 = fn_sum([Cell('A1', 2), Cell('A2', True), Cell('A3', 3), Cell('A4', 'n/a'), Cell('A5', True)])

tests/test_functions.py:30: AssertionError
=========================== short test summary info ============================
FAILED tests/test_functions.py::test_sum_skips_non_numeric[with-bools] - assert 7 == 5
========================= 1 failed, 9 passed in 0.03s ==========================
""", "AssertionError")

Q("q-bii-4", "dimlib", F, colorize(hdr("/Users/sam/dimlib", 24, plat="darwin", py="3.11.9") + """
tests/test_length.py .................F......                            [100%]

=================================== FAILURES ===================================
_____________________ test_length_rejects_non_numbers[True] ____________________

bad = True

    @pytest.mark.parametrize("bad", ["3", None, [1], True])
    def test_length_rejects_non_numbers(bad):
>       with pytest.raises(TypeError):
E       Failed: DID NOT RAISE <class 'TypeError'>

tests/test_length.py:88: Failed
=========================== short test summary info ============================
FAILED tests/test_length.py::test_length_rejects_non_numbers[True] - Failed: DID NOT RAISE <class 'TypeError'>
========================= 1 failed, 23 passed in 0.05s =========================
"""), "Failed")
