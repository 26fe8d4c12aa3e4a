"""A parametrized test's parameters are its own text (outside round 7 case 04): a `;` in them cut the
symptom's `failing tests:` line into bogus test names (`test_add_tagged[\\x1b]52;c;...]` gave the tests
"add tagged [\\x1b]52", "c" and "ZXZpbA==\\x07]", and the `why:` line said "same failing test(s) ... c"),
and a `::` in them was taken for the id's own separator. A test is its name, whatever its parameters hold."""

from __future__ import annotations

from astra_memory.testrun.symptoms import failing_test_names, parse_failure, symptom_query

OUTPUT = """\
=================================== FAILURES ===================================
{sections}
=========================== short test summary info ============================
{summary}
========================= 2 failed, 1 passed in 0.05s ==========================
"""
SECTION = """\
_______________________________ {name} ________________________________

    def test_x(v):
>       assert add(2, 3) == 5
E       AssertionError: assert -1 == 5

tests/test_add.py:5: AssertionError
"""


def test_parameters_holding_the_separators_are_one_test():
    ids = ["tests/test_add.py::test_tagged[\\x1b]52;c;ZXZpbA==\\x07]", "tests/test_add.py::test_path[a::test_c]"]
    output = OUTPUT.format(sections="".join(SECTION.format(name=i.split("::", 1)[1]) for i in ids),
                           summary="\n".join(f"FAILED {i} - AssertionError: assert -1 == 5" for i in ids))
    failure = parse_failure(output)
    assert set(ids) <= set(failure.failing_tests)
    assert failing_test_names(symptom_query(failure)) == {"tagged", "path"}
