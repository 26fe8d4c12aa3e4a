"""The symptom extractor on REAL pytest output: one small project run once by this environment's
pytest (``-v``, doctests, 34 DeprecationWarnings, as a real suite's configuration might ask), and
one test per form checking that the extracted symptom names the error and the detail.

The forms are the ones that gave a bare ``Error`` and test names on real libraries' output
(issue 26): doctest failures (``Expected:``/``Got:``, an unexpected exception), parametrized ids
with spaces (and " - ") in them, chained exceptions, subtests, warning-heavy and ``-v`` output.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from astra_memory.testrun.symptoms import FailureItem, parse_failure, symptom_query

PROJECT = {
    "pkg/__init__.py": "",
    "pkg/mathx.py": '''
        def add(a, b):
            """Add two numbers.

            >>> add(2, 3)
            5
            >>> add(-1, 1)
            0
            """
            return a - b if a < 0 else a + b


        def to_int(text):
            """Parse an integer.

            >>> to_int(" 7 ")
            7
            """
            if text != text.strip():
                raise ValueError(f"invalid number {text!r}")
            return int(text)
    ''',
    "pkg/config.py": '''
        class ConfigError(Exception):
            pass


        def port(settings):
            try:
                return settings["port"]
            except KeyError as exc:
                raise ConfigError("missing setting 'port' in config") from exc
    ''',
    "tests/test_forms.py": '''
        import unittest
        import warnings

        import pytest

        from pkg.config import port


        def slug(text):
            return text.lower().replace(" ", "_")


        @pytest.mark.parametrize("text,expected", [("Hello World - again", "hello-world---again")])
        def test_slug(text, expected):
            assert slug(text) == expected


        def test_port():
            assert port({}) == 80


        def is_even(n):
            return n % 2 == 1


        def test_even(subtests):
            for n in (2, 4):
                with subtests.test("even check", n=n):
                    assert is_even(n), f"{n} should be even"


        class TestEvenUnittest(unittest.TestCase):
            def test_even_subtest(self):
                with self.subTest(n=6):
                    self.assertTrue(is_even(6), "6 should be even")


        def old(i):
            warnings.warn(f"old() is deprecated, call new() instead (call {i})", DeprecationWarning)
            return i


        @pytest.mark.parametrize("i", range(34))
        def test_old(i):
            assert old(i) == i


        @pytest.mark.parametrize("i", range(40))
        def test_many_passing(i):
            assert i >= 0


        def capitalize_words(text):
            return " ".join(word.capitalize() for word in text.split(" ")[:-1])


        def test_capitalize():
            assert capitalize_words("hello big world") == "Hello Big World"
    ''',
}


def run_pytest(root, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
                         cwd=root, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 1, run.stdout[-3000:] + run.stderr[-3000:]
    return run.stdout


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("real-output")
    for name, text in PROJECT.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def output(project) -> str:
    """The test suite, verbose, its warnings shown (a project's own configuration may ask for both)."""
    return run_pytest(project, "-v", "-W", "always::DeprecationWarning", "tests")


@pytest.fixture(scope="module")
def doctests(project) -> str:
    return run_pytest(project, "--doctest-modules", "pkg")


def item(output: str, test: str) -> FailureItem:
    found = [FailureItem(**i) for i in parse_failure(output).failures if i["test"].startswith(test)]
    assert found, f"no failure item for {test!r} in {[i['test'] for i in parse_failure(output).failures]}"
    return found[0]


def test_the_output_is_the_noisy_kind(output):
    """The run is what the forms are about: PASSED lines of -v, the warnings, all in one output."""
    assert output.count(" PASSED") >= 70
    assert output.count("DeprecationWarning") >= 34
    assert "warnings summary" in output and "direct cause" in output


def test_doctest_mismatch_names_expected_and_got(doctests):
    assert "Expected:" in doctests and "Got:" in doctests
    failure = item(doctests, "[doctest] pkg.mathx.add")
    assert failure.error_type == "DocTestFailure"
    assert "expected 0, got -2" in failure.message
    assert failure.code == ["add(-1, 1)"]


def test_doctest_unexpected_exception_names_the_exception(doctests):
    failure = item(doctests, "[doctest] pkg.mathx.to_int")
    assert failure.error_type == "ValueError"
    assert "invalid number ' 7 '" in failure.message


def test_parametrized_id_with_spaces_and_dashes(output):
    failed = parse_failure(output).failing_tests
    assert "tests/test_forms.py::test_slug[Hello World - again-hello-world---again]" in failed
    failure = item(output, "test_slug[Hello World - again")
    assert failure.error_type == "AssertionError"
    assert "'hello_world_-_again' == 'hello-world---again'" in failure.message


def test_chained_exception_keeps_the_cause(output):
    failure = item(output, "test_port")
    assert failure.error_type.endswith("ConfigError")
    assert "missing setting 'port'" in failure.message
    assert failure.causes == ["KeyError: 'port'"]
    assert "caused by: KeyError: 'port'" in symptom_query(parse_failure(output))


def test_subtests_each_name_their_error(output):
    subtest = item(output, "test_even [even check] (n=2)")
    assert subtest.error_type == "AssertionError" and "2 should be even" in subtest.message
    unit = item(output, "TestEvenUnittest.test_even_subtest")
    assert unit.error_type == "AssertionError" and "6 should be even" in unit.message


def test_warning_heavy_verbose_output_keeps_the_failure_detail(output):
    failure = item(output, "test_capitalize")
    assert failure.error_type == "AssertionError"
    assert "assert 'Hello Big' == 'Hello Big World'" in failure.message
    assert "DeprecationWarning" not in failure.message


@pytest.mark.parametrize("which", ["output", "doctests"])
def test_the_query_names_every_error_not_just_error(which, request):
    query = symptom_query(parse_failure(request.getfixturevalue(which)))
    head = query.split("\nfailing tests:")[0]
    assert not any(line == "Error" or line.startswith("Error:") for line in head.splitlines())
    expected = {"output": ["ConfigError: missing setting", "AssertionError: 2 should be even"],
                "doctests": ["DocTestFailure: doctest expected 0, got -2", "ValueError: invalid number ' 7 '"]}
    for words in expected[which]:
        assert words in head
