"""Tests outside ``tests/`` are acceptance tests too (issue 21, part 3).

Test code is protected by the names pytest collects (``test/``, ``tests/``, ``test_*.py``,
``*_test.py``), by the project's own ``python_files``, by the ids of the tests observe ran, and by
the paths the user adds (``task.protect``, the CLI's ``--protect``). Real sessions through the
compiled graph on the projects in tests/hostile_paths/: a scripted model that tries to edit a test
is refused, the tests stay as they were, and only the source fix is stored. Replay, which writes
through the same workspace, is refused the same way.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from langchain_core.messages import ToolMessage

from astra_memory.context import Context
from astra_memory.errors import WorkspaceError
from astra_memory.scenarios import load_scenario
from astra_memory.session.run import scenario_task, start_session, workspace_task
from astra_memory.tasks import TaskInputError, complete_task
from astra_memory.tools.registry import tool_kind
from astra_memory.workspace.files import Workspace
from astra_memory.workspace.protected import (
    ProtectedPaths,
    files_of_test_ids,
    protected_paths,
)
from tests.helpers import PROJECT_PYTEST, call

HOSTILE = Path(__file__).parent / "hostile_paths"
BESIDE_COMMAND = PROJECT_PYTEST
CUSTOM_COMMAND = f"{PROJECT_PYTEST} -o python_files=verify_*.py checks"
SOURCE_FIX = call("apply_edit", path="app/calc.py", old_text="return a - b", new_text="return a + b")
FINISH = call("finish", fix_description="add() subtracted; it adds now.", error_type="AssertionError")


def project(tmp_path: Path, name: str, copy: str = "proj") -> Path:
    target = tmp_path / copy
    shutil.copytree(HOSTILE / name, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def diagnosed(*calls: dict, cause: str = "add() subtracts its arguments.", files: tuple[str, ...] = ("app/calc.py",)
              ) -> list[dict]:
    """The script, with the diagnosis the edit gate asks for first (where this version has that gate)."""
    if tool_kind("state_diagnosis") is None:
        return list(calls)
    return [call("state_diagnosis", error_type="AssertionError", cause=cause, files=list(files)), *calls]


def refusals(final: dict) -> list[str]:
    return [m.content for m in final["messages"] if isinstance(m, ToolMessage) and m.status == "error"]


# -- the rule ---------------------------------------------------------------------------------------
PROTECTED_BY_NAME = [
    "test/test_calc.py", "test/helpers.py", "src/pkg/tests/helpers.py", "lib/test/data.json",
    "app/calc_test.py", "app/test_helpers.py", "pkg/tests.py", "TESTS/x.py", "app/Test_Calc.py", "App/Calc_Test.PY",
]
EDITABLE = ["app/calc.py", "app/tests_util.py", "app/testing.py", "app/contest.py", "app/latest.py",
            "docs/test.md", "app/test_data.json", "testing/helpers.py", "app/attestation.py"]


def test_test_code_is_protected_by_name_at_any_depth():
    rule = ProtectedPaths.of(None)
    for rel in PROTECTED_BY_NAME:
        assert rel in rule, rel
    for rel in EDITABLE:
        assert rel not in rule, (rel, rule.why(rel))
    assert "test folder (test/)" in rule.why("test/test_calc.py")
    assert "pytest collects *_test.py" in rule.why("app/calc_test.py")


def test_the_workspace_refuses_edits_to_tests_outside_tests(tmp_path):
    proj = project(tmp_path, "tests_beside_code")
    workspace = Workspace(proj)  # the default rule, as bench and scripts build it
    for path, old in [("test/test_calc.py", "== total"), ("app/calc_test.py", "== 2")]:
        with pytest.raises(WorkspaceError, match="read-only to the agent"):
            workspace.apply_edit(path, old, "!= 0")
    assert workspace.apply_edit("app/calc.py", "a - b", "a + b").path == "app/calc.py"


def test_the_files_of_test_ids_and_never_a_doctests_module():
    ids = ["checks/verify_calc.py::test_double", "a/b.py::TestC::test_x[1.5-2]", "app/calc.py::app.calc.double",
           "/abs/x.py::test_t", "../up.py::test_t", "broken_check.py", "a/b.py::TestC::test_y"]
    assert files_of_test_ids(ids) == ("checks/verify_calc.py", "a/b.py", "broken_check.py")
    state = {"failure": {"failing_tests": ["checks/verify_calc.py::test_double"]},
             "test_runs": [{"phase": "observe", "tests": {"specs/spec_ok.py::test_ok": "passed"}},
                           {"phase": "test", "tests": {"later/new_check.py::test_n": "failed"}}]}
    rule = protected_paths({"workspace": None, "protected": ["tests"]}, state)
    assert "checks/verify_calc.py" in rule and "specs/spec_ok.py" in rule  # failing, and passing at observe
    assert "later/new_check.py" not in rule  # only what observe collected
    assert "collected when the session started" in rule.why("checks/verify_calc.py")


def test_the_projects_python_files_are_protected_as_read_from_the_snapshot(tmp_path):
    proj = project(tmp_path, "tests_beside_code")
    assert "python_files = check_*.py in the project's pytest.ini" in ProtectedPaths.of(None, workspace=proj).why(
        "checks/check_calc.py")
    snapshot = tmp_path / "pristine"
    shutil.copytree(proj, snapshot)
    (proj / "pytest.ini").write_text("[pytest]\n")  # a test run rewrote the config: the snapshot's still holds
    task = {"workspace": str(proj), "protected": ["tests"], "test_command": BESIDE_COMMAND}
    assert "checks/check_calc.py" in protected_paths(task, {"pristine": str(snapshot)})
    assert "checks/check_calc.py" not in protected_paths(task, {})


def test_pyproject_python_files_apply_under_its_testpaths(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.pytest.ini_options]\npython_files = ["spec_*.py", "*_spec.py"]\ntestpaths = ["specs", "pkg/*/specs"]\n')
    rule = ProtectedPaths.of(None, workspace=tmp_path)
    for rel in ("specs/spec_a.py", "specs/deep/b_spec.py", "pkg/one/specs/spec_c.py"):
        assert rel in rule, rel
    for rel in ("app/spec_b.py", "pkg/one/spec_c.py", "specs/helpers.py"):
        assert rel not in rule, rel
    (tmp_path / "pyproject.toml").write_text("[tool.pytest.ini_options\nbroken")  # pytest would refuse it too
    assert "app/spec_b.py" not in ProtectedPaths.of(None, workspace=tmp_path)


# -- the task field (scripts, Studio) and workspace_task(protect=...) (the CLI's --protect) ---------
def test_protect_adds_checked_paths_to_the_declared_ones(settings, tmp_path):
    proj = project(tmp_path, "tests_beside_code")
    task = workspace_task(proj, BESIDE_COMMAND, settings, "protect-1", protect=["golden", str(proj / "app/calc.py")])
    assert task["protected"] == ["tests", "golden", "app/calc.py"]
    raw = {"workspace": str(proj), "test_command": BESIDE_COMMAND, "protect": ["golden/cases.json", "./golden"]}
    completed = complete_task(raw, thread_id="protect-2", settings=settings, context=Context())
    assert completed["protected"] == ["tests", "golden/cases.json", "golden"] and "protect" not in completed
    given = {**raw, "run_dir": str(tmp_path / "run"), "session_id": "protect-3"}  # a complete task (the CLI's)
    assert complete_task(given, thread_id=None, settings=settings, context=Context())["protected"] == [
        "tests", "golden/cases.json", "golden"]
    alpha = scenario_task(load_scenario("alpha"), settings, "protect-4", protect=["app/cors.py"])
    assert alpha["protected"] == ["tests", "app/cors.py"] and "app/cors.py" in protected_paths(alpha)
    studio = complete_task({"scenario": "alpha", "protect": ["app/cors.py"]}, thread_id="protect-5",
                           settings=settings, context=Context())
    assert studio["protected"] == ["tests", "app/cors.py"]


@pytest.mark.parametrize(("given", "says"), [
    ("../outside", "'..'"), ("/etc", "outside the workspace"), ("nope/missing.py", "does not exist"),
    (".", "whole workspace"), ("", "not a path"),
])
def test_protect_refuses_paths_outside_or_missing(settings, tmp_path, given, says):
    proj = project(tmp_path, "tests_beside_code")
    with pytest.raises(WorkspaceError, match=says):
        workspace_task(proj, BESIDE_COMMAND, settings, "bad-protect", protect=[given])
    with pytest.raises(TaskInputError, match=f"task.protect: .*{says}"):
        complete_task({"workspace": str(proj), "test_command": BESIDE_COMMAND, "protect": ["golden", given]},
                      thread_id="bad-protect-2", settings=settings, context=Context())


# -- whole sessions: a scripted model that edits a test is refused ------------------------------------
CASES = [  # (test path, old, new, what the refusal says, protect)
    ("test/test_calc.py", "== total", "!= total", "test folder (test/)", None),
    ("app/calc_test.py", "== 2", "== 0", "pytest collects *_test.py", None),
    ("checks/check_calc.py", "== -2", "== 0", "python_files = check_*.py", None),
    ("golden/cases.json", "[2, 3, 5]", "[2, 3, -1]", "'golden' is declared protected", ["golden"]),
]


@pytest.mark.slow
@pytest.mark.parametrize(("path", "old", "new", "says", "protect"), CASES, ids=[c[0] for c in CASES])
def test_a_model_editing_tests_outside_tests_is_refused(agent, settings, tmp_path, path, old, new, says, protect):
    proj = project(tmp_path, "tests_beside_code")
    before = (proj / path).read_text()
    task = workspace_task(proj, BESIDE_COMMAND, settings, "beside", protect=protect)
    task.update(approve_edits=False, script=diagnosed(call("apply_edit", path=path, old_text=old, new_text=new),
                                                      SOURCE_FIX, FINISH))
    final = start_session(agent, task)
    assert final["status"] == "fixed", final.get("reason")
    (refusal,) = refusals(final)
    assert says in refusal and "read-only to the agent" in refusal, refusal
    assert (proj / path).read_text() == before
    assert [e["path"] for e in final["edits"]] == ["app/calc.py"]
    assert agent.memory.get(final["stored_memory_id"]).file_paths == ["app/calc.py"]


@pytest.mark.slow
def test_a_test_file_of_any_name_that_pytest_ran_is_refused(agent, settings, tmp_path):
    """``-o python_files=verify_*.py`` is in no config file: the file is known from observe's test ids."""
    proj = project(tmp_path, "custom_collection")
    before = (proj / "checks" / "verify_calc.py").read_text()
    task = workspace_task(proj, CUSTOM_COMMAND, settings, "custom")
    task.update(approve_edits=False, script=diagnosed(
        call("apply_edit", path="checks/verify_calc.py", old_text="== 10", new_text="== 7"),
        call("apply_edit", path="app/calc.py", old_text="return x + 2", new_text="return x * 2"), FINISH))
    final = start_session(agent, task)
    assert final["status"] == "fixed", final.get("reason")
    (refusal,) = refusals(final)
    assert "checks/verify_calc.py holds tests pytest collected when the session started" in refusal
    assert (proj / "checks" / "verify_calc.py").read_text() == before


@pytest.mark.slow
def test_replay_is_refused_a_stored_diff_that_edits_tests(agent, settings, tmp_path):
    """A fix in memory that edited a test (stored by an older version, or imported) is not replayed."""
    first = project(tmp_path, "tests_beside_code", "first")
    probe = start_session(agent, {**workspace_task(first, BESIDE_COMMAND, settings, "probe"), "approve_edits": False})
    assert probe["status"] == "needs_model"  # no model: what the memory is searched with is all we need
    test_file = "test/test_calc.py"
    text = (first / test_file).read_text()
    diff = (f"--- a/{test_file}\n+++ b/{test_file}\n@@ -10,2 +10,2 @@\n     for a, b, total in CASES:\n"
            f"-        assert add(a, b) == total\n+        assert add(a, b) != total\n")  # a "fix" that edits the test
    outcome = "pytest passed with exit code 0 (3 passed)"
    stored = agent.memory.store_fix_memory("Relax the test.", "AssertionError", [test_file], outcome,
                                           confirmed_outcome=outcome, symptom=probe["memory"]["query"], diff=diff,
                                           session_id="old-version", project="proj")
    second = project(tmp_path, "tests_beside_code", "second")
    final = start_session(agent, {**workspace_task(second, BESIDE_COMMAND, settings, "replay-cheat"),
                                  "approve_edits": False})
    (attempt,) = final["replay"]["tried"]
    assert attempt["memory_id"] == stored.memory_id
    assert attempt["result"].startswith("does not apply") and "test folder (test/)" in attempt["result"]
    assert (second / test_file).read_text() == text and not final.get("edits")


def test_the_cli_protect_option_reaches_the_task_and_refuses_a_path_outside(tmp_path):
    """`run --workspace ... --protect PATH`: the path is protected for the whole session (the
    checkpointed task holds it); one outside the workspace is refused before anything runs."""
    import json

    from tests.conftest import cli_env, run_cli

    root = project(tmp_path, "tests_beside_code")
    command = PROJECT_PYTEST
    outside = run_cli("run", "--workspace", str(root), "--test-command", command, "--protect", "../elsewhere",
                      "--no-approve-edits", "--json", env=cli_env())
    assert outside.returncode == 2 and "elsewhere" in outside.stderr and "Traceback" not in outside.stderr
    ran = run_cli("run", "--workspace", str(root), "--test-command", command, "--protect", "app/calc.py",
                  "--thread-id", "protect-cli", "--no-approve-edits", "--json", env=cli_env())
    assert ran.returncode in (0, 1, 2), ran.stderr[-2000:]
    assert json.loads(ran.stdout)["thread_id"] == "protect-cli"
    from astra_memory.session.run import open_reader, thread_state

    with open_reader() as agent:
        task = thread_state(agent, "protect-cli").values["task"]
    assert "app/calc.py" in task["protected"]
