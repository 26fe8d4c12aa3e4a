"""Two tests of one name in two modules are two tests (outside round 7, case 08): a project's learned fix
for ``tests/test_strs.py::test_empty`` is not "this project's fix for the same failing test" when
``tests/test_ints.py::test_empty`` fails, in the evidence rule, the ranking, the recurrence rule's ties and
the ``why:`` line; the same test failing again is still. The symptom carries the ids on a line of its own
that is never embedded nor matched word for word (testrun/same_ids.py), so the scores do not move."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from astra_memory.learn.session import new_job, open_learner, start_learn, summary
from astra_memory.stores.confidence import SAME_TEST, project_tie, strength
from astra_memory.stores.why import names_shared, shared
from astra_memory.testrun.same_ids import parse_test_id, same_tests, searched_text
from astra_memory.testrun.symptoms import failing_tests, parse_failure, symptom_query
from astra_memory.workspace.identity import project_identity
from tests.helpers import PROJECT_PYTEST, git

INT_OK, INT_BAD = "def total(xs):\n    return sum(xs)\n", "def total(xs):\n    return sum(xs) if xs else None\n"
STR_OK, STR_BAD = "def joined(xs):\n    return ','.join(xs)\n", "def joined(xs):\n    return ','.join(xs) if xs else None\n"
T_INT = "from intmath import total\n\n\ndef test_empty():\n    assert total([]) == 0\n"
T_STR = "from strutil import joined\n\n\ndef test_empty():\n    assert joined([]) == ''\n"


def commit(where: Path, message: str, files: dict[str, str]) -> None:
    for name, text in files.items():
        (where / name).parent.mkdir(parents=True, exist_ok=True)
        (where / name).write_text(text)
    git(where, "add", "-A")
    git(where, "commit", "-q", "-m", message)


def failing_output(where: Path) -> str:
    """The project's real pytest output, as observe reads it."""
    run = subprocess.run([sys.executable, *PROJECT_PYTEST.split()[1:], "tests"], cwd=where,
                         capture_output=True, text=True)
    assert run.returncode == 1, run.stdout
    return run.stdout


def query_for(where: Path) -> tuple[str, str]:
    output = failing_output(where)
    return symptom_query(parse_failure(output)), output


def test_a_learned_fix_for_a_test_of_the_same_name_in_another_module_is_not_the_same_failing_test(
        settings, agent, tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    git(project, "init", "-q")
    commit(project, "initial import", {"intmath.py": INT_OK, "strutil.py": STR_BAD, "tests/test_ints.py": T_INT})
    commit(project, "Fix joined of an empty list", {"strutil.py": STR_OK, "tests/test_strs.py": T_STR})
    with open_learner(settings) as learner:
        data = summary(start_learn(learner, new_job(project, settings=settings, test_command=PROJECT_PYTEST,
                                                    python=sys.executable)))
    assert [r["verdict"] for r in data["results"]] == ["confirmed"], data
    [record] = agent.memory.iter_records()
    identity = project_identity(project, settings.home).project_id
    value = record.to_store_value()
    assert "failing test ids: tests/test_strs.py::test_empty" in record.symptom
    assert record.embed_text == f"{searched_text(record.symptom)}\nFix: {record.fix_description}"
    assert "test_strs.py" not in record.embed_text  # the ids are never embedded

    # Another module's test of the same name fails: the names agree, the tests do not.
    (project / "intmath.py").write_text(INT_BAD)
    other, output = query_for(project)
    assert "failing tests: empty" in other and "failing test ids: tests/test_ints.py::test_empty" in other
    failing = failing_tests(other)
    assert project_tie(value, failing, frozenset()) != SAME_TEST
    # this project's fix, not tied to this failure, and for a test of another test file (round 4: ranked below its fixes
    # from the same test file)
    assert strength(value, identity, failing, frozenset()) == 2
    assert names_shared(other, record)[0] == []  # the why: line names no same failing test
    assert not {"ids", "test_empty"} & set(shared(other, record)[1])  # nor the ids line's words
    hits = agent.memory.search_codebase_memory(other, project_id=identity, min_score=-1.0)
    assert [hit.evidence for hit in hits if hit.record.memory_id == record.memory_id] != [SAME_TEST]

    # The same test failing again is the same failing test.
    (project / "intmath.py").write_text(INT_OK)
    (project / "strutil.py").write_text(STR_BAD)
    again, _ = query_for(project)
    failing = failing_tests(again)
    assert project_tie(value, failing, frozenset()) == SAME_TEST
    assert strength(value, identity, failing, frozenset()) == 0
    assert names_shared(again, record)[0] == ["empty"]
    [hit] = [h for h in agent.memory.search_codebase_memory(again, project_id=identity) if h.record.memory_id
             == record.memory_id]
    assert hit.evidence == SAME_TEST

    # A record stored before the ids line: a learned one is known by its commit's tests; a session's names
    # its tests in words only, which are then compared as before (never a weaker claim than before).
    old = {**value, "symptom": searched_text(record.symptom)}
    assert project_tie(old, failing_tests(other), frozenset()) != SAME_TEST
    assert project_tie(old, failing_tests(again), frozenset()) == SAME_TEST
    unknown = {**old, "learned_from": None}
    assert project_tie(unknown, failing_tests(other), frozenset()) == SAME_TEST


def test_the_same_test_is_the_same_id_up_to_its_parameters_class_and_rootdir():
    def same(a: str, b: str) -> bool:
        return parse_test_id(a).same(parse_test_id(b))

    assert same("tests/test_x.py::test_a[1-2]", "tests/test_x.py::test_a[3]")  # a parametrized test's cases
    assert same("tests/test_x.py::test_a", "/home/u/proj/tests/test_x.py::test_a")  # another rootdir
    # two relative paths must be equal: within one project a leading part is a package (outside round 8, 03)
    assert not same("tests/test_x.py::test_a", "test_x.py::test_a")
    assert not same("sub/tests/test_util.py::test_empty", "tests/test_util.py::test_empty")
    assert same("pkg/tests.py::TestA::test_a", "pkg.tests::TestA::test_a")  # a unittest id
    assert not same("tests/test_x.py::test_a", "tests/test_y.py::test_a")
    assert not same("tests/test_x.py::TestA::test_a", "tests/test_x.py::TestB::test_a")
    assert not same("a/tests/test_x.py::test_a", "b/tests/test_x.py::test_a")
    assert parse_test_id("TestA.test_a") is None  # a section name: no module known


UNITTEST = """\
======================================================================
FAIL: test_empty (pkg.{module}.TestTotal.test_empty)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/p/pkg/{module}.py", line 5, in test_empty
    self.assertEqual(total([]), 0)
AssertionError: None != 0

----------------------------------------------------------------------
Ran 1 test in 0.001s

FAILED (failures=1)
"""


def test_unittest_output_names_its_tests_module():
    ints, strs = (symptom_query(parse_failure(UNITTEST.format(module=m))) for m in ("test_ints", "test_strs"))
    assert "failing test ids: pkg.test_ints::TestTotal::test_empty" in ints
    assert same_tests(failing_tests(ints), failing_tests(strs)) == frozenset()
    assert same_tests(failing_tests(ints), failing_tests(ints)) == {"empty"}
    pytest_id = "AssertionError\nfailing tests: empty\nfailing test ids: pkg/test_ints.py::TestTotal::test_empty"
    assert same_tests(failing_tests(ints), failing_tests(pytest_id)) == {"empty"}
