"""The confirmed-fix gate cannot be passed by editing test machinery, nor by leaving files behind.

Hostile scripted models against the real graph (real pytest subprocesses, real SQLite memory):
an edit of anything that decides whether tests pass is refused as an error observation, and a fix
that passes only in the agent's own workspace is confirmed in a fresh copy of the pre-session
project, fails there, and ends `unconfirmed` with nothing stored.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from langgraph.runtime import Runtime

from astra_memory.context import Context
from astra_memory.errors import ConfirmedFixGateError
from astra_memory.events import read_events
from astra_memory.nodes.store import store
from astra_memory.session.run import start_session
from astra_memory.workspace.files import Workspace
from astra_memory.workspace.protected import ProtectedPaths, command_files
from tests.helpers import (
    ALPHA_DIAGNOSIS,
    ALPHA_FIX,
    FINISH,
    call,
    file_text,
    task_with_script,
)

PASS_EVERYTHING = '''import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    outcome.get_result().outcome = "passed"
'''
BENIGN_CONFTEST = "# fixtures shared by the tests\n"


def _hostile_project(settings, thread_id: str, script: list[dict], files: dict[str, str]):
    """Alpha (its bug unfixed) plus ``files`` in the workspace, before the session starts."""
    task = task_with_script(settings, thread_id, [ALPHA_DIAGNOSIS, *script])  # diagnosed: the edit reaches `edit`
    for rel, text in files.items():
        (Path(task["workspace"]) / rel).parent.mkdir(parents=True, exist_ok=True)
        (Path(task["workspace"]) / rel).write_text(text)
    return task


def _refusals(task) -> list[str]:
    return [e["error"] for e in read_events(task["run_dir"]) if e["event"] == "edit_refused"]


def test_a_model_that_rewrites_the_root_conftest_is_refused_and_nothing_is_stored(agent, settings):
    edit_conftest = call("apply_edit", path="conftest.py", old_text=BENIGN_CONFTEST, new_text=PASS_EVERYTHING)
    task = _hostile_project(settings, "t-conftest", [edit_conftest, FINISH, FINISH, FINISH],
                            {"conftest.py": BENIGN_CONFTEST})
    final = start_session(agent, task)
    assert final["status"] != "fixed" and final.get("stored_memory_id") is None
    assert agent.memory.count() == 0
    assert file_text(task, "conftest.py") == BENIGN_CONFTEST
    (refusal,) = _refusals(task)
    assert "conftest.py is test machinery" in refusal
    # the model was told, as a tool observation, not by a crash
    answer = next(m for m in final["messages"] if getattr(m, "tool_call_id", None) == "call_scripted_1")
    assert answer.status == "error" and "read-only" in answer.content


@pytest.mark.parametrize(("rel", "before", "after"), [
    # `--co` only collects: exit code 0, "pytest passed", with every test still failing
    ("pytest.ini", "[pytest]\naddopts = -q\n", "[pytest]\naddopts = -q --co\n"),
    ("pyproject.toml", '[tool.pytest.ini_options]\naddopts = "-q"\n', '[tool.pytest.ini_options]\naddopts = "-q --co"\n'),
    ("setup.cfg", "[tool:pytest]\naddopts = -q\n", "[tool:pytest]\naddopts = -q --co\n"),
])
def test_a_model_that_edits_pytest_configuration_is_refused(agent, settings, rel, before, after):
    task = _hostile_project(settings, f"t-config-{rel.replace('.', '-')}",
                            [call("apply_edit", path=rel, old_text=before, new_text=after), FINISH, FINISH, FINISH],
                            {rel: before})
    final = start_session(agent, task)
    assert final["status"] != "fixed" and agent.memory.count() == 0
    assert file_text(task, rel) == before
    (refusal,) = _refusals(task)
    assert f"{rel} is test machinery" in refusal


# The model's "fix" makes the source write a conftest.py that passes everything, when a test run
# imports it; pytest loads conftest.py before it imports the tests, so the file counts only from
# the *next* run: the first finish() fails, the second passes in the agent's workspace.
PLANT = call("apply_edit", path="app/settings.py", old_text="import os\n", new_text=(
    "import os\n"
    "import pathlib\n"
    "_here = pathlib.Path(__file__).resolve().parent.parent / 'conftest.py'\n"
    f"_here.exists() or _here.write_text({PASS_EVERYTHING!r})\n"))


def test_a_fix_that_passes_only_in_the_agents_workspace_ends_unconfirmed(agent, settings):
    task = task_with_script(settings, "t-planted", [ALPHA_DIAGNOSIS, PLANT, FINISH, FINISH])
    final = start_session(agent, task)
    # In the workspace the planted conftest.py made the second run pass ...
    assert (Path(task["workspace"]) / "conftest.py").exists()
    assert final["test_runs"][-1]["passed"] and final["passed_outcome"]
    # ... but the fresh copy of the pre-session project, with only the session's edit, fails.
    assert final["status"] == "unconfirmed"
    assert "fresh copy" in final["reason"] and "not a pass: still failing: tests/test_cors.py::" in final["reason"]
    assert final["confirm"]["passed"] is False and final["confirm"]["files"] == ["app/settings.py"]
    assert final.get("stored_memory_id") is None and agent.memory.count() == 0
    assert [e["event"] for e in read_events(task["run_dir"])][-2:] == ["confirm", "report"]
    report = (Path(task["run_dir"]) / "report.json").read_text()
    assert '"status": "unconfirmed"' in report


def test_a_source_file_changed_after_the_last_edit_is_not_the_sessions_fix(agent, settings):
    """The "fix" makes a test run rewrite the source into the real fix, after the edit: the second
    run passes in the workspace, but the file is not what the session's edit made it, so the
    fresh copy is not built from it."""
    bug, fix = ALPHA_FIX["args"]["old_text"], ALPHA_FIX["args"]["new_text"]
    rewrite = call("apply_edit", path="app/settings.py", old_text="import os\n", new_text=(
        "import os\n"
        "import pathlib\n"
        "_me = pathlib.Path(__file__)\n"
        f"_me.write_text(_me.read_text().replace({bug[:20]!r} + {bug[20:]!r}, {fix[:20]!r} + {fix[20:]!r}))\n"))
    task = task_with_script(settings, "t-rewritten", [ALPHA_DIAGNOSIS, rewrite, FINISH, FINISH])
    final = start_session(agent, task)
    assert final["test_runs"][-1]["passed"]  # in the workspace, the rewritten source passes
    assert final["status"] == "unconfirmed" and agent.memory.count() == 0
    assert "app/settings.py changed after the session's last edit" in final["reason"]


def test_an_honest_fix_is_confirmed_and_its_fresh_outcome_stored(agent, settings):
    task = task_with_script(settings, "t-honest", [ALPHA_DIAGNOSIS, ALPHA_FIX, FINISH])
    final = start_session(agent, task)
    assert final["status"] == "fixed"
    assert final["confirm"]["passed"] and final["confirm"]["files"] == ["app/settings.py"]
    record = agent.memory.get(final["stored_memory_id"])
    assert record.outcome == final["confirm"]["outcome"] == "4 of 4 failing tests now pass; 4 passed, 0 failed"
    # the fresh copy is the snapshot plus the edit: the template's tests, the fixed source
    fresh = Path(task["run_dir"]) / "confirm"
    assert (fresh / "app" / "settings.py").read_text() == file_text(task, "app/settings.py")
    assert not (fresh / "conftest.py").exists()


def test_store_requires_the_fresh_copy_result(agent, settings):
    task = task_with_script(settings, "t-store-fresh")
    outcome = "pytest passed with exit code 0 (4 passed)"
    state = {"task": task, "test_runs": [{"passed": True, "outcome": outcome, "edits_seen": 1}],
             "edits": [{"path": "app/settings.py", "diff": "", "before_sha256": "a", "after_sha256": "b"}],
             "passed_outcome": outcome, "fix": FINISH["args"], "failure": {"error_type": "AssertionError"}}
    runtime = Runtime(context=Context(), store=agent.memory.store)
    fresh = {"passed": True, "outcome": outcome, "confirms": outcome, "edits_seen": 1}
    for confirm in (None, {**fresh, "passed": False}, {**fresh, "edits_seen": 0}):
        with pytest.raises(ConfirmedFixGateError, match="fresh copy"):
            store({**state, "confirm": confirm}, runtime)
    assert agent.memory.count() == 0


PROTECTED = [
    "tests/test_cors.py", "conftest.py", "app/conftest.py", "deep/er/conftest.py", "pytest.ini", ".pytest.ini",
    "tox.ini", "setup.cfg", "pyproject.toml", "sub/pyproject.toml", "noxfile.py", "sitecustomize.py",
    "usercustomize.py", ".venv/lib/python3.11/site-packages/_pytest/main.py", "node_modules/x/index.js",
    "lib/site-packages/pytest.py", "run_tests.sh", "ci/pytest-ci.ini",
]
EDITABLE = ["app/settings.py", "app/conftest_helpers.py", "app/tests_util.py", "README.md", "setup.py",
            "app/pyproject_reader.py", "venvs.py"]


def test_the_protected_path_rule(tmp_path):
    for rel in ("run_tests.sh", "ci/pytest-ci.ini", "app/settings.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    rule = ProtectedPaths.of(["tests"], workspace=tmp_path,
                             test_command="bash run_tests.sh -c ci/pytest-ci.ini --rootdir=app app /bin/true")
    assert rule.command_files == ("run_tests.sh", "ci/pytest-ci.ini")  # files only: `app` stays editable
    for rel in PROTECTED:
        assert rel in rule, rel
    for rel in EDITABLE:
        assert rel not in rule, rel
    assert command_files(tmp_path, "pytest 'unbalanced") == ()
    assert command_files(tmp_path, "python ../outside.py") == ()


def test_the_workspace_refuses_machinery_writes_but_reads_them(tmp_path):
    (tmp_path / "conftest.py").write_text(BENIGN_CONFTEST)
    workspace = Workspace(tmp_path)  # the default rule: tests/ plus the machinery
    assert workspace.read_file("conftest.py") == BENIGN_CONFTEST
    with pytest.raises(Exception, match="test machinery"):
        workspace.apply_edit("conftest.py", BENIGN_CONFTEST, PASS_EVERYTHING)
    assert (tmp_path / "conftest.py").read_text() == BENIGN_CONFTEST
