"""Who lets a stored diff run (issue 21, parts 4 and 6): whole sessions through the compiled graph,
real test subprocesses, on SQLite and on PostgreSQL.

- An imported fix is replayed only with a human's approval; with no one to ask (a CLI run with no
  terminal, a script) the replay is skipped and the replay info says why.
- A fix moves into another project only with a human's approval, or once it was confirmed here in
  two projects; the run says which.
- A fix that special-cases the test runner (reads PYTEST_CURRENT_TEST) ends `unconfirmed`, nothing
  stored, naming the line; with a human's approval of that edit it is stored, and it is replayed
  only with a human's approval again.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from astra_memory.context import Context
from astra_memory.scenarios import load_scenario
from astra_memory.session.run import start_session, workspace_task
from tests.conftest import BACKENDS, cli_env, run_cli
from tests.helpers import PROJECT_TESTS, clone, repository, task_with_script

both_backends = pytest.mark.parametrize("backend", BACKENDS, indirect=True)

TEST_COMMAND = PROJECT_TESTS
SETTINGS = "app/settings.py"
BROKEN = '    return [origin for origin in raw.split(",") if origin]\n'
FIXED = '    return [origin.strip() for origin in raw.split(",") if origin.strip()]\n'
RUNNER_CHECK = '    _under_pytest = bool(__import__("os").environ.get("PYTEST_CURRENT_TEST"))\n'


def tree(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and "__pycache__" not in p.parts}


def copy_of_alpha(tmp_path: Path, where: str, project: str) -> Path:
    """Alpha's project as a folder named ``project``, not under git: a project of its own
    (workspace/identity.py), whatever its name."""
    target = tmp_path / where / project
    shutil.copytree(load_scenario("alpha").template, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def clone_of_alpha(tmp_path: Path, where: str, project: str) -> Path:
    """A git clone, named ``project``, of one repository holding alpha's project: every clone is
    the same project (workspace/identity.py), whatever its folder's name."""
    origin = tmp_path / "origin-alpha"
    if not origin.exists():
        repository(origin, load_scenario("alpha").template)
    return clone(origin, tmp_path / where / project)


def unattended(agent, settings, project: Path, thread_id: str) -> dict:
    """No one answers approvals (a script; the CLI without a terminal)."""
    return start_session(agent, {**workspace_task(project, TEST_COMMAND, settings, thread_id), "approve_edits": False})


def attended(agent, settings, project: Path, thread_id: str, answer="approve") -> tuple[dict, list[dict]]:
    asked: list[dict] = []
    final = start_session(agent, workspace_task(project, TEST_COMMAND, settings, thread_id),
                          on_approval=lambda request: asked.append(request) or answer)
    return final, asked


def fix_alpha(agent, settings, thread_id: str = "first-alpha") -> str:
    final = start_session(agent, task_with_script(settings, thread_id))
    assert final["status"] == "fixed" and final["budget"]["model_requests"] > 0, final["reason"]
    return final["stored_memory_id"]


@both_backends
def test_an_imported_fix_is_replayed_only_with_a_humans_approval(agent, settings, tmp_path):
    memory_id = fix_alpha(agent, settings)
    exported = tmp_path / "export.jsonl"
    exported.write_text(agent.memory.get(memory_id).model_dump_json() + "\n")
    agent.memory.delete(memory_id)
    from astra_memory.stores.transfer import import_jsonl

    assert import_jsonl(agent.memory, exported) == 1

    # The CLI with no terminal (stdin is not a tty here): nobody to ask, so no replay, and it says why.
    project = copy_of_alpha(tmp_path, "c1", "corsgate")
    before = tree(project)
    env = cli_env(**({"ASTRA_DATABASE_URL": settings.database_url} if settings.database_url else {}))
    ran = run_cli("run", "--workspace", str(project), "--test-command", TEST_COMMAND, "--thread-id", "no-tty",
                  "--json", env=env)
    summary = json.loads(ran.stdout)
    assert summary["status"] == "needs_model" and summary["model_requests"] == 0, ran.stderr
    (attempt,) = summary["replay_tried"]
    assert attempt["memory_id"] == memory_id and attempt["result"].startswith("skipped: replaying it needs a human's")
    assert "were all imported" in attempt["result"] and "no one answers approvals" in attempt["result"]
    assert f"{memory_id}: skipped: replaying it needs a human's approval" in summary["reason"]
    assert tree(project) == before and not summary["replayed_memory_id"]
    assert not agent.memory.get(memory_id).confirmed_here

    # A human approves it: replayed, confirmed here, and from now on this installation's own fix.
    final, asked = attended(agent, settings, clone_of_alpha(tmp_path, "c2", "corsgate"), "approved")
    approved = final["stored_memory_id"]  # this project's own record of the fix (ids are per project)
    assert [(r["kind"], r["memory_id"]) for r in asked] == [("approve_replay", memory_id)]
    assert any("imported" in why for why in asked[0]["why"])
    assert final["status"] == "fixed" and final["replay"]["replayed"] == memory_id
    assert final["budget"].get("model_requests", 0) == 0 and "approved by a human" in final["reason"]
    record = agent.memory.get(memory_id)
    assert record.confirmed_here and [(c.thread_id, c.imported) for c in record.confirmations] == [
        ("first-alpha", True), ("approved", False)]

    # Another clone of that repository, under another name: the same project, so replayed unasked.
    final = unattended(agent, settings, clone_of_alpha(tmp_path, "c3", "corsgate-clone"), "trusted-now")
    assert final["status"] == "fixed" and final["replay"]["replayed"] in {memory_id, approved}
    # A folder of the same name holding no repository is another project: not unasked.
    final = unattended(agent, settings, copy_of_alpha(tmp_path, "c4", "corsgate"), "same-name-only")
    assert final["status"] == "needs_model" and "another project" in final["replay"]["tried"][0]["result"]


@both_backends
def test_a_fix_moves_to_another_project_with_approval_or_after_two_projects(agent, settings, tmp_path):
    memory_id = fix_alpha(agent, settings)  # confirmed in corsgate only

    other = copy_of_alpha(tmp_path, "c1", "othergate")
    before = tree(other)
    final = unattended(agent, settings, other, "other-unasked")
    assert final["status"] == "needs_model" and tree(other) == before
    (attempt,) = final["replay"]["tried"]
    assert attempt["memory_id"] == memory_id and attempt["result"].startswith("skipped: replaying it needs a human's")
    assert "a fix from another project (corsgate), confirmed here in 1 project(s) (corsgate)" in attempt["result"]
    assert final["replay"]["skipped"].startswith("not replayed without a human's approval")

    final, asked = attended(agent, settings, copy_of_alpha(tmp_path, "c2", "othergate"), "other-approved")
    assert [r["memory_id"] for r in asked] == [memory_id] and "another project" in asked[0]["question"]
    assert final["status"] == "fixed" and final["replay"]["replayed"] == memory_id
    assert "approved by a human: it is a fix from another project (corsgate)" in final["reason"]
    assert list(agent.memory.get(memory_id).projects_confirmed_here.values()) == ["corsgate", "othergate"]

    final = unattended(agent, settings, copy_of_alpha(tmp_path, "c3", "thirdgate"), "third-unasked")
    assert final["status"] == "fixed" and final["replay"]["replayed"] == memory_id, final["replay"]
    assert final["budget"].get("model_requests", 0) == 0
    assert ("a fix from another project (corsgate), confirmed here in 2 project(s): corsgate, othergate"
            in final["reason"])


def _script_with(new_text: str) -> list[dict]:
    """Alpha's own solution, its edit's new text replaced."""
    steps = [json.loads(json.dumps(step)) for step in load_scenario("alpha").solution]
    for step in steps:
        if step["tool"] == "apply_edit":
            step["args"]["new_text"] = new_text
    return steps


@both_backends
def test_a_fix_reading_pytest_current_test_is_stored_only_with_a_humans_approval(agent, settings, tmp_path):
    script = _script_with((RUNNER_CHECK + FIXED).rstrip("\n"))
    final = start_session(agent, task_with_script(settings, "runner-check", script))
    assert final["status"] == "unconfirmed" and not final.get("stored_memory_id")
    assert final["confirm"]["passed"]  # the tests pass, in the fresh copy too: only the check refuses it
    assert "special-cases the test runner" in final["reason"] and f"{SETTINGS}:" in final["reason"]
    assert "PYTEST_CURRENT_TEST" in final["reason"] and agent.memory.count() == 0

    asked: list[dict] = []
    final = start_session(agent, task_with_script(settings, "runner-check-approved", script),
                          context=Context(approve_edits=True),
                          on_approval=lambda request: asked.append(request) or "approve")
    assert [r["kind"] for r in asked] == ["approve_edit"] and "PYTEST_CURRENT_TEST" in asked[0]["new_text"]
    assert final["status"] == "fixed" and final["stored_memory_id"], final["reason"]
    memory_id = final["stored_memory_id"]

    # Stored with a human's yes, replayed only with one: unattended, it is skipped and says why.
    project = copy_of_alpha(tmp_path, "c1", "corsgate")
    final = unattended(agent, settings, project, "runner-replay")
    (attempt,) = final["replay"]["tried"]
    assert attempt["memory_id"] == memory_id and "special-cases the test runner" in attempt["result"]
    assert final["status"] == "needs_model" and BROKEN in (project / SETTINGS).read_text()


# -- the static check itself ----------------------------------------------------------------------

@pytest.mark.parametrize("added, what", [
    ('    if "pytest" in sys.modules:\n', "sys.modules"),
    ("    if sys.modules.get('_pytest'): return []\n", "sys.modules"),
    ('    if os.environ.get("PYTEST_CURRENT_TEST"): return []\n', "PYTEST_CURRENT_TEST"),
    ('    if os.getenv("TOX_ENV_NAME"): return []\n', "environment variable"),
    ('    if any(k.startswith("PYTEST_XDIST") for k in os.environ): return []\n', "environment variable"),
    ("    if len(sys.argv) > 1: return []\n", "sys.argv"),
    ("    import _pytest\n", "_pytest"),
    ('    if Path("conftest.py").exists(): return []\n', "conftest"),
    ('    if "pristine" in __file__: return []\n', "snapshot or fresh-copy"),
    ('    if "/confirm/" in os.getcwd(): return []\n', "snapshot or fresh-copy"),
    ('    if "/data/runs/t-1" in __file__: return []\n', "run folder"),
])
def test_runner_checks_flag_the_added_line(added, what):
    from astra_memory.rules.runner_checks import runner_checks

    before = "def origins(raw):\n    return raw\n"
    diff = _diff(before, before.replace("    return raw\n", added + "    return raw\n"))
    (check,) = runner_checks(diff, paths=["/data/runs/t-1"])
    assert check.path == SETTINGS and check.line == 2 and what in check.what + check.describe()


def test_runner_checks_leave_comments_removed_lines_and_the_bundled_fixes_alone():
    from astra_memory.rules.runner_checks import runner_checks
    from astra_memory.scenarios import list_scenarios

    before = 'def origins(raw):\n    # only under pytest: sys.argv\n    return raw\n'
    assert runner_checks(_diff(before, before.replace("raw\n", "raw.strip()  # pytest showed it\n"))) == []
    assert runner_checks(_diff(before, before.replace("    # only under pytest: sys.argv\n", ""))) == []
    for scenario in list_scenarios():
        for step in scenario.solution:
            if step.get("tool") == "apply_edit":
                args = step["args"]
                assert runner_checks(_diff(args["old_text"] + "\n", args["new_text"] + "\n", args["path"])) == []


def _diff(before: str, after: str, path: str = SETTINGS) -> str:
    import difflib

    return "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True), f"a/{path}", f"b/{path}"))


def test_a_fix_confirmed_by_exit_code_alone_is_never_replayed_unasked():
    """Item 1 of issue 21: a test command that is not pytest gives exit-code-only evidence, which
    never replays without a human's approval, even in its own project."""
    from astra_memory.stores.record import utc_now, validate_record
    from astra_memory.stores.trust import replay_trust

    def record(outcome: str):
        now = utc_now()
        return validate_record({
            "memory_id": "5f0c7a52-8c1e-5d5a-9a53-2f1d4c7e0b11", "symptom": "AssertionError: second origin",
            "error_type": "AssertionError", "file_paths": [SETTINGS], "outcome": outcome,
            "fix_description": "strip each origin", "diff": _diff("a\n", "b\n"), "timestamp": now,
            "updated_at": now, "session_id": "s1", "thread_id": "s1", "project": "corsgate",
            "project_id": "git:corsgate", "model": "scripted"})

    weak = record("exit code 0 from `make test` (exit code only: not a pytest run, no per-test results)")
    assert any("exit code alone" in why for why in replay_trust(weak, project_id="git:corsgate").needs_approval)
    strong = record("4 of 4 failing tests now pass; 4 passed, 0 failed")
    assert replay_trust(strong, project_id="git:corsgate").needs_approval == []
