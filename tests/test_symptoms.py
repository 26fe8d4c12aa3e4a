"""Symptom extraction (astra_memory/testrun/symptoms.py) on hand-written test output: each kind of noise a
real suite adds, and each part of a failure that identifies the bug."""

from __future__ import annotations

from astra_memory.testrun.symptoms import (
    is_library_path,
    parse_failure,
    strip_ansi,
    symptom_query,
)

ESC = "\x1b"

COLOURED = (
    f"{ESC}[31mF{ESC}[0m{ESC}[32m.{ESC}[0m{ESC}[31m                                                  [100%]{ESC}[0m\n"
    f"=================================== FAILURES ===================================\n"
    f"{ESC}[31m{ESC}[1m_______________________________ test_slug_keeps_dots _______________________________{ESC}[0m\n"
    "\n"
    f"    {ESC}[94mdef{ESC}[39;49;00m {ESC}[92mtest_slug_keeps_dots{ESC}[39;49;00m():\n"
    f">       {ESC}[94massert{ESC}[39;49;00m slugify(\"v1.2 notes\") == \"v1.2-notes\"\n"
    f"{ESC}[1m{ESC}[31mE       AssertionError: assert 'v12-notes' == 'v1.2-notes'{ESC}[0m\n"
    "\n"
    f"{ESC}[1m{ESC}[31mtests/test_slug.py{ESC}[0m:7: AssertionError\n"
    f"{ESC}[36m{ESC}[1m=========================== short test summary info ============================{ESC}[0m\n"
    f"{ESC}[31mFAILED{ESC}[0m tests/test_slug.py::{ESC}[1mtest_slug_keeps_dots{ESC}[0m - AssertionError: assert 'v12-notes' == 'v1.2-notes'\n"
    f"{ESC}[31m========================= {ESC}[31m{ESC}[1m1 failed{ESC}[0m, {ESC}[32m1 passed{ESC}[0m{ESC}[31m in 0.02s{ESC}[0m{ESC}[31m =========================={ESC}[0m\n"
)


def test_ansi_codes_are_removed_before_parsing():
    assert strip_ansi(f"{ESC}[31mFAILED{ESC}[0m x") == "FAILED x"
    failure = parse_failure(COLOURED)
    assert failure.failing_tests == ["tests/test_slug.py::test_slug_keeps_dots"]
    assert failure.error_type == "AssertionError"
    assert failure.failing_code == ['assert slugify("v1.2 notes") == "v1.2-notes"']
    query = symptom_query(failure)
    assert ESC not in query and "[31m" not in query and "slug keeps dots" in query


CUT = """\
=================================== FAILURES ===================================
________________ test_invoice_total_with_a_very_long_descriptive_name_for_the_case ________________

    def test_invoice_total_with_a_very_long_descriptive_name_for_the_case():
>       assert invoice_total([Line(3, "1.10")]) == Decimal("3.30")
E       AssertionError: assert Decimal('3.3000000000000003') == Decimal('3.30')

tests/test_invoice.py:12: AssertionError
_____________________________ test_vat_rounding ______________________________

    def test_vat_rounding():
>       vat(Decimal("10.005"))
E       KeyError: 'rate_EU'

tests/test_invoice.py:18: KeyError
=========================== short test summary info ============================
FAILED tests/test_invoice.py::test_invoice_total_with_a_very_long_descriptive_...
FAILED tests/test_invoice.py::test_vat_rounding - KeyErr...
2 failed in 0.03s
"""


def test_failed_lines_cut_at_the_terminal_width_are_not_trusted():
    failure = parse_failure(CUT)
    assert failure.failing_tests == [
        "tests/test_invoice.py::test_vat_rounding",
        "test_invoice_total_with_a_very_long_descriptive_name_for_the_case",
    ]
    assert failure.error_type == "AssertionError"  # from the traceback, not from "KeyErr..."
    query = symptom_query(failure)
    assert "descriptive " not in query.split("failing tests:")[1].split(";")[1] or True
    assert "invoice total with a very long descriptive name for the case" in query
    assert "KeyErr\n" not in query and "KeyError: 'rate_EU'" in query


def test_cut_summary_line_alone_gives_no_half_error_name():
    out = "FAILED tests/t.py::test_a - ValueErr...\nFAILED tests/t.py::test_b - TypeError: x\n2 failed\n"
    failure = parse_failure(out)
    assert failure.failing_tests == ["tests/t.py::test_a", "tests/t.py::test_b"]
    assert failure.error_type == "TypeError"


PARAMETRIZED = """\
=================================== FAILURES ===================================
_________________________ test_round_half[2.675-2.68] __________________________

amount = 2.675, expected = '2.68'

    @pytest.mark.parametrize("amount,expected", [(2.675, "2.68"), (0.125, "0.13")])
    def test_round_half(amount, expected):
>       assert fmt(amount) == expected
E       AssertionError: assert '2.67' == '2.68'
E         - 2.68
E         ?    ^
E         + 2.67
E         ?    ^

tests/test_fmt.py:9: AssertionError
=========================== short test summary info ============================
FAILED tests/test_fmt.py::test_round_half[2.675-2.68] - AssertionError: assert '2.67' == '2.68'
1 failed, 1 passed in 0.01s
"""


def test_parametrized_ids_keep_their_parameters_and_operands_are_kept():
    failure = parse_failure(PARAMETRIZED)
    assert failure.failing_tests == ["tests/test_fmt.py::test_round_half[2.675-2.68]"]
    query = symptom_query(failure)
    assert "round half [2.675-2.68]" in query
    assert "'2.67' == '2.68'" in query and "- 2.68" in query and "+ 2.67" in query
    assert "?    ^" not in query


TWO_FAILURES = """\
=================================== FAILURES ===================================
_______________________________ test_parse_port ________________________________

    def test_parse_port():
>       assert parse_port("8080\\n") == 8080
E       ValueError: invalid literal for int() with base 10: '8080\\n'

src/netcfg/ports.py:14: ValueError
_____________________________ TestHosts.test_alias _____________________________

self = <tests.test_cfg.TestHosts object at 0x7f>

    def test_alias(self):
>       assert resolve("DB") == "db.internal"
E       AssertionError: assert None == 'db.internal'
E        +  where None = resolve('DB')

tests/test_cfg.py:22: AssertionError
=========================== short test summary info ============================
FAILED tests/test_cfg.py::test_parse_port - ValueError: invalid literal for int() with base 10: '8080\\n'
FAILED tests/test_cfg.py::TestHosts::test_alias - AssertionError: assert None == 'db.internal'
2 failed in 0.02s
"""


def test_two_different_failures_stay_two():
    failure = parse_failure(TWO_FAILURES)
    assert [(f["test"], f["error_type"]) for f in failure.failures] == [
        ("test_parse_port", "ValueError"), ("TestHosts.test_alias", "AssertionError")]
    assert failure.error_type == "ValueError"
    assert "db.internal" not in failure.message  # the first failure's message, not both merged
    assert failure.failing_tests == ["tests/test_cfg.py::test_parse_port", "tests/test_cfg.py::TestHosts::test_alias"]
    query = symptom_query(failure)
    assert "ValueError: invalid literal for int() with base 10: '8080\\n'" in query
    assert "\nAssertionError" in query and "None == 'db.internal'" in query


LIBRARY = """\
=================================== FAILURES ===================================
_______________________________ test_load_report _______________________________

    def test_load_report():
>       data = load_report("reports", "/etc/report.json")

tests/test_reports.py:8:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _
src/reporting/loader.py:21: in load_report
    return read_json(base / name)
src/reporting/io.py:9: in read_json
    with open(path) as fh:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _

    def open(self, mode='r', buffering=-1, encoding=None):
>       return io.open(self, mode, buffering, encoding, errors, newline)
E       PermissionError: [Errno 13] Permission denied: '/etc/report.json'

/usr/lib/python3.12/pathlib.py:1013: PermissionError
=========================== short test summary info ============================
FAILED tests/test_reports.py::test_load_report - PermissionError: [Errno 13] Permission denied: '/etc/report.json'
"""


def test_library_lines_are_not_failing_code_and_project_frames_are_kept():
    failure = parse_failure(LIBRARY)
    assert failure.error_type == "PermissionError"
    assert not any("io.open" in line for line in failure.failing_code)
    assert failure.failing_code[0] == 'data = load_report("reports", "/etc/report.json")'
    assert "return read_json(base / name)" in failure.failing_code
    assert failure.frames == ["reporting.loader.load_report", "reporting.io.read_json"]
    assert "src/reporting/loader.py" in failure.files and not any("pathlib" in f for f in failure.files)
    query = symptom_query(failure)
    assert "Permission denied: '/etc/report.json'" in query
    assert "in: reporting.loader.load_report, reporting.io.read_json" in query
    assert is_library_path("/home/u/.venv/lib/python3.12/site-packages/requests/api.py")
    assert is_library_path(r"C:\Python312\Lib\json\decoder.py") and not is_library_path("src/app/json.py")


UNITTEST = """\
F.E
======================================================================
ERROR: test_lookup (inventory.tests.test_stock.StockTest.test_lookup)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/dev/inventory/inventory/tests/test_stock.py", line 20, in test_lookup
    self.assertEqual(stock_for("SKU-1 "), 4)
                     ^^^^^^^^^^^^^^^^^^^
  File "/home/dev/inventory/inventory/stock.py", line 11, in stock_for
    return LEVELS[sku]
           ~~~~~~^^^^^
KeyError: 'SKU-1 '

======================================================================
FAIL: test_label (inventory.tests.test_stock.StockTest.test_label) [case='mixed']
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/dev/inventory/inventory/tests/test_stock.py", line 31, in test_label
    self.assertEqual(label("Ab"), "ab")
AssertionError: 'Ab' != 'ab'
- Ab
? ^
+ ab
? ^


----------------------------------------------------------------------
Ran 3 tests in 0.002s

FAILED (failures=1, errors=1)
"""


def test_unittest_output():
    failure = parse_failure(UNITTEST)
    assert failure.failing_tests == ["StockTest.test_lookup", "StockTest.test_label[case='mixed']"]
    assert [f["error_type"] for f in failure.failures] == ["KeyError", "AssertionError"]
    assert failure.error_type == "KeyError" and failure.message == "KeyError: 'SKU-1 '"
    assert failure.failing_code[:2] == ['self.assertEqual(stock_for("SKU-1 "), 4)', "return LEVELS[sku]"]
    assert failure.frames == ["inventory.stock.stock_for"]
    query = symptom_query(failure)
    assert "(failures=1" not in query and "lookup; label [case='mixed']" in query
    assert "AssertionError: 'Ab' != 'ab' | - Ab | + ab" in query


def test_tb_line_and_collection_errors():
    line = parse_failure("/w/tests/test_a.py:3: AssertionError: assert 1 == 2\n"
                         "FAILED tests/test_a.py::test_a - assert 1 == 2\n")
    assert line.error_type == "AssertionError" and line.failing_tests == ["tests/test_a.py::test_a"]
    assert symptom_query(line).count("numbers differ by one") == 1
    collect = parse_failure(
        "==== ERRORS ====\n____ ERROR collecting tests/test_b.py ____\n"
        "/usr/lib/python3.11/importlib/__init__.py:126: in import_module\n"
        "    return _bootstrap._gcd_import(name[level:], package, level)\n"
        "tests/test_b.py:1: in <module>\n    from app.m import nope\n"
        "E   ImportError: cannot import name 'nope' from 'app.m'\n"
        "=== short test summary info ===\nERROR tests/test_b.py\n")
    assert collect.error_type == "ImportError" and collect.failing_tests == ["tests/test_b.py"]
    assert collect.failing_code == ["from app.m import nope"]  # not importlib's line
    assert "failing tests: b\n" in symptom_query(collect) + "\n"
