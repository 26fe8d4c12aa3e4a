"""A symptom search for a project leaves out that project's fixes for other tests (stores/recurrence.py):
they share the project's names with the failure, not its bug. A recurrence (the same tests failing
again) is found as before, and other projects' fixes are untouched."""

from __future__ import annotations

from astra_memory.backends.sqlite.store import open_sqlite_store
from astra_memory.stores.embeddings import HashEmbeddings
from astra_memory.stores.memory import FixMemory
from astra_memory.stores.recurrence import another_bug_of_the_project
from astra_memory.testrun.symptoms import (
    failing_test_names,
    parse_failure,
    symptom_query,
    traceback_functions,
)

OUTCOME = "pytest passed with exit code 0 (9 passed)"
OUTPUT = """\
=================================== FAILURES ===================================
_______________________________ {test} ________________________________

    def {test}():
>       assert semver.compare("1.0.0", "2.0.0") == -1
E       AssertionError: assert 1 == -1

tests/test_semver.py:12: AssertionError
=========================== short test summary info ============================
FAILED tests/test_semver.py::{test} - AssertionError: assert 1 == -1
========================= 1 failed, 8 passed in 0.05s ==========================
"""


def symptom(test: str) -> str:
    return symptom_query(parse_failure(OUTPUT.format(test=test)))


def test_the_failing_tests_are_read_back_from_the_symptom_line():
    assert failing_test_names(symptom("test_compare_major")) == {"compare major"}
    assert failing_test_names("AssertionError: assert 1 == -1") == frozenset()  # a model's own query
    # a parametrized test's cases are one test
    assert failing_test_names("E\nfailing tests: parse date [2014-02]; parse date [2014]; ceil") == {"parse date", "ceil"}
    value = {"project": "semver", "project_id": "semver", "symptom": symptom("test_compare_major")}
    through = frozenset({"semver.version.bump"})  # this failure went through one of the project's functions
    assert another_bug_of_the_project(value, "semver", frozenset({"bump patch"}), through)
    assert not another_bug_of_the_project(value, "semver", frozenset({"compare major", "bump patch"}), through)
    assert not another_bug_of_the_project(value, "toolz", frozenset({"bump patch"}))  # another project's fix
    assert not another_bug_of_the_project(value, None, frozenset({"bump patch"}))  # no project: no rule
    assert not another_bug_of_the_project(value, "semver", frozenset())  # a query naming no tests
    # A project is its id, never its folder name: a record of a folder named "semver" with no id
    # (stored before ids were kept) or another id is another project's fix.
    assert not another_bug_of_the_project({**value, "project_id": ""}, "semver", frozenset({"bump patch"}))
    assert not another_bug_of_the_project({**value, "project_id": "git:fork"}, "semver", frozenset({"bump patch"}))
    assert not another_bug_of_the_project({"project_id": "semver", "symptom": "no tests named"}, "semver",
                                          frozenset({"bump patch"}))  # a record naming none: kept


def test_a_fix_for_other_tests_in_a_function_this_failure_went_through_is_kept():
    """A later bug in the same function makes other tests fail (bench history, docs/results.md): a
    project's fix for other tests stays a candidate when its failure's traceback went through one of
    the project's functions this failure's went through, or its diff changed one; one that shares none
    is still left out; and where this failure went through none of them, the rule cannot tell."""
    value = {"project_id": "semver", "symptom": symptom("test_compare_major") + "\nin: semver.version.compare"}
    assert traceback_functions(value["symptom"]) == {"semver.version.compare"}
    assert traceback_functions(symptom("test_compare_major")) == frozenset()
    bump = frozenset({"bump patch"})
    assert not another_bug_of_the_project(value, "semver", bump, frozenset({"semver.version.compare", "x.y"}))
    assert another_bug_of_the_project(value, "semver", bump, frozenset({"semver.version.bump"}))
    # a failure whose traceback went through none of ours (the assertion failed in the test): cannot tell, kept
    assert not another_bug_of_the_project(value, "semver", bump)
    plain = {"project_id": "semver", "symptom": symptom("test_compare_major")}
    assert another_bug_of_the_project(plain, "semver", bump, frozenset({"semver.version.compare"}))


def _store(memory: FixMemory, project: str, test: str, fix: str):
    return memory.store_fix_memory(
        fix, "AssertionError", ["semver/version.py"], OUTCOME, confirmed_outcome=OUTCOME, symptom=symptom(test),
        diff=f"--- a/semver/version.py\n+++ b/semver/version.py\n@@ -1 +1 @@\n-x = '{fix}'\n+x = 2\n",
        session_id=fix, project=project, project_id=f"test:{project}")


def test_a_project_sees_its_recurrence_and_not_its_other_bugs(tmp_path):
    with open_sqlite_store(tmp_path / "memory.sqlite", HashEmbeddings()) as store:
        memory = FixMemory(store, min_score=-1)
        same_tests = _store(memory, "semver", "test_compare_major", "operands swapped in compare")
        other_tests = _store(memory, "semver", "test_bump_prerelease", "prerelease token default")
        other_project = _store(memory, "toolz", "test_compare_major", "argument order of thread_last")
        query = symptom("test_compare_major") + "\nin: semver.version.compare"
        found = {h.record.memory_id for h in memory.search_codebase_memory(query, top_k=10, project_id="test:semver")}
        assert found == {same_tests.memory_id, other_project.memory_id}
        # where the failure went through none of the project's functions, the rule cannot tell: kept
        unplaced = symptom("test_compare_major")
        found = {h.record.memory_id for h in memory.search_codebase_memory(unplaced, top_k=10, project_id="test:semver")}
        assert other_tests.memory_id in found
        # Another project searching, or a search for no project: nothing is left out.
        for project in ("toolz", None):
            project_id = f"test:{project}" if project else None
            found = {h.record.memory_id for h in memory.search_codebase_memory(query, top_k=10, project_id=project_id)}
            assert other_tests.memory_id in found
        # The diagnosis search matches causes, not names: the project's other fix stays a candidate.
        found = {h.record.memory_id for h in memory.search_codebase_memory(
            "AssertionError: prerelease token default", top_k=10, project_id="test:semver", against="cause")}
        assert other_tests.memory_id in found
